"""Real end-of-day states from the rules simulator: all accepted, scored alike, mutations caught."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hunting_fever_sim as sim
from scoring import check_session, score_session

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]


# -- the simulator follows the rules' own examples ---------------------------------


def scripted(*plays: str):
    """A chooser that plays ``plays[seat]`` this round."""
    return lambda seat, hand: plays[seat]


def test_michael_cannot_take_from_his_own_easy_prey():
    # The rules' example: Michael plays a wolf, the only rabbit left is in his own
    # "Easy Prey" area, so the wolf goes back to his hand.
    seats = [sim.Seat() for _ in range(3)]
    seats[0].hand["rabbit"] -= 1
    seats[0].easy_prey = ["rabbit"]
    sim.play_round(seats, 0, scripted("wolf", "carrot", "carrot"))
    assert seats[0].hand["wolf"] == 2  # back in hand
    assert seats[0].prey["rabbit"] == 1  # the easy prey went to his own pile at the end of the round


def test_easy_prey_is_closer_than_the_played_card():
    seats = [sim.Seat() for _ in range(3)]
    seats[1].hand["rabbit"] -= 1
    seats[1].easy_prey = ["rabbit"]
    sim.play_round(seats, 0, scripted("wolf", "rabbit", "carrot"))
    # The wolf took the easy-prey rabbit, so Ben's played rabbit was free to eat Cat's carrot.
    assert seats[0].prey["rabbit"] == 1
    assert seats[1].prey["carrot"] == 1
    assert seats[2].easy_prey == []


def test_hunters_resolve_from_the_hunt_starts_here_holder():
    # Two hunters, one wolf: whoever resolves first gets it, the other goes under the lodge.
    for holder, lucky, unlucky in [(0, 0, 1), (1, 1, 0)]:
        seats = [sim.Seat() for _ in range(3)]
        sim.play_round(seats, holder, scripted("hunter", "hunter", "wolf"))
        assert seats[lucky].prey["wolf"] == 1 and seats[lucky].hand["hunter"] == 1
        assert seats[unlucky].hunter_under_lodge and seats[unlucky].hand["hunter"] == 0


def test_closed_season_catches_poachers_and_then_counts_as_a_carrot():
    seats = [sim.Seat() for _ in range(3)]
    sim.play_round(seats, 0, scripted("hunter", "closed_season", "rabbit"))
    assert seats[0].prey["hunter"] == 1
    assert seats[1].lodge_flipped
    assert seats[2].prey["closed_season"] == 1  # the rabbit ate it


def test_special_case_all_wolves_stay_when_none_eats():
    seats = [sim.Seat() for _ in range(3)]
    sim.play_round(seats, 0, scripted("wolf", "wolf", "wolf"))
    assert all(seat.hand["wolf"] == 1 for seat in seats)  # not taken back
    assert all(seat.easy_prey == ["wolf"] for seat in seats)


def test_hungry_wolf_goes_back_when_not_everyone_played_a_wolf():
    seats = [sim.Seat() for _ in range(3)]
    sim.play_round(seats, 0, scripted("wolf", "wolf", "carrot"))
    assert seats[0].hand["wolf"] == 2 and seats[1].hand["wolf"] == 2


def test_special_case_all_rabbits_stay_when_none_eats():
    seats = [sim.Seat() for _ in range(3)]
    sim.play_round(seats, 0, scripted("rabbit", "rabbit", "rabbit"))
    assert all(seat.hand["rabbit"] == 2 and seat.easy_prey == ["rabbit"] for seat in seats)


# -- every simulated state is accepted and scored like the simulator scores it -----


def expected_outcome(names: list[str], days: list[sim.DayState]):
    scores = {name: [state.score(i) for state in days] for i, name in enumerate(names)}
    totals = {name: sum(values) for name, values in scores.items()}
    top = max(totals.values())
    tied = [name for name in names if totals[name] == top]
    if len(tied) == 1:
        return totals, tied, None
    best = {name: max(scores[name]) for name in tied}
    still = [name for name in tied if best[name] == max(best.values())]
    return totals, still, ("best_day" if len(still) == 1 else "shared")


def check_game(seed: int, players: int) -> None:
    rng = random.Random(seed)
    names = NAMES[:players]
    days = list(sim.play_game(names, rng))
    checked = check_session(sim.session(names, days))
    assert checked.problems == ()
    result = score_session(checked.session)
    for number, state in enumerate(days):
        assert result.rounds[number].scores == {name: state.score(i) for i, name in enumerate(names)}
    totals, winners, tie_break = expected_outcome(names, days)
    assert dict(result.totals) == totals
    assert list(result.winners) == winners
    assert (result.tie_break.value if result.tie_break else None) == tie_break


@pytest.mark.parametrize("players", [3, 4, 5])
def test_many_simulated_games_are_accepted_and_scored(players):
    for seed in range(60):
        check_game(seed * 10 + players, players)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 5))
def test_simulated_games_property(seed, players):
    check_game(seed, players)


def test_simulator_covers_the_interesting_cases():
    # Guards the tests above: the random games must include poachers, flipped
    # lodges, hunters under lodges and hunters back in hand, or they prove little.
    seen = Counter()
    rng = random.Random(7)
    for _ in range(200):
        state = sim.play_day(rng.randint(3, 5), 0, rng)
        for seat in state.seats:
            seen["poacher"] += seat.prey["hunter"]
            seen["flipped"] += seat.lodge_flipped
            seen["under"] += seat.hunter_under_lodge
            seen["hunter_in_hand"] += seat.hand["hunter"]
            seen["empty_hand"] += seat.hand_size() == 0
    assert all(seen[key] > 10 for key in ["poacher", "flipped", "under", "hunter_in_hand", "empty_hand"]), seen


# -- mutations ---------------------------------------------------------------------

PLACES = ("prey", "hand")


def sample_days(count: int, seed: int = 2024) -> list[tuple[list[str], dict]]:
    rng = random.Random(seed)
    samples = []
    while len(samples) < count:
        players = rng.randint(3, 5)
        names = NAMES[:players]
        state = sim.play_day(players, rng.randrange(players), rng)
        samples.append((names, state.session_day(names)))
    return samples


SAMPLES = sample_days(40)


def problem_codes(names: list[str], day: dict) -> list[str]:
    return [p.code for p in check_session({"game": "hunting-fever", "players": names, "days": [day]}).problems]


def slots(names: list[str]):
    """Every (player, place, card) a card can be counted at; ("lodge", "hunter") is under the lodge."""
    for name in names:
        for place in PLACES:
            for card in sim.KINDS:
                yield name, place, card
        yield name, "lodge", "hunter"


def count_at(day: dict, slot) -> int:
    name, place, card = slot
    if place == "lodge":
        return int(day[name]["hunter_under_lodge"])
    return day[name][place][card]


def change(day: dict, slot, by: int) -> dict:
    day = copy.deepcopy(day)
    name, place, card = slot
    if place == "lodge":
        day[name]["hunter_under_lodge"] = bool(int(day[name]["hunter_under_lodge"]) + by)
    else:
        day[name][place][card] += by
    return day


@pytest.mark.parametrize("sample", range(len(SAMPLES)))
def test_adding_or_dropping_any_card_is_caught(sample):
    names, day = SAMPLES[sample]
    assert problem_codes(names, day) == []
    for slot in slots(names):
        if slot[1] != "lodge" or count_at(day, slot) == 0:
            assert problem_codes(names, change(day, slot, +1)), ("add", slot)
        if count_at(day, slot) > 0:
            assert "cards_not_conserved" in problem_codes(names, change(day, slot, -1)), ("drop", slot)


def move(day: dict, source, target) -> dict:
    return change(change(day, source, -1), target, +1)


def test_impossible_moves_are_caught():
    tried = Counter()
    for names, day in SAMPLES:
        impossible_moves_are_caught(names, day, tried)
    # Each kind of impossible move was met in the samples, so each assertion ran.
    assert all(tried[kind] > 0 for kind in ["hunter", "overfull", "last_empty", "flipped", "last_poacher"]), tried


def impossible_moves_are_caught(names: list[str], day: dict, tried: Counter) -> None:
    sources = [slot for slot in slots(names) if count_at(day, slot) > 0]
    empty = [name for name in names if not any(day[name]["hand"].values())]
    poachers = [name for name in names if day[name]["prey"]["hunter"]]
    for source in sources:
        for target in slots(names):
            if target == source or target[2] != source[2]:
                continue
            if target[1] == "lodge" and count_at(day, target):
                continue
            moved = move(day, source, target)
            found = problem_codes(names, moved)
            name, place, card = target
            # Moving a card changes nothing the checks can see when it only swaps
            # prey piles: both states can happen.  These moves never can:
            if card == "hunter" and name != source[0]:
                tried["hunter"] += 1
                assert "hunter_not_in_one_place" in found, (source, target)
            if place == "hand" and moved[name]["hand"][card] > sim.SET[card]:
                tried["overfull"] += 1
                assert "hand_exceeds_set" in found, (source, target)
            if place == "hand" and empty == [name] and source[1] != "hand":
                tried["last_empty"] += 1
                assert "no_empty_hand" in found, (source, target)
            if place == "hand" and card == "closed_season" and day[name]["lodge_flipped"]:
                tried["flipped"] += 1
                assert "flipped_lodge_closed_season_in_hand" in found, (source, target)
            if source[1] == "prey" and card == "hunter" and poachers == [source[0]] and name == source[0]:
                tried["last_poacher"] += 1
                assert "flipped_lodge_without_poacher" in found, (source, target)
