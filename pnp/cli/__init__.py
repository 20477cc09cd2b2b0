"""The ``pnp`` command: thin commands over the library.

Any PnpError becomes one line ``Error: ...`` on stderr and exit code 1. What
the commands themselves print comes from the common catalog (``cli.*``);
the kit commands speak English, the score commands the session's language.
Whatever else goes wrong (a bug) is caught last of all in :func:`main`: one
``Error:`` line naming the command and asking for a report, exit code 1, the
traceback only with ``pnp --debug``; Ctrl-C is one line and exit code 130.
"""

import contextlib
import errno
import functools
import gc
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable, List, Optional

import typer

from pnp.core.errors import ERROR_PREFIX, NOTE_PREFIX, WARNING_PREFIX, PnpError, one_line
from pnp.core.i18n import common_catalog

if TYPE_CHECKING:
    from pnp.template.model import PrintOptions

app = typer.Typer(
    help="Print-and-play kits and score companion for tabletop games (`pnp games` lists them).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

#: Set by ``pnp --debug``: an unexpected error shows its traceback.
_debug = False


@app.callback()
def _global_options(
    debug: bool = typer.Option(False, "--debug", help="Show the full traceback of an unexpected error, "
                                                       "to report it (before the command: pnp --debug build)."),
) -> None:
    global _debug
    _debug = debug


@contextlib.contextmanager
def _loading():
    """Load the library a command runs with the cycle collector paused, as pnp/__main__.py loads
    the commands; when it froze what they made (the command runs as ``pnp``), what this load made
    is frozen too: modules live as long as the process, and the collector would otherwise walk
    their objects again while the command works (1% of a small render). In-process (the tests),
    nothing is frozen."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if gc.get_freeze_count():
            gc.freeze()
        if enabled:
            gc.enable()


def say(key: str, count: int | None = None, /, **values: object) -> str:
    """A sentence of the commands (``cli.<key>``), in English; with ``count``, its plural form."""
    if count is not None:
        return common_catalog("en").plural(f"cli.{key}", count, **values)
    return common_catalog("en").get(f"cli.{key}", **values)


def fail(message: str) -> None:
    typer.echo(f"{ERROR_PREFIX}{one_line(message)}", err=True)
    raise typer.Exit(1)


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
                typer.echo(f"{ERROR_PREFIX}{one_line(problem)}", err=True)
            fail(problems[-1])

    return wrapper


def _params(values: list[str]) -> dict[str, float]:
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


def _options(*, lang: str, paper: str, bleed: float, crop_marks: bool, duplex: bool,
             back_offset: str, ink_saver: bool, qr_url: Optional[str], fold: bool = False,
             cutter: Optional[str] = None, mark_inset: Optional[float] = None,
             mark_length: Optional[float] = None) -> "PrintOptions":
    from pnp.template.model import PrintOptions
    from pnp.layout.options import checked, parse_offset

    for option, value in (("--mark-inset", mark_inset), ("--mark-length", mark_length)):
        if value is not None and cutter is None:
            raise PnpError(f"{option} places a cutting machine's registration marks: give --cutter too")
    inset = PrintOptions._field_defaults["mark_inset"] if mark_inset is None else mark_inset
    length = PrintOptions._field_defaults["mark_length"] if mark_length is None else mark_length
    return checked(PrintOptions(lang=lang, paper=paper, bleed=bleed, crop_marks=crop_marks,
                                duplex=duplex, fold=fold, back_offset=parse_offset(back_offset),
                                ink_saver=ink_saver, qr_url=qr_url, cutter=cutter, mark_inset=inset,
                                mark_length=length))


def _check_out(out: Path) -> Path:
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


def _check_template(template: Path) -> None:
    """A template path that names something (what it names is checked as it is read)."""
    from pnp.core.files import name_limits, shown_path

    problem = name_limits(template)
    if problem:
        raise PnpError(f"{shown_path(template)}: {problem}")
    if not os.path.lexists(template):
        raise PnpError(say("no_template", path=template))


LANG = typer.Option("en", "--lang", help="Language of the printed texts: en or fr.")
PAPER = typer.Option("a4", "--paper", help="Paper size: a4 or letter.")
BLEED = typer.Option(3.0, "--bleed", help="Bleed printed beyond each trim, in mm.")
CROP = typer.Option(True, "--crop-marks/--no-crop-marks", help="Print cut marks outside the pieces.")
DUPLEX = typer.Option(True, "--duplex/--no-duplex",
                      help="Print back pages (mirrored for long-edge flipping); --no-duplex leaves "
                           "out backs that carry no game information.")
FOLD = typer.Option(False, "--fold", help="For printers without duplex: each back beside its front, "
                                          "mirrored, to fold over before cutting.")
OFFSET = typer.Option("0,0", "--back-offset", metavar="X,Y",
                      help="Shift back pages by X,Y mm to correct a printer's front/back drift.")
INK = typer.Option(False, "--ink-saver", help="White backgrounds, black lines and text.")
QR = typer.Option(None, "--qr-url", help="Web address the QR codes point to.")
OUT = typer.Option(Path("output"), "--out", help="Output folder.")
CUTTER = typer.Option(None, "--cutter", help="Print-and-cut for a cutting machine (silhouette): its "
                                             "registration marks on every front and an SVG cut file beside it.")
INSET = typer.Option(None, "--mark-inset", metavar="MM",
                     help="With --cutter: the registration marks' distance from the paper's edges "
                          "(Silhouette Studio's default, 10).")
COMPONENT = typer.Option([], "--component", help="Only this component (repeatable).")
LENGTH = typer.Option(None, "--mark-length", metavar="MM",
                      help="With --cutter: the length of the registration marks' corners, as Silhouette "
                           "Studio is set (its default, 20).")
SET = typer.Option([], "--set", metavar="NAME=NUMBER",
                   help="Change a template setting, e.g. --set space_size=40.")


def _components(kit, names: list[str]) -> list[str] | None:
    """The components asked for, each once and known to the kit; None for all of them."""
    chosen = list(dict.fromkeys(names))  # asked twice is asked once
    for name in chosen:
        kit.component(name)
    return chosen or None


def _piece_counts(component) -> list[str]:
    """'5 hunter', or '144 unit: 72 hunter, 36 warrior, ...' when one id has several kinds."""
    from pnp.layout.plan import copies

    by_id: dict[str, list] = {}
    for copy in copies(component):
        by_id.setdefault(copy.piece.id, []).append(copy.piece)
    parts = []
    for piece_id, pieces in by_id.items():
        kinds = {p.index: p for p in pieces}
        text = f"{len(pieces)} {piece_id}"
        if len(kinds) > 1:
            # Name the kinds by the first field that tells them apart.
            names = [n for n in pieces[0].fields if not n.startswith("_")
                     and len({str(p.fields.get(n)) for p in kinds.values()}) > 1]
            if names:
                counts: dict[str, int] = {}
                for p in pieces:
                    label = str(p.fields.get(names[0], "-"))
                    counts[label] = counts.get(label, 0) + 1
                text += " (" + ", ".join(f"{n} {names[0]}={v}" for v, n in counts.items()) + ")"
        parts.append(text)
    return parts


@app.command()
@reports_errors
def games() -> None:
    """List the games, their components and piece counts."""
    from pnp.template.loader import game_files, load_game

    for game_id, path in game_files().items():
        game = load_game(path)
        low, high = game.players
        players = f"{low}" if low == high else f"{low}-{high}"
        name = game.catalogs["en"].get("game.name")
        typer.echo(say("game_players", high, id=game_id, name=name, players=players))
        width = max(len(say("pieces", n)) for n in (1, 2))
        for component in game.components:
            detail = ", ".join(_piece_counts(component))
            w, h = component.size
            count = component.piece_count()
            pieces = say("pieces", count).ljust(width)
            typer.echo(f"  {component.id:<18} {count:>4} {pieces}  {w:g} x {h:g} mm  {detail}")


@app.command()
@reports_errors
def render(
    game: Optional[str] = typer.Argument(None, help="Game id (see `pnp games`)."),
    *,
    component: List[str] = COMPONENT,
    lang: str = LANG, paper: str = PAPER, out: Path = OUT, bleed: float = BLEED,
    crop_marks: bool = CROP, duplex: bool = DUPLEX, fold: bool = FOLD, back_offset: str = OFFSET,
    ink_saver: bool = INK, qr_url: Optional[str] = QR,
    cutter: Optional[str] = CUTTER, mark_inset: Optional[float] = INSET,
    mark_length: Optional[float] = LENGTH,
    template: Optional[Path] = typer.Option(None, "--template", help="Render your own definition file."),
    space_size: Optional[float] = typer.Option(None, "--space-size",
                                               help="Board space size in mm (same as --set space_size=MM)."),
    settings: List[str] = SET,
) -> None:
    """Render one game's kit (or some of its components) to PDF with its manifest."""
    with _loading():
        from pnp.template.loader import load_game, load_shipped_game

    options = _options(lang=lang, paper=paper, bleed=bleed, crop_marks=crop_marks, duplex=duplex,
                       back_offset=back_offset, ink_saver=ink_saver, qr_url=qr_url, fold=fold,
                       cutter=cutter, mark_inset=mark_inset, mark_length=mark_length)
    overrides = _params(settings)
    if space_size is not None:
        overrides["space_size"] = space_size
    if template is not None:
        _check_template(template)
        kit = load_game(template, overrides=overrides)
    elif game is None:
        raise PnpError(say("no_game"))
    else:
        kit = load_shipped_game(game, overrides)
    chosen = _components(kit, component)
    with _loading():
        from pnp.kit.build import render_game  # reportlab loads only for commands that draw

    out = _check_out(out)
    started = time.perf_counter()
    written = render_game(kit, options, out, chosen)
    for warning in written.warnings:
        typer.echo(f"{WARNING_PREFIX}{one_line(warning)}", err=True)
    for note in written.notes:
        typer.echo(f"{NOTE_PREFIX}{one_line(note)}", err=True)
    typer.echo(say("wrote_kit", pdf=written.pdf, pages=written.pages, kib=f"{written.bytes / 1024:.0f}",
                   manifest=written.manifest.name, seconds=f"{time.perf_counter() - started:.2f}"))


@app.command()
@reports_errors
def new(name: Path = typer.Argument(..., help="The new game's folder; its last part is the game's id.")) -> None:
    """Start your own game: a template folder (cards from a CSV, an aid, a scoresheet, EN and FR)."""
    from pnp.template.starter import write_starter

    template = write_starter(name)
    typer.echo(say("new_written", folder=f"{name}/", template=template))


@app.command()
@reports_errors
def build(
    *,
    out: Path = OUT, bleed: float = BLEED, crop_marks: bool = CROP, duplex: bool = DUPLEX,
    fold: bool = FOLD, back_offset: str = OFFSET, ink_saver: bool = INK, qr_url: Optional[str] = QR,
    cutter: Optional[str] = CUTTER, mark_inset: Optional[float] = INSET,
    mark_length: Optional[float] = LENGTH,
) -> None:
    """Render every game in English and French, on A4 and US Letter."""
    with _loading():
        from pnp.kit.build import build_matrix, render_game
        from pnp.template.loader import game_files, load_shipped_game

    base = _options(lang="en", paper="a4", bleed=bleed, crop_marks=crop_marks, duplex=duplex,
                    back_offset=back_offset, ink_saver=ink_saver, qr_url=qr_url, fold=fold, cutter=cutter,
                    mark_inset=mark_inset, mark_length=mark_length)
    out = _check_out(out)
    started = time.perf_counter()
    kits = [load_shipped_game(game_id) for game_id in game_files()]
    jobs = build_matrix(kits, base)
    written = []
    with typer.progressbar(jobs, label=say("rendering"), file=sys.stderr,
                           item_show_func=lambda j: j and f"{j[0].id} {j[1].lang} {j[1].paper}") as bar:
        for game, options in bar:
            written.append(render_game(game, options, out))
    seconds = time.perf_counter() - started
    pages = sum(w.pages for w in written)
    size = sum(w.bytes for w in written)
    for w in written:
        typer.echo(say("built_file", pdf=w.pdf, pages=f"{w.pages:>3}", kib=f"{w.bytes / 1024:>6.0f}"))
    typer.echo(say("wrote_kits", count=len(written), out=f"{out}/", pages=pages, mib=f"{size / 1024 / 1024:.1f}",
                   seconds=f"{seconds:.1f}"))


@app.command()
@reports_errors
def calibrate(paper: str = PAPER, lang: str = LANG, out: Path = OUT) -> None:
    """Write a printer alignment sheet: print it once on both sides to find --back-offset."""
    with _loading():
        from pnp.kit.build import write_calibration

    out = _check_out(out)
    written = write_calibration(lang, paper, out)
    typer.echo(say("wrote_calibration", pdf=written.pdf, manifest=written.manifest.name))


@app.command()
@reports_errors
def export(
    game: Optional[str] = typer.Argument(None, help="Game id (see `pnp games`)."),
    *,
    fmt: str = typer.Option("png", "--format", help="png (images), pdf (one page per face) "
                            "or tts (Tabletop Simulator sheets and saved object)."),
    service: str = typer.Option("generic", "--service",
                                help="Sizes of a print service: tgc (The Game Crafter), "
                                     "mpc (MakePlayingCards) or generic."),
    dpi: Optional[int] = typer.Option(None, "--dpi", help="Resolution of the images (default 300)."),
    order: str = typer.Option("front-back", "--order",
                              help="PDF page order of each piece: front-back or back-front."),
    base_url: Optional[str] = typer.Option(None, "--base-url",
                                           help="Where the Tabletop Simulator images will be "
                                                "hosted (default: file:/// addresses)."),
    component: List[str] = COMPONENT,
    lang: str = LANG, out: Path = OUT, ink_saver: bool = INK, qr_url: Optional[str] = QR,
    template: Optional[Path] = typer.Option(None, "--template", help="Export your own definition file."),
) -> None:
    """Export a game's pieces for print services (PNG, PDF) or Tabletop Simulator."""
    with _loading():
        from pnp.export.services import GENERIC, find_service
        from pnp.template.loader import load_game, load_shipped_game

    options = _options(lang=lang, paper="a4", bleed=3.0, crop_marks=False, duplex=True, back_offset="0,0",
                       ink_saver=ink_saver, qr_url=qr_url)
    chosen_service = find_service(service)
    if template is not None:
        _check_template(template)
        kit = load_game(template)
    elif game is None:
        raise PnpError(say("no_game"))
    else:
        kit = load_shipped_game(game)
    chosen = _components(kit, component)
    with _loading():
        from pnp.export.run import export_game  # reportlab and PDFium load only to export

    out = _check_out(out)
    started = time.perf_counter()
    bar = None

    def progress(done: int, total: int) -> None:
        nonlocal bar
        if not sys.stderr.isatty():
            return  # a bar in a log file is noise; the summary line says what was done
        if bar is None:
            bar = typer.progressbar(length=total, label=say("drawing"), file=sys.stderr)
            bar.__enter__()
        bar.update(done)

    try:
        written = export_game(kit, options, fmt.lower(), chosen_service, dpi=dpi, order=order.lower(),
                              components=chosen, out=out, base_url=base_url, progress=progress)
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    for skipped in written.skipped:
        typer.echo(say("export_skipped_one", reason=skipped.reason), err=True)
    for warning in written.warnings:
        typer.echo(f"{WARNING_PREFIX}{one_line(warning)}", err=True)
    for size in written.sizes:
        typer.echo(f"  {size}")
    # Without a service, what is skipped is what the format cannot hold (a page to read, a board
    # larger than Print Then Cut's area), each said above with its reason.
    skipped_key = "export_skipped" if chosen_service is not GENERIC else "export_skipped_format"
    skipped = say(skipped_key, len(written.skipped), service=chosen_service.name) if written.skipped else ""
    typer.echo(say("wrote_export", count=written.files, mib=f"{written.bytes / 1024 / 1024:.1f}",
                   folder=f"{written.folder}/", seconds=f"{time.perf_counter() - started:.1f}") + skipped)
    if fmt.lower() == "tts" and written.main_file is not None:
        typer.echo(say("tts_copy", file=written.main_file.name))


@app.command()
@reports_errors
def serve(
    host: str = typer.Option("127.0.0.1", "--host",
                             help="Address to listen on; 0.0.0.0 lets phones on the same network join."),
    port: int = typer.Option(8765, "--port", min=0, max=65535, help="Port to listen on (0: any free port)."),
    data: Optional[Path] = typer.Option(None, "--data", metavar="DIR",
                                        help="Folder of the database (pnp.sqlite3); default: your data folder."),
    token: Optional[str] = typer.Option(None, "--token",
                                        help="The organiser's secret, 8 to 200 URL-safe characters, at least 16 "
                                             "when --host is not this computer (default: a new random one, printed)."),
    *,
    template: List[Path] = typer.Option([], "--template", metavar="FILE",
                                        help="A designer's template that declares [score]: its game is scored too "
                                             "(repeat for more)."),
) -> None:
    """Serve table-side scoring to phones: start sessions, enter scores, see results and history."""
    from pnp.web.serve import run  # the web stack loads only for this command

    if template:
        from pnp.cli.score_commands import join_declared

        for path in template:
            join_declared(path, None)
    run(host, port, data, token, echo=typer.echo)


def _kit_name(name: str) -> str:
    """A shipped game's id, or a definition file's path, checked to name something, as given
    (:func:`pnp.template.loader.load_kit` tells them apart)."""
    from pnp.template.loader import names_a_file, shipped_template

    if names_a_file(name):
        _check_template(Path(name))
    else:
        shipped_template(name)
    return name


@app.command()
@reports_errors
def preflight(
    kit: str = typer.Argument(..., metavar="KIT_OR_TEMPLATE",
                              help="A game id (see `pnp games`) or your own definition file (.toml)."),
    *,
    component: List[str] = COMPONENT,
    lang: str = LANG, paper: str = PAPER, ink_saver: bool = INK, settings: List[str] = SET,
    strict: bool = typer.Option(False, "--strict", help="Exit 1 on warnings too, not only on errors."),
) -> None:
    """Check a kit for what prints badly (text in the safe zone or too small, thin lines, heavy
    ink, set colours alike, hidden backs, file size): one line each; exit 1 on an error."""
    with _loading():
        from pnp.template.loader import load_kit

    game = load_kit(_kit_name(kit), _params(settings))
    chosen = _components(game, component)
    with _loading():
        from pnp.preflight.run import preflight as look  # reportlab loads only for commands that draw
        from pnp.render.fonts import MEASURER

    options = _options(lang=lang, paper=paper, bleed=3.0, crop_marks=True, duplex=True, back_offset="0,0",
                       ink_saver=ink_saver, qr_url=None)
    report = look(game, options, chosen, measure=MEASURER)
    pages = say("preflight.pages", report.pages) if report.pages is not None else say("preflight.not_rendered")
    typer.echo(say("preflight.looked", report.faces, game=game.id, lang=options.lang, paper=options.paper)
               + f", {pages}")
    for finding in report.findings:
        typer.echo(finding.line())
    counts = [say(f"preflight.{severity}s", report.count(severity)) for severity in ("error", "warning", "note")
              if report.count(severity)]
    typer.echo(", ".join(counts) + "." if counts else say("preflight.clean"))
    if report.fails(strict):
        raise typer.Exit(1)


@app.command()
@reports_errors
def watch(
    kit: str = typer.Argument(..., metavar="TEMPLATE",
                              help="Your definition file (.toml), or a shipped game's id."),
    *,
    component: List[str] = COMPONENT,
    lang: str = LANG, paper: str = PAPER, ink_saver: bool = INK, settings: List[str] = SET,
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on; 0.0.0.0 lets a tablet "
                                                         "on the same network look too."),
    port: int = typer.Option(8766, "--port", min=0, max=65535, help="Port to listen on (0: any free port)."),
    open_browser: bool = typer.Option(False, "--open", help="Open the page in the web browser."),
) -> None:
    """Show a kit's pages in a browser page that renders them again on every save of the
    template, its catalogs, data files and icons; a save that breaks shows its errors there."""
    from pnp.preview.worker import Job
    from pnp.preview.serve import run  # the web stack loads only for the commands that serve

    options = _options(lang=lang, paper=paper, bleed=3.0, crop_marks=True, duplex=True, back_offset="0,0",
                       ink_saver=ink_saver, qr_url=None)
    job = Job(_kit_name(kit), options, tuple(dict.fromkeys(component)), _params(settings))
    run(job, host, port, echo=typer.echo, open_browser=open_browser)


