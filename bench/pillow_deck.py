"""The reference for `pnp export`'s speed: the benchmark deck drawn straight with Pillow.

The 144 cards of bench/reference_deck.py (a coloured frame, a title, a large
number, three small shapes, in Lato Black) drawn at 300 dpi with 3 mm of bleed
and saved as PNG with Pillow's defaults, one card after another: what a plain
image pipeline costs. Usage: python bench/pillow_deck.py OUT_DIR [--dpi 300]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT = Path(__file__).resolve().parent.parent / "fonts" / "Lato-Black.ttf"
SUITS = [("#c8372d", "Fox"), ("#2a5aa8", "Owl"), ("#5fae5a", "Fern"), ("#d9a62e", "Sun")]
CARD_W, CARD_H, BLEED = 63.5, 88.9, 3.0


def draw_card(dpi: int, colour: str, title: str, number: int,
              fonts: tuple[ImageFont.FreeTypeFont, ImageFont.FreeTypeFont]) -> Image.Image:
    px = dpi / 25.4

    def at(x: float, y: float) -> tuple[float, float]:
        # mm from the trim's top-left corner to pixels of the image (bleed included)
        return (x + BLEED) * px, (y + BLEED) * px

    size = (round((CARD_W + 2 * BLEED) * px), round((CARD_H + 2 * BLEED) * px))
    image = Image.new("RGB", size, "#fbf7ee")
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle([at(4, 4), at(CARD_W - 4, CARD_H - 4)], radius=3 * px,
                           outline=colour, width=round(2.5 * px))
    title_font, number_font = fonts
    draw.text(at(CARD_W / 2, 16), title, fill="#2b2118", font=title_font, anchor="ms")
    draw.text(at(CARD_W / 2, CARD_H / 2 + 10), str(number), fill="#2b2118", font=number_font,
              anchor="ms")
    draw.ellipse([at(16 - 3.5, CARD_H - 14 - 3.5), at(16 + 3.5, CARD_H - 14 + 3.5)], fill=colour)
    draw.rectangle([at(CARD_W / 2 - 3.5, CARD_H - 17.5), at(CARD_W / 2 + 3.5, CARD_H - 10.5)],
                   fill=colour)
    draw.polygon([at(CARD_W - 16, CARD_H - 18), at(CARD_W - 12, CARD_H - 10.5),
                  at(CARD_W - 20, CARD_H - 10.5)], fill=colour)
    return image


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--dpi", type=int, default=300)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    points = args.dpi / 72
    fonts = (ImageFont.truetype(str(FONT), round(16 * points)),
             ImageFont.truetype(str(FONT), round(60 * points)))
    for colour, name in SUITS:
        for number in range(1, 37):
            card = draw_card(args.dpi, colour, f"{name} {number}", number, fonts)
            card.save(args.out / f"{name.lower()}-{number:02d}-front.png", dpi=(args.dpi, args.dpi))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
