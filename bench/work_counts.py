"""Count the work of a render, not its time: function calls at two sizes of the same deck.

Usage: python bench/work_counts.py                 # the tables of calls and memory per card
       python bench/work_counts.py --json N DECK    # one size, in this process: {function: calls}
       python bench/work_counts.py --memory N DECK  # one size, in this process: bytes held

A deck of N cards that are all different (bench/unique_deck.py: ``unique``, one-sided; or
``hidden``, a hidden deck with one back, printed double-sided and spread over its sheets)
is loaded, laid out and drawn with its manifest (``pnp.kit.build.render_to_memory``) under
cProfile, which counts every call of every function, Python's built-ins included. A small
deck is rendered first, so that what a process does once (fonts registered, modules
imported) is not counted. Counts are the same on every run and every machine with the same
code and Python (hash seed fixed), however busy the machine: tests/test_work_counts.py
holds them to two rules, whatever a function is called:

- no function is called more than in proportion to the deck: at 4 times the cards, at
  most 4 times the calls (2% and :data:`SLACK` calls more, for what a cache keeps from the
  small deck rendered first, or clears once more);
- each part of the engine calls at most its budget per card (:data:`BUDGETS`).

The memory a render holds is counted the same way, in bytes Python allocates
(tracemalloc: the same on every run, however busy the machine), rather than in the
process's size: the most held at once while the deck is loaded, drawn and its manifest
written, and what the loaded game alone keeps. Both grow at most in proportion to the
deck (with :data:`SLACK_BYTES`), and stay within :data:`MEMORY_BUDGETS` per card.

After a change that is meant to do more (or less) work, run this script and copy its
figures into :data:`BUDGETS` (or :data:`MEMORY_BUDGETS`), saying why in the commit.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import re
import subprocess
import sys
import tempfile
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

#: The two sizes compared (each deck's cards are all different).
SIZES = (1000, 4000)
DECKS = ("unique", "hidden")
#: Calls a function may make at the larger size beyond four times its calls at the smaller:
#: a cache cleared once more, a few more sheets' worth of a per-sheet step.
SLACK = 32

#: The most calls per card each part of the engine may make, at 4,000 cards: measured
#: 2026-12-05 (issue 36, once cards were resolved as drawn) and rounded up by about 5%. A part is where the function is
#: defined: pnp.template (loading and checking), pnp.layout (sheets, faces, cover,
#: furniture), pnp.render (drawing), pnp.kit (the PDF and its manifest), pnp.core,
#: reportlab, Python's built-ins (dict.get, isinstance, ...) and the rest of the standard
#: library (other: json's encoder...). Main before issue 36 made 83 calls per card in
#: pnp.template and 187 in pnp.layout for the one-sided deck, 319 in pnp.layout for the
#: hidden one (its fronts laid out twice). Issue 33 adds its back's own printed box to a hidden
#: card whose front's bleed gives way to a crop mark (a named tuple's _replace: "other", 18.2).
#: Planning a deck's sheets alike once (issue 36) took pnp.layout from 102.8 to 85.7 calls per
#: card (unique) and from 140.7 to 116.1 (hidden); with the resolver keeping no layers of cards
#: met once, the checks of a deck's pieces by column and the rest, built-ins 218.1 and 367.3.
#: A record's methods (_replace, _make) are pnp.core's own since pnp/core/records.py makes them
#: rather than collections.namedtuple (issue 36, part 5): the hidden deck's _replace calls moved
#: from other (11.7 to 1.5) to pnp.core (15.9 to 26.2), the same calls.
BUDGETS = {
    "unique": {
        "pnp.template": 3.7, "pnp.layout": 90, "pnp.render": 39, "pnp.kit": 2.0, "pnp.core": 13.0,
        "reportlab": 30, "built-ins": 230, "other": 1.0,
    },
    "hidden": {
        "pnp.template": 4.9, "pnp.layout": 122, "pnp.render": 53, "pnp.kit": 4.0, "pnp.core": 27.5,
        "reportlab": 57, "built-ins": 386, "other": 2.0,
    },
}


#: Bytes a function may hold at the larger size beyond four times what it held at the smaller.
SLACK_BYTES = 256 * 1024

#: The most bytes per card a render may hold at once (``peak``: the game, its plan, the
#: pages drawn, the PDF made and its manifest) and the loaded game may keep (``game``), at
#: 4,000 cards, rounded up by about 5% from what was measured on 2026-12-05 (issue 36).
MEMORY_BUDGETS = {
    "unique": {"peak": 2150, "game": 600},
    "hidden": {"peak": 3100, "game": 600},
}


def part_of(function: str) -> str:
    """The part of the engine a counted function belongs to (see :data:`BUDGETS`)."""
    if function.startswith("pnp."):
        return ".".join(function.split(".")[:2]).split(":")[0]
    if function.startswith("reportlab"):
        return "reportlab"
    if function.startswith("~") or function.startswith("<"):
        return "built-ins"
    return "other"


def _name(code) -> str:
    """``pnp.layout.plan:_cut_bleed`` for a Python function, Python's own text for a built-in."""
    if isinstance(code, str):
        return "~" + re.sub(r" at 0x[0-9a-f]+", "", code)   # a type's address differs from run to run
    path = Path(code.co_filename)
    for top in ("pnp", "reportlab"):
        if top in path.parts:
            parts = path.parts[len(path.parts) - path.parts[::-1].index(top) - 1:]
            module = ".".join(parts).removesuffix(".py").removesuffix(".__init__")
            return f"{module}:{code.co_qualname}"
    return f"{path.name}:{code.co_qualname}"


