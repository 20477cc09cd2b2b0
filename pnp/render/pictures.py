"""A kit's pictures in its PDF: each decoded as the camera meant it, in sRGB, stored once.

A picture placed on many pieces is one image object of the PDF, drawn wherever it
goes (:class:`PictureStore`). Before it is stored its file is read again through
:mod:`pnp.template.pictures` (the same checks, recorded for ``pnp watch``), and:

- turned as its EXIF orientation says;
- made sRGB: an embedded ICC profile (a camera's Adobe RGB, a print shop's CMYK) is
  converted with Pillow's ImageCms; CMYK without a profile, palettes, 16-bit and
  two-level pictures are converted plainly;
- kept with its transparency (an alpha channel, a palette's see-through colour) as the
  PDF's soft mask;
- made smaller when it has far more pixels than its largest printed size needs at the
  kit's ``image_dpi`` (:func:`pnp.layout.kinds.image.stored_sizes`).

A JPEG that needs none of this goes into the PDF as it is, byte for byte; a JPEG that
does is stored as a JPEG again (quality 90, no chroma subsampling), a PNG or WebP
losslessly (Flate with PNG's row filters). Pillow only; the image objects themselves
are made in ``pnp/render/reportlab_internals.py``.
"""

from __future__ import annotations

import io
import os
import struct
from typing import TYPE_CHECKING, Mapping

from pnp.core.records import NamedTuple
from pnp.template.pictures import PictureError, opened, orientation, png_chunks, read_picture

if TYPE_CHECKING:
    from concurrent.futures import Future

#: How a JPEG is stored again once changed: sharp enough for print, a tenth of the raw size.
JPEG_QUALITY = 90
#: How a picture is made smaller: bicubic, as a photo editor's default (Lanczos is a little
#: sharper and takes half as long again; bench/RESULTS.md).
RESAMPLING = 3   # PIL.Image.Resampling.BICUBIC, without loading Pillow to name it
#: How hard a picture stored losslessly is compressed: zlib's level 3 is several times faster
#: than its default 6 on a photograph, and its files a few per cent larger.
FLATE_LEVEL = 3


class Encoded(NamedTuple):
    """A picture's pixels as a PDF image object holds them."""

    width: int
    height: int
    color_space: str            # DeviceRGB or DeviceGray
    filters: tuple[str, ...]    # DCTDecode, or FlateDecode
    data: bytes
    predictor_colors: int = 0   # for Flate with PNG's row filters: the channels per pixel; 0 without
    mask: "Encoded | None" = None   # the soft mask: the picture's transparency, DeviceGray


def _transposition(turn: int):
    """The Pillow transposition that shows a picture of EXIF orientation ``turn`` upright."""
    from PIL import Image

    return {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180,
            4: Image.Transpose.FLIP_TOP_BOTTOM, 5: Image.Transpose.TRANSPOSE,
            6: Image.Transpose.ROTATE_270, 7: Image.Transpose.TRANSVERSE,
            8: Image.Transpose.ROTATE_90}.get(turn)


def _profile_of(image):
    """The ICC profile a picture carries, unless it is none or sRGB (nothing to convert)."""
    icc = image.info.get("icc_profile")
    if not icc:
        return None
    from PIL import ImageCms

    try:
        profile = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        described = ImageCms.getProfileDescription(profile) or ""
    except (OSError, ValueError, TypeError, ImageCms.PyCMSError):
        return None   # a profile that cannot be read says nothing reliable: the pixels as they are
    if "srgb" in described.lower().replace(" ", ""):
        return None
    return profile


def _in_srgb(image, name: str):
    """The picture in L, RGB, LA or RGBA, its colours in sRGB."""
    from PIL import ImageCms

    mode = image.mode
    if mode in ("I;16", "I;16L", "I;16B", "I;16N", "I", "F"):
        # 16-bit (or wider) grey: scaled to 8 bits, not clipped at 255.
        image = image.convert("I") if mode != "F" else image
        return image.point(lambda value: value * (1 / 257)).convert("L")
    if mode == "1":
        return image.convert("L")
    if mode == "P":
        return image.convert("RGBA" if "transparency" in image.info else "RGB")
    if mode in ("PA", "La", "RGBa"):
        return image.convert("RGBA")
    profile = _profile_of(image)
    if profile is not None and mode in ("RGB", "RGBA", "CMYK", "L", "LA"):
        alpha = image.getchannel("A") if mode in ("RGBA", "LA") else None
        base = image.convert("RGB" if mode == "RGBA" else "L") if alpha is not None else image
        try:
            converted = ImageCms.profileToProfile(base, profile, _SRGB(), outputMode="RGB",
                                                  renderingIntent=ImageCms.Intent.PERCEPTUAL)
        except (ImageCms.PyCMSError, OSError, ValueError) as exc:
            raise PictureError(f"{name}: its colour profile cannot be converted to sRGB ({exc})") from None
        if alpha is not None:
            converted.putalpha(alpha)
        return converted
    if mode in ("L", "RGB", "LA", "RGBA"):
        return image
    return image.convert("RGB")   # CMYK without a profile, YCbCr, LAB, RGBX


