"""Score companion for Hunting Fever, Halali!, Card Hunter and Hunting Hunting Beavers.

Pure Python (no reportlab, no typer). A session flows one way::

    read_session_file(path)  ->  check_session(raw)  ->  score_session(session)  ->  Result  ->  report
         (I/O)                     every Problem           days/rounds, totals, winners

Each game's rules are one :class:`GameRules` in ``scoring/<game>.py``, found by
game id with :func:`find_rules`; another game joins with :func:`register`.
``messages(lang, rules)`` turns problems, file errors and labels into sentences.
"""

from pnp.core.i18n import LANGUAGES
from scoring.errors import CatalogError, NothingToEnter, ScoringError, SessionFileError, SessionProblems
from scoring.forms import Choice, EntryForm, Given, Kind, PartForm, Question
from scoring.messages import Messages, messages
from scoring.problems import Common, FileError, Problem, ProblemCode
from scoring.result import PlayerRound, Result, RoundResult, ScoreLine, TieBreak
from scoring.rules import GameRules, Report, Row, find_rules, game_ids, register, unregister
from scoring.terms import Label, Position, Span, Term, Value, label

#: Names loaded on first use: a kit that reads its game's facts from the rules modules
#: needs neither sessions nor their files (and the TOML, JSON and CSV readers they load).
_LATE = {
    **dict.fromkeys(("Checked", "check_session", "load_session", "new_session", "score_session",
                     "session_date", "session_lang", "session_rules"), "scoring.session"),
    **dict.fromkeys(("SessionFile", "read_session_file", "write_text_atomic"), "scoring.session_file"),
}


def __getattr__(name: str):
    import importlib

    if name in _LATE:
        value = getattr(importlib.import_module(_LATE[name]), name)
    elif name in ("session", "session_file"):   # the modules themselves, as `scoring.session_file`
        value = importlib.import_module(f"scoring.{name}")
    else:
        raise AttributeError(f"module 'scoring' has no attribute {name!r}")
    globals()[name] = value
    return value


__all__ = [
    "LANGUAGES",
    "CatalogError",
    "Checked",
    "Choice",
    "Common",
    "EntryForm",
    "FileError",
    "GameRules",
    "Given",
    "Kind",
    "Label",
    "Messages",
    "NothingToEnter",
    "PartForm",
    "PlayerRound",
    "Position",
    "Problem",
    "ProblemCode",
    "Question",
    "Report",
    "Result",
    "RoundResult",
    "Row",
    "ScoreLine",
    "ScoringError",
    "SessionFile",
    "SessionFileError",
    "SessionProblems",
    "Span",
    "Term",
    "TieBreak",
    "Value",
    "check_session",
    "find_rules",
    "game_ids",
    "label",
    "load_session",
    "messages",
    "new_session",
    "read_session_file",
    "register",
    "score_session",
    "session_date",
    "session_lang",
    "session_rules",
    "unregister",
    "write_text_atomic",
]
