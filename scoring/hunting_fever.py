"""Hunting Fever: the end-of-day state each player enters, the checks, the day scores.

Each player owns one set of ten cards.  At the end of a hunting day every card
of every set is in exactly one place: a hand (own cards only), a prey pile
(anyone's cards) or, for a hunter that found no wolf, under its owner's lodge.

Readings of the rules (the text leaves these open):

* "Hunter" counts in a prey pile are only ever the pile owner's own hunter: a
  hunter enters a prey pile only as a poacher caught in closed season, and it
  is the poacher who puts it in their own pile.  Nothing captures hunters.
* A poacher's own lodge may be flipped too (they played closed season in an
  earlier round of the day), so check 8 asks for a flipped lodge of *another*
  player, and a flipped lodge needs a hunter in *another* player's pile: a
  player plays one card a round, never the hunter and closed season together.
* Tie-break: among the players tied on the total, the best single day wins; if
  several share that best day they all win ("shared"), even when other tied
  players were eliminated by the best-day comparison.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from scoring.errors import Problem, Term
from scoring.fields import At, FieldReader
from scoring.result import (
    Game,
    PlayerRound,
    Result,
    RoundResult,
    ScoreLine,
    TieBreak,
    decided_result,
)

GAME = Game.HUNTING_FEVER
CARDS = ("hunter", "wolf", "rabbit", "carrot", "closed_season")
#: One player's set: 1 hunter, 2 wolves, 3 rabbits, 3 carrots, 1 closed season.
SET = {"hunter": 1, "wolf": 2, "rabbit": 3, "carrot": 3, "closed_season": 1}
PREY_POINTS = {"hunter": -4, "wolf": 4, "rabbit": 2, "carrot": 1, "closed_season": 1}
HAND_POINTS = {"hunter": -4, "wolf": -4, "rabbit": -2, "carrot": -1, "closed_season": -1}
FLIPPED_LODGE_POINTS = 4
HUNTER_UNDER_LODGE_POINTS = 0
DAYS = 4
MIN_PLAYERS, MAX_PLAYERS = 3, 5
ENTRY_KEYS = ("prey", "hand", "hunter_under_lodge", "lodge_flipped")
TOP_KEYS = ("game", "players", "lang", "date", "days")


@dataclass(frozen=True)
class DayEntry:
    """One player's end of day: prey pile and hand counts by card, lodge state."""

    prey: Mapping[str, int]
    hand: Mapping[str, int]
    hunter_under_lodge: bool = False
    lodge_flipped: bool = False

    @property
    def hand_is_empty(self) -> bool:
        return not any(self.hand[card] for card in CARDS)


def entry(
    prey: Mapping[str, int] | None = None,
    hand: Mapping[str, int] | None = None,
    hunter_under_lodge: bool = False,
    lodge_flipped: bool = False,
) -> DayEntry:
    """A :class:`DayEntry` with every card kind filled in (missing kinds are 0)."""
    prey = prey or {}
    hand = hand or {}
    return DayEntry(
        prey={card: prey.get(card, 0) for card in CARDS},
        hand={card: hand.get(card, 0) for card in CARDS},
        hunter_under_lodge=hunter_under_lodge,
        lodge_flipped=lodge_flipped,
    )


@dataclass(frozen=True)
class HuntingFeverSession:
    players: tuple[str, ...]
    days: tuple[Mapping[str, DayEntry], ...]
    lang: str | None = None
    game: Game = GAME


# -- checks ------------------------------------------------------------------


def _problem(code: str, day: int, player: str | None = None, card: str | None = None, **params: object) -> Problem:
    return Problem(
        code=code,
        round=day,
        player=player,
        item=Term("card", card) if card else None,
        round_label="day",
        params=params,
    )


def check_player_day(day: int, player: str, state: DayEntry) -> list[Problem]:
    """Checks 3, 4 and 7: what one player's own entry can break on its own."""
    problems = []
    for card in CARDS:
        if state.hand[card] > SET[card]:
            problems.append(
                _problem("hand_exceeds_set", day, player, card, count=state.hand[card], limit=SET[card])
            )
    hunters = state.prey["hunter"] + state.hand["hunter"] + int(state.hunter_under_lodge)
    if hunters != 1:
        problems.append(
            _problem(
                "hunter_not_in_one_place",
                day,
                player,
                "hunter",
                prey=state.prey["hunter"],
                hand=state.hand["hunter"],
                lodge=int(state.hunter_under_lodge),
            )
        )
    if state.lodge_flipped and state.hand["closed_season"] > 0:
        problems.append(_problem("flipped_lodge_closed_season_in_hand", day, player, "closed_season"))
    return problems


def check_day(day: int, players: tuple[str, ...], entries: Mapping[str, DayEntry]) -> list[Problem]:
    """Checks 3 to 8 on one complete day (every player has an entry)."""
    problems: list[Problem] = []
    for player in players:
        problems += check_player_day(day, player, entries[player])
    for card in CARDS:
        found = sum(entries[p].prey[card] + entries[p].hand[card] for p in players)
        if card == "hunter":
            found += sum(entries[p].hunter_under_lodge for p in players)
        expected = len(players) * SET[card]
        if found != expected:
            problems.append(
                _problem("cards_not_conserved", day, None, card, found=found, expected=expected, players=len(players))
            )
    if players and not any(entries[p].hand_is_empty for p in players):
        problems.append(_problem("no_empty_hand", day))
    for player in players:
        others = [p for p in players if p != player]
        if entries[player].prey["hunter"] > 0 and not any(entries[p].lodge_flipped for p in others):
            problems.append(_problem("poacher_without_flipped_lodge", day, player, "hunter"))
        if entries[player].lodge_flipped and not any(entries[p].prey["hunter"] > 0 for p in others):
            problems.append(_problem("flipped_lodge_without_poacher", day, player, "closed_season"))
    return problems


