"""Days and rounds in the database: where one stands, a part of it sent, the whole of it put, each write checked.

What a day is beside the session's document (parts waiting, corrections) is
:mod:`pnp.web.rounds`; this module reads and writes it in one transaction per
request.  Every change is checked by the scoring package inside the write
transaction that stores it, refused whole when it breaks a rule, and kept in
the session's history (:mod:`pnp.web.changes`).

Nothing here names a game: where a game keeps its days or rounds (``days``,
``rounds``, or a single outcome at the top level) and how many it has come
from its rules (:func:`scoring.find_rules`).
"""

from __future__ import annotations

import json

from scoring import NothingToEnter, Problem, check_session
from scoring.terms import label

from pnp.core.records import NamedTuple
from pnp.web import entry, seats, sessions
from pnp.web.changes import NewChange, changes_since, record
from pnp.web.db import Database
from pnp.web.entry import Refused
from pnp.web.rounds import (
    RoundState,
    Rows,
    committed_round,
    corrected_document,
    correction_problems,
    form_version,
    round_state,
    rounds_entered,
    state_hash,
    with_round,
)
from pnp.web.permissions import Action, Actor, Forbidden, refusal
from pnp.web.sessions import StoredSession


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


class Stale(Exception):
    """The version a change was made against is not the one stored: someone changed it meanwhile."""


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


class RoundView(NamedTuple):
    """A day or round as a page or the API shows it: what is stored, where it stands, its version.

    ``etag`` is the state hash the HTTP ``ETag`` is made of; ``seats`` names the
    key (its hash) that holds each player's seat.
    """

    stored: StoredSession
    state: RoundState
    status: RoundStatus
    etag: str
    seats: dict[str, str]

    def version(self, player: str | None) -> str:
        """What a page's form about this round (and ``player``'s part) carries."""
        return form_version(self.state, player)


def _view(stored: StoredSession, rows: Rows, state: RoundState, seats_now: dict[str, str]) -> RoundView:
    return RoundView(stored=stored, state=state, status=_status(stored, rows, state),
                     etag=state_hash(stored.document, rows), seats=seats_now)


def round_view(db: Database, session_id: str, number: int) -> RoundView:
    """Day or round ``number`` of a session; UnknownSession, or UnknownRound outside the game's."""
    with db.read() as connection:
        stored = sessions.load(connection, session_id)
        rows = sessions.waiting_rows(connection, session_id)
        seats_now = seats.read_seats(connection, session_id)
    state = round_state(stored.document, stored.complete, rows, number)
    return _view(stored, rows, state, seats_now)


def round_status(db: Database, session_id: str, number: int) -> RoundStatus:
    """Where day or round ``number`` stands (committed, or who has sent their part)."""
    return round_view(db, session_id, number).status


def corrections_waiting(db: Database, session_id: str) -> tuple[list[int], tuple[Problem, ...]]:
    """The committed days or rounds with corrections waiting, and the problems that keep them out."""
    with db.read() as connection:
        stored = sessions.load(connection, session_id)
        rows = sessions.waiting_rows(connection, session_id)
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
        return RoundStatus(number=state.number, committed=True, entered=tuple(stored.players), missing=(),
                           problems=problems, round=state.saved_round, parts=state.saved_parts,
                           corrections=dict(state.rows))
    if form is None:
        return RoundStatus(number=state.number, committed=False, entered=(), missing=(), problems=())
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
    return RoundStatus(number=state.number, committed=False, entered=tuple(p for p in form.players if p in parts),
                       missing=tuple(p for p in form.players if p not in parts), problems=problems,
                       unanswered=open_questions, round=round_part, parts=parts)


# -- writing -----------------------------------------------------------------


class Version(NamedTuple):
    """What a change was made against: a page's form version (and its player), or an ``If-Match`` header's tags."""

    form: tuple[str, str | None] | None = None  # what the form showed, for which player
    if_match: frozenset[str] | None = None  # the state hashes named (``*``: any)


