"""``pnp score check --prove``: witnesses in text and JSON, refusals with the numbers, other games, start-up."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

import hunting_fever_sim as sim
from helpers import score_host_app
from scoring.hunting_fever import CARDS, entry
from scoring.hunting_fever_play import as_entry, replay_day
from hunting_fever_days import DAYS as COUNTING_DAYS
from hunting_fever_days import raw_day
from hunting_fever_days import SUBTLE_DAYS

APP = score_host_app()
ROOT = Path(__file__).resolve().parent.parent
JSON_KEYS = {"game", "players", "rounds", "totals", "complete", "winners", "tie_break"}


def run(*args: str):
    result = CliRunner().invoke(APP, ["score", *map(str, args)])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a traceback is a bug: show it
    return result


def save(tmp_path, raw: dict, name: str = "s.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    return path


def simulated(names: list[str], days: int, seed: int) -> dict:
    return sim.session(names, list(sim.play_game(names, random.Random(seed), days)))


def test_every_day_gets_a_witness_in_the_text(tmp_path):
    names = ["Alice", "Bob", "Chloé", "Dévi"]
    raw = simulated(names, 2, seed=5)
    result = run("check", save(tmp_path, raw), "--prove")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Hunting Fever · Alice, Bob, Chloé, Dévi"
    headings = [line for line in lines if " can happen. One way it went: " in line]
    assert [heading.split()[1] for heading in headings] == ["1", "2"]
    rounds = [line for line in lines if line.startswith("  Round ")]
    assert rounds and all(all(f"{name} " in line for name in names) for line in rounds)
    french = run("check", save(tmp_path, raw), "--prove", "--lang", "fr").stdout
    assert "Le jour 2 a pu avoir lieu. Une façon de le jouer\u00a0: " in french and "  Manche 1\u00a0: Alice " in french


def test_the_json_has_the_usual_keys_and_a_witness_per_day_that_replays(tmp_path):
    names = ["Ann", "Ben", "Cat"]
    raw = simulated(names, 3, seed=8)
    result = run("check", save(tmp_path, raw), "--prove", "--json")
    assert result.exit_code == 0, result.output
    shown = json.loads(result.stdout)
    assert set(shown) == JSON_KEYS | {"proofs"}
    assert json.loads(run("check", save(tmp_path, raw), "--json").stdout) == {k: shown[k] for k in JSON_KEYS}
    assert [proof["day"] for proof in shown["proofs"]] == [1, 2, 3]
    for proof, day in zip(shown["proofs"], raw["days"]):
        assert set(proof) == {"day", "reachable", "start", "rounds"} and proof["reachable"] is True
        assert all(set(row) == set(names) and set(row.values()) <= set(CARDS) for row in proof["rounds"])
        table = replay_day(3, names.index(proof["start"]), [[row[n] for n in names] for row in proof["rounds"]])
        assert {n: as_entry(seat) for n, seat in zip(names, table)} == {
            n: entry(prey=day[n]["prey"], hand=day[n]["hand"], hunter_under_lodge=day[n]["hunter_under_lodge"],
                     lodge_flipped=day[n]["lodge_flipped"]) for n in names}


def impossible_session() -> dict:
    """A simulated first day, then a second day that passes every check yet cannot happen."""
    impossible = raw_day(SUBTLE_DAYS[0])
    names = list(impossible)
    raw = simulated(names, 1, seed=3)
    raw["days"].append(impossible)
    return raw


def test_an_impossible_day_is_refused_naming_the_day_and_its_numbers(tmp_path):
    path = save(tmp_path, impossible_session())
    assert run("check", path).exit_code == 0  # every check passes without --prove
    result = run("check", path, "--prove")
    assert result.exit_code == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0] == f"Error: {path}: 1 problem:"
    assert lines[1].startswith("  - Day 2: no way of playing this day ends with these entered numbers all together: ")
    assert lines[1].endswith(". At least one of them is wrong.")
    french = run("check", path, "--prove", "--lang", "fr").stderr.splitlines()
    assert french[1].startswith("  - Jour 2\u00a0: aucune façon de jouer ce jour ne se termine avec tous ces nombres")


def test_an_impossible_day_in_json_lists_its_numbers(tmp_path):
    raw = impossible_session()
    result = run("check", save(tmp_path, raw), "--prove", "--json")
    assert result.exit_code == 1
    (error,) = json.loads(result.stdout)["errors"]
    assert (error["code"], error["round"], error["player"]) == ("day_cannot_happen", 2, None)
    assert error["facts"] and error["minimal"] is True
    for fact in error["facts"]:
        assert set(fact) == {"player", "place", "card", "value"}
        entered = raw["days"][1][fact["player"]]
        if fact["place"] in ("hand", "prey"):
            assert entered[fact["place"]][fact["card"]] == fact["value"]
        else:
            assert int(entered[fact["place"]]) == fact["value"]
        assert fact["player"] in error["message"]


def test_a_counting_rule_answers_before_any_proof(tmp_path):
    raw = {"game": "hunting-fever", "players": ["Ann", "Ben", "Cat", "Dan", "Eve"],
           "days": [raw_day(COUNTING_DAYS["rabbits_beyond_catches"])]}
    result = run("check", save(tmp_path, raw), "--prove", "--json")
    assert result.exit_code == 1
    assert [error["code"] for error in json.loads(result.stdout)["errors"]] == ["rabbits_beyond_catches"]


def test_other_games_have_nothing_to_prove(tmp_path):
    path = save(tmp_path, {"game": "halali", "players": ["Ann", "Ben"]})
    result = run("check", path, "--prove")
    assert result.exit_code == 1
    assert result.stderr == "Error: --prove has nothing to decide for this game (Halali!).\n"
    assert run("check", path).exit_code == 0
    shown = json.loads(run("check", path, "--prove", "--json", "--lang", "fr").stdout)
    assert shown == {"errors": [{"code": "nothing_to_prove", "round": None, "player": None, "message":
                                 "--prove n’a rien à décider pour ce jeu (Chasse gardée)."}]}


def modules_loaded_by(*args: str) -> set[str]:
    """The modules a fresh ``pnp`` process has loaded by the time the command ends."""
    script = (
        "import sys\nfrom pnp.__main__ import main\n"
        f"sys.argv = ['pnp', *{list(args)!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True)
    return set(done.stdout.split())


def test_the_solver_loads_only_with_prove(tmp_path):
    path = save(tmp_path, simulated(["Ann", "Ben", "Cat"], 1, seed=1))
    plain = modules_loaded_by("score", "check", str(path))
    assert "scoring.hunting_fever_counting" in plain  # the counting rules always run
    assert not {"pysat", "scoring.hunting_fever_proof"} & plain
    assert {"pysat", "scoring.hunting_fever_proof"} <= modules_loaded_by("score", "check", str(path), "--prove")
