"""A session's history of changes: each change kept with who made it, when, and how to undo it; undo and redo.

Every change of a session is a row of ``changes``: who made it (the organiser,
a script, a phone and the players whose seats it holds), when, which day, each
part before and after (by player, the round's own answers under ``""``), what
undoing it puts back (``restore``: the document if the change altered it, and
every waiting row as it was), and the version it left the session in.

An undo is itself a change, and so is a redo: a redo takes back an undo.  The
last change that puts something in (an entry, a correction, a redo) can be
undone; the last undo can be redone while nothing new was entered after it.
"""

from __future__ import annotations

import json

from pnp.core.records import NamedTuple
from pnp.web import seats, sessions
from pnp.web.db import Database
from pnp.web.permissions import Action, Actor, Forbidden, held_by, refusal
from pnp.web.rounds import state_hash


class NothingToUndo(Exception):
    """The change asked to be undone (or redone) is not the one that can be: another change came since."""


class Change(NamedTuple):
    """One change of a session's history (newest first in :func:`changes`).

    ``before`` and ``after`` hold each part it changed (by player, the round's
    own answers under ``""``, a whole day that could not be split under
    ``"*"``); None where there was none.  ``depth`` is 0 for an entry or a
    correction, 1 for its undo, 2 for the redo that takes the undo back, and so
    on: an even depth puts something in, an odd one takes it out.
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
    depth: int = 0

    @property
    def redo(self) -> bool:
        """Whether this change takes an undo back."""
        return self.action == "undo" and self.depth % 2 == 0

    @property
    def undoable(self) -> bool:
        """Whether it still puts something in (an entry, a correction or a redo not undone)."""
        return self.depth % 2 == 0 and self.undone_by is None

    @property
    def redoable(self) -> bool:
        """Whether it is an undo not taken back yet."""
        return self.depth % 2 == 1 and self.undone_by is None

    @property
    def keys(self) -> set[str]:
        """What it changed: players' names, ``""`` for the table's own answers."""
        return set(self.before) | set(self.after)


class NewChange(NamedTuple):
    """A change about to be recorded: which day, by whom, what it did, each part before and after, how to undo it."""

    number: int
    actor: Actor
    action: str  # "enter", "correct", "replace" or "undo"
    before: dict
    after: dict
    outcome: str
    restore: dict  # {"document": the document it replaced or None, "parts": every waiting row before it}
    state_before: str  # the session's version before it (rounds.state_hash)


def record(connection, session_id: str, made: NewChange, *, undoes: int | None = None) -> int:
    """Keep one change in the session's history: who, when, what it was and became, how to undo it.

    Called once the change is made, in its transaction: the version it leaves
    the session in is read then.
    """
    names = held_by(seats.read_seats(connection, session_id), made.actor)
    stored = sessions.load(connection, session_id)
    after_state = state_hash(stored.document, sessions.waiting_rows(connection, session_id))
    cursor = connection.execute(
        "INSERT INTO changes (session_id, at, actor, actor_names, device_hash, number, action, before, after, "
        "outcome, restore, undoes, state_before, state_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (session_id, sessions.now_text(), made.actor.kind, json.dumps(names, ensure_ascii=False),
         made.actor.device, made.number, made.action, json.dumps(made.before, ensure_ascii=False),
         json.dumps(made.after, ensure_ascii=False), made.outcome, json.dumps(made.restore, ensure_ascii=False),
         undoes, made.state_before, after_state))
    return cursor.lastrowid


_CHANGE_COLUMNS = ("id, at, actor, actor_names, device_hash, number, action, before, after, outcome, undoes, "
                   "undone_by")


def _read(connection, session_id: str) -> list[Change]:
    """Every change of the session, newest first, each with its depth."""
    rows = connection.execute(f"SELECT {_CHANGE_COLUMNS} FROM changes WHERE session_id = ? ORDER BY id",
                              (session_id,)).fetchall()
    depth: dict[int, int] = {}
    found = []
    for id_, at, actor, names, device, number, action, before, after, outcome, undoes, undone_by in rows:
        depth[id_] = depth.get(undoes, 0) + 1 if action == "undo" else 0
        found.append(Change(id=id_, at=at, actor=actor, names=tuple(json.loads(names)), device=device,
                            number=number, action=action, before=json.loads(before), after=json.loads(after),
                            outcome=outcome, undoes=undoes, undone_by=undone_by, depth=depth[id_]))
    return found[::-1]


def changes(db: Database, session_id: str) -> list[Change]:
    """Every change of the session, the newest first."""
    with db.read() as connection:
        return _read(connection, session_id)


def newest_id(db: Database, session_id: str) -> int | None:
    """The id of the session's newest change (None before any): it grows with every change."""
    with db.read() as connection:
        return connection.execute("SELECT max(id) FROM changes WHERE session_id = ?", (session_id,)).fetchone()[0]


