"""Problems found in a session: a stable code from an Enum, where it is, what the message needs.

Nothing here knows a language. Each code names the values its message uses
(besides ``{where}``); a test checks every code against the EN and FR catalogs.
Codes any session can have are :class:`Common`; each game lists its own in its
rules module, and file-level errors are :class:`FileError`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Mapping

from scoring.terms import Label, Term


class ProblemCode(StrEnum):
    """Base of every enum of problem codes: the value is the code, ``params`` what its message needs.

    A member is written ``NAME = "code", "param", ...``; it equals its code as text.
    """

    def __new__(cls, code: str, *params: str) -> "ProblemCode":
        member = str.__new__(cls, code)
        member._value_ = code
        member.params = frozenset(params)
        return member


class Common(ProblemCode):
    """Problems any game's session can have: types, numbers, keys, players, dates."""

    INVALID_DATE = "invalid_date", "found"
    WRONG_TYPE = "wrong_type", "expected", "found"
    NOT_A_WHOLE_NUMBER = "not_a_whole_number", "expected", "found"
    NEGATIVE_NUMBER = "negative_number", "found"
    NUMBER_TOO_LARGE = "number_too_large", "found", "limit"
    UNKNOWN_KEY = "unknown_key", "found", "expected"
    MISSING_KEY = "missing_key", "name"
    EMPTY_PLAYER_NAME = "empty_player_name", "position"
    INVALID_PLAYER_NAME = "invalid_player_name", "position"
    UNPRINTABLE_PLAYER_NAME = "unprintable_player_name", "position"
    DUPLICATE_PLAYER = "duplicate_player", "name"
    SIMILAR_PLAYER_NAMES = "similar_player_names", "name", "other"
    PLAYER_COUNT = "player_count", "game", "expected", "count"
    UNKNOWN_PLAYER = "unknown_player", "found", "players"
    TOO_MANY_ROUNDS = "too_many_rounds", "count", "limit"
    UNKNOWN_VALUE = "unknown_value", "found", "expected"
    # An answer to an entry form's question (a phone's page, an API part), said in words.
    ABOVE_LIMIT = "above_limit", "found", "limit"
    BELOW_LIMIT = "below_limit", "found", "limit"
    NOT_A_CHOICE = "not_a_choice", "found", "question", "expected"
    NO_ANSWER = "no_answer", "question"


class FileError(ProblemCode):
    """Why a file cannot be read as a session, or a file cannot be written (messages under ``file_error.``)."""

    FILE_NOT_FOUND = "file_not_found"
    FILE_UNREADABLE = "file_unreadable", "reason"
    FILE_TOO_LARGE = "file_too_large", "limit"
    NOT_A_FILE = "not_a_file", "kind"
    UNKNOWN_EXTENSION = "unknown_extension", "found"
    NOT_UTF8 = "not_utf8", "offset"
    INVALID_TOML = "invalid_toml", "position"
    INVALID_JSON = "invalid_json", "position"
    DUPLICATE_JSON_KEY = "duplicate_json_key", "name"
    KEY_ENCODED_TWICE = "key_encoded_twice", "name"
    NOT_A_TABLE = "not_a_table", "found"
    MISSING_GAME = "missing_game", "expected"
    UNKNOWN_GAME = "unknown_game", "found", "expected"
    FILE_EXISTS = "file_exists"
    FILE_UNWRITABLE = "file_unwritable", "reason"
    INVALID_CSV = "invalid_csv", "line"
    CSV_NO_HEADER = "csv_no_header"
    CSV_MISSING_COLUMN = "csv_missing_column", "column"
    CSV_BAD_COLUMN = "csv_bad_column", "column"
    CSV_EXTRA_CELLS = "csv_extra_cells", "line"
    CSV_NO_PLAYER = "csv_no_player", "line"
    CSV_BAD_ROUND = "csv_bad_round", "line", "found"
    CSV_NO_ROUND = "csv_no_round", "line", "column"
    CSV_CONFLICT = "csv_conflict", "line", "column"
    NOT_A_SESSION = "not_a_session"
    CHANGED_SINCE_READ = "changed_since_read"
    SESSION_BUSY = "session_busy", "seconds"
    OUTPUT_IS_INPUT = "output_is_input", "input"
    OUTPUT_NOT_PDF = "output_not_pdf"
    NO_FOLDER = "no_folder", "folder"


@dataclass(frozen=True)
class Problem:
    """One thing in a session that cannot have happened, or cannot be read.

    ``round`` is the 1-based day or round number, ``player`` the player's
    name, ``item`` the card, tile or colour concerned, ``place`` where it was
    counted (prey pile, hand...), ``key`` the file key when no day or player
    says where. ``field`` names the value in words (an entry form's question:
    "Knockout tokens left"), said instead of the key. ``params`` holds what the
    message needs.
    """

    code: ProblemCode
    round: int | None = None
    player: str | None = None
    item: Term | None = None
    place: Term | None = None
    key: str | None = None
    params: Mapping[str, object] = field(default_factory=dict, hash=False)
    field: Label | None = field(default=None, hash=False)
