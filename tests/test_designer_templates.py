"""A designer's own game: pieces from a data file, expressions in texts and fields, plurals,
every problem at once with components named by id, and `pnp new`."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app as APP
from pnp.kit.build import render_to_memory
from pnp.core.errors import TemplateError
from pnp.template.language import ExpressionError, evaluate, fill, placeholder_names
from pnp.layout.faces import FaceResolver, resolve_piece_face
from pnp.layout.primitives import absolute
from pnp.layout.plan import copies
from pnp.render.fonts import MEASURER
from pnp.template.model import Face, PrintOptions
from pnp.template.loader import load_game

DATA = Path(__file__).parent / "data"

HEAD = """
[game]
id = "tide"
players = [2, 4]

[palette]
ink = "#222222"
sea = "#2f6e9c"
"""

CATALOG = """
[game]
name = "Tide"
credits = "A test game."

[component.cards]
name = "Cards"
cut = "Cut them out."

[card.points]
one = "{points} point"
other = "{points} points"
"""


def write(folder: Path, component: str, catalog_extra: str = "", data: dict[str, str | bytes] = {}) -> Path:
    template = folder / "tide.toml"
    template.write_text(HEAD + component, encoding="utf-8")
    for lang in ("en", "fr"):
        (folder / f"tide.{lang}.toml").write_text(CATALOG + catalog_extra, encoding="utf-8")
    for name, content in data.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return template


CARDS = """
[[components]]
id = "cards"
size = "poker"
fields = { suit = "str", number = "int", _tone = "color" }
computed = { points = "10 if number == 6 else number", half = "points / 2" }
pieces = "cards.csv"

[[components.front]]
type = "text"
x = 5
y = 5
w = "w - 10"
h = 12
text = "{number} {suit} = {points} ({half:.1f}) #{copy}"
size = 10

[[components.front]]
type = "text"
x = 5
y = 20
w = "w - 10"
h = 12
text = "@card.points"
plural = "points"
size = 10

[[components.front]]
type = "text"
repeat = 3
step = [0, 10]
x = 5
y = 40
w = "w - 10"
h = 8
text = "{i + 1}/{number + i * 2:02d}"
size = 8
"""

CSV = "id,suit,number,_tone,count\nsea-1,Sea,1,sea,2\nsea-6,Sea,6,#2f6e9c,\n"


def face_texts(game, component_id: str, lang: str = "en") -> dict[tuple[str, int], list[str]]:
    """Each copy's front texts, in drawing order."""
    resolver = FaceResolver(game, PrintOptions(lang=lang), MEASURER)
    component = next(c for c in game.components if c.id == component_id)
    found = {}
    for copy in copies(component):
        face = resolver.face(copy, Face.FRONT)
        shapes, texts = list(face.primitives), []
        while shapes:
            shape = shapes.pop(0)
            if type(shape).__name__ == "Moved":
                shapes[:0] = shape.primitives
            elif type(shape).__name__ == "Text":
                texts.append(" ".join(line.text for line in shape.lines))
        found[(copy.piece.id, copy.copy)] = texts
    assert not resolver.problems, resolver.problems
    return found


# ------------------------------------------------------------------ expressions

def test_expressions_choose_compare_and_stay_closed():
    assert evaluate("10 if number == 6 else number", {"number": 6}) == 10
    assert evaluate("10 if number == 6 else number", {"number": 4}) == 4
    assert evaluate("1 if 2 < n <= 5 and not n == 3 or n == 9 else 0", {"n": 4}) == 1
    assert fill("{i + 1:02d} of {n * 2}", {"i": 4, "n": 1.5}) == "05 of 3"
    # The spreadsheet's order says the same, nested to the right, inside calls and placeholders.
    assert [evaluate("number == 6 ? 10 : number", {"number": n}) for n in (6, 4)] == [10, 4]
    assert [evaluate("a ? 1 : b ? 2 : 3", {"a": a, "b": b}) for a, b in ((1, 1), (0, 1), (0, 0))] == [1, 2, 3]
    assert evaluate("max(a > 1 ? a : 1, 2) + (a ? 1 : 0)", {"a": 5}) == 6
    assert fill("{n == 6 ? 10 : n:+d} points", {"n": 6}) == "+10 points"
    for bad in ("a ? b", "a ? b :", "? 1 : 2", "a : b"):
        with pytest.raises(ExpressionError, match="cannot read"):
            evaluate(bad, {"a": 1, "b": 1})
    assert fill("{n - 10}", {"n": 4}) == "\u22126"
    for bad in ("{__import__('os')}", "{n.real}", "{'a' * 3}", "{(lambda: 1)()}", "{[1][0]}",
                "{n ** 2}", "{0}", "{}"):
        with pytest.raises(ExpressionError):
            placeholder_names(bad)
    with pytest.raises(ExpressionError, match="unknown name"):
        fill("{x + 1}", {"n": 1})


