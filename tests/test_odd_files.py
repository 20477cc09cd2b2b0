"""Files that are not what they seem: a named pipe, a device or a folder where a file is
expected is one ``Error:`` line at once, sized before anything is read; names and paths
past the system's limits are one line naming the limit; another program's SQLite file
is refused before anything writes to it.

Commands run through the console script's own ``main`` (in this process), which is
what a user runs; a run that would hang is caught by a time limit on a child process.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from pnp import cli
from pnp.core.files import ReadError, name_limits, read_regular

LIMIT = 30
RECT = '<rect width="9" height="9"/>'
SVG = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">{RECT}</svg>'
TEMPLATE = '''[game]
id = "odd"
players = [1, 4]
rules_url = "https://example.org/odd"
designers = ["test"]

[[components]]
id = "cards"
size = "poker"
[[components.front]]
type = "icon"
name = "x"
x = 5
y = 5
w = 20
h = 20
[[components.pieces]]
id = "card"
count = 1
'''
CATALOG = '[game]\nname = "Odd"\ncredits = "Test."\n\n[component.cards]\nname = "Cards"\ncut = "Cut."\n'


def pnp(folder: Path, *args: str) -> subprocess.CompletedProcess:
    """The command in a child process, so that a hang is a failed test, not a stuck one."""
    return subprocess.run([sys.executable, "-m", "pnp", *args], cwd=folder, capture_output=True, text=True,
                          timeout=LIMIT)


def one_error(done: subprocess.CompletedProcess) -> str:
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 1, done.stderr
    assert lines and lines[0].startswith("Error: "), done.stderr
    assert "unexpected error" not in done.stderr and "Traceback" not in done.stderr
    return lines[0]


def kit(folder: Path) -> None:
    (folder / "t.toml").write_text(TEMPLATE)
    for lang in ("en", "fr"):
        (folder / f"t.{lang}.toml").write_text(CATALOG)
    (folder / "icons").mkdir(exist_ok=True)
    (folder / "icons" / "x.svg").write_text(SVG)


def manifest_pair(folder: Path) -> None:
    import hashlib

    pdf = b"%PDF-1.4\n<< /Type /Page >>\n%%EOF\n"
    (folder / "k.pdf").write_bytes(pdf)
    (folder / "k.manifest.json").write_text(json.dumps(
        {"pdf": "k.pdf", "pdf_sha256": hashlib.sha256(pdf).hexdigest(), "duplex": False,
         "page_size_mm": [210, 297], "pages": [{"number": 1, "kind": "sheet", "sheet": 1, "items": []}]}))


def replace_with_fifo(path: Path) -> None:
    if path.exists():
        path.unlink()
    os.mkfifo(path)


# ---- read_regular ---------------------------------------------------------------------------

def test_read_regular_reads_a_file_and_refuses_what_is_not_one(tmp_path):
    plain = tmp_path / "plain.txt"
    plain.write_bytes(b"12345")
    assert read_regular(plain, 5) == b"12345"
    with pytest.raises(ReadError) as error:
        read_regular(plain, 4)
    assert error.value.kind == "too_large"
    with pytest.raises(ReadError) as error:
        read_regular(tmp_path / "gone", 10)
    assert error.value.kind == "missing"
    with pytest.raises(ReadError) as error:
        read_regular(tmp_path, 10)
    assert error.value.kind == "folder"
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(ReadError) as error:      # at once: nothing writes into it
        read_regular(fifo, 10)
    assert (error.value.kind, error.value.what) == ("special", "fifo")
    link = tmp_path / "zero"
    link.symlink_to("/dev/zero")
    with pytest.raises(ReadError) as error:      # never read: it would never end
        read_regular(link, 10 ** 9)
    assert (error.value.kind, error.value.what) == ("special", "device")


# ---- every command that reads a file ---------------------------------------------------------

@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
@pytest.mark.parametrize("where, args", [
    ("s.toml", ("score", "check", "s.toml")),
    ("s.toml", ("score", "sheet", "s.toml", "--out", "s.pdf")),
    ("s.toml", ("score", "import", "s.toml", "--data", "data")),
    ("k.manifest.json", ("check-manifest", "k.manifest.json")),
    ("k.pdf", ("check-manifest", "k.manifest.json")),
    ("t.toml", ("render", "--template", "t.toml", "--out", "out")),
    ("t.fr.toml", ("render", "--template", "t.toml", "--out", "out")),
    ("icons/x.svg", ("render", "--template", "t.toml", "--out", "out")),
])
def test_a_pipe_or_a_device_where_a_file_is_expected_is_one_error_line_at_once(tmp_path, where, args, special):
    kit(tmp_path)
    manifest_pair(tmp_path)
    (tmp_path / "s.toml").write_text('game = "halali"\nplayers = ["Ann", "Bob"]\n')
    path = tmp_path / where
    if special == "fifo":
        replace_with_fifo(path)
        said = "named pipe"
    else:
        path.unlink()
        path.symlink_to("/dev/zero")
        said = "device"
    assert said in one_error(pnp(tmp_path, *args))
    assert not (tmp_path / "out").exists() and not (tmp_path / "s.pdf").exists()


def test_a_folder_where_a_catalog_is_expected_is_named(tmp_path):
    kit(tmp_path)
    (tmp_path / "t.fr.toml").unlink()
    (tmp_path / "t.fr.toml").mkdir()
    assert "it is a folder, not a file" in one_error(pnp(tmp_path, "render", "--template", "t.toml"))


def test_a_session_that_is_a_folder_says_so_in_french(tmp_path):
    (tmp_path / "s.toml").mkdir()
    line = one_error(pnp(tmp_path, "score", "check", "s.toml", "--lang", "fr"))
    assert "ceci est un dossier, pas un fichier" in line


# ---- names and paths past the system's limits ------------------------------------------------

LONG_NAME = "n" * 300
LONG_PATH = "/".join(["p" * 200] * 25)


def test_name_limits_names_the_limit():
    assert "NAME_MAX" in name_limits(LONG_NAME) and "255" in name_limits(LONG_NAME)
    assert "PATH_MAX" in name_limits(LONG_PATH)
    assert name_limits("output/halali_en_a4.pdf") is None


@pytest.mark.parametrize("args, limit", [
    (("render", "halali", "--component", "tiles", "--out", LONG_NAME), "NAME_MAX"),
    (("render", "halali", "--component", "tiles", "--out", LONG_PATH), "PATH_MAX"),
    (("export", "halali", "--component", "tiles", "--out", LONG_NAME), "NAME_MAX"),
    (("calibrate", "--out", LONG_PATH), "PATH_MAX"),
    (("score", "new", "halali", "--players", "A,B", "--out", LONG_NAME + ".toml"), "NAME_MAX"),
    (("score", "check", LONG_NAME + ".toml"), "NAME_MAX"),
    (("render", "--template", LONG_PATH + ".toml"), "PATH_MAX"),
    (("check-manifest", LONG_NAME + ".manifest.json"), "NAME_MAX"),
    (("serve", "--port", "0", "--data", LONG_NAME), "NAME_MAX"),
    (("render", "halali", "--component", "tiles", "--out", "loop/x"), "ELOOP"),
])
def test_a_name_or_path_past_the_systems_limits_is_one_line_naming_the_limit(tmp_path, monkeypatch, capsys,
                                                                            args, limit):
    (tmp_path / "loop").symlink_to("loop")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["pnp", *args])
    with pytest.raises(SystemExit) as stop:
        cli.main()
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert stop.value.code == 1 and len(lines) == 1 and lines[0].startswith("Error: "), err
    assert limit in err and "unexpected error" not in err
    assert len(lines[0]) < 500      # a path of thousands of characters is shown shortened
    assert sorted(p.name for p in tmp_path.iterdir()) == ["loop"]


def test_an_export_whose_file_names_reach_past_the_path_limit_says_which(tmp_path, capsys, monkeypatch):
    # The folder is within the limit; the files of the export inside it are not.
    deep = "/".join(["d" * 250] * 16)       # 4,015 bytes
    out = deep + "/" + "a" * (4070 - len(deep) - 1)
    os.makedirs(tmp_path / deep)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["pnp", "export", "halali", "--component", "tiles", "--out", out])
    with pytest.raises(SystemExit) as stop:
        cli.main()
    err = capsys.readouterr().err
    assert stop.value.code == 1 and err.startswith("Error: ") and "PATH_MAX" in err, err


# ---- another program's SQLite file -------------------------------------------------------------

def test_another_programs_database_is_refused_before_anything_writes_to_it(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    connection = sqlite3.connect(data / "pnp.sqlite3")
    connection.execute("CREATE TABLE photos (name TEXT)")
    connection.commit()
    connection.close()
    before = (data / "pnp.sqlite3").read_bytes()
    (tmp_path / "s.toml").write_text('game = "halali"\nplayers = ["Ann", "Bob"]\n')
    for args in (("score", "import", "s.toml", "--data", "data"), ("score", "history", "--data", "data"),
                 ("serve", "--port", "0", "--data", "data")):
        assert "not a pnp database" in one_error(pnp(tmp_path, *args))
        # Not switched to a write-ahead log: no file beside it, its header as it was.
        assert sorted(p.name for p in data.iterdir()) == ["pnp.sqlite3"]
        assert (data / "pnp.sqlite3").read_bytes() == before


def test_a_database_with_another_programs_version_and_no_tables_is_refused(tmp_path):
    from pnp.web.db import Database, DatabaseError

    connection = sqlite3.connect(tmp_path / "pnp.sqlite3")
    connection.execute("PRAGMA user_version = 7")
    connection.close()
    with pytest.raises(DatabaseError, match="not a pnp database"):
        Database(tmp_path / "pnp.sqlite3")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pnp.sqlite3"]


def test_our_own_database_and_an_empty_file_still_open(tmp_path):
    from pnp.web.db import Database

    Database.in_folder(tmp_path / "a").close()
    Database.in_folder(tmp_path / "a").close()      # ours: opened again
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "pnp.sqlite3").write_bytes(b"")   # left empty by a first run stopped early
    Database.in_folder(tmp_path / "b").close()


def test_a_database_that_is_a_pipe_is_refused_at_once(tmp_path):
    (tmp_path / "data").mkdir()
    os.mkfifo(tmp_path / "data" / "pnp.sqlite3")
    assert "is not a file" in one_error(pnp(tmp_path, "score", "history", "--data", "data"))
