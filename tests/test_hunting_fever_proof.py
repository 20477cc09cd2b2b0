"""Deciding a Hunting Fever day exactly: witnesses that replay, refutations that are minimal."""

from __future__ import annotations

import random

import pytest

import hunting_fever_sim as sim
from scoring import check_session, messages
from scoring import hunting_fever_proof as proof
from scoring.hunting_fever import CARDS, RULES, SET, entry
from scoring.hunting_fever_play import as_entry, replay_day
from scoring.hunting_fever_proof import (
    Fact,
    Refutation,
    Witness,
    day_facts,
    fact_holds,
    facts_label,
    horizon,
    proof_lines,
    proofs_json,
    prove_day,
    prove_facts,
    refutation_problem,
)
from hunting_fever_days import DAYS as COUNTING_DAYS
from hunting_fever_days import SUBTLE_DAYS, raw_day

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]


def catalog(lang: str):
    return messages(lang, RULES)


def entries_of(raw: dict) -> dict:
    return {name: entry(prey=state["prey"], hand=state["hand"], hunter_under_lodge=state["hunter_under_lodge"],
                        lodge_flipped=state["lodge_flipped"]) for name, state in raw.items()}


def scripted(witness: Witness, names: list[str]) -> sim.Chooser:
    """A simulator chooser that plays the witness's cards, round after round."""
    rounds = iter(witness.rounds)
    current: dict = {}

    def choose(seat: int, hand) -> str:
        if seat == 0:
            current.update(next(rounds))
        return current[names[seat]]

    return choose


def assert_witness_replays(witness: Witness, names: list[str], raw: dict) -> None:
    """The witness ends in exactly the entered day, through our resolution and through the simulator."""
    start = names.index(witness.start)
    table = replay_day(len(names), start, [[row[name] for name in names] for row in witness.rounds])
    assert {name: as_entry(seat) for name, seat in zip(names, table)} == entries_of(raw)
    replayed = sim.play_day(len(names), start, random.Random(0), scripted(witness, names))
    assert replayed.rounds == len(witness.rounds)
    assert replayed.session_day(names) == raw


@pytest.mark.parametrize("players", [3, 4, 5])
def test_simulated_days_are_possible_and_their_witness_replays(players):
    names = NAMES[:players]
    rng = random.Random(100 + players)
    for number in range(30):
        chooser = sim.themed_chooser(rng) if number % 3 == 2 else None
        raw = sim.play_day(players, rng.randrange(players), rng, chooser).session_day(names)
        witness = prove_day(names, entries_of(raw))
        assert isinstance(witness, Witness), raw
        assert_witness_replays(witness, names, raw)


def test_a_day_longer_than_the_short_formula_is_found_on_a_longer_one():
    # Ann's pile holds all ten Wolves: her Hunter took eight, coming back to her hand each
    # time, and she also played her ten cards: no day shorter than 18 rounds ends like this.
    names = NAMES
    facts = [Fact("Ann", "hand", card, 0) for card in CARDS] + [Fact("Ann", "prey", "wolf", 10)]
    witness = prove_facts(names, facts)
    assert isinstance(witness, Witness)
    assert len(witness.rounds) >= 18
    table = replay_day(5, names.index(witness.start), [[row[name] for name in names] for row in witness.rounds])
    assert all(fact_holds(fact, as_entry(table[0])) for fact in facts)


# -- impossible days -----------------------------------------------------------

def assert_refused_minimally(raw: dict) -> None:
    """The prover refuses the day with entered numbers none of which can be left out."""
    names = list(raw)
    refuted = prove_day(names, entries_of(raw))
    assert isinstance(refuted, Refutation) and refuted.minimal
    entered = day_facts(names, entries_of(raw))
    assert refuted.facts and set(refuted.facts) <= set(entered)
    # minimal: without any one of them, the others are the end of some play
    for left_out in refuted.facts:
        rest = [fact for fact in refuted.facts if fact != left_out]
        witness = prove_facts(names, rest)
        assert isinstance(witness, Witness), left_out
        table = replay_day(len(names), names.index(witness.start),
                           [[row[name] for name in names] for row in witness.rounds])
        ended = {name: as_entry(seat) for name, seat in zip(names, table)}
        assert all(fact_holds(fact, ended[fact.player]) for fact in rest)
        assert not fact_holds(left_out, ended[left_out.player])


