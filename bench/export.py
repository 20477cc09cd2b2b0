"""Benchmark: `pnp export` of the 144-card deck to 300-dpi PNGs beside plain Pillow.

Usage: python bench/export.py [--runs 3] [--levels]
Each case runs as its own process (through bench/peak.py for time and peak
memory), once to warm up and then --runs rounds, every case once per round.
`pnp export` rasterises in worker processes: its peak memory is the parent's
plus each worker's, reported as "parent + workers x largest worker".
--levels also times the PNG encoding of one exported card at each zlib level.
Nothing here is a test.
"""

from __future__ import annotations

import argparse
import io
import json
import os
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
CARDS = 144
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

PEAK_OF_ALL = """
import json, resource, subprocess, sys, time
started = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
if done.returncode:
    sys.stderr.write(done.stderr.decode()); sys.exit(done.returncode)
print(json.dumps({"seconds": time.perf_counter() - started,
                  "largest_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""


def measure(command: list[str], out: Path) -> dict:
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    done = subprocess.run([PY, "-c", PEAK_OF_ALL, *command], capture_output=True, text=True,
                          cwd=ROOT, env=ENV)
    if done.returncode:
        raise SystemExit(f"bench: {' '.join(command)} failed:\n{done.stderr}")
    result = json.loads(done.stdout)
    pngs = list(out.rglob("*.png"))
    result["files"], result["bytes"] = len(pngs), sum(p.stat().st_size for p in pngs)
    return result


def levels() -> None:
    """Time one exported 300-dpi card's PNG encoding at each zlib level."""
    from PIL import Image

    from pnp.export.raster import Job, rasterise
    from pnp.export.plan import print_images
    from pnp.template.model import PrintOptions
    from pnp.render.single import faces_pdf
    from pnp.export.services import GENERIC
    from pnp.template.loader import load_game

    game = load_game(ROOT / "bench" / "deck.toml")
    images = print_images(game.components[0], None, GENERIC, 300).images[:12]
    drawn = faces_pdf(game, PrintOptions(), [i.page for i in images])
    raw = [data for _, data in rasterise(drawn.pdf, [Job(n, i.pixels, False, 300)
                                                   for n, i in enumerate(images)])]
    pictures = [Image.frombytes("RGB", images[0].pixels, r) for r in raw]
    import zlib

    print("PNG level  strategy  ms per card  KiB per card")
    for strategy, label in ((zlib.Z_DEFAULT_STRATEGY, "default"), (zlib.Z_RLE, "RLE")):
        for level in range(0, 10):
            best, sizes = float("inf"), []
            for _ in range(3):     # the best of three: the machine is shared
                started = time.perf_counter()
                sizes = []
                for picture in pictures:
                    buffer = io.BytesIO()
                    picture.save(buffer, "PNG", compress_level=level, compress_type=strategy)
                    sizes.append(len(buffer.getvalue()))
                best = min(best, (time.perf_counter() - started) / len(pictures) * 1000)
            print(f"{level:>9}  {label:>8}  {best:>11.1f}  {statistics.mean(sizes) / 1024:>12.0f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--levels", action="store_true")
    args = parser.parse_args()
    if args.levels:
        levels()
    work = Path(tempfile.mkdtemp(prefix="pnp-bench-export-"))
    named = [
        ("plain Pillow, 144 cards at 300 dpi", [PY, str(ROOT / "bench" / "pillow_deck.py"), "{out}"]),
        ("pnp export --format png (300 dpi)", [PY, "-m", "pnp", "export", "--template",
                                               str(ROOT / "bench" / "deck.toml"), "--out", "{out}"]),
    ]
    jobs = [(name, [p.replace("{out}", str(work / str(i))) for p in command], work / str(i))
            for i, (name, command) in enumerate(named)]
    try:
        for _, command, out in jobs:
            measure(command, out)
        samples: list[list[dict]] = [[] for _ in jobs]
        for _ in range(args.runs):
            for index, (_, command, out) in enumerate(jobs):
                samples[index].append(measure(command, out))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{'case':<40} {'median s':>9} {'cards/s':>8} {'ms/card':>8} {'largest MiB':>12} "
          f"{'PNG MiB':>8}")
    medians = []
    for (name, _, _), runs in zip(jobs, samples):
        seconds = statistics.median(r["seconds"] for r in runs)
        medians.append(seconds)
        print(f"{name:<40} {seconds:>9.2f} {CARDS / seconds:>8.0f} {seconds / CARDS * 1000:>8.1f} "
              f"{max(r['largest_kib'] for r in runs) / 1024:>12.1f} "
              f"{runs[-1]['bytes'] / 1024 / 1024:>8.1f}")
    from pnp.export.raster import workers

    largest = max(r["largest_kib"] for r in samples[1]) / 1024
    print(f"\nexport / Pillow: time {medians[1] / medians[0]:.2f}x (target < 1x)")
    print(f"export peak memory: at most {largest:.0f} MiB for the parent + {workers()} workers x "
          f"{largest:.0f} MiB = {largest * (1 + workers()):.0f} MiB (target < 300 MiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
