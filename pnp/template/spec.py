"""What a template file may hold, declared: its tables, their keys, each key's kind and default.

Read top to bottom it is the template language's reference for everything
but the elements of a face (those are :mod:`pnp.template.elements`'s). Each table is a
:class:`~pnp.template.schema.Table` of :class:`~pnp.template.schema.Field` s in the order they
are checked, then its rules, each a function named for what it decides:

``GAME`` (the file) -> ``HEADER`` (``[game]``), ``PALETTE``, ``PARAMS``,
``COMPONENTS`` -> ``COMPONENT`` (``[[components]]``) -> ``PIECE``
(``[[components.pieces]]``, whose keys are the component's declared fields).

A key added to the language is a line in one of these tables; a new kind of
value is a spec (a small class in :mod:`pnp.template.schema` or here). Checking gives
clean values (defaults filled in) from which :mod:`pnp.template.loader` builds the
model; every problem is one line with the file, the key and the expected form.
"""

from __future__ import annotations

import math
import re
from itertools import chain, filterfalse, repeat
from operator import attrgetter
from typing import Any, Mapping

from pnp.template.elements import BUILT_IN_COLORS, FIELD_TYPES, HEX, SET_COLORS, SYMBOLS, Scope, compile_elements
from pnp.core.errors import TemplateError, UnknownNameError
from pnp.template.language import ExpressionError, evaluate, names_in
from pnp.core.limits import (MAX_DPI, MAX_NUMBER, MAX_OVERLAP_MM, MAX_PIECE_MM, MAX_PIECES, MAX_QR_BYTES,
                             MAX_SCORE_ROWS, MIN_PIECE_MM, number_problem, number_shown)
from pnp.template.model import PIECE_KINDS, SHAPES, Piece, PlayerColor
from pnp.template.schema import (MISSING, All, Checker, Field, Invalid, Kind, OneOf, Spec, Table, TableOf, When,
                        boolean, finite_within, is_number, keep, matching)
from pnp.core.units import piece_size

NAME = re.compile(r"^[a-z][a-z0-9_-]*$")
FIELD_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: Names a piece table uses itself, so no field may take them.
PIECE_KEYS = ("id", "count", "front", "back")

#: What a palette always holds: the cover page, footers and scoresheets draw
#: with these names, so a game that does not set them gets these.
PALETTE_DEFAULTS = {"ink": "#000000", "paper": "#ffffff", "light": "#eeeeee"}


def with_defaults(palette: Mapping[str, str]) -> dict[str, str]:
    """The palette with every name the engine draws with: black ink on white
    paper, a light grey, the ink as accent, and the ink for good and bad points.

    >>> with_defaults({"ink": "#2b2118"})["accent"]
    '#2b2118'
    """
    ink = palette.get("ink", PALETTE_DEFAULTS["ink"])
    return {**PALETTE_DEFAULTS, "accent": ink, "good": ink, "bad": ink, **palette}


def is_color_value(value: str, palette: Mapping, has_sets: bool) -> bool:
    return bool(HEX.match(value)) or value in palette or value in BUILT_IN_COLORS or (
        has_sets and value in SET_COLORS)


def flag(default: bool) -> Field:
    """A true-or-false key; a wrong value is named and taken as the default."""
    return Field(boolean(), default=default, fallback=default)


def list_of_text(expected: str) -> Kind:
    return Kind(list, expected, lambda value: all(isinstance(item, str) for item in value))


# ------------------------------------------------------------------ [game]

class Players(Spec):
    expected = "[min, max] player counts"

    def read(self, value, at, check, siblings):
        if not (isinstance(value, list) and len(value) == 2
                and all(isinstance(p, int) and not isinstance(p, bool) and p > 0 for p in value)
                and value[0] <= value[1]):
            raise Invalid()
        return value


class RulesUrl(Spec):
    """The cover page's QR code holds it: printable, and short enough for a phone to read."""

    expected = "text"

    def read(self, value, at, check, siblings):
        if not isinstance(value, str):
            raise Invalid()
        size = len(value.encode("utf-8", "surrogatepass"))
        if size > MAX_QR_BYTES or not value.isprintable():
            raise Invalid(message=f"{size} bytes; a web address of printable characters up to the limit "
                                  f"of {MAX_QR_BYTES} bytes (what a QR code holds and a phone still reads)")
        return value


HEADER = Table({
    "id": Field(matching(NAME, "a lower-case id like 'hunting-fever'"), check_missing=True, fallback=keep),
    "players": Field(Players(), default=[1, 1], fallback=[1, 1]),
    "rules_url": Field(RulesUrl(), default=""),
    "designers": Field(list_of_text("a list of names"), default=[], fallback=[]),
    # True: the cover calls the kit a fan-made copy of someone else's game (the shipped kits);
    # false: a designer's own game, whose credits and licence are its own catalogs' words.
    "fan_copy": flag(True),
    # The most pixels per inch a picture keeps in the PDF (pictures with far more are made smaller).
    "image_dpi": Field(Kind((int, float), f"a resolution in dots per inch, from 72 to {MAX_DPI}",
                            lambda value: 72 <= value <= MAX_DPI), default=300, fallback=300),
}, "a table with id, players, rules_url, designers, fan_copy and image_dpi", where="[game]")


# ------------------------------------------------------------------ [palette] and [params]

class Param(Spec):
    """A number a user may change; named first when it is past the limit, since a size or
    length computed from it would fail too."""

    expected = "a number"

    def read(self, value, at, check, siblings):
        if not is_number(value):
            raise Invalid()
        if not finite_within(MAX_NUMBER)(value):
            raise Invalid(message=f"{number_shown(value)} is not a finite number up to the limit of "
                                  f"{MAX_NUMBER:.0f}")
        return value


def with_overrides(params: dict, check: Checker) -> dict:
    """The params with the user's ``--set NAME=VALUE``: a name the template lacks, or a value
    that is not a positive number, stops the load at once (it is the command line's mistake)."""
    for name, value in (check.overrides or {}).items():
        if name not in params:
            raise UnknownNameError(f"{check.source} has no setting {name!r}; it has: "
                                   f"{', '.join(params) or '(none)'}")
        if not (math.isfinite(value) and 0 < value <= MAX_NUMBER):
            raise TemplateError(f"the setting {name!r} must be a positive number up to the limit of "
                                f"{MAX_NUMBER:.0f}, got {value:g}")
        params = {**params, name: value}
    return params


