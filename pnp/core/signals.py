"""SIGTERM and SIGHUP stop a command the way Ctrl-C does.

A service manager, ``kill`` or ``timeout`` sends SIGTERM; closing the terminal
sends SIGHUP. Left to their default, either ends the process on the spot: the
temporary file being written stays behind, and an export's worker processes
live on, holding its output pipes. :func:`stop_like_ctrl_c` turns each into
:class:`Terminated`, a ``KeyboardInterrupt``, so every ``finally`` and context
manager that cleans up after Ctrl-C (temporary files, the export's workers, the
server, the database) does the same for them; the command then says in one
line what stopped it and exits with 128 + the signal's number (143, 129), as a
shell reports a process ended by that signal.

:func:`held` keeps these signals (and Ctrl-C) waiting for the few steps that
must not be cut in two, such as creating a temporary file and noting its name
so that it can be removed, or renaming a PDF and its manifest into place.

Standard library only: :mod:`pnp.core.files` uses it, and the scoring package uses that.
"""

from __future__ import annotations

import contextlib
import signal
import sys
from typing import Iterator

from pnp.core.records import NamedTuple

#: The signals that stop a command like Ctrl-C; SIGHUP does not exist on Windows.
STOPPING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
_HELD = (signal.SIGINT, *STOPPING)


class Terminated(KeyboardInterrupt):
    """The command was asked to stop by ``signum`` (SIGTERM or SIGHUP)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


#: The interruption raised (a KeyboardInterrupt, or Terminated), once one has been:
#: typer turns every KeyboardInterrupt into exit code 130 before the command's caller
#: sees it, and a library's bare ``except:`` may turn one into an error of its own
#: (reportlab's "forward reference ... not resolved"), so the caller looks here.
stopped: KeyboardInterrupt | None = None


def _stop(signum: int, frame) -> None:
    global stopped
    # Once: the cleanup that follows must not be cut short by the same request again.
    for other in STOPPING:
        signal.signal(other, signal.SIG_IGN)
    stopped = Terminated(signum)
    raise stopped


def _interrupt(signum: int, frame) -> None:
    global stopped
    stopped = KeyboardInterrupt()
    raise stopped


def stop_like_ctrl_c() -> None:
    """From now on SIGTERM and SIGHUP raise :class:`Terminated` in the main thread.

    A signal the process was started ignoring (``nohup`` ignores SIGHUP) stays ignored.
    """
    for signum in STOPPING:
        if signal.getsignal(signum) != signal.SIG_IGN:
            signal.signal(signum, _stop)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _interrupt)   # Ctrl-C as Python's own, and remembered


def catalog_key(error: BaseException | None) -> str:
    """The sentence (``cli.KEY``) that says what stopped the command."""
    if isinstance(error, Terminated):
        return {"SIGTERM": "terminated", "SIGHUP": "hung_up"}.get(str(error), "interrupted")
    return "interrupted"


def exit_code(error: BaseException) -> int:
    """130 for Ctrl-C, 128 + the signal's number for :class:`Terminated`."""
    return error.exit_code if isinstance(error, Terminated) else 130


def reset_in_worker(parent: int) -> None:
    """In a worker process of ``parent`` (its process id): die quietly of SIGTERM and
    SIGHUP (the parent stops its workers with SIGTERM), leave Ctrl-C to the parent,
    and never outlive the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for signum in STOPPING:
        signal.signal(signum, signal.SIG_DFL)
    _die_with_parent(parent)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_SETMASK, set())


#: prctl(2)'s request for a signal when the parent dies.
_PR_SET_PDEATHSIG = 1


class _Prctl(NamedTuple):
    """prctl(2)'s five arguments, by the names its manual gives them (a C call takes them in order)."""

    option: int
    arg2: int = 0
    arg3: int = 0
    arg4: int = 0
    arg5: int = 0


def _die_with_parent(parent: int) -> None:
    """Linux: ask the kernel to send SIGKILL when the parent dies, even of SIGKILL
    (elsewhere the parent's own cleanup stops its workers)."""
    import os
    import sys

    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(*_Prctl(option=_PR_SET_PDEATHSIG, arg2=int(signal.SIGKILL)))
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the request was made
        os._exit(1)


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Hold Ctrl-C, SIGTERM and SIGHUP until the block is done; one that came meanwhile
    is acted on as soon as it ends. Only the main thread may hold them (with no threading
    module loaded, no other thread was started: a command writing its files need not load it)."""
    threading = sys.modules.get("threading")
    if not hasattr(signal, "pthread_sigmask") or (
            threading is not None and threading.current_thread() is not threading.main_thread()):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
