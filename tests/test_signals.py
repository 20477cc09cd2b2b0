"""SIGTERM and SIGHUP stop every command as Ctrl-C does: one line, exit 143 / 129, no
temporary file, no worker left, the files already written whole.

Real processes, sent the signal at a known point: once the first picture of an
export is on disk (its workers are then busy), once the first kit of a build is
written, once the server has opened its database, at a prompt.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pnp.layout.print_order import print_order_problems

LIMIT = 60


def start(folder: Path, *args: str, **kwargs) -> subprocess.Popen:
    # The signals as a terminal or a service manager sends them (a test run in the
    # background may have some ignored).
    def defaults() -> None:
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, signal.SIG_DFL)

    return subprocess.Popen([sys.executable, "-m", "pnp", *args], cwd=folder, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=defaults, **kwargs)


def wait_for(child: subprocess.Popen, ready) -> None:
    deadline = time.monotonic() + LIMIT
    while not ready():
        assert child.poll() is None, child.communicate()
        assert time.monotonic() < deadline, "never got there"
        time.sleep(0.02)


def read_until(child: subprocess.Popen, word: str) -> str:
    seen = b""
    deadline = time.monotonic() + LIMIT
    while word.encode() not in seen and time.monotonic() < deadline and child.poll() is None:
        if select.select([child.stdout], [], [], 0.1)[0]:
            seen += os.read(child.stdout.fileno(), 4096)
    assert word.encode() in seen, seen
    return seen.decode()


def children(pid: int) -> list[int]:
    # Each thread's children: a pool may start its workers from a thread of its own.
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "zombie" not in status.lower()


def ended(child: subprocess.Popen, code: int) -> str:
    out, err = child.communicate(timeout=LIMIT)
    lines = [line for line in err.splitlines() if line.strip() and not line.startswith(("Rendering", "Drawing"))]
    assert child.returncode == code, err
    assert len(lines) == 1 and lines[0].startswith("Error: "), err
    assert "Traceback" not in err
    return lines[0]


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads a process's children from /proc")
@pytest.mark.parametrize("signum, code, said", [(signal.SIGTERM, 143, "SIGTERM"), (signal.SIGHUP, 129, "SIGHUP")])
def test_export_stopped_mid_way_stops_its_workers_and_leaves_nothing(tmp_path, signum, code, said):
    from bench.unique_deck import write_template

    deck = write_template(tmp_path / "deck", 300)   # 300 different cards: drawn by worker processes
    (tmp_path / "out").mkdir()
    child = start(tmp_path, "export", "--template", str(deck), "--out", "out")
    # The first picture is written into the export's new folder while the workers draw the rest.
    wait_for(child, lambda: any(p.suffix == ".png" for p in (tmp_path / "out").rglob("*")))
    workers = children(child.pid)
    assert workers, "the export draws in worker processes"
    child.send_signal(signum)
    assert said in ended(child, code)
    deadline = time.monotonic() + 5
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(w) for w in workers), "a worker outlived the export"
    assert list((tmp_path / "out").iterdir()) == []       # neither the new folder nor a file of it


def test_build_stopped_after_its_first_kit_leaves_whole_kits_and_no_temporary_file(tmp_path):
    out = tmp_path / "out"
    child = start(tmp_path, "build", "--out", "out")
    wait_for(child, lambda: any(p.suffix == ".json" for p in out.glob("*")) if out.is_dir() else False)
    child.send_signal(signal.SIGTERM)
    assert "SIGTERM" in ended(child, 143)
    assert not [p.name for p in out.iterdir() if p.name.startswith(".")]
    manifests = list(out.glob("*.manifest.json"))
    assert manifests and len(list(out.glob("*.pdf"))) == len(manifests)
    for manifest in manifests:   # every kit written is whole, its PDF and manifest a pair
        data = json.loads(manifest.read_text())
        done = subprocess.run([sys.executable, "-m", "pnp", "check-manifest", str(manifest)],
                              capture_output=True, text=True, timeout=LIMIT)
        assert done.returncode == 0, done.stderr
        assert print_order_problems(data) == []


def test_a_score_prompt_stopped_by_sigterm_saves_nothing(tmp_path):
    session = tmp_path / "s.toml"
    text = 'game = "halali"\nplayers = ["Ann", "Bob"]\n'
    session.write_text(text)
    child = start(tmp_path, "score", "add", "s.toml", stdin=subprocess.PIPE)
    read_until(child, "?")
    child.send_signal(signal.SIGTERM)
    assert "SIGTERM" in ended(child, 143)
    assert session.read_text() == text and sorted(os.listdir(tmp_path)) == ["s.toml"]


@pytest.mark.parametrize("signum, code", [(signal.SIGHUP, 129), (signal.SIGTERM, 143)])
def test_serve_stops_on_sighup_and_sigterm_as_on_ctrl_c(tmp_path, signum, code):
    child = start(tmp_path, "serve", "--port", "0", "--data", "data")
    read_until(child, "http://")   # printed once it listens
    child.send_signal(signum)
    ended(child, code)
    assert not (tmp_path / "data" / "pnp.sqlite3-wal").exists()   # the database closed cleanly


def test_a_second_signal_while_cleaning_up_is_ignored():
    # Once stopping, the same request again must not cut the cleanup short.
    script = ("import os, signal\n"
              "from pnp.core.signals import Terminated, stop_like_ctrl_c\n"
              "stop_like_ctrl_c()\n"
              "try:\n"
              "    os.kill(os.getpid(), signal.SIGTERM)\n"
              "    for _ in range(10**6): pass\n"
              "except Terminated as stopped:\n"
              "    os.kill(os.getpid(), signal.SIGTERM)\n"
              "    os.kill(os.getpid(), signal.SIGHUP)\n"
              "    for _ in range(10**6): pass\n"
              "    print('cleaned up', stopped.exit_code)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=LIMIT)
    assert done.stdout.strip() == "cleaned up 143", done.stderr
