"""Draws Lantern Market's pictures, the PNG files beside this script (made for the example, no
one else's art): a paper lantern of each colour at night for the cards, their backs, a coin and
a market stall. Flat shapes drawn at twice the size with Pillow and made smaller (smooth edges),
then kept to a few dozen colours, so each file stays small. Run it again after a change:

    python examples/lantern-market/art/draw.py
"""

from __future__ import annotations

import math
import random
from pathlib import Path

from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parent
NIGHT, DUSK, GOLD, DARK_GOLD, CREAM = "#2e3868", "#3c4478", "#e2b04a", "#9c6b1c", "#f4ead2"
#: Each lantern's paper: its colour, a darker one for its ribs, a pale one for its glow.
LANTERNS = {
    "amber": ("#e8912c", "#b5661a", "#f6c77e"),
    "jade": ("#3f9c7a", "#2a6f56", "#8fd1b5"),
    "rose": ("#d9587a", "#a83a58", "#f0a3b7"),
    "indigo": ("#5b6ed6", "#3c4aa0", "#a9b5f0"),
}
TWICE = 2


def _canvas(size: tuple[int, int], colour: str):
    picture = Image.new("RGB", (size[0] * TWICE, size[1] * TWICE), colour)
    return picture, ImageDraw.Draw(picture)


