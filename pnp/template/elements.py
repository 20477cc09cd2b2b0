"""The elements of a face checked on load: each key's value, and the names it may use.

A component definition's ``front`` and ``back`` are lists of elements
(``rect``, ``text``, ``icon``...); what each kind accepts is its row in
:mod:`pnp.template.kinds`. Here each element is checked once, when the
template is loaded: its keys and their kinds, its ``when`` condition, every
name its expressions and placeholders use (against the names a face of its
component offers), and its colours (a palette name, ``#rrggbb``, or a field
of type ``color``; never a name built from pieces of text). A mistake is a
problem naming the file, the key path and the name; all are collected.
"""

from __future__ import annotations

import math
import re
from typing import Any, Iterable, Mapping

from pnp.core.i18n import LANGUAGES
from pnp.core.records import NamedTuple
from pnp.template.language import (ExpressionError, Placeholder, expression_names, format_problem,
                                   is_color_choice, names_in, parse_color_choice, parse_condition,
                                   placeholder_names, text_parts, whole_placeholder)
from pnp.core.limits import MAX_TABLE_COLS, MAX_TEXT_SIZE_PT
from pnp.template.kinds import (BOOL, CHOICE, CHOICES, COLOR, COMMON_KEYS, INT, KINDS, LEN, LENGTHS, LENS, NAME,
                                NUM, POINTS, REPEAT, ROWS, SHAPE, STR, TEXT, ElementKind)
from pnp.template.model import Element

#: The player symbols (a symbol element's shapes, a player colour's symbol).
SYMBOLS = ("circle", "square", "triangle", "diamond", "star", "hexagon", "cross", "heart")
#: Colour names every template may use besides its palette.
BUILT_IN_COLORS = ("white", "black", "none")
#: Colour names that take the piece's player colour; only in components with sets.
SET_COLORS = ("set", "set_ink")
#: Per-piece field types; "?" after one makes the field optional.
FIELD_TYPES: dict[str, Any] = {"str": str, "int": int, "num": (int, float), "bool": bool, "color": str}
#: Names every face offers to placeholders, besides its fields and the game's params.
FACE_NAMES = ("id", "copy", "lang", "rules_url", "game_id")
#: Names a face of a component with player colours (``sets``) offers too.
SET_NAMES = ("set", "set_symbol", "set_name")
#: Names conditions may test besides the fields.
CONDITION_NAMES = ("id", "copy", "lang")
#: Names that number the copies of a repeated element.
REPEAT_NAMES = ("i", "col", "row")

#: The method of :class:`_ElementCheck` that checks each kind of value: a new kind is a
#: line here and a method there.
KIND_CHECKS = {
    LEN: "length", COLOR: "color", TEXT: "text", NAME: "name", SHAPE: "shape", STR: "plain_text",
    INT: "whole_number", NUM: "positive_number", BOOL: "true_or_false", REPEAT: "repeat",
    LENS: "lengths", POINTS: "points", ROWS: "rows", CHOICE: "chosen",
}

#: Kinds of value that are lists, whose length a kind may limit.
_LISTS = frozenset({ROWS, LENS, POINTS})

HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


