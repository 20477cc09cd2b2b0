"""The database: schema and migrations, refusing files that are not ours, and a killed server losing nothing."""

from __future__ import annotations

import json
import sqlite3
import urllib.request

import pytest

from pnp.web import sessions
from pnp.web.db import (
    APPLICATION_ID,
    MIGRATIONS,
    SCHEMA_VERSION,
    Database,
    DatabaseError,
    default_data_dir,
    server_secret,
)
from web_helpers import ORGANISER, ServerProcess, hunting_fever


def test_a_new_database_has_the_whole_schema(tmp_path):
    db = Database.in_folder(tmp_path / "fresh" / "folder")
    with db.read() as connection:
        assert connection.execute("SELECT version FROM schema_version").fetchone()[0] == SCHEMA_VERSION
        assert connection.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert connection.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        tables_found = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"schema_version", "settings", "sessions", "parts"} <= tables_found
    assert (tmp_path / "fresh" / "folder" / "pnp.sqlite3").is_file()
    db.close()


def test_opening_again_migrates_nothing_and_keeps_everything(tmp_path):
    db = Database.in_folder(tmp_path)
    stored = sessions.create_session(db, sessions.start_document("halali", ["Ann", "Ben"]), lambda session_id: "hash")
    secret = server_secret(db)
    db.close()
    again = Database.in_folder(tmp_path)
    assert again.migrate() == SCHEMA_VERSION
    assert sessions.get_session(again, stored.id).document == stored.document
    assert server_secret(again) == secret
    again.close()


def test_an_older_schema_is_brought_up_to_date(tmp_path):
    path = tmp_path / "pnp.sqlite3"
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    connection.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    connection.execute("INSERT INTO schema_version VALUES (0)")
    connection.commit()
    connection.close()
    db = Database(path)
    assert db.migrate() == SCHEMA_VERSION
    sessions.create_session(db, sessions.start_document("halali", ["Ann", "Ben"]), lambda session_id: "hash")
    db.close()
    assert len(MIGRATIONS) == SCHEMA_VERSION


def test_a_newer_schema_is_refused_and_left_alone(tmp_path):
    db = Database.in_folder(tmp_path)
    with db.write() as connection:
        connection.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    db.close()
    with pytest.raises(DatabaseError, match="newer pnp"):
        Database.in_folder(tmp_path)
    check = sqlite3.connect(tmp_path / "pnp.sqlite3")
    assert check.execute("SELECT version FROM schema_version").fetchone()[0] == SCHEMA_VERSION + 1


def test_another_programs_database_is_not_touched(tmp_path):
    path = tmp_path / "pnp.sqlite3"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE recipes (name TEXT)")
    other.commit()
    other.close()
    with pytest.raises(DatabaseError, match="not a pnp database"):
        Database(path)
    names = {row[0] for row in sqlite3.connect(path).execute("SELECT name FROM sqlite_master")}
    assert names == {"recipes"}


def test_a_file_that_is_not_sqlite_is_reported(tmp_path):
    (tmp_path / "pnp.sqlite3").write_bytes(b"not a database at all, just text " * 40)
    with pytest.raises(DatabaseError, match="pnp.sqlite3"):
        Database.in_folder(tmp_path)


def test_a_data_folder_that_is_a_file_is_reported(tmp_path):
    (tmp_path / "data").write_text("x")
    with pytest.raises(DatabaseError, match="is a file"):
        Database.in_folder(tmp_path / "data")


def test_the_default_data_folder_follows_each_platform(tmp_path):
    assert default_data_dir("win32", {"APPDATA": str(tmp_path)}, tmp_path) == tmp_path / "pnp"
    assert default_data_dir("linux", {}, tmp_path) == tmp_path / ".local" / "share" / "pnp"


def test_a_write_that_fails_half_way_leaves_nothing(tmp_path):
    db = Database.in_folder(tmp_path)
    with pytest.raises(RuntimeError):
        with db.write() as connection:
            connection.execute("INSERT INTO settings VALUES ('a', 'b')")
            raise RuntimeError("interrupted")
    with db.read() as connection:
        assert connection.execute("SELECT count(*) FROM settings WHERE name = 'a'").fetchone()[0] == 0
    db.close()


def test_the_database_refuses_a_part_of_a_session_that_does_not_exist(tmp_path):
    db = Database.in_folder(tmp_path)
    with pytest.raises(DatabaseError, match="FOREIGN KEY"):
        with db.write() as connection:
            connection.execute("INSERT INTO parts VALUES ('nobody', 1, 'Ann', '{}', 'now')")
    db.close()


def _call(url: str, method: str = "GET", body: object = None, token: str = ORGANISER) -> dict:
    """An API call as a script makes it; a write sends back the ETag it read first (If-Match)."""
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    if method in ("PUT", "PATCH"):
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as response:
            headers["If-Match"] = response.headers["ETag"]
    request = urllib.request.Request(url, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def test_a_server_killed_with_sigkill_loses_nothing_committed(tmp_path):
    raw = hunting_fever(21)
    server = ServerProcess(tmp_path)
    try:
        created = _call(f"{server.url}/api/sessions", "POST", {"game": "hunting-fever", "players": raw["players"]})
        base = f"{server.url}/api/sessions/{created['id']}"
        for number in (1, 2):
            _call(f"{base}/rounds/{number}", "PUT", raw["days"][number - 1])
        _call(f"{base}/rounds/3", "PATCH", {"Alice": raw["days"][2]["Alice"]})
        before = _call(base)
        assert len(before["rounds"]) == 2
    finally:
        server.kill()
    again = ServerProcess(tmp_path)
    try:
        assert _call(base.replace(server.url, again.url)) == before
        status = _call(f"{again.url}/api/sessions/{created['id']}/rounds/3")
        assert status["entered"] == ["Alice"]
        for player in ("Bob", "Chloé"):
            _call(f"{again.url}/api/sessions/{created['id']}/rounds/3", "PATCH", {player: raw["days"][2][player]})
        after = _call(f"{again.url}/api/sessions/{created['id']}")
        assert len(after["rounds"]) == 3
    finally:
        again.stop()
    check = sqlite3.connect(tmp_path / "pnp.sqlite3")
    assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
