"""The embedded type family (Lato, SIL OFL) and a template's own fonts, registered once per process.

A style is one of Lato's (``regular``, ``bold``, ``black``, ``italic``) or, for a template's own
font (``[fonts]``, checked on load by pnp.template.fonts), the font file's path: laying a face out
gives its texts that style, and measuring or drawing them registers the file on first use, read
through pnp.core.files (recorded for ``pnp watch``).
"""

from __future__ import annotations

import os
import struct
from functools import lru_cache
from typing import Callable

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from pnp.layout.text import Measurer
from pnp.render.reportlab_internals import font_characters
from pnp.core.resources import fonts_dir

#: Template font names -> (registered name, file)
FAMILY = {
    "regular": ("Lato", "Lato-Regular.ttf"),
    "bold": ("Lato-Bold", "Lato-Bold.ttf"),
    "black": ("Lato-Black", "Lato-Black.ttf"),
    "italic": ("Lato-Italic", "Lato-Italic.ttf"),
}


@lru_cache(maxsize=None)
def font(style: str = "regular") -> str:
    """The reportlab name of a style, registering the TrueType file on first use.

    TrueType fonts are embedded as subsets holding only the glyphs used.
    """
    if style not in FAMILY:
        return _own_font(style)
    name, filename = FAMILY[style]
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(name, str(fonts_dir() / filename)))
    return name


def _own_font(path: str) -> str:
    """A template's own font, by its file's path: registered under a name made from its bytes
    (the same font, the same PDF, wherever the template lies); a file reportlab cannot read is
    a PnpError naming it."""
    import hashlib
    import io

    from reportlab.pdfbase.ttfonts import TTFError

    from pnp.core.errors import PnpError
    from pnp.core.files import ReadError, read_regular
    from pnp.core.limits import MAX_FONT_BYTES

    shown = os.path.basename(path)
    try:
        data = read_regular(path, MAX_FONT_BYTES)
    except ReadError as exc:
        raise PnpError(f"{shown}: cannot read the font ({exc.reason})") from None
    name = f"Own-{hashlib.sha256(data).hexdigest()[:16]}"
    if name not in pdfmetrics.getRegisteredFontNames():
        try:
            pdfmetrics.registerFont(TTFont(name, io.BytesIO(data)))
        except (TTFError, ValueError, KeyError, IndexError, struct.error) as exc:
            raise PnpError(f"{shown}: the font cannot be embedded ({' '.join(str(exc).split())[:200]})") from None
    return name


def text_width_once(text: str, style: str, size: float) -> float:
    """Width of ``text`` in points, measured and not remembered (what
    ``pdfmetrics.stringWidth(text, font(style), size)`` gives, by the font's own method)."""
    width = _WIDTHS.get(style)
    if width is None:
        width = _WIDTHS[style] = pdfmetrics.getFont(font(style)).stringWidth
    return width(text, size)


#: Each style's registered font's stringWidth: a card's name is measured once, on every card.
_WIDTHS: dict[str, Callable[[str, float], float]] = {}


@lru_cache(maxsize=8192)
def text_width(text: str, style: str, size: float) -> float:
    """Width of ``text`` in points (remembered: fitting a wrapped text measures
    its words at each size it tries; a whole ``pnp build`` measures 6,400 texts)."""
    return text_width_once(text, style, size)


@lru_cache(maxsize=None)
def _drawable(style: str) -> frozenset[str]:
    """The characters the font has a glyph for, and the line break."""
    return frozenset(map(chr, font_characters(pdfmetrics.getFont(font(style))))) | {"\n"}


def missing_glyphs(text: str, style: str) -> str:
    """The characters of ``text`` the font cannot draw (they would print as boxes)."""
    drawable = _drawable(style)
    if drawable.issuperset(text):
        return ""
    return "".join(sorted(set(text) - drawable))


#: Text measured with the fonts the PDFs embed, for laying faces out.
MEASURER = Measurer(text_width, missing_glyphs, text_width_once)