@pytest.mark.parametrize("number", range(len(SUBTLE_DAYS)))
def test_impossible_days_past_every_check_are_refused_with_a_minimal_set_of_numbers(number):
    raw = raw_day(SUBTLE_DAYS[number])
    assert check_session({"game": "hunting-fever", "players": list(raw), "days": [raw]}).problems == ()
    assert_refused_minimally(raw)


def test_a_refusal_stays_minimal_when_the_short_formula_proves_too_much(monkeypatch):
    # Numbers are left out of a refusal on the short formula first, where some sets that a
    # long day ends with have no play. Here the trials run on a formula too short for any
    # day to end, which refutes everything: what is left then is possible on the complete
    # formula, and the numbers must be made minimal there instead.
    monkeypatch.setattr(proof, "TRIAL_STEPS", ((2, 1000),))
    assert_refused_minimally(raw_day(SUBTLE_DAYS[0]))


@pytest.mark.parametrize("code", sorted(COUNTING_DAYS))
def test_the_prover_refuses_what_the_counting_rules_refuse(code):
    # The formula knows nothing of the counting rules' arguments: agreeing here is a check of both.
    raw = raw_day(COUNTING_DAYS[code])
    assert isinstance(prove_day(list(raw), entries_of(raw)), Refutation)


def test_the_formula_is_as_long_as_the_longest_day():
    assert [horizon(players) for players in (3, 4, 5)] == [34, 45, 56]


# -- telling it ----------------------------------------------------------------


def test_a_refutation_in_words_groups_the_numbers_by_player():
    facts = (Fact("Ann", "prey", "rabbit", 4), Fact("Ann", "hand", "wolf", 1), Fact("Ben", "hand", "wolf", 0),
             Fact("Ben", "lodge_flipped", None, 1), Fact("Cat", "hunter_under_lodge", None, 0),
             Fact("Cat", "prey", "closed_season", 1))
    problem = refutation_problem(2, Refutation(facts))
    assert catalog("en").problem(problem) == (
        "Day 2: no way of playing this day ends with these entered numbers all together: "
        "Ann: 4 Rabbits in the prey pile, 1 Wolf in hand; Ben: 0 Wolves in hand, the lodge flipped; "
        "Cat: the Hunter not under the lodge, 1 Closed Season card in the prey pile. At least one of them is wrong."
    )
    assert catalog("fr").problem(problem) == (
        "Jour 2\u00a0: aucune façon de jouer ce jour ne se termine avec tous ces nombres à la fois\u00a0: "
        "Ann\u00a0: 4 Lapins dans la pile Proies, 1 Loup en main\u00a0; Ben\u00a0: 0 Loup en main, le Pavillon de chasse retourné\u00a0; "
        "Cat\u00a0: le Chasseur pas sous le Pavillon de chasse, 1 carte Chasse interdite dans la pile Proies. "
        "Au moins l’un d’eux est faux."
    )


def test_a_witness_in_words_and_as_data():
    witness = Witness("Ben", ({"Ann": "wolf", "Ben": "hunter", "Cat": "closed_season"},
                              {"Ann": "carrot", "Ben": "rabbit", "Cat": "carrot"}))
    assert [catalog("en").label(line) for line in proof_lines([witness])] == [
        "Day 1 can happen. One way it went: Ben held Hunt Starts Here in round 1.",
        "  Round 1: Ann Wolf, Ben Hunter, Cat Closed Season",
        "  Round 2: Ann Carrot, Ben Rabbit, Cat Carrot",
    ]
    assert [catalog("fr").label(line) for line in proof_lines([witness])][:2] == [
        "Le jour 1 a pu avoir lieu. Une façon de le jouer\u00a0: Ben avait la carte «\u00a0La\u00a0chasse\u00a0démarre\u00a0ici\u00a0» à la manche 1.",
        "  Manche 1\u00a0: Ann Loup, Ben Chasseur, Cat Chasse interdite",
    ]
    assert proofs_json([witness]) == {"proofs": [{"day": 1, "reachable": True, "start": "Ben", "rounds": [
        {"Ann": "wolf", "Ben": "hunter", "Cat": "closed_season"}, {"Ann": "carrot", "Ben": "rabbit", "Cat": "carrot"}]}]}


def test_one_player_s_numbers_need_no_separator():
    said = catalog("en").label(facts_label([Fact("Eve", "prey", "rabbit", 6)]))
    assert said == "Eve: 6 Rabbits in the prey pile"


def test_every_card_count_has_its_words():
    for lang in ("en", "fr"):
        for card in SET:
            assert catalog(lang).plural(f"card_count.{card}", 2).startswith("2 ")
