"""Problems found in a session, and errors for files that are not sessions at all.

Nothing here knows a language: a problem carries a stable ``code`` and the
parameters its message needs; :mod:`scoring.messages` turns it into a sentence
in English or French.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping


class ScoringError(ValueError):
    """Base of every error the scoring package raises for bad input."""


class CatalogError(ScoringError):
    """A message key or placeholder is missing from a language catalog."""


@dataclass(frozen=True)
class Term:
    """A word of a game (card, tile, colour, place, type...) looked up in the catalog.

    ``Term("card", "wolf")`` prints as "Wolf" in English and "Loup" in French.
    """

    section: str
    key: str


@dataclass(frozen=True)
class Value:
    """A value found in a file, shown to the reader in a short, safe form."""

    raw: object = field(hash=False)


@dataclass(frozen=True)
class Span:
    """A range of whole numbers, shown as "2" or "3 to 5"."""

    low: int
    high: int


@dataclass(frozen=True)
class Position:
    """A line and column in a file, when the parser said where it stopped."""

    line: int | None = None
    column: int | None = None


@dataclass(frozen=True)
class Problem:
    """One thing in a session that cannot have happened, or cannot be read.

    ``round`` is the 1-based day (Hunting Fever) or round number, ``player``
    the player's name, ``item`` the card, tile or colour concerned, ``place``
    where it was counted (prey pile, hand...), ``key`` the file key when no
    day or player says where.  ``params`` holds what the message needs.
    """

    code: str
    round: int | None = None
    player: str | None = None
    item: Term | None = None
    place: Term | None = None
    key: str | None = None
    round_label: str = "round"
    params: Mapping[str, object] = field(default_factory=dict, hash=False)


class SessionFileError(ScoringError):
    """The file cannot be read as a session at all (unreadable, not TOML/JSON, no known game).

    ``code`` is stable; ``params`` feed the catalog message.  ``str(error)``
    is the English message, so the error is useful even without a catalog.
    """

    def __init__(self, code: str, path: str | None = None, **params: object) -> None:
        self.code = code
        self.path = path
        self.params = params
        super().__init__(code)

    def __str__(self) -> str:
        from scoring.messages import catalog  # late: messages imports this module

        try:
            message = catalog("en").file_error(self)
        except CatalogError:  # pragma: no cover - only with a broken catalog
            message = self.code
        return f"{self.path}: {message}" if self.path else message


class SessionProblems(ScoringError):
    """A session was asked for but the file breaks the rules; ``problems`` lists every one."""

    def __init__(self, problems: tuple[Problem, ...]) -> None:
        self.problems = problems
        super().__init__(f"{len(problems)} problem(s): " + ", ".join(p.code for p in problems))
