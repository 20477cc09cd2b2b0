"""The template language is closed: every name is checked on load, and every mistake is named."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pnp.core.errors import TemplateError
from pnp.template.language import ExpressionError, parse_condition, placeholder_names
from pnp.template.loader import load_game

TEMPLATE = """
[game]
id = "tiny"
players = [2, 4]
rules_url = "https://example.org/rules"
designers = ["Someone"]

[palette]
ink = "#222222"
good = "#2f6b3a"
good_light = "#dcead2"

[params]
margin = 4

[[components]]
id = "cards"
size = "poker"
fields = { value = "int", kind = "str", tone = "color", hits = "int?" }

[[components.front]]
type = "rect"
x = "margin"
y = "margin"
w = "w - 2 * margin"
h = 20
fill = "{tone}"

[[components.front]]
type = "text"
x = 4
y = 30
w = "w - 8"
h = 14
text = "@card.{id}"
size = 14

[[components.front]]
type = "text"
when = "hits"
x = 4
y = 50
w = "w - 8"
h = 10
text = "{hits} × {value:+d}"
size = 10

[[components.pieces]]
id = "fox"
count = 3
value = 5
kind = "beast"
tone = "good"
hits = 2

[[components.pieces]]
id = "owl"
count = 1
value = -1
kind = "bird"
tone = "#123456"
"""

CATALOG = """
[game]
name = "Tiny"
credits = "By someone."
[component.cards]
name = "Cards"
cut = "Cut them."
[card]
fox = "{fox}"
owl = "Owl"
"""


def write(folder: Path, text: str = TEMPLATE, fox: str = "Fox") -> Path:
    path = folder / "tiny.toml"
    path.write_text(text, encoding="utf-8")
    for lang in ("en", "fr"):
        (folder / f"tiny.{lang}.toml").write_text(CATALOG.replace("{fox}", fox), encoding="utf-8")
    return path


def problems_of(folder: Path, text: str = TEMPLATE, fox: str = "Fox") -> list[str]:
    with pytest.raises(TemplateError) as caught:
        load_game(write(folder, text, fox))
    return caught.value.problems


def with_element(extra: str, text: str = TEMPLATE) -> str:
    """The template with one more front element, written as TOML key = value lines."""
    return text.replace("[[components.pieces]]", "[[components.front]]\n" + extra.strip() + "\n\n"
                        "[[components.pieces]]", 1)


def test_the_template_loads_and_each_element_knows_the_names_it_uses(tmp_path):
    game = load_game(write(tmp_path, fox="Fox {value}"))
    rect, title, hits = game.component("cards").front
    assert rect.names == ("margin", "tone", "w")
    # The catalog text names {value}: the title's look depends on it, and on the piece id.
    assert title.names == ("id", "value", "w")
    assert hits.names == ("hits", "value", "w")
    assert hits.when == parse_condition("hits")


def test_a_misspelt_name_in_when_is_a_load_error_naming_file_key_and_name(tmp_path):
    text = TEMPLATE.replace('when = "hits"', 'when = "vaule=5"')
    [problem] = problems_of(tmp_path, text)
    assert problem.startswith("tiny.toml: components.cards.front[2].when: unknown name 'vaule'")
    assert "known: " in problem and "value" in problem


@pytest.mark.parametrize("when, message", [
    # Not terms, so a comparison of numbers: a text field is not one.
    ("kind==beast", "the field 'kind' is str, not a number an expression can use (in the condition "
                    "'kind==beast'"),
    ("value==5 &", "cannot read the condition 'value==5 &' at 'value==5': expected field"),
    ("i=2", "'i' numbers the copies of a repeated element; this element has no repeat"),
    ("kind=beast &", "cannot read the condition"),
    ("kind=fish", "kind is never 'fish' here (expected one of: beast, bird)"),
    ("id=wolf", "id is never 'wolf' here (expected one of: fox, owl)"),
    ("set=red", "'set' is the piece's player colour, but this component has no sets"),
    ("lang=de", "lang is never 'de'"),
])
def test_conditions_are_parsed_and_checked_on_load(tmp_path, when, message):
    text = TEMPLATE.replace('when = "hits"', f'when = "{when}"')
    assert any(message in p and "components.cards.front[2].when" in p for p in problems_of(tmp_path, text))


@pytest.mark.parametrize("key, value, message", [
    ("x", '"w - margn"', "unknown name 'margn' in the expression"),
    ("x", '"i * 3"', "'i' numbers the copies of a repeated element; this element has no repeat"),
    ("x", '"kind * 2"', "the field 'kind' is str, not a number an expression can use"),
    ("x", '"w +"', "expected a length in mm or an expression"),
    ("y", '"{valeu}"', "unknown name 'valeu' in the expression"),
])
def test_expressions_use_only_w_h_params_numeric_fields_and_copy(tmp_path, key, value, message):
    element = f'type = "rect"\nx = 1\ny = 1\nw = 2\nh = 2\nfill = "ink"\n{key} = {value}'
    element = "\n".join(dict.fromkeys(element.split("\n")))  # the later key wins
    lines = {}
    for line in element.split("\n"):
        lines[line.split(" = ")[0]] = line
    [problem] = problems_of(tmp_path, with_element("\n".join(lines.values())))
    assert problem.startswith(f"tiny.toml: components.cards.front[3].{key}: ") and message in problem


def test_repeats_offer_i_col_and_row(tmp_path):
    element = 'type = "rect"\nx = "1 + i"\ny = "row * 2"\nw = 2\nh = 2\nfill = "ink"\nrepeat = [2, 2]\nstep = [3, "col"]'
    game = load_game(write(tmp_path, with_element(element)))
    assert "i" not in game.component("cards").front[3].names


@pytest.mark.parametrize("text, message", [
    ('"{valeu}"', "unknown name 'valeu' in the text '{valeu}'"),
    ('"{value.real}"', "a placeholder is a plain name like {field}, {field:+d} or an expression"),
    ('"{value!r}"', "a placeholder is a plain name"),
    ('"{set_name}"', "{set_name} names the piece's player colour, but this component has no sets"),
    ('"@card.{kindd}"', "unknown name 'kindd'"),
])
def test_placeholders_in_texts_are_checked(tmp_path, text, message):
    element = f'type = "text"\nx = 1\ny = 1\nw = 20\nh = 5\nsize = 8\ntext = {text}'
    [problem] = problems_of(tmp_path, with_element(element))
    assert problem.startswith("tiny.toml: components.cards.front[3].text: ") and message in problem


def test_an_icon_name_may_use_fields_but_only_known_ones(tmp_path):
    element = 'type = "icon"\nname = "beast_{knid}"\nx = 1\ny = 1\nw = 5\nh = 5'
    [problem] = problems_of(tmp_path, with_element(element))
    assert "components.cards.front[3].name: unknown name 'knid'" in problem


@pytest.mark.parametrize("fill, message", [
    ('"{tone}_light"', "a colour name cannot be built from pieces of text ('{tone}_light')"),
    ('"{kind}"', "a colour taken from a field needs a field of type color: the field 'kind' is str"),
    ('"{shade}"', "unknown field 'shade' (colour fields: tone)"),
    ('"pnik"', "unknown colour 'pnik' (expected #RRGGBB, none, white, black, or a palette name"),
    ('"set"', "'set' is the piece's player colour, but this component has no sets"),
])
def test_colours_come_from_the_palette_or_colour_fields(tmp_path, fill, message):
    [problem] = problems_of(tmp_path, TEMPLATE.replace('fill = "{tone}"', f"fill = {fill}"))
    assert problem.startswith("tiny.toml: components.cards.front[0].fill: ") and message in problem


def test_a_colour_field_holds_a_palette_name_or_a_hex_colour(tmp_path):
    [problem] = problems_of(tmp_path, TEMPLATE.replace('tone = "good"', 'tone = "goood"'))
    assert problem.startswith("tiny.toml: components.cards.pieces[0].tone: expected a colour: #RRGGBB, a "
                              "palette name (")
    assert "got 'goood'" in problem


def test_a_catalog_text_may_only_use_names_a_face_offers(tmp_path):
    problems = problems_of(tmp_path, fox="Fox {nmae}")
    assert len(problems) == 2  # in English and in French
    assert problems[0] == ("tiny.toml: components.cards.front[1]: text 'card.fox' (en) uses {nmae}, which a "
                           "face of cards does not offer (known: copy, game_id, hits, id, kind, lang, "
                           "margin, rules_url, tone, value)")


def test_an_element_shown_for_a_piece_may_not_use_an_optional_field_it_leaves_out(tmp_path):
    # The owl has no hits: without the `when`, its card would print "{hits}".
    [problem] = problems_of(tmp_path, TEMPLATE.replace('when = "hits"\n', ""))
    assert problem == ("tiny.toml: components.cards.front[2].text: uses the field 'hits', which piece "
                       "'owl' leaves out: give the piece a value or hide the element with `when`")


@pytest.mark.parametrize("element, message", [
    ('type = "rect"\nx = 1\ny = 1\nw = 2\nh = 2\nfill = "ink"\nstep = [2, 0]',
     "front[3].step: a step moves the copies of a repeated element; add repeat"),
    ('type = "table"\nx = 1\ny = 1\nw = 40\nrow_h = 5\nsize = 8\ncols = [1, 1]\nrows = [["a", "b", "c"]]',
     "front[3].rows[0]: 3 cells but only 2 cols"),
    ('type = "symbol"\ncx = 5\ncy = 5\nsize = 4',
     "front[3].shape: a symbol in a component without sets needs its own shape"),
    ('type = "text"\nx = 1\ny = 1\nw = 9\nh = 5\nsize = 8\ntext = "a"\nalign = "justify"',
     "front[3].align: expected left or center or right, got 'justify'"),
])
def test_element_shapes_are_checked(tmp_path, element, message):
    assert any(message in p for p in problems_of(tmp_path, with_element(element)))


def test_every_problem_of_a_template_is_reported_at_once(tmp_path):
    text = (TEMPLATE.replace('when = "hits"', 'when = "vaule=5"')
            .replace('fill = "{tone}"', 'fill = "{tone}_light"')
            .replace('w = "w - 2 * margin"', 'w = "w - 2 * margn"'))
    with pytest.raises(TemplateError) as caught:
        load_game(write(tmp_path, text))
    assert len(caught.value.problems) == 3
    assert re.search(r"\(and 2 more problem\(s\)\)$", str(caught.value))
    keys = sorted(p.split(": ")[1] for p in caught.value.problems)
    assert keys == ["components.cards.front[0].fill", "components.cards.front[0].w", "components.cards.front[2].when"]


def test_placeholder_names_reject_what_str_format_would_reach_through():
    assert placeholder_names("{a} {b:>3} {{literal}}") == {"a", "b"}
    for bad in ("{a.b}", "{a[0]}", "{a!s}", "{}", "{0}", "{a:{b}}"):
        with pytest.raises(ExpressionError):
            placeholder_names(bad)


def test_the_template_guide_lists_every_element_key_field_type_and_name():
    from pnp.template.elements import CONDITION_NAMES, FACE_NAMES, FIELD_TYPES, REPEAT_NAMES, SET_NAMES, SYMBOLS
    from pnp.template.kinds import KINDS

    guide = (Path(__file__).resolve().parent.parent / "docs" / "TEMPLATES.md").read_text(encoding="utf-8")
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `(\w+)` \| (.*) \|$", guide, re.MULTILINE)}
    assert set(rows) == set(KINDS)
    for name, kind in KINDS.items():
        words = set(re.findall(r"\w+", rows[name]))
        assert set(kind.keys) <= words, (name, set(kind.keys) - words)
    for name in (*FIELD_TYPES, *FACE_NAMES, *SET_NAMES, *CONDITION_NAMES, *REPEAT_NAMES, *SYMBOLS):
        assert re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", guide), name
