"""What prints badly, found on resolved faces: pure computation over primitives in mm.

Each check of an element looks at the primitives one element of a face draws
(its *layer*) and says what would print badly, with a measure: text or
symbols within :data:`SAFE_ZONE` of the cut, text too small, lines too thin,
large areas of heavy ink. The caller (:mod:`pnp.preflight.run`) says which
piece, face and element the layer is. The checks of a whole component (its
set colours, its hidden backs) are here too.

Adding a check of an element is one function of :data:`ElementCheck`'s shape
and a line in :data:`ELEMENT_CHECKS`.
"""

from __future__ import annotations

import math
from typing import Callable, Iterable, Mapping, Sequence

from pnp.core.records import NamedTuple
from pnp.layout.bounds import SAFE_ZONE, inked
from pnp.layout.kinds.image import GOOD_DPI, Picture
from pnp.layout.outline import Outline
from pnp.layout.symbols import symbol_points
from pnp.layout.primitives import QR, Ellipse, Icon, Line, Path, Primitive, Rect, Symbol, Text, absolute
from pnp.layout.text import Measurer
from pnp.core.units import POINTS_PER_MM
from pnp.preflight import colours
from pnp.template.icons import Icon as IconDrawing, Label
from pnp.template.model import Element, PlayerColor

ERROR, WARNING, NOTE = "error", "warning", "note"
SEVERITIES = (ERROR, WARNING, NOTE)
#: Text under this size is refused by printers' and readers' eyes alike (pt).
TEXT_ERROR_PT = 6.0
#: Text under this size is hard to read at arm's length across a table (pt).
TEXT_WARNING_PT = 7.0
#: Lines thinner than this break up or vanish on home and office printers (mm; 0.28 pt).
THIN_LINE_MM = 0.1
#: Most printers' limit of total ink, C + M + Y + K in per cent.
INK_LIMIT = 300.0
#: A surface at least this large (mm², 10 cm²) is a large area for ink.
LARGE_AREA_MM2 = 1000.0


class Found(NamedTuple):
    """One thing an element prints badly: how bad, which check, the measure, what it means."""

    severity: str
    check: str
    measure: str
    message: str


class Piece(NamedTuple):
    """What the checks of an element need to know of the piece it is drawn on."""

    size: tuple[float, float]   # the trim, mm
    outline: Outline            # its shape
    cut: bool                   # cut out (crop marks or a guide), not used as printed


#: A check of one element: (element, its layer, the piece, the measurer) -> what it finds.
ElementCheck = Callable[[Element, Sequence[Primitive], Piece, Measurer], Iterable[Found]]


def what(element: Element, layer: Sequence[Primitive] = ()) -> str:
    """An element as a report names it: its key path and type, and the start of its text.

    >>> what(Element("text", {"text": "@card.wolf"}, "game.toml: components.cards.front[3]"))
    "components.cards.front[3] (text '@card.wolf')"
    """
    path = element.where.rpartition(": ")[2]
    text = next((line.text for p in layer if type(p) is Text for line in p.lines), None)
    if text is None and element.type == "text":
        text = str(element.props.get("text", ""))
    if text is None and element.type == "image":
        text = next((p.name for p in absolute(layer) if type(p) is Picture), None) or str(element.props.get("file", ""))
    if text:
        shown = text if len(text) <= 24 else text[:23] + "…"
        return f"{path} ({element.type} {shown!r})"
    return f"{path} ({element.type})"


# ------------------------------------------------------------------ the safe zone
#: The primitives that matter on a piece: text, pictograms, symbols, codes.
_MATTERS = (Text, Symbol, Icon, QR)


