"""Pieces from a data file: a CSV (UTF-8) or an .xlsx sheet beside the template.

A designer keeps a deck in a spreadsheet: one row a piece, the header row the
field names (``id``, ``count`` and the component's fields). This module reads
the rows as text, each with its row number and its column's letter, so that a
problem names the file, the sheet, the row and the column as the spreadsheet
shows them. Turning a cell into a field's value (a whole number, a colour...)
and checking it is the template spec's work (:mod:`pnp.template.spec`).

A data file is untrusted structure, read within bounds (:mod:`pnp.core.limits`):
the file lies in the template's folder or under it and is a regular file within
the size limit; an .xlsx is a zip of XML parts read with the standard library
(zipfile, expat) as a stream, each part's unpacked size, element count and
nesting depth counted as it is read, no DOCTYPE or entity at all. What a file
claims (a row number, a far column, a shared text's index) is checked before
anything is made from it, and only the cells that hold something are kept, so
reading takes time and memory in proportion to the file itself. A file that a
spreadsheet would read otherwise (a quote never closed, a cell or a row given
twice, a number cell holding no number) is refused, naming where, never
guessed. Standard library only.
"""

from __future__ import annotations

import csv
import io
import posixpath
import re
import unicodedata
import zipfile
import zlib
from pathlib import Path, PurePosixPath
from xml.parsers import expat

from pnp.core.files import OutsideFolder, ReadError, read_regular, within
from pnp.core.limits import (MAX_DATA_COLUMNS, MAX_DATA_ROWS, MAX_TEMPLATE_BYTES, MAX_TEXT_CHARS, MAX_XLSX_DEPTH,
                             MAX_XLSX_ELEMENTS, MAX_XLSX_PART_BYTES, MAX_XLSX_PARTS, size_shown)
from pnp.core.records import NamedTuple


class DataFileError(ValueError):
    """A data file that cannot be read: the message names the file (and sheet, row and column)."""


class Cell(NamedTuple):
    column: str     # the header's name
    letter: str     # A, B, ... AA
    text: str


class Row(NamedTuple):
    number: int                 # as the spreadsheet numbers it (the header is row 1)
    cells: tuple[Cell, ...]     # the non-empty cells, in column order


class DataFile(NamedTuple):
    name: str                   # as problems name it: the file as the template writes it (and the sheet)
    columns: tuple[Cell, ...]   # the header: column name, letter
    rows: tuple[Row, ...]


#: The rows of a file as read: each row's number and its non-empty cells by column (from 0).
Table = list[tuple[int, dict[int, str]]]


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
    try:
        path = within(folder, name)
    except OutsideFolder as exc:
        if exc.leads_out:
            # A symbolic link out of the folder is a way out too.
            raise DataFileError(f"{name!r}: a data file lies in the template's folder or under it; this "
                                "one leads out of it") from None
        raise DataFileError(f"{name!r}: a data file lies in the template's folder or under it (a name "
                            "like 'cards.csv' or 'data/cards.xlsx')") from None
    if PurePosixPath(name.replace("\\", "/")).suffix.lower() not in (".csv", ".xlsx"):
        raise DataFileError(f"{name!r}: a data file is a .csv or .xlsx file")
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
        where, table = _xlsx_rows(data, name, sheet)
    else:
        if sheet is not None:
            raise DataFileError(f"{name}: a CSV file has no sheets (sheet = {sheet!r} is for an .xlsx)")
        where, table = name, _csv_rows(data, name)
    return _with_header(table, where)


