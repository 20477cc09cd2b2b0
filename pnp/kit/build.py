"""Render kits to files: one PDF and its manifest per game, language and paper.

A PDF and its manifest are one pair: both are written in one group (each
complete and on disk before either is renamed into place), and the manifest
names the PDF and its SHA-256 (``pdf_sha256``), so a PDF and a manifest that
were not written together (a copy, an edit, a crash between the two renames)
are told apart: :func:`read_manifest` refuses them.
"""

from __future__ import annotations

import gc
import glob
import hashlib
import json
import math
import os
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

from pnp import __version__
from pnp.core.errors import OutputError, PnpError
from pnp.core.files import (Contents, ReadError, WriteError, os_reason, read_regular, same_file, shown_path,
                       write_files)
from pnp.core.i18n import LANGUAGES
from pnp.core.records import NamedTuple
from pnp.layout.furniture import Imprint
from pnp.layout.kinds.image import Placed, soft_pictures
from pnp.layout.plan import plan_kit
from pnp.core.limits import MAX_MANIFEST_BYTES, MAX_NUMBER, MAX_PDF_BYTES, MAX_PIECES, size_shown
from pnp.template.model import Game, PrintOptions
from pnp.layout.options import checked
from pnp.render.document import PageItems, render_kit
from pnp.render.fonts import MEASURER
from pnp.core.units import PAPERS, paper_size


class Written(NamedTuple):
    pdf: Path
    manifest: Path
    pages: int
    bytes: int
    #: What is worth saying of the kit though it prints: a picture under 300 dpi, a board cut
    #: at a line its seams do not name or through text, each a line.
    warnings: tuple[str, ...] = ()
    #: What is worth knowing: a board's named seams not used, each a line.
    notes: tuple[str, ...] = ()


def write_atomically(path: Path, data: bytes) -> None:
    """Write one file through :mod:`pnp.core.files` (temporary file, fsync, rename)."""
    write_outputs({Path(path): data})


def write_outputs(files: dict[Path, Contents]) -> None:
    """Write files that belong together (a PDF and its manifest) as one step, in folders that exist."""
    try:
        write_files(files)
    except WriteError as exc:
        raise OutputError(str(exc)) from None


def manifest_path(pdf: Path) -> Path:
    """Where the manifest of ``pdf`` is: ``NAME.manifest.json`` beside ``NAME.pdf``."""
    pdf = Path(pdf)
    return pdf.with_name(pdf.stem + ".manifest.json")


def write_pdf_and_manifest(pdf_path: Path, pdf: bytes, manifest: dict, inputs: tuple[Path, ...] = (),
                           *, beside: dict[str, bytes] | None = None) -> Path:
    """Write a PDF and its manifest as one pair (with the files ``beside`` them it names,
    a cutter's cut files, in the same group); return the manifest's path.

    The manifest gets the PDF's name and SHA-256. Neither file may be one of
    ``inputs`` (the files the PDF was made from) or a link to one.
    """
    pdf_path = Path(pdf_path)
    target = manifest_path(pdf_path)
    others = {pdf_path.with_name(name): data for name, data in (beside or {}).items()}
    for written in (pdf_path, target, *others):
        for source in inputs:
            if same_file(written, Path(source)):
                raise OutputError(f"{written} is {source}, which this kit is made from; it is never written over")
    manifest = {**manifest, "pdf": pdf_path.name, "pdf_sha256": hashlib.sha256(pdf).hexdigest()}
    write_outputs({**others, pdf_path: pdf, target: manifest_parts(manifest)})
    _remove_stale_cut_files(pdf_path, others)
    return target


def _remove_stale_cut_files(pdf_path: Path, kept) -> None:
    """Remove the cut files an earlier render of this kit left that the new one did not write.

    A cut file belongs to one page of one PDF (``STEM_cut_PAGE.svg``): one left
    from a longer or a cutter render would be cut as if it were this kit's. Only
    names of that form beside the PDF are touched, after the new files are in place.
    """
    for path in pdf_path.parent.glob(f"{glob.escape(pdf_path.stem)}_cut_[0-9][0-9][0-9].svg"):
        if path not in kept and path.is_file() and not path.is_symlink():
            try:
                path.unlink()
            except OSError:
                pass  # a file that cannot be removed stays; the manifest does not name it


