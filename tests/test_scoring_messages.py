"""Messages: every problem code has its sentence in EN and FR, catalogs are strict, French terms."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import scoring
from pnp.core.i18n import LANGUAGES, Catalog, catalog_folder, common_catalog, load_catalog, placeholders, plural_form
from scoring import (
    CatalogError,
    Common,
    FileError,
    Problem,
    SessionFileError,
    Term,
    Value,
    check_session,
    find_rules,
    game_ids,
    messages,
)
from scoring.rules import catalog_problems
from hunting_fever_days import DAYS as COUNTING_DAYS
from hunting_fever_days import raw_day
from hunting_fever_days import SUBTLE_DAYS
from scoring.messages import Messages

SCORING = Path(scoring.__file__).parent
ROOT = SCORING.parent
EN, FR = messages("en"), messages("fr")


def own_catalog(game: str, lang: str) -> Catalog:
    """A game's own catalog file, without the common one."""
    rules = find_rules(game)
    return load_catalog((rules.catalog_folder or catalog_folder()) / f"{game}.{lang}.toml", lang)


def section(catalog: Catalog, name: str) -> dict[str, str]:
    return {key[len(name) + 1:]: text for key, text in catalog.texts.items() if key.startswith(name + ".")}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_common_code_has_its_message_and_no_message_is_left_over(lang):
    common = common_catalog(lang)
    problems = section(common, "problem")
    assert set(problems) == {code.value for code in Common}
    for code in Common:
        assert placeholders(problems[code]) == {"where"} | code.params, code
    file_errors = section(common, "file_error")
    assert set(file_errors) == {code.value for code in FileError}
    for code in FileError:
        assert placeholders(file_errors[code]) == code.params, code


@pytest.mark.parametrize("game", game_ids())
def test_every_game_code_has_its_message_in_the_game_catalog(game):
    rules = find_rules(game)
    assert catalog_problems(rules) == []
    for lang in LANGUAGES:
        own = section(own_catalog(game, lang), "problem")
        assert set(own) == {code.value for code in rules.codes} and own


def test_catalog_problems_finds_what_is_missing_or_left_over(tmp_path):
    rules = find_rules("halali")
    for lang in LANGUAGES:
        text = (catalog_folder() / f"halali.{lang}.toml").read_text(encoding="utf-8")
        if lang == "fr":
            text = text.replace("tiles_exceed_box =", "tiles_beyond_box =").replace("{limit}.", "{lmt}.")
        (tmp_path / f"halali.{lang}.toml").write_text(text, encoding="utf-8")
    moved = type("MovedHalali", (type(rules),), {"catalog_folder": tmp_path})()
    problems = catalog_problems(moved)
    assert "halali (fr): problem.tiles_beyond_box is no code of HalaliProblem" in problems
    assert "halali (fr): no message problem.tiles_exceed_box" in problems
    assert any("'problem.tiles_exceed_box' is in en but not in fr" in p for p in problems)
    (tmp_path / "halali.fr.toml").unlink()
    [unreadable] = catalog_problems(moved)
    assert "halali.fr.toml: cannot read the catalog" in unreadable


def test_problem_messages_all_start_with_where():
    texts = [*common_catalog("en").texts.items(), *common_catalog("fr").texts.items()]
    for game in game_ids():
        texts += [*own_catalog(game, "en").texts.items(), *own_catalog(game, "fr").texts.items()]
    problems = [text for key, text in texts if key.startswith("problem.")]
    assert len(problems) > 40
    assert all(text.startswith("{where}") for text in problems)


def test_missing_key_is_an_error_never_the_key():
    with pytest.raises(CatalogError):
        EN.text("problem.no_such_check", where="x")
    words = messages("en", find_rules("hunting-fever"))
    texts = {k: v for k, v in words.catalog.texts.items() if k != "problem.hand_exceeds_set"}
    broken = Messages(Catalog("en", texts), "day")
    problem = Problem(find_rules("hunting-fever").codes.HAND_EXCEEDS_SET, round=1, player="Ann",
                      item=Term("card", "wolf"), params={"count": 3, "limit": 2})
    assert "Day 1, Ann, Wolf" in words.problem(problem)
    with pytest.raises(CatalogError):
        broken.problem(problem)


def test_a_game_term_is_not_in_the_common_messages():
    # Until the game is known only the common words exist: never a key printed instead.
    with pytest.raises(CatalogError):
        EN.term(Term("card", "wolf"))


def test_missing_placeholder_value_is_an_error():
    words = messages("en", find_rules("hunting-fever"))
    with pytest.raises(CatalogError):
        words.text("problem.hand_exceeds_set", where="Day 1")


def test_unknown_language():
    with pytest.raises(CatalogError):
        messages("de")