def _with_header(table: Table, name: str) -> DataFile:
    """The first row as the columns' names, the rows below as pieces: each cell composed (NFC,
    as every text of a template: an "é" typed either way prints alike) and stripped."""
    if not table:
        raise DataFileError(f"{name}: empty; the first row names the fields (id, count, ...)")
    header_row, header = table[0]
    columns: dict[int, Cell] = {}
    seen: set[str] = set()
    for index in sorted(header):
        title, letter = header[index].strip(), column_letter(index)
        if title in seen:
            raise DataFileError(f"{name}: row {header_row}, column {letter}: the field {title!r} "
                                "names two columns")
        seen.add(title)
        columns[index] = Cell(title, letter, title)
    rows = []
    for number, cells in table[1:]:
        found = []
        for index in sorted(cells):
            column = columns.get(index)
            if column is None:
                raise DataFileError(f"{name}: row {number}, column {column_letter(index)}: a value in a column "
                                    f"without a field name (name it in row {header_row}; a column whose name "
                                    "starts with # is a note)")
            if is_note(column.column):
                continue   # a note is skipped, whatever it holds
            text = unicodedata.normalize("NFC", cells[index].strip())
            if len(text) > MAX_TEXT_CHARS:
                raise DataFileError(f"{name}: row {number}, column {column.letter} ({column.column}): a "
                                    f"text of {len(text):,} characters; the limit is {MAX_TEXT_CHARS:,}")
            control = _CONTROL.search(text)
            if control:
                # What a template's text cannot hold either (TOML refuses it); a line break may stay.
                raise DataFileError(f"{name}: row {number}, column {column.letter} ({column.column}): a "
                                    f"control character (U+{ord(control.group()):04X}) in the text")
            found.append(Cell(column.column, column.letter, text))
        if found:   # a row of notes alone is no piece
            rows.append(Row(number, tuple(found)))
    if not rows:
        raise DataFileError(f"{name}: a header row but no pieces below it")
    return DataFile(name, tuple(columns.values()), tuple(rows))


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def is_note(title: str) -> bool:
    """Whether a column is a note, read by people only: its name starts with ``#``.

    >>> is_note("#cost"), is_note(" # why"), is_note("cost")
    (True, True, False)
    """
    return title.strip().startswith("#")


def _index(letters: str) -> int:
    index = 0
    for char in letters:
        index = index * 26 + ord(char) - 64
    return index - 1


def _filled(table: Table, number: int, cells: dict[int, str], name: str) -> None:
    """Keep a row that holds something: at most MAX_DATA_ROWS rows of pieces below the header."""
    if len(table) > MAX_DATA_ROWS:
        raise DataFileError(f"{name}: row {number}: more than {MAX_DATA_ROWS:,} rows of pieces; the limit "
                            f"(a kit holds at most {MAX_DATA_ROWS:,} pieces)")
    table.append((number, cells))


def _past_columns(name: str, row: int, index: int) -> DataFileError:
    return DataFileError(f"{name}: row {row}, column {column_letter(index)}: a value past column "
                         f"{column_letter(MAX_DATA_COLUMNS - 1)}; a data file has at most {MAX_DATA_COLUMNS:,} "
                         "columns (id, count, a column for each field and notes)")


# ------------------------------------------------------------------ CSV

def _csv_rows(data: bytes, name: str) -> Table:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise DataFileError(f"{name}: row {line}: not UTF-8 text (save the sheet as \"CSV UTF-8\")") from None
    delimiter = _separator(text, name)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    table: Table = []
    # A row's number counts records, as a spreadsheet counts rows: a cell holding a line
    # break keeps its row one row.
    number, starts_on = 0, 1
    try:
        for cells in reader:
            number += 1
            found = {}
            for index, cell in enumerate(cells):
                if cell and not cell.isspace():
                    if index >= MAX_DATA_COLUMNS:
                        raise _past_columns(name, number, index)
                    found[index] = cell
            if found:
                _filled(table, number, found, name)
            starts_on = reader.line_num + 1
    except csv.Error as exc:
        raise DataFileError(_csv_fault(text, name, delimiter, number + 1, starts_on=starts_on,
                                       reason=str(exc))) from None
    return table


