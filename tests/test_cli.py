"""The `pnp` command: output, files written, and one-line errors with exit code 1."""

from __future__ import annotations

import json
import os

import pytest
from typer.testing import CliRunner

from pnp.cli import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_games_lists_components_and_piece_counts():
    result = run("games")
    assert result.exit_code == 0
    assert "hunting-fever" in result.output and "Hunting Fever" in result.output
    assert "player-cards" in result.output and "50 pieces" in result.output
    assert "5 hunter" in result.output and "10 wolf" in result.output


def test_render_writes_a_pdf_and_its_manifest(tmp_path):
    result = run("render", "hunting-fever", "--component", "lodges", "--lang", "fr",
                 "--paper", "letter", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "hunting-fever_fr_letter_lodges.pdf"
    manifest = json.loads((tmp_path / "hunting-fever_fr_letter_lodges.manifest.json").read_text())
    assert pdf.read_bytes().startswith(b"%PDF")
    assert manifest["paper"] == "letter" and manifest["lang"] == "fr"
    assert {i["component"] for p in manifest["pages"] for i in p["items"]} == {"lodges"}
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]


def test_render_a_users_own_template(tmp_path):
    from helpers import write_game
    path = write_game(tmp_path)
    result = run("render", "--template", path, "--out", tmp_path / "out", "--no-crop-marks")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "tiny_en_a4.pdf").exists()


@pytest.mark.parametrize("args, message", [
    (["render", "chess"], "Error: unknown game 'chess'; expected one of:"),
    (["render", "hunting-fever", "--component", "dice"], "Error: hunting-fever has no component 'dice'"),
    (["render", "hunting-fever", "--paper", "a3"], "Error: unknown paper 'a3'; expected one of: a4, letter"),
    (["render", "hunting-fever", "--lang", "de"], "Error: unknown language 'de'"),
    (["render", "hunting-fever", "--bleed", "-1"], "Error: --bleed must be a number of mm from 0 to 10, got -1"),
    (["render", "hunting-fever", "--bleed", "nan"], "Error: --bleed must be a number of mm from 0 to 10, got nan"),
    (["build", "--bleed", "11"], "Error: --bleed must be a number of mm from 0 to 10, got 11"),
    (["render", "hunting-fever", "--back-offset", "nan,nan"], "Error: --back-offset must be two numbers of mm between"),
    (["render", "hunting-fever", "--back-offset", "1e300,0"], "Error: --back-offset must be two numbers of mm between"),
    (["render", "hunting-fever", "--back-offset", "inf,0"], "Error: --back-offset must be two numbers of mm between"),
    (["render", "hunting-fever", "--qr-url", "x" * 2400], "Error: --qr-url must be a web address"),
    (["render", "hunting-fever", "--back-offset", "1;2"], "Error: --back-offset must be two numbers"),
    (["render", "--template", "/nonexistent/kit.toml"], "Error: cannot read template /nonexistent/kit.toml"),
    (["render", "hunting-fever", "--set", "speed=fast"], "Error: --set takes NAME=NUMBER"),
    (["render", "hunting-fever", "--set", "speed=3"], "Error: hunting-fever.toml has no setting 'speed'"),
    (["render"], "Error: name a game"),
])
def test_bad_input_is_one_line_and_exit_1(args, message, tmp_path):
    result = run(*args, "--out", tmp_path) if args[0] == "render" else run(*args)
    assert result.exit_code == 1
    assert result.output.startswith(message), result.output
    assert result.output.count("\n") == 1
    assert "Traceback" not in result.output


