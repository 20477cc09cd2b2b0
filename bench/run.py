"""Benchmark: the engine beside plain reportlab, the full build, each game, the score companion.

Usage: python bench/run.py [--runs 5]
Each case runs once to warm up, then --runs rounds in which every case runs
once (so a machine that slows down for a while slows every case alike); the
median wall time and CPU time (user + system), the highest peak memory, the
pages and the PDF bytes are reported, with the engine / reference ratios the
README quotes. Nothing here is a test.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PY = sys.executable
GAMES = ["hunting-fever", "halali", "card-hunter", "hunting-hunting-beavers"]
# Python caches compiled modules unless told not to; some sandboxes tell it not
# to, which would time the compiling of our sources on every run. Measure what a
# user gets: the cache on (the warm-up run fills it).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def measure(command: list[str], out: Path) -> dict:
    """Run a command in a fresh output folder; return time, peak memory, pages, bytes."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    done = subprocess.run([PY, str(ROOT / "bench" / "peak.py"), "--", *command],
                          capture_output=True, text=True, cwd=ROOT, env=ENV)
    if done.returncode != 0:
        raise SystemExit(f"bench: {' '.join(command)} failed:\n{done.stderr}")
    result = json.loads(done.stdout)
    pdfs = list(out.rglob("*.pdf"))
    result["bytes"] = sum(p.stat().st_size for p in pdfs)
    result["pages"] = sum(len(re.findall(rb"/Type /Page\b(?!s)", p.read_bytes())) for p in pdfs)
    result["files"] = len(pdfs)
    return result


def cases(named: list[tuple[str, list[str]]], runs: int, work: Path) -> list[dict]:
    """Each command once to warm up, then ``runs`` rounds that run every command
    once each: a machine that slows down for a while slows every case alike."""
    jobs = [(name, [part.replace("{out}", str(work / str(i))) for part in command], work / str(i))
            for i, (name, command) in enumerate(named)]
    for _, command, out in jobs:
        measure(command, out)  # warm-up: file cache, compiled bytecode
    samples: list[list[dict]] = [[] for _ in jobs]
    for _ in range(runs):
        for (_, command, out), taken in zip(jobs, samples):
            taken.append(measure(command, out))
    return [{
        "name": name,
        "seconds": statistics.median(s["seconds"] for s in taken),
        "cpu_seconds": statistics.median(s["cpu_seconds"] for s in taken),
        "peak_mib": max(s["peak_kib"] for s in taken) / 1024,
        "pages": taken[-1]["pages"],
        "bytes": taken[-1]["bytes"],
        "files": taken[-1]["files"],
    } for (name, _, _), taken in zip(jobs, samples)]


def in_process(runs: int, work: Path) -> dict:
    """Drawing time alone, without starting Python or importing anything."""
    sys.path.insert(0, str(ROOT / "bench"))
    import reference_deck
    from pnp.kit.build import render_to_memory
    from pnp.template.model import PrintOptions
    from pnp.template.loader import load_game

    target = str(work / "in-process-reference.pdf")

    def reference() -> None:
        reference_deck.main(target)

    def engine() -> None:
        render_to_memory(load_game(ROOT / "bench" / "deck.toml"), PrintOptions())

    result = {}
    for name, job in (("reference", reference), ("engine", engine)):
        job()
        samples = []
        for _ in range(runs * 2):
            started = time.perf_counter()
            job()
            samples.append(time.perf_counter() - started)
        result[name] = statistics.median(samples)
    return result


def scoring_rate(work: Path, runs: int) -> dict:
    """Sessions checked and scored per second, from a folder of generated sessions."""
    from bench.sessions import write_sessions
    from scoring import load_session, read_session_file, score_session

    folder = work / "sessions"
    paths = write_sessions(folder, 400)
    rates = []
    for _ in range(runs + 1):
        started = time.perf_counter()
        for path in paths:
            score_session(load_session(read_session_file(path).raw))
        rates.append(len(paths) / (time.perf_counter() - started))
    return {"name": "score companion", "sessions": len(paths), "per_second": statistics.median(rates[1:])}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="pnp-bench-"))
    try:
        cli = [PY, "-m", "pnp"]
        named = [
            ("reference deck (reportlab)", [PY, "bench/reference_deck.py", "{out}/reference.pdf"]),
            ("same deck, pnp render --template",
             [*cli, "render", "--template", "bench/deck.toml", "--out", "{out}"]),
            ("pnp build (all kits, EN+FR, A4+Letter)", [*cli, "build", "--out", "{out}"]),
            *((f"pnp render {game} (en, a4)", [*cli, "render", game, "--out", "{out}"]) for game in GAMES),
        ]
        rows = cases(named, args.runs, work)
        scoring = scoring_rate(work, args.runs)
        drawing = in_process(args.runs, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"{'case':<42} {'median s':>9} {'CPU s':>7} {'peak MiB':>9} {'pages':>6} {'PDF KiB':>8}")
    for row in rows:
        print(f"{row['name']:<42} {row['seconds']:>9.3f} {row['cpu_seconds']:>7.3f} "
              f"{row['peak_mib']:>9.1f} {row['pages']:>6} {row['bytes'] / 1024:>8.0f}")
    ref, engine, build = rows[0], rows[1], rows[2]
    time_ratio = engine["seconds"] / ref["seconds"]
    size_ratio = engine["bytes"] / ref["bytes"]
    print()
    print(f"engine / reference: time {time_ratio:.2f}x (target <= 1.5x; CPU time "
          f"{engine['cpu_seconds'] / ref['cpu_seconds']:.2f}x), PDF size {size_ratio:.2f}x (target <= 1.5x)")
    print(f"  in-process, drawing only: reference {drawing['reference'] * 1000:.0f} ms, engine "
          f"{drawing['engine'] * 1000:.0f} ms ({drawing['engine'] / drawing['reference']:.2f}x; the engine "
          f"also loads the template, lays out, and draws a cover page and footers)")
    print(f"pnp build peak memory: {build['peak_mib']:.1f} MiB (target < 80 MiB)")
    print(f"score companion: {scoring['per_second']:.0f} sessions checked and scored per second "
          f"({scoring['sessions']} sessions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