def inside_outline(outline: Outline, x: float, y: float) -> float:
    """How far a point (mm from the trim's top-left, y down) lies inside the trim:
    its distance to the nearest edge, negative outside.

    >>> inside_outline(Outline("rectangle", 60, 90), 2, 45), inside_outline(Outline("circle", 20, 20), 10, 10)
    (2, 10.0)
    >>> round(inside_outline(Outline("circle", 20, 20), 2, 2), 2)
    -1.31
    """
    w, h = outline.width, outline.height
    if outline.shape == "rectangle" or (outline.shape == "rounded" and not outline.corner):
        return min(x, y, w - x, h - y)
    if outline.shape == "circle" and w == h:
        return w / 2 - math.hypot(x - w / 2, y - h / 2)
    if outline.shape == "rounded":
        r = outline.corner
        cx, cy = min(max(x, r), w - r), min(max(y, r), h - r)
        if cx != x and cy != y:  # in a corner's square: measured from its arc
            return r - math.hypot(x - cx, y - cy)
        return min(x, y, w - x, h - y)
    # An oval or a hex: the nearest side of the outline as a polygon (convex, so the least
    # distance to the line of any side is the distance to the outline).
    points = outline.points()
    area = sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1]))
    sign = 1.0 if area > 0 else -1.0
    nearest = math.inf
    for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1]):
        length = math.hypot(x2 - x1, y2 - y1)
        if length:
            nearest = min(nearest, sign * ((x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)) / length)
    return nearest


def _ink_points(entry) -> tuple[list[tuple[float, float]], float]:
    """Points that bound where a primitive's ink lands (y down), and how far past them it spreads."""
    p = entry.primitive
    if type(p) is Symbol:
        # The symbol's own outline: a star's box reaches far beyond its points.
        return ([(p.cx + x, p.cy - y) for x, y in symbol_points(p.shape, 0.0, 0.0, p.size)],
                p.width / 2 if p.stroke else 0.0)
    box = entry.box
    return [(x, y) for x in (box.x, box.x + box.w) for y in (box.y, box.y + box.h)], 0.0


def safe_zone(element: Element, layer: Sequence[Primitive], piece: Piece, measure: Measurer) -> Iterable[Found]:
    """Text, symbols, pictograms and codes keep :data:`SAFE_ZONE` mm inside the cut of a
    piece that is cut out: a cut a little off never clips them."""
    if not piece.cut:
        return
    nearest = math.inf
    for entry in inked(layer, measure):
        if isinstance(entry.primitive, _MATTERS):
            points, spread = _ink_points(entry)
            nearest = min(nearest, *(inside_outline(piece.outline, x, y) - spread for x, y in points))
    if nearest < SAFE_ZONE - 1e-6:
        where = "past the cut" if nearest < 0 else "from the cut"
        yield Found(ERROR, "safe-zone", f"{abs(nearest):.1f} mm {where}",
                    f"inside the {SAFE_ZONE:g} mm safe zone, where a cut a little off clips it")


# ------------------------------------------------------------------ text sizes
def _icon_scale(icon: Icon) -> tuple[IconDrawing, float]:
    """An icon's drawing and how many mm one of its units takes, as it is fitted in its box."""
    from pnp.template.icons import read_icon

    drawing = read_icon(icon.source)
    _, _, vw, vh = drawing.view_box
    w, h = (icon.h, icon.w) if icon.rotate in (90, 270) else (icon.w, icon.h)
    return drawing, min(w / vw, h / vh)


def _transform_scale(transform: tuple[float, ...] | None) -> float:
    if not transform:
        return 1.0
    a, b, c, d = transform[:4]
    return math.sqrt(abs(a * d - b * c))


def _sizes(layer: Sequence[Primitive]) -> Iterable[tuple[float, str]]:
    """Every text size a layer prints (pt), with where it comes from: its texts, its icons' labels."""
    for p in absolute(layer):
        if type(p) is Text and any(line.text.strip() for line in p.lines):
            yield p.size, ""
        elif type(p) is Icon:
            drawing, scale = _icon_scale(p)
            for label in drawing.labels:
                if label.text.strip():
                    yield label.size * _transform_scale(label.transform) * scale * POINTS_PER_MM, \
                        f" in the icon {p.source.rpartition('/')[2]}"