def _cores() -> int:
    """The cores this process may use, at most 4."""
    try:
        return max(1, min(4, len(os.sched_getaffinity(0))))
    except AttributeError:
        return max(1, min(4, os.cpu_count() or 1))


def _SRGB():
    from PIL import ImageCms

    return ImageCms.createProfile("sRGB")


def _passes_through(image, turn: int, size: tuple[int, int] | None) -> bool:
    """Whether a JPEG can go into the PDF as its file is: upright, in sRGB or grey, its own size."""
    return (image.format == "JPEG" and size is None and turn == 1 and image.mode in ("L", "RGB")
            and _profile_of(image) is None)


def _pixels(image, turn: int, name: str, size: tuple[int, int] | None):
    """A picture's pixels decoded as shown: upright, in sRGB (L, RGB, LA or RGBA), at ``size``."""
    from PIL import Image

    try:
        if image.format == "JPEG" and size is not None:
            # Decoded straight at a half, a quarter or an eighth when that is still large enough.
            image.draft(image.mode, size if turn not in (5, 6, 7, 8) else (size[1], size[0]))
        image.load()
    except (OSError, ValueError, SyntaxError, struct.error, Image.DecompressionBombError) as exc:
        raise PictureError(f"{name}: a damaged picture ({' '.join(str(exc).split())[:200]})") from None
    transposition = _transposition(turn)
    if transposition is not None:
        image = image.transpose(transposition)
    image = _in_srgb(image, name)
    if size is not None and image.size != size:
        image = image.resize(size, RESAMPLING, reducing_gap=3.0)
    return image


def _png_rows(data: bytes, image, turn: int, size: tuple[int, int] | None) -> Encoded | None:
    """A PNG's own compressed rows, when a PDF can read them as they are: 8-bit grey or RGB, not
    interlaced, opaque, upright, in sRGB, at its own size (no pixel decoded, none encoded again)."""
    if image.format != "PNG" or size is not None or turn != 1 or image.mode not in ("L", "RGB") \
            or "transparency" in image.info or _profile_of(image) is not None:
        return None
    depth, kind, interlaced = data[24], data[25], data[28]
    if depth != 8 or kind not in (0, 2) or interlaced:
        return None
    rows = b"".join(data[start:start + length] for chunk, start, length in png_chunks(data) if chunk == b"IDAT")
    colors = 1 if kind == 0 else 3
    return Encoded(image.width, image.height, "DeviceGray" if colors == 1 else "DeviceRGB", ("FlateDecode",),
                   data=rows, predictor_colors=colors)


def encoded(source: str, name: str, size: tuple[int, int] | None) -> Encoded:
    """A picture file as the PDF stores it, at ``size`` pixels (as shown) or its own."""
    data = read_picture(source, name)
    image = opened(data, name)
    turn = orientation(image, data)
    if _passes_through(image, turn, size):
        return Encoded(image.width, image.height, "DeviceGray" if image.mode == "L" else "DeviceRGB",
                       ("DCTDecode",), data=data)
    rows = _png_rows(data, image, turn, size)
    if rows is not None:
        return rows
    was_jpeg = image.format == "JPEG"
    image = _pixels(image, turn, name, size)
    mask = None
    if image.mode in ("LA", "RGBA"):
        alpha = image.getchannel("A")
        if alpha.getextrema()[0] < 255:
            mask = _flate(alpha)
        image = image.convert("L" if image.mode == "LA" else "RGB")
    stored = _jpeg(image) if was_jpeg else _flate(image)
    return stored._replace(mask=mask)


