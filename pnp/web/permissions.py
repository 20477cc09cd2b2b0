"""Who may do what to a session: the one place that answers "may this actor do this here?".

As in Datasette (``permission_allowed``), views and the store never decide it
alone: they ask :func:`refusal`, which gives None (allowed) or the reason's
code, and the store asks again inside the transaction that writes, with the
seats as they are then.

The actors and what each may do (docs/SERVE.md has the same table):

================  =====================================================================
organiser         everything: start sessions, read, write any part, undo and redo any
                  change, free or move any seat, see the join link; the club's history:
                  every page of it, every play exported, people renamed and merged
a seat's key      read the session; write its own seats' parts and the table's own answers
                  (who plays blue, a team's result); undo and redo its own changes while
                  it still holds every seat they touched; give its seat back; take a free
                  seat more (a phone passed between two players); read the club's pages
                  of the people at its table and of its game
the join link     take a free seat, and nothing else (not even read the scores)
a handover link   take the one seat it was made for, from whichever phone has it
a read-only key   see a finished session's result and its files (the printed scoresheet)
nobody            nothing
================  =====================================================================
"""

from __future__ import annotations

from enum import Enum
from typing import Iterable, Mapping

from pnp.core.records import NamedTuple

#: The key under which a day's own answers (who plays blue) are kept beside the players' parts.
TABLE_KEY = ""


class Action(str, Enum):
    READ = "read"
    TAKE_SEAT = "take_seat"
    GIVE_BACK = "give_back"
    MOVE_SEAT = "move_seat"
    WRITE = "write"
    UNDO = "undo"
    REDO = "redo"
    START = "start"
    SEE_CLUB = "see_club"
    SHOW_JOIN = "show_join"
    # The club's history: a person's page, a game's page, every play at once, who is whom.
    READ_PERSON = "read_person"
    READ_GAME = "read_game"
    EXPORT_CLUB = "export_club"
    RENAME_PERSON = "rename_person"
    MERGE_PEOPLE = "merge_people"


#: What only the organiser does.
ORGANISER_ONLY = frozenset({Action.START, Action.SEE_CLUB, Action.SHOW_JOIN, Action.MOVE_SEAT, Action.EXPORT_CLUB,
                            Action.RENAME_PERSON, Action.MERGE_PEOPLE})


class Actor(NamedTuple):
    """Who is asking, from the credentials a request carries (cookies or ``Authorization: Bearer``).

    ``holder`` is the hash of a seat's key (a phone's device cookie, or a seat
    token on the API), ``joined`` whether the request carries the session's join
    link, ``via`` how a change came (``page`` or ``api``: the history says which).
    """

    organiser: bool = False
    holder: str | None = None
    joined: bool = False
    via: str = "page"

    @property
    def kind(self) -> str:
        """How the history names who made a change: ``organiser``, ``phone`` or ``api``."""
        return "organiser" if self.organiser else ("api" if self.via == "api" else "phone")

    @property
    def device(self) -> str | None:
        return None if self.organiser else self.holder


ORGANISER = Actor(organiser=True)
NOBODY = Actor()


class Forbidden(Exception):
    """What an actor asked for is not theirs to do; ``reason`` is its code (``web.refusal.<reason>``)."""

    def __init__(self, reason: str, player: str | None = None) -> None:
        self.reason = reason
        self.player = player
        super().__init__(reason)


def held_by(seats: Mapping[str, str], actor: Actor) -> list[str]:
    """The players whose seats ``actor``'s key holds, in name order."""
    if actor.holder is None:
        return []
    return sorted(player for player, holder in seats.items() if holder == actor.holder)


def refusal(actor: Actor, action: Action, seats: Mapping[str, str] = {}, *, player: str | None = None,
            keys: Iterable[str] = (), made_by: str | None = None, at_table: bool = False) -> str | None:
    """None when ``actor`` may do ``action``; else the code of the reason.

    ``seats`` holds the session's seats now (player -> the hash of its key);
    ``player`` names the seat taken, given back or moved; ``keys`` what a write,
    undo or redo changes (players' names, :data:`TABLE_KEY` for the table's own
    answers, ``*`` for a whole day that could not be split); ``made_by`` the key
    that made the change an undo or redo takes back; ``at_table``, for a club's
    page, whether the person played at this session's table (or the game is its).

    >>> seats = {"Ann": "k1", "Ben": "k2"}
    >>> refusal(Actor(holder="k1"), Action.WRITE, seats, keys=["Ann", ""]) is None
    True
    >>> refusal(Actor(holder="k1"), Action.WRITE, seats, keys=["Ben"])
    'not_your_seat'
    >>> refusal(Actor(joined=True), Action.READ, seats), refusal(Actor(joined=True), Action.TAKE_SEAT, seats, player="Ann")
    ('join_only', 'seat_taken')
    >>> refusal(Actor(holder="k1"), Action.READ_PERSON, seats, at_table=True) is None
    True
    >>> refusal(Actor(holder="k1"), Action.READ_PERSON, seats), refusal(Actor(joined=True), Action.READ_GAME, seats, at_table=True)
    ('not_at_table', 'join_only')
    """
    if actor.organiser:
        return None if action is not Action.TAKE_SEAT else "organiser_has_every_seat"
    if action in ORGANISER_ONLY:
        return "organiser_only"
    mine = held_by(seats, actor)
    if action is Action.TAKE_SEAT:
        if not (actor.joined or mine):
            return "no_token"
        return "seat_taken" if seats.get(player) is not None and seats.get(player) != actor.holder else None
    if not mine:
        return "join_only" if actor.joined else "no_token"
    if action is Action.READ:
        return None
    if action in (Action.READ_PERSON, Action.READ_GAME):
        # A table's players see the club's figures of one another and of their game, not of everyone.
        return None if at_table else "not_at_table"
    if action is Action.GIVE_BACK:
        return None if player in mine else "not_your_seat"
    if action in (Action.UNDO, Action.REDO) and (made_by is None or made_by != actor.holder):
        return "not_your_change"
    if action in (Action.WRITE, Action.UNDO, Action.REDO):
        for key in keys:
            if key == "*" or (key != TABLE_KEY and key not in mine):
                return "not_your_seat"
        return None
    return "organiser_only"
