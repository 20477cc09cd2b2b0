"""``pnp score check/new/add`` in-process through CliRunner: exit codes, JSON shape, prompts, saving."""

from __future__ import annotations

import json
import random
import tomllib

import pytest
from typer.testing import CliRunner

import hunting_fever_sim as sim
from helpers import score_host_app
from pnp.cli.score import score_app

NAMES = ["Ann", "Ben", "Cat"]
JSON_KEYS = {"game", "players", "rounds", "totals", "complete", "winners", "tie_break"}
ERROR_KEYS = {"code", "message", "round", "player"}


APP = score_host_app()


def run(*args: str, input: str | None = None):
    result = CliRunner().invoke(APP, ["score", *map(str, args)], input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a traceback is a bug: show it
    return result


def simulated(seed: int, days: int = 4, names=NAMES) -> dict:
    rng = random.Random(seed)
    return sim.session(list(names), list(sim.play_game(list(names), rng, days)))


def save(tmp_path, raw: dict, name: str = "s.json"):
    path = tmp_path / name
    path.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    return path


# -- check ---------------------------------------------------------------------


def test_check_valid_session_shows_a_table(tmp_path):
    raw = simulated(1)
    result = run("check", save(tmp_path, raw))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Hunting Fever")
    assert any(line.startswith("Day 4") for line in lines)
    assert any(line.startswith("Total") for line in lines)
    assert any(line.startswith("Winner") for line in lines)
    assert result.stderr == ""


def test_check_json_is_exactly_one_object(tmp_path):
    raw = simulated(2)
    result = run("check", save(tmp_path, raw), "--json")
    assert result.exit_code == 0
    out = json.loads(result.stdout)
    assert set(out) == JSON_KEYS
    assert out["game"] == "hunting-fever" and out["players"] == NAMES and out["complete"] is True
    assert len(out["rounds"]) == 4 and all(set(day) == set(NAMES) for day in out["rounds"])
    assert out["totals"] == {n: sum(day[n] for day in out["rounds"]) for n in NAMES}
    assert out["winners"] and set(out["winners"]) <= set(NAMES)
    assert out["tie_break"] in (None, "best_day", "shared")


def test_check_incomplete_session(tmp_path):
    out = json.loads(run("check", save(tmp_path, simulated(3, days=2)), "--json").stdout)
    assert out["complete"] is False and out["winners"] == [] and out["tie_break"] is None
    assert len(out["rounds"]) == 2


def test_check_finds_a_tie_break(tmp_path):
    # Search simulated games for one decided by the best single day.
    for seed in range(400):
        raw = simulated(seed)
        out = json.loads(run("check", save(tmp_path, raw), "--json").stdout)
        if out["tie_break"] == "best_day":
            break
    else:
        pytest.fail("no best-day tie in 400 games")
    assert len(out["winners"]) == 1
    text = run("check", save(tmp_path, raw)).stdout
    assert "best single day" in text


def test_check_invalid_session_lists_every_problem(tmp_path):
    raw = simulated(4)
    raw["days"][0]["Ben"]["prey"]["wolf"] += 1
    raw["days"][2]["Cat"]["hand"]["carrot"] = 2.5
    result = run("check", save(tmp_path, raw))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith("Error: ") and "2 problems" in result.stderr
    assert "Day 1" in result.stderr and "Wolf" in result.stderr
    assert "Day 3, Cat, hand, Carrot" in result.stderr


def test_check_invalid_session_json(tmp_path):
    raw = simulated(5)
    raw["days"][1]["Ann"]["lodge_flipped"] = "yes"
    result = run("check", save(tmp_path, raw), "--json")
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert list(out) == ["errors"]
    assert [set(e) for e in out["errors"]] == [ERROR_KEYS]
    assert out["errors"][0]["code"] == "wrong_type"
    assert out["errors"][0]["round"] == 2 and out["errors"][0]["player"] == "Ann"


def test_check_in_french_from_option_or_session(tmp_path):
    raw = simulated(6)
    raw["days"][0]["Ann"]["hand"]["wolf"] = 3
    path = save(tmp_path, raw)
    assert "Loup" in run("check", path, "--lang", "fr").stderr
    raw["lang"] = "fr"
    path = save(tmp_path, raw)
    french = run("check", path, "--json").stdout
    assert "Jour 1" in json.loads(french)["errors"][0]["message"]
    english = run("check", path, "--json", "--lang", "en").stdout
    assert "Day 1" in json.loads(english)["errors"][0]["message"]


def test_check_french_table(tmp_path):
    raw = simulated(7)
    raw["lang"] = "fr"
    text = run("check", save(tmp_path, raw)).stdout
    assert text.startswith("Chasse en folie") and "Jour 1" in text and "Vainqueur" in text


@pytest.mark.parametrize(
    "name, content, code",
    [
        ("s.toml", "game = [", "invalid_toml"),
        ("s.json", "[]", "not_a_table"),
        ("s.json", '{"game": "chess"}', "unknown_game"),
        ("s.yaml", "game: halali", "unknown_extension"),
    ],
)
def test_check_file_errors_are_one_line(tmp_path, name, content, code):
    path = tmp_path / name
    path.write_text(content)
    result = run("check", path)
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1
    out = json.loads(run("check", path, "--json").stdout)
    assert out == {"errors": [{"code": code, "message": out["errors"][0]["message"], "round": None, "player": None}]}


def test_check_missing_file(tmp_path):
    result = run("check", tmp_path / "nope.toml")
    assert result.exit_code == 1 and "Error: " in result.stderr and "no such file" in result.stderr


def test_check_other_games(tmp_path):
    halali = {"game": "halali", "players": ["Ann", "Ben"], "rounds": [
        {"blue": "Ann", "tiles": {"Ann": {"hunter": 2}, "Ben": {"tree": 5}}},
        {"blue": "Ben", "tiles": {"Ann": {"tree": 1}, "Ben": {"duck": 1}}},
    ]}
    out = json.loads(run("check", save(tmp_path, halali), "--json").stdout)
    assert out["winners"] == ["Ben"] and out["tie_break"] == "tiles" and out["rounds"][0] == {"Ann": 10, "Ben": 10}
    text = run("check", save(tmp_path, halali)).stdout
    assert "Round 1 (blue: Ann)" in text and "Tiles" in text and "more tiles" in text
    beavers = {"game": "hunting-hunting-beavers", "players": ["A", "B", "C", "D"], "final": {"A": 5, "B": 5}}
    out = json.loads(run("check", save(tmp_path, beavers), "--json").stdout)
    assert out["winners"] == ["A", "B"] and out["tie_break"] == "shared" and out["totals"]["C"] == 0
    hunter = {"game": "card-hunter", "players": ["A", "B"], "result": "won", "knockouts_left": 1}
    out = json.loads(run("check", save(tmp_path, hunter), "--json").stdout)
    assert out["winners"] == ["A", "B"] and out["tie_break"] is None and out["complete"] is True
    assert "1 Knockout token left" in run("check", save(tmp_path, hunter)).stdout


# -- new -----------------------------------------------------------------------


def test_new_writes_a_template_that_checks(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("new", "hunting-fever", "--players", "Alice, Bob ,Chloé \"Cléo\"")
    assert result.exit_code == 0, result.output
    path = tmp_path / "hunting-fever-session.toml"
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    assert raw == {"game": "hunting-fever", "players": ["Alice", "Bob", 'Chloé "Cléo"']}
    out = json.loads(run("check", path, "--json").stdout)
    assert out["rounds"] == [] and out["complete"] is False


def test_new_json_and_lang(tmp_path):
    path = tmp_path / "g.json"
    assert run("new", "halali", "--players", "Ann,Ben", "--out", path, "--lang", "fr").exit_code == 0
    assert json.loads(path.read_text()) == {"game": "halali", "lang": "fr", "players": ["Ann", "Ben"]}


def test_new_refuses_to_overwrite_without_force(tmp_path):
    path = tmp_path / "g.toml"
    kept = 'game = "halali"\nplayers = ["Ann", "Ben"]\n'
    path.write_text(kept)
    result = run("new", "card-hunter", "--players", "Ann", "--out", path)
    assert result.exit_code == 1 and "--force" in result.stderr
    assert path.read_text() == kept
    assert run("new", "card-hunter", "--players", "Ann", "--out", path, "--force").exit_code == 0
    assert tomllib.loads(path.read_text())["game"] == "card-hunter"


@pytest.mark.parametrize(
    "game, players",
    [("hunting-fever", "A,B"), ("halali", "A,B,C"), ("hunting-hunting-beavers", "A,B,C"), ("card-hunter", "A,B,C,D,E"),
     ("hunting-fever", "A,A,B"), ("hunting-fever", "A,,B")],
)
def test_new_checks_the_players(tmp_path, game, players):
    result = run("new", game, "--players", players, "--out", tmp_path / "x.toml")
    assert result.exit_code == 1 and result.stderr.startswith("Error: ")
    assert not (tmp_path / "x.toml").exists()


def test_new_with_an_odd_file_name_still_writes_valid_toml(tmp_path):
    path = tmp_path / "a\nb.toml"
    assert run("new", "halali", "--players", "Ann,Ben", "--out", path).exit_code == 0
    assert tomllib.loads(path.read_text(encoding="utf-8")) == {"game": "halali", "players": ["Ann", "Ben"]}


def test_new_unknown_game(tmp_path):
    result = run("new", "chess", "--players", "A,B", "--out", tmp_path / "x.toml")
    assert result.exit_code == 1 and "hunting-fever" in result.stderr


# -- add -----------------------------------------------------------------------

# The simple day from the Hunting Fever tests, typed at the prompt: hunter place,
# lodge flipped, hand (wolf, rabbit, carrot, closed season), prey pile (same).
ANN = ["lodge", "n", "0", "0", "0", "0", "2", "3", "2", "1"]
BEN = ["hand", "n", "1", "1", "0", "0", "1", "2", "3", "1"]
CAT = ["hand", "n", "0", "0", "1", "0", "2", "3", "3", "1"]


def typed(*answers: list[str]) -> str:
    return "\n".join(a for group in answers for a in group) + "\n"


def new_fever(tmp_path, name="s.toml"):
    path = tmp_path / name
    assert run("new", "hunting-fever", "--players", ",".join(NAMES), "--out", path).exit_code == 0
    return path


def test_add_a_day_saves_it_with_a_backup(tmp_path):
    path = new_fever(tmp_path)
    before = path.read_text(encoding="utf-8")
    result = run("add", path, input=typed(ANN, BEN, CAT))
    assert result.exit_code == 0, result.output
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    assert raw["days"][0]["Ann"]["hunter_under_lodge"] is True
    assert raw["days"][0]["Ben"]["hand"] == {"hunter": 1, "wolf": 1, "rabbit": 1, "carrot": 0, "closed_season": 0}
    assert (tmp_path / "s.toml.bak").read_text(encoding="utf-8") == before
    assert path.read_text(encoding="utf-8").startswith(before)  # appended: comments kept
    out = json.loads(run("check", path, "--json").stdout)
    assert out["rounds"] == [{"Ann": 17, "Ben": 2, "Cat": 13}]
    assert "Day 1" in result.stdout


def test_add_reasks_bad_numbers(tmp_path):
    path = new_fever(tmp_path, "s.json")
    ann = ["under", "lodge", "maybe", "n", "-1", "x", "²", "3", "0", "0", "0", "0", "2", "3", "2", "1"]
    result = run("add", path, input=typed(ann, BEN, CAT))
    assert result.exit_code == 0, result.output
    assert "whole number from 0 to 2" in result.stderr
    assert json.loads(path.read_text())["days"][0]["Ann"]["hand"]["wolf"] == 0


def test_add_reasks_a_player_who_breaks_a_rule(tmp_path):
    path = new_fever(tmp_path)
    # Lodge flipped yet the closed season card still in hand: this player is asked again.
    wrong = ["lodge", "y", "0", "0", "0", "1", "2", "3", "2", "0"]
    result = run("add", path, input=typed(wrong, ANN, BEN, CAT))
    assert result.exit_code == 0, result.output
    assert "Closed Season" in result.stderr


def test_add_does_not_save_an_impossible_day(tmp_path):
    path = new_fever(tmp_path)
    before = path.read_text(encoding="utf-8")
    cat = CAT[:-2] + ["4", "1"]  # one carrot too many
    result = run("add", path, input=typed(ANN, BEN, cat) + "n\n")
    assert result.exit_code == 1
    assert "Carrot" in result.stderr and "Error: nothing was saved" in result.stderr
    assert path.read_text(encoding="utf-8") == before
    assert not (tmp_path / "s.toml.bak").exists()


def test_add_can_start_the_day_again(tmp_path):
    path = new_fever(tmp_path)
    cat = CAT[:-2] + ["4", "1"]
    result = run("add", path, input=typed(ANN, BEN, cat) + "y\n" + typed(ANN, BEN, CAT))
    assert result.exit_code == 0, result.output
    assert len(tomllib.loads(path.read_text())["days"]) == 1


def test_add_refuses_complete_and_invalid_sessions(tmp_path):
    full = save(tmp_path, simulated(8))
    result = run("add", full)
    assert result.exit_code == 1 and "all 4 days" in result.stderr
    broken = simulated(9, days=1)
    broken["days"][0]["Ann"]["hand"]["wolf"] = 7
    result = run("add", save(tmp_path, broken, "b.json"))
    assert result.exit_code == 1 and "fix these problems" in result.stderr


def test_add_halali_rounds_swap_roles(tmp_path):
    path = tmp_path / "h.toml"
    run("new", "halali", "--players", "Ann,Ben", "--out", path)
    # Round 1: Ann is blue (no tree asked): bear fox lumberjack hunter duck pheasant;
    # Ben is brown: bear fox lumberjack hunter duck pheasant tree.
    first = ["ann", "0", "0", "0", "2", "1", "0", "0", "0", "0", "0", "0", "0", "4"]
    assert run("add", path, input=typed(first)).exit_code == 0
    second = ["0", "0", "0", "0", "0", "0", "1", "0", "0", "0", "0", "1", "0"]
    result = run("add", path, input=typed(second))
    assert result.exit_code == 0, result.output
    assert "Ben plays blue" in result.stdout
    out = json.loads(run("check", path, "--json").stdout)
    assert out["rounds"] == [{"Ann": 12, "Ben": 8}, {"Ann": 2, "Ben": 2}] and out["complete"] is True


def test_add_beavers_round(tmp_path):
    path = tmp_path / "b.toml"
    run("new", "hunting-hunting-beavers", "--players", "A,B,C,D", "--out", path)
    result = run("add", path, input="3\n-1\n0\n2\n0\n")  # B cannot drop below 0: asked again
    assert result.exit_code == 0, result.output
    assert "less than 0" in result.stderr
    out = json.loads(run("check", path, "--json").stdout)
    assert out["rounds"] == [{"A": 3, "B": 0, "C": 2, "D": 0}]


def test_add_card_hunter_result(tmp_path):
    path = tmp_path / "c.toml"
    run("new", "card-hunter", "--players", "A,B", "--out", path, "--lang", "fr")
    result = run("add", path, input="gagnée\n2\n")
    assert result.exit_code == 0, result.output
    assert "L’équipe a gagné" in result.stdout
    raw = tomllib.loads(path.read_text())
    assert raw["result"] == "won" and raw["knockouts_left"] == 2
    assert run("add", path).exit_code == 1


def test_every_command_has_help():
    for command in ("check", "new", "add"):
        result = run(command, "--help")
        assert result.exit_code == 0 and "Usage" in result.stdout
    assert all(info.help or (info.callback and info.callback.__doc__) for info in score_app.registered_commands)
    assert score_app.info.help


# -- the table, every ending, both languages -------------------------------------

def table_of(raw: dict, lang: str) -> str:
    from scoring import check_session, messages, score_session
    from scoring.report import format_result

    checked = check_session(raw)
    return format_result(score_session(checked.session), messages(lang, checked.rules))


HALALI_SHARED = {"game": "halali", "players": ["Ann", "Ben"], "rounds": [
    {"blue": "Ann", "tiles": {"Ann": {"duck": 1}, "Ben": {"tree": 1}}},
    {"blue": "Ben", "tiles": {"Ann": {"tree": 1}, "Ben": {"duck": 1}}},
]}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_table_for_every_kind_of_ending(lang):
    shared_fever = None
    for seed in range(2000):
        raw = simulated(seed)
        from scoring import check_session, score_session

        result = score_session(check_session(raw).session)
        if result.tie_break is not None and result.tie_break.value == "shared":
            shared_fever = raw
            break
    assert shared_fever is not None
    endings = [
        shared_fever,
        HALALI_SHARED,
        {"game": "hunting-hunting-beavers", "players": ["A", "B", "C", "D"], "final": {"A": 3, "B": 3}},
        {"game": "card-hunter", "players": ["A"], "result": "lost"},
        {"game": "card-hunter", "players": ["A"]},
        {"game": "halali", "players": ["Ann", "Ben"]},
    ]
    for raw in endings:
        text = table_of(raw, lang)
        assert "{" not in text and text.endswith("\n")
    assert ("share the win" if lang == "en" else "gagnent ensemble") in table_of(shared_fever, lang)
    assert ("Ann, Ben" in table_of(HALALI_SHARED, lang))


def test_add_halali_reasks_a_player_and_can_stop_on_an_impossible_round(tmp_path):
    path = tmp_path / "h.toml"
    run("new", "halali", "--players", "Ann,Ben", "--out", path)
    before = path.read_bytes()
    # Ann (blue) first claims 8 of her own tiles, more than the 5 exits allow: asked again.
    # Then Ann and Ben hold 5 ducks each, and the box has 7: the round is refused, and not retried.
    answers = ["ann", "2", "6", "0", "0", "0", "0", "0", "0", "0", "0", "5", "0",
               "0", "0", "0", "0", "5", "0", "0", "n"]
    result = run("add", path, input=typed(answers))
    assert result.exit_code == 1
    assert result.stdout.count("Round 1 — Ann") == 2 and result.stdout.count("Round 1 — Ben") == 1
    assert "Round 1, Ann: 8 tiles of the player’s own colour" in result.stderr
    assert "Round 1, duck: the two players hold 10 together, but the box has only 7." in result.stderr
    assert result.stderr.endswith("Error: nothing was saved.\n")
    assert path.read_bytes() == before
