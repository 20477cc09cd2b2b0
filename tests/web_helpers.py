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

    from conftest import score_host_app

    result = CliRunner().invoke(score_host_app(), ["score", "check", str(path), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)
