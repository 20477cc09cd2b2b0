"""What a resolved face or page is made of: plain shapes in mm, ready to draw.

Every primitive is a named tuple of plain values, so two primitives are equal
exactly when they draw the same thing; that is how copies of a piece find out
what they share. Coordinates are millimetres from the top-left corner of the
frame they are drawn in (a piece's trim, or the page), y downwards, as a
designer measures a card; only the renderer turns them into PDF points.
Colours are ``#rrggbb`` (ink saver already applied) or None for "not painted".
Text sizes are in points, as type is measured.

Each kind of primitive says where its ink lands (``boxes(measure)``: every box
it paints, strokes included, so a check against them can only be too careful)
and how it moves (``moved(dx, dy)``); how it is drawn is its function in
``pnp/render/draw.py``. A primitive only one kind of element draws may live in
that kind's module (:mod:`pnp.layout.kinds`), with the same two methods.
"""

from __future__ import annotations

from typing import Union

from pnp.core.records import NamedTuple
from pnp.core.units import POINTS_PER_MM
from pnp.layout.imposition import Box

#: Of the type size: how far glyphs reach above and below the baseline.
ASCENT = 0.78
DESCENT = 0.24


class Rect(NamedTuple):
    """A rectangle, its corners rounded by ``radius``."""

    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0          # stroke width, mm
    radius: float = 0.0
    dash: tuple[float, ...] = ()

    def boxes(self, measure=None) -> tuple[Box, ...]:
        half = self.width / 2 if self.stroke else 0.0
        return (Box(self.x - half, self.y - half, self.w + 2 * half, self.h + 2 * half),)

    def moved(self, dx: float, dy: float) -> Rect:
        return self._replace(x=self.x + dx, y=self.y + dy)


class Ellipse(NamedTuple):
    cx: float
    cy: float
    rx: float
    ry: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0
    dash: tuple[float, ...] = ()

    def boxes(self, measure=None) -> tuple[Box, ...]:
        half = self.width / 2 if self.stroke else 0.0
        return (Box(self.cx - self.rx - half, self.cy - self.ry - half, 2 * (self.rx + half),
                    2 * (self.ry + half)),)

    def moved(self, dx: float, dy: float) -> Ellipse:
        return self._replace(cx=self.cx + dx, cy=self.cy + dy)


class Line(NamedTuple):
    """A straight stroke; ``cap`` is the PDF line cap (0 butt, 1 round)."""

    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str
    width: float
    dash: tuple[float, ...] = ()
    cap: int = 0

    def boxes(self, measure=None) -> tuple[Box, ...]:
        half = self.width / 2
        x0, x1 = sorted((self.x1, self.x2))
        y0, y1 = sorted((self.y1, self.y2))
        return (Box(x0 - half, y0 - half, x1 - x0 + 2 * half, y1 - y0 + 2 * half),)

    def moved(self, dx: float, dy: float) -> Line:
        return self._replace(x1=self.x1 + dx, y1=self.y1 + dy, x2=self.x2 + dx, y2=self.y2 + dy)


class Path(NamedTuple):
    """Straight segments: each entry of ``segments`` is one run of points.

    A polygon is one closed segment; crop marks are many open two-point ones.
    """

    segments: tuple[tuple[tuple[float, float], ...], ...]
    closed: bool = True
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0
    dash: tuple[float, ...] = ()
    join: int = 0
    cap: int = 0

    def boxes(self, measure=None) -> tuple[Box, ...]:
        points = [point for segment in self.segments for point in segment]
        if not points:
            return ()
        half = self.width / 2 if self.stroke else 0.0
        xs, ys = [x for x, _ in points], [y for _, y in points]
        return (Box(min(xs) - half, min(ys) - half, max(xs) - min(xs) + 2 * half,
                    max(ys) - min(ys) + 2 * half),)

    def moved(self, dx: float, dy: float) -> Path:
        return self._replace(segments=tuple(tuple((x + dx, y + dy) for x, y in segment)
                                            for segment in self.segments))


class TextLine(NamedTuple):
    """One line of text: where its baseline starts, in mm."""

    text: str
    x: float
    y: float


class Text(NamedTuple):
    """Lines fitted into a box, all in one style, size and colour.

    Unturned text has its lines in the frame's coordinates. Turned text
    (``rotate`` 90, 180 or 270, counter-clockwise) is turned about
    ``pivot``; its lines' x and y are then measured from the pivot along the
    turned text (x along the baseline, y downwards across it).
    """

    lines: tuple[TextLine, ...]
    style: str                   # regular, bold, black, italic
    size: float                  # points
    color: str
    rotate: int = 0
    pivot: tuple[float, float] = (0.0, 0.0)

    def boxes(self, measure) -> tuple[Box, ...]:
        """The box of each line that prints something; turned text is turned with it, so
        the boxes are where the glyphs land. ``measure`` is the kit's Measurer."""
        ascent, descent = self.size * ASCENT / POINTS_PER_MM, self.size * DESCENT / POINTS_PER_MM
        boxes = []
        for line in self.lines:
            if not line.text.strip():
                continue
            width = measure.width(line.text, self.style, self.size) / POINTS_PER_MM
            a0, a1, b0, b1 = line.x, line.x + width, line.y - ascent, line.y + descent
            if not self.rotate:
                boxes.append(Box(a0, b0, a1 - a0, b1 - b0))
                continue
            corners = [self._turned(a, b) for a in (a0, a1) for b in (b0, b1)]
            xs, ys = [c[0] for c in corners], [c[1] for c in corners]
            boxes.append(Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))
        return tuple(boxes)

    def _turned(self, a: float, b: float) -> tuple[float, float]:
        """Where a point (a along the baseline, b down across it) of turned text lands, y downwards."""
        px, py = self.pivot
        return {90: (px + b, py - a), 180: (px - a, py - b), 270: (px - b, py + a)}[self.rotate]

    def moved(self, dx: float, dy: float) -> Text:
        if self.rotate:
            return self._replace(pivot=(self.pivot[0] + dx, self.pivot[1] + dy))
        return self._replace(lines=tuple(line._replace(x=line.x + dx, y=line.y + dy) for line in self.lines))


