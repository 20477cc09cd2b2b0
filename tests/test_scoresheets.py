"""Scoresheets: what each game's rules put on its sheet, the one layout that draws them all,
blank in every kit and filled from a session (`pnp score sheet`)."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers import front_items, pdf_reader, rendered
from hunting_fever_sim import play_game, session as hf_session
from pnp.cli import app
from pnp.layout import scoresheets as layout
from pnp.layout.faces import FaceResolver, Filled
from pnp.layout.plan import copies
from pnp.layout.primitives import Icon, Rect, Text, absolute
from pnp.template.model import Face, PrintOptions
from pnp.render.fonts import MEASURER
from pnp.kit.scoresheet import render_filled_sheet, result_summary
from pnp.core.sheet_model import Box, Cell, Column, Row, Scoresheet, catalog_text, signed
from pnp.template.loader import game_files, load_shipped_game
from scoring import TieBreak, find_rules, load_session, score_session
from scoring import halali, hunting_fever

runner = CliRunner()
NAMES = ["Alice", "Bérénice", "Chloé", "Dörte", "Élodie"]
GAMES = ["hunting-fever", "halali", "card-hunter", "hunting-hunting-beavers"]


def hf_result(seed: int = 3, names=NAMES):
    raw = hf_session(names, list(play_game(names, random.Random(seed))))
    return raw, score_session(load_session(raw))


def sheet_primitives(game_id: str, lang: str = "en", result=None, date=None, ink_saver=False) -> list:
    """The scoresheet piece's front, resolved (no PDF), every primitive where it lands."""
    game = load_shipped_game(game_id)
    component = game.component("scoresheet")
    filled = None
    if result is not None:
        filled = Filled(find_rules(game_id).scoresheet(result, date), "qr", date)
    resolver = FaceResolver(game, PrintOptions(lang=lang, ink_saver=ink_saver), MEASURER, filled)
    face = resolver.face(copies(component)[0], Face.FRONT)
    assert resolver.problems == []
    return absolute(face.primitives)


def texts(primitives) -> list[str]:
    return [line.text for p in primitives if isinstance(p, Text) for line in p.lines]


def pen_boxes(primitives) -> list[Rect]:
    """Boxes for a pen: the white, outlined rectangles of the sheet, but a choice's boxes to tick."""
    return [p for p in primitives if isinstance(p, Rect) and p.fill == "#ffffff" and p.stroke
            and max(p.w, p.h) > layout.TICK + 1e-6]


def tick_boxes(primitives) -> list[Rect]:
    """A choice's small square boxes, one per option to tick."""
    return [p for p in primitives if isinstance(p, Rect) and p.fill == "#ffffff" and p.stroke
            and max(p.w, p.h) <= layout.TICK + 1e-6]


# -- the one layout ----------------------------------------------------------------


def test_the_layout_names_no_game():
    source = Path(layout.__file__).read_text(encoding="utf-8").lower()
    for word in ("hunting", "fever", "halali", "beaver", "card-hunter", "card hunter", "wolf", "tile",
                 "lodge", "currency", "knockout"):
        assert word not in source, word


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_box_for_a_pen_is_at_least_7_mm_high_and_10_mm_wide(game_id, lang):
    """Room for a signed two-digit number written by hand ("−12"), in every game's boxes."""
    boxes = pen_boxes(sheet_primitives(game_id, lang))
    assert len(boxes) >= 20
    assert min(b.h for b in boxes) >= layout.MIN_BOX == 7.0
    assert min(b.w for b in boxes) >= layout.MIN_NUMBER_W == 10.0


@pytest.mark.parametrize("game_id, choices, options", [
    ("hunting-fever", 20, 1),   # a lodge on its 4 side, per player and day
    ("halali", 4, 2),           # each player's role, each round
    ("card-hunter", 24, 5)])    # each fight's difficulty (3) and result (2)