def _finite(text: str) -> float:
    value = float(text)
    if -MAX_NUMBER <= value <= MAX_NUMBER:   # NaN fails both comparisons, an infinity one
        return value
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:20]} is not finite")
    raise ValueError(f"the number {text[:20]} is past the limit of {MAX_NUMBER:.0f} a manifest holds")


def _whole(text: str) -> int:
    if len(text) < 8:   # at most 9,999,999: read at once
        value = int(text)
        if -MAX_NUMBER <= value <= MAX_NUMBER:
            return value
    # Longer: its length is checked before int() reads it (5,000 digits meet Python's own limit there).
    shown = text if len(text) <= 20 else f"{text[:6]}... ({len(text.lstrip('-'))} digits)"
    raise ValueError(f"the number {shown} is past the limit of {MAX_NUMBER:.0f} a manifest holds")


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number a manifest holds")


class ManifestPair(NamedTuple):
    """A manifest as read, the PDF it describes, and the PDF's bytes."""

    manifest: dict
    pdf: Path
    pdf_data: bytes


def read_manifest(path: Path) -> ManifestPair:
    """A manifest, the PDF it describes and the PDF's bytes, checked to be the pair written together.

    ``path`` is the manifest or its PDF. OutputError (one line) if the manifest
    cannot be read (not a regular file, over :data:`~pnp.core.limits.MAX_MANIFEST_BYTES`,
    not JSON, or holding a number that is not finite: NaN, Infinity, 1e999), names
    no PDF beside it, or gives a SHA-256 that is not the PDF's.
    """
    from pnp.layout.print_order import manifest_problem  # only the commands that read a manifest load its checks

    path = Path(path)
    if path.suffix.lower() == ".pdf":
        path = manifest_path(path)
    try:
        data = read_regular(path, MAX_MANIFEST_BYTES)
        manifest = json.loads(data.decode("utf-8"), parse_float=_finite, parse_int=_whole,
                              parse_constant=_no_constant)
    except ReadError as exc:
        if exc.kind == "missing":
            raise OutputError(f"{shown_path(path)}: no such manifest") from None
        if exc.kind == "too_large":
            raise OutputError(f"{shown_path(path)}: cannot read the manifest (larger than the limit of "
                              f"{size_shown(MAX_MANIFEST_BYTES)}; a kit at the limit of {MAX_PIECES:,} pieces, "
                              "printed with their backs, writes about 8 MiB)") from None
        raise OutputError(f"{shown_path(path)}: cannot read the manifest ({exc.reason})") from None
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        reason = str(exc) if "finite" in str(exc) or "manifest holds" in str(exc) else "not a JSON manifest"
        raise OutputError(f"{shown_path(path)}: cannot read the manifest ({reason})") from None
    if not isinstance(manifest, dict):
        raise OutputError(f"{path}: not a manifest (a JSON object with pdf and pdf_sha256)")
    problem = manifest_problem(manifest)
    if problem:
        raise OutputError(f"{shown_path(path)}: not a manifest pnp writes ({problem})")
    name, expected = manifest.get("pdf"), manifest.get("pdf_sha256")
    if not (isinstance(name, str) and name and os.path.basename(name) == name and name not in (".", "..")):
        raise OutputError(f"{path}: the manifest does not name a PDF beside it (\"pdf\": {json.dumps(name)})")
    if not isinstance(expected, str):
        raise OutputError(f"{path}: the manifest has no pdf_sha256, so it cannot vouch for {name}; "
                          "render the kit again")
    pdf = path.with_name(name)
    try:
        pdf_data = read_regular(pdf, MAX_PDF_BYTES)
    except ReadError as exc:
        reason = f"larger than the limit of {size_shown(MAX_PDF_BYTES)}" if exc.kind == "too_large" else exc.reason
        raise OutputError(f"{shown_path(path)}: cannot read {pdf.name}, the PDF it describes ({reason})") from None
    found = hashlib.sha256(pdf_data).hexdigest()
    if found != expected:
        raise OutputError(f"{path}: {pdf.name} is not the PDF this manifest was written with (its SHA-256 is "
                          f"{found[:12]}..., the manifest says {expected[:12]}...); render the kit again")
    return ManifestPair(manifest, pdf, pdf_data)


