"""How long `pnp watch` takes from a save to the picture, for a 50-card game.

The game is examples/harbour-lights with 50 cards (4 suits of 12, two of them twice) read
from its CSV, its aids, 16 round tokens, its board and scoresheet, copied to a temporary
folder. A real ``python -m pnp watch`` serves it on loopback; each round changes one card's
number in the CSV (or the template's title, every other round), then waits as the page does
(the long-polled state) for the new pages and fetches the picture of the first page of
cards at 1,200 pixels. With ``--browser``, the same in headless Chromium: the time from the
save until the page's picture of that sheet has loaded and shows the new version.

    python bench/watch.py [--rounds 15] [--browser]
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
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "harbour-lights"


def fifty_cards(folder: Path) -> Path:
    """Harbour Lights with 50 cards: 12 of each suit, the first two of coral twice."""
    shutil.copytree(EXAMPLE, folder, dirs_exist_ok=True)
    rows = ["id,count,suit,number,_tone,_mark"]
    shipped = (folder / "cards.csv").read_text(encoding="utf-8").splitlines()[1:]
    marks = {line.split(",")[1]: line.split(",")[4] for line in shipped}   # suit -> its mark
    for suit, mark in marks.items():
        for number in range(1, 13):
            count = 2 if suit == next(iter(marks)) and number <= 2 else 1
            rows.append(f"{suit}-{number},{count},{suit},{number},{suit},{mark}")
    (folder / "cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return folder / "harbour-lights.toml"


def in_process(template: Path, rounds: int) -> dict[str, float]:
    """Loading and drawing the game in this process, medians in ms."""
    from pnp.kit.build import render_to_memory
    from pnp.template.loader import load_game
    from pnp.template.model import PrintOptions

    loads, renders = [], []
    for _ in range(rounds):
        started = time.perf_counter()
        game = load_game(template)
        loaded = time.perf_counter()
        pdf, manifest = render_to_memory(game, PrintOptions())
        renders.append(time.perf_counter() - loaded)
        loads.append(loaded - started)
    cards = sum(1 for page in manifest["pages"] for item in page["items"]
                if item.get("component") == "harbour-cards" and page["kind"] == "front")
    return {"load_ms": 1000 * statistics.median(loads), "render_ms": 1000 * statistics.median(renders),
            "pages": len(manifest["pages"]), "cards": cards, "pdf_kb": len(pdf) / 1024}


class Watch:
    def __init__(self, template: Path) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "pnp", "watch", str(template), "--port", "0"],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        line = self.process.stdout.readline()
        self.url = re.search(r"(http://\S+?)/ ", line).group(1)
        self.seq = -1

    def state(self) -> dict:
        with urllib.request.urlopen(f"{self.url}/state?after={self.seq}", timeout=60) as answer:
            state = json.load(answer)
        self.seq = state["seq"]
        return state

    def settled(self) -> dict:
        state = self.state()
        while state["rendering"] or state["rendered_at"] is None:
            state = self.state()
        return state

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def edits(template: Path):
    """Each round's save: a card's number in the CSV, or the game's title in the catalog."""
    cards = template.with_name("cards.csv")
    catalog = template.with_name("harbour-lights.en.toml")
    original = catalog.read_text(encoding="utf-8")
    round_ = 0
    while True:
        round_ += 1
        if round_ % 2:
            text = cards.read_text(encoding="utf-8").splitlines()
            fields = text[3].split(",")
            fields[3] = str(int(fields[3]) % 12 + 1)
            text[3] = ",".join(fields)
            yield cards, "\n".join(text) + "\n"
        else:
            yield catalog, original.replace("Harbour Lights", f"Harbour Lights {round_}", 1)


def first_cards_page(state: dict) -> int:
    return next(p["number"] for p in state["pages"] if "harbour-cards" in p["components"] and p["kind"] == "front")


def over_http(template: Path, rounds: int) -> list[tuple[float, float]]:
    """(save to rendered, save to picture) of each round, s."""
    watch = Watch(template)
    times = []
    try:
        state = watch.settled()
        changes = edits(template)
        for _ in range(rounds):
            path, text = next(changes)
            version = state["version"]
            time.sleep(0.3)       # a designer between two saves
            saved = time.perf_counter()
            path.write_text(text, encoding="utf-8")
            state = watch.settled()
            while state["version"] == version:
                state = watch.settled()
            rendered = time.perf_counter()
            page = first_cards_page(state)
            with urllib.request.urlopen(f"{watch.url}/page/{state['version']}/{page}.png?w=1200") as answer:
                answer.read()
            times.append((rendered - saved, time.perf_counter() - saved))
    finally:
        watch.stop()
    return times


def in_browser(template: Path, rounds: int) -> list[float]:
    """Save to picture in headless Chromium: the sheet of cards shown, at the new version, s."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1200,1000",
                 f"--user-data-dir={tempfile.mkdtemp(prefix='pnp-chromium-')}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                              options=options)
    watch = Watch(template)
    times = []
    try:
        driver.get(watch.url + "/")
        state = watch.settled()
        page = first_cards_page(state)
        shown = ("const img = document.querySelectorAll('#pages img')[arguments[0] - 1];"
                 "if (!img) return null; img.scrollIntoView(); return img.dataset.loaded || null;")
        while driver.execute_script(shown, page) != str(state["version"]):
            time.sleep(0.01)
        changes = edits(template)
        for _ in range(rounds):
            path, text = next(changes)
            version = int(driver.execute_script(shown, page))
            time.sleep(0.3)
            saved = time.perf_counter()
            path.write_text(text, encoding="utf-8")
            while int(driver.execute_script(shown, page) or 0) == version:
                time.sleep(0.005)
            times.append(time.perf_counter() - saved)
    finally:
        watch.stop()
        driver.quit()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--browser", action="store_true", help="also measure in headless Chromium")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pnp-watch-bench-") as folder:
        template = fifty_cards(Path(folder) / "game")
        print(f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores, Python {sys.version.split()[0]}")
        figures = in_process(template, args.rounds)
        print(f"in process: load {figures['load_ms']:.0f} ms, render {figures['render_ms']:.0f} ms "
              f"({figures['cards']} cards, {figures['pages']} pages, {figures['pdf_kb']:.0f} KiB)")
        times = over_http(template, args.rounds)
        rendered = sorted(t[0] for t in times)
        pictured = sorted(t[1] for t in times)
        print(f"pnp watch over HTTP, {args.rounds} saves: save to rendered median {1000 * statistics.median(rendered):.0f} ms"
              f" (max {1000 * rendered[-1]:.0f}), save to picture median {1000 * statistics.median(pictured):.0f} ms"
              f" (max {1000 * pictured[-1]:.0f})")
        if args.browser:
            shown = sorted(in_browser(template, args.rounds))
            print(f"headless Chromium, {args.rounds} saves: save to picture shown median "
                  f"{1000 * statistics.median(shown):.0f} ms (max {1000 * shown[-1]:.0f})")


if __name__ == "__main__":
    main()
