"""The limits of a kit: every number a template, an option or an icon gives is finite and bounded.

Each limit is far above anything a real kit needs (the figure it is compared
with is given beside it), so it stops only a typo or a hostile file, and
stops it where the value enters, before any work: a value past a limit would
otherwise hang the command (a repeat of 10^10), fill the memory (a text
padded to 2 GB), or draw garbage (NaN coordinates). docs/TEMPLATES.md lists
them under "Limits".

Limits that multiply make a work budget per run (:class:`WorkBudget`): a
polygon of 10,000 corners repeated 1,000 times is within both its limits and
still ten million corners to draw. What each unit costs is measured by
``bench/budget.py`` (figures beside each budget, on the 2-core development
machine); each budget is set so that the largest kit a designer would make
passes easily and a run at the budget still ends within seconds.
"""

from __future__ import annotations

import math

from pnp.core.errors import PnpError

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
#: benchmark of all-different cards (bench/unique.py) renders 14,400 within seconds.
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
#: Rows a declared scoresheet may have ([score]: rounds or categories); a sheet shows them on one page.
MAX_SCORE_ROWS = 100
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

#: A picture's file (an ``image`` element: PNG, JPEG, WebP). A 12-megapixel phone photo takes
#: 3 to 6 MB; a 600 dpi A3 scan as PNG about 60 MB.
MAX_PICTURE_BYTES = 64 * 1024 * 1024
#: Pixels of one picture, checked from its header before it is decoded (each takes 4 bytes and
#: more of memory once decoded; Pillow's own bomb guard warns at 89 million). A 2 m board at
#: 150 dpi has 139 million, an A3 poster at 600 dpi 70 million.
MAX_PICTURE_PIXELS = 100_000_000
#: A font file of a template's [fonts]. Lato's files are 70 KB each; a font with every script
#: of Unicode (Noto Sans CJK) about 20 MB.
MAX_FONT_BYTES = 32 * 1024 * 1024
#: A resolution a template asks for (an image's ``min_dpi``, the game's ``image_dpi``), dots
#: per inch: past 1,200 no printer shows more.
MAX_DPI = 1200


# ---- data files: pieces read from a CSV or an .xlsx sheet beside a template ----------------------
# Checked as the file is read, before anything grows with what it claims (a far column, a row
# number, a part's size), so reading takes time in proportion to the file's own size.
#: Rows of pieces in one data file (a kit holds at most MAX_PIECES pieces too).
MAX_DATA_ROWS = 20_000
#: Columns of one data file: id, count, a column per field and notes. The designer's example
#: reads 5; a value far to the right of a sheet is named, never padded to.
MAX_DATA_COLUMNS = 1_000
#: Parts (files inside the zip) of an .xlsx: a workbook of ten sheets, its styles and theme, has about 30.
MAX_XLSX_PARTS = 10_000
#: What one part of an .xlsx may unpack to (a zip bomb stops here). A sheet of 20,000 rows and
#: 30 columns of numbers unpacks to about 25 MiB.
MAX_XLSX_PART_BYTES = 32 * 1024 * 1024
#: XML elements in one part: 20,000 rows of 50 filled cells make about 2 million; reading 3 million
#: takes about 1.5 s.
MAX_XLSX_ELEMENTS = 3_000_000
#: How deep one part's elements nest: a sheet's text is 7 deep (worksheet, sheetData, row, c, is, r, t).
MAX_XLSX_DEPTH = 50


def size_shown(size: int) -> str:
    """A file size as a limit is stated: ``2 MiB``, ``512 KiB``.

    >>> size_shown(MAX_SVG_BYTES), size_shown(3072)
    ('2 MiB', '3 KiB')
    """
    if size >= 1024 * 1024:
        return f"{size / 1024 / 1024:.3g} MiB"
    return f"{size / 1024:.3g} KiB"


def number_shown(value: float | int) -> str:
    """A number as an error message shows it, however many digits it has.

    >>> number_shown(10 ** 400), number_shown(2.5), number_shown(float("nan"))
    ('100000... (401 digits)', '2.5', 'nan')
    """
    if isinstance(value, int) and not isinstance(value, bool):
        digits = str(value)
        return digits if abs(value) < 10 ** 15 else f"{digits[:6]}... ({len(digits.lstrip('-'))} digits)"
    return f"{value:g}"


def number_problem(value: float | int, limit: float = MAX_NUMBER) -> str | None:
    """Why ``value`` is not a number a piece may hold, or None: every number that reaches a
    piece (a template's, a data file's cell, a computed field's result) is finite and at
    most ``limit`` either way, so no NaN or infinity reaches a face or the manifest.

    >>> number_problem(400), number_problem(float("nan")), number_problem(-1e300)
    (None, 'nan is not a finite number', '-1e+300 is past the limit of 1000000 (either way)')
    """
    if not isinstance(value, int) and not math.isfinite(value):   # an int is finite, however long
        return f"{value} is not a finite number"
    if abs(value) > limit:
        return f"{number_shown(value)} is past the limit of {limit:.0f} (either way)"
    return None


def bounded(value: float, low: float, high: float) -> bool:
    """True if ``value`` is a finite number from ``low`` to ``high``.

    >>> bounded(3.0, 0, 10), bounded(float("nan"), 0, 10), bounded(float("inf"), 0, math.inf)
    (True, False, False)
    """
    return math.isfinite(value) and low <= value <= high

