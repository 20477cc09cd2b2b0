"""Sessions kept in the database: each one a session file with its scored result, started, read, listed, imported.

Each stored session is a session file (the ``document``) that ``pnp score
check`` accepts: it is checked by the scoring package inside the write
transaction that stores it, and refused whole when it breaks a rule.  What
waits beside it (parts of the day being entered, corrections of a day already
in: rows of the ``parts`` table) is read and replaced here too; what those rows
mean is :mod:`pnp.web.rounds`.

Nothing here names a game: where a game keeps its days or rounds comes from
its rules (:func:`scoring.find_rules`).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import secrets
from typing import Callable, Iterable

import regex

from scoring import Problem, check_session, find_rules, new_session, score_session, session_date
from scoring.report import result_json

from pnp.core.records import NamedTuple
from pnp.web import club
from pnp.web.db import Database
from pnp.web.entry import Refused, WebProblem
from pnp.web.plays import Sides, session_plays, sides_of
from pnp.web.rounds import Rows


class UnknownSession(LookupError):
    """No session has this id."""


class StoredSession(NamedTuple):
    id: str
    game: str
    document: dict
    result: dict
    complete: bool
    origin: str
    source: str | None
    played_on: str | None
    created_at: str
    updated_at: str
    completed_at: str | None
    token_hash: str | None

    @property
    def players(self) -> list[str]:
        return list(self.document["players"])

    @property
    def lang(self) -> str | None:
        return self.document.get("lang")


# -- documents ---------------------------------------------------------------

#: What a session is about; an outcome entered later cannot change them.
FIXED_KEYS = ("game", "players")
#: The longest player name a table takes: it fits a phone's list, a scoresheet's box and a BG Stats code.
MAX_NAME = 40


def now_text() -> str:
    """The time now, UTC, as stored (2026-11-22T19:04:05+00:00).

    Every module of the store reads the clock through this one function
    (``sessions.now_text()``), so a test can set it.
    """
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def json_document(raw: object) -> object:
    """``raw`` with TOML dates written as text (2026-11-22), so it can be stored as JSON."""
    if isinstance(raw, dict):
        return {key: json_document(value) for key, value in raw.items()}
    if isinstance(raw, list):
        return [json_document(value) for value in raw]
    if isinstance(raw, (datetime.date, datetime.time)):
        return raw.isoformat()
    return raw


def fingerprint(document: dict) -> str:
    """The same for two documents that hold the same session, whatever their key order."""
    canonical = json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class Scored(NamedTuple):
    """A document that passed every check: its check --json object, whether it is complete, and the side
    each player took (what the club's figures count of it besides the result)."""

    result: dict
    complete: bool
    sides: Sides


def scored(document: dict) -> Scored:
    """The check --json object of a document that must pass every check, and whether it is complete."""
    checked = check_session(document)
    if checked.problems:
        raise Refused(checked.problems)
    outcome = score_session(checked.session)
    result = result_json(outcome)
    return Scored(result, bool(result["complete"]), sides_of(outcome))


def _count_in_club(connection, stored: "StoredSession", sides: Sides, now: str) -> None:
    """The club's figures follow the session as it is now stored (:mod:`pnp.web.club`)."""
    sequence = connection.execute("SELECT rowid FROM sessions WHERE id = ?", (stored.id,)).fetchone()[0]
    plays = session_plays(stored.id, stored.result, sides=sides, played_on=stored.played_on or stored.created_at[:10],
                          sequence=sequence)
    club.session_written(connection, stored.id, plays, now)


def start_document(game: object, players: object, lang: object = None, extra: dict | None = None, *,
                   today: datetime.date | None = None) -> dict:
    """The document of a new session: what ``pnp score new`` writes, dated today unless ``extra`` says.

    Raises SessionFileError for an unknown game; the rest is left to the check.
    """
    rules = find_rules(game)
    if isinstance(players, list) and all(isinstance(name, str) for name in players):
        document = new_session(rules, players, lang if isinstance(lang, str) else None)
    else:
        document = {"game": rules.id, "players": players}
    if lang is not None and not isinstance(lang, str):
        document["lang"] = lang  # the check names what is wrong with it
    document["date"] = (today or datetime.date.today()).isoformat()
    document.update(json_document(extra or {}))
    return document


def seen_length(text: str) -> int:
    """How many characters a person sees in ``text``: its grapheme clusters (Unicode's UAX #29).

    An accent typed as a combining mark, a flag or a family emoji made of several
    code points is one character on the screen, and is counted as one.

    >>> seen_length("Zoë"), seen_length("Zoe\u0308"), seen_length("\U0001F468\u200d\U0001F469\u200d\U0001F467")
    (3, 3, 1)
    """
    return len(regex.findall(r"\X", text))


def long_names(players: object) -> list[Problem]:
    """A problem per player name longer than :data:`MAX_NAME` characters, as a person counts them."""
    if not isinstance(players, list):
        return []
    problems = []
    for position, name in enumerate(players, start=1):
        if isinstance(name, str) and seen_length(name) > MAX_NAME:
            problems.append(Problem(WebProblem.NAME_TOO_LONG, key="players", params={
                "position": position, "count": seen_length(name), "limit": MAX_NAME}))
    return problems


# -- reading -----------------------------------------------------------------

_COLUMNS = ("id, game, document, result, complete, origin, source, played_on, "
            "created_at, updated_at, completed_at, token_hash")


def from_row(row: tuple) -> StoredSession:
    """The session of a row read as :data:`_COLUMNS` lists them."""
    (id_, game, document, result, complete, origin, source, played_on,
     created_at, updated_at, completed_at, token_hash) = row
    return StoredSession(id=id_, game=game, document=json.loads(document), result=json.loads(result),
                         complete=bool(complete), origin=origin, source=source, played_on=played_on,
                         created_at=created_at, updated_at=updated_at, completed_at=completed_at,
                         token_hash=token_hash)


def load(connection, session_id: str) -> StoredSession:
    """The session as stored, read in the caller's transaction; UnknownSession if there is none."""
    row = connection.execute(f"SELECT {_COLUMNS} FROM sessions WHERE id = ?", (session_id,)).fetchone()
    if row is None:
        raise UnknownSession(session_id)
    return from_row(row)


def get_session(db: Database, session_id: str) -> StoredSession:
    """The stored session; UnknownSession if there is none with this id."""
    with db.read() as connection:
        return load(connection, session_id)


def waiting_rows(connection, session_id: str) -> dict[int, dict[str, object]]:
    """Every row waiting beside the session's document, by day or round number, then key."""
    rows: dict[int, dict[str, object]] = {}
    for number, key, body in connection.execute(
            "SELECT number, key, body FROM parts WHERE session_id = ? ORDER BY number, key", (session_id,)):
        rows.setdefault(number, {})[key] = json.loads(body)
    return rows


def row_list(rows: Rows) -> list:
    """Waiting rows as a list of [number, key, body], as a change keeps them to put them back."""
    return [[number, key, body] for number, own in sorted(rows.items()) for key, body in sorted(own.items())]


def put_back_rows(connection, session_id: str, listed: list, now: str) -> None:
    """Replace every row waiting beside the session by ``listed`` (from :func:`row_list`)."""
    connection.execute("DELETE FROM parts WHERE session_id = ?", (session_id,))
    for number, key, body in listed:
        connection.execute("INSERT INTO parts (session_id, number, key, body, updated_at) VALUES (?, ?, ?, ?, ?)",
                           (session_id, number, key, json.dumps(body, ensure_ascii=False), now))


#: Sessions (``{where}``: a condition, or nothing), the most recently played first (by date, then by when
#: they were started); undated sessions imported together keep the order they were imported in, newest
#: first.  Read through the index ``sessions_listed``, so that a page of them is read without a sort.
LISTED = (f"SELECT {_COLUMNS} FROM sessions{{where}} "
          "ORDER BY coalesce(played_on, substr(created_at, 1, 10)) DESC, created_at DESC, rowid DESC")


def list_sessions(db: Database, game: str | None = None) -> list[StoredSession]:
    """Every stored session (of ``game``), the most recently played first."""
    where, params = ("", ()) if game is None else (" WHERE game = ?", (game,))
    with db.read() as connection:
        return [from_row(row) for row in connection.execute(LISTED.format(where=where), params)]


# -- writing -----------------------------------------------------------------


def _new_id(connection) -> str:
    while True:
        candidate = secrets.token_urlsafe(6)
        if connection.execute("SELECT 1 FROM sessions WHERE id = ?", (candidate,)).fetchone() is None:
            return candidate


def _insert(connection, document: dict, scored_as: Scored, *, origin: str, now: str,
            source: str | None = None, token_hash_for: Callable[[str], str] | None = None) -> str:
    """Add a session row (``origin``: ``table`` or ``import``) and count it in the club; its new id."""
    result, complete, sides = scored_as
    session_id = _new_id(connection)
    connection.execute(
        f"INSERT INTO sessions ({_COLUMNS}, fingerprint) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (session_id, document["game"], json.dumps(document, ensure_ascii=False),
         json.dumps(result, ensure_ascii=False), int(complete), origin, source, session_date(document),
         now, now, now if complete else None, token_hash_for(session_id) if token_hash_for else None,
         fingerprint(document)),
    )
    if complete:
        _count_in_club(connection, load(connection, session_id), sides, now)
    return session_id


