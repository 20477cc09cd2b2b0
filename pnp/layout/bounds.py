"""Where the ink of a resolved face lands, and the checks that ask: boxes in mm.

Pure computation over primitives (mm from the face's top-left, y downwards),
for the checks a face must pass before it is drawn: a hidden piece's back is
one colour near its edges (:func:`quiet_band_problems`), and what matters on a
piece keeps clear of the knife. Each kind of primitive gives its own boxes
(``boxes(measure)``, pnp.layout.primitives), holding everything it paints,
strokes included: a check against them can only be too careful.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from pnp.core.records import NamedTuple
from pnp.layout.imposition import Box
from pnp.layout.primitives import Primitive, Rect, absolute
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
    """Every primitive of a face (repeated copies where they land) with its ink's boxes
    (each kind of primitive says where its ink lands: a line of text is a box of its own)."""
    return [Inked(p, box) for p in absolute(primitives) for box in p.boxes(measure)]


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