def _check_version(connection, stored: StoredSession, state: RoundState, version: Version, *,
                   now: str, keys: set[str]) -> None:
    """Stale unless the change was made against what is stored now, as far as it changes ``keys``.

    A page's form carries what it shows (the round's answers and its player's
    part); an ``If-Match`` header names a version of the whole session (``now``
    is the current one).  Either way, another player's part sent meanwhile does
    not make a write stale: each phone writes its own part.  A change since to
    what the write changes, to the round's own answers (which decide every
    part's questions), to another day, or one that committed, corrected or
    undid something, does.
    """
    if version.form is not None and version.form[0] != form_version(state, version.form[1]):
        raise Stale()
    if version.if_match is None or "*" in version.if_match or now in version.if_match:
        return
    since = changes_since(connection, stored.id, version.if_match)
    if since is None:
        raise Stale()
    for change in since:
        if (change.number != state.number or change.outcome not in ("waiting", "staged")
                or change.keys & (keys | {entry.ROUND_KEY, "*"})):
            raise Stale()


def _closed(document: dict) -> Closed:
    """Why nothing can be entered in ``document``, from its rules."""
    checked = check_session(document)
    try:
        checked.rules.entry_form(checked.session)
    except NothingToEnter as closed:
        return Closed(closed.reason)
    return Closed(label(f"{checked.rules.round_word}.complete", total=checked.rules.rounds))


