"""Scores of a checked session: every counted line, day or round scores, totals, winners.

These frozen dataclasses are what a report or a filled scoresheet reads; they
are built by each game's ``score`` method and never hold anything to print.
They name no game: what a game's result holds beyond points, totals and
winners sits in one slot, :attr:`Result.own`, which its rules module fills
and its own report and scoresheet read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Mapping


class TieBreak(str, Enum):
    """How a tie on the total was settled (the value is what ``--json`` prints).

    A game's own tie-break is an Enum of its rules module (its value, what
    ``--json`` prints); ``SHARED`` is every game's last resort.
    """

    SHARED = "shared"  # still tied: every tied player wins


@dataclass(frozen=True)
class ScoreLine:
    """One entered count and what it scores.

    ``place`` is where the game counts it (a pile, a hand, the tiles held) and
    ``item`` what is counted there (a kind of card or tile, a bonus), in the
    words of the game's rules module.
    """

    place: str
    item: str
    count: int
    points: int


@dataclass(frozen=True)
class PlayerRound:
    """One player's day or round: the lines entered, the score, the running total,
    and the side the player took, in a game whose players take sides."""

    player: str
    lines: tuple[ScoreLine, ...]
    score: int
    running_total: int
    role: str | None = None

    def line(self, place: str, item: str) -> ScoreLine:
        """The line for ``item`` at ``place``; KeyError if this game has none."""
        for line in self.lines:
            if line.place == place and line.item == item:
                return line
        raise KeyError((place, item))


@dataclass(frozen=True)
class RoundResult:
    """One day or round, every player in seating order."""

    number: int  # 1-based
    players: tuple[PlayerRound, ...]

    def of(self, player: str) -> PlayerRound:
        for entry in self.players:
            if entry.player == player:
                return entry
        raise KeyError(player)

    @property
    def scores(self) -> dict[str, int]:
        return {entry.player: entry.score for entry in self.players}


@dataclass(frozen=True)
class Result:
    """Everything a report or scoresheet shows about one session.

    ``tied`` lists the players level on the best total before any tie-break
    (empty when there was no tie); ``tie_break_values`` is what settled it for
    those players (the game's second measure: a best single round, things held).
    ``own`` is the rest of the game's outcome, in a record of its rules module
    (a cooperative team's result, the colours the players sat at), which its
    report and scoresheet read; None when a game has nothing more.
    """

    game: str  # the game's id, as in session files
    players: tuple[str, ...]
    rounds: tuple[RoundResult, ...]
    rounds_expected: int
    totals: Mapping[str, int]
    complete: bool
    winners: tuple[str, ...]
    tie_break: Enum | None  # a TieBreak, or a game's own kind
    tied: tuple[str, ...] = ()
    tie_break_values: Mapping[str, int] = field(default_factory=dict)
    own: Any = None


@dataclass(frozen=True)
class Decision:
    winners: tuple[str, ...]
    tie_break: Enum | None
    tied: tuple[str, ...]
    tie_break_values: dict[str, int]


def decide(
    players: tuple[str, ...],
    totals: Mapping[str, int],
    complete: bool,
    second: Mapping[str, int] | None = None,
    *,
    second_kind: Enum | None = None,
    lowest: bool = False,
    second_lowest: bool = False,
) -> Decision:
    """Winners from totals, then ``second`` among the tied, then a shared win: the highest
    of each, or with ``lowest`` (``second_lowest``) the lowest total (second value).

    With three tied players of whom two share the best second value, those two
    win together and the tie-break reported is ``shared`` (the rule's "if
    there is still a tie, all tied players win" applies to those still tied).

    >>> class Best(str, Enum):
    ...     BEST_ROUND = "best_round"
    >>> decide(("A", "B"), {"A": 5, "B": 5}, True, {"A": 9, "B": 7}, second_kind=Best.BEST_ROUND).winners
    ('A',)
    """
    if not complete or not players:
        return Decision((), None, (), {})
    best = (min if lowest else max)(totals[p] for p in players)
    tied = tuple(p for p in players if totals[p] == best)
    if len(tied) == 1:
        return Decision(tied, None, (), {})
    if second is None or second_kind is None:
        return Decision(tied, TieBreak.SHARED, tied, {})
    values = {p: second[p] for p in tied}
    top = (min if second_lowest else max)(values.values())
    still = tuple(p for p in tied if values[p] == top)
    kind = second_kind if len(still) == 1 else TieBreak.SHARED
    return Decision(still, kind, tied, values)


def decided_result(
    game: str,
    players: tuple[str, ...],
    rounds: list[RoundResult] | tuple[RoundResult, ...],
    rounds_expected: int,
    *,
    totals: Mapping[str, int],
    complete: bool,
    second: Mapping[str, int] | None = None,
    second_kind: Enum | None = None,
    lowest: bool = False,
    second_lowest: bool = False,
    **extra: object,
) -> Result:
    """The :class:`Result` of a scored session, winners decided by :func:`decide`."""
    decision = decide(players, totals, complete, second, second_kind=second_kind, lowest=lowest,
                      second_lowest=second_lowest)
    return Result(
        game=game,
        players=players,
        rounds=tuple(rounds),
        rounds_expected=rounds_expected,
        totals=dict(totals),
        complete=complete,
        winners=decision.winners,
        tie_break=decision.tie_break,
        tied=decision.tied,
        tie_break_values=decision.tie_break_values,
        **extra,
    )
