"""The club's history pages of ``pnp serve`` with a club's years of sessions stored: import, upgrade, pages.

A club of 40 people plays every week for years: ``--sessions`` session files of
all four games (Hunting Fever from the rules simulator, the others drawn inside
their rules), dated one evening after another, each table drawn from the club,
a few people written under two spellings.  Timed, each in a fresh process as a
user runs it:

* ``pnp score import`` of every file into a new data folder (one command);
* opening a database of the schema before the club's figures (version 3) with
  the same sessions: its figures counted once (``--upgrade``);
* a real ``pnp serve`` on the folder, every history page asked ``--rounds`` times
  in turn (each round asks every page once, so a busy machine slows all pages
  alike): the organiser's pages (HTML, by cookie), the same as JSON, and the two
  exports of every play; median, 95th percentile and size of each.

    python bench/history.py [--sessions 5000] [--rounds 15] [--upgrade] [--code DIR]

``--code DIR`` runs another checkout's code (a worktree of main) for the import
and the server, and asks only the pages that checkout has (``/history``).
Results, by date and machine: ``bench/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from bench.sessions import beavers_session, card_hunter_session, halali_session  # noqa: E402
from hunting_fever_sim import play_game, session as hunting_fever_session  # noqa: E402

TOKEN = "bench-history-organiser"
FIRST = ["Ann", "Ben", "Chloé", "Dévi", "Émile", "Farid", "Gaëlle", "Hugo", "Inès", "Jules", "Katia", "Léo",
         "Maëlys", "Nour", "Oscar", "Paula", "Quentin", "Rose", "Sami", "Théa"]
#: Forty people: twenty first names, twice (a family name's initial tells them apart).
CLUB = [f"{name} {initial}." for name in FIRST for initial in ("B", "M")]
#: Two spellings of one person, as a club's files are written over the years.
SPELLINGS = {"Maëlys B.": "Maelys B.", "Léo M.": "Leo M."}


def _renamed(value, names: dict):
    if isinstance(value, dict):
        return {names.get(k, k): _renamed(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    return names.get(value, value) if isinstance(value, str) else value


def club_sessions(count: int, seed: int = 35) -> list[dict]:
    """``count`` sessions of a club, one evening of four tables after another, oldest first."""
    rng = random.Random(seed)
    found = []
    day = 0
    for index in range(count):
        if index % 4 == 0:
            day += 7
        date = time.strftime("%Y-%m-%d", time.gmtime(1_577_836_800 + day * 86_400))  # from 2020-01-01
        kind = index % 4
        if kind == 0:
            names = rng.sample(CLUB, rng.randint(3, 5))
            raw = hunting_fever_session(names, list(play_game(names, rng)))
        elif kind == 1:
            raw = halali_session(rng)
        elif kind == 2:
            raw = beavers_session(rng)
            raw["colors"] = dict(zip(raw["players"], rng.sample(["red", "green", "blue", "white"], 4)))
        else:
            raw = card_hunter_session(rng)
        if kind != 0:
            raw = _renamed(raw, dict(zip(raw["players"], rng.sample(CLUB, len(raw["players"])))))
        if rng.random() < 0.3:
            raw = _renamed(raw, SPELLINGS)
        found.append({**raw, "date": date})
    return found


def write_files(folder: Path, raws: list[dict]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for index, raw in enumerate(raws):
        path = folder / f"club-{index:05d}.json"
        path.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
        paths.append(path)
    return paths


def _env(code: Path) -> dict:
    return {**os.environ, "PYTHONPATH": str(code), "PYTHONUNBUFFERED": "1"}


def import_files(code: Path, files: list[Path], data: Path) -> float:
    """Seconds ``pnp score import`` of every file takes, as one command."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pnp", "score", "import", *map(str, files), "--data", str(data)],
                          cwd=code, env=_env(code), capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"pnp score import failed: {done.stderr[-2000:]}")
    return elapsed


def upgrade(code: Path, data: Path, folder: Path) -> float:
    """Seconds opening a copy of ``data``'s sessions as schema version 3 left them takes (counted once)."""
    from helpers import sessions_at_version_3

    folder.mkdir(parents=True, exist_ok=True)
    source = sqlite3.connect(data / "pnp.sqlite3")
    sessions_at_version_3(source, folder / "pnp.sqlite3")
    source.close()
    script = "from pnp.web.db import Database; Database.in_folder(__import__('pathlib').Path(%r)).close()" % str(folder)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", script], cwd=code, env=_env(code), check=True)
    return time.perf_counter() - started


