"""Icons as drawing programs export them: what is read is drawn (use, switch, a, text,
percentages, opacity held to 0-1), and what cannot be drawn is refused naming the
element and its line, never drawn blank without a word."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.template.icons import Label, Shape, parse_icon
from helpers import pdf_reader

HEAD = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'viewBox="0 0 10 10">')
RED = '<rect x="1" y="1" width="8" height="8" fill="#ff0000"/>'


def shapes(body: str) -> tuple:
    return parse_icon(HEAD + body + "</svg>").shapes


def refused(body: str) -> str:
    with pytest.raises(ValueError) as error:
        parse_icon(HEAD + "\n" + body + "</svg>")
    return str(error.value)


def test_use_draws_what_it_refers_to_in_defs_moved_by_its_x_and_y():
    (shape,) = shapes(f'<defs><g id="a">{RED}</g></defs><use href="#a" x="2" y="3"/>')
    assert shape.fill == "#ff0000" and shape.transform == (1.0, 0.0, 0.0, 1.0, 2.0, 3.0)
    (old_style,) = shapes(f'<defs>{RED.replace("<rect", "<rect id=" + chr(34) + "r" + chr(34))}</defs>'
                          '<use xlink:href="#r"/>')
    assert old_style.ops == shape.ops


def test_a_symbol_is_fitted_into_the_use_that_places_it():
    (shape,) = shapes('<symbol id="s" viewBox="0 0 20 20"><rect width="20" height="20"/></symbol>'
                      '<use href="#s" width="10" height="5"/>')
    a, b, c, d, e, f = shape.transform
    assert (a, d) == (0.25, 0.25) and (e, f) == (2.5, 0.0)    # 5 x 5, centred in the 10 x 5 box


def test_defs_and_symbols_are_not_drawn_where_they_stand():
    assert shapes(f'<defs>{RED}</defs><symbol id="s">{RED}</symbol>') == ()


def test_switch_draws_its_first_child_that_applies():
    (shape,) = shapes('<switch><foreignObject requiredFeatures="http://www.w3.org/TR/SVG11/feature#Extensibility" '
                      f'width="5" height="5"/><g requiredExtensions="">{RED}</g>'
                      '<circle cx="5" cy="5" r="2"/><rect width="1" height="1"/></switch>')
    assert shape.fill == "#000000" and shape.ops[0] == ("M", 7.0, 5.0)     # the circle, and only it


def test_a_switch_where_nothing_applies_is_refused_with_its_line():
    message = refused('<switch><foreignObject requiredExtensions="http://www.w3.org/1999/xhtml"/></switch>')
    assert "<switch> at line 2" in message


def test_a_link_draws_its_content():
    assert len(shapes(f'<a href="https://example.org">{RED}<circle r="1"/></a>')) == 2


def test_text_is_set_with_its_size_weight_and_anchor():
    (label, second) = shapes('<text x="5" y="8" font-size="4px" font-weight="bold" text-anchor="middle">'
                             ' Wolf  <tspan>pack</tspan><tspan x="5" y="9.5" font-style="italic" font-weight="normal">2</tspan></text>')
    assert type(label) is Label and label.text == "Wolf pack" and label.size == 4 and label.style == "bold"
    assert label.anchor == "middle" and (label.x, label.y) == (5, 8) and label.line == 1
    assert (second.text, second.style, second.y) == ("2", "italic", 9.5)


def test_text_in_decomposed_form_is_composed():
    (label,) = shapes('<text x="1" y="8">He\u0301le\u0300ne</text>')
    assert label.text == "H\u00e9l\u00e8ne"


@pytest.mark.parametrize("opacity, expected", [("50%", 0.5), ("0.25", 0.25), ("-3", 0.0), ("7", 1.0), ("150%", 1.0)])
def test_opacity_reads_percentages_and_is_held_to_0_1(opacity, expected):
    (shape,) = shapes(RED.replace("/>", f' opacity="{opacity}"/>'))
    assert shape.opacity == expected and shape.stroke_opacity == expected


def test_fill_and_stroke_opacity_are_apart_and_a_group_opacity_applies_to_what_it_holds():
    (shape,) = shapes('<g opacity="0.5"><rect width="5" height="5" stroke="black" fill-opacity="0.5"/></g>')
    assert (shape.opacity, shape.stroke_opacity) == (0.25, 0.5)


def test_lengths_in_units_and_percentages_of_the_viewbox():
    (rect,) = shapes('<rect x="10%" y="50%" width="100%" height="2.54mm"/>')
    assert rect.ops[0] == ("M", 1.0, 5.0) and rect.ops[1] == ("L", 11.0, 5.0)
    assert rect.ops[2][2] == pytest.approx(5 + 9.6)


def test_another_programs_elements_and_descriptions_are_skipped():
    body = ('<title>t</title><desc>d</desc><metadata/><sodipodi:namedview '
            'xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"/>' + RED)
    assert len(shapes(body)) == 1


@pytest.mark.parametrize("body, words", [
    ('<path d="L 5 5 L 1 9"/>', ["<path> at line 2", "move-to"]),
    ('<path d="5 5 L 1 9"/>', ["<path> at line 2", "move-to"]),
    ('<image href="x.png" width="9" height="9"/>', ["<image> at line 2", "cannot be drawn"]),
    ('<foreignObject width="9" height="9"/>', ["<foreignObject> at line 2"]),
    ('<style>rect { fill: red }</style>', ["<style> at line 2", "stylesheet"]),
    ('<rect fill="url(#g)" width="9" height="9"/>', ["<rect> at line 2", "gradient"]),
    (f'<g clip-path="url(#c)">{RED}</g>', ["<g> at line 2", "clip-path"]),
    (f'<g mask="url(#m)">{RED}</g>', ["<g> at line 2", "mask"]),
    ('<g id="g"><use href="#g"/></g>', ["<use> at line 2", "refers back to itself"]),
    ('<use href="#nowhere"/>', ["<use> at line 2", "nowhere"]),
    ('<use href="other.svg#a"/>', ["<use> at line 2", "same file"]),
    ('<switch><text systemLanguage="fr">Loup</text></switch>', ["<text> at line 2", "systemLanguage"]),
    ('<text x="1" y="5" font-weight="bold" font-style="italic">A</text>', ["<text> at line 2", "bold italic"]),
    ('<text x="1" y="5"><textPath href="#p">A</textPath></text>', ["<textPath> at line 2"]),
    ('<rect width="2em" height="1"/>', ["<rect> at line 2", "em"]),
    ('<svg x="1" y="1" width="5" height="5"/>', ["<svg> at line 2", "viewport"]),
    # What a drawing program draws as nothing, or otherwise: refused in words, never drawn as nothing.
    ('<polygon points="5"/>', ["<polygon> at line 2", 'points="5" holds 1 number', "pairs of x and y"]),
    ('<polyline points="1 2 3"/>', ["<polyline> at line 2", "holds 3 numbers"]),
    ('<polygon points="1 2"/>', ["<polygon> at line 2", "at least two of them"]),
    ('<polygon points="1,2 3,x 5,6"/>', ["<polygon> at line 2", "not a list of numbers"]),
    (f'<g transform="rotate(1, 2)">{RED}</g>', ["<g> at line 2", "rotate() takes 1 or 3 numbers, got 2"]),
    (f'<g transform="matrix(1 2)">{RED}</g>', ["<g> at line 2", "matrix() takes 6 numbers, got 2"]),
    (f'<g transform="translate()">{RED}</g>', ["<g> at line 2", "translate() takes 1 or 2 numbers, got 0"]),
    (f'<g transform="skewX(1e400)">{RED}</g>', ["<g> at line 2", "skewX() holds inf; numbers must be finite"]),
    (f'<g transform="scale(2, two)">{RED}</g>', ["<g> at line 2", "takes numbers only"]),
    (f'<g transform="rotated">{RED}</g>', ["<g> at line 2", "not a list of transforms"]),
])
def test_what_cannot_be_drawn_is_refused_naming_the_element_and_its_line(body, words):
    message = refused(body)
    for word in words:
        assert word in message, message


def test_use_cannot_multiply_an_icon_past_its_element_limit():
    body = (f'<defs><g id="a">{RED}</g>' + "".join(
        f'<g id="{chr(98 + i)}">' + f'<use href="#{chr(97 + i)}"/>' * 10 + "</g>" for i in range(6))
        + '</defs><use href="#g"/>')
    assert "once each <use> is expanded" in refused(body)


def test_entity_declarations_are_refused():
    with pytest.raises(ValueError, match="entit"):
        parse_icon('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "b">]>' + HEAD + "</svg>")


# ---- drawn into a kit ------------------------------------------------------------------------

TEMPLATE = '''[game]
id = "icons"
players = [1, 4]
rules_url = "https://example.org/icons"
designers = ["test"]

[[components]]
id = "cards"
size = "poker"
[[components.front]]
type = "icon"
name = "x"
x = 5
y = 5
w = 40
h = 40
[[components.pieces]]
id = "card"
count = 1
'''


def render(tmp_path: Path, svg: str):
    (tmp_path / "icons").mkdir(exist_ok=True)
    (tmp_path / "icons" / "x.svg").write_text(svg, encoding="utf-8")
    (tmp_path / "icons.toml").write_text(TEMPLATE)
    for lang in ("en", "fr"):
        (tmp_path / f"icons.{lang}.toml").write_text(
            '[game]\nname = "Icons"\ncredits = "Test."\n\n[component.cards]\nname = "Cards"\ncut = "Cut."\n')
    return CliRunner().invoke(app, ["render", "--template", str(tmp_path / "icons.toml"), "--out",
                                    str(tmp_path / "out")])


def test_an_icons_text_is_printed_in_the_kits_font(tmp_path):
    result = render(tmp_path, HEAD + '<text x="5" y="6" font-size="3" text-anchor="middle" '
                                     'font-weight="bold">Lynx</text></svg>')
    assert result.exit_code == 0, result.stderr
    reader = pdf_reader(next((tmp_path / "out").glob("*.pdf")).read_bytes())
    assert "Lynx" in reader.pages[-1].extract_text()
    fonts = {str(font) for page in reader.pages for font in _fonts(page)}
    assert any("Lato-Bold" in font for font in fonts)


def _fonts(page) -> list:
    found = []

    def walk(resources) -> None:
        resources = resources.get_object() if resources is not None else {}
        for font in (resources.get("/Font") or {}).values():
            found.append(font.get_object().get("/BaseFont"))
        for xobject in (resources.get("/XObject") or {}).values():
            walk(xobject.get_object().get("/Resources"))

    walk(page.get("/Resources"))
    return found


def test_an_icon_whose_text_the_font_cannot_print_is_refused_before_drawing(tmp_path):
    result = render(tmp_path, HEAD + '<text x="1" y="6">\u2603</text></svg>')
    assert result.exit_code == 1
    assert "x.svg" in result.stderr and "<text> at line 1" in result.stderr and "glyph" in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_path_that_does_not_start_with_a_move_to_names_the_icon(tmp_path):
    result = render(tmp_path, HEAD + '<path d="L 5 5 L 1 9"/></svg>')
    assert result.exit_code == 1 and "x.svg" in result.stderr and "move-to" in result.stderr
    assert "AssertionError" not in result.stderr


def test_the_shapes_of_an_icon_are_shapes():
    assert all(type(shape) is Shape for shape in shapes(RED + '<circle cx="5" cy="5" r="1"/>'))
