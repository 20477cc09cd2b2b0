"""Measure first, draw second: fit a string into a box or say why it cannot fit."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from pnp.errors import TextFitError
from pnp.render.fonts import missing_glyphs, text_width

MIN_SIZE = 6.0
STEP = 0.25


class FittedText(NamedTuple):
    lines: tuple[str, ...]
    size: float
    leading: float
    widths: tuple[float, ...] = ()  # of each line at ``size``, in points: drawn without measuring again

    @property
    def height(self) -> float:
        return self.size + (len(self.lines) - 1) * self.leading


def _wrap(text: str, style: str, size: float, width: float) -> list[str] | None:
    """Greedy word wrap; None if one word alone is wider than the box."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words = paragraph.split(" ")
        current = ""
        for word in words:
            candidate = word if not current else f"{current} {word}"
            if text_width(candidate, style, size) <= width:
                current = candidate
                continue
            if not current or text_width(word, style, size) > width:
                return None
            lines.append(current)
            current = word
        lines.append(current)
    return lines


@lru_cache(maxsize=8192)
def fit_text(text: str, style: str, size: float, width: float, height: float,
             wrap: bool = False, leading: float = 1.18, min_size: float = MIN_SIZE) -> FittedText | None:
    """The largest size <= ``size`` (down to ``min_size``) at which ``text`` fits.

    Width and height are in points. Returns None if it does not fit even at
    ``min_size``; callers turn that into a :class:`TextFitError` with context.
    """
    current = size
    while current >= min_size - 1e-9:
        line_gap = current * leading
        if wrap:
            lines = _wrap(text, style, current, width)
        else:
            lines = text.split("\n")
            if any(text_width(line, style, current) > width for line in lines):
                lines = None
        if lines is not None:
            fitted = FittedText(tuple(lines), current, line_gap,
                                tuple(text_width(line, style, current) for line in lines))
            # Ascender to descender of the block must fit the box height.
            if fitted.height <= height + 1e-6:
                return fitted
        current = round(current - STEP, 4)
    return None


def fit_or_fail(text: str, style: str, size: float, width: float, height: float, *,
                wrap: bool, leading: float, min_size: float, where: str) -> FittedText:
    missing = missing_glyphs(text, style)
    if missing:
        raise TextFitError(f"the font has no glyph for {missing!r}: {where}: {text!r}")
    fitted = fit_text(text, style, size, width, height, wrap, leading, max(min_size, MIN_SIZE))
    if fitted is None:
        raise TextFitError(
            f"text does not fit its box even at {max(min_size, MIN_SIZE):g} pt: {where}: {text!r}"
        )
    return fitted
