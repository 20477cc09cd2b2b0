"""Imposition: where each piece goes on which sheet, in mm from the page's bottom-left.

Pure computation. Pieces are laid out in a centred grid whose trims stay inside
the sheet's frame; the gutter between pieces is as wide as twice the bleed when
the sheet has room for it (or when their backs differ: see
:mod:`pnp.layout.sheets`), otherwise neighbours share a cut line. Which pieces
share a sheet is :mod:`pnp.layout.sheets`; a piece too big for a sheet is split
by :mod:`pnp.layout.boards`.

The printable area. Many home printers print nothing in the outer 4 to 6 mm
of the paper, so crop marks, footers and the 50 mm bar stay at least
:data:`PRINTABLE` mm from every edge (and so does what matters on a piece: it
keeps 3 mm inside its trim). Only a piece's bleed, colour cut away anyway, may
run nearer the edge. A crop mark is at least :data:`MARK_MIN_LENGTH` long; where
the margin is too narrow to hold one beyond the bleed, it is drawn over the
outer part of the bleed (on the fronts' side only: back pages carry no marks),
stopping :data:`MARK_TIP` short of the trim at the least.
"""

from __future__ import annotations

import math
from typing import NamedTuple

MARGIN = 8.0          # least distance from the paper edge to any trim (the usual frame's top and sides)
PRINTABLE = 5.0       # no mark, footer or text nearer the paper edge (what home printers reach)
TEXT_EDGE = PRINTABLE
#: The usual frame's footer: its lines, its bar and their ink lie between
#: PRINTABLE and FOOTER_TOP mm above the bottom edge; trims start at FOOTER_BAND.
FOOTER_TOP = 10.6
FOOTER_BAND = 13.0
#: The side frame (pieces that need the paper's height): the footer is turned in
#: lanes from PRINTABLE to SIDE_LANE mm from the left and right edges; marks and
#: bleed stay beyond them, and trims start SIDE_BAND mm from those edges.
SIDE_LANE = 7.9
SIDE_BAND = SIDE_LANE + 3.0
MARK_GAP = 3.0        # crop marks start at least this far from a trim when there is room
MARK_CLEAR = 0.5      # and this far beyond the bleed
MARK_LENGTH = 5.0
MARK_MIN_LENGTH = 2.5
MARK_TIP = 0.2        # a mark drawn over the bleed stops at least this far from the trim
#: The least room beyond a trim that holds a mark.
MARK_ROOM = MARK_TIP + MARK_MIN_LENGTH
EDGE_CLEARANCE = PRINTABLE  # marks stay this far from the paper edge
EPS = 1e-6
GAP_STEP = 0.05       # a cutting machine's sheet spaces its pieces by whole steps of this


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


class Sides(NamedTuple):
    """A length on each side of a box (a bleed, a margin), mm."""

    left: float
    bottom: float
    right: float
    top: float


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

    @property
    def block_w(self) -> float:
        return self.cols * self.cell_w + (self.cols - 1) * self.gap_x

    @property
    def block_h(self) -> float:
        return self.rows * self.cell_h + (self.rows - 1) * self.gap_y

    def trim(self, slot: int) -> Box:
        """The trim box of slot ``slot`` (row-major from the top-left)."""
        row, col = divmod(slot, self.cols)
        x = self.origin_x + col * (self.cell_w + self.gap_x)
        y = self.origin_y + (self.rows - 1 - row) * (self.cell_h + self.gap_y)
        return Box(x, y, self.cell_w, self.cell_h)

    def bleed_sides(self, slot: int, bleed: float,
                    outer: tuple[float, float, float, float] | None = None, *,
                    filled: int | None = None) -> Sides:
        """Bleed printed on each side (left, bottom, right, top) of a slot.

        Outer sides get the full bleed (or what ``outer`` allows on each side
        of the block: left, bottom, right, top); inner sides get half the
        gutter so the printed areas of neighbours never overlap. Of a grid
        whose last row is not full (``filled`` slots of it hold pieces), a side
        facing an empty slot gets the full bleed: no neighbour shares that cut.

        >>> grid = Grid(2, 2, False, 10, 10, 0, 0, 0, 0)   # 2 x 2 pieces edge to edge, 3 of them
        >>> [tuple(grid.bleed_sides(slot, 3, filled=3)) for slot in (1, 2, 0)]
        [(0.0, 3, 3, 3), (3, 3, 3, 0.0), (3, 0.0, 0.0, 3)]
        """
        row, col = divmod(slot, self.cols)
        inner_x, inner_y = min(bleed, self.gap_x / 2), min(bleed, self.gap_y / 2)
        o_left, o_bottom, o_right, o_top = outer if outer is not None else (bleed,) * 4
        filled = self.rows * self.cols if filled is None else filled
        left = o_left if col == 0 else inner_x
        right = o_right if col == self.cols - 1 else inner_x if slot + 1 < filled else max(inner_x, bleed)
        top = o_top if row == 0 else inner_y
        bottom = o_bottom if row == self.rows - 1 else inner_y if slot + self.cols < filled else max(inner_y, bleed)
        return Sides(left, bottom, right, top)

    def moved(self, dx: float, dy: float) -> "Grid":
        return self._replace(origin_x=self.origin_x + dx, origin_y=self.origin_y + dy)


