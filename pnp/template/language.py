"""The template language, closed: what a component definition may compute, and with which names.

Three small forms, each parsed once when a template is loaded:

- **expressions** for lengths, counts, computed fields and placeholders: numbers,
  names, ``+ - * / // %``, parentheses, ``min`` and ``max`` (``"w/2 - 4"``),
  comparisons ``== != < <= > >=`` joined by ``and``, ``or``, ``not``, and the
  choice ``A if CONDITION else B`` (``"10 if number == 6 else number"``);
- **conditions** for ``when``: terms ``field``, ``!field``, ``field=value`` and
  ``!field=value`` joined by ``&`` (all) and ``|`` (any), ``&`` binding tighter,
  or a comparison of numbers (``"i % 10 == 0"``);
- **colour choices**: ``"CONDITION ? COLOUR : COLOUR"``, a colour picked by an expression;
- **placeholders** in texts: ``{name}``, ``{name:format}`` (``"{prey:+d}"``) or
  an expression ``{i + 1}`` (``{i + 1:02d}``), never ``{name.attr}``,
  ``{name[0]}`` or ``{name!r}``.

Each form says which names it uses, so a loader can check every name against
the names a face offers, and a resolver can tell which values an element's
look depends on. Nothing here knows about games, pages or reportlab.
"""

from __future__ import annotations

import ast
import math
import operator
import re
import string
from functools import lru_cache
from typing import Any, Callable, Mapping

from pnp.core.limits import MAX_EXPRESSION_CHARS, MAX_FORMAT_WIDTH, MAX_NUMBER, MAX_TEXT_CHARS, number_shown
from pnp.core.records import NamedTuple

