"""Colours set on the canvas: plain RGB from #rrggbb."""

from __future__ import annotations

from functools import lru_cache

from pnp.render.reportlab_internals import fp_str


@lru_cache(maxsize=256)
def _rgb(color: str) -> tuple[float, float, float]:
    return tuple(int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))


def set_fill(canvas, color: str) -> None:
    """Fill colour from #rrggbb. Plain RGB: reportlab's colour objects also set
    an alpha each time, which costs as much as the shape itself."""
    canvas.setFillColorRGB(*_rgb(color))


def set_stroke(canvas, color: str) -> None:
    """Stroke colour from #rrggbb (see :func:`set_fill`)."""
    canvas.setStrokeColorRGB(*_rgb(color))


@lru_cache(maxsize=256)
def fill_ops(color: str) -> str:
    """The operator :func:`set_fill` writes for ``color``, for writing it directly.

    >>> fill_ops("#ff8000")
    '1 .501961 0 rg'
    """
    return f"{fp_str(_rgb(color))} rg"


@lru_cache(maxsize=256)
def stroke_ops(color: str) -> str:
    """The operator :func:`set_stroke` writes for ``color``."""
    return f"{fp_str(_rgb(color))} RG"
