"""Who speaks for each player: the phone that sent their part first, and what a phone may change.

A phone is known by its device key (a cookie); it speaks for the players whose
parts it sent first, and only for them.  The organiser and the API may change
anything.
"""

from __future__ import annotations

from typing import NamedTuple

from pnp.web import sessions
from pnp.web.entry import Split
from pnp.web.rounds import RoundState


class Actor(NamedTuple):
    """Who makes a change: the organiser, a script through the API, or a phone at the table."""

    kind: str  # "organiser", "api" or "phone"
    device: str | None = None


ORGANISER = Actor("organiser")
API = Actor("api")


class Forbidden(Exception):
    """This phone may not make that change: another phone speaks for the player (``player``), or
    the change is a committed day's own answers and this phone speaks for no player (``player`` None)."""

    def __init__(self, player: str | None) -> None:
        self.player = player
        super().__init__(player or "round")


def read_claims(connection, session_id: str) -> dict[str, str]:
    """Which phone (device hash) speaks for each player who has one, read in the caller's transaction."""
    return dict(connection.execute("SELECT player, device_hash FROM claims WHERE session_id = ?", (session_id,)))


def claims(db, session_id: str) -> dict[str, str]:
    """Which phone (device hash) speaks for each player who has one."""
    with db.read() as connection:
        return read_claims(connection, session_id)


def speaks_for(claims_now: dict[str, str], actor: Actor) -> list[str]:
    """The players ``actor`` speaks for, in name order (none unless it is a phone)."""
    return sorted(player for player, device in claims_now.items() if actor.kind == "phone" and device == actor.device)


def allow(connection, session_id: str, state: RoundState, sent: Split, *, actor: Actor,
          claims_now: dict[str, str]) -> None:
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
        holder = claims_now.get(player)
        if holder is not None and holder != actor.device:
            raise Forbidden(player)
    mine = {player for player, device in claims_now.items() if device == actor.device} | set(sent.parts)
    if sent.round and state.committed and state.form.players and not mine:
        raise Forbidden(None)
    if actor.device is None:
        return
    for player in sent.parts:
        if player not in claims_now:
            connection.execute("INSERT INTO claims (session_id, player, device_hash, claimed_at) VALUES (?, ?, ?, ?)",
                               (session_id, player, actor.device, sessions.now_text()))
            claims_now[player] = actor.device
