"""The Halali! kit: tile counts, tiles that fit the spaces, a board that splits cleanly,
duplex backs, both languages and the type floor."""

from __future__ import annotations

import io
import re
from collections import Counter
from functools import lru_cache

import pytest

from pnp.kit.build import render_to_memory
from pnp.template.language import evaluate
from pnp.template.model import PrintOptions
from pnp.template.icons import load_icon
from pnp.template.loader import load_shipped_game, templates_dir
from scoring.halali import BOX as TILES, OWN, POINTS

# Each side's own tiles; the rest are green (neutral). 8 blue, 10 brown and 30 green tiles.
TEAMS = {tile: next((side for side, own in OWN.items() if tile in own), "green") for tile in TILES}


@lru_cache(maxsize=None)
def kit(lang: str = "en", paper: str = "a4", space_size: float | None = None,
        **options) -> tuple[bytes, dict]:
    """Render once per combination; the whole file stays around a second."""
    overrides = {"space_size": space_size} if space_size is not None else None
    game = load_shipped_game("halali", overrides)
    return render_to_memory(game, PrintOptions(lang=lang, paper=paper, **options))


def items(manifest: dict, component: str, face: str = "front") -> list[dict]:
    return [item for page in manifest["pages"] for item in page["items"]
            if item["component"] == component and item["face"] == face]


@pytest.mark.parametrize("lang, paper", [("fr", "letter"), ("en", "a4")])
def test_tile_counts_values_and_tree_designs(lang, paper):
    _, manifest = kit(lang, paper)
    tiles = items(manifest, "tiles")
    assert len(tiles) == 48
    assert Counter(t["piece"] for t in tiles) == TILES
    assert all(t["points"] == POINTS[t["piece"]] and t["team"] == TEAMS[t["piece"]] for t in tiles)
    assert Counter(t["team"] for t in tiles) == {"blue": 8, "brown": 10, "green": 30}
    trees = Counter(t["design"] for t in tiles if t["piece"] == "tree")
    assert trees == {"deciduous": 8, "conifer": 7}
    assert Counter(i["piece"] for i in items(manifest, "reference")) == {"reference": 2}
    assert Counter(i["piece"] for i in items(manifest, "board")) == {"board": 1}


@pytest.mark.parametrize("space_size", [None, 40])
def test_tiles_fit_the_spaces_and_the_board_is_seven_spaces_and_its_frame(space_size):
    game = load_shipped_game("halali", {"space_size": space_size} if space_size else None)
    space, frame = game.params["space_size"], game.params["frame"]
    assert space == (space_size or 25)
    _, manifest = kit("en", "a4", space_size)
    for tile in items(manifest, "tiles"):
        assert (tile["w"], tile["h"]) == (space - 2, space - 2)  # 1 mm of play on each side
    board = game.component("board")
    assert board.size == (7 * space + 2 * frame, 7 * space + 2 * frame)
    for item in items(manifest, "board"):
        whole = item.get("region", item)
        assert whole["w"] <= board.size[0] and whole["h"] <= board.size[1]


@pytest.mark.parametrize("lang, paper", [("en", "a4"), ("fr", "letter")])
def test_the_default_board_fits_one_page(lang, paper):
    _, manifest = kit(lang, paper)
    (board,) = items(manifest, "board")
    assert "sheet_part" not in board
    # 7 x 25 mm spaces in an 8.75 mm frame: A4's width less 8.75 mm each side, room for a
    # crop mark beyond a 1 mm bleed where a home printer prints.
    assert (board["w"], board["h"]) == (192.5, 192.5)
    page_w, page_h = manifest["page_size_mm"]
    assert board["x"] >= 8.75 and board["x"] + board["w"] <= page_w - 8.75
    assert board["y"] >= 13 and board["y"] + board["h"] <= page_h - 8.75


@pytest.mark.parametrize("lang, paper", [("en", "a4"), ("fr", "letter")])
def test_a_bigger_board_is_split_into_overlapping_parts_that_cover_it(lang, paper):
    _, manifest = kit(lang, paper, 40)
    parts = items(manifest, "board")
    frame = load_shipped_game("halali").params["frame"]
    side = 7 * 40 + 2 * frame
    assert len(parts) == 4
    assert sorted(p["sheet_part"] for p in parts) == ["1/4", "2/4", "3/4", "4/4"]
    # Parts go on pages printed on one side (two short parts, or a reference card, may share one).
    for page in manifest["pages"]:
        if any(i["component"] == "board" for i in page["items"]):
            assert page["kind"] == "sheet"
    regions = [p["region"] for p in parts]
    for axis, size in (("x", "w"), ("y", "h")):
        spans = sorted({(r[axis], r[axis] + r[size]) for r in regions})
        assert spans[0][0] == 0 and spans[-1][1] == pytest.approx(side, abs=0.01)
        for (_, end), (start, _) in zip(spans, spans[1:]):
            assert end - start >= 10  # neighbours share at least 10 mm
        # The join a player sees (the middle of a shared strip) lies between two spaces.
        for start, _ in spans[1:]:
            cut = start + 6
            assert (cut - frame) % 40 == pytest.approx(0, abs=0.01), cut
    # Together the parts cover the board: every point of a 2 mm grid lies in some part.
    for x in range(0, int(side) + 1, 2):
        for y in range(0, int(side) + 1, 2):
            assert any(r["x"] <= x <= r["x"] + r["w"] and r["y"] <= y <= r["y"] + r["h"] for r in regions)
    # Each part is printed at the size of its region.
    assert all((p["w"], p["h"]) == (p["region"]["w"], p["region"]["h"]) for p in parts)


