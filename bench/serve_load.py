"""Load test of ``pnp serve``: a club evening of 20 phones entering their days at once, on loopback.

Four tables of five players play Hunting Fever (the rules simulator of the
tests plays the days); every player's phone takes its seat with the join link
(POST), then, once the previous day is committed, reads the day (GET, its
version), lets its player count their cards (a random pause, 0.2 to 2 s here
where a real table takes a minute), sends their own part against that version
(PATCH with If-Match: the other players' parts sent meanwhile do not make it
stale), then asks how the day stands (GET) every second until the others are
in, while each table's screen (the organiser's) asks for its live scores every
second.  ``--burst`` removes the
pauses and polls every 50 ms: all twenty phones send at the same instant, the
worst case for queueing.  A real ``python -m pnp serve`` runs in a child process
on a fresh data folder, as a user starts it.

``--club N`` first imports N sessions of the same five players (bench/sessions.py)
into that folder, as a club's years of history; ``--history`` puts the club's
pages in the mix: each phone reads its player's page from its table (the API, with
its seat's token) once it has sent each day, and the organiser's laptop reads the
history, a player's and a game's page (HTML) every two seconds.

Reported: requests per second over the whole evening, median and 95th
percentile latency by kind of request, and lost or duplicated entries (a part
answered 200 that is missing from the final session, a day committed twice, a
session with more or fewer days than played): all must be 0.  Every entry is
answered only once it is on the disk (``synchronous=FULL``).  Results, by date
and machine: ``bench/RESULTS.md``.

    python bench/serve_load.py [--evenings 3] [--tables 4] [--burst]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from hunting_fever_sim import play_game, session as simulated_session  # noqa: E402

TOKEN = "load-test-organiser"
NAMES = ["Alice", "Bob", "Chloé", "Dévi", "Émile"]


class Phone:
    """One keep-alive HTTP connection, timing every request it makes."""

    def __init__(self, host: str, port: int, timings: dict, lock: threading.Lock) -> None:
        self.connection = http.client.HTTPConnection(host, port, timeout=30)
        self.timings = timings
        self.lock = lock

    def call(self, kind: str, method: str, path: str, token: str, body: object = None,
             headers: dict | None = None) -> tuple[int, bytes, http.client.HTTPResponse]:
        sent = {"Authorization": f"Bearer {token}", **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        started = time.perf_counter()
        try:
            self.connection.request(method, path, body=data, headers=sent)
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # The server closed an idle keep-alive connection before this request reached
            # it: send again on a new one, as a browser does.
            self.connection.close()
            started = time.perf_counter()
            self.connection.request(method, path, body=data, headers=sent)
            response = self.connection.getresponse()
        payload = response.read()
        elapsed = time.perf_counter() - started
        with self.lock:
            self.timings[kind].append(elapsed)
        return response.status, payload, response


def start_server(data: Path) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "pnp", "serve", "--port", "0", "--data", str(data), "--token", TOKEN],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    line = process.stdout.readline()
    found = re.search(r"listening on (http://\S+?)/ ", line)
    if not found:
        process.kill()
        raise SystemExit(f"pnp serve did not start: {line!r}")
    return process, found.group(1)


def people_of(url: str) -> dict[str, int]:
    """The club's person for each of the evening's players (none before their first finished session)."""
    parsed = urlparse(url)
    organiser = Phone(parsed.hostname, parsed.port, defaultdict(list), threading.Lock())
    status, payload, _ = organiser.call("people", "GET", "/api/history/players?page=1", TOKEN)
    organiser.connection.close()
    if status != 200:
        return {}
    return {row["name"]: row["person"] for row in json.loads(payload)["people"]}


def play_evening(url: str, tables: int, seed: int, timings: dict, lock: threading.Lock,
                 think: tuple[float, float], poll: float, history: bool = False) -> dict:
    """Every table's session played by its phones at once; returns what was sent and committed."""
    parsed = urlparse(url)
    people = people_of(url) if history else {}
    organiser = Phone(parsed.hostname, parsed.port, timings, lock)
    rng = random.Random(seed)
    sessions = []
    for _ in range(tables):
        raw = simulated_session(NAMES, list(play_game(NAMES, rng, 4)))
        status, payload, _ = organiser.call("start session (POST)", "POST", "/api/sessions", TOKEN,
                                            {"game": "hunting-fever", "players": NAMES})
        assert status == 201, payload
        created = json.loads(payload)
        sessions.append((created["id"], created["token"], raw))
    commits: dict[tuple[str, int], int] = defaultdict(int)
    accepted: list[tuple[str, int, str]] = []
    errors: list[str] = []
    finished = threading.Event()

    def phone(session_id: str, join: str, raw: dict, player: str) -> None:
        own = Phone(parsed.hostname, parsed.port, timings, lock)
        pause = random.Random(f"{session_id}{player}")
        try:
            time.sleep(pause.uniform(*think))  # the player scans the table's code and taps their name
            status, payload, _ = own.call("take seat (POST)", "POST", f"/api/sessions/{session_id}/seats", join,
                                          {"player": player})
            if status != 201:
                errors.append(f"{player} seat: {status} {payload[:200]!r}")
                return
            token = json.loads(payload)["token"]
            for number, day in enumerate(raw["days"], start=1):
                path = f"/api/sessions/{session_id}/rounds/{number}"
                status, payload, response = own.call("read the day (GET)", "GET", path, token)
                version = response.getheader("ETag")
                time.sleep(pause.uniform(*think))
                status, payload, _ = own.call("enter own part (PATCH)", "PATCH", path, token, {player: day[player]},
                                              headers={"If-Match": version})
                if status != 200:
                    errors.append(f"{player} day {number}: {status} {payload[:200]!r}")
                    return
                answer = json.loads(payload)
                with lock:
                    accepted.append((session_id, number, player))
                    commits[(session_id, number)] += answer["committed"]
                if player in people:
                    # Between two days the player looks at their own record, from their table.
                    status, payload, _ = own.call("club: own page (GET API)", "GET",
                                                  f"/api/sessions/{session_id}/players/{people[player]}", token)
                    if status != 200:
                        errors.append(f"{player} club page: {status} {payload[:200]!r}")
                while not answer["committed"]:
                    time.sleep(poll)
                    status, payload, _ = own.call("day status (GET)", "GET", path, token)
                    answer = json.loads(payload)
        finally:
            own.connection.close()

    def screen(session_id: str) -> None:
        # The table page's script on the organiser's laptop: the live scores every second, 304
        # while nothing changed.
        own = Phone(parsed.hostname, parsed.port, timings, lock)
        etag = None
        while not finished.is_set():
            headers = {"Cookie": f"pnp_organiser={TOKEN}"}
            if etag:
                headers["If-None-Match"] = etag
            status, payload, response = own.call("table screen (GET live)", "GET", f"/s/{session_id}/live",
                                                 TOKEN, headers=headers)
            if status == 200:
                etag = response.getheader("ETag")
            elif status != 304:
                errors.append(f"table screen: {status}")
            time.sleep(max(poll, 0.5))
        own.connection.close()

    def club_screen() -> None:
        # The organiser's laptop between tables: the history, a player's page, a game's page.
        own = Phone(parsed.hostname, parsed.port, timings, lock)
        pages = ["/history", "/history/games/hunting-fever"] + [f"/history/players/{p}" for p in people.values()]
        turn = 0
        while not finished.is_set():
            path = pages[turn % len(pages)]
            turn += 1
            status, payload, _ = own.call("club: organiser's pages (GET HTML)", "GET", path, TOKEN,
                                          headers={"Cookie": f"pnp_organiser={TOKEN}"})
            if status != 200:
                errors.append(f"club screen {path}: {status}")
            time.sleep(max(poll, 0.5) * 2)
        own.connection.close()

    phones = [threading.Thread(target=phone, args=(sid, token, raw, player))
              for sid, token, raw in sessions for player in NAMES]
    screens = [threading.Thread(target=screen, args=(sid,)) for sid, _, _ in sessions]
    if history:
        screens.append(threading.Thread(target=club_screen))
    for thread in screens + phones:
        thread.start()
    for thread in phones:
        thread.join()
    finished.set()
    for thread in screens:
        thread.join()
    final = {}
    for session_id, _, raw in sessions:
        status, payload, _ = organiser.call("whole session (GET)", "GET", f"/api/sessions/{session_id}", TOKEN)
        final[session_id] = (json.loads(payload), raw)
    organiser.connection.close()
    return {"commits": commits, "accepted": accepted, "errors": errors, "final": final}


