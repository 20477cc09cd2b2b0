"""The same input gives the same bytes: two builds in fresh processes are identical.

The processes get different hash seeds, so nothing may depend on set or dict
ordering of strings, on object addresses or on the clock.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def _build(out: Path, seed: str) -> dict[str, bytes]:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    done = subprocess.run([sys.executable, "-m", "pnp", "build", "--out", str(out)],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    return {path.name: path.read_bytes() for path in sorted(out.iterdir())}


def test_two_builds_are_byte_identical(tmp_path):
    first = _build(tmp_path / "first", "1")
    second = _build(tmp_path / "second", "2")
    assert sorted(first) == sorted(second)
    assert len([name for name in first if name.endswith(".pdf")]) >= 16
    different = [name for name in first if first[name] != second[name]]
    assert different == []
