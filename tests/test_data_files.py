"""The data-file reader: untrusted structure read within bounds, one line naming file, sheet, row and column.

Each case is a file a spreadsheet would read differently from pnp, or one whose
claims (a far column, a row number, a shared text's index, a part's size) would
make a careless reader grow or guess: each is refused with the place named.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from pnp.core.limits import MAX_DATA_COLUMNS, MAX_DATA_ROWS, MAX_TEXT_CHARS, MAX_XLSX_DEPTH
from pnp.template.data_files import DataFileError, read_data

MAIN = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
HEADER = '<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c><c r="B1" t="inlineStr"><is><t>value</t></is></c></row>'


def workbook(sheet_data: str = "", *, shared: str | None = None, sheet_xml: str | None = None,
             extra: dict[str, bytes] | None = None, encrypted: bool = False) -> bytes:
    """A workbook of one sheet named Cards, its parts as given."""
    parts = {
        "xl/workbook.xml": f'<workbook {MAIN} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/'
                           'relationships"><sheets><sheet name="Cards" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
                                      'relationships"><Relationship Id="rId1" Target="worksheets/sheet1.xml"/>'
                                      '</Relationships>',
        "xl/worksheets/sheet1.xml": sheet_xml or f"<worksheet {MAIN}><sheetData>{sheet_data}</sheetData></worksheet>",
    }
    if shared is not None:
        parts["xl/sharedStrings.xml"] = f"<sst {MAIN}>{shared}</sst>"
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in {**parts, **(extra or {})}.items():
            archive.writestr(name, text)
    book = data.getvalue()
    if encrypted:
        # The "encrypted" bit of the sheet's local and central headers (the rest of the archive as it was).
        for signature, at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
            start = book.index(signature)
            while b"sheet1.xml" not in book[start:start + 80]:
                start = book.index(signature, start + 4)
            book = book[:start + at] + bytes([book[start + at] | 1]) + book[start + at + 1:]
    return book


def read(tmp_path: Path, name: str, data: bytes | str):
    (tmp_path / name).write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return read_data(tmp_path, name)


def refused(tmp_path: Path, name: str, data: bytes | str) -> str:
    with pytest.raises(DataFileError) as caught:
        read(tmp_path, name, data)
    message = str(caught.value)
    assert "\n" not in message
    return message


def inline(ref: str, text: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


# ------------------------------------------------------------------ CSV

@pytest.mark.parametrize("csv, message", [
    ('id,value\nwolf,"grey\nbear,brown\n', "row 2, column B: a quote (\") opens the cell and is never closed"),
    ('id,value\n"wolf"x,1\n', "row 2, column A: text after the quote that closes the cell"),
    ('id,value\nwolf,"1" \n', "row 2, column B: text after the quote that closes the cell"),
    ("id,value;x\nwolf,1\n", "row 1: the first row holds as many ',' and ';'"),
    ("id,value\nwolf," + "x" * 200_000 + "\n", f"row 2, column B: a text longer than the limit of {MAX_TEXT_CHARS:,}"),
    ("id,value\nwolf,1" + "," * MAX_DATA_COLUMNS + "2\n", "row 2, column ALN: a value past column ALL"),
    ("id\n" + "wolf\n" * (MAX_DATA_ROWS + 1), f"row {MAX_DATA_ROWS + 2}: more than {MAX_DATA_ROWS:,} rows"),
    ("id,value\nwolf,1,9\n", "row 2, column C: a value in a column without a field name (name it in row 1"),
    ("id,value\nwolf,a\x00b\n", "row 2, column B (value): a control character (U+0000) in the text"),
    ("id,value\nwolf,\"a\x1b[2Jb\"\n", "row 2, column B (value): a control character (U+001B)"),
])
def test_a_csv_a_spreadsheet_would_read_otherwise_is_refused_naming_the_cell(tmp_path, csv, message):
    assert f"cards.csv: {message}" in refused(tmp_path, "cards.csv", csv)


def test_a_csv_whose_quotes_hold_separators_line_breaks_and_quotes_is_read_as_a_spreadsheet_does(tmp_path):
    data = read(tmp_path, "cards.csv", 'id,value\nwolf,"grey, ""old""\nand wise"\n,\nbear,"1"\n')
    assert [(row.number, [c.text for c in row.cells]) for row in data.rows] == [
        (2, ["wolf", 'grey, "old"\nand wise']), (4, ["bear", "1"])]


def test_empty_cells_far_to_the_right_are_no_columns(tmp_path):
    data = read(tmp_path, "cards.csv", "id,value" + "," * 5000 + "\nwolf,1" + "," * 5000 + "\n")
    assert [c.column for c in data.columns] == ["id", "value"]


# ------------------------------------------------------------------ .xlsx

def row(number: int, *cells: str, attrs: str = "") -> str:
    return f'<row r="{number}"{attrs}>{"".join(cells)}</row>'


@pytest.mark.parametrize("sheet, message", [
    # A cell given twice: read as the two values joined, once.
    (row(2, inline("A2", "wolf"), inline("B2", "3"), inline("B2", "4")), "row 2, column B: the cell is given twice"),
    (row(2, inline("B2", "3"), inline("A2", "wolf")), "row 2, column A: the cell comes after column B"),
    (row(2, inline("A2", "wolf")) + row(2, inline("A2", "bear")), "row 2 comes again after row 2"),
    (row(3, inline("A3", "wolf")) + row(2, inline("A2", "bear")), "row 2 comes again after row 3"),
    ('<row r="x">' + inline("A2", "wolf") + "</row>", "after row 1: a row numbered 'x'"),
    ('<row r="1e3">' + inline("A2", "wolf") + "</row>", "after row 1: a row numbered '1e3'"),
    ('<row r="0"/>', "after row 1: a row numbered '0'"),
    ('<row r="2000000"/>', "after row 1: a row numbered '2000000'"),
    (row(2, inline("A3", "wolf")), "row 2: a cell named 'A3', which is not a cell of row 2"),
    (row(2, inline("a2", "wolf")), "row 2: a cell named 'a2'"),
    (row(2, inline("XFE2", "wolf")), "row 2: a cell named 'XFE2'"),
    (row(2, inline("A2", "wolf"), '<c r="XFD2"><v>1</v></c>'), "row 2, column XFD: a value past column ALL"),
    (row(2, '<c r="A2" t="s"><v>-1</v></c>'), "row 2, column A: a text the workbook does not hold (shared text '-1'"),
    (row(2, '<c r="A2" t="s"><v>1</v></c>'), "row 2, column A: a text the workbook does not hold (shared text '1'; it holds 1)"),
    (row(2, '<c r="A2" t="s"><v>1e3</v></c>'), "a text the workbook does not hold (shared text '1e3'"),
    (row(2, inline("A2", "wolf"), '<c r="B2"><v>nan</v></c>'), "row 2, column B: a number cell holding 'nan'"),
    (row(2, inline("A2", "wolf"), '<c r="B2"><v>0x10</v></c>'), "row 2, column B: a number cell holding '0x10'"),
    (row(2, inline("A2", "wolf"), '<c r="B2"><v>1</v><v>2</v></c>'), "row 2, column B: the cell holds two values"),
    (row(2, inline("A2", "wolf"), '<c r="B2" t="b"><v>2</v></c>'), "row 2, column B: a true-or-false cell holding '2'"),
    (row(2, inline("A2", "wolf"), '<c r="B2" t="q"><v>2</v></c>'), "row 2, column B: a cell of unknown type 'q'"),
    (row(2, inline("A2", "wolf"), '<c r="B2" t="inlineStr"><is><t>a</t><t>b</t></is></c>'),
     "row 2, column B: the cell holds two texts"),
    (row(2, inline("A2", "wolf"), '<c r="B2" t="n"><v>1</v><is><t>b</t></is></c>'),
     "row 2, column B: the cell holds an inline text and a value"),
    (row(2, inline("A2", "wolf"), '<c r="B2"><f>1+1</f></c>'), "row 2, column B: a formula whose value the file"),
    (row(2, inline("A2", "wolf"), '<c r="B2" t="e"><v>#DIV/0!</v></c>'), "row 2, column B: the formula gives an error"),
    (row(2, inline("A2", "wolf"), inline("B2", "x" * (MAX_TEXT_CHARS + 1))),
     f"row 2, column B: a text longer than the limit of {MAX_TEXT_CHARS:,}"),
    (row(2, inline("A2", "wolf")) + "<row>" + "<x>" * MAX_XLSX_DEPTH + "</x>" * MAX_XLSX_DEPTH + "</row>",
     f"nests elements more than {MAX_XLSX_DEPTH} deep"),
    (row(2, inline("A2", "wolf")) + "<row r='3'><c r='A3'>", "after row 3: not well-formed XML (mismatched tag"),
])
def test_an_xlsx_a_spreadsheet_would_read_otherwise_is_refused_naming_sheet_row_and_column(tmp_path, sheet, message):
    found = refused(tmp_path, "deck.xlsx", workbook(HEADER + sheet, shared="<si><t>id</t></si>"))
    assert found.startswith("deck.xlsx, sheet 'Cards': "), found
    assert message in found, found


@pytest.mark.parametrize("book, message", [
    (workbook(HEADER, encrypted=True), "deck.xlsx: xl/worksheets/sheet1.xml is encrypted"),
    (workbook(HEADER, extra={"XL/Workbook.xml": b"<x/>"}), "deck.xlsx: the part 'XL/Workbook.xml' is in the archive twice"),
    (workbook(sheet_xml='<?xml version="1.0"?><!DOCTYPE w [<!ENTITY a "b">]><worksheet/>'),
     "deck.xlsx: xl/worksheets/sheet1.xml has a DOCTYPE"),
    (workbook(HEADER, shared="<si><t>a</t><t>b</t></si>"), "deck.xlsx: xl/sharedStrings.xml: text 1 is given twice"),
    (b"PK\x05\x06" + b"\0" * 18, "deck.xlsx: not an .xlsx workbook (no 'xl/workbook.xml')"),
    (b"not a zip", "deck.xlsx: not an .xlsx workbook (not a zip archive)"),
])
def test_a_workbook_whose_parts_are_wrong_is_refused(tmp_path, book, message):
    assert message in refused(tmp_path, "deck.xlsx", book)


def test_a_shared_text_past_the_limit_is_named_where_a_cell_uses_it(tmp_path):
    shared = "<si><t>id</t></si><si><t>value</t></si>" + f"<si><t>{'x' * (MAX_TEXT_CHARS + 1)}</t></si>"
    header = row(1, '<c r="A1" t="s"><v>0</v></c>', '<c r="B1" t="s"><v>1</v></c>')
    # Unused, it is no problem; used, the cell that uses it is named.
    assert read(tmp_path, "deck.xlsx", workbook(header + row(2, inline("A2", "wolf")), shared=shared)).rows
    message = refused(tmp_path, "deck.xlsx", workbook(header + row(2, inline("A2", "wolf"), '<c r="B2" t="s"><v>2</v></c>'),
                                                       shared=shared))
    assert message.startswith("deck.xlsx, sheet 'Cards': row 2, column B: a text longer than the limit")


def test_what_a_spreadsheet_writes_around_the_values_is_read_as_it_shows_them(tmp_path):
    # Styled empty cells far to the right, empty styled rows, rows and cells without references,
    # rich text runs and a phonetic reading, a formula with its value, a boolean, 6.0 and 1E3.
    shared = "<si><r><t>wo</t></r><r><t>lf</t></r><rPh><t>ウルフ</t></rPh></si>"
    sheet = (HEADER + row(2, '<c r="A2" t="s"><v>0</v></c>', '<c r="B2"><f>2*3</f><v>6.0</v></c>',
                          '<c r="XFD2" s="3"/>')
             + '<row r="5" s="2" customFormat="1"/>'
             + '<row><c t="inlineStr"><is><t>bear</t></is></c><c><v>1E3</v></c></row>'
             + row(7, inline("A7", "fox"), '<c r="B7" t="b"><v>1</v></c>'))
    data = read(tmp_path, "deck.xlsx", workbook(sheet, shared=shared))
    assert data.name == "deck.xlsx, sheet 'Cards'"
    assert [(r.number, [c.text for c in r.cells]) for r in data.rows] == [
        (2, ["wolf", "6"]), (6, ["bear", "1000"]), (7, ["fox", "true"])]


def test_a_sheet_far_down_and_to_the_right_is_read_without_padding(tmp_path):
    # 20,000 rows each naming column XFD: the reader keeps what holds a value, no more.
    sheet = HEADER + "".join(row(n, inline(f"A{n}", f"c{n}"), f'<c r="XFD{n}" s="1"/>')
                             for n in range(2, MAX_DATA_ROWS + 2))
    data = read(tmp_path, "deck.xlsx", workbook(sheet))
    assert len(data.rows) == MAX_DATA_ROWS and data.rows[-1].number == MAX_DATA_ROWS + 1
    message = refused(tmp_path, "deck.xlsx", workbook(sheet + row(MAX_DATA_ROWS + 2, inline(f"A{MAX_DATA_ROWS + 2}", "x"))))
    assert f"row {MAX_DATA_ROWS + 2}: more than {MAX_DATA_ROWS:,} rows of pieces" in message


# ------------------------------------------------------------------ notes

NOTE_HEADER = f'<row r="1">{inline("A1", "id")}{inline("B1", "value")}{inline("C1", "#double")}</row>'


@pytest.mark.parametrize("note", [
    '<c r="C2"><f>B2*2</f><v></v></c>',                  # a formula whose value the file does not keep
    '<c r="C2" t="e"><f>1/0</f><v>#DIV/0!</v></c>',      # a formula that gives an error
    '<c r="C2" t="s"><v>7</v></c>',                      # a shared text the workbook does not hold
    '<c r="C2"><v>lots</v></c>',                         # a number cell holding no number
    f'<c r="C2" t="inlineStr"><is><t>{"x" * (MAX_TEXT_CHARS + 5)}</t></is></c>',   # past the limit
])
def test_a_note_column_of_an_xlsx_is_skipped_whatever_it_holds(tmp_path, note):
    rows = NOTE_HEADER + f'<row r="2">{inline("A2", "wolf")}<c r="B2"><v>3</v></c>{note}</row>'
    rows += f'<row r="3">{inline("C3", "a row of notes alone is no piece")}</row>'
    data = read(tmp_path, "deck.xlsx", workbook(rows))
    assert [[(c.column, c.text) for c in row.cells] for row in data.rows] == [[("id", "wolf"), ("value", "3")]]


def test_a_formula_without_its_value_is_still_refused_in_a_field(tmp_path):
    rows = NOTE_HEADER + f'<row r="2">{inline("A2", "wolf")}<c r="B2"><f>1+2</f><v></v></c></row>'
    assert "row 2, column B: a formula whose value the file does not keep" in refused(
        tmp_path, "deck.xlsx", workbook(rows))


def test_a_note_column_of_a_csv_is_skipped_whatever_it_holds(tmp_path):
    data = read(tmp_path, "cards.csv", "id,value,# why\nwolf,3,a\x1bnote " + "x" * (MAX_TEXT_CHARS + 5)
                + "\n,,only a note\n")
    assert [[(c.column, c.text) for c in row.cells] for row in data.rows] == [[("id", "wolf"), ("value", "3")]]


def test_a_row_that_cannot_be_read_is_named_once_not_again_by_a_when(tmp_path):
    from pnp.core.errors import TemplateError
    from pnp.template.loader import load_game

    (tmp_path / "cards.csv").write_text("id,value\nwolf,3\nbear,six\n", encoding="utf-8")
    (tmp_path / "g.toml").write_text(
        '[game]\nid = "g"\n[[components]]\nid = "cards"\nsize = "poker"\nfields = { value = "int" }\n'
        'pieces = "cards.csv"\nfront = [{ type = "text", x = 5, y = 5, w = 50, h = 10, text = "{value}", '
        'size = 12, when = "id=bear" }]\n', encoding="utf-8")
    for lang in ("en", "fr"):
        (tmp_path / f"g.{lang}.toml").write_text('[game]\nname = "G"\ncredits = "x"\n[component.cards]\n'
                                                 'name = "Cards"\ncut = "Cut."\n', encoding="utf-8")
    with pytest.raises(TemplateError) as caught:
        load_game(tmp_path / "g.toml")
    # Not also "id is never 'bear' here": the bear is the row that could not be read.
    assert caught.value.problems == ["cards.csv: row 3, column B (value): expected a value of type int, got 'six'"]
