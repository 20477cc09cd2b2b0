"""Sessions kept in the database: started, entered day by day, corrected, imported, listed.

Each stored session is a session file (the ``document``) that ``pnp score
check`` accepts: every change is checked by the scoring package inside the
write transaction that stores it, and refused whole when it breaks a rule.
What waits beside it (parts of the day being entered, corrections of a day
already in) is described in :mod:`pnp.web.rounds`.  Every change is kept in
the session's history (``changes``: who, when, what it was and became), and
the last one can be undone.

Nothing here names a game: where a game keeps its days or rounds (``days``,
``rounds``, or a single outcome at the top level) and how many it has come
from its rules (:func:`scoring.find_rules`).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import secrets
from typing import Callable, Iterable, NamedTuple

from scoring import (
    NothingToEnter,
    Problem,
    check_session,
    find_rules,
    new_session,
    score_session,
    session_date,
)
from scoring.report import result_json
from scoring.terms import label

from pnp.web import entry
from pnp.web.db import Database
from pnp.web.entry import Refused, WebProblem
from pnp.web.rounds import (  # the pages read rounds_key, rounds_in_game and UnknownRound from here too
    RoundState,
    Rows,
    UnknownRound,
    committed_round,
    corrected_document,
    correction_problems,
    form_version,
    round_state,
    rounds_entered,
    rounds_in_game,
    rounds_key,
    state_hash,
    with_round,
)


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

    ``round`` holds the round's own answers (session-file form) and
    ``unanswered`` the ids of its questions still open (who plays blue...);
    ``parts`` each player's part as stored.  For a committed day,
    ``corrections`` holds the corrections waiting to be applied (by player,
    the round's own under ``""``) and ``problems`` what keeps them out.
    """

    number: int
    committed: bool
    entered: tuple[str, ...]
    missing: tuple[str, ...]
    problems: tuple[Problem, ...]
    unanswered: tuple[str, ...] = ()
    round: dict = {}
    parts: dict = {}
    corrections: dict = {}


class Stale(Exception):
    """The version a change was made against is not the one stored: someone changed it meanwhile."""


class Forbidden(Exception):
    """This phone may not make that change: another phone speaks for the player (``player``), or
    the change is a committed day's own answers and this phone speaks for no player (``player`` None)."""

    def __init__(self, player: str | None) -> None:
        self.player = player
        super().__init__(player or "round")


class NothingToUndo(Exception):
    """The change asked to be undone is not the last one (or there is none left)."""


class Actor(NamedTuple):
    """Who makes a change: the organiser, a script through the API, or a phone at the table.

    A phone is known by its device key (a cookie); it speaks for the players whose
    parts it sent first, and only for them.
    """

    kind: str  # "organiser", "api" or "phone"
    device: str | None = None


ORGANISER = Actor("organiser")
API = Actor("api")


# -- documents ---------------------------------------------------------------

#: What a session is about; an outcome entered later cannot change them.
FIXED_KEYS = ("game", "players")
#: The longest player name a table takes: it fits a phone's list, a scoresheet's box and a BG Stats code.
MAX_NAME = 40


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


def long_names(players: object) -> list[Problem]:
    """A problem per player name longer than :data:`MAX_NAME` characters."""
    if not isinstance(players, list):
        return []
    return [Problem(WebProblem.NAME_TOO_LONG, key="players", params={
                "position": position, "count": len(name), "limit": MAX_NAME})
            for position, name in enumerate(players, start=1) if isinstance(name, str) and len(name) > MAX_NAME]


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


def _rows(connection, session_id: str) -> dict[int, dict[str, object]]:
    """Every row waiting beside the session's document, by day or round number, then key."""
    rows: dict[int, dict[str, object]] = {}
    for number, key, body in connection.execute(
            "SELECT number, key, body FROM parts WHERE session_id = ? ORDER BY number, key", (session_id,)):
        rows.setdefault(number, {})[key] = json.loads(body)
    return rows


def _claims(connection, session_id: str) -> dict[str, str]:
    """Which phone (device hash) speaks for each player who has one."""
    return dict(connection.execute("SELECT player, device_hash FROM claims WHERE session_id = ?", (session_id,)))


class RoundView(NamedTuple):
    """A day or round as a page or the API shows it: what is stored, where it stands, its version.

    ``etag`` is the state hash the HTTP ``ETag`` is made of; ``claims`` names the
    phone that speaks for each player.
    """

    stored: StoredSession
    state: RoundState
    status: RoundStatus
    etag: str
    claims: dict[str, str]

    def version(self, player: str | None) -> str:
        """What a page's form about this round (and ``player``'s part) carries."""
        return form_version(self.state, player)


