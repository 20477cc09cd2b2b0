"""Fair kits: no hidden piece can be told apart from its back, and every mark prints on a home printer.

A home printer lands the back side up to 1 mm off its front, differently on
every sheet, and prints nothing in the outer 5 mm of the paper. So the back
pages of every kit are rendered (PDFium, 127 dpi), that outer band left white,
each back of every hidden deck is cut out along its front's trim (from the
manifest) with the back page shifted 1 mm each way, and the backs of a deck
are compared: they must all look alike. Their outer 4 mm must be one colour,
every deck must be on one paper, and nothing but a piece's bleed may be
printed in the outer 5 mm of the paper: no character (read from the PDF's
text), no crop mark, bar or fold line (from the page plan the PDF is drawn
from). Every kit, English and French, A4 and Letter, with and without the
ink saver, double-sided and folded; printed with --no-duplex, hidden pieces
print no backs, and only their paper is checked.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from helpers import rendered
from home_printer import Backs, deck_problems, edge_ink
from pnp.kit.build import imprint
from pnp.layout.cover import PAPER, weight
from pnp.layout.imposition import FOOTER_BAND, HIDDEN_EDGE, MARK_MIN_LENGTH, PRINTABLE
from pnp.layout.plan import plan_kit
from pnp.layout.primitives import Line, Path
from pnp.template.model import PrintOptions
from pnp.layout.print_order import fairness_problems
from pnp.render.fonts import MEASURER
from pnp.template.loader import game_files, load_shipped_game
from pnp.core.units import paper_size

GAMES = tuple(game_files())
KITS = [(game, lang, paper, ink) for game in GAMES for lang in ("en", "fr")
        for paper in ("a4", "letter") for ink in (False, True)]


def _options(ink: bool, mode: str) -> dict:
    options = {"ink_saver": True} if ink else {}
    if mode == "fold":
        options["fold"] = True
    elif mode == "no-duplex":
        options["duplex"] = False
    return options


@lru_cache(maxsize=None)
def _backs(game_id: str, lang: str, paper: str, ink: bool, mode: str) -> Backs:
    return Backs(*rendered(game_id, lang, paper, **_options(ink, mode)))


# ---------------------------------------------------------------- backs, shifted

@pytest.mark.parametrize("game_id, lang, paper, ink", KITS)
def test_every_back_of_a_hidden_deck_looks_alike_printed_a_millimetre_off(game_id, lang, paper, ink):
    backs = _backs(game_id, lang, paper, ink, "duplex")
    hidden = [c.id for c in load_shipped_game(game_id).components if c.hidden]
    assert hidden and {component for component, _ in backs.decks} == set(hidden)
    assert deck_problems(backs) == []


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("paper", ("a4", "letter"))
def test_folded_backs_of_a_hidden_deck_look_alike_a_millimetre_off(game_id, paper):
    for lang, ink in (("en", False), ("fr", True)):
        backs = _backs(game_id, lang, paper, ink, "fold")
        assert backs.decks and deck_problems(backs) == []


def test_the_check_sees_a_back_that_reaches_into_the_printers_blind_band(monkeypatch):
    """Laid out as before: nine cards on Letter, the top row's trims 5 mm from the edge, so
    a back shifted 1 mm shows the paper the printer left white there."""
    from pnp.kit.build import render_to_memory
    from pnp.layout import imposition

    monkeypatch.setattr(imposition, "CUT_MARGIN", PRINTABLE)
    monkeypatch.setattr(imposition.Frame, "centred", lambda self, w, h: (self.area.x + (self.area.w - w) / 2,
                                                                         self.area.top - h))
    backs = Backs(*render_to_memory(load_shipped_game("hunting-fever"), PrintOptions(paper="letter")))
    assert any("differs from the first" in p for p in deck_problems(backs))


def test_the_check_sees_a_neighbours_back_and_a_frame_near_the_cut():
    """A plan gone wrong, made by hand from a good one: on every back page, each player card's
    back drawn in its neighbour's slot (so different players' backs lie side by side), and a frame
    4 mm in drawn over each."""
    from pnp.layout.primitives import Rect
    from pnp.render.document import render_kit
    from pnp.template.model import Face

    game = load_shipped_game("hunting-fever")
    plan = plan_kit(game, PrintOptions(), paper_size("a4"), measure=MEASURER, imprint=imprint())
    page_h = plan.page_size[1]
    for index, page in enumerate(plan.pages):
        backs = [n for n, p in enumerate(page.placements)
                 if p.face is Face.BACK and p.copy.component.id == "player-cards"]
        if len(backs) < 2:
            continue
        placements = list(page.placements)
        runs = [placements[n].runs for n in backs]
        for n, drawn in zip(backs, runs[1:] + runs[:1]):
            placements[n] = placements[n]._replace(runs=drawn)
        frames = tuple(Rect(t.x + 4, page_h - t.y - t.h + 4, t.w - 8, t.h - 8, stroke="#000000", width=0.6)
                       for t in (placements[n].trim for n in backs))
        plan.pages[index] = page._replace(placements=tuple(placements), drawing=page.drawing + frames)
    problems = deck_problems(Backs(*render_kit(plan)))
    assert any("differs from the first" in p for p in problems)
    assert any("is not one colour" in p for p in problems)


def test_a_hidden_back_with_a_line_near_its_edge_is_refused_before_anything_is_drawn():
    from pnp.core.errors import TemplateError

    game = load_shipped_game("halali")
    tiles = game.component("tiles")
    ringed = tiles.back + (tiles.back[0]._replace(type="ellipse", props={
        "cx": "w/2", "cy": "h/2", "rx": "w/2 - 2", "stroke": "gold", "stroke_width": 0.5}),)
    game = game._replace(components=tuple(c._replace(back=ringed) if c is tiles else c
                                          for c in game.components))
    with pytest.raises(TemplateError, match=r"halali.toml: components.tiles.back\[0\] \(halali tiles/bear back, "
                                            r"en\): the back of a hidden piece is one colour in its outer 4 mm.*"
                                            r"an ellipse comes 1\.8 mm from the edge"):
        plan_kit(game, PrintOptions(), paper_size("a4"), measure=MEASURER)


# ---------------------------------------------------------------- one deck, one paper; nothing that tells

MODES = ("duplex", "no-duplex", "fold")


@pytest.mark.parametrize("game_id", GAMES)
def test_each_hidden_deck_is_on_one_paper_and_the_manifest_says_which(game_id):
    game = load_shipped_game(game_id)
    hidden = {c.id for c in game.components if c.hidden}
    for mode in MODES:
        for lang in ("en", "fr"):
            for paper in ("a4", "letter"):
                _, manifest = rendered(game_id, lang, paper, **_options(False, mode))
                papers: dict[tuple, set] = {}
                for page in manifest["pages"]:
                    assert page["stock"] in ("paper-80-120", "card-160-220", "card-220-300")
                    for item in page["items"]:
                        assert item.get("hidden", False) is (item["component"] in hidden)
                        if item.get("hidden"):
                            papers.setdefault((item["component"], item.get("set")), set()).add(page["stock"])
                assert papers and all(len(p) == 1 for p in papers.values()), (mode, papers)
                if mode == "fold":   # folded over and glued: paper, two layers of it
                    assert {s for p in papers.values() for s in p} == {"paper-80-120"}
                assert fairness_problems(manifest) == []


def test_a_deck_split_over_two_papers_is_caught_from_the_manifest():
    _, manifest = rendered("hunting-hunting-beavers", "en", "a4")
    manifest = {**manifest, "pages": [dict(p) for p in manifest["pages"]]}
    page = next(p for p in manifest["pages"] if any(i["component"] == "beaver-cards" for i in p["items"]))
    page["stock"] = "card-220-300"
    assert any("beaver-cards is printed on 2 papers" in p for p in fairness_problems(manifest))


def _kind(item: dict) -> tuple:
    """What a player sees on a front: the piece and what it is worth."""
    return (item["piece"], item.get("part"), item.get("suit"), item.get("hits"), item.get("design"),
            item.get("beavers"), item.get("unit"))


@pytest.mark.parametrize("paper", ("a4", "letter"))
@pytest.mark.parametrize("game_id", GAMES)
def test_where_a_hidden_piece_was_printed_does_not_tell_what_it_is(game_id, paper):
    _, manifest = rendered(game_id, "en", paper)
    decks: dict[tuple, list[tuple[int, dict]]] = {}
    for page in manifest["pages"]:
        if page["kind"] == "front":
            for item in page["items"]:
                if item.get("hidden"):
                    decks.setdefault((item["component"], item.get("set")), []).append((page["sheet"], item))
    for deck, placed in decks.items():
        kinds = {_kind(item) for _, item in placed}
        sheets = {sheet for sheet, _ in placed}
        # No row or column of three and more is all one kind (it would be cut, and so
        # sized, alike: a player who knew the sheet would know the kind).
        for sheet in sheets:
            for axis in ("x", "y"):
                lines: dict[float, list] = {}
                for s, item in placed:
                    if s == sheet:
                        lines.setdefault(item[axis], []).append(_kind(item))
                for line in lines.values():
                    if len(line) >= 3 and len(kinds) > 1:
                        assert len(set(line)) > 1, (deck, sheet, axis, line)
        # The copies of a kind are not all on a sheet that holds little of the deck
        # (the four Rage cards together on one sheet of nine, of forty-four).
        for kind in kinds:
            on = {sheet for sheet, item in placed if _kind(item) == kind}
            copies = sum(1 for _, item in placed if _kind(item) == kind)
            if copies >= 2 and len(on) == 1:
                share = sum(1 for sheet, _ in placed if sheet in on) / len(placed)
                assert share >= 0.5, (deck, kind, on)
        # Every card of a deck lies the same way.
        assert len({item.get("rotation", 0) for _, item in placed}) == 1


def test_the_four_rage_cards_are_on_four_sheets():
    for paper in ("a4", "letter"):
        _, manifest = rendered("card-hunter", "en", paper)
        sheets = [p["sheet"] for p in manifest["pages"] if p["kind"] == "front"
                  for i in p["items"] if i.get("suit") == "rage"]
        assert len(sheets) == 4 and len(set(sheets)) == 4


# ---------------------------------------------------------------- the printable area

@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("game_id", GAMES)
def test_no_mark_or_character_is_printed_in_the_outer_5_mm(game_id, mode):
    for lang in ("en", "fr"):
        for paper in ("a4", "letter"):
            if mode != "duplex" and lang == "fr":
                continue   # the same sheets as in English, the words aside
            data, manifest = rendered(game_id, lang, paper, **_options(False, mode))
            assert edge_ink(data, manifest) == []
    data, manifest = rendered(game_id, "fr", "letter", ink_saver=True)
    assert edge_ink(data, manifest) == []


def test_the_edge_check_sees_a_footer_in_the_printers_blind_band(monkeypatch):
    from pnp.kit.build import render_to_memory
    from pnp.layout import furniture

    monkeypatch.setattr(furniture, "FOOTER_BASELINE", 4.5)
    data, manifest = render_to_memory(load_shipped_game("halali"), PrintOptions())
    assert any("of its bottom edge" in p for p in edge_ink(data, manifest))


def _ink_box(primitive):
    """Where a straight stroke lies: the line it draws, end to end (butt ends stop at the
    end points; a hairline's width, 0.2 mm, is the rendered check's to see)."""
    segments = ([((primitive.x1, primitive.y1), (primitive.x2, primitive.y2))] if isinstance(primitive, Line)
                else [pair for run in primitive.segments for pair in zip(run, run[1:])])
    return [(min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)) for (x1, y1), (x2, y2) in segments]


@lru_cache(maxsize=None)
def _plan(game_id: str, lang: str, paper: str, mode: str):
    return plan_kit(load_shipped_game(game_id), PrintOptions(lang=lang, paper=paper, **_options(False, mode)),
                    paper_size(paper), measure=MEASURER, imprint=imprint())


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("paper", ("a4", "letter"))
@pytest.mark.parametrize("game_id", GAMES)
def test_marks_bars_and_fold_lines_print_where_a_home_printer_prints(game_id, paper, mode):
    plan = _plan(game_id, "en", paper, mode)
    page_w, page_h = plan.page_size
    for page in plan.pages:
        for primitive in page.drawing:
            if isinstance(primitive, (Line, Path)) and primitive.stroke:
                for left, top, right, bottom in _ink_box(primitive):
                    assert left >= PRINTABLE - 1e-6 and top >= PRINTABLE - 1e-6, (page.number, primitive)
                    assert right <= page_w - PRINTABLE + 1e-6, (page.number, primitive)
                    assert bottom <= page_h - PRINTABLE + 1e-6, (page.number, primitive)
        for mark in page.marks:
            assert abs(mark.x2 - mark.x1) + abs(mark.y2 - mark.y1) >= MARK_MIN_LENGTH - 1e-9
        # Every piece lies in the printable area; only its bleed may run past it.
        for placement in page.placements:
            trim = placement.trim
            assert trim.x >= PRINTABLE - 1e-6 and trim.y >= PRINTABLE - 1e-6
            assert trim.right <= page_w - PRINTABLE + 1e-6 and trim.top <= page_h - PRINTABLE + 1e-6


ALL_MODES = {"plain": {}, "ink saver": {"ink_saver": True}, "cutter": {"cutter": "silhouette"},
             "fold": {"fold": True}, "no duplex": {"duplex": False}}


@pytest.mark.parametrize("paper", ("a4", "letter"))
@pytest.mark.parametrize("game_id", GAMES)
def test_every_hidden_piece_keeps_6_mm_from_every_edge_of_the_paper(game_id, paper):
    """So at least 1 mm of its back's bleed prints past the 5 mm a home printer leaves blank."""
    for lang in ("en", "fr"):
        for mode, options in ALL_MODES.items():
            _, manifest = rendered(game_id, lang, paper, **options)
            page_w, page_h = manifest["page_size_mm"]
            for page in manifest["pages"]:
                for item in page["items"]:
                    if item.get("hidden"):
                        edge = min(item["x"], item["y"], page_w - item["x"] - item["w"],
                                   page_h - item["y"] - item["h"])
                        assert edge >= HIDDEN_EDGE - 1e-6, (mode, lang, page["number"], item["piece"], edge)