def test_every_choice_is_a_box_to_tick_for_each_option(game_id, choices, options):
    sheet = find_rules(game_id).scoresheet(None)
    boxes = [box for row in sheet.rows for cell in row.cells for box in cell.boxes if box.kind == "choice"]
    ticks = tick_boxes(sheet_primitives(game_id))
    assert len(ticks) == sum(len(box.options) for box in boxes) and len(boxes) == choices
    assert sum(len(box.options) for box in boxes) == choices * options / (2 if game_id == "card-hunter" else 1)
    assert {(round(b.w, 2), round(b.h, 2)) for b in ticks} == {(layout.TICK, layout.TICK)}


def test_a_filled_choice_is_ticked_in_pen_blue_not_circled():
    _, result = hf_result()
    primitives = sheet_primitives("hunting-fever", "en", result)
    ticks = [p for p in primitives if type(p).__name__ == "Path" and p.stroke == layout.PEN]
    flipped = sum(r.of(name).line("lodge", "lodge_flipped").count for r in result.rounds for name in NAMES)
    assert len(ticks) == flipped > 0
    assert not [p for p in primitives if type(p).__name__ == "Ellipse"]


@pytest.mark.parametrize("columns, boxes, words", [
    (6, 3, ("a box for a number is", "below 10 mm")),   # 9.4 mm wide, 7 mm high or more
    (8, 4, ("below 7 mm", "scoresheet")),               # too narrow for any pen
])
def test_a_sheet_too_crowded_for_a_pen_is_refused_before_drawing(columns, boxes, words):
    crowded = Scoresheet("t", "h", tuple(Column() for _ in range(columns)), (
        Row("1", tuple(Cell(tuple(Box("pen") for _ in range(boxes))) for _ in range(columns))),))
    game = load_shipped_game("halali")
    resolver = FaceResolver(game, PrintOptions(), MEASURER, Filled(crowded))
    resolver.face(copies(game.component("scoresheet"))[0], Face.FRONT)
    [problem] = resolver.problems
    assert all(word in problem for word in words)


def test_a_sheet_whose_rows_have_the_wrong_number_of_cells_is_refused():
    broken = Scoresheet("t", "h", (Column(), Column()), (Row("1", (Cell(),)),))
    game = load_shipped_game("halali")
    resolver = FaceResolver(game, PrintOptions(), MEASURER, Filled(broken))
    resolver.face(copies(game.component("scoresheet"))[0], Face.FRONT)
    assert "row 1 has 1 cells for 2 columns" in resolver.problems[0]


def test_a_game_without_rules_has_no_scoresheet_content():
    from pnp.core.errors import TemplateError
    from scoring.rules import blank_sheet

    with pytest.raises(TemplateError, match="no game rules are registered for 'chess'"):
        blank_sheet("chess")


def test_rows_share_the_height_the_page_leaves():
    # Beavers has ten rounds on a page: its boxes grow well past the 7 mm minimum,
    # while Halali's two rounds of seven tiles keep theirs near it.
    beavers_rows = {round(b.h, 2) for b in pen_boxes(sheet_primitives("hunting-hunting-beavers"))}
    halali_rows = {round(b.h, 2) for b in pen_boxes(sheet_primitives("halali"))}
    assert max(beavers_rows) > 12 and min(halali_rows) < 9


# -- the blank sheets in the kits ----------------------------------------------------


def test_every_kit_has_a_blank_scoresheet_that_fits_both_papers_and_needs_no_cutting():
    for game_id in game_files():
        game = load_shipped_game(game_id)
        sheet = game.component("scoresheet")
        w, h = sheet.size
        assert w <= 192.5 and h <= 257.65, game_id  # where trims may go on A4 and on Letter
        assert [p.id for p in sheet.pieces] == ["scoresheet"]
        assert sheet.cut is False


