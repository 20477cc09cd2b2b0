"""The ``pnp`` entry point: every failure is one ``Error:`` line, a bug included; Ctrl-C exits 130."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from pnp import cli

from pnp.template import loader as templates
LIMIT = 60  # seconds: a guard against a hung child, never a measurement


def entry(monkeypatch, capsys, *args: str) -> tuple[int, str, str]:
    """Run the console script's main() in-process: (exit code, stdout, stderr)."""
    monkeypatch.setattr(sys, "argv", ["pnp", *args])
    with pytest.raises(SystemExit) as ended:
        cli.main()
    out, err = capsys.readouterr()
    return ended.value.code, out, err


def lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


@pytest.fixture
def a_bug(monkeypatch):
    """Make loading a shipped game fail as a bug would."""
    def broken(*args, **kwargs):
        return 1 / 0

    monkeypatch.setattr(templates, "load_shipped_game", broken)


def test_an_unexpected_error_is_one_line_naming_the_command(monkeypatch, capsys, a_bug):
    code, out, err = entry(monkeypatch, capsys, "render", "halali", "--out", "never-written")
    assert code == 1
    assert len(lines(err)) == 1, err
    line = lines(err)[0]
    assert line.startswith("Error: ") and "pnp render" in line and "ZeroDivisionError" in line
    assert "--debug" in line and "report" in line
    assert "Traceback" not in err
    assert not os.path.exists("never-written")


def test_debug_shows_the_traceback_of_an_unexpected_error(monkeypatch, capsys, a_bug):
    code, out, err = entry(monkeypatch, capsys, "--debug", "render", "halali")
    assert code == 1
    assert "Traceback (most recent call last)" in err and "ZeroDivisionError" in err
    assert lines(err)[-1].startswith("Error: ") and "pnp render" in lines(err)[-1]


def test_an_unexpected_error_in_a_score_command_names_it_in_the_language_asked(monkeypatch, capsys, tmp_path):
    import scoring

    def broken(*args, **kwargs):
        raise KeyError("oops")

    monkeypatch.setattr(scoring.session_file, "parse_session_text", broken)
    session = tmp_path / "s.toml"
    session.write_text('game = "halali"\nplayers = ["Ann", "Bob"]\n')
    code, out, err = entry(monkeypatch, capsys, "score", "check", str(session), "--lang", "fr")
    assert code == 1 and len(lines(err)) == 1
    assert "pnp score check" in err and "KeyError" in err and "signalez" in err


def test_an_error_message_spanning_lines_is_shown_on_one(monkeypatch, capsys):
    def broken(*args, **kwargs):
        raise RuntimeError("first line\nsecond line\r\nthird")

    monkeypatch.setattr(templates, "load_shipped_game", broken)
    code, out, err = entry(monkeypatch, capsys, "render", "halali")
    assert code == 1 and len(lines(err)) == 1 and "first line second line third" in err


def test_ctrl_c_exits_130_with_one_line(monkeypatch, capsys):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(templates, "load_shipped_game", interrupted)
    code, out, err = entry(monkeypatch, capsys, "render", "halali")
    assert code == 130
    assert len(lines(err)) == 1 and lines(err)[0].startswith("Error: ") and "Ctrl-C" in err


def test_ctrl_c_at_a_score_prompt_exits_130_and_saves_nothing(tmp_path):
    session = tmp_path / "s.toml"
    text = 'game = "halali"\nplayers = ["Ann", "Bob"]\n'
    session.write_text(text)
    # Ctrl-C as a terminal sends it (a test run in the background may have it ignored).
    child = subprocess.Popen([sys.executable, "-m", "pnp", "score", "add", "s.toml"], cwd=tmp_path, text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert "?" in _read_until_prompt(child)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=LIMIT)
    finally:
        child.kill()
    assert child.returncode == 130
    assert len(lines(err)) == 1 and lines(err)[0].startswith("Error: "), err
    assert session.read_text() == text and sorted(os.listdir(tmp_path)) == ["s.toml"]


def _read_until_prompt(child: subprocess.Popen) -> str:
    seen = b""
    deadline = time.monotonic() + LIMIT
    while b"?" not in seen and time.monotonic() < deadline and child.poll() is None:
        if select.select([child.stdout], [], [], 0.1)[0]:
            seen += os.read(child.stdout.fileno(), 4096)
    return seen.decode()


def test_stdin_closed_at_a_prompt_is_one_error_line_and_exit_1(tmp_path):
    session = tmp_path / "s.toml"
    session.write_text('game = "halali"\nplayers = ["Ann", "Bob"]\n')
    done = subprocess.run([sys.executable, "-m", "pnp", "score", "add", "s.toml"], cwd=tmp_path, input="",
                          capture_output=True, text=True, timeout=LIMIT)
    assert done.returncode == 1
    assert lines(done.stderr) == ["Error: stopped."]


def test_a_closed_pipe_ends_the_command_quietly():
    # `pnp games | head -1`: the reader goes away after one line.
    child = subprocess.Popen([sys.executable, "-m", "pnp", "games"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    child.stdout.readline()
    child.stdout.close()
    err = child.stderr.read().decode()
    child.wait(timeout=LIMIT)
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert child.returncode == 1


def test_the_same_component_asked_twice_is_drawn_once(tmp_path):
    result = CliRunner().invoke(cli.app, ["render", "halali", "--component", "tiles", "--component", "tiles",
                                          "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["halali_en_a4_tiles.manifest.json",
                                                          "halali_en_a4_tiles.pdf"]
    manifest = json.loads((tmp_path / "halali_en_a4_tiles.manifest.json").read_text())
    fronts = [i for p in manifest["pages"] for i in p["items"] if i["face"] == "front"]
    assert len(fronts) == 48


def test_debug_is_documented_as_a_global_option():
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    assert "pnp --debug" in readme


def test_ctrl_c_while_pnp_is_still_loading_exits_130_with_one_line():
    # Ctrl-C that lands while Python is still importing the command.
    script = ("import builtins\n"
              "real = builtins.__import__\n"
              "def interrupted(name, *args, **kwargs):\n"
              "    if name == 'pnp.cli':\n"
              "        raise KeyboardInterrupt\n"
              "    return real(name, *args, **kwargs)\n"
              "builtins.__import__ = interrupted\n"
              "from pnp.__main__ import main\n"
              "main()\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=LIMIT)
    assert done.returncode == 130
    assert lines(done.stderr) == [lines(done.stderr)[0]] and lines(done.stderr)[0].startswith("Error: ")
    assert "Ctrl-C" in done.stderr and "Traceback" not in done.stderr