@pytest.mark.parametrize("paper", ("a4", "letter"))
@pytest.mark.parametrize("game_id", GAMES)
def test_pieces_to_cut_are_centred_on_the_sheet(game_id, paper):
    """Across, always; up and down, unless the footer's band below them would not allow it
    (their foot then lies on the band's edge, 13 mm up)."""
    for mode in ("plain", "fold", "no duplex"):
        plan = _plan(game_id, "en", paper, mode.replace("plain", "duplex").replace("no duplex", "no-duplex"))
        page_w, page_h = plan.page_size
        for page in plan.pages:
            trims = [p.trim for p in page.placements if p.face.value == "front"]
            if page.kind.value not in ("front", "sheet") or not any(p.copy.component.cut for p in page.placements):
                continue   # a page used as printed may lie anywhere; a fold page is centred on its half
            left, right = min(t.x for t in trims), page_w - max(t.right for t in trims)
            bottom, top = min(t.y for t in trims), page_h - max(t.top for t in trims)
            assert abs(left - right) < 0.01, (page.number, left, right)
            assert abs(bottom - top) < 0.01 or abs(bottom - FOOTER_BAND) < 1e-6, (page.number, bottom, top)


def test_nine_poker_cards_a_sheet_on_a4_and_eight_on_letter():
    """Three rows of poker cards are 266.7 mm tall: Letter's 279.4 mm leave 6.35 mm above
    and below, enough for a hidden back's bleed past the printer's blind band but not for
    a crop mark beyond the bleed at either end of the cuts that run down the sheet."""
    for game_id, component in (("hunting-fever", "player-cards"), ("card-hunter", "monster-cards")):
        for paper, most in (("a4", 9), ("letter", 8)):
            _, manifest = rendered(game_id, "en", paper)
            counts = [sum(1 for i in p["items"] if i["component"] == component)
                      for p in manifest["pages"] if p["kind"] == "front"]
            assert max(counts) == most, (game_id, paper)


