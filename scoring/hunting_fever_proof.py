"""Decide whether an entered Hunting Fever day can happen: a witness, or numbers that cannot all be right.

A day is encoded as a SAT formula (python-sat, loaded only when a day is
proved) built once per player count and day length, and kept with its solver
for every later day: the entered numbers are never written into the formula
but passed to the solver as assumptions, so the solver keeps what it learnt.

Round ``t`` of a formula is led by seat ``t mod n`` (``n`` players).  The day
itself begins in one of the formula's first ``n`` rounds, the rounds before it
idle, so one formula covers every seat holding Hunt Starts Here first.

How long a day can be, :func:`horizon`: in a round in which no card leaves
a hand for good, every card played comes back, so nobody played a Carrot or
Closed Season, no Hunter went under its lodge or was caught poaching, and no
Wolf or Rabbit stayed out; Wolves and Rabbits cannot both have been played
(the first Wolf would take a played Rabbit and stay), and all Wolves or all
Rabbits with nothing eaten stay out; so a Hunter played and took a Wolf, and
that Wolf was lying in Easy Prey (one taken as it was played would have left
its owner's hand).  Each Wolf is taken once, so there are at most ``2 n``
such rounds.  In every other round a card leaves a hand for good, and before
the last round every hand still holds a card: at most ``9 n`` such rounds,
then the last one.  No day lasts more than ``11 n + 1`` rounds.

Days are searched first among short ones (:data:`SHORT_DAY` rounds, where
witnesses are found fastest); only the complete formula answers
"impossible", and its unsatisfiable core, made minimal, names the entered
numbers that cannot all be right together (numbers are tried without on
the short formula first).  Every formula also says who took whose cards,
which the rounds imply but which makes refuting quick.  Every witness is
replayed through :mod:`scoring.hunting_fever_play` before it is returned.
"""

from __future__ import annotations

import atexit
import functools
import gc
from typing import Iterable, Mapping, NamedTuple, Sequence

from scoring.hunting_fever import CARDS, SET, DayEntry, HuntingFeverProblem, HuntingFeverSession
from scoring.hunting_fever_play import IllegalPlay, as_entry, replay_day
from scoring.problems import Problem
from scoring.rules import Proofs
from scoring.terms import Label, Term, label

#: Witnesses are looked for among days this short first (plus the rounds
#: that let any seat start); most days are found there, and faster.
SHORT_DAY = 12
#: Then a formula of days this long, before the complete one without limit.
MEDIUM_DAY = 24
#: Conflicts the complete formula gets before the medium days are tried.
QUICK_CONFLICTS = 2000
#: Conflicts each shorter formula gets: a witness needs far fewer, while
#: refuting a few numbers alone can take minutes.
SEARCH_CONFLICTS = 5000
#: Conflicts the medium formula gets: a long witness takes more finding.
LONG_SEARCH_CONFLICTS = 30000
#: How a refusal's fact is tried without: (formula rounds, None for the
#: complete formula; conflicts), one step after the other until one decides.
#: The short formula finds most witnesses in a few hundred conflicts but can
#: spend thousands failing to refute what the complete formula refutes in a
#: few; so each gets a little first, then more.
TRIAL_STEPS = ((SHORT_DAY, 200), (None, 300), (SHORT_DAY, 2000), (None, QUICK_CONFLICTS), (SHORT_DAY, SEARCH_CONFLICTS))
#: The python-sat solver: on these formulas it found witnesses fastest.
SOLVER = "glucose4"
#: Kinds that can lie in Easy Prey (a Hunter never stays above a lodge).
EASY_PREY_KINDS = ("wolf", "rabbit", "carrot", "closed_season")
CARDS_IN_HAND = sum(SET.values())


def horizon(players: int) -> int:
    """The most rounds a day can last with ``players`` players (see the module docstring)."""
    return 11 * players + 1


# -- clauses -------------------------------------------------------------------

# A literal is a non-zero int, or True / False when its value is known while
# the formula is built; constants are folded away and never reach the solver.


def _neg(lit):
    return (not lit) if isinstance(lit, bool) else -lit


def at_least(counter: list, count: int):
    """The literal "at least ``count``" of a counter (True for 0, False past its end)."""
    if count <= 0:
        return True
    return counter[count - 1] if count <= len(counter) else False