_BINARY: dict[type, Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_FUNCTIONS: dict[str, Callable[..., float]] = {"min": min, "max": max}
_COMPARE: dict[type, Callable[[float, float], bool]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge,
}
#: What an expression may be made of: arithmetic, comparisons, and/or/not and
#: ``A if C else B``; no attribute, item, call (but min and max), text or lambda.
_ALLOWED = (ast.BinOp, ast.UnaryOp, ast.Constant, ast.Name, ast.Call, ast.Load, ast.USub, ast.UAdd,
            ast.Not, ast.Compare, ast.BoolOp, ast.And, ast.Or, ast.IfExp, *_BINARY, *_COMPARE)


class ExpressionError(ValueError):
    """An expression, condition or placeholder that cannot be read or evaluated."""


class CallError(ExpressionError):
    """A call of min() or max() with fewer than two numbers."""


# ---------------------------------------------------------------- expressions

_GLOBALS = {"__builtins__": {}, **_FUNCTIONS}


@lru_cache(maxsize=4096)
def _code(text: str):
    # Only numbers, names, arithmetic, min and max get past compile_expression,
    # so the compiled code can be evaluated directly: it is the hot path of layout.
    return compile(ast.Expression(compile_expression(text)), "<expression>", "eval")


def _short(text: str) -> str:
    """An expression as an error message shows it: whole when short, else its start."""
    return repr(text) if len(text) <= 60 else repr(text[:57] + "...")


@lru_cache(maxsize=4096)
def compile_expression(text: str) -> ast.expr:
    """Parse and check an expression once; evaluation is then cheap.

    An expression is at most :data:`~pnp.core.limits.MAX_EXPRESSION_CHARS` long (a
    longer one is refused before it is parsed: the parser's recursion, not the
    arithmetic, is what a 100,000-term sum would exhaust), and its numbers are
    at most :data:`~pnp.core.limits.MAX_NUMBER`.
    """
    if len(text) > MAX_EXPRESSION_CHARS:
        raise ExpressionError(f"the expression {_short(text)} is {len(text)} characters long; "
                              f"the limit is {MAX_EXPRESSION_CHARS}")
    try:
        tree = ast.parse(_conditionals(text) if "?" in text else text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise ExpressionError(f"cannot read the expression {_short(text)}") from None
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED):
            raise ExpressionError(f"{_short(text)}: {type(node).__name__} is not allowed")
        if isinstance(node, ast.Constant) and (isinstance(node.value, bool)
                                               or not isinstance(node.value, (int, float))):
            raise ExpressionError(f"{_short(text)}: only numbers are allowed")
        if isinstance(node, ast.Constant) and not abs(node.value) <= MAX_NUMBER:
            raise ExpressionError(f"{_short(text)}: the number {number_shown(node.value)} is above the "
                                  f"limit of {MAX_NUMBER:.0f}")
        if isinstance(node, ast.Call) and not (
            isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS and not node.keywords
        ):
            raise ExpressionError(f"{_short(text)}: only min() and max() may be called")
        if isinstance(node, ast.Call) and len(node.args) < 2:
            # min(x) would ask Python for the smallest item of x, a number: checked here, not met later.
            raise CallError(f"{_short(text)}: {node.func.id}() takes two numbers or more, "
                                  f"like {node.func.id}(w, 20); it is given {len(node.args)}")
    return tree


def _conditionals(text: str) -> str:
    """``C ? A : B`` (spreadsheets' and most languages' form) written as ``A if C else B``.

    Both forms are offered: designers come from spreadsheets and from code. The
    rewrite is purely textual over a language without strings, so ``?`` and ``:``
    are only ever this operator; it binds loosest and groups to the right
    (``a ? b : c ? d : e`` is ``a ? b : (c ? d : e)``), as in C. A ``?`` without its
    ``:`` is left for the parser to refuse.

    >>> _conditionals("number == 6 ? 10 : number")
    '( 10 ) if (number == 6 ) else ( number)'
    """
    parts, at, depth, start = [], 0, 0, 0
    # Parenthesised groups (and each argument of a call) are rewritten on their own.
    while at < len(text):
        char = text[at]
        if char == "(":
            if depth == 0:
                parts.append(text[start:at + 1])
                start = at + 1
            depth += 1
        elif char in ",)" and depth == 1:
            parts.append(_conditionals(text[start:at]) + char)
            start = at + 1
            depth -= char == ")"
        elif char == ")":
            depth -= 1
        at += 1
    flat = "".join(parts) + text[start:]
    depth, question = 0, -1
    for at, char in enumerate(flat):
        depth += (char == "(") - (char == ")")
        if char == "?" and depth == 0:
            question = at
            break
    if question < 0:
        return flat
    pending, rest = 0, flat[question + 1:]
    for at, char in enumerate(rest):
        depth += (char == "(") - (char == ")")
        if depth == 0 and char == "?":
            pending += 1
        elif depth == 0 and char == ":":
            if not pending:
                condition, yes, no = flat[:question], rest[:at], rest[at + 1:]
                if not (condition.strip() and yes.strip() and no.strip()):
                    return flat  # a part missing: refused by the parser as unreadable
                return f"({_conditionals(yes)}) if ({condition}) else ({_conditionals(no)})"
            pending -= 1
    return flat


@lru_cache(maxsize=4096)
def names_in(text: str) -> frozenset[str]:
    """The value names an expression uses (functions excluded).

    >>> sorted(names_in("max(w, 2 * space_size) - copy"))
    ['copy', 'space_size', 'w']
    """
    tree = compile_expression(text)
    calls = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    return frozenset(n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in calls)


def evaluate(value: str | float | int, names: Mapping[str, float]) -> float:
    """A number as it is, or an expression evaluated with ``names``: always a finite
    number, or an ExpressionError (NaN and infinities never come out of here).

    >>> evaluate("w/2 - 4", {"w": 63.5})
    27.75
    >>> evaluate(3, {})
    3.0
    >>> evaluate("1e6 ** 2", {})
    Traceback (most recent call last):
    ...
    pnp.template.language.ExpressionError: '1e6 ** 2': Pow is not allowed
    >>> evaluate("w * 1e6 * 1e6", {"w": 1e300})
    Traceback (most recent call last):
    ...
    pnp.template.language.ExpressionError: 'w * 1e6 * 1e6' gives inf, not a finite number
    """
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        result = float(value) if abs(value) < 1e308 or not isinstance(value, int) else math.inf
        if not math.isfinite(result):
            raise ExpressionError(f"{number_shown(value)} is not a finite number")
        return result
    text = str(value)
    try:
        try:
            result = eval(_code(text), _GLOBALS, names)  # noqa: S307 - checked arithmetic only
        except (NameError, TypeError, ZeroDivisionError):
            # Say precisely what was wrong, the slow way.
            result = _eval(compile_expression(text), names, text)
        if isinstance(result, bool) or not isinstance(result, (int, float)):
            result = _eval(compile_expression(text), names, text)
        result = float(result)
    except OverflowError:
        # Whole numbers multiplied past what a float holds.
        raise ExpressionError(f"{_short(text)} gives a number too large to use") from None
    if not math.isfinite(result):
        raise ExpressionError(f"{_short(text)} gives {result:g}, not a finite number")
    return result


def _eval(node: ast.expr, names: Mapping[str, float], text: str) -> float:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        try:
            value = names[node.id]
        except KeyError:
            raise ExpressionError(
                f"{text!r}: unknown name {node.id!r} (known: {', '.join(sorted(names))})"
            ) from None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ExpressionError(f"{text!r}: {node.id!r} is not a number")
        return value
    if isinstance(node, ast.UnaryOp):
        operand = _eval(node.operand, names, text)
        if isinstance(node.op, ast.Not):
            return not operand
        return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.Compare):
        left = _eval(node.left, names, text)
        for op, right_node in zip(node.ops, node.comparators):
            right = _eval(right_node, names, text)
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.BoolOp):
        values = (_eval(v, names, text) for v in node.values)
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.IfExp):
        chosen = node.body if _eval(node.test, names, text) else node.orelse
        return _eval(chosen, names, text)
    if isinstance(node, ast.BinOp):
        left, right = _eval(node.left, names, text), _eval(node.right, names, text)
        try:
            return _BINARY[type(node.op)](left, right)
        except ZeroDivisionError:
            raise ExpressionError(f"{text!r}: division by zero") from None
    if isinstance(node, ast.Call):
        return _FUNCTIONS[node.func.id](*(_eval(a, names, text) for a in node.args))
    raise ExpressionError(f"cannot evaluate {text!r}")


