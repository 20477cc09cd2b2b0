"""Shared by the web tests: an app on a fresh data folder, sessions of every game, a real server process."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
from pathlib import Path

import hunting_fever_sim as sim

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.sessions import beavers_session, halali_session  # noqa: E402

ORGANISER = "organiser-secret-token"
NAMES = ["Alice", "Bob", "Chloé", "Dévi", "Émile"]


def organiser_headers(token: str = ORGANISER) -> dict:
    return {"Authorization": f"Bearer {token}"}


def hunting_fever(seed: int, names: list[str] = NAMES[:3]) -> dict:
    """A whole Hunting Fever session played by the rules simulator."""
    return sim.session(list(names), list(sim.play_game(list(names), random.Random(seed), 4)))


def halali(seed: int) -> dict:
    return halali_session(random.Random(seed))


def beavers(seed: int) -> dict:
    return beavers_session(random.Random(seed))


def rounds_of(raw: dict) -> tuple[str | None, list]:
    """Where a session file keeps its days or rounds, and them (None: a single outcome)."""
    for key in ("days", "rounds"):
        if key in raw:
            return key, raw[key]
    return None, [{k: raw[k] for k in ("difficulty", "result", "knockouts_left") if k in raw}]


class ServerProcess:
    """``python -m pnp serve`` in a child process on a free port, as a user starts it."""

    def __init__(self, data: Path, token: str = ORGANISER, *extra: str) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pnp", "serve", "--port", "0", "--data", str(data), "--token", token, *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
        line = self.process.stdout.readline()
        found = re.search(r"listening on (http://\S+?)/ ", line)
        if not found:
            self.process.kill()
            raise RuntimeError(f"pnp serve did not start: {line!r} {self.process.stderr.read()!r}")
        self.url = found.group(1)

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as when the laptop's battery dies."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        self.process.stdout.close()
        self.process.stderr.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process.stdout.close()
        self.process.stderr.close()


def check_json(path: Path) -> dict:
    """What ``pnp score check FILE --json`` prints, run in-process."""
    from typer.testing import CliRunner

    from helpers import score_host_app

    result = CliRunner().invoke(score_host_app(), ["score", "check", str(path), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def versioned(client, method: str, url: str, **options):
    """A write to a day or round as a script makes it: the round read first, its ETag sent back in If-Match.

    Every PUT and PATCH needs its version (428 without); a test that is not about versions
    writes through this.
    """
    headers = dict(options.pop("headers", None) or {})
    if "If-Match" not in headers:
        seen = client.get(url, headers=headers, params=options.get("params"))
        if "etag" in seen.headers:
            headers["If-Match"] = seen.headers["etag"]
    return client.request(method, url, headers=headers, **options)


def take_seat(client, session_id: str, player: str, **options):
    """A phone that joined the table takes ``player``'s seat, as the seat page does: open it, confirm."""
    import re

    page = client.get(f"/s/{session_id}/seat", params={"player": player, **options})
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page.text).group(1)
    return client.post(f"/s/{session_id}/seat", data={"csrf": csrf, "player": player}, params=options)


def start_session(client, game: str, players: list[str], **extra) -> tuple[str, dict]:
    """A session the organiser's script started through the API, and the headers of its join link's token."""
    response = client.post("/api/sessions", json={"game": game, "players": players, **extra},
                           headers=organiser_headers())
    assert response.status_code == 201, response.text
    return response.json()["id"], {"Authorization": f"Bearer {response.json()['token']}"}


def seat_headers(client, session_id: str, join: dict, player: str) -> dict:
    """A script takes ``player``'s seat with the join link's token: the headers of the seat's own token."""
    taken = client.post(f"/api/sessions/{session_id}/seats", json={"player": player}, headers=join)
    assert taken.status_code == 201, taken.text
    return {"Authorization": f"Bearer {taken.json()['token']}"}
