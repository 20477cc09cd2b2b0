"""``scoresheet``: a game's scoresheet in its box, blank or filled from a session.

What it accepts: ``KINDS["scoresheet"]`` in pnp/template/kinds.py. What is on the sheet
comes from the game's rules; pnp.layout.scoresheets lays it out (and refuses a box for
a pen under 7 mm).
"""

from __future__ import annotations

from typing import Any, Mapping

from pnp.layout.kinds.base import CopyFace, Layer, inside_trim, mm, qr_text
from pnp.layout.primitives import QR, Icon, Line, Path, Rect, Symbol, Text
from pnp.layout.scoresheets import lay_out_scoresheet

DRAWS = (Rect, Line, Path, Text, Icon, Symbol, QR)


def resolve(keys: Mapping[str, Any], face: CopyFace, values: Mapping[str, Any],
            frame: tuple[float, float]) -> Layer:
    x, y = mm(keys["x"], values, "x"), mm(keys["y"], values, "y")
    w, h = mm(keys["w"], values, "w", low=0), mm(keys["h"], values, "h", low=0)
    inside_trim(face, (x + frame[0], y + frame[1], w, h), "scoresheet")
    if face.filled is not None:
        qr = face.filled.qr
    else:
        qr = face.options.qr_url or (qr_text(face.text(keys["qr"], values, "qr"), "qr") if keys.get("qr")
                                     else None)
    return lay_out_scoresheet(face, face.text(str(keys.get("game", "{game_id}")), values, "game"), x=x, y=y, w=w,
                              h=h,
                              qr_data=qr)
