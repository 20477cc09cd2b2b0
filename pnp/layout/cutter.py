"""Print-and-cut for cutting machines: registration marks, keep-clear areas and cut files.

A Silhouette cutter finds three printed marks with its optical sensor and cuts
the pieces where the cut file puts them, relative to those marks. The marks
are Silhouette Studio's "Type 1" set: a filled square at the top left, an
L-shaped corner at the top right and one at the bottom left, each placed
``inset`` mm from the two paper edges it is near. Their sizes are those of
Silhouette Studio's defaults as the Inkscape extension that reproduces them
for Silhouette cutters draws them (fablabnbg/inkscape-silhouette,
``render_silhouette_regmarks.py``: ``REG_SQUARE_MM = 5``, ``REG_LINE_MM = 20``,
``REG_MARK_LINE_WIDTH_MM = 0.3``, default origin 10 mm from the left; its note
cites users who found 0.3 mm lines register best), and the inset is Silhouette
Studio's default and least, 10 mm (alan-cha/silhouette-card-maker, "Borderless
Templates": Studio will not set it below 10 mm, and a smaller inset is had by
telling Studio the paper is larger, see docs/PRINTING.md). Studio's Registration
Marks panel also sets the corners' length (kclipsto/proxies-at-home issue 165
quotes its Length and Thickness fields): ``--mark-length``, 20 mm by default.

Keep-clear areas. With its marks on, Studio hatches the parts of the page where
nothing may be printed: everything outside the rectangle the marks span, and at
each of the three marks a square as long on a side as the mark (20 mm by
default) from the mark's corner inwards, so the sensor, which looks for each
mark from inside that square, sees the mark alone. That is the area the same
extension leaves unhatched (its ``REG_SAFE_AREA_MM`` "safe area": the marks'
rectangle less a ``REG_LINE_MM`` square at each mark) and the white area of its
Studio-like template (``templates/silhouette-cameo-registration-marks-a4.svg``,
Juergen Weigert, 2019: 10 to 200 by 10 to 287 mm less a 20.3 mm square at each
of the three marks). Here each mark's :func:`keep_clear` area is that square
grown by :data:`KEEP_CLEAR` (2 mm) and run out to the paper's corner, so nothing
is printed on, beside or behind a mark (between it and the paper's edges):
no piece, no bleed (a front's bleed is cut back there), no footer. Trims also
stay inside the rectangle the marks span. Lengths are mm; the marks and areas
are given from the page's bottom-left (as the plan and the manifest have them),
the cut file from its top-left with y down (as SVG has it).
"""

from __future__ import annotations

from typing import Sequence

from pnp.core.errors import PnpError
from pnp.core.records import NamedTuple
from pnp.layout.imposition import (EPS, FOOTER_BAND, FRONT_BLEED_MIN, HIDDEN_EDGE, PRINTABLE, SIDE_LANE, Box,
                                   Frame, bottom_frame, side_frame)
from pnp.layout.outline import Outline, _n, on_sheet, outline_of
from pnp.layout.primitives import Path, Primitive, Rect

CUTTERS = ("silhouette",)
#: Silhouette Studio's default registration mark inset, mm (and its least).
DEFAULT_INSET = 10.0
SQUARE = 5.0          # the top-left square's side
LEG = 20.0            # each leg of an L-shaped corner mark: Studio's default length
THICKNESS = 0.3       # the corner marks' line width
#: Room kept free of ink beyond each mark's hatched square, mm: the least the print
#: keeps from what the sensor reads.
KEEP_CLEAR = 2.0
#: Trims keep at least this far inside the rectangle the marks span, mm.
RECT_CLEAR = 0.25
#: The least room between two pieces' trims on a cutter's sheet: its blade
#: must not cut into a neighbour, and a cut a little off must not show one.
PIECE_GAP = 1.25
#: The inset a user may give: the marks' ink stays out of the outer 5 mm
#: a home printer does not reach, and far enough from the middle to register.
MIN_INSET = 5.5
MAX_INSET = 30.0
#: The corners' length a user may give: no shorter than the square, no longer than a
#: sixth of a page's width, which would leave little of it to cut.
MIN_LENGTH = SQUARE
MAX_LENGTH = 35.0
INK = "#000000"