def _separator(text: str, name: str) -> str:
    """The character between cells: the one the header row, made of field names, uses.

    Spreadsheets set to French and other languages write ";" between cells, others ",".
    """
    header = re.match(r"[^\r\n]*", text).group()
    counts = {sep: header.count(sep) for sep in ",;\t"}
    best = max(counts.values())
    chosen = [sep for sep, count in counts.items() if count == best]
    if best and len(chosen) > 1:
        raise DataFileError(f"{name}: row 1: the first row holds as many {' and '.join(map(repr, chosen))}: "
                            "cannot tell which one separates the cells")
    return chosen[0] if best else ","


def _csv_fault(text: str, name: str, delimiter: str, number: int, *, starts_on: int, reason: str) -> str:
    """What is wrong with the record ``number`` (starting on line ``starts_on``) that the csv
    module refused, naming its column. Only ever run on a refused file."""
    record = "".join(list(io.StringIO(text, newline=""))[starts_on - 1:])
    at, column = 0, 0
    while True:
        start = at
        if record.startswith('"', at):
            at += 1
            while True:
                close = record.find('"', at)
                if close < 0:
                    return (f"{name}: row {number}, column {column_letter(column)}: a quote (\") opens the "
                            "cell and is never closed, so a spreadsheet would read the rest of the file "
                            "into it (close it, and double each quote inside a cell: \"\")")
                if record.startswith('"', close + 1):
                    at = close + 2
                    continue
                at = close + 1
                break
            if at < len(record) and record[at] not in (delimiter, "\r", "\n"):
                return (f"{name}: row {number}, column {column_letter(column)}: text after the quote that "
                        "closes the cell, which spreadsheets read in different ways (quote the whole "
                        "cell, doubling each quote inside it: \"\")")
        else:
            while at < len(record) and record[at] not in (delimiter, "\r", "\n"):
                at += 1
        if at - start > MAX_TEXT_CHARS:
            return (f"{name}: row {number}, column {column_letter(column)}: a text longer than the limit of "
                    f"{MAX_TEXT_CHARS:,} characters")
        if at >= len(record) or record[at] != delimiter:
            return f"{name}: row {number}: not a CSV row ({reason})"
        at += 1
        column += 1


# ------------------------------------------------------------------ .xlsx

#: Where a sheet's rows and cells are: the elements that lead to them from the part's root.
_ROW = ("worksheet", "sheetData", "row")
_CELL = (*_ROW, "c")
_MAX_ROW = 1_048_576        # a spreadsheet's rows, 1 to this
_MAX_COLUMN = 16_383        # and its columns, A to XFD (from 0)
_CELL_REF = re.compile(r"([A-Z]{1,3})([0-9]{1,7})")
_ROW_NUMBER = re.compile(r"[0-9]{1,7}")
_SHARED_INDEX = re.compile(r"\s*([0-9]{1,9})\s*")
_NUMBER_CELL = re.compile(r"\s*[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?\s*")
#: Zip and inflate errors a crafted archive can raise while it is read.
_UNPACK_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, RuntimeError, OSError,
                  EOFError, ValueError, OverflowError, zlib.error)


def _shown(text: str) -> str:
    """A name from the file, as a message shows it: quoted, and cut when long."""
    return repr(text) if len(text) <= 40 else repr(text[:37] + "...")


