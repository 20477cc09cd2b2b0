"""Text with inline icons and bold or italic runs: read, measured, wrapped and shrunk to fit.

A text element's words may hold, in a template or a catalog (after its placeholders are filled):

- ``**bold**`` and ``*italic*`` runs (``***both***``), set in the text's font's bold or italic
  (Lato's, or the files a template's ``[fonts]`` gives: :func:`pnp.template.fonts.run_style`);
- an inline icon, ``:coin:`` (or ``{icon:coin}`` in the template language, which writes the
  same), an SVG of the template's icons sized to the line and coloured like the text. Its name
  starts with a letter (``10:30:45`` stays a time);
- ``\\*``, ``\\:`` and ``\\\\`` for a literal star, colon or backslash (in TOML, a literal
  ``'string'`` keeps the backslash; a ``"string"`` writes it doubled, ``"\\\\*"``).

A text without any of them is plain (:func:`runs_of` gives None) and laid out as it always was.
Otherwise it is cut into words of runs, and :func:`fit_rich` finds the largest size, down to
the smallest allowed, at which they fit the box (wrapped at spaces when the element wraps), as
plain text is fitted; each run's letters must be in its font. Measuring goes through the
kit's :class:`~pnp.layout.text.Measurer`; nothing here needs a PDF library.
"""

from __future__ import annotations

import re
from typing import Callable

from pnp.core.errors import TextFitError
from pnp.core.records import NamedTuple
from pnp.layout.text import MIN_SIZE, STEP, Measurer

#: An inline icon's height, as a share of the text's size, and how far it reaches below the
#: baseline: it stands on the line as a capital does, a little taller, centred on the capitals.
ICON_HEIGHT = 0.9
ICON_DROP = 0.11
#: Room kept either side of an inline icon, as a share of the text's size.
ICON_SIDE = 0.05

_ICON = re.compile(r":([A-Za-z][A-Za-z0-9_-]{0,99}):")
#: What may make a text rich: without one of these it is plain.
MARKS = ("*", ":", "\\")


class Run(NamedTuple):
    """A piece of a text in one style, or an inline icon (``icon`` its name, ``text`` empty)."""

    text: str
    bold: bool = False
    italic: bool = False
    icon: str | None = None

    @property
    def variant(self) -> str:
        """The variant of the font it is set in: "", "bold", "italic" or "bold_italic"."""
        return ("bold_italic" if self.italic else "bold") if self.bold else ("italic" if self.italic else "")


class MarkupError(ValueError):
    """A text whose marks cannot be read: a run opened and never closed."""


def runs_of(text: str) -> list[Run] | None:
    """A text's runs, or None when it is plain (no run, icon or escape: drawn as it is).

    >>> runs_of("Gain 2 :coin: now")
    [Run(text='Gain 2 ', bold=False, italic=False, icon=None), Run(text='', bold=False, italic=False, icon='coin'), Run(text=' now', bold=False, italic=False, icon=None)]
    >>> runs_of("**Hunt** *quietly*")[0], runs_of("Hunt at 10:30")
    (Run(text='Hunt', bold=True, italic=False, icon=None), None)
    >>> runs_of(r"5 \\* 2 \\:)")
    [Run(text='5 * 2 :)', bold=False, italic=False, icon=None)]
    """
    runs: list[Run] = []
    bold = italic = False
    opened_bold = opened_italic = -1
    current: list[str] = []
    marked = False
    at, end = 0, len(text)

    def close() -> None:
        if current:
            runs.append(Run("".join(current), bold, italic))
            current.clear()

    while at < end:
        char = text[at]
        if char == "\\" and at + 1 < end and text[at + 1] in "*:\\":
            current.append(text[at + 1])
            marked = True
            at += 2
        elif char == "*":
            close()
            marked = True
            if text.startswith("**", at):
                bold = not bold
                opened_bold = at if bold else -1
                at += 2
            else:
                italic = not italic
                opened_italic = at if italic else -1
                at += 1
        elif char == ":" and (match := _ICON.match(text, at)) is not None:
            close()
            marked = True
            runs.append(Run("", bold, italic, match.group(1)))
            at = match.end()
        else:
            current.append(char)
            at += 1
    close()
    if bold or italic:
        opened = min(a for a in (opened_bold, opened_italic) if a >= 0)
        mark = "**" if opened == opened_bold else "*"
        raise MarkupError(f"a {mark} opens {'bold' if mark == '**' else 'italic'} text at character {opened + 1} "
                          f"that never closes in {text!r} (write \\{mark[0]} for a star)")
    if not marked:
        return None
    return runs


class Piece(NamedTuple):
    """Something on a line: letters in a style, or an icon; ``x`` its start from the line's, in points."""

    x: float
    width: float
    text: str
    style: str
    icon: str | None = None     # the icon's file (its SVG)


class RichLine(NamedTuple):
    pieces: tuple[Piece, ...]
    width: float