# ---------------------------------------------------------------- the template language

HIDDEN_BACK = """
[[components.back]]
type = "background"
fill = "accent"

[[components.back]]
type = "text"
x = 8
y = 40
w = "w - 16"
h = 10
text = "Tiny"
size = 14
"""


def _hidden_game(tmp_path, change=("", ""), back: str = HIDDEN_BACK):
    from helpers import GOOD, write_game

    from pnp.template.loader import load_game

    text = GOOD.replace('size = "poker"\n', 'size = "poker"\nhidden = true\n') + back
    return load_game(write_game(tmp_path, text.replace(*change)))


def test_a_hidden_component_is_checked_on_load(tmp_path):
    from pnp.core.errors import TemplateError

    game = _hidden_game(tmp_path)
    assert game.component("cards").hidden
    for change, back, expected in [
        (("", ""), "", r"components.cards.hidden: expected true only on a component with a back design"),
        (("hidden = true", "hidden = true\nsame_back = true"), "", r"same_back = true shows the front"),
        (("hidden = true", 'hidden = "yes"'), HIDDEN_BACK, r"components.cards.hidden: expected true or false"),
        (("hidden = true", "hidden = true\nkind = \"sheet\""), HIDDEN_BACK, r"true only on cut pieces"),
        (("", ""), HIDDEN_BACK.replace('text = "Tiny"', 'text = "{value}"'),
         r"components.cards.back\[1\]: expected a back that is the same for every piece of a hidden "
         r"component; it uses value"),
        (("", ""), HIDDEN_BACK.replace('text = "Tiny"', 'text = "No. {copy}"'), r"it uses copy"),
        (("value = 5", 'value = 5\nback = [{ type = "background", fill = "ink" }]'), HIDDEN_BACK,
         r"components.cards.pieces\[0\].back: expected no back of its own in a hidden component"),
    ]:
        with pytest.raises(TemplateError, match=expected):
            _hidden_game(tmp_path, change, back)


