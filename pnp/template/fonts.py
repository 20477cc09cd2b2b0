"""A designer's own fonts (a template's ``[fonts]``): found beside the template and checked on load.

``[fonts]`` names each font the template's texts may choose (``font = "title"``) beside
Lato's four (regular, bold, black, italic)::

    [fonts]
    title = "fonts/Comfortaa-Bold.ttf"
    body = { file = "fonts/Body-Regular.ttf", bold = "fonts/Body-Bold.ttf", italic = "fonts/Body-Italic.ttf",
             licence = "SIL Open Font License 1.1" }

Each file lies in the template's folder or a folder under it (:func:`pnp.core.files.within`, as
a data file or a picture), is read through :func:`pnp.core.files.read_regular` (a regular file
within :data:`~pnp.core.limits.MAX_FONT_BYTES`, recorded for ``pnp watch``) and must be a
TrueType font (``.ttf``, or an OpenType ``.otf`` with TrueType outlines): its tables are read
from the file's own directory of them, with the standard library. An OpenType font with
PostScript (CFF) outlines, a collection, a font whose licence forbids embedding it, or one
without the tables a PDF needs is refused in words. Which characters it can draw is the
renderer's to say (every text is checked against its glyphs as it is laid out, as Lato's are).
"""

from __future__ import annotations

import struct
from pathlib import Path, PurePosixPath

from pnp.core.files import OutsideFolder, ReadError, read_regular, within
from pnp.core.limits import MAX_FONT_BYTES, size_shown
from pnp.core.records import NamedTuple

#: The built-in family, each style a font of the template language (Lato).
BUILT_IN = ("regular", "bold", "black", "italic")
#: What runs of a text may ask of a font besides itself: ``**bold**``, ``*italic*``, both.
VARIANTS = ("bold", "italic", "bold_italic")
#: The keys of a font's table in ``[fonts]``.
FONT_KEYS = ("file", *VARIANTS, "licence")
#: The tables a TrueType font embedded in a PDF needs.
_NEEDED = (b"cmap", b"glyf", b"head", b"hhea", b"hmtx", b"loca", b"maxp", b"name", b"post")


#: What a run of a text in each of Lato's styles is set in: ``**bold**`` a weight heavier,
#: ``*italic*`` slanted (and upright inside italic text, as type sets emphasis); Lato here has no
#: bold italic.
LATO_RUNS = {
    "regular": {"bold": "bold", "italic": "italic"},
    "bold": {"bold": "black"},
    "black": {"bold": "black"},
    "italic": {"italic": "regular"},
}


def run_style(fonts, name: str, variant: str = "") -> str:
    """The style a text in the font ``name`` (one of Lato's, or of the template's own ``fonts``)
    is set in, or a run of it in ``variant`` (``bold``, ``italic`` or ``bold_italic``): Lato's
    styles by their names, a template's own font by its file. FontError when the font has no
    such variant.

    >>> run_style({}, "regular"), run_style({}, "regular", "bold"), run_style({}, "italic", "italic")
    ('regular', 'bold', 'regular')
    """
    own = fonts.get(name)
    if own is None:
        if not variant:
            return name
        found = LATO_RUNS.get(name, {}).get(variant)
        if found is None:
            raise FontError(f"Lato {name} has no {_variant_words(variant)} here (a run of "
                            f"{_marks(variant)} in a {name} text): write it plain, or choose a font of your "
                            "own in [fonts] that has one")
        return found
    if not variant:
        return own.path
    found = getattr(own, variant)
    if found is None:
        raise FontError(f"the font {name!r} has no {_variant_words(variant)} (a run of {_marks(variant)}): give "
                        f"[fonts.{name}] {variant} = \"FILE.ttf\", or write it plain")
    return found


def _variant_words(variant: str) -> str:
    return {"bold": "bold", "italic": "italic", "bold_italic": "bold italic"}[variant]


def _marks(variant: str) -> str:
    return {"bold": "**bold**", "italic": "*italic*", "bold_italic": "***bold italic***"}[variant]


class FontError(ValueError):
    """A font file that cannot be used; the message names it as the template wrote it."""


class Font(NamedTuple):
    """One of a template's own fonts: its file and the files of its variants, resolved."""

    name: str                    # as the template names it: font = "title"
    path: str
    bold: str | None = None
    italic: str | None = None
    bold_italic: str | None = None
    licence: str | None = None   # for the cover's credits
    family: str = ""             # the family's name, as the font file gives it