@pytest.mark.parametrize("lang, paper, space_size", [("fr", "letter", None), ("en", "a4", 40)])
def test_backs_land_behind_their_fronts(lang, paper, space_size):
    _, manifest = kit(lang, paper, space_size)
    page_w = manifest["page_size_mm"][0]
    pages = manifest["pages"]
    backs = [i for i, page in enumerate(pages) if page["kind"] == "back" and not page.get("alignment")]
    assert backs and all(pages[i]["components"] == ["tiles"] for i in backs)
    for index in backs:
        front, back = pages[index - 1], pages[index]
        assert front["kind"] == "front"
        assert len(back["items"]) == len(front["items"])
        for f, b in zip(front["items"], back["items"]):
            assert (b["piece"], b["copy"], b["face"]) == (f["piece"], f["copy"], "back")
            assert b["x"] == pytest.approx(page_w - f["x"] - f["w"], abs=0.002)
            assert (b["y"], b["w"], b["h"]) == (f["y"], f["w"], f["h"])
    assert len(items(manifest, "tiles", "back")) == 48


def test_one_back_for_all_tiles_that_no_turn_or_flip_changes():
    tiles = load_shipped_game("halali").component("tiles")
    assert tiles.back is not None and all(p.back is None for p in tiles.pieces)
    w, h = tiles.size
    names = {"w": w, "h": h, "space_size": 24, "frame": 12}
    background, emblem = tiles.back
    assert background.type == "background" and emblem.type == "icon"
    box = {k: evaluate(emblem.props[k], names) for k in ("x", "y", "w", "h")}
    assert box["x"] + box["w"] / 2 == pytest.approx(w / 2)
    assert box["y"] + box["h"] / 2 == pytest.approx(h / 2)
    assert box["w"] == box["h"]
    icon = load_icon(str(templates_dir() / "icons"), emblem.props["name"])
    vx, vy, vw, vh = icon.view_box
    cx, cy = vx + vw / 2, vy + vh / 2

    def points(transform):
        found = set()
        for shape in icon.shapes:
            assert shape.transform is None
            for op in shape.ops:
                coords = op[1:]
                for x, y in zip(coords[::2], coords[1::2]):
                    u, v = transform(x - cx, y - cy)
                    found.add((shape.fill, shape.stroke, round(u + cx, 2), round(v + cy, 2)))
        return found

    same = points(lambda x, y: (x, y))
    for turn in (lambda x, y: (-y, x), lambda x, y: (-x, -y), lambda x, y: (y, -x),
                 lambda x, y: (-x, y), lambda x, y: (x, -y), lambda x, y: (y, x)):
        assert points(turn) == same


def test_the_hunter_aims_at_the_top_edge():
    tiles = load_shipped_game("halali").component("tiles")
    w, h = tiles.size
    names = {"w": w, "h": h, "space_size": 25, "frame": 9.5}
    (arrow,) = [e for e in tiles.front if e.props.get("when") == "id=hunter"]
    points = [(evaluate(x, names), evaluate(y, names)) for x, y in arrow.props["points"]]
    apex = min(points, key=lambda p: p[1])
    # Near the top edge, 3 mm and more inside the cut.
    assert apex[0] == pytest.approx(w / 2) and 3 <= apex[1] < 0.15 * h
    assert all(y < 0.25 * h for _, y in points)


