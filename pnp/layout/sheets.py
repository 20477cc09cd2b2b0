"""Sheets of paper: which pieces share a sheet, and where each one goes on it.

Pure computation in mm, from the page's bottom-left. Pieces that print the
same way (all with a back, or all one-sided) are laid out together, in
template order, and pieces of different components share a sheet when there
is room. Cutting stays simple: a sheet is a stack of *regions*, each a grid
of one piece size (several components of one size share a grid), regions
side by side never; no piece reaches into another's bleed, and every cut
line has a crop mark at one end at least. A page that may shrink (a
scoresheet) goes below the regions of a sheet at the height the room there
leaves, if its contents still hold at that height; alone, it keeps its size.

A sheet uses the usual frame (an 8 mm margin, the footer at the bottom) or,
when that holds more, the side frame (trims to a quarter inch from the top and
bottom edges, the footer turned in the side margins): nine poker cards on US
Letter.
"""

from __future__ import annotations

import math
from typing import Callable, Iterable, NamedTuple, Sequence

from pnp.layout.boards import Part
from pnp.layout.imposition import (EPS, MARK_CLEAR, MARK_LENGTH, MARK_MIN_LENGTH, Box,
                                   Frame, Grid, Mark, Side, block_marks, grid_in, side_room)
from pnp.model import Copy

#: Between two regions of a sheet, when there is room: each region's bleed,
#: and a mark beyond it, on either side of the line that parts them.
SEPARATION_MARK = 3.0
#: Room kept above and below a stack of regions before any goes between them.
OUTER_ROOM = 4.5
#: The least strip between two regions that still holds a short mark on each side of its middle.
MARKED_SEPARATION = 2 * (MARK_CLEAR + MARK_MIN_LENGTH)


class Item(NamedTuple):
    """One thing to lay out: a copy of a piece, or one part of a piece too big for a sheet."""

    copy: Copy
    part: Part | None = None

    @property
    def size(self) -> tuple[float, float]:
        """Its size as it lies on the sheet before any quarter turn."""
        if self.part is not None:
            return self.part.sheet_region.w, self.part.sheet_region.h
        return self.copy.component.size

    @property
    def key(self) -> tuple:
        """Items with equal keys share a grid: the same size, turned and spaced alike."""
        if self.part is not None:
            return ("part", self.copy.component.id, self.copy.copy, self.part.index)
        component = self.copy.component
        return ("piece", *component.size, component.rotate, component.gutter, component.cut)


#: Asked for a piece that may shrink (``shrink = true``) and a height: the piece
#: at that height when its contents still hold there, else None.
Shrink = Callable[[Item, float], "Item | None"]


class Placed(NamedTuple):
    """An item's front on its sheet."""

    item: Item
    trim: Box
    printed: Box         # the trim and the bleed printed around it
    rotation: int = 0    # quarter turns counter-clockwise: 0 or 90


class Sheet(NamedTuple):
    """One side of one sheet of paper, laid out."""

    frame: Frame
    placed: tuple[Placed, ...]
    marks: tuple[Mark, ...]
    regions: int


def runs_of(items: Iterable[Item]) -> list[list[Item]]:
    """Items grouped into runs that share a grid, in order of first appearance.

    Five sets of player cards and the one "Hunt Starts Here" card are the same
    size: they make one run, so the lone card fills a free slot of the last
    card sheet rather than a sheet of its own.
    """
    runs: dict[tuple, list[Item]] = {}
    for item in items:
        runs.setdefault(item.key, []).append(item)
    return list(runs.values())


class _Region:
    def __init__(self, key: tuple, grid: Grid, items: list[Item]) -> None:
        self.key, self.grid, self.items = key, grid, items

    @property
    def rows(self) -> int:
        return max(1, math.ceil(len(self.items) / self.grid.cols))

    @property
    def height(self) -> float:
        return self.rows * self.grid.cell_h + (self.rows - 1) * self.grid.gap_y

    @property
    def cut(self) -> bool:
        """False for pages used as printed (a scoresheet, a rules summary): no crop marks."""
        return self.items[0].copy.component.cut

    @property
    def free(self) -> int:
        return self.grid.capacity - len(self.items)


