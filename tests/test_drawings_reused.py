"""Drawings are made once and reused: what the copies of a piece draw alike, and each icon."""

from __future__ import annotations

import re
from pathlib import Path

from helpers import pdf_reader, write_deck
from pnp.kit.build import render_to_memory
from pnp.layout.faces import ResolvedFace
from pnp.layout.plan import plan_kit, shared_layers
from pnp.layout.primitives import Rect, Text
from pnp.layout.text import Measurer
from pnp.template.model import PrintOptions
from pnp.template.loader import load_game

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


def monospace() -> Measurer:
    """Every character half an em wide, every glyph present: layout without fonts."""
    return Measurer(lambda text, style, size: len(text) * size * 0.5, lambda text, style: "")


def fox_faces(deck: Path) -> list:
    """The runs of every fox front, in copy order."""
    plan = plan_kit(load_game(deck), PrintOptions(), (210.0, 297.0), measure=monospace())
    return [p.runs for page in plan.pages for p in page.placements
            if p.copy.piece.id == "fox" and p.face.value == "front"]


def test_copies_share_the_runs_whose_primitives_are_equal_in_stacking_order(tmp_path):
    foxes = fox_faces(write_deck(tmp_path))
    assert len(foxes) == 12
    # Background, frame and title (shared), the number and the dot (per copy), the footer (shared).
    assert [run.drawing is not None for run in foxes[0]] == [True, False, True]
    first, *others = foxes
    for runs in others:
        assert runs[0] is first[0] and runs[2] is first[2]
        assert runs[1] != first[1]
    numbers = [next(p for p in runs[1].primitives if isinstance(p, Text)).lines[0].text for runs in foxes]
    assert numbers == [str(n) for n in range(1, 13)]


def test_an_element_that_names_the_copy_but_draws_alike_is_shared(tmp_path):
    # The dot moves by copy * 0: it names `copy` yet every copy draws it in the same place.
    deck = write_deck(tmp_path).read_text().replace('cx = "6 + copy * 2"', 'cx = "6 + copy * 0"')
    (tmp_path / "numbered.toml").write_text(deck, encoding="utf-8")
    foxes = fox_faces(tmp_path / "numbered.toml")
    assert [run.drawing is not None for run in foxes[0]] == [True, False, True]
    # Only the number is drawn copy by copy now; the dot joined the shared footer run.
    assert [type(p).__name__ for p in foxes[0][1].primitives] == ["Text"]
    assert [type(p).__name__ for p in foxes[0][2].primitives] == ["Ellipse", "Text"]


def test_shared_layers_compares_resolved_primitives():
    one, two = (Rect(0.0, 0.0, 1.0, 1.0, fill="#000000"),), (Rect(0.0, 0.0, 1.0, 1.0, fill="#ffffff"),)
    faces = [ResolvedFace((5.0, 5.0), 0.0, (one, tuple(one), ())),
             ResolvedFace((5.0, 5.0), 0.0, (one, two, ()))]
    assert shared_layers(faces) == [True, False, True]


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
