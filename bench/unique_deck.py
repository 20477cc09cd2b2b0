"""Decks of cards that are all different: each its own colour, title and number.

The elements are those of the benchmark deck (bench/deck.toml): a background,
a rounded frame in the card's colour, a title, a big number and three small
shapes in the card's colour. The number is set at 48 pt rather than 60 so that
five digits (card 14,400) fit the box without the engine having to shrink it,
which the reportlab deck would not do. Usage:

    python bench/unique_deck.py template N FOLDER     # FOLDER/unique-N.toml and its catalogs
    python bench/unique_deck.py reference N OUT.pdf   # the same deck written directly with reportlab
"""

from __future__ import annotations

import colorsys
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

NUMBER_SIZE = 48
WORDS = ("Fox", "Owl", "Fern", "Sun", "Hare", "Boar", "Lynx", "Wolf", "Bear", "Moss", "Oak",
         "Elk", "Crow", "Deer", "Mole", "Pine", "Reed", "Wren", "Vole", "Ash")


def colour(index: int) -> str:
    """A colour of its own for each card, up to 360 hues x 40 shades = 14,400 cards."""
    hue = index * 137 % 360 / 360  # 137 and 360 share no factor: 360 different hues in turn
    shade = index // 360 % 40
    red, green, blue = colorsys.hsv_to_rgb(hue, 0.70 + 0.03 * (shade % 8), 0.75 + 0.05 * (shade // 8))
    return "#" + "".join(f"{round(c * 255):02x}" for c in (red, green, blue))


def unique_cards(count: int) -> list[tuple[str, str, int]]:
    """(colour, title, number) of ``count`` cards, no two alike in any of the three."""
    cards = [(colour(i), f"{WORDS[i % len(WORDS)]} {i + 1}", i + 1) for i in range(count)]
    for column in range(3):
        if len({card[column] for card in cards}) != count:
            raise SystemExit(f"unique_deck: {count} cards are more than this generator keeps apart")
    return cards


FRONT = """\
[[components.front]]
type = "background"
fill = "paper"

[[components.front]]
type = "rect"
x = 4
y = 4
w = "w - 8"
h = "h - 8"
radius = 3
stroke = "{colour}"
stroke_width = 2.5

[[components.front]]
type = "text"
x = 6
y = 8
w = "w - 12"
h = 10
text = "{title}"
font = "black"
size = 16

[[components.front]]
type = "text"
x = 6
y = 24
w = "w - 12"
h = 30
text = "{number}"
font = "black"
size = %(number_size)d

[[components.front]]
type = "ellipse"
cx = 16
cy = "h - 14"
rx = 3.5
fill = "{colour}"

[[components.front]]
type = "rect"
x = "w/2 - 3.5"
y = "h - 17.5"
w = 7
h = 7
fill = "{colour}"

[[components.front]]
type = "polygon"
points = [["w - 16", "h - 18"], ["w - 12", "h - 10.5"], ["w - 20", "h - 10.5"]]
fill = "{colour}"
"""

CATALOG = """\
[game]
name = "Benchmark deck of %(count)d different cards"
credits = "A deck for measuring the engine."

[component.deck]
name = "Deck"
cut = "Cut out the cards."
"""


#: The back of a hidden deck: the same for every card, quiet in its outer 4 mm.
BACK = """\
[[components.back]]
type = "background"
fill = "accent"

[[components.back]]
type = "text"
x = 10
y = 30
w = "w - 20"
h = 20
text = "pnp"
font = "black"
size = 24
color = "paper"
"""


def write_template(folder: Path, count: int, hidden: bool = False) -> Path:
    """Write ``unique-COUNT.toml`` and its EN/FR catalogs into ``folder``; return the template.
    ``hidden``: the cards are a hidden deck (``hidden-COUNT.toml``), one back for all, printed
    double-sided and spread over their sheets."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{'hidden' if hidden else 'unique'}-{count}"
    parts = [
        "[game]", f'id = "{stem}"', "players = [1, 1]", 'rules_url = ""',
        'designers = ["pnp benchmark"]', "",
        "[palette]", 'paper = "#fbf7ee"', 'ink = "#2b2118"', 'accent = "#7a2e1d"', "",
        "[[components]]", 'id = "deck"', 'size = "poker"', "rotate = false",
        *(["hidden = true"] if hidden else []),
        'fields = { title = "str", colour = "color", number = "int" }', "",
        FRONT % {"number_size": NUMBER_SIZE}, *([BACK] if hidden else []),
    ]
    for colour_, title, number in unique_cards(count):
        parts += ["[[components.pieces]]", f'id = "card-{number}"', "count = 1",
                  f'title = "{title}"', f'colour = "{colour_}"', f"number = {number}", ""]
    path = folder / f"{stem}.toml"
    path.write_text("\n".join(parts), encoding="utf-8")
    for lang in ("en", "fr"):
        (folder / f"{stem}.{lang}.toml").write_text(CATALOG % {"count": count}, encoding="utf-8")
    return path


def write_reference(out: str, count: int) -> int:
    """The same deck written directly with reportlab; returns the pages."""
    from reference_deck import write_deck

    return write_deck(out, unique_cards(count), NUMBER_SIZE)


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[0] not in ("template", "reference") or not argv[1].isdigit():
        print(__doc__.split("Usage:")[1].rstrip(), file=sys.stderr)
        return 2
    count = int(argv[1])
    if argv[0] == "template":
        print(write_template(Path(argv[2]), count))
    else:
        write_reference(argv[2], count)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