def check_cut_files(manifest: dict, pdf: Path) -> None:
    """OutputError unless every cut file the manifest names is beside ``pdf`` and is the one
    written with it (its ``cut_file_sha256``)."""
    pages = manifest.get("pages")
    for page in pages if isinstance(pages, list) else ():
        name = page.get("cut_file") if isinstance(page, dict) else None
        if name is None:
            continue
        if not (isinstance(name, str) and name and os.path.basename(name) == name and name not in (".", "..")):
            raise OutputError(f"{pdf}: the manifest names a cut file that is not beside it ({json.dumps(name)})")
        try:
            data = read_regular(pdf.with_name(name), MAX_MANIFEST_BYTES)
        except ReadError as exc:
            raise OutputError(f"{shown_path(pdf)}: cannot read {name}, the cut file of page "
                              f"{page.get('number')} ({exc.reason})") from None
        if hashlib.sha256(data).hexdigest() != page.get("cut_file_sha256"):
            raise OutputError(f"{pdf.with_name(name)} is not the cut file this manifest was written with; "
                              "render the kit again")


def manifest_parts(manifest: dict) -> Iterator[bytes]:
    """The manifest as UTF-8 JSON with one piece per line, easy to read and to diff,
    in parts made as they are written one after the other (:func:`pnp.core.files.write_files`).

    Each line is written by json's C encoder, which an indented dump would not
    use; a page's items kept as records (:class:`~pnp.render.document.PageItems`)
    are written from them, without a dict per item. Each page is encoded when
    its turn comes to be written: a large kit's manifest is never held whole as text.
    """
    def dump(value) -> str:
        # No NaN or infinity is ever written (they are not JSON): every number reaching a piece is
        # checked on load; one that slipped through is a bug, stopped here.
        return json.dumps(value, ensure_ascii=False, allow_nan=False)

    fields = [f" {dump(k)}: {dump(v)}" for k, v in manifest.items() if k != "pages"]
    yield ("{\n" + ",\n".join([*fields, ' "pages": [\n'])).encode()
    for number, page in enumerate(manifest["pages"]):
        # One dump of the page's own keys, its braces cut off: json's separators are these lines' own.
        info = dump({k: v for k, v in page.items() if k != "items"})[1:-1]
        items = page["items"]
        items = ",\n".join(items.json_lines() if isinstance(items, PageItems) else
                           [f"   {dump(item)}" for item in items])
        text = f'  {{{info}, "items": [\n{items}\n  ]}}' if items else f'  {{{info}, "items": []}}'
        yield (",\n" + text if number else text).encode()
    yield b"\n ]\n}\n"


def kit_name(game: Game, options: PrintOptions, components: list[str] | None = None) -> str:
    suffix = "_" + "+".join(components) if components else ""
    return f"{game.id}_{options.lang}_{options.paper}{suffix}"


@contextmanager
def collector_paused():
    """Pause Python's cycle collector for the duration, as it was before afterwards.

    Laying out and drawing a kit makes a great many small objects (a shape is
    a tuple of numbers) and keeps most of them until the PDF is written; the
    collector would walk them all again and again, looking for cycles they do
    not form, which in a large deck is a good part of the run. Reference counting still frees
    what is dropped, and the collector looks at the rest once it resumes.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def imprint() -> Imprint:
    """The imprint a kit's cover prints: the installed version of pnp, and the date
    only when ``SOURCE_DATE_EPOCH`` gives one, so two builds stay byte-identical."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    date = None
    if epoch:
        try:
            date = datetime.fromtimestamp(int(epoch), timezone.utc).date().isoformat()
        except (ValueError, OverflowError, OSError):
            raise PnpError(f"SOURCE_DATE_EPOCH must be a number of seconds since 1970, got {epoch!r}") from None
    # The package's own constant: importlib.metadata would import email, csv and zipfile on every run.
    return Imprint(__version__, date)