# A wrong entry stays in (as a name the faces may use), so one mistake is named once.
PALETTE = TableOf(matching(HEX, "a colour #RRGGBB"), 'a table of name = "#RRGGBB"', "[palette]", "palette",
                  keep_wrong=True)
PARAMS = TableOf(Param(), "a table of name = number", "[params]", "params", keep_wrong=True)


# ------------------------------------------------------------------ [[components]]

class Size(Spec):
    """A card size name, ``"WxH"`` in mm, ``[w, h]``, or ``["expr", "expr"]`` of the params."""

    def read(self, value, at, check, siblings):
        try:
            if isinstance(value, str) and value.startswith("{"):
                raise UnknownNameError("param sizes are written [\"expr\", \"expr\"]")
            if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
                if len(value) != 2:
                    raise UnknownNameError(f"a size has two values, not {len(value)}")
                size = (evaluate(value[0], check.params), evaluate(value[1], check.params))
            else:
                try:
                    size = piece_size(value)
                except TypeError:   # [w, h] of tables or lists
                    raise UnknownNameError(f"unknown size {value!r}; expected a name, 'WxH' or [w, h]") from None
            if not all(math.isfinite(side) and MIN_PIECE_MM <= side <= MAX_PIECE_MM for side in size):
                raise UnknownNameError(f"{size[0]:g} x {size[1]:g} mm; each side must be within the "
                                       f"limits, {MIN_PIECE_MM:g} to {MAX_PIECE_MM:g} mm")
        except (UnknownNameError, ValueError) as exc:
            raise Invalid(expected=f"a card size name, 'WxH' or [w, h] ({exc})") from None
        return size


class Sets(Spec):
    """Player colours of colors.toml or of the template's own ``[colors]``, each once: a set is
    one player's pieces, told apart by its colour, so two alike could not be (raise the pieces'
    counts for more of them)."""

    expected = "a list of player colours"

    def read(self, value, at, check, siblings):
        if not (isinstance(value, list) and all(isinstance(s, str) for s in value)):
            raise Invalid()
        colors = check.colors
        for name in value:
            if name not in colors:
                check.fail(at, "colours from colors.toml or the template's [colors]: " + ", ".join(colors), name)
        for name in sorted({name for name in value if value.count(name) > 1}):
            check.fail(at, "each colour once (a set is one player's pieces; raise the pieces' counts "
                           "for more of them)", name)
        return value


def trim_shape(raw: Mapping, checked: dict, at: str, check: Checker) -> None:
    """``shape`` and ``corner_radius`` agree: rounded corners need a radius (at most half the
    shorter side), other shapes take none; a shape left out is "rounded" when the corners have
    a radius. A circle or a hex is a piece cut by hand along its guide: not a sheet, a board
    (split over sheets along straight seams) or a page used as it comes out of the printer."""
    radius, shape = checked["corner_radius"], checked["shape"]
    if shape is None:
        checked["shape"] = shape = "rounded" if radius else "rectangle"
    elif shape == "rounded" and not radius:
        check.fail(f"{at}.corner_radius", "a radius above 0 for shape = 'rounded'", radius)
    elif shape != "rounded" and radius and "corner_radius" in raw:
        check.fail(f"{at}.corner_radius", f"no corner_radius with shape = {shape!r} (only 'rounded' has corners "
                                          "to round)", radius)
    size = checked["size"]
    if shape == "rounded" and size and radius > min(size) / 2:
        check.fail(f"{at}.corner_radius", f"at most half the shorter side ({min(size) / 2:g} mm)", radius)
    if shape in ("circle", "hex") and (checked["kind"] in ("sheet", "board") or not checked["cut"]):
        check.fail(f"{at}.shape", "'rectangle' or 'rounded' on a sheet, a board or a page with cut = false "
                                  "(a circle or a hex is a piece cut out along its guide)", shape)


def length_from_zero() -> Kind:
    return Kind((int, float), "a length in mm >= 0", lambda value: value >= 0)


#: At least 10 mm to glue the parts of a board; above the limit, parts would barely advance.
OVERLAP = All(length_from_zero(), When(is_number, Kind(
    (int, float), f"from 10 mm (to join board parts) to the limit of {MAX_OVERLAP_MM:g} mm",
    lambda value: 10 <= value <= MAX_OVERLAP_MM)))


class Seams(Spec):
    """``{ x = [...], y = [...] }``: the lines a board may be split along, mm from its left
    and from its top edge (numbers or expressions of the params), each inside the piece."""

    expected = "a table { x = [...], y = [...] } of lengths in mm"

    def read(self, value, at, check, siblings):
        if not isinstance(value, dict):
            raise Invalid()
        check.unknown_keys(value, ("x", "y"), at)
        size = siblings.get("size")
        lines = []
        for axis, length in (("x", size[0] if size else None), ("y", size[1] if size else None)):
            lines.append(self._axis(value.get(axis, []), f"{at}.{axis}", check, length))
        return tuple(lines)

    @staticmethod
    def _axis(values: Any, at: str, check: Checker, length: float | None) -> tuple[float, ...]:
        if not isinstance(values, list):
            check.fail(at, "a list of lengths in mm", values)
            return ()
        found = []
        for index, value in enumerate(values):
            where = f"{at}[{index}]"
            try:
                if isinstance(value, bool):
                    raise ValueError("not a length")
                number = evaluate(value, check.params) if isinstance(value, str) else float(value)
            except (ExpressionError, UnknownNameError, ValueError, TypeError) as exc:
                check.fail(where, f"a length in mm or an expression of the params ({exc})", value)
                continue
            if length is None:
                continue  # the piece's size is wrong, which is named already
            if not 0 < number < length:
                check.fail(where, f"a line inside the piece, between 0 and {length:g} mm", value)
                continue
            found.append(float(number))
        return tuple(sorted(found))


