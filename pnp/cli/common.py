"""What the commands share, without typer: their options, declared once, and how they speak.

A command line is read by typer (:mod:`pnp.cli`), or, when it is a plain one, by the quick
reader (:mod:`pnp.cli.quick`), which spares a short render the time of loading typer and
click. Both read the options declared here: typer turns each :class:`Option` into its own,
the quick reader reads the names, the default and the parameter's type.

Any PnpError becomes one line ``Error: ...`` on stderr and exit code 1. What the commands
themselves print comes from the common catalog (``cli.*``).
"""

import contextlib
import errno
import functools
import gc
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional

from pnp.core.errors import ERROR_PREFIX, PnpError, one_line
from pnp.core.i18n import common_catalog
from pnp.core.records import NamedTuple

if TYPE_CHECKING:
    from pnp.template.model import PrintOptions


class Option(NamedTuple):
    """An option of a command: its default, its names as typer writes them (``--lang``, or
    ``--duplex/--no-duplex`` for a switch) and its help."""

    default: object
    names: tuple[str, ...]
    help: str
    metavar: Optional[str] = None


class Argument(NamedTuple):
    """A command's argument, given by its place."""

    default: object
    help: str


def option(default: object, *names: str, help: str, metavar: Optional[str] = None) -> Option:
    return Option(default, names, help, metavar)


LANG = option("en", "--lang", help="Language of the printed texts: en or fr.")
PAPER = option("a4", "--paper", help="Paper size: a4 or letter.")
BLEED = option(3.0, "--bleed", help="Bleed printed beyond each trim, in mm.")
CROP = option(True, "--crop-marks/--no-crop-marks", help="Print cut marks outside the pieces.")
DUPLEX = option(True, "--duplex/--no-duplex",
                help="Print back pages (mirrored for long-edge flipping); --no-duplex leaves "
                     "out backs that carry no game information.")
FOLD = option(False, "--fold", help="For printers without duplex: each back beside its front, "
                                    "mirrored, to fold over before cutting.")
OFFSET = option("0,0", "--back-offset", metavar="X,Y",
                help="Shift back pages by X,Y mm to correct a printer's front/back drift.")
INK = option(False, "--ink-saver", help="White backgrounds, black lines and text.")
QR = option(None, "--qr-url", help="Web address the QR codes point to.")
OUT = option(Path("output"), "--out", help="Output folder.")
CUTTER = option(None, "--cutter", help="Print-and-cut for a cutting machine (silhouette): its "
                                       "registration marks on every front and an SVG cut file beside it.")
INSET = option(None, "--mark-inset", metavar="MM",
               help="With --cutter: the registration marks' distance from the paper's edges "
                    "(Silhouette Studio's default, 10).")
COMPONENT = option([], "--component", help="Only this component (repeatable).")
LENGTH = option(None, "--mark-length", metavar="MM",
                help="With --cutter: the length of the registration marks' corners, as Silhouette "
                     "Studio is set (its default, 20).")
SET = option([], "--set", metavar="NAME=NUMBER", help="Change a template setting, e.g. --set space_size=40.")
GAME = Argument(None, help="Game id (see `pnp games`).")


def echo(message: str, *, err: bool = False) -> None:
    """One line to stdout (or stderr), at once, as typer's echo writes it."""
    print(message, file=sys.stderr if err else sys.stdout, flush=True)


def say(key: str, count: int | None = None, /, **values: object) -> str:
    """A sentence of the commands (``cli.<key>``), in English; with ``count``, its plural form."""
    if count is not None:
        return common_catalog("en").plural(f"cli.{key}", count, **values)
    return common_catalog("en").get(f"cli.{key}", **values)


def fail(message: str) -> None:
    echo(f"{ERROR_PREFIX}{one_line(message)}", err=True)
    raise SystemExit(1)