def import_club(data: Path, count: int) -> float:
    """Seconds ``pnp score import`` takes to put ``count`` sessions of the evening's players into ``data``."""
    sys.path.insert(0, str(ROOT))
    from bench.sessions import write_sessions

    with tempfile.TemporaryDirectory() as folder:
        files = write_sessions(Path(folder), count)
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pnp", "score", "import", *map(str, files), "--data", str(data)],
                       cwd=ROOT, check=True, capture_output=True)
        return time.perf_counter() - started


def expected(raw: dict) -> dict:
    from scoring import check_session, score_session
    from scoring.report import result_json

    return result_json(score_session(check_session(raw).session))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evenings", type=int, default=3, help="evenings played one after another")
    parser.add_argument("--tables", type=int, default=4, help="tables of five phones each")
    parser.add_argument("--burst", action="store_true", help="no pause: every phone sends at the same instant")
    parser.add_argument("--club", type=int, default=0, help="sessions of history imported before the evening")
    parser.add_argument("--history", action="store_true", help="the club's pages read during the evening")
    options = parser.parse_args()
    think, poll = ((0.0, 0.0), 0.05) if options.burst else ((0.2, 2.0), 1.0)
    timings: dict[str, list[float]] = defaultdict(list)
    lock = threading.Lock()
    lost = duplicated = failed = 0
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as data:
        imported = import_club(Path(data), options.club) if options.club else 0.0
        process, url = start_server(Path(data))
        try:
            started = time.perf_counter()
            for evening in range(options.evenings):
                outcome = play_evening(url, options.tables, evening, timings, lock, think, poll, options.history)
                failed += len(outcome["errors"])
                for line in outcome["errors"]:
                    print("error:", line)
                duplicated += sum(count - 1 for count in outcome["commits"].values() if count > 1)
                for session_id, (state, raw) in outcome["final"].items():
                    days = len(state["rounds"])
                    duplicated += max(0, days - len(raw["days"]))
                    if state != expected(raw):
                        lost += 1
                parts_answered = len(outcome["accepted"])
                lost += options.tables * 5 * 4 - parts_answered
            elapsed = time.perf_counter() - started
        finally:
            process.terminate()
            process.wait(timeout=10)
    requests = sum(len(v) for v in timings.values())
    print(f"pnp serve load test: {options.evenings} evening(s) x {options.tables} tables x 5 phones "
          f"(Hunting Fever, 4 days), loopback, {'burst' if options.burst else 'players pausing 0.2-2 s'}")
    if options.club:
        print(f"{options.club} sessions of history imported first ({imported:.1f} s)"
              f"{', the club pages read during the evening' if options.history else ''}")
    # Other work on the machine shows in every figure: say how busy it was.
    print(f"{os.cpu_count()} cores, load average before/after: {load[0]:.2f} / {os.getloadavg()[0]:.2f}")
    print(f"{requests} requests in {elapsed:.1f} s: {requests / elapsed:.0f} requests/s")
    print(f"{'request':<36} {'count':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    everything = []
    for kind in sorted(timings):
        values = sorted(timings[kind])
        everything += values
        print(f"{kind:<36} {len(values):>6} {1000 * statistics.median(values):>8.1f} "
              f"{1000 * values[int(0.95 * (len(values) - 1))]:>8.1f} {1000 * values[-1]:>8.1f}")
    everything.sort()
    print(f"{'all':<36} {len(everything):>6} {1000 * statistics.median(everything):>8.1f} "
          f"{1000 * everything[int(0.95 * (len(everything) - 1))]:>8.1f} {1000 * everything[-1]:>8.1f}")
    print(f"lost entries: {lost}, duplicated entries: {duplicated}, refused requests: {failed}")
    if lost or duplicated or failed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