def test_french_plural_treats_zero_as_singular():
    assert plural_form("fr", 0) == plural_form("fr", 1) == "one"
    assert plural_form("en", 0) == "other" and plural_form("en", 1) == "one"
    fr = messages("fr", find_rules("card-hunter"))
    assert fr.plural("report.team_won", 0) != fr.plural("report.team_won", 2).replace("2", "0")
    assert "jeton K.-O. restant." in fr.plural("report.team_won", 1)
    assert EN.plural("report.winners", 0, names="") == "Winners: "
    assert FR.plural("report.winners", 0, names="") == "Vainqueur\u00a0: "


def test_french_uses_the_french_rules_terms():
    fever = messages("fr", find_rules("hunting-fever"))
    assert [fever.term(Term("card", c)) for c in ("hunter", "wolf", "rabbit", "carrot", "closed_season")] == [
        "Chasseur",
        "Loup",
        "Lapin",
        "Carotte",
        "Chasse interdite",
    ]
    halali = messages("fr", find_rules("halali"))
    assert [halali.term(Term("tile", t)) for t in ("bear", "fox", "lumberjack", "hunter", "duck", "pheasant", "tree")] == [
        "ours",
        "renard",
        "bûcheron",
        "chasseur",
        "canard",
        "faisan",
        "arbre",
    ]
    assert fever.term(Term("place", "prey")) == "pile Proies"
    text = " ".join(fever.catalog.texts.values())
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
        {"game": "hunting-fever", "players": ["Ann", "Ben", "Cat"], "days": [{"Ann": {}}] * 5, "date": "soon"},
        # More days than the game has are refused before any is read: the days' own problems, apart.
        {"game": "hunting-fever", "players": ["Ann", "Ben", "Cat"], "days": [{"Ann": {}}]},
        {"game": "hunting-fever", "players": ["Ann", "Ben", "\ud800"]},
        {"game": "hunting-fever", "players": ["Ann", "Ben", "Cat"], "days": [
            {"Ann": {"hand": {"hunter": 1}, "hunter_under_lodge": True}, "Ben": {}, "Cat": {}},
            {"Ann": {}, "Ben": {}, "Cat": {"prey": {"wolf": -1}}},
        ]},
        {"game": "halali", "players": ["Ann", "Ben"], "rounds": [
            {"blue": "Ann", "tiles": {"Ann": {"tree": 1, "bear": 2, "fox": 4}, "Ben": {"tree": 15}}},
            {"blue": "Ann", "tiles": {"Ann": {"duck": 1.5}}},
            {"tiles": {}},
        ]},
        {"game": "halali", "players": ["Ann", "Ben"], "rounds": [
            {"blue": "Ann", "tiles": {"Ann": {"tree": 1, "bear": 2, "fox": 4}, "Ben": {"tree": 15}}},
            {"blue": "Ann", "tiles": {"Ann": {"duck": 1.5}}},
        ]},
        {"game": "halali", "players": ["Ann", "Ben"], "rounds": [{"tiles": {}}]},
        {"game": "halali", "players": ["Ann", "Ben"], "rounds": [
            {"blue": "Ann", "tiles": {"Ann": {"duck": 1}, "Ben": {"duck": 1}}},
            {"blue": "Ann", "tiles": {"Ann": {"tree": 1}, "Zed": {}}},
        ]},
        {"game": "halali", "players": ["Ann", "Ben"], "rounds": [{"blue": "Ben"}, {"blue": "Ben"}]},
        {"game": "halali", "players": ["Ann", "ANN"]},
        {"game": "halali", "players": ["Ann", "B\x1b[2Jen"]},
        {"game": "hunting-hunting-beavers", "players": ["A", "B", "C"], "colors": {"A": "red", "B": "red", "C": 3},
         "rounds": [{"A": -1}, {"B": 60}], "final": {"A": 10**20}},
        {"game": "hunting-hunting-beavers", "players": ["A", "B", "C", "D"], "rounds": [{"A": 30, "B": 30}] * 11},
        {"game": "hunting-hunting-beavers", "players": ["A", "B", "C", "D"], "rounds": [{"A": 30, "B": 30}]},
        {"game": "hunting-hunting-beavers", "players": ["A", "B", "C", "D"], "final": {"A": -2, "B": 60},
         "colors": {"A": "red", "B": "blue", "C": "white"}},
        {"game": "card-hunter", "players": ["A"] * 5, "difficulty": "x", "result": "won", "knockouts_left": 9},
        {"game": "card-hunter", "players": [1], "result": "lost", "knockouts_left": 2},
        {"game": "card-hunter", "players": ["A"], "result": "won", "knockouts_left": 0},
        {"game": "card-hunter", "players": ["A"], "result": "won", "knockouts_left": 9},
        {"game": "card-hunter", "players": ["A"], "result": "lost", "knockouts_left": 2},
        # Hunting Fever's counting rules, one day each
        *({"game": "hunting-fever", "players": list(day), "days": [day]} for day in map(raw_day, COUNTING_DAYS.values())),
    ]


