"""A piece's trim outline: the polygon follows the shape it names."""

import math

import pytest

from pnp.layout.outline import Outline, outline_of


def _area(points):
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]))) / 2


@pytest.mark.parametrize(("outline", "area"), [
    (Outline("rectangle", 63, 88), 63 * 88),
    (Outline("rounded", 63, 88, 3), 63 * 88 - (4 - math.pi) * 9),
    (Outline("circle", 20, 20), math.pi * 100),
    (Outline("hex", 40, 40 * math.sqrt(3) / 2), 3 * math.sqrt(3) / 2 * 400),
])
def test_polygon_encloses_the_shapes_area(outline, area):
    assert _area(outline.points(0.1)) == pytest.approx(area, rel=1e-3)


def test_corners_never_exceed_half_the_shorter_side():
    assert Outline("rounded", 20, 10, 8).corner == 5
    assert Outline("rectangle", 20, 10, 8).corner == 0


def test_svg_path_is_closed_and_placed_in_mm():
    path = Outline("rounded", 63, 88, 3).svg_path(10, 20)
    assert path.startswith("M13,20H70A3,3") and path.endswith("Z")


def test_a_rounded_component_is_rounded_by_its_corner_radius():
    class Component:
        size = (63.0, 88.0)
        shape = "rounded"
        corner_radius = 3.0
    assert outline_of(Component()) == Outline("rounded", 63.0, 88.0, 3.0)
    Component.corner_radius = 0.0
    assert outline_of(Component()).straight