def _xlsx_rows(data: bytes, name: str, sheet: str | None) -> tuple[str, Table]:
    """How problems name the sheet read (``deck.xlsx, sheet 'Cards'``), and its rows."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except _UNPACK_ERRORS:
        raise DataFileError(f"{name}: not an .xlsx workbook (not a zip archive)") from None
    with archive:
        parts = _parts(archive, name)
        sheets = _read_part(archive, parts, "xl/workbook.xml", name, reader=_Workbook(name)).sheets
        if not sheets:
            raise DataFileError(f"{name}: a workbook without sheets")
        if sheet is None:
            chosen = sheets[0]
        else:
            chosen = next((s for s in sheets if s[0] == sheet), None)
            if chosen is None:
                raise DataFileError(f"{name}: no sheet {_shown(sheet)} (sheets: "
                                    f"{', '.join(_shown(s) for s, _ in sheets[:20])})")
        where = f"{name}, sheet {_shown(chosen[0])}"
        rels = _read_part(archive, parts, "xl/_rels/workbook.xml.rels", name, reader=_Relationships(name))
        target = rels.targets.get(chosen[1])
        if not target:
            raise DataFileError(f"{where}: the sheet has no part in the workbook")
        if target.startswith("xl/xl/") and target.lower() not in parts:
            target = target[3:]   # a target written from the archive's root without its "/"
        shared_part = rels.shared or "xl/sharedStrings.xml"
        shared = (_read_part(archive, parts, shared_part, name, reader=_SharedStrings(name)).strings
                  if shared_part.lower() in parts else [])
        return where, _read_part(archive, parts, target, name, reader=_Sheet(where, shared)).rows


def _parts(archive: zipfile.ZipFile, name: str) -> dict[str, zipfile.ZipInfo]:
    """The archive's parts by name in lower case (a workbook's part names ignore case), each once."""
    infos = archive.infolist()
    if len(infos) > MAX_XLSX_PARTS:
        raise DataFileError(f"{name}: {len(infos):,} parts in the archive; a workbook has a few dozen (the "
                            f"limit is {MAX_XLSX_PARTS:,})")
    parts: dict[str, zipfile.ZipInfo] = {}
    for info in infos:
        key = info.filename.lower()
        if key in parts:
            raise DataFileError(f"{name}: the part {_shown(info.filename)} is in the archive twice; "
                                "spreadsheets would not agree on which one to read")
        parts[key] = info
    return parts


def _part_name(target: str) -> str:
    """A relationship's target as the name of a part: ``worksheets/sheet1.xml`` is relative to
    ``xl/``, ``/xl/worksheets/sheet1.xml`` is from the archive's root."""
    if target.startswith("/"):
        return posixpath.normpath(target).lstrip("/")
    return posixpath.normpath(posixpath.join("xl", target))


class _Reader:
    """What one XML part says, gathered as expat reads it: the open elements' local names
    (``path``), counted and bounded; the text of the elements being collected, bounded too."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.path: list[str] = []
        self.elements = 0
        self.collecting: list[str] | None = None
        self.size = 0       # characters collected for the current value
        self.part = ""

    def start(self, raw: str, attrs: dict) -> None:
        tag = raw.rpartition(" ")[2]
        self.path.append(tag)
        self.elements += 1
        if len(self.path) > MAX_XLSX_DEPTH:
            raise DataFileError(f"{self.where}: {self.part} nests elements more than {MAX_XLSX_DEPTH} deep "
                                "(a workbook nests them 7 deep)")
        if self.elements > MAX_XLSX_ELEMENTS:
            raise DataFileError(f"{self.where}: {self.part} holds more than {MAX_XLSX_ELEMENTS:,} elements; "
                                "the limit")
        self.opened(tag, attrs)

    def end(self, raw: str) -> None:
        self.closed(self.path[-1])
        self.path.pop()

    def text(self, data: str) -> None:
        if self.collecting is not None:
            self.size += len(data)
            if self.size > MAX_TEXT_CHARS:
                self.too_long()
            else:
                self.collecting.append(data)

    def collect(self) -> None:
        self.collecting = []

    def collected(self) -> str:
        text = "".join(self.collecting or ())
        self.collecting = None
        return text

    def parent(self, *names: str) -> bool:
        """Whether the element just opened lies at exactly ``names`` / itself from the part's root."""
        return len(self.path) == len(names) + 1 and tuple(self.path[:-1]) == names

    def too_long(self) -> None:
        raise DataFileError(f"{self.where}: {self.part}: a text longer than the limit of {MAX_TEXT_CHARS:,} "
                            "characters")

    def opened(self, tag: str, attrs: dict) -> None:
        pass

    def closed(self, tag: str) -> None:
        pass

    def located(self) -> str:
        """Where reading stopped, for a part that is not well-formed."""
        return f"{self.where}: {self.part}"


