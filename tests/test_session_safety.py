"""Session files under concurrent and careless use: no lost update, no input overwritten.

Two real ``pnp score add`` processes race for one session; the lock is held by
another process; outputs are aimed at the session itself, at a link to it, at
a template, at a folder that does not exist.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers import score_host_app

APP = score_host_app()
HALALI = 'game = "halali"\nplayers = ["Ann", "Bob"]\n'
# Ann (or Bob) plays blue, then every tile count is left at 0: 6 tiles for blue, 7 for the other.
ROUND = "\n" * 13
LIMIT = 60  # seconds: only a guard against a hung child, never a measurement


def run(*args: str, input: str | None = None):
    result = CliRunner().invoke(APP, ["score", *map(str, args)], input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def error_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def start_add(folder: Path, name: str = "s.toml") -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pnp", "score", "add", name], cwd=folder, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def wait_for_prompt(process: subprocess.Popen) -> str:
    """Read the child's output until its first question: by then it has read the session."""
    seen = b""
    deadline = time.monotonic() + LIMIT
    while b"?" not in seen:
        assert time.monotonic() < deadline and process.poll() is None, seen
        if select.select([process.stdout], [], [], 0.1)[0]:
            seen += os.read(process.stdout.fileno(), 4096)
    return seen.decode()


# -- lost update ---------------------------------------------------------------


def race(tmp_path: Path, first_input: str, second_input: str, session_text: str = HALALI):
    """Two ``pnp score add`` read the session, then the first saves, then the second."""
    session = tmp_path / "s.toml"
    session.write_text(session_text)
    first, second = start_add(tmp_path), start_add(tmp_path)
    wait_for_prompt(first)
    wait_for_prompt(second)  # both have read the session with no round in it
    out1, err1 = first.communicate(first_input, timeout=LIMIT)
    assert first.returncode == 0, err1
    saved_by_first = session.read_bytes()
    out2, err2 = second.communicate(second_input, timeout=LIMIT)
    return session, saved_by_first, second.returncode, out2, err2


def test_two_score_add_at_once_never_lose_a_round(tmp_path):
    # The other writer only added a round: the one typed here goes after it.
    session, _, code, out2, err2 = race(tmp_path, "Ann\n" + ROUND, "Bob\n" + ROUND)
    assert code == 0, err2
    assert "another pnp score add saved Round 1 meanwhile" in out2 and "as Round 2" in out2
    assert [r["blue"] for r in tomllib.loads(session.read_text())["rounds"]] == ["Ann", "Bob"]
    assert sorted(os.listdir(tmp_path)) == ["s.toml", "s.toml.bak"]


def test_a_typed_round_that_cannot_follow_the_other_writers_is_kept_beside_the_session(tmp_path):
    # Both typed Ann as blue: after the first's round 1, the second's cannot be round 2 (roles swap).
    session, saved_by_first, code, out2, err2 = race(tmp_path, "Ann\n" + ROUND, "Ann\n1\n" + "\n" * 12)
    assert code == 1
    lines = error_lines(err2)
    assert len(lines) == 1 and lines[0].startswith("Error: s.toml changed while you typed"), err2
    assert "s.unsaved-round-1.toml" in lines[0]
    assert session.read_bytes() == saved_by_first  # the first round is kept, whole
    kept = tomllib.loads((tmp_path / "s.unsaved-round-1.toml").read_text())
    assert kept["rounds"] == [{"blue": "Ann", "tiles": {"Ann": {"bear": 1}, "Bob": {}}}]
    assert "Saved" not in out2


def test_the_same_round_typed_twice_is_saved_once(tmp_path):
    session, saved_by_first, code, out2, err2 = race(tmp_path, "Ann\n" + ROUND, "Ann\n" + ROUND)
    assert code == 0, err2
    assert "this same Round 1" in out2
    assert session.read_bytes() == saved_by_first


def test_a_session_locked_by_another_process_is_not_written(tmp_path):
    from scoring import SessionFileError
    from scoring.problems import FileError
    from scoring.session_file import session_lock

    session = tmp_path / "s.toml"
    session.write_text(HALALI)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys\nfrom scoring.session_file import session_lock\n"
         "with session_lock(sys.argv[1]):\n    print('held', flush=True)\n    sys.stdin.read()\n", str(session)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        with pytest.raises(SessionFileError) as refused:
            with session_lock(session, wait=0):
                pass
        assert refused.value.code is FileError.SESSION_BUSY
    finally:
        holder.communicate("", timeout=LIMIT)
    with session_lock(session, wait=0):  # free again once the other process is done
        pass
    assert sorted(os.listdir(tmp_path)) == ["s.toml"]  # the lock file lives only while it is held


def test_a_session_changed_since_it_was_read_is_not_replaced(tmp_path):
    from scoring import SessionFileError
    from scoring.problems import FileError
    from scoring.session_file import read_session_file, save_session

    session = tmp_path / "s.toml"
    session.write_text(HALALI)
    loaded = read_session_file(session)
    session.write_text(HALALI + "\n# edited by hand meanwhile\n")
    with pytest.raises(SessionFileError) as refused:
        save_session(loaded, HALALI + 'lang = "fr"\n')
    assert refused.value.code is FileError.CHANGED_SINCE_READ
    assert session.read_text().endswith("# edited by hand meanwhile\n")
    assert not session.with_name("s.toml.bak").exists()


def test_a_session_removed_since_it_was_read_is_not_recreated(tmp_path):
    from scoring import SessionFileError
    from scoring.session_file import read_session_file, save_session

    session = tmp_path / "s.toml"
    session.write_text(HALALI)
    loaded = read_session_file(session)
    session.unlink()
    with pytest.raises(SessionFileError):
        save_session(loaded, HALALI)
    assert not session.exists()


