"""The project's own round resolution agrees with the tests' simulator, and with the rules' examples."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hunting_fever_sim as sim
from scoring.hunting_fever import entry
from scoring.hunting_fever_play import (
    IllegalPlay,
    Seat,
    as_entry,
    day_is_over,
    fresh_table,
    play_round,
    replay_day,
)


def recorded_day(seed: int, players: int) -> tuple[int, list[list[str]], sim.DayState]:
    """A random simulated day with the cards played each round."""
    rng = random.Random(seed)
    choose_at_random = sim.random_chooser(rng)
    rounds: list[list[str]] = []

    def choose(seat: int, hand) -> str:
        if seat == 0:
            rounds.append([])
        card = choose_at_random(seat, hand)
        rounds[-1].append(card)
        return card

    start = rng.randrange(players)
    return start, rounds, sim.play_day(players, start, rng, choose)


def sim_entries(state: sim.DayState) -> list:
    return [entry(prey=dict(s.prey), hand=dict(s.hand), hunter_under_lodge=s.hunter_under_lodge,
                  lodge_flipped=s.lodge_flipped) for s in state.seats]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_replaying_simulated_days_ends_where_the_simulator_ends(players):
    for seed in range(150):
        start, rounds, state = recorded_day(seed * 7 + players, players)
        table = replay_day(players, start, rounds)
        assert [as_entry(seat) for seat in table] == sim_entries(state), (seed, rounds)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 5))
def test_replay_property(seed, players):
    start, rounds, state = recorded_day(seed, players)
    assert [as_entry(seat) for seat in replay_day(players, start, rounds)] == sim_entries(state)


def seats_with(players: int = 3, **easy_prey: str) -> list[Seat]:
    """A fresh table where seat ``sN`` has that card (taken from its hand) in Easy Prey."""
    table = list(fresh_table(players))
    for name, card in easy_prey.items():
        i = int(name[1:])
        hand = dict(table[i].hand)
        hand[card] -= 1
        table[i] = table[i]._replace(hand=hand, easy_prey=card)
    return table


def test_michaels_wolf_cannot_take_his_own_easy_prey():
    # The rules' example: the only Rabbit left is in Michael's own Easy Prey.
    after = play_round(seats_with(s0="rabbit"), ["wolf", "carrot", "carrot"], holder=0)
    assert after[0].hand["wolf"] == 2  # hungry, back in hand
    assert after[0].prey["rabbit"] == 1  # his Easy Prey went to his own pile


def test_easy_prey_is_nearer_than_the_played_card():
    after = play_round(seats_with(s1="rabbit"), ["wolf", "rabbit", "carrot"], holder=0)
    assert after[0].prey["rabbit"] == 1  # the Easy Prey Rabbit
    assert after[1].prey["carrot"] == 1  # so Ben's played Rabbit was free to eat
    assert after[1].easy_prey == "rabbit" and after[2].easy_prey is None


@pytest.mark.parametrize("holder, lucky, unlucky", [(0, 0, 1), (1, 1, 0), (2, 0, 1)])
def test_hunters_resolve_clockwise_from_the_holder(holder, lucky, unlucky):
    after = play_round(fresh_table(3), ["hunter", "hunter", "wolf"], holder=holder)
    assert after[lucky].prey["wolf"] == 1 and after[lucky].hand["hunter"] == 1
    assert after[unlucky].hunter_under_lodge and after[unlucky].hand["hunter"] == 0


def test_each_takes_the_first_prey_clockwise_from_its_own_seat():
    # Seats 0 and 2 both play a Wolf; the Rabbits are at seats 1 and 3.  Seat 2
    # resolves first (it holds the card) and takes seat 3's, the nearer one.
    after = play_round(fresh_table(4), ["wolf", "rabbit", "wolf", "rabbit"], holder=2)
    assert after[2].prey["rabbit"] == 1 and after[0].prey["rabbit"] == 1
    assert after[3].easy_prey is None and after[1].easy_prey is None


def test_closed_season_catches_poachers_and_then_feeds_a_rabbit():
    after = play_round(fresh_table(3), ["hunter", "closed_season", "rabbit"], holder=0)
    assert after[0].prey["hunter"] == 1 and after[0].hand["hunter"] == 0
    assert after[1].lodge_flipped and not after[0].lodge_flipped
    assert after[2].prey["closed_season"] == 1 and after[2].easy_prey == "rabbit"


def test_closed_season_without_a_hunter_flips_nothing_and_stays():
    after = play_round(fresh_table(3), ["closed_season", "carrot", "wolf"], holder=0)
    assert not after[0].lodge_flipped
    assert after[0].easy_prey == "closed_season" and after[2].hand["wolf"] == 2


@pytest.mark.parametrize("animal", ["wolf", "rabbit"])
def test_everyone_plays_the_same_animal_and_none_eats_they_all_stay(animal):
    after = play_round(fresh_table(3), [animal] * 3, holder=0)
    assert all(seat.easy_prey == animal and seat.hand[animal] == sim.SET[animal] - 1 for seat in after)


def test_everyone_plays_a_wolf_but_one_eats_the_hungry_go_back():
    after = play_round(seats_with(s2="rabbit"), ["wolf", "wolf", "wolf"], holder=0)
    assert after[0].prey["rabbit"] == 1 and after[0].easy_prey == "wolf"
    assert after[1].hand["wolf"] == 2 and after[2].hand["wolf"] == 2


def test_a_card_not_in_hand_cannot_be_played():
    table = fresh_table(3)
    table = play_round(table, ["hunter", "closed_season", "carrot"], holder=0)
    with pytest.raises(IllegalPlay):
        play_round(table, ["hunter", "carrot", "carrot"], holder=1)  # that Hunter is a poacher now
    with pytest.raises(IllegalPlay):
        play_round(table, ["wolf", "carrot"], holder=1)


def test_a_day_ends_once_a_hand_is_empty_and_not_before():
    start, rounds, _ = recorded_day(3, 3)
    with pytest.raises(IllegalPlay):
        replay_day(3, start, rounds[:-1])  # every hand still holds cards
    with pytest.raises(IllegalPlay):
        replay_day(3, start, rounds + [rounds[-1]])  # a round after the day's end
    table = fresh_table(3)
    for number, cards in enumerate(rounds):
        assert not day_is_over(table)
        table = play_round(table, cards, (start + number) % 3)
    assert day_is_over(table)