def _read_part(archive: zipfile.ZipFile, parts: dict[str, zipfile.ZipInfo], part: str, name: str,
               *, reader: _Reader) -> _Reader:
    """Feed one part through expat, a megabyte at a time, within the limits; the reader it filled."""
    info = parts.get(part.lower())
    if info is None:
        raise DataFileError(f"{name}: not an .xlsx workbook (no {_shown(part)})")
    reader.part = info.filename
    if info.flag_bits & 0x1:
        raise DataFileError(f"{name}: {info.filename} is encrypted; save the workbook without a password")
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise DataFileError(f"{name}: {info.filename} is packed in a way spreadsheets do not write "
                            f"(compression method {info.compress_type})")
    if info.file_size > MAX_XLSX_PART_BYTES:
        raise DataFileError(f"{name}: {info.filename} unpacks to {size_shown(info.file_size)}; the limit is "
                            f"{size_shown(MAX_XLSX_PART_BYTES)}")
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.buffer_text = True
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)

    def doctype(*args) -> None:
        raise DataFileError(f"{name}: {info.filename} has a DOCTYPE (which may declare entities); a workbook "
                            "has none")

    parser.StartElementHandler = reader.start
    parser.EndElementHandler = reader.end
    parser.CharacterDataHandler = reader.text
    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = doctype
    unpacked = 0
    try:
        with archive.open(info) as stream:
            while chunk := stream.read(1 << 20):
                unpacked += len(chunk)
                if unpacked > MAX_XLSX_PART_BYTES:
                    raise DataFileError(f"{name}: {info.filename} unpacks past the limit of "
                                        f"{size_shown(MAX_XLSX_PART_BYTES)}")
                parser.Parse(chunk, False)
            parser.Parse(b"", True)
    except DataFileError:
        raise
    except expat.ExpatError as exc:
        raise DataFileError(f"{reader.located()}: not well-formed XML ({expat.ErrorString(exc.code)}, line "
                            f"{exc.lineno}, column {exc.offset + 1})") from None
    except _UNPACK_ERRORS as exc:
        raise DataFileError(f"{name}: cannot unpack {info.filename} ({str(exc)[:80]})") from None
    return reader


class _Workbook(_Reader):
    """``xl/workbook.xml``: the sheets' names and relationship ids, in order."""

    def __init__(self, where: str) -> None:
        super().__init__(where)
        self.sheets: list[tuple[str, str]] = []

    def opened(self, tag: str, attrs: dict) -> None:
        if tag == "sheet" and self.parent("workbook", "sheets"):
            # r:id, in the transitional or the strict relationships namespace.
            rid = next((v for k, v in attrs.items() if " " in k and k.rpartition(" ")[2] == "id"), "")
            self.sheets.append((attrs.get("name", ""), rid))


class _Relationships(_Reader):
    """``xl/_rels/workbook.xml.rels``: each relationship's target part, and the shared strings'."""

    def __init__(self, where: str) -> None:
        super().__init__(where)
        self.targets: dict[str, str] = {}
        self.shared: str | None = None

    def opened(self, tag: str, attrs: dict) -> None:
        if tag == "Relationship" and self.parent("Relationships") and attrs.get("TargetMode") != "External":
            target = _part_name(attrs.get("Target", ""))
            self.targets[attrs.get("Id", "")] = target
            if attrs.get("Type", "").endswith("/sharedStrings"):
                self.shared = target


