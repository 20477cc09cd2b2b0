"""The ``pnp`` command: thin commands over the library.

Any PnpError becomes one line ``Error: ...`` on stderr and exit code 1. What
the commands themselves print comes from the common catalog (``cli.*``);
the kit commands speak English, the score commands the session's language.
Whatever else goes wrong (a bug) is caught last of all in :func:`main`: one
``Error:`` line naming the command and asking for a report, exit code 1, the
traceback only with ``pnp --debug``; Ctrl-C is one line and exit code 130.
"""

import functools
import inspect
import sys
import time
from pathlib import Path
from typing import Callable, List, Optional

import typer

from pnp.cli import common, plain
from pnp.cli.common import (check_out as _check_out, check_template as _check_template,
                            chosen_components as _components, echo, language_asked,
                            loading as _loading, print_options as _options, reports_errors, run_reported, say,
                            settings_given as _params)
from pnp.core.errors import ERROR_PREFIX, WARNING_PREFIX, PnpError, one_line
from pnp.core.i18n import common_catalog

app = typer.Typer(
    help="Print-and-play kits and score companion for tabletop games (`pnp games` lists them).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _global_options(
    debug: bool = typer.Option(False, "--debug", help="Show the full traceback of an unexpected error, "
                                                       "to report it (before the command: pnp --debug build)."),
) -> None:
    common.show_tracebacks(debug)


def _typer(declared: common.Option | common.Argument):
    """A declared option or argument (pnp.cli.common) as typer's."""
    if isinstance(declared, common.Argument):
        return typer.Argument(declared.default, help=declared.help)
    return typer.Option(declared.default, *declared.names, help=declared.help, metavar=declared.metavar)


def _typer_command(function: Callable) -> Callable:
    """A typer-free command (pnp.cli.plain) for typer: the same function, its declared
    options and arguments made typer's."""
    signature = inspect.signature(function)
    params = []
    for param in signature.parameters.values():
        if isinstance(param.default, (common.Option, common.Argument)):
            param = param.replace(default=_typer(param.default))
        params.append(param)

    @functools.wraps(function)
    def command(*args, **kwargs):
        return function(*args, **kwargs)

    command.__signature__ = signature.replace(parameters=params)
    return command


LANG, PAPER, BLEED, CROP, DUPLEX, FOLD, OFFSET, INK, QR, OUT, CUTTER, INSET, COMPONENT, LENGTH, SET = (
    _typer(declared) for declared in (common.LANG, common.PAPER, common.BLEED, common.CROP, common.DUPLEX,
                                      common.FOLD, common.OFFSET, common.INK, common.QR, common.OUT,
                                      common.CUTTER, common.INSET, common.COMPONENT, common.LENGTH, common.SET))


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


app.command("render")(_typer_command(plain.render))


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
    game: Optional[str] = _typer(common.GAME),
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


def main() -> None:
    """The console script: every failure ends as one ``Error:`` line.

    Usage mistakes and library errors exit 1; so does anything unexpected (a
    bug), whose traceback ``pnp --debug`` shows; Ctrl-C exits 130, SIGTERM 143 and
    SIGHUP 129 (:mod:`pnp.core.signals`).
    """
    import click

    args = sys.argv[1:]

    def command() -> object:
        try:
            return app(standalone_mode=False)
        except click.exceptions.UsageError as exc:
            echo(f"{ERROR_PREFIX}{one_line(exc.format_message())}", err=True)
            sys.exit(1)
        except click.exceptions.Abort as exc:
            # Click turns Ctrl-C (SIGTERM, SIGHUP) and a closed input (EOF at a prompt) into Abort.
            cause = exc.__cause__ or exc.__context__
            if isinstance(cause, KeyboardInterrupt):
                common.interrupted(args, cause)
            echo(f"{ERROR_PREFIX}{common_catalog(language_asked(args)).get('cli.stopped')}", err=True)
            sys.exit(1)

    code = run_reported(command, args, lambda: _command_name(args))
    if code == 130:  # typer's answer to Ctrl-C (or SIGTERM, SIGHUP) during a command; none of ours exits with 130
        from pnp.core import signals
        common.interrupted(args, signals.stopped)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
