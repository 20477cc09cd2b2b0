"""A kit of thousands of cards is laid out and drawn as a small one is, holding less at once.

Sheets share their slots' boxes and crop marks, pages share their footer's
bar, a resolver keeps a bounded number of resolved layers, and a page is
compressed and let go of as soon as it is drawn. Each test checks that what
is shared or dropped early gives the same kit as doing it the long way.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pnp.kit import build
from pnp.layout import faces as faces_module
from pnp.layout.furniture import BAR_Y, footer_layout
from pnp.layout.imposition import MARGIN, PRINTABLE, bottom_frame, page_frames
from pnp.layout import plan as plan_module
from pnp.layout import sheets as sheets_module
from pnp.layout.plan import copies, plan_kit
from pnp.layout.sheets import Item, pack, runs_of
from pnp.layout.text import Measurer, fit_text
from pnp.layout.primitives import Path as PathPrimitive
from pnp.core.errors import TemplateError
from pnp.template.model import PrintOptions
from pnp.render import document
from pnp.render.document import render_kit
from pnp.render.fonts import MEASURER
from pnp.template.loader import load_game, load_shipped_game
from pnp.core.units import paper_size

BENCH = Path(__file__).resolve().parent.parent / "bench"


def deck(tmp_path: Path, count: int, hidden: bool = False) -> Path:
    import sys

    sys.path.insert(0, str(BENCH))
    from unique_deck import write_template

    return write_template(tmp_path, count, hidden)


def test_a_sheet_not_full_gets_the_crop_marks_of_its_own_pieces(tmp_path):
    game = load_game(deck(tmp_path, 10))
    component = game.components[0]
    full, last = pack(runs_of([Item(copy) for copy in copies(component)]), page_frames(210.0, 297.0), 3.0)
    assert len(full.placed) == 9 and len(last.placed) == 1
    for sheet in (full, last):
        assert all(any(m.x1 == m.x2 and abs(m.x1 - x) < 1e-9 for m in sheet.marks)
                   for p in sheet.placed for x in (p.trim.x, p.trim.right))
    assert last.marks != full.marks


def test_sheets_laid_out_alike_share_their_boxes_and_marks(tmp_path):
    game = load_game(deck(tmp_path, 20))
    cards = [Item(copy) for copy in copies(game.components[0])]
    first, second, last = pack(runs_of(cards), page_frames(210.0, 297.0), 3.0)
    assert first.marks is second.marks and last.marks is not first.marks
    assert all(a.trim is b.trim and a.printed is b.printed for a, b in zip(first.placed, second.placed))
    # Each keeps its own pieces, and they are what a sheet of its own would be.
    assert [p.item for p in second.placed] == cards[9:18]
    (alone,) = pack(runs_of(cards[9:18]), page_frames(210.0, 297.0), 3.0)
    assert [(p.trim, p.printed, p.rotation) for p in alone.placed] == \
        [(p.trim, p.printed, p.rotation) for p in second.placed] and alone.marks == second.marks


@pytest.mark.parametrize("options", [PrintOptions(), PrintOptions(fold=True, paper="letter"),
                                     PrintOptions(duplex=False, bleed=0.0)])
def test_sheets_filled_again_alike_are_the_sheets_filled_step_by_step(tmp_path, monkeypatch, options):
    # A new sheet as alike as the one before is filled the same way at once (pnp.layout.sheets.FILL_ALIKE).
    games = [load_game(deck(tmp_path, 40)), load_game(deck(tmp_path, 60, hidden=True)),
             load_shipped_game("hunting-fever")]
    size = paper_size(options.paper)
    repeated = [plan_kit(game, options, size, measure=MEASURER).pages for game in games]
    monkeypatch.setattr(sheets_module, "FILL_ALIKE", False)
    assert [plan_kit(game, options, size, measure=MEASURER).pages for game in games] == repeated


def test_the_calibration_bar_sits_on_each_paper_where_its_size_puts_it():
    game = load_shipped_game("halali")
    catalog = game.catalogs["en"]
    for paper in ("a4", "letter", "a4"):
        page_w, page_h = paper_size(paper)
        bar = footer_layout(bottom_frame(page_w, page_h), (page_w, page_h), PrintOptions(paper=paper),
                            catalog, measure=MEASURER, page=1, pages=1)[-1]
        assert isinstance(bar, PathPrimitive)
        (start, end) = bar.segments[0]
        assert start == (page_w - MARGIN - 50.0, page_h - BAR_Y) and end[0] - start[0] == 50.0
        # Its ticks keep the 5 mm of the paper's edge that home printers may not print.
        lowest = max(y for segment in bar.segments for _, y in segment)
        assert page_h - lowest - bar.width / 2 >= PRINTABLE


def test_a_resolver_that_forgets_resolved_layers_lays_out_the_same_kit(tmp_path, monkeypatch):
    game = load_shipped_game("hunting-fever")
    options = PrintOptions()
    whole = plan_kit(game, options, (210.0, 297.0), measure=MEASURER)
    monkeypatch.setattr(faces_module, "RESOLVED_LIMIT", 3)
    forgetful = plan_kit(game, options, (210.0, 297.0), measure=MEASURER)
    assert [p.placements for p in forgetful.pages] == [p.placements for p in whole.pages]
    assert forgetful.drawing_uses == whole.drawing_uses


def test_pages_compressed_early_and_let_go_make_the_same_pdf_and_manifest(monkeypatch):
    game = load_shipped_game("card-hunter")
    options = PrintOptions(lang="fr")
    pdf, manifest = build.render_to_memory(game, options)  # pages compressed and let go
    plan = plan_kit(game, options, paper_size("a4"), measure=MEASURER, imprint=build.imprint())
    monkeypatch.setattr(document, "compress_last_page", lambda canvas: None)
    kept_pdf, kept_manifest = render_kit(plan)
    assert pdf == kept_pdf and manifest == kept_manifest
    assert all(page is not None for page in plan.pages)  # kept unless asked to let go


def test_a_plan_drawn_with_its_pages_let_go_is_emptied():
    game = load_shipped_game("halali")
    plan = plan_kit(game, PrintOptions(), paper_size("a4"), measure=MEASURER)
    pages = len(plan.pages)
    pdf, manifest = render_kit(plan, release_pages=True)
    assert plan.pages == [None] * pages and len(manifest["pages"]) == pages


def test_cards_of_their_own_in_a_large_deck_are_resolved_as_their_pages_are_drawn(tmp_path, monkeypatch):
    game = load_game(deck(tmp_path, 30))
    few = plan_kit(game, PrintOptions(), paper_size("a4"), measure=MEASURER)
    assert few.faces is None
    assert all(type(run.primitives) is tuple for page in few.pages for p in page.placements for run in p.runs)
    monkeypatch.setattr(plan_module, "LATER_FROM", 30)  # a deck of many cards of their own
    plan = plan_kit(game, PrintOptions(), paper_size("a4"), measure=MEASURER)
    cards = [p for page in plan.pages for p in page.placements if p.copy.component.id == "deck"]
    assert len(cards) == 30 and plan.faces is not None
    assert all(p.runs == (plan_module.Run(None),) for p in cards)
    assert render_kit(plan) == render_kit(few)


def test_the_problems_of_faces_resolved_as_they_are_drawn_are_told_all_at_once(tmp_path, monkeypatch):
    path = deck(tmp_path, 40)
    text = path.read_text().replace('title = "Fox 1"', 'title = "' + "Fox " * 30 + '"')
    path.write_text(text.replace('title = "Fox 21"', 'title = "' + "Owl " * 30 + '"'))
    game = load_game(path)
    monkeypatch.setattr(plan_module, "LATER_FROM", 30)
    plan = plan_kit(game, PrintOptions(), paper_size("a4"), measure=MEASURER)   # nothing resolved yet
    with pytest.raises(TemplateError) as raised:
        render_kit(plan)
    assert [("card-1" in p, "card-21" in p) for p in raised.value.problems] == [(True, False), (False, True)]
    # A problem found before any page is drawn (a shared face's) comes with theirs.
    shared = path.read_text().replace('id = "card-40"\ncount = 1', 'id = "card-40"\ncount = 2')
    path.write_text(shared.replace('title = "Ash 40"', 'title = "' + "Elk " * 30 + '"'))
    with pytest.raises(TemplateError) as raised:
        plan_kit(load_game(path), PrintOptions(), paper_size("a4"), measure=MEASURER)
    assert sorted(re.search(r"deck/(card-\d+) ", p)[1] for p in raised.value.problems) == \
        ["card-1", "card-21", "card-40"]


def test_a_line_fitted_at_its_size_is_measured_by_the_measurer_that_does_not_remember():
    remembered, once = [], []
    measure = Measurer(lambda t, s, z: remembered.append(t) or len(t) * z * 0.5, lambda t, s: "",
                       lambda t, s, z: once.append(t) or len(t) * z * 0.5)
    assert fit_text(measure, "Fox 12", "black", 16.0, width=200.0, height=40.0).lines == ("Fox 12",)
    assert once == ["Fox 12"] and remembered == []
    # Text that must shrink or wrap is measured by the one that remembers.
    assert fit_text(measure, "Fox 12", "black", 16.0, width=40.0, height=40.0).size < 16.0 and remembered


def test_a_manifest_written_from_its_records_is_the_one_written_from_its_items():
    # Player sets, turned pieces, hidden decks and a board in parts between them.
    for game_id in ("hunting-fever", "hunting-hunting-beavers"):
        game = load_shipped_game(game_id)
        for options in (PrintOptions(), PrintOptions(lang="fr", paper="letter", duplex=False)):
            pdf, items = build.render_to_memory(game, options)
            same_pdf, records = build.render_to_memory(game, options, records=True)
            assert same_pdf == pdf
            assert all(isinstance(page["items"], document.PageItems) for page in records["pages"])
            assert records["pages"] == items["pages"]
            assert b"".join(build.manifest_parts(records)) == b"".join(build.manifest_parts(items))


def test_a_piece_s_awkward_fields_are_written_as_json_writes_them():
    import json

    fields = {"title": 'Le "grand" \\ cerf\u00a0\u2014 \U0001f98c\n', "number": -0.0, "big": 10**30,
              "ratio": 1e-07, "flag": True, "off": False, "nothing": None, "list": [1, "a"]}
    assert "{" + document._dict_json(fields) + "}" == json.dumps(fields, ensure_ascii=False)
    for number in (float("nan"), float("inf"), -float("inf")):   # not JSON: refused as manifest_parts does
        with pytest.raises(ValueError):
            document._dict_json({"x": number})
    assert document._dict_json({}) == ""