def test_a_broken_template_is_one_line(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("[game\nid=", encoding="utf-8")
    result = run("render", "--template", path, "--out", tmp_path)
    assert result.exit_code == 1
    assert result.output.startswith("Error: broken.toml: not valid TOML")


def test_output_folder_that_is_a_file_or_not_writable(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = run("render", "hunting-fever", "--out", blocker)
    assert result.exit_code == 1 and "is a file" in result.output
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if os.access(locked, os.W_OK):
            pytest.skip("running as a user who can write anywhere")
        result = run("render", "hunting-fever", "--out", locked)
        assert result.exit_code == 1 and "not writable" in result.output
    finally:
        locked.chmod(0o700)


def test_a_failed_render_leaves_no_file(tmp_path, monkeypatch):
    from pnp.kit import build
    from pnp.core.errors import TextFitError

    def explode(*args, **kwargs):
        raise TextFitError("text does not fit")

    monkeypatch.setattr(build, "render_kit", explode)
    result = run("render", "hunting-fever", "--out", tmp_path)
    assert result.exit_code == 1
    assert os.listdir(tmp_path) == []


def test_the_output_folder_is_made_only_when_there_is_something_to_write(tmp_path, monkeypatch):
    from pnp.kit import build
    from pnp.core.errors import TextFitError

    made = tmp_path / "new" / "out"
    assert run("render", "halali", "--component", "tiles", "--out", made).exit_code == 0
    assert sorted(p.name for p in made.iterdir()) == ["halali_en_a4_tiles.manifest.json", "halali_en_a4_tiles.pdf"]

    def explode(*args, **kwargs):
        raise TextFitError("text does not fit")

    monkeypatch.setattr(build, "render_kit", explode)
    result = run("render", "halali", "--out", tmp_path / "other" / "out")
    assert result.exit_code == 1
    assert not (tmp_path / "other").exists()


def test_a_kit_is_never_written_over_its_own_template(tmp_path):
    import shutil
    from pathlib import Path

    fixture = Path(__file__).parent / "fixtures" / "toy_game"
    for name in ("acorn-hoard.toml", "acorn-hoard.en.toml", "acorn-hoard.fr.toml"):
        shutil.copy(fixture / name, tmp_path / name)
    template = tmp_path / "acorn-hoard.toml"
    before = template.read_bytes()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "acorn-hoard_en_a4.pdf").symlink_to(template)
    result = run("render", "--template", template, "--out", tmp_path / "out")
    assert result.exit_code == 1 and "acorn-hoard.toml" in result.stderr
    assert template.read_bytes() == before
    assert (tmp_path / "out" / "acorn-hoard_en_a4.pdf").is_symlink()
    assert sorted(os.listdir(tmp_path / "out")) == ["acorn-hoard_en_a4.pdf"]


def test_write_atomically_replaces_whole_files(tmp_path):
    from pnp.kit.build import write_atomically
    target = tmp_path / "kit.pdf"
    target.write_bytes(b"old")
    write_atomically(target, b"new")
    assert target.read_bytes() == b"new"
    assert os.listdir(tmp_path) == ["kit.pdf"]


def test_build_renders_every_game_language_and_paper(tmp_path):
    result = run("build", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    from pnp.template.loader import game_files
    expected = {f"{g}_{lang}_{paper}.pdf" for g in game_files() for lang in ("en", "fr")
                for paper in ("a4", "letter")}
    assert {p.name for p in tmp_path.glob("*.pdf")} == expected
    assert len(list(tmp_path.glob("*.manifest.json"))) == len(expected)
    assert f"wrote {len(expected)} PDFs" in result.output and "pages" in result.output


def test_every_command_has_help_text():
    import typer.main
    group = typer.main.get_command(app)
    for name, command in group.commands.items():
        assert command.help, name
        result = run(name, "--help")
        assert result.exit_code == 0


@pytest.mark.parametrize("args, message", [
    (["render", "hunting-fever", "--bleed", "abc"], "Error: Invalid value for '--bleed'"),
    (["render", "hunting-fever", "--colour", "red"], "Error: No such option '--colour'"),
    (["dance"], "Error: No such command 'dance'."),
])
def test_the_console_script_turns_usage_mistakes_into_one_error_line(args, message):
    import subprocess
    import sys
    # The console script's entry point (pyproject.toml), as `python -m pnp`.
    done = subprocess.run([sys.executable, "-m", "pnp", *args], capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr.startswith(message) and done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr


def test_the_entry_point_renders_and_exits_cleanly(tmp_path):
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "pnp", "render", "halali", "--component", "board",
                           "--out", str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("wrote ") and done.stderr == ""
    assert (tmp_path / "halali_en_a4_board.pdf").read_bytes().startswith(b"%PDF")


def test_the_console_script_is_the_entry_point():
    import tomllib
    from pathlib import Path
    project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())
    assert project["project"]["scripts"]["pnp"] == "pnp.__main__:run"
