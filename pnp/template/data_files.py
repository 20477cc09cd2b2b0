"""Pieces from a data file: a CSV (UTF-8) or an .xlsx sheet beside the template.

A designer keeps a deck in a spreadsheet: one row a piece, the header row the
field names (``id``, ``count`` and the component's fields). This module reads
the rows as text, each with its row number and its column's letter, so that a
problem names the file, the row and the column as the spreadsheet shows them.
Turning a cell into a field's value (a whole number, a colour...) and checking
it is the template spec's work (:mod:`pnp.template.spec`).

The file must lie in the template's folder or under it (a template names data,
never a path elsewhere on the machine), be a regular file within the size
limit, and an .xlsx is read with the standard library alone (zip + expat, no
entity declarations, each part's unpacked size checked before it is read).
Standard library only.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
import zipfile
from pathlib import Path, PurePosixPath
from typing import NamedTuple
from xml.parsers import expat

from pnp.core.files import ReadError, read_regular
from pnp.core.limits import MAX_TEMPLATE_BYTES, MAX_TEXT_CHARS, size_shown

#: The most rows a data file may hold (a kit holds at most 20,000 pieces too).
MAX_DATA_ROWS = 20_000
#: The most bytes one part of an .xlsx may unpack to (a zip bomb stops here).
MAX_XLSX_PART_BYTES = 32 * 1024 * 1024

_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"


class DataFileError(ValueError):
    """A data file that cannot be read: the message names the file (and row or column)."""


class Cell(NamedTuple):
    column: str     # the header's name
    letter: str     # A, B, ... AA
    text: str


class Row(NamedTuple):
    number: int                 # as the spreadsheet numbers it (the header is row 1)
    cells: tuple[Cell, ...]     # the non-empty cells, in column order


class DataFile(NamedTuple):
    name: str                   # as the template writes it
    columns: tuple[Cell, ...]   # the header: column name, letter
    rows: tuple[Row, ...]


def column_letter(index: int) -> str:
    """A column's letter from its index from 0, as spreadsheets write it.

    >>> column_letter(0), column_letter(25), column_letter(26), column_letter(701)
    ('A', 'Z', 'AA', 'ZZ')
    """
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def data_path(folder: Path, name: str) -> Path:
    """The file ``name`` in the template's ``folder`` or under it; DataFileError otherwise.

    >>> data_path(Path("/tmp"), "../etc/passwd")
    Traceback (most recent call last):
    ...
    pnp.template.data_files.DataFileError: '../etc/passwd': a data file lies in the template's folder or under it (a name like 'cards.csv' or 'data/cards.xlsx')
    """
    pure = PurePosixPath(name.replace("\\", "/"))
    if (not name or pure.is_absolute() or ".." in pure.parts or ":" in name
            or pure.suffix.lower() not in (".csv", ".xlsx")):
        if name and pure.suffix.lower() not in (".csv", ".xlsx") and ".." not in pure.parts \
                and not pure.is_absolute():
            raise DataFileError(f"{name!r}: a data file is a .csv or .xlsx file")
        raise DataFileError(f"{name!r}: a data file lies in the template's folder or under it (a name "
                            "like 'cards.csv' or 'data/cards.xlsx')")
    root = folder.resolve()
    path = (root / pure).resolve()
    if path != root and root not in path.parents:
        # A symbolic link out of the folder is a way out too.
        raise DataFileError(f"{name!r}: a data file lies in the template's folder or under it; this "
                            "one leads out of it")
    return path


def read_data(folder: Path, name: str, sheet: str | None = None) -> DataFile:
    """The header and rows of a CSV or .xlsx data file beside a template."""
    path = data_path(folder, name)
    try:
        data = read_regular(path, MAX_TEMPLATE_BYTES)
    except ReadError as exc:
        if exc.kind == "too_large":
            raise DataFileError(f"{name}: the file is larger than the limit of "
                                f"{size_shown(MAX_TEMPLATE_BYTES)}") from None
        if exc.kind == "missing":
            raise DataFileError(f"{name}: no such data file beside the template") from None
        raise DataFileError(f"{name}: cannot read the data file ({exc.reason})") from None
    if path.suffix.lower() == ".xlsx":
        table = _xlsx_rows(data, name, sheet)
    else:
        if sheet is not None:
            raise DataFileError(f"{name}: a CSV file has no sheets (sheet = {sheet!r} is for an .xlsx)")
        table = _csv_rows(data, name)
    return _with_header(table, name)


def _csv_rows(data: bytes, name: str) -> list[tuple[int, list[str]]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise DataFileError(f"{name}: row {line}: not UTF-8 text (save the sheet as \"CSV UTF-8\")") from None
    # Spreadsheets set to French and other languages write ";" between cells: the
    # header row, made of field names, says which separator the file uses.
    header = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=header.count) if any(sep in header for sep in ",;\t") else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows = []
    try:
        for cells in reader:
            if len(rows) > MAX_DATA_ROWS:
                raise DataFileError(f"{name}: more than {MAX_DATA_ROWS} rows; the limit")
            rows.append((reader.line_num, cells))
    except csv.Error as exc:
        raise DataFileError(f"{name}: row {reader.line_num}: not a CSV row ({exc})") from None
    # A row's number is the line it starts on... as a spreadsheet counts rows, one each.
    return [(index + 1, cells) for index, (_, cells) in enumerate(rows)]


def _with_header(table: list[tuple[int, list[str]]], name: str) -> DataFile:
    table = [(number, cells) for number, cells in table if any(cell.strip() for cell in cells)]
    if not table:
        raise DataFileError(f"{name}: empty; the first row names the fields (id, count, ...)")
    header_row, header = table[0]
    columns = []
    width = max(len(cells) for _, cells in table)
    # Cells past the header's last name are columns without a name too.
    for index, title in enumerate(header + [""] * (width - len(header))):
        title = title.strip()
        letter = column_letter(index)
        if not title:
            if any(index < len(cells) and cells[index].strip() for _, cells in table[1:]):
                raise DataFileError(f"{name}: row {header_row}, column {letter}: a column with values "
                                    "needs a field name in the first row")
            continue
        if title in {c.column for c in columns}:
            raise DataFileError(f"{name}: row {header_row}, column {letter}: the field {title!r} "
                                "names two columns")
        columns.append(Cell(title, letter, title))
    rows = []
    for number, cells in table[1:]:
        found = []
        for column in columns:
            index = _index(column.letter)
            # Composed (NFC), as every text of a template: an "é" typed either way prints alike.
            text = unicodedata.normalize("NFC", cells[index].strip()) if index < len(cells) else ""
            if len(text) > MAX_TEXT_CHARS:
                raise DataFileError(f"{name}: row {number}, column {column.letter} ({column.column}): a "
                                    f"text of {len(text)} characters; the limit is {MAX_TEXT_CHARS}")
            if text:
                found.append(Cell(column.column, column.letter, text))
        rows.append(Row(number, tuple(found)))
    if not rows:
        raise DataFileError(f"{name}: a header row but no pieces below it")
    return DataFile(name, tuple(columns), tuple(rows))


def _index(letters: str) -> int:
    index = 0
    for char in letters:
        index = index * 26 + ord(char) - 64
    return index - 1


# ------------------------------------------------------------------ .xlsx

_CELL_REF = re.compile(r"^([A-Z]{1,3})(\d{1,7})$")


def _xlsx_rows(data: bytes, name: str, sheet: str | None) -> list[tuple[int, list[str]]]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError):
        raise DataFileError(f"{name}: not an .xlsx workbook (not a zip archive)") from None
    with archive:
        workbook = _xml(archive, "xl/workbook.xml", name)
        sheets = [(a.get("name", ""), a.get(f"{_REL} id", "")) for tag, a, _ in workbook if tag == "sheet"]
        if not sheets:
            raise DataFileError(f"{name}: a workbook without sheets")
        if sheet is None:
            chosen = sheets[0]
        else:
            chosen = next((s for s in sheets if s[0] == sheet), None)
            if chosen is None:
                raise DataFileError(f"{name}: no sheet {sheet!r} (sheets: {', '.join(s for s, _ in sheets)})")
        rels = {a.get("Id"): a.get("Target", "") for tag, a, _ in
                _xml(archive, "xl/_rels/workbook.xml.rels", name) if tag == "Relationship"}
        target = rels.get(chosen[1])
        if not target:
            raise DataFileError(f"{name}: the sheet {chosen[0]!r} has no part in the workbook")
        target = target.lstrip("/")
        part = target if target.startswith("xl/") else f"xl/{target}"
        shared = _shared_strings(archive, name)
        return _sheet_rows(_xml(archive, part, name), shared, name)


def _shared_strings(archive: zipfile.ZipFile, name: str) -> list[str]:
    if "xl/sharedStrings.xml" not in archive.namelist():
        return []
    strings: list[str] = []
    current: list[str] | None = None
    for tag, _, text in _xml(archive, "xl/sharedStrings.xml", name):
        if tag == "si":
            current = []
            strings.append("")
        elif tag == "t" and current is not None:
            current.append(text)
            strings[-1] = "".join(current)
        elif tag == "rPh":   # phonetic reading of East Asian text: not part of the cell's text
            current = None
    return strings


def _sheet_rows(events, shared: list[str], name: str) -> list[tuple[int, list[str]]]:
    rows: dict[int, dict[int, str]] = {}
    row_number = 0
    column = -1
    unworked: set[tuple[int, int]] = set()
    cell_at: tuple[int, int] | None = None
    kind = ""
    for tag, attrs, text in events:
        if tag == "row":
            row_number = int(attrs.get("r") or row_number + 1)
            if len(rows) > MAX_DATA_ROWS:
                raise DataFileError(f"{name}: more than {MAX_DATA_ROWS} rows; the limit")
            rows.setdefault(row_number, {})
            column = -1
        elif tag == "c":
            ref = _CELL_REF.match(attrs.get("r", ""))
            column = _index(ref.group(1)) if ref else column + 1
            cell_at = (int(ref.group(2)) if ref else row_number, column)
            kind = attrs.get("t", "n")
        elif tag == "f" and cell_at is not None:
            unworked.add(cell_at)   # a formula: its value is the cell's <v>, if the file keeps one
        elif tag in ("v", "t") and cell_at is not None:
            value = text
            if value:
                unworked.discard(cell_at)
            if kind == "s" and tag == "v":
                try:
                    value = shared[int(value)]
                except (ValueError, IndexError):
                    raise DataFileError(f"{name}: row {cell_at[0]}, column {column_letter(cell_at[1])}: a "
                                        "text the workbook does not hold") from None
            elif kind == "b":
                value = "true" if value.strip() == "1" else "false"
            elif kind == "e":
                raise DataFileError(f"{name}: row {cell_at[0]}, column {column_letter(cell_at[1])}: the "
                                    f"formula gives an error ({value})")
            elif kind == "n" and value:
                value = _number_text(value)
            cells = rows.setdefault(cell_at[0], {})
            cells[cell_at[1]] = cells.get(cell_at[1], "") + value
    if unworked:
        row, column = min(unworked)
        raise DataFileError(f"{name}: row {row}, column {column_letter(column)}: a formula whose value the "
                            "file does not keep (open the file in a spreadsheet and save it again)")
    table = []
    for number in sorted(rows):
        cells = rows[number]
        width = max(cells, default=-1) + 1
        table.append((number, [cells.get(i, "") for i in range(width)]))
    return table


def _number_text(raw: str) -> str:
    """A number cell as a person typed it: 6, not 6.0.

    >>> _number_text("6"), _number_text("6.0"), _number_text("2.5"), _number_text("1E3")
    ('6', '6', '2.5', '1000')
    """
    try:
        value = float(raw)
    except ValueError:
        return raw
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


def _xml(archive: zipfile.ZipFile, part: str, name: str) -> list[tuple[str, dict, str]]:
    """A part's elements in document order, each ``(local tag, attributes, its own text)``."""
    try:
        info = archive.getinfo(part)
    except KeyError:
        raise DataFileError(f"{name}: not an .xlsx workbook (no {part})") from None
    if info.file_size > MAX_XLSX_PART_BYTES:
        raise DataFileError(f"{name}: {part} unpacks to {info.file_size} bytes; the limit is "
                            f"{MAX_XLSX_PART_BYTES}")
    try:
        with archive.open(info) as stream:
            data = stream.read(MAX_XLSX_PART_BYTES + 1)
    except (zipfile.BadZipFile, NotImplementedError, OSError, EOFError) as exc:
        raise DataFileError(f"{name}: cannot unpack {part} ({exc})") from None
    if len(data) > MAX_XLSX_PART_BYTES:
        raise DataFileError(f"{name}: {part} unpacks past the limit of {MAX_XLSX_PART_BYTES} bytes")
    events: list[tuple[str, dict, str]] = []
    texts: list[list[str]] = []
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)

    def local(raw: str) -> str:
        return raw.rpartition(" ")[2]

    def start(raw: str, attrs: dict) -> None:
        clean = {}
        for key, value in attrs.items():
            namespace, _, key_name = key.rpartition(" ")
            clean[f"{namespace} {key_name}" if namespace and namespace not in (_MAIN, _PKG_REL) else key_name] = value
        events.append((local(raw), clean, ""))
        texts.append([])

    def end(raw: str) -> None:
        own = "".join(texts.pop())
        if own:
            # The text belongs to the last event of this tag that is still open.
            for index in range(len(events) - 1, -1, -1):
                if events[index][0] == local(raw):
                    tag, attrs, _ = events[index]
                    events[index] = (tag, attrs, own)
                    break

    def characters(data: str) -> None:
        if texts:
            texts[-1].append(data)

    def entity(entity_name, *args) -> None:
        raise DataFileError(f"{name}: {part} declares an entity ({entity_name}); a workbook needs none")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = characters
    parser.EntityDeclHandler = entity
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise DataFileError(f"{name}: {part} is not well-formed XML ({exc})") from None
    return events