def round_view(db: Database, session_id: str, number: int) -> RoundView:
    """Day or round ``number`` of a session; UnknownSession, or UnknownRound outside the game's."""
    with db.read() as connection:
        stored = _load(connection, session_id)
        rows = _rows(connection, session_id)
        claims = _claims(connection, session_id)
    state = round_state(stored.document, stored.complete, rows, number)
    return RoundView(stored, state, _status(stored, rows, state), state_hash(stored.document, rows), claims)


def round_status(db: Database, session_id: str, number: int) -> RoundStatus:
    """Where day or round ``number`` stands (committed, or who has sent their part)."""
    return round_view(db, session_id, number).status


def corrections_waiting(db: Database, session_id: str) -> tuple[list[int], tuple[Problem, ...]]:
    """The committed days or rounds with corrections waiting, and the problems that keep them out."""
    with db.read() as connection:
        stored = _load(connection, session_id)
        rows = _rows(connection, session_id)
    entered = rounds_entered(stored.document, stored.complete)
    numbers = sorted(number for number, own in rows.items() if own and number <= entered)
    if not numbers:
        return [], ()
    return numbers, correction_problems(stored.document, stored.complete, rows)


def _status(stored: StoredSession, rows: Rows, state: RoundState) -> RoundStatus:
    form = state.form
    if state.committed:
        entered = rounds_entered(stored.document, stored.complete)
        problems: tuple[Problem, ...] = ()
        if any(own for number, own in rows.items() if number <= entered):
            problems = correction_problems(stored.document, stored.complete, rows)
        return RoundStatus(state.number, True, tuple(stored.players), (), problems, (), state.saved_round,
                           state.saved_parts, dict(state.rows))
    if form is None:
        return RoundStatus(state.number, False, (), (), ())
    round_part, parts = state.round_part, state.parts
    answers = entry.answers_of(form.round, round_part)
    open_questions = tuple(question.id for question in entry.unanswered(form.round, answers))
    whole = entry.whole_round(form, round_part, parts)
    problems = ()
    if whole is not None:
        problems = check_session(with_round(stored.document, state.number, whole)).problems
    elif form.round.questions and state.start() is not None:
        # A part was checked against the round's answers as they stood when it was sent;
        # an answer changed since (who plays blue) may make it impossible now.
        start = state.start()
        problems = tuple(problem for player, part in parts.items() if player in form.players
                         for problem in form.check_part(player, part, start))
    return RoundStatus(state.number, False, tuple(p for p in form.players if p in parts),
                       tuple(p for p in form.players if p not in parts), problems, open_questions, round_part, parts)


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
    too_long = long_names(document.get("players"))
    if too_long:
        raise Refused(too_long)
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


def _check_version(stored: StoredSession, rows: Rows, state: RoundState,
                   version: tuple[str, str | None] | None, if_match: frozenset[str] | None) -> None:
    """Stale unless the change was made against what is stored now.

    ``version`` is a page's (what its form showed, for which player); ``if_match``
    the state hashes an ``If-Match`` header names (``*``: any).
    """
    if version is not None and version[0] != form_version(state, version[1]):
        raise Stale()
    if if_match is not None and "*" not in if_match and state_hash(stored.document, rows) not in if_match:
        raise Stale()


def _closed(document: dict) -> Closed:
    """Why nothing can be entered in ``document``, from its rules."""
    checked = check_session(document)
    try:
        checked.rules.entry_form(checked.session)
    except NothingToEnter as closed:
        return Closed(closed.reason)
    return Closed(label(f"{checked.rules.round_word}.complete", total=checked.rules.rounds))


def _allow(connection, session_id: str, state: RoundState, sent: entry.Split, actor: Actor,
           claims: dict[str, str]) -> None:
    """Forbidden unless ``actor`` may make this change; a phone then speaks for the players it sent first.

    The organiser and the API may change anything.  A phone may send the part
    of a player no other phone speaks for (it then speaks for them) and the
    answers of the day being entered; a committed day's own answers (who
    played blue) need a phone that speaks for a player, in a game where
    players enter parts.
    """
    if actor.kind != "phone":
        return
    for player in sent.parts:
        holder = claims.get(player)
        if holder is not None and holder != actor.device:
            raise Forbidden(player)
    mine = {player for player, device in claims.items() if device == actor.device} | set(sent.parts)
    if sent.round and state.committed and state.form.players and not mine:
        raise Forbidden(None)
    if actor.device is None:
        return
    for player in sent.parts:
        if player not in claims:
            connection.execute("INSERT INTO claims (session_id, player, device_hash, claimed_at) VALUES (?, ?, ?, ?)",
                               (session_id, player, actor.device, now_text()))
            claims[player] = actor.device


