"""Errors the scoring package raises: files that are not sessions, sessions that break the rules.

A :class:`SessionFileError` carries a stable :class:`~scoring.problems.FileError`
code and the values its message needs; ``str()`` of it is the English sentence.
"""

from __future__ import annotations

from pnp.core.errors import CatalogError
from scoring.messages import messages
from scoring.problems import FileError, Problem
from scoring.terms import Label


class ScoringError(ValueError):
    """Base of every error the scoring package raises for bad input."""


class SessionFileError(ScoringError):
    """The file cannot be read as a session at all (unreadable, not TOML/JSON, no known game)."""

    def __init__(self, code: FileError, path: str | None = None, **params: object) -> None:
        self.code = FileError(code)
        self.path = path
        self.params = params
        super().__init__(str(self.code))

    def __str__(self) -> str:
        try:
            message = messages("en").file_error(self)
        except CatalogError:  # pragma: no cover - only with a broken catalog
            message = str(self.code)
        return f"{self.path}: {message}" if self.path else message


class SessionProblems(ScoringError):
    """A session was asked for but the file breaks the rules; ``problems`` lists every one."""

    def __init__(self, problems: tuple[Problem, ...]) -> None:
        self.problems = problems
        super().__init__(f"{len(problems)} problem(s): " + ", ".join(p.code for p in problems))


class NothingToEnter(ScoringError):
    """A session has no next day or round to enter; ``reason`` says why, as a :class:`Label`."""

    def __init__(self, reason: Label) -> None:
        self.reason = reason
        super().__init__(reason.key)


__all__ = ["CatalogError", "NothingToEnter", "ScoringError", "SessionFileError", "SessionProblems"]
