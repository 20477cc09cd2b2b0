"""What print-and-cut costs: sheets per kit and build time, usual and for a Silhouette.

    python bench/cutter.py            # sheets per kit and paper, then timed `pnp build`s
    python bench/cutter.py --rounds 3

Sheets: every shipped kit in English on A4 and Letter, as usual and with `--cutter
silhouette` at the default inset (10 mm) and at 6 mm. Time: the whole `pnp build` (16 PDFs)
as usual and with `--cutter silhouette` (cut files included), each run in a fresh process
into a temporary folder; medians of rounds that run each case once.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

from pnp.kit.build import render_to_memory
from pnp.template.model import PrintOptions
from pnp.template.loader import game_files, load_shipped_game


def sheets() -> None:
    print("| kit | paper | usual | silhouette, 10 mm | silhouette, 6 mm |")
    print("|---|---|---|---|---|")
    for game_id in game_files():
        game = load_shipped_game(game_id)
        for paper in ("a4", "letter"):
            counts = [render_to_memory(game, PrintOptions(paper=paper, **options))[1]["sheets"]
                      for options in ({}, {"cutter": "silhouette"}, {"cutter": "silhouette", "mark_inset": 6.0})]
            print(f"| {game_id} | {paper} | " + " | ".join(str(c) for c in counts) + " |")


def timed(args: list[str]) -> float:
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pnp", *args, "--out", out], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args().rounds
    print(f"load average {os.getloadavg()[0]:.1f}, {rounds} rounds")
    sheets()
    cases = {"pnp build": ["build"], "pnp build --cutter silhouette": ["build", "--cutter", "silhouette"]}
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(rounds):
        for name, args in cases.items():
            times[name].append(timed(args))
    print("| command | median s | runs s |")
    print("|---|---|---|")
    for name, runs in times.items():
        print(f"| `{name}` | {statistics.median(runs):.2f} | " + ", ".join(f"{t:.2f}" for t in runs) + " |")


if __name__ == "__main__":
    main()