def test_texts_computed_fields_repeat_index_and_copy(tmp_path):
    game = load_game(write(tmp_path, CARDS, data={"cards.csv": CSV}))
    texts = face_texts(game, "cards")
    assert texts[("sea-1", 1)] == ["1 Sea = 1 (0.5) #1", "1 point", "1/01", "2/03", "3/05"]
    assert texts[("sea-1", 2)][0] == "1 Sea = 1 (0.5) #2"
    assert texts[("sea-6", 1)][:2] == ["6 Sea = 10 (5.0) #1", "10 points"]
    cards = next(c for c in game.components if c.id == "cards")
    assert [(p.id, p.count, p.fields["points"]) for p in cards.pieces] == [("sea-1", 2, 1), ("sea-6", 1, 10)]
    # French says "0 point", English "0 points".
    zero = write(tmp_path, CARDS.replace('"10 if number == 6 else number"', '"number - 1"'),
                 data={"cards.csv": CSV})
    assert face_texts(load_game(zero), "cards", "fr")[("sea-1", 1)][1] == "0 point"
    assert face_texts(load_game(zero), "cards", "en")[("sea-1", 1)][1] == "0 points"


def test_a_computed_field_may_use_the_copy_number(tmp_path):
    component = CARDS.replace('half = "points / 2"', 'serial = "number * 100 + copy"').replace(
        "({half:.1f})", "{serial}")
    game = load_game(write(tmp_path, component, data={"cards.csv": CSV}))
    texts = face_texts(game, "cards")
    assert texts[("sea-1", 1)][0].endswith("101 #1") and texts[("sea-1", 2)][0].endswith("102 #2")
    _, manifest = render_to_memory(game, PrintOptions())
    serials = sorted(item["serial"] for page in manifest["pages"] for item in page["items"]
                     if item["face"] == "front")
    assert serials == [101, 102, 601]


@pytest.mark.parametrize("change, message", [
    (('text = "{number} {suit}', 'text = "{numbre + 1} {suit}'),
     "components.cards.front[0].text: unknown name 'numbre' in the expression"),
    (('text = "{number} {suit}', 'text = "{suit + 1} {suit}'),
     "components.cards.front[0].text: 'suit' is not a number an expression can use"),
    (('text = "{number} {suit}', 'text = "{i} {suit}'),
     "components.cards.front[0].text: {i} numbers the copies of a repeated element"),
    (('half = "points / 2"', 'half = "suit * 2"'),
     "components.cards.computed.half: unknown name 'suit'"),
    (('half = "points / 2"', 'number = "2"'),
     "components.cards.computed.number: expected a new field name"),
    (('plural = "points"', 'plural = "suit"'),
     "components.cards.front[1].plural: the field 'suit' is str"),
    (('text = "@card.points"', 'text = "points"'),
     "components.cards.front[1].plural: a plural picks the one or other form"),
])
def test_expression_mistakes_are_named_on_load(tmp_path, change, message):
    with pytest.raises(TemplateError) as caught:
        load_game(write(tmp_path, CARDS.replace(*change), data={"cards.csv": CSV}))
    assert any(message in p for p in caught.value.problems), caught.value.problems