class Frame(NamedTuple):
    """Where trims may go on one sheet, where its marks and bleed may reach, and where its footer is.

    ``area`` holds the trims; ``limits`` is the box crop marks stay inside (it
    keeps them in the printable area and out of the footer); ``bleed`` is the
    box the printed bleed stays inside (it may run to the paper's edge, never
    under the footer); ``footer`` is ``"bottom"`` (a band under the pieces) or
    ``"side"`` (turned, in the left and right margins, when the pieces need
    the height).
    """

    area: Box
    limits: Box
    footer: str = "bottom"
    bleed: Box | None = None
    #: How far the footer keeps from the ends of its edge (mm): clear of a
    #: cutting machine's registration marks (pnp.layout.cutter); 0 as usual.
    footer_clear: float = 0.0
    #: The least gap between two trims (mm): a cutting machine's blade cuts each piece
    #: alone; 0: neighbours may share one cut line.
    gap: float = 0.0


def printable_area(page_w: float, page_h: float) -> Box:
    """Where trims may go: inside the margin and above the footer band."""
    return Box(MARGIN, FOOTER_BAND, page_w - 2 * MARGIN, page_h - MARGIN - FOOTER_BAND)


def bottom_frame(page_w: float, page_h: float) -> Frame:
    """The usual sheet: an 8 mm margin, the footer in a band at the bottom.

    >>> bottom_frame(210, 297).area
    Box(x=8.0, y=13.0, w=194.0, h=276.0)
    """
    above_footer = FOOTER_TOP + 0.2
    return Frame(printable_area(page_w, page_h),
                 Box(PRINTABLE, above_footer, page_w - 2 * PRINTABLE, page_h - PRINTABLE - above_footer),
                 "bottom", Box(0.0, above_footer, page_w, page_h - above_footer))


def side_frame(page_w: float, page_h: float) -> Frame:
    """A sheet whose pieces need the height: trims up to the printable area at
    the top and bottom, the footer turned in the side margins (wide enough for
    it, the marks and the bleed).

    Three poker cards are 266.7 mm tall: on Letter (279.4 mm) that leaves
    12.7 mm, enough for the 5 mm nothing is printed in at each edge and a
    2.5 mm mark below the cards (see :func:`stack_offset`).

    >>> side_frame(215.9, 279.4).area.rounded()
    Box(x=10.9, y=5.0, w=194.1, h=269.4)
    """
    return Frame(Box(SIDE_BAND, PRINTABLE, page_w - 2 * SIDE_BAND, page_h - 2 * PRINTABLE),
                 Box(SIDE_LANE, PRINTABLE, page_w - 2 * SIDE_LANE, page_h - 2 * PRINTABLE),
                 "side", Box(SIDE_LANE, 0.0, page_w - 2 * SIDE_LANE, page_h))


def page_frames(page_w: float, page_h: float) -> tuple[Frame, Frame]:
    """The frames a sheet may use, the usual one first."""
    return bottom_frame(page_w, page_h), side_frame(page_w, page_h)


def stack_offset(frame: Frame, top: float, bottom: float) -> float:
    """How far to move a block of pieces up (or down) from where centring put it
    (its trims from ``bottom`` to ``top``) so that one of its ends, at least,
    has room for a crop mark: 0 when one has, or when neither can.

    >>> round(stack_offset(side_frame(215.9, 279.4), 279.4 - 6.35, 6.35), 3)
    1.35
    """
    above, below = frame.limits.top - top, bottom - frame.limits.y
    if above >= MARK_ROOM - EPS or below >= MARK_ROOM - EPS:
        return 0.0
    up = min(MARK_ROOM - below, frame.area.top - top)
    if below + up >= MARK_ROOM - EPS:
        return up
    down = min(MARK_ROOM - above, bottom - frame.area.y)
    if above + down >= MARK_ROOM - EPS:
        return -down
    return 0.0