def font_file(folder: Path | str, name: str) -> tuple[str, str]:
    """A font file beside a template: (its resolved path, its family's name); FontError otherwise."""
    try:
        path = within(Path(folder), name)
    except OutsideFolder as exc:
        tail = "; this one leads out of it" if exc.leads_out else " (a name like 'fonts/Title.ttf')"
        raise FontError(f"{name!r}: a font lies in the template's folder or under it{tail}") from None
    if PurePosixPath(name.replace("\\", "/")).suffix.lower() not in (".ttf", ".otf"):
        raise FontError(f"{name!r}: a font is a TrueType .ttf file (or an OpenType .otf with TrueType outlines)")
    try:
        data = read_regular(path, MAX_FONT_BYTES)
    except ReadError as exc:
        if exc.kind == "missing":
            raise FontError(f"{name}: no such font beside the template") from None
        if exc.kind == "too_large":
            raise FontError(f"{name}: the font is larger than the limit of {size_shown(MAX_FONT_BYTES)}") from None
        raise FontError(f"{name}: cannot read the font ({exc.reason})") from None
    return str(path), truetype_family(data, name)


def _tables(data: bytes, name: str) -> dict[bytes, tuple[int, int]]:
    """A font's tables by tag: (offset, length), each checked to lie within the file."""
    if len(data) < 12:
        raise FontError(f"{name}: not a font file (too short)")
    magic = data[:4]
    if magic == b"OTTO":
        raise FontError(f"{name}: an OpenType font with PostScript (CFF) outlines, which the PDFs made here cannot "
                        "embed; use the font's TrueType version (.ttf), or convert it (fontTools' otf2ttf, "
                        "FontForge)")
    if magic == b"ttcf":
        raise FontError(f"{name}: a collection of fonts; give one of its fonts as a .ttf file of its own")
    if magic in (b"wOFF", b"wOF2"):
        raise FontError(f"{name}: a web font (WOFF); use the font's TrueType version (.ttf)")
    if magic not in (b"\x00\x01\x00\x00", b"true"):
        raise FontError(f"{name}: not a TrueType font")
    count = struct.unpack(">H", data[4:6])[0]
    if 12 + 16 * count > len(data):
        raise FontError(f"{name}: a damaged font (its table of contents runs past the file)")
    tables = {}
    for index in range(count):
        tag, _, offset, length = struct.unpack(">4sIII", data[12 + 16 * index:28 + 16 * index])
        if offset + length > len(data):
            raise FontError(f"{name}: a damaged font (its {tag.decode('latin-1')!r} table runs past the file)")
        tables[tag] = (offset, length)
    return tables


def truetype_family(data: bytes, name: str) -> str:
    """A TrueType font's family name, once its file is found to be one a PDF can embed."""
    tables = _tables(data, name)
    missing = [tag.decode("latin-1") for tag in _NEEDED if tag not in tables]
    if missing:
        raise FontError(f"{name}: not a TrueType font a PDF can embed (no {', '.join(missing)} table)")
    if b"OS/2" in tables:
        offset, length = tables[b"OS/2"]
        if length >= 10:
            kind = struct.unpack(">H", data[offset + 8:offset + 10])[0]
            if kind == 0x0002 or kind & 0x0300:
                raise FontError(f"{name}: its licence forbids embedding it in a document (OS/2 fsType "
                                f"{kind:#06x}); ask its maker for a licence that allows it")
    return _family(data, tables) or PurePosixPath(name).stem


def _family(data: bytes, tables: dict[bytes, tuple[int, int]]) -> str:
    """The family name of a font's name table (English or the first given), or ""."""
    offset, length = tables[b"name"]
    try:
        _, count, strings = struct.unpack(">HHH", data[offset:offset + 6])
        found = {}
        for index in range(count):
            platform, encoding, language, name_id, size, at = struct.unpack(
                ">HHHHHH", data[offset + 6 + 12 * index:offset + 18 + 12 * index])
            if name_id not in (1, 16):
                continue
            raw = data[offset + strings + at:offset + strings + at + size]
            text = raw.decode("utf-16-be" if platform in (0, 3) else "latin-1", errors="replace")
            found.setdefault((name_id, platform == 3 and language == 0x409), text)
        for key in ((16, True), (1, True), (16, False), (1, False)):
            if found.get(key):
                return found[key].strip()[:80]
    except struct.error:
        pass
    return ""


__all__ = ["BUILT_IN", "FONT_KEYS", "Font", "FontError", "LATO_RUNS", "VARIANTS", "font_file", "run_style", "truetype_family"]