class _Formula:
    """Clauses being built, with helpers that define new literals."""

    def __init__(self) -> None:
        self.top = 0
        self.clauses: list[list[int]] = []
        #: counters already built, by inputs and cap: the same counts are stated in several places
        self.counters: dict[tuple, list] = {}

    def var(self) -> int:
        self.top += 1
        return self.top

    def add(self, *lits) -> None:
        clause = []
        for lit in lits:
            if lit is True:
                return
            if lit is not False:
                clause.append(lit)
        self.clauses.append(clause)

    def all_of(self, *lits):
        """A literal true exactly when every one of ``lits`` is."""
        kept = []
        for lit in lits:
            if lit is False:
                return False
            if lit is not True:
                kept.append(lit)
        if not kept:
            return True
        if len(kept) == 1:
            return kept[0]
        v = self.var()
        for lit in kept:
            self.clauses.append([-v, lit])
        self.clauses.append([v] + [-lit for lit in kept])
        return v

    def any_of(self, *lits):
        """A literal true exactly when at least one of ``lits`` is."""
        kept = []
        for lit in lits:
            if lit is True:
                return True
            if lit is not False:
                kept.append(lit)
        if not kept:
            return False
        if len(kept) == 1:
            return kept[0]
        v = self.var()
        for lit in kept:
            self.clauses.append([v, -lit])
        self.clauses.append([-v] + kept)
        return v

    def at_most_one(self, lits) -> None:
        kept = [lit for lit in lits if lit is not False]
        for a in range(len(kept)):
            for b in range(a + 1, len(kept)):
                self.add(_neg(kept[a]), _neg(kept[b]))

    def counter(self, inputs: list, cap: int) -> list:
        """A counter of the true ``inputs``: its literal ``c - 1`` says "at least c", up to ``cap``.

        A totaliser with clauses both ways, so that an assumed count also
        propagates back onto the inputs.
        """
        inputs = tuple(lit for lit in inputs if lit is not False)
        if len(inputs) <= 1:
            return list(inputs[:cap])
        built = self.counters.get((inputs, cap))
        if built is None:
            middle = len(inputs) // 2
            built = self.merge(self.counter(inputs[:middle], cap), self.counter(inputs[middle:], cap), cap)
            self.counters[(inputs, cap)] = built
        return built

    def merge(self, left: list, right: list, cap: int) -> list:
        """The counter of the sum of two counters, up to ``cap``."""
        if not left or not right:
            return (left or right)[:cap]
        size = min(len(left) + len(right), cap)
        out = list(range(self.top + 1, self.top + size + 1))
        self.top += size
        # at least a on the left is held[a]: True for 0, False past the end
        held_left, held_right = [True, *left, False], [True, *right, False]
        clauses = self.clauses
        # (the hottest loop of a build: the clauses are written out, constants folded by hand)
        for a in range(len(left) + 1):
            this, more = held_left[a], held_left[a + 1]
            for b in range(len(right) + 1):
                if a + b > 0:
                    # a on the left and b on the right make at least a + b
                    other = held_right[b]
                    if this is not False and other is not False:
                        clause = [out[min(a + b, size) - 1]]
                        if this is not True:
                            clause.append(-this)
                        if other is not True:
                            clause.append(-other)
                        clauses.append(clause)
                if a + b < size:
                    # fewer than a + 1 and fewer than b + 1 make fewer than a + b + 1
                    other = held_right[b + 1]
                    if more is not True and other is not True:
                        clause = [-out[a + b]]
                        if more is not False:
                            clause.append(more)
                        if other is not False:
                            clause.append(other)
                        clauses.append(clause)
        return out

    def same_count(self, left: list, right: list) -> None:
        """Both counters count the same number."""
        for count in range(1, max(len(left), len(right)) + 1):
            a, b = at_least(left, count), at_least(right, count)
            self.add(_neg(a), b)
            self.add(a, _neg(b))


# -- one round -----------------------------------------------------------------


def _takes(f: _Formula, players: int, order: list[int], takers: list, *, easy_prey: list, played: list):
    """One step of a round: each taker, in ``order``, takes the first prey clockwise from its seat.

    ``easy_prey[j]`` and ``played[j]`` say whether seat ``j``'s Easy Prey or
    played card is a prey of this step.  A position is ``(seat, 0)`` for Easy
    Prey, ``(seat, 1)`` for the played card; a taker looks at the other seats
    clockwise, Easy Prey first at each.  Returns ``take[taker][position]`` and
    ``taken[position]``.
    """
    rank = {seat: r for r, seat in enumerate(order)}
    prey = {}
    for j in range(players):
        prey[(j, 0)] = easy_prey[j]
        prey[(j, 1)] = played[j]
    look = {i: [((i + step) % players, slot) for step in range(1, players) for slot in (0, 1)] for i in range(players)}
    take = {
        i: {p: (f.var() if takers[i] is not False and prey[p] is not False else False) for p in look[i]}
        for i in range(players)
    }
    for i in order:
        earlier = [other for other in range(players) if rank[other] < rank[i]]
        for m, p in enumerate(look[i]):
            t = take[i][p]
            if t is not False:
                f.add(-t, takers[i])
                f.add(-t, prey[p])
                for q in look[i][:m]:
                    # p is the first prey left: each prey before it went to an earlier taker
                    f.add(-t, _neg(prey[q]), *[take[other][q] for other in earlier if other != q[0]])
            # a taker that finds this prey still there takes it or one before it
            f.add(
                _neg(takers[i]),
                _neg(prey[p]),
                *[take[i][q] for q in look[i][: m + 1]],
                *[take[other][p] for other in earlier if other != p[0]],
            )
        f.at_most_one(take[i].values())
    taken = {}
    for p in prey:
        by = [take[i][p] for i in range(players) if i != p[0]]
        f.at_most_one(by)
        taken[p] = f.any_of(*by)
    return take, taken


class _Seat(NamedTuple):
    """One seat between rounds, as literals: ``hand[card][c - 1]`` is "at least c in hand"."""

    hand: dict
    easy_prey: dict
    hunter_under_lodge: object
    lodge_flipped: object