class Scope(NamedTuple):
    """The names the elements of one component may use."""

    fields: Mapping[str, str]       # field name -> type ("int", "color"...), "?" removed
    params: frozenset[str]
    palette: Mapping[str, str]
    has_sets: bool
    #: The template's own fonts (``[fonts]``), which a ``font`` may name beside Lato's.
    fonts: frozenset[str] = frozenset()
    #: The fields a piece checked against the elements may lack: the optional ones (``?``) when
    #: every piece was read without a problem (each has every other field), else any.
    may_lack: frozenset[str] = frozenset()

    def numbers(self) -> frozenset[str]:
        """Names an expression may use (``i``, ``col``, ``row`` are added inside repeats)."""
        numeric = {n for n, kind in self.fields.items() if kind in ("int", "num")}
        return frozenset({"w", "h", "copy", *self.params, *numeric})

    def placeholders(self) -> frozenset[str]:
        """Names a ``{placeholder}`` may use, in texts, catalog texts, icon names and shapes."""
        return frozenset({*self.fields, *self.params, *FACE_NAMES,
                          *(SET_NAMES if self.has_sets else ())})

    def conditions(self) -> frozenset[str]:
        """Names a ``when`` condition may test."""
        return frozenset({*self.fields, *CONDITION_NAMES, *(("set",) if self.has_sets else ())})

    def colors(self) -> frozenset[str]:
        """Fields a colour may be taken from: those of type ``color``."""
        return frozenset(n for n, kind in self.fields.items() if kind == "color")