def send(db: Database, session_id: str, number: int, body: object, *, actor: Actor,
         version: Version = Version()) -> RoundView:
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

    Stale if ``version`` is not what is stored now; Forbidden if ``actor`` may
    not change a part sent; OutOfTurn for a day after the one being entered,
    Closed when nothing is left to enter, UnknownRound outside the game.  Every
    change is kept in the session's history.  Returns the day as this change
    left it (another phone's change a moment later is not in it).
    """
    with db.write() as connection:
        stored, rows, seats_now, state, now_state = _as_stored(connection, session_id, number)
        if version.form is not None:
            _check_version(connection, stored, state, version, now=now_state, keys=set())
        sent = _split(stored, state, number, body)
        keys = set(sent.parts) | ({entry.ROUND_KEY} if sent.round else set())
        _allow(actor, seats_now, keys)
        _check_version(connection, stored, state, version, now=now_state, keys=keys)
        round_part = _checked_alone(state, sent, number)
        shown, changed = _changes_sent(state, sent, round_part)
        if not changed:
            return _view(stored, rows, state, seats_now)
        now = sessions.now_text()
        for key, value in changed.items():
            connection.execute(
                "INSERT INTO parts (session_id, number, key, body, updated_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (session_id, number, key) DO UPDATE SET body = excluded.body, "
                "updated_at = excluded.updated_at",
                (session_id, number, key, json.dumps(value, ensure_ascii=False), now))
        kept = sessions.waiting_rows(connection, session_id)
        outcome, replaced = _commit_if_whole(connection, stored, state, kept)
        made = NewChange(number=number, actor=actor, action="correct" if state.committed else "enter",
                         before={key: shown.get(key) for key in changed}, after=changed, outcome=outcome,
                         restore={"document": replaced, "parts": sessions.row_list(rows)}, state_before=now_state)
        record(connection, session_id, made)
        if outcome in ("waiting", "staged"):
            sessions.touch(connection, stored.id, now)
        if outcome == "waiting":
            # Still the day being entered, the document as it was: its form is the one it was checked with.
            stored = stored._replace(updated_at=now)
            state = state._replace(rows=dict(kept.get(state.number, {})))
        else:
            stored = sessions.load(connection, stored.id)
            kept = sessions.waiting_rows(connection, stored.id)
            state = round_state(stored.document, stored.complete, kept, state.number)
        return _view(stored, kept, state, seats_now)


class _Stored(NamedTuple):
    """A day as a write finds it: the session, what waits beside it, the seats, the day, the version."""

    stored: StoredSession
    rows: Rows
    seats: dict[str, str]
    state: RoundState
    version: str


def _as_stored(connection, session_id: str, number: int) -> _Stored:
    stored = sessions.load(connection, session_id)
    rows = sessions.waiting_rows(connection, session_id)
    state = round_state(stored.document, stored.complete, rows, number)
    return _Stored(stored=stored, rows=rows, seats=seats.read_seats(connection, session_id), state=state,
                   version=state_hash(stored.document, rows))


def _allow(actor: Actor, seats_now: dict[str, str], keys: set[str]) -> None:
    """Forbidden unless ``actor`` may write ``keys`` (players' parts, the table's own answers under "")."""
    reason = refusal(actor, Action.WRITE, seats_now, keys=sorted(keys))
    if reason is not None:
        mine = set(seats_now) - {player for player, holder in seats_now.items() if holder == actor.holder}
        raise Forbidden(reason, next((key for key in sorted(keys) if key in mine), None))


def _split(stored: StoredSession, state: RoundState, number: int, body: object) -> entry.Split:
    """Where each piece of what ``body`` sends goes; Closed or OutOfTurn when the day has no form to send to."""
    form = state.form
    if form is None:
        entered = rounds_entered(stored.document, stored.complete)
        if state.committed or number == entered + 1:
            raise _closed(stored.document)
        raise OutOfTurn(number, entered + 1)
    return entry.split(form, sessions.json_document(body), number)


def _checked_alone(state: RoundState, sent: entry.Split, number: int) -> dict:
    """The round's own answers with what ``sent`` adds; Refused if what it sends breaks a rule on its own.

    The round's answers are checked together with those already in; each part
    against its player's questions, which the round's answers decide.
    """
    form = state.form
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
    return round_part


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
            sessions.save(connection, stored, with_round(stored.document, number, whole))
        except Refused:
            return "waiting", None  # the whole day does not add up yet: it waits, its problems in the status
        connection.execute("DELETE FROM parts WHERE session_id = ? AND number = ?", (stored.id, number))
        return "committed", stored.document
    corrected = corrected_document(stored.document, stored.complete, kept)
    if check_session(corrected).problems:
        return "staged", None
    sessions.save(connection, stored, corrected)
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


def put_round(db: Database, session_id: str, number: int, body: object, *, actor: Actor,
              version: Version = Version()) -> RoundView:
    """Store day or round ``number`` whole (a new one, or a correction of one entered).

    The whole session is checked with it; Refused (nothing stored) if anything
    breaks a rule, OutOfTurn if an earlier day or round is still missing,
    Forbidden unless ``actor`` may write every part of it, Stale if ``version``
    is not what is stored now.  Parts or corrections waiting for that day are
    replaced by it.  Returns the day as this write left it.
    """
    with db.write() as connection:
        stored, rows, seats_now, state, now_state = _as_stored(connection, session_id, number)
        expected = rounds_entered(stored.document, stored.complete) + 1
        if number > expected:
            raise OutOfTurn(number, expected)
        body = sessions.json_document(body)
        before = _units(state, committed_round(stored.document, number)) if state.committed else dict(state.rows)
        after = _units(state, body)
        # A day put whole replaces every part of it, whoever's.
        whole = {entry.ROUND_KEY, *state.form.players} if state.form is not None else {"*"}
        _allow(actor, seats_now, whole | set(before) | set(after))
        _check_version(connection, stored, state, version, now=now_state, keys=whole | set(before) | set(after))
        saved = sessions.save(connection, stored, with_round(stored.document, number, body))
        connection.execute("DELETE FROM parts WHERE session_id = ? AND number = ?", (session_id, number))
        changed = {key: value for key, value in after.items() if before.get(key) != value}
        changed |= {key: None for key in before if key not in after}
        if changed:
            made = NewChange(number=number, actor=actor, action="replace",
                             before={key: before.get(key) for key in changed}, after=changed, outcome="committed",
                             restore={"document": stored.document, "parts": sessions.row_list(rows)},
                             state_before=now_state)
            record(connection, session_id, made)
        rows = sessions.waiting_rows(connection, session_id)
        state = round_state(saved.document, saved.complete, rows, number)
        return _view(saved, rows, state, seats_now)
