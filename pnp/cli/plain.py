"""The commands that run without typer: ``pnp render``.

A render is what a designer runs over and over, and on a small deck loading typer and click
was a fifth of its time. Its options are :mod:`pnp.cli.common`'s declarations: typer reads
them as its own (:mod:`pnp.cli`), and a plain command line is read by :mod:`pnp.cli.quick`
without loading typer at all. Annotations stay real types (no ``from __future__ import
annotations``): both readers take each parameter's type from them.
"""

import time
from pathlib import Path
from typing import List, Optional

from pnp.cli.common import (BLEED, COMPONENT, CROP, CUTTER, DUPLEX, FOLD, GAME, INK, INSET, LANG, LENGTH, OFFSET,
                            OUT, PAPER, QR, SET, check_out, check_template, chosen_components, echo, loading, option,
                            print_options, reports_errors, say, settings_given)
from pnp.core.errors import NOTE_PREFIX, WARNING_PREFIX, PnpError, one_line

TEMPLATE = option(None, "--template", help="Render your own definition file.")
SPACE_SIZE = option(None, "--space-size", help="Board space size in mm (same as --set space_size=MM).")


@reports_errors
def render(
    game: Optional[str] = GAME,
    *,
    component: List[str] = COMPONENT,
    lang: str = LANG, paper: str = PAPER, out: Path = OUT, bleed: float = BLEED,
    crop_marks: bool = CROP, duplex: bool = DUPLEX, fold: bool = FOLD, back_offset: str = OFFSET,
    ink_saver: bool = INK, qr_url: Optional[str] = QR,
    cutter: Optional[str] = CUTTER, mark_inset: Optional[float] = INSET,
    mark_length: Optional[float] = LENGTH,
    template: Optional[Path] = TEMPLATE,
    space_size: Optional[float] = SPACE_SIZE,
    settings: List[str] = SET,
) -> None:
    """Render one game's kit (or some of its components) to PDF with its manifest."""
    with loading():
        from pnp.template.loader import load_game, load_shipped_game

    options = print_options(lang=lang, paper=paper, bleed=bleed, crop_marks=crop_marks, duplex=duplex,
                            back_offset=back_offset, ink_saver=ink_saver, qr_url=qr_url, fold=fold,
                            cutter=cutter, mark_inset=mark_inset, mark_length=mark_length)
    overrides = settings_given(settings)
    if space_size is not None:
        overrides["space_size"] = space_size
    if template is not None:
        check_template(template)
        kit = load_game(template, overrides=overrides)
    elif game is None:
        raise PnpError(say("no_game"))
    else:
        kit = load_shipped_game(game, overrides)
    chosen = chosen_components(kit, component)
    with loading():
        from pnp.kit.build import render_game  # reportlab loads only for commands that draw

    out = check_out(out)
    started = time.perf_counter()
    written = render_game(kit, options, out, chosen)
    for warning in written.warnings:
        echo(f"{WARNING_PREFIX}{one_line(warning)}", err=True)
    for note in written.notes:
        echo(f"{NOTE_PREFIX}{one_line(note)}", err=True)
    echo(say("wrote_kit", pdf=written.pdf, pages=written.pages, kib=f"{written.bytes / 1024:.0f}",
             manifest=written.manifest.name, seconds=f"{time.perf_counter() - started:.2f}"))


#: The commands :mod:`pnp.cli.quick` may run, by name.
COMMANDS = {"render": render}