def _shown(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return {dict: "a table", list: "a list"}[type(value)]
    if isinstance(value, str) and len(value) > 60:
        return repr(value[:57] + "...") + f" ({len(value)} characters)"
    return repr(value)


def _known(names: Iterable[str]) -> str:
    return ", ".join(sorted(names)) or "(none)"


class _ElementCheck:
    """Checks one element's keys, collecting problems and the names it uses."""

    def __init__(self, scope: Scope, at: str, source: str, *, problems: list[str], repeats: bool,
                 limits: Mapping[str, float]):
        self.scope, self.at, self.source, self.problems = scope, at, source, problems
        self.repeats = repeats
        self.limits = limits  # the kind's: largest numbers and longest lists
        self.names: set[str] = set()
        self.keys: dict[str, str] = {}  # name -> the first key that uses it

    def use(self, key: str, names: Iterable[str]) -> None:
        for name in names:
            self.names.add(name)
            self.keys.setdefault(name, key)

    def fail(self, key: str, message: str) -> None:
        self.problems.append(f"{self.source}: {self.at}.{key}: {message}")

    def expect(self, key: str, expected: str, value: Any) -> None:
        self.fail(key, f"expected {expected}, got {_shown(value)}")

    def unknown(self, key: str, name: str, kind: str, known: Iterable[str]) -> None:
        self.fail(key, f"unknown name {name!r} in {kind} (known: {_known(known)})")

    # -- kinds ---------------------------------------------------------
    def length(self, key: str, value: Any) -> None:
        """A number, an expression, or ``"{field}"`` naming a numeric field."""
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            self.expect(key, 'a length in mm or an expression like "w/2 - 3"', value)
            return
        if not isinstance(value, str):
            return
        text = whole_placeholder(value) or value
        try:
            used = names_in(text)
        except ExpressionError as exc:
            self.fail(key, f'expected a length in mm or an expression like "w/2 - 3": {exc}')
            return
        self.numbers_used(key, used, "the expression")

    def color(self, key: str, value: Any) -> None:
        """``#rrggbb``, a palette name, white/black/none, set/set_ink, ``"{field}"`` of type color,
        or a choice between colours by an expression (``"i % 10 == 0 ? gold : light"``)."""
        if not isinstance(value, str):
            self.expect(key, "a colour: #RRGGBB, a palette name or \"{field}\" of type color", value)
            return
        if is_color_choice(value):
            self.color_choice(key, value)
            return
        field = whole_placeholder(value)
        if field is not None:
            if field not in self.scope.colors():
                kind = self.scope.fields.get(field)
                why = (f"the field {field!r} is {kind}; declare it \"color\"" if kind else
                       f"unknown field {field!r} (colour fields: {_known(self.scope.colors())})")
                self.fail(key, f"a colour taken from a field needs a field of type color: {why}")
            # A colour field may hold "set": its colour then depends on the piece's set too.
            self.use(key, (field, "set") if self.scope.has_sets else (field,))
        elif "{" in value or "}" in value:
            self.fail(key, f"a colour name cannot be built from pieces of text ({value!r}): give "
                           "the piece a field of type color instead")
        elif value in SET_COLORS:
            if not self.scope.has_sets:
                self.fail(key, f"{value!r} is the piece's player colour, but this component has no sets")
            self.use(key, ("set",))
        elif not (HEX.match(value) or value in self.scope.palette or value in BUILT_IN_COLORS):
            self.fail(key, f"unknown colour {value!r} (expected #RRGGBB, none, white, black, "
                           f"{'set, set_ink, ' if self.scope.has_sets else ''}or a palette name: "
                           f"{_known(self.scope.palette)})")

    def color_choice(self, key: str, value: str) -> None:
        """A colour chosen by an expression: each test's names are numbers a length may use,
        each branch a colour of its own (checked against the palette now, not met while drawing)."""
        try:
            choice = parse_color_choice(value)
        except ExpressionError as exc:
            self.fail(key, str(exc))
            return
        self.numbers_used(key, choice.names, f"the colour choice {value!r}")
        for color in choice.colors:
            self.color(key, color)

    def numbers_used(self, key: str, used: frozenset[str], what: str) -> None:
        """The names an expression uses (``what`` names it): numbers of the face, and ``i``,
        ``col`` and ``row`` in a repeated element."""
        known = self.scope.numbers() | (frozenset(REPEAT_NAMES) if self.repeats else frozenset())
        for name in sorted(used - known):
            if name in REPEAT_NAMES:
                self.fail(key, f"{name!r} numbers the copies of a repeated element; this element "
                               "has no repeat")
            elif name in self.scope.fields:
                self.fail(key, f"the field {name!r} is {self.scope.fields[name]}, not a number "
                               f"an expression can use (in {what})")
            else:
                self.unknown(key, name, what, known)
        self.use(key, used - set(REPEAT_NAMES))

    def text(self, key: str, value: Any) -> None:
        """Printed text: ``@catalog.key`` or text, both with ``{placeholders}``."""
        if not isinstance(value, str):
            self.expect(key, "text", value)
            return
        self.placeholders(key, value[1:] if value.startswith("@") else value)

    def placeholders(self, key: str, value: str) -> None:
        try:
            used = placeholder_names(value)
            computed = expression_names(value)
        except ExpressionError as exc:
            self.fail(key, str(exc))
            return
        repeats = frozenset(REPEAT_NAMES) if self.repeats else frozenset()
        known = self.scope.placeholders() | repeats
        numbers = self.scope.numbers() | repeats
        for name in sorted(used - known - computed):
            if name in SET_NAMES:
                self.fail(key, f"{{{name}}} names the piece's player colour, but this component "
                               "has no sets")
            elif name in REPEAT_NAMES:
                self.fail(key, f"{{{name}}} numbers the copies of a repeated element; this element "
                               "has no repeat")
            else:
                self.unknown(key, name, f"the text {value!r}", known)
        for name in sorted(computed - numbers):
            if name in REPEAT_NAMES:
                self.fail(key, f"{name!r} numbers the copies of a repeated element; this element "
                               "has no repeat")
            elif name in self.scope.fields or name in known:
                self.fail(key, f"{name!r} is not a number an expression can use (in the text "
                               f"{value!r}; numbers: {_known(numbers)})")
            else:
                self.unknown(key, name, f"the expression in the text {value!r}", numbers)
        self.formats(key, value, repeats)
        self.use(key, used - repeats)

    def formats(self, key: str, value: str, repeats: frozenset[str]) -> None:
        """Each ``{name:format}`` suits the kind of value its name holds (``{id:+d}`` does not)."""
        for part in text_parts(value):
            if type(part) is not Placeholder or not part.spec:
                continue
            name = part.name
            kind = self.scope.fields.get(name) if name is not None else "num"
            if name in repeats or name == "copy" or kind == "int":
                kind = "int"
            elif name in self.scope.params or kind == "num":
                kind = "num"
            elif kind != "bool":
                kind = "text"
            problem = format_problem(part.spec, kind)
            if problem:
                shown = "{" + (name or part.expression) + ":" + part.spec + "}"
                self.fail(key, f"{shown} in {value!r}: the format {part.spec!r} does not suit a "
                               f"{'number' if kind in ('int', 'num') else kind} ({problem})")

    def name(self, key: str, value: Any) -> None:
        if not isinstance(value, str) or not value:
            self.expect(key, "a name", value)
            return
        self.placeholders(key, value)

    def shape(self, key: str, value: Any) -> None:
        if not isinstance(value, str):
            self.expect(key, "one of " + ", ".join(SYMBOLS), value)
        elif "{" in value:
            self.placeholders(key, value)
        elif value not in SYMBOLS:
            self.expect(key, "one of " + ", ".join(SYMBOLS), value)

    def too_many(self, key: str, value: Any) -> bool:
        """Report a list longer than its limit (a table's rows, a polygon's corners...)."""
        limit = self.limits.get(key)
        if limit is not None and isinstance(value, list) and len(value) > limit:
            self.fail(key, f"{len(value)} entries; the limit is {limit}")
            return True
        return False

    def value(self, kind: str, key: str, value: Any) -> None:
        """Check one key's value by its kind (see :data:`KIND_CHECKS`)."""
        if kind in _LISTS and self.too_many(key, value):
            return
        getattr(self, KIND_CHECKS[kind])(key, value)

    def plain_text(self, key: str, value: Any) -> None:
        if not isinstance(value, str):
            self.expect(key, "text", value)

    def chosen(self, key: str, value: Any) -> None:
        """True, false or a word: which of the key's choices is checked with the others."""
        if not isinstance(value, (bool, str)):
            self.expect(key, "true, false or a word", value)

    def whole_number(self, key: str, value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            self.expect(key, "a whole number", value)

    def positive_number(self, key: str, value: Any) -> None:
        limit = self.limits.get(key, MAX_TEXT_SIZE_PT)
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not (math.isfinite(value) and 0 < value <= limit):
            self.expect(key, f"a positive number up to {limit:g} (the limit)", value)

    def true_or_false(self, key: str, value: Any) -> None:
        if not isinstance(value, bool):
            self.expect(key, "true or false", value)

    def repeat(self, key: str, value: Any) -> None:
        """A count, or [columns, rows] for a grid."""
        if isinstance(value, list):
            if len(value) != 2:
                self.expect(key, "a count, or [columns, rows] for a grid", value)
            for index, item in enumerate(value[:2]):
                self.length(f"{key}[{index}]", item)
        else:
            self.length(key, value)

    def lengths(self, key: str, value: Any) -> None:
        if not isinstance(value, list):
            self.expect(key, "a list of lengths", value)
            return
        for index, item in enumerate(value):
            self.length(f"{key}[{index}]", item)

    def points(self, key: str, value: Any) -> None:
        if not isinstance(value, list) or not value or not all(
                isinstance(p, list) and len(p) == 2 for p in value):
            self.expect(key, "a list of [x, y] points", value)
            return
        for index, (x, y) in enumerate(value):
            self.length(f"{key}[{index}][0]", x)
            self.length(f"{key}[{index}][1]", y)

    def rows(self, key: str, value: Any) -> None:
        if not isinstance(value, list) or not all(isinstance(r, list) for r in value):
            self.expect(key, "a list of rows, each a list of texts", value)
            return
        for r, row in enumerate(value):
            if len(row) > MAX_TABLE_COLS:
                self.fail(f"{key}[{r}]", f"{len(row)} cells; the limit is {MAX_TABLE_COLS}")
                continue
            for c, cell in enumerate(row):
                self.text(f"{key}[{r}][{c}]", cell)

    def condition(self, value: Any, pieces: Iterable[Mapping[str, Any]] | None, sets: tuple[str, ...]):
        if not isinstance(value, str):
            self.expect("when", "a condition like \"suit=rage & !hits\"", value)
            return None
        try:
            condition = parse_condition(value)
        except ExpressionError as exc:
            self.fail("when", str(exc))
            return None
        if condition.expression is not None:
            self.numbers_used("when", condition.names, f"the condition {value!r} (a comparison of "
                                                       "numbers; a term compares a field with one '=': "
                                                       "suit=rage)")
            return condition
        repeats = frozenset(REPEAT_NAMES) if self.repeats else frozenset()
        known = self.scope.conditions() | repeats
        for terms in condition.alternatives:
            for term in terms:
                if term.name not in known:
                    if term.name == "set":
                        self.fail("when", "'set' is the piece's player colour, but this component "
                                          "has no sets")
                    elif term.name in REPEAT_NAMES:
                        self.fail("when", f"{term.name!r} numbers the copies of a repeated element; "
                                          "this element has no repeat")
                    else:
                        self.unknown("when", term.name, f"the condition {value!r}", known)
                elif term.value is not None:
                    self._term_value(term.name, term.value, value, pieces, sets=sets)
        self.use("when", condition.names - repeats)
        return condition

    def _term_value(self, name: str, expected: str, text: str, pieces, *, sets) -> None:
        """``field=value`` must be able to hold for some piece, or the element is silently never shown.
        ``pieces`` is None when they could not all be read (a data file's mistake, named where it is):
        what no piece holds then says nothing."""
        if name == "copy":
            possible = None if expected.isdigit() and int(expected) >= 1 else set()
        elif name in REPEAT_NAMES:
            possible = None if expected.isdigit() else set()
        elif pieces is None:
            possible = None
        elif name == "set":
            possible = set(sets)
        elif name == "lang":
            possible = set(LANGUAGES)
        else:
            possible = {str(piece.get(name)) for piece in pieces}
        if possible is not None and expected not in possible:
            what = ("a copy number (1, 2, ...)" if name == "copy" else
                    "a copy's number (0, 1, 2, ...)" if name in REPEAT_NAMES else f"one of: {_known(possible)}")
            self.fail("when", f"in the condition {text!r}, {name} is never {expected!r} here "
                              f"(expected {what})")


def compile_elements(raw: Any, at: str, source: str, scope: Scope, *, problems: list[str],
                     pieces: Iterable[Mapping[str, Any]] | None, sets: tuple[str, ...]) -> tuple[Element, ...]:
    """Check a face's element tables and build its elements; problems are appended.

    ``pieces`` are the field values (with ``id``) of the pieces the face is
    drawn for: a condition ``field=value`` must hold for at least one of them
    (None: they could not all be read, which is named already).
    """
    if not isinstance(raw, list) or not all(isinstance(e, dict) for e in raw):
        problems.append(f"{source}: {at}: expected a list of element tables ([[...]]), got {_shown(raw)}")
        return ()
    elements = []
    for index, table in enumerate(raw):
        where = f"{at}[{index}]"
        name = table.get("type")
        kind = KINDS.get(name) if isinstance(name, str) else None
        if kind is None:
            problems.append(f"{source}: {where}.type: expected one of "
                            f"{', '.join(KINDS)}, got {_shown(name)}")
            continue
        elements.append(_compiled(table, kind, where, scope=scope, source=source, problems=problems,
                                  pieces=pieces, sets=sets))
    return tuple(elements)


def _compiled(table: Mapping[str, Any], kind: ElementKind, where: str, *, scope: Scope, source: str,
              problems: list[str], pieces: Iterable[Mapping[str, Any]] | None,
              sets: tuple[str, ...]) -> Element:
    """One element checked against its kind's row, built; problems are appended."""
    schema = {**COMMON_KEYS, **kind.keys}
    for key in table:
        if key not in schema:
            problems.append(f"{source}: {where}: unknown key {key!r} (expected one of: "
                            f"{', '.join(sorted(schema))})")
    for key in kind.required:
        if key not in table:
            problems.append(f"{source}: {where}: a {table['type']} needs {key!r}")
    check = _ElementCheck(scope, where, source, problems=problems, repeats="repeat" in table,
                          limits=kind.limits)
    for key, value in table.items():
        if key in schema and key not in ("type", "when"):
            check.value(schema[key], key, value)
    for key, allowed in {**CHOICES, **kind.choices}.items():
        if key == "font":
            allowed = (*allowed, *sorted(scope.fonts))
        if key in table and key in schema and table[key] not in allowed:
            check.expect(key, " or ".join(str(a).lower() if isinstance(a, bool) else str(a) for a in allowed),
                         table[key])
    if "step" in table and "repeat" not in table:
        check.fail("step", "a step moves the copies of a repeated element; add repeat")
    if kind.rules is not None:
        kind.rules(check, table, scope.has_sets)
    used_by_values = dict(check.keys)
    condition = check.condition(table["when"], pieces, sets) if "when" in table else None
    _optional_fields_present(check, used_by_values, condition, pieces)
    props = {key: _bare(value, schema.get(key)) for key, value in table.items()}
    return Element(table["type"], props, f"{source}: {where}", condition, names=tuple(sorted(check.names)))


def _bare(value: Any, kind: str | None) -> Any:
    """A length written ``"{field}"`` is the expression ``field``: evaluated as one from now on;
    a colour chosen by an expression is read once, here."""
    if kind == COLOR and is_color_choice(value):
        try:
            return parse_color_choice(value)
        except ExpressionError:
            return value   # named as the element was checked
    if kind in LENGTHS:
        if isinstance(value, list):
            return [_bare(v, LEN) for v in value]
        name = whole_placeholder(value)
        if name is not None:
            return name
    return value


#: Names whose values are not known on load: a condition naming one may hold
#: for some copies of a piece (or copies of a repeated element) and not for others.
LATE_NAMES = frozenset({"copy", "set", "lang", *REPEAT_NAMES})


def hidden_on_load(condition, values: Mapping[str, Any]) -> bool:
    """Whether ``condition`` hides its element for a piece whatever its copy, set, language or
    repeat: decided from the piece's values alone (an expression needs every name it uses)."""
    if condition is None or condition.names & LATE_NAMES:
        return False
    if condition.expression is not None:
        if not condition.names <= values.keys():
            return False
        try:
            return not condition.holds(values)
        except ExpressionError:
            return False   # named where the element is laid out
    return not condition.holds(values)


def _optional_fields_present(check: _ElementCheck, used: dict[str, str], condition, pieces) -> None:
    """An element shown for a piece must not use an optional field the piece leaves out."""
    fields = [name for name in check.scope.fields if name in used and name in check.scope.may_lack]
    if not fields:
        return
    for piece in pieces or ():
        for name in fields:
            if name not in piece:
                # The condition asked only of a piece that leaves a field out (an expression costs a call).
                if condition is None or not hidden_on_load(condition, piece):
                    check.fail(used[name], f"uses the field {name!r}, which piece {piece['id']!r} "
                                           "leaves out: give the piece a value or hide the element "
                                           "with `when`")
                    return
                break   # hidden for this piece


def uses_of(element: Element) -> list[str]:
    """Every printed text of an element that may be an ``@catalog.key`` (a plural text's two forms)."""
    props = element.props
    texts: list[Any] = []
    for key in KINDS[element.type].printed():
        value = props.get(key)
        if isinstance(value, list):   # a table's rows of cells
            texts.extend(cell for row in value if isinstance(row, list) for cell in row)
        elif "plural" in props and isinstance(value, str):
            texts += [f"{value}.one", f"{value}.other"]
        else:
            texts.append(value)
    return [t for t in texts if isinstance(t, str)]