# Centred on the paper: on Letter as near as the footer's band allows (13 mm from the bottom).
@pytest.mark.parametrize("paper, x, y", [("a4", 10.0, 21.0), ("letter", 12.95, 13.0)])
def test_the_blank_sheet_sits_centred_on_its_page_without_crop_marks(paper, x, y):
    from pnp.kit.build import render_to_memory
    from pnp.layout.plan import plan_kit
    from pnp.core.units import paper_size

    # Alone on its sheet, a scoresheet that may shrink keeps its size.
    _, manifest = render_to_memory(load_shipped_game("hunting-fever"), PrintOptions(lang="fr", paper=paper),
                                   ["scoresheet"])
    [item] = front_items(manifest, "scoresheet")
    assert (item["x"], item["y"], item["w"], item["h"]) == (x, y, 190.0, 255.0)
    page = next(p for p in manifest["pages"] if "scoresheet" in p.get("components", ()))
    assert page["kind"] == "sheet"
    game = load_shipped_game("hunting-fever")
    marks: dict[str, int] = {}
    for chosen in (["scoresheet"], ["player-cards"]):
        plan = plan_kit(game, PrintOptions(lang="fr", paper=paper), paper_size(paper), chosen,
                        measure=MEASURER)
        for page in plan.pages:
            for component in page.components:
                marks[component] = marks.get(component, 0) + len(page.marks)
    assert marks["scoresheet"] == 0 and marks["player-cards"] > 0


# Hunting Fever's sheet needs 173 mm with boxes 10 mm wide for five players (two lines a day):
# more than the room below its fifth player aid, so it keeps a sheet of its own.
@pytest.mark.parametrize("game_id, above", [("card-hunter", "trackers")])
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_in_the_kit_the_blank_sheet_shrinks_below_the_last_one_sided_pieces(game_id, above, paper, lang):
    _, manifest = rendered(game_id, lang, paper)
    [page] = [p for p in manifest["pages"] if "scoresheet" in p.get("components", ())]
    assert page["kind"] == "sheet" and page["components"] == [above, "scoresheet"]
    [sheet] = [i for i in page["items"] if i["component"] == "scoresheet"]
    others = [i for i in page["items"] if i["component"] == above]
    assert sheet["w"] == 190.0 and 125.0 < sheet["h"] < 255.0
    # Below them, clear of their trims (and so of their bleed: none reaches past a shared cut line).
    assert sheet["y"] + sheet["h"] <= min(i["y"] for i in others) + 1e-6
    # The boxes for a pen keep their 7 mm: the layout refuses a smaller one, and these are the
    # sheet's boxes as drawn at its shrunk height.
    game = load_shipped_game(game_id)
    component = game.component("scoresheet")
    copy = copies(component)[0]
    smaller = copy._replace(component=component._replace(size=(sheet["w"], sheet["h"])))
    resolver = FaceResolver(game, PrintOptions(lang=lang, paper=paper), MEASURER)
    face = resolver.face(smaller, Face.FRONT)
    assert resolver.problems == []
    boxes = [p for p in pen_boxes(p for layer in face.layers for p in layer)]
    assert len(boxes) > 12 and min(min(b.w, b.h) for b in boxes) >= layout.MIN_BOX - 1e-6


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_hunting_fevers_sheet_keeps_a_sheet_of_its_own_at_full_size(paper):
    _, manifest = rendered("hunting-fever", "en", paper)
    [page] = [p for p in manifest["pages"] if "scoresheet" in p.get("components", ())]
    assert page["kind"] == "sheet" and page["components"] == ["scoresheet"]
    [sheet] = page["items"]
    assert (sheet["w"], sheet["h"]) == (190.0, 255.0)


def test_asking_whether_a_shorter_sheet_holds_reports_nothing():
    game = load_shipped_game("hunting-fever")
    component = game.component("scoresheet")
    copy = copies(component)[0]
    resolver = FaceResolver(game, PrintOptions(), MEASURER)
    short, tall = (copy._replace(component=component._replace(size=(190.0, h))) for h in (150.0, 180.0))
    assert not resolver.holds(short, Face.FRONT) and resolver.problems == []
    assert resolver.holds(tall, Face.FRONT)
    # Asked again for real, the short sheet's problem is reported: holds() kept nothing back.
    resolver.face(short, Face.FRONT)
    assert len(resolver.problems) == 1 and "more than its 150 mm piece has" in resolver.problems[0]


