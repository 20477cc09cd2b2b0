"""Hunting Fever, round by round: the project's own resolution of the rules.

Pure functions over immutable values.  A table is a tuple of :class:`Seat`,
in clockwise order; the next seat clockwise is the left neighbour who receives
"Hunt Starts Here" at the end of a round.  :func:`play_round` takes the table,
the card each seat plays and the seat holding Hunt Starts Here, and returns the
next table; :func:`replay_day` plays a whole day and returns what the players
count at its end.  :mod:`scoring.hunting_fever_proof` replays every witness it
finds through these functions before returning it.

A round, as the rules resolve it:

1. Closed Season: if one is played together with at least one Hunter, every
   played Hunter goes to its owner's prey pile as a poacher and every player
   who played Closed Season flips their lodge.  Closed Season is a Carrot for
   the rest of the round (and for rabbits in any round).
2. Hunters (only when no Closed Season is played), in clockwise order from the
   Hunt Starts Here holder: each takes the first Wolf clockwise from its seat
   and goes back to hand; with no Wolf left it goes under its lodge.
3. Wolves still in play, in the same order, take the first Rabbit; a Wolf that
   finds none goes back to hand, except when every player played a Wolf and
   none caught anything: then they all stay.
4. Rabbits still in play do the same with Carrots and Closed Season cards.
5. Carrots stay.

"First clockwise" looks at the other seats only (nobody takes from their own
Easy Prey) and, at each seat, at the Easy Prey card before the card just
played.  At the end of the round each Easy Prey card that was not taken goes
to its owner's prey pile, each card still above a lodge becomes that seat's
Easy Prey; then, and only then, the day ends if a hand is empty (a card back in
hand during the round counts); the last Easy Prey cards then go to the prey piles too.
"""

from __future__ import annotations

from typing import Iterable, Mapping, NamedTuple, Sequence

from scoring.hunting_fever import CARDS, SET, DayEntry, entry

#: What each animal takes, in the order the rules resolve them.
HUNTS = (("hunter", ("wolf",)), ("wolf", ("rabbit",)), ("rabbit", ("carrot", "closed_season")))


class IllegalPlay(ValueError):
    """A round that the rules do not allow: a card not in hand, a round after the day's end."""


class Seat(NamedTuple):
    """One player's side of the table between two rounds.

    ``hand`` and ``prey`` count cards by kind (every kind present);
    ``easy_prey`` is the card left above the lodge last round, if any (always
    the seat's own card).
    """

    hand: Mapping[str, int]
    prey: Mapping[str, int]
    easy_prey: str | None = None
    hunter_under_lodge: bool = False
    lodge_flipped: bool = False

    @property
    def hand_is_empty(self) -> bool:
        return not any(self.hand.values())


def _counts(base: Mapping[str, int], card: str | None, by: int) -> dict[str, int]:
    counts = dict(base)
    if card is not None:
        counts[card] += by
    return counts


def fresh_table(players: int) -> tuple[Seat, ...]:
    """The table at the start of a hunting day: full hands, nothing else."""
    return tuple(Seat(hand=dict(SET), prey={card: 0 for card in CARDS}) for _ in range(players))


def day_is_over(table: Sequence[Seat]) -> bool:
    """Asked at the end of a round, never during it: the day is over if at least one player has
    no card left in hand."""
    return any(seat.hand_is_empty for seat in table)


def _first_clockwise(taker: int, kinds: tuple[str, ...], easy_prey: list, played: list) -> tuple[str, int] | None:
    """Where the first card of ``kinds`` clockwise from ``taker`` lies: ("easy_prey" or "played", seat)."""
    players = len(played)
    for step in range(1, players):
        seat = (taker + step) % players
        if easy_prey[seat] in kinds:
            return "easy_prey", seat
        if played[seat] in kinds:
            return "played", seat
    return None


