"""What a resolved face or page is made of: plain shapes in mm, ready to draw.

Every primitive is a named tuple of plain values, so two primitives are equal
exactly when they draw the same thing; that is how copies of a piece find out
what they share. Coordinates are millimetres from the top-left corner of the
frame they are drawn in (a piece's trim, or the page), y downwards, as a
designer measures a card; only the renderer turns them into PDF points.
Colours are ``#rrggbb`` (ink saver already applied) or None for "not painted".
Text sizes are in points, as type is measured.
"""

from __future__ import annotations

import marshal
from typing import Iterator, NamedTuple, Union


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


class Ellipse(NamedTuple):
    cx: float
    cy: float
    rx: float
    ry: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0
    dash: tuple[float, ...] = ()


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


class QR(NamedTuple):
    """A QR code, quiet zone included in ``size``, top-left at (x, y)."""

    data: str
    x: float
    y: float
    size: float
    color: str


class Moved(NamedTuple):
    """Primitives drawn in a frame moved by (dx, dy) mm: one copy of a
    repeated element, laid out in its own frame and moved by its step."""

    dx: float
    dy: float
    primitives: tuple


Primitive = Union[Rect, Ellipse, Line, Path, Text, Icon, Symbol, QR, Moved]


class Packed:
    """Primitives kept as one compact string of bytes until they are drawn.

    A deck of thousands of different cards holds every card's primitives from
    the moment its faces are checked until its page is drawn: as named tuples
    of floats and strings, every value is an object of its own; packed
    (:mod:`marshal`: each float in 9 bytes, no object per value), a card takes
    less than half that memory. Iterating gives back primitives equal to those
    packed, field for field and of the same types, so they draw the same bytes.
    Packing and unpacking take time, so only large kits pack
    (:data:`pnp.layout.plan.PACKED_FROM`).

    >>> shapes = (Rect(1.0, 2.0, 3.0, 4.0, fill="#ffffff"), Text((TextLine("Fox", 1.5, 8),), "bold", 12.0, "#000000"))
    >>> tuple(Packed(shapes)) == shapes
    True
    """

    __slots__ = ("data",)

    def __init__(self, primitives) -> None:
        self.data = marshal.dumps(_plain(primitives))

    def __iter__(self) -> Iterator[Primitive]:
        return iter(_unpacked(marshal.loads(self.data)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Packed) and other.data == self.data

    def __hash__(self) -> int:
        return hash(self.data)

    def __repr__(self) -> str:
        return f"Packed({tuple(self)!r})"


def _plain(primitives) -> tuple:
    """Primitives as plain tuples (marshal takes no named tuple): each its
    kind's number and its fields, a text's lines and a moved frame's
    primitives nested; the fields at the end that keep their defaults are left
    out (a card's shapes mostly keep them: a tenth of its bytes)."""
    plain = []
    for p in primitives:
        kind = type(p)
        if kind is Text:
            fields = (tuple(map(tuple, p.lines)), *p[1:])
        elif kind is Moved:
            plain.append((_MOVED, (p.dx, p.dy, _plain(p.primitives))))
            continue
        else:
            fields = tuple(p)
        defaults = _DEFAULTS[kind]
        end = len(fields)
        while end > defaults[0] and type(fields[end - 1]) is type(defaults[end]) and \
                fields[end - 1] == defaults[end]:
            end -= 1
        plain.append((_NUMBER[kind], fields[:end] if end < len(fields) else fields))
    return tuple(plain)


def _unpacked(plain: tuple) -> list:
    # tuple.__new__ makes each named tuple from its fields as they are, without
    # the checks of _make: they were a named tuple of that kind when packed.
    primitives = []
    for number, fields in plain:
        kind = _KINDS[number]
        if len(fields) < len(kind._fields):
            fields = fields + _TAILS[kind][len(fields)]   # the defaults left out
        if number == _TEXT:
            lines = tuple([_new(TextLine, line) for line in fields[0]])
            primitives.append(_new(Text, (lines, *fields[1:])))
        elif number == _MOVED:
            primitives.append(Moved(fields[0], fields[1], tuple(_unpacked(fields[2]))))
        else:
            primitives.append(_new(kind, fields))
    return primitives


_new = tuple.__new__
_KINDS = (Rect, Ellipse, Line, Path, Text, Icon, Symbol, QR, Moved)
_NUMBER = {kind: number for number, kind in enumerate(_KINDS)}
_TEXT, _MOVED = _NUMBER[Text], _NUMBER[Moved]
#: Each kind: (how many fields have no default, then each field's default by its place; None
#: where there is none). A field equal to its default packs as a value like any other, so
#: only a default of the same type may be left out: 0 for 0.0 would come back a float.
_DEFAULTS = {kind: (len(kind._fields) - len(kind._field_defaults),
                    *(kind._field_defaults.get(name, _new) for name in kind._fields))
             for kind in _KINDS}
#: Each kind: the defaults that complete its fields from each length.
_TAILS = {kind: {n: tuple(kind._field_defaults[name] for name in kind._fields[n:])
                 for n in range(len(kind._fields) - len(kind._field_defaults), len(kind._fields))}
          for kind in _KINDS}


def absolute(primitives, dx: float = 0.0, dy: float = 0.0) -> list:
    """The primitives with every :class:`Moved` frame applied: each one where it lands.

    >>> absolute([Moved(10.0, 0.0, (Rect(1.0, 2.0, 3.0, 4.0),))])
    [Rect(x=11.0, y=2.0, w=3.0, h=4.0, fill=None, stroke=None, width=0.0, radius=0.0, dash=())]
    """
    out = []
    for p in primitives:
        if isinstance(p, Moved):
            out.extend(absolute(p.primitives, dx + p.dx, dy + p.dy))
        elif not (dx or dy):
            out.append(p)
        elif isinstance(p, (Rect, Icon, QR)):
            out.append(p._replace(x=p.x + dx, y=p.y + dy))
        elif isinstance(p, (Ellipse, Symbol)):
            out.append(p._replace(cx=p.cx + dx, cy=p.cy + dy))
        elif isinstance(p, Line):
            out.append(p._replace(x1=p.x1 + dx, y1=p.y1 + dy, x2=p.x2 + dx, y2=p.y2 + dy))
        elif isinstance(p, Path):
            out.append(p._replace(segments=tuple(tuple((x + dx, y + dy) for x, y in s)
                                                 for s in p.segments)))
        elif p.rotate:
            out.append(p._replace(pivot=(p.pivot[0] + dx, p.pivot[1] + dy)))
        else:
            out.append(p._replace(lines=tuple(l._replace(x=l.x + dx, y=l.y + dy) for l in p.lines)))
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
