"""Card Hunter: a team wins with knockout tokens left, or loses with none."""

from __future__ import annotations

import pytest

from helpers import codes
from scoring import check_session, score_session


def card_hunter(players=("Ann", "Ben"), **keys) -> dict:
    return {"game": "card-hunter", "players": list(players), "difficulty": "normal", **keys}


@pytest.mark.parametrize("left", [1, 2, 3])
def test_won_with_tokens_left(left):
    checked = check_session(card_hunter(result="won", knockouts_left=left))
    assert checked.problems == ()
    scored = score_session(checked.session)
    assert scored.complete and scored.winners == ("Ann", "Ben") and scored.tie_break is None
    assert scored.own.knockouts_left == left


def test_lost_means_no_token_left_and_no_winner():
    scored = score_session(check_session(card_hunter(result="lost")).session)
    assert scored.complete and scored.winners == () and scored.tie_break is None
    assert codes(card_hunter(result="lost", knockouts_left=0)) == []


def test_won_without_tokens_is_impossible():
    assert codes(card_hunter(result="won", knockouts_left=0)) == ["won_without_knockouts"]
    assert codes(card_hunter(result="won")) == ["won_without_knockouts"]  # left out counts as 0


def test_lost_with_tokens_is_impossible():
    assert codes(card_hunter(result="lost", knockouts_left=2)) == ["lost_with_knockouts"]


def test_knockouts_are_zero_to_three():
    assert codes(card_hunter(result="won", knockouts_left=4)) == ["knockouts_out_of_range"]
    assert codes(card_hunter(result="won", knockouts_left=-1)) == ["negative_number"]


def test_difficulty_and_result_words():
    assert codes(card_hunter(difficulty="nightmare")) == ["unknown_value"]
    assert codes(card_hunter(result="draw")) == ["unknown_value"]
    for difficulty in ("easy", "normal", "hard"):
        assert codes(card_hunter(difficulty=difficulty, result="lost")) == []


def test_one_to_three_players_or_four_with_the_variant():
    for count in (1, 2, 3, 4):
        assert codes(card_hunter(players=[f"P{i}" for i in range(count)])) == []
    assert codes(card_hunter(players=[])) == ["player_count"]
    assert codes(card_hunter(players=[f"P{i}" for i in range(5)])) == ["player_count"]


def test_no_result_yet_is_incomplete():
    scored = score_session(check_session(card_hunter()).session)
    assert not scored.complete and scored.winners == () and scored.tie_break is None
