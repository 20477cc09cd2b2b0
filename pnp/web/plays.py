"""What one finished session adds to a club's figures: a play per seat, and how the session was decided.

Pure: from a session's scored result (``pnp score check --json``'s object)
and the sides its players took, :func:`session_plays` gives the rows the club
keeps (:mod:`pnp.web.club`).  Nothing here names a game: the side a player
took is read from the result as every game gives it, the colour a player sat
at (a game's own record with a ``colors`` mapping) or the role they held in
the first round (:attr:`scoring.PlayerRound.role`).
"""

from __future__ import annotations

from typing import Mapping

from scoring import Result, SessionFileError, check_session, score_session

from pnp.core.records import NamedTuple
from pnp.web.bgstats import ranks

#: How a session whose totals decided alone is kept among the tie-breaks.
ON_POINTS = ""


class Sides(NamedTuple):
    """The side each player took: ``kind`` is ``color`` or ``role`` (its catalog's section), None if none."""

    kind: str | None = None
    of: Mapping[str, str] = {}


NO_SIDES = Sides()


def sides_of(result: Result) -> Sides:
    """The colour each player sat at, else the role each held in the first round, else none.

    A game's own record of the outcome (``Result.own``) that has a ``colors``
    mapping names each player's colour; a game whose players take sides names
    each one's role in every round, and the first round's is the one that
    shapes a game (Halali's blue player of round 1 is brown in round 2).
    """
    colors = getattr(result.own, "colors", None)
    if isinstance(colors, Mapping) and colors:
        return Sides("color", {player: str(colors[player]) for player in result.players if player in colors})
    if result.rounds:
        roles = {entry.player: entry.role for entry in result.rounds[0].players if entry.role}
        if roles:
            return Sides("role", roles)
    return NO_SIDES


def sides_of_document(document: object) -> Sides:
    """:func:`sides_of` a stored session file's result; none for a session its game cannot score here now."""
    try:
        checked = check_session(document)
    except SessionFileError:
        return NO_SIDES  # a game joined at run time and not loaded now
    if checked.session is None:
        return NO_SIDES
    return sides_of(score_session(checked.session))


class Play(NamedTuple):
    """One seat of a finished session: who sat there (as the session writes the name), and how they did."""

    seat: int  # 1-based, in seating order
    name: str
    total: int | None  # None: a game without points
    won: bool
    rank: int  # 1 for the winners, then by total (1, 2, 2, 4)
    best_round: int | None  # the best single day or round's score; None without rounds
    best_round_number: int | None
    side: str | None


class SessionPlays(NamedTuple):
    """A finished session as the club's figures count it."""

    session_id: str
    game: str
    played_on: str  # its date, else the day it was started
    sequence: int  # the order sessions were stored in, to order sessions of one day
    tie_break: str  # what settled a tie on the totals; :data:`ON_POINTS` when the totals decided
    side_kind: str | None
    margin: int | None  # the winners' total less the best other one; None without points or a runner-up
    plays: tuple[Play, ...]

    @property
    def players(self) -> int:
        return len(self.plays)


def _best_round(rounds: list[Mapping[str, int]], player: str) -> tuple[int | None, int | None]:
    best = number = None
    for index, scores in enumerate(rounds, start=1):
        score = scores.get(player)
        if score is not None and (best is None or score > best):
            best, number = score, index
    return best, number


def session_plays(session_id: str, result: Mapping, *, sides: Sides, played_on: str,
                  sequence: int) -> SessionPlays | None:
    """The plays of a finished session; None while it is not finished (it counts for nothing yet).

    >>> result = {"game": "g", "players": ["Ann", "Ben"], "rounds": [{"Ann": 3, "Ben": 5}, {"Ann": 9, "Ben": 1}],
    ...           "totals": {"Ann": 12, "Ben": 6}, "complete": True, "winners": ["Ann"], "tie_break": None}
    >>> found = session_plays("s1", result, sides=NO_SIDES, played_on="2026-12-01", sequence=1)
    >>> found.margin, [(p.name, p.rank, p.best_round, p.best_round_number) for p in found.plays]
    (6, [('Ann', 1, 9, 2), ('Ben', 2, 5, 1)])
    """
    if not result.get("complete"):
        return None
    players = list(result["players"])
    totals = result["totals"]
    winners = set(result["winners"])
    placed = ranks(players, totals, list(winners))
    plays = []
    for seat, name in enumerate(players, start=1):
        best, number = _best_round(result["rounds"], name)
        plays.append(Play(seat=seat, name=name, total=totals.get(name), won=name in winners, rank=placed[name],
                          best_round=best, best_round_number=number, side=sides.of.get(name)))
    margin = None
    losers = [totals[p] for p in players if p not in winners and p in totals]
    if totals and winners and losers:
        margin = min(totals[p] for p in winners if p in totals) - max(losers)
    return SessionPlays(session_id=session_id, game=result["game"], played_on=played_on, sequence=sequence,
                        tie_break=result["tie_break"] or ON_POINTS, side_kind=sides.kind if sides.of else None,
                        margin=margin, plays=tuple(plays))
