"""Every part of reportlab the drawing uses that reportlab does not document, in one place.

The drawing writes PDF operators straight into the page reportlab is making
(recorded once, copied wherever the same shape is drawn: see
:class:`pnp.render.draw.Pen`), writes text as ``drawString`` would from the
font's own subsets, and compresses each page as soon as it is finished. That
takes reportlab's private state: the operators of the page or form being drawn
(``Canvas._code``), its document (``_doc``), its string escaping (``_escape``),
its saved graphics states (``state_stack``), a TrueType font's subsets and glyphs, the
PDF objects of a page. Nothing else in pnp names them.

pyproject.toml pins reportlab to the releases this is tested with;
``tests/test_reportlab_internals.py`` checks each of these against the
installed release, and fails naming what changed.
"""

from __future__ import annotations

import zlib
from operator import attrgetter
from typing import Callable, Iterable, Mapping

from reportlab import rl_config
from reportlab.lib.rl_accel import fp_str  # numbers as reportlab writes them in operators: "1.5"
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFImageXObject, PDFName, PDFStream, PDFZCompress
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.textobject import rtlSupport

#: The operators of the page (or form) being drawn, the list reportlab appends to and
#: writes out when the page ends; a new list on each page and inside each form.
page_ops: Callable[[Canvas], list[str]] = attrgetter("_code")


def escaper(canvas: Canvas) -> Callable[[str], str]:
    """The canvas's escaping of a string shown in a text operator (parentheses, backslashes...)."""
    return canvas._escape


def font_chunks(font, text: str, canvas: Canvas) -> list[tuple[int, bytes]]:
    """``text`` as the runs a TrueType font writes it in: (its subset, the run's bytes in it)."""
    return font.splitString(text, canvas._doc)


def glyph_codes(font, canvas: Canvas) -> Mapping[int, int]:
    """The code each character (by its code point) was given in the font's subsets of
    ``canvas``'s document, once :func:`font_chunks` has written it: subset number
    times 256 plus its byte in that subset. A character is never given another."""
    return font.state[canvas._doc].assignments


def subset_name(font, subset: int, canvas: Canvas) -> str:
    """The name a font's subset has in the PDF ("/F1+0")."""
    return font.getSubsetInternalName(subset, canvas._doc)


def font_characters(font) -> Iterable[int]:
    """The code points a registered TrueType font has a glyph for."""
    return font.face.charToGlyph


def writes_text_as_drawn(canvas: Canvas) -> bool:
    """Whether text operators written directly are what ``drawString`` would write: a canvas
    drawn bottom-up, and reportlab not reordering right-to-left text."""
    return bool(canvas.bottomup) and not rtlSupport


def save_state_record(canvas: Canvas) -> int:
    """Save the canvas's own record of its state (font, colours, line width); how deep it was."""
    depth = len(canvas.state_stack)
    canvas.push_state_stack()
    return depth


def restore_state_record(canvas: Canvas, depth: int) -> None:
    """Put the canvas's record of its state back as it was at ``depth`` (a drawing may have
    saved states that the drawing after it restores)."""
    del canvas.state_stack[depth + 1:]
    canvas.pop_state_stack()


class _Picture(PDFImageXObject):
    """An image object of pixels already encoded (pnp.render.pictures.Encoded): a JPEG as it
    is, or Flate with PNG's row filters (``/DecodeParms``, which reportlab's own images lack)."""

    def __init__(self, name: str, stored, smask=None) -> None:
        super().__init__(name)
        self.width, self.height = stored.width, stored.height
        self.bitsPerComponent = 8
        self.colorSpace = stored.color_space
        self._filters = stored.filters
        self.streamContent = stored.data
        self.mask = None
        self.colors = stored.predictor_colors
        if smask is not None:
            self.smask = smask

    def format(self, document):
        stream = PDFStream(content=self.streamContent)
        entries = stream.dictionary
        entries["Type"] = PDFName("XObject")
        entries["Subtype"] = PDFName("Image")
        entries["Width"] = self.width
        entries["Height"] = self.height
        entries["BitsPerComponent"] = self.bitsPerComponent
        entries["ColorSpace"] = PDFName(self.colorSpace)
        entries["Filter"] = PDFArray([PDFName(f) for f in self._filters])
        if self.colors:
            # One entry per filter, as the filters are an array (some readers ignore a lone dictionary).
            entries["DecodeParms"] = PDFArray([PDFDictionary({"Predictor": 15, "Colors": self.colors,
                                                              "BitsPerComponent": 8, "Columns": self.width})])
        entries["Length"] = len(self.streamContent)
        if getattr(self, "smask", None):
            entries["SMask"] = self.smask
        return stream.format(document)


def image_object(canvas: Canvas, name: str, stored) -> str:
    """Store encoded pixels (and their soft mask) as an image object of the document; its name."""
    doc = canvas._doc
    smask = None
    if stored.mask is not None:
        mask_name = f"{name}M"
        smask = doc.Reference(_Picture(mask_name, stored.mask), doc.getXObjectName(mask_name))
    doc.Reference(_Picture(name, stored, smask), doc.getXObjectName(name))
    return name


def use_xobject(canvas: Canvas, name: str) -> str:
    """Register an image object with the page (or form) being drawn, as drawImage does; the
    name its operators show it by (``/FormXob.P0`` ... ``Do``)."""
    canvas._formsinuse.append(name)
    canvas._currentPageHasImages = 1
    return canvas._doc.getXObjectName(name)


def use_form(canvas: Canvas, name: str) -> None:
    """Register a form with the page (or form) being drawn, as ``doForm`` does: for a form
    placed by a recording of ``doForm``'s operators."""
    canvas._formsinuse.append(name)


def write_streams_plain() -> None:
    """Page streams compressed, without ASCII85 on top (it would only make them 25% bigger)."""
    rl_config.useA85 = 0


class _PageStream(PDFStream):
    """A page's compressed stream, let go of once it is written into the PDF's bytes: the
    document is made while every page is still held, and a deck of thousands of cards would
    otherwise hold its pages' streams twice at that moment (once here, once in the PDF).
    A document is made once (written a second time, the stream says it has no content)."""

    def format(self, document) -> bytes:
        written = super().format(document)
        self.content = None
        return written


def compress_last_page(canvas: Canvas) -> None:
    """Compress the page just finished now rather than when the PDF is saved.

    reportlab keeps every page's drawing as text until the end, a kilobyte and
    a half for each card; compressed, it takes a tenth of that. The stream is
    the one reportlab would write: the same filter, the same bytes.
    """
    page = canvas._doc.Pages.pages[-1]
    stream = getattr(page, "stream", None)
    if not page.compression or rl_config.useA85 or not isinstance(stream, str) or page.Contents:
        return  # written as reportlab writes it
    packed = _PageStream(content=zlib.compress(stream.encode("utf8")))
    packed.dictionary["Filter"] = PDFArray([PDFName(PDFZCompress.pdfname)])
    packed.__Comment__ = "page stream"
    page.Contents = packed
    page.stream = None


__all__ = ["compress_last_page", "escaper", "font_characters", "font_chunks", "fp_str", "glyph_codes", "image_object",
           "page_ops", "restore_state_record", "save_state_record", "subset_name", "write_streams_plain",
           "use_form", "use_xobject", "writes_text_as_drawn"]
