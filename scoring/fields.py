"""Read typed fields out of a raw session (dicts, lists, scalars) and collect every problem.

A session file arrives as whatever ``tomllib`` or ``json`` made of it.  The
:class:`FieldReader` checks each value where it is used and records a
:class:`~scoring.problems.Problem` instead of raising, so one pass reports every
mistake in the file.  Note that ``bool`` is a subclass of ``int`` in Python:
``true`` is never accepted as a count, nor ``1`` as a flag.
"""

from __future__ import annotations

import datetime
from typing import NamedTuple

from scoring.names import name_key, unprintable
from scoring.problems import Common, Problem, ProblemCode
from scoring.terms import Span, Term, Value

#: Above this, a number is a typo or an attack, never a count of cards or tiles.
NUMBER_LIMIT = 1_000_000


class At(NamedTuple):
    """Where a value sits: day or round (1-based), player, place, card/tile, file key.

    A named tuple: reading a session makes one for every value it reads, and
    ``to`` is then a plain tuple copy (``dataclasses.replace`` cost a third of
    reading a Hunting Fever session).
    """

    round: int | None = None
    player: str | None = None
    place: Term | None = None
    item: Term | None = None
    key: str | None = None

    def to(self, **changes: object) -> "At":
        return self._replace(**changes)