@pytest.mark.parametrize("weight, side_by_side", [(1.0, True), (0.2, False)])
def test_three_choices_go_side_by_side_when_each_word_fits_its_share_else_stacked(weight, side_by_side):
    from pnp.layout.kinds.base import CopyFace

    game = load_shipped_game("card-hunter")
    copy = copies(game.component("scoresheet"))[0]
    resolver = FaceResolver(game, PrintOptions(lang="fr"), MEASURER)
    ctx = CopyFace(resolver, copy, resolver.values(copy))
    words = tuple(catalog_text(f"sheet.ch.{level}") for level in ("easy", "normal", "hard"))
    sheet = Scoresheet("t", "h", (Column(weight=weight), Column()),
                       (Row("1", (Cell((Box("choice", options=words),)), Cell((Box("pen"),)))),))
    drawn = layout.lay_out_sheet(ctx, sheet, x=0, y=0, w=190.0, h=100.0, qr_data=None)
    lines = [line for p in drawn if isinstance(p, Text) for line in p.lines
             if line.text in ("facile", "normal", "difficile")]
    assert len(lines) == 3
    assert (len({round(line.y, 3) for line in lines}) == 1) is side_by_side


def test_hunting_fever_sheet_has_one_name_row_columns_per_player_and_days_as_rows():
    sheet = hunting_fever.RULES.scoresheet(None)
    assert len(sheet.columns) == hunting_fever.MAX_PLAYERS
    names = [row for row in sheet.rows if row.label == catalog_text("sheet.player")]
    assert len(names) == 1 and all(cell.boxes[0].kind == "text" for cell in names[0].cells)
    days = [row for row in sheet.rows if isinstance(row.label, tuple) and row.label.key == "sheet.hf.day"]
    assert [dict(row.label.values)["n"] for row in days] == [1, 2, 3, 4]
    for row in days:
        for cell in row.cells:
            # Light enough to fill in a few seconds a player: two numbers, a tick, the day's sum,
            # on two lines read as one sum: prey pile + hand, + lodge = day.
            assert [box.kind for box in cell.boxes] == ["pen", "pen", "choice", "total"]
            assert [box.sign for box in cell.boxes] == ["", "+", "+", "="]
            assert [box.breaks for box in cell.boxes] == [False, False, True, False]
            assert cell.boxes[2].options == (signed(hunting_fever.FLIPPED_LODGE_POINTS),)
    assert [row.label.key for row in sheet.foot] == ["sheet.hf.after_four", "sheet.hf.best_day", "sheet.winner"]


def test_hunting_fever_key_prints_the_rules_values():
    key = hunting_fever.RULES.scoresheet(None).key
    assert [c.values for c in key.columns] == [
        (signed(hunting_fever.PREY_POINTS[card]), signed(hunting_fever.HAND_POINTS[card]))
        for card in hunting_fever.CARDS]
    data, manifest = rendered("hunting-fever", "en", "a4")
    page = next(i for i, p in enumerate(manifest["pages"]) if "scoresheet" in p.get("components", ()))
    text = " ".join(pdf_reader(data).pages[page].extract_text().split())
    pairs = " ".join(f"{signed(hunting_fever.PREY_POINTS[c])} {signed(hunting_fever.HAND_POINTS[c])}"
                     for c in hunting_fever.CARDS)
    assert pairs == "\u22124 \u22124 +4 \u22124 +2 \u22122 +1 \u22121 +1 \u22121" and pairs in text
    assert "Lodge on its 4 side: +4" in text and "Hunter under the lodge: 0" in text


def test_blank_french_sheet_has_its_labels_and_no_names():
    data, manifest = rendered("hunting-fever", "fr", "letter")
    page = next(i for i, p in enumerate(manifest["pages"]) if "scoresheet" in p.get("components", ()))
    text = " ".join(pdf_reader(data).pages[page].extract_text().split())
    for word in ("Feuille de score", "Jour 1", "Jour 4", "Pile Proies", "En main", "Proies", "Joueur",
                 "Meilleur jour (départage)", "Gagnant", "Ce que valent les cartes"):
        assert word in text, word
    assert "Alice" not in text and "Day" not in text