# ---------------------------------------------------------------- conditions

#: A term of a condition. Patterns that only some templates use stay strings, compiled by ``re``
#: on first use (and kept in its cache): a render that needs none does not compile them.
_TERM = r"^(!?)\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:=\s*([^=!&|]*?))?$"


class Term(NamedTuple):
    """``name``, ``!name``, ``name=value`` or ``!name=value``."""

    name: str
    value: str | None   # None: the value's truth is tested
    negate: bool

    def holds(self, values: Mapping[str, Any]) -> bool:
        if self.value is None:
            result = bool(values.get(self.name))
        else:
            result = str(values.get(self.name)) == self.value
        return result != self.negate


class Condition(NamedTuple):
    """A parsed ``when``: any of its alternatives, each all of its terms; or, for a
    condition written as a comparison of numbers (``"i % 10 == 0"``), that expression."""

    text: str
    alternatives: tuple[tuple[Term, ...], ...]
    #: The expression of a condition written as one (it holds when it is not 0); None for terms.
    expression: str | None = None

    @property
    def names(self) -> frozenset[str]:
        if self.expression is not None:
            return names_in(self.expression)
        return frozenset(term.name for terms in self.alternatives for term in terms)

    def holds(self, values: Mapping[str, Any]) -> bool:
        """Whether the element shows for these values.

        >>> parse_condition("part=head | suit=rage & !hits").holds({"suit": "rage", "part": "tail"})
        True
        >>> parse_condition("i % 10 == 0").holds({"i": 20}), parse_condition("i % 10 == 0").holds({"i": 21})
        (True, False)
        """
        if self.expression is not None:
            return evaluate(self.expression, values) != 0
        return any(all(term.holds(values) for term in terms) for terms in self.alternatives)


