"""A designer's own fonts, and texts with inline icons and bold or italic runs.

The font is the one examples/lantern-market ships (Comfortaa Bold, SIL OFL); the icons are
written here. Each test names what a wrong implementation would get wrong: a font not embedded,
a CFF font taken, a letter the font lacks printed as a box, an icon off its line, a run in the
wrong weight, a star that was meant to be printed swallowed.
"""

from __future__ import annotations

import shutil
import struct
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers import pdf_reader
from pnp.cli import app
from pnp.core.errors import TemplateError
from pnp.kit.build import render_to_memory
from pnp.layout.faces import resolve_piece_face
from pnp.layout.primitives import Icon, Text
from pnp.layout.rich_text import ICON_DROP, ICON_HEIGHT, MarkupError, Run, runs_of
from pnp.render.fonts import MEASURER
from pnp.template.loader import load_game
from pnp.template.model import PrintOptions

FONT = Path(__file__).resolve().parent.parent / "examples" / "lantern-market" / "fonts" / "Comfortaa-Bold.ttf"
COIN = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><circle cx="12" cy="12" r="10" '
        'fill="currentColor"/></svg>')
runner = CliRunner()


def kit(folder: Path, text: str, *, fonts: str = "", font: str = "", catalog: str = "", box: str = "w = 53.5\nh = 30\n",
        extra: str = "") -> Path:
    """A kit of one card whose front is one text (its ``box`` and ``extra`` keys as TOML lines), with
    the template's fonts, an icon and catalog texts."""
    (folder / "fonts").mkdir(exist_ok=True)
    shutil.copy(FONT, folder / "fonts" / "Title.ttf")
    (folder / "icons").mkdir(exist_ok=True)
    (folder / "icons" / "coin.svg").write_text(COIN, encoding="utf-8")
    (folder / "runs.toml").write_text(
        f'[game]\nid = "runs"\n[fonts]\n{fonts}\n[palette]\nink = "#7a2e1d"\n[[components]]\nid = "cards"\n'
        f'size = "poker"\npieces = [{{ id = "card", count = 1 }}]\n[[components.front]]\ntype = "text"\nx = 5\ny = 5\n'
        f'{box}size = 12\ntext = \'{text}\'\n{font}{extra}', encoding="utf-8")
    for lang in ("en", "fr"):
        (folder / f"runs.{lang}.toml").write_text(
            '[game]\nname = "Runs"\ncredits = "A test."\n[component.cards]\nname = "Cards"\ncut = "Cut."\n' + catalog,
            encoding="utf-8")
    return folder / "runs.toml"


def face(template: Path, lang: str = "en"):
    return resolve_piece_face(load_game(template), PrintOptions(lang=lang), MEASURER, component_id="cards",
                              piece_id="card")


def errors(template: Path) -> list[str]:
    result = runner.invoke(app, ["render", "--template", str(template), "--out", str(template.parent / "out")])
    assert result.exit_code == 1
    return result.output.strip().splitlines()


# ------------------------------------------------------------------ own fonts

def test_an_own_font_is_a_choice_beside_latos_embedded_as_a_subset_with_its_licence_on_the_cover(tmp_path):
    template = kit(tmp_path, "Éléphant œuf", fonts='title = { file = "fonts/Title.ttf", licence = "SIL Open Font License 1.1" }',
                   font='font = "title"\n')
    [text] = face(template).primitives
    assert text.style == str((tmp_path / "fonts" / "Title.ttf").resolve())
    data, _ = render_to_memory(load_game(template), PrintOptions(lang="fr"))
    reader = pdf_reader(data)
    fonts = {str(f["/BaseFont"]) for page in reader.pages for f in page["/Resources"]["/Font"].values()}
    assert any(name.endswith("+Comfortaa-Bold") for name in fonts), fonts   # a subset, its own name
    assert b"/FontFile2" in data
    assert "Comfortaa, SIL Open Font License 1.1." in reader.pages[0].extract_text()
    moved = tmp_path / "elsewhere"
    shutil.copytree(tmp_path, moved, ignore=shutil.ignore_patterns("elsewhere"))
    assert render_to_memory(load_game(moved / "runs.toml"), PrintOptions(lang="fr"))[0] == data  # the same bytes


def test_a_letter_the_own_font_lacks_is_named_before_anything_is_drawn(tmp_path):
    lines = errors(kit(tmp_path, "Hunt ★", fonts='title = "fonts/Title.ttf"', font='font = "title"\n'))
    assert lines == ["Error: runs.toml: components.cards.front[0] (runs cards/card front, en): the font has no "
                     "glyph for '★': 'Hunt ★'"]


def _cff(path: Path) -> None:
    path.write_bytes(b"OTTO" + struct.pack(">HHHH", 0, 0, 0, 0) + b"\0" * 64)


