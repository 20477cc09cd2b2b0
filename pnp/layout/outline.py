"""A piece's trim as a closed outline: where the knife goes.

One source for every place that follows a piece's edge: cut guides drawn where
a guillotine cannot follow the trim, exports whose outside is transparent,
Tabletop Simulator's round tiles, and the SVG cut files of cutting machines.
Lengths are millimetres; an outline is placed by its top-left corner in a
frame whose y grows downwards (SVG's), and :meth:`Outline.points` gives the
same edge as a polygon for the places that draw with straight lines only.
"""

from __future__ import annotations

import math

from pnp.core.records import NamedTuple


class Outline(NamedTuple):
    """The trim of one piece: its shape in a ``width`` x ``height`` box.

    ``rounded`` has corners of ``radius`` (at most half the shorter side);
    ``circle`` is the ellipse filling the box (a circle when the box is
    square); ``hex`` is the flat-topped hexagon whose points touch the box's
    left and right sides (regular when ``height = width * sqrt(3) / 2``).
    """

    shape: str
    width: float
    height: float
    radius: float = 0.0

    @property
    def corner(self) -> float:
        """The rounded corners' radius, kept within the box."""
        if self.shape != "rounded":
            return 0.0
        return max(0.0, min(self.radius, self.width / 2, self.height / 2))

    def svg_path(self, left: float, top: float) -> str:
        """The outline as one closed SVG path, its box's top-left at (left, top)."""
        w, h = self.width, self.height
        if self.shape == "circle":
            rx, ry, cy = w / 2, h / 2, top + h / 2
            return (f"M{_n(left)},{_n(cy)}A{_n(rx)},{_n(ry)} 0 1 0 {_n(left + w)},{_n(cy)}"
                    f"A{_n(rx)},{_n(ry)} 0 1 0 {_n(left)},{_n(cy)}Z")
        if self.shape == "hex":
            return "M" + "L".join(f"{_n(left + x)},{_n(top + y)}" for x, y in self._hex()) + "Z"
        r = self.corner
        if not r:
            return f"M{_n(left)},{_n(top)}H{_n(left + w)}V{_n(top + h)}H{_n(left)}Z"
        arc = f"A{_n(r)},{_n(r)} 0 0 1 "
        return (f"M{_n(left + r)},{_n(top)}H{_n(left + w - r)}{arc}{_n(left + w)},{_n(top + r)}"
                f"V{_n(top + h - r)}{arc}{_n(left + w - r)},{_n(top + h)}"
                f"H{_n(left + r)}{arc}{_n(left)},{_n(top + h - r)}"
                f"V{_n(top + r)}{arc}{_n(left + r)},{_n(top)}Z")

    def points(self, step: float = 0.25) -> list[tuple[float, float]]:
        """The outline as a polygon, relative to its box's top-left, y down.

        Curves are cut into chords at most ``step`` mm long, so the polygon
        stays within ``step**2 / (8 * radius)`` of the true edge.
        """
        w, h = self.width, self.height
        if self.shape == "circle":
            n = max(12, math.ceil(math.pi * max(w, h) / step))
            return [(w / 2 + w / 2 * math.cos(2 * math.pi * i / n),
                     h / 2 + h / 2 * math.sin(2 * math.pi * i / n)) for i in range(n)]
        if self.shape == "hex":
            return list(self._hex())
        r = self.corner
        if not r:
            return [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
        n = max(2, math.ceil(math.pi / 2 * r / step))
        out: list[tuple[float, float]] = []
        # Corners clockwise from the top-right (in a y-down frame), each
        # quarter arc around its own centre.
        for cx, cy, start in ((w - r, r, -90.0), (w - r, h - r, 0.0), (r, h - r, 90.0), (r, r, 180.0)):
            for i in range(n + 1):
                a = math.radians(start + 90.0 * i / n)
                out.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        return out

    def _hex(self) -> tuple[tuple[float, float], ...]:
        w, h = self.width, self.height
        return ((0.0, h / 2), (w / 4, 0.0), (3 * w / 4, 0.0), (w, h / 2), (3 * w / 4, h), (w / 4, h))

    def grown(self, distance: float) -> "Outline":
        """The outline moved ``distance`` mm outwards (the bleed around a trim), in a box
        ``distance`` larger on every side but the hex's left and right, which move out
        ``distance / sin(60°)`` so that its slanted sides move ``distance`` too (exactly for a
        regular hex, within a fraction of it for a squashed one)."""
        if not distance:
            return self
        grow_x = distance
        if self.shape == "hex":
            slope = 2 * self.height / self.width     # the slanted sides' rise over run
            grow_x = distance * math.hypot(1.0, slope) / slope
        radius = self.radius + distance if self.shape == "rounded" else self.radius
        return self._replace(width=self.width + 2 * grow_x, height=self.height + 2 * distance, radius=radius)

    def corner_guides(self, step: float = 0.25) -> list[list[tuple[float, float]]]:
        """The parts of the trim a guillotine cannot cut, as runs of points (y down): the four
        arcs of rounded corners, the whole closed edge of a circle or a hex, nothing for a
        rectangle."""
        if self.straight:
            return []
        points = self.points(step)
        if self.shape != "rounded":
            return [[*points, points[0]]]
        n = len(points) // 4       # each corner's arc, in order, the same number of points
        return [points[i * n:(i + 1) * n] for i in range(4)]

    @property
    def straight(self) -> bool:
        """True when a guillotine follows the whole trim (crop marks are enough)."""
        return self.shape == "rectangle" or (self.shape == "rounded" and not self.corner)


def on_sheet(outline: Outline, x: float, y: float, rotation: int,
             *, points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Points of an outline (from its box's top-left, y down) where its piece lies on a sheet:
    the trim's bottom-left at (x, y) mm from the sheet's bottom-left, y up, the piece turned
    ``rotation`` degrees counter-clockwise (0, 90, 180, 270) as the renderer turns it.

    >>> on_sheet(Outline("hex", 30.0, 26.0), 10.0, 20.0, 90, points=[(0.0, 13.0), (7.5, 0.0)])
    [(23.0, 20.0), (10.0, 27.5)]
    """
    w, h = outline.width, outline.height
    turned = {0: lambda px, py: (px, h - py), 90: lambda px, py: (py, px),
              180: lambda px, py: (w - px, py), 270: lambda px, py: (h - py, w - px)}[rotation % 360]
    return [(x + u, y + v) for u, v in (turned(px, py) for px, py in points)]


def outline_of(component) -> Outline:
    """The trim of a component's pieces (every piece of a component has the same)."""
    width, height = component.size
    return Outline(component.shape, float(width), float(height), float(component.corner_radius))


def _n(value: float) -> str:
    """A coordinate in mm, to the micrometre, without trailing zeros."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
