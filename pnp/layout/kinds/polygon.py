"""``polygon``: straight sides through its points, closed unless ``closed = false``.

What it accepts: ``KINDS["polygon"]`` in pnp/template/kinds.py. Each drawing spends
its corners of the kit's work budget (pnp.core.limits.WorkBudget).
"""

from __future__ import annotations

from typing import Any, Mapping

from pnp.layout.kinds.base import CopyFace, Layer, mm, paint_of
from pnp.layout.primitives import Path

DRAWS = (Path,)


def resolve(keys: Mapping[str, Any], face: CopyFace, values: Mapping[str, Any],
            frame: tuple[float, float]) -> Layer:
    fill_color, stroke = paint_of(keys, face, values)
    if fill_color is None and stroke.color is None:
        return ()
    points = keys["points"]
    if type(points) is not tuple:  # some point depends on the copy (see pnp.layout.faces.fold_lengths)
        points = tuple((mm(x, values, f"points[{i}][0]"), mm(y, values, f"points[{i}][1]"))
                       for i, (x, y) in enumerate(points))
    return (Path((points,), keys.get("closed", True), fill=fill_color, stroke=stroke.color,
                 width=stroke.width, dash=stroke.dash, join=1),)


def spent(keys: Mapping[str, Any]) -> tuple[int, int]:
    """One shape and its corners."""
    points = keys.get("points")
    return 1, len(points) if isinstance(points, (list, tuple)) else 0
