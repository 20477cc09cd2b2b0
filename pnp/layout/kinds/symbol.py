"""``symbol``: a player symbol (circle, star...), by default the piece's own in its set's ink.

What it accepts: ``KINDS["symbol"]`` in pnp/template/kinds.py (and its defaults,
``SYMBOL_DEFAULTS``). With the ink saver it is black: its shape alone tells the sets apart.
"""

from __future__ import annotations

from typing import Any, Mapping

from pnp.core.errors import TemplateError
from pnp.layout.colors import BLACK
from pnp.layout.kinds.base import CopyFace, Layer, mm, stroke_of
from pnp.layout.primitives import Symbol
from pnp.template.elements import SYMBOLS
from pnp.template.kinds import SYMBOL_DEFAULTS

DRAWS = (Symbol,)


def resolve(keys: Mapping[str, Any], face: CopyFace, values: Mapping[str, Any],
            frame: tuple[float, float]) -> Layer:
    shape = face.text(str(keys.get("shape", SYMBOL_DEFAULTS["shape"])), values, "shape")
    if shape not in SYMBOLS:
        raise TemplateError(f"unknown symbol {shape!r}; expected one of: {', '.join(SYMBOLS)}")
    fill_color = face.inks.fill(face.color(keys.get("fill", SYMBOL_DEFAULTS["fill"]), values))
    if face.inks.ink_saver:
        # The shape alone tells the sets apart once colours are gone.
        fill_color = BLACK
    stroke = stroke_of(keys, face, values)
    return (Symbol(shape, mm(keys["cx"], values, "cx"), mm(keys["cy"], values, "cy"),
                   mm(keys["size"], values, "size", low=0), fill=fill_color, stroke=stroke.color,
                   width=stroke.width, dash=stroke.dash),)
