"""Strict EN/FR message catalogs: a missing key or placeholder is an error, never printed.

Catalogs live in ``scoring/locales/<lang>.toml`` as nested tables; keys are
used with dots (``problem.hand_exceeds_set``).  Plural forms are tables with
``one`` and ``other``; French uses ``one`` for 0 and 1, English only for 1.
"""

from __future__ import annotations

import functools
import json
import string
import tomllib
from importlib import resources
from typing import Mapping

from scoring.errors import CatalogError, Position, Problem, SessionFileError, Span, Term, Value

LANGUAGES = ("en", "fr")
_FORMATTER = string.Formatter()


def printable(text: str) -> str:
    """``text`` with anything that cannot be written as UTF-8 (lone surrogates) escaped."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def placeholders(template: str) -> set[str]:
    """The ``{names}`` a template uses.

    >>> sorted(placeholders("Day {day}: {count} × {card}"))
    ['card', 'count', 'day']
    """
    return {name for _, name, _, _ in _FORMATTER.parse(template) if name is not None}


def flatten(tree: Mapping[str, object], prefix: str = "") -> dict[str, str]:
    """Nested catalog tables to dotted keys; every leaf must be text."""
    flat: dict[str, str] = {}
    for key, value in tree.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(flatten(value, dotted + "."))
        elif isinstance(value, str):
            flat[dotted] = value
        else:
            raise CatalogError(f"catalog entry {dotted!r} must be text, not {type(value).__name__}")
    return flat


def plural_form(lang: str, count: int) -> str:
    """``one`` or ``other``: French treats 0 as singular, English does not.

    >>> plural_form("fr", 0), plural_form("en", 0)
    ('one', 'other')
    """
    if lang == "fr":
        return "one" if count in (0, 1) else "other"
    return "one" if count == 1 else "other"


class Catalog:
    """The messages of one language."""

    def __init__(self, lang: str, entries: Mapping[str, str]) -> None:
        self.lang = lang
        self.entries = dict(entries)

    # -- raw access ----------------------------------------------------------

    def template(self, key: str) -> str:
        try:
            return self.entries[key]
        except KeyError:
            raise CatalogError(f"message {key!r} is missing from the {self.lang!r} catalog") from None

    def has(self, key: str) -> bool:
        return key in self.entries

    def text(self, key: str, /, **params: object) -> str:
        """The message ``key`` with ``params`` filled in; CatalogError if either is missing."""
        template = self.template(key)
        missing = placeholders(template) - params.keys()
        if missing:
            raise CatalogError(f"message {key!r} ({self.lang}) needs {', '.join(sorted(missing))}")
        rendered = {name: self.show(value) for name, value in params.items()}
        return printable(template.format_map(rendered))

    def plural(self, key: str, count: int, /, **params: object) -> str:
        return self.text(f"{key}.{plural_form(self.lang, count)}", count=count, **params)

    # -- values --------------------------------------------------------------

    def term(self, term: Term) -> str:
        return self.template(f"{term.section}.{term.key}")

    def show(self, value: object) -> str:
        """Any message parameter as text in this language."""
        if isinstance(value, Term):
            return self.term(value)
        if isinstance(value, Value):
            return self.describe(value.raw)
        if isinstance(value, Span):
            if value.low == value.high:
                return str(value.low)
            return self.text("where.range", low=value.low, high=value.high)
        if isinstance(value, Position):
            if value.line is None:
                return ""
            return self.text("where.position", line=value.line, column=value.column or 0)
        if isinstance(value, (list, tuple)):
            return ", ".join(self.show(item) for item in value)
        return printable(str(value))

    def describe(self, raw: object) -> str:
        """A value found in a file, short and safe to print."""
        if raw is None:
            return "null"
        if isinstance(raw, bool):
            return "true" if raw else "false"
        if isinstance(raw, int):
            # str() of a number with thousands of digits is slow or refused.
            return str(raw) if raw.bit_length() <= 64 else self.template("type.huge_number")
        if isinstance(raw, float):
            return repr(raw)
        if isinstance(raw, str):
            shown = raw if len(raw) <= 40 else raw[:39] + "…"
            return printable(json.dumps(shown, ensure_ascii=False))
        if isinstance(raw, list):
            return self.template("type.list")
        if isinstance(raw, dict):
            return self.template("type.table")
        shown = str(raw)
        return printable(shown if len(shown) <= 40 else shown[:39] + "…")

    # -- problems ------------------------------------------------------------

    def where(self, problem: Problem) -> str:
        parts = []
        if problem.round is not None:
            parts.append(self.text(f"where.{problem.round_label}", number=problem.round))
        if problem.player is not None:
            parts.append(printable(problem.player))
        if problem.place is not None:
            parts.append(self.term(problem.place))
        if problem.item is not None:
            parts.append(self.term(problem.item))
        if problem.key is not None:
            parts.append(self.text("where.key", key=problem.key))
        return ", ".join(parts) if parts else self.template("where.session")

    def problem(self, problem: Problem) -> str:
        """One sentence saying what is wrong, where, and what was expected."""
        return self.text(f"problem.{problem.code}", where=self.where(problem), **problem.params)

    def file_error(self, error: SessionFileError) -> str:
        return self.text(f"file_error.{error.code}", **error.params)


def _read_catalog(lang: str) -> dict[str, str]:
    source = resources.files("scoring").joinpath("locales").joinpath(f"{lang}.toml")
    return flatten(tomllib.loads(source.read_text(encoding="utf-8")))


@functools.cache
def catalog(lang: str) -> Catalog:
    """The catalog for ``en`` or ``fr`` (read once)."""
    if lang not in LANGUAGES:
        raise CatalogError(f"no catalog for language {lang!r}; expected one of {', '.join(LANGUAGES)}")
    return Catalog(lang, _read_catalog(lang))