# -- symlinked sessions ----------------------------------------------------------


def test_adding_to_a_symlinked_session_writes_its_target_and_keeps_the_link(tmp_path):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "s.toml"
    target.write_text(HALALI)
    link = tmp_path / "s.toml"
    link.symlink_to("real/s.toml")
    result = run("add", link, input="Ann\n" + ROUND)
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and os.readlink(link) == "real/s.toml"
    assert tomllib.loads(target.read_text())["rounds"][0]["blue"] == "Ann"
    assert (tmp_path / "real" / "s.toml.bak").read_text() == HALALI
    assert not (tmp_path / "s.toml.bak").exists()


def test_new_force_through_a_link_replaces_the_target_and_keeps_the_link(tmp_path):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "s.toml"
    target.write_text(HALALI)
    link = tmp_path / "s.toml"
    link.symlink_to(target)
    result = run("new", "halali", "--players", "Cat,Dan", "--out", link, "--force")
    assert result.exit_code == 0, result.output
    assert link.is_symlink()
    assert tomllib.loads(target.read_text())["players"] == ["Cat", "Dan"]


# -- never overwrite an input ------------------------------------------------------


@pytest.mark.parametrize("make_out", [
    pytest.param(lambda folder: folder / "s.toml", id="the session itself"),
    pytest.param(lambda folder: (folder / "l.pdf").symlink_to("s.toml") or folder / "l.pdf", id="a symlink to it"),
    pytest.param(lambda folder: os.link(folder / "s.toml", folder / "h.pdf") or folder / "h.pdf",
                 id="a hard link to it"),
])
def test_the_sheet_never_overwrites_its_session(tmp_path, make_out):
    session = tmp_path / "s.toml"
    session.write_text(HALALI)
    out = make_out(tmp_path)
    before = sorted(os.listdir(tmp_path))
    result = run("sheet", session, "--out", out)
    assert result.exit_code == 1
    lines = error_lines(result.stderr)
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "s.toml" in lines[0], result.stderr
    assert session.read_text() == HALALI
    assert sorted(os.listdir(tmp_path)) == before


def test_the_sheets_manifest_never_overwrites_its_session(tmp_path):
    # x.pdf's manifest is x.manifest.json: the session's own name.
    session = tmp_path / "x.manifest.json"
    session.write_text('{"game": "halali", "players": ["Ann", "Bob"]}')
    result = run("sheet", session, "--out", tmp_path / "x.pdf")
    assert result.exit_code == 1 and result.stderr.startswith("Error: ")
    assert "x.manifest.json" in result.stderr
    assert sorted(os.listdir(tmp_path)) == ["x.manifest.json"]


@pytest.mark.parametrize("name", ["notes.txt", "s.toml.pdf.toml", "sheet.json", "sheet"])
def test_the_sheet_is_written_only_to_a_pdf_name(tmp_path, name):
    session = tmp_path / "s.toml"
    session.write_text(HALALI)
    result = run("sheet", session, "--out", tmp_path / name)
    assert result.exit_code == 1 and ".pdf" in result.stderr
    assert sorted(os.listdir(tmp_path)) == ["s.toml"]


def test_the_sheet_never_creates_folders(tmp_path):
    session = tmp_path / "s.toml"
    session.write_text(HALALI)
    result = run("sheet", session, "--out", tmp_path / "new" / "dir" / "x.pdf")
    assert result.exit_code == 1
    assert len(error_lines(result.stderr)) == 1 and "new" in result.stderr
    assert sorted(os.listdir(tmp_path)) == ["s.toml"]


def test_the_sheet_speaks_the_sessions_language_when_it_refuses(tmp_path):
    session = tmp_path / "s.toml"
    session.write_text(HALALI + 'lang = "fr"\n')
    result = run("sheet", session, "--out", session)
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ") and "feuille de score" in result.stderr


@pytest.mark.parametrize("existing", ['title = "my notes"\n', "not toml at all [", '{"game": "chess"}'])
def test_new_force_replaces_only_a_session(tmp_path, existing):
    suffix = ".json" if existing.startswith("{") else ".toml"
    target = tmp_path / f"notes{suffix}"
    target.write_text(existing)
    result = run("new", "halali", "--players", "Ann,Bob", "--out", target, "--force")
    assert result.exit_code == 1 and result.stderr.startswith("Error: ")
    assert len(error_lines(result.stderr)) == 1
    assert target.read_text() == existing
    assert sorted(os.listdir(tmp_path)) == [target.name]


def test_new_force_replaces_a_session_and_keeps_its_backup(tmp_path):
    target = tmp_path / "s.toml"
    target.write_text(HALALI)
    result = run("new", "halali", "--players", "Cat,Dan", "--out", target, "--force")
    assert result.exit_code == 0, result.output
    assert tomllib.loads(target.read_text())["players"] == ["Cat", "Dan"]
    assert (tmp_path / "s.toml.bak").read_text() == HALALI


# -- refusals are Error lines -------------------------------------------------------


def test_a_round_refused_at_the_again_question_ends_with_an_error_line(tmp_path):
    session = tmp_path / "s.toml"
    session.write_text(HALALI)
    # Each player holds 5 of the box's 7 ducks: each part is possible alone, the round is not.
    answers = "Ann\n" + "\n\n\n\n5\n\n" + "\n\n\n\n5\n\n\n" + "n\n"
    result = run("add", session, input=answers)
    assert result.exit_code == 1
    lines = error_lines(result.stderr)
    assert lines[-1].startswith("Error: ") and "nothing was saved" in lines[-1]
    assert session.read_text() == HALALI