@lru_cache(maxsize=1024)
def parse_condition(text: str) -> Condition:
    """Read a ``when`` condition, or say what is wrong with it.

    A condition is terms (``field``, ``!field``, ``field=value``, ``!field=value``,
    joined with ``&`` and ``|``) or, when it cannot be read as terms, an expression of
    numbers (``"i % 10 == 0"``, ``"points >= 5 and copy < 3"``), which holds when it is
    not 0. Which names an expression may use is the loader's to check.

    >>> parse_condition("suit=rage & !hits").alternatives
    ((Term(name='suit', value='rage', negate=False), Term(name='hits', value=None, negate=True)),)
    >>> parse_condition("i % 10 == 0").expression
    'i % 10 == 0'
    >>> parse_condition("suit=rage &")
    Traceback (most recent call last):
    ...
    pnp.template.language.ExpressionError: cannot read the condition 'suit=rage &' at '': expected field, !field, field=value or !field=value, or a comparison of numbers like "i % 10 == 0"
    """
    alternatives = []
    for either in text.split("|"):
        terms = []
        for raw in either.split("&"):
            match = re.match(_TERM, raw.strip())
            if match is None or (match.group(3) is not None and not match.group(3).strip()):
                return _expression_condition(text, raw.strip())
            value = match.group(3)
            terms.append(Term(match.group(2), None if value is None else value.strip(),
                              match.group(1) == "!"))
        alternatives.append(tuple(terms))
    return Condition(text, tuple(alternatives))


def _expression_condition(text: str, at: str) -> Condition:
    """A condition that is not terms, read as an expression of numbers, or the error naming
    where its terms could not be read."""
    try:
        names_in(text)
    except ExpressionError as exc:
        if not str(exc).startswith("cannot read the expression"):
            # Read as an expression, and refused for what it holds (a call, a text...).
            raise ExpressionError(f"cannot read the condition {text!r}: {exc}") from None
        raise ExpressionError(
            f"cannot read the condition {text!r} at {at!r}: expected field, !field, field=value or "
            '!field=value, or a comparison of numbers like "i % 10 == 0"') from None
    return Condition(text, (), text)


# ---------------------------------------------------------------- colour choices

class ColorChoice(NamedTuple):
    """A colour chosen by an expression: ``"i % 10 == 0 ? gold : light"`` (or ``"gold if
    i % 10 == 0 else light"``): ``yes`` when ``test`` is not 0, else ``no``. Each branch
    is a colour as written (a palette name, ``#rrggbb``, ``"{field}"`` of a colour field)
    or another choice."""

    text: str
    test: str
    yes: "str | ColorChoice"
    no: "str | ColorChoice"

    def pick(self, values: Mapping[str, Any]) -> str:
        """The colour for these values, as written in the template.

        >>> parse_color_choice("i % 10 == 0 ? gold : {_tone}").pick({"i": 10})
        'gold'
        """
        chosen = self.yes if evaluate(self.test, values) != 0 else self.no
        return chosen if type(chosen) is str else chosen.pick(values)

    @property
    def names(self) -> frozenset[str]:
        """The names its tests use."""
        return names_in(self.test).union(*(branch.names for branch in (self.yes, self.no)
                                           if type(branch) is not str))

    @property
    def colors(self) -> tuple[str, ...]:
        """Every colour it may give, as written."""
        return tuple(c for branch in (self.yes, self.no)
                     for c in ((branch,) if type(branch) is str else branch.colors))


def is_color_choice(value: Any) -> bool:
    """Whether a colour is written as a choice (``?`` ... ``:``, or ``if`` ... ``else``).

    >>> is_color_choice("i < 3 ? gold : light"), is_color_choice("gold"), is_color_choice("#a0b0c0")
    (True, False, False)
    """
    return isinstance(value, str) and ("?" in value or " if " in value)


_HEX_IN = r"#([0-9a-fA-F]{6})\b"   # compiled on first use, as _TERM
_FIELD_IN = r"\{([A-Za-z_][A-Za-z0-9_]*)\}"