@pytest.mark.parametrize("change, message", [
    # min and max take two numbers or more: min(x) would ask Python for the smallest item of a number.
    (('half = "points / 2"', 'half = "min(points)"'),
     "components.cards.computed.half: 'min(points)': min() takes two numbers or more"),
    (('half = "points / 2"', 'half = "max()"'), "components.cards.computed.half: 'max()': max() takes two numbers"),
    (('x = 5\ny = 5', 'x = "min(w)"\ny = 5'), "components.cards.front[0].x: expected a length in mm or an "
     "expression like \"w/2 - 3\": 'min(w)': min() takes two numbers or more, like min(w, 20); it is given 1"),
    (('text = "{number} {suit}', 'text = "{max(number)} {suit}'), "'{max(number)}' in '{max(number)} {suit} = "
     "{points} ({half:.1f}) #{copy}': 'max(number)': max() takes two numbers or more"),
    # A format that suits no value its placeholder holds is named on load, not met while drawing.
    (('text = "{number} {suit}', 'text = "{number} {suit:+d}'),
     "components.cards.front[0].text: {suit:+d} in '{number} {suit:+d} = {points} ({half:.1f}) #{copy}': the "
     "format '+d' does not suit a text"),
    (('text = "{number} {suit}', 'text = "{copy:.2} {suit}'), "{copy:.2} in "),
    (('text = "{number} {suit}', 'text = "{number:c} {suit}'), "the format 'c' does not suit a number ('c' writes"),
])
def test_functions_and_formats_are_checked_for_arity_and_kind_on_load(tmp_path, change, message):
    with pytest.raises(TemplateError) as caught:
        load_game(write(tmp_path, CARDS.replace(*change), data={"cards.csv": CSV}))
    assert any(message in p for p in caught.value.problems), caught.value.problems


@pytest.mark.parametrize("cell, message", [
    ("nan", "expected a value of type int, got 'nan'"),
    ("1e400", "1e400 is past the limit of 1000000 (either way)"),
    ("-99999999999", "-99999999999 is past the limit of 1000000 (either way)"),
    ("1000001", "1000001 is past the limit of 1000000 (either way)"),
    ("１２", "expected a value of type int, got '１２'"),      # digits a spreadsheet reads as text
])
def test_a_data_file_number_passes_the_limits_a_template_number_does(tmp_path, cell, message):
    with pytest.raises(TemplateError) as caught:
        load_game(write(tmp_path, CARDS, data={"cards.csv": f"id,suit,number,_tone\nsea-1,Sea,{cell},sea\n"}))
    assert f"cards.csv: row 2, column C (number): {message}" in caught.value.problems


@pytest.mark.parametrize("cell", ["nan", "inf", "-inf", "1e400", "1_000", "0x10", "٣"])
def test_a_num_cell_is_a_number_as_a_spreadsheet_reads_one(tmp_path, cell):
    component = CARDS.replace('number = "int"', 'number = "num"')
    with pytest.raises(TemplateError) as caught:
        load_game(write(tmp_path, component, data={"cards.csv": f"id,suit,number,_tone\nsea-1,Sea,{cell},sea\n"}))
    assert any(p.startswith("cards.csv: row 2, column C (number): ") for p in caught.value.problems), caught.value.problems


def test_numbers_at_the_limit_reach_the_manifest_as_json(tmp_path):
    component = CARDS.replace('number = "int"', 'number = "num"').replace(
        '"10 if number == 6 else number"', '"1"').replace('half = "points / 2"', 'half = "number / 3"').replace(
        "{number + i * 2:02d}", "{number + i * 2}")
    csv = "id,suit,number,_tone\nsea-1,Sea,1000000,sea\nsea-2,Sea,-1000000,sea\nsea-3,Sea,0.000001,sea\n"
    _, manifest = render_to_memory(load_game(write(tmp_path, component, data={"cards.csv": csv})), PrintOptions())
    import json
    from pnp.kit.build import manifest_parts
    text = b"".join(manifest_parts(manifest)).decode()
    found = json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} in the manifest"))
    numbers = sorted(i["number"] for p in found["pages"] for i in p["items"] if i["face"] == "front")
    assert numbers == [-1000000, 1e-06, 1000000]