def _row_list(rows: Rows) -> list:
    return [[number, key, body] for number, own in sorted(rows.items()) for key, body in sorted(own.items())]


def _record(connection, session_id: str, number: int, actor: Actor, action: str, before: dict, after: dict,
            outcome: str, restore: dict, claims: dict[str, str], undoes: int | None = None) -> int:
    """Keep one change in the session's history: who, when, what it was and became, and how to undo it."""
    names = sorted(player for player, device in claims.items() if actor.kind == "phone" and device == actor.device)
    cursor = connection.execute(
        "INSERT INTO changes (session_id, at, actor, actor_names, device_hash, number, action, before, after, "
        "outcome, restore, undoes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (session_id, now_text(), actor.kind, json.dumps(names, ensure_ascii=False), actor.device, number, action,
         json.dumps(before, ensure_ascii=False), json.dumps(after, ensure_ascii=False), outcome,
         json.dumps(restore, ensure_ascii=False), undoes))
    return cursor.lastrowid


def send(db: Database, session_id: str, number: int, body: object, actor: Actor = API,
         version: tuple[str, str | None] | None = None,
         if_match: frozenset[str] | None = None) -> RoundView:
    """Keep what was sent of day or round ``number``: some players' parts and the round's own answers.

    ``body`` is part of the day in session-file form (each part under its
    player's name, where the game's entry form puts them; answers about the
    whole round beside them).  What breaks a rule on its own is Refused
    (nothing stored); parts sent at the same time from different phones are all
    kept (each is its own row).

    For the day being entered: once every part and answer is in, the whole day
    is checked and committed if it passes; otherwise it waits, with its
    problems, for a player to correct their part.  For a day already committed
    it is a correction: every waiting correction is applied when the whole
    session passes with them, and waits otherwise.

    Stale if ``version`` or ``if_match`` is not what is stored now; Forbidden if
    ``actor`` may not change a part sent; OutOfTurn for a day after the one
    being entered, Closed when nothing is left to enter, UnknownRound outside
    the game.  Every change is kept in the session's history.  Returns the day
    as this change left it (another phone's change a moment later is not in it).
    """
    with db.write() as connection:
        stored = _load(connection, session_id)
        rows = _rows(connection, session_id)
        claims = _claims(connection, session_id)
        state = round_state(stored.document, stored.complete, rows, number)
        _check_version(stored, rows, state, version, if_match)
        sent, round_part = _checked_alone(stored, state, number, body)
        _allow(connection, session_id, state, sent, actor, claims)
        shown, changed = _changes_sent(state, sent, round_part)
        if not changed:
            return RoundView(stored, state, _status(stored, rows, state), state_hash(stored.document, rows), claims)
        now = now_text()
        for key, value in changed.items():
            connection.execute(
                "INSERT INTO parts (session_id, number, key, body, updated_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (session_id, number, key) DO UPDATE SET body = excluded.body, "
                "updated_at = excluded.updated_at",
                (session_id, number, key, json.dumps(value, ensure_ascii=False), now))
        kept = _rows(connection, session_id)
        outcome, replaced = _commit_if_whole(connection, stored, state, kept)
        _record(connection, session_id, number, actor, "correct" if state.committed else "enter",
                {key: shown.get(key) for key in changed}, changed, outcome,
                {"document": replaced, "parts": _row_list(rows)}, claims)
        return _left_by_send(connection, stored, state, kept, outcome, now, claims)


def _left_by_send(connection, stored: StoredSession, state: RoundState, kept: Rows, outcome: str, now: str,
                  claims: dict[str, str]) -> RoundView:
    """The day as a change sent to it left it; the session marked changed when nothing was committed."""
    if outcome in ("waiting", "staged"):
        connection.execute("UPDATE sessions SET updated_at = ? WHERE id = ?", (now, stored.id))
    if outcome == "waiting":
        # Still the day being entered, the document as it was: its form is the one it was checked with.
        stored = stored._replace(updated_at=now)
        state = state._replace(rows=dict(kept.get(state.number, {})))
    else:
        stored = _load(connection, stored.id)
        kept = _rows(connection, stored.id)
        state = round_state(stored.document, stored.complete, kept, state.number)
    return RoundView(stored, state, _status(stored, kept, state), state_hash(stored.document, kept), claims)