class Mark(NamedTuple):
    """One registration mark: ``kind`` "square" (its box) or "corner" (an L whose
    corner is (x, y) and whose legs run ``leg`` mm along ``dx`` and ``dy``)."""

    kind: str
    name: str
    x: float
    y: float
    size: float
    dx: int = 0
    dy: int = 0


def checked_cutter(cutter: str | None, inset: float, length: float = LEG) -> str | None:
    """The cutter named (lower case), or a PnpError naming what is wrong."""
    if cutter is None:
        return None
    name = cutter.lower()
    if name not in CUTTERS:
        raise PnpError(f"unknown cutter {cutter!r}; expected one of: {', '.join(CUTTERS)}")
    if not (MIN_INSET <= inset <= MAX_INSET):
        raise PnpError(f"--mark-inset must be a number of mm from {MIN_INSET:g} to {MAX_INSET:g} (the marks "
                       f"keep {PRINTABLE:g} mm from the paper's edge), got {inset:g}")
    if not (MIN_LENGTH <= length <= MAX_LENGTH):
        raise PnpError(f"--mark-length must be a number of mm from {MIN_LENGTH:g} to {MAX_LENGTH:g} (the "
                       f"length Silhouette Studio's Registration Marks panel is set to; 20 by default), got {length:g}")
    return name


def marks(page_w: float, page_h: float, inset: float, length: float = LEG) -> tuple[Mark, ...]:
    """The three marks, from the page's bottom-left: the square's box; each corner's
    corner point and the directions of its legs.

    >>> [m[:4] for m in marks(210.0, 297.0, 10.0)]
    [('square', 'top-left', 10.0, 282.0), ('corner', 'top-right', 200.0, 287.0), ('corner', 'bottom-left', 10.0, 10.0)]
    """
    return (Mark("square", "top-left", inset, page_h - inset - SQUARE, size=SQUARE),
            Mark("corner", "top-right", page_w - inset, page_h - inset, size=length, dx=-1, dy=-1),
            Mark("corner", "bottom-left", inset, inset, size=length, dx=1, dy=1))


def mark_boxes(mark: Mark) -> tuple[Box, ...]:
    """Where a mark's ink lies: the square, or each leg of a corner with its width."""
    if mark.kind == "square":
        return (Box(mark.x, mark.y, mark.size, mark.size),)
    half = THICKNESS / 2
    ends = (mark.x, mark.x + mark.dx * mark.size)
    tops = (mark.y, mark.y + mark.dy * mark.size)
    across = Box(min(ends) - half, mark.y - half, mark.size + THICKNESS, THICKNESS)
    upright = Box(mark.x - half, min(tops) - half, THICKNESS, mark.size + THICKNESS)
    return across, upright


def keep_clear_side(inset: float, length: float = LEG) -> float:
    """How far each keep-clear area runs from its corner of the paper along both edges:
    the inset, the hatched square (the mark's length, the square's side at the least),
    the corners' half line and :data:`KEEP_CLEAR`.

    >>> keep_clear_side(10.0)
    32.15
    """
    return round(inset + max(length, SQUARE) + THICKNESS / 2 + KEEP_CLEAR, 6)


def keep_clear(page_w: float, page_h: float, inset: float, length: float = LEG) -> tuple[Box, ...]:
    """The areas nothing but a mark is printed in: at each mark, a square from the paper's
    corner holding the mark, the square Silhouette Studio hatches inside it, and
    :data:`KEEP_CLEAR` more (top left, top right, bottom left).

    >>> keep_clear(210.0, 297.0, 10.0)[2]
    Box(x=0.0, y=0.0, w=32.15, h=32.15)
    """
    side = keep_clear_side(inset, length)
    return (Box(0.0, page_h - side, side, side), Box(page_w - side, page_h - side, side, side),
            Box(0.0, 0.0, side, side))


