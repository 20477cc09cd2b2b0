"""EN/FR catalogs: same keys and placeholders, every code has a sentence, strictness, French terms."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import scoring
from scoring import CatalogError, Problem, SessionFileError, Term, catalog, check_session
from scoring.messages import Catalog, placeholders, plural_form

SCORING = Path(scoring.__file__).parent
EN, FR = catalog("en"), catalog("fr")


def emitted_codes() -> tuple[set[str], set[str]]:
    """Problem and file-error codes written in the scoring sources."""
    problems, file_errors = set(), set()
    for source in [*SCORING.glob("*.py"), SCORING.parent / "pnp" / "score_cli.py", SCORING.parent / "pnp" / "score_commands.py"]:
        text = source.read_text(encoding="utf-8")
        problems |= set(re.findall(r'(?:\.add|Problem|_problem)\(\s*"([a-z0-9_]+)"', text))
        file_errors |= set(re.findall(r'SessionFileError\(\s*"([a-z0-9_]+)"', text))
    return problems, file_errors


def test_same_keys_in_both_languages():
    assert set(EN.entries) == set(FR.entries)


def test_same_placeholders_in_both_languages():
    different = [key for key in EN.entries if placeholders(EN.entries[key]) != placeholders(FR.entries[key])]
    assert different == []


def test_every_code_has_a_message():
    problems, file_errors = emitted_codes()
    assert {"hand_exceeds_set", "cards_not_conserved", "tiles_exceed_box", "invalid_json"} <= problems | file_errors
    assert sorted(code for code in problems if not EN.has(f"problem.{code}")) == []
    assert sorted(code for code in file_errors if not EN.has(f"file_error.{code}")) == []
    # ...and no message is left over from a code that no longer exists.
    assert {k.split(".", 1)[1] for k in EN.entries if k.startswith("problem.")} == problems
    assert {k.split(".", 1)[1] for k in EN.entries if k.startswith("file_error.")} == file_errors


def test_problem_messages_all_start_with_where():
    assert all(
        EN.entries[k].startswith("{where}") and FR.entries[k].startswith("{where}")
        for k in EN.entries
        if k.startswith("problem.")
    )


def test_missing_key_is_an_error_never_the_key():
    with pytest.raises(CatalogError):
        EN.text("problem.no_such_check", where="x")
    broken = Catalog("en", {k: v for k, v in EN.entries.items() if k != "problem.hand_exceeds_set"})
    problem = Problem("hand_exceeds_set", round=1, player="Ann", item=Term("card", "wolf"), params={"count": 3, "limit": 2})
    with pytest.raises(CatalogError):
        broken.problem(problem)


def test_missing_placeholder_value_is_an_error():
    with pytest.raises(CatalogError):
        EN.text("problem.hand_exceeds_set", where="Day 1")


def test_unknown_language():
    with pytest.raises(CatalogError):
        catalog("de")


def test_french_plural_treats_zero_as_singular():
    assert plural_form("fr", 0) == plural_form("fr", 1) == "one"
    assert plural_form("en", 0) == "other" and plural_form("en", 1) == "one"
    assert FR.plural("table.team_won", 0) != FR.plural("table.team_won", 2).replace("2", "0")
    assert "jeton K.-O. restant." in FR.plural("table.team_won", 1)


def test_french_uses_the_french_rules_terms():
    assert [FR.term(Term("card", c)) for c in ("hunter", "wolf", "rabbit", "carrot", "closed_season")] == [
        "Chasseur",
        "Loup",
        "Lapin",
        "Carotte",
        "Chasse interdite",
    ]
    assert [FR.term(Term("tile", t)) for t in ("bear", "fox", "lumberjack", "hunter", "duck", "pheasant", "tree")] == [
        "ours",
        "renard",
        "bûcheron",
        "chasseur",
        "canard",
        "faisan",
        "arbre",
    ]
    assert FR.term(Term("place", "prey")) == "pile Proies"
    text = " ".join(FR.entries.values())
    assert "Pavillon de chasse" in text and "Proies" in text


def broken_sessions() -> list[dict]:
    fever_day = {
        "Ann": {"prey": {"wolf": 9, "hunter": 1}, "hand": {"rabbit": 4, "closed_season": 1}, "lodge_flipped": True},
        "Ben": {"hand": {"carrot": 1}, "hunter_under_lodge": True},
        "Cat": {"hand": {"hunter": 1, "wolf": 1}},
    }
    return [
        {"game": "hunting-fever", "players": ["Ann", "Ben", "Cat"], "days": [fever_day], "lang": "xx", "extra": 1},
        {"game": "hunting-fever", "players": ["Ann", "Ann", ""], "days": 3},
        {"game": "halali", "players": ["Ann", "Ben"], "rounds": [
            {"blue": "Ann", "tiles": {"Ann": {"tree": 1, "bear": 2, "fox": 4}, "Ben": {"tree": 15}}},
            {"blue": "Ann", "tiles": {"Ann": {"duck": 1.5}}},
            {"tiles": {}},
        ]},
        {"game": "hunting-hunting-beavers", "players": ["A", "B", "C"], "colors": {"A": "red", "B": "red", "C": 3},
         "rounds": [{"A": -1}, {"B": 60}], "final": {"A": 10**20}},
        {"game": "card-hunter", "players": ["A"] * 5, "difficulty": "x", "result": "won", "knockouts_left": 9},
        {"game": "card-hunter", "players": [1], "result": "lost", "knockouts_left": 2},
    ]


@pytest.mark.parametrize("raw", broken_sessions())
@pytest.mark.parametrize("words", [EN, FR], ids=["en", "fr"])
def test_every_problem_reads_as_a_sentence_naming_where(raw, words):
    problems = check_session(raw).problems
    assert problems
    for problem in problems:
        message = words.problem(problem)
        assert "{" not in message and "problem." not in message
        if problem.player is not None:
            assert problem.player in message
        if problem.round is not None:
            assert str(problem.round) in message
        if problem.item is not None:
            assert words.term(problem.item) in message


def test_sentences_differ_by_language():
    problem = check_session(broken_sessions()[0]).problems[0]
    assert EN.problem(problem) != FR.problem(problem)


def test_file_errors_in_both_languages():
    error = SessionFileError("unknown_game", found=scoring.errors.Value("chess"), expected="halali")
    assert EN.file_error(error).startswith("unknown game")
    assert FR.file_error(error).startswith("jeu inconnu")


def test_values_are_shown_short_and_safe():
    assert EN.describe(10**40) == "a huge number"
    assert len(EN.describe("x" * 500)) < 50
    assert EN.describe(True) == "true" and EN.describe([1]) == "a list" and FR.describe({}) == "un tableau"
    assert "\\ud800" in EN.describe("\ud800")


def test_scoring_imports_neither_reportlab_nor_typer():
    modules = sorted(p.stem for p in SCORING.glob("*.py") if p.stem != "__init__")
    code = (
        "import sys, importlib\n"
        f"for name in {modules!r}: importlib.import_module('scoring.' + name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('reportlab', 'typer', 'click', 'pnp'))\n"
        "print(','.join(bad))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=SCORING.parent, check=True)
    assert done.stdout.strip() == ""
    assert len(modules) >= 8


def test_every_key_named_in_the_code_exists():
    named = set()
    for source in [*SCORING.glob("*.py"), SCORING.parent / "pnp" / "score_cli.py", SCORING.parent / "pnp" / "score_commands.py"]:
        named |= set(re.findall(r"""["']((?:cli|table|where|type|game|card|tile)\.[a-z_.-]+)["']""", source.read_text()))
    assert named  # the scan found the keys
    # A name ending in "_" or "." is completed at run time ("cli.complete_" + "day").
    missing = [
        k
        for k in named
        if not any(e == k or e.startswith(k + ".") or (k[-1] in "_." and e.startswith(k)) for e in EN.entries)
    ]
    assert missing == []
