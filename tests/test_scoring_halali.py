"""Halali!: points, who may hold which tiles, exits, the box, role swap and the tile tie-break."""

from __future__ import annotations

import pytest

from helpers import codes, result
from scoring import TieBreak, check_session
from scoring.halali import BOX, POINTS, HalaliTieBreak, round_points, tiles_held


def halali(*rounds: dict, players=("Ann", "Ben")) -> dict:
    return {"game": "halali", "players": list(players), "rounds": list(rounds)}


ISSUE_ROUND = {"blue": "Ann", "tiles": {"Ann": {"hunter": 2, "duck": 1}, "Ben": {"tree": 4}}}


def test_points_and_tile_counts_from_the_rules():
    assert POINTS == {"bear": 10, "fox": 5, "lumberjack": 5, "hunter": 5, "pheasant": 3, "duck": 2, "tree": 2}
    assert BOX == {"bear": 2, "fox": 6, "lumberjack": 2, "hunter": 8, "duck": 7, "pheasant": 8, "tree": 15}
    assert sum(BOX.values()) == 48  # "Shuffle the 48 tiles"


def test_round_points():
    assert round_points({"bear": 2, "fox": 6, "lumberjack": 2, "hunter": 8, "duck": 7, "pheasant": 8, "tree": 15}) == (
        20 + 30 + 10 + 40 + 14 + 24 + 30
    )


def test_the_issue_example_scores():
    scored = result(halali(ISSUE_ROUND))
    first = scored.rounds[0]
    assert first.scores == {"Ann": 12, "Ben": 8}
    assert first.of("Ann").role == "blue" and first.of("Ben").role == "brown"
    assert tiles_held(first.of("Ann")) == 3 and tiles_held(first.of("Ben")) == 4
    assert not scored.complete and scored.winners == ()


def test_brown_may_hold_every_kind():
    everything = {"bear": 1, "fox": 2, "lumberjack": 1, "hunter": 2, "duck": 1, "pheasant": 1, "tree": 3}
    assert codes(halali({"blue": "Ann", "tiles": {"Ben": everything}})) == []


def test_blue_may_hold_everything_but_trees():
    blue = {"bear": 1, "fox": 2, "lumberjack": 2, "hunter": 3, "duck": 1, "pheasant": 1}
    assert codes(halali({"blue": "Ann", "tiles": {"Ann": blue}})) == []
    problems = check_session(halali({"blue": "Ann", "tiles": {"Ann": {"tree": 1}}})).problems
    assert [(p.code, p.round, p.player, p.item.key) for p in problems] == [("tile_not_allowed", 1, "Ann", "tree")]


def test_exactly_two_players():
    assert codes(halali(players=("Ann",))) == ["player_count"]
    assert codes(halali(players=("Ann", "Ben", "Cat"))) == ["player_count"]


def test_at_most_two_rounds():
    second = {"blue": "Ben", "tiles": {}}
    assert codes(halali(ISSUE_ROUND, second)) == []
    assert codes(halali(ISSUE_ROUND, second, ISSUE_ROUND)) == ["too_many_rounds"]


def test_roles_swap_in_round_two():
    problems = check_session(halali(ISSUE_ROUND, {"blue": "Ann", "tiles": {}})).problems
    assert [(p.code, p.round, p.player) for p in problems] == [("roles_not_swapped", 2, "Ann")]


@pytest.mark.parametrize(
    "blue, tiles",
    [
        ("Ann", {"Ann": {"bear": 2, "fox": 4}}),  # six bears and foxes out of the forest
        ("Ben", {"Ann": {"hunter": 4, "lumberjack": 2}}),  # Ann is brown here
    ],
)
def test_at_most_five_own_tiles_leave_in_five_turns(blue, tiles):
    problems = check_session(halali({"blue": blue, "tiles": tiles})).problems
    assert [(p.code, p.player) for p in problems] == [("own_tiles_exceed_exits", "Ann")]
    assert problems[0].params["count"] == 6


def test_five_own_tiles_are_fine():
    assert codes(halali({"blue": "Ann", "tiles": {"Ann": {"bear": 1, "fox": 4}}})) == []


def test_together_no_more_than_the_box():
    problems = check_session(halali({"blue": "Ann", "tiles": {"Ann": {"duck": 4}, "Ben": {"duck": 4}}})).problems
    assert [(p.code, p.item.key, p.player) for p in problems] == [("tiles_exceed_box", "duck", None)]
    assert codes(halali({"blue": "Ann", "tiles": {"Ann": {"duck": 3}, "Ben": {"duck": 4}}})) == []


def test_blue_is_required_and_must_be_a_player():
    assert codes(halali({"tiles": {}})) == ["missing_key"]
    assert codes(halali({"blue": "Zoe", "tiles": {}})) == ["unknown_player"]
    assert codes(halali({"blue": "Ann", "tiles": {"Zoe": {}}})) == ["unknown_player"]
    assert codes(halali({"blue": "Ann", "tiles": {"Ann": {"wolf": 1}}})) == ["unknown_key"]


def test_higher_total_wins():
    scored = result(halali(ISSUE_ROUND, {"blue": "Ben", "tiles": {"Ann": {"tree": 1}}}))
    assert scored.totals == {"Ann": 14, "Ben": 8}
    assert scored.complete and scored.winners == ("Ann",) and scored.tie_break is None


def test_tie_goes_to_more_tiles_over_both_rounds():
    raw = halali(
        {"blue": "Ann", "tiles": {"Ann": {"hunter": 2}, "Ben": {"tree": 5}}},
        {"blue": "Ben", "tiles": {"Ann": {"tree": 1}, "Ben": {"duck": 1}}},
    )
    scored = result(raw)
    assert scored.totals == {"Ann": 12, "Ben": 12}
    assert scored.winners == ("Ben",)
    assert scored.tie_break is HalaliTieBreak.TILES
    assert scored.tie_break_values == {"Ann": 3, "Ben": 6}


def test_still_tied_both_win():
    raw = halali(
        {"blue": "Ann", "tiles": {"Ann": {"duck": 1}, "Ben": {"tree": 1}}},
        {"blue": "Ben", "tiles": {"Ann": {"tree": 1}, "Ben": {"duck": 1}}},
    )
    scored = result(raw)
    assert scored.winners == ("Ann", "Ben") and scored.tie_break is TieBreak.SHARED
