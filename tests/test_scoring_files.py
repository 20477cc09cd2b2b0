"""Session files: TOML and JSON reading, every way a file can be wrong, the TOML writer, safe saving."""

from __future__ import annotations

import json
import os
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import SessionFileError, check_session, read_session_file, write_text_atomic
from scoring.session_file import SessionFile, dumps, extended_text, parse_session_text
from scoring.toml_writer import dumps as toml_dumps

ISSUE_TOML = """
game = "hunting-fever"
players = ["Alice", "Bob", "Chloé"]

[[days]]
[days.Alice]
prey = { hunter = 0, wolf = 1, rabbit = 2, carrot = 3, closed_season = 0 }
hand = { rabbit = 1 }
hunter_under_lodge = false
lodge_flipped = false
"""


def write(tmp_path, name: str, content: str | bytes):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def file_error(path) -> SessionFileError:
    with pytest.raises(SessionFileError) as caught:
        raw = read_session_file(path).raw
        check_session(raw)
    return caught.value


def test_issue_example_reads_and_names_the_missing_players(tmp_path):
    loaded = read_session_file(write(tmp_path, "s.toml", ISSUE_TOML))
    assert loaded.format == "toml" and loaded.raw["players"][2] == "Chloé"
    problems = check_session(loaded.raw).problems
    assert ("missing_player_entry", 1, "Bob") in [(p.code, p.round, p.player) for p in problems]


def test_toml_and_json_give_the_same_session(tmp_path):
    from_toml = read_session_file(write(tmp_path, "s.toml", ISSUE_TOML)).raw
    from_json = read_session_file(write(tmp_path, "s.JSON", json.dumps(from_toml))).raw
    assert from_toml == from_json


def test_byte_order_mark_is_accepted(tmp_path):
    path = write(tmp_path, "s.json", b'\xef\xbb\xbf{"game": "card-hunter", "players": ["A"]}')
    assert read_session_file(path).raw["game"] == "card-hunter"


@pytest.mark.parametrize(
    "name, content, code",
    [
        ("s.txt", "game = 1", "unknown_extension"),
        ("s", "game = 1", "unknown_extension"),
        ("s.toml", "game = ", "invalid_toml"),
        ("s.toml", 'game = "halali"\ngame = "halali"\n', "invalid_toml"),
        ("s.toml", "n = " + "9" * 5000, "invalid_toml"),
        ("s.toml", "a = " + "[" * 5000, "invalid_toml"),
        ("s.json", "{", "invalid_json"),
        ("s.json", '{"game": NaN}', "invalid_json"),
        ("s.json", '{"a": 1, "a": 2}', "duplicate_json_key"),
        ("s.json", '{"game": "\\ud800"}', "invalid_json"),
        ("s.json", "[" * 100000, "invalid_json"),
        ("s.json", "9" * 5000, "invalid_json"),
        ("s.json", b"\xff\xfe{}", "not_utf8"),
        ("s.json", "[1, 2]", "not_a_table"),
        ("s.json", '"hunting-fever"', "not_a_table"),
        ("s.json", "{}", "missing_game"),
        ("s.json", '{"game": "chess"}', "unknown_game"),
        ("s.json", '{"game": 5}', "unknown_game"),
        ("s.json", '{"game": ["halali"]}', "unknown_game"),
    ],
)
def test_files_that_are_not_sessions(tmp_path, name, content, code):
    error = file_error(write(tmp_path, name, content))
    assert error.code == code
    assert str(error)  # an English sentence, never empty
    assert "Traceback" not in str(error)


def test_missing_and_unreadable_files(tmp_path):
    assert file_error(tmp_path / "gone.toml").code == "file_not_found"
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    assert file_error(folder).code == "not_a_file"


def test_parse_errors_say_where(tmp_path):
    error = file_error(write(tmp_path, "s.json", '{\n  "game": ,\n}'))
    assert "line 2" in str(error) and str(error).startswith(str(tmp_path / "s.json"))
    error = file_error(write(tmp_path, "s.toml", 'game = "halali"\nplayers = [\n'))
    assert "line" in str(error)


# -- the TOML writer -------------------------------------------------------------

SESSIONS = [
    {"game": "hunting-fever", "players": ["Alice", "Bob", 'Chloé "la" Renard'], "days": [
        {"Alice": {"prey": {"hunter": 0, "wolf": 1}, "hand": {}, "hunter_under_lodge": False, "lodge_flipped": True}},
    ]},
    {"game": "halali", "lang": "fr", "players": ["Ann", "Bé n"], "rounds": [
        {"blue": "Ann", "tiles": {"Ann": {"hunter": 2}, "Bé n": {}}},
        {"blue": "Bé n", "tiles": {}},
    ]},
    {"game": "hunting-hunting-beavers", "players": ["a.b", "c=d", "[e]", "#f"], "colors": {"a.b": "red"},
     "final": {"a.b": 3, "c=d": -1}},
    {"game": "card-hunter", "players": ["\\back\\slash", "tab\there", "new\nline", ""], "result": "won"},
]


