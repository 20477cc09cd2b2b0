"""From a raw session (what TOML or JSON gave) to checked, typed sessions and results.

``check_session`` reports every problem at once; ``score_session`` turns a
clean session into a :class:`~scoring.result.Result`. The game's own checks
and scores are in its rules (:mod:`scoring.rules`). No I/O here: reading and
writing files is in :mod:`scoring.session_file`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from pnp.core.i18n import LANGUAGES
from scoring.errors import SessionFileError, SessionProblems
from scoring.fields import At, FieldReader
from scoring.problems import FileError, Problem
from scoring.result import Result
from scoring.rules import GameRules, find_rules, game_ids
from scoring.terms import Value

#: Keys every session may have; each game adds its own.
COMMON_KEYS = ("game", "players", "lang", "date")


class Checked(NamedTuple):
    """The outcome of checking a raw session: the session only when nothing is wrong."""

    rules: GameRules
    session: Any
    problems: tuple[Problem, ...]

    @property
    def game(self) -> str:
        return self.rules.id

    @property
    def valid(self) -> bool:
        return not self.problems


def session_lang(raw: object) -> str | None:
    """The session's own ``lang`` if it is a known language, else None."""
    if isinstance(raw, dict) and raw.get("lang") in LANGUAGES:
        return raw["lang"]
    return None


def session_rules(raw: object) -> GameRules | None:
    """The rules of the session's ``game`` if it names a known one, else None."""
    if isinstance(raw, dict):
        try:
            return find_rules(raw.get("game"))
        except SessionFileError:
            return None
    return None


def session_date(raw: object) -> str | None:
    """The session's optional ``date`` (the day it was played) as 2026-11-22, if valid."""
    if not isinstance(raw, dict) or "date" not in raw:
        return None
    return FieldReader().date(raw["date"], At(key="date"))


def check_session(raw: object) -> Checked:
    """Every problem of a raw session, and the typed session if there is none.

    Raises :class:`SessionFileError` only when ``raw`` is not a session at all
    (not a table, no known ``game``).

    >>> check_session({"game": "card-hunter", "players": ["Ann"], "result": "won"}).problems[0].code
    <CardHunterProblem.WON_WITHOUT_KNOCKOUTS: 'won_without_knockouts'>
    """
    if not isinstance(raw, dict):
        raise SessionFileError(FileError.NOT_A_TABLE, found=Value(raw))
    if "game" not in raw:
        raise SessionFileError(FileError.MISSING_GAME, expected=", ".join(game_ids()))
    rules = find_rules(raw["game"])
    reader = FieldReader()
    lang = None
    if "lang" in raw:
        lang = reader.choice(raw["lang"], LANGUAGES, At(key="lang"))
    if "date" in raw:
        reader.date(raw["date"], At(key="date"))
    session = rules.read_session(reader, raw, lang)
    problems = tuple(reader.problems)
    return Checked(rules, None if problems else session, problems)


def load_session(raw: object) -> Any:
    """The typed session; :class:`SessionProblems` lists every problem if any."""
    checked = check_session(raw)
    if checked.problems:
        raise SessionProblems(checked.problems)
    return checked.session


def score_session(session: Any) -> Result:
    """Day or round scores, running totals, winners and tie-break of a checked session."""
    return find_rules(session.game).score(session)


def new_session(rules: GameRules, players: list[str], lang: str | None = None) -> dict:
    """The raw form of a session with no day or round entered yet."""
    raw: dict = {"game": rules.id}
    if lang is not None:
        raw["lang"] = lang
    raw["players"] = list(players)
    raw.update(rules.starting_fields())
    return raw
