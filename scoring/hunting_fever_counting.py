"""Hunting Fever counting rules: what the entered counts must satisfy, with no search.

:func:`scoring.hunting_fever.check_day` runs these once a day's counts add up
(checks 3 to 8 pass) and reports each finding as a problem of its own code.
Plain arithmetic on what each player's cards did, by kind: ``out`` is how
many left the hand for good (the set minus the hand), ``prey`` what the prey
pile holds.  Each rule is a consequence of the round rules, argued in its
docstring; none may refuse a day that play can produce
(tests/test_hunting_fever_counting.py plays hundreds of days through the
tests' simulator, and the exact prover of :mod:`scoring.hunting_fever_proof`
refuses every day a rule refuses).

Facts of the rules the arguments use (P is any player):

* A card reaches P's prey pile only as (a) a card P's own animal took: P's
  Hunter takes a Wolf, P's Wolf a Rabbit, P's Rabbit a Carrot or Closed Season
  card, always another player's (nobody takes from their own Easy Prey, and
  P's own played card is the animal itself); (b) P's own card coming back
  from P's Easy Prey; (c) P's own Hunter caught poaching.
* A Wolf that takes a Rabbit stays above the lodge and never returns to the
  hand; so each of P's Wolves takes at most one Rabbit a day, and only a Wolf
  that left P's hand for good has taken one.  The same holds for a Rabbit and
  what it eats.
* A card lies in Easy Prey only because it stayed above the lodge: a Carrot
  or Closed Season card always stays unless eaten; a Wolf stays only after
  taking a Rabbit, a Rabbit only after eating, or, for both, in a round in
  which every player played that animal and none ate (then they all stay).
  Easy Prey lies there one round, then goes to its owner's pile if nobody
  took it.
"""

from __future__ import annotations

from typing import Mapping, NamedTuple, Sequence

Counts = Mapping[str, int]

#: Every rule, by the problem code it is reported with.
RULE_CODES = ("rabbits_beyond_catches", "carrots_beyond_meals", "closed_season_beyond_meals", "meals_beyond_rabbits",
         "rabbits_without_meals", "wolves_beyond_catches")


class Finding(NamedTuple):
    """A counting rule a day breaks: the rule (a problem code), the player and card, the message's values."""

    rule: str
    player: str
    card: str | None
    params: Mapping[str, object]


def counting_rules(players: Sequence[str], out: Mapping[str, Counts], prey: Mapping[str, Counts]) -> list[Finding]:
    """Every counting rule the day breaks; ``out[player][card]`` left the hand, ``prey[player][card]`` in the pile.

    >>> counting_rules(["Ann"], {"Ann": {"wolf": 1, "rabbit": 0, "carrot": 0, "closed_season": 0}},
    ...                {"Ann": {"wolf": 0, "rabbit": 2, "carrot": 0, "closed_season": 0}})[0].rule
    'rabbits_beyond_catches'
    """
    findings: list[Finding] = []
    for player in players:
        findings += _own_catches(player, out[player], prey[player])
    if not findings and players:
        findings += _all_rabbits_rounds(players, out, prey)
        findings += _wolves_beyond_catches(players, out, prey)
    return findings


def _own_catches(player: str, out: Counts, prey: Counts) -> list[Finding]:
    """A pile holds no more of a kind than its owner's cards of that kind that left the hand,
    plus one for each of its owner's animals that left the hand and eats that kind (facts a, b)."""
    findings = []
    if prey["rabbit"] > out["rabbit"] + out["wolf"]:
        findings.append(Finding("rabbits_beyond_catches", player, "rabbit", {
            "count": prey["rabbit"], "limit": out["rabbit"] + out["wolf"], "own": out["rabbit"], "wolves": out["wolf"]}))
    for card, rule in (("carrot", "carrots_beyond_meals"), ("closed_season", "closed_season_beyond_meals")):
        if prey[card] > out[card] + out["rabbit"]:
            findings.append(Finding(rule, player, card, {
                "count": prey[card], "limit": out[card] + out["rabbit"], "own": out[card], "rabbits": out["rabbit"]}))
    both = prey["carrot"] + prey["closed_season"]
    own = out["carrot"] + out["closed_season"]
    each_within = all(finding.card not in ("carrot", "closed_season") for finding in findings)
    if each_within and both > own + out["rabbit"]:
        # Each of the player's Rabbits eats once, a Carrot or a Closed Season card: the two
        # kinds share the meals (told only when neither kind broke its own limit above).
        findings.append(Finding("meals_beyond_rabbits", player, None, {
            "count": both, "limit": own + out["rabbit"], "own": own, "rabbits": out["rabbit"]}))
    return findings


