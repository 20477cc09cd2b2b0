"""The entry form of each game: its questions and bounds, answers to session-file form, checks.

The form is what `pnp score add` asks and what a phone per player will show:
each player's part alone is checked with that player's problems, and the whole
day goes through the ordinary session check.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

import hunting_fever_sim as sim
from scoring import Kind, NothingToEnter, PartForm, check_session, find_rules, game_ids, messages, new_session
from scoring.beavers import BEAVERS_IN_DECK
from scoring.halali import BOX, HOLDABLE
from scoring.hunting_fever import CARDS, SET
from scoring.report import part_json

NAMES = ["Ann", "Ben", "Cat"]


def form_of(raw: dict):
    checked = check_session(raw)
    assert checked.problems == ()
    return checked.rules.entry_form(checked.session)


def answers_for(part: PartForm, raw_part: object) -> dict:
    """The answers a player would give for the part ``raw_part`` (the inverse of ``to_raw``)."""
    answers = {}
    for question in part.questions:
        if question.path is None:
            chosen = [c for c in question.choices if all(_at(raw_part, path) == value for path, value in c.writes)]
            answers[question.id] = chosen[0].value
        else:
            answers[question.id] = _at(raw_part, question.path)
    return answers


def _at(raw: object, path: tuple[str, ...]) -> object:
    for key in path:
        raw = raw.get(key, 0) if isinstance(raw, dict) else raw
    return raw


START = {
    "hunting-fever": {"game": "hunting-fever", "players": NAMES},
    "halali": {"game": "halali", "players": ["Ann", "Ben"]},
    "hunting-hunting-beavers": {"game": "hunting-hunting-beavers", "players": ["A", "B", "C", "D"]},
    "card-hunter": {"game": "card-hunter", "players": ["A", "B"]},
}


@pytest.mark.parametrize("game", game_ids())
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_label_of_every_form_reads_in_both_languages(game, lang):
    form = form_of(START[game])
    words = messages(lang, find_rules(game))
    round_questions = part_json(form.round, words)
    start = form.round_start({q.id: q.choices[0].value if q.choices else q.suggested() for q in form.round.questions})
    parts = [part_json(form.player_form(player, start), words) for player in form.players]
    shown = json.dumps([round_questions, parts], ensure_ascii=False)
    assert "{" not in shown.replace('{"', "").replace("{}", "")
    for player in form.players:
        assert player in words.label(form.heading(player))
    assert words.label(form.again()).endswith("?")
    assert round_questions or parts


def test_hunting_fever_asks_each_player_with_bounds_from_the_set():
    form = form_of(START["hunting-fever"])
    assert form.number == 1 and form.players == tuple(NAMES) and form.round.questions == ()
    part = form.player_form("Ann", form.round_start({}))
    by_id = {q.id: q for q in part.questions}
    assert [q.id for q in part.questions][:2] == ["hunter", "lodge_flipped"]
    assert {c.value for c in by_id["hunter"].choices} == {"hand", "prey", "lodge"}
    assert by_id["lodge_flipped"].kind is Kind.FLAG
    for card in CARDS[1:]:
        # A hand holds its owner's cards; a prey pile anyone's.
        assert (by_id[f"hand.{card}"].low, by_id[f"hand.{card}"].high) == (0, SET[card])
        assert by_id[f"prey.{card}"].high == len(NAMES) * SET[card]
    assert "hand.hunter" not in by_id  # the hunter's place is one question


@pytest.mark.parametrize("seed", range(12))
def test_simulated_days_entered_through_the_form_give_the_same_day(seed):
    rng = random.Random(seed)
    names = ["Ann", "Ben", "Cat", "Dan", "Eve"][: 3 + seed % 3]
    raw = sim.session(names, list(sim.play_game(names, rng, 3)))
    for number in range(len(raw["days"])):
        before = {**raw, "days": raw["days"][:number]}
        form = form_of(before)
        assert form.number == number + 1
        start = form.round_start({})
        parts = {}
        for player in reversed(names):  # phones send their parts in any order
            part_form = form.player_form(player, start)
            entered = part_form.to_raw(answers_for(part_form, raw["days"][number][player]))
            assert form.check_part(player, entered, start) == []
            parts[player] = entered
        day = form.round_raw({}, parts)
        updated = form.updated(before, day)
        checked = check_session(updated)
        assert checked.problems == ()
        assert checked.session.days == check_session({**raw, "days": raw["days"][: number + 1]}).session.days
        assert list(form.addition(day)) == ["days"] and before["days"] == raw["days"][:number]


def test_a_players_part_alone_gives_that_players_problems_and_the_day_the_others():
    raw = sim.session(NAMES, list(sim.play_game(NAMES, random.Random(5), 1)))
    form = form_of({**raw, "days": []})
    day = copy.deepcopy(raw["days"][0])
    day["Ann"]["hand"]["wolf"] = 3  # more wolves than a set has
    day["Ben"]["prey"]["carrot"] += 1  # fine alone; the day no longer adds up
    assert [p.code for p in form.check_part("Ann", day["Ann"], {})] == ["hand_exceeds_set"]
    assert form.check_part("Ben", day["Ben"], {}) == []
    assert [p.code for p in form.check_part("Cat", {"hand": {"wolf": "two"}}, {})] == ["not_a_whole_number"]
    whole = check_session(form.updated({**raw, "days": []}, day)).problems
    assert {p.code for p in whole} >= {"hand_exceeds_set", "cards_not_conserved"}


def test_halali_round_one_asks_for_blue_round_two_swaps_it():
    form = form_of(START["halali"])
    [blue] = form.round.questions
    assert blue.kind is Kind.PLAYER and [c.value for c in blue.choices] == ["Ann", "Ben"] and form.given == ()
    start = form.round_start({"blue": "Ben"})
    ben, ann = form.player_form("Ben", start), form.player_form("Ann", start)
    assert [q.id for q in ben.questions] == list(HOLDABLE["blue"]) and "tree" not in [q.id for q in ben.questions]
    assert [q.id for q in ann.questions] == list(HOLDABLE["brown"])
    assert all(q.high == BOX[q.id] for q in ann.questions)
    parts = {"Ann": ann.to_raw({q.id: 0 for q in ann.questions} | {"tree": 4}),
             "Ben": ben.to_raw({q.id: 0 for q in ben.questions} | {"hunter": 2})}
    assert parts == {"Ann": {"tree": 4}, "Ben": {"hunter": 2}}  # counts of 0 are left out, as in a session file
    first = form.round_raw({"blue": "Ben"}, parts)
    assert first == {"blue": "Ben", "tiles": {"Ann": {"tree": 4}, "Ben": {"hunter": 2}}}
    second = form_of({**START["halali"], "rounds": [first]})
    assert second.round.questions == () and [(g.path, g.value) for g in second.given] == [(("blue",), "Ann")]
    assert second.round_start({}) == {"blue": "Ann"}
    assert [p.code for p in second.check_part("Ann", {"tree": 1}, {"blue": "Ann"})] == ["tile_not_allowed"]
    assert second.check_part("Ben", {"bear": 2, "tree": 1}, {"blue": "Ann"}) == []


def test_beavers_part_is_a_signed_change_checked_against_the_running_total():
    raw = {**START["hunting-hunting-beavers"], "rounds": [{"A": 2}]}
    form = form_of(raw)
    [change] = form.player_form("A", {}).questions
    assert change.kind is Kind.SIGNED and change.path == () and form.number == 2
    assert form.player_form("A", {}).to_raw({"change": -2}) == -2
    assert form.check_part("A", -2, {}) == []
    assert [p.code for p in form.check_part("A", -3, {})] == ["currency_below_zero"]
    assert [p.code for p in form.check_part("B", -1, {})] == ["currency_below_zero"]
    day = form.round_raw({}, {"A": -2, "B": BEAVERS_IN_DECK + 1, "C": 0, "D": 0})
    assert [p.code for p in check_session(form.updated(raw, day)).problems] == ["currency_exceeds_beavers"]


def test_card_hunter_asks_the_team_and_bounds_knockouts_by_the_result():
    form = form_of({"game": "card-hunter", "players": ["A"]})
    assert form.players == () and form.rounds_key is None
    ids = [q.id for q in form.round.questions]
    assert ids == ["difficulty", "result", "knockouts_left"]
    knockouts = form.round.questions[2]
    assert (knockouts.low, knockouts.high, knockouts.when, knockouts.suggested()) == (1, 3, ("result", "won"), 1)
    asked = [q.id for q in form.round.asked({"result": "lost"})]
    assert asked == ["difficulty", "result"]
    with pytest.raises(ValueError, match="knockouts_left"):
        form.round.to_raw({"difficulty": "hard", "result": "won"})
    assert form.round.to_raw({"difficulty": "hard", "result": "lost"}) == {
        "difficulty": "hard", "result": "lost", "knockouts_left": 0}
    won = form.round_raw({"difficulty": "hard", "result": "won", "knockouts_left": 2}, {})
    assert form.addition(won) == won
    assert check_session(form.updated({"game": "card-hunter", "players": ["A"]}, won)).problems == ()
    # Set by `pnp score new`: the difficulty is not asked again.
    started = new_session(find_rules("card-hunter"), ["A"])
    assert [q.id for q in form_of(started).round.questions] == ["result", "knockouts_left"]


def test_answers_are_checked_against_kind_bounds_and_choices():
    part = form_of(START["hunting-fever"]).player_form("Ann", {})
    by_id = {q.id: q for q in part.questions}
    assert by_id["hand.wolf"].accepts(2) and not by_id["hand.wolf"].accepts(3)
    assert not by_id["hand.wolf"].accepts(True) and not by_id["hand.wolf"].accepts("1")
    assert by_id["lodge_flipped"].accepts(False) and not by_id["lodge_flipped"].accepts(0)
    assert by_id["hunter"].accepts("lodge") and not by_id["hunter"].accepts("pocket")


@pytest.mark.parametrize("raw, key", [
    ({**START["halali"], "rounds": [{"blue": "Ann"}, {"blue": "Ben"}]}, "round.complete"),
    ({**START["hunting-hunting-beavers"], "final": {"A": 3}}, "closed.final"),
    ({**START["card-hunter"], "result": "lost"}, "closed.result"),
])
def test_nothing_to_enter_says_why(raw, key):
    with pytest.raises(NothingToEnter) as stop:
        form_of(raw)
    assert stop.value.reason.key == key
    assert messages("fr", find_rules(raw["game"])).label(stop.value.reason)