class FieldTypes(Spec):
    """``{ value = "int", hits = "int?" }``: the fields of each piece, and their types."""

    expected = ('a table of name = "str" | "int" | "num" | "bool" | "color" (add ? for an optional '
                'field: "int?")')

    def read(self, value, at, check, siblings):
        if not isinstance(value, dict) or not all(
                isinstance(v, str) and v.rstrip("?") in FIELD_TYPES for v in value.values()):
            raise Invalid()
        for name in value:
            if not FIELD_NAME.match(name) or name in PIECE_KEYS:
                check.fail(at, "field names made of letters, digits and _, other than id, count, "
                               "front and back", name)
        return value


class Computed(Spec):
    """``{ points = "10 if number == 6 else number" }``: fields worked out for each piece from
    its other fields (numbers), the params, the fields computed before it and ``copy``; each is a
    number field like any other (texts, lengths, conditions, the manifest)."""

    expected = 'a table of name = "expression", like { points = "10 if number == 6 else number" }'

    def read(self, value, at, check, siblings):
        if not isinstance(value, dict):
            raise Invalid()
        declared = siblings.get("fields") or {}
        known = {"copy", *check.params, *(n for n, t in declared.items() if t.rstrip("?") in ("int", "num"))}
        clean = {}
        for name, expression in value.items():
            where = f"{at}.{name}"
            if not FIELD_NAME.match(name) or name in PIECE_KEYS or name in declared:
                check.fail(where, "a new field name (letters, digits and _), other than id, count, front, "
                                  "back and the declared fields", name)
                continue
            if is_number(expression):
                expression = repr(expression)
            if not isinstance(expression, str):
                check.fail(where, 'an expression like "10 if number == 6 else number"', expression)
                continue
            try:
                used = names_in(expression)
            except ExpressionError as exc:
                check.say(where, str(exc))
                continue
            unknown = sorted(used - known)
            if unknown:
                check.say(where, f"unknown name {unknown[0]!r} in the expression {expression!r} (known: "
                                 f"{', '.join(sorted(known))})")
                continue
            clean[name] = expression
            known.add(name)
        return clean


def computed_pieces(entries: list, computed: Mapping[str, str], at: str, check: Checker) -> list:
    """The piece entries (see :class:`Pieces`) with their computed fields worked out. A field
    that uses ``copy`` differs from copy to copy: such a piece becomes one entry per copy
    (copies are numbered across the entries that share an id, so each keeps its number)."""
    if not computed:
        return entries
    by_copy = any("copy" in names_in(expression) for expression in computed.values())
    numbered: dict[Any, int] = {}
    out = []
    total = 0
    for index, entry, piece, row in entries:
        first = numbered.get(piece.id, 0)
        count = piece.count if isinstance(piece.count, int) and piece.count > 0 else 1
        numbered[piece.id] = first + count
        total += count
        # Copies made one by one only within the kit's limit of pieces (past it, the kit is
        # refused, naming the total: see pieces_within_limit).
        copies = [(first + n + 1, 1) for n in range(count)] if by_copy and total <= MAX_PIECES \
            else [(first + 1, count)]
        numbers = {name for expression in computed.values() for name in names_in(expression)}
        if any(isinstance(piece.fields.get(name), (str, bool)) for name in numbers):
            continue   # a value of the wrong type, named where it is written
        for copy, times in copies:
            fields = dict(piece.fields)
            values = {**check.params, **fields, "copy": copy}
            for name, expression in computed.items():
                try:
                    result = evaluate(expression, values)
                    problem = number_problem(result)
                    if problem:
                        raise ExpressionError(f"{expression!r} gives {problem}")
                except ExpressionError as exc:
                    where = row or f"{at}[{index}]"
                    check.say(f"{where}: computed {name}", str(exc))
                    break
                fields[name] = values[name] = int(result) if result.is_integer() else result
            else:
                # With copy, each copy is a piece kind of its own (the manifest, the deck's spread).
                made = piece._replace(count=times, fields=fields, index=len(out) if by_copy else piece.index)
                out.append((index, entry, made, row))
                continue
            break   # named once for the piece, which is left out (no problem follows from its missing field)
    return out


class Pieces(Spec):
    """The ``[[components.pieces]]`` tables, or a data file beside the template
    (``pieces = "cards.csv"``, ``pieces = { file = "deck.xlsx", sheet = "Cards" }``): checked
    against the component's fields, given their designs once the faces are compiled (see
    :func:`faces`).

    Read as entries ``(index, entry, piece, row)``: the entry's place in the list (or the
    data file), the table as written, the :class:`~pnp.template.model.Piece` read from it
    (its id and count as written when they are wrong: named already) and, for a data
    file's row, how a problem names it (None for a table of the template)."""

    expected = "at least one [[components.pieces]] table, or a data file: \"cards.csv\""
    show = False

    def read(self, value, at, check, siblings):
        declared = siblings.get("fields") or {}
        before = len(check.problems)
        if isinstance(value, (str, dict)):
            entries = pieces_from_file(value, at, check, declared, sets=siblings.get("sets") or [])
        elif not isinstance(value, list) or not value:
            raise Invalid()
        else:
            table = piece_table(declared, siblings.get("sets") or [])
            entries = table.sound_pieces(value, check)
            if entries is None:   # something is wrong: each piece checked, every problem named
                entries = []
                for index, entry in enumerate(value):
                    checked = table.check(entry, f"{at}[{index}]", check)
                    if checked is not MISSING:
                        entries.append((index, entry, _piece(checked, index), None))
        if len(check.problems) > before:
            # Some pieces could not be read (each named): what no piece read holds says nothing,
            # so a `when` is not checked against them (it would be a second, misleading problem).
            check.context.setdefault("unread_pieces", set()).add(at)
        return entries


def cell_value(text: str, kind: str) -> Any:
    """A data file's cell as the value of a field of type ``kind`` (left as text when it is
    not one, so the check names what was written).

    >>> cell_value("6", "int"), cell_value("2.5", "num"), cell_value("yes", "bool"), cell_value("x", "int")
    (6, 2.5, True, 'x')
    """
    if kind == "int" and _INT_TEXT.fullmatch(text):
        return int(text)
    if kind == "num" and _NUMBER_TEXT.fullmatch(text):
        # As a spreadsheet reads a number: digits, a point, an exponent (not "nan", "inf", "1_000").
        number = float(text)
        if not math.isfinite(number):
            return text   # past what a number holds: refused as written
        return int(number) if number.is_integer() and abs(number) < 1e15 else number
    if kind == "bool":
        return _BOOLS.get(text.lower(), text)
    return text


