"""Print right first time: page order, sheets of paper, the print plan on the cover, fold pages,
the alignment sheet, marks and footers, for every kit, paper and option."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from functools import lru_cache
from typing import Callable

import pytest
from typer.testing import CliRunner

from helpers import pdf_reader, rendered
from pnp.kit.build import imprint, render_to_memory
from pnp.cli import app
from pnp.layout.boards import TEXT_CLEARANCE, text_boxes
from pnp.layout.cover import sheet_ranges, stock_name, weight
from pnp.layout.faces import FaceResolver
from pnp.layout.imposition import MARK_MIN_LENGTH, MARK_TIP, PRINTABLE, TEXT_EDGE, Box, page_frames
from pnp.layout.plan import copies, plan_kit
from pnp.layout.primitives import Text
from pnp.layout.sheets import Item, pack
from pnp.layout.text import MIN_SIZE
from pnp.template.model import Component, Copy, Face, PageKind, Piece, PrintOptions
from pnp.layout.print_order import print_order_problems, sheets_used
from pnp.render.fonts import MEASURER
from pnp.kit.scoresheet import render_filled_sheet
from pnp.template.loader import game_files, load_shipped_game
from pnp.core.units import paper_size

runner = CliRunner()
GAMES = tuple(game_files())
PAPERS = ("a4", "letter")
OPTIONS = {"duplex": {}, "no-duplex": {"duplex": False}, "fold": {"fold": True},
           "ink-saver": {"ink_saver": True}}
#: Sheets of paper each kit took before this work (its cover and the cover's
#: continuation counted as one sheet): /work/baseline, 222 in all.
BEFORE = {("card-hunter", "a4"): 12, ("card-hunter", "letter"): 13, ("halali", "a4"): 5,
          ("halali", "letter"): 5, ("hunting-fever", "a4"): 14, ("hunting-fever", "letter"): 15,
          ("hunting-hunting-beavers", "a4"): 23, ("hunting-hunting-beavers", "letter"): 24}


def _check(data: bytes, manifest: dict) -> None:
    problems = print_order_problems(manifest, len(pdf_reader(data).pages))
    assert problems == []


# ---------------------------------------------------------------- rule 1: page order

@pytest.mark.parametrize("option", OPTIONS)
@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game_id", GAMES)
def test_every_kit_prints_in_order(game_id, paper, option):
    for lang in ("en", "fr"):
        data, manifest = rendered(game_id, lang, paper, **OPTIONS[option])
        _check(data, manifest)
        kinds = {p["kind"] for p in manifest["pages"]}
        if option in ("duplex", "ink-saver"):
            assert manifest["duplex"] is True and "fold" not in kinds
        else:
            # One-sided files: no back page, no blank page to waste a sheet.
            assert manifest["duplex"] is False and not kinds & {"back", "blank"}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_component_alone_prints_in_order(game_id):
    game = load_shipped_game(game_id)
    for component in game.components:
        for options in (PrintOptions(paper="letter"), PrintOptions(fold=True)):
            data, manifest = render_to_memory(game, options, [component.id])
            _check(data, manifest)
    # Two components together, a two-sided one first.
    pair = [c.id for c in game.components if c.two_sided][:1] + [game.components[-1].id]
    data, manifest = render_to_memory(game, PrintOptions(lang="fr"), pair)
    _check(data, manifest)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_filled_scoresheet_prints_in_order(game_id):
    from scoring import check_session, find_rules, score_session

    low, _ = find_rules(game_id).player_range
    raw = {"game": game_id, "players": ["Ann", "Ben", "Cléo", "Dan", "Eve"][:low]}
    result = score_session(check_session(raw).session)
    data, manifest = render_filled_sheet(result, PrintOptions(lang="fr", paper="letter"))
    _check(data, manifest)
    assert [p["kind"] for p in manifest["pages"]] == ["sheet"] and manifest["duplex"] is False


def test_blank_pages_print_nothing(hunting_fever_en_a4):
    data, manifest = hunting_fever_en_a4
    reader = pdf_reader(data)
    blanks = [p for p in manifest["pages"] if p["kind"] == "blank"]
    assert blanks
    for page in blanks:
        assert page["items"] == []
        assert not reader.pages[page["number"] - 1].get_contents()


def _good() -> dict:
    return copy.deepcopy(rendered("hunting-fever", "en", "a4")[1])


def _front_index(manifest: dict) -> int:
    """The first front of pieces (the alignment sheet's front carries none)."""
    return next(i for i, p in enumerate(manifest["pages"]) if p["kind"] == "front" and not p.get("alignment"))


def test_the_check_finds_every_way_a_file_prints_wrong():
    assert print_order_problems(_good()) == []
    # The order before this work: the cover alone on page 1, the next page on its back.
    old = copy.deepcopy(rendered("halali", "en", "a4")[1])
    old["pages"] = [p for p in old["pages"] if p["kind"] != "blank" and
                    (p["kind"] != "cover" or not p["items"])]
    for number, page in enumerate(old["pages"], start=1):
        page["number"] = number
    assert any("cover ends on page" in p for p in print_order_problems(old))
    # A back that does not follow its front.
    swapped = _good()
    i = _front_index(swapped)
    pages = swapped["pages"]
    pages[i], pages[i + 1] = pages[i + 1], pages[i]
    pages[i]["number"], pages[i + 1]["number"] = i + 1, i + 2
    assert print_order_problems(swapped)
    # A back item not behind its front after a long-edge flip.
    moved = _good()
    moved["pages"][_front_index(moved) + 1]["items"][0]["x"] += 1.0
    assert any("not behind its front" in p for p in print_order_problems(moved))
    # Something printed behind a one-sided page.
    printed = _good()
    blank = next(p for p in printed["pages"] if p["kind"] == "blank" and p["number"] > 2)
    blank["kind"] = "sheet"
    assert any("one-sided" in p for p in print_order_problems(printed))
    # A page the PDF does not have.
    assert any("the PDF has" in p for p in print_order_problems(_good(), 3))


def test_the_check_reads_fold_pages():
    manifest = copy.deepcopy(rendered("hunting-fever", "en", "a4", fold=True)[1])
    assert print_order_problems(manifest) == []
    page = next(p for p in manifest["pages"] if p["kind"] == "fold")
    back = next(i for i in page["items"] if i["face"] == "back")
    back["y"] += 2.0
    assert any("mirror image" in p for p in print_order_problems(manifest))
    del page["fold_line"]
    assert any("without its fold_line" in p for p in print_order_problems(manifest))


# ---------------------------------------------------------------- sheets of paper

#: What pnp build uses now. Each rules summary goes on the back of its kit's cover, where
#: Hunting Fever and Card Hunter had put a player aid and the trackers below the cover text
#: (nothing may print behind pieces to cut): 198 sheets. Their scoresheets then shrank below
#: the fifth aid and the trackers: 190. Hunting Fever's scoresheet then took a sheet of its own
#: (its boxes 10 mm wide): +1 a Hunting Fever kit, 194. Fair kits (issue 23) keep pieces whose
#: backs differ 6 mm apart, each deck on one paper: Hunting Fever and Card Hunter take one sheet
#: more on each paper and language. Crop marks beyond the bleed and hidden pieces 6 mm from the
#: edges (issue 33) leave eight poker cards a Letter sheet, not nine: Hunting Fever, Card Hunter
#: and Beavers take a sheet more on Letter; Beavers a sheet more on A4 (its board's parts no longer
#: leave room for an aid beside them).
SHEETS = 208


def test_the_build_uses_at_most_SHEETS_sheets_and_no_kit_more_than_before():
    """Counted without each kit's optional printer alignment sheet: one more sheet in every
    double-sided kit, printed only when the backs drift."""
    total = 0
    for game_id in GAMES:
        for paper in PAPERS:
            for lang in ("en", "fr"):
                _, manifest = rendered(game_id, lang, paper)
                used = sheets_used(manifest)
                assert used == manifest["sheets"]
                alignment = [p for p in manifest["pages"] if p.get("alignment")]
                assert len(alignment) == (2 if manifest["duplex"] else 0)
                used -= len(alignment) // 2
                assert used <= BEFORE[(game_id, paper)], (game_id, paper, lang)
                total += used
    assert total <= SHEETS


def test_hunting_fever_has_a_players_set_to_a_sheet_and_the_rest_apart():
    """Nine cards a sheet on A4, eight on Letter (the most that leave room for a mark at
    every cut): each full sheet is one player's set, whose backs are alike, sharing cuts."""
    for paper, most in (("a4", 9), ("letter", 8)):
        _, manifest = rendered("hunting-fever", "en", paper)
        sheets: dict[int, list[dict]] = {}
        for page in manifest["pages"]:
            for item in page["items"]:
                if item["component"] == "player-cards" and item["face"] == "front":
                    sheets.setdefault(page["sheet"], []).append(item)
        assert sum(len(cards) for cards in sheets.values()) == 50
        full = [cards for cards in sheets.values() if len(cards) == most]
        assert len(full) == 5 and sorted({c["set"] for c in cards}.pop() for cards in full) == sorted(
            ["yellow", "green", "red", "blue", "black"])
        assert all(len({c["set"] for c in cards}) == 1 for cards in full)
        _rest_apart(manifest, sheets, most)


def _rest_apart(manifest: dict, sheets: dict[int, list[dict]], most: int) -> None:
    """The cards of a set that are not on its own sheet lie 6 mm from any other piece."""
    for number, cards in sheets.items():
        if len(cards) == most:
            continue
        others = [i for p in manifest["pages"] if p["sheet"] == number and p["kind"] == "front"
                  for i in p["items"]]
        for card in cards:
            for other in others:
                if other is not card:
                    gap = max(other["x"] - card["x"] - card["w"], card["x"] - other["x"] - other["w"],
                              other["y"] - card["y"] - card["h"], card["y"] - other["y"] - other["h"])
                    assert gap >= 6.0 - 1e-3, (card, other)


def _cards(count: int, size=(63.5, 88.9), name="cards") -> list[Item]:
    component = Component(name, size, (Piece("card", count, {}),), (), back=None)
    return [Item(Copy(component, component.pieces[0], n)) for n in range(1, count + 1)]


def _page(height: float, least: float) -> tuple[Item, "Callable"]:
    """A one-sided page that may shrink, and what says whether it holds at a height."""
    component = Component("log", (190.0, height), (Piece("log", 1, {}),), (), back=None, cut=False,
                          shrink=True)
    item = Item(Copy(component, component.pieces[0], 1))

    def shrink(it: Item, h: float):
        if h < least:
            return None
        smaller = it.copy.component._replace(size=(190.0, h))
        return Item(it.copy._replace(component=smaller))
    return item, shrink


@pytest.mark.parametrize("least, height, strip", [
    (120.0, 128.25, 13.0),  # a bleed and a 3 mm mark each side of the cut, 4.5 mm above and below
    (130.0, 136.25, 5.0),   # the least strip that holds a short mark between two short bleeds
    (145.0, 150.25, 0.0),   # flush below the cut line, as neighbours in a grid
])
def test_a_page_that_may_shrink_goes_below_other_pieces_as_tall_as_the_strips_allow(least, height, strip):
    aids = _cards(1, (180.0, 125.0), "aids")
    page, shrink = _page(255.0, least)
    frame = page_frames(210.0, 297.0)[0]    # 275.25 mm for trims: 150.25 below the aid
    (sheet,) = pack([aids, [page]], [frame], 3.0, shrink)
    aid, log = sheet.placed
    assert log.trim.h == pytest.approx(height) and log.trim.w == 190.0
    assert aid.trim.y - log.trim.top == pytest.approx(strip)
    assert aid.printed.y >= log.printed.top - 1e-6   # nothing in the other's bleed


def test_a_page_that_may_shrink_keeps_its_size_alone_or_where_it_would_not_hold():
    frame = page_frames(210.0, 297.0)[0]
    page, shrink = _page(255.0, 152.0)
    sheets = pack([_cards(1, (180.0, 125.0), "aids"), [page]], [frame], 3.0, shrink)
    assert [len(s.placed) for s in sheets] == [1, 1]
    assert sheets[1].placed[0].trim.h == 255.0
    # Without a way to tell how short it may be, it never shrinks.
    page, _ = _page(255.0, 0.0)
    assert len(pack([_cards(1, (180.0, 125.0), "aids"), [page]], [frame], 3.0)) == 2


def test_eight_poker_cards_a_letter_sheet_centred_with_a_mark_at_every_cut():
    """Nine poker cards are 266.7 mm tall: on Letter (279.4 mm) that leaves 6.35 mm above
    and below, room for a hidden back's bleed past the 5 mm a home printer leaves blank,
    but none for a crop mark beyond it. Eight, turned, leave 12.7 mm: room for both."""
    (sheet,) = pack([_cards(8)], page_frames(215.9, 279.4), 3)
    assert sheet.frame.footer == "side" and len(sheet.placed) == 8
    assert all(p.rotation == 90 for p in sheet.placed)
    trims = [p.trim for p in sheet.placed]
    left, right = min(t.x for t in trims), 215.9 - max(t.right for t in trims)
    bottom, top = min(t.y for t in trims), 279.4 - max(t.top for t in trims)
    assert left == pytest.approx(right) and bottom == pytest.approx(top) == pytest.approx(12.7)
    # Every card keeps its full bleed on the outer sides, the marks beyond it.
    assert {round(p.printed.top - p.trim.top, 6) for p in sheet.placed if p.trim.top > 260} == {3.0}
    upright = [m for m in sheet.marks if m.x1 == m.x2]
    xs = sorted({round(v, 3) for t in trims for v in (t.x, t.right)})
    assert sorted({round(m.x1, 3) for m in upright}) == xs
    assert all(min(m.y1, m.y2) >= 279.4 - 12.7 + 3.5 - 1e-6 or max(m.y1, m.y2) <= 12.7 - 3.5 + 1e-6 for m in upright)
    assert all(min(m.y1, m.y2) >= PRINTABLE - 1e-6 and max(m.y1, m.y2) <= 279.4 - PRINTABLE + 1e-6 for m in upright)
    across = [m for m in sheet.marks if m.y1 == m.y2]
    assert sorted({round(m.y1, 3) for m in across}) == sorted({round(v, 3) for t in trims for v in (t.y, t.top)})
    # A4 holds nine with the footer at the bottom, as before.
    (a4,) = pack([_cards(9)], page_frames(210, 297), 3)
    assert a4.frame.footer == "bottom" and len(a4.placed) == 9


def test_pieces_of_two_sizes_share_a_sheet_in_two_grids():
    lodges = _cards(5, (88.9, 127.0), "lodges")
    sheets = pack([_cards(51), lodges], page_frames(210, 297), 3)
    assert [len(s.placed) for s in sheets] == [9, 9, 9, 9, 9, 7, 4]
    last_cards = sheets[5]
    assert last_cards.regions == 2
    lodge = next(p for p in last_cards.placed if p.item.copy.component.id == "lodges")
    cards = [p for p in last_cards.placed if p.item.copy.component.id == "cards"]
    # The lodge lies turned under the two rows of cards, centred, its bleed clear of theirs.
    assert lodge.rotation == 90 and (lodge.trim.w, lodge.trim.h) == (127.0, 88.9)
    assert lodge.trim.x == pytest.approx((210 - 127) / 2)
    assert lodge.printed.top <= min(c.printed.y for c in cards) + 1e-9


# ---------------------------------------------------------------- every page, laid out

@lru_cache(maxsize=None)
def _plan(game_id: str, lang: str, paper: str, **options):
    game = load_shipped_game(game_id)
    return plan_kit(game, PrintOptions(lang=lang, paper=paper, **options), paper_size(paper),
                    measure=MEASURER, imprint=imprint())


def _distance(mark, box: Box) -> float:
    """How far a straight mark keeps from a box (0 when it touches or crosses it); a mark
    on the line of one of the box's edges (a cut line it extends) keeps its distance
    from the box's inside, which it never enters."""
    x0, x1 = sorted((mark.x1, mark.x2))
    y0, y1 = sorted((mark.y1, mark.y2))
    on_edge = (x0 == x1 and min(abs(x0 - box.x), abs(x0 - box.right)) < 1e-6) or \
        (y0 == y1 and min(abs(y0 - box.y), abs(y0 - box.top)) < 1e-6)
    if on_edge:
        return float("inf")
    dx = max(box.x - x1, 0.0, x0 - box.right)
    dy = max(box.y - y1, 0.0, y0 - box.top)
    return (dx * dx + dy * dy) ** 0.5


def _crosses(mark, box: Box) -> bool:
    """Whether a straight mark runs inside a box (along its edge or outside it is not crossing it)."""
    x0, x1 = sorted((mark.x1, mark.x2))
    y0, y1 = sorted((mark.y1, mark.y2))
    if x0 == x1:
        return box.x + 1e-6 < x0 < box.right - 1e-6 and y0 < box.top - 1e-6 and box.y + 1e-6 < y1
    return box.y + 1e-6 < y0 < box.top - 1e-6 and x0 < box.right - 1e-6 and box.x + 1e-6 < x1


def _overlaps(a: Box, b: Box) -> bool:
    return a.x < b.right - 1e-6 and b.x < a.right - 1e-6 and a.y < b.top - 1e-6 and b.y < a.top - 1e-6


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game_id", GAMES)
def test_pages_keep_pieces_apart_and_mark_every_cut(game_id, paper):
    for options in ({}, {"fold": True}, {"duplex": False}, {"cutter": "silhouette"}):
        plan = _plan(game_id, "en", paper, **options)
        page_w, page_h = plan.page_size
        for page in plan.pages:
            fronts = [p for p in page.placements if p.face is Face.FRONT]
            placements = list(page.placements)
            # No piece reaches into another's bleed.
            for i, a in enumerate(placements):
                for b in placements[i + 1:]:
                    assert not _overlaps(a.trim, b.printed) and not _overlaps(b.trim, a.printed)
            # Marks are 2.5 mm long at least, 5 mm from the paper's edge, where home printers
            # print, and keep off every trim (over the outer bleed, where the margin is narrow).
            for m in page.marks:
                assert PRINTABLE - 1e-6 <= min(m.x1, m.x2) and max(m.x1, m.x2) <= page_w - PRINTABLE + 1e-6
                assert PRINTABLE - 1e-6 <= min(m.y1, m.y2) and max(m.y1, m.y2) <= page_h - PRINTABLE + 1e-6
                assert abs(m.x2 - m.x1) + abs(m.y2 - m.y1) >= MARK_MIN_LENGTH - 1e-6
                for p in placements:
                    if p.part is None:  # a board part's strips are cut off: its marks may run there
                        assert _distance(m, p.trim) >= MARK_TIP - 1e-6, (page.number, m, p.trim)
                        # On white paper, beyond the bleed: a mark over colour cannot be seen.
                        assert not _crosses(m, p.printed), (page.number, m, p.printed)
            if page.cutter:
                continue  # the machine cuts along the trims, from its registration marks
            # Every cut line of every front has a mark on it.
            for p in fronts:
                if p.part is not None or not p.copy.component.cut:
                    continue  # a board part's seams are marked apart; a page used as printed has none
                for x in (p.trim.x, p.trim.right):
                    assert any(m.x1 == m.x2 and abs(m.x1 - x) < 1e-3 for m in page.marks), (page.number, x)
                for y in (p.trim.y, p.trim.top):
                    assert any(m.y1 == m.y2 and abs(m.y1 - y) < 1e-3 for m in page.marks), (page.number, y)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game_id", GAMES)
def test_footers_number_every_page_and_text_stays_on_the_paper(game_id, paper):
    for lang in ("en", "fr"):
        plan = _plan(game_id, lang, paper)
        page_w, page_h = plan.page_size
        total = len(plan.pages)
        for page in plan.pages:
            texts = [t for t in page.drawing if isinstance(t, Text)]
            if page.kind is PageKind.BLANK:
                assert page.drawing == () and page.placements == ()
                continue
            words = " ".join(line.text for t in texts for line in t.lines)
            assert f"{page.number}/{total}" in words
            for t in texts:
                assert t.size >= MIN_SIZE
            for box in text_boxes(texts, MEASURER):
                assert box.x >= TEXT_EDGE - 0.05 and box.x + box.w <= page_w - TEXT_EDGE + 0.05
                assert box.y >= TEXT_EDGE - 0.05 and box.y + box.h <= page_h - TEXT_EDGE + 0.05


# ---------------------------------------------------------------- the cover

@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game_id", GAMES)
def test_the_cover_says_what_the_pages_are(game_id, paper):
    for lang in ("en", "fr"):
        data, manifest = rendered(game_id, lang, paper)
        game = load_shipped_game(game_id)
        catalog = game.catalogs[lang]
        reader = pdf_reader(data)
        covers = [p for p in manifest["pages"] if p["kind"] == "cover"]
        text = " ".join(" ".join(reader.pages[p["number"] - 1].extract_text() for p in covers).split())
        pages = manifest["pages"]
        # The plan's first line agrees with its table: one paper, all the pages in one go; several,
        # as many runs as the paper changes from sheet to sheet; blank backs only if there are some.
        runs = [stock for index, stock in enumerate(p["stock"] for p in pages)
                if index == 0 or pages[index - 1]["stock"] != stock]
        values = dict(pages=len(pages), sheets=sheets_used(manifest), paper=catalog.get(f"paper.{paper}"))
        intro = (catalog.get("cover.plan_duplex", stock=stock_name(catalog, runs[0], paper), **values)
                 if len(runs) == 1 else catalog.get("cover.plan_duplex_runs", runs=len(runs), **values))
        assert " ".join(intro.split()) in text
        assert (" ".join(catalog.get("cover.plan_blank").split()) in text) == any(p["kind"] == "blank" for p in pages)
        # Each paper by its weight in g/m², and on Letter in US weights too (lb).
        for stock in set(runs):
            assert " ".join(weight(catalog, stock, paper).split()) in text, stock
        assert ("lb" in text) == (paper == "letter")
        # Each component: its pieces and the sheets that carry its fronts.
        for component in game.components:
            on = [p["sheet"] for p in pages
                  if any(i["component"] == component.id and i["face"] == "front" for i in p["items"])]
            name = catalog.get(f"component.{component.id}.name")
            count = len(copies(component))
            assert re.search(re.escape(name) + r"\s+" + str(count) + r"\s+" + re.escape(sheet_ranges(on)),
                             text), (name, sheet_ranges(on))
        # The print plan's rows, each "first–last sheets ...": together they are every page,
        # in order; each starts and ends a sheet, prints its pages alike and counts its sheets.
        plan = text[text.index(catalog.get("cover.how_to_print")):text.index(catalog.get("cover.contents"))]
        rows = [tuple(map(int, m)) for m in re.findall(r"(\d+)–(\d+) (\d+) ", plan)]
        assert rows[0][0] == 1 and rows[-1][1] == len(pages)
        for (first, last, sheets), following in zip(rows, rows[1:] + [(len(pages) + 1,)]):
            assert following[0] == last + 1 and first % 2 == 1 and last % 2 == 0
            assert sheets == (last - first + 1) // 2
            sides = {pages[n - 1]["kind"] for n in range(first, last + 1)}
            assert sides <= {"cover", "blank"} or sides <= {"front", "back"} or sides <= {"sheet", "blank"}
        # Which kit, for how many players, in what language, made by which pnp.
        assert catalog.get("cover.language") in text
        assert catalog.get("cover.made_by", version=imprint().version) in text
        if any(p["kind"] == "back" for p in pages):
            # The optional alignment sheet is the sheet right after the cover's, where the cover
            # says to print it first, and what its reading is for, to someone without pnp too.
            first = next(n for n, p in enumerate(pages) if p["kind"] not in ("cover", "blank"))
            assert [p.get("alignment", False) for p in pages[first:first + 2]] == [True, True]
            assert [p["kind"] for p in pages[first:first + 2]] == ["front", "back"]
            assert sum(1 for p in pages if p.get("alignment")) == 2
            assert catalog.get("plan.alignment") in plan
            assert " ".join(catalog.get("cover.calibrate", pages=f"{first + 1}–{first + 2}").split()) \
                in text.replace("\u00a0", " ")


def test_the_cover_prints_the_installed_version_without_reading_package_metadata():
    from importlib import metadata

    import pnp

    assert imprint().version == pnp.__version__ == metadata.version("pnp-hunting-kits")
    # Reading the metadata would import email, csv and zipfile on every run (20 ms and more).
    done = subprocess.run([sys.executable, "-c", "import sys; from pnp.kit.build import imprint; imprint(); "
                           "print('importlib.metadata' in sys.modules)"], capture_output=True, text=True)
    assert done.stdout.strip() == "False", done.stderr


def test_the_cover_dates_a_build_only_when_asked(monkeypatch):
    game = load_shipped_game("halali")
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    plain, _ = render_to_memory(game, PrintOptions())
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")   # 2026-01-01 00:00 UTC
    dated, _ = render_to_memory(game, PrintOptions())
    again, _ = render_to_memory(game, PrintOptions())
    assert dated == again and dated != plain
    cover = pdf_reader(dated).pages[0].extract_text()
    assert "on 2026-01-01" in cover and "2026-01-01" not in pdf_reader(plain).pages[0].extract_text()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    result = runner.invoke(app, ["render", "halali", "--out", "/nonexistent-never-written"])
    assert result.exit_code == 1 and "SOURCE_DATE_EPOCH" in result.output


def test_halali_tiles_are_never_glued_behind_their_printed_backs():
    never = {"en": "Never glue a sheet whose backs are printed", "fr": "Ne collez jamais une feuille dont"}
    for lang in ("en", "fr"):
        data, manifest = rendered("halali", lang, "a4")
        assert any(i["component"] == "tiles" and i["face"] == "back" for p in manifest["pages"] for i in p["items"])
        cover = " ".join(pdf_reader(data).pages[0].extract_text().split())
        assert never[lang] in cover
        # Folded, the two halves are glued together: nothing on that cover says not to glue.
        data, _ = rendered("halali", lang, "a4", fold=True)
        cover = " ".join(pdf_reader(data).pages[0].extract_text().split()).lower()
        assert never[lang].lower() not in cover and "do not glue" not in cover and "ne collez pas" not in cover
        assert ("80–120 g/m² paper" if lang == "en" else "papier 80–120 g/m²") in cover


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game_id", GAMES)
def test_a_kit_opens_with_its_cover_and_the_rules_summary_on_its_back(game_id, paper):
    game = load_shipped_game(game_id)
    for lang in ("en", "fr"):
        title = " ".join(game.catalogs[lang].get("how.title").replace("\u00a0", " ").split())
        for options, sheet in (({}, 1), ({"duplex": False}, 2), ({"fold": True}, 2)):
            data, manifest = rendered(game_id, lang, paper, **options)
            cover, summary = manifest["pages"][:2]
            assert cover["kind"] == summary["kind"] == "cover" and cover["items"] == []
            # Read first and never cut: the back of the cover in a double-sided file.
            assert summary["sheet"] == sheet and summary["components"] == ["how-to-play"]
            [item] = summary["items"]
            assert (item["component"], item["face"]) == ("how-to-play", "front")
            text = " ".join(pdf_reader(data).pages[1].extract_text().split())
            assert title in text and f"2/{len(manifest['pages'])}" in text
            assert not [p for p in manifest["pages"][2:] if "how-to-play" in p.get("components", ())]


def test_without_a_summary_a_short_one_sided_sheet_goes_below_the_cover_with_nothing_behind_it():
    game = load_shipped_game("hunting-fever")
    # Without the scoresheet, which shrinks below the fifth aid, that aid has a sheet of its own.
    chosen = [c.id for c in game.components if not c.with_cover and c.id != "scoresheet"]
    plan = plan_kit(game, PrintOptions(), paper_size("a4"), chosen, measure=MEASURER, imprint=imprint())
    first, second = plan.pages[0], plan.pages[1]
    assert first.kind is PageKind.COVER and first.components == ("player-aids",)
    (aid,) = first.placements
    # The cover's continuation, on the back of that sheet, stops above the aid.
    assert second.kind is PageKind.COVER and second.placements == ()
    page_h = plan.page_size[1]
    lowest = max(box.y + box.h for box in text_boxes([t for t in second.drawing if isinstance(t, Text)
                                                      and t.lines[0].y < page_h - 14], MEASURER))
    assert page_h - lowest > aid.printed.top
    # One sheet less than with the aid on a sheet of its own, as with the summary behind the cover.
    leaflet = plan_kit(game, PrintOptions(), paper_size("a4"), chosen + ["how-to-play"], measure=MEASURER,
                       imprint=imprint())
    assert plan.sheets == leaflet.sheets - 1


def test_the_cover_takes_pieces_below_it_when_that_beats_the_summary_behind_it():
    # Printed on one side, the summary has a sheet of its own either way: the cover's sheet
    # takes a player aid, so five aids and the summary need four sheets, not five.
    game = load_shipped_game("hunting-fever")
    data, manifest = render_to_memory(game, PrintOptions(duplex=False), ["player-aids", "how-to-play"])
    _check(data, manifest)
    pages = manifest["pages"]
    assert [(p["kind"], p.get("components")) for p in pages[:2]] == [
        ("cover", ["player-aids"]), ("cover", ["how-to-play"])]
    assert manifest["sheets"] == 4


def test_the_check_refuses_anything_behind_the_pieces_below_the_cover():
    manifest = _good()
    pages = manifest["pages"]
    page_w = manifest["page_size_mm"][0]
    [summary] = pages[1]["items"]
    # A piece below the cover text, right where the summary lands after the flip.
    aid = dict(summary, component="player-aids", piece="player_aid", x=page_w - summary["x"] - 180.0,
               y=20.0, w=180.0, h=125.0)
    pages[0]["items"] = [aid]
    assert any("prints how-to-play behind the player-aids of page 1" in p
               for p in print_order_problems(manifest))
    # Laid out right: the summary on a sheet of its own, a blank page behind the pieces.
    right = _good()
    pages = right["pages"]
    pages[0]["items"] = [aid]
    pages[1:2] = [{"number": 0, "kind": "blank", "sheet": 1, "items": []}, pages[1],
                  {"number": 0, "kind": "blank", "sheet": 2, "items": []}]
    for number, page in enumerate(pages, start=1):
        page["number"] = number
    assert print_order_problems(right) == []
    # The summary left on a front with nothing to close the cover section.
    del pages[3]
    for number, page in enumerate(pages, start=1):
        page["number"] = number
    assert any("cover ends on page 3" in p for p in print_order_problems(right))


# ---------------------------------------------------------------- fold pages and the alignment sheet

def test_fold_pages_put_each_back_beside_its_front(tmp_path):
    result = runner.invoke(app, ["render", "hunting-fever", "--fold", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "hunting-fever_en_a4.manifest.json").read_text())
    data = (tmp_path / "hunting-fever_en_a4.pdf").read_bytes()
    _check(data, manifest)
    folds = [p for p in manifest["pages"] if p["kind"] == "fold"]
    backs = [i for p in folds for i in p["items"] if i["face"] == "back"]
    # Every card and lodge back is on a fold page; one-sided pieces are laid out as usual.
    assert len(backs) == 50 + 5 + 1
    assert all(p["kind"] in ("cover", "fold", "sheet") for p in manifest["pages"])
    x1, y1, x2, y2 = folds[0]["fold_line"]
    assert x1 == x2 == pytest.approx(105.0)


def test_the_alignment_sheet_reads_the_offset_to_pass(tmp_path):
    from pnp.layout.calibration import ARM, OFFSET, calibration_pages, targets
    from pnp.core.i18n import common_catalog
    from pnp.layout.imposition import mirror_for_long_edge
    from pnp.layout.primitives import Path

    result = runner.invoke(app, ["calibrate", "--paper", "letter", "--lang", "fr", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "calibration_fr_letter.manifest.json").read_text())
    data = (tmp_path / "calibration_fr_letter.pdf").read_bytes()
    reader = pdf_reader(data)
    assert len(reader.pages) == 2 and print_order_problems(manifest, 2) == []
    assert float(reader.pages[0].mediabox.width) == pytest.approx(215.9 * 72 / 25.4, abs=0.01)
    assert "--back-offset X,Y" in " ".join(reader.pages[0].extract_text().split())

    page_w, page_h = 210.0, 297.0
    front, back = calibration_pages((page_w, page_h), PrintOptions(), common_catalog("en"), MEASURER)
    for target in targets(page_w, page_h):
        # The X scale sits behind the cross's upright line after a long-edge flip, its ticks
        # every half millimetre from -5 to +5, counting to the right as seen on the back.
        behind = page_w - target.x
        row = page_h - target.y - OFFSET
        ticks = sorted(seg[0][0] for p in back if isinstance(p, Path) for seg in p.segments
                       if len(seg) == 2 and seg[0][0] == seg[1][0] and abs(seg[0][1] - row) < 1e-6)
        assert ticks == pytest.approx([behind + k / 2 for k in range(-10, 11)])
        assert OFFSET < ARM   # the cross's lines reach across both scales
    # A printer that puts its backs d mm right shows the cross at -d on the scale: passing
    # that reading as --back-offset puts the backs back where they belong.
    d = 1.5
    reading = -d
    box = Box(20, 30, 63.5, 88.9)
    drawn = mirror_for_long_edge(box, page_w, (reading, 0.0))
    assert drawn.x + d == pytest.approx(mirror_for_long_edge(box, page_w).x)


# ---------------------------------------------------------------- board seams

def _seam_cuts(manifest: dict) -> list[tuple[str, float, Box]]:
    """Each seam's visible cut line: ("x" or "y", where, the other part's region)."""
    parts = [i for p in manifest["pages"] for i in p["items"] if "region" in i and i["face"] == "front"]
    cuts = []
    for a in parts:
        for b in parts:
            ra, rb = a["region"], b["region"]
            shared_x = min(ra["x"] + ra["w"], rb["x"] + rb["w"]) - max(ra["x"], rb["x"])
            shared_y = min(ra["y"] + ra["h"], rb["y"] + rb["h"]) - max(ra["y"], rb["y"])
            if ra["x"] < rb["x"] and abs(shared_x - 12) < 1e-6 and shared_y > 12:
                cuts.append(("x", rb["x"] + 6, Box(rb["x"] - 6, max(ra["y"], rb["y"]), 12, shared_y)))
            if ra["y"] > rb["y"] and abs(shared_y - 12) < 1e-6 and shared_x > 12:
                cuts.append(("y", ra["y"] + 6, Box(max(ra["x"], rb["x"]), ra["y"] - 6, shared_x, 12)))
    return cuts


@pytest.mark.parametrize("game_id, params", [("hunting-hunting-beavers", {}), ("halali", {"space_size": 30}),
                                             ("halali", {"space_size": 40}), ("halali", {"space_size": 48})])
def test_board_seams_never_run_through_text(game_id, params):
    game = load_shipped_game(game_id, params)
    board = game.component("board")
    for lang in ("en", "fr"):
        face = FaceResolver(game, PrintOptions(lang=lang), MEASURER).face(copies(board)[0], Face.FRONT)
        # Text boxes in the board's own frame, from its bottom-left, as manifest regions are.
        texts = [Box(t.x, board.size[1] - t.y - t.h, t.w, t.h) for t in text_boxes(face.primitives, MEASURER)]
        for paper in PAPERS:
            _, manifest = render_to_memory(game, PrintOptions(lang=lang, paper=paper), ["board"])
            cuts = _seam_cuts(manifest)
            assert cuts, "the board is split"
            for axis, at, strip in cuts:
                for t in texts:
                    if axis == "x" and t.y < strip.y + strip.h and strip.y < t.y + t.h:
                        assert not t.x - TEXT_CLEARANCE < at < t.x + t.w + TEXT_CLEARANCE, (lang, paper, at)
                    if axis == "y" and t.x < strip.x + strip.w and strip.x < t.x + t.w:
                        assert not t.y - TEXT_CLEARANCE < at < t.y + t.h + TEXT_CLEARANCE, (lang, paper, at)


def test_seam_marks_only_on_the_covered_half_of_the_strip():
    from pnp.layout.primitives import Path

    for paper in PAPERS:
        plan = _plan("hunting-hunting-beavers", "en", paper)
        page_h = plan.page_size[1]
        checked = 0
        for page in plan.pages:
            arrows = [p for p in page.drawing if isinstance(p, Path) and p.closed and p.fill]
            for placement in page.placements:
                if placement.part is None:
                    continue
                trim = placement.trim
                halves = _covered_halves(placement.part, trim)
                for arrow in arrows:
                    points = [(x, page_h - y) for x, y in arrow.segments[0]]
                    if not all(trim.x <= x <= trim.right and trim.y <= y <= trim.top for x, y in points):
                        continue
                    # The arrow lies in a half the neighbour covers, its tip on the guide line.
                    assert any(all(h.x - 1e-6 <= x <= h.right + 1e-6 and h.y - 1e-6 <= y <= h.top + 1e-6
                                   for x, y in points) for h in halves)
                    checked += 1
        assert checked >= 3 * 4   # three arrows on every seam a part slides under


def _covered_halves(part, trim) -> list[Box]:
    """The half of each shared strip this part slides under its neighbour with."""
    out = []
    for seam in part.seams:
        if seam.over:
            continue
        out.append({"right": Box(trim.right - 6, trim.y, 6, trim.h),
                    "bottom": Box(trim.x, trim.y, trim.w, 6),
                    "left": Box(trim.x, trim.y, 6, trim.h),
                    "top": Box(trim.x, trim.top - 6, trim.w, 6)}[seam.side])
    return out


# ---------------------------------------------------------------- boards a template makes

BOARD_CATALOGS = {
    "en": '[game]\nname = "Boards"\ncredits = "Tests."\n\n[component.board]\nname = "Board"\ncut = "Cut."\n',
    "fr": '[game]\nname = "Plateaux"\ncredits = "Tests."\n\n[component.board]\nname = "Plateau"\ncut = "Coupez."\n',
}


def _board_kit(folder, size: str = "300x200", count: int = 1, extra: str = "", back: bool = False):
    from pnp.template.loader import load_game

    template = folder / "b.toml"
    back_design = '\n[[components.back]]\ntype = "background"\nfill = "black"\n' if back else ""
    template.write_text(
        '[game]\nid = "boards"\nplayers = [1, 2]\nrules_url = "https://example.org/b"\n\n'
        f'[[components]]\nid = "board"\nkind = "board"\nsize = "{size}"\n{extra}\n'
        '[[components.front]]\ntype = "background"\nfill = "white"\n'
        '[[components.front]]\ntype = "text"\nx = 140\ny = 50\nw = 20\nh = 10\ntext = "Word"\nsize = 10\n'
        f'{back_design}\n[[components.pieces]]\nid = "board"\ncount = {count}\n', encoding="utf-8")
    for lang, catalog in BOARD_CATALOGS.items():
        (folder / f"b.{lang}.toml").write_text(catalog, encoding="utf-8")
    return load_game(template)


def test_a_board_template_names_its_seams_and_they_are_checked(tmp_path):
    from pnp.core.errors import TemplateError

    game = _board_kit(tmp_path, extra="seams = { x = [100, 130, 170] }")
    assert game.component("board").seam_lines == ((100.0, 130.0, 170.0), ())
    _, manifest = render_to_memory(game, PrintOptions())
    regions = sorted((i["region"]["x"], i["region"]["w"]) for p in manifest["pages"] for i in p["items"])
    # Cut on a named line (130 or 170), never through the word at 140 to 160.
    assert regions[1][0] + 6 in (130.0, 170.0)
    with pytest.raises(TemplateError, match=r"seams.x\[0\].*inside the piece"):
        _board_kit(tmp_path, extra="seams = { x = [400] }")
    with pytest.raises(TemplateError, match=r"seams.*unknown key 'z'"):
        _board_kit(tmp_path, extra="seams = { z = [10] }")


def test_huge_boards_are_refused_before_they_are_laid_out(tmp_path):
    from pnp.core.errors import TemplateError

    game = _board_kit(tmp_path, size="2000x2000", count=80)
    with pytest.raises(TemplateError, match="would take .* sheets; the limit is 5000"):
        render_to_memory(game, PrintOptions())
    # One such board splits quickly, every seam clear of the word.
    _, manifest = render_to_memory(_board_kit(tmp_path, size="2000x2000"), PrintOptions())
    assert len([i for p in manifest["pages"] for i in p["items"]]) == 12 * 8


def test_a_board_with_a_back_cannot_be_folded_and_says_so(tmp_path):
    _board_kit(tmp_path, back=True)
    result = runner.invoke(app, ["render", "--template", str(tmp_path / "b.toml"), "--fold",
                                 "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert result.output.startswith("Error:") and "double-sided" in result.output
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_check_manifest_says_whether_a_file_prints_in_order(tmp_path):
    import hashlib

    result = runner.invoke(app, ["render", "halali", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    manifest_file = tmp_path / "halali_en_a4.manifest.json"
    result = runner.invoke(app, ["check-manifest", str(manifest_file)])
    assert result.exit_code == 0 and "is the PDF its manifest describes" in result.output
    # A manifest rewritten with the blank page behind the cover gone: the pair still matches,
    # but a double-sided print would put page 2 behind the cover.
    manifest = json.loads(manifest_file.read_text())
    printed = len(manifest["pages"])
    manifest["pages"] = [p for p in manifest["pages"] if p["number"] != 2]
    for number, page in enumerate(manifest["pages"], start=1):
        page["number"] = number
    manifest_file.write_text(json.dumps(manifest))
    result = runner.invoke(app, ["check-manifest", str(manifest_file)])
    assert result.exit_code == 1
    assert "would not print right" in result.output and f"the PDF has {printed} pages" in result.output
    # Calibration sheets carry a manifest the check reads too.
    runner.invoke(app, ["calibrate", "--out", str(tmp_path)])
    result = runner.invoke(app, ["check-manifest", str(tmp_path / "calibration_en_a4.pdf")])
    assert result.exit_code == 0, result.output
    assert hashlib.sha256((tmp_path / "calibration_en_a4.pdf").read_bytes()).hexdigest() in \
        (tmp_path / "calibration_en_a4.manifest.json").read_text()


def test_a_sheet_of_three_kinds_of_pieces_marks_every_cut():
    # Three short runs on one sheet: the middle grid's upright cuts are marked in the
    # strips that part it from the others.
    runs = [_cards(3, (60, 40), "a"), _cards(3, (50, 45), "b"), _cards(2, (70, 30), "c")]
    (sheet,) = pack(runs, page_frames(210, 297), 3)
    assert sheet.regions == 3
    for placed in sheet.placed:
        for x in (placed.trim.x, placed.trim.right):
            assert any(m.x1 == m.x2 and abs(m.x1 - x) < 1e-3 for m in sheet.marks)
        for y in (placed.trim.y, placed.trim.top):
            assert any(m.y1 == m.y2 and abs(m.y1 - y) < 1e-3 for m in sheet.marks)
    # Nothing printed in another piece's bleed.
    for a in sheet.placed:
        for b in sheet.placed:
            if a is not b:
                assert not _overlaps(a.trim, b.printed)


def test_a_third_kind_of_piece_goes_on_another_sheet_when_its_cuts_could_not_be_marked():
    # Three 90 mm rows fill an A4 sheet (270 of 276 mm): the middle one would have no
    # room above or below for the marks of its upright cuts.
    runs = [_cards(1, (190, 90), name) for name in ("a", "b", "c")]
    sheets = pack(runs, page_frames(210, 297), 3)
    assert [s.regions for s in sheets] == [2, 1]
    for sheet in sheets:
        for placed in sheet.placed:
            for x in (placed.trim.x, placed.trim.right):
                assert any(m.x1 == m.x2 and abs(m.x1 - x) < 1e-3 for m in sheet.marks)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game_id", GAMES)
def test_every_cover_fits_its_first_page(game_id, paper):
    """A cover that runs onto a second page costs a sheet of paper for a few lines (issue 33: two
    lines of Hunting Fever's French credits on Letter): every kit's cover is one page, in both
    languages and with every option that lengthens it; set closer if it must, never smaller."""
    for lang in ("en", "fr"):
        for options in ({}, {"ink_saver": True}, {"cutter": "silhouette"}, {"fold": True},
                        {"back_offset": (0.5, -1.0)}):
            plan = _plan(game_id, lang, paper, **options)
            covers = [page for page in plan.pages if page.kind is PageKind.COVER and not page.components]
            assert len(covers) == 1, (lang, options, [page.number for page in covers])


@pytest.mark.parametrize("paper", PAPERS)
def test_card_hunters_tokens_share_a_sheet(paper):
    """Issue 33: Card Hunter's four tokens took a sheet of thick card of their own on A4. They go
    beside the cards when the cards leave the width, on the paper of the hidden deck, since that
    saves the sheet; the deck itself stays on its one paper."""
    for options in ({}, {"cutter": "silhouette"}):
        _, manifest = rendered("card-hunter", "en", paper, **options)
        pages = [p for p in manifest["pages"] if any(i["component"] == "tokens" for i in p["items"])]
        assert pages and all(len({i["component"] for i in p["items"]}) > 1 for p in pages), options
        decks = {p["stock"] for p in manifest["pages"] if any(i["component"] == "monster-cards" for i in p["items"])}
        assert len(decks) == 1
    _, manifest = rendered("card-hunter", "en", "a4")
    assert sheets_used(manifest) == 10   # 11 before: the tokens' own sheet