def frames(page_w: float, page_h: float, inset: float, length: float = LEG) -> tuple[Frame, ...]:
    """Where a cutter's sheet may put trims: inside the rectangle the marks span, clear of
    the footer (at the bottom, or turned in the sides) and of every keep-clear area: a band
    across between the areas above and below, a block right of the areas on the left and
    below the one on the right, or a column between the areas on the left and the right.
    The sheet carries no crop marks, so its margins need no room for them. The footer keeps
    clear of the areas at the ends of its edge."""
    edge = max(inset + THICKNESS / 2 + RECT_CLEAR, HIDDEN_EDGE)
    side = keep_clear_side(inset, length)
    footer_clear = side + 1.0
    out = []
    for base in (bottom_frame(page_w, page_h), side_frame(page_w, page_h)):
        low_x = edge if base.footer == "bottom" else max(edge, SIDE_LANE + FRONT_BLEED_MIN)
        left, right = low_x, page_w - low_x
        bottom = max(FOOTER_BAND, edge) if base.footer == "bottom" else edge
        top = page_h - edge
        for x1, y1, x2, y2 in ((left, max(bottom, side), right, min(top, page_h - side)),
                               (max(left, side), bottom, right, min(top, page_h - side)),
                               (max(left, side), bottom, min(right, page_w - side), top)):
            if x2 > x1 and y2 > y1:
                out.append(base._replace(area=Box(x1, y1, x2 - x1, y2 - y1), footer_clear=footer_clear,
                                         gap=PIECE_GAP))
    return tuple(out)


def clear_of(printed: Box, trim: Box, zones: Sequence[Box]) -> Box:
    """``printed`` (a trim and its bleed) cut back on the side facing each zone it reaches,
    never inside ``trim``: a front's bleed never prints on or beside a mark."""
    x1, y1, x2, y2 = printed.x, printed.y, printed.right, printed.top
    for zone in zones:
        if x1 >= zone.right - EPS or zone.x >= x2 - EPS or y1 >= zone.top - EPS or zone.y >= y2 - EPS:
            continue
        # The sides that can give way without reaching into the trim, and what each costs.
        cuts = []
        if zone.right <= trim.x + EPS:
            cuts.append((zone.right - x1, "left"))
        if zone.x >= trim.right - EPS:
            cuts.append((x2 - zone.x, "right"))
        if zone.top <= trim.y + EPS:
            cuts.append((zone.top - y1, "bottom"))
        if zone.y >= trim.top - EPS:
            cuts.append((y2 - zone.y, "top"))
        if not cuts:
            raise ValueError(f"a piece at {trim.x:.1f}, {trim.y:.1f} mm lies on a registration mark")
        side = min(cuts)[1]
        if side == "left":
            x1 = zone.right
        elif side == "right":
            x2 = zone.x
        elif side == "bottom":
            y1 = zone.top
        else:
            y2 = zone.y
    return Box(x1, y1, x2 - x1, y2 - y1)


def marks_drawing(page_w: float, page_h: float, inset: float, length: float = LEG) -> tuple[Primitive, ...]:
    """The marks as primitives, from the page's top-left (as a page's drawing is)."""
    out: list[Primitive] = []
    for mark in marks(page_w, page_h, inset, length):
        if mark.kind == "square":
            out.append(Rect(mark.x, page_h - mark.y - mark.size, mark.size, mark.size, fill=INK))
            continue
        corner = (mark.x, page_h - mark.y)
        legs = ((corner[0] + mark.dx * mark.size, corner[1]), corner, (corner[0], corner[1] - mark.dy * mark.size))
        out.append(Path((legs,), closed=False, stroke=INK, width=THICKNESS))
    return tuple(out)