def test_a_computed_field_past_the_limit_is_named_with_its_row(tmp_path):
    component = CARDS.replace('half = "points / 2"', 'half = "points * 1000000"')
    with pytest.raises(TemplateError) as caught:
        load_game(write(tmp_path, component, data={"cards.csv": CSV}))
    # Named once, with no problem following from the field it could not give.
    assert caught.value.problems == [
        "tide.toml: cards.csv: row 3: computed half: 'points * 1000000' gives 1e+07 is past the limit of 1000000 "
        "(either way)"]


def test_copies_are_worked_out_one_by_one_only_within_the_kit_limit(tmp_path):
    # Each copy computed alone (a field of the copy number): 5 rows of 20,000 copies are refused by their
    # total, without 100,000 copies worked out first.
    component = CARDS.replace('half = "points / 2"', 'serial = "copy"').replace("({half:.1f})", "{serial}")
    csv = "id,suit,number,_tone,count\n" + "".join(f"sea-{n},Sea,1,sea,20000\n" for n in range(5))
    with pytest.raises(TemplateError) as caught:
        load_game(write(tmp_path, component, data={"cards.csv": csv}))
    assert caught.value.problems == ["tide.toml: components: 100000 pieces in the kit (every count, every set); "
                                     "the limit is 20000"]
    csv = "id,suit,number,_tone,count\nsea-1,Sea,1,sea,20001\n"
    with pytest.raises(TemplateError) as caught:
        load_game(write(tmp_path, component, data={"cards.csv": csv}))
    assert "cards.csv: row 2, column E (count): expected at most 20,000, the most pieces a kit holds, got 20001" \
        in caught.value.problems


def test_a_plural_needs_both_forms_in_every_language(tmp_path):
    template = write(tmp_path, CARDS, data={"cards.csv": CSV})
    (tmp_path / "tide.fr.toml").write_text(CATALOG.replace('other = "{points} points"\n', ""), encoding="utf-8")
    with pytest.raises(TemplateError) as caught:
        load_game(template)
    assert any("'card.points.other' missing in fr" in p for p in caught.value.problems)


# ------------------------------------------------------------------ data files

@pytest.mark.parametrize("csv, message", [
    ("id,suit,number,_tone\nsea-1,Sea,one,sea\n", "cards.csv: row 2, column C (number): expected a value of type int, got 'one'"),
    ("id,suit,number,_tone,count\nsea-1,Sea,1,sea,0\n", "cards.csv: row 2, column E (count): expected a positive whole number, got 0"),
    ("id,suit,number,_tone\nsea-1,Sea,1,sae\n", "cards.csv: row 2, column D (_tone): expected a colour"),
    ("id,suit,number,_tone\n\nsea-1,Sea,,sea\n", "cards.csv: row 3: missing field 'number' (int)"),
    ("id,suit,number,_tone,colour\nsea-1,Sea,1,sea,blue\n", "cards.csv: row 1, column E (colour): not a field of this component"),
    ("suit,number,_tone\nSea,1,sea\n", "cards.csv: row 1: no id column"),
    ("id,suit,number,_tone\nSea 1,Sea,1,sea\n", "cards.csv: row 2, column A (id): expected a lower-case id"),
    ("id,suit,number,suit\nsea-1,Sea,1,Sea\n", "cards.csv: row 1, column D: the field 'suit' names two columns"),
    ("id,suit,number,_tone\n", "cards.csv: a header row but no pieces below it"),
    ("id,suit,number,_tone\nsea-1,Sea,1,sea,9\n", "cards.csv: row 2, column E: a value in a column without a field name (name it in row 1"),
    ("id,suit,number,_tone\n,Sea,1,sea\n", "cards.csv: row 2, column A (id): expected a lower-case id like 'wolf', but it is missing"),
    (b"id,suit,number,_tone\nsea-1,S\xe9a,1,sea\n", "cards.csv: row 2: not UTF-8 text"),
])
def test_data_file_problems_name_file_row_and_column(tmp_path, csv, message):
    with pytest.raises(TemplateError) as caught:
        load_game(write(tmp_path, CARDS, data={"cards.csv": csv}))
    assert any(message in p for p in caught.value.problems), caught.value.problems


