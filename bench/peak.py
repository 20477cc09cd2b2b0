"""Run one command and print its wall time (s), CPU time (s) and peak resident memory (KiB) as JSON.

Usage: python bench/peak.py -- COMMAND ARGS...
The command runs as this script's only child, so the children's peak and CPU
time (user + system) are its own. On a shared machine the CPU time moves
less than the wall time: waiting for a core is not counted.
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
    child = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(json.dumps({"seconds": seconds, "cpu_seconds": child.ru_utime + child.ru_stime,
                      "peak_kib": child.ru_maxrss}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
