"""Hunting Fever: the rules' scoring table, every check broken alone, tallies and tie-breaks."""

from __future__ import annotations

import copy

import pytest

from helpers import codes
from scoring import TieBreak, check_session, score_session
from scoring.hunting_fever import (
    CARDS,
    HAND_POINTS,
    PREY_POINTS,
    SET,
    FeverTieBreak,
    day_score,
    entry,
)

PLAYERS = ["Ann", "Ben", "Cat"]

# A day that passes every check.  Role A ran out of cards (hunter under the lodge),
# B and C still hold cards.  Day scores: A 17, B 2, C 13.
PLAIN_DAY = {
    "A": {"prey": {"wolf": 2, "rabbit": 3, "carrot": 2, "closed_season": 1}, "hunter_under_lodge": True},
    "B": {"prey": {"wolf": 1, "rabbit": 2, "carrot": 3, "closed_season": 1}, "hand": {"hunter": 1, "wolf": 1, "rabbit": 1}},
    "C": {"prey": {"wolf": 2, "rabbit": 3, "carrot": 3, "closed_season": 1}, "hand": {"hunter": 1, "carrot": 1}},
}
PLAIN_SCORES = {"A": 17, "B": 2, "C": 13}

# A day with closed season: A flipped the lodge, B was caught poaching; A and C
# ran out of cards.  Day scores: A 20, B 3, C 19.
POACHING_DAY = {
    "A": {"prey": {"wolf": 2, "rabbit": 3, "carrot": 2}, "hunter_under_lodge": True, "lodge_flipped": True},
    "B": {"prey": {"hunter": 1, "wolf": 1, "rabbit": 2, "carrot": 3, "closed_season": 2}, "hand": {"wolf": 1, "rabbit": 1}},
    "C": {"prey": {"wolf": 2, "rabbit": 3, "carrot": 4, "closed_season": 1}, "hunter_under_lodge": True},
}
POACHING_SCORES = {"A": 20, "B": 3, "C": 19}


def day(template: dict, names: list[str] = PLAYERS) -> dict:
    """``template``'s roles A, B, C given to ``names`` in that order."""
    return {name: copy.deepcopy(template[role]) for name, role in zip(names, "ABC")}


def session(*days: dict, players: list[str] = PLAYERS) -> dict:
    return {"game": "hunting-fever", "players": list(players), "days": list(days)}


# -- the rules' own scoring table ------------------------------------------------


def test_scoring_table_from_the_rules():
    # Prey pile: hunter -4, wolf 4, rabbit 2, carrot 1, closed season 1; in hand all negative.
    assert PREY_POINTS == {"hunter": -4, "wolf": 4, "rabbit": 2, "carrot": 1, "closed_season": 1}
    assert HAND_POINTS == {"hunter": -4, "wolf": -4, "rabbit": -2, "carrot": -1, "closed_season": -1}
    assert SET == {"hunter": 1, "wolf": 2, "rabbit": 3, "carrot": 3, "closed_season": 1}


@pytest.mark.parametrize("card", CARDS)
def test_each_card_scores_its_printed_value(card):
    assert day_score(entry(prey={card: 1})) == PREY_POINTS[card]
    assert day_score(entry(hand={card: 1})) == HAND_POINTS[card]


def test_hunter_under_lodge_scores_nothing_and_flipped_lodge_scores_four():
    assert day_score(entry(hunter_under_lodge=True)) == 0
    assert day_score(entry(lodge_flipped=True)) == 4
    # "Catching one or more hunters" is worth 4 once, however many hunters were caught.
    assert day_score(entry(prey={"wolf": 2}, hand={"carrot": 1}, lodge_flipped=True)) == 8 - 1 + 4


