"""The outlines of the player symbols, in one place for the renderer and the checks.

A symbol of width ``size`` centred on (cx, cy) is a list of path operations in
the caller's units, y upwards (the PDF's): ``("circle", cx, cy, r)``,
``("rect", x, y, w, h)``, ``("move", x, y)``, ``("line", x, y)``,
``("curve", x1, y1, x2, y2, x3, y3)`` and ``("close",)``. The renderer turns
them into a reportlab path; :func:`symbol_points` into points, for checks of
where a symbol's ink lands.
"""

from __future__ import annotations

import math

Op = tuple


def symbol_outline(shape: str, cx: float, cy: float, size: float) -> list[Op]:
    """The path of a player symbol (y upwards).

    >>> symbol_outline("diamond", 0.0, 0.0, 10.0)
    [('move', 0.0, 5.0), ('line', 4.0, 0.0), ('line', 0.0, -5.0), ('line', -4.0, 0.0), ('close',)]
    """
    r = size / 2
    if shape == "circle":
        return [("circle", cx, cy, r * 0.92)]
    if shape == "square":
        s = r * 0.82
        return [("rect", cx - s, cy - s, 2 * s, 2 * s)]
    if shape == "diamond":
        return [("move", cx, cy + r), ("line", cx + r * 0.8, cy), ("line", cx, cy - r),
                ("line", cx - r * 0.8, cy), ("close",)]
    if shape == "triangle":
        return [("move", cx, cy + r), ("line", cx + r * 0.95, cy - r * 0.72),
                ("line", cx - r * 0.95, cy - r * 0.72), ("close",)]
    if shape in ("star", "hexagon"):
        points = 5 if shape == "star" else 6
        inner = 0.45 if shape == "star" else 1.0
        steps = points * 2 if shape == "star" else points
        ops: list[Op] = []
        for i in range(steps):
            radius = r if (i % 2 == 0 or shape == "hexagon") else r * inner
            angle = math.pi / 2 + i * 2 * math.pi / steps
            ops.append(("move" if i == 0 else "line", cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
        return ops + [("close",)]
    if shape == "cross":
        t = r * 0.36
        return [("move" if x == -t and y == r else "line", cx + x, cy + y)
                for x, y in [(-t, r), (t, r), (t, t), (r, t), (r, -t), (t, -t), (t, -r), (-t, -r),
                             (-t, -t), (-r, -t), (-r, t), (-t, t)]] + [("close",)]
    if shape == "heart":
        return [("move", cx, cy - r * 0.9),
                ("curve", cx - r * 1.4, cy + r * 0.1, cx - r * 0.7, cy + r * 1.2, cx, cy + r * 0.45),
                ("curve", cx + r * 0.7, cy + r * 1.2, cx + r * 1.4, cy + r * 0.1, cx, cy - r * 0.9),
                ("close",)]
    raise ValueError(f"unknown symbol {shape!r}")


def symbol_points(shape: str, cx: float, cy: float, size: float, *, steps: int = 16) -> list[tuple[float, float]]:
    """Points on a symbol's outline (y upwards): its corners, its curves and circle sampled.

    >>> [(round(x, 2), round(y, 2)) for x, y in symbol_points("square", 0.0, 0.0, 10.0)]
    [(-4.1, -4.1), (4.1, -4.1), (4.1, 4.1), (-4.1, 4.1)]
    """
    points: list[tuple[float, float]] = []
    for op in symbol_outline(shape, cx, cy, size):
        kind = op[0]
        if kind == "circle":
            _, x, y, r = op
            points += [(x + r * math.cos(2 * math.pi * i / (4 * steps)), y + r * math.sin(2 * math.pi * i / (4 * steps)))
                       for i in range(4 * steps)]
        elif kind == "rect":
            _, x, y, w, h = op
            points += [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
        elif kind in ("move", "line"):
            points.append((op[1], op[2]))
        elif kind == "curve":
            (x0, y0), (x1, y1, x2, y2, x3, y3) = points[-1], op[1:]
            for i in range(1, steps + 1):
                t = i / steps
                a, b, c, d = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t ** 2, t ** 3
                points.append((a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3))
    return points