class _Flows(NamedTuple):
    """What one seat's cards did over the day, one literal per round in each list."""

    caught: dict  # by this seat's animals, by kind taken
    own: dict  # this seat's own cards into its pile (Easy Prey back, poacher)
    taken_played: dict  # this seat's cards taken as they were played, by kind
    taken_easy_prey: dict  # this seat's cards taken from its Easy Prey, by kind
    taken_by: dict  # (other seat, kind): this seat's cards that other seat's animals took


def _round(f: _Formula, players: int, t: int, active, *, table: list[_Seat], flows: list[_Flows], stay_alls: dict):
    """The clauses of round ``t``; returns each seat's plays and the next table.

    The steps follow the rules' order of resolution (each a method of :class:`_Round`),
    and make their variables in that order.
    """
    step = _Round(f, players, t, active, table=table)
    step.closed_season()
    step.hunters()
    step.wolves()
    step.rabbits()
    step.record(flows, stay_alls)
    return step.play, step.next_table()


class _Round:
    """One round's clauses, built step by step: what each seat plays, what each kind of card
    does in turn, what stays above the lodges, and the hands and Easy Prey after it."""

    def __init__(self, f: _Formula, players: int, t: int, active, *, table: list[_Seat]) -> None:
        self.f, self.n, self.active, self.table = f, players, active, table
        self.seats = range(players)
        self.order = [(t % players + step) % players for step in self.seats]
        self.play = [self._plays(i) for i in self.seats]
        self.easy = [seat.easy_prey for seat in table]

    def _plays(self, i: int) -> dict:
        """Seat ``i`` plays exactly one card it holds in an active round, none in an idle one."""
        f, table, active = self.f, self.table, self.active
        row = {card: (f.var() if table[i].hand[card][0] is not False and active is not False else False)
               for card in CARDS}
        f.add(_neg(active), *row.values())
        f.at_most_one(row.values())
        for card, lit in row.items():
            if lit is not False:
                f.add(-lit, active)
                f.add(-lit, table[i].hand[card][0])
        return row

    def closed_season(self) -> None:
        """1. Closed Season: a Hunter played beside it is a poacher, and its player's lodge flips."""
        f, play, seats = self.f, self.play, self.seats
        self.closed_played = f.any_of(*[play[i]["closed_season"] for i in seats])
        hunter_played = f.any_of(*[play[i]["hunter"] for i in seats])
        self.poacher = [f.all_of(play[i]["hunter"], self.closed_played) for i in seats]
        self.flipped = [f.any_of(self.table[i].lodge_flipped, f.all_of(play[i]["closed_season"], hunter_played))
                        for i in seats]

    def hunters(self) -> None:
        """2. Hunters take Wolves; a Hunter that takes none goes under its lodge."""
        f, play, seats = self.f, self.play, self.seats
        hunting = [f.all_of(play[i]["hunter"], _neg(self.closed_played)) for i in seats]
        self.take_h, self.taken_h = _takes(f, self.n, self.order, hunting, easy_prey=[e["wolf"] for e in self.easy],
                                           played=[p["wolf"] for p in play])
        self.caught_wolf = [f.any_of(*self.take_h[i].values()) for i in seats]
        self.under = [f.any_of(self.table[i].hunter_under_lodge, f.all_of(hunting[i], _neg(self.caught_wolf[i])))
                      for i in seats]

    def wolves(self) -> None:
        """3. Wolves take Rabbits; when every seat played a Wolf and none took, they all stay."""
        f, play, seats = self.f, self.play, self.seats
        wolves = [f.all_of(play[i]["wolf"], _neg(self.taken_h[(i, 1)])) for i in seats]
        self.take_w, self.taken_w = _takes(f, self.n, self.order, wolves,
                                           easy_prey=[e["rabbit"] for e in self.easy],
                                           played=[p["rabbit"] for p in play])
        self.caught_rabbit = [f.any_of(*self.take_w[i].values()) for i in seats]
        self.wolves_stay_all = f.all_of(*[p["wolf"] for p in play], *[_neg(c) for c in self.caught_rabbit])

    def rabbits(self) -> None:
        """4. Rabbits eat Carrots and Closed Season cards (one card each); when every seat
        played a Rabbit and none ate, they all stay."""
        f, play, seats, easy = self.f, self.play, self.seats, self.easy
        self.take_r, self.taken_r = _takes(
            f, self.n, self.order, [f.all_of(play[i]["rabbit"], _neg(self.taken_w[(i, 1)])) for i in seats],
            easy_prey=[f.any_of(e["carrot"], e["closed_season"]) for e in easy],
            played=[f.any_of(p["carrot"], p["closed_season"]) for p in play],
        )
        self.ate = [f.any_of(*self.take_r[i].values()) for i in seats]
        self.ate_closed = [self._ate_closed_season(i) for i in seats]
        self.ate_carrot = [f.all_of(self.ate[i], _neg(self.ate_closed[i])) for i in seats]
        self.rabbits_stay_all = f.all_of(*[p["rabbit"] for p in play], *[_neg(a) for a in self.ate])

    def _ate_closed_season(self, i: int):
        """Whether what seat ``i``'s Rabbit ate was a Closed Season card (it took exactly one card)."""
        f, take = self.f, self.take_r[i]
        closed_at = {p: (self.easy if p[1] == 0 else self.play)[p[0]]["closed_season"] for p in take}
        if self.ate[i] is False or all(lit is False for lit in closed_at.values()):
            return False
        v = f.var()
        f.add(-v, self.ate[i])
        for p, lit in take.items():
            f.add(_neg(lit), _neg(closed_at[p]), v)
            f.add(-v, _neg(lit), closed_at[p])
        return v

    def record(self, flows: list[_Flows], stay_alls: dict) -> None:
        """5. What stays above each lodge, to become Easy Prey; and each seat's flows of cards."""
        f, play, seats = self.f, self.play, self.seats
        taken_r = self.taken_r
        self.stays = [
            {
                "wolf": f.all_of(play[i]["wolf"], f.any_of(self.caught_rabbit[i], self.wolves_stay_all)),
                "rabbit": f.all_of(play[i]["rabbit"], f.any_of(self.ate[i], self.rabbits_stay_all)),
                "carrot": f.all_of(play[i]["carrot"], _neg(taken_r[(i, 1)])),
                "closed_season": f.all_of(play[i]["closed_season"], _neg(taken_r[(i, 1)])),
            }
            for i in seats
        ]
        for i in seats:
            self._record_seat(i, flows[i])
        stay_alls["wolf"].append(self.wolves_stay_all)
        stay_alls["rabbit"].append(self.rabbits_stay_all)

    def _record_seat(self, i: int, flow: _Flows) -> None:
        f, play, easy, active = self.f, self.play, self.easy, self.active
        taken_from = {"wolf": self.taken_h, "rabbit": self.taken_w, "carrot": self.taken_r,
                      "closed_season": self.taken_r}
        flow.own["hunter"].append(self.poacher[i])
        flow.caught["wolf"].append(self.caught_wolf[i])
        flow.caught["rabbit"].append(self.caught_rabbit[i])
        flow.caught["carrot"].append(self.ate_carrot[i])
        flow.caught["closed_season"].append(self.ate_closed[i])
        for card in EASY_PREY_KINDS:
            # Easy Prey nobody took goes to its owner's pile at the end of the round
            flow.own[card].append(f.all_of(active, easy[i][card], _neg(taken_from[card][(i, 0)])))
            if card in ("wolf", "rabbit"):
                flow.taken_played[card].append(taken_from[card][(i, 1)])
                flow.taken_easy_prey[card].append(taken_from[card][(i, 0)])
            else:
                flow.taken_played[card].append(f.all_of(self.taken_r[(i, 1)], play[i][card]))
                flow.taken_easy_prey[card].append(f.all_of(self.taken_r[(i, 0)], easy[i][card]))
        for j in self.seats:
            if j == i:
                continue
            # seat j's animals took seat i's cards: one card a round at most
            flow.taken_by[(j, "wolf")].append(f.any_of(self.take_h[j][(i, 0)], self.take_h[j][(i, 1)]))
            flow.taken_by[(j, "rabbit")].append(f.any_of(self.take_w[j][(i, 0)], self.take_w[j][(i, 1)]))
            for card in ("carrot", "closed_season"):
                flow.taken_by[(j, card)].append(f.any_of(f.all_of(self.take_r[j][(i, 0)], easy[i][card]),
                                                         f.all_of(self.take_r[j][(i, 1)], play[i][card])))

    def next_table(self) -> list[_Seat]:
        """End of the round: hands lose the cards that did not come back; an idle round
        (before the day or after it) keeps Easy Prey where it is."""
        f, play, stays = self.f, self.play, self.stays
        leaves = [
            {
                "hunter": f.all_of(play[i]["hunter"], _neg(self.caught_wolf[i])),
                "wolf": f.any_of(self.taken_h[(i, 1)], stays[i]["wolf"]),
                "rabbit": f.any_of(self.taken_w[(i, 1)], stays[i]["rabbit"]),
                "carrot": play[i]["carrot"],
                "closed_season": play[i]["closed_season"],
            }
            for i in self.seats
        ]
        idle = _neg(self.active)
        new_table = []
        for i in self.seats:
            hand = {card: _one_less(f, self.table[i].hand[card], leaves[i][card]) for card in CARDS}
            new_easy = {card: f.any_of(stays[i][card], f.all_of(idle, self.easy[i][card])) for card in EASY_PREY_KINDS}
            new_table.append(_Seat(hand, new_easy, self.under[i], self.flipped[i]))
        return new_table