def reports_errors(command: Callable) -> Callable:
    """Turn library errors into one clear line and exit code 1."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except PnpError as exc:
            problems = getattr(exc, "problems", None) or [str(exc)]
            # Every problem of a template at once, one line each: a designer fixes them all
            # in one go, not one per run.
            for problem in problems[:-1]:
                echo(f"{ERROR_PREFIX}{one_line(problem)}", err=True)
            fail(problems[-1])

    return wrapper


#: Set by pnp/__main__.py once it has frozen what the commands load (see :func:`loading`).
freezing = False


def freeze_what_loads() -> None:
    """What :func:`loading` loads from now on is frozen too (the command runs as ``pnp``)."""
    global freezing
    freezing = True


@contextlib.contextmanager
def loading():
    """Load the library a command runs with the cycle collector paused, as pnp/__main__.py loads
    the commands; when it froze what they made (the command runs as ``pnp``), what this load made
    is frozen too: modules live as long as the process, and the collector would otherwise walk
    their objects again while the command works (1% of a small render). In-process (the tests),
    nothing is frozen. (pnp/__main__.py says so, :func:`freeze_what_loads`: asking the collector,
    ``gc.get_freeze_count()``, counts every frozen object one by one, 1.5 ms each time.)"""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freezing:
            gc.freeze()
        if enabled:
            gc.enable()


def settings_given(values: list[str]) -> dict[str, float]:
    """``--set NAME=NUMBER`` as a dict of numbers."""
    params = {}
    for item in values:
        name, sep, raw = item.partition("=")
        try:
            if not sep:
                raise ValueError
            params[name.strip()] = float(raw)
        except ValueError:
            raise PnpError(say("set_syntax", found=repr(item))) from None
    return params


def print_options(*, lang: str, paper: str, bleed: float, crop_marks: bool, duplex: bool,
                  back_offset: str, ink_saver: bool, qr_url: Optional[str], fold: bool = False,
                  cutter: Optional[str] = None, mark_inset: Optional[float] = None,
                  mark_length: Optional[float] = None) -> "PrintOptions":
    from pnp.template.model import PrintOptions
    from pnp.layout.options import checked, parse_offset

    for name, value in (("--mark-inset", mark_inset), ("--mark-length", mark_length)):
        if value is not None and cutter is None:
            raise PnpError(f"{name} places a cutting machine's registration marks: give --cutter too")
    inset = PrintOptions._field_defaults["mark_inset"] if mark_inset is None else mark_inset
    length = PrintOptions._field_defaults["mark_length"] if mark_length is None else mark_length
    return checked(PrintOptions(lang=lang, paper=paper, bleed=bleed, crop_marks=crop_marks,
                                duplex=duplex, fold=fold, back_offset=parse_offset(back_offset),
                                ink_saver=ink_saver, qr_url=qr_url, cutter=cutter, mark_inset=inset,
                                mark_length=length))


def check_out(out: Path) -> Path:
    """The output folder, checked before any work: a folder, or a name for one, where files
    can be made. It is created only when the first file is written into it, so a
    command that fails leaves no empty folder behind."""
    from pnp.core.files import WriteError, check_writable, name_limits, shown_path

    problem = name_limits(out)
    if problem:
        raise PnpError(say("out_uncreatable", path=shown_path(out), reason=problem))
    if out.exists() and not out.is_dir():
        raise PnpError(say("out_is_file", path=out))
    existing = out
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise PnpError(say("out_uncreatable", path=out, reason=f"{existing} is a file"))
    try:
        check_writable(existing)
    except WriteError:
        raise PnpError(say("out_unwritable", path=existing)) from None
    return out


def check_template(template: Path) -> None:
    """A template path that names something (what it names is checked as it is read)."""
    from pnp.core.files import name_limits, shown_path

    problem = name_limits(template)
    if problem:
        raise PnpError(f"{shown_path(template)}: {problem}")
    if not os.path.lexists(template):
        raise PnpError(say("no_template", path=template))


def chosen_components(kit, names: list[str]) -> list[str] | None:
    """The components asked for, each once and known to the kit; None for all of them."""
    chosen = list(dict.fromkeys(names))  # asked twice is asked once
    for name in chosen:
        kit.component(name)
    return chosen or None


def language_asked(args: list[str]) -> str:
    """The ``--lang`` of the command line if it is a known one, else English."""
    from pnp.core.i18n import LANGUAGES

    for i, arg in enumerate(args):
        value = args[i + 1] if arg == "--lang" and i + 1 < len(args) else arg.partition("--lang=")[2]
        if value in LANGUAGES:
            return value
    return "en"


#: Set by ``pnp --debug``: an unexpected error shows its traceback.
_debug = False


def show_tracebacks(debug: bool) -> None:
    global _debug
    _debug = debug


def run_reported(call: Callable[[], object], args: list[str], command: Callable[[], str]) -> object:
    """``call()``, where Ctrl-C (SIGTERM, SIGHUP) and anything unexpected (a bug) end as one
    ``Error:`` line naming the command (``command()``, e.g. ``pnp render``) and a non-zero exit."""
    try:
        return call()
    except KeyboardInterrupt as stopped:
        interrupted(args, stopped)
    except Exception as exc:  # the last resort: a bug must not end as a traceback
        from pnp.core import signals
        if signals.stopped is not None:
            # A library turned the interruption into an error of its own: it is still the interruption.
            interrupted(args, signals.stopped)
        if isinstance(exc, OSError) and exc.errno in (errno.ENAMETOOLONG, errno.ELOOP):
            # A name or path past the system's limits, wherever it was met: the limit, by name.
            from pnp.core.files import os_reason, shown_path

            echo(f"{ERROR_PREFIX}{one_line(shown_path(exc.filename or ''))}: "
                 f"{os_reason(exc, exc.filename)}", err=True)
            sys.exit(1)
        if _debug:
            import traceback

            traceback.print_exc()
        echo(f"{ERROR_PREFIX}{unexpected(exc, args, command())}", err=True)
        sys.exit(1)


def unexpected(error: BaseException, args: list[str], command: str) -> str:
    """The line that replaces a traceback: the command, what went wrong, and a request to report it."""
    lang = language_asked(args)
    what = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    if len(what) > 300:
        what = what[:299] + "…"
    return common_catalog(lang).get("cli.unexpected", command=command[4:], error=one_line(what))


def interrupted_line(stopped: BaseException | None, args: list[str]) -> str:
    """The one line of a command stopped by Ctrl-C, SIGTERM or SIGHUP."""
    from pnp.core.signals import catalog_key

    return f"{ERROR_PREFIX}{common_catalog(language_asked(args)).get(f'cli.{catalog_key(stopped)}')}"


def interrupted(args: list[str], stopped: BaseException | None = None) -> None:
    from pnp.core.signals import exit_code

    echo(interrupted_line(stopped, args), err=True)
    sys.exit(exit_code(stopped) if stopped is not None else 130)