def test_sample_days_are_valid_and_score_as_computed_by_hand():
    raw = session(day(PLAIN_DAY), day(POACHING_DAY))
    checked = check_session(raw)
    assert checked.problems == ()
    result = score_session(checked.session)
    assert result.rounds[0].scores == {"Ann": 17, "Ben": 2, "Cat": 13}
    assert result.rounds[1].scores == {"Ann": 20, "Ben": 3, "Cat": 19}
    assert result.totals == {"Ann": 37, "Ben": 5, "Cat": 32}
    assert [r.of("Ann").running_total for r in result.rounds] == [17, 37]
    assert result.complete is False and result.winners == () and result.tie_break is None


def test_score_lines_show_every_entered_count():
    result = score_session(check_session(session(day(POACHING_DAY))).session)
    ben = result.rounds[0].of("Ben")
    assert ben.line("prey", "hunter").count == 1 and ben.line("prey", "hunter").points == -4
    assert ben.line("hand", "wolf").points == -4
    assert ben.line("prey", "closed_season").points == 2
    ann = result.rounds[0].of("Ann")
    assert ann.line("lodge", "lodge_flipped").points == 4
    assert ann.line("lodge", "hunter_under_lodge").count == 1
    assert ann.line("lodge", "hunter_under_lodge").points == 0
    assert sum(line.points for line in ben.lines) == ben.score == 3
    assert len(ben.lines) == 2 * len(CARDS) + 2


# -- each check broken alone -----------------------------------------------------


def test_check_1_player_count():
    two = {name: copy.deepcopy(PLAIN_DAY[role]) for name, role in [("Ann", "A"), ("Ben", "B")]}
    # A consistent two-player day (one set each): only the player count is wrong.
    two["Ann"] = {"prey": {"wolf": 2, "rabbit": 3, "carrot": 3, "closed_season": 1}, "hunter_under_lodge": True}
    two["Ben"] = {"prey": {"wolf": 2, "rabbit": 3, "carrot": 3, "closed_season": 1}, "hand": {"hunter": 1}}
    assert codes(session(two, players=["Ann", "Ben"])) == ["player_count"]
    six = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
    assert codes(session(players=six)) == ["player_count"]


def test_check_1_every_player_has_one_entry_per_day():
    broken = day(PLAIN_DAY)
    del broken["Cat"]
    problems = check_session(session(day(PLAIN_DAY), broken)).problems
    assert [(p.code, p.round, p.player) for p in problems] == [("missing_player_entry", 2, "Cat")]


def test_check_1_an_entry_for_someone_not_playing():
    broken = day(PLAIN_DAY)
    broken["Zoe"] = {}
    problems = check_session(session(broken)).problems
    assert [(p.code, p.round) for p in problems] == [("unknown_player", 1)]


def test_check_1_at_most_four_days():
    assert codes(session(*[day(PLAIN_DAY)] * 4)) == []
    assert codes(session(*[day(PLAIN_DAY)] * 5)) == ["too_many_days"]


def test_check_1_distinct_players():
    assert "duplicate_player" in codes(session(players=["Ann", "Ann", "Cat"]))


@pytest.mark.parametrize("bad", [2.0, 1.5, -1, True, "2", None, [1], {"n": 1}])
def test_check_2_counts_are_whole_numbers_from_zero(bad):
    broken = day(PLAIN_DAY)
    broken["Cat"]["hand"]["carrot"] = bad
    problems = check_session(session(broken)).problems
    assert len(problems) == 1
    assert problems[0].code in {"not_a_whole_number", "negative_number"}
    assert (problems[0].round, problems[0].player, problems[0].item.key) == (1, "Cat", "carrot")


def test_check_2_huge_numbers_are_reported_not_computed():
    broken = day(PLAIN_DAY)
    broken["Cat"]["prey"]["wolf"] = 10**30
    assert codes(session(broken)) == ["number_too_large"]


def test_check_2_flags_are_booleans_not_numbers():
    broken = day(PLAIN_DAY)
    broken["Ann"]["hunter_under_lodge"] = 1
    assert codes(session(broken)) == ["wrong_type"]


