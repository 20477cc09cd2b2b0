"""Print-and-cut: a cutting machine's marks, cut files and Print Then Cut pictures.

The cut files are read back as SVG (:func:`pnp.template.icons.parse_icon`, the project's own SVG
reader) and set against the PDF page rendered by PDFium: each outline runs along its
piece's trim, as printed, within 0.1 mm. The marks are measured on the rendered page.
The whole kit printed for a cutter passes the checks the usual kit passes (print order,
fairness of hidden backs a millimetre off, nothing in the outer 5 mm), reused from
tests/test_fairness.py.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.kit.build import render_to_memory
from pnp.cli import app
from pnp.template.icons import parse_icon
from pnp.layout import cutter
from pnp.layout.outline import on_sheet, outline_of
from pnp.template.model import PrintOptions
from pnp.layout.print_order import pdf_page_count, print_order_problems
from pnp.template.loader import game_files, load_game, load_shipped_game
from home_printer import Backs, deck_problems, edge_ink, render_region
from helpers import GOOD, path_points, write_game

PX = 20            # pixels a millimetre: 0.05 mm
NEAR = 0.1         # mm: what the issue allows between a cut line and its trim


#: A kit of round tokens, hexagonal tiles and rounded cards (tests/test_shapes.py's).
SHAPES = str(Path(__file__).parent / "fixtures" / "shapes" / "lantern-isles.toml")


def _game(name: str):
    return load_game(Path(name)) if name.endswith(".toml") else load_shipped_game(name)


@lru_cache(maxsize=None)
def kit(game_id: str, paper: str, inset: float = cutter.DEFAULT_INSET, **options):
    files: dict[str, bytes] = {}
    pdf, manifest = render_to_memory(_game(game_id),
                                     PrintOptions(paper=paper, cutter="silhouette", mark_inset=inset, **options),
                                     None, files)
    return pdf, manifest, files


def _document(pdf: bytes):
    import pypdfium2 as pdfium

    return pdfium.PdfDocument(pdf)


def _distance(point, polygon) -> float:
    """How far a point is from a closed polygon's edge."""
    px, py = point
    best = math.inf
    for (ax, ay), (bx, by) in zip(polygon, polygon[1:] + polygon[:1]):
        dx, dy = bx - ax, by - ay
        t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
        best = min(best, math.hypot(px - ax - t * dx, py - ay - t * dy))
    return best


def _ink_box(image, dark: int = 250):
    """The box of what is printed in an image (pixels darker than paper), or None."""
    from PIL import Image

    return Image.eval(image.convert("L"), lambda v: 255 if v < dark else 0).getbbox()


@pytest.mark.parametrize("game_id, shapes", [("card-hunter", {("rounded", 3.0), ("rectangle", 0.0)}),
                                              (SHAPES, {("circle", 0.0), ("hex", 0.0), ("rounded", 3.0)})])