def text_size(element: Element, layer: Sequence[Primitive], piece: Piece, measure: Measurer) -> Iterable[Found]:
    """Text under :data:`TEXT_ERROR_PT` is an error, under :data:`TEXT_WARNING_PT` a warning."""
    smallest = min(_sizes(layer), default=None)
    if smallest is None or smallest[0] >= TEXT_WARNING_PT - 1e-6:
        return
    size, source = smallest
    written = element.props.get("size")
    shrunk = (f", shrunk from {written:g} pt to fit" if isinstance(written, (int, float)) and not source
              and written > size + 1e-6 else "")
    if size < TEXT_ERROR_PT - 1e-6:
        yield Found(ERROR, "text-size", f"{size:.2g} pt{source}{shrunk}", f"under {TEXT_ERROR_PT:g} pt: too small to read")
    else:
        yield Found(WARNING, "text-size", f"{size:.2g} pt{source}{shrunk}",
                    f"under {TEXT_WARNING_PT:g} pt: hard to read across a table")


# ------------------------------------------------------------------ thin lines
def _widths(layer: Sequence[Primitive]) -> Iterable[tuple[float, str]]:
    """Every stroke width a layer prints (mm), with where it comes from."""
    for p in absolute(layer):
        kind = type(p)
        if kind is Line or (kind in (Rect, Ellipse, Path, Symbol) and _outlined(p.stroke, p.fill)):
            yield p.width, ""
        elif kind is Icon:
            drawing, scale = _icon_scale(p)
            for shape in drawing.shapes:
                if type(shape) is not Label and shape.stroke_opacity > 0 and _outlined(shape.stroke, shape.fill):
                    yield shape.stroke_width * _transform_scale(shape.transform) * scale, \
                        f" in the icon {p.source.rpartition('/')[2]}"


def _outlined(stroke: str | None, fill: str | None) -> bool:
    """Whether a stroke prints as a line: a stroke in its shape's own fill colour only
    makes the shape a little larger."""
    return stroke is not None and (fill is None or stroke.lower() != fill.lower())


def thin_lines(element: Element, layer: Sequence[Primitive], piece: Piece, measure: Measurer) -> Iterable[Found]:
    """Lines thinner than :data:`THIN_LINE_MM` break up or vanish when printed."""
    thinnest = min(_widths(layer), default=None)
    if thinnest is None or thinnest[0] >= THIN_LINE_MM - 1e-9:
        return
    width, source = thinnest
    measure_text = "a hairline (0 mm)" if width <= 0 else f"a {width:.2g} mm line"
    yield Found(ERROR, "thin-line", measure_text + source,
                f"thinner than {THIN_LINE_MM:g} mm: it breaks up or vanishes on paper")


# ------------------------------------------------------------------ heavy ink
def _area(p: Primitive) -> tuple[float, str] | None:
    """A filled surface's area (mm²) and its size in words."""
    kind = type(p)
    if kind is Rect:
        return p.w * p.h, f"{p.w:.0f} x {p.h:.0f} mm"
    if kind is Ellipse:
        return math.pi * p.rx * p.ry, f"{2 * p.rx:.0f} x {2 * p.ry:.0f} mm"
    if kind is Path and p.closed:
        area = 0.0
        for segment in p.segments:
            area += abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(segment, segment[1:] + segment[:1]))) / 2
        return area, f"{area / 100:.0f} cm²"
    return None


