"""Benchmark: decks of cards with pictures, through the engine and through plain reportlab.

Usage: python bench/pictures.py [--runs 5] [--against WORKTREE]

Two decks of 54 poker cards, each card a full-bleed picture under its name:
- ``54 pictures``: every card its own 1500 x 2100 px JPEG (quality 90, about 0.6 MB each; a
  picture made by Pillow, smooth colour with shapes and grain, the sizes a designer's scans have);
- ``1 background``: one of those pictures behind every card.

Each deck is rendered with ``pnp render --template`` (each picture stored once, made smaller to
300 dpi at its printed size: 1500 px over the card and its bleed is 548 dpi) and drawn by plain
reportlab (``canvas.drawImage`` of each file on A4 sheets of nine, the JPEG written as it is,
stored once per file: what a short script of one's own does). Every command runs once to warm
up, then --runs rounds run each once (bench/run.py's ``cases``). Reported: median wall and CPU
time, the highest peak memory, pages, PDF size. ``--against`` renders the decks with another
worktree's code too. Nothing here is a test.
"""

from __future__ import annotations

import argparse
import math
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import PY, cases  # noqa: E402

CARDS = 54
PIXELS = (1500, 2100)
CATALOG = '[game]\nname = "Pictures"\ncredits = "A benchmark."\n[component.cards]\nname = "Cards"\ncut = "Cut."\n'


def picture(number: int, path: Path) -> None:
    """A 1500 x 2100 px picture of its own: a gradient, shapes and grain (as a scan has)."""
    from PIL import Image, ImageDraw, ImageFilter

    w, h = PIXELS
    small = Image.new("RGB", (w // 10, h // 10))
    draw = ImageDraw.Draw(small)
    for y in range(h // 10):
        t = y / (h // 10)
        draw.line([(0, y), (w // 10, y)], fill=(int(60 + 150 * t), int(100 + 80 * math.sin(number + 3 * t)),
                                               int(210 - 140 * t)))
    picture = small.resize((w, h), Image.Resampling.BICUBIC)
    draw = ImageDraw.Draw(picture)
    for i in range(14):
        cx, cy = (number * 97 + i * 331) % w, (number * 53 + i * 211) % h
        r = 60 + (i * 37 + number * 11) % 300
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], outline=(250, 245, 230), width=8)
    grain = Image.effect_noise((w, h), 24).convert("RGB").filter(ImageFilter.GaussianBlur(1))
    Image.blend(picture, grain, 0.12).save(path, quality=90)


def write_decks(folder: Path) -> dict[str, tuple[Path, list[Path]]]:
    """The two decks' templates, and for each the picture of every card in order."""
    art = folder / "art"
    art.mkdir(parents=True)
    files = []
    for number in range(CARDS):
        path = art / f"card-{number:02d}.jpg"
        picture(number, path)
        files.append(path)
    decks = {}
    for name, column in (("54 pictures", [f"art/card-{n:02d}.jpg" for n in range(CARDS)]),
                         ("1 background", ["art/card-00.jpg"] * CARDS)):
        stem = "pictures" if name.startswith("54") else "background"
        (folder / f"{stem}.csv").write_text("id,art\n" + "".join(f"card-{n:02d},{column[n]}\n" for n in range(CARDS)),
                                            encoding="utf-8")
        (folder / f"{stem}.toml").write_text(f"""[game]
id = "{stem}"

[[components]]
id = "cards"
size = "poker"
fields = {{ art = "str" }}
pieces = "{stem}.csv"
[[components.front]]
type = "image"
file = "{{art}}"
x = 0
y = 0
w = "w"
h = "h"
bleed = true
[[components.front]]
type = "text"
x = 5
y = 76
w = 53.5
h = 8
text = "{{id}}"
size = 12
color = "white"
""", encoding="utf-8")
        for lang in ("en", "fr"):
            (folder / f"{stem}.{lang}.toml").write_text(CATALOG, encoding="utf-8")
        decks[name] = (folder / f"{stem}.toml", [folder / c for c in column])
    return decks


def reference(out: str, pictures: list[str]) -> None:
    """The same cards drawn by plain reportlab: nine poker cards (each with 3 mm of bleed) to an
    A4 sheet, each picture by drawImage and its name in Helvetica. reportlab writes a JPEG file
    as it is and stores each file once however often it is drawn."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(out, pagesize=A4, invariant=1)
    w, h, bleed = 63.5 * mm, 88.9 * mm, 3 * mm
    for index, path in enumerate(pictures):
        slot = index % 9
        if index and not slot:
            canvas.showPage()
        col, row = slot % 3, slot // 3
        x, y = 10 * mm + col * (w + 2 * bleed), A4[1] - 10 * mm - (row + 1) * (h + 2 * bleed)
        canvas.drawImage(path, x, y, w + 2 * bleed, h + 2 * bleed)
        canvas.setFillColorRGB(1, 1, 1)
        canvas.setFont("Helvetica", 12)
        canvas.drawCentredString(x + bleed + w / 2, y + bleed + 10 * mm, Path(path).stem)
    canvas.save()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", type=Path, help="a worktree of other code, with its own .venv")
    parser.add_argument("reference", nargs="*", help=argparse.SUPPRESS)   # OUT PICTURE...: one reference run
    args = parser.parse_args()
    if args.reference:
        reference(args.reference[0], args.reference[1:])
        return 0
    other = [str(args.against / ".venv" / "bin" / "python"), "-P"] if args.against else None
    work = Path(tempfile.mkdtemp(prefix="pnp-pictures-"))
    try:
        decks = write_decks(work / "decks")
        source = sum(p.stat().st_size for p in set(decks["54 pictures"][1]))
        named = []
        for name, (template, pictures) in decks.items():
            named += [(f"{name}, reportlab", [PY, "bench/pictures.py", "{out}/reference.pdf", *map(str, pictures)]),
                      (f"{name}, pnp render --template", [PY, "-m", "pnp", "render", "--template", str(template),
                                                          "--out", "{out}"])]
            if other:
                named.append((f"{name}, {args.against.name}", [*other, "-m", "pnp", "render", "--template",
                                                               str(template), "--out", "{out}"]))
        rows = cases(named, args.runs, work / "out")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"the 54 JPEGs: {source / 1024 / 1024:.1f} MiB; {CARDS} cards, poker size with 3 mm of bleed")
    print(f"{'deck':<40} {'wall s':>7} {'CPU s':>7} {'peak MiB':>9} {'pages':>6} {'PDF KiB':>8}")
    for row in rows:
        print(f"{row['name']:<40} {row['seconds']:>7.2f} {row['cpu_seconds']:>7.2f} {row['peak_mib']:>9.1f} "
              f"{row['pages']:>6} {row['bytes'] / 1024:>8.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