def _checked_alone(stored: StoredSession, state: RoundState, number: int, body: object) -> tuple[entry.Split, dict]:
    """What ``body`` sends of the day, and the round's own answers with it; Refused if it breaks a rule on its own.

    The round's answers are checked together with those already in; each part
    against its player's questions, which the round's answers decide.  Closed
    or OutOfTurn when the day has no form to send to.
    """
    form = state.form
    if form is None:
        entered = rounds_entered(stored.document, stored.complete)
        if state.committed or number == entered + 1:
            raise _closed(stored.document)
        raise OutOfTurn(number, entered + 1)
    sent = entry.split(form, json_document(body), number)
    round_part = entry.merged_round(state.round_part, sent.round)
    if sent.round:
        problems = entry.check_round_part(form, round_part, number)
        if problems:
            raise Refused(problems)
    start = entry.round_start(form, round_part)
    if sent.parts:
        if start is None:
            raise Refused(entry.missing_round_answer(form, round_part, number))
        own = [problem for player, part in sent.parts.items() for problem in form.check_part(player, part, start)]
        if own:
            raise Refused(own)
    return sent, round_part


def _changes_sent(state: RoundState, sent: entry.Split, round_part: dict) -> tuple[dict, dict]:
    """What the day showed before (by key: each player, the round's own answers under "") and what ``sent`` changes."""
    units = dict(sent.parts)
    if sent.round:
        units[entry.ROUND_KEY] = round_part
    shown = {entry.ROUND_KEY: state.round_part if state.committed or entry.ROUND_KEY in state.rows else None,
             **state.parts}
    return shown, {key: value for key, value in units.items() if shown.get(key) != value}


def _commit_if_whole(connection, stored: StoredSession, state: RoundState, kept: Rows) -> tuple[str, dict | None]:
    """Commit what waits, if it passes: the day being entered once it is whole, or a committed day's corrections.

    Returns the outcome (``committed``, ``waiting``, ``applied``, ``staged``) and,
    when the document changed, the document it replaced (for undo).
    """
    number = state.number
    if not state.committed:
        own = kept.get(number, {})
        whole = entry.whole_round(state.form, own.get(entry.ROUND_KEY, {}),
                                  {key: part for key, part in own.items() if key != entry.ROUND_KEY})
        if whole is None:
            return "waiting", None
        try:
            _save(connection, stored, with_round(stored.document, number, whole))
        except Refused:
            return "waiting", None  # the whole day does not add up yet: it waits, its problems in the status
        connection.execute("DELETE FROM parts WHERE session_id = ? AND number = ?", (stored.id, number))
        return "committed", stored.document
    corrected = corrected_document(stored.document, stored.complete, kept)
    if check_session(corrected).problems:
        return "staged", None
    _save(connection, stored, corrected)
    entered = rounds_entered(stored.document, stored.complete)
    connection.execute("DELETE FROM parts WHERE session_id = ? AND number <= ?", (stored.id, entered))
    return "applied", stored.document


def _units(state: RoundState, raw: object | None) -> dict:
    """A whole day or round as its parts: the round's own answers under "", each player's part under their name."""
    if raw is None:
        return {}
    try:
        split = entry.split(state.form, raw, state.number)
    except (Refused, AttributeError):
        return {"*": raw}
    return {entry.ROUND_KEY: split.round, **split.parts}


def put_round(db: Database, session_id: str, number: int, body: object, actor: Actor = API,
              if_match: frozenset[str] | None = None) -> RoundView:
    """Store day or round ``number`` whole (a new one, or a correction of one entered).

    The whole session is checked with it; Refused (nothing stored) if anything
    breaks a rule, OutOfTurn if an earlier day or round is still missing, Stale
    if ``if_match`` names another version.  Parts or corrections waiting for
    that day are replaced by it.  Returns the day as this write left it.
    """
    with db.write() as connection:
        stored = _load(connection, session_id)
        rows = _rows(connection, session_id)
        state = round_state(stored.document, stored.complete, rows, number)
        _check_version(stored, rows, state, None, if_match)
        expected = rounds_entered(stored.document, stored.complete) + 1
        if number > expected:
            raise OutOfTurn(number, expected)
        body = json_document(body)
        saved = _save(connection, stored, with_round(stored.document, number, body))
        connection.execute("DELETE FROM parts WHERE session_id = ? AND number = ?", (session_id, number))
        before = _units(state, committed_round(stored.document, number)) if state.committed else dict(state.rows)
        after = _units(state, body)
        changed = {key: value for key, value in after.items() if before.get(key) != value}
        changed |= {key: None for key in before if key not in after}
        claims = _claims(connection, session_id)
        if changed:
            _record(connection, session_id, number, actor, "replace", {key: before.get(key) for key in changed},
                    changed, "committed", {"document": stored.document, "parts": _row_list(rows)}, claims)
        rows = _rows(connection, session_id)
        state = round_state(saved.document, saved.complete, rows, number)
        return RoundView(saved, state, _status(saved, rows, state), state_hash(saved.document, rows), claims)


