"""``i``, ``col``, ``row`` and ``copy`` wherever a field may be: catalog keys and the texts they
name, ``when`` (terms and comparisons of numbers), and colours chosen by an expression; every
mistake named once, on load."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.core.errors import TemplateError
from pnp.layout.faces import resolve_piece_face
from pnp.layout.primitives import Moved, Rect, Text, absolute
from pnp.layout.text import Measurer
from pnp.template.language import ColorChoice, ExpressionError, parse_color_choice, parse_condition
from pnp.template.loader import load_game
from pnp.template.model import PrintOptions

TEMPLATE = """
[game]
id = "steps"
fan_copy = false

[palette]
gold = "#d9a21b"
light = "#e7dcc4"
night = "#22344a"

[[components]]
id = "aid"
size = "poker"
fields = { tone = "color" }
pieces = [{ id = "aid", count = 2, tone = "night" }]
front = [
  { type = "text", repeat = 4, step = [0, 10], x = 5, y = 5, w = 50, h = 8, text = "@aid.step{i + 1}",
    size = 9 },
  { type = "rect", repeat = 12, step = [5, 0], x = 1, y = 50, w = 4, h = 4,
    fill = "i % 5 == 0 ? gold : {tone}" },
  { type = "rect", repeat = [3, 2], step = [10, 10], x = 5, y = 60, w = 8, h = 8,
    fill = "copy == 1 ? #ff0000 : light", when = "col=1 | row=0" },
  { type = "rect", repeat = 6, step = [5, 0], x = 1, y = 80, w = 4, h = 4, fill = "night", when = "i >= 4" },
]
"""

CATALOG = """
[game]
name = "Steps"
credits = "Made to test."
[component.aid]
name = "Aid"
cut = "Cut it out."
[aid]
step1 = "{first} one"
step2 = "{first} two"
step3 = "{first} three, {i}"
step4 = "{first} four"
"""


def write(folder: Path, template: str = TEMPLATE, catalog: str = CATALOG) -> Path:
    path = folder / "steps.toml"
    path.write_text(template, encoding="utf-8")
    for lang, first in (("en", "Step"), ("fr", "Étape")):
        (folder / f"steps.{lang}.toml").write_text(catalog.replace("{first}", first), encoding="utf-8")
    return path


def measure() -> Measurer:
    return Measurer(lambda text, style, size: len(text) * size * 0.5, lambda text, style: "")


def layers(tmp_path, lang="en", copy=1):
    game = load_game(write(tmp_path))
    face = resolve_piece_face(game, PrintOptions(lang=lang), measure(), component_id="aid", piece_id="aid",
                              copy=copy)
    return [tuple(absolute(layer)) for layer in face.layers]


def test_a_catalog_key_is_chosen_by_each_copy_of_a_repeat(tmp_path):
    steps = layers(tmp_path)[0]
    assert [line.text for text in steps for line in text.lines] == [
        "Step one", "Step two", "Step three, 2", "Step four"]
    french = layers(tmp_path, "fr")[0]
    assert [line.text for text in french for line in text.lines][0] == "Étape one"


def test_a_colour_is_chosen_by_an_expression_of_i_and_copy(tmp_path):
    track = layers(tmp_path)[1]
    # Every fifth space in gold, the others in the piece's own colour field.
    assert [r.fill for r in track] == ["#d9a21b" if i % 5 == 0 else "#22344a" for i in range(12)]
    first, second = layers(tmp_path)[2], layers(tmp_path, copy=2)[2]
    assert {r.fill for r in first} == {"#ff0000"} and {r.fill for r in second} == {"#e7dcc4"}


def test_when_tests_the_copies_of_a_repeat_by_terms_and_by_comparisons(tmp_path):
    grid = layers(tmp_path)[2]
    # [3, 2] at 10 mm: the top row and the middle column.
    assert sorted((round(r.x), round(r.y)) for r in grid) == [(5, 60), (15, 60), (15, 70), (25, 60)]
    assert [round(r.x) for r in layers(tmp_path)[3]] == [21, 26]


def test_the_look_of_a_repeated_element_is_never_cached_on_i(tmp_path):
    game = load_game(write(tmp_path))
    elements = game.component("aid").front
    assert all(not {"i", "col", "row"} & set(e.names) for e in elements)
    assert "tone" in elements[1].names and "copy" in elements[2].names


@pytest.mark.parametrize("element, message", [
    ('{ type = "rect", x = 1, y = 1, w = 2, h = 2, fill = "i < 2 ? gold : light" }',
     "components.aid.front[4].fill: 'i' numbers the copies of a repeated element; this element has no repeat"),
    ('{ type = "rect", repeat = 2, x = 1, y = 1, w = 2, h = 2, fill = "i < 2 ? golden : light" }',
     "components.aid.front[4].fill: unknown colour 'golden'"),
    ('{ type = "rect", repeat = 2, x = 1, y = 1, w = 2, h = 2, fill = "i < 2 ? gold" }',
     "components.aid.front[4].fill: cannot read the colour choice 'i < 2 ? gold'"),
    ('{ type = "rect", repeat = 2, x = 1, y = 1, w = 2, h = 2, fill = "tone < 2 ? gold : light" }',
     "the field 'tone' is color, not a number an expression can use (in the colour choice"),
    ('{ type = "rect", repeat = 2, x = 1, y = 1, w = 2, h = 2, fill = "ink", when = "i=first" }',
     "in the condition 'i=first', i is never 'first' here (expected a copy's number (0, 1, 2, ...))"),
    ('{ type = "rect", repeat = 2, x = 1, y = 1, w = 2, h = 2, fill = "ink", when = "i %% 2 == zero" }',
     "unknown name 'zero' in the condition 'i %% 2 == zero'"),
])
def test_mistakes_are_named_on_load(tmp_path, element, message):
    template = TEMPLATE.replace("\n]\n", f"\n  {element.replace('%%', '%')},\n]\n", 1)
    with pytest.raises(TemplateError) as caught:
        load_game(write(tmp_path, template))
    assert any(message.replace("%%", "%") in p for p in caught.value.problems), caught.value.problems


def test_a_key_that_cannot_be_filled_is_named_once_not_once_per_language(tmp_path):
    # Step 0 has no text in either catalog: each language names its own missing text, but a
    # key that cannot be filled at all (a division by zero) is one problem, not one per language.
    template = TEMPLATE.replace('text = "@aid.step{i + 1}"', 'text = "@aid.step{4 // (i - 1)}"')
    with pytest.raises(TemplateError) as caught:
        load_game(write(tmp_path, template))
    filled = [p for p in caught.value.problems if "division by zero" in p]
    assert len(filled) == 1 and filled[0].startswith("steps.toml: components.aid.front[0]: text '@aid.step")
    assert len(caught.value.problems) == len(set(caught.value.problems))


def test_a_catalog_text_missing_for_one_copy_is_named_with_its_key(tmp_path):
    template = TEMPLATE.replace("repeat = 4, step = [0, 10]", "repeat = 5, step = [0, 10]")
    with pytest.raises(TemplateError) as caught:
        load_game(write(tmp_path, template))
    assert caught.value.problems == [
        "steps.toml: components.aid.front[0]: text 'aid.step5' missing in en (piece aid)",
        "steps.toml: components.aid.front[0]: text 'aid.step5' missing in fr (piece aid)"]


def test_colour_choices_and_comparisons_are_read_once():
    choice = parse_color_choice("i % 10 == 0 ? gold : i < 3 ? #a0b0c0 : {tone}")
    assert choice.colors == ("gold", "#a0b0c0", "{tone}") and choice.names == {"i"}
    assert [choice.pick({"i": i, "tone": "x"}) for i in (0, 1, 5)] == ["gold", "#a0b0c0", "{tone}"]
    assert parse_color_choice("gold if copy == 1 else light") == ColorChoice(
        "gold if copy == 1 else light", "copy == 1", "gold", "light")
    assert parse_condition("i >= 4 and copy == 1").names == {"i", "copy"}
    with pytest.raises(ExpressionError, match="only min"):
        parse_condition("len(i) > 1")
