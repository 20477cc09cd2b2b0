"""Sentences in English or French from problems, file errors and labels.

The words come from the project's catalogs (:mod:`pnp.core.i18n`): the common one
and, once the game is known, the game's own (``templates/<game>.<lang>.toml``).
A missing key or value is a :class:`~pnp.core.errors.CatalogError`, never printed.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Protocol

from pnp.core.i18n import LANGUAGES, Catalog, common_catalog, game_catalog
from scoring.names import escaped
from scoring.problems import Problem
from scoring.terms import Label, Position, Span, Term, Value


def printable(text: str) -> str:
    """``text`` with anything that cannot be written as UTF-8 (lone surrogates) escaped.

    For a whole message; the values put into it (names, paths, what a file
    holds) are shown with :func:`scoring.names.escaped`, which escapes
    what a terminal would obey too.
    """
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


class CatalogOwner(Protocol):
    """What a game's rules tell about its words (see :class:`scoring.rules.GameRules`)."""

    id: str
    round_word: str
    catalog_folder: Path | None
    catalog_name: str | None


class Messages:
    """The sentences of one language, for one game or (before the game is known) for any."""

    def __init__(self, catalog: Catalog, round_word: str = "round") -> None:
        self.catalog = catalog
        self.lang = catalog.lang
        self.round_word = round_word

    def text(self, key: str, /, **params: object) -> str:
        """The message ``key`` with ``params`` shown in this language and filled in."""
        return printable(self.catalog.get(key, **{name: self.show(value) for name, value in params.items()}))

    def plural(self, key: str, count: int, /, **params: object) -> str:
        """The ``one`` or ``other`` form of ``key`` for ``count``."""
        shown = {name: self.show(value) for name, value in params.items()}
        return printable(self.catalog.plural(key, count, **shown))

    def label(self, said: Label) -> str:
        if said.count is not None:
            return self.plural(said.key, said.count, **said.params)
        return self.text(said.key, **said.params)

    def term(self, term: Term) -> str:
        return self.catalog.get(f"{term.section}.{term.key}")

    def show(self, value: object) -> str:
        """Any message value as text in this language."""
        if isinstance(value, str):
            return escaped(value)
        if isinstance(value, Term):
            return self.term(value)
        if isinstance(value, Label):
            return self.label(value)
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
        return escaped(str(value))

    def describe(self, raw: object) -> str:
        """A value found in a file, short and safe to print."""
        if raw is None:
            return "null"
        if isinstance(raw, bool):
            return "true" if raw else "false"
        if isinstance(raw, int):
            # str() of a number with thousands of digits is slow or refused.
            return str(raw) if raw.bit_length() <= 64 else self.catalog.get("type.huge_number")
        if isinstance(raw, float):
            return repr(raw)
        if isinstance(raw, str):
            shown = raw if len(raw) <= 40 else raw[:39] + "…"
            return escaped(json.dumps(shown, ensure_ascii=False))
        if isinstance(raw, list):
            return self.catalog.get("type.list")
        if isinstance(raw, dict):
            return self.catalog.get("type.table")
        shown = str(raw)
        return escaped(shown if len(shown) <= 40 else shown[:39] + "…")

    def where(self, problem: Problem, keys: bool = True) -> str:
        """Where a problem is: day or round, player, place, card or tile, then the value's name.

        The value is named in words when the problem says how (``field``);
        otherwise by its file key, unless a place or item already says where
        or ``keys`` is false (pages and phones, where a key means nothing).
        """
        parts = []
        if problem.round is not None:
            parts.append(self.text(f"{self.round_word}.where", number=problem.round))
        if problem.player is not None:
            parts.append(escaped(problem.player))
        if problem.place is not None:
            parts.append(self.term(problem.place))
        if problem.item is not None:
            parts.append(self.term(problem.item))
        if problem.field is not None:
            parts.append(self.label(problem.field))
        elif problem.key is not None and keys and problem.place is None and problem.item is None:
            parts.append(self.text("where.key", key=problem.key))
        return ", ".join(parts) if parts else self.catalog.get("where.session")

    def problem(self, problem: Problem, keys: bool = True) -> str:
        """One sentence saying what is wrong, where, and what was expected (``keys``: see :meth:`where`)."""
        return self.text(f"problem.{problem.code}", where=self.where(problem, keys), **problem.params)

    def file_error(self, error: object) -> str:
        """The sentence of a :class:`~scoring.errors.SessionFileError` (its code and values)."""
        return self.text(f"file_error.{error.code}", **error.params)


@functools.cache
def _messages(lang: str, game: str | None, folder: Path | None, round_word: str) -> Messages:
    if game is None:
        return Messages(common_catalog(lang), round_word)
    return Messages(game_catalog(game, lang, folder), round_word)


def messages(lang: str, rules: CatalogOwner | None = None) -> Messages:
    """The messages of ``lang`` (one of :data:`pnp.core.i18n.LANGUAGES`), with ``rules``' game words.

    >>> messages("fr").text("report.total")
    'Total'
    """
    if rules is None:
        return _messages(lang, None, None, "round")
    return _messages(lang, getattr(rules, "catalog_name", None) or rules.id, rules.catalog_folder,
                     rules.round_word)


__all__ = ["LANGUAGES", "Messages", "messages", "printable"]