class Change(NamedTuple):
    """One change of a session's history (newest first in :func:`changes`).

    ``before`` and ``after`` hold each part it changed (by player, the round's
    own answers under ``""``, a whole day that could not be split under
    ``"*"``); None where there was none.
    """

    id: int
    at: str
    actor: str
    names: tuple[str, ...]
    device: str | None
    number: int
    action: str
    before: dict
    after: dict
    outcome: str
    undoes: int | None
    undone_by: int | None

    @property
    def undoable(self) -> bool:
        return self.action != "undo" and self.undone_by is None


def changes(db: Database, session_id: str) -> list[Change]:
    """Every change of the session, the newest first."""
    with db.read() as connection:
        rows = connection.execute(
            "SELECT id, at, actor, actor_names, device_hash, number, action, before, after, outcome, undoes, "
            "undone_by FROM changes WHERE session_id = ? ORDER BY id DESC", (session_id,)).fetchall()
    return [Change(id_, at, actor, tuple(json.loads(names)), device, number, action, json.loads(before),
                   json.loads(after), outcome, undoes, undone_by)
            for id_, at, actor, names, device, number, action, before, after, outcome, undoes, undone_by in rows]


def latest_change(db: Database, session_id: str) -> Change | None:
    """The change an undo would take back (see :func:`last_change`), read alone."""
    with db.read() as connection:
        row = connection.execute(
            "SELECT id, at, actor, actor_names, device_hash, number, action, before, after, outcome, undoes, "
            "undone_by FROM changes WHERE session_id = ? AND action != 'undo' AND undone_by IS NULL "
            "ORDER BY id DESC LIMIT 1", (session_id,)).fetchone()
    if row is None:
        return None
    id_, at, actor, names, device, number, action, before, after, outcome, undoes, undone_by = row
    return Change(id_, at, actor, tuple(json.loads(names)), device, number, action, json.loads(before),
                  json.loads(after), outcome, undoes, undone_by)


def last_change(found: list[Change]) -> Change | None:
    """The change an undo would take back: the newest not undone (undos themselves are not undone)."""
    return next((change for change in found if change.undoable), None)


def may_undo(change: Change, actor: Actor) -> bool:
    """The organiser and the API may undo the last change; a phone, a change it made itself."""
    return actor.kind != "phone" or (actor.device is not None and change.device == actor.device)


def undo(db: Database, session_id: str, change_id: int, actor: Actor = API) -> StoredSession:
    """Take back change ``change_id``, which must be the last one: everything it changed is as it was before.

    NothingToUndo if a newer change was made meanwhile (or it was undone
    already); Forbidden if a phone asks to undo another phone's change.  The
    undo is itself kept in the history.
    """
    with db.write() as connection:
        stored = _load(connection, session_id)
        found = connection.execute(
            "SELECT id, device_hash, number, before, after, restore FROM changes WHERE session_id = ? "
            "AND action != 'undo' AND undone_by IS NULL ORDER BY id DESC LIMIT 1", (session_id,)).fetchone()
        if found is None or found[0] != change_id:
            raise NothingToUndo()
        id_, device, number, before, after, restore = found
        if actor.kind == "phone" and (actor.device is None or device != actor.device):
            raise Forbidden(None)
        restore = json.loads(restore)
        rows = _rows(connection, session_id)
        undo_restore = {"document": None, "parts": _row_list(rows)}
        if restore["document"] is not None:
            _save(connection, stored, restore["document"])
            undo_restore["document"] = stored.document
        connection.execute("DELETE FROM parts WHERE session_id = ?", (session_id,))
        now = now_text()
        for row_number, key, body in restore["parts"]:
            connection.execute("INSERT INTO parts (session_id, number, key, body, updated_at) VALUES (?, ?, ?, ?, ?)",
                               (session_id, row_number, key, json.dumps(body, ensure_ascii=False), now))
        undone = _record(connection, session_id, number, actor, "undo", json.loads(after), json.loads(before),
                         "undone", undo_restore, _claims(connection, session_id), undoes=id_)
        connection.execute("UPDATE changes SET undone_by = ? WHERE id = ?", (undone, id_))
        connection.execute("UPDATE sessions SET updated_at = ? WHERE id = ?", (now, session_id))
        return _load(connection, session_id)


def claims(db: Database, session_id: str) -> dict[str, str]:
    """Which phone (device hash) speaks for each player who has one."""
    with db.read() as connection:
        return _claims(connection, session_id)


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