# -- reading a session -------------------------------------------------------


def read_entry(reader: FieldReader, raw: object, at: At) -> DayEntry | None:
    table = reader.table(raw, at)
    if table is None:
        return None
    mark = reader.mark()
    reader.known_keys(table, ENTRY_KEYS, at)
    prey = reader.counts(table.get("prey", {}), CARDS, at.to(place=Term("place", "prey")), "card")
    hand = reader.counts(table.get("hand", {}), CARDS, at.to(place=Term("place", "hand")), "card")
    under = reader.flag(table.get("hunter_under_lodge", False), at.to(key="hunter_under_lodge"))
    flipped = reader.flag(table.get("lodge_flipped", False), at.to(key="lodge_flipped"))
    if reader.since(mark) or prey is None or hand is None or under is None or flipped is None:
        return None
    return DayEntry(prey=prey, hand=hand, hunter_under_lodge=under, lodge_flipped=flipped)


def read_session(reader: FieldReader, raw: dict, lang: str | None) -> HuntingFeverSession | None:
    """Check 1 and 2 while reading; checks 3-8 on every day that reads cleanly."""
    reader.known_keys(raw, TOP_KEYS, At())
    players = reader.players(raw, MIN_PLAYERS, MAX_PLAYERS, GAME.value)
    raw_days = reader.array(raw.get("days", []), At(key="days"))
    if players is None or raw_days is None:
        return None
    if len(raw_days) > DAYS:
        reader.add("too_many_days", At(key="days"), count=len(raw_days), limit=DAYS)
    days = []
    for number, raw_day in enumerate(raw_days, start=1):
        at = At(round=number)
        table = reader.table(raw_day, at)
        if table is None:
            continue
        mark = reader.mark()
        for key in table:
            reader.known_player(key, players, at)
        entries = {}
        for player in players:
            if player not in table:
                reader.add("missing_player_entry", at.to(player=player))
                continue
            state = read_entry(reader, table[player], at.to(player=player))
            if state is not None:
                entries[player] = state
        if not reader.since(mark):
            reader.extend(check_day(number, players, entries))
            days.append(entries)
    return HuntingFeverSession(players=players, days=tuple(days), lang=lang)


# -- scoring -----------------------------------------------------------------


def score_lines(state: DayEntry) -> tuple[ScoreLine, ...]:
    """Every count of one player's day with its points, in scoresheet order."""
    lines = [ScoreLine("prey", card, state.prey[card], state.prey[card] * PREY_POINTS[card]) for card in CARDS]
    lines += [ScoreLine("hand", card, state.hand[card], state.hand[card] * HAND_POINTS[card]) for card in CARDS]
    under = int(state.hunter_under_lodge)
    flipped = int(state.lodge_flipped)
    lines.append(ScoreLine("lodge", "hunter_under_lodge", under, under * HUNTER_UNDER_LODGE_POINTS))
    lines.append(ScoreLine("lodge", "lodge_flipped", flipped, flipped * FLIPPED_LODGE_POINTS))
    return tuple(lines)


def day_score(state: DayEntry) -> int:
    """Points for one player's day.

    >>> day_score(entry(prey={"wolf": 1, "carrot": 2}, hand={"rabbit": 1}, lodge_flipped=True))
    8
    """
    return sum(line.points for line in score_lines(state))


def score(session: HuntingFeverSession) -> Result:
    running = {p: 0 for p in session.players}
    best_day = {p: None for p in session.players}
    rounds = []
    for number, entries in enumerate(session.days, start=1):
        row = []
        for player in session.players:
            lines = score_lines(entries[player])
            points = sum(line.points for line in lines)
            running[player] += points
            best = best_day[player]
            best_day[player] = points if best is None else max(best, points)
            row.append(PlayerRound(player, lines, points, running[player]))
        rounds.append(RoundResult(number, tuple(row)))
    complete = len(session.days) == DAYS
    best = {p: (v if v is not None else 0) for p, v in best_day.items()}
    return decided_result(GAME, session.players, rounds, DAYS, running, complete, best, TieBreak.BEST_DAY)


def entry_to_raw(state: DayEntry) -> dict:
    """The session-file form of one player's day (what ``pnp score add`` writes)."""
    return {
        "prey": {card: state.prey[card] for card in CARDS},
        "hand": {card: state.hand[card] for card in CARDS},
        "hunter_under_lodge": state.hunter_under_lodge,
        "lodge_flipped": state.lodge_flipped,
    }


__all__ = [
    "CARDS",
    "SET",
    "PREY_POINTS",
    "HAND_POINTS",
    "FLIPPED_LODGE_POINTS",
    "DAYS",
    "DayEntry",
    "HuntingFeverSession",
    "entry",
    "check_player_day",
    "check_day",
    "day_score",
    "score",
    "entry_to_raw",
]
