"""Sessions kept in the database: started, entered day by day, imported, listed.

Each stored session is a session file (the ``document``) that ``pnp score
check`` accepts: every change is checked by the scoring package inside the
write transaction that stores it, and refused whole when it breaks a rule.

Nothing here names a game: where a game keeps its days or rounds (``days``,
``rounds``, or a single outcome at the top level) and how many it has come
from its rules (:func:`scoring.find_rules`).
"""

from __future__ import annotations

import copy
import datetime
import hashlib
import json
import secrets
from typing import Callable, Iterable, NamedTuple

from scoring import (
    Common,
    NothingToEnter,
    Problem,
    ProblemCode,
    Term,
    Value,
    check_session,
    find_rules,
    new_session,
    score_session,
    session_date,
)
from scoring.report import result_json

from pnp.web import entry
from pnp.web.db import Database
from pnp.web.entry import Refused


class WebProblem(ProblemCode):
    """Problems only a change sent to the server can have (messages under ``web.problem.``)."""

    FIXED_KEY = "fixed_key"


class Closed(Exception):
    """The session has nothing left to enter (every day is in, or its outcome is); ``reason`` says why."""

    def __init__(self, reason) -> None:
        self.reason = reason
        super().__init__(reason.key)


class OutOfTurn(Exception):
    """A day or round other than the one being entered (``expected``) was sent."""

    def __init__(self, number: int, expected: int) -> None:
        self.number = number
        self.expected = expected
        super().__init__(f"round {number} sent, round {expected} expected")


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


class RoundStatus(NamedTuple):
    """Where a day or round stands: committed, or what has been sent of it and what the whole day breaks.

    ``round`` holds the round's own answers so far (session-file form) and
    ``unanswered`` the ids of its questions still open (who plays blue...).
    """

    number: int
    committed: bool
    entered: tuple[str, ...]
    missing: tuple[str, ...]
    problems: tuple[Problem, ...]
    unanswered: tuple[str, ...] = ()
    round: dict = {}


# -- documents ---------------------------------------------------------------

#: What a session is about; an outcome entered later cannot change them.
FIXED_KEYS = ("game", "players")


def now_text() -> str:
    """The time now, UTC, as stored (2026-11-22T19:04:05+00:00)."""
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


def rounds_key(game: str) -> str | None:
    """The document key that lists the days or rounds (None: the game records one outcome)."""
    return find_rules(game).rounds_key


def rounds_in_game(game: str) -> int:
    """How many days or rounds a whole session has (1 for a game with a single outcome)."""
    return find_rules(game).rounds or 1


def rounds_entered(document: dict, complete: bool) -> int:
    """Days or rounds committed so far (a single-outcome game: 1 once its outcome is in)."""
    key = rounds_key(document["game"])
    if key is None:
        return 1 if complete else 0
    listed = document.get(key, [])
    return len(listed) if isinstance(listed, list) else 0


def with_round(document: dict, number: int, body: object) -> dict:
    """A copy of ``document`` whose ``number``-th day or round is ``body`` (as in a session file)."""
    updated = copy.deepcopy(document)
    key = rounds_key(document["game"])
    if key is None:
        if not isinstance(body, dict):
            raise Refused([Problem(Common.WRONG_TYPE, round=number, params={
                "expected": Term("type", "table"), "found": Value(body)})])
        fixed = [name for name in body if name in FIXED_KEYS]
        if fixed:
            raise Refused([Problem(WebProblem.FIXED_KEY, round=number, key=name) for name in fixed])
        updated.update(copy.deepcopy(body))
        return updated
    listed = list(updated.get(key, []))
    if number <= len(listed):
        listed[number - 1] = copy.deepcopy(body)
    else:
        listed.append(copy.deepcopy(body))
    updated[key] = listed
    return updated


def scored(document: dict) -> tuple[dict, bool]:
    """The check --json object of a document that must pass every check, and whether it is complete."""
    checked = check_session(document)
    if checked.problems:
        raise Refused(checked.problems)
    result = result_json(score_session(checked.session))
    return result, bool(result["complete"])