def _one_less(f: _Formula, held: list, leaves) -> list:
    """The "at least c in hand" literals after the round, one card fewer when ``leaves``."""
    new = []
    for c in range(1, len(held) + 1):
        now, above = held[c - 1], (held[c] if c < len(held) else False)
        if now is False or leaves is False:
            new.append(now)
            continue
        v = f.var()
        f.add(_neg(above), v)
        f.add(now, -v)
        f.add(_neg(now), leaves, v)
        f.add(above, _neg(leaves), -v)
        new.append(v)
    return new


# -- one day -------------------------------------------------------------------


class DayModel(NamedTuple):
    """A day's clauses and the literals that name what is entered at its end."""

    players: int
    rounds: int
    clauses: list
    #: starts[s]: seat s holds Hunt Starts Here in the day's first round.
    starts: list
    #: active[t]: round t of the formula is one of the day's rounds.
    active: list
    #: plays[t][seat][card]: that seat plays that card in round t.
    plays: list
    #: hand[seat][card] and prey[seat][card]: counters of the end of the day.
    hand: list
    prey: list
    hunter_under_lodge: list
    lodge_flipped: list


def _pile_cap(players: int, card: str) -> int:
    """The most cards of a kind one prey pile can hold: own cards, plus one per own animal that eats them."""
    if card == "hunter":
        return SET["hunter"]
    if card == "wolf":
        return SET["wolf"] * players
    if card == "rabbit":
        return SET["rabbit"] + SET["wolf"]
    if card == "carrot":
        return SET["carrot"] + SET["rabbit"]
    return min(SET["closed_season"] * players, SET["closed_season"] + SET["rabbit"])


