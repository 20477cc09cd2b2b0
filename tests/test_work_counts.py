"""The work of a render grows with the deck, and each part stays within its budget per card.

Not a timing: bench/work_counts.py counts every function call (cProfile) while a deck of
1,000 and one of 4,000 different cards are loaded, laid out, drawn and their manifests
written, each in a fresh process. A step that visits every piece for every piece (the
cover's bleed statement did, once: 422,400 steps for 14,400 cards) shows as a function
called more than four times as often at four times the cards, on any machine, however
busy. Budgets per card (``BUDGETS`` there) catch a step that stays linear but does much
more work per piece; after a change meant to cost more, update them from
``python bench/work_counts.py``.
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import work_counts  # noqa: E402 - after the path is set


def every_size(what: str) -> dict[tuple[str, int], dict[str, int]]:
    """``work_counts.measured`` (``what``: "--json" for calls, "--memory" for bytes) of each deck at
    each size, each in a process of its own."""
    jobs = [(deck, cards) for deck in work_counts.DECKS for cards in work_counts.SIZES]
    with ThreadPoolExecutor(2) as pool:
        found = list(pool.map(lambda job: work_counts.measured(job[1], job[0], what), jobs))
    return dict(zip(jobs, found))


@pytest.fixture(scope="module")
def counts() -> dict[tuple[str, int], dict[str, int]]:
    return every_size("--json")


@pytest.fixture(scope="module")
def held() -> dict[tuple[str, int], dict[str, int]]:
    return every_size("--memory")


@pytest.mark.parametrize("deck", work_counts.DECKS)
def test_no_function_is_called_more_often_than_the_deck_grows(counts, deck):
    small_n, large_n = work_counts.SIZES
    faster = work_counts.faster_than_cards(counts[deck, small_n], counts[deck, large_n], large_n / small_n)
    assert faster == [], "\n".join(faster)


@pytest.mark.parametrize("deck", work_counts.DECKS)
def test_each_part_of_the_engine_keeps_to_its_budget_per_card(counts, deck):
    large_n = work_counts.SIZES[-1]
    over = work_counts.over_budget(counts[deck, large_n], large_n, work_counts.BUDGETS[deck])
    assert over == [], "over budget (update bench/work_counts.py's BUDGETS only for work meant to be done):\n" \
        + "\n".join(over)


def test_every_part_that_does_work_has_a_budget(counts):
    for deck in work_counts.DECKS:
        parts = work_counts.by_part(counts[deck, work_counts.SIZES[-1]])
        assert set(parts) <= set(work_counts.BUDGETS[deck]), (deck, sorted(parts))


@pytest.mark.parametrize("deck", work_counts.DECKS)
def test_what_a_render_holds_grows_no_faster_than_the_deck(held, deck):
    small_n, large_n = work_counts.SIZES
    assert work_counts.held_more_than_cards(held[deck, small_n], held[deck, large_n], large_n / small_n) == []


@pytest.mark.parametrize("deck", work_counts.DECKS)
def test_what_a_render_holds_keeps_to_its_budget_per_card(held, deck):
    large_n = work_counts.SIZES[-1]
    over = work_counts.over_memory_budget(held[deck, large_n], large_n, work_counts.MEMORY_BUDGETS[deck])
    assert over == [], "over budget (update bench/work_counts.py's MEMORY_BUDGETS only for memory meant to be held):\n" \
        + "\n".join(over)


def test_a_resolver_that_kept_every_card_would_be_over_budget():
    # The layers of 4,000 different cards kept for copies that never come (main before this
    # guard: 2,655 bytes per card at once, against 2,234 without them; 2,038 now).
    assert work_counts.over_memory_budget({"peak": 10_621_105, "game": 2_267_567}, 4_000,
                                          work_counts.MEMORY_BUDGETS["unique"]) == [
        "peak: 2,655 bytes per card, budget 2,150"]
    assert work_counts.held_more_than_cards({"peak": 1_000_000}, {"peak": 5_000_000}, 4) == [
        "peak: 1,000,000 bytes, then 5,000,000 at 4 times the cards"]


def test_the_counts_are_the_same_from_run_to_run(counts):
    assert work_counts.measured(work_counts.SIZES[0], "unique") == counts["unique", work_counts.SIZES[0]]


def test_a_step_that_visits_every_card_for_every_card_is_caught():
    small = {"pnp.layout.plan:_cut_bleed": 1, "pnp.layout.plan:_touches": 1_000 * 12}
    quadratic = {"pnp.layout.plan:_cut_bleed": 1, "pnp.layout.plan:_touches": 4_000 * 48}
    assert work_counts.faster_than_cards(small, small, 4) == []
    assert [line.split(":")[1] for line in work_counts.faster_than_cards(small, quadratic, 4)] == ["_touches"]


def test_a_part_over_its_budget_is_named():
    calls = {"pnp.layout.faces:FaceResolver.face": 4_000, "pnp.layout.faces:mm": 400_000,
             "~<method 'get' of 'dict' objects>": 8_000}
    assert work_counts.over_budget(calls, 4_000, {"pnp.layout": 50, "built-ins": 5}) == [
        "pnp.layout: 101.0 calls per card, budget 50"]