_INT_TEXT = re.compile(r"[+-]?[0-9]{1,16}")
_NUMBER_TEXT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_BOOLS = {"true": True, "yes": True, "1": True, "x": True, "oui": True, "vrai": True,
          "false": False, "no": False, "0": False, "non": False, "faux": False}


def pieces_from_file(value: Any, at: str, check: Checker, declared: Mapping[str, str], *, sets: list) -> list:
    """The pieces of a data file: a row a piece, the header row naming ``id``, ``count``
    (1 when left out) and the component's fields; a column whose name starts with ``#`` is a
    note. Every problem names the file, the row and the column."""
    if isinstance(value, dict):
        check.unknown_keys(value, ("file", "sheet"), at)
        name, sheet = value.get("file"), value.get("sheet")
        if not isinstance(name, str) or not (sheet is None or isinstance(sheet, str)):
            check.fail(at, '{ file = "deck.xlsx", sheet = "Cards" } (sheet is optional)', value)
            return []
    else:
        name, sheet = value, None
    # Loaded only for a kit that reads a data file (zipfile, csv and expat cost start-up time).
    from pnp.template.data_files import DataFileError, is_note, read_data

    folder = check.context.get("folder")
    if folder is None:
        check.say(at, f"pieces from the data file {name!r} are read beside a template file only")
        return []
    try:
        data = read_data(folder, name, sheet)
    except DataFileError as exc:
        check.say(at, str(exc))
        return []
    rows = Checker(data.name, **check.context)
    rows.problems = check.problems   # one list: every problem of the file at once
    letters = {}
    for column in data.columns:
        if is_note(column.column):
            continue
        if column.column not in ("id", "count", *declared):
            rows.say(f"row 1, column {column.letter} ({column.column})",
                     f"not a field of this component (fields: {', '.join(('id', 'count', *declared))}; "
                     "a column whose name starts with # is a note)")
        letters[column.column] = column.letter
    if "id" not in letters:
        rows.say("row 1", "no id column: the first row names the fields, id among them")
        return []
    table = piece_table(declared, sets)
    table.letters = letters
    kinds = {name: "count" if name == "count" else declared.get(name, "str").rstrip("?") for name in letters}
    read = []
    for row in data.rows:
        entry: dict[str, Any] = {"count": 1}
        for cell in row.cells:
            kind = kinds.get(cell.column)
            if kind is not None:
                entry[cell.column] = (int(cell.text) if _COUNT_TEXT.fullmatch(cell.text) else cell.text) \
                    if kind == "count" else cell_value(cell.text, kind)
        read.append(entry)
    entries = table.sound_pieces(read, rows)
    if entries is not None:   # every row sound: each named by its row, should a computed field fail
        return [(index, entry, piece, f"{data.name}: row {row.number}")
                for (index, entry, piece, _), row in zip(entries, data.rows)]
    entries = []
    for index, (row, entry) in enumerate(zip(data.rows, read)):
        before = len(check.problems)
        checked = table.check(entry, f"row {row.number}", rows)
        # A row with a wrong cell is named once, there: it makes no piece to be named again.
        if checked is not MISSING and len(check.problems) == before:
            entries.append((index, entry, _piece(checked, index), f"{data.name}: row {row.number}"))
    return entries


_COUNT_TEXT = re.compile(r"[0-9]{1,9}")


def _piece(checked: Mapping[str, Any], index: int) -> Piece:
    """The piece of a checked piece table (its designs are given once the faces are compiled)."""
    return Piece(checked["id"], checked["count"], checked["fields"], index=index)


# ------------------------------------------------------------------ [[components.pieces]]

class FieldValue(Spec):
    """A piece's value of a declared field: of its type, and a colour where the type is color."""

    def __init__(self, kind: str, has_sets: bool) -> None:
        self.kind, self.has_sets = kind, has_sets
        self.number = kind in ("int", "num")
        self.expected = f"a value of type {kind}"

    def read(self, value, at, check, siblings):
        if (isinstance(value, bool) and self.kind != "bool") or not isinstance(value, FIELD_TYPES[self.kind]):
            if isinstance(value, str) and self.kind in ("int", "num") and _NUMBER_TEXT.fullmatch(value) \
                    and not abs(float(value)) <= MAX_NUMBER:
                raise Invalid(message=f"{value} is past the limit of {MAX_NUMBER:.0f} (either way)")
            raise Invalid()
        if self.kind == "color" and not is_color_value(value, check.palette, self.has_sets):
            raise Invalid(expected="a colour: #RRGGBB, a palette name (" + ", ".join(sorted(check.palette)) + ")")
        # A template's number, or a data file's cell: the same limits (no NaN reaches a face or the
        # manifest); NaN fails both comparisons, an infinity one.
        if self.number and not -MAX_NUMBER <= value <= MAX_NUMBER:
            raise Invalid(message=number_problem(value))
        return value

    def all_read(self, values: list, check: Checker) -> bool:
        """True if :meth:`read` takes every one of ``values`` (a column: one field of every
        piece), found in a few passes of built-ins over the column rather than a call for each
        value. False as soon as one might not: :meth:`read` then names it."""
        kinds = set(map(type, values))
        if not kinds <= _COLUMN_TYPES[self.kind]:
            return False
        if self.kind == "color":
            # Most colours are #rrggbb; the few names among them (palette, white...) one by one.
            return all(is_color_value(value, check.palette, self.has_sets) for value in filterfalse(HEX.match, values))
        if self.number and values:
            # NaN compares false with everything (min and max may pass it over): isfinite finds it.
            return -MAX_NUMBER <= min(values) and max(values) <= MAX_NUMBER and (
                float not in kinds or all(map(math.isfinite, values)))
        return True


#: The types :meth:`FieldValue.all_read` takes, by a field's type (a bool is never a number).
_COLUMN_TYPES = {"str": {str}, "int": {int}, "num": {int, float}, "bool": {bool}, "color": {str}}


