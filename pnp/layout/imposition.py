"""Imposition: where each piece goes on which sheet, in mm from the page's bottom-left.

Pure computation. Pieces are laid out in a centred grid whose trims stay inside
the page margin; the gutter between pieces is as wide as twice the bleed when
the sheet has room for it, otherwise neighbours share a cut line. A piece too
big for the sheet is split into overlapping parts (see :func:`split_piece`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

MARGIN = 8.0          # minimum distance from the paper edge to any trim
FOOTER_BAND = 13.0    # bottom margin: the footer lives below this line
MARK_GAP = 3.0        # crop marks start at least this far from a trim
MARK_LENGTH = 5.0
MARK_MIN_LENGTH = 1.5
EDGE_CLEARANCE = 3.0  # keep marks this far from the paper edge
EPS = 1e-6


class Box(NamedTuple):
    """A rectangle in mm: (x, y) is the bottom-left corner."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h

    def grow(self, left: float, bottom: float, right: float, top: float) -> "Box":
        return Box(self.x - left, self.y - bottom, self.w + left + right, self.h + bottom + top)

    def rounded(self, digits: int = 3) -> "Box":
        return Box(*(round(v, digits) for v in (self.x, self.y, self.w, self.h)))


class Grid(NamedTuple):
    """How one piece size sits on one sheet."""

    cols: int
    rows: int
    rotated: bool
    cell_w: float   # piece width on the sheet (after rotation)
    cell_h: float
    gap_x: float
    gap_y: float
    origin_x: float  # left of the first column's trim
    origin_y: float  # bottom of the last row's trim

    @property
    def capacity(self) -> int:
        return self.cols * self.rows

    def trim(self, slot: int) -> Box:
        """The trim box of slot ``slot`` (row-major from the top-left)."""
        row, col = divmod(slot, self.cols)
        x = self.origin_x + col * (self.cell_w + self.gap_x)
        y = self.origin_y + (self.rows - 1 - row) * (self.cell_h + self.gap_y)
        return Box(x, y, self.cell_w, self.cell_h)

    def bleed_sides(self, slot: int, bleed: float) -> tuple[float, float, float, float]:
        """Bleed printed on each side (left, bottom, right, top) of a slot.

        Outer sides get the full bleed; inner sides get half the gutter so the
        printed areas of neighbours never overlap.
        """
        row, col = divmod(slot, self.cols)
        inner_x, inner_y = min(bleed, self.gap_x / 2), min(bleed, self.gap_y / 2)
        left = bleed if col == 0 else inner_x
        right = bleed if col == self.cols - 1 else inner_x
        top = bleed if row == 0 else inner_y
        bottom = bleed if row == self.rows - 1 else inner_y
        return left, bottom, right, top


def printable_area(page_w: float, page_h: float) -> Box:
    """Where trims may go: inside the margin and above the footer band."""
    return Box(MARGIN, FOOTER_BAND, page_w - 2 * MARGIN, page_h - MARGIN - FOOTER_BAND)