def test_a_hidden_deck_of_ones_own_is_printed_fairly(tmp_path):
    """A designer's deck with two backs by set: each set's cards share cuts, never another set's."""
    from pnp.kit.build import render_to_memory

    game = _hidden_game(tmp_path, ('hidden = true', 'hidden = true\nsets = ["red", "blue"]'),
                        HIDDEN_BACK.replace('fill = "accent"', 'fill = "set"'))
    data, manifest = render_to_memory(game, PrintOptions())
    backs = Backs(data, manifest)
    assert set(backs.decks) == {("cards", "red"), ("cards", "blue")}
    assert deck_problems(backs) == [] and fairness_problems(manifest) == []


# ---------------------------------------------------------------- folding, and what the cover says

@pytest.mark.parametrize("paper", ("a4", "letter"))
@pytest.mark.parametrize("game_id", GAMES)
def test_folded_pages_keep_the_fold_5_mm_from_any_bleed_and_the_cover_asks_for_paper(game_id, paper):
    from helpers import pdf_reader

    plan = _plan(game_id, "en", paper, "fold")
    folds = [page for page in plan.pages if page.fold_line is not None]
    assert folds
    for page in folds:
        line = page.fold_line
        for placement in page.placements:
            box = placement.printed
            gap = (max(line.x1 - box.right, box.x - line.x1) if line.x1 == line.x2
                   else max(line.y1 - box.top, box.y - line.y1))
            assert gap >= 5.0 - 1e-6, (page.number, placement.copy.piece.id, gap)
    for lang, paper_words in (("en", "{weight} paper, not card"), ("fr", "papier {weight}, pas sur")):
        # The paper's weight in g/m², and on Letter in US weights too.
        weighed = " ".join(weight(load_shipped_game(game_id).catalogs[lang], PAPER, paper).split())
        paper_words = paper_words.format(weight=weighed)
        data, _ = rendered(game_id, lang, paper, fold=True)
        cover = " ".join(pdf_reader(data).pages[0].extract_text().split())
        # Folded and glued, not printed on both sides: no card, no duplex alignment sheet.
        assert paper_words in cover and "pnp calibrate" not in cover