def test_the_sheets_icons_are_the_kits():
    from pnp.template.loader import templates_dir

    folder = templates_dir() / "icons"
    for icon in (*hunting_fever.CARD_ICONS.values(), *halali.TILE_ICONS.values(), "lodge"):
        assert (folder / f"{icon}.svg").exists(), icon


# -- filled sheets ---------------------------------------------------------------------


def test_filled_hunting_fever_sheet_prints_every_entered_number_in_its_place():
    raw, result = hf_result()
    sheet = hunting_fever.RULES.scoresheet(result, "2026-11-22")
    days = [row for row in sheet.rows if isinstance(row.label, tuple) and row.label.key == "sheet.hf.day"]
    for day, row in zip(raw["days"], days):
        for name, cell in zip(NAMES, row.cells):
            entry = day[name]
            prey, hand, lodge, total = cell.boxes
            played = result.rounds[days.index(row)].of(name)
            assert total.value == signed(played.score)
            assert (lodge.chosen == 0) == entry.get("lodge_flipped", False)
            # The cards behind the numbers: "+" the prey pile's, "−" the hand's, then the lodge.
            shown = {line.label: dict(line.items) for line in cell.detail if line.label}
            icons = hunting_fever.CARD_ICONS
            for place, sign in (("prey", "+"), ("hand", "\u2212")):
                counts = {icons[card]: str(n) for card, n in entry.get(place, {}).items() if n}
                assert shown.get(sign, {}) == counts
            under = [line for line in cell.detail if line.label is None]
            assert bool(under) == entry.get("hunter_under_lodge", False)
            prey_points = sum(hunting_fever.PREY_POINTS[c] * n for c, n in entry.get("prey", {}).items())
            hand_points = sum(hunting_fever.HAND_POINTS[c] * n for c, n in entry.get("hand", {}).items())
            # The hand as the cards print it ("In hand −4"): added, never subtracted.
            assert (prey.value, hand.value) == (signed(prey_points), signed(hand_points))


def test_filled_sheet_holds_the_entered_numbers_and_totals_in_french():
    raw, result = hf_result()
    data, manifest = render_filled_sheet(result, PrintOptions(lang="fr"), date="2026-11-22")
    assert [p["kind"] for p in manifest["pages"]] == ["sheet"]
    text = pdf_reader(data).pages[0].extract_text()
    assert "Jour 1" in text and "Day 1" not in text and "2026-11-22" in text
    for name in NAMES:
        assert name in text
    for total in result.totals.values():
        assert signed(total) in text
    assert "Gagnant" in text and "Remplie d’après une partie enregistrée" in text


def test_filled_sheet_in_english_names_the_tie_break_and_the_winner():
    _, result = hf_result()
    tied = replace(result, tie_break=hunting_fever.FeverTieBreak.BEST_DAY, winners=(NAMES[0],))
    data, _ = render_filled_sheet(tied, PrintOptions(lang="en", paper="letter"))
    text = pdf_reader(data).pages[0].extract_text()
    assert "the best single day decided it" in text
    primitives = sheet_primitives("hunting-fever", "en", tied)
    winners = [p for p in primitives if isinstance(p, Text) and p.lines[0].text == "Winner" and p.style == "black"]
    assert len(winners) == 1  # under Alice only


def test_filled_shared_win_names_the_winners_in_french():
    _, result = hf_result()
    shared = replace(result, tie_break=TieBreak.SHARED, winners=(NAMES[0], NAMES[2]))
    found = texts(sheet_primitives("hunting-fever", "fr", shared))
    assert "Égalité de points, que le départage n’a pas tranchée." in found
    assert "Alice, Chloé gagnent ensemble." in found


