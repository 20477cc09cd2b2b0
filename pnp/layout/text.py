"""Measure first, draw second: fit a string into a box or say why it cannot fit.

Text is measured through a :class:`Measurer` given by the caller (the PDF
renderer gives one backed by the embedded fonts), so laying out a face needs
no PDF library. Sizes and widths are in points, as type is measured; boxes
come in millimetres and are converted once, here.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

from pnp.core.errors import TextFitError
from pnp.core.records import NamedTuple

MIN_SIZE = 6.0
STEP = 0.25


class Measurer(NamedTuple):
    """How wide a string is, and which of its characters the font cannot draw."""

    width: Callable[[str, str, float], float]   # (text, style, size pt) -> width in points
    missing: Callable[[str, str], str]           # (text, style) -> the characters without a glyph
    #: ``width`` for a text likely measured once (a card's own name): not
    #: remembered, where ``width`` may remember; None for ``width`` itself.
    width_once: Callable[[str, str, float], float] | None = None


class FittedText(NamedTuple):
    lines: tuple[str, ...]
    size: float
    leading: float
    widths: tuple[float, ...] = ()  # of each line at ``size``, in points: placed without measuring again

    @property
    def height(self) -> float:
        return self.size + (len(self.lines) - 1) * self.leading


def _wrap(measure: Measurer, text: str, style: str, size: float, *, width: float) -> list[str] | None:
    """Greedy word wrap; None if one word alone is wider than the box."""
    text_width = measure.width
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


def fit_text(measure: Measurer, text: str, style: str, size: float, *, width: float, height: float,
             wrap: bool = False, leading: float = 1.18, min_size: float = MIN_SIZE) -> FittedText | None:
    """The largest size <= ``size`` (down to ``min_size``) at which ``text`` fits.

    Width and height are in points. Returns None if it does not fit even at
    ``min_size``; :func:`fit_or_fail` says why with its context.
    """
    if not wrap and "\n" not in text and size >= min_size - 1e-9 and size <= height + 1e-6:
        # One line at its full size, the usual case (a card's name, a number):
        # measured once, neither the fit nor the width remembered (thousands
        # of different cards would fill the memory of widths for nothing).
        line_width = (measure.width_once or measure.width)(text, style, size)
        if line_width <= width:
            return FittedText((text,), size, size * leading, (line_width,))
    return _fitted(measure, text, style, size, width=width, height=height, wrap=wrap, leading=leading,
                   min_size=min_size)


@lru_cache(maxsize=8192)
def _fitted(measure: Measurer, text: str, style: str, size: float, *, width: float, height: float,
            wrap: bool, leading: float, min_size: float) -> FittedText | None:
    """:func:`fit_text` trying smaller and smaller sizes, remembered: wrapped
    texts (rules, scoresheet cells) come back in every language and paper."""
    text_width = measure.width
    current = size
    while current >= min_size - 1e-9:
        line_gap = current * leading
        if wrap:
            lines = _wrap(measure, text, style, current, width=width)
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


def fit_or_fail(measure: Measurer, text: str, style: str, size: float, *, width: float,
                height: float, wrap: bool, leading: float, min_size: float = MIN_SIZE,
                where: str | None = None) -> FittedText:
    """:func:`fit_text` (box in points), or a TextFitError naming the text (and ``where``)."""
    at = f"{where}: " if where else ""
    missing = measure.missing(text, style)
    if missing:
        raise TextFitError(f"the font has no glyph for {missing!r}: {at}{text!r}")
    smallest = max(min_size, MIN_SIZE)
    fitted = fit_text(measure, text, style, size, width=width, height=height, wrap=wrap, leading=leading,
                      min_size=smallest)
    if fitted is None:
        raise TextFitError(f"text does not fit its box even at {smallest:g} pt: {at}{text!r}")
    return fitted