@pytest.mark.parametrize("game_id", GAMES)
def test_the_cover_says_only_what_is_true_of_bleed_and_cutting(game_id):
    from helpers import pdf_reader

    from pnp.template.model import Face

    for paper in ("a4", "letter"):
        plan = _plan(game_id, "en", paper, "duplex")
        catalog = plan.game.catalogs["en"]
        least, butted = 3.0, False
        for page in plan.pages:
            if page.kind.value not in ("front", "sheet", "cover"):
                continue
            for p in page.placements:
                if p.face is not Face.FRONT or p.part is not None or not p.copy.component.cut:
                    continue
                t, r = p.trim, p.printed
                for side in (t.x - r.x, r.right - t.right, t.y - r.y, r.top - t.top):
                    if side > 1e-6:
                        least = min(least, side)
                    else:
                        butted = True
        data, _ = rendered(game_id, "en", paper)
        cover = " ".join(pdf_reader(data).pages[0].extract_text().split())
        before = catalog.get("cover.cut_general", bleed="\0").split("\0")[0].split(". ")[-1]
        said = float(cover[cover.index(before) + len(before):].split(" mm")[0])
        # What it says is no more than every piece gets, to the half millimetre below.
        assert said <= least + 1e-6 and least - said < 0.5
        assert (" ".join(catalog.get("cover.cut_butted").split()) in cover) is butted
        assert " ".join(catalog.get("cover.cut_backs", gutter="6").split()) in cover


