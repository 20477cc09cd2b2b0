"""``pnp score import`` and ``pnp score history`` (the history pnp serve keeps), and ``pnp serve``'s start."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from helpers import score_host_app
from scoring.session_csv import dumps as csv_dumps
from pnp.core.errors import PnpError
from pnp.web.serve import check_token, public_url, url_host
from web_helpers import ROOT, beavers, halali, hunting_fever

APP = score_host_app()


def run(*args: str):
    result = CliRunner().invoke(APP, ["score", *map(str, args)])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def write(tmp_path, name: str, raw: dict):
    path = tmp_path / name
    path.write_text(csv_dumps(raw) if name.endswith(".csv") else json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    return path


def test_import_then_history(tmp_path):
    files = [write(tmp_path, "a.json", hunting_fever(1)), write(tmp_path, "b.csv", halali(2)),
             write(tmp_path, "c.json", hunting_fever(3))]
    result = run("import", *files, "--data", tmp_path / "data")
    assert result.exit_code == 0, result.output
    assert [line.split(" (")[0] for line in result.stdout.splitlines()] == [f"Imported {f}" for f in files]
    history = json.loads(run("history", "--data", tmp_path / "data", "--json").stdout)
    assert len(history["sessions"]) == 3
    assert {s["source"] for s in history["sessions"]} == {str(f) for f in files}
    wins = {row["name"]: row["won"] for row in history["players"]["hunting-fever"]}
    winners = [w for raw in (hunting_fever(1), hunting_fever(3)) for w in _winners(raw)]
    assert wins == {name: winners.count(name) for name in hunting_fever(1)["players"]}
    text = run("history", "--data", tmp_path / "data").stdout
    assert text.splitlines()[0] in ("Hunting Fever", "Halali!")
    assert "Average" in text and "Sessions, most recent first:" in text


def _winners(raw: dict) -> list[str]:
    from scoring import check_session, score_session

    return list(score_session(check_session(raw).session).winners)


def test_the_same_session_is_imported_once(tmp_path):
    first = write(tmp_path, "a.json", beavers(4))
    second = write(tmp_path, "copy.csv", beavers(4))
    run("import", first, "--data", tmp_path)
    again = run("import", second, "--data", tmp_path)
    assert again.exit_code == 0 and "already in the history" in again.stdout
    assert len(json.loads(run("history", "--data", tmp_path, "--json").stdout)["sessions"]) == 1


def test_nothing_is_imported_when_one_file_is_wrong(tmp_path):
    good = write(tmp_path, "good.json", halali(5))
    bad = write(tmp_path, "bad.json", {"game": "halali", "players": ["Ann"]})
    result = run("import", good, bad, tmp_path / "missing.toml", "--data", tmp_path / "data", "--lang", "fr")
    assert result.exit_code == 1
    assert f"Error: {bad}\u00a0: 1 problème\u00a0:" in result.stderr
    assert f"Error: {tmp_path / 'missing.toml'}\u00a0: ce fichier n’existe pas." in result.stderr
    assert result.stderr.rstrip().endswith("Rien n’a été importé.")
    assert json.loads(run("history", "--data", tmp_path / "data", "--json").stdout)["sessions"] == []


def test_history_of_one_game_and_of_an_unknown_game(tmp_path):
    run("import", write(tmp_path, "a.json", halali(6)), write(tmp_path, "b.json", beavers(7)), "--data", tmp_path)
    only = json.loads(run("history", "--data", tmp_path, "--game", "halali", "--json").stdout)
    assert [s["game"] for s in only["sessions"]] == ["halali"]
    unknown = run("history", "--data", tmp_path, "--game", "chess")
    assert unknown.exit_code == 1 and unknown.stderr.startswith("Error: unknown game")


def test_an_empty_history_says_how_to_fill_it(tmp_path):
    assert "pnp score import" in run("history", "--data", tmp_path).stdout


def test_a_data_folder_that_cannot_be_used_is_one_error_line(tmp_path):
    (tmp_path / "file").write_text("x")
    result = run("history", "--data", tmp_path / "file")
    assert result.exit_code == 1 and result.stderr == f"Error: data folder {tmp_path / 'file'} is a file\n"


@pytest.mark.parametrize("token", ["short", "has space here", "é" * 10])
def test_an_organiser_token_must_be_safe_in_a_link(token):
    with pytest.raises(PnpError, match="--token"):
        check_token(token)


def test_addresses_for_links():
    assert url_host("::1") == "[::1]" and url_host("192.168.1.2") == "192.168.1.2"
    assert public_url("127.0.0.1", 8765) == "http://127.0.0.1:8765"


def test_serve_reports_a_port_in_use_in_one_line(tmp_path):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "pnp", "serve", "--port", str(port), "--data", str(tmp_path)],
                                capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 1
    assert result.stderr.startswith(f"Error: cannot listen on 127.0.0.1:{port}: ")
    assert len(result.stderr.splitlines()) == 1


def test_drawing_commands_do_not_load_the_web_stack():
    code = ("import sys, pnp.cli; from typer.testing import CliRunner; "
            "CliRunner().invoke(pnp.cli.app, ['games']); "
            "print(sorted(m for m in ('starlette', 'uvicorn', 'jinja2') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.stdout.strip() == "[]", out.stderr
