"""``line``: a straight stroke with round ends, in ink unless it names its colour.

What it accepts: ``KINDS["line"]`` in pnp/template/kinds.py.
"""

from __future__ import annotations

from typing import Any, Mapping

from pnp.layout.kinds.base import CopyFace, Layer, mm, stroke_of
from pnp.layout.primitives import Line

DRAWS = (Line,)


def resolve(keys: Mapping[str, Any], face: CopyFace, values: Mapping[str, Any],
            frame: tuple[float, float]) -> Layer:
    if "stroke" not in keys:
        keys = {**keys, "stroke": "ink"}
    stroke = stroke_of(keys, face, values)
    if stroke.color is None:
        return ()
    return (Line(mm(keys["x1"], values, "x1"), mm(keys["y1"], values, "y1"), mm(keys["x2"], values, "x2"),
                 mm(keys["y2"], values, "y2"), stroke=stroke.color, width=stroke.width, dash=stroke.dash,
                 cap=1),)
