"""Filled scoresheets: a checked score session printed on its game's sheet."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pnp.kit.build import write_pdf_and_manifest
from pnp.core.errors import PnpError
from pnp.layout.faces import Filled
from pnp.layout.plan import plan_kit
from pnp.core.limits import MAX_QR_BYTES
from pnp.template.model import PrintOptions
from pnp.render.document import render_kit
from pnp.render.fonts import MEASURER
from pnp.core.sheet_model import CatalogText
from pnp.template.loader import load_shipped_game
from scoring.rules import find_rules
from pnp.core.units import paper_size


def result_summary(result: Any, catalog, date: str | None = None, verdict: CatalogText | None = None) -> str:
    """The short text a phone reads from the filled sheet's QR code.

    One line: game, date, each player's total, and the winners, or the
    game's own ``verdict`` when its sheet gives one (a team's win or loss).
    """
    game = catalog.get("game.name")
    parts = [game] + ([date] if date else [])
    if result.totals:
        parts.append(", ".join(f"{p} {result.totals[p]}" for p in result.players))
    else:
        parts.append(", ".join(result.players))
    if verdict is not None:
        parts.append(catalog.get(verdict.key, **dict(verdict.values)))
    elif result.winners:
        tie = f" ({result.tie_break.value})" if result.tie_break is not None else ""
        parts.append(catalog.get("where.at", where=catalog.get("sheet.qr_winner"),
                                 what=", ".join(result.winners) + tie))
    else:
        parts.append(catalog.get("sheet.qr_none"))
    return " | ".join(parts)


def render_filled_sheet(result: Any, options: PrintOptions, date: str | None = None,
                        qr_text: str | None = None) -> tuple[bytes, dict]:
    """The game's scoresheet with every entered number, the totals and the winners.

    What the sheet holds comes from the game's rules (``scoresheet``), filled
    from ``result``; the kit's one sheet layout draws it. Its QR code carries
    ``qr_text`` (the session's result page, from ``pnp serve``) or, without
    one, the result itself as short text.
    """
    game = load_shipped_game(result.game)
    if not any(c.id == "scoresheet" for c in game.components):
        raise PnpError(f"{game.id} has no scoresheet in its template")
    sheet = find_rules(result.game).scoresheet(result, date)
    qr = qr_text or result_summary(result, game.catalogs[options.lang], date, sheet.verdict)
    size = len(qr.encode("utf-8", "surrogatepass"))
    if size > MAX_QR_BYTES:
        raise PnpError(f"the sheet's QR code would hold {size} bytes; the limit is {MAX_QR_BYTES} "
                       "(long players' names make a long summary)")
    filled = Filled(sheet, qr, date)
    plan = plan_kit(game, options, paper_size(options.paper), ["scoresheet"], cover=False,
                    measure=MEASURER, filled=filled)
    return render_kit(plan)


def write_filled_sheet(result: Any, options: PrintOptions, out: Path, date: str | None = None,
                       *, inputs: tuple[Path, ...] = ()) -> Path:
    """Write the filled sheet and its manifest as a pair; return the PDF path.

    Neither may be one of ``inputs`` (the session printed) or a link to one.
    """
    pdf, manifest = render_filled_sheet(result, options, date)
    write_pdf_and_manifest(Path(out), pdf, {**manifest, "filled": True}, inputs=inputs)
    return Path(out)
