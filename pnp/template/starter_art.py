"""The pictures and the icon ``pnp new`` writes beside a new template: its own, drawn here.

Two card pictures, one per colour of the starter's deck (``art/sun.png``, ``art/sea.png``,
named by the ``art`` column of its ``cards.csv``), drawn in flat shapes in the palette of the
starter's template, and the star its texts show inline (``icons/star.svg``). Each picture is
720 x 480 px: on the card's 52.5 x 38 mm picture box, 320 dpi, over the 300 a print needs. They are
drawn at twice the size and made smaller, so their edges are smooth, then kept to a few dozen
colours, so each file is a few kilobytes; the same bytes every time for one version of Pillow.
"""

from __future__ import annotations

import io
import math

#: The pictures' size in pixels.
SIZE = (720, 480)
_SCALE = 2   # drawn at twice the size, then made smaller

STAR_SVG = """\
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">
  <!-- A five-pointed star; its fill takes the colour of the text it stands in. -->
  <path fill="currentColor" d="M12 1.5l3.1 6.9 7.4.7-5.6 5 1.7 7.4L12 17.7l-6.6 3.8 1.7-7.4-5.6-5 7.4-.7z"/>
</svg>
"""


def _wave(width: float, base: float, *, height: float, length: float, phase: float) -> list[tuple[float, float]]:
    """A band of sea: its top a wave, down to the picture's foot."""
    top = [(x, base + height * math.sin((x / length + phase) * 2 * math.pi)) for x in range(0, int(width) + 8, 8)]
    return [*top, (width, 10_000.0), (0.0, 10_000.0)]


def _png(picture) -> bytes:
    from PIL import Image

    small = picture.resize(SIZE, Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    small.quantize(colors=48, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        buffer, "PNG", optimize=True)
    return buffer.getvalue()


def sun_picture() -> bytes:
    """A low sun with its rays over two rolling hills, in ochre and warm greys."""
    from PIL import Image, ImageDraw

    w, h = SIZE[0] * _SCALE, SIZE[1] * _SCALE
    picture = Image.new("RGB", (w, h), "#f4e4c4")
    draw = ImageDraw.Draw(picture)
    cx, cy, r = w * 0.5, h * 0.58, h * 0.25
    for k in range(16):   # the rays, long and short in turn
        angle = 2 * math.pi * k / 16 - math.pi / 2
        reach = r * (1.9 if k % 2 else 1.55)
        spread = math.pi / 60
        draw.polygon([(cx + r * 1.2 * math.cos(angle - spread * 2), cy + r * 1.2 * math.sin(angle - spread * 2)),
                      (cx + reach * math.cos(angle), cy + reach * math.sin(angle)),
                      (cx + r * 1.2 * math.cos(angle + spread * 2), cy + r * 1.2 * math.sin(angle + spread * 2))],
                     fill="#e7b86a")
    draw.ellipse([cx - r * 1.1, cy - r * 1.1, cx + r * 1.1, cy + r * 1.1], fill="#ecc98a")
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill="#d08a1e")
    far = [(x, h * 0.70 - h * 0.07 * math.cos(x / w * 2.2 * math.pi + 0.6)) for x in range(0, w + 8, 8)]
    draw.polygon([*far, (w, h), (0, h)], fill="#b9825a")
    near = [(x, h * 0.82 - h * 0.06 * math.sin(x / w * 1.6 * math.pi + 2.0)) for x in range(0, w + 8, 8)]
    draw.polygon([*near, (w, h), (0, h)], fill="#8c5a3c")
    return _png(picture)


def sea_picture() -> bytes:
    """Rolling waves in four blues under a pale sky, a gull high on the left."""
    from PIL import Image, ImageDraw

    w, h = SIZE[0] * _SCALE, SIZE[1] * _SCALE
    picture = Image.new("RGB", (w, h), "#e3edf3")
    draw = ImageDraw.Draw(picture)
    draw.ellipse([w * 0.70, h * 0.10, w * 0.84, h * 0.31], fill="#f7f3e8")   # a pale sun
    bands = ((0.42, 0.030, 0.50, 0.1, "#a9c6de"), (0.55, 0.040, 0.42, 0.5, "#6f9cc3"),
             (0.69, 0.045, 0.36, 0.2, "#2f6e9c"), (0.84, 0.050, 0.30, 0.7, "#1f4d70"))
    for base, height, length, phase, colour in bands:   # the waves, from the far pale one
        draw.polygon(_wave(w, h * base, height=h * height, length=w * length, phase=phase), fill=colour)
    gx, gy, span = w * 0.22, h * 0.2, w * 0.05   # a gull: two arcs
    draw.arc([gx - span, gy - span / 2, gx, gy + span / 2], 200, 340, fill="#263238", width=7)
    draw.arc([gx, gy - span / 2, gx + span, gy + span / 2], 200, 340, fill="#263238", width=7)
    return _png(picture)


def starter_art() -> dict[str, bytes]:
    """The files, by their names in the new folder."""
    return {"art/sun.png": sun_picture(), "art/sea.png": sea_picture(), "icons/star.svg": STAR_SVG.encode("utf-8")}
