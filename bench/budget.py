"""What a unit of work costs, behind each work budget of pnp/core/limits.py.

Usage: python bench/budget.py [--python PY] [--only WORD] [--quick]

Each limit that multiplies (polygon corners x repeats x copies, shapes, QR
codes x bytes, a manifest's items, the pieces compared on the two sides of a
cover sheet) is measured here: a run of ``PY -m pnp`` (or a call in this
process where a command would measure start-up more than the work) at a few
sizes, its CPU time (user + system of the child) and peak memory, and the cost
of one unit from the difference between sizes (start-up cancels out). Then the
same figures for what real kits need: the four shipped games and the benchmark
decks (bench/deck.toml, bench/unique_deck.py), counted by pnp's own budget
(``pnp.core.limits.WorkBudget``), set beside each limit.

Nothing here is a test: the tests are in tests/; this script measures.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.hostile import element, template  # noqa: E402


def run(python: str, argv: list[str], folder: Path) -> tuple[float, float, int]:
    """CPU seconds, wall seconds and peak MiB of one ``pnp`` command in ``folder``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([python, "-m", "pnp", *argv], cwd=folder, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.strip()[:300]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, after.ru_maxrss // 1024


def _circle(n: int, expression: bool = False) -> list:
    """n corners scattered over a card (a PDF compresses them least); as expressions of the
    copy number, so that no two copies share them."""
    import random

    scatter = random.Random(n)
    points = []
    for _ in range(n):
        x, y = 5 + 50 * scatter.random(), 5 + 75 * scatter.random()
        points.append([f"{x:.4f} + copy * 0.0001", f"{y:.4f}"] if expression else [round(x, 4), round(y, 4)])
    return points


def corners(python: str, quick: bool) -> list[str]:
    """A polygon drawn on one card, repeated: every corner is written into the PDF."""
    lines = []
    sizes = [(10000, 10), (10000, 30)] if quick else [(10000, 5), (10000, 20), (10000, 45)]   # within the budget
    results = []
    for points, repeat in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            template(front=element("polygon", points=_circle(points), fill="black", repeat=repeat,
                                   step=[0.001, 0.001]), count=1)(folder)
            cpu, wall, peak = run(python, ["render", "--template", "t.toml", "--out", "out"], folder)
            pdf = next((folder / "out").glob("*.pdf")).stat().st_size
            results.append((points * repeat, cpu, peak, pdf))
            lines.append(f"  polygon {points} corners x {repeat} repeats = {points * repeat:>9,} corners: "
                         f"CPU {cpu:6.2f} s, peak {peak:4d} MiB, PDF {pdf / 1024 / 1024:6.1f} MiB")
    (n0, c0, m0, p0), (n1, c1, m1, p1) = results[0], results[-1]
    lines.append(f"  => {1e6 * (c1 - c0) / (n1 - n0):.2f} us, {(p1 - p0) / (n1 - n0):.1f} bytes of PDF and "
                 f"{(m1 - m0) * 1024 * 1024 / (n1 - n0):.0f} bytes of memory a corner drawn")
    # Corners that differ from copy to copy: each copy's polygon is worked out and drawn.
    results = []
    for cards in ([500, 2000] if quick else [500, 2000, 4000]):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            template(front=element("polygon", points=_circle(100, expression=True), fill="black"),
                     count=cards)(folder)
            cpu, wall, peak = run(python, ["render", "--template", "t.toml", "--out", "out"], folder)
            results.append((cards * 100, cpu))
            lines.append(f"  {cards} cards, each its own 100-corner polygon ({cards * 100:,} corners): CPU {cpu:.2f} s")
    (n0, c0), (n1, c1) = results[0], results[-1]
    lines.append(f"  => {1e6 * (c1 - c0) / (n1 - n0):.2f} us a corner worked out for one copy and drawn")
    return lines


def shapes(python: str, quick: bool) -> list[str]:
    """Rectangles repeated on every card, different on each card (they use the copy number)."""
    lines, results = [], []
    for cards in ([200, 1000] if quick else [200, 1000, 2000]):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            template(front=element("rect", x="2 + copy * 0.0001", y=2, w=3, h=3, fill="black",
                                   repeat=[10, 20], step=[3, 3]), count=cards)(folder)
            cpu, wall, peak = run(python, ["render", "--template", "t.toml", "--out", "out"], folder)
            results.append((cards * 200, cpu, peak))
            lines.append(f"  {cards} cards x 200 rectangles = {cards * 200:>7,} shapes: CPU {cpu:5.2f} s, peak {peak} MiB")
    (n0, c0, m0), (n1, c1, m1) = results[0], results[-1]
    lines.append(f"  => {1e6 * (c1 - c0) / (n1 - n0):.1f} us and {(m1 - m0) * 1024 * 1024 / (n1 - n0):.0f} bytes "
                 "of memory a shape laid out and drawn")
    return lines


def qr_codes(quick: bool) -> list[str]:
    """Encoding one QR code (pnp.core.qr.modules, as the renderer calls it), by bytes held."""
    import random

    from pnp.core.qr import modules

    lines = []
    rows = []
    modules("warm up", border=2)
    for size in ([60, 1000] if quick else [20, 60, 200, 500, 1000]):
        codes = 3 if quick else 8
        started = time.process_time()
        for _ in range(codes):
            modules("".join(random.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(size)),
                    border=2)
        each = (time.process_time() - started) / codes
        rows.append((size, each))
        lines.append(f"  a code of {size:>4} bytes: {each * 1000:6.1f} ms")
    (b0, t0), (b1, t1) = rows[0], rows[-1]
    per_byte = (t1 - t0) / (b1 - b0)
    lines.append(f"  => {per_byte * 1e6:.0f} us a byte, and {1000 * (t0 - b0 * per_byte):.1f} ms a code "
                 f"(= {round((t0 - b0 * per_byte) / per_byte)} bytes' worth)")
    return lines


def manifests(quick: bool) -> list[str]:
    """check-manifest's work on a manifest: every item, and the items of the two sides of a
    cover sheet compared pair by pair."""
    from pnp.layout.print_order import print_order_problems

    def manifest(items_per_page: int, pages: int, cover: bool) -> dict:
        def item(i: int, face: str) -> dict:
            return {"component": "c", "piece": "p", "copy": i + 1, "face": face,
                    "x": 10 + (i % 100) * 0.1, "y": 10 + (i // 100) * 0.1, "w": 0.05, "h": 0.05}
        if cover:
            listed = [{"number": 1, "kind": "cover", "sheet": 1, "items": [item(i, "front") for i in range(items_per_page)]},
                      {"number": 2, "kind": "cover", "sheet": 1, "items": [item(i, "front") for i in range(items_per_page)]}]
        else:
            listed = []
            for page in range(pages):
                kind = "front" if page % 2 == 0 else "back"
                listed.append({"number": page + 1, "kind": kind, "sheet": page // 2 + 1,
                               "items": [item(i, kind) for i in range(items_per_page)]})
        return {"duplex": True, "page_size_mm": [210, 297], "pages": listed}

    lines = []
    rows = []
    for pages in ([50, 200] if quick else [50, 200, 800]):
        data = manifest(50, pages, False)
        text = json.dumps(data)
        started = time.process_time()
        print_order_problems(json.loads(text), pages)
        spent = time.process_time() - started
        rows.append((pages * 50, spent, len(text)))
        lines.append(f"  {pages * 50:>6,} items on {pages} pages: {spent * 1000:7.1f} ms to read and check, "
                     f"{len(text) / pages / 50:.0f} bytes an item")
    (n0, t0, _), (n1, t1, _) = rows[0], rows[-1]
    lines.append(f"  => {1e6 * (t1 - t0) / (n1 - n0):.2f} us an item")
    rows = []
    for side in ([300, 1000] if quick else [300, 1000, 2000]):
        data = manifest(side, 2, True)
        started = time.process_time()
        print_order_problems(data, 2)
        spent = time.process_time() - started
        rows.append((side * side, spent))
        lines.append(f"  a cover sheet of {side} items a side ({side * side:>9,} pairs): {spent:6.2f} s")
    (n0, t0), (n1, t1) = rows[0], rows[-1]
    lines.append(f"  => {1e9 * (t1 - t0) / (n1 - n0):.0f} ns a pair compared")
    return lines


def pictures(python: str, quick: bool) -> list[str]:
    """Different pictures, one a card, each stored smaller (1500 x 2100 px on a poker card and
    its bleed is 548 dpi, stored at 300): every pixel of each is decoded, the picture resized
    and encoded again, as JPEGs and as PNGs (a PNG is read whole; a JPEG need not be)."""
    from PIL import Image

    from bench.pictures import picture

    lines = []
    for suffix in ("jpg", "png"):
        results = []
        for cards in ([6, 18] if quick else [6, 18, 36]):
            with tempfile.TemporaryDirectory() as tmp:
                folder = Path(tmp)
                for number in range(cards):
                    picture(number, folder / f"{number}.jpg")
                    if suffix == "png":
                        Image.open(folder / f"{number}.jpg").save(folder / f"{number}.png")
                pieces = "".join(f'[[components.pieces]]\nid = "card{n}"\ncount = 1\n_art = "{n}.{suffix}"\n'
                                 for n in range(cards))
                template(front=element("image", file="{_art}", x=0, y=0, w="w", h="h", bleed=True),
                         count=1, component='fields = { _art = "str" }')(folder)
                text = (folder / "t.toml").read_text(encoding="utf-8")
                (folder / "t.toml").write_text(text.split("[[components.pieces]]")[0] + pieces, encoding="utf-8")
                cpu, wall, peak = run(python, ["render", "--template", "t.toml", "--out", "out"], folder)
                pixels = cards * 1500 * 2100
                results.append((pixels, cpu, peak))
                lines.append(f"  {cards:>2} {suffix.upper()}s of 1500 x 2100 px = {pixels / 1e6:6.1f} million pixels: "
                             f"CPU {cpu:5.2f} s, peak {peak} MiB")
        (n0, c0, m0), (n1, c1, m1) = results[0], results[-1]
        lines.append(f"  => {(c1 - c0) / (n1 - n0) * 1e9:.0f} ms a million pixels of {suffix.upper()}s stored "
                     f"smaller, and {(m1 - m0) * 1024 * 1024 / (n1 - n0):.2f} bytes of memory a pixel")
    return lines


def real_kits() -> list[str]:
    """What the shipped kits and the benchmark decks spend of each budget (pnp.core.limits.WorkBudget)."""
    from pnp.kit.build import imprint
    from pnp.layout.plan import plan_kit
    from pnp.template.model import PrintOptions
    from pnp.render.fonts import MEASURER
    from pnp.template.loader import game_files, load_game
    from pnp.core.units import paper_size

    from bench.unique_deck import write_template

    lines = []
    kits = list(game_files().items()) + [("bench/deck.toml", ROOT / "bench" / "deck.toml")]
    with tempfile.TemporaryDirectory() as tmp:
        for cards in (1440, 14400):
            kits.append((f"{cards} different cards", write_template(Path(tmp), cards)))
        for name, path in kits:
            game = load_game(path)
            worst = {}
            for lang in ("en", "fr"):
                for paper in ("a4", "letter"):
                    options = PrintOptions(lang=lang, paper=paper)
                    plan = plan_kit(game, options, paper_size(paper), None, measure=MEASURER, imprint=imprint())
                    for key, value in plan.budget.spent().items():
                        worst[key] = max(worst.get(key, 0), value)
            lines.append(f"  {name:<26} " + ", ".join(f"{key} {value:,}" for key, value in worst.items()))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--only", default=None)
    parser.add_argument("--quick", action="store_true", help="fewer and smaller sizes")
    args = parser.parse_args()
    parts = {"corners": lambda: corners(args.python, args.quick),
             "shapes": lambda: shapes(args.python, args.quick),
             "qr": lambda: qr_codes(args.quick),
             "manifest": lambda: manifests(args.quick),
             "pictures": lambda: pictures(args.python, args.quick),
             "kits": real_kits}
    for name, measure in parts.items():
        if args.only and args.only not in name:
            continue
        print(f"{name}:", flush=True)
        for line in measure():
            print(line, flush=True)


if __name__ == "__main__":
    main()