def test_every_problem_of_a_data_file_at_once(tmp_path):
    csv = "id,suit,number,_tone\nsea-1,Sea,x,sea\nsea-2,Sea,2,nope\nsea 3,Sea,3,sea\n"
    with pytest.raises(TemplateError) as caught:
        load_game(write(tmp_path, CARDS, data={"cards.csv": csv}))
    rows = sorted(p.split(": ")[1].split(",")[0] for p in caught.value.problems)
    assert rows == ["row 2", "row 3", "row 4"]


def test_a_csv_with_semicolons_a_byte_order_mark_and_a_note_column(tmp_path):
    csv = "\ufeffid;suit;number;_tone;# note\nsea-1;Mer é;1;sea;keep\n"
    game = load_game(write(tmp_path, CARDS, data={"cards.csv": csv.encode("utf-8")}))
    assert face_texts(game, "cards")[("sea-1", 1)][0] == "1 Mer é = 1 (0.5) #1"


@pytest.mark.parametrize("name, message", [
    ("../cards.csv", "lies in the template's folder or under it"),
    ("/etc/passwd.csv", "lies in the template's folder or under it"),
    ("cards.txt", "a data file is a .csv or .xlsx file"),
    ("missing.csv", "missing.csv: no such data file beside the template"),
    ("link.csv", "leads out of it"),
])
def test_a_data_file_stays_beside_its_template(tmp_path, name, message):
    inside = tmp_path / "game"
    inside.mkdir()
    (tmp_path / "cards.csv").write_text(CSV, encoding="utf-8")
    os.symlink(tmp_path / "cards.csv", inside / "link.csv")
    with pytest.raises(TemplateError) as caught:
        load_game(write(inside, CARDS.replace('pieces = "cards.csv"', f'pieces = "{name}"')))
    assert any(message in p and "components.cards.pieces" in p for p in caught.value.problems), \
        caught.value.problems


def test_a_data_file_in_a_subfolder(tmp_path):
    template = write(tmp_path, CARDS.replace('pieces = "cards.csv"', 'pieces = "data/cards.csv"'),
                     data={"data/cards.csv": CSV})
    assert len(face_texts(load_game(template), "cards")) == 3


XLSX_CARDS = CARDS.replace('fields = { suit = "str", number = "int", _tone = "color" }',
                           'fields = { suit = "str", number = "int", bonus = "bool?" }').replace(
    'pieces = "cards.csv"', 'pieces = { file = "deck.xlsx", sheet = "Deck" }')


def test_pieces_from_an_xlsx_sheet_written_by_openpyxl(tmp_path):
    # tests/data/deck.xlsx was written by openpyxl 3.1 (inline strings, a boolean, 6.0 as a
    # number, an empty row, a note column, a first sheet that is not the deck).
    template = write(tmp_path, XLSX_CARDS, data={"deck.xlsx": (DATA / "deck.xlsx").read_bytes()})
    game = load_game(template)
    cards = next(c for c in game.components if c.id == "cards")
    assert [(p.id, p.count, p.fields["suit"], p.fields["number"], p.fields.get("bonus")) for p in cards.pieces] \
        == [("coral-1", 2, "Corail é", 1, True), ("coral-6", 1, "Corail é", 6, False), ("tide-3", 3, "Marée", 3, None)]
    assert cards.pieces[1].fields["points"] == 10


def xlsx(sheet_rows: str, shared: list[str], strings_xml: str | None = None) -> bytes:
    """A workbook as spreadsheet programs write it: shared strings, cell references, rich text."""
    main = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    rel = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
    strings = "".join(f"<si><r><t>{s[:2]}</t></r><r><t>{s[2:]}</t></r></si>" for s in shared)
    parts = {
        "xl/workbook.xml": f'<workbook {main} {rel}><sheets><sheet name="Cards" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                                      '<Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
        "xl/sharedStrings.xml": strings_xml or f"<sst {main}>{strings}</sst>",
        "xl/worksheets/sheet1.xml": f"<worksheet {main}><sheetData>{sheet_rows}</sheetData></worksheet>",
    }
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in parts.items():
            archive.writestr(name, text)
    return data.getvalue()


