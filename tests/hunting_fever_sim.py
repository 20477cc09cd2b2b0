"""A small Hunting Fever simulator: plays hunting days under the rules, card by card.

It is the tests' independent witness of what end-of-day states can exist; it
shares no code with ``scoring``.  Seats are in clockwise order and the left
neighbour who receives "Hunt Starts Here" is the next seat clockwise.

Per round: everyone plays a card face down, then reveal and resolve
1. closed season (with a hunter played: hunters go to their own prey pile as
   poachers, closed-season players flip their lodge),
2. hunters, clockwise from the Hunt Starts Here holder: take the first wolf
   clockwise (easy prey before the played card at each lodge, never from one's
   own easy prey) and go back to hand, or go under the lodge,
3. wolves the same way on rabbits (hungry wolves back to hand, unless everyone
   played a wolf and no rabbit was caught),
4. rabbits the same way on carrots and closed-season cards,
5. carrots stay.
End of round: easy prey to the owner's prey pile, played cards to easy prey,
Hunt Starts Here to the left; then, and only then, the day ends if a hand is
empty (a card back in hand during the round counts), and easy prey goes to the
prey pile.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Iterator

KINDS = ("hunter", "wolf", "rabbit", "carrot", "closed_season")
SET = {"hunter": 1, "wolf": 2, "rabbit": 3, "carrot": 3, "closed_season": 1}
VALUE = {"hunter": 4, "wolf": 4, "rabbit": 2, "carrot": 1, "closed_season": 1}
PREY_SIGN = {"hunter": -1, "wolf": 1, "rabbit": 1, "carrot": 1, "closed_season": 1}
ROUND_LIMIT = 1000

#: (seat, hand) -> kind to play; the default plays a random card of the hand.
Chooser = Callable[[int, Counter], str]


@dataclass
class Seat:
    hand: Counter = field(default_factory=lambda: Counter(SET))
    played: str | None = None
    easy_prey: list[str] = field(default_factory=list)  # at most one card: last round's play
    prey: Counter = field(default_factory=Counter)
    hunter_under_lodge: bool = False
    lodge_flipped: bool = False

    def hand_size(self) -> int:
        return sum(self.hand.values())


@dataclass
class DayState:
    """The end of a hunting day, as the players count it."""

    seats: list[Seat]
    rounds: int
    next_holder: int

    def score(self, seat: int) -> int:
        """The scoring table, written independently of ``scoring``."""
        state = self.seats[seat]
        points = sum(PREY_SIGN[k] * VALUE[k] * state.prey[k] for k in KINDS)
        points -= sum(VALUE[k] * state.hand[k] for k in KINDS)
        return points + (4 if state.lodge_flipped else 0)

    def session_day(self, players: list[str]) -> dict:
        return {
            name: {
                "prey": {k: self.seats[i].prey[k] for k in KINDS},
                "hand": {k: self.seats[i].hand[k] for k in KINDS},
                "hunter_under_lodge": self.seats[i].hunter_under_lodge,
                "lodge_flipped": self.seats[i].lodge_flipped,
            }
            for i, name in enumerate(players)
        }


def random_chooser(rng: random.Random) -> Chooser:
    def choose(seat: int, hand: Counter) -> str:
        return rng.choice(sorted(hand.elements()))

    return choose


def themed_chooser(rng: random.Random, rabbits: float = 0.3, wolves: float = 0.15) -> Chooser:
    """Random play in which some rounds lean to one animal for every player.

    Uniform random play almost never has every player play a Rabbit (or a
    Wolf) in the same round; this chooser makes those rounds, and the
    special case they trigger, common.
    """
    theme: list[str | None] = [None]

    def choose(seat: int, hand: Counter) -> str:
        if seat == 0:
            draw = rng.random()
            theme[0] = "rabbit" if draw < rabbits else "wolf" if draw < rabbits + wolves else None
        if theme[0] and hand[theme[0]] > 0 and rng.random() < 0.9:
            return theme[0]
        return rng.choice(sorted(hand.elements()))

    return choose


def _take(seats: list[Seat], taker: int, kinds: tuple[str, ...]) -> str | None:
    """The first card of ``kinds`` clockwise from ``taker``; removed from play and returned."""
    n = len(seats)
    for step in range(1, n):
        seat = seats[(taker + step) % n]
        for card in seat.easy_prey:  # easy prey is closer than the card just played
            if card in kinds:
                seat.easy_prey.remove(card)
                return card
        if seat.played in kinds:
            card, seat.played = seat.played, None
            return card
    return None


def _predators(seats: list[Seat], holder: int, hunter_kind: str, prey_kinds: tuple[str, ...]) -> None:
    """Wolves on rabbits or rabbits on carrots, with hungry animals and the special case."""
    n = len(seats)
    everyone = all(seat.played == hunter_kind for seat in seats)
    caught = False
    hungry = []
    for step in range(n):
        i = (holder + step) % n
        if seats[i].played != hunter_kind:
            continue  # never played one, or it was itself caught earlier this round
        card = _take(seats, i, prey_kinds)
        if card is None:
            hungry.append(i)
        else:
            seats[i].prey[card] += 1
            caught = True
    if everyone and not caught:
        return  # special case: they all stay where they are
    for i in hungry:
        seats[i].played = None
        seats[i].hand[hunter_kind] += 1


def play_round(seats: list[Seat], holder: int, choose: Chooser) -> None:
    n = len(seats)
    for i, seat in enumerate(seats):
        kind = choose(i, seat.hand)
        assert seat.hand[kind] > 0, (i, kind)
        seat.hand[kind] -= 1
        seat.played = kind
    played = [seat.played for seat in seats]
    if "closed_season" in played and "hunter" in played:
        for seat in seats:
            if seat.played == "hunter":
                seat.prey["hunter"] += 1
                seat.played = None
            elif seat.played == "closed_season":
                seat.lodge_flipped = True
    elif "closed_season" not in played:
        for step in range(n):
            i = (holder + step) % n
            if seats[i].played != "hunter":
                continue
            wolf = _take(seats, i, ("wolf",))
            seats[i].played = None
            if wolf is None:
                seats[i].hunter_under_lodge = True
            else:
                seats[i].prey["wolf"] += 1
                seats[i].hand["hunter"] += 1
    _predators(seats, holder, "wolf", ("rabbit",))
    _predators(seats, holder, "rabbit", ("carrot", "closed_season"))
    for seat in seats:
        for card in seat.easy_prey:
            seat.prey[card] += 1
        seat.easy_prey = [seat.played] if seat.played else []
        seat.played = None


def play_day(players: int, holder: int, rng: random.Random, choose: Chooser | None = None) -> DayState:
    """Play one hunting day from fresh sets; ``holder`` has Hunt Starts Here."""
    choose = choose or random_chooser(rng)
    seats = [Seat() for _ in range(players)]
    for rounds in range(1, ROUND_LIMIT + 1):
        play_round(seats, holder, choose)
        holder = (holder + 1) % players
        if any(seat.hand_size() == 0 for seat in seats):
            for seat in seats:
                for card in seat.easy_prey:
                    seat.prey[card] += 1
                seat.easy_prey = []
            return DayState(seats, rounds, holder)
    raise RuntimeError("the day never ended")


def play_game(names: list[str], rng: random.Random, days: int = 4) -> Iterator[DayState]:
    """Four hunting days; the first holder is drawn at random, then the card keeps moving."""
    holder = rng.randrange(len(names))
    for _ in range(days):
        state = play_day(len(names), holder, rng)
        holder = state.next_holder
        yield state


def session(names: list[str], states: list[DayState]) -> dict:
    return {"game": "hunting-fever", "players": list(names), "days": [s.session_day(names) for s in states]}
