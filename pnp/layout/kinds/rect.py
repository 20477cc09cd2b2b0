"""``rect``: a rectangle, filled or outlined, its corners rounded by ``radius``.

What it accepts: ``KINDS["rect"]`` in pnp/template/kinds.py.
"""

from __future__ import annotations

from typing import Any, Mapping

from pnp.layout.kinds.base import CopyFace, Layer, Length, PreparedKeys, lengths, paint_of, with_lengths
from pnp.layout.primitives import Rect

DRAWS = (Rect,)


def resolve(keys: Mapping[str, Any], face: CopyFace, values: Mapping[str, Any],
            frame: tuple[float, float]) -> Layer:
    fill_color, stroke = paint_of(keys, face, values)
    if fill_color is None and stroke.color is None:
        return ()
    x, y, w, h, radius = keys.fixed if type(keys) is PreparedKeys else lengths(keys, values, _LENGTHS)
    return (Rect(x, y, w, h, fill=fill_color, stroke=stroke.color, width=stroke.width, radius=radius,
                 dash=stroke.dash),)


_LENGTHS = (Length("x"), Length("y"), Length("w"), Length("h"), Length("radius", low=0, default=0))


def prepare(keys: Mapping[str, Any], size: tuple[float, float]) -> Mapping[str, Any]:
    """The rectangle's lengths worked out once when every copy shares them (most frames)."""
    return with_lengths(keys, _LENGTHS)
