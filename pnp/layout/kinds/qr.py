"""``qr``: a QR code of its text (or of the kit's ``--qr-url``), quiet zone included in its size.

What it accepts: ``KINDS["qr"]`` in pnp/template/kinds.py. It holds at most
pnp.core.limits.MAX_QR_BYTES; each code spends the kit's work budget for QR codes.
"""

from __future__ import annotations

from typing import Any, Mapping

from pnp.layout.colors import BLACK
from pnp.layout.kinds.base import CopyFace, Layer, mm, qr_text
from pnp.layout.primitives import QR

DRAWS = (QR,)


def resolve(keys: Mapping[str, Any], face: CopyFace, values: Mapping[str, Any],
            frame: tuple[float, float]) -> Layer:
    data = face.options.qr_url or qr_text(face.text(keys["data"], values, "data"), "data")
    color = face.inks.line(face.color(keys.get("color", "ink"), values)) or BLACK
    return (QR(data, mm(keys["x"], values, "x"), mm(keys["y"], values, "y"),
               mm(keys["size"], values, "size", low=0), color=color),)