@app.command("check-manifest")
@reports_errors
def check_manifest(
    file: Path = typer.Argument(..., help="A manifest (NAME.manifest.json) or the PDF beside it.",
                                show_default=False),
) -> None:
    """Check that a PDF is the one its manifest was written with (the manifest's pdf_sha256),
    and that it prints in order (each back right after its front, a blank page behind each
    one-sided page of a double-sided file)."""
    from pnp.kit.build import check_cut_files, read_manifest
    from pnp.layout.print_order import check_manifest_work, pdf_page_count, print_order_problems

    manifest, pdf, pdf_data = read_manifest(file)
    check_cut_files(manifest, pdf)
    pages = manifest.get("pages")
    try:
        check_manifest_work(manifest)
        problems = print_order_problems(manifest, pdf_page_count(pdf_data))
    except PnpError:
        raise
    except (KeyError, TypeError, AttributeError, IndexError, ValueError, OverflowError):
        # read_manifest checked the manifest's form: this is a last resort, never a traceback.
        raise PnpError(say("manifest_unreadable", file=file)) from None
    if problems:
        raise PnpError(say("prints_out_of_order", len(problems), file=file, first=problems[0]))
    typer.echo(say("manifest_matches", len(pages) if isinstance(pages, list) else 0, pdf=pdf))