class PieceTable(Table):
    """A piece: its id, its count, and a value of every field the component declares (an
    optional field may be left out; a required one left out is named with its type)."""

    #: For a row of a data file: each field's column letter, named in problems.
    letters: Mapping[str, str] | None = None

    def key_at(self, at: str, key: str) -> str:
        if self.letters is not None:
            return f"{at}, column {self.letters.get(key, '?')} ({key})"
        return super().key_at(at, key)

    def read(self, value, at, check, siblings):
        checked = self._sound(value, check)
        if checked is not None:
            return checked
        checked = super().read(value, at, check, siblings)
        checked["fields"] = fields = {}
        for name, (kind, optional, spec) in self.values.items():
            if name not in value:
                if not optional:
                    check.say(at, f"missing field {name!r} ({kind})")
                continue
            spec.check(value[name], self.key_at(at, name), check)
            fields[name] = value[name]
        return checked

    def sound_pieces(self, entries: list, check: Checker) -> list | None:
        """The entries of ``entries`` (the piece tables of a component, see :class:`Pieces`) when
        nothing in any is wrong; None, to check them one by one and name what is wrong, as soon
        as anything may be.

        The same checks as :meth:`_sound`'s, a column at a time: the ids, the counts, each
        field's values, each column in a few passes of built-ins (map, set, min, max) rather
        than a few calls for each piece (a deck of 14,400 cards is 14,400 of each)."""
        if set(map(type, entries)) != {dict} or not self.allowed.issuperset(chain.from_iterable(entries)):
            return None
        ids = list(map(dict.get, entries, repeat("id")))
        counts = list(map(dict.get, entries, repeat("count")))
        if set(map(type, ids)) != {str} or not all(map(NAME.match, ids)) or set(map(type, counts)) != {int} \
                or min(counts) <= 0 or max(counts) > MAX_PIECES:
            return None
        optional = False
        for name, (_, may_be_left_out, spec) in self.values.items():
            column = list(map(dict.get, entries, repeat(name)))   # None: left out (TOML has no null)
            if may_be_left_out:
                optional = True
                column = [value for value in column if value is not None]
            if not spec.all_read(column, check):
                return None
        names = tuple(self.values)
        return [(index, entry, Piece(entry["id"], entry["count"],
                                     {name: entry[name] for name in names if name in entry} if optional
                                     else {name: entry[name] for name in names}, index=index), None)
                for index, entry in enumerate(entries)]

    def _sound(self, value: Mapping, check: Checker) -> dict | None:
        """The checked piece when nothing in it is wrong, found without naming any key
        (a deck of thousands of cards, each checked); None, to check it key by key
        and name what is wrong, as soon as anything is."""
        if not value.keys() <= self.allowed:
            return None
        piece_id, count = value.get("id"), value.get("count")
        if type(piece_id) is not str or not NAME.match(piece_id) or type(count) is not int or \
                not 0 < count <= MAX_PIECES:
            return None
        fields = {}
        for name, (_, optional, spec) in self.values.items():
            if name not in value:
                if optional:
                    continue
                return None
            try:
                spec.read(value[name], "", check, {})
            except Invalid:
                return None
            fields[name] = value[name]
        return {"id": piece_id, "count": count, "fields": fields}


class Count(Spec):
    """A piece's count: a positive whole number, at most the pieces a kit may hold (checked
    before anything is made per copy)."""

    expected = "a positive whole number"

    def read(self, value, at, check, siblings):
        if type(value) is not int or value <= 0:
            raise Invalid()
        if value > MAX_PIECES:
            raise Invalid(expected=f"at most {MAX_PIECES:,}, the most pieces a kit holds")
        return value


def piece_table(declared: Mapping[str, str], sets: list) -> PieceTable:
    table = PieceTable({
        "id": Field(matching(NAME, "a lower-case id like 'wolf'"), check_missing=True, fallback=keep),
        "count": Field(Count(), check_missing=True, fallback=keep),
    }, "a table with id and count", extra_keys=("front", "back", *declared))
    table.declared, table.has_sets = declared, bool(sets)
    # Each declared field: its type, whether it may be left out, and its check (made once per table).
    table.values = {name: (kind.rstrip("?"), kind.endswith("?"), FieldValue(kind.rstrip("?"), bool(sets)))
                    for name, kind in declared.items()}
    table.allowed = frozenset((*table.fields, *table.extra_keys))
    return table


# ------------------------------------------------------------------ a component's faces and rules

def faces(raw: Mapping, checked: dict, at: str, check: Checker) -> None:
    """Compile the component's front and back and each piece's own, and build the pieces.

    ``same_back = true`` (the "Hunt Starts Here" card) makes the back repeat the front.
    """
    sets = tuple(checked["sets"])
    computed = checked["computed"]
    checked["pieces"] = computed_pieces(checked["pieces"], computed, f"{at}.pieces", check)
    checked["fields"] = field_types = {**checked["fields"], **{name: "num" for name in computed}}
    scope = Scope({n: t.rstrip("?") for n, t in field_types.items()}, frozenset(check.params), check.palette,
                  bool(sets), fonts=frozenset(check.context.get("fonts", ())),
                  may_lack=frozenset(n for n, t in field_types.items() if t.endswith("?")))
    entries = checked["pieces"]
    everyone = None if f"{at}.pieces" in check.context.get("unread_pieces", ()) else _PieceValues(entries)

    def compiled(elements, where, pieces, scope=scope):
        return compile_elements(elements, where, check.source, scope, problems=check.problems, pieces=pieces,
                                sets=sets)

    # A piece's own design is checked against the piece whatever was wrong with it: it may lack any field.
    scope_alone = scope._replace(may_lack=frozenset(scope.fields))

    front = compiled(raw.get("front", []), f"{at}.front", everyone)
    back = compiled(raw["back"], f"{at}.back", everyone) if "back" in raw else None
    if raw.get("same_back") is True:
        if back is not None:
            check.fail(f"{at}.same_back", "either same_back = true or a back design, not both", True)
        back = front
    elif "same_back" in raw and not isinstance(raw["same_back"], bool):
        check.fail(f"{at}.same_back", "true or false", raw["same_back"])
    pieces = []
    for index, entry, piece, _ in entries:
        if "front" in entry or "back" in entry:   # a piece's own design, compiled for it alone
            pat = f"{at}.pieces[{index}]"
            alone = [{"id": piece.id, **piece.fields}]
            piece = piece._replace(
                front=compiled(entry["front"], f"{pat}.front", alone, scope_alone) if "front" in entry else None,
                back=compiled(entry["back"], f"{pat}.back", alone, scope_alone) if "back" in entry else None)
        if isinstance(piece.id, str) and isinstance(piece.count, int):
            pieces.append(piece)
    checked.update(front=front, back=back, pieces=tuple(pieces))