def test_check_3_hand_holds_no_more_than_one_set():
    broken = day(PLAIN_DAY)
    broken["Ben"]["hand"]["wolf"] = 3  # two more wolves in hand...
    broken["Ann"]["prey"]["wolf"] = 0  # ...and two fewer in a prey pile: still 6 in all
    problems = check_session(session(broken)).problems
    assert [(p.code, p.player, p.item.key) for p in problems] == [("hand_exceeds_set", "Ben", "wolf")]
    assert problems[0].params["count"] == 3 and problems[0].params["limit"] == 2


def test_check_4_hunter_in_exactly_one_place():
    broken = day(PLAIN_DAY)
    broken["Ben"]["hunter_under_lodge"] = True  # Ben's hunter in hand and under the lodge
    broken["Cat"]["hand"]["hunter"] = 0  # Cat's hunter nowhere: still 3 hunters in all
    problems = check_session(session(broken)).problems
    assert [(p.code, p.player) for p in problems] == [
        ("hunter_not_in_one_place", "Ben"),
        ("hunter_not_in_one_place", "Cat"),
    ]


def test_check_5_no_card_created_or_lost():
    broken = day(PLAIN_DAY)
    broken["Cat"]["prey"]["carrot"] += 1
    problems = check_session(session(broken)).problems
    assert [(p.code, p.item.key, p.player) for p in problems] == [("cards_not_conserved", "carrot", None)]
    assert problems[0].params["found"] == 10 and problems[0].params["expected"] == 9


def test_check_5_counts_hunters_under_lodges():
    broken = day(PLAIN_DAY)
    broken["Ann"]["hunter_under_lodge"] = False
    broken["Ann"]["hand"] = {"hunter": 1}  # moved, not lost: still valid
    broken["Ben"]["hand"]["hunter"] = 0
    broken["Ben"]["hunter_under_lodge"] = True
    broken["Cat"]["hand"] = {}
    broken["Cat"]["prey"]["carrot"] = 4
    broken["Cat"]["hunter_under_lodge"] = True
    assert codes(session(broken)) == []


def test_check_6_someone_ran_out_of_cards():
    broken = day(PLAIN_DAY)
    broken["Ann"]["hand"] = {"carrot": 1}
    broken["Ann"]["prey"]["carrot"] = 1
    problems = check_session(session(broken)).problems
    assert [(p.code, p.round, p.player) for p in problems] == [("no_empty_hand", 1, None)]


def test_check_7_flipped_lodge_means_closed_season_was_played():
    broken = day(POACHING_DAY)
    broken["Ann"]["hand"] = {"closed_season": 1}  # Cat still has the empty hand
    broken["Ben"]["prey"]["closed_season"] = 1
    problems = check_session(session(broken)).problems
    assert [(p.code, p.player) for p in problems] == [("flipped_lodge_closed_season_in_hand", "Ann")]


def test_check_8_poacher_needs_another_players_flipped_lodge():
    broken = day(POACHING_DAY)
    broken["Ann"]["lodge_flipped"] = False
    problems = check_session(session(broken)).problems
    assert [(p.code, p.player) for p in problems] == [("poacher_without_flipped_lodge", "Ben")]


def test_check_8_flipped_lodge_needs_another_players_poacher():
    broken = day(PLAIN_DAY)
    broken["Cat"]["lodge_flipped"] = True
    problems = check_session(session(broken)).problems
    assert [(p.code, p.player) for p in problems] == [("flipped_lodge_without_poacher", "Cat")]


def test_check_8_own_flipped_lodge_does_not_explain_own_poacher():
    broken = day(POACHING_DAY)
    broken["Ann"]["lodge_flipped"] = False
    broken["Ben"]["lodge_flipped"] = True  # Ben played closed season in another round
    assert sorted(codes(session(broken))) == ["flipped_lodge_without_poacher", "poacher_without_flipped_lodge"]