def _axis(space: float, size: float, bleed: float, gutter: bool = False) -> tuple[int, float]:
    """How many pieces fit along one axis, and the gutter between them.

    A full gutter (twice the bleed) when there is room for it, otherwise none:
    neighbours then share one cut line and the spare room stays in the margin,
    where the crop marks need it.
    """
    if gutter:
        count = int((space + 2 * bleed + EPS) // (size + 2 * bleed))
        return count, (2 * bleed if count > 1 else 0.0)
    count = int((space + EPS) // size)
    if count <= 1:
        return count, 0.0
    if space - count * size + EPS >= (count - 1) * 2 * bleed:
        return count, 2 * bleed
    return count, 0.0


def fit_grid(page_w: float, page_h: float, piece_w: float, piece_h: float,
             bleed: float, allow_rotate: bool = True, gutter: bool = False) -> Grid | None:
    """The grid that holds the most pieces, or None if one does not fit.

    >>> g = fit_grid(210, 297, 63.5, 88.9, 3)
    >>> (g.cols, g.rows, g.gap_x, g.rotated)
    (3, 3, 0.0, False)
    """
    area = printable_area(page_w, page_h)
    best: Grid | None = None
    options = [(piece_w, piece_h, False)]
    if allow_rotate and abs(piece_w - piece_h) > EPS:
        options.append((piece_h, piece_w, True))
    for w, h, rotated in options:
        cols, gap_x = _axis(area.w, w, bleed, gutter)
        rows, gap_y = _axis(area.h, h, bleed, gutter)
        if cols == 0 or rows == 0:
            continue
        block_w = cols * w + (cols - 1) * gap_x
        block_h = rows * h + (rows - 1) * gap_y
        grid = Grid(cols, rows, rotated, w, h, gap_x, gap_y,
                    area.x + (area.w - block_w) / 2, area.y + (area.h - block_h) / 2)
        if best is None or grid.capacity > best.capacity:
            best = grid
    return best


def mirror_for_long_edge(box: Box, page_w: float, offset: tuple[float, float] = (0.0, 0.0)) -> Box:
    """Where the back of ``box`` goes so it lands behind the front after a long-edge flip.

    >>> mirror_for_long_edge(Box(10, 20, 60, 90), 210).x
    140.0
    """
    return Box(page_w - box.x - box.w + offset[0], box.y + offset[1], box.w, box.h)


class Mark(NamedTuple):
    """A crop mark segment from (x1, y1) to (x2, y2), in mm."""

    x1: float
    y1: float
    x2: float
    y2: float


def crop_marks(trims: list[Box], bleed_boxes: list[Box], page_w: float, page_h: float,
               bottom_limit: float = FOOTER_BAND - 2.0) -> list[Mark]:
    """Marks that extend every cut line outside the block of pieces.

    A mark starts at least MARK_GAP from the trim and beyond every printed area
    (bleed included), so it never crosses a piece; it stops EDGE_CLEARANCE
    before the paper edge (or before the footer at the bottom).
    """
    if not trims:
        return []
    printed_left = min(b.x for b in bleed_boxes)
    printed_right = max(b.right for b in bleed_boxes)
    printed_bottom = min(b.y for b in bleed_boxes)
    printed_top = max(b.top for b in bleed_boxes)
    block = Box(min(t.x for t in trims), min(t.y for t in trims), 0, 0)
    block = Box(block.x, block.y, max(t.right for t in trims) - block.x,
                max(t.top for t in trims) - block.y)
    marks: list[Mark] = []
    xs = sorted({round(v, 4) for t in trims for v in (t.x, t.right)})
    ys = sorted({round(v, 4) for t in trims for v in (t.y, t.top)})
    # Vertical cut lines: marks above and below the block.
    start_top = max(block.top + MARK_GAP, printed_top + 1.0)
    end_top = min(start_top + MARK_LENGTH, page_h - EDGE_CLEARANCE)
    start_bottom = min(block.y - MARK_GAP, printed_bottom - 1.0)
    end_bottom = max(start_bottom - MARK_LENGTH, bottom_limit)
    for x in xs:
        if end_top - start_top >= MARK_MIN_LENGTH:
            marks.append(Mark(x, start_top, x, end_top))
        if start_bottom - end_bottom >= MARK_MIN_LENGTH:
            marks.append(Mark(x, start_bottom, x, end_bottom))
    start_right = max(block.right + MARK_GAP, printed_right + 1.0)
    end_right = min(start_right + MARK_LENGTH, page_w - EDGE_CLEARANCE)
    start_left = min(block.x - MARK_GAP, printed_left - 1.0)
    end_left = max(start_left - MARK_LENGTH, EDGE_CLEARANCE)
    for y in ys:
        if end_right - start_right >= MARK_MIN_LENGTH:
            marks.append(Mark(start_right, y, end_right, y))
        if start_left - end_left >= MARK_MIN_LENGTH:
            marks.append(Mark(start_left, y, end_left, y))
    return marks


class Part(NamedTuple):
    """One page's share of a piece too big for a sheet."""

    index: int        # 0-based, row-major from the piece's top-left
    col: int
    row: int
    cols: int
    rows: int
    region: Box       # in mm of the whole piece (its own frame, origin bottom-left)
    trim: Box         # where the region sits on the page
    rotated: bool     # the piece is turned a quarter counter-clockwise on the sheet
    sheet_region: Box  # the region in the turned piece's frame (as it lies on the sheet)

    @property
    def label(self) -> str:
        return f"{self.index + 1}/{self.cols * self.rows}"


def _split_axis(length: float, space: float, overlap: float) -> tuple[int, float]:
    if length <= space + EPS:
        return 1, length
    count = math.ceil((length - overlap) / (space - overlap) - EPS)
    return count, (length + (count - 1) * overlap) / count


def check_overlap(page_w: float, page_h: float, overlap: float) -> None:
    """A ValueError unless parts sharing ``overlap`` mm can each still show more than they share.

    With an overlap of half the sheet or more, each part would advance by less
    than it repeats (a part as wide as the overlap never advances at all), and
    the piece would be split over endless sheets, or none.
    """
    area = printable_area(page_w, page_h)
    most = min(area.w, area.h) / 2
    if not 0 <= overlap < most:
        raise ValueError(f"an overlap of {overlap:g} mm; the parts of a piece split over sheets share at "
                         f"most {most:g} mm on this paper")


def split_piece(page_w: float, page_h: float, piece_w: float, piece_h: float,
                overlap: float, allow_rotate: bool = True) -> list[Part]:
    """Split a large piece over as few sheets as possible, neighbours sharing ``overlap`` mm.

    Every part is centred on its own sheet, inside the margin. Parts together
    cover the whole piece; the region of part (col, row) starts at
    col * (region_w - overlap).
    """
    check_overlap(page_w, page_h, overlap)
    area = printable_area(page_w, page_h)
    best: tuple[int, list[Part]] | None = None
    options = [(piece_w, piece_h, False)]
    if allow_rotate and abs(piece_w - piece_h) > EPS:
        options.append((piece_h, piece_w, True))
    for w, h, rotated in options:
        cols, region_w = _split_axis(w, area.w, overlap)
        rows, region_h = _split_axis(h, area.h, overlap)
        parts = []
        for row in range(rows):
            for col in range(cols):
                # Regions are in the orientation the piece has on the sheet.
                rx = col * (region_w - overlap) if cols > 1 else 0.0
                ry = (rows - 1 - row) * (region_h - overlap) if rows > 1 else 0.0
                trim = Box(area.x + (area.w - region_w) / 2, area.y + (area.h - region_h) / 2,
                           region_w, region_h)
                sheet_region = Box(rx, ry, region_w, region_h)
                # Turned a quarter counter-clockwise, piece (u, v) lies at sheet (w - v, u).
                region = (Box(ry, w - rx - region_w, region_h, region_w) if rotated
                          else sheet_region)
                parts.append(Part(len(parts), col, row, cols, rows, region, trim, rotated,
                                  sheet_region))
        if best is None or len(parts) < best[0]:
            best = (len(parts), parts)
    assert best is not None
    return best[1]