def start_document(game: object, players: object, lang: object = None, extra: dict | None = None,
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


# -- reading -----------------------------------------------------------------

_COLUMNS = ("id, game, document, result, complete, origin, source, played_on, "
            "created_at, updated_at, completed_at, token_hash")


def _stored(row: tuple) -> StoredSession:
    (id_, game, document, result, complete, origin, source, played_on,
     created_at, updated_at, completed_at, token_hash) = row
    return StoredSession(id_, game, json.loads(document), json.loads(result), bool(complete), origin,
                         source, played_on, created_at, updated_at, completed_at, token_hash)


def _load(connection, session_id: str) -> StoredSession:
    row = connection.execute(f"SELECT {_COLUMNS} FROM sessions WHERE id = ?", (session_id,)).fetchone()
    if row is None:
        raise UnknownSession(session_id)
    return _stored(row)


def get_session(db: Database, session_id: str) -> StoredSession:
    """The stored session; UnknownSession if there is none with this id."""
    with db.read() as connection:
        return _load(connection, session_id)


def _parts(connection, session_id: str, number: int) -> dict[str, object]:
    rows = connection.execute(
        "SELECT key, body FROM parts WHERE session_id = ? AND number = ?", (session_id, number))
    return {key: json.loads(body) for key, body in rows}


def waiting_parts(db: Database, session_id: str, number: int) -> dict[str, object]:
    """What has been sent of day or round ``number`` and not committed: by player (the round's own under "")."""
    with db.read() as connection:
        return _parts(connection, session_id, number)


def round_status(db: Database, session_id: str, number: int) -> RoundStatus:
    """Where day or round ``number`` stands (committed, or who has sent their part)."""
    with db.read() as connection:
        stored = _load(connection, session_id)
        parts = _parts(connection, session_id, number)
    return _status(stored, number, parts)


def _status(stored: StoredSession, number: int, waiting: dict[str, object]) -> RoundStatus:
    entered_so_far = rounds_entered(stored.document, stored.complete)
    if number <= entered_so_far:
        return RoundStatus(number, True, tuple(stored.players), (), ())
    form = entry.form_for(stored.document) if number == entered_so_far + 1 else None
    if form is None:
        return RoundStatus(number, False, (), (), ())
    round_part = waiting.get(entry.ROUND_KEY, {})
    parts = {key: body for key, body in waiting.items() if key != entry.ROUND_KEY}
    answers = entry.answers_of(form.round, round_part)
    open_questions = tuple(question.id for question in entry.unanswered(form.round, answers))
    whole = entry.whole_round(form, round_part, parts)
    problems: tuple[Problem, ...] = ()
    if whole is not None:
        problems = check_session(with_round(stored.document, number, whole)).problems
    return RoundStatus(number, False, tuple(p for p in form.players if p in parts),
                       tuple(p for p in form.players if p not in parts), problems, open_questions, round_part)


# -- writing -----------------------------------------------------------------


def _new_id(connection) -> str:
    while True:
        candidate = secrets.token_urlsafe(6)
        if connection.execute("SELECT 1 FROM sessions WHERE id = ?", (candidate,)).fetchone() is None:
            return candidate


def create_session(db: Database, document: dict, token_hash_for: Callable[[str], str]) -> StoredSession:
    """Store a new session started at a table; Refused if the document breaks a rule.

    ``token_hash_for(id)`` gives the stored hash of the new session's token.
    """
    document = json_document(document)
    result, complete = scored(document)
    now = now_text()
    with db.write() as connection:
        session_id = _new_id(connection)
        token_hash = token_hash_for(session_id)
        connection.execute(
            f"INSERT INTO sessions ({_COLUMNS}, fingerprint) "
            "VALUES (?, ?, ?, ?, ?, 'table', NULL, ?, ?, ?, ?, ?, ?)",
            (session_id, document["game"], json.dumps(document, ensure_ascii=False),
             json.dumps(result, ensure_ascii=False), int(complete), session_date(document),
             now, now, now if complete else None, token_hash, fingerprint(document)),
        )
        return _load(connection, session_id)


def _save(connection, stored: StoredSession, document: dict) -> StoredSession:
    result, complete = scored(document)
    now = now_text()
    completed_at = stored.completed_at or (now if complete else None)
    connection.execute(
        "UPDATE sessions SET document = ?, result = ?, complete = ?, fingerprint = ?, played_on = ?, "
        "updated_at = ?, completed_at = ? WHERE id = ?",
        (json.dumps(document, ensure_ascii=False), json.dumps(result, ensure_ascii=False), int(complete),
         fingerprint(document), session_date(document), now, completed_at if complete else None, stored.id),
    )
    return _load(connection, stored.id)


def put_round(db: Database, session_id: str, number: int, body: object) -> StoredSession:
    """Store day or round ``number`` whole (a new one, or a correction of one entered).

    The whole session is checked with it; Refused (nothing stored) if anything
    breaks a rule, OutOfTurn if an earlier day or round is still missing.
    """
    with db.write() as connection:
        stored = _load(connection, session_id)
        expected = rounds_entered(stored.document, stored.complete) + 1
        if number > expected or number < 1:
            raise OutOfTurn(number, expected)
        saved = _save(connection, stored, with_round(stored.document, number, json_document(body)))
        connection.execute("DELETE FROM parts WHERE session_id = ? AND number = ?", (session_id, number))
        return saved


def add_parts(db: Database, session_id: str, number: int, body: object) -> tuple[StoredSession, RoundStatus]:
    """Keep what some players sent of the day or round being entered; commit it once complete and valid.

    ``body`` is part of the day in session-file form: players' parts (each
    under its player's name, where the game's entry form puts them) and
    answers about the whole round.  What breaks a rule on its own is Refused
    (nothing stored); parts sent at the same time from different phones are
    all kept (each is its own row).  When every player's part and every answer
    is in, the whole day is checked: it moves into the session if it passes,
    and otherwise waits with its problems for the players to correct it.
    """
    with db.write() as connection:
        stored = _load(connection, session_id)
        expected = rounds_entered(stored.document, stored.complete) + 1
        form = entry.form_for(stored.document)
        if form is None:
            checked = check_session(stored.document)
            try:
                checked.rules.entry_form(checked.session)
            except NothingToEnter as closed:
                raise Closed(closed.reason) from None
        if number != expected:
            raise OutOfTurn(number, expected)
        sent = entry.split(form, json_document(body), number)
        waiting = _parts(connection, session_id, number)
        round_part = entry.merged_round(waiting.get(entry.ROUND_KEY, {}), sent.round)
        if sent.round:
            problems = entry.check_round_part(form, round_part, number)
            if problems:
                raise Refused(problems)
        if sent.parts:
            start = entry.round_start(form, round_part)
            if start is None:
                raise Refused(entry.missing_round_answer(form, round_part, number))
            own = [problem for player, part in sent.parts.items() for problem in form.check_part(player, part, start)]
            if own:
                raise Refused(own)
        now = now_text()
        rows = dict(sent.parts)
        if sent.round:
            rows[entry.ROUND_KEY] = round_part
        for key, part in rows.items():
            connection.execute(
                "INSERT INTO parts (session_id, number, key, body, updated_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (session_id, number, key) DO UPDATE SET body = excluded.body, "
                "updated_at = excluded.updated_at",
                (session_id, number, key, json.dumps(part, ensure_ascii=False), now),
            )
        waiting = _parts(connection, session_id, number)
        parts = {key: part for key, part in waiting.items() if key != entry.ROUND_KEY}
        whole = entry.whole_round(form, waiting.get(entry.ROUND_KEY, {}), parts)
        if whole is not None:
            try:
                saved = _save(connection, stored, with_round(stored.document, number, whole))
            except Refused:
                pass  # the whole day does not add up yet: it waits, its problems in the status
            else:
                connection.execute("DELETE FROM parts WHERE session_id = ? AND number = ?", (session_id, number))
                return saved, RoundStatus(number, True, tuple(stored.players), (), ())
        connection.execute("UPDATE sessions SET updated_at = ? WHERE id = ?", (now, session_id))
        return _load(connection, session_id), _status(stored, number, waiting)


# -- history -----------------------------------------------------------------


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
        result, complete = scored(document)
        prepared.append((source, document, result, complete))
    done = []
    now = now_text()
    with db.write() as connection:
        for source, document, result, complete in prepared:
            mark = fingerprint(document)
            found = connection.execute("SELECT id FROM sessions WHERE fingerprint = ?", (mark,)).fetchone()
            if found is not None:
                done.append(Imported(source, found[0], False))
                continue
            session_id = _new_id(connection)
            connection.execute(
                f"INSERT INTO sessions ({_COLUMNS}, fingerprint) "
                "VALUES (?, ?, ?, ?, ?, 'import', ?, ?, ?, ?, ?, NULL, ?)",
                (session_id, document["game"], json.dumps(document, ensure_ascii=False),
                 json.dumps(result, ensure_ascii=False), int(complete), source, session_date(document),
                 now, now, now if complete else None, mark),
            )
            done.append(Imported(source, session_id, True))
    return done


def list_sessions(db: Database, game: str | None = None) -> list[StoredSession]:
    """Every stored session, the most recently played first (by date, then by when it was started)."""
    query = f"SELECT {_COLUMNS} FROM sessions"
    params: tuple = ()
    if game is not None:
        query += " WHERE game = ?"
        params = (game,)
    # Undated sessions imported together keep the order they were imported in, newest first.
    query += " ORDER BY coalesce(played_on, substr(created_at, 1, 10)) DESC, created_at DESC, rowid DESC"
    with db.read() as connection:
        return [_stored(row) for row in connection.execute(query, params)]


class PlayerRecord(NamedTuple):
    """One player's sessions of one game: how many finished, won, and their totals."""

    name: str
    played: int
    won: int
    totals: tuple[int, ...]  # oldest first; empty for a game without points

    @property
    def average(self) -> float | None:
        return sum(self.totals) / len(self.totals) if self.totals else None

    @property
    def best(self) -> int | None:
        return max(self.totals) if self.totals else None


def player_records(sessions: Iterable[StoredSession]) -> dict[str, list[PlayerRecord]]:
    """Per game, every player's finished sessions, wins and totals; most wins first."""
    tally: dict[str, dict[str, dict]] = {}
    for stored in sorted(sessions, key=lambda s: (s.played_on or s.created_at[:10], s.created_at)):
        if not stored.complete:
            continue
        game = tally.setdefault(stored.game, {})
        for player in stored.result["players"]:
            record = game.setdefault(player, {"played": 0, "won": 0, "totals": []})
            record["played"] += 1
            record["won"] += player in stored.result["winners"]
            if player in stored.result["totals"]:
                record["totals"].append(stored.result["totals"][player])
    records = {}
    for game, players in tally.items():
        rows = [PlayerRecord(name, r["played"], r["won"], tuple(r["totals"])) for name, r in players.items()]
        rows.sort(key=lambda r: (-r.won, -(r.average or 0), r.name))
        records[game] = rows
    return records


def history_json(sessions: list[StoredSession]) -> dict:
    """The history as ``pnp score history --json`` prints it: every session, then per game every player."""
    records = player_records(sessions)
    return {
        "sessions": [
            {"id": s.id, "game": s.game, "date": s.played_on, "origin": s.origin, "source": s.source,
             "complete": s.complete, "players": s.players, "totals": s.result["totals"],
             "winners": s.result["winners"], "tie_break": s.result["tie_break"]}
            for s in sessions
        ],
        "players": {
            game: [{"name": r.name, "played": r.played, "won": r.won,
                    "average": None if r.average is None else round(r.average, 2), "best": r.best}
                   for r in rows]
            for game, rows in records.items()
        },
    }


# -- settings ----------------------------------------------------------------


def server_secret(db: Database) -> bytes:
    """The key CSRF and read-only links are signed with, made once per data folder."""
    with db.write() as connection:
        row = connection.execute("SELECT value FROM settings WHERE name = 'secret'").fetchone()
        if row is None:
            value = secrets.token_hex(32)
            connection.execute("INSERT INTO settings (name, value) VALUES ('secret', ?)", (value,))
        else:
            value = row[0]
    return bytes.fromhex(value)
