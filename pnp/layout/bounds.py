"""Where the ink of a resolved face lands: one box per primitive, in mm.

Pure computation over primitives (mm from the face's top-left, y downwards),
for the checks a face must pass before it is drawn: a hidden piece's back is
one colour near its edges (:func:`quiet_band_problems`), and what matters on a
piece keeps clear of the knife. Each box holds everything the primitive
paints, strokes included: a check against it can only be too careful.
"""

from __future__ import annotations

from typing import Iterable, NamedTuple, Sequence

from pnp.layout.boards import text_boxes
from pnp.layout.imposition import Box
from pnp.layout.primitives import QR, Ellipse, Icon, Line, Path, Primitive, Rect, Symbol, Text, absolute
from pnp.layout.text import Measurer

#: The outer band inside a hidden piece's trim that its back paints in one colour:
#: a back printed up to 1 mm off and cut along its front's trim then shows no line
#: or motif whose distance from the edge tells one sheet from another.
QUIET_BAND = 4.0
#: What matters on a piece (text, symbols, pictograms) keeps this far inside its trim.
SAFE_ZONE = 3.0


class Inked(NamedTuple):
    """A primitive and the box its ink covers."""

    primitive: Primitive
    box: Box


def inked(primitives: Iterable[Primitive], measure: Measurer) -> list[Inked]:
    """Every primitive of a face (repeated copies where they land) with its ink's box."""
    out = []
    for p in absolute(primitives):
        kind = type(p)
        if kind is Text:
            for box in text_boxes((p,), measure):
                out.append(Inked(p, box))
            continue
        box = _box(p)
        if box is not None:
            out.append(Inked(p, box))
    return out


def _box(p: Primitive) -> Box | None:
    kind = type(p)
    if kind is Rect:
        half = p.width / 2 if p.stroke else 0.0
        return Box(p.x - half, p.y - half, p.w + 2 * half, p.h + 2 * half)
    if kind is Ellipse:
        half = p.width / 2 if p.stroke else 0.0
        return Box(p.cx - p.rx - half, p.cy - p.ry - half, 2 * (p.rx + half), 2 * (p.ry + half))
    if kind is Line:
        half = p.width / 2
        x0, x1 = sorted((p.x1, p.x2))
        y0, y1 = sorted((p.y1, p.y2))
        return Box(x0 - half, y0 - half, x1 - x0 + 2 * half, y1 - y0 + 2 * half)
    if kind is Path:
        points = [point for segment in p.segments for point in segment]
        if not points:
            return None
        half = p.width / 2 if p.stroke else 0.0
        xs, ys = [x for x, _ in points], [y for _, y in points]
        return Box(min(xs) - half, min(ys) - half, max(xs) - min(xs) + 2 * half,
                   max(ys) - min(ys) + 2 * half)
    if kind is Symbol:
        half = p.size / 2 + (p.width / 2 if p.stroke else 0.0)
        return Box(p.cx - half, p.cy - half, 2 * half, 2 * half)
    if kind is Icon:
        return _icon_box(p)
    if kind is QR:
        return Box(p.x, p.y, p.size, p.size)
    return None


def _icon_box(icon: Icon) -> Box:
    """The part of an icon's box its drawing fills: its viewBox fitted, centred, kept in proportion."""
    from pnp.template.icons import read_icon  # the SVG reader loads only for kits with icons

    _, _, vw, vh = read_icon(icon.source).view_box
    turned = icon.rotate in (90, 270)
    w, h = (icon.h, icon.w) if turned else (icon.w, icon.h)
    scale = min(w / vw, h / vh)
    fw, fh = vw * scale, vh * scale
    if turned:
        fw, fh = fh, fw
    return Box(icon.x + (icon.w - fw) / 2, icon.y + (icon.h - fh) / 2, fw, fh)


def inset(box: Box, size: tuple[float, float]) -> float:
    """How far the box keeps inside a trim of ``size`` (its least distance to an
    edge; negative when it reaches past one)."""
    w, h = size
    return min(box.x, box.y, w - box.x - box.w, h - box.y - box.h)


def is_background(p: Primitive, size: tuple[float, float]) -> bool:
    """Whether a primitive is a plain fill over the whole trim (a face's background)."""
    w, h = size
    return (type(p) is Rect and p.stroke is None and p.radius == 0 and p.x <= 0 and p.y <= 0
            and p.x + p.w >= w and p.y + p.h >= h)


def quiet_band_problems(layers: Sequence[Sequence[Primitive]], size: tuple[float, float],
                        measure: Measurer, band: float = QUIET_BAND) -> list[tuple[int, str]]:
    """What a hidden piece's back paints in its outer ``band`` mm besides one colour,
    layer by layer (a face's layers are its elements): (layer, what comes how near).

    The back must be a single colour there: the topmost background that covers
    the whole trim sets it, and nothing drawn after it may reach into the band.
    An empty list means the band is quiet.

    >>> from pnp.layout.primitives import Rect
    >>> quiet_band_problems([(Rect(-3, -3, 69.5, 94.9, fill="#112233"),),
    ...                      (Rect(4, 4, 55.5, 80.9, stroke="#ffffff", width=0.6),)], (63.5, 88.9), None)
    [(1, 'a rect comes 3.7 mm from the edge')]
    """
    start = 0
    for index, layer in enumerate(layers):
        if any(is_background(p, size) for p in absolute(layer)):
            start = index
    problems = []
    for index in range(start, len(layers)):
        primitives = list(absolute(layers[index]))
        if index == start:  # what the background's own layer draws after it
            last = max((k for k, p in enumerate(primitives) if is_background(p, size)), default=-1)
            primitives = primitives[last + 1:]
        for entry in inked(primitives, measure):
            gap = inset(entry.box, size)
            if gap < band - 1e-6:
                kind = type(entry.primitive).__name__.lower()
                problems.append((index, f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} comes "
                                        f"{max(gap, 0.0):.1f} mm from the edge"))
    return problems
