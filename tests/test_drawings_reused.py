"""Drawings are made once and reused: what every numbered copy shares, and each icon."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import pdf_reader
from pnp.build import render_to_memory
from pnp.i18n import Catalog
from pnp.model import Element, PrintOptions
from pnp.render.elements import CopyNumbers
from pnp.templates import load_game

DECK = """
[game]
id = "numbered"
players = [1, 4]
rules_url = ""
designers = ["Someone"]

[palette]
paper = "#fbf7ee"
ink = "#2b2118"
accent = "#7a2e1d"

[[components]]
id = "deck"
size = "poker"
rotate = false
fields = { colour = "color" }

[[components.front]]
type = "background"
fill = "paper"

[[components.front]]
type = "rect"
x = 4
y = 4
w = "w - 8"
h = "h - 8"
stroke = "{colour}"
stroke_width = 2

[[components.front]]
type = "text"
x = 6
y = 8
w = "w - 12"
h = 10
text = "@title.{id}"
size = 14

[[components.front]]
type = "text"
x = 6
y = 30
w = "w - 12"
h = 20
text = "{copy}"
size = 40
font = "black"

[[components.front]]
type = "ellipse"
cx = "6 + copy * 2"
cy = "h - 10"
rx = 1.5
fill = "{colour}"

[[components.front]]
type = "text"
x = 6
y = "h - 20"
w = "w - 12"
h = 6
text = "@footer"
size = 8

[[components.pieces]]
id = "fox"
count = 12
colour = "#c8372d"

[[components.pieces]]
id = "owl"
count = 6
colour = "#2a5aa8"
"""

CATALOG = """
footer = "Same on every card"
[game]
name = "Numbered"
credits = "A numbered test deck."
[component.deck]
name = "Deck"
cut = "Cut them out."
[title]
fox = "{fox}"
owl = "{owl}"
"""


def write_deck(folder: Path, fox: str = "Fox", owl: str = "Owl") -> Path:
    path = folder / "numbered.toml"
    path.write_text(DECK, encoding="utf-8")
    for lang in ("en", "fr"):
        (folder / f"numbered.{lang}.toml").write_text(CATALOG.format(fox=fox, owl=owl), encoding="utf-8")
    return path


def forms_and_pages(pdf: bytes) -> tuple[int, list[str]]:
    reader = pdf_reader(pdf)
    forms = set()
    texts = []
    for page in reader.pages[1:]:
        for name, ref in page["/Resources"].get("/XObject", {}).items():
            if ref.get_object().get("/Subtype") == "/Form":
                forms.add(ref.idnum)
        texts.append(page.extract_text())
    return len(forms), texts


def card_numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"^\s*(\d+)\s*$", text, flags=re.MULTILINE)]


def test_numbered_cards_share_one_drawing_per_kind_and_print_their_own_number(tmp_path):
    pdf, manifest = render_to_memory(load_game(write_deck(tmp_path)), PrintOptions())
    forms, pages = forms_and_pages(pdf)
    # Per kind: background + frame + title (shared), number + dot (per copy), footer (shared).
    assert forms == 2 * 2
    fronts = [item for page in manifest["pages"] for item in page["items"]]
    assert len(fronts) == 18
    numbers = [n for text in pages for n in card_numbers(text)]
    assert numbers == [*range(1, 13), *range(1, 7)]


def test_a_catalog_text_naming_the_copy_is_drawn_per_copy(tmp_path):
    pdf, _ = render_to_memory(load_game(write_deck(tmp_path, fox="Fox {copy}", owl="Owl")),
                              PrintOptions())
    text = " ".join(forms_and_pages(pdf)[1])
    assert all(f"Fox {n}" in text for n in range(1, 13))
    assert text.count("Owl") == 6


@pytest.mark.parametrize("props, varies", [
    ({"text": "{copy}"}, True),
    ({"text": "No. {copy:02d}"}, True),
    ({"cx": "6 + copy * 2"}, True),
    ({"when": "copy=1"}, True),
    ({"points": [["copy", 0], [1, 1]]}, True),
    ({"text": "@numbered"}, True),
    ({"text": "@plain"}, False),
    ({"text": "@missing.{nothing}"}, True),
    ({"fill": "{colour}", "x": "w - 8"}, False),
    ({"text": "copyright"}, False),
])
def test_what_counts_as_varying_by_copy(props, varies):
    catalog = Catalog("en", {"numbered": "Card {copy} of 12", "plain": "Fox"})
    element = Element("text", props, "test")
    assert CopyNumbers(catalog).varies(element, {"colour": "#000000", "copy": 1}) is varies


ICON_DECK = """
[game]
id = "icons"
players = [1, 4]
rules_url = ""
designers = ["Someone"]

[[components]]
id = "deck"
size = "mini"
fields = { colour = "color" }

[[components.front]]
type = "text"
x = 3
y = 3
w = "w - 6"
h = 8
text = "{id}"
size = 12

[[components.front]]
type = "icon"
name = "star"
x = 8
y = 14
w = "w - 16"
h = "w - 16"
color = "{colour}"
"""

STAR = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">
<path d="M5 0 L6.2 3.6 L10 3.6 L6.9 5.8 L8.1 9.5 L5 7.2 L1.9 9.5 L3.1 5.8 L0 3.6 L3.8 3.6 Z" fill="currentColor"/>
</svg>
"""


def test_an_icon_is_drawn_once_per_colour_and_placed_everywhere(tmp_path):
    kinds = [(f"card{n}", "#c8372d" if n % 2 else "#2a5aa8") for n in range(12)]
    pieces = "".join(f'\n[[components.pieces]]\nid = "{name}"\ncount = 2\ncolour = "{colour}"\n'
                     for name, colour in kinds)
    (tmp_path / "icons").mkdir()
    (tmp_path / "icons" / "star.svg").write_text(STAR, encoding="utf-8")
    (tmp_path / "icons.toml").write_text(ICON_DECK + pieces, encoding="utf-8")
    catalog = '[game]\nname = "Icons"\ncredits = "Test."\n[component.deck]\nname = "Deck"\ncut = "Cut."\n'
    for lang in ("en", "fr"):
        (tmp_path / f"icons.{lang}.toml").write_text(catalog, encoding="utf-8")
    pdf, manifest = render_to_memory(load_game(tmp_path / "icons.toml"), PrintOptions())
    assert len([i for p in manifest["pages"] for i in p["items"] if i["face"] == "front"]) == 24

    streams: dict[int, bytes] = {}

    def collect(resources) -> None:
        for ref in (resources or {}).get("/XObject", {}).values():
            form = ref.get_object()
            if ref.idnum not in streams and form.get("/Subtype") == "/Form":
                streams[ref.idnum] = form.get_data()
                collect(form.get("/Resources"))

    for page in pdf_reader(pdf).pages:
        collect(page["/Resources"])
    star_path = b"6.2 3.6 l"
    with_star = [data for data in streams.values() if star_path in data]
    # Twelve kinds of card, each drawn once; the star in two colours, drawn twice in all.
    assert len(with_star) == 2
    assert len(streams) == 12 + 2