def test_every_outline_runs_along_its_pieces_trim_as_printed(game_id, shapes):
    """Card Hunter's rounded cards, tokens and trackers, and a kit of round tokens and hexagonal
    tiles, without bleed so that what is printed of each piece is its trim: each cut line on it
    to 0.1 mm, rounded corners, circles and turned hexagons included. Marks 6 mm in and 5 mm
    long keep little of the page clear: Card Hunter's setup aid (190 x 250 mm) is cut too."""
    pdf, manifest, files = kit(game_id, "a4", 6.0, bleed=0.0, mark_length=5.0)
    game = _game(game_id)
    document = _document(pdf)
    page_w, page_h = manifest["page_size_mm"]
    marked = [p for p in manifest["pages"] if p.get("registration_marks")]
    assert marked and all(p["kind"] in ("front", "sheet") for p in marked)
    assert sorted(files) == sorted(p["cut_file"] for p in marked)
    shapes_seen = set()
    for page in marked:
        text = files[page["cut_file"]].decode()
        assert f'width="{page_w:g}mm" height="{page_h:g}mm" viewBox="0 0 {page_w:g} {page_h:g}"' in text
        assert re.findall(r"<(\w+)", text) == ["svg"] + ["path"] * len(page["items"])   # nothing else
        icon = parse_icon(text)
        for shape, item in zip(icon.shapes, page["items"]):
            assert shape.ops[-1] == ("Z",)   # closed
            component = game.component(item["component"])
            outline, rotation = cutter.item_outline(component, item)
            # The trim as the renderer turns its piece (pnp.layout.outline.on_sheet), y down.
            trim = [(x, page_h - y) for x, y in on_sheet(outline, item["x"], item["y"], rotation,
                                                         points=outline.points(0.05))]
            cut = path_points(shape.ops)
            assert max(_distance(p, trim) for p in cut) <= NEAR, (page["number"], item)
            # ... and it goes all the way round: every point of the trim has the cut line near it.
            assert max(_distance(p, cut) for p in trim[::7]) <= NEAR, (page["number"], item)
            shapes_seen.add((outline.shape, round(outline.corner, 1), rotation % 180))
            # What is printed of the piece, no bleed: its trim. The cut line's box is on it.
            image = render_region(document[page["number"] - 1], page_h, item["x"] - 0.2, item["y"] - 0.2,
                                  item["w"] + 0.4, item["h"] + 0.4, PX)
            box = _ink_box(image)
            xs, ys = [x for x, _ in cut], [y for _, y in cut]
            printed = (item["x"] - 0.2 + box[0] / PX, page_h - (item["y"] + item["h"] + 0.2) + box[1] / PX,
                       item["x"] - 0.2 + box[2] / PX, page_h - (item["y"] + item["h"] + 0.2) + box[3] / PX)
            for found, wanted in zip(printed, (min(xs), min(ys), max(xs), max(ys))):
                assert abs(found - wanted) <= NEAR + 1 / PX, (page["number"], item, printed)
    assert {seen[:2] for seen in shapes_seen} >= shapes, shapes_seen


def _near(found, wanted, near: float) -> bool:
    return found is not None and all(abs(a - b) <= near for a, b in zip(found, wanted))


def _dark_box(document, number: int, page_h: float, box) -> tuple[float, float, float, float] | None:
    """Where black ink lies in a box of a page (x, y from the bottom-left, w, h), in mm
    from the page's top-left: left, top, right, bottom."""
    x, y, w, h = box
    image = render_region(document[number - 1], page_h, x, y, w, h, PX)
    found = _ink_box(image, 128)
    if found is None:
        return None
    return (x + found[0] / PX, page_h - y - h + found[1] / PX, x + found[2] / PX, page_h - y - h + found[3] / PX)