def create_session(db: Database, document: dict, token_hash_for: Callable[[str], str]) -> StoredSession:
    """Store a new session started at a table; Refused if the document breaks a rule.

    ``token_hash_for(id)`` gives the stored hash of the new session's token.
    """
    document = json_document(document)
    too_long = long_names(document.get("players"))
    if too_long:
        raise Refused(too_long)
    scored_as = scored(document)
    now = now_text()
    with db.write() as connection:
        session_id = _insert(connection, document, scored_as, origin="table", now=now, token_hash_for=token_hash_for)
        return load(connection, session_id)


def save(connection, stored: StoredSession, document: dict) -> StoredSession:
    """Store ``document`` as the session's, in the caller's transaction; Refused if it breaks a rule.

    The club's figures follow in the same transaction: a correction or an undo changes every figure
    the session counted for.
    """
    result, complete, sides = scored(document)
    now = now_text()
    completed_at = stored.completed_at or (now if complete else None)
    connection.execute(
        "UPDATE sessions SET document = ?, result = ?, complete = ?, fingerprint = ?, played_on = ?, "
        "updated_at = ?, completed_at = ? WHERE id = ?",
        (json.dumps(document, ensure_ascii=False), json.dumps(result, ensure_ascii=False), int(complete),
         fingerprint(document), session_date(document), now, completed_at if complete else None, stored.id),
    )
    saved = load(connection, stored.id)
    _count_in_club(connection, saved, sides, now)
    return saved


def touch(connection, session_id: str, now: str) -> None:
    """Mark the session changed (what waits beside it did) without changing its document."""
    connection.execute("UPDATE sessions SET updated_at = ? WHERE id = ?", (now, session_id))


class Imported(NamedTuple):
    source: str
    session_id: str
    new: bool  # False: the same session was already in the history


def import_documents(db: Database, documents: Iterable[tuple[str, object]]) -> list[Imported]:
    """Put checked session files into the history, all in one transaction.

    ``documents`` is (where it came from, the raw session).  Refused for the
    first one that breaks a rule (nothing is imported then); a session already
    in the history (same content) is not added twice.
    """
    prepared = []
    for source, raw in documents:
        document = json_document(raw)
        prepared.append((source, document, scored(document)))
    done = []
    now = now_text()
    with db.write() as connection:
        for source, document, scored_as in prepared:
            mark = fingerprint(document)
            found = connection.execute("SELECT id FROM sessions WHERE fingerprint = ?", (mark,)).fetchone()
            if found is not None:
                done.append(Imported(source, found[0], False))
                continue
            session_id = _insert(connection, document, scored_as, origin="import", now=now, source=source)
            done.append(Imported(source, session_id, True))
    return done
