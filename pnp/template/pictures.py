"""A designer's pictures (an ``image`` element's file): found, read and checked before use.

A picture is a PNG, a JPEG or (when Pillow reads it) a WebP file in the template's
folder or a folder under it, named as a data file is (``art/wolf.jpg``; never an
absolute path, ``..`` or a link leading out: :func:`pnp.core.files.within`). It is
read through :func:`pnp.core.files.read_regular` (a regular file within
:data:`~pnp.core.limits.MAX_PICTURE_BYTES`, recorded for ``pnp watch``) and opened
by Pillow with those three formats only, so no other decoder (Ghostscript's for
EPS, say) ever sees a designer's file. Its pixels are counted from its header
before anything is decoded (:data:`~pnp.core.limits.MAX_PICTURE_PIXELS`), and
Pillow's own decompression-bomb guard is an error, never a warning.

Here only what laying a face out needs is read (:class:`PictureInfo`: the size
as the camera meant it, EXIF orientation applied); the renderer decodes the
pixels (:func:`decoded`, ``pnp/render/pictures.py``). Every problem is one
:class:`PictureError` line naming the file as the template wrote it.
"""

from __future__ import annotations

import io
import struct
import warnings
from functools import lru_cache
from pathlib import Path, PurePosixPath

from pnp.core.errors import TemplateError
from pnp.core.files import OutsideFolder, ReadError, read_regular, within
from pnp.core.limits import MAX_PICTURE_BYTES, MAX_PICTURE_PIXELS, size_shown
from pnp.core.records import NamedTuple

#: The file names a picture may have, and the formats Pillow may read it as.
SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")
FORMATS = ("PNG", "JPEG", "WEBP")
#: EXIF orientations that turn the picture a quarter (its width and height swap).
_TURNED = (5, 6, 7, 8)


class PictureError(TemplateError):
    """A picture that cannot be used: the message names the file as the template wrote it."""


class PictureInfo(NamedTuple):
    """What laying out a picture needs: where it is and how many pixels it shows."""

    path: str            # the file, resolved
    name: str            # as the template wrote it
    width: int           # pixels, as shown (EXIF orientation applied)
    height: int
    format: str          # PNG, JPEG or WEBP


def picture_path(folder: Path | str, name: str) -> Path:
    """The picture ``name`` in the template's ``folder`` or under it; PictureError otherwise."""
    try:
        path = within(Path(folder), name)
    except OutsideFolder as exc:
        if exc.leads_out:
            raise PictureError(f"{name!r}: a picture lies in the template's folder or under it; this one "
                               "leads out of it") from None
        raise PictureError(f"{name!r}: a picture lies in the template's folder or under it (a name like "
                           "'wolf.jpg' or 'art/wolf.png')") from None
    if PurePosixPath(name.replace("\\", "/")).suffix.lower() not in SUFFIXES:
        raise PictureError(f"{name!r}: a picture is a .png, .jpg, .jpeg or .webp file")
    return path


def read_picture(path: Path | str, name: str) -> bytes:
    """The bytes of a picture file (a regular file within its size limit, recorded for pnp watch)."""
    try:
        return read_regular(path, MAX_PICTURE_BYTES)
    except ReadError as exc:
        if exc.kind == "missing":
            raise PictureError(f"{name}: no such picture beside the template") from None
        if exc.kind == "too_large":
            raise PictureError(f"{name}: the picture is larger than the limit of "
                               f"{size_shown(MAX_PICTURE_BYTES)}") from None
        raise PictureError(f"{name}: cannot read the picture ({exc.reason})") from None


def opened(data: bytes, name: str):
    """A Pillow image of a picture's bytes, its header read and its pixels counted, not decoded."""
    from PIL import Image   # Pillow loads only for kits with pictures

    formats = tuple(f for f in FORMATS if f != "WEBP" or _reads_webp())
    try:
        with warnings.catch_warnings():
            # Pillow's bomb guard warns first and refuses later: here both refuse.
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=formats)
    except (Image.DecompressionBombWarning, Image.DecompressionBombError):
        raise PictureError(f"{name}: the picture claims more than {MAX_PICTURE_PIXELS:,} pixels, the "
                           "limit") from None
    except Image.UnidentifiedImageError:
        readable = ", ".join(formats).replace("WEBP", "WebP")
        raise PictureError(f"{name}: not a picture that can be read ({readable})") from None
    except (OSError, ValueError, SyntaxError) as exc:
        raise PictureError(f"{name}: a damaged picture ({_why(exc)})") from None
    width, height = image.size
    if width < 1 or height < 1 or width * height > MAX_PICTURE_PIXELS:
        raise PictureError(f"{name}: {width:,} x {height:,} pixels; the limit is {MAX_PICTURE_PIXELS:,} pixels "
                           "in one picture")
    return image


def _why(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200] or type(exc).__name__


@lru_cache(maxsize=None)
def _reads_webp() -> bool:
    from PIL import features

    return bool(features.check("webp"))


def png_chunks(data: bytes):
    """A PNG file's chunks, in order: (kind, start of its data, length), read from their headers."""
    at = 8
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        yield kind, at + 8, length
        at += 12 + length


def orientation(image, data: bytes) -> int:
    """A picture's EXIF orientation, 1 (as stored) to 8; 1 when it has none or a wrong one.

    A PNG's EXIF may follow its pixels, which Pillow would decode to reach it: it is looked for
    only when the file has an ``eXIf`` chunk."""
    if image.format == "PNG" and not any(kind == b"eXIf" for kind, _, _ in png_chunks(data)):
        return 1
    try:
        value = image.getexif().get(0x0112, 1)
    except (OSError, ValueError, SyntaxError, TypeError, KeyError, IndexError):
        return 1   # an EXIF block that cannot be read says nothing about turning
    return value if isinstance(value, int) and 1 <= value <= 8 else 1


@lru_cache(maxsize=1024)
def picture_info(folder: str, name: str) -> PictureInfo:
    """The picture ``name`` beside a template in ``folder``: found, read and its header checked
    (remembered: a deck's background is looked at once, however many pieces show it)."""
    path = picture_path(folder, name)
    data = read_picture(path, name)
    image = opened(data, name)
    width, height = image.size
    turned = orientation(image, data) in _TURNED
    _readable(data, image, name)
    if turned:
        width, height = height, width
    return PictureInfo(str(path), name, width, height, format=image.format)


def _readable(data: bytes, image, name: str) -> None:
    """A PictureError unless the whole picture can be read, found cheaply: a PNG's chunks and
    their checksums to its end, a JPEG decoded at an eighth of its size, a WebP decoded. A file
    cut short or damaged is named before anything is drawn."""
    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            if image.format == "PNG":
                Image.open(io.BytesIO(data), formats=("PNG",)).verify()
            elif image.format == "JPEG":
                image.draft(image.mode, (1, 1))
                image.load()
            else:
                image.load()
    except (OSError, ValueError, SyntaxError, EOFError, Image.DecompressionBombWarning,
            Image.DecompressionBombError) as exc:
        raise PictureError(f"{name}: a damaged picture ({_why(exc)})") from None


__all__ = ["FORMATS", "PictureError", "PictureInfo", "SUFFIXES", "opened", "orientation", "picture_info",
           "picture_path", "png_chunks", "read_picture"]
