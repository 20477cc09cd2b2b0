"""From a raw session (what TOML or JSON gave) to checked, typed sessions and results.

``check_session`` reports every problem at once; ``score_session`` turns a
clean session into a :class:`~scoring.result.Result`.  No I/O here: reading
and writing files is in :mod:`scoring.session_file`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from scoring import beavers, card_hunter, halali, hunting_fever
from scoring.errors import Problem, SessionFileError, SessionProblems, Value
from scoring.fields import At, FieldReader
from scoring.result import Game, Result

Session = Union[
    hunting_fever.HuntingFeverSession,
    halali.HalaliSession,
    beavers.BeaversSession,
    card_hunter.CardHunterSession,
]

LANGUAGES = ("en", "fr")

_RULES = {
    Game.HUNTING_FEVER: hunting_fever,
    Game.HALALI: halali,
    Game.BEAVERS: beavers,
    Game.CARD_HUNTER: card_hunter,
}

#: Players each game accepts (Card Hunter: 1 to 3, or 4 with the variant).
PLAYER_RANGE = {
    Game.HUNTING_FEVER: (hunting_fever.MIN_PLAYERS, hunting_fever.MAX_PLAYERS),
    Game.HALALI: (halali.PLAYERS, halali.PLAYERS),
    Game.BEAVERS: (beavers.PLAYERS, beavers.PLAYERS),
    Game.CARD_HUNTER: (card_hunter.MIN_PLAYERS, card_hunter.MAX_PLAYERS),
}

#: Days or rounds a complete session has (Card Hunter: just its outcome).
ROUNDS_IN_GAME = {
    Game.HUNTING_FEVER: hunting_fever.DAYS,
    Game.HALALI: halali.ROUNDS,
    Game.BEAVERS: beavers.ROUNDS,
    Game.CARD_HUNTER: 0,
}


@dataclass(frozen=True)
class Checked:
    """The outcome of checking a raw session: the session only when nothing is wrong."""

    game: Game
    session: Session | None
    problems: tuple[Problem, ...]

    @property
    def valid(self) -> bool:
        return not self.problems


def parse_game(name: object) -> Game:
    """The :class:`Game` for an id such as ``"hunting-fever"``; SessionFileError otherwise."""
    for game in Game:
        if name == game.value:
            return game
    raise SessionFileError("unknown_game", found=Value(name), expected=", ".join(g.value for g in Game))


def round_label(game: Game) -> str:
    """``"day"`` for Hunting Fever, ``"round"`` for the others."""
    return "day" if game is Game.HUNTING_FEVER else "round"


def session_lang(raw: object) -> str | None:
    """The session's own ``lang`` if it is a known language, else None."""
    if isinstance(raw, dict) and raw.get("lang") in LANGUAGES:
        return raw["lang"]
    return None


def session_date(raw: object) -> str | None:
    """The session's optional ``date`` (the day it was played) as 2026-11-22, if valid."""
    if not isinstance(raw, dict) or "date" not in raw:
        return None
    reader = FieldReader()
    return reader.date(raw["date"], At(key="date"))


def check_session(raw: object) -> Checked:
    """Every problem of a raw session, and the typed session if there is none.

    Raises :class:`SessionFileError` only when ``raw`` is not a session at all
    (not a table, no known ``game``).

    >>> check_session({"game": "card-hunter", "players": ["Ann"], "result": "won"}).problems[0].code
    'won_without_knockouts'
    """
    if not isinstance(raw, dict):
        raise SessionFileError("not_a_table", found=Value(raw))
    if "game" not in raw:
        raise SessionFileError("missing_game", expected=", ".join(g.value for g in Game))
    game = parse_game(raw["game"])
    reader = FieldReader(round_label(game))
    lang = None
    if "lang" in raw:
        lang = reader.choice(raw["lang"], LANGUAGES, At(key="lang"))
    if "date" in raw:
        reader.date(raw["date"], At(key="date"))
    session = _RULES[game].read_session(reader, raw, lang)
    problems = tuple(reader.problems)
    return Checked(game, None if problems else session, problems)


def load_session(raw: object) -> Session:
    """The typed session; :class:`SessionProblems` lists every problem if any."""
    checked = check_session(raw)
    if checked.problems:
        raise SessionProblems(checked.problems)
    return checked.session


def score_session(session: Session) -> Result:
    """Day or round scores, running totals, winners and tie-break of a checked session."""
    return _RULES[session.game].score(session)


def new_session(game: Game, players: list[str], lang: str | None = None) -> dict:
    """The raw form of a session with no day or round entered yet."""
    raw: dict = {"game": game.value}
    if lang is not None:
        raw["lang"] = lang
    raw["players"] = list(players)
    if game is Game.CARD_HUNTER:
        raw["difficulty"] = "normal"
    return raw
