"""A session's history of changes: each change kept with who made it, when, and how to undo it; undoing the last.

Every change of a session is a row of ``changes``: who made it (the organiser,
a script, a phone and the players it speaks for), when, which day, each part
before and after (by player, the round's own answers under ``""``), and what
undoing it puts back (``restore``: the document if the change altered it, and
every waiting row as it was).
"""

from __future__ import annotations

import json
from typing import NamedTuple

from pnp.web import seats, sessions
from pnp.web.db import Database
from pnp.web.seats import API, Actor, Forbidden


class NothingToUndo(Exception):
    """The change asked to be undone is not the last one (or there is none left)."""


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


class Made(NamedTuple):
    """A change as it is recorded: which day, by whom, what it did, each part before and after, how to undo it."""

    number: int
    actor: Actor
    action: str  # "enter", "correct", "replace" or "undo"
    before: dict
    after: dict
    outcome: str
    restore: dict  # {"document": the document it replaced or None, "parts": every waiting row before it}


def record(connection, session_id: str, made: Made, *, claims_now: dict[str, str], undoes: int | None = None) -> int:
    """Keep one change in the session's history: who, when, what it was and became, and how to undo it."""
    names = seats.speaks_for(claims_now, made.actor)
    cursor = connection.execute(
        "INSERT INTO changes (session_id, at, actor, actor_names, device_hash, number, action, before, after, "
        "outcome, restore, undoes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (session_id, sessions.now_text(), made.actor.kind, json.dumps(names, ensure_ascii=False),
         made.actor.device, made.number, made.action, json.dumps(made.before, ensure_ascii=False),
         json.dumps(made.after, ensure_ascii=False), made.outcome, json.dumps(made.restore, ensure_ascii=False),
         undoes))
    return cursor.lastrowid


_CHANGE_COLUMNS = ("id, at, actor, actor_names, device_hash, number, action, before, after, outcome, undoes, "
                   "undone_by")


def _change(row: tuple) -> Change:
    id_, at, actor, names, device, number, action, before, after, outcome, undoes, undone_by = row
    return Change(id=id_, at=at, actor=actor, names=tuple(json.loads(names)), device=device, number=number,
                  action=action, before=json.loads(before), after=json.loads(after), outcome=outcome,
                  undoes=undoes, undone_by=undone_by)


def changes(db: Database, session_id: str) -> list[Change]:
    """Every change of the session, the newest first."""
    with db.read() as connection:
        rows = connection.execute(f"SELECT {_CHANGE_COLUMNS} FROM changes WHERE session_id = ? ORDER BY id DESC",
                                  (session_id,)).fetchall()
    return [_change(row) for row in rows]


def latest_change(db: Database, session_id: str) -> Change | None:
    """The change an undo would take back (see :func:`last_change`), read alone."""
    with db.read() as connection:
        row = connection.execute(
            f"SELECT {_CHANGE_COLUMNS} FROM changes WHERE session_id = ? AND action != 'undo' AND undone_by IS NULL "
            "ORDER BY id DESC LIMIT 1", (session_id,)).fetchone()
    return None if row is None else _change(row)


def last_change(found: list[Change]) -> Change | None:
    """The change an undo would take back: the newest not undone (undos themselves are not undone)."""
    return next((change for change in found if change.undoable), None)


def may_undo(change: Change, actor: Actor) -> bool:
    """The organiser and the API may undo the last change; a phone, a change it made itself."""
    return actor.kind != "phone" or (actor.device is not None and change.device == actor.device)


def undo(db: Database, session_id: str, change_id: int, *, actor: Actor = API) -> sessions.StoredSession:
    """Take back change ``change_id``, which must be the last one: everything it changed is as it was before.

    NothingToUndo if a newer change was made meanwhile (or it was undone
    already); Forbidden if a phone asks to undo another phone's change.  The
    undo is itself kept in the history.
    """
    with db.write() as connection:
        stored = sessions.load(connection, session_id)
        found = connection.execute(
            "SELECT id, device_hash, number, before, after, restore FROM changes WHERE session_id = ? "
            "AND action != 'undo' AND undone_by IS NULL ORDER BY id DESC LIMIT 1", (session_id,)).fetchone()
        if found is None or found[0] != change_id:
            raise NothingToUndo()
        id_, device, number, before, after, restore = found
        if actor.kind == "phone" and (actor.device is None or device != actor.device):
            raise Forbidden(None)
        restore = json.loads(restore)
        rows = sessions.waiting_rows(connection, session_id)
        undo_restore = {"document": None, "parts": sessions.row_list(rows)}
        if restore["document"] is not None:
            sessions.save(connection, stored, restore["document"])
            undo_restore["document"] = stored.document
        now = sessions.now_text()
        sessions.put_back_rows(connection, session_id, restore["parts"], now)
        made = Made(number=number, actor=actor, action="undo", before=json.loads(after), after=json.loads(before),
                    outcome="undone", restore=undo_restore)
        undone = record(connection, session_id, made, claims_now=seats.read_claims(connection, session_id),
                        undoes=id_)
        connection.execute("UPDATE changes SET undone_by = ? WHERE id = ?", (undone, id_))
        sessions.touch(connection, session_id, now)
        return sessions.load(connection, session_id)