def test_poacher_and_closed_season_in_other_rounds_is_fine():
    both = day(POACHING_DAY)
    # Ann played closed season and caught Ben; later Ben played closed season and caught Ann.
    both["Ann"]["hunter_under_lodge"] = False
    both["Ann"]["prey"]["hunter"] = 1
    both["Ben"]["lodge_flipped"] = True
    both["Ben"]["prey"]["closed_season"] = 1
    both["Cat"]["prey"]["closed_season"] = 2
    assert codes(session(both)) == []


def test_every_problem_is_reported_at_once():
    first = day(PLAIN_DAY)
    first["Cat"]["prey"]["carrot"] += 1
    second = day(PLAIN_DAY)
    second["Ben"]["hand"]["wolf"] = 2
    second["Cat"]["lodge_flipped"] = True
    third = day(PLAIN_DAY)
    third["Ben"]["prey"]["rabbit"] = -2  # an unreadable count: the day's rules are not checked
    third["Ben"]["hand"]["hunter"] = 5
    problems = check_session(session(first, second, third)).problems
    assert [(p.code, p.round, p.player) for p in problems] == [
        ("cards_not_conserved", 1, None),
        ("cards_not_conserved", 2, None),
        ("flipped_lodge_without_poacher", 2, "Cat"),
        ("negative_number", 3, "Ben"),
    ]


def test_left_out_counts_are_zero_and_flags_false():
    raw = session(day(PLAIN_DAY))
    assert "hand" not in raw["days"][0]["Ann"] and "lodge_flipped" not in raw["days"][0]["Ann"]
    assert codes(raw) == []


def test_unknown_keys_are_errors():
    broken = day(PLAIN_DAY)
    broken["Ann"]["prey"]["bear"] = 1
    broken["Ben"]["lodge"] = True
    raw = session(broken)
    raw["notes"] = "windy"
    assert sorted(codes(raw)) == ["unknown_key"] * 3


# -- tie-breaks ------------------------------------------------------------------


def test_most_points_after_four_days_wins():
    raw = session(*[day(PLAIN_DAY)] * 4)
    result = score_session(check_session(raw).session)
    assert result.complete and result.winners == ("Ann",) and result.tie_break is None
    assert result.totals == {"Ann": 68, "Ben": 8, "Cat": 52}


def test_tie_goes_to_best_single_day():
    # Ann and Cat both end on 53; Ann's best day is 20, Cat's 19.
    raw = session(
        day(PLAIN_DAY, ["Ann", "Ben", "Cat"]),
        day(PLAIN_DAY, ["Ben", "Cat", "Ann"]),
        day(POACHING_DAY, ["Ann", "Ben", "Cat"]),
        day(POACHING_DAY, ["Ben", "Ann", "Cat"]),
    )
    result = score_session(check_session(raw).session)
    assert result.totals == {"Ann": 53, "Ben": 42, "Cat": 53}
    assert result.winners == ("Ann",)
    assert result.tie_break is FeverTieBreak.BEST_DAY
    assert result.tied == ("Ann", "Cat")
    assert result.tie_break_values == {"Ann": 20, "Cat": 19}


def test_still_tied_all_tied_players_win():
    raw = session(
        day(PLAIN_DAY, ["Ann", "Ben", "Cat"]),
        day(PLAIN_DAY, ["Ann", "Ben", "Cat"]),
        day(PLAIN_DAY, ["Cat", "Ben", "Ann"]),
        day(PLAIN_DAY, ["Cat", "Ben", "Ann"]),
    )
    result = score_session(check_session(raw).session)
    assert result.totals["Ann"] == result.totals["Cat"] == 60
    assert result.winners == ("Ann", "Cat")
    assert result.tie_break is TieBreak.SHARED


def test_no_winner_while_incomplete():
    raw = session(*[day(PLAIN_DAY)] * 3)
    result = score_session(check_session(raw).session)
    assert not result.complete and result.winners == () and result.tie_break is None
