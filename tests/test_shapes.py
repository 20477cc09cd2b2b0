"""Shaped pieces and a designer's own words: round and hex trims, rounded corners, a game's own
player colours, its own credits and licence, commands that name a template by its file.

The kit under test is ``tests/fixtures/shapes/lantern-isles.toml``: 20 mm round tokens in two
colours of its own and a shared one, flat-topped hex tiles, mini cards with rounded corners and
a score pad used as it comes out of the printer.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PIL import Image

from pnp.core.errors import PnpError, TemplateError
from pnp.layout.furniture import CUT_GUIDE_INK
from pnp.layout.outline import on_sheet, outline_of
from pnp.layout.plan import plan_kit
from pnp.layout.primitives import Path as PathShape
from pnp.template.model import Face, PrintOptions
from pnp.layout.print_order import print_order_problems
from pnp.render.fonts import MEASURER
from pnp.export.services import THE_GAME_CRAFTER, not_made
from pnp.template.loader import load_game, load_shipped_game
from pnp.core.units import paper_size
from helpers import CATALOG, GOOD, write_game

FIXTURE = Path(__file__).parent / "fixtures" / "shapes"
TEMPLATE = FIXTURE / "lantern-isles.toml"


@pytest.fixture(scope="module")
def game():
    return load_game(TEMPLATE)


def planned(game, **options):
    return plan_kit(game, PrintOptions(**options), paper_size(options.get("paper", "a4")), measure=MEASURER)


def guides(page) -> list[tuple[tuple[float, float], ...]]:
    return [segment for p in page.drawing if isinstance(p, PathShape) and p.stroke == CUT_GUIDE_INK
            for segment in p.segments]


def bbox(points) -> tuple[float, float, float, float]:
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return min(xs), min(ys), max(xs), max(ys)


def rounded(box) -> tuple[float, ...]:
    return tuple(round(v, 2) for v in box)


# ---------------------------------------------------------------- the template's keys

def test_shapes_load_and_corner_radius_means_rounded(game):
    shapes = {c.id: (c.shape, c.corner_radius, c.gutter) for c in game.components}
    assert shapes == {"lanterns": ("circle", 0.0, True), "islands": ("hex", 0.0, True),
                      "tides": ("rounded", 3.0, False), "score-pad": ("rectangle", 0.0, False)}
    assert {c.shape for c in load_shipped_game("card-hunter").components} == {"rounded", "rectangle"}


@pytest.mark.parametrize(("keys", "expected"), [
    ('shape = "oval"', "components.cards.shape: expected 'rectangle' or 'rounded' or 'circle' or 'hex', got 'oval'"),
    ('shape = "rounded"', "corner_radius: expected a radius above 0 for shape = 'rounded'"),
    ('shape = "circle"\ncorner_radius = 2', "corner_radius: expected no corner_radius with shape = 'circle'"),
    ("corner_radius = 40", "corner_radius: expected at most half the shorter side (31.75 mm)"),
    ('shape = "hex"\ncut = false', "shape: expected 'rectangle' or 'rounded' on a sheet, a board or a page"),
])
def test_shape_and_corners_must_agree(tmp_path, keys, expected):
    with pytest.raises(TemplateError) as raised:
        load_game(write_game(tmp_path, GOOD.replace('size = "poker"', 'size = "poker"\n' + keys)))
    assert expected in str(raised.value)


COLOURED = GOOD.replace('size = "poker"', 'size = "poker"\nsets = ["gold", "red"]') + """
[colors.gold]
rgb = "#d9a21b"
ink = "#2b2118"
symbol = "heart"
"""
NAMED = CATALOG + '[color]\ngold = "{gold}"\n'


def test_a_template_colour_is_a_set_with_its_own_name_and_symbol(tmp_path):
    path = write_game(tmp_path, COLOURED, NAMED.format(name="Tiny", fox="Fox", gold="Gold"),
                      NAMED.format(name="Petit", fox="Renard", gold="Or"))
    game = load_game(path)
    assert game.components[0].sets == ("gold", "red")
    assert game.colors["gold"].symbol == "heart" and game.colors["gold"].rgb == "#d9a21b"
    assert game.catalogs["fr"].get("color.gold") == "Or"


def test_two_sets_sharing_a_symbol_or_a_colour_without_a_name_are_refused(tmp_path):
    shared = COLOURED.replace('symbol = "heart"', 'symbol = "diamond"')   # red's symbol
    with pytest.raises(TemplateError, match="'gold' and 'red' share the symbol 'diamond'"):
        load_game(write_game(tmp_path, shared, NAMED.format(name="T", fox="F", gold="Gold"),
                             NAMED.format(name="P", fox="R", gold="Or")))
    with pytest.raises(TemplateError, match="the colour 'gold' has no name in en"):
        load_game(write_game(tmp_path, COLOURED))


# ---------------------------------------------------------------- the sheets

@pytest.fixture(scope="module")
def plan(game):
    return planned(game)


def test_every_shaped_front_has_its_cut_guide_and_no_back_has_one(plan):
    fronts = 0
    for page in plan.pages:
        drawn = guides(page)
        page_h = plan.page_size[1]
        expected = []
        for placement in page.placements:
            shape = placement.copy.component.shape
            if placement.face is not Face.FRONT or shape == "rectangle":
                continue
            fronts += 1
            t = placement.trim
            box = (t.x, page_h - t.y - t.h, t.x + t.w, page_h - t.y)
            if shape == "rounded":
                corners = [bbox(s) for s in drawn if all(box[0] - 1e-6 <= x <= box[2] + 1e-6
                                                          and box[1] - 1e-6 <= y <= box[3] + 1e-6 for x, y in s)]
                assert len(corners) >= 4
            else:
                expected.append(box)
        closed = sorted(rounded(bbox(s)) for s in drawn if s[0] == s[-1])
        assert closed == sorted(rounded(box) for box in expected)
        if page.kind.value == "back":
            assert drawn == []
    assert fronts == 18 + 8 + 8


def test_a_turned_hex_keeps_its_outline_on_the_turned_trim(game):
    big = game._replace(components=tuple(c._replace(size=(100.0, 86.6)) if c.id == "islands" else c
                                         for c in game.components))
    plan = planned(big)
    page_h = plan.page_size[1]
    turned = [(p, page) for page in plan.pages for p in page.placements
              if p.copy.component.id == "islands" and p.face is Face.FRONT and p.rotation]
    assert turned, "the big hexes lie turned, four to a sheet"
    for placement, page in turned:
        t = placement.trim
        assert (t.w, t.h) == pytest.approx((86.6, 100.0))
        box = (t.x, page_h - t.y - t.h, t.x + t.w, page_h - t.y)
        assert rounded(box) in [rounded(bbox(s)) for s in guides(page)]
    # A turned flat-topped hex stands on a point: its lowest point is the middle of the trim's bottom.
    outline = outline_of(big.component("islands"))
    points = on_sheet(outline, 0, 0, 90, points=outline.points())
    assert min(points, key=lambda p: p[1]) == pytest.approx((86.6 / 2, 0))


def test_round_pieces_never_share_a_cut_and_the_kit_stays_fair(game, tmp_path):
    from pnp.kit.build import render_game

    for paper in ("a4", "letter"):
        written = render_game(game, PrintOptions(lang="fr", paper=paper), tmp_path)
        manifest = json.loads(written.manifest.read_text(encoding="utf-8"))
        assert print_order_problems(manifest) == []
        for page in manifest["pages"]:
            round_ = [i for i in page["items"] if i["component"] in ("lanterns", "islands")]
            for a in round_:
                for b in round_:
                    if a is not b:
                        apart = max(b["x"] - (a["x"] + a["w"]), a["x"] - (b["x"] + b["w"]),
                                    b["y"] - (a["y"] + a["h"]), a["y"] - (b["y"] + b["h"]))
                        assert apart >= 6 - 1e-6


# ---------------------------------------------------------------- the cover's words

def cover_text(game, lang="en") -> str:
    plan = planned(game, lang=lang)
    return " ".join(line.text for page in plan.pages if page.kind.value == "cover"
                    for p in page.drawing if hasattr(p, "lines") for line in p.lines)


def test_a_designers_own_cover_says_its_credits_and_licence_and_no_fan_copy(game):
    words = cover_text(game)
    assert "CC BY-NC 4.0" in words and "Playtesting: the Thursday club" in words
    assert "fan-made" not in words and "laid out by the pnp" in words
    shipped = cover_text(load_shipped_game("halali"))
    assert "fan-made printable copy" in shipped


def test_the_plan_sends_no_page_used_as_printed_to_the_marks(game):
    for lang, uncut, marks in (("en", "cut the page in two", "cut along the marks beneath it"),
                               ("fr", "coupez la page en deux", "coupez le long des repères placés dessous")):
        words = cover_text(game, lang)
        assert uncut in words and marks not in words
    assert "round each corner along its grey arc" in cover_text(game)


# ---------------------------------------------------------------- commands and exports

def test_messages_name_a_template_by_its_file(game):
    sheet = game.component("score-pad")
    assert "`pnp render --template " in not_made(THE_GAME_CRAFTER, game, sheet)
    assert str(TEMPLATE.name) in not_made(THE_GAME_CRAFTER, game, sheet)
    halali = load_shipped_game("halali")
    assert game.command.startswith("pnp render --template ") and halali.command == "pnp render halali"


def test_shaped_exports_are_transparent_outside_and_tabletop_simulator_knows_their_shape(game, tmp_path):
    from pnp.export.run import export_game
    from pnp.export.services import GENERIC

    options = PrintOptions()
    png = export_game(game, options, "png", GENERIC, dpi=100, order="front-back", components=["lanterns",
                                                                                              "islands", "tides"],
                      out=tmp_path)
    for name in ("lanterns/gold-lantern-1-01-front.png", "islands/beach-01-front.png",
                 "tides/tide-low-01-front.png"):
        image = Image.open(png.folder / name)
        w, h = image.size
        assert image.mode == "RGBA"
        assert image.getpixel((0, 0))[3] == 0 and image.getpixel((w // 2, h // 2))[3] == 255
    tts = export_game(game, options, "tts", GENERIC, dpi=100, order="front-back", components=None, out=tmp_path)
    saved = json.loads(tts.main_file.read_text(encoding="utf-8"))["ObjectStates"]
    types = {o["Nickname"]: o["CustomImage"]["CustomTile"]["Type"] for o in saved if o["Name"] == "Custom_Tile"}
    assert types["Lantern tokens"] == 2 and types["Island tiles"] == 1 and types["Score pad"] == 0
    assert Image.open(tts.folder / "lanterns/gold-lantern-1-01-front.png").mode == "RGBA"
    with pytest.raises(PnpError, match="pnp render --template"):
        export_game(game, options, "png", THE_GAME_CRAFTER, dpi=None, order="front-back", components=["score-pad"],
                    out=tmp_path)


def test_a_round_piece_made_as_a_services_square_product_is_said_so(game, tmp_path):
    from pnp.export.run import export_game

    chit = game._replace(components=tuple(c._replace(size=(19.05, 19.05)) if c.id == "lanterns" else c
                                          for c in game.components))
    written = export_game(chit, PrintOptions(), "png", THE_GAME_CRAFTER, dpi=None, order="front-back",
                          components=["lanterns"],
                          out=tmp_path)
    assert written.sizes == ("lanterns (MediumSquareChit) 300 x 300 px; made as a square medium square chit: "
                             "pnp lists no round products of The Game Crafter; cut it to shape yourself, or "
                             "choose the service's own round product when you upload",)
    image = Image.open(written.folder / "lanterns/gold-lantern-1-01-front.png")
    assert image.mode == "RGB"      # a service's product is cut from a full image
