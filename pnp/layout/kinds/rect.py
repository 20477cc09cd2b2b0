"""``rect``: a rectangle, filled or outlined, its corners rounded by ``radius``.

What it accepts: ``KINDS["rect"]`` in pnp/template/kinds.py.
"""

from __future__ import annotations

from typing import Any, Mapping

from pnp.layout.kinds.base import CopyFace, Layer, mm, paint_of
from pnp.layout.primitives import Rect

DRAWS = (Rect,)


def resolve(keys: Mapping[str, Any], face: CopyFace, values: Mapping[str, Any],
            frame: tuple[float, float]) -> Layer:
    fill_color, stroke = paint_of(keys, face, values)
    if fill_color is None and stroke.color is None:
        return ()
    return (Rect(mm(keys["x"], values, "x"), mm(keys["y"], values, "y"), mm(keys["w"], values, "w"),
                 mm(keys["h"], values, "h"), fill=fill_color, stroke=stroke.color, width=stroke.width,
                 radius=mm(keys.get("radius", 0), values, "radius", low=0), dash=stroke.dash),)