def _account(f: _Formula, players: int, seat: _Seat, flows: _Flows, *, stay_alls: dict) -> dict:
    """One seat's prey pile counters, and the card accounting that ties them to its hand.

    The pile is what the seat's animals caught plus its own cards back.  The
    other clauses follow from the rounds, but stated on counts they let the
    solver see at once a count no play can reach (the reasoning of
    :mod:`scoring.hunting_fever_counting`, and more).  Each counter reaches
    one past the most it can count, so that an overflow shows.
    """
    caught = {card: f.counter(flows.caught[card], _pile_cap(players, card) + 1) for card in CARDS}
    own = {card: f.counter(flows.own[card], SET[card] + 1) for card in CARDS}
    pile = {card: f.merge(caught[card], own[card], _pile_cap(players, card) + 1) for card in CARDS}
    meals = f.merge(caught["carrot"], caught["closed_season"], SET["rabbit"] + 1)
    fed = {"wolf": caught["rabbit"], "rabbit": meals}
    for card in EASY_PREY_KINDS:
        most = SET[card] + 1
        left_hand = [_neg(lit) for lit in reversed(seat.hand[card])]  # "at least c left the hand for good"
        stayed = f.merge(own[card], f.counter(flows.taken_easy_prey[card], most), most)
        # a card that left the hand was taken as it was played, or stayed above the lodge
        f.same_count(left_hand, f.merge(f.counter(flows.taken_played[card], most), stayed, most))
        if card in fed:
            # a Wolf or a Rabbit stays after it ate, or when every player played one and none ate
            f.same_count(stayed, f.merge(fed[card], f.counter(stay_alls[card], most), most))
    return pile


def _transport(f: _Formula, players: int, table: list[_Seat], flows: list[_Flows]) -> None:
    """Who took whose cards: each seat's cards that left its hand and are not back in its own pile
    were taken by the other seats' animals, and what a seat's animals took came from the others."""
    seats = range(players)
    for card in EASY_PREY_KINDS:
        most = SET[card] + 1
        took = {(i, j): f.counter(flows[i].taken_by[(j, card)], most) for i in seats for j in seats if i != j}
        for i in seats:
            lost = f.counter(flows[i].own[card], most)
            for j in seats:
                if j != i:
                    lost = f.merge(lost, took[(i, j)], most)
            f.same_count([_neg(lit) for lit in reversed(table[i].hand[card])], lost)
            caught = []
            for j in seats:
                if j != i:
                    caught = f.merge(caught, took[(j, i)], _pile_cap(players, card) + 1)
            f.same_count(f.counter(flows[i].caught[card], _pile_cap(players, card) + 1), caught)


def build_model(players: int, rounds: int | None = None) -> DayModel:
    """The formula of a day of at most ``rounds`` rounds (default: :func:`horizon`, the complete formula).

    Each formula also states who took whose cards (:func:`_transport`): that
    makes most refutations quick, the short formula's too when a refusal's
    numbers are left out one by one, and finds witnesses as fast.
    """
    rounds = horizon(players) if rounds is None else rounds
    collecting = gc.isenabled()
    gc.disable()  # hundreds of thousands of small lists, none of them garbage
    try:
        return _build(players, rounds)
    finally:
        if collecting:
            gc.enable()


