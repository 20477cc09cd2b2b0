"""Vector outlines shared by the renderer: player symbols and rounded boxes.

Coordinates are points; each function returns a reportlab path.
"""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from pnp.layout.symbols import symbol_outline


def symbol_path(canvas: Canvas, shape: str, cx: float, cy: float, *, size: float):
    """The outline of a player symbol of width ``size`` centred on (cx, cy)
    (:func:`pnp.layout.symbols.symbol_outline`)."""
    path = canvas.beginPath()
    for op in symbol_outline(shape, cx, cy, size):
        kind = op[0]
        if kind == "circle":
            path.circle(*op[1:])
        elif kind == "rect":
            path.rect(*op[1:])
        elif kind == "move":
            path.moveTo(*op[1:])
        elif kind == "line":
            path.lineTo(*op[1:])
        elif kind == "curve":
            path.curveTo(*op[1:])
        else:
            path.close()
    return path
