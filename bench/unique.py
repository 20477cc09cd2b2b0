"""Benchmark: decks of all-different cards through the engine, beside plain reportlab.

Usage: python bench/unique.py [--runs 5] [--cards 144,1440,14400] [--against WORKTREE ...]
For each size, a deck whose cards all differ (bench/unique_deck.py: own colour,
title and number, the elements of bench/deck.toml) is rendered with
``pnp render --template`` and written directly with reportlab. Every command
runs once to warm up, then --runs rounds run each once, as bench/run.py does.
``--against`` renders each deck also with the code of another git worktree (its
own ``.venv``; ``git worktree add ../before main``), in the same rounds; given
more than once, with each of them.
Reported: median wall time and CPU time (user + system: on a shared machine
the steadier of the two), the highest peak memory, the engine / reference
ratios, and how fast peak memory grows with the deck (MiB per 1,000 cards,
between the smallest and the largest deck). Nothing here is a test.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import PY, cases  # noqa: E402 - after the path is set
from bench.unique_deck import write_template  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cards", default="144,1440,14400",
                        help="deck sizes, comma-separated (default 144,1440,14400)")
    parser.add_argument("--against", type=Path, action="append", default=[],
                        help="a worktree of other code, with its own .venv (may be given more than once)")
    args = parser.parse_args()
    # -P: the other code's pnp, not this folder's (the commands run here).
    others = [(tree.name, [str(tree / ".venv" / "bin" / "python"), "-P"]) for tree in args.against]
    sizes = [int(n) for n in args.cards.split(",")]
    work = Path(tempfile.mkdtemp(prefix="pnp-unique-"))
    try:
        named = []
        for count in sizes:
            template = write_template(work / "templates", count)
            named += [
                (f"{count} cards, reportlab", [PY, "bench/unique_deck.py", "reference", str(count),
                                               "{out}/reference.pdf"]),
                (f"{count} cards, pnp render --template",
                 [PY, "-m", "pnp", "render", "--template", str(template), "--out", "{out}"]),
            ]
            for name, python in others:
                named.append((f"{count} cards, {name}",
                              [*python, "-m", "pnp", "render", "--template", str(template), "--out", "{out}"]))
        rows = cases(named, args.runs, work / "out")
    finally:
        shutil.rmtree(work, ignore_errors=True)

    width = 2 + len(others)
    print(f"{'cards':>6} {'':>10} {'wall s':>7} {'CPU s':>7} {'peak MiB':>9} {'pages':>6} {'PDF KiB':>8}")
    for index, count in enumerate(sizes):
        ref, engine, *before = rows[index * width:(index + 1) * width]
        for label, row in (("reportlab", ref), ("pnp", engine), *((name, b) for (name, _), b in zip(others, before))):
            print(f"{count:>6} {label[:10]:>10} {row['seconds']:>7.3f} {row['cpu_seconds']:>7.3f} "
                  f"{row['peak_mib']:>9.1f} {row['pages']:>6} {row['bytes'] / 1024:>8.0f}")
        against = [(f"/{name}", engine, b) for (name, _), b in zip(others, before)]
        for label, row, base in (("ratio", engine, ref), *against):
            print(f"{count:>6} {label:>10} {row['seconds'] / base['seconds']:>6.2f}x "
                  f"{row['cpu_seconds'] / base['cpu_seconds']:>6.2f}x "
                  f"{row['peak_mib'] / base['peak_mib']:>8.2f}x {'':>6} {row['bytes'] / base['bytes']:>7.2f}x")
    rows = [row for index, row in enumerate(rows) if index % width < 2]
    if len(sizes) > 1:
        spread = (sizes[-1] - sizes[0]) / 1000
        for label, column in (("reportlab", rows[::2]), ("pnp", rows[1::2])):
            growth = (column[-1]["peak_mib"] - column[0]["peak_mib"]) / spread
            print(f"peak memory, {label}: {growth:.2f} MiB per 1,000 cards "
                  f"({sizes[0]} to {sizes[-1]} cards)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
