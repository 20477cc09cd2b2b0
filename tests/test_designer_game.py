"""A designer's own game of the size a first game has, built from a data file in under 200 lines
of TOML, template and both catalogs, none of 100 characters or more (examples/harbour-lights):
it renders in both languages, prints in the right order, exports for The Game Crafter and
Tabletop Simulator, and prints with cut files for a cutter.

24 rounded cards in 4 colours numbered 1-6 where a 6 scores 10 (cards.csv and one computed field),
4 aid cards, 16 two-sided round tokens of 20 mm, a 180 mm board with a 0-30 track round a 5 x 5
grid (31 spaces from two repeated elements, every fifth framed by a colour expression), a
scoresheet for 4 players declared in [score]; EN and FR; printed for a cutting machine too.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers import pdf_reader
from pnp.kit.build import render_to_memory
from pnp.cli import app
from pnp.template.model import PrintOptions
from pnp.layout.print_order import print_order_problems
from pnp.template.loader import load_game

FOLDER = Path(__file__).resolve().parent.parent / "examples" / "harbour-lights"
TEMPLATE = FOLDER / "harbour-lights.toml"


@pytest.fixture(scope="module")
def game():
    return load_game(TEMPLATE)


@pytest.fixture(scope="module", params=[("en", "a4"), ("fr", "letter")])
def kit(request, game):
    lang, paper = request.param
    data, manifest = render_to_memory(game, PrintOptions(lang=lang, paper=paper))
    return lang, data, manifest


def test_the_template_is_short_and_reads_its_cards_from_the_data_file(game):
    assert {c.id: c.shape for c in game.components}["lanterns"] == "circle"
    lines = TEMPLATE.read_text(encoding="utf-8").splitlines()
    catalogs = [line for lang in ("en", "fr")
                for line in (FOLDER / f"harbour-lights.{lang}.toml").read_text(encoding="utf-8").splitlines()]
    assert len(lines) + len(catalogs) < 200
    assert max(len(line) for line in lines + catalogs) < 100
    assert 'pieces = "cards.csv"' in lines
    rows = list(csv.DictReader((FOLDER / "cards.csv").open(encoding="utf-8")))
    assert len(rows) == 24 and Counter(r["suit"] for r in rows) == {s: 6 for s in ("coral", "kelp", "tide", "sand")}


def test_the_kit_holds_every_piece_with_the_points_worked_out(kit):
    lang, data, manifest = kit
    fronts = [i for p in manifest["pages"] for i in p["items"] if i["face"] == "front"]
    backs = [i for p in manifest["pages"] for i in p["items"] if i["face"] == "back"]
    assert Counter(i["component"] for i in fronts) == {
        "harbour-cards": 24, "aid": 4, "lanterns": 16, "board": 1, "scoresheet": 1}
    cards = [i for i in fronts if i["component"] == "harbour-cards"]
    assert all(i["points"] == (10 if i["number"] == 6 else i["number"]) for i in cards)
    assert sorted(i["points"] for i in cards if i["number"] == 6) == [10] * 4
    assert all(i["hidden"] for i in cards)
    # Two-sided tokens: every lantern has its back, four of each player colour.
    assert Counter(i["set"] for i in backs if i["component"] == "lanterns") == {
        "red": 4, "blue": 4, "yellow": 4, "green": 4}
    board = next(i for i in fronts if i["component"] == "board")
    assert (board["w"], board["h"]) == (180, 180)
    assert print_order_problems(manifest, len(pdf_reader(data).pages)) == []


def test_the_printed_words_are_the_games_own_in_each_language(kit):
    lang, data, _ = kit
    text = " ".join(page.extract_text() for page in pdf_reader(data).pages)
    words = {"en": ("10 points", "1 point", "Harbour light!", "Your turn", "Round", "Total"),
             "fr": ("10 points", "1 point", "Phare du port !", "Votre tour", "Manche", "Total")}[lang]
    for word in words:
        assert word in text, word
    # The track's 31 numbers, from one repeated text "{i}".
    board = next(page.extract_text() for page in pdf_reader(data).pages if "29" in page.extract_text().split())
    assert {str(n) for n in range(31)} <= set(board.split())


def test_it_exports_for_the_game_crafter_and_tabletop_simulator(tmp_path):
    runner = CliRunner()
    tgc = runner.invoke(app, ["export", "--template", str(TEMPLATE), "--service", "tgc", "--component", "harbour-cards",
                              "--component", "aid", "--out", str(tmp_path)])
    assert tgc.exit_code == 0, tgc.output
    listed = list(csv.DictReader((tmp_path / "harbour-lights_en_png_tgc" / "files.csv").open(encoding="utf-8")))
    assert Counter((r["component"], r["face"]) for r in listed) == {
        ("harbour-cards", "front"): 24, ("harbour-cards", "back"): 24, ("aid", "front"): 4}
    tts = runner.invoke(app, ["export", "--template", str(TEMPLATE), "--format", "tts", "--dpi", "100",
                              "--lang", "fr", "--out", str(tmp_path)])
    assert tts.exit_code == 0, tts.output
    saved = json.loads((tmp_path / "harbour-lights_fr_tts" / "harbour-lights_fr.json").read_text(encoding="utf-8"))
    deck = next(o for o in saved["ObjectStates"] if len(o.get("ContainedObjects", ())) == 24)
    assert deck["Name"] == "DeckCustom"
    # Round tokens are Tabletop Simulator's round tiles (type 2), each with its back.
    lanterns = [o for o in saved["ObjectStates"] if o["Name"] == "Custom_Tile" and o["Nickname"] == "Jetons lanterne"]
    assert len(lanterns) == 16 and {o["CustomImage"]["CustomTile"]["Type"] for o in lanterns} == {2}


def test_it_prints_for_a_cutting_machine_with_a_cut_line_round_each_piece(game):
    """Print-and-cut (tests/test_cutter.py checks cut lines against the printed trims in full):
    here, that each front of Harbour Lights has its closed cut line, round tokens cut round."""
    from pnp.template.icons import parse_icon
    from helpers import path_points

    files: dict[str, bytes] = {}
    data, manifest = render_to_memory(game, PrintOptions(cutter="silhouette"), None, files)
    assert print_order_problems(manifest, len(pdf_reader(data).pages)) == []
    marked = [p for p in manifest["pages"] if p.get("registration_marks")]
    assert sorted(files) == sorted(p["cut_file"] for p in marked)
    cut = Counter()
    for page in marked:
        shapes = parse_icon(files[page["cut_file"]].decode()).shapes
        assert len(shapes) == len(page["items"])
        for shape, item in zip(shapes, page["items"]):
            assert shape.ops[-1] == ("Z",)
            points = path_points(shape.ops)
            xs, ys = [x for x, _ in points], [y for _, y in points]
            assert max(xs) - min(xs) == pytest.approx(item["w"], abs=0.05)
            assert max(ys) - min(ys) == pytest.approx(item["h"], abs=0.05)
            curved = any(op[0] == "C" for op in shape.ops)
            cut[item["component"], curved] += 1
    assert cut == {("harbour-cards", True): 24, ("aid", False): 4, ("lanterns", True): 16, ("board", False): 1}