def _restricted(path: Path) -> None:
    """The example's font with its OS/2 table saying its licence forbids embedding (fsType 2)."""
    data = bytearray(FONT.read_bytes())
    count = struct.unpack(">H", data[4:6])[0]
    for index in range(count):
        tag, _, offset, _ = struct.unpack(">4sIII", data[12 + 16 * index:28 + 16 * index])
        if tag == b"OS/2":
            data[offset + 8:offset + 10] = struct.pack(">H", 2)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("file, make, message", [
    ("fonts/Script.otf", _cff, "fonts.title: fonts/Script.otf: an OpenType font with PostScript (CFF) outlines, which "
                               "the PDFs made here cannot embed; use the font's TrueType version (.ttf), or convert it"),
    ("fonts/Locked.ttf", _restricted, "fonts.title: fonts/Locked.ttf: its licence forbids embedding it in a document "
                                      "(OS/2 fsType 0x0002)"),
    ("fonts/None.ttf", None, "fonts.title: fonts/None.ttf: no such font beside the template"),
    ("../Title.ttf", None, "fonts.title: '../Title.ttf': a font lies in the template's folder or under it"),
    ("fonts/Title.woff", lambda p: p.write_bytes(b"wOFF" + b"\0" * 60), "'fonts/Title.woff': a font is a TrueType "
                                                                         ".ttf file"),
])
def test_a_font_that_cannot_be_embedded_is_refused_in_words(tmp_path, file, make, message):
    if make is not None:
        (tmp_path / "fonts").mkdir(exist_ok=True)
        make(tmp_path / file)
    lines = errors(kit(tmp_path, "Hunt", fonts=f'title = "{file}"'))
    assert len(lines) == 1 and message in lines[0], lines


def test_a_font_name_the_template_does_not_declare_lists_the_choices(tmp_path):
    lines = errors(kit(tmp_path, "Hunt", fonts='title = "fonts/Title.ttf"', font='font = "titel"\n'))
    assert lines == ["Error: runs.toml: components.cards.front[0].font: expected regular or bold or black or italic "
                     "or title, got 'titel'"]


# ------------------------------------------------------------------ runs and inline icons

def test_runs_are_read_with_their_escapes_and_an_unclosed_run_is_refused():
    assert runs_of("Gain **2** *now*") == [Run("Gain "), Run("2", bold=True), Run(" "), Run("now", italic=True)]
    assert runs_of("***all***") == [Run("all", bold=True, italic=True)]
    assert runs_of(r"5 \* 2 = 10\: done \\ ok") == [Run("5 * 2 = 10: done \\ ok")]
    assert runs_of("At 10:30, 1:2:3, see https://x.org") is None   # no icon name starts with a digit or a /
    with pytest.raises(MarkupError, match=r"a \*\* opens bold text at character 6 that never closes"):
        runs_of("Gain **2 coins")


def test_an_inline_icon_sits_on_the_baseline_in_the_texts_colour_and_size(tmp_path):
    layer = face(kit(tmp_path, "Gain **2** :coin: now"))
    texts = [p for p in layer.primitives if type(p) is Text]
    [icon] = [p for p in layer.primitives if type(p) is Icon]
    assert {t.style for t in texts} == {"regular", "bold"}
    baseline = texts[0].lines[0].y
    size_mm = texts[0].size / (72 / 25.4)
    assert icon.tint == "#7a2e1d" and round(icon.h, 3) == round(ICON_HEIGHT * size_mm, 3)
    assert round(icon.y + icon.h, 3) == round(baseline + ICON_DROP * size_mm, 3)   # a little below the baseline
    # Drawn in reading order (as a PDF's text is copied or read aloud), each stretch in its style.
    assert [(t.style, [line.text for line in t.lines]) for t in texts] == [
        ("regular", ["Gain"]), ("bold", ["2"]), ("regular", ["now"])]
    gain, two, now = (t.lines[0] for t in texts)
    assert gain.x < two.x < icon.x < now.x
    assert face(kit(tmp_path, "Gain **2** {icon:coin} now")).primitives == layer.primitives


def test_a_rich_text_wraps_and_shrinks_like_plain_text_and_its_runs_are_glyph_checked(tmp_path):
    long = " ".join(["**Hunt** :coin: *quietly*"] * 12)
    layer = face(kit(tmp_path, long, extra="wrap = true\n"))
    texts = [p for p in layer.primitives if type(p) is Text]
    assert texts[0].size < 12   # shrunk to fit
    assert len({line.y for t in texts for line in t.lines}) > 2   # wrapped over several lines
    assert all(line.x + MEASURER.width(line.text, t.style, t.size) / (72 / 25.4) <= 5 + 53.5 + 1e-6
               for t in texts for line in t.lines)
    lines = errors(kit(tmp_path, "**★**"))
    assert lines[0].endswith("the font has no glyph for '★': '★'")


def test_runs_and_icons_come_from_catalogs_in_both_languages_and_a_missing_icon_is_named(tmp_path):
    catalog = '[card]\nrule = "**Gagne** :coin:"\n'
    template = kit(tmp_path, "@card.rule", catalog=catalog)
    assert any(type(p) is Icon for p in face(template, "fr").primitives)
    lines = errors(kit(tmp_path, "Pay :coins:"))
    assert lines[0].startswith("Error: runs.toml: components.cards.front[0].text (runs cards/card front, en): ")
    assert "coins" in lines[0]


def test_a_run_the_font_has_no_variant_for_is_named_with_the_way_out(tmp_path):
    lines = errors(kit(tmp_path, "*quietly*", fonts='title = "fonts/Title.ttf"', font='font = "title"\n'))
    assert lines == ["Error: runs.toml: components.cards.front[0].text (runs cards/card front, en): the font 'title' "
                     "has no italic (a run of *italic*): give [fonts.title] italic = \"FILE.ttf\", or write it plain"]


def test_a_turned_rich_text_turns_its_icons_with_it(tmp_path):
    layer = face(kit(tmp_path, "**Turn** :coin:", box="w = 10\nh = 60\n", extra="rotate = 90\n"))
    [icon] = [p for p in layer.primitives if type(p) is Icon]
    assert icon.rotate == 90 and icon.w < icon.h * 1.01   # a square icon, in a box standing up
    text = next(p for p in layer.primitives if type(p) is Text)
    assert text.rotate == 90 and 5 <= icon.x <= 15 and 5 <= icon.y <= 65