class _SharedStrings(_Reader):
    """``xl/sharedStrings.xml``: the workbook's texts, each its ``<t>`` or its runs' (a phonetic
    reading, ``rPh``, is not part of it). A text past the limit is kept as None: the cell that
    uses it is named."""

    def __init__(self, where: str) -> None:
        super().__init__(where)
        self.strings: list[str | None] = []
        self.parts: list[str] = []
        self.direct = False
        self.over = False

    def opened(self, tag: str, attrs: dict) -> None:
        if tag == "si" and self.parent("sst"):
            self.parts, self.size, self.direct, self.over = [], 0, False, False
        elif tag == "t" and (self.parent("sst", "si") or self.parent("sst", "si", "r")):
            if len(self.path) == 3:
                if self.direct:
                    raise DataFileError(f"{self.where}: {self.part}: text {len(self.strings) + 1} is given "
                                        "twice")
                self.direct = True
            self.collecting = self.parts

    def closed(self, tag: str) -> None:
        if tag == "t":
            self.collecting = None
        elif tag == "si" and len(self.path) == 2:
            self.strings.append(None if self.over else "".join(self.parts))

    def too_long(self) -> None:
        self.over = True


class _Sheet(_Reader):
    """A worksheet's rows and their non-empty cells, checked as they come: rows and cells in
    order and each once, row numbers and cell references a spreadsheet could hold, each value
    what its type says (a shared text the workbook holds, a number, true or false)."""

    def __init__(self, where: str, shared: list[str | None]) -> None:
        super().__init__(where)
        self.shared = shared
        self.rows: Table = []
        self.row = 0            # the row being read (or the last one)
        self.cells: dict[int, str] = {}
        self.column = -1        # the cell being read (or the last one of the row)
        self.kind = "n"
        self.value: str | None = None
        self.inline: list[str] | None = None
        self.formula = False
        self.direct = False
        #: The columns of notes (named "#..." in the header row): their cells are skipped,
        #: whatever they hold (a formula, an error, a text of any length).
        self.notes: frozenset[int] = frozenset()
        self.skipping = False

    def at(self) -> str:
        return f"{self.where}: row {self.row}, column {column_letter(self.column)}"

    def located(self) -> str:
        return f"{self.where}: after row {self.row}" if self.row else f"{self.where}: before its first row"

    def opened(self, tag: str, attrs: dict) -> None:
        if tag == "row" and self.parent("worksheet", "sheetData"):
            raw = attrs.get("r")
            if raw is None:
                number = self.row + 1
            elif _ROW_NUMBER.fullmatch(raw) and 1 <= int(raw) <= _MAX_ROW:
                number = int(raw)
            else:
                raise DataFileError(f"{self.located()}: a row numbered {_shown(raw)}; rows are numbered 1 to "
                                    f"{_MAX_ROW:,}")
            if number <= self.row:
                raise DataFileError(f"{self.where}: row {number} comes again after row {self.row}; a row given "
                                    "twice, or out of order, is read differently by each spreadsheet")
            self.row, self.cells, self.column = number, {}, -1
        elif tag == "c" and self.parent(*_ROW):
            self.cell_starts(attrs.get("r"), attrs.get("t", "n"))
        elif self.skipping:
            return
        elif len(self.path) == 5 and tuple(self.path[:4]) == _CELL:
            if tag == "v":
                if self.value is not None:
                    raise DataFileError(f"{self.at()}: the cell holds two values; a spreadsheet keeps one")
                self.collect()
            elif tag == "f":
                self.formula = True
            elif tag == "is":
                if self.inline is not None:
                    raise DataFileError(f"{self.at()}: the cell holds two texts; a spreadsheet keeps one")
                self.inline, self.direct = [], False
        elif tag == "t" and self.inline is not None and (self.parent(*_CELL, "is") or self.parent(*_CELL, "is", "r")):
            if len(self.path) == 6:
                if self.direct:
                    raise DataFileError(f"{self.at()}: the cell holds two texts; a spreadsheet keeps one")
                self.direct = True
            self.collecting = self.inline

    def cell_starts(self, ref: str | None, kind: str) -> None:
        if ref is None:
            column = self.column + 1
        else:
            found = _CELL_REF.fullmatch(ref)
            column = _index(found.group(1)) if found else -1
            if not found or column > _MAX_COLUMN or int(found.group(2)) != self.row:
                raise DataFileError(f"{self.where}: row {self.row}: a cell named {_shown(ref)}, which is not a "
                                    f"cell of row {self.row} (A{self.row} to XFD{self.row})")
        if column <= self.column:
            before, self.column = self.column, column
            if column == before:
                raise DataFileError(f"{self.at()}: the cell is given twice; spreadsheets would not agree on "
                                    "which value to read")
            raise DataFileError(f"{self.at()}: the cell comes after column {column_letter(before)} of its row; "
                                "spreadsheets would not agree on how to read cells out of order")
        self.column, self.kind, self.value, self.inline, self.formula = column, kind, None, None, False
        self.size = 0
        self.skipping = bool(self.rows) and column in self.notes

    def closed(self, tag: str) -> None:
        if self.collecting is not None and tag in ("v", "t"):
            # Only a cell's own <v>, or a <t> of its inline text, collects (see opened).
            if tag == "v":
                self.value = self.collected()
            self.collecting = None
        elif tag == "c" and tuple(self.path) == _CELL:
            if self.skipping:
                self.skipping = False
                return
            text = self.cell_text()
            if text and not text.isspace():
                if self.column >= MAX_DATA_COLUMNS:
                    raise _past_columns(self.where, self.row, self.column)
                self.cells[self.column] = text
        elif tag == "row" and tuple(self.path) == _ROW:
            if self.cells:
                if not self.rows:   # the header row: which columns are notes
                    self.notes = frozenset(c for c, title in self.cells.items() if is_note(title))
                _filled(self.rows, self.row, self.cells, self.where)
            self.cells = {}

    def too_long(self) -> None:
        raise DataFileError(f"{self.at()}: a text longer than the limit of {MAX_TEXT_CHARS:,} characters")

    def cell_text(self) -> str:
        """The cell's value as text, as its type says."""
        kind, value = self.kind, self.value
        if self.inline is not None and (value is not None or kind != "inlineStr"):
            raise DataFileError(f"{self.at()}: the cell holds an inline text and a value of type {kind!r}; "
                                "spreadsheets would not agree on which to show")
        if self.formula and not value and kind != "inlineStr":
            raise DataFileError(f"{self.at()}: a formula whose value the file does not keep (open the file in "
                                "a spreadsheet and save it again)")
        if kind == "inlineStr":
            return "".join(self.inline or ())
        if value is None or value == "":
            return ""
        if kind == "s":
            found = _SHARED_INDEX.fullmatch(value)
            if not found or int(found.group(1)) >= len(self.shared):
                raise DataFileError(f"{self.at()}: a text the workbook does not hold (shared text "
                                    f"{_shown(value)}; it holds {len(self.shared):,})")
            text = self.shared[int(found.group(1))]
            if text is None:
                self.too_long()
            return text
        if kind == "n":
            if not _NUMBER_CELL.fullmatch(value):
                raise DataFileError(f"{self.at()}: a number cell holding {_shown(value)}, which is not a number")
            return _number_text(value.strip())
        if kind == "b":
            if value.strip() not in ("0", "1"):
                raise DataFileError(f"{self.at()}: a true-or-false cell holding {_shown(value)}, not 1 or 0")
            return "true" if value.strip() == "1" else "false"
        if kind == "e":
            raise DataFileError(f"{self.at()}: the formula gives an error ({value})")
        if kind in ("str", "d"):   # a formula's text; a date as ISO 8601 text
            return value
        raise DataFileError(f"{self.at()}: a cell of unknown type {_shown(kind)}")


def _number_text(raw: str) -> str:
    """A number cell as a person typed it: 6, not 6.0 (a number past what a float holds is
    left as written: the field's check refuses it, naming the cell).

    >>> _number_text("6"), _number_text("6.0"), _number_text("2.5"), _number_text("1E3"), _number_text("1e400")
    ('6', '6', '2.5', '1000', '1e400')
    """
    value = float(raw)
    if value != value or value in (float("inf"), float("-inf")):
        return raw
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