def _axis(space: float, size: float, bleed: float, gutter: bool = False,
          *, least: float = 0.0) -> tuple[int, float]:
    """How many pieces fit along one axis, and the gutter between them.

    A full gutter (twice the bleed) when there is room for it, otherwise none:
    neighbours then share one cut line and the spare room stays in the margin,
    where the crop marks need it. With ``least`` (a cutting machine's sheet),
    neighbours never share a cut: the gutter is at least that, and up to twice
    the bleed as the room allows.

    >>> _axis(194, 63.5, 3), _axis(194, 63.5, 3, least=1.25)
    ((3, 0.0), (3, 1.75))
    """
    if gutter:
        step = max(2 * bleed, least)
        count = int((space + step + EPS) // (size + step))
        return count, (step if count > 1 else 0.0)
    if least > 0:
        count = int((space + least + EPS) // (size + least))
        if count <= 1:
            return count, 0.0
        # To the 0.05 mm: pieces of a deck then lie alike on the grid a printer's dots make.
        spare = min(2 * bleed, (space - count * size) / (count - 1))
        return count, max(least, math.floor(spare / GAP_STEP + EPS) * GAP_STEP)
    count = int((space + EPS) // size)
    if count <= 1:
        return count, 0.0
    if space - count * size + EPS >= (count - 1) * 2 * bleed:
        return count, 2 * bleed
    return count, 0.0


def grid_in(area: Box, piece_w: float, piece_h: float, bleed: float, *, allow_rotate: bool = True,
            gutter: bool = False, count: int | None = None,
            turns: tuple[bool, ...] | None = None, least: float = 0.0) -> Grid | None:
    """The grid of one piece size in ``area``, centred, or None if one does not fit.

    It holds the most pieces; given ``count`` (how many are left to place), the
    lowest grid that holds them all when one does, so the rest of the area
    stays free for other pieces. ``turns`` names the orientations allowed
    (False upright, True a quarter turn); by default upright, and turned when
    ``allow_rotate``. With ``gutter``, neighbours never share a cut line; with
    ``least``, they keep at least that far apart.

    >>> g = grid_in(Box(8, 13, 194, 276), 63.5, 88.9, 3)
    >>> (g.cols, g.rows, g.rotated)
    (3, 3, False)
    """
    candidates = []
    if turns is None:
        turns = (False, True) if allow_rotate else (False,)
    square = abs(piece_w - piece_h) <= EPS
    options = [(piece_h, piece_w, True) if turn and not square else (piece_w, piece_h, False)
               for turn in dict.fromkeys(turns if not square else (False,))]
    for w, h, rotated in options:
        cols, gap_x = _axis(area.w, w, bleed, gutter, least=least)
        rows, gap_y = _axis(area.h, h, bleed, gutter, least=least)
        if cols == 0 or rows == 0:
            continue
        if count is not None:
            rows = min(rows, max(1, math.ceil(count / cols)))
            if rows == 1:
                gap_y = 0.0
        block_w = cols * w + (cols - 1) * gap_x
        block_h = rows * h + (rows - 1) * gap_y
        candidates.append(Grid(cols, rows, rotated, cell_w=w, cell_h=h, gap_x=gap_x, gap_y=gap_y,
                               origin_x=area.x + (area.w - block_w) / 2, origin_y=area.y + (area.h - block_h) / 2))
    if not candidates:
        return None
    if count is not None:
        def rank(grid: Grid) -> tuple[float, ...]:
            # Enough for every piece left and as low as possible; else the most.
            if grid.capacity >= count:
                return (0, grid.block_h, -grid.capacity)
            return (1, -grid.capacity, grid.block_h)
        return min(candidates, key=rank)
    best = candidates[0]
    for grid in candidates[1:]:
        if grid.capacity > best.capacity:
            best = grid
    return best


def fit_grid(page_w: float, page_h: float, piece_w: float, piece_h: float,
             *, bleed: float, allow_rotate: bool = True, gutter: bool = False) -> Grid | None:
    """The grid that holds the most pieces on a usual sheet, or None if one does not fit.

    >>> g = fit_grid(210, 297, 63.5, 88.9, bleed=3)
    >>> (g.cols, g.rows, g.gap_x, g.rotated)
    (3, 3, 0.0, False)
    """
    return grid_in(printable_area(page_w, page_h), piece_w, piece_h, bleed, allow_rotate=allow_rotate,
                   gutter=gutter)


def mirror_for_long_edge(box: Box, page_w: float, offset: tuple[float, float] = (0.0, 0.0)) -> Box:
    """Where the back of ``box`` goes so it lands behind the front after a long-edge flip.

    >>> mirror_for_long_edge(Box(10, 20, 60, 90), 210).x
    140.0
    """
    return Box(page_w - box.x - box.w + offset[0], box.y + offset[1], box.w, box.h)


def mirror_across(box: Box, fold: "Mark") -> Box:
    """The mirror image of ``box`` across a vertical or horizontal fold line.

    >>> mirror_across(Box(10, 20, 60, 90), Mark(105, 0, 105, 297))
    Box(x=140, y=20, w=60, h=90)
    """
    if fold.x1 == fold.x2:
        return Box(2 * fold.x1 - box.x - box.w, box.y, box.w, box.h)
    return Box(box.x, 2 * fold.y1 - box.y - box.h, box.w, box.h)


class Mark(NamedTuple):
    """A crop mark segment from (x1, y1) to (x2, y2), in mm."""

    x1: float
    y1: float
    x2: float
    y2: float


class Side(NamedTuple):
    """One side of a block of pieces: the bleed printed there and where its marks run.

    ``marks`` is (start, end), in mm out from the trims, or None when there is
    no room for a mark on that side.
    """

    bleed: float
    marks: tuple[float, float] | None


def side_room(room: float, bleed: float, bleed_room: float | None = None) -> Side:
    """What fits beyond a block's trims: its bleed, and a mark up to ``room`` mm out.

    The bleed is full unless ``bleed_room`` (how far the print may reach there:
    to a neighbour's bleed, or to the footer) is less. The mark starts beyond the
    bleed when there is room for it there; otherwise it is drawn over the outer
    part of the bleed, ending ``room`` mm out; with less room than
    :data:`MARK_ROOM`, there is no mark on that side.

    >>> side_room(20, 3)
    Side(bleed=3, marks=(3.5, 8.5))
    >>> side_room(3.0, 3)      # an 8 mm margin less the 5 mm the printer may not reach
    Side(bleed=3, marks=(0.5, 3.0))
    >>> side_room(3.0, 3, 3.0)  # half of a 6 mm gutter between two blocks
    Side(bleed=3, marks=(0.5, 3.0))
    >>> side_room(0, 3, 0)     # two blocks sharing a cut line
    Side(bleed=0.0, marks=None)
    """
    printed = bleed if bleed_room is None else max(0.0, min(bleed, bleed_room))
    if room < MARK_ROOM - EPS:
        return Side(printed, None)
    start = max(MARK_GAP, printed + MARK_CLEAR)
    if start + MARK_MIN_LENGTH > room + EPS:
        start = max(MARK_TIP, room - MARK_MIN_LENGTH)
    return Side(printed, (start, min(start + MARK_LENGTH, room)))


def block_marks(trims: list[Box], sides: dict[str, Side]) -> list[Mark]:
    """Marks that extend every cut line of a block of pieces, on each side that has room.

    ``sides`` maps "left", "bottom", "right", "top" to the side's :class:`Side`.
    """
    if not trims:
        return []
    left = min(t.x for t in trims)
    right = max(t.right for t in trims)
    bottom = min(t.y for t in trims)
    top = max(t.top for t in trims)
    xs = sorted({round(v, 4) for t in trims for v in (t.x, t.right)})
    ys = sorted({round(v, 4) for t in trims for v in (t.y, t.top)})
    marks: list[Mark] = []
    for x in xs:
        if sides["top"].marks:
            a, b = sides["top"].marks
            marks.append(Mark(x, top + a, x, top + b))
        if sides["bottom"].marks:
            a, b = sides["bottom"].marks
            marks.append(Mark(x, bottom - a, x, bottom - b))
    for y in ys:
        if sides["right"].marks:
            a, b = sides["right"].marks
            marks.append(Mark(right + a, y, right + b, y))
        if sides["left"].marks:
            a, b = sides["left"].marks
            marks.append(Mark(left - a, y, left - b, y))
    return marks
