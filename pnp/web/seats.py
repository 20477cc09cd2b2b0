"""Seats: which phone holds each player's seat, taken, given back, freed and moved.

A phone takes a player's seat with the session's join link (and says once that
it is theirs); from then on its seat key (a cookie, or a token on the API)
writes that player's parts, and no other phone's key does.  A phone gives its
seat back, the organiser frees a seat or moves it to another phone with a
handover link that whoever opens it uses once.  Who may do which is
:mod:`pnp.web.permissions`; here it is asked inside the transaction that
changes the seats, with the seats as they are then.
"""

from __future__ import annotations


from pnp.core.records import NamedTuple
from pnp.web import sessions
from pnp.web.auth import matches, new_token, token_hash
from pnp.web.db import Database
from pnp.web.permissions import Action, Actor, Forbidden, refusal


class NoSuchSeat(LookupError):
    """The session has no player of this name."""


class Seat(NamedTuple):
    """One player's seat: the hash of the key that holds it (None: free) and since when."""

    player: str
    holder: str | None
    taken_at: str | None


def read_seats(connection, session_id: str) -> dict[str, str]:
    """Which key (its hash) holds each player's seat that is taken, read in the caller's transaction."""
    return dict(connection.execute("SELECT player, holder_hash FROM seats WHERE session_id = ?", (session_id,)))


def seat_map(db: Database, session_id: str) -> dict[str, str]:
    """Which key (its hash) holds each player's seat that is taken."""
    with db.read() as connection:
        return read_seats(connection, session_id)


def seats_of(db: Database, session_id: str) -> list[Seat]:
    """Every player's seat, in seating order."""
    with db.read() as connection:
        stored = sessions.load(connection, session_id)
        taken = {player: (holder, at) for player, holder, at in connection.execute(
            "SELECT player, holder_hash, taken_at FROM seats WHERE session_id = ?", (session_id,))}
    return [Seat(player, *taken.get(player, (None, None))) for player in stored.players]


def seats_version(seats: list[Seat]) -> str:
    """The version of a session's seats (its HTTP ETag): who holds which."""
    return token_hash(repr([(seat.player, seat.holder) for seat in seats]))[:20]


def holder_of(db: Database, session_id: str, key: str | None) -> str | None:
    """``key``'s hash if it holds a seat of the session now, else None (it is no seat's key)."""
    if not key:
        return None
    hashed = token_hash(key)
    with db.read() as connection:
        found = connection.execute("SELECT 1 FROM seats WHERE session_id = ? AND holder_hash = ? LIMIT 1",
                                   (session_id, hashed)).fetchone()
    return hashed if found else None


def _player(connection, session_id: str, player: object) -> str:
    stored = sessions.load(connection, session_id)
    if not isinstance(player, str) or player not in stored.players:
        raise NoSuchSeat(player)
    return player


def _allowed(connection, session_id: str, player: object, *, actor: Actor, action: Action) -> tuple[str, dict]:
    """The player named and the seats now, once ``actor`` may do ``action`` to that seat; Forbidden if not."""
    player = _player(connection, session_id, player)
    seats = read_seats(connection, session_id)
    reason = refusal(actor, action, seats, player=player)
    if reason is not None:
        raise Forbidden(reason, player)
    return player, seats


def take(db: Database, session_id: str, player: object, *, actor: Actor, key: str) -> str:
    """``actor`` takes ``player``'s seat with ``key`` (its seat key, made by the caller); Forbidden if taken.

    Returns the player.  Taking a seat the key holds already changes nothing.
    """
    with db.write() as connection:
        player, seats = _allowed(connection, session_id, player, actor=actor, action=Action.TAKE_SEAT)
        if seats.get(player) is None:
            connection.execute("INSERT INTO seats (session_id, player, holder_hash, taken_at) VALUES (?, ?, ?, ?)",
                               (session_id, player, token_hash(key), sessions.now_text()))
            connection.execute("DELETE FROM handovers WHERE session_id = ? AND player = ?", (session_id, player))
        return player


def give_back(db: Database, session_id: str, player: object, *, actor: Actor) -> str:
    """The seat of ``player`` is free again: given back by the phone that holds it, or freed by the organiser."""
    with db.write() as connection:
        player, _ = _allowed(connection, session_id, player, actor=actor, action=Action.GIVE_BACK)
        connection.execute("DELETE FROM seats WHERE session_id = ? AND player = ?", (session_id, player))
        connection.execute("DELETE FROM handovers WHERE session_id = ? AND player = ?", (session_id, player))
        return player


def make_handover(db: Database, session_id: str, player: object, *, actor: Actor) -> str:
    """A one-time token that moves ``player``'s seat to whichever phone uses it (the organiser's); replaces any earlier one."""
    token = new_token()
    with db.write() as connection:
        player, _ = _allowed(connection, session_id, player, actor=actor, action=Action.MOVE_SEAT)
        connection.execute(
            "INSERT INTO handovers (session_id, player, token_hash, made_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (session_id, player) DO UPDATE SET token_hash = excluded.token_hash, made_at = excluded.made_at",
            (session_id, player, token_hash(token), sessions.now_text()))
    return token


def handover_for(db: Database, session_id: str, token: str | None) -> str | None:
    """The player whose seat ``token`` moves, or None if it is no handover of this session (or was used)."""
    if not token:
        return None
    with db.read() as connection:
        rows = connection.execute("SELECT player, token_hash FROM handovers WHERE session_id = ?",
                                  (session_id,)).fetchall()
    return next((player for player, stored_hash in rows if matches(token, stored_hash)), None)


def take_handed(db: Database, session_id: str, token: str, *, key: str) -> str:
    """The seat a handover ``token`` names moves to ``key`` (the old holder loses it); Forbidden if the token is no longer good."""
    with db.write() as connection:
        rows = connection.execute("SELECT player, token_hash FROM handovers WHERE session_id = ?",
                                  (session_id,)).fetchall()
        player = next((name for name, stored_hash in rows if matches(token, stored_hash)), None)
        if player is None:
            raise Forbidden("handover_used")
        connection.execute("DELETE FROM handovers WHERE session_id = ? AND player = ?", (session_id, player))
        connection.execute(
            "INSERT INTO seats (session_id, player, holder_hash, taken_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (session_id, player) DO UPDATE SET holder_hash = excluded.holder_hash, "
            "taken_at = excluded.taken_at", (session_id, player, token_hash(key), sessions.now_text()))
        return player