def test_the_default_space_size_is_the_largest_whose_board_fits_one_sheet_of_either_paper():
    from pnp.layout.imposition import fit_grid
    from pnp.core.units import paper_size

    def fits(space_size: float) -> bool:
        board = load_shipped_game("halali", {"space_size": space_size}).component("board")
        return all(fit_grid(*paper_size(paper), *board.size, bleed=3.0, allow_rotate=board.rotate) is not None
                   for paper in ("a4", "letter"))

    space = load_shipped_game("halali").params["space_size"]
    assert fits(space) and not fits(space + 1)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_tile_badges_are_at_least_5_mm_and_nothing_comes_within_2_mm_of_a_tile_edge(lang):
    from pnp.layout.faces import resolve_piece_face
    from pnp.layout.primitives import Ellipse, Icon, Path, Rect, Text, absolute
    from pnp.render.fonts import MEASURER

    game = load_shipped_game("halali")
    w, h = game.component("tiles").size
    inside = lambda x0, y0, x1, y1: x0 >= 2 - 1e-6 and y0 >= 2 - 1e-6 and x1 <= w - 2 + 1e-6 and y1 <= h - 2 + 1e-6
    for tile in TILES:
        face = resolve_piece_face(game, PrintOptions(lang=lang), MEASURER, component_id="tiles", piece_id=tile)
        drawn = absolute(face.primitives)[1:]  # the background fills the bleed, as it must
        for p in drawn:
            if isinstance(p, Icon):
                assert inside(p.x, p.y, p.x + p.w, p.y + p.h), (tile, p.source)
                assert min(p.w, p.h) >= 5 or "infinity" in p.source, (tile, p.source)
            elif isinstance(p, Ellipse):
                assert inside(p.cx - p.rx, p.cy - p.ry, p.cx + p.rx, p.cy + p.ry), tile
            elif isinstance(p, Rect):
                assert inside(p.x, p.y, p.x + p.w, p.y + p.h), tile
            elif isinstance(p, Path):
                points = [pt for segment in p.segments for pt in segment]
                assert inside(min(x for x, _ in points), min(y for _, y in points),
                              max(x for x, _ in points), max(y for _, y in points)), tile
            elif isinstance(p, Text):
                assert all(2 <= line.x and 2 <= line.y - p.size / 2.83 for line in p.lines), tile
        badges = [p for p in drawn if isinstance(p, Icon) and ("moves" in p.source or "disc" in p.source)]
        # The movement badge's disc is two thirds of the badge: at least 5 mm.
        assert len(badges) == 1 and badges[0].w * 0.66 >= 5 - 1e-6, tile
        [points] = [p for p in drawn if isinstance(p, Ellipse) and p.cx < w / 2 and p.cy < h / 2
                    and p.rx < w / 4]
        assert 2 * points.rx >= 6, tile


def test_english_and_french_print_their_own_words():
    from pypdf import PdfReader

    expected = {"en": ["Halali!", "Lumberjack", "Pheasant", "Final phase", "EXIT"],
                "fr": ["Chasse gardée", "Bûcheron", "Faisan", "Phase finale", "SORTIE",
                       "Renard", "Ours", "Chasseur", "Canard", "Arbre"]}
    for lang, words in expected.items():
        data, manifest = kit(lang, "letter" if lang == "fr" else "a4")
        text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
        for word in words:
            assert word in text, (lang, word)
        assert manifest["lang"] == lang


TF = rb"/[^\s/]+ ([\d.]+) Tf"  # "/F1+0 9.25 Tf": a font and its size


def _font_sizes(data: bytes) -> list[float]:
    """Every font size set in the pages and in the forms they place (forms are not scaled)."""
    from pypdf import PdfReader

    sizes = []
    seen = set()

    def walk(resources):
        for xobject in (resources or {}).get("/XObject", {}).values():
            xobject = xobject.get_object()
            if id(xobject) in seen or xobject.get("/Subtype") != "/Form":
                continue
            seen.add(id(xobject))
            sizes.extend(float(s) for s in re.findall(TF, xobject.get_data()))
            walk(xobject.get("/Resources"))

    for page in PdfReader(io.BytesIO(data)).pages:
        sizes.extend(float(s) for s in re.findall(TF, page.get_contents().get_data()))
        walk(page["/Resources"])
    return sizes


@pytest.mark.parametrize("lang, paper, space_size", [("fr", "letter", None), ("en", "a4", 40)])
def test_no_text_is_printed_below_six_points(lang, paper, space_size):
    sizes = _font_sizes(kit(lang, paper, space_size)[0])
    assert sizes and min(sizes) >= 6


def test_ink_saver_and_no_duplex_still_render():
    _, saver = kit("fr", "a4", ink_saver=True)
    assert len(items(saver, "tiles")) == 48 and saver["ink_saver"] is True
    _, simplex = kit("en", "letter", duplex=False)
    assert items(simplex, "tiles", "back") == []
    assert {p["kind"] for p in simplex["pages"]} == {"cover", "sheet"}


def test_french_tile_names_are_the_french_edition_terms():
    catalog = load_shipped_game("halali").catalogs["fr"]
    assert catalog.get("game.name") == "Chasse gardée"
    assert {k: catalog.get(f"card.{k}") for k in TILES} == {
        "bear": "Ours", "fox": "Renard", "lumberjack": "Bûcheron", "hunter": "Chasseur",
        "duck": "Canard", "pheasant": "Faisan", "tree": "Arbre"}
    assert "Rudi Hoffmann" in catalog.get("game.credits")
    assert "Rudi Hoffmann" in load_shipped_game("halali").catalogs["en"].get("game.credits")
