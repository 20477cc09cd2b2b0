"""The embedded type family (Lato, SIL OFL), registered once per process."""

from __future__ import annotations

from functools import lru_cache

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
    name, filename = FAMILY[style]
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(name, str(fonts_dir() / filename)))
    return name


def text_width_once(text: str, style: str, size: float) -> float:
    """Width of ``text`` in points, measured and not remembered."""
    return pdfmetrics.stringWidth(text, font(style), size)


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