def test_an_xlsx_with_shared_strings_and_its_mistakes(tmp_path):
    header = '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>'
    good = header + '<row r="2"><c r="A2" t="s"><v>3</v></c><c r="B2" t="s"><v>4</v></c><c r="C2"><v>6</v></c></row>'
    shared = ["id", "suit", "number", "sea-6", "Sea"]
    component = XLSX_CARDS.replace('{ file = "deck.xlsx", sheet = "Deck" }', '"deck.xlsx"')
    game = load_game(write(tmp_path, component, data={"deck.xlsx": xlsx(good, shared)}))
    assert face_texts(game, "cards")[("sea-6", 1)][0] == "6 Sea = 10 (5.0) #1"
    bad = header + '<row r="7"><c r="A7" t="s"><v>3</v></c><c r="B7" t="s"><v>4</v></c><c r="C7"><v>2.5</v></c></row>'
    with pytest.raises(TemplateError) as caught:
        load_game(write(tmp_path, component, data={"deck.xlsx": xlsx(bad, shared)}))
    assert "deck.xlsx, sheet 'Cards': row 7, column C (number): expected a value of type int, got '2.5'" in caught.value.problems
    formula = header + '<row r="3"><c r="A3" t="s"><v>3</v></c><c r="C3"><f>2*3</f><v></v></c></row>'
    with pytest.raises(TemplateError, match="row 3, column C: a formula whose value the file does not keep"):
        load_game(write(tmp_path, component, data={"deck.xlsx": xlsx(formula, shared)}))
    with pytest.raises(TemplateError, match=r"deck.xlsx: no sheet 'Deck' \(sheets: 'Cards'\)"):
        load_game(write(tmp_path, XLSX_CARDS, data={"deck.xlsx": xlsx(good, shared)}))
    with pytest.raises(TemplateError, match="deck.xlsx: not an .xlsx workbook"):
        load_game(write(tmp_path, component, data={"deck.xlsx": b"id,suit\n"}))
    entity = ('<?xml version="1.0"?><!DOCTYPE s [<!ENTITY a "aaaa">]>'
              f'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>&a;</t></si></sst>')
    with pytest.raises(TemplateError, match="has a DOCTYPE"):
        load_game(write(tmp_path, component, data={"deck.xlsx": xlsx(good, shared, entity)}))


# ------------------------------------------------------------------ every problem, by id

def test_every_problem_on_its_own_line_naming_components_by_id(tmp_path):
    component = CARDS.replace('x = 5\ny = 5', 'x = "margn"\ny = 5').replace(
        'plural = "points"', 'plural = "points"\nfont = "heavy"')
    template = write(tmp_path, component, data={"cards.csv": CSV.replace("sea-6,Sea,6", "sea-6,Sea,six")})
    result = CliRunner().invoke(APP, ["render", "--template", str(template), "--out", str(tmp_path / "out")])
    lines = result.output.strip().splitlines()
    assert result.exit_code == 1 and not (tmp_path / "out").exists()
    assert len(lines) == 3 and all(line.startswith("Error: ") for line in lines), lines
    assert "more problem" not in result.output
    assert any("tide.toml: components.cards.front[0].x: unknown name 'margn'" in line for line in lines)
    assert any("tide.toml: components.cards.front[1].font: expected" in line for line in lines)
    assert any("cards.csv: row 3, column C (number)" in line for line in lines)


# ------------------------------------------------------------------ pnp new