class _Builder:
    """A sheet being filled: regions stacked from the top."""

    def __init__(self, frame: Frame, bleed: float, shrink: Shrink | None = None) -> None:
        self.frame, self.bleed, self.shrink = frame, bleed, shrink
        self.regions: list[_Region] = []
        #: True once a shrunk piece took the room of the strip above it
        self.flush = False

    def take(self, queue: Sequence[Item], start: int = 0) -> int:
        """Lay out as many of ``queue[start:]`` (one run) as fit; return how many."""
        left = len(queue) - start
        if left <= 0:
            return 0
        first = queue[start]
        last = self.regions[-1] if self.regions else None
        if last is not None and last.key == first.key and last.free > 0:
            taken = min(last.free, left)
            last.items.extend(queue[start:start + taken])
            return taken
        used = sum(r.height for r in self.regions)
        room = self.frame.area.h - used
        if len(self.regions) >= 2:
            # A region between two others has no margin for the marks of its upright
            # cuts: the strips that part it from its neighbours must hold them.
            room -= 2 * OUTER_ROOM + len(self.regions) * MARKED_SEPARATION
        if room <= EPS:
            return 0
        component = first.copy.component
        if (component.shrink and first.part is None and self.regions and first.size[1] > room + EPS
                and first.size[0] <= self.frame.area.w + EPS):
            first = self._shrunk(first, room)
            if first is None:
                return 0
            queue = [first]
            start, left = 0, 1
        w, h = first.size
        rotate = component.rotate if first.part is None else False
        gutter = component.gutter if first.part is None else False
        area = self.frame.area
        grid = grid_in(Box(area.x, area.y, area.w, room), w, h, self.bleed, rotate, gutter,
                       count=left)
        if grid is None:
            return 0
        taken = min(grid.capacity, left)
        self.regions.append(_Region(first.key, grid, list(queue[start:start + taken])))
        return taken

    def _shrunk(self, item: Item, room: float) -> Item | None:
        """A piece that may shrink, as tall as it can be below the regions there are:
        with the strips a sheet of several regions keeps (room at the top and foot,
        a bleed and a mark each side of every line between regions), or the least
        of them (a short mark), or, as the second of two regions, none (it then
        shares its top edge with the cut line above it). None when its contents
        need more height than that."""
        if self.shrink is None:
            return None
        free = self.frame.area.h - sum(r.height for r in self.regions)
        gaps = len(self.regions)
        full = 2 * (self.bleed + MARK_CLEAR + SEPARATION_MARK)
        heights = [free - 2 * OUTER_ROOM - gaps * full, free - 2 * OUTER_ROOM - gaps * MARKED_SEPARATION,
                   room]
        for height in heights:
            if height > EPS:
                smaller = self.shrink(item, min(height, item.size[1]))
                if smaller is not None:
                    self.flush = height >= free - EPS
                    return smaller
        return None

    def sheet(self, shapes: dict | None = None) -> Sheet:
        return _finish(self.frame, self.regions, self.bleed, shapes)


def pack(runs: Sequence[Sequence[Item]], frames: Sequence[Frame], bleed: float,
         shrink: Shrink | None = None) -> list[Sheet]:
    """Lay out every run on as few sheets as they need.

    Runs are placed in order; each item goes on the first sheet with room for
    it (at the foot of its last region). A new sheet takes the frame that holds
    the most of what is left to place (the first frame on a tie). A piece that
    may shrink (``shrink`` says at which heights its contents hold) goes below
    the pieces of a sheet, as tall as the room there, rather than on a sheet of
    its own, where it keeps its size.
    """
    builders: list[_Builder] = []
    for index, run in enumerate(runs):
        queue, start = list(run), 0
        for builder in builders:
            if start == len(queue):
                break
            start += builder.take(queue, start)
        while start < len(queue):
            chosen = _Builder(_frame_for(frames, queue, start, runs[index + 1:], bleed, shrink), bleed,
                              shrink)
            taken = chosen.take(queue, start)
            if taken == 0:
                w, h = queue[start].size
                raise ValueError(f"a {w:g} x {h:g} mm piece does not fit a sheet")
            builders.append(chosen)
            start += taken
    # Sheets laid out alike (every full sheet of a deck) share their boxes and marks.
    shapes: dict = {}
    return [b.sheet(shapes) for b in builders]


def _frame_for(frames: Sequence[Frame], queue: list[Item], start: int,
               later: Sequence[Sequence[Item]], bleed: float, shrink: Shrink | None = None) -> Frame:
    """The frame a new sheet takes: the one that holds the most of what is left
    (the run from ``queue[start]``, then the later runs) by area, then the one
    whose regions all keep a strip between them, the first on a tie."""
    if len(frames) == 1:
        return frames[0]
    first, left = queue[start], len(queue) - start
    w, h = first.size
    component = first.copy.component
    rotate = component.rotate if first.part is None else False
    gutter = component.gutter if first.part is None else False
    grids = [grid_in(f.area, w, h, bleed, rotate, gutter) for f in frames]
    capacities = [g.capacity if g is not None else 0 for g in grids]
    if all(c < left for c in capacities):
        # The run fills the sheet whichever frame it takes: the one with the
        # most room for it wins, and nothing else joins that sheet.
        best = max(range(len(frames)), key=lambda i: (capacities[i], -i))
        return frames[best]
    remaining = [queue[start:]] + [list(r) for r in later]
    best = max(range(len(frames)), key=lambda i: (_trial(frames[i], remaining, bleed, shrink), -i))
    return frames[best]


def _trial(frame: Frame, runs: list[list[Item]], bleed: float,
           shrink: Shrink | None = None) -> tuple[float, bool]:
    """How much of ``runs`` (by area) one fresh sheet with this frame would hold,
    and whether every region keeps a strip between it and the next."""
    builder = _Builder(frame, bleed, shrink)
    placed = 0.0
    for run in runs:
        taken = builder.take(run)
        if taken:
            w, h = run[0].size   # a shrunk piece counts whole: it is placed either way
            placed += taken * w * h
        if taken < len(run):
            # A run that did not fit whole ends the sheet: later runs do not jump it.
            break
    return round(placed, 3), not builder.flush