def _save(picture, name: str, colours: int = 96) -> None:
    small = picture.resize((picture.width // TWICE, picture.height // TWICE), Image.Resampling.LANCZOS)
    small.quantize(colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
        HERE / name, "PNG", optimize=True)


def _blend(a: str, b: str, share: float) -> tuple[int, int, int]:
    """``share`` of the way from colour ``a`` to ``b``."""
    ca, cb = (tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in (a, b))
    return tuple(round(x + (y - x) * share) for x, y in zip(ca, cb))


def _stars(draw, size: tuple[int, int], count: int, seed: int) -> None:
    w, h = size
    rng = random.Random(seed)
    for _ in range(count):
        x, y, r = rng.uniform(0, w), rng.uniform(0, h), rng.choice((2, 3, 3, 4, 5))
        draw.ellipse([x - r, y - r, x + r, y + r], fill=_blend(NIGHT, CREAM, rng.uniform(0.35, 0.8)))


def _lantern(draw, middle: tuple[float, float], radii: tuple[float, float], colours: tuple[str, str, str]) -> None:
    """A round paper lantern: its glow, its paper and ribs, its caps and its string."""
    (cx, cy), (rx, ry) = middle, radii
    paper, rib, glow = colours
    for step, share in ((1.7, 0.16), (1.4, 0.3)):   # the glow, in rings
        draw.ellipse([cx - rx * step, cy - ry * step, cx + rx * step, cy + ry * step], fill=_blend(NIGHT, glow, share))
    draw.line([cx, 0, cx, cy - ry], fill=DARK_GOLD, width=max(2, int(rx * 0.05)))
    draw.ellipse([cx - rx, cy - ry, cx + rx, cy + ry], fill=paper)
    draw.ellipse([cx - rx * 0.62, cy - ry * 0.72, cx + rx * 0.22, cy + ry * 0.3], fill=_blend(paper, glow, 0.45))
    width = max(2, int(rx * 0.035))
    for share in (0.35, 0.72):   # the ribs, bowed like the paper
        draw.ellipse([cx - rx * share, cy - ry, cx + rx * share, cy + ry], outline=rib, width=width)
    draw.line([cx, cy - ry, cx, cy + ry], fill=rib, width=width)
    cap = (cx - rx * 0.42, cy - ry - ry * 0.14, cx + rx * 0.42, cy - ry + ry * 0.08)
    draw.rounded_rectangle(cap, radius=rx * 0.06, fill=GOLD, outline=DARK_GOLD, width=max(2, int(rx * 0.03)))
    foot = (cx - rx * 0.42, cy + ry - ry * 0.08, cx + rx * 0.42, cy + ry + ry * 0.14)
    draw.rounded_rectangle(foot, radius=rx * 0.06, fill=GOLD, outline=DARK_GOLD, width=max(2, int(rx * 0.03)))
    for k in range(-2, 3):   # the tassel
        draw.line([cx + k * rx * 0.05, cy + ry * 1.14, cx + k * rx * 0.08, cy + ry * 1.45], fill=rib,
                  width=max(2, int(rx * 0.03)))


def _garland(draw, w: int, y: float, *, sag: float, seed: int) -> None:
    """A string of small lanterns across the sky."""
    rng = random.Random(seed)
    points = [(x, y + sag * math.sin(math.pi * x / w)) for x in range(-20, w + 21, 10)]
    draw.line(points, fill=_blend(NIGHT, CREAM, 0.35), width=4)
    for index in range(1, 9):
        x = w * index / 9
        top = y + sag * math.sin(math.pi * x / w)
        paper, _, glow = LANTERNS[rng.choice(sorted(LANTERNS))]
        r = w * 0.018
        draw.ellipse([x - r * 1.7, top + r * 1.5 - r * 1.7, x + r * 1.7, top + r * 1.5 + r * 1.7],
                     fill=_blend(NIGHT, glow, 0.22))
        draw.ellipse([x - r, top + r * 0.4, x + r, top + r * 2.6], fill=paper)


def card_picture(colour: str) -> None:
    """A lantern at night over the market's roofs, the card's bleed included (70 x 95 mm)."""
    w, h = 840 * TWICE, 1140 * TWICE
    picture, draw = _canvas((840, 1140), NIGHT)
    for index, share in enumerate((0.08, 0.16, 0.24)):   # the sky lightens towards the roofs
        top = h * (0.36 + 0.1 * index)
        draw.rectangle([0, top, w, h], fill=_blend(NIGHT, DUSK, share * 3))
    _stars(draw, (w, int(h * 0.4)), 70, seed=len(colour))
    _garland(draw, w, h * 0.1, sag=h * 0.05, seed=7)
    roofs = [(0, h * 0.6)]   # the market's roofs, a row of gables behind the lantern
    for k in range(7):
        x = w * k / 6
        roofs += [(x - w / 12, h * (0.58 if k % 2 else 0.56)), (x, h * (0.52 if k % 2 else 0.49)),
                  (x + w / 12, h * (0.58 if k % 2 else 0.56))]
    draw.polygon([*roofs, (w, h), (0, h)], fill="#262e57")
    _lantern(draw, (w * 0.5, h * 0.37), (w * 0.2, h * 0.13), LANTERNS[colour])
    _save(picture, f"lantern-{colour}.png")


def back_picture() -> None:
    """The cards' back, inside its quiet border: a crescent moon over a golden lantern."""
    w, h = 660 * TWICE, 980 * TWICE
    picture, draw = _canvas((660, 980), NIGHT)
    _stars(draw, (w, h), 90, seed=3)
    r = w * 0.16
    draw.ellipse([w * 0.26 - r, h * 0.16 - r, w * 0.26 + r, h * 0.16 + r], fill=CREAM)
    draw.ellipse([w * 0.33 - r, h * 0.13 - r, w * 0.33 + r, h * 0.13 + r], fill=NIGHT)
    _lantern(draw, (w * 0.5, h * 0.55), (w * 0.26, h * 0.16), (GOLD, DARK_GOLD, "#f7dc9a"))
    _save(picture, "back.png")


def coin_picture() -> None:
    """A gold coin with a lantern struck on it, to the edge of its picture (a round token's bleed)."""
    w = 360 * TWICE
    picture, draw = _canvas((360, 360), DARK_GOLD)
    draw.ellipse([w * 0.06, w * 0.06, w * 0.94, w * 0.94], fill=GOLD)
    draw.ellipse([w * 0.14, w * 0.14, w * 0.86, w * 0.86], outline=DARK_GOLD, width=int(w * 0.018))
    for k in range(24):   # the milled rim
        angle = 2 * math.pi * k / 24
        x, y = w / 2 + w * 0.41 * math.cos(angle), w / 2 + w * 0.41 * math.sin(angle)
        draw.ellipse([x - w * 0.012, y - w * 0.012, x + w * 0.012, y + w * 0.012], fill=DARK_GOLD)
    _save(picture, "coin.png", colours=24)


def stall_picture() -> None:
    """A market stall: a scalloped awning in stripes over a wooden counter (a hex tile's, 66 x 58 mm)."""
    w, h = 800 * TWICE, 700 * TWICE
    picture, draw = _canvas((800, 700), "#2a2f55")
    stripes = 10
    for k in range(stripes):   # the awning, and its scallops
        x = w * k / stripes
        colour = CREAM if k % 2 else "#c4452f"
        draw.rectangle([x, 0, x + w / stripes, h * 0.36], fill=colour)
        draw.ellipse([x, h * 0.31, x + w / stripes, h * 0.43], fill=colour)
    for k in range(3):   # lanterns hung under it
        x = w * (0.25 + 0.25 * k)
        paper, _, glow = LANTERNS[sorted(LANTERNS)[k]]
        draw.ellipse([x - w * 0.06, h * 0.44, x + w * 0.06, h * 0.6], fill=_blend("#2a2f55", glow, 0.35))
        draw.line([x, h * 0.4, x, h * 0.47], fill=DARK_GOLD, width=6)
        draw.ellipse([x - w * 0.035, h * 0.47, x + w * 0.035, h * 0.57], fill=paper)
    draw.rectangle([0, h * 0.68, w, h], fill="#7a4a2a")   # the counter
    for k in range(1, 4):
        draw.line([0, h * (0.68 + 0.08 * k), w, h * (0.68 + 0.08 * k)], fill="#5e3820", width=8)
    draw.rectangle([0, h * 0.66, w, h * 0.7], fill="#a86a3c")
    _save(picture, "stall.png")


if __name__ == "__main__":
    for name in LANTERNS:
        card_picture(name)
    back_picture()
    coin_picture()
    stall_picture()
    for path in sorted(HERE.glob("*.png")):
        print(f"{path.name}: {Image.open(path).size[0]} x {Image.open(path).size[1]} px, "
              f"{path.stat().st_size // 1024} KB")