class FieldReader:
    """Collects problems while typed values are read from a raw session."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, code: ProblemCode, at: At = At(), **params: object) -> None:
        self.problems.append(
            Problem(code=code, round=at.round, player=at.player, item=at.item, place=at.place, key=at.key,
                    params=params)
        )

    def extend(self, problems: list[Problem]) -> None:
        self.problems.extend(problems)

    def mark(self) -> int:
        """Problem count now; compare with :meth:`since` to know if a part read cleanly."""
        return len(self.problems)

    def since(self, mark: int) -> bool:
        """True if any problem was recorded after ``mark``."""
        return len(self.problems) > mark

    # -- typed reads ---------------------------------------------------------

    def table(self, value: object, at: At) -> dict | None:
        if isinstance(value, dict):
            return value
        self.add(Common.WRONG_TYPE, at, expected=Term("type", "table"), found=Value(value))
        return None

    def array(self, value: object, at: At) -> list | None:
        if isinstance(value, list):
            return value
        self.add(Common.WRONG_TYPE, at, expected=Term("type", "list"), found=Value(value))
        return None

    def text(self, value: object, at: At) -> str | None:
        if isinstance(value, str):
            return value
        self.add(Common.WRONG_TYPE, at, expected=Term("type", "text"), found=Value(value))
        return None

    def flag(self, value: object, at: At) -> bool | None:
        if isinstance(value, bool):
            return value
        self.add(Common.WRONG_TYPE, at, expected=Term("type", "flag"), found=Value(value))
        return None

    def count(self, value: object, at: At, *, signed: bool = False) -> int | None:
        """A whole number; ``signed`` allows negatives (currency changes)."""
        if isinstance(value, bool) or not isinstance(value, int):
            expected = Term("type", "integer" if signed else "count")
            self.add(Common.NOT_A_WHOLE_NUMBER, at, expected=expected, found=Value(value))
            return None
        if abs(value) > NUMBER_LIMIT:
            self.add(Common.NUMBER_TOO_LARGE, at, found=Value(value), limit=NUMBER_LIMIT)
            return None
        if value < 0 and not signed:
            self.add(Common.NEGATIVE_NUMBER, at, found=Value(value))
            return None
        return value

    def date(self, value: object, at: At) -> str | None:
        """A calendar date, written 2026-11-22 (TOML date or text); returned as text."""
        if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
            return value.isoformat()
        if isinstance(value, str):
            try:
                return datetime.date.fromisoformat(value).isoformat()
            except ValueError:
                pass
        self.add(Common.INVALID_DATE, at, found=Value(value))
        return None

    def choice(self, value: object, allowed: tuple[str, ...], at: At) -> str | None:
        """One of a few fixed words (difficulty, result, colour, language)."""
        word = self.text(value, at)
        if word is None:
            return None
        if word not in allowed:
            self.add(Common.UNKNOWN_VALUE, at, found=Value(value), expected=", ".join(allowed))
            return None
        return word

    def known_keys(self, table: dict, allowed: tuple[str, ...], at: At) -> bool:
        """Report every key of ``table`` not in ``allowed``; True if there were none."""
        clean = True
        for key in table:
            if key not in allowed:
                self.add(Common.UNKNOWN_KEY, at, found=Value(key), expected=", ".join(allowed))
                clean = False
        return clean

    def known_player(self, name: str, players: tuple[str, ...], at: At) -> bool:
        """Report ``name`` unless it is one of the session's players; True if it is."""
        if name in players:
            return True
        self.add(Common.UNKNOWN_PLAYER, at, found=Value(name), players=", ".join(players))
        return False

    def counts(self, value: object, kinds: tuple[str, ...], at: At, section: str) -> dict[str, int] | None:
        """A table of counts by kind; kinds left out count as 0."""
        table = self.table(value, at)
        if table is None:
            return None
        mark = self.mark()
        self.known_keys(table, kinds, at)
        result = {}
        for kind in kinds:
            number = self.count(table.get(kind, 0), at.to(item=Term(section, kind)))
            result[kind] = 0 if number is None else number
        return None if self.since(mark) else result

    def players(self, raw: dict, low: int, high: int) -> tuple[str, ...] | None:
        """The ``players`` list: non-empty names a reader can tell apart, ``low`` to ``high`` of them.

        A name may not hold what a terminal obeys (control characters, line
        breaks, text-direction marks), and two names may not differ only in
        capitals or in how their letters are encoded (:func:`scoring.names.name_key`):
        at a prompt, and to the players, they would be one person.

        Returns None when the names themselves cannot be trusted (then nothing
        keyed by player can be checked); a wrong player count is reported but
        the names are still returned, so the rest of the session is checked.
        """
        at = At(key="players")
        if "players" not in raw:
            self.add(Common.MISSING_KEY, at, name="players")
            return None
        names = self.array(raw["players"], at)
        if names is None:
            return None
        usable = True
        seen: dict[str, str] = {}  # name_key -> the first name with that key
        for position, name in enumerate(names, start=1):
            if not isinstance(name, str):
                self.add(Common.WRONG_TYPE, at, expected=Term("type", "text"), found=Value(name))
                usable = False
            elif not name.strip():
                self.add(Common.EMPTY_PLAYER_NAME, at, position=position)
                usable = False
            elif any(0xD800 <= ord(char) <= 0xDFFF for char in name):
                # Undecodable bytes on a command line arrive as lone surrogates; no file can hold them.
                self.add(Common.INVALID_PLAYER_NAME, at, position=position)
                usable = False
            elif unprintable(name):
                self.add(Common.UNPRINTABLE_PLAYER_NAME, at, position=position)
                usable = False
            elif name_key(name) in seen:
                first = seen[name_key(name)]
                if first == name:
                    self.add(Common.DUPLICATE_PLAYER, at.to(player=name), name=name)
                else:
                    self.add(Common.SIMILAR_PLAYER_NAMES, at.to(player=name), name=first, other=name)
                usable = False
            else:
                seen[name_key(name)] = name
        if not low <= len(names) <= high:
            self.add(Common.PLAYER_COUNT, at, game=Term("game", "name"), expected=Span(low, high), count=len(names))
        return tuple(names) if usable else None

    def rounds(self, raw: dict, key: str, limit: int, too_many: ProblemCode = Common.TOO_MANY_ROUNDS) -> list | None:
        """The list of days or rounds under ``key`` (empty when left out); more than ``limit``
        (what the game can have) is reported, and None returned: no day or round of such
        a list is read, so the file's size (up to the limit of a session) sets no cost."""
        entries = self.array(raw.get(key, []), At(key=key))
        if entries is not None and len(entries) > limit:
            self.add(too_many, At(key=key), count=len(entries), limit=limit)
            return None
        return entries
