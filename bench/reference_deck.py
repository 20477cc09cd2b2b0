"""The floor for a reportlab-based tool: a deck written directly with reportlab.

144 poker cards (4 suits x 36), each with a coloured frame, a title, a large
number and three small vector shapes, 9 to an A4 sheet with crop marks, in the
same embedded font as the engine. Usage: python bench/reference_deck.py OUT.pdf
(bench/unique_deck.py draws its decks of all-different cards with :func:`write_deck`).
"""

from __future__ import annotations

import sys
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

MM = 72 / 25.4
FONTS = Path(__file__).resolve().parent.parent / "fonts"
SUITS = [("#c8372d", "Fox"), ("#2a5aa8", "Owl"), ("#5fae5a", "Fern"), ("#d9a62e", "Sun")]
CARD_W, CARD_H = 63.5, 88.9


def draw_card(c: Canvas, x: float, y: float, colour: str, title: str, number: int,
              number_size: float = 60) -> None:
    c.saveState()
    c.translate(x * MM, y * MM)
    c.setFillColor(HexColor("#fbf7ee"))
    c.rect(-3 * MM, -3 * MM, (CARD_W + 6) * MM, (CARD_H + 6) * MM, stroke=0, fill=1)
    c.setStrokeColor(HexColor(colour))
    c.setLineWidth(2.5 * MM)
    c.roundRect(4 * MM, 4 * MM, (CARD_W - 8) * MM, (CARD_H - 8) * MM, 3 * MM, stroke=1, fill=0)
    c.setFillColor(HexColor("#2b2118"))
    c.setFont("Lato-Black", 16)
    c.drawCentredString(CARD_W / 2 * MM, (CARD_H - 16) * MM, title)
    c.setFont("Lato-Black", number_size)
    c.drawCentredString(CARD_W / 2 * MM, (CARD_H / 2 - 10) * MM, str(number))
    c.setFillColor(HexColor(colour))
    c.circle(16 * MM, 14 * MM, 3.5 * MM, stroke=0, fill=1)
    c.rect((CARD_W / 2 - 3.5) * MM, 10.5 * MM, 7 * MM, 7 * MM, stroke=0, fill=1)
    path = c.beginPath()
    path.moveTo((CARD_W - 16) * MM, 18 * MM)
    path.lineTo((CARD_W - 12) * MM, 10.5 * MM)
    path.lineTo((CARD_W - 20) * MM, 10.5 * MM)
    path.close()
    c.drawPath(path, stroke=0, fill=1)
    c.restoreState()


def write_deck(out: str, cards: list[tuple[str, str, int]], number_size: float = 60) -> int:
    """Write (colour, title, number) cards, 9 to an A4 sheet with crop marks; return the pages."""
    pdfmetrics.registerFont(TTFont("Lato-Black", str(FONTS / "Lato-Black.ttf")))
    c = Canvas(out, pagesize=(210 * MM, 297 * MM), invariant=1, pageCompression=1,
               initialFontName="Lato-Black")
    left = (210 - 3 * CARD_W) / 2
    top = 297 - 8 - (276 - 3 * CARD_H) / 2
    pages = 0
    for start in range(0, len(cards), 9):
        for slot, (colour, title, number) in enumerate(cards[start:start + 9]):
            row, col = divmod(slot, 3)
            draw_card(c, left + col * CARD_W, top - (row + 1) * CARD_H, colour, title, number,
                      number_size)
        c.setLineWidth(0.6)
        for i in range(4):
            x = (left + i * CARD_W) * MM
            c.line(x, (top + 4) * MM, x, (top + 9) * MM)
            c.line(x, (top - 3 * CARD_H - 4) * MM, x, (top - 3 * CARD_H - 6) * MM)
            y = (top - i * CARD_H) * MM
            c.line((left - 4) * MM, y, (left - 6.5) * MM, y)
            c.line((210 - left + 4) * MM, y, (210 - left + 6.5) * MM, y)
        c.showPage()
        pages += 1
    c.save()
    return pages


def main(out: str) -> int:
    return write_deck(out, [(colour, f"{name} {n}", n) for colour, name in SUITS for n in range(1, 37)])


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "reference_deck.pdf")
