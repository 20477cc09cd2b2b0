"""Hunting Fever counting rules: silent on every day play produces, each one on the day it explains, EN and FR."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hunting_fever_sim as sim
from helpers import codes
from hunting_fever_days import DAYS, NAMES, raw_day
from scoring import check_session, messages
from scoring.hunting_fever import RULES, SET
from scoring.hunting_fever import HuntingFeverProblem
from scoring.hunting_fever_counting import RULE_CODES, counting_rules

def findings(state: sim.DayState, names: list[str]) -> list:
    """The counting rules a simulated day breaks."""
    out = {name: {card: SET[card] - seat.hand[card] for card in SET} for name, seat in zip(names, state.seats)}
    prey = {name: {card: seat.prey[card] for card in SET} for name, seat in zip(names, state.seats)}
    return counting_rules(names, out, prey)


def catalog(lang: str):
    return messages(lang, RULES)


def simulated_days(players: int, count: int, seed: int):
    """Days of uniform random play and days where some rounds lean to one animal for everyone."""
    rng = random.Random(seed)
    for number in range(count):
        chooser = sim.themed_chooser(rng) if number % 2 else None
        yield sim.play_day(players, rng.randrange(players), rng, chooser)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_no_counting_rule_fires_on_a_simulated_day(players):
    names = NAMES[:players]
    for state in simulated_days(players, 300, seed=players):
        assert findings(state, names) == [], state.session_day(names)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 5), themed=st.booleans())
def test_no_counting_rule_fires_property(seed, players, themed):
    rng = random.Random(seed)
    state = sim.play_day(players, rng.randrange(players), rng, sim.themed_chooser(rng) if themed else None)
    names = NAMES[:players]
    assert findings(state, names) == []


def test_simulated_days_reach_every_rule_at_its_limit():
    # Guards the two tests above: a rule off by one would fire on these days.
    reached = Counter()
    for players in (3, 4, 5):
        for state in simulated_days(players, 300, seed=players):
            needed, spare = [], []
            for seat in state.seats:
                out = {card: SET[card] - seat.hand[card] for card in SET}
                prey = seat.prey
                reached["rabbits"] += prey["rabbit"] == out["rabbit"] + out["wolf"]
                reached["carrots"] += prey["carrot"] == out["carrot"] + out["rabbit"]
                reached["closed_season"] += prey["closed_season"] == out["closed_season"] + out["rabbit"]
                both = prey["carrot"] + prey["closed_season"]
                reached["meals"] += both == out["carrot"] + out["closed_season"] + out["rabbit"] and both > 0
                needed.append(prey["rabbit"] - out["wolf"] - both)
                own_meals = max(0, prey["carrot"] - out["carrot"], prey["closed_season"] - out["closed_season"],
                                both - out["carrot"] - out["closed_season"])
                spare.append(out["rabbit"] - own_meals)
            if max(needed) > 0:
                reached["rabbits_back_without_meals"] += 1
                reached["all_rabbit_rounds_at_their_limit"] += max(needed) == min(spare)
    assert min(reached.values()) >= 3 and len(reached) == 6, reached


# -- each rule on a day it explains (simulated days with one card moved) --------

def session(day: dict) -> dict:
    return {"game": "hunting-fever", "players": NAMES[: len(day)], "days": [day]}


def problems(code: str):
    return check_session(session(raw_day(DAYS[code]))).problems


def test_rabbits_beyond_what_own_wolves_catch():
    # Ann: 2 Wolves and 1 Rabbit left her hand, so her pile holds at most 1 own Rabbit + 2 caught.
    (found,) = problems("rabbits_beyond_catches")
    assert (found.code, found.player, found.item.key) == ("rabbits_beyond_catches", "Ann", "rabbit")
    assert dict(found.params) == {"count": 4, "limit": 3, "own": 1, "wolves": 2}
    assert catalog("en").problem(found) == (
        "Day 1, Ann, Rabbit: 4 in the prey pile, but at most 3 can be there: the player’s own Rabbits that left "
        "the hand (1), and one for each of the player’s Wolves that left the hand (2), since a Wolf that catches "
        "a Rabbit never comes back to the hand."
    )
    assert catalog("fr").problem(found).startswith("Jour 1, Ann, Lapin\u00a0: 4 dans la pile Proies, mais il ne peut y "
                                                   "en avoir que 3\u00a0: les Lapins du joueur sortis de sa main (1)")


def test_carrots_beyond_what_own_rabbits_eat():
    (found,) = problems("carrots_beyond_meals")
    assert (found.code, found.player, found.item.key) == ("carrots_beyond_meals", "Cat", "carrot")
    assert dict(found.params) == {"count": 7, "limit": 6, "own": 3, "rabbits": 3}
    assert "7 in the prey pile, but at most 6" in catalog("en").problem(found)
    assert "7 dans la pile Proies, mais il ne peut y en avoir que 6" in catalog("fr").problem(found)


def test_closed_season_beyond_what_own_rabbits_eat():
    # Eve kept her three Rabbits: her pile holds only her own Closed Season card, if any.
    (found,) = problems("closed_season_beyond_meals")
    assert (found.code, found.player) == ("closed_season_beyond_meals", "Eve")
    assert dict(found.params) == {"count": 2, "limit": 1, "own": 1, "rabbits": 0}
    assert catalog("en").problem(found).startswith("Day 1, Eve, Closed Season: 2 in the prey pile, but at most 1")


def test_carrots_and_closed_season_share_the_meals():
    # Ann: 1 Carrot, her Closed Season card and 3 Rabbits left her hand: at most 5 of the two kinds
    # in her pile, though each kind alone is within its own limit.
    (found,) = problems("meals_beyond_rabbits")
    assert (found.code, found.player, found.item) == ("meals_beyond_rabbits", "Ann", None)
    assert dict(found.params) == {"count": 6, "limit": 5, "own": 2, "rabbits": 3}
    assert catalog("en").problem(found).startswith(
        "Day 1, Ann: 6 Carrots and Closed Season cards in the prey pile, but at most 5 can be there")
    assert catalog("fr").problem(found).startswith(
        "Jour 1, Ann\u00a0: 6 cartes Carotte et Chasse interdite dans la pile Proies, mais il ne peut y en avoir que 5")


def test_own_rabbits_back_without_meals_need_rounds_every_player_pays_for():
    # Ben: 5 Rabbits, his 2 Wolves caught 2 at most, he ate once: 2 of his own Rabbits came back
    # after rounds where everyone played a Rabbit and none ate.  Cat had to eat twice (her pile
    # holds a Carrot and a Closed Season card that are not hers), so only 1 of her 3 Rabbits was free.
    (found,) = problems("rabbits_without_meals")
    assert (found.code, found.player) == ("rabbits_without_meals", "Ben")
    assert dict(found.params) == {"count": 5, "wolves": 2, "meals": 1, "rounds": 2, "other": "Cat", "spare": 1}
    english = catalog("en").problem(found)
    assert english.startswith("Day 1, Ben, Rabbit: 5 in the prey pile. The player’s Wolves that left the hand "
                              "caught at most 2")
    assert "Cat cannot have played in that many: at most 1 of the Rabbits" in english
    assert "Cat ne peut pas avoir joué dans autant de manches\u00a0: au plus 1" in catalog("fr").problem(found)


def test_own_wolves_back_need_catches():
    # Ann, Cat and Dan have 6 Wolves out of their hands; Ben's pile holds 8, so 2 are his own,
    # and his pile holds no Rabbit his Wolves could have caught.
    (found,) = problems("wolves_beyond_catches")
    assert (found.code, found.player, found.item.key) == ("wolves_beyond_catches", "Ben", "wolf")
    assert dict(found.params) == {"count": 8, "limit": 6, "others": 6, "catches": 0}
    assert catalog("en").problem(found).startswith(
        "Day 1, Ben, Wolf: 8 in the prey pile, but at most 6 can be there: the other players’ Wolves that left "
        "their hands (6), and one of the player’s own for each Rabbit in the pile (0)")
    assert catalog("fr").problem(found).startswith("Jour 1, Ben, Loup\u00a0: 8 dans la pile Proies, mais il ne peut y "
                                                   "en avoir que 6")


def test_every_rule_is_a_problem_code_with_an_example_day():
    assert sorted(DAYS) == sorted(RULE_CODES)
    assert set(RULE_CODES) <= {code.value for code in HuntingFeverProblem}


@pytest.mark.parametrize("code", sorted(DAYS))
def test_the_example_days_break_only_their_rule(code):
    assert codes(session(raw_day(DAYS[code]))) == [code]


def test_counting_rules_wait_for_counts_that_add_up():
    # A day that already breaks conservation is not judged by the counting rules as well.
    day = raw_day(DAYS["rabbits_beyond_catches"])
    day["Ben"]["hand"]["rabbit"] += 1
    assert codes(session(day)) == ["cards_not_conserved"]
