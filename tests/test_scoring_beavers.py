"""Hunting Hunting Beavers: four players and colours, currency rules, the shared win."""

from __future__ import annotations

import pytest

from helpers import codes, result
from scoring import TieBreak, check_session
from scoring.beavers import BEAVERS_IN_DECK

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def beavers(**keys) -> dict:
    return {"game": "hunting-hunting-beavers", "players": PLAYERS, **keys}


def test_the_deck_holds_fifty_beavers():
    # 15 singles, 10 doubles, 5 triples.
    assert BEAVERS_IN_DECK == 50


def test_four_players():
    assert codes({**beavers(), "players": PLAYERS[:3]}) == ["player_count"]
    assert codes({**beavers(), "players": PLAYERS + ["Eve"]}) == ["player_count"]


def test_colours():
    good = {"Ann": "red", "Ben": "green", "Cat": "blue", "Dan": "white"}
    assert codes(beavers(colors=good)) == []
    assert codes(beavers(colors={**good, "Dan": "red"})) == ["duplicate_color"]
    assert codes(beavers(colors={**good, "Dan": "pink"})) == ["unknown_value"]
    assert codes(beavers(colors={k: v for k, v in good.items() if k != "Dan"})) == ["missing_color"]
    assert codes(beavers(colors={**good, "Zoe": "red"})) == ["unknown_player"]


def test_rounds_are_net_changes_and_may_be_negative():
    scored = result(beavers(rounds=[{"Ann": 3, "Ben": 2}, {"Ann": -2, "Ben": 2}]))
    assert [r.scores for r in scored.rounds] == [
        {"Ann": 3, "Ben": 2, "Cat": 0, "Dan": 0},
        {"Ann": -2, "Ben": 2, "Cat": 0, "Dan": 0},
    ]
    assert scored.totals == {"Ann": 1, "Ben": 4, "Cat": 0, "Dan": 0}
    assert [r.of("Ann").running_total for r in scored.rounds] == [3, 1]
    assert not scored.complete and scored.winners == ()


def test_currency_never_below_zero():
    problems = check_session(beavers(rounds=[{"Ann": 3}, {"Ann": -5, "Ben": 5}])).problems
    assert [(p.code, p.round, p.player) for p in problems] == [("currency_below_zero", 2, "Ann")]
    assert problems[0].params["total"] == -2


def test_currency_may_fall_to_exactly_zero():
    assert codes(beavers(rounds=[{"Ann": 5}, {"Ann": -5}])) == []
    assert codes(beavers(rounds=[{"Ann": 5}, {"Ann": -6}])) == ["currency_below_zero"]


def test_each_player_below_zero_is_reported_once_at_the_first_round():
    problems = check_session(beavers(rounds=[{"Ann": -1, "Ben": 1}, {"Ann": -1}, {"Ben": -2}])).problems
    assert [(p.code, p.round, p.player) for p in problems] == [
        ("currency_below_zero", 1, "Ann"),
        ("currency_below_zero", 3, "Ben"),
    ]


def test_no_more_than_fifty_at_the_end():
    assert codes(beavers(rounds=[{"Ann": 30, "Ben": 20}])) == []
    problems = check_session(beavers(rounds=[{"Ann": 30, "Ben": 20}, {"Cat": 1}])).problems
    assert [(p.code, p.round) for p in problems] == [("currency_exceeds_beavers", 2)]
    assert codes(beavers(final={"Ann": 30, "Ben": 21})) == ["currency_exceeds_beavers"]


def test_final_currency_cannot_be_negative():
    assert codes(beavers(final={"Ann": -1})) == ["currency_below_zero"]


def test_at_most_ten_rounds():
    assert codes(beavers(rounds=[{}] * 10)) == []
    assert codes(beavers(rounds=[{}] * 11)) == ["too_many_rounds"]


def test_rounds_or_final_not_both():
    assert codes(beavers(rounds=[{"Ann": 1}], final={"Ann": 1})) == ["rounds_and_final"]


def test_most_currency_wins():
    scored = result(beavers(final={"Ann": 12, "Ben": 9, "Cat": 3, "Dan": 0}))
    assert scored.complete and scored.winners == ("Ann",) and scored.tie_break is None
    assert scored.rounds == () and scored.own.final_only


def test_all_tied_players_win():
    scored = result(beavers(final={"Ann": 12, "Ben": 12, "Cat": 3, "Dan": 12}))
    assert scored.winners == ("Ann", "Ben", "Dan") and scored.tie_break is TieBreak.SHARED


def test_ten_rounds_complete_the_game():
    rounds = [{"Ann": 1, "Ben": 2}] * 9 + [{"Cat": 4}]
    scored = result(beavers(rounds=rounds))
    assert scored.complete and scored.totals == {"Ann": 9, "Ben": 18, "Cat": 4, "Dan": 0}
    assert scored.winners == ("Ben",)


@pytest.mark.parametrize("bad", [True, 1.5, "3", None])
def test_changes_are_whole_numbers(bad):
    problems = check_session(beavers(rounds=[{"Ann": bad}])).problems
    assert [(p.code, p.round, p.player) for p in problems] == [("not_a_whole_number", 1, "Ann")]
