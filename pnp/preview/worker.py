"""One render of a watched kit, in a process of its own.

Each render runs in a fresh child process (forked from a server process that
has the drawing libraries loaded, where the system has one), so nothing read
by an earlier render is remembered by a later one: an icon, a catalog or a
picture edited on disk is read again, whatever cache the engine keeps of it.
A render that never ends or blows up is stopped without taking the preview
down with it. The next child is started as soon as a render is done, while
the designer edits, and waits with the fonts loaded for the next save.
"""

from __future__ import annotations

import multiprocessing
import time
from typing import Any, Mapping

from pnp.core.errors import ERROR_PREFIX, PnpError, one_line
from pnp.core.files import recording
from pnp.core.records import NamedTuple
from pnp.template.model import PrintOptions

#: Longer than any render of a kit within its work budget (pnp.core.limits) takes.
RENDER_TIMEOUT = 120.0


class Job(NamedTuple):
    """What to render: a definition file (or a shipped game's id) with the print options."""

    kit: str
    options: PrintOptions
    components: tuple[str, ...] = ()
    overrides: Mapping[str, float] = {}


class PageInfo(NamedTuple):
    number: int
    kind: str
    components: tuple[str, ...]


class Outcome(NamedTuple):
    """What a render made: the PDF and its pages, or the lines of its errors; and what it read."""

    pdf: bytes | None
    pages: tuple[PageInfo, ...]
    page_mm: tuple[float, float]
    errors: tuple[str, ...]                               # each an ``Error: ...`` line
    read: tuple[tuple[str, Any], ...]                     # (file, signature) as pnp.core.files records them
    folders: tuple[str, ...]                              # where the kit looks for icons
    title: str
    seconds: float                                        # loading, drawing and looking, in the child
    #: What ``pnp preflight`` says of the pages: its lines, and how many errors, warnings and notes.
    findings: tuple[str, ...] = ()
    counts: tuple[int, int, int] = (0, 0, 0)


def render(job: Job) -> Outcome:
    """Load the kit, draw it in memory and look at it as ``pnp preflight`` does, recording every
    file read; a kit that cannot be loaded or rendered gives its errors, as lines."""
    from pnp.core.units import paper_size
    from pnp.preflight.run import preflight
    from pnp.render.fonts import MEASURER
    from pnp.template.loader import load_kit

    started = time.perf_counter()
    errors: list[str] = []
    pdf, pages, folders, title, findings, counts = None, (), (), job.kit, (), (0, 0, 0)
    with recording() as read:
        try:
            game = load_kit(job.kit, dict(job.overrides))
            folders, title = game.icon_dirs, game.catalogs[job.options.lang].get("game.name")
            for component in job.components:
                game.component(component)
            # One pass draws the PDF pnp render would write and looks at every face of it.
            report = preflight(game, job.options, list(job.components) or None, measure=MEASURER)
            errors = [_line(problem) for problem in report.problems]
            if report.pdf is not None:
                pdf = report.pdf
                pages = tuple(PageInfo(p["number"], p["kind"], tuple(p.get("components") or ()))
                              for p in report.manifest["pages"])
                findings = tuple(finding.line() for finding in report.findings)
                counts = tuple(report.count(severity) for severity in ("error", "warning", "note"))
        except PnpError as exc:
            errors = [_line(problem) for problem in getattr(exc, "problems", None) or [str(exc)]]
        except Exception as exc:  # a bug in pnp: said on the page, the preview goes on
            errors = [f"{ERROR_PREFIX}unexpected error ({one_line(f'{type(exc).__name__}: {exc}')[:300]}); "
                      "this is a bug in pnp: please report it, with the template"]
    return Outcome(pdf, pages, paper_size(job.options.paper), tuple(errors), read=tuple(read),  # type: ignore[arg-type]
                   folders=tuple(folders), title=title, seconds=time.perf_counter() - started, findings=findings,
                   counts=counts)


def _line(problem: str) -> str:
    return f"{ERROR_PREFIX}{one_line(problem)}"


def _warm() -> None:
    """What every render needs, loaded while the child waits for its job: the fonts."""
    from pnp.render.fonts import FAMILY, font, text_width

    for style in FAMILY:
        text_width("Aa", style, 10.0)
        font(style)


def _serve_one(connection) -> None:
    """A child's life: warm up, wait for one job, send its outcome back, end."""
    _warm()
    try:
        job = connection.recv()
    except (EOFError, OSError):
        return   # the preview stopped before a job came
    connection.send(render(job))
    connection.close()


def _context():
    """Fork children from a server process that has imported pnp's drawing code, where the
    system can; elsewhere (Windows) each child starts afresh, while the designer edits."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        # Every module a render loads, QR codes' library included (a cold import is half a render).
        context.set_forkserver_preload(["pnp.kit.build", "pnp.template.loader", "pnp.template.icons",
                                        "pnp.template.data_files", "pnp.render.fonts", "pnp.preflight.run",
                                        "pnp.layout.calibration", "qrcode.main", "PIL.ImageDraw", "heapq",
                                        "encodings.utf_8_sig"])
        return context
    return multiprocessing.get_context("spawn")


class Renderer:
    """Renders jobs one at a time, each in a fresh child; the next child is always waiting."""

    def __init__(self, timeout: float = RENDER_TIMEOUT) -> None:
        self.timeout = timeout
        self._context = _context()
        self._waiting = self._start()

    def _start(self):
        ours, theirs = self._context.Pipe()
        child = self._context.Process(target=_serve_one, args=(theirs,), daemon=True, name="pnp-watch-render")
        child.start()
        theirs.close()
        return child, ours

    def render(self, job: Job) -> Outcome:
        child, connection = self._waiting
        # What is sent is pickled: the options' settings as a plain dict.
        job = job._replace(options=job.options._replace(params=dict(job.options.params)),
                           overrides=dict(job.overrides))
        try:
            connection.send(job)
            if connection.poll(self.timeout):
                outcome = connection.recv()
            else:
                outcome = _failed(job, f"the render took more than {self.timeout:g} s and was stopped")
        except (EOFError, OSError, BrokenPipeError):
            outcome = _failed(job, f"the render stopped without an answer (exit code {child.exitcode})")
        finally:
            child.join(timeout=1)   # it ends once it has answered
            if child.is_alive():
                child.kill()
                child.join()
            connection.close()
            self._waiting = self._start()
        return outcome

    def close(self) -> None:
        child, connection = self._waiting
        if child.is_alive():
            child.kill()
        child.join()
        connection.close()


def _failed(job: Job, reason: str) -> Outcome:
    from pnp.core.units import paper_size

    return Outcome(None, (), paper_size(job.options.paper), (f"{ERROR_PREFIX}{reason}",), read=(), folders=(),
                   title=job.kit, seconds=0.0)
