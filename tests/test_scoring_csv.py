"""Sessions as CSV: one row per player per day or round, read back to the same session."""

from __future__ import annotations

import csv
import io
import json
import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import hunting_fever_sim as sim
from helpers import score_host_app
from scoring import SessionFileError, check_session, messages, read_session_file
from scoring.session_csv import dumps, loads

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.sessions import beavers_session, card_hunter_session, halali_session  # noqa: E402

APP = score_host_app()


def every_game(seed: int) -> list[dict]:
    rng = random.Random(seed)
    names = ["Ann", "Ben", "Cat", "Dan"]
    return [
        sim.session(names[:3], list(sim.play_game(names[:3], rng, 4))),
        halali_session(rng),
        beavers_session(rng),
        card_hunter_session(rng),
        {"game": "hunting-hunting-beavers", "players": names, "date": "2026-11-22",
         "colors": {"Ann": "red", "Ben": "green", "Cat": "blue", "Dan": "white"},
         "final": {"Ann": 12, "Ben": 0, "Cat": 7, "Dan": 20}},
        {"game": "halali", "lang": "fr", "players": ["Ann", "Ben"]},
    ]


@pytest.mark.parametrize("seed", range(5))
def test_every_game_reads_back_as_the_same_session(seed):
    for raw in every_game(seed):
        assert check_session(raw).problems == ()
        assert loads(dumps(raw)) == raw


def test_one_row_per_player_per_day_with_the_day_in_its_own_column():
    raw = every_game(0)[0]
    rows = dumps(raw).splitlines()
    header = rows[0].split(",")
    assert header[:3] == ["round", "player", "game"]
    assert "days.{round}.{player}.prey.wolf" in header
    assert len(rows) == 1 + 4 * 3
    assert [row.split(",")[:2] for row in rows[1:4]] == [["1", "Ann"], ["1", "Ben"], ["1", "Cat"]]
    wolf = header.index("days.{round}.{player}.prey.wolf")
    assert rows[5].split(",")[wolf] == str(raw["days"][1]["Ben"]["prey"]["wolf"])


def test_a_round_value_shared_by_its_players_is_on_each_of_their_rows():
    raw = {"game": "halali", "players": ["Ann", "Ben"],
           "rounds": [{"blue": "Ann", "tiles": {"Ann": {"duck": 1}, "Ben": {"tree": 2}}}]}
    text = dumps(raw)
    assert text.splitlines()[1].startswith("1,Ann,halali,Ann,")
    assert text.splitlines()[2].startswith("1,Ben,halali,Ann,")
    assert loads(text) == raw


@pytest.mark.parametrize("name", ["42", "true", "-3", "=SUM(A1)", "+1", "@me", '"quoted"', "{x}", "days",
                                  "tiles", "Chloé", " spaced ", "a,b", "line\nbreak", "a.b"])
def test_awkward_player_names_survive(name):
    raw = {"game": "halali", "players": [name, "Ben"],
           "rounds": [{"blue": name, "tiles": {name: {"duck": 1}, "Ben": {"tree": 2}}}]}
    assert loads(dumps(raw)) == raw


@pytest.mark.parametrize("name", ["=SUM(A1)", "+1", "-2", "@me"])
def test_text_a_spreadsheet_would_run_as_a_formula_is_quoted(name):
    text = dumps({"game": "card-hunter", "players": [name]})
    cell = list(csv.reader(io.StringIO(text)))[1][1]
    assert cell == json.dumps(name)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=12).filter(lambda n: n.strip() and "\r" not in n),
                min_size=4, max_size=4, unique=True),
       st.lists(st.integers(-3, 3), min_size=4, max_size=4))
def test_any_names_and_changes_round_trip(names, changes):
    raw = {"game": "hunting-hunting-beavers", "players": names, "rounds": [dict(zip(names, changes))]}
    assert loads(dumps(raw)) == raw


def test_check_reads_csv_with_the_same_result_as_json(tmp_path):
    runner = CliRunner()
    for index, raw in enumerate(every_game(3)):
        as_json = tmp_path / f"s{index}.json"
        as_csv = tmp_path / f"s{index}.csv"
        as_json.write_text(json.dumps(raw), encoding="utf-8")
        as_csv.write_text(dumps(raw), encoding="utf-8")
        outputs = [runner.invoke(APP, ["score", "check", str(path), "--json"]) for path in (as_json, as_csv)]
        assert [o.exit_code for o in outputs] == [0, 0]
        assert json.loads(outputs[0].stdout) == json.loads(outputs[1].stdout)


def test_new_writes_a_csv_session_that_add_can_read(tmp_path):
    path = tmp_path / "evening.csv"
    result = CliRunner().invoke(APP, ["score", "new", "halali", "--players", "Ann,Ben", "--out", str(path)])
    assert result.exit_code == 0, result.output
    assert read_session_file(path).raw == {"game": "halali", "players": ["Ann", "Ben"]}


@pytest.mark.parametrize("text, code, line", [
    ("", "csv_no_header", None),
    ("player,game\nAnn,halali\n", "csv_missing_column", None),
    ("round,player,game,game\n,Ann,halali,halali\n", "csv_bad_column", None),
    ("round,player,{player}.x\n,Ann,1\n", "csv_bad_column", None),
    ("round,player,game..x\n,Ann,1\n", "csv_bad_column", None),
    ('round,player,game\n,"Ann,halali\n', "invalid_csv", 2),
    ("round,player,game\n,Ann,halali,extra\n", "csv_extra_cells", 2),
    ("round,player,game\n1,,halali\n", "csv_no_player", 2),
    ("round,player,game\nx,Ann,halali\n", "csv_bad_round", 2),
    ("round,player,game\n0,Ann,halali\n", "csv_bad_round", 2),
    ("round,player,rounds.{round}.{player}\n,Ann,3\n", "csv_no_round", 2),
    ("round,player,game\n,Ann,halali\n,Ben,card-hunter\n", "csv_conflict", 3),
    ("round,player,rounds.{round}.blue\n1,Ann,Ann\n1,Ben,Ben\n", "csv_conflict", 3),
    ("round,player,game,game.x\n,Ann,halali,1\n", "csv_conflict", 2),
])
def test_a_broken_csv_says_what_and_where(text, code, line):
    with pytest.raises(SessionFileError) as caught:
        loads(text)
    assert caught.value.code == code
    assert caught.value.params.get("line") == line
    for lang in ("en", "fr"):
        message = messages(lang).file_error(caught.value)
        assert message and "{" not in message.replace("{round}", "").replace("{player}", "")
        if line is not None:
            assert str(line) in message


def test_check_names_the_file_and_line_of_a_broken_csv(tmp_path):
    path = tmp_path / "broken.csv"
    path.write_text("round,player,game\nx,Ann,halali\n", encoding="utf-8")
    result = CliRunner().invoke(APP, ["score", "check", str(path)])
    assert result.exit_code == 1
    assert result.stderr.strip() == f"Error: {path}: line 2: the round \"x\" is not a number from 1 on."


def test_cells_left_empty_are_values_not_given():
    text = "round,player,game,rounds.{round}.{player}\n1,Ann,hunting-hunting-beavers,2\n1,Ben,,\n"
    assert loads(text) == {"game": "hunting-hunting-beavers", "players": ["Ann", "Ben"], "rounds": [{"Ann": 2}]}
