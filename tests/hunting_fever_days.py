"""Hunting Fever days that tests of the counting rules, the prover and the messages share.

Each day is one row per player: hand and prey pile as counts of hunter, wolf, rabbit, carrot and
closed season, then whether the hunter is under the lodge and whether the lodge is flipped.
"""

from __future__ import annotations

from scoring.hunting_fever import SET

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]

#: Simulated days with one card moved (three for the wolves), each breaking one counting rule.
DAYS = {
    "rabbits_beyond_catches": [
        ("1 0 2 0 0", "0 1 4 2 0", 0, 0),
        ("1 1 0 1 0", "0 3 1 3 1", 0, 0),
        ("0 0 0 1 0", "0 1 3 2 2", 1, 0),
        ("1 0 0 2 1", "0 3 2 2 1", 0, 0),
        ("0 0 0 0 0", "0 1 3 2 0", 1, 0),
    ],
    "meals_beyond_rabbits": [
        ("1 0 0 2 0", "0 3 4 3 3", 0, 0),
        ("1 0 0 0 0", "0 2 3 4 0", 0, 1),
        ("1 0 0 0 0", "0 3 2 2 0", 0, 0),
        ("1 0 0 0 0", "0 2 3 1 1", 0, 0),
        ("0 0 0 0 0", "1 0 3 3 1", 0, 0),
    ],
    "closed_season_beyond_meals": [
        ("0 0 0 0 0", "1 2 5 4 0", 0, 1),
        ("1 1 0 0 0", "0 1 1 3 2", 0, 1),
        ("0 0 0 0 1", "1 1 2 4 0", 0, 0),
        ("1 0 0 0 0", "0 1 2 4 0", 0, 1),
        ("1 0 3 0 0", "0 4 2 0 2", 0, 1),
    ],
    "rabbits_without_meals": [
        ("0 0 0 0 0", "1 1 2 3 2", 0, 1),
        ("0 0 0 0 0", "1 2 5 1 0", 0, 1),
        ("0 0 0 0 0", "1 2 4 4 2", 0, 0),
        ("0 1 0 0 0", "1 2 1 3 1", 0, 1),
        ("1 0 0 0 0", "0 2 3 4 0", 0, 1),
    ],
    # three cards moved: Ben's pile holds every Wolf, his own two included, yet no Rabbit
    "wolves_beyond_catches": [
        ("1 0 1 1 0", "0 0 2 2 1", 0, 0),
        ("1 0 2 1 1", "0 8 0 3 0", 0, 0),
        ("0 0 1 0 0", "0 0 2 2 1", 1, 0),
        ("0 0 0 0 0", "0 0 4 3 1", 1, 0),
    ],
    "carrots_beyond_meals": [
        ("0 1 1 0 0", "0 3 2 1 2", 1, 1),
        ("0 0 1 0 0", "1 1 1 2 1", 0, 0),
        ("0 0 0 0 1", "1 1 3 7 0", 0, 0),
        ("0 0 0 0 0", "0 2 3 3 0", 1, 1),
        ("0 0 0 0 0", "1 2 4 2 1", 0, 0),
    ],
}


def raw_day(rows) -> dict:
    """A day as a session file holds it, from rows written as above (players Ann, Ben...)."""
    def counts(text: str) -> dict:
        return dict(zip(SET, map(int, text.split())))

    return {name: {"hand": counts(hand), "prey": counts(prey), "hunter_under_lodge": bool(under),
                   "lodge_flipped": bool(flipped)} for name, (hand, prey, under, flipped) in zip(NAMES, rows)}


#: Simulated 4-player days with two or three cards moved, that pass every check, counting
#: rules included: only the prover refuses them.
SUBTLE_DAYS = [
    [("0 1 0 0 1", "0 3 4 2 0", 1, 0), ("0 2 2 0 0", "0 1 1 3 0", 1, 1),
     ("0 0 0 0 0", "0 0 2 5 1", 1, 0), ("0 1 1 1 0", "1 0 2 1 2", 0, 0)],
    [("0 0 0 1 0", "1 2 2 4 1", 0, 0), ("1 0 1 0 0", "0 2 3 4 1", 0, 0),
     ("0 0 0 0 0", "0 2 2 3 0", 1, 0), ("0 1 0 0 0", "0 1 4 0 2", 1, 1)],
    [("0 0 2 0 0", "0 3 0 4 0", 1, 1), ("1 1 1 0 0", "0 1 3 1 3", 0, 0),
     ("0 0 0 0 0", "1 1 1 3 0", 0, 0), ("1 0 2 2 0", "0 2 3 2 1", 0, 1)],
]