def _jpeg(image) -> Encoded:
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=JPEG_QUALITY, subsampling=0)
    return Encoded(image.width, image.height, "DeviceGray" if image.mode == "L" else "DeviceRGB",
                   ("DCTDecode",), data=buffer.getvalue())


def _flate(image) -> Encoded:
    """Lossless: the compressed rows of a PNG (each with its filter), which a PDF reads as Flate
    with PNG predictors: smaller than the plain rows reportlab's own images compress."""
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=FLATE_LEVEL)
    png = buffer.getvalue()
    return _png_rows(png, _header(png), 1, None)


def _header(png: bytes):
    from PIL import Image

    return Image.open(io.BytesIO(png), formats=("PNG",))


class PictureStore:
    """The pictures of one PDF: each file stored once, at the size :func:`stored_sizes` chose,
    the first time a piece draws it (``name``: the image object's name on the page).

    Given the pictures a document will place (``names``: file -> the name the template wrote),
    they are decoded and encoded at once, on as many threads as the machine has cores (Pillow
    lets go of the interpreter while it decodes, resizes and encodes), while the pages are drawn."""

    def __init__(self, sizes: Mapping[str, tuple[int, int] | None] | None = None,
                 names: Mapping[str, str] | None = None) -> None:
        self.sizes = dict(sizes or {})
        self.names: dict[str, str] = {}
        self.pixels: dict[str, tuple[int, int]] = {}   # each stored picture's width and height
        self.edges: dict[tuple, str] = {}
        self.ready: dict[str, Future] = {}
        if names and len(names) > 1:
            from concurrent.futures import ThreadPoolExecutor  # threads (and their logging) only for pictures

            pool = ThreadPoolExecutor(min(len(names), _cores()), thread_name_prefix="picture")
            self.ready = {source: pool.submit(encoded, source, name, self.sizes.get(source))
                          for source, name in names.items()}
            pool.shutdown(wait=False)   # its threads end once the last picture is made

    def name(self, canvas, source: str, picture_name: str) -> str:
        """The stored picture's name, stored on first use (and registered with the page or form)."""
        from pnp.render.reportlab_internals import image_object, use_xobject

        name = self.names.get(source)
        if name is None:
            future = self.ready.pop(source, None)
            stored = future.result() if future is not None else encoded(source, picture_name, self.sizes.get(source))
            name = self.names[source] = image_object(canvas, f"P{len(self.names)}", stored)
            self.pixels[source] = (stored.width, stored.height)
        return use_xobject(canvas, name)

    def edge(self, canvas, source: str, picture_name: str, crop: tuple[int, int, int, int], *, rotate: int) -> str:
        """A strip of a picture's pixels (``crop``: left, top, right, bottom, in the stored picture
        as it lies before ``rotate``), turned as the picture is, stored once: a bleed made by
        drawing out a picture's edge."""
        from pnp.render.reportlab_internals import image_object, use_xobject

        key = (source, crop, rotate)
        name = self.edges.get(key)
        if name is None:
            strip = _strip(source, picture_name, self.sizes.get(source), crop, rotate=rotate)
            name = self.edges[key] = image_object(canvas, f"E{len(self.edges)}", strip)
        return use_xobject(canvas, name)


def _strip(source: str, name: str, size: tuple[int, int] | None, crop: tuple[int, int, int, int],
           *, rotate: int) -> Encoded:
    """A few pixels of a picture as stored and then turned counter-clockwise by ``rotate``
    (``crop`` is in the turned picture)."""
    strip = _decoded(source, name, size, rotate).crop(crop)
    if strip.mode in ("LA", "RGBA"):
        strip = strip.convert("L" if strip.mode == "LA" else "RGB")
    return _flate(strip)


_DECODED: dict[tuple, object] = {}


def _decoded(source: str, name: str, size: tuple[int, int] | None, rotate: int):
    """The picture's pixels as stored (upright, sRGB, at ``size``) and turned counter-clockwise
    by ``rotate``, for its edges; the last one kept (a picture's edges are drawn one after another)."""
    key = (source, size, rotate)
    if key not in _DECODED:
        from PIL import Image

        data = read_picture(source, name)
        image = opened(data, name)
        image = _pixels(image, orientation(image, data), name, size)
        if rotate:
            image = image.transpose({90: Image.Transpose.ROTATE_90, 180: Image.Transpose.ROTATE_180,
                                     270: Image.Transpose.ROTATE_270}[rotate])
        _DECODED.clear()
        _DECODED[key] = image
    return _DECODED[key]