def count(cards: int, deck: str) -> dict[str, int]:
    """Calls of every function while one deck of ``cards`` cards is rendered, in this process."""
    from unique_deck import write_template

    from pnp.kit.build import manifest_parts, render_to_memory
    from pnp.template.loader import load_game
    from pnp.template.model import PrintOptions

    hidden = deck == "hidden"
    with tempfile.TemporaryDirectory(prefix="pnp-work-") as folder:
        render_to_memory(load_game(write_template(Path(folder) / "warm", 3, hidden)), PrintOptions())
        template = write_template(Path(folder), cards, hidden)
        profile = cProfile.Profile()
        profile.enable()
        _, manifest = render_to_memory(load_game(template), PrintOptions(), records=True)
        for _ in manifest_parts(manifest):   # made as it is written
            pass
        profile.disable()
    calls: dict[str, int] = {}
    for entry in profile.getstats():
        name = _name(entry.code)
        calls[name] = calls.get(name, 0) + entry.callcount
    return calls


def held(cards: int, deck: str) -> dict[str, int]:
    """Bytes held while one deck of ``cards`` cards is rendered, in this process: ``peak``, the
    most at once from loading the deck to its manifest written, and ``game``, what the
    loaded game keeps (each beyond what was held before it was loaded)."""
    from unique_deck import write_template

    from pnp.kit.build import manifest_parts, render_to_memory
    from pnp.template.loader import load_game
    from pnp.template.model import PrintOptions

    hidden = deck == "hidden"
    with tempfile.TemporaryDirectory(prefix="pnp-held-") as folder:
        render_to_memory(load_game(write_template(Path(folder) / "warm", 3, hidden)), PrintOptions())
        template = write_template(Path(folder), cards, hidden)
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            game = load_game(template)
            kept = tracemalloc.get_traced_memory()[0] - before
            _, manifest = render_to_memory(game, PrintOptions(), records=True)
            for _ in manifest_parts(manifest):   # made as it is written
                pass
            peak = tracemalloc.get_traced_memory()[1] - before
        finally:
            tracemalloc.stop()
    return {"peak": peak, "game": kept}


def measured(cards: int, deck: str, what: str = "--json") -> dict[str, int]:
    """:func:`count` (or with ``what="--memory"``, :func:`held`) in a fresh process, its hash
    seed fixed (sets are walked in one order)."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run([sys.executable, str(Path(__file__)), what, str(cards), deck],
                          capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"bench/work_counts.py {what} {cards} {deck} failed:\n{done.stderr}")
    return json.loads(done.stdout)


def by_part(calls: dict[str, int]) -> dict[str, int]:
    parts: dict[str, int] = {}
    for function, number in calls.items():
        parts[part_of(function)] = parts.get(part_of(function), 0) + number
    return parts


def faster_than_cards(small: dict[str, int], large: dict[str, int], ratio: float) -> list[str]:
    """The functions called more than ``ratio`` times as often at the larger size (with :data:`SLACK`)."""
    return [f"{function}: {small.get(function, 0):,} calls, then {number:,} at {ratio:g} times the cards"
            for function, number in sorted(large.items())
            if number > ratio * small.get(function, 0) * 1.02 + SLACK]


def over_budget(large: dict[str, int], cards: int, budget: dict[str, int]) -> list[str]:
    """The parts whose calls per card at ``cards`` cards are over their budget."""
    parts = by_part(large)
    return [f"{part}: {parts.get(part, 0) / cards:.1f} calls per card, budget {most}"
            for part, most in budget.items() if parts.get(part, 0) > most * cards]


def held_more_than_cards(small: dict[str, int], large: dict[str, int], ratio: float) -> list[str]:
    """What is held more than ``ratio`` times over at the larger size (with :data:`SLACK_BYTES`)."""
    return [f"{what}: {small[what]:,} bytes, then {number:,} at {ratio:g} times the cards"
            for what, number in sorted(large.items()) if number > ratio * small[what] * 1.02 + SLACK_BYTES]


def over_memory_budget(large: dict[str, int], cards: int, budget: dict[str, int]) -> list[str]:
    """What is held past its budget per card at ``cards`` cards."""
    return [f"{what}: {large[what] / cards:,.0f} bytes per card, budget {most:,}"
            for what, most in budget.items() if large[what] > most * cards]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", nargs=2, metavar=("CARDS", "DECK"),
                        help="count one size in this process and print the counts as JSON")
    parser.add_argument("--memory", nargs=2, metavar=("CARDS", "DECK"),
                        help="measure the bytes one size holds in this process, as JSON")
    args = parser.parse_args()
    if args.json:
        print(json.dumps(count(int(args.json[0]), args.json[1])))
        return 0
    if args.memory:
        print(json.dumps(held(int(args.memory[0]), args.memory[1])))
        return 0
    small_n, large_n = SIZES
    for deck in DECKS:
        small, large = measured(small_n, deck), measured(large_n, deck)
        print(f"{deck} deck: calls per card at {large_n:,} cards (budget)")
        for part, number in sorted(by_part(large).items()):
            print(f"  {part:<14} {number / large_n:8.1f}   ({BUDGETS[deck].get(part, '-')})")
        for line in faster_than_cards(small, large, large_n / small_n) or ["  none faster than the cards"]:
            print(f"  {line}")
        top = sorted(large.items(), key=lambda item: -item[1])[:12]
        print("  most called: " + ", ".join(f"{name} {number / large_n:.1f}" for name, number in top))
        small, large = measured(small_n, deck, "--memory"), measured(large_n, deck, "--memory")
        print(f"{deck} deck: bytes held per card at {large_n:,} cards (budget)")
        for what, number in sorted(large.items()):
            print(f"  {what:<14} {number / large_n:8,.0f}   ({MEMORY_BUDGETS[deck].get(what, '-'):,})")
        for line in held_more_than_cards(small, large, large_n / small_n) or ["  none more than the cards"]:
            print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