def render_to_memory(game: Game, options: PrintOptions, components: list[str] | None = None,
                     cut_files: dict[str, bytes] | None = None, *, records: bool = False,
                     reports: list | None = None) -> tuple[bytes, dict]:
    """One kit's PDF and manifest, laid out and drawn with the cycle collector paused.

    With a cutter, the manifest names each front's cut file (and its SHA-256); the
    files themselves go into ``cut_files``, by name, when it is given. With
    ``records``, each page's items are kept as records until read or written
    (:func:`~pnp.render.document.render_kit`). What the plan reports besides problems
    (where a board is cut: :class:`~pnp.layout.boards.SeamReport`) goes into ``reports``
    when it is given."""
    options = checked(options)
    size = paper_size(options.paper)
    with collector_paused():
        plan = plan_kit(game, options, size, components, measure=MEASURER, imprint=imprint())
        pdf, manifest = render_kit(plan, release_pages=True, records=records)
    if reports is not None:
        reports.extend(plan.reports)
    if options.cutter:
        from pnp.layout.cutter import cut_files as made_cut_files

        files = made_cut_files(game, manifest, kit_name(game, options, components))
        if cut_files is not None:
            cut_files.update(files)
    return pdf, manifest


def render_game(game: Game, options: PrintOptions, out_dir: Path,
                components: list[str] | None = None) -> Written:
    """Render one kit and write its PDF and manifest; nothing is written on failure."""
    beside: dict[str, bytes] = {}
    reports: list = []
    pdf, manifest = render_to_memory(game, options, components, beside, records=True, reports=reports)
    try:
        Path(out_dir).mkdir(parents=True, exist_ok=True)  # the output folder, made once there is something to put in it
    except OSError as exc:
        raise OutputError(f"cannot create the output folder {shown_path(out_dir)}: {os_reason(exc, out_dir)}") from None
    pdf_path = Path(out_dir) / f"{kit_name(game, options, components)}.pdf"
    written = write_pdf_and_manifest(pdf_path, pdf, manifest, inputs=game_inputs(game), beside=beside)
    source = Path(game.source).name if game.source else game.id
    said = {severity: tuple(r.line(source) for r in reports if r.severity == severity)
            for severity in ("warning", "note")}
    return Written(pdf_path, written, len(manifest["pages"]), len(pdf),
                   warnings=kit_warnings(manifest) + said["warning"], notes=said["note"])


def kit_warnings(manifest: dict) -> tuple[str, ...]:
    """What a kit's manifest says is worth a warning: each picture placed at under 300 dpi,
    with the piece, the file and the figure."""
    placed = [Placed(use["piece"], use["face"], "", picture["file"], source=picture["file"], dpi=use["dpi"],
                     pixels=tuple(picture["pixels"]))
              for picture in manifest.get("pictures", ()) for use in picture["placed"]]
    return tuple(soft_pictures(placed))


def game_inputs(game: Game) -> tuple[Path, ...]:
    """The files a kit is made from: its template and its catalogs."""
    if not game.source:
        return ()
    source = Path(game.source)
    return (source, *(source.with_name(f"{source.stem}.{lang}.toml") for lang in LANGUAGES))


def build_matrix(games: list[Game], base: PrintOptions) -> list[tuple[Game, PrintOptions]]:
    """Every game in every language on every paper."""
    return [(game, base._replace(lang=lang, paper=paper))
            for game in games for lang in LANGUAGES for paper in PAPERS]


def write_calibration(lang: str, paper: str, out_dir: Path) -> Written:
    """Write the printer alignment sheet (two pages, for one double-sided print) and its manifest."""
    from pnp.core.i18n import common_catalog
    from pnp.layout.calibration import calibration_pages, targets
    from pnp.render.document import render_pages

    options = checked(PrintOptions(lang=lang, paper=paper))
    size = paper_size(options.paper)
    catalog = common_catalog(options.lang)
    front, back = calibration_pages(size, options, catalog, MEASURER)
    pdf = render_pages([front, back], size, catalog.get("calibrate.title"), options.lang, duplex=True)
    manifest = {
        "calibration": True, "lang": options.lang, "paper": options.paper,
        "page_size_mm": [round(size[0], 3), round(size[1], 3)], "duplex": True, "sheets": 1,
        "targets_mm": [{"name": t.name, "x": t.x, "y": t.y} for t in targets(*size)],
        "pages": [{"number": 1, "kind": "front", "sheet": 1, "items": []},
                  {"number": 2, "kind": "back", "sheet": 1, "items": []}],
    }
    try:
        Path(out_dir).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create the output folder {shown_path(out_dir)}: {os_reason(exc, out_dir)}") from None
    pdf_path = Path(out_dir) / f"calibration_{options.lang}_{options.paper}.pdf"
    written = write_pdf_and_manifest(pdf_path, pdf, manifest)
    return Written(pdf_path, written, 2, len(pdf))