def _build(n: int, rounds: int) -> DayModel:
    f = _Formula()
    seats = range(n)
    table = [_Seat({card: [True] * SET[card] for card in CARDS}, {card: False for card in EASY_PREY_KINDS}, False, False)
             for _ in seats]
    flows = [_Flows(*({card: [] for card in CARDS} for _ in range(4)),
                    {(j, card): [] for j in seats for card in EASY_PREY_KINDS}) for _ in seats]
    stay_alls = {"wolf": [], "rabbit": []}
    starts = [f.var() for _ in seats]
    f.add(*starts)
    f.at_most_one(starts)
    alive = True  # no hand is empty yet
    plays, actives = [], []
    for t in range(rounds + n - 1):
        begun = f.any_of(*starts[: t + 1]) if t < n - 1 else True
        active = f.all_of(begun, alive)
        play, table = _round(f, n, t, active, table=table, flows=flows, stay_alls=stay_alls)
        plays.append(play)
        actives.append(active)
        if t + 1 >= CARDS_IN_HAND:  # a hand loses at most one card a round
            alive = f.all_of(alive, *[f.any_of(*[seat.hand[card][0] for card in CARDS]) for seat in table])
    f.add(_neg(alive))  # the day is over within the formula's rounds
    for i in seats:
        for card in EASY_PREY_KINDS:
            flows[i].own[card].append(table[i].easy_prey[card])  # the last Easy Prey joins the piles
    prey = [_account(f, n, table[i], flows[i], stay_alls=stay_alls) for i in seats]
    _transport(f, n, table, flows)
    return DayModel(n, rounds, f.clauses, starts, active=actives, plays=plays, hand=[seat.hand for seat in table],
                    prey=prey, hunter_under_lodge=[seat.hunter_under_lodge for seat in table],
                    lodge_flipped=[seat.lodge_flipped for seat in table])


# -- deciding a day ------------------------------------------------------------


class Fact(NamedTuple):
    """One entered number: ``place`` is "hand", "prey", "hunter_under_lodge" or "lodge_flipped"."""

    player: str
    place: str
    card: str | None
    value: int


class Witness(NamedTuple):
    """A way the day could have gone: who held Hunt Starts Here in round 1, and every round's cards."""

    start: str
    rounds: tuple[Mapping[str, str], ...]


class Refutation(NamedTuple):
    """Entered numbers that no play of the day produces together.

    When ``minimal``, some play produces them all but any one; otherwise a
    check that one could be left out ran out of time, and it was kept.
    """

    facts: tuple[Fact, ...]
    minimal: bool = True


def day_facts(players: Sequence[str], entries: Mapping[str, DayEntry]) -> list[Fact]:
    """Every entered number of a day, player by player, in the order they are entered."""
    facts = []
    for player in players:
        state = entries[player]
        facts += [Fact(player, "hand", card, state.hand[card]) for card in CARDS]
        facts += [Fact(player, "prey", card, state.prey[card]) for card in CARDS]
        facts.append(Fact(player, "hunter_under_lodge", None, int(state.hunter_under_lodge)))
        facts.append(Fact(player, "lodge_flipped", None, int(state.lodge_flipped)))
    return facts


def _fact_literals(model: DayModel, seat: int, fact: Fact) -> list:
    if fact.place in ("hand", "prey"):
        counter = (model.hand if fact.place == "hand" else model.prey)[seat][fact.card]
        return [at_least(counter, fact.value), _neg(at_least(counter, fact.value + 1))]
    lit = (model.hunter_under_lodge if fact.place == "hunter_under_lodge" else model.lodge_flipped)[seat]
    return [lit if fact.value else _neg(lit)]


def _holds(lit, values: set[int]) -> bool:
    return lit if isinstance(lit, bool) else lit in values


class _Outcome(NamedTuple):
    """What one solver call found: a play (True), facts that cannot hold together (False), or no answer in time."""

    possible: bool | None
    core: frozenset = frozenset()


class _Prover:
    """One formula loaded in a solver, kept for every later day with as many players."""

    def __init__(self, players: int, rounds: int | None) -> None:
        from pysat.solvers import Solver  # here: only proving a day pays for loading the solver

        self.model = build_model(players, rounds)
        self.solver = Solver(name=SOLVER, bootstrap_with=self.model.clauses)
        # freed before the interpreter tears down the solver's own module, which would fail noisily
        atexit.register(self.solver.delete)

    def solve(self, facts: Iterable[Fact], seat_of: Mapping[str, int], conflicts: int | None = None) -> _Outcome:
        """Whether some play ends with every fact; undecided (None) if ``conflicts`` run out first."""
        lits: list[int] = []
        owner: dict[int, Fact] = {}
        for fact in facts:
            for lit in _fact_literals(self.model, seat_of[fact.player], fact):
                if lit is False:
                    return _Outcome(False, frozenset({fact}))  # past what a counter can count
                if lit is not True:
                    lits.append(lit)
                    owner[lit] = fact
        if conflicts is None:
            answer = self.solver.solve(assumptions=lits)
        else:
            self.solver.conf_budget(conflicts)
            answer = self.solver.solve_limited(assumptions=lits)
        if answer is not False:
            return _Outcome(answer)
        return _Outcome(False, frozenset(owner[lit] for lit in self.solver.get_core() or () if lit in owner))

    def witness(self, players: Sequence[str]) -> Witness:
        """The play found by the last successful :meth:`solve`."""
        values = set(self.solver.get_model())
        start = next(seat for seat, lit in enumerate(self.model.starts) if _holds(lit, values))
        rounds = tuple(
            {player: next(card for card, lit in plays[seat].items() if _holds(lit, values))
             for seat, player in enumerate(players)}
            for active, plays in zip(self.model.active, self.model.plays)
            if _holds(active, values)
        )
        return Witness(players[start], rounds)


@functools.cache
def _prover(players: int, rounds: int | None) -> _Prover:
    return _Prover(players, rounds)


