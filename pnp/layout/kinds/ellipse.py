"""``ellipse``: an ellipse (a circle when it gives no ``ry``), filled or outlined.

What it accepts: ``KINDS["ellipse"]`` in pnp/template/kinds.py.
"""

from __future__ import annotations

from typing import Any, Mapping

from pnp.layout.kinds.base import CopyFace, Layer, Length, PreparedKeys, lengths, mm, paint_of, with_lengths
from pnp.layout.primitives import Ellipse

DRAWS = (Ellipse,)


def resolve(keys: Mapping[str, Any], face: CopyFace, values: Mapping[str, Any],
            frame: tuple[float, float]) -> Layer:
    fill_color, stroke = paint_of(keys, face, values)
    if fill_color is None and stroke.color is None:
        return ()
    rx, cx, cy = keys.fixed if type(keys) is PreparedKeys else lengths(keys, values, _LENGTHS)
    return (Ellipse(cx, cy, rx, mm(keys["ry"], values, "ry", low=0) if "ry" in keys else rx,
                    fill=fill_color, stroke=stroke.color, width=stroke.width, dash=stroke.dash),)


_LENGTHS = (Length("rx", low=0), Length("cx"), Length("cy"))


def prepare(keys: Mapping[str, Any], size: tuple[float, float]) -> Mapping[str, Any]:
    """The ellipse's radius and centre worked out once when every copy shares them."""
    return with_lengths(keys, _LENGTHS)
