"""The game of issue 39's size, written as docs/TEMPLATES.md teaches (examples/market-day): 40
cards from a data file, 5 player aids, 6 two-sided hex stalls, 12 two-sided round coins, a
200 mm board with a 0-50 track cut along a named seam, a 5-player scoresheet declared in [score],
English and French, in under 200 lines of TOML (template and both catalogs), none of 100
characters or more. It renders in both languages and papers, passes preflight, and a session of
it is kept and printed on its sheet without Python.
"""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers import pdf_reader
from pnp.cli import app
from pnp.kit.build import render_to_memory
from pnp.layout.print_order import print_order_problems
from pnp.template.loader import load_game
from pnp.template.model import PrintOptions
from scoring import game_ids, unregister

FOLDER = Path(__file__).resolve().parent.parent / "examples" / "market-day"
TEMPLATE = FOLDER / "market-day.toml"
FILES = [TEMPLATE, FOLDER / "market-day.en.toml", FOLDER / "market-day.fr.toml"]


@pytest.fixture(scope="module")
def game():
    return load_game(TEMPLATE)


def test_the_whole_game_is_under_200_short_lines():
    lines = [line for path in FILES for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(lines) < 200, len(lines)
    assert max(len(line) for line in lines) < 100
    rows = list(csv.DictReader((FOLDER / "cards.csv").open(encoding="utf-8")))
    assert len(rows) == 40 and Counter(r["goods"] for r in rows) == {g: 10 for g in ("fish", "salt", "spice", "silk")}


@pytest.mark.parametrize("lang, paper", [("en", "a4"), ("fr", "letter")])
def test_it_renders_every_piece_of_the_issue_in_print_order(game, lang, paper):
    data, manifest = render_to_memory(game, PrintOptions(lang=lang, paper=paper))
    items = [i for p in manifest["pages"] for i in p["items"]]
    fronts = Counter(i["component"] for i in items if i["face"] == "front")
    backs = Counter(i["component"] for i in items if i["face"] == "back")
    # The board is printed in its two parts, cut along the seam it names.
    assert fronts == {"cards": 40, "aid": 5, "stalls": 6, "coins": 12, "board": 2, "scoresheet": 1}
    assert backs == {"cards": 40, "stalls": 6, "coins": 12}
    shapes = {c.id: c.shape for c in game.components}
    assert (shapes["stalls"], shapes["coins"]) == ("hex", "circle")
    assert print_order_problems(manifest, len(pdf_reader(data).pages)) == []
    text = " ".join(page.extract_text() for page in pdf_reader(data).pages)
    # The track's 51 numbers from one repeated text, the aid's four steps from one key with {i + 1}.
    board = " ".join(page.extract_text() for page in pdf_reader(data).pages
                     if {"49", "50"} <= set(page.extract_text().split()))
    assert {str(n) for n in range(51)} <= set(board.split())
    steps = {"en": ("1. Draw two", "4. A 10 sold"), "fr": ("1. Piochez deux", "4. Un 10 vendu")}[lang]
    assert all(step in text for step in steps)


@pytest.mark.parametrize("lang, paper", [("en", "a4"), ("fr", "letter")])
def test_nothing_of_it_prints_badly(lang, paper):
    result = CliRunner().invoke(app, ["preflight", str(TEMPLATE), "--lang", lang, "--paper", paper, "--strict"])
    assert result.exit_code == 0, result.output
    assert "Nothing prints badly." in result.output


def test_a_session_of_it_is_kept_and_printed_on_its_sheet(tmp_path):
    before = game_ids()
    session = tmp_path / "friday.toml"
    runner = CliRunner()
    try:
        made = runner.invoke(app, ["score", "new", str(TEMPLATE), "--players", "Ann,Bob,Cy,Dee,Eve",
                                   "--out", str(session)])
        assert made.exit_code == 0, made.output
        # Sales on the track, open stalls (3 points each), coins: Bob and Dee tie on 31, Dee has more coins.
        counts = ["20", "2", "1", "25", "2", "0", "18", "3", "2", "22", "2", "3", "10", "1", "0"]
        added = runner.invoke(app, ["score", "add", str(session)], input="\n".join(counts) + "\n")
        assert added.exit_code == 0, added.output
        assert "Winner: Dee" in added.output
        sheet = runner.invoke(app, ["score", "sheet", str(session), "--lang", "fr"])
        assert sheet.exit_code == 0, sheet.output
        filled = " ".join(pdf_reader(session.with_suffix(".pdf").read_bytes()).pages[0].extract_text().split())
        assert "Ventes sur la piste 20 25 18 22 10" in filled and "Total 27 31 29 31 13" in filled
    finally:
        for game_id in set(game_ids()) - set(before):
            unregister(game_id)