class _PieceValues:
    """The values of every piece read, each with its id: what a face's conditions on a field and
    its optional fields are checked against. Made when first gone through, then kept for the
    component's other elements: a deck whose faces have neither makes none."""

    def __init__(self, entries: list) -> None:
        self.entries = entries
        self.made: list[dict[str, Any]] | None = None

    def __iter__(self):
        if self.made is None:
            self.made = [{"id": piece.id, **piece.fields} for _, _, piece, _ in self.entries]
        return iter(self.made)


def front_needed(raw: Mapping, checked: dict, at: str, check: Checker) -> None:
    """Every piece has a front: the component's, or its own."""
    if not checked["front"] and not all(p.front for p in checked["pieces"]):
        check.fail(f"{at}.front", "a front design for the component or for every piece", None, show=False)


def opener_alone(raw: Mapping, checked: dict, at: str, check: Checker) -> None:
    """The page a kit opens with is printed behind the cover and read before anything is cut:
    one page, nothing on its back, no cut."""
    if not checked["with_cover"]:
        return
    one_page = not checked["sets"] and sum(p.count for p in checked["pieces"]) == 1
    if not one_page or raw.get("cut", True) is not False or _has_back(checked):
        check.fail(f"{at}.with_cover", "true only on one page with cut = false, one piece counted once, "
                                       "no sets and no back", True)


def shrinks_one_sided(raw: Mapping, checked: dict, at: str, check: Checker) -> None:
    """A page that shrinks has no back: its back would have to shrink alike behind it."""
    if checked["shrink"] and _has_back(checked):
        check.fail(f"{at}.shrink", "true only on a component without backs", True)


#: What a hidden piece's back may not depend on: anything that differs from piece to piece.
_PIECE_NAMES = frozenset({"id", "copy"})


def hidden_backs_alike(raw: Mapping, checked: dict, at: str, check: Checker) -> None:
    """A hidden component (kept in hand or face down) has one back for all its pieces (in each
    set): a back of its own on a piece, or a back element that names a piece's field, id or copy
    number, would tell the pieces apart."""
    if not checked["hidden"]:
        return
    back = checked["back"]
    if back is None or raw.get("same_back") is True:
        check.fail(f"{at}.hidden", "true only on a component with a back design of its own "
                                   "(same_back = true shows the front, which is what a hidden piece hides)", True)
        return
    if checked["kind"] in ("sheet", "board") or raw.get("with_cover") is True or raw.get("shrink") is True \
            or raw.get("cut", True) is False:
        check.fail(f"{at}.hidden", "true only on cut pieces (cards, tiles, tokens), not on sheets, boards, "
                                   "a page that opens the kit or one that shrinks", True)
    for piece in checked["pieces"]:
        if piece.back is not None:
            check.fail(f"{at}.pieces[{piece.index}].back", "no back of its own in a hidden component: "
                       "every piece shares the component's back", "[...]", show=False)
    varying = _PIECE_NAMES | set(checked["fields"])
    for element in back:
        used = sorted(set(element.names) & varying)
        if used:
            check.fail(element.where.rsplit(": ", 1)[-1], "a back that is the same for every piece of a "
                       f"hidden component; it uses {', '.join(used)}", element.type)


def _has_back(checked: Mapping) -> bool:
    return checked["back"] is not None or any(p.back is not None for p in checked["pieces"])


COMPONENT = Table({
    # A wrong id is named once: another one of its kind stands in, so no id seems used twice.
    "id": Field(matching(NAME, "a lower-case id like 'player-cards'"), check_missing=True,
                fallback=lambda where, raw: f"component-{where.rsplit('.', 1)[0]}"),
    "size": Field(Size(), check_missing=True, fallback=None),
    "sets": Field(Sets(), default=[], fallback=[]),
    "back_kind": Field(OneOf(("optional", "required"), "'optional' or 'required'"), default="optional",
                       fallback="optional"),
    "kind": Field(OneOf(PIECE_KINDS, " or ".join(repr(k) for k in PIECE_KINDS)), default="card",
                  fallback="card"),
    "rotate": flag(True),
    "gutter": flag(False),
    "cut": flag(True),
    "with_cover": flag(False),
    "shrink": flag(False),
    "hidden": flag(False),
    "corner_radius": Field(length_from_zero(), default=0.0, fallback=0.0),
    "shape": Field(OneOf(SHAPES, " or ".join(repr(s) for s in SHAPES)), default=None, fallback=None),
    "overlap": Field(OVERLAP, default=12.0, fallback=12.0),
    "seams": Field(Seams(), default=((), ()), fallback=((), ())),
    "fields": Field(FieldTypes(), default={}, fallback={}),
    "computed": Field(Computed(), default={}, fallback={}),
    "pieces": Field(Pieces(), check_missing=True, fallback=[]),
}, "a [[components]] table", extra_keys=("front", "back", "same_back"),
    after=(trim_shape, faces, front_needed, opener_alone, shrinks_one_sided, hidden_backs_alike))


def component_names(listed: Any) -> list[str]:
    """How each ``[[components]]`` table is named in problems: ``components.cards`` by its id,
    ``components[2]`` when its id is missing, wrong or used before.

    >>> component_names([{"id": "cards"}, {"id": "cards"}, {}])
    ['components.cards', 'components[1]', 'components[2]']
    """
    names, seen = [], set()
    for index, raw in enumerate(listed if isinstance(listed, list) else ()):
        name = raw.get("id") if isinstance(raw, dict) else None
        if isinstance(name, str) and NAME.match(name) and name not in seen:
            names.append(f"components.{name}")
            seen.add(name)
        else:
            names.append(f"components[{index}]")
    return names


