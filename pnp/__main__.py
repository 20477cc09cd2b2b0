"""The ``pnp`` command's entry point (also ``python -m pnp``).

A command runs once and exits, so the garbage collector has little to do and
costs time: it would walk the tens of thousands of objects that importing
typer, click and reportlab creates, several times while they load and once
more at exit. It is paused while they load; what they made is then frozen
(kept out of every later collection) and collection resumes for the work, so
a long ``pnp build`` still frees what it no longer uses. Loading is most of a
short command's time, so every command gains from this.

A plain ``pnp render`` that has written its kit ends the process at once (:func:`run`):
its files are written and on disk, and Python's own ending would only take every module
and object apart, one by one.
"""

import gc
import os
import sys

from pnp.core.deferred import defer
from pnp.core.signals import stop_like_ctrl_c


def run() -> None:
    """The ``pnp`` command itself: its console script, and ``python -m pnp``."""
    main(end_at_once=True)


def main(*, end_at_once: bool = False) -> None:
    """Run the command ``sys.argv`` names. ``end_at_once``: a plain render (pnp.cli.quick) that
    succeeded ends the process (:func:`_end_at_once`) rather than returning."""
    stop_like_ctrl_c()  # SIGTERM and SIGHUP, from the very start, as Ctrl-C
    defer("PIL.Image")  # reportlab imports it; only a kit with pictures uses it (pnp.core.deferred)
    gc.disable()
    try:
        from pnp.cli.quick import plain_call

        call = plain_call(sys.argv[1:])
        if call is None:
            from pnp.cli.commands import main as run_command
    except KeyboardInterrupt as stopped:
        _interrupted_while_starting(stopped)
    finally:
        gc.freeze()
        gc.enable()
    from pnp.cli.common import freeze_what_loads

    freeze_what_loads()
    try:
        if call is None:
            run_command()
        else:
            _run_plain(call, end_at_once)
    finally:
        gc.freeze()  # nothing left to collect: exit without walking every object


def _run_plain(call, end_at_once: bool) -> None:
    """A plain command line (pnp.cli.quick), run without typer: the same command, the same
    lines and exit codes when it fails."""
    from pnp.cli.common import run_reported

    run_reported(lambda: call.function(**call.values), sys.argv[1:], lambda: f"pnp {call.name}")
    if end_at_once:
        _end_at_once()
    sys.exit(0)


def _end_at_once() -> None:
    """End a command that succeeded now, with exit code 0. Its files are written, synced and
    closed, and what it said is flushed here; Python's own ending would take every module and
    object apart, one by one (3% of a small render), and run the exit hooks reportlab and
    Pillow leave, which clear their caches. Output that cannot be flushed (a closed pipe) is
    left to Python's own ending, which says so as it always has."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(0)


def _interrupted_while_starting(stopped: KeyboardInterrupt) -> None:
    """Ctrl-C (or SIGTERM, SIGHUP) before the command could even load: the same line
    and exit code as later."""
    from pnp.core.signals import catalog_key, exit_code

    try:
        from pnp.core.errors import ERROR_PREFIX
        from pnp.core.i18n import common_catalog

        line = ERROR_PREFIX + common_catalog("en").get(f"cli.{catalog_key(stopped)}")
    except BaseException:  # the catalog itself may be what was interrupted
        line = f"Error: interrupted ({stopped or 'Ctrl-C'})."
    print(line, file=sys.stderr)
    sys.exit(exit_code(stopped))


if __name__ == "__main__":
    run()
