"""Run one command and print its wall time (s) and peak resident memory (KiB) as JSON.

Usage: python bench/peak.py -- COMMAND ARGS...
The command runs as this script's only child, so the children's peak is its own.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time


def main() -> int:
    args = sys.argv[sys.argv.index("--") + 1:]
    started = time.perf_counter()
    done = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.stderr.write(done.stderr.decode(errors="replace"))
        return done.returncode
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(json.dumps({"seconds": seconds, "peak_kib": peak_kib}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