def named_by_id(problems: list[str], table: Any) -> list[str]:
    """Problems found by walking the file (``components[0].pieces[2].count``) with each
    component named by its id, as the other problems name it."""
    listed = table.get("components") if isinstance(table, dict) else None
    names = component_names(listed)
    pattern = re.compile(r"(?<![A-Za-z_.])components\[(\d+)\]")

    def named(match: re.Match) -> str:
        index = int(match.group(1))
        return names[index] if index < len(names) else match.group(0)

    return [pattern.sub(named, problem) for problem in problems]


class Components(Spec):
    """The ``[[components]]`` tables, each id once; checked with the game's palette and params."""

    expected = "at least one [[components]] table"
    show = False

    def read(self, value, at, check, siblings):
        if not isinstance(value, list) or not value:
            raise Invalid()
        check.context.update(palette=siblings["palette"], params=siblings["params"])
        check.context["colors"] = {**check.colors, **siblings.get("colors", {})}
        check.context["fonts"] = siblings.get("fonts", {})
        components, seen = [], set()
        names = component_names(value)
        for index, raw in enumerate(value):
            checked = COMPONENT.check(raw, names[index], check)
            if checked is MISSING:
                continue
            if checked["id"] in seen:
                check.fail(f"{names[index]}.id", "an id used once", checked["id"])
            seen.add(checked["id"])
            components.append(checked)
        return components


def one_opener(raw: Mapping, checked: dict, at: str, check: Checker) -> None:
    """At most one component opens the kit."""
    listed = raw.get("components")
    names = component_names(listed)
    openers = [index for index, c in enumerate(listed if isinstance(listed, list) else ())
               if isinstance(c, dict) and c.get("with_cover") is True]
    for index in openers[1:]:
        check.fail(f"{names[index]}.with_cover", "one component that opens the kit; "
                   f"{names[openers[0]]} already does", True)


class Fonts(Spec):
    """``[fonts]``: a template's own fonts, each a TrueType file in its folder (``title =
    "fonts/Title.ttf"``) or a table with the files of its bold and italic (``{ file = ..., bold =
    ..., italic = ..., bold_italic = ..., licence = "SIL Open Font License 1.1" }``), chosen by
    texts beside Lato's four (``font = "title"``). Each file is found and checked as it is read
    (:mod:`pnp.template.fonts`)."""

    expected = 'a table of name = "file.ttf" or name = { file = "file.ttf", bold = ..., italic = ..., licence = ... }'
    show = False

    def read(self, value, at, check, siblings):
        from pnp.template.fonts import BUILT_IN, FONT_KEYS, VARIANTS, Font, FontError, font_file

        if not isinstance(value, dict):
            raise Invalid()
        folder = check.context.get("folder")
        fonts = {}
        for name, entry in value.items():
            where = f"fonts.{name}"
            if not NAME.match(name) or name in BUILT_IN:
                check.fail(where, "a lower-case font name like 'title', other than Lato's regular, bold, black "
                                  "and italic", name)
                continue
            table = {"file": entry} if isinstance(entry, str) else entry
            if not isinstance(table, dict):
                check.fail(where, 'a font file ("fonts/Title.ttf") or a table { file = ..., bold = ..., italic = ..., '
                                  'licence = ... }', entry)
                continue
            check.unknown_keys(table, FONT_KEYS, where)
            licence = table.get("licence")
            if licence is not None and not (isinstance(licence, str) and licence.strip()):
                check.fail(f"{where}.licence", "the licence's name, as the cover's credits print it", licence)
                licence = None
            files: dict[str, str | None] = {}
            for key in ("file", *VARIANTS):
                file = table.get(key)
                if file is None:
                    if key == "file":
                        check.fail(f"{where}.file", "the font's file", None)
                    files[key] = None
                    continue
                if not isinstance(file, str):
                    check.fail(f"{where}.{key}" if isinstance(entry, dict) else where, "a font file name", file)
                    files[key] = None
                    continue
                if folder is None:
                    check.say(where, "a font is read beside a template file")
                    files[key] = None
                    continue
                try:
                    files[key], family = font_file(folder, file)
                except FontError as exc:
                    check.say(f"{where}.{key}" if isinstance(entry, dict) else where, str(exc))
                    files[key] = None
                    continue
                if key == "file":
                    files["family"] = family
            if files["file"] is not None:
                fonts[name] = Font(name, files["file"], bold=files["bold"], italic=files["italic"],
                                   bold_italic=files["bold_italic"], licence=licence.strip() if licence else None,
                                   family=files.get("family") or name)
        return fonts


class TemplateColors(Spec):
    """``[colors.NAME]`` tables: a game's own player colours (``rgb``, ``ink`` and ``symbol``, as
    in colors.toml), usable in ``sets`` beside the shared ones; its catalogs name each
    (``color.NAME``)."""

    expected = "a table of [colors.NAME] tables with rgb, ink and symbol"
    show = False

    def read(self, value, at, check, siblings):
        if not isinstance(value, dict):
            raise Invalid()
        colors = {}
        for name, entry in value.items():
            if not NAME.match(name):
                check.fail(f"colors.{name}", "a lower-case colour name like 'gold'", name)
                continue
            before = len(check.problems)
            checked = COLOR.check(entry, f"colors.{name}", check)
            if checked is not MISSING and len(check.problems) == before:
                colors[name] = PlayerColor(name, checked["rgb"].lower(), checked["ink"].lower(), checked["symbol"])
        return colors


def symbols_apart(raw: Mapping, checked: dict, at: str, check: Checker) -> None:
    """The player colours of a kit each have a symbol of their own: the symbol is what keeps
    two sets apart in grayscale and for colour-blind players."""
    colors, seen = check.colors, {}
    for component in checked["components"]:
        for name in component["sets"]:
            color = colors.get(name)
            if color is None:
                continue
            other = seen.setdefault(color.symbol, name)
            if other != name:
                check.say(f"components {component['id']}.sets", f"the colours {other!r} and {name!r} share the "
                          f"symbol {color.symbol!r}; each player colour needs a symbol of its own (it keeps the "
                          "sets apart in grayscale and for colour-blind players)")
                seen[color.symbol] = name


