"""Typed spec tables for the files a user writes: each key's kind, default and rules, declared once.

A :class:`Table` lists its keys in the order they are checked, each a
:class:`Field` with a :class:`Spec` (what the value must be), a default for a
key left out and a fallback for a value that is wrong (so that checking goes
on and every problem of a file is reported at once), then the rules that tie
keys together (``after``: named functions, run in order). Checking a table
gives a dict of clean values; every problem is one line naming the file, the
key path and the expected form::

    tiny.toml: components.cards.pieces[2].count: expected a positive whole number, got 0

A spec is a small class with ``expected`` (the form a message names) and
``read`` (the clean value, or :class:`Invalid`); a new kind of value is a new
spec, a new key one line of a table. Standard library only (and the project's errors).
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable, Iterable, Mapping

from pnp.core.errors import raise_problems
from pnp.core.records import NamedTuple

#: A key left out, or a value that could not be read.
MISSING = type("Missing", (), {"__repr__": lambda self: "MISSING"})()


class Invalid(Exception):
    """What ``read`` raises for a value that is not of its kind.

    ``expected`` replaces the spec's own expected form; ``message`` replaces the
    whole "expected ..., got ..." sentence; ``show`` False leaves out what was got.
    """

    def __init__(self, expected: str | None = None, message: str | None = None, show: bool = True):
        super().__init__(message or expected or "")
        self.expected, self.message, self.show = expected, message, show


def type_name(value: Any) -> str:
    return {bool: "true/false", int: "a whole number", float: "a number", str: "text",
            list: "a list", dict: "a table"}.get(type(value), type(value).__name__)


class Checker:
    """The problems of one file, and what its specs may need to know (params, palette...)."""

    def __init__(self, source: str, **context: Any) -> None:
        self.source = source
        self.problems: list[str] = []
        self.context = context

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["context"][name]
        except KeyError:
            raise AttributeError(name) from None

    def fail(self, where: str, expected: str, got: Any = None, *, show: bool = True) -> None:
        """``file: where: expected <form>, got <value>``."""
        tail = ""
        if show and got is None:
            tail = ", but it is missing"  # a required key left out, or a data file's empty cell
        elif show:
            tail = f", got {type_name(got)}" if isinstance(got, (dict, list)) else f", got {got!r}"
        self.problems.append(f"{self.source}: {where}: expected {expected}{tail}")

    def say(self, where: str, message: str) -> None:
        """``file: where: <message>``, for a problem that is not a wrong form."""
        self.problems.append(f"{self.source}: {where}: {message}")

    def unknown_keys(self, table: Mapping, allowed: Iterable[str], where: str) -> None:
        allowed = set(allowed)
        for key in table:
            if key not in allowed:
                self.say(where, f"unknown key {key!r} (expected one of: {', '.join(sorted(allowed))})")


class Spec:
    """One kind of value: ``read`` gives it clean, or raises :class:`Invalid`."""

    expected = "a value"
    show = True

    def read(self, value: Any, at: str, check: Checker, siblings: Mapping[str, Any]) -> Any:
        return value

    def check(self, value: Any, at: str, check: Checker, siblings: Mapping[str, Any] = {}) -> Any:
        """The clean value, or MISSING after reporting what is wrong."""
        try:
            return self.read(value, at, check, siblings)
        except Invalid as wrong:
            if wrong.message is not None:
                check.say(at, wrong.message)
            else:
                check.fail(at, wrong.expected or self.expected, value, show=self.show and wrong.show)
            return MISSING


class Field(NamedTuple):
    """A key of a table: its spec, what it is when left out, and what stands in for a wrong value.

    ``default``: the value of a key left out (MISSING: none). ``check_missing``: a key
    left out is checked as None (a required key, named with what was got).
    ``fallback``: what checking goes on with after a problem (a function of the key's
    path and the value written, for one that depends on them). ``then``: a last step
    given the value and the checker (defaults added, the command line's settings).
    ``stop``: a wrong value ends the checking of the file there (nothing else can be read).
    """

    spec: Spec
    default: Any = MISSING
    fallback: Any = MISSING
    check_missing: bool = False
    then: Callable[[Any, "Checker"], Any] | None = None
    stop: bool = False

    def value(self, table: Mapping, key: str, where: str, check: "Checker", *, siblings: Mapping) -> Any:
        """The clean value of ``key`` in ``table``, its problems reported to ``check``."""
        if key in table or self.check_missing:
            raw = table.get(key)
            value = self.spec.check(raw, where, check, siblings)
            if value is MISSING:
                if self.stop:
                    raise_problems(check.problems)
                value = self.fallback(where, raw) if callable(self.fallback) else self.fallback
        else:
            value = self.default
        return value if self.then is None else self.then(value, check)


def keep(where: str, raw: Any) -> Any:
    """A fallback that goes on with the value as written (named once, where it is wrong)."""
    return raw


Rule = Callable[[Mapping[str, Any], dict, str, Checker], None]


class Table(Spec):
    """A TOML table of known keys, checked in the order they are declared, then its rules."""

    def __init__(self, fields: Mapping[str, Field], expected: str, *, where: str | None = None,
                 extra_keys: Iterable[str] = (), after: tuple[Rule, ...] = ()) -> None:
        self.fields, self.expected, self.after = fields, expected, after
        self.where = where          # how the table itself is named when it is not a table
        self.extra_keys = tuple(extra_keys)   # keys other steps read (element lists)

    def read(self, value, at, check, siblings):
        if not isinstance(value, dict):
            raise Invalid()
        check.unknown_keys(value, (*self.fields, *self.extra_keys), at or "top level")
        return self.fields_of(value, at, check, self.fields)

    def key_at(self, at: str, key: str) -> str:
        """How the key ``key`` of the table at ``at`` is named in a problem."""
        return f"{at}.{key}" if at else key

    def fields_of(self, value: Mapping, at: str, check: Checker, fields: Mapping[str, Field]) -> dict:
        checked: dict[str, Any] = {}
        for key, field in fields.items():
            checked[key] = field.value(value, key, self.key_at(at, key), check, siblings=checked)
        for rule in self.after:
            rule(value, checked, at, check)
        return checked

    def check(self, value, at, check, siblings={}):
        if not isinstance(value, dict):
            check.fail(self.where or at, self.expected, value)
            return MISSING
        return self.read(value, at, check, siblings)


class Kind(Spec):
    """A value of some Python types (a bool is never a number), passing ``test`` if given."""

    def __init__(self, types: type | tuple[type, ...], expected: str,
                 test: Callable[[Any], bool] | None = None, show: bool = True) -> None:
        self.types, self.expected, self.test, self.show = types, expected, test, show

    def read(self, value, at, check, siblings):
        types = self.types if isinstance(self.types, tuple) else (self.types,)
        if isinstance(value, bool) and bool not in types:
            raise Invalid()
        if not isinstance(value, types) or (self.test is not None and not self.test(value)):
            raise Invalid()
        return value


def boolean() -> Kind:
    return Kind(bool, "true or false")


def matching(pattern: re.Pattern, expected: str) -> Kind:
    """Text matching ``pattern``: an id, a colour."""
    return Kind(str, expected, lambda value: bool(pattern.match(value)))


def number(expected: str, test: Callable[[float], bool] | None = None) -> Kind:
    return Kind((int, float), expected, test)


def whole(expected: str, test: Callable[[int], bool] | None = None) -> Kind:
    return Kind(int, expected, test)


class OneOf(Spec):
    """One of a few values."""

    def __init__(self, options: tuple, expected: str) -> None:
        self.options, self.expected = options, expected

    def read(self, value, at, check, siblings):
        if value not in self.options:
            raise Invalid()
        return value


class All(Spec):
    """Every one of several specs, each reporting its own problem (a length >= 0 *and* within a range)."""

    def __init__(self, *specs: Spec) -> None:
        self.specs = specs

    def check(self, value, at, check, siblings={}):
        results = [spec.check(value, at, check, siblings) for spec in self.specs]
        return MISSING if any(result is MISSING for result in results) else value


class When(Spec):
    """A spec checked only for values ``applies`` accepts (a range, once the value is a number)."""

    def __init__(self, applies: Callable[[Any], bool], spec: Spec) -> None:
        self.applies, self.spec = applies, spec

    def check(self, value, at, check, siblings={}):
        return self.spec.check(value, at, check, siblings) if self.applies(value) else value


class TableOf(Spec):
    """A table of free names, each value of one spec (a palette, params); ``name`` heads each key."""

    def __init__(self, value: Spec, expected: str, where: str, name: str, *, keep_wrong: bool = False) -> None:
        self.value, self.expected, self.where, self.name = value, expected, where, name
        self.keep_wrong = keep_wrong   # a wrong entry stays, as written

    def check(self, value, at, check, siblings={}):
        if not isinstance(value, dict):
            check.fail(self.where, self.expected, value)
            return MISSING
        clean = {}
        for key, item in value.items():
            result = self.value.check(item, f"{self.name}.{key}", check, siblings)
            if result is not MISSING or self.keep_wrong:
                clean[key] = item if result is MISSING else result
        return clean


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def finite_within(limit: float) -> Callable[[Any], bool]:
    return lambda value: math.isfinite(value) and abs(value) <= limit


__all__ = ["All", "Checker", "Field", "Invalid", "Kind", "MISSING", "OneOf", "Spec", "Table", "TableOf",
           "When", "boolean", "finite_within", "is_number", "keep", "matching", "number", "type_name", "whole"]
