"""Benchmark: how long `pnp score check --prove` takes to decide a Hunting Fever day.

Usage:
    python bench/prove.py [--days 60] [--cold 15] [--seed 1]
    python bench/prove.py --find 600        # look for impossible days past every count check
    python bench/prove.py --coverage 1500   # how many impossible one-card mistakes counting explains

Days, for 3, 4 and 5 players:
* possible: days played by the tests' rules simulator (some rounds leaning to
  one animal for everyone, as in the tests);
* counted out: a simulated day with one card moved or two kinds swapped that a
  counting rule refuses (the day check answers; no solver runs);
* impossible: days past every check that the prover refuses, found by
  ``--find`` (one to three cards moved) and kept in bench/impossible_days.json.

Warm: every day decided in one process, after one day to load the formulas.
Cold: one fresh ``python -m pnp score check FILE --prove --json`` per day
(what the ``pnp`` script runs), the whole process timed.  Medians, 95th
percentiles and maxima in seconds.  Nothing here is a test.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import hunting_fever_sim as sim  # noqa: E402
from scoring import check_session  # noqa: E402
from scoring.hunting_fever import CARDS, entry  # noqa: E402
from scoring.hunting_fever_counting import RULE_CODES  # noqa: E402
from scoring.hunting_fever_proof import Refutation, Witness, prove_day  # noqa: E402

NAMES = ["Alice", "Bob", "Chloé", "Dévi", "Émile"]
IMPOSSIBLE = ROOT / "bench" / "impossible_days.json"
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def simulated(rng: random.Random, players: int) -> dict:
    chooser = sim.themed_chooser(rng) if rng.random() < 0.3 else None
    return sim.play_day(players, rng.randrange(players), rng, chooser).session_day(NAMES[:players])


def mistaken(rng: random.Random, day: dict, cards: int) -> dict:
    """``day`` with ``cards`` mistakes: a card moved to another place, or two kinds swapped."""
    day = copy.deepcopy(day)
    places = [(name, place, card) for name in day for place in ("prey", "hand") for card in CARDS]
    for _ in range(cards):
        held = [slot for slot in places if day[slot[0]][slot[1]][slot[2]] > 0]
        source = rng.choice(held)
        if rng.random() < 0.5:
            target = rng.choice([slot for slot in places if slot[2] == source[2] and slot != source])
            day[source[0]][source[1]][source[2]] -= 1
            day[target[0]][target[1]][target[2]] += 1
        else:
            other = rng.choice([slot for slot in held if slot[2] != source[2]])
            for (name, place, card), (to_name, to_place, _) in ((source, other), (other, source)):
                day[name][place][card] -= 1
                day[to_name][to_place][card] += 1
    return day


def session(day: dict) -> dict:
    return {"game": "hunting-fever", "players": list(day), "days": [day]}


def entries(day: dict) -> dict:
    return {name: entry(prey=s["prey"], hand=s["hand"], hunter_under_lodge=s["hunter_under_lodge"],
                        lodge_flipped=s["lodge_flipped"]) for name, s in day.items()}


def passes(day: dict) -> bool:
    return not check_session(session(day)).problems


# -- the days -------------------------------------------------------------------


def possible_days(players: int, count: int, seed: int) -> list[dict]:
    rng = random.Random(seed * 10 + players)
    return [simulated(rng, players) for _ in range(count)]


def counted_out_days(players: int, count: int, seed: int) -> list[dict]:
    """One-card mistakes that pass checks 3 to 8 but break a counting rule."""
    rng = random.Random(seed * 10 + players + 5)
    found = []
    while len(found) < count:
        day = mistaken(rng, simulated(rng, players), 1)
        codes = {str(p.code) for p in check_session(session(day)).problems}
        if codes and codes <= set(RULE_CODES):
            found.append(day)
    return found


def impossible_days(players: int) -> list[dict]:
    if not IMPOSSIBLE.exists():
        return []
    return [day for day in json.loads(IMPOSSIBLE.read_text(encoding="utf-8")) if len(day) == players]


def find(seconds: float, seed: int) -> None:
    """Search mistakes of one to three cards that pass every check yet the prover refuses."""
    rng = random.Random(seed)
    kept = json.loads(IMPOSSIBLE.read_text(encoding="utf-8")) if IMPOSSIBLE.exists() else []
    for players in (3, 4, 5):
        started, tried, found = time.perf_counter(), 0, 0
        while time.perf_counter() - started < seconds / 3:
            day = mistaken(rng, simulated(rng, players), rng.choice((1, 2, 3)))
            if not passes(day):
                continue
            tried += 1
            if isinstance(prove_day(list(day), entries(day)), Refutation):
                kept.append(day)
                found += 1
        print(f"{players} players: {found} impossible among {tried} days past every check")
    IMPOSSIBLE.write_text(json.dumps(kept, ensure_ascii=False, indent=None) + "\n", encoding="utf-8")


def coverage(count: int, seed: int) -> None:
    """Of one-card mistakes that pass checks 3 to 8 and cannot happen, how many a counting rule explains."""
    rng = random.Random(seed)
    for players in (3, 4, 5):
        explained = impossible = passing = 0
        for _ in range(count):
            day = mistaken(rng, simulated(rng, players), 1)
            problems = check_session(session(day)).problems
            if not {str(p.code) for p in problems} <= set(RULE_CODES):
                continue  # broken by checks 3 to 8 already
            passing += 1
            if problems:
                explained += 1
                impossible += 1
            elif isinstance(prove_day(list(day), entries(day)), Refutation):
                impossible += 1
        share = explained / impossible if impossible else 1
        print(f"{players} players: of {count} one-card mistakes, {passing} pass checks 3 to 8 and "
              f"{impossible} of those cannot happen; counting rules explain {explained} ({share:.1%})")


# -- timing ---------------------------------------------------------------------


def warm(days: list[dict], expect: type) -> list[float]:
    times = []
    for day in days:
        started = time.perf_counter()
        outcome = prove_day(list(day), entries(day))
        times.append(time.perf_counter() - started)
        assert isinstance(outcome, expect), day
    return times


def warm_counted_out(days: list[dict]) -> list[float]:
    times = []
    for day in days:
        started = time.perf_counter()
        problems = check_session(session(day)).problems
        times.append(time.perf_counter() - started)
        assert problems
    return times


def cold(days: list[dict], work: Path, exit_code: int) -> list[float]:
    times = []
    for number, day in enumerate(days):
        path = work / f"day{number}.json"
        path.write_text(json.dumps(session(day), ensure_ascii=False), encoding="utf-8")
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "pnp", "score", "check", str(path), "--prove", "--json"],
                              capture_output=True, text=True, cwd=ROOT, env=ENV)
        times.append(time.perf_counter() - started)
        if done.returncode != exit_code:
            raise SystemExit(f"bench: {path} exited {done.returncode}, expected {exit_code}:\n{done.stderr}")
    return times


def summary(times: list[float]) -> str:
    if not times:
        return f"{'-':>11} {'-':>8} {'-':>8}"
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"{statistics.median(ordered):11.3f} {p95:8.3f} {ordered[-1]:8.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=60, help="possible days per player count, warm")
    parser.add_argument("--cold", type=int, default=15, help="days per player count and kind, cold")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--find", type=float, metavar="SECONDS", help="look for impossible days and keep them")
    parser.add_argument("--coverage", type=int, metavar="DAYS", help="one-card mistakes per player count")
    args = parser.parse_args()
    if args.find:
        find(args.find, args.seed)
        return
    if args.coverage:
        coverage(args.coverage, args.seed)
        return
    print(f"{'kind':<12} {'players':>7} {'days':>5}  {'warm median':>11} {'p95':>8} {'max':>8}"
          f"  {'cold median':>11} {'p95':>8} {'max':>8}")
    with tempfile.TemporaryDirectory(prefix="pnp-bench-prove-") as folder:
        work = Path(folder)
        for players in (3, 4, 5):
            possible = possible_days(players, args.days + 1, args.seed)
            warm(possible[:1], Witness)  # loads the formulas this player count uses
            rows = [
                ("possible", possible[1:], warm(possible[1:], Witness), cold(possible[1:args.cold + 1], work, 0)),
            ]
            counted = counted_out_days(players, args.cold, args.seed)
            rows.append(("counted out", counted, warm_counted_out(counted), cold(counted, work, 1)))
            refused = impossible_days(players)
            rows.append(("impossible", refused, warm(refused, Refutation), cold(refused[:args.cold], work, 1)))
            for kind, days, warm_times, cold_times in rows:
                print(f"{kind:<12} {players:>7} {len(days):>5}  {summary(warm_times)}  {summary(cold_times)}")


if __name__ == "__main__":
    main()