def test_filled_sheet_in_ink_saver_is_black_and_white():
    _, result = hf_result()
    colors = {p.color for p in sheet_primitives("hunting-fever", "en", result, ink_saver=True) if isinstance(p, Text)}
    assert colors == {"#000000"}
    assert all(p.line_art for p in sheet_primitives("hunting-fever", "en", result, ink_saver=True)
               if isinstance(p, Icon))


def test_qr_summary_is_short_and_carries_the_result():
    raw, result = hf_result()
    catalog = load_shipped_game("hunting-fever").catalogs["en"]
    text = result_summary(result, catalog, "2026-11-22")
    assert text.startswith("Hunting Fever | 2026-11-22 | ")
    for name in NAMES:
        assert f"{name} {result.totals[name]}" in text
    assert f"winner: {', '.join(result.winners)}" in text
    assert len(text) < 200


def test_score_sheet_command_writes_the_pdf(tmp_path):
    raw, _ = hf_result(names=NAMES[:3])
    raw["date"] = "2026-11-21"
    session = tmp_path / "game.json"
    session.write_text(json.dumps(raw), encoding="utf-8")
    result = runner.invoke(app, ["score", "sheet", str(session), "--lang", "fr", "--paper", "letter"])
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "game.pdf"
    assert pdf.exists() and (tmp_path / "game.manifest.json").exists()
    text = pdf_reader(pdf.read_bytes()).pages[0].extract_text()
    assert "2026-11-21" in text and "Chloé" in text
    # Three players: three columns, so three name boxes.
    manifest = json.loads((tmp_path / "game.manifest.json").read_text(encoding="utf-8"))
    assert manifest["filled"] is True


def test_an_invalid_session_prints_the_problems_and_writes_no_file(tmp_path):
    raw, _ = hf_result(names=NAMES[:3])
    raw["days"][0]["Alice"]["hand"] = {"wolf": 3}  # more wolves than a set has
    session = tmp_path / "bad.json"
    session.write_text(json.dumps(raw), encoding="utf-8")
    result = runner.invoke(app, ["score", "sheet", str(session), "--out", str(tmp_path / "out.pdf")])
    assert result.exit_code == 1
    assert "Error:" in result.output and "wolf" in result.output.lower()
    assert not (tmp_path / "out.pdf").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json"]


def test_score_sheet_refuses_an_unknown_paper(tmp_path):
    raw, _ = hf_result(names=NAMES[:3])
    session = tmp_path / "game.json"
    session.write_text(json.dumps(raw), encoding="utf-8")
    result = runner.invoke(app, ["score", "sheet", str(session), "--paper", "a5"])
    assert result.exit_code == 1 and "Error: unknown paper 'a5'" in result.output


def _text(result, lang="en", paper="a4") -> str:
    data, _ = render_filled_sheet(result, PrintOptions(lang=lang, paper=paper))
    return " ".join(pdf_reader(data).pages[0].extract_text().split())


HALALI = {"game": "halali", "players": ["Ann", "Ben"], "rounds": [
    {"blue": "Ann", "tiles": {"Ann": {"hunter": 2, "duck": 1}, "Ben": {"tree": 4, "fox": 1}}},
    {"blue": "Ben", "tiles": {"Ann": {"tree": 3, "pheasant": 1}, "Ben": {"lumberjack": 1, "duck": 1}}},
]}


def test_filled_halali_sheet_shows_roles_counts_points_and_totals():
    result = score_session(load_session(HALALI))
    # Ann: 10 + 2 = 12, then 6 + 3 = 9; Ben: 8 + 5 = 13, then 5 + 2 = 7.
    assert result.totals == {"Ann": 21, "Ben": 20}
    sheet = halali.RULES.scoresheet(result)
    roles = [row for row in sheet.rows if row.label == catalog_text("sheet.halali.role")]
    # Round 1 Ann is blue (circled first), Ben brown; round 2 the other way round.
    assert [[cell.boxes[0].chosen for cell in row.cells] for row in roles] == [[0, 1], [1, 0]]
    hunters = [row for row in sheet.rows if row.label == catalog_text("sheet.halali.tile.hunter")]
    assert [box.value for box in hunters[0].cells[0].boxes] == ["2", "10"]
    assert hunters[0].points == f"\u00d7 {halali.POINTS['hunter']}"
    text = _text(result, "fr")
    for word in ("Manche 1", "Manche 2", "Ann", "Ben", "Ours", "Bûcheron", "Gagnant", "Bleu", "Brun"):
        assert word in text, word
    assert "Marron" not in text and "21" in text and "20" in text


