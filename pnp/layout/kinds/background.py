"""``background``: the piece's whole face in one colour, bleed included.

What it accepts: ``KINDS["background"]`` in pnp/template/kinds.py.
"""

from __future__ import annotations

from typing import Any, Mapping

from pnp.layout.kinds.base import CopyFace, Layer
from pnp.layout.primitives import Rect

DRAWS = (Rect,)


def resolve(keys: Mapping[str, Any], face: CopyFace, values: Mapping[str, Any],
            frame: tuple[float, float]) -> Layer:
    color = face.inks.fill(face.color(keys["fill"], values))
    if color is None:
        return ()
    bleed = face.bleed
    return (Rect(-bleed, -bleed, face.width + 2 * bleed, face.height + 2 * bleed, fill=color),)