def heavy_ink(element: Element, layer: Sequence[Primitive], piece: Piece, measure: Measurer) -> Iterable[Found]:
    """A large area (:data:`LARGE_AREA_MM2` or more) whose colour takes more than
    :data:`INK_LIMIT` per cent of ink (see :func:`pnp.preflight.colours.ink`)."""
    worst = None
    for p in absolute(layer):
        fill = getattr(p, "fill", None)
        if not fill:
            continue
        area = _area(p)
        if area is None or area[0] < LARGE_AREA_MM2:
            continue
        total = colours.ink(fill).total
        if total > INK_LIMIT and (worst is None or total > worst[0]):
            worst = (total, fill, area[1])
    if worst is not None:
        total, fill, size = worst
        kind = "rich black" if colours.is_rich_black(fill) else "dark colour"
        yield Found(WARNING, "ink", f"{total:.0f}% ink over {size} ({fill}, {kind})",
                    f"over the {INK_LIMIT:.0f}% most printers allow: it may smear, curl the sheet and "
                    "show through to the back (a lighter colour, or --ink-saver at home)")


# ------------------------------------------------------------------ pictures' resolution
def resolution(element: Element, layer: Sequence[Primitive], piece: Piece, measure: Measurer) -> Iterable[Found]:
    """A picture under :data:`~pnp.layout.kinds.image.GOOD_DPI` at its printed size prints soft
    (one under the element's ``min_dpi`` is refused by the render itself)."""
    pictures = [p for p in absolute(layer) if type(p) is Picture]
    if not pictures:
        return
    worst = min(pictures, key=lambda p: p.dpi)
    if worst.dpi < GOOD_DPI - 0.05:
        yield Found(WARNING, "resolution", f"{worst.dpi:.0f} dpi printed {worst.iw:.1f} x {worst.ih:.1f} mm",
                    f"under {GOOD_DPI:g} dpi at its printed size: it may print soft (a larger file, or a smaller box)")


#: Every check of one element, in the order a report gives them.
ELEMENT_CHECKS: tuple[ElementCheck, ...] = (safe_zone, text_size, thin_lines, heavy_ink, resolution)


def check_layer(element: Element, layer: Sequence[Primitive], piece: Piece, measure: Measurer) -> list[Found]:
    """What every check of an element finds in its layer."""
    return [found for check in ELEMENT_CHECKS for found in check(element, layer, piece, measure)]


# ------------------------------------------------------------------ set colours
class Likeness(NamedTuple):
    """Two set colours that look alike to someone."""

    first: str
    second: str
    vision: str
    difference: float   # CIEDE2000


def alike(colors: Mapping[str, PlayerColor], sets: Sequence[str]) -> list[Likeness]:
    """Every pair of a component's set colours that a vision of :data:`~colours.VISIONS`
    cannot tell apart (nearer than :data:`~colours.APART_DE00`), the nearest vision of each pair.

    >>> from pnp.template.model import PlayerColor
    >>> alike({"red": PlayerColor("red", "#cc3333", "#fff", "circle"),
    ...        "green": PlayerColor("green", "#669933", "#fff", "star")}, ["red", "green"])[0][:3]
    ('red', 'green', 'deuteranopia')
    """
    found = []
    for index, first in enumerate(sets):
        for second in sets[index + 1:]:
            a, b = colors[first].rgb, colors[second].rgb
            nearest = min((colours.difference(a, b, vision), vision) for vision in colours.VISIONS)
            if nearest[0] < colours.APART_DE00:
                found.append(Likeness(first, second, nearest[1], nearest[0]))
    return found


def paints(layer: Sequence[Primitive], color: str) -> bool:
    """Whether a layer paints ``color`` (a surface, a line or a symbol in it)."""
    color = color.lower()
    for p in absolute(layer):
        painted = (getattr(p, "fill", None), getattr(p, "stroke", None), p.color if type(p) is Text else None)
        if any(c is not None and c.lower() == color for c in painted):
            return True
    return False


def shows_symbol(layers: Sequence[Sequence[Primitive]], symbol: str) -> bool:
    """Whether a face shows a player symbol."""
    return any(type(p) is Symbol and p.shape == symbol for layer in layers for p in absolute(layer))