def test_filled_halali_sheet_names_the_tiles_tie_break():
    # 6 points each; Ben holds 3 tiles over both rounds, Ann 2.
    tie = {"game": "halali", "players": ["Ann", "Ben"], "rounds": [
        {"blue": "Ann", "tiles": {"Ann": {"pheasant": 1}, "Ben": {"tree": 1}}},
        {"blue": "Ben", "tiles": {"Ann": {"pheasant": 1}, "Ben": {"duck": 2}}},
    ]}
    result = score_session(load_session(tie))
    assert result.totals == {"Ann": 6, "Ben": 6} and result.winners == ("Ben",)
    assert "more tiles over both rounds decided it" in _text(result)
    assert "le nombre de tuiles sur les deux manches a départagé les ex æquo" in _text(result, "fr")


def test_filled_beavers_sheet_puts_each_player_under_their_colour():
    raw = {"game": "hunting-hunting-beavers", "players": ["Ann", "Ben", "Cid", "Dee"],
           "colors": {"Ann": "white", "Ben": "red", "Cid": "green", "Dee": "blue"},
           "rounds": [{"Ann": 3, "Ben": 2}, {"Ann": -1, "Cid": 4, "Dee": 5}]}
    result = score_session(load_session(raw))
    text = _text(result, "fr", "letter")
    assert "Rouge" in text and "Blanc" in text
    assert text.index("Ben") < text.index("Cid") < text.index("Dee") < text.index("Ann")
    assert "Partie en cours : 2 sur 10." in text
    sheet = find_rules("hunting-hunting-beavers").scoresheet(result)
    second = sheet.rows[3]  # names, captions, round 1, round 2
    assert second.label == "2"
    # White (Ann) lost 1 and holds 2; red (Ben) holds 2 still.
    assert [b.value for b in second.cells[3].boxes] == [None, "1", "2"]
    assert [b.value for b in second.cells[0].boxes] == [None, None, "2"]


def test_filled_card_hunter_log_shows_the_fight():
    raw = {"game": "card-hunter", "players": ["Ann", "Ben"], "difficulty": "hard",
           "result": "won", "knockouts_left": 2, "date": "2026-11-20"}
    result = score_session(load_session(raw))
    data, _ = render_filled_sheet(result, PrintOptions(lang="en"), date="2026-11-20")
    text = " ".join(pdf_reader(data).pages[0].extract_text().split())
    assert "Card Hunter — Scoresheet" in text and "Ann, Ben" in text and "The team won" in text
    assert "Campaign log" not in text
    assert "2026-11-20" in text
    first = find_rules("card-hunter").scoresheet(result, "2026-11-20").rows[0]
    date, team, difficulty, outcome, tokens, notes = (cell.boxes[0] for cell in first.cells)
    assert (date.value, team.value, difficulty.chosen, outcome.chosen, tokens.value) == (
        "2026-11-20", "Ann, Ben", 2, 0, "2")


def test_every_filled_sheet_fits_its_page_in_both_languages():
    raw, hf = hf_result()
    results = [hf, score_session(load_session(HALALI))]
    for result in results:
        for lang in ("en", "fr"):
            primitives = sheet_primitives(result.game, lang, result, "2026-11-22")
            rects = [p for p in primitives if isinstance(p, Rect)]
            assert max(r.y + r.h for r in rects) <= 255.0 + 1e-6
            assert re.search(r"2026-11-22", " ".join(texts(primitives)))
