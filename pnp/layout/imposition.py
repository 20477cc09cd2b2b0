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
run nearer the edge.

Crop marks. Every cut line has a mark at one end at least, drawn on white
paper beyond the printed bleed and at least :data:`MARK_MIN_LENGTH` long.
Where the margin is too narrow for a mark beyond the full bleed, the front's
bleed on that side is cut back to make room (to :data:`FRONT_BLEED_MIN` at the
least); backs carry no marks and keep their whole bleed. Trims therefore keep
:data:`CUT_MARGIN` from the paper's edges (more above the footer): room for the
shortest mark beyond the least bleed.
"""

from __future__ import annotations

import math
from functools import lru_cache

from pnp.core.records import NamedTuple

MARGIN = 8.0          # where the texts of a page (cover, alignment sheet, footer) start from the paper edge
PRINTABLE = 5.0       # no mark, footer or text nearer the paper edge (what home printers reach)
TEXT_EDGE = PRINTABLE
#: The usual frame's footer: its lines, its bar and their ink lie between
#: PRINTABLE and FOOTER_TOP mm above the bottom edge; trims start at FOOTER_BAND.
FOOTER_TOP = 10.6
FOOTER_BAND = 13.0
MARK_GAP = 3.0        # crop marks start at least this far from a trim when there is room
MARK_CLEAR = 0.5      # and this far beyond the bleed
MARK_TIGHT = 0.25     # or, where room is short, this far beyond a front's bleed cut back for them
MARK_LENGTH = 5.0
MARK_MIN_LENGTH = 2.5
#: The least bleed a front keeps where its margin must also hold a mark (a back keeps its whole bleed).
FRONT_BLEED_MIN = 1.0
#: The least room beyond a trim that holds a mark: the least bleed, the clearance and the shortest mark.
MARK_ROOM = FRONT_BLEED_MIN + MARK_TIGHT + MARK_MIN_LENGTH
#: The least distance from the paper edge to a trim: a mark's room beyond what printers do not reach.
CUT_MARGIN = PRINTABLE + MARK_ROOM
#: The side frame (pieces that need the paper's height): the footer is turned in
#: lanes from PRINTABLE to SIDE_LANE mm from the left and right edges; marks and
#: bleed stay beyond them, and trims start SIDE_BAND mm from those edges.
SIDE_LANE = 7.9
SIDE_BAND = SIDE_LANE + MARK_ROOM
#: A hidden piece (dealt, played face down) keeps its trim this far from every edge: a
#: millimetre of its back's bleed prints past the 5 mm a home printer may leave blank.
HIDDEN_EDGE = PRINTABLE + 1.0
MARK_TIP = 0.2        # a mark between regions starts at least this far from the nearest trim
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
    the height); ``page`` is the paper, on which pieces are centred as far as
    the area allows (None: centred in the area).
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
    page: Box | None = None

    def centred(self, width: float, height: float) -> tuple[float, float]:
        """The bottom-left corner of a block of pieces this size: centred on the paper,
        moved no further than it must to stay in the area.

        >>> [round(v, 2) for v in bottom_frame(210, 297).centred(190.5, 266.7)]
        [9.75, 15.15]
        >>> [round(v, 2) for v in bottom_frame(215.9, 279.4).centred(177.8, 254.0)]
        [19.05, 13.0]
        """
        middle = self.page or self.area
        return (_within(middle.x + (middle.w - width) / 2, self.area.x, self.area.right - width),
                _within(middle.y + (middle.h - height) / 2, self.area.y, self.area.top - height))


def _within(start: float, low: float, high: float) -> float:
    """``start`` moved into [low, high] (to ``low`` if the range is empty)."""
    return max(low, min(start, high)) if high >= low else low


def printable_area(page_w: float, page_h: float) -> Box:
    """Where trims may go: inside the margin and above the footer band.

    >>> printable_area(210, 297)
    Box(x=8.75, y=13.0, w=192.5, h=275.25)
    """
    return Box(CUT_MARGIN, FOOTER_BAND, page_w - 2 * CUT_MARGIN, page_h - CUT_MARGIN - FOOTER_BAND)


def bottom_frame(page_w: float, page_h: float) -> Frame:
    """The usual sheet: a margin that holds a mark beyond the bleed, the footer in a band at the bottom.

    >>> bottom_frame(210, 297).area
    Box(x=8.75, y=13.0, w=192.5, h=275.25)
    """
    above_footer = FOOTER_TOP + 0.2
    return Frame(printable_area(page_w, page_h),
                 Box(PRINTABLE, above_footer, page_w - 2 * PRINTABLE, page_h - PRINTABLE - above_footer),
                 "bottom", Box(0.0, above_footer, page_w, page_h - above_footer), page=Box(0.0, 0.0, page_w, page_h))


def side_frame(page_w: float, page_h: float) -> Frame:
    """A sheet whose pieces need the height: trims up to a mark's room from the top and
    bottom edges, the footer turned in the side margins (wide enough for it, the marks
    and the bleed).

    Eight poker cards turned a quarter are 254 mm tall: on Letter (279.4 mm) they lie
    12.7 mm from the top and the bottom edges, with the footer in the side margins.

    >>> side_frame(215.9, 279.4).area.rounded()
    Box(x=11.65, y=8.75, w=192.6, h=261.9)
    """
    return Frame(Box(SIDE_BAND, CUT_MARGIN, page_w - 2 * SIDE_BAND, page_h - 2 * CUT_MARGIN),
                 Box(SIDE_LANE, PRINTABLE, page_w - 2 * SIDE_LANE, page_h - 2 * PRINTABLE),
                 "side", Box(SIDE_LANE, 0.0, page_w - 2 * SIDE_LANE, page_h), page=Box(0.0, 0.0, page_w, page_h))


def page_frames(page_w: float, page_h: float) -> tuple[Frame, Frame]:
    """The frames a sheet may use, the usual one first."""
    return bottom_frame(page_w, page_h), side_frame(page_w, page_h)


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


# Pure, and asked the same question for every sheet of a deck (by the packing, for each
# frame a new sheet may take, and for the room left below each region): answered once.
# Typed, so that 3 and 3.0 never share an answer (a grid keeps the bleed's type in its gaps).
@lru_cache(maxsize=1024, typed=True)
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
    """One side of a block of pieces: the bleed its fronts print there, where its marks run,
    and the bleed its backs print there.

    ``marks`` is (start, end), in mm out from the trims, or None when there is
    no room for a mark on that side. A front's bleed may be cut back to make
    room for its marks; a back's never is (backs carry no marks).
    """

    bleed: float
    marks: tuple[float, float] | None
    back: float = 0.0


def side_room(room: float, bleed: float, bleed_room: float | None = None) -> Side:
    """What fits beyond a block's trims: its bleed, and a mark up to ``room`` mm out.

    The bleed is full unless ``bleed_room`` (how far the print may reach there:
    to a neighbour's bleed, or to the footer) is less. The mark starts beyond the
    bleed when there is room for it there; otherwise the fronts' bleed on that side
    is cut back to make room for the shortest mark beyond it, down to
    :data:`FRONT_BLEED_MIN`; with less room than that, there is no mark on that side.
    A mark never lies on the printed bleed.

    >>> side_room(20, 3)
    Side(bleed=3, marks=(3.5, 8.5), back=3)
    >>> side_room(4.75, 3)      # 9.75 mm beside three poker cards on A4, less the 5 mm the printer may not reach
    Side(bleed=2.0, marks=(2.25, 4.75), back=3)
    >>> side_room(3.0, 3)       # an 8 mm margin: no mark beyond a bleed of 1 mm or more
    Side(bleed=3, marks=None, back=3)
    >>> side_room(0, 3, 0)      # two blocks sharing a cut line
    Side(bleed=0.0, marks=None, back=0.0)
    """
    printed = bleed if bleed_room is None else max(0.0, min(bleed, bleed_room))
    if room + EPS >= printed + MARK_CLEAR + MARK_MIN_LENGTH:
        start = max(MARK_GAP, printed + MARK_CLEAR)
        if start + MARK_MIN_LENGTH > room + EPS:
            start = printed + MARK_CLEAR
        return Side(printed, (start, min(start + MARK_LENGTH, room)), printed)
    front = room - MARK_TIGHT - MARK_MIN_LENGTH
    if front + EPS >= min(printed, FRONT_BLEED_MIN):
        front = max(0.0, min(printed, round(front, 6)))
        return Side(front, (front + MARK_TIGHT, room), printed)
    return Side(printed, None, printed)


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