from pnp.cli.score import score_app  # noqa: E402  (the sub-app mounts on the main one)

app.add_typer(score_app, name="score", help="Check and tally scores; print scoresheets.")


def _command_name(args: list[str]) -> str:
    """``pnp render``, ``pnp score add``: the command the arguments name, as far as they name one."""
    import click

    group: click.Command = typer.main.get_command(app)
    words = ["pnp"]
    for arg in args:
        if arg.startswith("-"):
            continue
        if not isinstance(group, click.Group) or arg not in group.commands:
            break
        group = group.commands[arg]
        words.append(arg)
    return " ".join(words)


def _language_asked(args: list[str]) -> str:
    """The ``--lang`` of the command line if it is a known one, else English."""
    from pnp.core.i18n import LANGUAGES

    for i, arg in enumerate(args):
        value = args[i + 1] if arg == "--lang" and i + 1 < len(args) else arg.partition("--lang=")[2]
        if value in LANGUAGES:
            return value
    return "en"


def _unexpected(error: BaseException, args: list[str]) -> str:
    """The line that replaces a traceback: the command, what went wrong, and a request to report it."""
    lang = _language_asked(args)
    what = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    if len(what) > 300:
        what = what[:299] + "…"
    return common_catalog(lang).get("cli.unexpected", command=_command_name(args)[4:], error=one_line(what))


