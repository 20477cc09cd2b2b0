"""Benchmark: laying out and drawing the kits' texts, plain and rich, against another worktree.

Usage: python bench/texts.py [--rounds 5] [--repeats 3] [--against WORKTREE ...]

Each round renders, in a fresh process, every shipped game's kit in English on A4 (their texts
are plain: no run, inline icon or escape) and the designer's example Lantern Market (its rules
full of **bold** figures and inline icons, where the checkout has it), ``--repeats`` times each
in memory (``render_to_memory``: no start-up, no file written), after one render to warm up.
With ``--against`` (once or more), each round runs each other worktree's code too (the Python of
its ``.venv``, its own folder first on the path), one after the other, so a machine that slows
down for a while slows them alike. Reported: the median CPU time (``time.process_time``, the
process's threads included) of one render of each kit, and the ratio of this checkout's to each
other's. Nothing here is a test.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("hunting-fever", "halali", "card-hunter", "hunting-hunting-beavers")
DESIGNER = "examples/lantern-market/lantern-market.toml"


def child(root: Path, repeats: int) -> None:
    """One round in this process, with whichever pnp this Python imports: JSON of CPU seconds."""
    from pnp.kit.build import render_to_memory
    from pnp.template.loader import load_game, load_shipped_game
    from pnp.template.model import PrintOptions

    games = {name: load_shipped_game(name) for name in GAMES}
    if (root / DESIGNER).exists():
        games["lantern-market"] = load_game(root / DESIGNER)
    taken = {}
    for name, game in games.items():
        render_to_memory(game, PrintOptions())   # warm: fonts registered, icons read
        times = []
        for _ in range(repeats):
            start = time.process_time()
            render_to_memory(game, PrintOptions())
            times.append(time.process_time() - start)
        taken[name] = statistics.median(times)
    print(json.dumps(taken))


def run(python: str, root: Path, repeats: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(root)}   # its own pnp, whatever its .venv installed
    done = subprocess.run([python, "-P", str(ROOT / "bench" / "texts.py"), "--child", str(root),
                           "--repeats", str(repeats)], capture_output=True, text=True, cwd=root, check=True, env=env)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--against", type=Path, action="append", default=[],
                        help="a worktree of other code, with its own .venv (once or more)")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.repeats)
        return 0
    checkouts = [("this", sys.executable, ROOT)]
    checkouts += [(other.name, str(other / ".venv" / "bin" / "python"), other) for other in args.against]
    samples: dict[str, dict[str, list[float]]] = {label: {} for label, _, _ in checkouts}
    for _ in range(args.rounds):
        for label, python, root in checkouts:
            for kit, seconds in run(python, root, args.repeats).items():
                samples[label].setdefault(kit, []).append(seconds)
    kits = list(samples["this"])
    print(f"{'kit':<26}" + "".join(f"{label + ' CPU ms':>22}" for label, _, _ in checkouts)
          + "".join(f"{'this / ' + label:>24}" for label, _, _ in checkouts[1:]))
    for kit in kits:
        medians = [statistics.median(samples[label][kit]) * 1000 if kit in samples[label] else None
                   for label, _, _ in checkouts]
        shown = "".join(f"{m:>22.1f}" if m is not None else f"{'-':>22}" for m in medians)
        ratios = "".join(f"{medians[0] / m:>24.3f}" if m else f"{'-':>24}" for m in medians[1:])
        print(f"{kit:<26}{shown}{ratios}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