def entry_problems() -> list[Problem]:
    """What answers to an entry form's questions, and a player's part sent alone, can break."""
    fever = scoring.find_rules("hunting-fever")
    form = fever.entry_form(check_session({"game": "hunting-fever", "players": ["Ann", "Ben", "Cat"]}).session)
    part = form.player_form("Ann", {})
    answers = {question.id: question.default for question in part.questions}
    answers.update({"hunter": "nowhere", "hand.wolf": 3, "prey.rabbit": -1, "lodge_flipped": "yes"})
    problems = part.check(answers, 1, "Ann")
    problems += part.check({question.id: question.default for question in part.questions[1:]}, 1, "Ann")
    problems += form.check_part("Ann", {"prey": {"wolf": 6}, "hand": {"wolf": 2, "hunter": 1}}, {})
    problems += form.check_part("Ann", {"prey": {"wolf": 5}, "hand": {"hunter": 1}}, {})
    return problems


def test_answers_and_parts_alone_read_as_sentences_in_words():
    problems = entry_problems()
    codes = [str(problem.code) for problem in problems]
    assert codes == ["not_a_choice", "wrong_type", "above_limit", "below_limit", "no_answer",
                     "cards_beyond_game", "wolves_beyond_others"]
    fever = scoring.find_rules("hunting-fever")
    for lang in LANGUAGES:
        words = messages(lang, fever)
        for problem in problems:
            assert set(problem.params) == problem.code.params, problem.code
            message = words.problem(problem)
            assert "{" not in message and "Ann" in message
            assert "prey." not in message and "hand." not in message and "lodge_flipped" not in message
    english = messages("en", fever)
    assert english.problem(problems[2]) == "Day 1, Ann, hand, Wolf: at most 2, not 3."
    assert english.problem(problems[5]).startswith("Day 1, Ann, prey pile, Wolf: 6 in the prey pile and 2 in hand")
    assert "at most 4 can be in the prey pile" in english.problem(problems[5])


@pytest.mark.parametrize("raw", broken_sessions())
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_problem_reads_as_a_sentence_naming_where(raw, lang):
    checked = check_session(raw)
    words = messages(lang, checked.rules)
    assert checked.problems
    for problem in checked.problems:
        # The values a problem carries are exactly those its code's message needs.
        assert set(problem.params) == problem.code.params, problem.code
        message = words.problem(problem)
        assert "{" not in message and "problem." not in message
        if problem.player is not None:
            assert problem.player in message
        if problem.round is not None:
            assert str(problem.round) in message
        if problem.item is not None:
            assert words.term(problem.item) in message


def test_the_broken_sessions_reach_every_code():
    reached = {problem.code for raw in broken_sessions() for problem in check_session(raw).problems}
    reached |= {problem.code for problem in entry_problems()}
    # a day that passes every check, refused by `--prove`
    impossible = raw_day(SUBTLE_DAYS[0])
    proved = check_session({"game": "hunting-fever", "players": list(impossible), "days": [impossible]})
    reached |= {problem.code for problem in proved.rules.proofs(proved.session).problems}
    every = set(Common) | {code for game in game_ids() for code in find_rules(game).codes}
    assert every - reached == set()


def test_sentences_differ_by_language():
    checked = check_session(broken_sessions()[0])
    problem = checked.problems[0]
    assert messages("en", checked.rules).problem(problem) != messages("fr", checked.rules).problem(problem)


def test_file_errors_in_both_languages():
    error = SessionFileError(FileError.UNKNOWN_GAME, found=Value("chess"), expected="halali")
    assert EN.file_error(error).startswith("unknown game")
    assert FR.file_error(error).startswith("jeu inconnu")
    assert str(error).startswith("unknown game")


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
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('reportlab', 'typer', 'click'))\n"
        "ours = sorted(m for m in sys.modules if m.split('.')[0] == 'pnp')\n"
        "print(','.join(bad)); print(','.join(ours))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    bad, ours = done.stdout.splitlines()
    assert bad == ""
    # Of pnp, only pnp.core, the pieces both packages stand on (errors, catalogs, files, limits,
    # the scoresheet's model, the registry of games).
    assert ours and all(m in ("pnp", "pnp.core") or m.startswith("pnp.core.") for m in ours.split(","))
    assert len(modules) >= 12


def test_every_key_named_in_the_code_exists():
    sources = [*SCORING.glob("*.py"), ROOT / "pnp" / "cli" / "score_commands.py", ROOT / "pnp" / "cli" / "__init__.py"]
    named = set()
    for source in sources:
        text = source.read_text(encoding="utf-8")
        named |= set(re.findall(r"""(?:label|text|plural|get)\(\s*["']([a-z_]+\.[a-z_.]+)["']""", text))
        named |= {"cli." + key for key in re.findall(r"""say\(\s*["']([a-z_]+)["']""", text)}
    assert len(named) > 30  # the scan found the keys
    every = set(common_catalog("en").texts)
    for game in game_ids():
        every |= set(messages("en", find_rules(game)).catalog.texts)
    # A plural's key names its table of forms. score.* is a declared game's own catalog (its
    # rows, its hint: scoring/declared.py), checked when its template is loaded.
    missing = [key for key in named if key not in every and f"{key}.one" not in every
               and not key.startswith("score.")]
    assert missing == []