def pieces_within_limit(raw: Mapping, checked: dict, at: str, check: Checker) -> None:
    """A kit of at most MAX_PIECES pieces, every count and every set counted."""
    pieces = sum(sum(map(attrgetter("count"), c["pieces"])) * max(1, len(c["sets"])) for c in checked["components"])
    if pieces > MAX_PIECES:
        check.say("components", f"{pieces} pieces in the kit (every count, every set); the limit is {MAX_PIECES}")


# ------------------------------------------------------------------ [score]

#: What ``[score]`` may hold.
SCORE_KEYS = ("rounds", "rows", "points", "numbers", "wins", "tie_break", "tie_break_wins")
#: The tie-breaks of a game scored by rounds (one scored by rows names a row).
ROUND_TIE_BREAKS = ("best_round", "last_round")
#: The most a box of a declared sheet may take, either way (scoring.fields.NUMBER_LIMIT).
SCORE_NUMBER_LIMIT = 1_000_000


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Score(Spec):
    """``[score]``: how a designer's game is scored, for its scoresheet and ``pnp score``
    (``scoring.declared``): a row per round (``rounds = 8``) or a row per category counted once
    at the end (``rows = ["fish", "boats"]``, each worth ``points``), the numbers a box takes,
    the total that wins and the tie-break. Checked whole: every problem named with its key."""

    expected = "a table [score] with rounds or rows"
    show = False

    def read(self, value, at, check, siblings):
        if not isinstance(value, dict):
            raise Invalid()
        check.unknown_keys(value, SCORE_KEYS, "score")
        rounds, rows = value.get("rounds"), value.get("rows")
        clean: dict[str, Any] = {"rounds": 0, "rows": (), "points": {}, "low": 0, "high": 999,
                                 "lowest_wins": False, "tie_break": None, "tie_break_lowest": False}
        if (rounds is None) == (rows is None):
            check.say("score", "give either rounds = N (a row per round, each player's points) or rows = "
                               "[\"fish\", ...] (a row per category, counted once at the end), not both")
        if rounds is not None:
            if not _whole(rounds) or not 1 <= rounds <= MAX_SCORE_ROWS:
                check.fail("score.rounds", f"a whole number of rounds from 1 to {MAX_SCORE_ROWS}", rounds)
            else:
                clean["rounds"] = rounds
        if rows is not None:
            if not (isinstance(rows, list) and rows and all(isinstance(r, str) and NAME.match(r) for r in rows)) \
                    or len(rows) > MAX_SCORE_ROWS:
                check.fail("score.rows", f"a list of 1 to {MAX_SCORE_ROWS} lower-case names like \"fish\" (each "
                                         "named score.NAME in the catalogs)", rows)
            else:
                for name in sorted({r for r in rows if rows.count(r) > 1}):
                    check.fail("score.rows", "each row once", name)
                clean["rows"] = tuple(dict.fromkeys(rows))
        self._points(value.get("points"), clean, check)
        numbers = value.get("numbers", [0, 999])
        if not (isinstance(numbers, list) and len(numbers) == 2 and all(_whole(n) for n in numbers)
                and -SCORE_NUMBER_LIMIT <= numbers[0] < numbers[1] <= SCORE_NUMBER_LIMIT):
            check.fail("score.numbers", f"[least, most] a box takes, whole numbers, the least below the most, "
                                        f"within {SCORE_NUMBER_LIMIT:,} either way", numbers)
        else:
            clean["low"], clean["high"] = numbers
        for key, flag in (("wins", "lowest_wins"), ("tie_break_wins", "tie_break_lowest")):
            wins = value.get(key, "highest")
            if wins not in ("highest", "lowest"):
                check.fail(f"score.{key}", "'highest' or 'lowest'", wins)
            clean[flag] = wins == "lowest"
        tie_break = value.get("tie_break")
        if tie_break is not None:
            allowed = clean["rows"] if rows is not None else ROUND_TIE_BREAKS
            if tie_break not in allowed:
                what = "one of its rows" if rows is not None else "'best_round' or 'last_round'"
                check.fail("score.tie_break", f"{what} ({', '.join(allowed) or 'none'})", tie_break)
            else:
                clean["tie_break"] = tie_break
        elif "tie_break_wins" in value:
            check.fail("score.tie_break_wins", "a tie_break to go with it", value["tie_break_wins"])
        return clean

    @staticmethod
    def _points(points: Any, clean: dict, check: Checker) -> None:
        """What one thing counted in each row is worth (1 when left out): rows only."""
        if points is None:
            return
        if not clean["rows"] and not isinstance(points, dict):
            check.fail("score.points", "a table { row = points } for rows = [...]", points)
            return
        if not isinstance(points, dict):
            check.fail("score.points", "a table { row = points }", points)
            return
        for name, worth in points.items():
            if name not in clean["rows"]:
                check.fail(f"score.points.{name}", f"a row of score.rows ({', '.join(clean['rows']) or 'none'})",
                           name)
            elif not _whole(worth) or not -1000 <= worth <= 1000:
                check.fail(f"score.points.{name}", "a whole number of points, at most 1,000 either way", worth)
            else:
                clean["points"][name] = worth


GAME = Table({
    # Without its [game] table nothing else of a file can be read as a game's.
    "game": Field(HEADER, check_missing=True, stop=True),
    "palette": Field(PALETTE, default={}, fallback={}, then=lambda value, check: with_defaults(value)),
    "params": Field(PARAMS, default={}, fallback={}, then=with_overrides),
    "colors": Field(TemplateColors(), default={}, fallback={}),
    "fonts": Field(Fonts(), default={}, fallback={}),
    "components": Field(Components(), check_missing=True, fallback=[]),
    "score": Field(Score(), default=None, fallback=None),
}, "a template", after=(one_opener, symbols_apart, pieces_within_limit))


# ------------------------------------------------------------------ colors.toml

COLOR = Table({
    "rgb": Field(matching(HEX, "a colour #RRGGBB"), check_missing=True),
    "ink": Field(matching(HEX, "a colour #RRGGBB"), check_missing=True),
    "symbol": Field(OneOf(SYMBOLS, "one of " + ", ".join(SYMBOLS)), check_missing=True),
}, "a table with rgb, ink and symbol")


__all__ = ["COLOR", "COMPONENT", "GAME", "HEADER", "PALETTE", "PARAMS", "PALETTE_DEFAULTS", "is_color_value",
           "named_by_id", "with_defaults"]
