"""A scoresheet declared in a designer's template ([score]), without Python.

A template says how its game is scored: a row per round or a row per category
(each thing counted worth its points), the numbers a box takes, whether the
highest or the lowest total wins, and the tie-break. It then gets the sheet the
shipped games have, blank in its kit and filled from a ``pnp score`` session
whose file names the template; every mistake in the declaration is named with
its key.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers import pdf_reader
from pnp.cli import app
from pnp.core.errors import TemplateError
from pnp.kit.build import render_to_memory
from pnp.template.loader import load_game
from pnp.template.model import PrintOptions
from scoring import game_ids, unregister

SHEET = """
[[components]]
id = "scoresheet"
size = "180x130"
kind = "sheet"
cut = false
pieces = [{ id = "scoresheet", count = 1 }]
front = [{ type = "scoresheet", x = 0, y = 0, w = "w", h = "h" }]
"""

CATEGORIES = """
[score]
rows = ["fish", "boats", "gulls"]
points = { boats = 3, gulls = -1 }
numbers = [0, 50]
tie_break = "boats"
"""

ROUNDS = """
[score]
rounds = 4
numbers = [-20, 50]
wins = "lowest"
tie_break = "last_round"
tie_break_wins = "lowest"
"""

WORDS = {"en": ("Fish", "Boats", "Gulls"), "fr": ("Poissons", "Bateaux", "Mouettes")}


def write(folder: Path, score: str, *, game_id: str = "fish-market", words: dict = WORDS, extra: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    template = folder / f"{game_id}.toml"
    template.write_text(f'[game]\nid = "{game_id}"\nplayers = [2, 5]\nfan_copy = false\n{score}{SHEET}',
                        encoding="utf-8")
    for lang, (fish, boats, gulls) in words.items():
        (folder / f"{game_id}.{lang}.toml").write_text(
            f'[game]\nname = "Fish Market"\ncredits = "A test."\n[component.scoresheet]\nname = "Sheet"\n'
            f'cut = "Print it."\n[score]\nfish = "{fish}"\nboats = "{boats}"\ngulls = "{gulls}"\n{extra}',
            encoding="utf-8")
    return template


@pytest.fixture(autouse=True)
def leaves_no_game_behind():
    """A command that reads a declared game's session joins its rules to the process's games."""
    before = game_ids()
    yield
    for game_id in set(game_ids()) - set(before):
        unregister(game_id)


def run(*args, input: str | None = None):
    return CliRunner().invoke(app, [str(a) for a in args], input=input)


def page_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in pdf_reader(data).pages)


# ------------------------------------------------------------------ the blank sheet


def test_a_sheet_of_categories_has_a_row_each_with_its_points_and_a_column_per_seat(tmp_path):
    game = load_game(write(tmp_path, CATEGORIES))
    sheet = game.blank_sheet(game.id)
    labels = [row.label for row in sheet.rows[1:]]
    assert [label.key for label in labels] == ["score.fish", "score.boats", "score.gulls"]
    assert [row.points for row in sheet.rows[1:]] == [None, "× 3", "× \u22121"]
    assert len(sheet.columns) == 5 and all(len(row.cells) == 5 for row in sheet.rows)
    assert [row.label.key for row in sheet.foot] == ["sheet.total", "sheet.winner"]
    assert [note.key for note in sheet.notes] == ["sheet.declared.tie_row_highest"]


@pytest.mark.parametrize("lang, words", [("en", ("Fish", "Boats", "× 3", "Total", "the most in “Boats” wins")),
                                         ("fr", ("Poissons", "Bateaux", "× 3", "le plus en « Bateaux »"))])
def test_the_kit_prints_the_declared_sheet_in_each_language(tmp_path, lang, words):
    game = load_game(write(tmp_path, CATEGORIES))
    data, manifest = render_to_memory(game, PrintOptions(lang=lang))
    text = " ".join(page_text(data).split())
    for word in words:
        assert " ".join(word.split()) in text, word


def test_a_sheet_of_rounds_says_the_lowest_total_wins_and_how_a_tie_is_settled(tmp_path):
    sheet = load_game(write(tmp_path, ROUNDS)).score_rules.scoresheet(None)
    assert [row.label.key for row in sheet.rows[1:]] == ["round.where"] * 4
    assert [row.label.values for row in sheet.rows[1:]] == [(("number", n),) for n in range(1, 5)]
    assert [note.key for note in sheet.notes] == ["sheet.declared.lowest_wins",
                                                  "sheet.declared.tie_last_round_lowest"]


# ------------------------------------------------------------------ mistakes, named with their keys


@pytest.mark.parametrize("score, problem", [
    ('[score]\nrounds = 3\nrows = ["fish"]\n', "score: give either rounds = N"),
    ('[score]\nrounds = 0\n', "score.rounds: expected a whole number of rounds from 1 to 100"),
    ('[score]\nrows = ["fish", "Fish"]\n', "score.rows: expected a list of 1 to 100 lower-case names"),
    ('[score]\nrows = ["fish"]\npoints = { boats = 2 }\n', "score.points.boats: expected a row of score.rows"),
    ('[score]\nrows = ["fish"]\ntie_break = "best_round"\n', "score.tie_break: expected one of its rows (fish)"),
    ('[score]\nrounds = 3\ntie_break = "fish"\n', "score.tie_break: expected 'best_round' or 'last_round'"),
    ('[score]\nrounds = 3\nnumbers = [5, 5]\n', "score.numbers: expected [least, most] a box takes"),
    ('[score]\nrounds = 3\nwins = "most"\n', "score.wins: expected 'highest' or 'lowest'"),
    ('[score]\nrounds = 3\nturns = 4\n', "score: unknown key 'turns'"),
])
def test_a_wrong_declaration_is_named_with_its_key(tmp_path, score, problem):
    with pytest.raises(TemplateError) as caught:
        load_game(write(tmp_path, score))
    assert any(problem in line for line in caught.value.problems), caught.value.problems


def test_a_row_without_its_name_in_a_catalog_is_named_once_per_language(tmp_path):
    words = {"en": ("Fish", "Boats", "Gulls"), "fr": ("Poissons", "Bateaux", "Mouettes")}
    template = write(tmp_path, CATEGORIES.replace('"gulls"]', '"gulls", "nets"]'), words=words)
    with pytest.raises(TemplateError) as caught:
        load_game(template)
    assert caught.value.problems == [
        f"fish-market.toml: score.rows: text 'score.nets' missing in {lang} (each row's name)" for lang in ("en", "fr")]


# ------------------------------------------------------------------ pnp score, from the template


def test_a_session_of_categories_from_new_to_the_filled_sheet(tmp_path):
    template = write(tmp_path / "game", CATEGORIES)
    session = tmp_path / "evening" / "friday.toml"
    session.parent.mkdir()
    made = run("score", "new", template, "--players", "Ann,Bob,Cy", "--out", session)
    assert made.exit_code == 0, made.output
    text = session.read_text(encoding="utf-8")
    assert 'game = "fish-market"' in text and 'template = "../game/fish-market.toml"' in text
    # Each player's count in each row, at the prompt: Ann and Cy tie on 10, Bob has 13.
    added = run("score", "add", session, input="5\n2\n1\n4\n3\n0\n5\n2\n1\n")
    assert added.exit_code == 0, added.output
    checked = run("score", "check", session, "--json")
    assert checked.exit_code == 0, checked.output
    assert '"totals": {"Ann": 10, "Bob": 13, "Cy": 10}' in checked.output and '"winners": ["Bob"]' in checked.output
    sheet = run("score", "sheet", session, "--lang", "fr")
    assert sheet.exit_code == 0, sheet.output
    filled = " ".join(page_text(session.with_suffix(".pdf").read_bytes()).split())
    assert "Poissons 5 4 5" in filled and "× 3 Bateaux 2 3 2" in filled and "Total 10 13 10" in filled
    assert "Gagnant" in filled


def test_a_tie_settled_by_the_fewest_in_the_last_round(tmp_path):
    template = write(tmp_path, ROUNDS)
    session = tmp_path / "s.toml"
    session.write_text('game = "fish-market"\ntemplate = "fish-market.toml"\nplayers = ["Ann", "Bob", "Cy"]\n'
                       '[[rounds]]\nAnn = 5\nBob = 7\nCy = 9\n[[rounds]]\nAnn = -3\nBob = 2\nCy = 0\n'
                       '[[rounds]]\nAnn = 10\nBob = 4\nCy = 1\n[[rounds]]\nAnn = 2\nBob = 1\nCy = 20\n',
                       encoding="utf-8")
    checked = run("score", "check", session)
    assert checked.exit_code == 0, checked.output
    # Ann and Bob tie on 14, the lowest total; Bob's last round (1) is lower than Ann's (2).
    assert "Winner: Bob" in checked.output
    assert "Tie on 14 points between Ann, Bob; the tie-break settles it (Ann 2, Bob 1)." in checked.output


def test_a_number_outside_the_declared_range_is_a_problem_with_its_place(tmp_path):
    write(tmp_path, ROUNDS)
    session = tmp_path / "s.toml"
    session.write_text('game = "fish-market"\ntemplate = "fish-market.toml"\nplayers = ["Ann", "Bob"]\n'
                       '[[rounds]]\nAnn = 51\nBob = -21\n', encoding="utf-8")
    checked = run("score", "check", session)
    assert checked.exit_code == 1
    assert "Round 1, Ann" in checked.output and "51" in checked.output and "50" in checked.output
    assert "Round 1, Bob" in checked.output and "-21" in checked.output


@pytest.mark.parametrize("session, message", [
    ('game = "fish-market"\ntemplate = 3\nplayers = ["A", "B"]\n', "template must name the game’s template file"),
    ('game = "fish-market"\ntemplate = "nowhere.toml"\nplayers = ["A", "B"]\n', "no such template file"),
    ('game = "other"\ntemplate = "fish-market.toml"\nplayers = ["A", "B"]\n',
     "is the template of fish-market, not of other"),
])
def test_a_session_naming_a_wrong_template_is_refused_in_one_line(tmp_path, session, message):
    write(tmp_path, CATEGORIES)
    (tmp_path / "s.toml").write_text(session, encoding="utf-8")
    checked = run("score", "check", tmp_path / "s.toml")
    assert checked.exit_code == 1 and message in checked.output, checked.output
    assert checked.output.count("Error: ") == 1


def test_a_template_without_score_cannot_start_a_session(tmp_path):
    template = write(tmp_path, "")
    made = run("score", "new", template, "--players", "A,B", "--out", tmp_path / "s.toml")
    assert made.exit_code == 1 and "does not say how its game is scored: add a [score] table" in made.output
    assert not (tmp_path / "s.toml").exists()


def test_a_session_of_a_declared_game_goes_into_the_history(tmp_path):
    template = write(tmp_path / "game", CATEGORIES)
    session = tmp_path / "friday.toml"
    assert run("score", "new", template, "--players", "Ann,Bob", "--out", session).exit_code == 0
    assert run("score", "add", session, input="5\n2\n1\n4\n3\n0\n").exit_code == 0
    imported = run("score", "import", session, "--data", tmp_path / "data")
    assert imported.exit_code == 0, imported.output
    assert run("score", "import", session, "--data", tmp_path / "data").exit_code == 0   # kept once
    listed = run("score", "history", "--data", tmp_path / "data", "--json")
    assert listed.exit_code == 0 and "fish-market" in listed.output, listed.output