@lru_cache(maxsize=1024)
def parse_color_choice(text: str) -> ColorChoice:
    """Read a colour chosen by an expression, or say what is wrong with it. Its branches'
    colours and its tests' names are the loader's to check.

    >>> parse_color_choice("copy == 1 ? accent : #a0b0c0")
    ColorChoice(text='copy == 1 ? accent : #a0b0c0', test='copy == 1', yes='accent', no='#a0b0c0')
    >>> parse_color_choice("i < 2 ? gold")
    Traceback (most recent call last):
    ...
    pnp.template.language.ExpressionError: cannot read the colour choice 'i < 2 ? gold': expected "CONDITION ? COLOUR : COLOUR" (or "COLOUR if CONDITION else COLOUR"), each colour a palette name, #RRGGBB or {field}
    """
    expected = (f"cannot read the colour choice {_short(text)}: expected \"CONDITION ? COLOUR : COLOUR\" "
                "(or \"COLOUR if CONDITION else COLOUR\"), each colour a palette name, #RRGGBB or {field}")
    if len(text) > MAX_EXPRESSION_CHARS:
        raise ExpressionError(f"the colour choice {_short(text)} is {len(text)} characters long; "
                              f"the limit is {MAX_EXPRESSION_CHARS}")
    # Colours that are not names are named for the parser: #2b2118 and {_tone}.
    named = re.sub(_FIELD_IN, r"_field__\1", re.sub(_HEX_IN, r"_hex__\1", text))
    try:
        tree = ast.parse(_conditionals(named) if "?" in named else named, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise ExpressionError(expected) from None
    if not isinstance(tree, ast.IfExp):
        raise ExpressionError(expected)

    def branch(node: ast.expr) -> str | ColorChoice:
        if isinstance(node, ast.IfExp):
            return choice(node)
        if isinstance(node, ast.Name):
            name = node.id
            if name.startswith("_hex__"):
                return "#" + name[6:]
            if name.startswith("_field__"):
                return "{" + name[8:] + "}"
            return name
        raise ExpressionError(expected)

    def choice(node: ast.IfExp) -> ColorChoice:
        test = ast.unparse(node.test)
        try:
            names_in(test)
        except ExpressionError as exc:
            raise ExpressionError(f"in the colour choice {_short(text)}: {exc}") from None
        return ColorChoice(text, test, branch(node.body), branch(node.orelse))

    return choice(tree)


# ---------------------------------------------------------------- placeholders

class _Formatter(string.Formatter):
    """str.format without attribute or item access: template text is data."""

    def get_field(self, field_name, args, kwargs):
        if "." in field_name or "[" in field_name:
            raise KeyError(field_name)
        return kwargs[field_name], field_name

    def format_field(self, value, format_spec):
        check_format(format_spec, "{:" + format_spec + "}")
        text = format(value, format_spec)
        # Printed numbers take a true minus sign, not a hyphen.
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            text = text.replace("-", "\u2212")
        return text


_FORMAT = _Formatter()


def formatted(value: Any, spec: str = "") -> str:
    """One value as a placeholder ``{name:spec}`` prints it: numbers with a true minus sign.

    >>> formatted(-4, "+d"), formatted(4, "+d"), formatted("wolf")
    ('−4', '+4', 'wolf')
    """
    try:
        return _FORMAT.format_field(value, spec)
    except (ValueError, TypeError, OverflowError) as exc:
        raise ExpressionError(f"cannot write {value!r} as {{:{spec}}} ({exc})") from None


#: What a placeholder may be given, by the kind of its name: a sample of each form its values take.
FORMAT_SAMPLES = {"int": (1,), "num": (1, 1.5), "bool": (True,), "text": ("x",)}


def format_problem(spec: str, kind: str) -> str | None:
    """Why the format ``spec`` suits no value of ``kind`` (``int``, ``num``, ``bool`` or
    ``text``), or None: checked when the template is loaded, as names are, not met while drawing.

    >>> format_problem("+d", "int"), format_problem("d", "num"), format_problem("+d", "text")
    (None, None, "Unknown format code 'd' for object of type 'str'")
    """
    if spec.endswith("c"):
        return "'c' writes the letter whose code the number is, not the number"
    reason = None
    for sample in FORMAT_SAMPLES[kind]:
        try:
            _FORMAT.format_field(sample, spec)
            return None
        except (ValueError, TypeError, OverflowError, ExpressionError) as exc:
            reason = str(exc)
    return reason


_PLACEHOLDER_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_DIGITS = re.compile(r"\d+")


def check_format(spec: str, shown: str) -> None:
    """An ExpressionError if a placeholder's format asks for a width or precision past
    :data:`~pnp.core.limits.MAX_FORMAT_WIDTH` (``{copy:>2000000000}`` would pad to 2 GB).

    >>> check_format("02d", "{copy:02d}")
    >>> check_format(">500", "{copy:>500}")
    Traceback (most recent call last):
    ...
    pnp.template.language.ExpressionError: '{copy:>500}': a width or precision of 500; the limit is 100
    """
    for digits in _DIGITS.findall(spec):
        if len(digits) > 6 or int(digits) > MAX_FORMAT_WIDTH:
            raise ExpressionError(f"{shown!r}: a width or precision of {digits}; the limit is "
                                  f"{MAX_FORMAT_WIDTH}")


class Placeholder(NamedTuple):
    """One ``{...}`` of a text: a plain name or an expression, and its format."""

    name: str | None         # a plain name: ``{points}``
    expression: str | None   # an expression: ``{i + 1}``
    spec: str                # the format after ``:``, or ""

    @property
    def names(self) -> frozenset[str]:
        return frozenset((self.name,)) if self.name is not None else names_in(self.expression)


def _format_split(inner: str) -> tuple[str, ...]:
    """A placeholder cut at its format's ``:``, past the ``:`` of each ``C ? A : B`` in it: what
    is before it, the ``:`` (or nothing) and what is after it, as ``str.partition`` gives them."""
    pending = 0
    for at, char in enumerate(inner):
        if char == "?":
            pending += 1
        elif char == ":":
            if not pending:
                return inner[:at], ":", inner[at + 1:]
            pending -= 1
    return inner, "", ""


def _placeholder(inner: str, text: str) -> Placeholder:
    body, colon, spec = inner.partition(":") if "?" not in inner else _format_split(inner)
    shown = "{" + inner + "}"
    if colon and "{" in spec:
        raise ExpressionError(f"{shown!r} in {text!r}: a placeholder is a plain name like {{field}}, "
                              "{field:+d} or an expression like {i + 1}")
    if spec:
        check_format(spec, shown)
    name = body.strip()
    if _PLACEHOLDER_NAME.match(name):
        return Placeholder(name, None, spec)
    try:
        if not names_in(name):   # {0} is a number, not a value of the piece: str.format's {0} is not read
            raise ExpressionError(name)
    except CallError as exc:
        raise ExpressionError(f"{shown!r} in {text!r}: {exc}") from None
    except ExpressionError:
        raise ExpressionError(f"{shown!r} in {text!r}: a placeholder is a plain name like {{field}}, "
                              "{field:+d} or an expression like {i + 1}") from None
    return Placeholder(None, name, spec)


#: ``{icon:coin}``: an inline icon in a text, not a placeholder (pnp.layout.rich_text reads ``:coin:``).
_INLINE_ICON = re.compile(r"icon:([A-Za-z][A-Za-z0-9_-]{0,99})")


@lru_cache(maxsize=4096)
def text_parts(text: str) -> tuple[str | Placeholder, ...]:
    """A text cut into its literal parts and its placeholders (``{{`` and ``}}`` are braces;
    ``{icon:coin}`` is the inline icon ``:coin:``, a literal part).

    >>> text_parts("No. {i + 1:02d} of {total}")
    ('No. ', Placeholder(name=None, expression='i + 1', spec='02d'), ' of ', Placeholder(name='total', expression=None, spec=''))
    >>> text_parts("Gain {n} {icon:coin}")
    ('Gain ', Placeholder(name='n', expression=None, spec=''), ' :coin:')
    """
    parts: list[str | Placeholder] = []
    literal: list[str] = []
    at, end = 0, len(text)
    while at < end:
        char = text[at]
        if char in "{}" and text[at + 1:at + 2] == char:
            literal.append(char)
            at += 2
        elif char == "}":
            raise ExpressionError(f"cannot read the placeholders of {text!r} (a '}}' without its '{{'; "
                                  "write '}}' for a brace)")
        elif char == "{":
            close = text.find("}", at + 1)
            if close < 0:
                raise ExpressionError(f"cannot read the placeholders of {text!r} (a '{{' without its "
                                      "'}'; write '{{' for a brace)")
            inner = text[at + 1:close]
            icon = _INLINE_ICON.fullmatch(inner)
            if icon is not None:
                # {icon:coin}: an inline icon, written as the text's own mark for it (pnp.layout.rich_text).
                literal.append(f":{icon.group(1)}:")
                at = close + 1
                continue
            if "{" in inner:
                raise ExpressionError(f"{text[at:close + 1]!r} in {text!r}: a placeholder is a plain name "
                                      "like {field}, {field:+d} or an expression like {i + 1}")
            if literal:
                parts.append("".join(literal))
                literal = []
            parts.append(_placeholder(inner, text))
            at = close + 1
        else:
            literal.append(char)
            at += 1
    if literal:
        parts.append("".join(literal))
    return tuple(parts)


@lru_cache(maxsize=4096)
def placeholder_names(text: str) -> frozenset[str]:
    """The names a text's ``{placeholders}`` use; an ExpressionError for a malformed one.

    >>> sorted(placeholder_names("{prey:+d} / {id} / {i + 1}"))
    ['i', 'id', 'prey']
    >>> placeholder_names("{card.name}")
    Traceback (most recent call last):
    ...
    pnp.template.language.ExpressionError: '{card.name}' in '{card.name}': a placeholder is a plain name like {field}, {field:+d} or an expression like {i + 1}
    """
    names: set[str] = set()
    for part in text_parts(text):
        if type(part) is Placeholder:
            names |= part.names
    return frozenset(names)


@lru_cache(maxsize=4096)
def expression_names(text: str) -> frozenset[str]:
    """The names a text's expression placeholders use (``{i + 1}``): they must be numbers.

    >>> sorted(expression_names("{name} {i + 1}"))
    ['i']
    """
    names: set[str] = set()
    for part in text_parts(text):
        if type(part) is Placeholder and part.expression is not None:
            names |= part.names
    return frozenset(names)


def _number(value: float) -> float | int:
    """A worked-out expression as it prints: a whole number without its ``.0``."""
    return int(value) if float(value).is_integer() and abs(value) < 10 ** 15 else value


def fill(text: str, values: Mapping[str, Any]) -> str:
    """``text`` with its placeholders filled; numbers print with a true minus sign.

    The text, before and after filling, is at most :data:`~pnp.core.limits.MAX_TEXT_CHARS` long.

    >>> fill("{hand:+d}", {"hand": -4})
    '−4'
    >>> fill("{i + 1}. {10 if n == 6 else n} pts", {"i": 0, "n": 6})
    '1. 10 pts'
    """
    if len(text) > MAX_TEXT_CHARS:
        raise ExpressionError(f"a text of {len(text)} characters; the limit is {MAX_TEXT_CHARS}")
    if "{" not in text and "}" not in text:
        return text
    name = _whole_name(text)
    if name is not None and name in values:
        # A text that is one placeholder, the usual card title or number: as
        # it would be written below, without going through the parts.
        value = values[name]
        if type(value) is str and len(value) <= MAX_TEXT_CHARS:
            return value
        if type(value) is int and abs(value) < 10 ** 15:
            return str(value).replace("-", "\u2212")
    out: list[str] = []
    for part in text_parts(text):
        if type(part) is str:
            piece = part
        elif part.name is not None:
            try:
                value = values[part.name]
            except KeyError:
                raise ExpressionError(f"{text!r} uses {part.name!r}, which this piece does not have") from None
            piece = formatted(value, part.spec)
        else:
            piece = formatted(_number(evaluate(part.expression, values)), part.spec)
        out.append(piece)
    filled = "".join(out)
    if len(filled) > MAX_TEXT_CHARS:
        raise ExpressionError(f"{text!r} fills to a text of {len(filled)} characters; the limit is "
                              f"{MAX_TEXT_CHARS}")
    return filled


@lru_cache(maxsize=4096)
def _whole_name(text: str) -> str | None:
    return whole_placeholder(text)


def whole_placeholder(text: Any) -> str | None:
    """The name in a value written exactly ``"{name}"``, else None.

    >>> whole_placeholder("{colour}"), whole_placeholder("x{colour}")
    ('colour', None)
    """
    if isinstance(text, str) and text.startswith("{") and text.endswith("}") and text.count("{") == 1:
        name = text[1:-1]
        return name if _PLACEHOLDER_NAME.match(name) else None
    return None
