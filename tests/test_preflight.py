"""`pnp preflight`: what prints badly, each line naming piece, face, element and measure."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.layout.outline import Outline
from pnp.layout.primitives import Rect, Symbol, Text, TextLine
from pnp.preflight import checks, colours, run
from pnp.preflight.checks import Piece, inside_outline
from pnp.render.fonts import MEASURER
from pnp.template.loader import game_files, load_shipped_game
from pnp.template.model import Element, PrintOptions

HEAD = """
[game]
id = "flawed"
players = [2, 4]
fan_copy = false

[palette]
ink = "#222222"
night = "#101014"
"""

CATALOG = """
[game]
name = "Flawed"
credits = "A test game."

[component.cards]
name = "Cards"
cut = "Cut them out."

[component.tokens]
name = "Tokens"
cut = "Cut them out."
"""

CARDS = """
[[components]]
id = "cards"
size = "poker"
hidden = true
pieces = [{ id = "fox", count = 2 }, { id = "owl", count = 1 }]
front = [
  { type = "background", fill = "white" },
  { type = "text", x = 1, y = 4, w = 30, h = 8, text = "Corner", size = 10, align = "left" },
  { type = "text", x = 10, y = 40, w = 40, h = 5, text = "{id} in small print", size = 6.5 },
  { type = "line", x1 = 10, y1 = 60, x2 = 50, y2 = 60, stroke_width = 0.05 },
]
back = [{ type = "background", fill = "night" }]
"""

TOKENS = """
[[components]]
id = "tokens"
size = "20x20"
shape = "circle"
kind = "token"
sets = ["yellow", "green"]
pieces = [{ id = "lantern", count = 1 }]
front = [{ type = "background", fill = "set" }, { type = "symbol", cx = 10, cy = 10, size = 8 }]
back = [{ type = "background", fill = "set" }%s]
"""


def write(folder: Path, components: str, files: dict[str, str] | None = None) -> Path:
    template = folder / "flawed.toml"
    template.write_text(HEAD + components, encoding="utf-8")
    for lang in ("en", "fr"):
        (folder / f"flawed.{lang}.toml").write_text(CATALOG, encoding="utf-8")
    for name, text in (files or {}).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return template


def preflight(template: Path, *args: str):
    return CliRunner().invoke(app, ["preflight", str(template), *args])


def test_each_finding_names_piece_face_element_and_measure(tmp_path):
    result = preflight(write(tmp_path, CARDS + TOKENS % ""))
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "flawed, en, a4: 10 faces looked at, 6 pages",
        "error: cards (every piece) front, components.cards.front[1] (text 'Corner'): 1.0 mm from the cut: "
        "inside the 3 mm safe zone, where a cut a little off clips it",
        "error: cards (every piece) front, components.cards.front[3] (line): a 0.05 mm line: thinner than "
        "0.1 mm: it breaks up or vanishes on paper",
        "error: tokens/lantern (yellow) back, components.tokens.back[0] (background): ΔE00 9.0 from green: "
        "yellow looks like green printed in greyscale, and this face shows no star, the symbol of yellow",
        "error: tokens/lantern (green) back, components.tokens.back[0] (background): ΔE00 9.0 from yellow: "
        "green looks like yellow printed in greyscale, and this face shows no triangle, the symbol of green",
        "warning: cards (every piece) front, components.cards.front[2] (text 'fox in small print'): 6.5 pt: "
        "under 7 pt: hard to read across a table",
        "warning: cards (every piece) back, components.cards.back[0] (background): 372% ink over 70 x 95 mm "
        "(#101014, rich black): over the 300% most printers allow: it may smear, curl the sheet and show "
        "through to the back (a lighter colour, or --ink-saver at home)",
        "4 errors, 2 warnings.",
    ]


def test_symbols_on_every_face_turn_alike_colours_into_a_note(tmp_path):
    symbol = ', { type = "symbol", cx = 10, cy = 10, size = 8 }'
    result = preflight(write(tmp_path, TOKENS % symbol))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1:] == [
        "note: tokens: ΔE00 9.0: yellow and green look alike printed in greyscale; every face printed in them "
        "shows its set's symbol",
        "1 note.",
    ]
    # The ink saver paints no surface in a set colour: nothing left to tell apart by colour.
    saver = preflight(write(tmp_path, TOKENS % ""), "--ink-saver")
    assert saver.exit_code == 0 and saver.output.splitlines()[1:] == ["Nothing prints badly."]


def test_warnings_fail_only_when_strict(tmp_path):
    small = CARDS.replace('size = 10, align = "left"', 'size = 10').replace("x = 1, y = 4", "x = 10, y = 10") \
        .replace("stroke_width = 0.05", "stroke_width = 0.3")
    template = write(tmp_path, small)
    assert preflight(template).exit_code == 0
    strict = preflight(template, "--strict")
    assert strict.exit_code == 1
    assert strict.output.splitlines()[-1] == "2 warnings."
    french = preflight(template, "--lang", "fr", "--paper", "letter")
    assert french.output.splitlines()[0] == "flawed, fr, letter: 6 faces looked at, 6 pages"


def test_a_kit_that_cannot_render_is_still_looked_at(tmp_path):
    too_long = CARDS.replace('text = "Corner"', 'text = "' + "Far too long for this box " * 6 + '"')
    result = preflight(write(tmp_path, too_long))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == "flawed, en, a4: 6 faces looked at, no PDF: the kit cannot be rendered as it is"
    cannot = [line for line in lines if "cannot be printed as it is" in line]
    assert [("cards/fox front" in line, "cards/owl front" in line) for line in cannot] == [(True, False),
                                                                                          (False, True)]
    assert all("components.cards.front[1]" in line and "does not fit" in line for line in cannot)
    assert any("a 0.05 mm line" in line for line in lines)   # the other faces' findings are still there


def test_thin_strokes_inside_icons_are_measured_as_printed(tmp_path):
    icon = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
            '<circle cx="50" cy="50" r="40" fill="#ffcc00" stroke="#000000" stroke-width="{width}"/>'
            '<circle cx="50" cy="50" r="20" fill="#000000" stroke="#000000" stroke-width="0.5"/></svg>')
    cards = """