@pytest.mark.parametrize("document", SESSIONS)
def test_toml_round_trip_of_sessions(document):
    assert tomllib.loads(toml_dumps(document)) == document


def test_toml_writer_matches_the_issue_layout():
    text = toml_dumps(tomllib.loads(ISSUE_TOML))
    assert "[[days]]" in text and "[days.Alice]" in text
    assert "prey = { hunter = 0, wolf = 1, rabbit = 2, carrot = 3, closed_season = 0 }" in text
    assert 'players = ["Alice", "Bob", "Chloé"]' in text


def test_toml_writer_escapes_control_characters():
    document = {"k\x00": "\x1f\x7f\u2028 é \U0001F43A"}
    text = toml_dumps(document)
    assert "\x00" not in text and "\x7f" not in text
    assert tomllib.loads(text) == document


def test_toml_writer_refuses_what_toml_cannot_hold():
    with pytest.raises(TypeError):
        toml_dumps({"a": None})
    with pytest.raises(ValueError):
        toml_dumps({"a": "\ud800"})


toml_keys = st.text(max_size=8)
toml_scalars = st.one_of(
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False),
    st.text(max_size=12),
)
toml_values = st.recursive(
    toml_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(toml_keys, inner, max_size=4)),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(toml_keys, toml_values, max_size=5))
def test_toml_round_trip_property(document):
    assert tomllib.loads(toml_dumps(document)) == document


# -- saving --------------------------------------------------------------------


def test_atomic_write_keeps_a_backup_and_leaves_no_temporary_file(tmp_path):
    path = write(tmp_path, "s.toml", "old = 1\n")
    backup = write_text_atomic(path, "new = 2\n")
    assert path.read_text() == "new = 2\n"
    assert backup == tmp_path / "s.toml.bak" and backup.read_text() == "old = 1\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.toml", "s.toml.bak"]


def test_atomic_write_of_a_new_file_has_no_backup(tmp_path):
    assert write_text_atomic(tmp_path / "n.json", "{}\n") is None
    assert (tmp_path / "n.json").read_text() == "{}\n"


def test_failed_write_reports_and_leaves_the_file_alone(tmp_path):
    target = tmp_path / "missing-folder" / "s.toml"
    with pytest.raises(SessionFileError) as caught:
        write_text_atomic(target, "x = 1\n")
    assert caught.value.code == "file_unwritable"


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores folder permissions")
def test_read_only_folder(tmp_path):  # pragma: no cover - depends on the user
    path = write(tmp_path, "s.toml", "old = 1\n")
    tmp_path.chmod(0o500)
    try:
        with pytest.raises(SessionFileError):
            write_text_atomic(path, "new = 2\n")
        assert path.read_text() == "old = 1\n"
    finally:
        tmp_path.chmod(0o700)


def test_atomic_write_keeps_the_file_mode(tmp_path):
    path = write(tmp_path, "s.toml", "old = 1\n")
    path.chmod(0o640)
    write_text_atomic(path, "new = 2\n")
    assert path.stat().st_mode & 0o777 == 0o640


def test_appending_keeps_comments():
    text = '# our Sunday game\ngame = "halali"\nplayers = ["Ann", "Ben"]  # Ann starts\n'
    previous = SessionFile(path=None, format="toml", text=text, raw=tomllib.loads(text))
    added = {"blue": "Ann", "tiles": {"Ann": {"duck": 1}}}
    updated = previous.raw | {"rounds": [added]}
    new_text = extended_text(previous, {"rounds": [added]}, updated)
    assert new_text.startswith(text) and "# Ann starts" in new_text
    assert tomllib.loads(new_text) == updated


def test_appending_falls_back_to_a_rewrite_when_needed():
    text = 'game = "halali"\nplayers = ["Ann", "Ben"]\nrounds = []\n'
    previous = SessionFile(path=None, format="toml", text=text, raw=tomllib.loads(text))
    added = {"blue": "Ann", "tiles": {}}
    updated = {**previous.raw, "rounds": [added]}
    assert tomllib.loads(extended_text(previous, {"rounds": [added]}, updated)) == updated
    as_json = SessionFile(path=None, format="json", text="{}", raw={})
    assert json.loads(extended_text(as_json, {"a": 1}, {"a": 1})) == {"a": 1}


def test_dumps_json_keeps_accents_readable():
    assert "Chloé" in dumps({"players": ["Chloé"]}, "json")
    assert parse_session_text(dumps({"players": ["Chloé"]}, "json"), "json") == {"players": ["Chloé"]}