# ---- files read whole ------------------------------------------------------------------------
#: A manifest read by ``pnp check-manifest``: 192 bytes a piece on a page, so a kit at the limit
#: of 20,000 pieces printed with their backs writes about 8 MiB (the deck of 14,400 different
#: cards, 2.6 MiB); read whole, it takes about ten times its size in memory.
MAX_MANIFEST_BYTES = 32 * 1024 * 1024
#: A PDF read by ``pnp check-manifest`` (hashed and its pages counted): the deck of 14,400
#: different cards writes 2.6 MiB, the whole ``pnp build`` 1.9 MiB.
MAX_PDF_BYTES = 256 * 1024 * 1024


# ---- the work budget of one kit ----------------------------------------------------------------
# Each budget is set from what one unit costs (bench/budget.py; bench/RESULTS.md) so that a kit
# at the budget still renders within seconds.
#: Polygon corners drawn in one kit, every corner of every repeat of every distinct drawing.
#: The shipped kits draw at most 141, the deck of 14,400 different cards (bench/unique.py)
#: 43,200; a board of 400 hexagons, 2,400.
MAX_CORNERS = 500_000
#: Shapes laid out in one kit (each repeat of each distinct drawing of an element; a table's
#: cells), each of which also takes memory until it is drawn. The shipped kits lay out
#: at most 426, the deck of 14,400 different cards 86,411; 20,000 cards (the piece limit) of ten
#: elements each, all different, 200,000.
MAX_SHAPES = 300_000
#: Bytes held by the different QR codes of one kit, each code counted 30 bytes more (encoding
#: a code of its own costs about what 25 bytes do). A shipped kit's codes make at most 119;
#: 300 cards each linking to a page of its own, 27,000.
MAX_QR_WORK = 30_000
QR_CODE_COST = 30

#: Pixels of the different pictures of one kit, each file counted once however many pieces
#: show it: every one is checked whole, and decoded, turned to sRGB and made smaller when it
#: has far more pixels than printed. A deck of 54 cards each with its own 1500 x 2100 picture
#: has 170 million; 54 twelve-megapixel phone photos 650 million. Stored smaller, a million
#: pixels of JPEG cost 11 ms, of PNG 43 ms (bench/budget.py): a kit at the budget, 11 to 45 s.
MAX_PICTURE_WORK = 1_000_000_000

# ---- the work of pnp check-manifest ----------------------------------------------------------
# Set, as the budgets above, from what each unit costs to check (bench/budget.py).
#: Items (pieces on pages) in one manifest, each read and checked. A kit at the limit of
#: 20,000 pieces printed with backs lists 40,000.
MAX_MANIFEST_ITEMS = 100_000
#: Pieces compared on the two sides of the cover's sheet (one side's times the other's). A shipped cover sheet has at most 6 pieces on one side and none on the other.
MAX_COVER_PAIRS = 1_000_000


class BudgetError(PnpError):
    """A run would do more work than its budget allows; the message names the limit,
    the total and why the limit is there."""


class WorkBudget:
    """The work one kit has done, counted before each step that does it.

    Counted per distinct drawing (what a resolver lays out anew, not every copy
    that shares it), so a deck of 144 cards of six designs costs six cards.
    """

    def __init__(self) -> None:
        self.corners = 0
        self.shapes = 0
        self.qr_work = 0
        self.qr_codes: set[str] = set()
        self.picture_pixels = 0
        self.pictures: set[str] = set()

    def spend(self, shapes: int, corners: int, where: str) -> None:
        """Count an element about to be laid out: its shapes and polygon corners; BudgetError past a limit."""
        self.shapes += shapes
        self.corners += corners
        if corners and self.corners > MAX_CORNERS:
            raise BudgetError(
                f"{where}: the kit would draw at least {self.corners:,} polygon corners (each corner of each "
                f"repeat of each different drawing); the limit is {MAX_CORNERS:,} in one kit, because every "
                "corner is written into the PDF and more would take minutes and gigabytes")
        if self.shapes > MAX_SHAPES:
            raise BudgetError(
                f"{where}: the kit would lay out at least {self.shapes:,} shapes (each repeat of each different "
                f"drawing of an element, each cell of a table); the limit is {MAX_SHAPES:,} in one kit, because "
                "each takes time and memory to lay out and draw, and more would take minutes")

    def qr(self, data: str, where: str) -> None:
        """Count a QR code about to be encoded (once per different text); BudgetError past the limit."""
        if data in self.qr_codes:
            return
        self.qr_codes.add(data)
        self.qr_work += len(data.encode("utf-8", "surrogatepass")) + QR_CODE_COST
        if self.qr_work > MAX_QR_WORK:
            raise BudgetError(
                f"{where}: the kit's {len(self.qr_codes):,} different QR codes would hold at least "
                f"{self.qr_work - QR_CODE_COST * len(self.qr_codes):,} bytes (counting {QR_CODE_COST} more a code: "
                f"{self.qr_work:,}); the limit is {MAX_QR_WORK:,} in one kit, because encoding takes about "
                "0.12 ms a byte and more would take minutes")

    def picture(self, source: str, pixels: int, where: str) -> None:
        """Count a picture about to be placed (once per file); BudgetError past the limit."""
        if source in self.pictures:
            return
        self.pictures.add(source)
        self.picture_pixels += pixels
        if self.picture_pixels > MAX_PICTURE_WORK:
            raise BudgetError(
                f"{where}: the kit's {len(self.pictures):,} different pictures hold at least "
                f"{self.picture_pixels:,} pixels; the limit is {MAX_PICTURE_WORK:,} in one kit, because each "
                "is decoded, converted and stored in the PDF, and more would take minutes and gigabytes "
                "(smaller pictures, or fewer different ones, print the same)")

    def spent(self) -> dict[str, int]:
        """What was counted, for bench/budget.py."""
        return {"corners": self.corners, "shapes": self.shapes, "qr": self.qr_work,
                "picture_pixels": self.picture_pixels}