@pytest.mark.parametrize("paper, inset, length", [("a4", 10.0, 20.0), ("letter", 6.0, 10.0)])
def test_the_registration_marks_are_silhouette_studios_and_nothing_else_is_near_them(paper, inset, length):
    """A 5 mm square at the top left, corners of 0.3 mm lines ``length`` long at the top right and
    bottom left, each ``inset`` from its edges, as the manifest says; on every front the machine
    cuts, nothing else printed in the square Silhouette Studio hatches inside each mark (as long
    as the mark on a side), 2 mm around it, nor between it and the paper's edges: measured on
    the rendered page."""
    pdf, manifest, _ = kit("hunting-fever", paper, inset, mark_length=length)
    page_w, page_h = manifest["page_size_mm"]
    assert (cutter.SQUARE, cutter.LEG, cutter.THICKNESS, cutter.DEFAULT_INSET) == (5.0, 20.0, 0.3, 10.0)
    entry = manifest["cutter"]
    assert entry["kind"] == "silhouette" and entry["mark_inset_mm"] == inset and entry["mark_length_mm"] == length
    assert entry["marks"] == [
        {"kind": "square", "at": "top-left", "x": inset, "y": round(page_h - inset - 5, 3), "w": 5.0, "h": 5.0},
        {"kind": "corner", "at": "top-right", "x": round(page_w - inset, 3), "y": round(page_h - inset, 3),
         "leg": length, "legs_toward": [-1, -1], "thickness": 0.3},
        {"kind": "corner", "at": "bottom-left", "x": inset, "y": inset, "leg": length, "legs_toward": [1, 1],
         "thickness": 0.3}]
    # Each area runs from its corner of the paper past the hatched square, 2 mm more.
    side = inset + length + 0.15 + 2.0
    assert [(a["at"], a["x"], a["y"], a["w"], a["h"]) for a in entry["keep_clear"]] == [
        ("top-left", 0.0, round(page_h - side, 3), round(side, 3), round(side, 3)),
        ("top-right", round(page_w - side, 3), round(page_h - side, 3), round(side, 3), round(side, 3)),
        ("bottom-left", 0.0, 0.0, round(side, 3), round(side, 3))]
    document = _document(pdf)
    t = cutter.THICKNESS / 2
    near = 1.5 / PX   # the rendered edge of a shape, to a pixel and a half
    fronts = [p for p in manifest["pages"] if p.get("registration_marks")]
    assert fronts
    for page in fronts:
        n = page["number"]
        # Each mark, rendered: where its ink is.
        square = _dark_box(document, n, page_h, (inset - 1, page_h - inset - 6, 7, 7))
        assert _near(square, (inset, inset, inset + 5, inset + 5), near), square
        right, top = page_w - inset, inset   # the top-right corner, from the top-left
        across = _dark_box(document, n, page_h, (right - length - 1, page_h - top - t - 0.5, length, 2 * t + 1))
        assert _near(across, (right - length, top - t, right - 1, top + t), near), across
        left, bottom = inset, page_h - inset
        upright = _dark_box(document, n, page_h, (left - t - 0.5, inset + 1, 2 * t + 1, length))
        assert _near(upright, (left - t, bottom - length, left + t, bottom - 1), near), upright
        # Every keep-clear area, rendered: whatever is printed in it is a mark's own ink.
        inks = [b.grow(near, near, near, near) for m in cutter.marks(page_w, page_h, inset, length)
                for b in cutter.mark_boxes(m)]
        for area in entry["keep_clear"]:
            zone = cutter.Box(area["x"], area["y"], area["w"], area["h"])
            image = render_region(document[n - 1], page_h, zone.x, zone.y, zone.w, zone.h, PX).convert("L")
            width = image.size[0]
            for index, value in enumerate(image.tobytes()):
                if value < 250:
                    x, y = zone.x + (index % width + 0.5) / PX, zone.top - (index // width + 0.5) / PX
                    inside = zone.grow(-near, -near, -near, -near)   # a neighbour's edge, rendered, may blur in
                    assert not (inside.x <= x <= inside.right and inside.y <= y <= inside.top) or \
                        any(b.x <= x <= b.right and b.y <= y <= b.top for b in inks), (n, area["at"], x, y)
    assert print_order_problems(manifest, pdf_page_count(pdf)) == []
    # Back pages carry no marks: the cutter reads the front.
    assert not any(p.get("registration_marks") for p in manifest["pages"] if p["kind"] == "back")


def test_check_manifest_refuses_a_piece_in_a_keep_clear_area_or_an_area_too_small():
    import copy

    _, manifest, _ = kit("card-hunter", "a4")
    page = next(p for p in manifest["pages"] if p.get("registration_marks"))
    moved = copy.deepcopy(manifest)
    item = next(p for p in moved["pages"] if p["number"] == page["number"])["items"][0]
    item["x"], item["y"] = 12.0, 12.0
    assert any("keep-clear area of the bottom-left registration mark" in p for p in print_order_problems(moved))
    shrunk = copy.deepcopy(manifest)
    shrunk["cutter"]["keep_clear"][1]["w"] -= 3
    assert any("keep-clear area of the top-right registration mark is smaller" in p
               for p in print_order_problems(shrunk))
    missing = copy.deepcopy(manifest)
    del missing["cutter"]["keep_clear"]
    assert any("no keep-clear area" in p for p in print_order_problems(missing))


def _cards_63x88(tmp_path):
    text = GOOD.replace('size = "poker"', 'size = "63x88"\ncorner_radius = 3').replace("count = 3", "count = 9")
    return load_game(write_game(tmp_path, text))


def test_nine_poker_cards_a_sheet_between_short_marks_6_mm_in_on_a4(tmp_path):
    """Marks 5 mm long (Studio's Length set to 5 mm) 6 mm in leave their keep-clear areas
    13.15 mm from the corners: three rows of cards fit between those above and below."""
    game = _cards_63x88(tmp_path)
    _, manifest = render_to_memory(game, PrintOptions(paper="a4", cutter="silhouette", mark_inset=6, mark_length=5))
    fronts = [p for p in manifest["pages"] if p.get("registration_marks")]
    assert [len(p["items"]) for p in fronts] == [9]
    assert print_order_problems(manifest) == []   # 1.25 mm apart, clear of the marks, inside them
    # The kits' own poker cards (63.5 x 88.9 mm) fit nine to an A4 sheet too.
    _, manifest, _ = kit("card-hunter", "a4", 6.0, mark_length=5.0)
    counts = [sum(i["component"] == "monster-cards" for i in p["items"])
              for p in manifest["pages"] if p.get("registration_marks")]
    assert max(counts) == 9
    # Studio's default 20 mm marks keep more clear: six.
    _, manifest, _ = kit("card-hunter", "a4", 6.0)
    counts = [sum(i["component"] == "monster-cards" for i in p["items"])
              for p in manifest["pages"] if p.get("registration_marks")]
    assert max(counts) == 6


@pytest.mark.parametrize("paper", ("a4", "letter"))
@pytest.mark.parametrize("game_id", tuple(game_files()))
def test_a_kit_for_a_cutter_prints_in_order_fairly_and_within_the_printable_area(game_id, paper):
    pdf, manifest, files = kit(game_id, paper)
    assert print_order_problems(manifest, pdf_page_count(pdf)) == []
    assert edge_ink(pdf, manifest) == []
    assert deck_problems(Backs(pdf, manifest)) == []
    assert any(p.get("registration_marks") for p in manifest["pages"]) and files
    # A front the machine cuts has no crop marks; its bleed never reaches the marks.
    assert all(p["kind"] in ("front", "sheet") for p in manifest["pages"] if p.get("registration_marks"))


def test_check_manifest_vouches_for_the_cut_files_and_refuses_a_changed_one(tmp_path):
    runner = CliRunner()
    result = runner.invoke(app, ["render", "halali", "--cutter", "silhouette", "--mark-inset", "6",
                                 "--paper", "letter", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "halali_en_letter.pdf"
    cut = sorted(tmp_path.glob("halali_en_letter_cut_*.svg"))
    assert cut
    assert runner.invoke(app, ["check-manifest", str(pdf)]).exit_code == 0
    cut[0].write_text(cut[0].read_text().replace("<path", "<path ", 1))
    result = runner.invoke(app, ["check-manifest", str(pdf)])
    assert result.exit_code == 1 and "not the cut file this manifest was written with" in result.output
    for bad, said in ((["--cutter", "brother"], "unknown cutter 'brother'"),
                      (["--cutter", "silhouette", "--mark-inset", "4"], "--mark-inset must be"),
                      (["--cutter", "silhouette", "--mark-length", "4"], "--mark-length must be"),
                      (["--cutter", "silhouette", "--mark-length", "nan"], "--mark-length must be"),
                      (["--cutter", "silhouette", "--fold"], "do not go together"),
                      (["--mark-inset", "6"], "give --cutter too"),
                      (["--mark-length", "10"], "give --cutter too")):
        result = runner.invoke(app, ["render", "halali", "--out", str(tmp_path / "x"), *bad])
        assert result.exit_code == 1 and said in result.output


def test_a_new_render_leaves_no_cut_file_it_did_not_write(tmp_path):
    runner = CliRunner()
    render = ["render", "halali", "--paper", "letter", "--out", str(tmp_path)]
    assert runner.invoke(app, [*render, "--cutter", "silhouette"]).exit_code == 0
    made = sorted(tmp_path.glob("halali_en_letter_cut_*.svg"))
    stale = tmp_path / "halali_en_letter_cut_999.svg"
    stale.write_text("<svg/>")
    other = tmp_path / "halali_fr_letter_cut_001.svg"
    other.write_text("<svg/>")
    assert runner.invoke(app, [*render, "--cutter", "silhouette"]).exit_code == 0
    assert sorted(tmp_path.glob("halali_en_letter_cut_*.svg")) == made
    assert runner.invoke(app, render).exit_code == 0
    assert not list(tmp_path.glob("halali_en_letter_cut_*.svg"))
    assert other.exists()  # another kit's cut file is not this render's to remove


def test_cricut_pictures_fit_print_then_cut_at_300_dpi_with_their_outlines(tmp_path):
    from PIL import Image

    runner = CliRunner()
    result = runner.invoke(app, ["export", "card-hunter", "--format", "cricut", "--out", str(tmp_path),
                                 "--component", "monster-cards", "--component", "trackers",
                                 "--component", "scoresheet"])
    assert result.exit_code == 0, result.output
    assert "scoresheet: a page read as it is printed" in result.output
    folder = tmp_path / "card-hunter_en_cricut"
    pngs = sorted(folder.rglob("*.png"))
    assert {p.parent.name for p in pngs} == {"monster-cards", "trackers"}
    game = load_shipped_game("card-hunter")
    outlines = {"monster-cards": 0, "trackers": 0}
    for png in pngs:
        with Image.open(png) as image:
            w, h = image.size
            assert image.mode == "RGB" and round(image.info["dpi"][0]) == 300
        assert max(w, h) <= 9.25 * 300 and min(w, h) <= 6.75 * 300
        svg = png.with_suffix(".svg").read_text()
        w_mm, h_mm = w * 25.4 / 300, h * 25.4 / 300
        found = re.search(r'width="([\d.]+)mm" height="([\d.]+)mm" viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
        assert _near([float(v) for v in found.groups()], (w_mm, h_mm, w_mm, h_mm), 0.001), found.groups()
        shapes = parse_icon(svg).shapes
        outlines[png.parent.name] += len(shapes)
        size = outline_of(game.component(png.parent.name))
        for shape in shapes:
            xs, ys = zip(*path_points(shape.ops))
            assert 0 <= min(xs) and max(xs) <= w_mm and 0 <= min(ys) and max(ys) <= h_mm
            assert sorted((round(max(xs) - min(xs), 2), round(max(ys) - min(ys), 2))) == \
                sorted((round(size.width, 2), round(size.height, 2)))
    assert outlines == {c: game.component(c).piece_count() for c in outlines}
    assert {p.name for p in folder.iterdir()} == {"monster-cards", "trackers"}
    # Exported again into the same place: the earlier export, outlines and all, is replaced.
    again = runner.invoke(app, ["export", "card-hunter", "--format", "cricut", "--out", str(tmp_path),
                                "--component", "trackers"])
    assert again.exit_code == 0, again.output
    assert {p.name for p in folder.iterdir()} == {"trackers"}


def test_a_turned_piece_is_cut_turned():
    from pnp.template.icons import parse_path
    from pnp.layout.outline import Outline

    for outline, rotation, box in ((Outline("hex", 40.0, 34.641), 90, (10, 20, 34.641, 40.0)),
                                   (Outline("rounded", 63.5, 88.9, 3.0), 270, (10, 20, 88.9, 63.5)),
                                   (Outline("circle", 30.0, 20.0), 90, (10, 20, 20.0, 30.0))):
        xs, ys = zip(*path_points(parse_path(cutter.piece_path(outline, rotation, 10, 20))))
        found = (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
        assert _near(found, box, 1e-3), (outline, found)
    # The hexagon turned has a point at the middle of its top and bottom sides.
    points = path_points(parse_path(cutter.piece_path(Outline("hex", 40.0, 34.641), 90, 0, 0)))
    assert (17.32, 0.0) in {(round(x, 2), round(y, 2)) for x, y in points}


def test_the_cover_asks_no_hand_to_round_corners_the_machine_cuts():
    def cover_text(pdf: bytes) -> str:
        page = _document(pdf)[0]
        return page.get_textpage().get_text_range().replace("\r\n", " ").replace("\n", " ")

    by_hand, _ = render_to_memory(_game("hunting-hunting-beavers"), PrintOptions(paper="a4"))
    by_machine = kit("hunting-hunting-beavers", "a4")[0]
    assert "Rounded corners" in cover_text(by_hand)
    assert "Rounded corners" not in cover_text(by_machine) and "Silhouette" in cover_text(by_machine)
