"""The one place print options are checked, whichever command or library call made them."""

from __future__ import annotations

import math

from pnp.core.errors import PnpError
from pnp.core.i18n import LANGUAGES
from pnp.core.limits import MAX_QR_BYTES
from pnp.template.model import PrintOptions
from pnp.core.units import PAPERS

MAX_BLEED = 10.0        # mm: beyond this a "bleed" covers the neighbouring piece
MAX_BACK_OFFSET = 20.0  # mm: a printer that drifts more than this needs repair, not an offset


def parse_offset(text: str) -> tuple[float, float]:
    """``--back-offset X,Y`` in mm.

    >>> parse_offset("0.5,-0.3")
    (0.5, -0.3)
    """
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise PnpError(f"--back-offset must be two numbers in mm like 0.5,-0.3, got {text!r}") from None
    return x, y


def checked(options: PrintOptions) -> PrintOptions:
    """``options`` with the paper name normalised, or a PnpError naming the first bad value.

    >>> checked(PrintOptions(paper="A4")).paper
    'a4'
    """
    if options.lang not in LANGUAGES:
        raise PnpError(f"unknown language {options.lang!r}; expected one of: {', '.join(LANGUAGES)}")
    paper = options.paper.lower()
    if paper not in PAPERS:
        raise PnpError(f"unknown paper {options.paper!r}; expected one of: {', '.join(PAPERS)}")
    bleed = options.bleed
    if not (math.isfinite(bleed) and 0 <= bleed <= MAX_BLEED):
        raise PnpError(f"--bleed must be a number of mm from 0 to {MAX_BLEED:g}, got {bleed:g}")
    x, y = options.back_offset
    if not all(math.isfinite(v) and abs(v) <= MAX_BACK_OFFSET for v in (x, y)):
        raise PnpError(f"--back-offset must be two numbers of mm between -{MAX_BACK_OFFSET:g} and "
                       f"{MAX_BACK_OFFSET:g}, got {x:g},{y:g}")
    if options.qr_url is not None:
        url = options.qr_url
        size = len(url.encode("utf-8", "surrogatepass"))
        if not url.strip() or size > MAX_QR_BYTES or not url.isprintable():
            raise PnpError(f"--qr-url must be a web address of printable characters, at most {MAX_QR_BYTES} "
                           f"bytes as UTF-8 (a QR code holds no more and stays readable), got {size} bytes")
    for name, value in options.params.items():
        if not math.isfinite(value):
            raise PnpError(f"the setting {name!r} must be a finite number, got {value:g}")
    if options.cutter is not None:
        from pnp.layout.cutter import checked_cutter

        if options.fold:
            raise PnpError("--cutter and --fold do not go together: a cutting machine cuts one layer, "
                           "print the kit double-sided (or with --no-duplex)")
        return options._replace(paper=paper, cutter=checked_cutter(options.cutter, options.mark_inset,
                                                                             options.mark_length))
    return options._replace(paper=paper)
