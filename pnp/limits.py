"""The limits of a kit: every number a template, an option or an icon gives is finite and bounded.

Each limit is far above anything a real kit needs (the figure it is compared
with is given beside it), so it stops only a typo or a hostile file, and
stops it where the value enters, before any work: a value past a limit would
otherwise hang the command (a repeat of 10^10), fill the memory (a text
padded to 2 GB), or draw garbage (NaN coordinates). docs/TEMPLATES.md lists
them under "Limits".
"""

from __future__ import annotations

import math

#: A piece's side, mm. The largest shipped piece is a 370 mm board; 2 m still splits
#: over at most 14 x 14 sheets. The smallest is a 22 mm tile; below 1 mm nothing can be cut.
MAX_PIECE_MM = 2000.0
MIN_PIECE_MM = 1.0
#: Any other length, coordinate or offset in a face, mm (5 x the largest piece).
MAX_LENGTH_MM = 10_000.0
#: Any number a template writes (a param, a field, a constant in an expression), in
#: absolute value. Shipped templates stay under 400.
MAX_NUMBER = 1_000_000.0
#: Physical pieces in one kit, every set counted. The largest shipped kit has 226; the
#: benchmark of all-different cards (bench/unique.py) renders 14,400 in about 2 s and 90 MiB.
MAX_PIECES = 20_000
#: Pages of one PDF: 20,000 cards, 9 a sheet, with their backs, make 4,446.
MAX_PAGES = 5_000
#: Copies of one repeated element (columns x rows for a grid). The largest shipped grid is 7 x 7.
MAX_REPEAT = 1_000
#: Characters of one text (catalog texts included) and of any text a template writes.
#: The longest shipped text has 849.
MAX_TEXT_CHARS = 10_000
#: The width or precision in a placeholder's format, ``{copy:>3}``. Shipped texts use none.
MAX_FORMAT_WIDTH = 100
#: A text's size and smallest size, points (500 pt capitals are 12 cm tall). Shipped texts use up to 80.
MAX_TEXT_SIZE_PT = 500.0
#: A text's line spacing, as a multiple of its size. Shipped texts use 1.05 to 1.2.
MAX_LEADING = 5.0
#: Characters of one expression. Shipped expressions have fewer than 90.
MAX_EXPRESSION_CHARS = 500
#: The strip two parts of a board share, mm. Every shipped board uses 12.
MAX_OVERLAP_MM = 50.0
#: Rows and columns of one table. Shipped tables have up to 8 rows and 5 columns.
MAX_TABLE_ROWS = 1_000
MAX_TABLE_COLS = 100
#: Corners of one polygon. Shipped polygons have up to 72.
MAX_POINTS = 10_000
#: Bytes (UTF-8) a QR code holds. The largest code (version 40) holds 2,331 at the
#: error correction used (M), but a 26 mm code with more than about 1,000 is too
#: dense for a phone to read. Shipped codes hold addresses of under 60.
MAX_QR_BYTES = 1_000
#: Pixels of one exported image (pnp export). A 370 mm board at 600 dpi has 76 million.
MAX_IMAGE_PIXELS = 100_000_000
#: A template or catalog file. The largest shipped one has 39 KB.
MAX_TEMPLATE_BYTES = 5 * 1024 * 1024
#: A score session file. A finished Hunting Fever evening takes about 3 KB.
MAX_SESSION_BYTES = 1024 * 1024
#: An icon's SVG file. Shipped icons are under 3 KB, with 19 elements at most, 3 deep.
MAX_SVG_BYTES = 2 * 1024 * 1024
MAX_SVG_DEPTH = 50
MAX_SVG_ELEMENTS = 20_000


def size_shown(size: int) -> str:
    """A file size as a limit is stated: ``2 MiB``, ``512 KiB``.

    >>> size_shown(MAX_SVG_BYTES), size_shown(3072)
    ('2 MiB', '3 KiB')
    """
    if size >= 1024 * 1024:
        return f"{size / 1024 / 1024:.3g} MiB"
    return f"{size / 1024:.3g} KiB"


def bounded(value: float, low: float, high: float) -> bool:
    """True if ``value`` is a finite number from ``low`` to ``high``.

    >>> bounded(3.0, 0, 10), bounded(float("nan"), 0, 10), bounded(float("inf"), 0, math.inf)
    (True, False, False)
    """
    return math.isfinite(value) and low <= value <= high