def start_server(code: Path, data: Path) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen([sys.executable, "-m", "pnp", "serve", "--port", "0", "--data", str(data),
                                "--token", TOKEN], cwd=code, env=_env(code), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    found = re.search(r"listening on (http://\S+?)/ ", line)
    if not found:
        process.kill()
        raise SystemExit(f"pnp serve did not start: {line!r} {process.stderr.read()[-2000:]}")
    return process, found.group(1)


def pages(data: Path, only_index: bool) -> dict[str, tuple[str, dict]]:
    """Every page to time: its name -> (path, headers); a busy person and game chosen from the database."""
    page_html = {"Cookie": f"pnp_organiser={TOKEN}"}
    api = {"Authorization": f"Bearer {TOKEN}"}
    if only_index:
        return {"/history (HTML)": ("/history", page_html)}
    connection = sqlite3.connect(data / "pnp.sqlite3")
    busiest = connection.execute("SELECT person_id FROM person_games GROUP BY person_id ORDER BY sum(plays) DESC "
                                 "LIMIT 1").fetchone()[0]
    connection.close()
    return {
        "/history (HTML)": ("/history", page_html),
        "/history?page=100 (HTML)": ("/history?page=100", page_html),
        "players, page 2 (HTML)": ("/history/players?page=2", page_html),
        "a player (HTML)": (f"/history/players/{busiest}", page_html),
        "a player, one game, page 5 (HTML)": (f"/history/players/{busiest}?game=hunting-fever&page=5", page_html),
        "Hunting Fever (HTML)": ("/history/games/hunting-fever", page_html),
        "Beavers, page 30 (HTML)": ("/history/games/hunting-hunting-beavers?page=30", page_html),
        "Halali! (HTML)": ("/history/games/halali", page_html),
        "export page (HTML)": ("/history/export", page_html),
        "a player (JSON)": (f"/api/history/players/{busiest}", api),
        "a game (JSON)": ("/api/history/games/hunting-fever", api),
        "every play, CSV": ("/history/export/plays.csv", page_html),
        "every play, BG Stats": (f"/history/export/plays.bgsplay?me={busiest}", page_html),
    }


def time_pages(url: str, asked: dict, rounds: int) -> dict[str, tuple[list[float], int]]:
    parsed = urlparse(url)
    connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=60)
    timings: dict[str, list[float]] = {name: [] for name in asked}
    sizes: dict[str, int] = {}
    for _ in range(rounds + 1):  # the first round warms the server (templates, caches), not counted
        for name, (path, headers) in asked.items():
            started = time.perf_counter()
            connection.request("GET", path, headers=headers)
            response = connection.getresponse()
            body = response.read()
            elapsed = time.perf_counter() - started
            if response.status != 200:
                raise SystemExit(f"{path}: {response.status} {body[:300]!r}")
            timings[name].append(elapsed)
            sizes[name] = len(body)
    connection.close()
    return {name: (values[1:], sizes[name]) for name, values in timings.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=5000, help="sessions the club has stored")
    parser.add_argument("--rounds", type=int, default=15, help="times every page is asked")
    parser.add_argument("--upgrade", action="store_true", help="also time opening a version-3 database of them")
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose code runs (default: this one)")
    options = parser.parse_args()
    load = os.getloadavg()
    code = options.code.resolve()
    only_index = not (code / "pnp" / "web" / "club.py").exists()
    with tempfile.TemporaryDirectory() as folder:
        files = write_files(Path(folder) / "files", club_sessions(options.sessions))
        data = Path(folder) / "data"
        imported = import_files(code, files, data)
        print(f"pnp score import of {len(files)} session files ({code}): {imported:.1f} s")
        if options.upgrade and not only_index:
            print(f"opening them as a version-3 database (figures counted once): "
                  f"{upgrade(code, data, Path(folder) / 'old'):.1f} s")
        process, url = start_server(code, data)
        try:
            found = time_pages(url, pages(data, only_index), options.rounds)
        finally:
            process.terminate()
            process.wait(timeout=10)
    print(f"{os.cpu_count()} cores, load average before/after: {load[0]:.2f} / {os.getloadavg()[0]:.2f}")
    print(f"{'page':<36} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'KB':>8}")
    for name, (values, size) in found.items():
        values = sorted(values)
        print(f"{name:<36} {1000 * statistics.median(values):>8.1f} {1000 * values[int(0.95 * (len(values) - 1))]:>8.1f}"
              f" {1000 * values[-1]:>8.1f} {size / 1000:>8.1f}")


if __name__ == "__main__":
    main()