class Icon(NamedTuple):
    """An SVG pictogram fitted, centred and keeping its proportions, into a box."""

    source: str                  # the SVG file
    x: float
    y: float
    w: float
    h: float
    tint: str                    # the colour of its currentColor parts
    rotate: int = 0
    mirror: bool = False
    line_art: bool = False       # the ink saver's white-and-black drawing of it

    def boxes(self, measure=None) -> tuple[Box, ...]:
        """The part of its box the drawing fills: its viewBox fitted, centred, kept in proportion."""
        from pnp.template.icons import read_icon  # the SVG reader loads only for kits with icons

        _, _, vw, vh = read_icon(self.source).view_box
        turned = self.rotate in (90, 270)
        w, h = (self.h, self.w) if turned else (self.w, self.h)
        scale = min(w / vw, h / vh)
        fw, fh = vw * scale, vh * scale
        if turned:
            fw, fh = fh, fw
        return (Box(self.x + (self.w - fw) / 2, self.y + (self.h - fh) / 2, fw, fh),)

    def moved(self, dx: float, dy: float) -> Icon:
        return self._replace(x=self.x + dx, y=self.y + dy)


class Symbol(NamedTuple):
    """A player symbol (circle, star, triangle...) of width ``size`` centred on (cx, cy)."""

    shape: str
    cx: float
    cy: float
    size: float
    fill: str | None
    stroke: str | None = None
    width: float = 0.0
    dash: tuple[float, ...] = ()

    def boxes(self, measure=None) -> tuple[Box, ...]:
        half = self.size / 2 + (self.width / 2 if self.stroke else 0.0)
        return (Box(self.cx - half, self.cy - half, 2 * half, 2 * half),)

    def moved(self, dx: float, dy: float) -> Symbol:
        return self._replace(cx=self.cx + dx, cy=self.cy + dy)


class QR(NamedTuple):
    """A QR code, quiet zone included in ``size``, top-left at (x, y)."""

    data: str
    x: float
    y: float
    size: float
    color: str

    def boxes(self, measure=None) -> tuple[Box, ...]:
        return (Box(self.x, self.y, self.size, self.size),)

    def moved(self, dx: float, dy: float) -> QR:
        return self._replace(x=self.x + dx, y=self.y + dy)


class Moved(NamedTuple):
    """Primitives drawn in a frame moved by (dx, dy) mm: one copy of a
    repeated element, laid out in its own frame and moved by its step."""

    dx: float
    dy: float
    primitives: tuple

    def boxes(self, measure=None) -> tuple[Box, ...]:
        return tuple(box for p in absolute(self.primitives, self.dx, self.dy) for box in p.boxes(measure))

    def moved(self, dx: float, dy: float) -> Moved:
        return Moved(self.dx + dx, self.dy + dy, self.primitives)


Primitive = Union[Rect, Ellipse, Line, Path, Text, Icon, Symbol, QR, Moved]


def absolute(primitives, dx: float = 0.0, dy: float = 0.0) -> list:
    """The primitives with every :class:`Moved` frame applied: each one where it lands.

    >>> absolute([Moved(10.0, 0.0, (Rect(1.0, 2.0, 3.0, 4.0),))])
    [Rect(x=11.0, y=2.0, w=3.0, h=4.0, fill=None, stroke=None, width=0.0, radius=0.0, dash=())]
    """
    out = []
    for p in primitives:
        if type(p) is Moved:
            out.extend(absolute(p.primitives, dx + p.dx, dy + p.dy))
        elif not (dx or dy):
            out.append(p)
        else:
            out.append(p.moved(dx, dy))
    return out


def describe(primitives, digits: int = 2) -> list[str]:
    """One line of text per primitive, numbers rounded: a readable log of
    what a face draws, for tests and for looking at a face without a PDF.

    >>> describe([Rect(1.0, 2.0, 3.0, 4.5, fill="#ffffff")])
    ["Rect x=1 y=2 w=3 h=4.5 fill='#ffffff'"]
    """
    lines = []
    for primitive in primitives:
        parts = [type(primitive).__name__]
        defaults = type(primitive)._field_defaults
        for name, value in zip(primitive._fields, primitive):
            if name in defaults and value == defaults[name]:
                continue
            parts.append(f"{name}={_rounded(value, digits)!r}")
        lines.append(" ".join(parts))
    return lines


def _rounded(value, digits: int):
    if isinstance(value, float):
        value = round(value, digits) + 0.0  # + 0.0: no "-0"
        return int(value) if value.is_integer() else value
    if isinstance(value, tuple):
        return tuple(_rounded(v, digits) for v in value)
    return value