[[components]]
id = "cards"
size = "poker"
pieces = [{ id = "fox", count = 1 }]
front = [{ type = "icon", name = "sun", x = 20, y = 20, w = 10, h = 20 }]
"""
    # 10 mm for 100 units: 0.1 mm a unit; the inner circle's stroke is its own fill's colour.
    result = preflight(write(tmp_path, cards, {"icons/sun.svg": icon.replace("{width}", "0.8")}))
    assert result.output.splitlines()[1] == (
        "error: cards/fox front, components.cards.front[0] (icon): a 0.08 mm line in the icon sun.svg: "
        "thinner than 0.1 mm: it breaks up or vanishes on paper")
    (tmp_path / "fixed").mkdir()   # another icon file: icons are read once per file and process
    fixed = preflight(write(tmp_path / "fixed", cards, {"icons/sun.svg": icon.replace("{width}", "1")}))
    assert fixed.exit_code == 0 and fixed.output.splitlines()[1] == "Nothing prints badly."


@pytest.mark.parametrize("game_id", sorted(game_files()))
def test_the_shipped_kits_pass(game_id):
    game = load_shipped_game(game_id)
    for lang in ("en", "fr"):
        for paper in ("a4", "letter"):
            report = run.preflight(game, PrintOptions(lang=lang, paper=paper), measure=MEASURER)
            assert not report.fails(), [f.line() for f in report.findings if f.severity == "error"]
            assert report.pages and report.faces > 0


def test_the_shipped_kits_pass_on_the_command_line():
    result = CliRunner().invoke(app, ["preflight", "halali", "--lang", "fr"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("halali, fr, a4: ")


def test_an_unknown_kit_is_one_error_line():
    result = CliRunner().invoke(app, ["preflight", "halalli"])
    assert result.exit_code == 1
    assert "unknown game 'halalli'" in result.output


def test_a_pdf_past_the_print_shops_limits_is_named(monkeypatch):
    monkeypatch.setattr(run, "FILE_LIMITS", ((1_000, "warning", "too large to send by e-mail (test)"),
                                             (2_000_000_000, "error", "never")))
    report = run.preflight(load_shipped_game("halali"), PrintOptions(), ["board"], measure=MEASURER)
    [finding] = [f for f in report.findings if f.check == "file"]
    assert finding.line() == (f"warning: the PDF of halali: {len(report.pdf) / 1e6:.1f} MB: "
                              "too large to send by e-mail (test)")


def test_a_hidden_piece_whose_back_differs_is_named_with_the_element():
    # Loading refuses the templates that would do it; the check still stands behind the plan's.
    component = next(c for c in load_shipped_game("card-hunter").components if c.hidden)
    looked = run._Looked(None, MEASURER)
    first, second, third = run.copies(component)[:3]
    same = ((Rect(-3, -3, 69.5, 94.9, fill="#1f1d2b"),), ())
    odd = ((Rect(-3, -3, 69.5, 94.9, fill="#1f1d2b"),), (Text((TextLine("7", 30, 40),), "bold", 12, "#ffffff"),))
    looked.seen += [(first, run.Face.BACK, same), (second, run.Face.BACK, same), (third, run.Face.BACK, odd)]
    [finding] = run._hidden_backs(component, looked)
    assert finding.severity == "error" and finding.face == "back"
    assert finding.element.startswith(f"components.{component.id}.back[1] (")
    assert finding.measure == "1 of 3 backs"
    assert finding.message == ("differs from the back of the 2 others: players tell these pieces apart "
                               "from behind")


# ------------------------------------------------------------------ geometry and colour
def test_how_far_inside_each_shape_a_point_lies():
    assert inside_outline(Outline("rectangle", 60, 90), 2, 45) == 2
    assert inside_outline(Outline("rounded", 60, 90, 6), 6, 1) == 1          # on a straight side
    assert inside_outline(Outline("rounded", 60, 90, 6), 3, 3) == pytest.approx(6 - 18 ** 0.5)
    assert inside_outline(Outline("circle", 20, 20), 10, 1) == pytest.approx(1)
    assert inside_outline(Outline("circle", 30, 20), 15, 1) == pytest.approx(1, abs=0.01)   # an oval
    hex_ = Outline("hex", 40, 40 * 3 ** 0.5 / 2)
    assert inside_outline(hex_, 20, 2) == pytest.approx(2, abs=1e-9)         # below the flat top
    assert inside_outline(hex_, 1, hex_.height / 2) == pytest.approx(3 ** 0.5 / 2, abs=1e-9)  # by a point
    assert inside_outline(hex_, 1, 1) < 0                                     # outside, past a slant


def test_a_symbol_is_measured_by_its_outline_not_its_box():
    piece = Piece((20.0, 20.0), Outline("circle", 20.0, 20.0), True)
    layer = (Symbol("star", 10.0, 10.0, 12.0, fill="#000000"),)
    # The star's box reaches 1.5 mm from the circle's edge; its points keep 4 mm.
    assert list(checks.safe_zone(Element("symbol", {}, "t.toml: x"), layer, piece, MEASURER)) == []
    square = (Symbol("square", 10.0, 10.0, 14.0, fill="#000000"),)
    [found] = checks.safe_zone(Element("symbol", {}, "t.toml: x"), square, piece, MEASURER)
    assert found.measure == "1.9 mm from the cut"   # 10 - 7 x 0.82 x 1.414


def test_ciede2000_on_sharmas_test_pairs():
    pairs = [((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
             ((50, 3.1571, -77.2803), (50, 0, -82.7485), 2.8615),
             ((50, -1.3802, -84.2814), (50, 0, -82.7485), 1.0000),
             ((50, 0, 0), (50, -1, 2), 2.3669),
             ((50, 2.49, -0.001), (50, -2.49, 0.0011), 7.2195),
             ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
             ((22.7233, 20.0904, -46.694), (23.0331, 14.973, -42.5619), 2.0373),
             ((90.9257, -0.5406, -0.9208), (88.6381, -0.8985, -0.7239), 1.5381)]
    for first, second, expected in pairs:
        assert colours.delta_e00(colours.Lab(*first), colours.Lab(*second)) == pytest.approx(expected, abs=1e-4)


def test_colour_vision_simulation():
    # Machado et al.'s matrices keep white and black, and fold red onto green for the red-green blind.
    for vision in ("protanopia", "deuteranopia", "tritanopia"):
        assert colours.delta_e00(colours.seen("#ffffff", vision), colours.lab("#ffffff")) < 0.5
        assert colours.seen("#000000", vision).L == pytest.approx(0, abs=1e-6)
    red, green = "#d62728", "#2ca02c"
    assert colours.difference(red, green, "normal") > 50
    assert colours.difference(red, green, "deuteranopia") < colours.difference(red, green, "tritanopia")
    assert colours.difference("#777777", "#777777", "greyscale") == 0
    assert colours.seen("#ff0000", "greyscale")[1:] == (0.0, 0.0)


def test_ink_of_a_colour():
    assert colours.ink("#000000") == colours.Ink(1, 1, 1, 1)
    assert colours.ink("#00ffff").total == pytest.approx(100)
    assert colours.ink("#808080").total == pytest.approx(4 * 100 * 127 / 255)


def test_the_checks_need_no_pdf_library():
    for module in ("checks", "colours"):
        tree = ast.parse((Path(run.__file__).parent / f"{module}.py").read_text(encoding="utf-8"))
        loaded = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        loaded |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
        assert not {name for name in loaded if name.startswith(("reportlab", "pnp.render", "pnp.kit"))}, module