class ProofError(RuntimeError):
    """The prover contradicts itself (a witness that does not replay, say): a bug, never bad input."""


def prove_day(players: Sequence[str], entries: Mapping[str, DayEntry]) -> Witness | Refutation:
    """Decide whether a day that passes every check can happen under the rules.

    ``players`` in seating order (clockwise).  Returns a :class:`Witness`,
    already replayed through :func:`scoring.hunting_fever_play.replay_day`
    to exactly ``entries``, or a :class:`Refutation`.
    """
    return prove_facts(players, day_facts(players, entries))


def prove_facts(players: Sequence[str], facts: Sequence[Fact]) -> Witness | Refutation:
    """Decide whether some play of a day ends with every one of ``facts`` (any subset of a day's numbers)."""
    players = tuple(players)
    seat_of = {player: seat for seat, player in enumerate(players)}
    found = _search(len(players), facts, seat_of)
    if isinstance(found, _Prover):
        witness = found.witness(players)
        _check_witness(players, facts, witness)
        return witness
    kept, minimal = _minimal_core(len(players), facts, found, seat_of)
    return Refutation(tuple(kept), minimal)


def _search(players: int, facts: Sequence[Fact], seat_of: Mapping[str, int],
            exhaustive: bool = True) -> _Prover | frozenset | None:
    """The prover holding a play that ends with ``facts``, or the facts of a core of the complete formula.

    Days of at most :data:`SHORT_DAY` rounds first, on their own small
    formula, where most witnesses are; then the complete formula for a few
    conflicts, which refutes most impossible days at once; then days of at
    most :data:`MEDIUM_DAY` rounds (a long witness is found much faster on a
    formula not much longer than it); then the complete formula for good.
    Each step but the last stops after its budget of conflicts.  Unless
    ``exhaustive``, only the first two, and None when they find nothing:
    undecided.
    """
    steps = [(SHORT_DAY, SEARCH_CONFLICTS), (None, QUICK_CONFLICTS)]
    if exhaustive:
        steps += [(MEDIUM_DAY, LONG_SEARCH_CONFLICTS), (None, None)]
    for rounds, conflicts in steps:
        if rounds is not None and rounds >= horizon(players):
            continue
        prover = _prover(players, rounds)
        outcome = prover.solve(facts, seat_of, conflicts)
        if outcome.possible:
            return prover
        if outcome.possible is False and rounds is None:
            return outcome.core
    if exhaustive:
        raise ProofError("the complete formula gave no answer")  # pragma: no cover - it always answers
    return None


def prove_session(session: HuntingFeverSession) -> tuple[Witness | Refutation, ...]:
    """:func:`prove_day` for every day of a checked session."""
    return tuple(prove_day(session.players, entries) for entries in session.days)


def _minimal_core(players: int, facts: Sequence[Fact], core: frozenset,
                  seat_of: Mapping[str, int]) -> tuple[list[Fact], bool]:
    """Facts of ``core`` that cannot all hold, none of which can be left out.

    Facts are first left out mostly on the short formula (:func:`_shortened`);
    unless the complete formula refuted every one left out, it is then asked
    once whether what is left cannot happen.  It nearly always cannot, and
    those facts are the answer.  When some long day ends with them all after
    all, they are made minimal on the complete formula instead
    (:func:`_shortened_exactly`).  Returns the facts, and whether every trial
    was decided (then none of them can be left out).
    """
    kept = [fact for fact in facts if fact in core]
    shortened, decided, refuted = _shortened(players, kept, seat_of)
    if refuted or _prover(players, None).solve(shortened, seat_of, QUICK_CONFLICTS).possible is False:
        return shortened, decided
    return _shortened_exactly(players, kept, seat_of)


class _Shortened(NamedTuple):
    """The facts left once each that can go has gone; whether every trial was decided; whether
    what is left is refuted on the complete formula."""

    kept: list[Fact]
    decided: bool
    refuted: bool


def _shortened(players: int, kept: list[Fact], seat_of: Mapping[str, int]) -> _Shortened:
    """``kept`` without every fact whose absence no short day fills in.

    Each fact is tried without, by the steps of :data:`TRIAL_STEPS`: when a
    day ends with the others, that is a witness and the fact stays; when the
    formula has none, the fact goes, with every fact outside its core.  The
    short formula decides most trials quickly, but a set that no short day
    ends with may still be the end of a long one.  Returns the facts, whether
    every trial was decided, and whether every fact left out was left out on
    the complete formula (then what is left cannot happen).
    """
    decided = refuted = True
    for fact in list(kept):
        if fact not in kept:
            continue  # left out of a smaller core already
        rest = [other for other in kept if other != fact]
        for rounds, conflicts in TRIAL_STEPS:
            outcome = _prover(players, rounds).solve(rest, seat_of, conflicts)
            if outcome.possible is not None:
                break
        if outcome.possible is None:
            decided = False
        elif outcome.possible is False:
            kept = [other for other in kept if other in outcome.core]
            refuted = refuted and rounds is None
    return _Shortened(kept, decided, refuted)