# ---------------------------------------------------------------- the safe zone

@pytest.mark.parametrize("game_id", GAMES)
def test_what_matters_on_a_piece_keeps_3_mm_inside_its_trim(game_id):
    """Text, pictograms, player symbols and the small shapes that hold them (a value's
    coin, a shield, a badge) keep 3 mm from the cut, so a cut a little off never clips
    them; backgrounds, bands and panels may run to the edge and into the bleed."""
    from pnp.layout.bounds import SAFE_ZONE, inked, inset
    from pnp.layout.faces import FaceResolver
    from pnp.layout.plan import copies
    from pnp.layout.primitives import Ellipse, Icon, Rect, Symbol, Text
    from pnp.template.model import Face

    game = load_shipped_game(game_id)
    problems = set()
    for lang in ("en", "fr"):
        for ink in (False, True):
            resolver = FaceResolver(game, PrintOptions(lang=lang, ink_saver=ink), MEASURER)
            for component in game.components:
                if not component.cut:
                    continue   # a page used as printed: it is never cut
                w, h = component.size
                for copy in copies(component):
                    for face in (Face.FRONT, Face.BACK) if component.two_sided else (Face.FRONT,):
                        for entry in inked(resolver.face(copy, face).primitives, MEASURER):
                            box, primitive = entry.box, entry.primitive
                            gap = inset(box, component.size)
                            badge = (isinstance(primitive, (Rect, Ellipse, Path)) and gap >= 0
                                     and box.w < w / 2 and box.h < h / 2 and max(box.w, box.h) <= 25)
                            if (badge or isinstance(primitive, (Text, Icon, Symbol))) and gap < SAFE_ZONE - 1e-6:
                                problems.add(f"{component.id}/{copy.piece.id} {face.value} ({lang}"
                                             f"{', ink saver' if ink else ''}): a {type(primitive).__name__} "
                                             f"{gap:.2f} mm from the cut")
    assert sorted(problems) == []


@pytest.mark.parametrize("lang, bleed, said", [("en", 3.0, "at least 3 mm past it"),
                                               ("fr", 1.5, "d’au moins 1,5 mm")])
def test_a_deck_whose_last_row_is_not_full_keeps_its_bleed_where_no_card_is_beside(tmp_path, lang, bleed, said):
    # Four cards edge to edge, three to a row: the fourth has no neighbour at its right, the
    # second and third none below. Those sides get the whole bleed, and the cover says so
    # (it said "at least 0 mm", and "0.5" with a decimal point in French).
    from helpers import GOOD, pdf_reader, write_game
    from pnp.kit.build import render_to_memory
    from pnp.layout.plan import plan_kit
    from pnp.render.fonts import MEASURER
    from pnp.template.loader import load_game
    from pnp.core.units import paper_size

    game = load_game(write_game(tmp_path, GOOD.replace("count = 3", "count = 4")))
    options = PrintOptions(lang=lang, bleed=bleed)
    plan = plan_kit(game, options, paper_size("a4"), measure=MEASURER)
    fronts = [p for page in plan.pages if page.kind.value in ("sheet", "front", "cover") for p in page.placements]
    assert len(fronts) == 4
    trims = [p.trim for p in fronts]
    for p in fronts:
        t, r = p.trim, p.printed
        for side, edge in ((t.x - r.x, ("x", t.x)), (r.right - t.right, ("x", t.right)),
                           (t.y - r.y, ("y", t.y)), (r.top - t.top, ("y", t.top))):
            beside = any(o is not t and (abs(o.x - edge[1]) < 1e-6 or abs(o.right - edge[1]) < 1e-6
                                         if edge[0] == "x" else
                                         abs(o.y - edge[1]) < 1e-6 or abs(o.top - edge[1]) < 1e-6)
                         and (o.y < t.top and t.y < o.top if edge[0] == "x" else o.x < t.right and t.x < o.right)
                         for o in trims)
            assert side == pytest.approx(bleed) or (side == 0 and beside), (p.copy.piece.id, side, edge)
    data, _ = render_to_memory(game, options)
    cover = " ".join(pdf_reader(data).pages[0].extract_text().split())
    assert said in cover