def _finish(frame: Frame, regions: list[_Region], bleed: float, shapes: dict | None = None) -> Sheet:
    """Stack the regions, centred in the frame, and work out bleeds and marks.

    ``shapes`` keeps what sheets laid out alike share (the same frame, grids and
    counts): their slots' boxes and their marks, worked out once.
    """
    items = [item for region in regions for item in region.items]
    key = None
    if shapes is not None and all(region.items[0].part is None for region in regions):
        key = (frame, tuple((r.grid, r.rows, len(r.items), r.cut) for r in regions))
        shared = shapes.get(key)
        if shared is not None:
            slots, marks = shared
            return Sheet(frame, tuple(Placed(item, *slot) for item, slot in zip(items, slots)), marks,
                         len(regions))
    sheet = _shape(frame, regions, bleed)
    if key is not None:
        shapes[key] = (tuple(p[1:] for p in sheet.placed), sheet.marks)
    return sheet


def _shape(frame: Frame, regions: list[_Region], bleed: float) -> Sheet:
    area, limits = frame.area, frame.limits
    heights = [r.height for r in regions]
    spare = max(0.0, area.h - sum(heights))
    gaps = len(regions) - 1
    # The outer margins keep what a full sheet of one grid would have; what is
    # left parts the regions (enough for a bleed and a mark on each side).
    separation = min(2 * (bleed + MARK_CLEAR + SEPARATION_MARK),
                     max(0.0, spare - 2 * OUTER_ROOM) / gaps) if gaps else 0.0
    top = area.top - (spare - separation * gaps) / 2
    placed: list[Placed] = []
    marks: list[Mark] = []
    printed_sides: list[tuple[float, float]] = []   # (left, right) of each region's print
    for index, region in enumerate(regions):
        grid = region.grid._replace(rows=region.rows)
        bottom = top - heights[index]
        grid = grid._replace(origin_y=bottom, origin_x=area.x + (area.w - grid.block_w) / 2)
        room_top = limits.top - top if index == 0 else separation / 2
        room_bottom = bottom - limits.y if index == len(regions) - 1 else separation / 2
        room_left = grid.origin_x - limits.x
        room_right = limits.right - (grid.origin_x + grid.block_w)
        part = region.items[0].part
        if part is not None:
            seams = {s.side: s for s in part.seams}
            overlap = region.items[0].copy.component.overlap
            # An "over" edge is cut along the middle of its strip: its marks go there.
            inset = {side: overlap / 2 if side in seams and seams[side].over else 0.0
                     for side in ("left", "bottom", "right", "top")}
            sides = {
                side: (Side(0.0, side_room(room + inset[side], bleed).marks) if side in seams
                       else side_room(room, bleed))
                for side, room in (("left", room_left), ("bottom", room_bottom),
                                   ("right", room_right), ("top", room_top))
            }
            trim = grid.trim(0)
            cut = Box(trim.x + inset["left"], trim.y + inset["bottom"],
                      trim.w - inset["left"] - inset["right"], trim.h - inset["bottom"] - inset["top"])
            outer = (sides["left"].bleed, sides["bottom"].bleed, sides["right"].bleed, sides["top"].bleed)
            placed.append(Placed(region.items[0], trim, trim.grow(*outer), 90 if part.rotated else 0))
            if region.cut:
                marks += block_marks([cut], sides)
        else:
            sides = {"left": side_room(room_left, bleed), "bottom": side_room(room_bottom, bleed),
                     "right": side_room(room_right, bleed), "top": side_room(room_top, bleed)}
            outer = (sides["left"].bleed, sides["bottom"].bleed, sides["right"].bleed, sides["top"].bleed)
            trims = []
            for slot, item in enumerate(region.items):
                trim = grid.trim(slot)
                trims.append(trim)
                placed.append(Placed(item, trim, trim.grow(*grid.bleed_sides(slot, bleed, outer)),
                                     90 if grid.rotated else 0))
            if region.cut:
                marks += block_marks(trims, sides)
        printed_sides.append((grid.origin_x - outer[0], grid.origin_x + grid.block_w + outer[2]))
        top = bottom - separation
    if gaps and separation >= 2 * (MARK_CLEAR + MARK_MIN_LENGTH):
        # Where to part the regions first, so each keeps the marks on its side.
        left = min(a for a, _ in printed_sides) - MARK_CLEAR
        right = max(b for _, b in printed_sides) + MARK_CLEAR
        y = area.top - (spare - separation * gaps) / 2
        for index in range(gaps):
            y -= heights[index]
            middle = y - separation / 2
            if left - limits.x >= MARK_MIN_LENGTH:
                marks.append(Mark(left, middle, max(limits.x, left - MARK_LENGTH), middle))
            if limits.right - right >= MARK_MIN_LENGTH:
                marks.append(Mark(right, middle, min(limits.right, right + MARK_LENGTH), middle))
            y -= separation
    return Sheet(frame, tuple(placed), tuple(marks), len(regions))
