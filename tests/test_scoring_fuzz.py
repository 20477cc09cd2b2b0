"""Any file content gives a message and exit 1 (or a valid result), never a traceback."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from helpers import score_host_app
from scoring import SessionFileError, check_session, messages, score_session
from scoring.report import problems_json, result_json

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
GAMES = ["hunting-fever", "halali", "card-hunter", "hunting-hunting-beavers"]
JSON_KEYS = {"game", "players", "rounds", "totals", "complete", "winners", "tie_break"}
ERROR_KEYS = {"code", "message", "round", "player"}


APP = score_host_app()


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


def check_cli(path, *options: str):
    result = CliRunner().invoke(APP, ["score", "check", str(path), *options])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def assert_json_answer(result) -> dict:
    out = json.loads(result.stdout)  # exactly one JSON object on stdout
    assert isinstance(out, dict)
    if result.exit_code == 0:
        assert set(out) == JSON_KEYS
    else:
        assert result.exit_code == 1 and list(out) == ["errors"] and out["errors"]
        assert all(set(error) == ERROR_KEYS and error["message"] for error in out["errors"])
    return out


@FUZZ
@given(content=st.binary(max_size=300), suffix=st.sampled_from([".toml", ".json"]))
def test_random_bytes(folder, content, suffix):
    path = folder / f"bytes{suffix}"
    path.write_bytes(content)
    result = check_cli(path, "--json")
    assert result.exit_code == 1
    assert_json_answer(result)
    plain = check_cli(path)
    assert plain.exit_code == 1 and plain.stderr.startswith("Error: ") and "Traceback" not in plain.output


@FUZZ
@given(text=st.text(max_size=200))
def test_random_toml_text(folder, text):
    path = folder / "text.toml"
    path.write_text(text, encoding="utf-8")
    assert check_cli(path, "--json").exit_code == 1


leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**15, max_value=10**300),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
    st.sampled_from(["Ann", "Ben", "Cat", "Dan", "won", "lost", "red", "blue", "fr", "en"]),
)
structures = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.sampled_from(["Ann", "Ben", "Cat", "Dan", "prey", "hand", "wolf", "tree", "blue",
                                         "tiles", "x", "hunter", "lodge_flipped"]) | st.text(max_size=5), inner,
                        max_size=5),
    ),
    max_leaves=30,
)
session_keys = st.sampled_from(
    ["players", "days", "rounds", "final", "colors", "lang", "difficulty", "result", "knockouts_left", "notes"]
)
sessions = st.fixed_dictionaries({"game": st.sampled_from(GAMES)}, optional={"players": st.lists(st.text(max_size=4), max_size=6)}).flatmap(
    lambda base: st.dictionaries(session_keys, structures, max_size=5).map(lambda rest: {**rest, **base})
)


@FUZZ
@given(raw=sessions)
def test_random_sessions_through_the_library(raw):
    checked = check_session(raw)
    for words in (messages("en", checked.rules), messages("fr", checked.rules)):
        json.dumps(problems_json(checked.problems, words))
    if checked.session is not None:
        assert checked.problems == ()
        json.dumps(result_json(score_session(checked.session)))


@FUZZ
@given(raw=st.one_of(sessions, structures))
def test_random_sessions_through_the_cli(folder, raw):
    path = folder / "session.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    assert_json_answer(check_cli(path, "--json"))
    plain = check_cli(path)
    assert plain.exit_code in (0, 1)
    if plain.exit_code == 1:
        assert plain.stderr.startswith("Error: ") and plain.stdout == ""


def mutations_of_a_valid_session():
    base = {
        "game": "hunting-fever",
        "players": ["Ann", "Ben", "Cat"],
        "days": [
            {
                "Ann": {"prey": {"wolf": 2, "rabbit": 3, "carrot": 2, "closed_season": 1}, "hunter_under_lodge": True},
                "Ben": {"prey": {"wolf": 1, "rabbit": 2, "carrot": 3, "closed_season": 1},
                        "hand": {"hunter": 1, "wolf": 1, "rabbit": 1}},
                "Cat": {"prey": {"wolf": 2, "rabbit": 3, "carrot": 3, "closed_season": 1},
                        "hand": {"hunter": 1, "carrot": 1}},
            }
        ],
    }
    # Places where any other value makes the session wrong (so a problem must be reported).
    paths = [
        ("days", 0), ("days", 0, "Ann"), ("days", 0, "Ann", "prey"), ("days", 0, "Ben", "prey", "rabbit"),
        ("days", 0, "Ann", "prey", "wolf"), ("days", 0, "Ben", "hand", "hunter"),
        ("days", 0, "Ann", "hunter_under_lodge"), ("days", 0, "Cat", "lodge_flipped"), ("players", 1),
    ]
    return base, paths


@FUZZ
@given(choice=st.integers(0, 8), value=leaves | structures)
def test_one_wrong_value_in_a_valid_session(choice, value):
    base, paths = mutations_of_a_valid_session()
    assert check_session(base).problems == ()
    raw = json.loads(json.dumps(base))
    *parents, last = paths[choice]
    target = raw
    for step in parents:
        target = target[step]
    current = target[last] if isinstance(target, list) else target.get(last, False)
    if current == value and type(current) is type(value):
        return  # not a change
    target[last] = value
    try:
        checked = check_session(raw)
    except SessionFileError:  # pragma: no cover - the game key is never touched
        raise AssertionError("a structure problem must not be a file-level error")
    # A wrong value somewhere is always reported, and every report has words.
    assert checked.problems
    assert all(messages("fr", checked.rules).problem(p) for p in checked.problems)


@pytest.mark.parametrize(
    "text",
    [
        'game = "card-hunter"\nplayers = [1979-05-27]\n',
        'game = "card-hunter"\nplayers = ["A"]\nknockouts_left = 07:32:00\n',
        'game = "hunting-fever"\nplayers = ["A", "B", "C"]\ndays = [{A = {prey = {wolf = 1979-05-27T07:32:00Z}}}]\n',
        'game = "halali"\nplayers = ["A", "B"]\n[[rounds]]\nblue = 2.5\ntiles = {A = {bear = inf}}\n',
    ],
)
def test_toml_dates_times_and_odd_numbers_are_problems(folder, text):
    path = folder / "odd.toml"
    path.write_text(text, encoding="utf-8")
    result = check_cli(path, "--json")
    assert result.exit_code == 1
    assert assert_json_answer(result)["errors"][0]["code"] in {"wrong_type", "not_a_whole_number"}