def part_rules(players: int, set_size: Counts, player: str, out: Counts, *, prey: Counts) -> list[Finding]:
    """The counting rules one player's own entry can break whatever the others entered.

    A phone sends one player's part before the rest of the table: the rules
    that involve only that player's hand and pile (:func:`_own_catches`) hold
    as they are, and the Wolf rule holds with the other players' Wolves out of
    their hands at their most, every one of the ``players - 1`` other sets'.
    Each is a consequence of a rule :func:`counting_rules` applies to the whole
    day, so nothing a played day can hold is refused here.
    """
    findings = _own_catches(player, out, prey)
    others = (players - 1) * set_size["wolf"]
    catches = min(out["wolf"], prey["rabbit"])
    if not findings and prey["wolf"] > others + catches:
        findings.append(Finding("wolves_beyond_others", player, "wolf", {
            "count": prey["wolf"], "limit": others + catches, "others": others, "catches": catches}))
    return findings


def _meals_needed(out: Counts, prey: Counts) -> int:
    """The fewest Carrots and Closed Season cards in a pile that are not its owner's own (facts a, b)."""
    carrots = prey["carrot"] - out["carrot"]
    closed = prey["closed_season"] - out["closed_season"]
    return max(0, carrots, closed, carrots + closed)


def _all_rabbits_rounds(players: Sequence[str], out: Mapping[str, Counts], prey: Mapping[str, Counts]) -> list[Finding]:
    """Own Rabbits back in one's pile need meals, or rounds where every player played a Rabbit.

    Of the Rabbits in P's pile, P's Wolves took at most ``out[wolf]``; the
    rest are P's own, back from Easy Prey, so each stayed above the lodge: it
    ate (and its meal is in P's pile) or every player played a Rabbit that
    round and none ate.  Such a round takes a Rabbit out of every hand
    without a meal, so every player Q keeps at most ``out_Q[rabbit]`` minus
    those rounds for eating, and Q's pile needs ``_meals_needed`` meals.
    """
    needed = {p: prey[p]["rabbit"] - out[p]["wolf"] - prey[p]["carrot"] - prey[p]["closed_season"] for p in players}
    player = max(players, key=lambda p: needed[p])
    rounds = needed[player]
    if rounds <= 0:
        return []
    for other in players:
        spare = out[other]["rabbit"] - _meals_needed(out[other], prey[other])
        if spare < rounds:
            return [Finding("rabbits_without_meals", player, "rabbit", {
                "count": prey[player]["rabbit"], "wolves": out[player]["wolf"],
                "meals": prey[player]["carrot"] + prey[player]["closed_season"], "rounds": rounds, "other": other,
                "spare": max(spare, 0)})]
    return []


def _wolves_beyond_catches(players: Sequence[str], out: Mapping[str, Counts], prey: Mapping[str, Counts]) -> list[Finding]:
    """A pile holds the other players' Wolves its Hunter took, and its own Wolves back from Easy Prey.

    P's Hunter takes only other players' Wolves that left their hands.  P's
    own Wolf is back in P's pile only if it stayed above the lodge: after
    taking a Rabbit (one of the Rabbits in P's pile) or in a round where
    every player played a Wolf and none took anything.  After such a round
    the other players' Wolves all lie in Easy Prey for one round, where P's
    Hunter takes at most one of them: of the ``n - 1`` others, ``n - 2`` or
    more go to other piles, so each such round adds to the others' Wolves out
    of P's reach at least as much as it lets P's own Wolf back (``n >= 3``).
    So P's pile holds at most the others' Wolves that left their hands plus
    as many own Wolves as the Rabbits in P's pile.
    """
    findings = []
    for player in players:
        others = sum(out[other]["wolf"] for other in players if other != player)
        catches = min(out[player]["wolf"], prey[player]["rabbit"])
        if prey[player]["wolf"] > others + catches:
            findings.append(Finding("wolves_beyond_catches", player, "wolf", {
                "count": prey[player]["wolf"], "limit": others + catches, "others": others, "catches": catches}))
    return findings


__all__ = ["RULE_CODES", "Finding", "counting_rules", "part_rules"]
