"""Profile one pnp command in this process: where its time goes, imports included.

Usage: python bench/profile_command.py [--sort cumtime|tottime] [--top 30] -- render --template bench/deck.toml
The command's own output goes to a temporary folder unless it names --out.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sort", default="cumtime", choices=["cumtime", "tottime", "ncalls"])
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the pnp command, after --")
    args = parser.parse_args()
    command = [part for part in args.command if part != "--"] or ["render", "--template", "bench/deck.toml"]
    with tempfile.TemporaryDirectory(prefix="pnp-profile-") as out:
        if command[0] in ("render", "build") and "--out" not in command:
            command += ["--out", out]
        sys.argv = ["pnp", *command]
        profile = cProfile.Profile()
        profile.enable()
        try:
            from pnp.__main__ import main as run_pnp

            run_pnp()
        except SystemExit as done:
            if done.code not in (0, None):
                return int(done.code) if isinstance(done.code, int) else 1
        finally:
            profile.disable()
    pstats.Stats(profile, stream=sys.stderr).sort_stats(args.sort).print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