def manifest_entry(kind: str, page_w: float, page_h: float, inset: float, *, length: float = LEG) -> dict:
    """The manifest's ``cutter``: the machine, the inset and length of its marks, each mark and
    each keep-clear area, in mm from the bottom-left."""
    def entry(mark: Mark) -> dict:
        if mark.kind == "square":
            return {"kind": "square", "at": mark.name, "x": mark.x, "y": round(mark.y, 3),
                    "w": mark.size, "h": mark.size}
        return {"kind": "corner", "at": mark.name, "x": round(mark.x, 3), "y": round(mark.y, 3),
                "leg": mark.size, "legs_toward": [mark.dx, mark.dy], "thickness": THICKNESS}

    return {"kind": kind, "mark_inset_mm": inset, "mark_length_mm": length, "piece_gap_mm": PIECE_GAP,
            "marks": [entry(m) for m in marks(page_w, page_h, inset, length)],
            "keep_clear": [{"at": mark.name, **dict(zip(("x", "y", "w", "h"), box.rounded()))}
                           for mark, box in zip(marks(page_w, page_h, inset, length),
                                                keep_clear(page_w, page_h, inset, length))]}


def cut_svg(page_w: float, page_h: float, outlines: Sequence[tuple[Outline, int, float, float]]) -> bytes:
    """A page-sized SVG cut file in mm, y down: one closed path per outline (its piece's
    outline, turned by a number of degrees), each placed by its box's top-left (left, top)
    mm from the page's top-left, and nothing else."""
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(page_w)}mm" height="{_n(page_h)}mm" '
            f'viewBox="0 0 {_n(page_w)} {_n(page_h)}">\n')
    paths = "".join(f'<path d="{piece_path(outline, rotation, left, top)}" fill="none" stroke="#000000" '
                    f'stroke-width="0.1"/>\n' for outline, rotation, left, top in outlines)
    return (head + paths + "</svg>\n").encode()


def piece_path(outline: Outline, rotation: int, left: float, top: float) -> str:
    """A piece's outline as it lies on the sheet, as one closed SVG path."""
    if rotation % 180 == 90 and outline.shape == "hex":
        # Turned a quarter, a flat-topped hexagon is pointed at the top: its corners, turned as
        # the renderer turns the piece (y up, from the turned box's bottom-left).
        height = outline.width
        corners = on_sheet(outline, 0.0, 0.0, rotation, points=outline.points())
        return "M" + "L".join(f"{_n(left + u)},{_n(top + height - v)}" for u, v in corners) + "Z"
    return turned_outline(outline, rotation).svg_path(left, top)


def turned_outline(outline: Outline, rotation: int) -> Outline:
    """An outline as its piece lies a number of degrees round (quarter turns): a quarter
    turn swaps its box's sides (a hexagon's own points then go to :func:`piece_path`)."""
    if rotation % 180 == 90:
        return outline._replace(width=outline.height, height=outline.width)
    return outline


def item_outline(component, item: dict) -> tuple[Outline, int]:
    """A manifest item's trim, and the degrees it lies turned on its page; a board's part is
    cut along its own box."""
    if "sheet_part" in item:
        return Outline("rectangle", item["w"], item["h"]), 0
    return outline_of(component), item.get("rotation", 0)


def cut_files(game, manifest: dict, stem: str) -> dict[str, bytes]:
    """The cut file of every page with registration marks, by name (``STEM_cut_PAGE.svg``);
    each such page of ``manifest`` is given its file's name and SHA-256."""
    import hashlib

    page_w, page_h = manifest["page_size_mm"]
    files: dict[str, bytes] = {}
    components = {c.id: c for c in game.components}
    for page in manifest["pages"]:
        if not page.get("registration_marks"):
            continue
        placed = [(*item_outline(components[item["component"]], item), item["x"], page_h - item["y"] - item["h"])
                  for item in page["items"]]
        name = f"{stem}_cut_{page['number']:03d}.svg"
        files[name] = cut_svg(page_w, page_h, placed)
        page["cut_file"] = name
        page["cut_file_sha256"] = hashlib.sha256(files[name]).hexdigest()
    return files