def last_change(found: list[Change]) -> Change | None:
    """The change an undo would take back: the newest that still puts something in."""
    return next((change for change in found if change.undoable), None)


def last_undo(found: list[Change]) -> Change | None:
    """The undo a redo would take back: the newest undo not taken back, if nothing was entered after it."""
    for change in found:
        if change.redoable:
            return change
        if change.action != "undo":
            return None  # something new was entered since: redoing would throw it away
    return None


def latest(db: Database, session_id: str) -> tuple[Change | None, Change | None]:
    """The change an undo would take back and the undo a redo would, read together."""
    found = changes(db, session_id)
    return last_change(found), last_undo(found)


def may(change: Change, actor: Actor, seats_now: dict[str, str]) -> bool:
    """Whether ``actor`` may undo ``change`` (or redo it, if it is an undo) now."""
    action = Action.REDO if change.depth % 2 else Action.UNDO
    return refusal(actor, action, seats_now, keys=change.keys, made_by=change.device) is None


def take_back(db: Database, session_id: str, change_id: int, *, actor: Actor, redo: bool = False) -> Change:
    """Undo change ``change_id`` (``redo``: take back the undo ``change_id``): everything it changed is as before.

    The change must be the last one that can be undone (redone): NothingToUndo
    otherwise, as when another change came meanwhile.  Forbidden if ``actor``
    may not (a phone undoes only its own changes, on the seats it holds).  The
    undo is itself kept in the history; returns it.
    """
    with db.write() as connection:
        stored = sessions.load(connection, session_id)
        found = _read(connection, session_id)
        target = last_undo(found) if redo else last_change(found)
        if target is None or target.id != change_id:
            raise NothingToUndo()
        seats_now = seats.read_seats(connection, session_id)
        reason = refusal(actor, Action.REDO if redo else Action.UNDO, seats_now, keys=target.keys,
                         made_by=target.device)
        if reason is not None:
            raise Forbidden(reason)
        restore = json.loads(connection.execute("SELECT restore FROM changes WHERE id = ?", (target.id,)).fetchone()[0])
        rows = sessions.waiting_rows(connection, session_id)
        before_state = state_hash(stored.document, rows)
        undo_restore = {"document": None, "parts": sessions.row_list(rows)}
        if restore["document"] is not None:
            sessions.save(connection, stored, restore["document"])
            undo_restore["document"] = stored.document
        now = sessions.now_text()
        sessions.put_back_rows(connection, session_id, restore["parts"], now)
        sessions.touch(connection, session_id, now)
        made = NewChange(number=target.number, actor=actor, action="undo", before=target.after,
                         after=target.before, outcome="undone", restore=undo_restore, state_before=before_state)
        undone = record(connection, session_id, made, undoes=target.id)
        connection.execute("UPDATE changes SET undone_by = ? WHERE id = ?", (undone, target.id))
        return _read(connection, session_id)[0]


def changes_since(connection, session_id: str, versions: frozenset[str]) -> list[Change] | None:
    """In the caller's transaction: the changes made since the session was last in one of ``versions``.

    Oldest first; None when it never was in any of them (as far as the history tells).
    """
    marks = ",".join("?" * len(versions))
    after, before = connection.execute(
        f"SELECT max(CASE WHEN state_after IN ({marks}) THEN id END), "
        f"max(CASE WHEN state_before IN ({marks}) THEN id END) FROM changes WHERE session_id = ?",
        (*versions, *versions, session_id)).fetchone()
    # In that version just after change `after`, or just before change `before`: whichever is later.
    since = max(after if after is not None else -1, before - 1 if before is not None else -1)
    if after is None and before is None:
        return None
    return [change for change in _read(connection, session_id) if change.id > since][::-1]