class RichFit(NamedTuple):
    lines: tuple[RichLine, ...]
    size: float
    leading: float


class _Word(NamedTuple):
    """Runs between two spaces, each with its style (or its icon's file and shape)."""

    parts: tuple[tuple[str, str, str | None, float], ...]   # (text, style, icon file, icon width per pt of size)


def _words(runs: list[Run], style_of: Callable[[Run], str],
           icon_of: Callable[[str], tuple[str, float]]) -> list[list[_Word]]:
    """The runs as paragraphs (split at line breaks) of words (split at spaces)."""
    paragraphs: list[list[_Word]] = [[]]
    parts: list[tuple[str, str, str | None, float]] = []

    def end_word() -> None:
        paragraphs[-1].append(_Word(tuple(parts)))
        parts.clear()

    for run in runs:
        style = style_of(run)
        if run.icon is not None:
            source, aspect = icon_of(run.icon)
            parts.append(("", style, source, aspect))
            continue
        for index, paragraph in enumerate(run.text.split("\n")):
            if index:
                end_word()
                paragraphs.append([])
            for k, chunk in enumerate(paragraph.split(" ")):
                if k:
                    end_word()
                if chunk:
                    parts.append((chunk, style, None, 0.0))
    end_word()
    return paragraphs


def _icon_width(aspect: float, size: float) -> float:
    return aspect * ICON_HEIGHT * size + 2 * ICON_SIDE * size


def fit_rich(measure: Measurer, runs: list[Run], style_of: Callable[[Run], str],
             icon_of: Callable[[str], tuple[str, float]], *, size: float, width: float, height: float,
             wrap: bool, leading: float, min_size: float = MIN_SIZE, where: str | None = None) -> RichFit:
    """The largest size <= ``size`` (down to ``min_size``, never below 6 pt) at which a rich
    text fits ``width`` x ``height`` points, wrapped at its spaces when ``wrap``; a TextFitError
    (the font lacks a letter of a run, or it fits at no size) names the text."""
    shown = "".join(f":{r.icon}:" if r.icon else r.text for r in runs)
    at = f"{where}: " if where else ""
    words = _words(runs, style_of, icon_of)
    by_style: dict[str, list[str]] = {}
    for paragraph in words:
        for word in paragraph:
            for text, style, icon, _ in word.parts:
                if icon is None:
                    by_style.setdefault(style, []).append(text)
    for style, texts in by_style.items():
        missing = measure.missing("".join(texts), style)
        if missing:
            raise TextFitError(f"the font has no glyph for {missing!r}: {at}{shown!r}")
    smallest = max(min_size, MIN_SIZE)
    current = size
    while current >= smallest - 1e-9:
        fitted = _laid_out(measure, words, current, width=width, wrap=wrap)
        if fitted is not None:
            gap = current * leading
            if current + (len(fitted) - 1) * gap <= height + 1e-6:
                return RichFit(tuple(fitted), current, gap)
        current = round(current - STEP, 4)
    raise TextFitError(f"text does not fit its box even at {smallest:g} pt: {at}{shown!r}")


def _laid_out(measure: Measurer, paragraphs: list[list[_Word]], size: float, *, width: float,
              wrap: bool) -> list[RichLine] | None:
    """The lines of the words at ``size``: a word's width is its parts', a space the width of
    one in the style of the letters before it; None when a line is wider than ``width``."""
    text_width = measure.width
    lines: list[RichLine] = []
    for paragraph in paragraphs:
        current: list[Piece] = []
        x = 0.0
        for word in paragraph:
            pieces = []
            w = 0.0
            for text, style, icon, aspect in word.parts:
                if icon is None:
                    part = text_width(text, style, size)
                    pieces.append(Piece(w, part, text, style))
                else:
                    part = _icon_width(aspect, size)
                    pieces.append(Piece(w, part, "", style, icon=icon))
                w += part
            space_style = current[-1].style if current else (word.parts[0][1] if word.parts else None)
            space = text_width(" ", space_style, size) if current and space_style else 0.0
            if current and wrap and x + space + w > width + 1e-6:
                lines.append(RichLine(tuple(current), x))
                current, x, space = [], 0.0, 0.0
            start = x + space
            current.extend(p._replace(x=start + p.x) for p in pieces)
            x = start + w
            if x > width + 1e-6:
                return None
        lines.append(RichLine(tuple(_joined(current)), x))
    return lines


def _joined(pieces: list[Piece]) -> list[Piece]:
    """Letters side by side in one style made one piece (with the space between two words), so
    a line is drawn as few strings as it has styles in turn."""
    out: list[Piece] = []
    for piece in pieces:
        last = out[-1] if out else None
        if last is not None and piece.icon is None and last.icon is None and last.style == piece.style:
            space = " " if piece.x > last.x + last.width + 1e-6 else ""
            out[-1] = Piece(last.x, piece.x + piece.width - last.x, last.text + space + piece.text, last.style)
        else:
            out.append(piece)
    return out
