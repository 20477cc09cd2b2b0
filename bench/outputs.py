"""Every file the commands write, hashed: to show a change of code left the output as it was.

Usage: python bench/outputs.py OUT [--sessions DIR] > hashes.txt

Runs, each in a fresh process: ``pnp build`` plain, with ``--ink-saver``, with
``--fold`` and with ``--no-duplex`` (every kit in English and French, on A4 and
US Letter); ``pnp calibrate`` in both languages and papers; ``pnp export
halali`` as PNG, PDF and Tabletop Simulator files, and ``card-hunter``'s decks
for Tabletop Simulator; ``pnp score sheet`` for
sessions of every game (finished, unfinished, tied) in both languages and
papers. Prints one ``sha256  path`` line per file written under OUT, sorted.

Run it before and after a change, with the same OUT and the same sessions
(the Tabletop Simulator file names its images by their full path), and diff
the two lists. ``SOURCE_DATE_EPOCH`` is unset so no date is printed. The
sessions are written once into DIR (default OUT/../sessions) and reused.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}


def pnp(*args: str) -> None:
    done = subprocess.run([sys.executable, "-m", "pnp", *args], capture_output=True, text=True, env=ENV)
    if done.returncode != 0:
        raise SystemExit(f"pnp {' '.join(args)} failed:\n{done.stderr}")


def sessions(folder: Path) -> list[Path]:
    """Two sessions of each game, and an unfinished Hunting Fever evening (written once)."""
    if not folder.is_dir():
        sys.path.insert(0, str(ROOT))
        from bench.sessions import write_sessions

        paths = write_sessions(folder, 8, seed=28)
        raw = json.loads(paths[0].read_text(encoding="utf-8"))
        raw["days"] = raw["days"][:2]
        (folder / "unfinished.json").write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    return sorted(folder.glob("*.json"))


def run_all(out: Path, session_files: list[Path]) -> None:
    for name, extra in (("build", ()), ("ink", ("--ink-saver",)), ("fold", ("--fold",)),
                        ("simplex", ("--no-duplex",))):
        pnp("build", "--out", str(out / name), *extra)
    for lang in ("en", "fr"):
        for paper in ("a4", "letter"):
            pnp("calibrate", "--lang", lang, "--paper", paper, "--out", str(out / "calibrate"))
    for fmt in ("png", "pdf", "tts"):
        pnp("export", "halali", "--format", fmt, "--out", str(out / f"export-{fmt}"))
    # Halali's pieces are tiles: Card Hunter's decks go on Tabletop Simulator's card sheets.
    pnp("export", "card-hunter", "--format", "tts", "--out", str(out / "export-tts-decks"))
    (out / "sheets").mkdir()
    for session in session_files:
        for lang in ("en", "fr"):
            for paper in ("a4", "letter"):
                target = out / "sheets" / f"{session.stem}-{lang}-{paper}.pdf"
                pnp("score", "sheet", str(session), "--lang", lang, "--paper", paper, "--out", str(target))
        pnp("score", "sheet", str(session), "--ink-saver", "--out", str(out / "sheets" / f"{session.stem}-ink.pdf"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--sessions", type=Path)
    args = parser.parse_args()
    out = args.out.resolve()
    session_files = sessions((args.sessions or out.parent / "sessions").resolve())
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    run_all(out, session_files)
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        print(hashlib.sha256(path.read_bytes()).hexdigest(), path.relative_to(out))


if __name__ == "__main__":
    main()