def _shortened_exactly(players: int, kept: list[Fact], seat_of: Mapping[str, int]) -> tuple[list[Fact], bool]:
    """``kept`` (facts that cannot all hold) with each fact tried without, short days first.

    A fact is left out once the others are shown impossible without it,
    on the complete formula; one whose trial runs out of conflicts stays.
    """
    complete = _prover(players, None)
    while True:  # the solver's core of a core is often smaller still, and costs one quick call
        again = complete.solve(kept, seat_of, QUICK_CONFLICTS)
        if again.possible is not False or len(again.core) >= len(kept):
            break
        kept = [fact for fact in kept if fact in again.core]
    decided = True
    for fact in list(kept):
        if fact not in kept:
            continue  # left out of a smaller core already
        found = _search(players, [other for other in kept if other != fact], seat_of, exhaustive=False)
        if found is None:
            decided = False
        elif not isinstance(found, _Prover):
            kept = [other for other in kept if other in found]
    return kept, decided


def fact_holds(fact: Fact, state: DayEntry) -> bool:
    """Whether a player's end of day (``state``) has the number ``fact`` names."""
    if fact.place == "hand":
        return state.hand[fact.card] == fact.value
    if fact.place == "prey":
        return state.prey[fact.card] == fact.value
    return int(getattr(state, fact.place)) == fact.value


def _check_witness(players: Sequence[str], facts: Sequence[Fact], witness: Witness) -> None:
    try:
        table = replay_day(len(players), players.index(witness.start), [[row[p] for p in players] for row in witness.rounds])
    except IllegalPlay as error:
        raise ProofError(f"the witness breaks the rules: {error}") from None
    ended = {player: as_entry(seat) for player, seat in zip(players, table)}
    for fact in facts:
        if not fact_holds(fact, ended[fact.player]):
            raise ProofError(f"the witness does not end with {fact}")


# -- telling it ----------------------------------------------------------------


def facts_label(facts: Sequence[Fact]) -> Label:
    """A refutation's facts in words, grouped by player: "Ann: 4 Rabbits in the prey pile, 1 Wolf in hand; Ben: ..."."""
    groups = [
        label("fact.player", player=player, facts=tuple(_fact_label(fact) for fact in facts if fact.player == player))
        for player in dict.fromkeys(fact.player for fact in facts)
    ]
    said = groups[-1]
    for group in reversed(groups[:-1]):
        said = label("fact.then", first=group, rest=said)
    return said


def _fact_label(fact: Fact) -> Label:
    if fact.place in ("hand", "prey"):
        return label(f"fact.{fact.place}", cards=label(f"card_count.{fact.card}", count=fact.value))
    if fact.place == "hunter_under_lodge":
        return label("fact.hunter_under_lodge" if fact.value else "fact.hunter_not_under_lodge")
    return label("fact.lodge_flipped" if fact.value else "fact.lodge_not_flipped")


def refutation_problem(day: int, refutation: Refutation) -> Problem:
    """The problem reported for a day that cannot happen (``day`` from 1)."""
    return Problem(HuntingFeverProblem.DAY_CANNOT_HAPPEN, round=day, params={"facts": facts_label(refutation.facts)})


def proofs_json(proofs: Sequence[Witness]) -> dict:
    """``{"proofs": [...]}``: for each day, who started and each round's cards (card ids as in session files)."""
    return {
        "proofs": [
            {"day": day, "reachable": True, "start": witness.start, "rounds": [dict(row) for row in witness.rounds]}
            for day, witness in enumerate(proofs, start=1)
        ]
    }


def facts_json(refutation: Refutation) -> list[dict]:
    """A refutation's facts as data: player, place, card (or None) and the entered value."""
    return [fact._asdict() for fact in refutation.facts]


def proof_lines(proofs: Sequence[Witness]) -> list[Label]:
    """Each day's witness in words: who started, then one line per round."""
    lines = []
    for day, witness in enumerate(proofs, start=1):
        lines.append(label("proof.day", number=day, start=witness.start))
        for number, row in enumerate(witness.rounds, start=1):
            plays = tuple(label("proof.play", player=player, card=Term("card", card)) for player, card in row.items())
            lines.append(label("proof.round", number=number, plays=plays))
    return lines


def proofs(session: HuntingFeverSession) -> Proofs:
    """``pnp score check --prove`` for a checked session (:meth:`scoring.rules.GameRules.proofs`)."""
    decided = prove_session(session)
    refuted = [(day, proof) for day, proof in enumerate(decided, start=1) if isinstance(proof, Refutation)]
    if refuted:
        return Proofs(tuple(refutation_problem(day, proof) for day, proof in refuted),
                      tuple({"facts": facts_json(proof), "minimal": proof.minimal} for _, proof in refuted), {}, ())
    return Proofs((), (), proofs_json(decided), tuple(proof_lines(decided)))


__all__ = [
    "Fact",
    "ProofError",
    "Refutation",
    "Witness",
    "build_model",
    "day_facts",
    "fact_holds",
    "facts_json",
    "facts_label",
    "horizon",
    "proof_lines",
    "proofs",
    "proofs_json",
    "prove_day",
    "prove_facts",
    "prove_session",
    "refutation_problem",
]