def main() -> None:
    """The console script: every failure ends as one ``Error:`` line.

    Usage mistakes and library errors exit 1; so does anything unexpected (a
    bug), whose traceback ``pnp --debug`` shows; Ctrl-C exits 130, SIGTERM 143 and
    SIGHUP 129 (:mod:`pnp.core.signals`).
    """
    import click

    args = sys.argv[1:]
    try:
        code = app(standalone_mode=False)
    except click.exceptions.UsageError as exc:
        typer.echo(f"{ERROR_PREFIX}{one_line(exc.format_message())}", err=True)
        sys.exit(1)
    except click.exceptions.Abort as exc:
        # Click turns Ctrl-C (SIGTERM, SIGHUP) and a closed input (EOF at a prompt) into Abort.
        cause = exc.__cause__ or exc.__context__
        if isinstance(cause, KeyboardInterrupt):
            _interrupted(args, cause)
        typer.echo(f"{ERROR_PREFIX}{common_catalog(_language_asked(args)).get('cli.stopped')}", err=True)
        sys.exit(1)
    except KeyboardInterrupt as stopped:
        _interrupted(args, stopped)
    except Exception as exc:  # the last resort: a bug must not end as a traceback
        from pnp.core import signals
        if signals.stopped is not None:
            # A library turned the interruption into an error of its own: it is still the interruption.
            _interrupted(args, signals.stopped)
        if isinstance(exc, OSError) and exc.errno in (errno.ENAMETOOLONG, errno.ELOOP):
            # A name or path past the system's limits, wherever it was met: the limit, by name.
            from pnp.core.files import os_reason, shown_path

            typer.echo(f"{ERROR_PREFIX}{one_line(shown_path(exc.filename or ''))}: "
                       f"{os_reason(exc, exc.filename)}", err=True)
            sys.exit(1)
        if _debug:
            import traceback

            traceback.print_exc()
        typer.echo(f"{ERROR_PREFIX}{_unexpected(exc, args)}", err=True)
        sys.exit(1)
    if code == 130:  # typer's answer to Ctrl-C (or SIGTERM, SIGHUP) during a command; none of ours exits with 130
        from pnp.core import signals
        _interrupted(args, signals.stopped)
    sys.exit(code if isinstance(code, int) else 0)


def interrupted_line(stopped: BaseException | None, args: list[str]) -> str:
    """The one line of a command stopped by Ctrl-C, SIGTERM or SIGHUP."""
    from pnp.core.signals import catalog_key

    return f"{ERROR_PREFIX}{common_catalog(_language_asked(args)).get(f'cli.{catalog_key(stopped)}')}"


def _interrupted(args: list[str], stopped: BaseException | None = None) -> None:
    from pnp.core.signals import exit_code

    typer.echo(interrupted_line(stopped, args), err=True)
    sys.exit(exit_code(stopped) if stopped is not None else 130)


if __name__ == "__main__":
    main()