def play_round(table: Sequence[Seat], cards: Sequence[str], holder: int) -> tuple[Seat, ...]:
    """The table after one round in which seat ``i`` plays ``cards[i]``; ``holder`` has Hunt Starts Here.

    Raises :class:`IllegalPlay` if a card is not in its player's hand or the day is already over.

    >>> table = play_round(fresh_table(3), ["hunter", "wolf", "rabbit"], holder=0)
    >>> table[0].prey["wolf"], table[0].hand["hunter"], table[2].hand["rabbit"]
    (1, 1, 3)
    """
    players = len(table)
    if len(cards) != players:
        raise IllegalPlay(f"{len(cards)} cards played by {players} players")
    if day_is_over(table):
        raise IllegalPlay("the day is already over")
    for seat, card in zip(table, cards):
        if card not in SET or seat.hand[card] < 1:
            raise IllegalPlay(f"{card!r} is not in hand")
    order = [(holder + step) % players for step in range(players)]
    played: list[str | None] = list(cards)
    easy_prey: list[str | None] = [seat.easy_prey for seat in table]
    hand = [_counts(seat.hand, card, -1) for seat, card in zip(table, cards)]
    prey = [dict(seat.prey) for seat in table]
    under = [seat.hunter_under_lodge for seat in table]
    flipped = [seat.lodge_flipped for seat in table]

    if "closed_season" in cards and "hunter" in cards:
        for i, card in enumerate(cards):
            if card == "hunter":
                prey[i]["hunter"] += 1
                played[i] = None
            elif card == "closed_season":
                flipped[i] = True

    for animal, kinds in HUNTS:
        fed = False
        hungry = []
        for i in order:
            if played[i] != animal:
                continue  # none played here, or it was itself taken earlier this round
            found = _first_clockwise(i, kinds, easy_prey, played)
            if found is None:
                hungry.append(i)
                continue
            place, seat = found
            source = easy_prey if place == "easy_prey" else played
            prey[i][source[seat]] += 1
            source[seat] = None
            fed = True
            if animal == "hunter":
                played[i] = None
                hand[i]["hunter"] += 1
        if animal == "hunter":
            for i in hungry:
                played[i] = None
                under[i] = True
        elif fed or not all(card == animal for card in cards):
            for i in hungry:
                played[i] = None
                hand[i][animal] += 1
        # else the special case: everyone played this animal, none ate, all stay

    for i in range(players):
        if easy_prey[i] is not None:
            prey[i][easy_prey[i]] += 1
    return tuple(
        Seat(hand=hand[i], prey=prey[i], easy_prey=played[i], hunter_under_lodge=under[i], lodge_flipped=flipped[i])
        for i in range(players)
    )


def end_of_day(table: Sequence[Seat]) -> tuple[Seat, ...]:
    """The table once the day is over: every Easy Prey card in its owner's prey pile."""
    return tuple(seat._replace(prey=_counts(seat.prey, seat.easy_prey, +1), easy_prey=None) for seat in table)


def replay_day(players: int, start: int, rounds: Iterable[Sequence[str]]) -> tuple[Seat, ...]:
    """Play a whole day from fresh hands; ``start`` holds Hunt Starts Here in round 1.

    Raises :class:`IllegalPlay` if a round breaks the rules, comes after the
    day's end, or if the rounds stop before a hand is empty.
    """
    table = fresh_table(players)
    holder = start
    for cards in rounds:
        table = play_round(table, cards, holder)
        holder = (holder + 1) % players
    if not day_is_over(table):
        raise IllegalPlay("every hand still holds cards after the last round")
    return end_of_day(table)


def as_entry(seat: Seat) -> DayEntry:
    """What a player enters at the end of the day for this seat."""
    return entry(prey=seat.prey, hand=seat.hand, hunter_under_lodge=seat.hunter_under_lodge,
                 lodge_flipped=seat.lodge_flipped)


__all__ = ["IllegalPlay", "Seat", "as_entry", "day_is_over", "end_of_day", "fresh_table", "play_round", "replay_day"]