def test_pnp_new_writes_a_template_that_renders_and_is_never_written_over(tmp_path):
    folder = tmp_path / "tide-pools"
    result = CliRunner().invoke(APP, ["new", str(folder)])
    assert result.exit_code == 0, result.output
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()) == [
        "art/sea.png", "art/sun.png", "cards.csv", "icons/star.svg", "tide-pools.en.toml", "tide-pools.fr.toml",
        "tide-pools.toml"]
    assert f"pnp render --template {folder / 'tide-pools.toml'}" in result.output
    before = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    (folder / "cards.csv").write_text("mine", encoding="utf-8")
    again = CliRunner().invoke(APP, ["new", str(folder)])
    assert again.exit_code == 1 and "never writes over" in again.output
    assert (folder / "cards.csv").read_text(encoding="utf-8") == "mine"
    (folder / "cards.csv").write_bytes(before["cards.csv"])
    for lang in ("en", "fr"):
        out = tmp_path / "out"
        done = CliRunner().invoke(APP, ["render", "--template", str(folder / "tide-pools.toml"), "--lang", lang,
                                        "--out", str(out)])
        assert done.exit_code == 0, done.output
    game = load_game(folder / "tide-pools.toml")
    assert {c.id: (c.piece_count(), c.back is not None) for c in game.components} == {
        "cards": (12, True), "aid": (4, False), "scoresheet": (1, False)}
    assert face_texts(game, "cards")[("sea-6", 1)][-1] == "12 points"
    # Its scoresheet is declared, not drawn: six rounds, for up to four players.
    sheet = game.blank_sheet(game.id)
    assert (game.score_rules.rounds, len(sheet.rows) - 1, len(sheet.columns)) == (6, 6, 4)
    # Each card's picture comes from the art column of cards.csv, at over 300 dpi (no warning); its
    # points stand beside the star of the folder's own icons, inline.
    assert "Warning" not in done.output
    manifest = render_to_memory(game, PrintOptions())[1]
    assert {p["file"]: sorted({u["piece"] for u in p["placed"]}) for p in manifest["pictures"]} == {
        f"art/{colour}.png": [f"cards/{colour}-{n}" for n in range(1, 7)] for colour in ("sea", "sun")}
    assert min(u["dpi"] for p in manifest["pictures"] for u in p["placed"]) > 300
    front = resolve_piece_face(game, PrintOptions(), MEASURER, component_id="cards", piece_id="sun-1")
    assert [Path(s.source).relative_to(folder).as_posix() for s in absolute(front.primitives)
            if type(s).__name__ == "Icon"] == ["icons/star.svg"]
    bad = CliRunner().invoke(APP, ["new", str(tmp_path / "Tide Pools")])
    assert bad.exit_code == 1 and "lower-case" in bad.output and not (tmp_path / "Tide Pools").exists()


@pytest.mark.parametrize("name", ["m" * 24, "w" * 24, "w-" * 11 + "ww", "a_", "x", "a9--_b", "common", "halali"])
def test_pnp_new_renders_every_name_it_accepts(tmp_path, name):
    # The widest letters at the longest name it takes, names of one letter, of separators, of a shipped
    # game and of the shared catalog: each renders in both languages on both papers.
    from pnp.template.starter import MAX_NAME

    result = CliRunner().invoke(APP, ["new", str(tmp_path / name)])
    assert result.exit_code == 0, result.output
    game = load_game(tmp_path / name / f"{name}.toml")
    for lang in ("en", "fr"):
        for paper in ("a4", "letter"):
            pdf, manifest = render_to_memory(game, PrintOptions(lang=lang, paper=paper))
            assert pdf.startswith(b"%PDF") and manifest["pages"]
    longer = CliRunner().invoke(APP, ["new", str(tmp_path / ("m" * (MAX_NAME + 1)))])
    assert longer.exit_code == 1 and f"at most {MAX_NAME} characters" in longer.output
    assert not (tmp_path / ("m" * (MAX_NAME + 1))).exists()


def test_the_alignment_sheet_names_the_template_from_where_the_command_ran_never_its_folder(tmp_path, monkeypatch):
    from helpers import pdf_reader

    folder = tmp_path / "home" / "ada" / "games"
    assert CliRunner().invoke(APP, ["new", str(folder / "tide")]).exit_code == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for cwd, shown in ((elsewhere, "--template tide.toml "), (folder, "--template tide/tide.toml ")):
        monkeypatch.chdir(cwd)
        pdf, manifest = render_to_memory(load_game(folder / "tide" / "tide.toml"), PrintOptions())
        pages = [n for n, page in enumerate(manifest["pages"]) if page.get("alignment")]
        text = " ".join(pdf_reader(pdf).pages[n].extract_text() for n in pages).replace("\n", " ")
        assert shown in text and "ada" not in text and str(tmp_path) not in text, text

