"""Facts: the counts, points and values a kit prints, read from its game's rules.

A game's rules module (``scoring/<game>.py``) is the one place its facts are
kept: :attr:`scoring.GameRules.facts` is a table of names to numbers, words,
lists of words and further tables. A template or a catalog text names one as
the placeholder ``{facts.NAME}``, ``NAME`` a dotted path into that table
(``{facts.points.bear}``, ``{facts.prey.wolf:+d}``), and it is filled in when
the template is loaded, before anything else is checked:

- a piece's ``count`` and fields, ``sets`` and ``players`` written exactly
  ``"{facts.NAME}"`` take the fact itself: a number, a list of words; written
  as arithmetic of facts (``"{facts.box.tree} - 8"``), the number it gives;
- everywhere else the fact is written into the text, with the placeholder's
  format if it has one (``"{facts.box.bear}×"`` prints ``2×``; in a length or
  a ``repeat``, ``"{facts.exit_turns} * 3"`` is the expression ``5 * 3``).

Every fact named must exist: a problem names the file, the key and the facts
that do. A game without registered rules has no facts. Nothing here knows a
game; the facts are handed in (from :func:`scoring.rules.game_facts`).
"""

from __future__ import annotations

import re
import string
from typing import Any, Callable, Mapping

from pnp.template.language import ExpressionError, evaluate, formatted, names_in

PREFIX = "facts."
#: Where a template takes a fact as it is rather than written into a text.
#: (Patterns compiled by ``re`` on first use: only a template that names facts uses them.)
_TYPED = (
    r"^game\.players\[\d+\]$",
    r"^components\[\d+\]\.sets$",
    r"^components\[\d+\]\.pieces\[\d+\]\.[A-Za-z_][A-Za-z0-9_]*$",
)
_NAME = r"^facts(\.[A-Za-z0-9_]+)+$"
_PARSER = string.Formatter()
_UNREAD = object()


class Facts:
    """The facts of one game, looked up by dotted name.

    ``find`` gives the game's table of facts (None for a game without rules)
    when a fact is first named, so a kit that names none never asks for them.
    """

    def __init__(self, game_id: str, find: Callable[[], Mapping[str, Any] | None]) -> None:
        self.game_id, self._find = game_id, find
        self._table: Any = _UNREAD

    @property
    def table(self) -> Mapping[str, Any] | None:
        if self._table is _UNREAD:
            self._table = self._find()
        return self._table

    def value(self, name: str) -> Any:
        """The fact ``facts.a.b`` (a number, a word, a list of words); an ExpressionError naming
        what exists when it does not."""
        if self.table is None:
            raise ExpressionError(f"{{{name}}}: the game {self.game_id!r} has no facts (no rules are "
                                  "registered for it)")
        if not re.match(_NAME, name):
            raise ExpressionError(f"{{{name}}}: a fact is named like facts.points or facts.box.bear")
        found: Any = self.table
        walked = "facts"
        for part in name.split(".")[1:]:
            if not isinstance(found, Mapping):
                raise ExpressionError(f"{{{name}}}: {walked} is {_shown(found)}, which has no {part!r}")
            key = _key(found, part)
            if key is None:
                raise ExpressionError(f"{{{name}}}: no such fact; {walked} has {_names(found)}")
            found = found[key]
            walked = f"{walked}.{part}"
        if isinstance(found, Mapping):
            raise ExpressionError(f"{{{name}}}: {walked} is a table of facts ({_names(found)}), not one")
        return list(found) if isinstance(found, tuple) else found

    def text(self, text: str) -> str:
        """``text`` with every ``{facts.NAME}`` written in (its other placeholders left as they are)."""
        if "{facts." not in text:
            return text
        try:
            parsed = list(_PARSER.parse(text))
        except ValueError as exc:
            raise ExpressionError(f"cannot read the placeholders of {text!r} ({exc})") from None
        out = []
        for literal, field, spec, conversion in parsed:
            out.append(_escaped(literal))
            if field is None:
                continue
            if field.startswith(PREFIX):
                value = self.value(field)
                if isinstance(value, list):
                    raise ExpressionError(f"{{{field}}} is a list ({', '.join(map(str, value))}): only a "
                                          f"key that takes a list takes it, written exactly \"{{{field}}}\"")
                out.append(_escaped(formatted(value, spec or "")))
            else:
                out.append("{" + field + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}")
        return "".join(out)

    def typed(self, text: str) -> Any:
        """A value written exactly ``"{facts.NAME}"`` is the fact itself; facts in arithmetic
        (``"{facts.box.tree} - 8"``) are worked out to a number; any other text has its facts
        written in."""
        if text.startswith("{facts.") and text.endswith("}") and text.count("{") == 1 and ":" not in text:
            return self.value(text[1:-1])
        filled = self.text(text)
        try:
            if names_in(filled):
                return filled
            number = evaluate(filled, {})
        except ExpressionError:
            return filled
        return int(number) if number.is_integer() else number


def _key(table: Mapping, part: str) -> Any:
    """The key of ``table`` that ``part`` names: a name, or a number written as digits."""
    if part in table:
        return part
    if part.isdigit() and int(part) in table:
        return int(part)
    return None


def _names(table: Mapping) -> str:
    return ", ".join(sorted(str(key) for key in table)) or "nothing"


def _shown(value: Any) -> str:
    return repr(list(value) if isinstance(value, tuple) else value)


def _escaped(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def uses_facts(text: str) -> bool:
    return "{facts." in text


def resolve_template(table: dict, facts: Facts, source: str, problems: list[str]) -> dict:
    """The template's table with every fact filled in; each fact that cannot be is a problem
    naming the file and the key. The table is changed in place only where a fact is named."""
    stack: list[tuple[str, Any]] = [("", table)]
    while stack:  # iterative: TOML may nest deeper than Python recurses
        path, node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, value in list(items):
            where = f"{path}.{key}" if isinstance(node, dict) and path else (
                str(key) if isinstance(node, dict) else f"{path}[{key}]")
            if isinstance(value, (dict, list)):
                stack.append((where, value))
            elif isinstance(value, str) and "{facts." in value:
                try:
                    node[key] = (facts.typed(value) if any(re.match(typed, where) for typed in _TYPED)
                                 else facts.text(value))
                except ExpressionError as exc:
                    problems.append(f"{source}: {where}: {exc}")
    return table


def resolve_texts(texts: Mapping[str, str], facts: Facts, source: str, problems: list[str]) -> dict[str, str]:
    """Catalog texts with their facts written in; a problem names the catalog and the key."""
    resolved = {}
    for key, text in texts.items():
        try:
            resolved[key] = facts.text(text)
        except ExpressionError as exc:
            problems.append(f"{source}: {key}: {exc}")
            resolved[key] = text
    return resolved


__all__ = ["Facts", "resolve_template", "resolve_texts", "uses_facts"]
