"""Vector outlines shared by the renderer: player symbols and rounded boxes.

Coordinates are points; each function returns a reportlab path.
"""

from __future__ import annotations

import math

from reportlab.pdfgen.canvas import Canvas


def symbol_path(canvas: Canvas, shape: str, cx: float, cy: float, size: float):
    """The outline of a player symbol of width ``size`` centred on (cx, cy)."""
    r = size / 2
    path = canvas.beginPath()
    if shape == "circle":
        path.circle(cx, cy, r * 0.92)
    elif shape == "square":
        s = r * 0.82
        path.rect(cx - s, cy - s, 2 * s, 2 * s)
    elif shape == "diamond":
        path.moveTo(cx, cy + r)
        path.lineTo(cx + r * 0.8, cy)
        path.lineTo(cx, cy - r)
        path.lineTo(cx - r * 0.8, cy)
        path.close()
    elif shape == "triangle":
        path.moveTo(cx, cy + r)
        path.lineTo(cx + r * 0.95, cy - r * 0.72)
        path.lineTo(cx - r * 0.95, cy - r * 0.72)
        path.close()
    elif shape in ("star", "hexagon"):
        points = 5 if shape == "star" else 6
        inner = 0.45 if shape == "star" else 1.0
        steps = points * 2 if shape == "star" else points
        for i in range(steps):
            radius = r if (i % 2 == 0 or shape == "hexagon") else r * inner
            angle = math.pi / 2 + i * 2 * math.pi / steps
            x, y = cx + radius * math.cos(angle), cy + radius * math.sin(angle)
            (path.moveTo if i == 0 else path.lineTo)(x, y)
        path.close()
    elif shape == "cross":
        t = r * 0.36
        for x, y in [(-t, r), (t, r), (t, t), (r, t), (r, -t), (t, -t), (t, -r), (-t, -r),
                     (-t, -t), (-r, -t), (-r, t), (-t, t)]:
            (path.moveTo if x == -t and y == r else path.lineTo)(cx + x, cy + y)
        path.close()
    elif shape == "heart":
        path.moveTo(cx, cy - r * 0.9)
        path.curveTo(cx - r * 1.4, cy + r * 0.1, cx - r * 0.7, cy + r * 1.2, cx, cy + r * 0.45)
        path.curveTo(cx + r * 0.7, cy + r * 1.2, cx + r * 1.4, cy + r * 0.1, cx, cy - r * 0.9)
        path.close()
    else:
        raise ValueError(f"unknown symbol {shape!r}")
    return path
