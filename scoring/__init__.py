"""Score companion for Hunting Fever, Halali!, Card Hunter and Hunting Hunting Beavers.

Pure Python (no reportlab, no typer).  A session flows one way::

    read_session_file(path)  ->  check_session(raw)  ->  score_session(session)  ->  Result
         (I/O)                     every Problem           days/rounds, totals, winners

``catalog("en" | "fr")`` turns problems and file errors into sentences.
"""

from scoring.beavers import BeaversSession
from scoring.card_hunter import CardHunterSession
from scoring.errors import (
    CatalogError,
    Problem,
    ScoringError,
    SessionFileError,
    SessionProblems,
    Term,
)
from scoring.halali import HalaliRound, HalaliSession
from scoring.hunting_fever import DayEntry, HuntingFeverSession
from scoring.messages import LANGUAGES, Catalog, catalog
from scoring.result import (
    CardHunterOutcome,
    Game,
    PlayerRound,
    Result,
    RoundResult,
    ScoreLine,
    TieBreak,
)
from scoring.session import (
    PLAYER_RANGE,
    ROUNDS_IN_GAME,
    Checked,
    Session,
    check_session,
    load_session,
    new_session,
    parse_game,
    score_session,
    session_date,
    session_lang,
)
from scoring.session_file import SessionFile, read_session_file, write_text_atomic

__all__ = [
    "BeaversSession",
    "CardHunterOutcome",
    "CardHunterSession",
    "Catalog",
    "CatalogError",
    "Checked",
    "DayEntry",
    "Game",
    "HalaliRound",
    "HalaliSession",
    "HuntingFeverSession",
    "LANGUAGES",
    "PLAYER_RANGE",
    "session_date",
    "PlayerRound",
    "Problem",
    "ROUNDS_IN_GAME",
    "Result",
    "RoundResult",
    "ScoreLine",
    "ScoringError",
    "Session",
    "SessionFile",
    "SessionFileError",
    "SessionProblems",
    "Term",
    "TieBreak",
    "catalog",
    "check_session",
    "load_session",
    "new_session",
    "parse_game",
    "read_session_file",
    "score_session",
    "session_lang",
    "write_text_atomic",
]
