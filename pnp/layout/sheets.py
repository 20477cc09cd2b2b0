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

Backs. A double-sided print lands each back up to a millimetre off its front,
differently on every sheet, so a cut along the front's trim shows a strip of
whatever was printed beside the back. Pieces whose backs are the same (the
cards of one deck) may share a cut; pieces whose backs differ never do: a
region holds one back (its pieces may share cuts) or several, with a gutter of
twice the bleed between every two pieces, and regions with different backs
are parted by such a strip at least. So every back keeps its own full bleed
wherever a neighbour's back differs.

A sheet uses the usual frame (an 8 mm margin, the footer at the bottom) or,
when that holds more, the side frame (trims up to the printable area at the
top and bottom, the footer turned in the side margins): nine poker cards on
US Letter.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Sequence

from pnp.core.records import NamedTuple
from pnp.layout.imposition import (EPS, FRONT_BLEED_MIN, MARK_CLEAR, MARK_LENGTH, MARK_MIN_LENGTH, MARK_TIGHT,
                                   MARK_TIP, Box,
                                   Frame, Grid, Mark, Side, block_marks, grid_in, side_room)
from pnp.template.model import Copy

if TYPE_CHECKING:
    from pnp.layout.boards import Part

#: Between two regions of a sheet, when there is room: each region's bleed,
#: and a mark beyond it, on either side of the line that parts them.
SEPARATION_MARK = 3.0
#: Room kept above and below a stack of regions before any goes between them.
OUTER_ROOM = 4.5
#: The least strip above a region to cut: the fronts' least bleed on each side of it and,
#: between them, the shortest mark of the lower region's upright cuts, clear of both.
MARKED_SEPARATION = 2 * FRONT_BLEED_MIN + 2 * MARK_TIGHT + MARK_MIN_LENGTH


class Item(NamedTuple):
    """One thing to lay out: a copy of a piece, or one part of a piece too big for a sheet."""

    copy: Copy
    part: Part | None = None
    #: Which back it prints: items with the same number print the same back and
    #: may share a cut; None for a piece printed on one side.
    back: int | None = None
    #: A hidden deck's one orientation on every sheet (True: a quarter turn), so a
    #: printer's drift moves all its backs alike; None: as the sheet fits best.
    turn: bool | None = None

    @property
    def size(self) -> tuple[float, float]:
        """Its size as it lies on the sheet before any quarter turn."""
        if self.part is not None:
            return self.part.sheet_region.w, self.part.sheet_region.h
        return self.copy.component.size

    @property
    def turns(self) -> tuple[bool, ...]:
        """The orientations it may take on a sheet."""
        if self.part is not None:
            return (False,)
        if self.turn is not None:
            return (self.turn,)
        return (False, True) if self.copy.component.rotate else (False,)

    @property
    def key(self) -> tuple[object, ...]:
        """Items with equal keys share a grid: the same size, turned and spaced alike (a key
        compared whole, never read part by part)."""
        if self.part is not None:
            return ("part", self.copy.component.id, self.copy.copy, self.part.index)
        component = self.copy.component
        return ("piece", *component.size, self.turns, component.gutter, component.cut)


def block_of(items: Sequence[Item], start: int, most: int | None = None) -> int:
    """How many items from ``start`` on print the same back as the first (``most`` at most)."""
    back = items[start].back
    stop = len(items) if most is None else min(len(items), start + most)
    end = start + 1
    while end < stop and items[end].back == back:
        end += 1
    return end - start


#: Asked for a piece that may shrink (``shrink = true``) and a height: the piece
#: at that height when its contents still hold there, else None.
Shrink = Callable[[Item, float], "Item | None"]


class Placed(NamedTuple):
    """An item's front on its sheet."""

    item: Item
    trim: Box
    printed: Box         # the trim and the bleed printed around it
    rotation: int = 0    # quarter turns counter-clockwise: 0 or 90
    #: The trim and the bleed its back prints, where that is more than the front's (a front's
    #: bleed gives way to its crop marks; a back carries none); None: as ``printed``.
    back: Box | None = None


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
    before: Item | None = None
    for item in items:
        # A whole piece's key is its component's and its turn's: the same as the item before's
        # when both are of one component, as the pieces of a deck are (one key made per deck).
        if before is None or item.part is not None or before.part is not None or item.turn != before.turn \
                or item.copy.component is not before.copy.component:
            run = runs.setdefault(item.key, [])
        run.append(item)
        before = item
    return list(runs.values())


#: How many steps :func:`spread` tries at most (the shipped kits' decks find their best in
#: the first two: rows and columns of one kind are then none).
SPREAD_TRIES = 12


def spread(kinds: Sequence, cols: int, per_sheet: int) -> list[int]:
    """Where each piece of a deck goes in its print order, given what each one is
    (``kinds``, in template order) and the sheet it is laid on (``per_sheet``
    pieces, ``cols`` to a row): consecutive pieces (the copies of one card, the
    cards of one kind) land far apart, on different rows, columns and sheets,
    always the same way.

    The n-th piece goes to place n x step (mod the count), for a step that shares
    no factor with it: of the :data:`SPREAD_TRIES` such steps nearest 0.618 x the
    count, the one that leaves fewest rows and columns of three or more all one
    kind (the same cut would give them away), the nearest on a tie. Each step
    tried costs a pass over the deck, so a deck of thousands costs a few passes,
    not one per step (a deck of one kind is as alike whatever the step: one).

    >>> spread(["hunter", "wolf", "wolf", "rabbit", "rabbit", "rabbit"], 3, 9)
    [0, 5, 4, 3, 2, 1]
    """
    count = len(kinds)
    if count < 3:
        return list(range(count))
    ideal = count * (math.sqrt(5) - 1) / 2
    best: tuple[int, list[int]] | None = None
    steps = sorted((s for s in range(1, count) if math.gcd(s, count) == 1), key=lambda s: (abs(s - ideal), s))
    for step in steps[:1 if len(set(kinds)) == 1 else SPREAD_TRIES]:
        places = [n * step % count for n in range(count)]
        order = [None] * count
        for n, place in enumerate(places):
            order[place] = kinds[n]
        score = _alike_lines(order, cols, per_sheet)
        if best is None or score < best[0]:
            best = (score, places)
        if score == 0:
            break
    assert best is not None
    return best[1]


def _alike_lines(order: Sequence, cols: int, per_sheet: int) -> int:
    """How many rows and columns of three pieces and more hold only one kind."""
    alike = 0
    for start in range(0, len(order), max(per_sheet, 1)):
        sheet = order[start:start + per_sheet]
        lines = [sheet[i:i + cols] for i in range(0, len(sheet), cols)] + [sheet[c::cols] for c in range(cols)]
        alike += sum(1 for line in lines if len(line) >= 3 and len(set(line)) == 1)
    return alike


def dealt(runs: Sequence[Sequence[Item]], frames: Sequence[Frame], bleed: float,
          rows: bool = True) -> list[list[Item]]:
    """Items with backs, ordered for packing.

    A hidden deck (the pieces of a hidden component with one back) takes one
    orientation, the one that puts most of its size on a fresh sheet, and pieces
    of its size that may turn take it too; its pieces are spread
    (:func:`spread`), so no row, column or sheet sorts them by kind. Then each
    size's pieces go: every deck's whole sheets first, then (with ``rows``)
    its whole rows, then what is left of every deck, together, where pieces
    of different backs are parted by gutters.
    """
    items = [item for run in runs for item in run]
    turns: dict[tuple[float, float], bool] = {}
    for item in items:
        component = item.copy.component
        if component.hidden and item.part is None and component.size not in turns:
            turns[component.size] = best_turn(item, frames, bleed)
    settled = []
    for item in items:
        component = item.copy.component
        if item.part is None and item.back is not None and component.size in turns and \
                (component.hidden or component.rotate):
            item = item._replace(turn=turns[component.size])
        settled.append(item)
    out = []
    for run in runs_of(settled):
        decks: dict[int | None, list[Item]] = {}
        for item in run:
            decks.setdefault(item.back, []).append(item)
        if len(decks) == 1 and None in decks:
            out.append(run)
            continue
        first = run[0]
        w, h = first.size
        gutter = first.copy.component.gutter if first.part is None else False
        grids = [g for g in (grid_in(f.area, w, h, bleed, gutter=gutter, turns=first.turns, least=f.gap)
                                    for f in frames)
                 if g is not None]
        if not grids or first.part is not None:
            out.append(run)
            continue
        grid = max(grids, key=lambda g: g.capacity)
        sheets: list[Item] = []
        whole_rows: list[Item] = []
        rest: list[Item] = []
        for deck in decks.values():
            if deck[0].copy.component.hidden:
                order = spread([item.copy.piece.index for item in deck], grid.cols, grid.capacity)
                placed: list[Item] = [deck[0]] * len(deck)
                for index, place in enumerate(order):
                    placed[place] = deck[index]
                deck = placed
            whole = len(deck) // grid.capacity * grid.capacity
            lines = (len(deck) - whole) // grid.cols * grid.cols if rows else len(deck) - whole
            sheets += deck[:whole]
            whole_rows += deck[whole:whole + lines]
            rest += deck[whole + lines:]
        out.append(sheets + whole_rows + rest)
    return out


def best_turn(item: Item, frames: Sequence[Frame], bleed: float) -> bool:
    """The orientation that holds the most pieces of the item's size on a fresh sheet (upright on a tie)."""
    w, h = item.size
    component = item.copy.component
    best, most = False, -1
    for turn in (False, True):
        for frame in frames:
            grid = grid_in(frame.area, w, h, bleed, gutter=component.gutter, turns=(turn,), least=frame.gap)
            if grid is not None and grid.capacity > most:
                best, most = turn, grid.capacity
    return best


class _Region:
    def __init__(self, key: tuple, grid: Grid, items: list[Item], mixed: bool = False) -> None:
        self.key, self.grid, self.items = key, grid, items
        #: Pieces of several backs, a gutter between every two; else one back, shared cuts.
        self.mixed = mixed

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

    @property
    def width(self) -> float:
        """How wide its pieces lie: a region of one row as wide as the pieces it holds."""
        cols = min(self.grid.cols, len(self.items))
        return cols * self.grid.cell_w + (cols - 1) * self.grid.gap_x

    def takes(self, item: Item) -> bool:
        """Whether the item may fill one of the region's free slots."""
        return self.mixed or item.back == self.items[0].back


class _Builder:
    """A sheet being filled: regions stacked from the top.

    ``strip`` is the least room between two regions: twice the bleed on a
    sheet whose backs are printed (regions hold different backs), none on a
    one-sided sheet.
    """

    def __init__(self, frame: Frame, bleed: float, shrink: Shrink | None = None, strip: float = 0.0) -> None:
        # A cutting machine's sheet keeps its least gap between regions too.
        self.frame, self.bleed, self.shrink, self.strip = frame, bleed, shrink, max(strip, frame.gap)
        self.regions: list[_Region] = []
        #: A column of smaller pieces beside the stack of regions, where its width leaves room
        self.beside: _Region | None = None
        #: True once a shrunk piece took the room of the strip above it
        self.flush = False

    def take(self, queue: Sequence[Item], start: int = 0) -> int:
        """Lay out as many of ``queue[start:]`` (one run) as fit; return how many."""
        left = len(queue) - start
        if left <= 0:
            return 0
        first = queue[start]
        if self.beside is not None:
            return self._more_beside(queue, start)
        last = self.regions[-1] if self.regions else None
        if last is not None and last.key == first.key and last.free > 0:
            taken, most = 0, min(last.free, left)
            while taken < most and last.takes(queue[start + taken]):
                taken += 1
            if taken:
                last.items.extend(queue[start:start + taken])
                return taken
        used = sum(r.height for r in self.regions) + sum(self.strip_above(r.cut) for r in self.regions[1:])
        room = self.frame.area.h - used - (self.strip_above(first.copy.component.cut) if self.regions else 0.0)
        if room <= EPS:
            return self._column(queue, start)
        component = first.copy.component
        if (component.shrink and first.part is None and self.regions and first.size[1] > room + EPS
                and first.size[0] <= self.frame.area.w + EPS):
            first = self._shrunk(first, room)
            if first is None:
                return 0
            queue = [first]
            start, left = 0, 1
            # The regions above may have drawn closer to make room for it.
            room = max(room, self.frame.area.h - sum(r.height for r in self.regions)
                       - sum(self.strip_above(r.cut) for r in self.regions[1:]) - self.strip)
        w, h = first.size
        gutter = component.gutter if first.part is None else False
        area = self.frame.area
        space = Box(area.x, area.y, area.w, room)
        full = grid_in(space, w, h, self.bleed, gutter=gutter, turns=first.turns, least=self.frame.gap)
        if full is None:
            return self._column(queue, start)
        block = block_of(queue, start, full.capacity)
        grid = grid_in(space, w, h, self.bleed, gutter=gutter, count=block, turns=first.turns,
                       least=self.frame.gap)
        row = full.cols
        if first.back is not None and block < row:
            # Less than a row of this back: with the small blocks of other backs
            # after it, in a grid whose every piece keeps its own bleed.
            end = start + block
            while end < len(queue) and end - start < full.capacity:
                size = block_of(queue, end, row)
                if size >= row:
                    break
                end += size
            if end - start > block:
                mixed = grid_in(space, w, h, self.bleed, gutter=True, count=end - start, turns=first.turns,
                                least=self.frame.gap)
                if mixed is not None:
                    taken = min(mixed.capacity, end - start)
                    self.regions.append(_Region(first.key, mixed, list(queue[start:start + taken]), True))
                    return taken
        taken = min(grid.capacity, block)
        self.regions.append(_Region(first.key, grid, list(queue[start:start + taken])))
        return taken

    def beside_gap(self) -> float:
        """Between the stack of regions and a column beside it: each side's whole bleed."""
        return max(self.strip, 2 * self.bleed)

    def width(self) -> float:
        """How wide the sheet's pieces lie, a column beside the stack included."""
        stack = max((r.width for r in self.regions), default=0.0)
        if self.beside is None:
            return stack
        return stack + self.beside_gap() + self.beside.width

    def _column(self, queue: Sequence[Item], start: int) -> int:
        """Lay out what the stack of regions has no room for below it in a column beside it,
        if the stack leaves the frame's width for one: a few small pieces then share a sheet
        rather than take one of their own. Return how many."""
        first = queue[start]
        component = first.copy.component
        if (not self.regions or first.part is not None or component.shrink or self.flush
                or any(r.items[0].part is not None for r in self.regions)):
            return 0
        room = self.frame.area.w - max(r.width for r in self.regions) - self.beside_gap()
        if room <= EPS:
            return 0
        w, h = first.size
        left = len(queue) - start
        space = Box(0.0, 0.0, room, self.frame.area.h)
        grid = grid_in(space, w, h, self.bleed, gutter=component.gutter, count=left, turns=first.turns,
                       least=self.frame.gap)
        if grid is None:
            return 0
        taken = min(grid.capacity, left)
        mixed = len({item.back for item in queue[start:start + taken]}) > 1
        if mixed:
            # Pieces of several backs: a gutter between every two, as in a mixed region.
            grid = grid_in(space, w, h, self.bleed, gutter=True, count=left, turns=first.turns,
                           least=self.frame.gap)
            if grid is None:
                return 0
            taken = min(grid.capacity, left)
        self.beside = _Region(first.key, grid, list(queue[start:start + taken]), mixed)
        return taken

    def _more_beside(self, queue: Sequence[Item], start: int) -> int:
        """Fill the column's free slots with more of its run."""
        column, first = self.beside, queue[start]
        if column.key != first.key:
            return 0
        taken, most = 0, min(column.free, len(queue) - start)
        while taken < most and column.takes(queue[start + taken]):
            taken += 1
        column.items.extend(queue[start:start + taken])
        return taken

    def strip_above(self, cut: bool) -> float:
        """The least strip above a region below the first: room for the marks of its upright
        cuts at their top when it is cut (its foot may lie on the footer's band)."""
        return max(self.strip, MARKED_SEPARATION) if cut else self.strip

    def fill(self, queue: Sequence[Item], start: int = 0) -> int:
        """Lay out as much of ``queue[start:]`` as fits, region after region; return how many."""
        taken = 0
        while start + taken < len(queue):
            more = self.take(queue, start + taken)
            if not more:
                break
            taken += more
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
        last = self.regions[-1]
        first = last.items[0]
        if last.grid.gap_y > EPS and last.rows > 1 and first.back is None and first.part is None \
                and not first.copy.component.gutter and self.frame.gap <= EPS:
            # One-sided pieces above may share their cuts across rather than keep a gutter
            # between rows: the room that gives, if the page holds there.
            saved = (last.rows - 1) * last.grid.gap_y
            smaller = self.shrink(item, min(room + saved, item.size[1]))
            if smaller is not None:
                last.grid = last.grid._replace(gap_y=0.0)
                self.flush = True
                return smaller
        return None

    def sheet(self, shapes: dict | None = None) -> Sheet:
        return _finish(self.frame, self.regions, self.bleed, shapes, strip=self.strip, beside=self.beside)


def pack(runs: Sequence[Sequence[Item]], frames: Sequence[Frame], bleed: float,
         shrink: Shrink | None = None) -> list[Sheet]:
    """Lay out every run on as few sheets as they need.

    Runs are placed in order; each item goes on the first sheet with room for
    it (at the foot of its last region). A new sheet takes the frame that holds
    the most of what is left to place (the first frame on a tie). A piece that
    may shrink (``shrink`` says at which heights its contents hold) goes below
    the pieces of a sheet, as tall as the room there, rather than on a sheet of
    its own, where it keeps its size. Items that print backs (``back`` set)
    share a cut only with items of the same back.
    """
    if any(item.back is not None for run in runs for item in run):
        # Decks' leftovers kept whole, or split into whole rows and the rest:
        # whichever takes fewer sheets (rows pay where a sheet holds three rows
        # of two decks, as A4 does; on Letter they would not).
        by_rows, whole = dealt(runs, frames, bleed, True), dealt(runs, frames, bleed, False)
        tries = [_packed(order, frames, bleed, shrink, strip=2 * bleed)
                 for order in ([by_rows, whole] if by_rows != whole else [by_rows])]
        return min(tries, key=len)
    return _packed(runs, frames, bleed, shrink)


def _packed(runs: Sequence[Sequence[Item]], frames: Sequence[Frame], bleed: float,
            shrink: Shrink | None = None, *, strip: float = 0.0) -> list[Sheet]:
    builders: list[_Builder] = []
    for index, run in enumerate(runs):
        queue, start = list(run), 0
        for builder in builders:
            if start == len(queue):
                break
            start += builder.fill(queue, start)
        repeat: _Repeat | None = None
        while start < len(queue):
            if repeat is not None and _alike(queue, start, repeat.first, repeat.window):
                chosen, taken = repeat.again(queue, start)
            else:
                chosen = _Builder(_frame_for(frames, queue, start, runs, after=index + 1, bleed=bleed,
                                             shrink=shrink, strip=strip),
                                  bleed, shrink, strip)
                taken = chosen.fill(queue, start)
                if taken == 0:
                    w, h = queue[start].size
                    raise ValueError(f"a {w:g} x {h:g} mm piece does not fit a sheet")
                repeat = _Repeat.of(chosen, queue, start, frames) if FILL_ALIKE else None
            builders.append(chosen)
            start += taken
    # Sheets laid out alike (every full sheet of a deck) share their boxes and marks.
    shapes: dict = {}
    return [b.sheet(shapes) for b in builders]


#: Whether a new sheet as alike as the one before is filled the same way at once (:class:`_Repeat`);
#: the sheets are the same either way (tests/test_large_kits.py compares them), only faster.
FILL_ALIKE = True


class _Repeat(NamedTuple):
    """A new sheet that one region of alike pieces filled (the same component, back and turn,
    as far as filling it looks ahead: ``window`` pieces). A later sheet whose pieces are
    as alike is filled the same way, the same frame and grid, without every step asked
    again: a deck of thousands of cards fills hundreds of sheets alike."""

    first: Item
    sheet: _Builder
    window: int

    @staticmethod
    def of(sheet: _Builder, queue: Sequence[Item], start: int, frames: Sequence[Frame]) -> "_Repeat | None":
        """The sheet just filled from ``queue[start]`` as one to repeat, if it can be."""
        first = queue[start]
        if len(sheet.regions) != 1 or sheet.beside is not None or sheet.flush or first.part is not None:
            return None
        w, h = first.size
        # The new sheet's frame looks at one piece more than the most a frame holds (_frame_for),
        # the region at as many as it holds, and the step after it at the piece after them.
        grids = [grid_in(f.area, w, h, sheet.bleed, gutter=first.copy.component.gutter, turns=first.turns,
                         least=f.gap) for f in frames]
        window = 1 + max(g.capacity if g is not None else 0 for g in grids)
        return _Repeat(first, sheet, window) if _alike(queue, start, first, window) else None

    def again(self, queue: Sequence[Item], start: int) -> tuple[_Builder, int]:
        """The sheet filled again from ``queue[start]``, and how many pieces it took."""
        sheet, [region] = self.sheet, self.sheet.regions
        taken = len(region.items)
        builder = _Builder(sheet.frame, sheet.bleed, sheet.shrink, sheet.strip)
        builder.regions.append(_Region(region.key, region.grid, list(queue[start:start + taken]), region.mixed))
        return builder, taken


def _alike(queue: Sequence[Item], start: int, first: Item, window: int) -> bool:
    """Whether the ``window`` pieces from ``queue[start]`` are whole pieces of ``first``'s
    component, with its back and its turn."""
    if start + window > len(queue):
        return False
    component, back, turn = first.copy.component, first.back, first.turn
    return all(item.part is None and item.copy.component is component and item.back == back and item.turn == turn
               for item in queue[start:start + window])


def _frame_for(frames: Sequence[Frame], queue: list[Item], start: int, runs: Sequence[Sequence[Item]],
               *, after: int, bleed: float, shrink: Shrink | None = None, strip: float = 0.0) -> Frame:
    """The frame a new sheet takes: the one that holds the most of what is left
    (the run from ``queue[start]``, then ``runs`` from ``after`` on) by area, then the one
    whose regions all keep a strip between them, the first on a tie."""
    if len(frames) == 1:
        return frames[0]
    first = queue[start]
    w, h = first.size
    component = first.copy.component
    gutter = component.gutter if first.part is None else False
    grids = [grid_in(f.area, w, h, bleed, gutter=gutter, turns=first.turns, least=f.gap) for f in frames]
    capacities = [g.capacity if g is not None else 0 for g in grids]
    left = block_of(queue, start, max(capacities) + 1)
    if all(c < left for c in capacities):
        # The run fills the sheet whichever frame it takes: the one with the
        # most room for it wins (the one that centres it on the paper on a tie), and
        # nothing else joins that sheet.
        best = max(range(len(frames)), key=lambda i: (
            capacities[i], -_off_centre(frames[i], grids[i].block_w, grids[i].block_h)
            if grids[i] and component.cut else 0.0, -i))
        return frames[best]

    def remaining() -> Iterator[tuple[Sequence[Item], int]]:
        # What is left, each run from where it starts, never copied: a new sheet of a
        # deck of thousands would copy the rest of it each time.
        yield queue, start
        yield from ((runs[index], 0) for index in range(after, len(runs)))

    best = max(range(len(frames)), key=lambda i: (_trial(frames[i], remaining(), bleed, shrink, strip=strip), -i))
    return frames[best]


# Pure, and asked again for every new sheet of a deck with each frame it may take.
@lru_cache(maxsize=256)
def _off_centre(frame: Frame, width: float, height: float) -> float:
    """How far a block of pieces this size lies from the middle of the paper in this frame (mm)."""
    if frame.page is None:
        return 0.0
    x, y = frame.centred(width, height)
    page = frame.page
    return round(abs(x - (page.w - width) / 2) + abs(y - (page.h - height) / 2), 6)


class _Trial(NamedTuple):
    """What a fresh sheet with one frame would do with what is left; more is better, in this order."""

    placed: float        # the area of the pieces it holds
    strips_kept: bool    # every region keeps a strip between it and the next
    centred: float       # minus how far its pieces lie from the middle of the paper (mm)


def _trial(frame: Frame, runs: Iterable[tuple[Sequence[Item], int]], bleed: float,
           shrink: Shrink | None = None, *, strip: float = 0.0) -> "_Trial":
    """How much of ``runs`` (each a run and where it starts; by area) one fresh sheet with
    this frame would hold, whether every region keeps a strip between it and the next, and
    how near the middle of the paper they lie (less off centre is more)."""
    builder = _Builder(frame, bleed, shrink, strip)
    placed = 0.0
    for run, start in runs:
        taken = builder.fill(run, start)
        if taken:
            w, h = run[start].size   # a shrunk piece counts whole: it is placed either way
            placed += taken * w * h
        if taken < len(run) - start:
            # A run that did not fit whole ends the sheet: later runs do not jump it.
            break
    # Pieces to cut lie best in the middle of the paper; a page used as printed may lie anywhere.
    regions = [r for r in builder.regions if r.cut]
    width = builder.width() if regions else 0.0
    height = sum(r.height for r in regions) + sum(builder.strip_above(r.cut) for r in regions[1:])
    return _Trial(round(placed, 3), not builder.flush, -_off_centre(frame, width, height) if regions else 0.0)


def _finish(frame: Frame, regions: list[_Region], bleed: float, shapes: dict | None = None,
            *, strip: float = 0.0, beside: _Region | None = None) -> Sheet:
    """Stack the regions, centred in the frame (with the column beside them, if any), and
    work out bleeds and marks.

    ``shapes`` keeps what sheets laid out alike share (the same frame, grids and
    counts): their slots' boxes and their marks, worked out once.
    """
    items = [item for region in regions for item in region.items] + (beside.items if beside else [])
    key = None
    if shapes is not None and all(region.items[0].part is None for region in regions):
        key = (frame, strip, tuple((r.grid, r.rows, len(r.items), r.cut) for r in regions),
               None if beside is None else (beside.grid, beside.rows, len(beside.items), beside.cut))
        shared = shapes.get(key)
        if shared is not None:
            slots, marks = shared
            # A Placed made as a tuple is made (once per piece of a deck of thousands).
            return Sheet(frame, tuple([tuple.__new__(Placed, (item, *slot)) for item, slot in zip(items, slots)]),
                         marks, len(regions) + (beside is not None))
    sheet = _shape(frame, regions, bleed, strip=strip, beside=beside)
    if key is not None:
        shapes[key] = (tuple(p[1:] for p in sheet.placed), sheet.marks)
    return sheet


def strip_sides(strip: float, bleed: float, lower_cut: bool = True) -> tuple[Side, Side]:
    """What a strip between two regions gives the one above it (its foot) and the one below
    (its top): each half, a bleed and a mark beyond it, when it is wide enough; else the
    lower region's mark, for its upright cuts, between the two fronts' bleeds cut back to
    make room for it. Backs share the strip evenly: they carry no marks.

    >>> strip_sides(13.0, 3.0)
    (Side(bleed=3.0, marks=(3.5, 6.5), back=3.0), Side(bleed=3.0, marks=(3.5, 6.5), back=3.0))
    >>> strip_sides(6.0, 3.0)       # two decks' rows, twice the bleed apart
    (Side(bleed=1.5, marks=None, back=3.0), Side(bleed=1.5, marks=(1.75, 4.25), back=3.0))
    """
    half = strip / 2
    if not lower_cut or strip + EPS >= 2 * (min(bleed, half) + MARK_CLEAR + MARK_MIN_LENGTH):
        return side_room(half, bleed, half), side_room(half, bleed, half)
    fronts = strip - MARK_MIN_LENGTH - 2 * MARK_TIGHT    # what the two fronts' bleeds share
    back = min(bleed, half)
    if fronts + EPS < 2 * min(back, FRONT_BLEED_MIN):
        return Side(back, None, back), Side(back, None, back)
    lower = round(min(back, max(fronts / 2, fronts - back)), 6)
    upper = round(min(back, fronts - lower), 6)
    return Side(upper, None, back), Side(lower, (lower + MARK_TIGHT, lower + MARK_TIGHT + MARK_MIN_LENGTH), back)


def _parting_marks(placed: list[Placed], heights: list[float], seps: list[float], foot: float, *,
                   limits: Box) -> list[Mark]:
    """Where to part the regions first: a mark at each end of the line midway between two of
    them, in the side margins, clear of every trim (and of every bleed: the line runs beyond
    both regions' bleeds). ``foot`` is the foot of the last region."""
    if not seps:
        return []
    inner_left = min(p.trim.x for p in placed) - MARK_TIP
    inner_right = max(p.trim.right for p in placed) + MARK_TIP
    y = foot
    middles = []
    for index in range(len(seps) - 1, -1, -1):
        y += heights[index + 1]
        if seps[index] >= MARKED_SEPARATION - EPS:
            middles.append(y + seps[index] / 2)
        y += seps[index]
    marks = []
    for middle in sorted(middles):
        if inner_left - limits.x >= MARK_MIN_LENGTH - EPS:
            marks.append(Mark(inner_left, middle, max(limits.x, inner_left - MARK_LENGTH), middle))
        if limits.right - inner_right >= MARK_MIN_LENGTH - EPS:
            marks.append(Mark(inner_right, middle, min(limits.right, inner_right + MARK_LENGTH), middle))
    return marks


def _separations(regions: list[_Region], heights: list[float], room: float, bleed: float, *,
                 strip: float) -> list[float]:
    """The strip between each two regions: the least each needs (room for a mark above a
    cut region, ``strip`` at least), then, as the sheet allows, up to a bleed and a mark
    each side, once the room above and below the stack is kept."""
    gaps = len(regions) - 1
    if gaps <= 0:
        return []
    need = [max(strip, MARKED_SEPARATION) if region.cut else strip for region in regions[1:]]
    spare = max(0.0, room - sum(heights))
    full = 2 * (bleed + MARK_CLEAR + SEPARATION_MARK)
    even = max(0.0, spare - 2 * OUTER_ROOM) / gaps
    seps = [max(n, min(full, even)) for n in need]
    if sum(seps) > spare + EPS:
        least = sum(need)
        seps = ([n + (spare - least) / gaps for n in need] if least <= spare
                else [n * spare / least for n in need])
    return seps


SIDES = ("left", "bottom", "right", "top")


def _rooms(frame: Frame, block: Box) -> dict:
    """For each side of a block of pieces (the box round their trims): how far a mark may run
    there, and how far the print may reach (None: anywhere)."""
    limits, reach = frame.limits, frame.bleed
    left, right, bottom, top = block.x, block.right, block.y, block.top
    return {
        "left": (left - limits.x, None if reach is None else left - reach.x),
        "right": (limits.right - right, None if reach is None else reach.right - right),
        "top": (limits.top - top, None if reach is None else reach.top - top),
        "bottom": (bottom - limits.y, None if reach is None else bottom - reach.y),
    }


def _lay_grid(placed: list[Placed], region: _Region, grid: Grid, sides: dict[str, Side], *,
              bleed: float) -> list[Mark]:
    """Place a region's pieces on its grid, each with the bleed its sides allow, front and
    back; the marks of its cuts."""
    outer = tuple(sides[s].bleed for s in SIDES)
    backs = tuple(sides[s].back for s in SIDES)
    trims = []
    count = len(region.items)
    for slot, item in enumerate(region.items):
        trim = grid.trim(slot)
        trims.append(trim)
        printed = trim.grow(*grid.bleed_sides(slot, bleed, outer, filled=count))
        back = trim.grow(*grid.bleed_sides(slot, bleed, backs, filled=count)) if backs != outer else None
        placed.append(Placed(item, trim, printed, rotation=90 if grid.rotated else 0,
                             back=back if back != printed else None))
    return block_marks(trims, sides) if region.cut else []


def _lay_part(placed: list[Placed], region: _Region, grid: Grid, *, rooms: dict, inner: dict,
              bleed: float) -> list[Mark]:
    """Place a board's part: its seams' sides print no bleed, and the marks of an edge cut along
    the middle of its strip go there."""
    part = region.items[0].part
    seams = {s.side: s for s in part.seams}
    overlap = region.items[0].copy.component.overlap
    inset = {side: overlap / 2 if side in seams and seams[side].over else 0.0 for side in SIDES}
    sides = {
        side: (Side(0.0, side_room(room + inset[side], 0.0, 0.0).marks) if side in seams
               else inner.get(side) or side_room(room, bleed, reach_room))
        for side, (room, reach_room) in rooms.items()
    }
    trim = grid.trim(0)
    cut = Box(trim.x + inset["left"], trim.y + inset["bottom"],
              trim.w - inset["left"] - inset["right"], trim.h - inset["bottom"] - inset["top"])
    outer = tuple(sides[s].bleed for s in SIDES)
    backs = tuple(sides[s].back for s in SIDES)
    placed.append(Placed(region.items[0], trim, trim.grow(*outer), rotation=90 if part.rotated else 0,
                         back=trim.grow(*backs) if backs != outer else None))
    return block_marks([cut], sides) if region.cut else []


def _shape(frame: Frame, regions: list[_Region], bleed: float, *, strip: float = 0.0,
           beside: _Region | None = None) -> Sheet:
    heights = [r.height for r in regions]
    seps = _separations(regions, heights, frame.area.h, bleed, strip=strip)
    # The stack of regions centred on the paper, as far as its area allows (with the column
    # beside it, if any: the line between them is ``middle``).
    top = frame.centred(0.0, sum(heights) + sum(seps))[1] + sum(heights) + sum(seps)
    gap = max(strip, 2 * bleed)
    stack_w = max(r.width for r in regions)
    middle = None
    if beside is not None:
        middle = frame.centred(stack_w + gap + beside.width, 0.0)[0] + stack_w + gap / 2
    placed: list[Placed] = []
    marks: list[Mark] = []
    for index, region in enumerate(regions):
        # A region of one row holds as many columns as it has pieces: centred, not left-aligned.
        grid = region.grid._replace(rows=region.rows, cols=min(region.grid.cols, len(region.items)))
        bottom = top - heights[index]
        left = frame.centred(grid.block_w, 0.0)[0] if middle is None else \
            middle - gap / 2 - (stack_w + grid.block_w) / 2
        grid = grid._replace(origin_y=bottom, origin_x=left)
        rooms = _rooms(frame, Box(left, bottom, grid.block_w, top - bottom))
        if middle is not None:
            rooms["right"] = (middle - left - grid.block_w,) * 2
        # Beside a strip between two regions, what the strip gives each.
        inner = {}
        if index:
            inner["top"] = strip_sides(seps[index - 1], bleed, region.cut)[1]
        if index < len(seps):
            inner["bottom"] = strip_sides(seps[index], bleed, regions[index + 1].cut)[0]
        if region.items[0].part is not None:
            marks += _lay_part(placed, region, grid, rooms=rooms, inner=inner, bleed=bleed)
        else:
            sides = {side: inner.get(side) or side_room(room, bleed, reach_room)
                     for side, (room, reach_room) in rooms.items()}
            marks += _lay_grid(placed, region, grid, sides, bleed=bleed)
        top = bottom - (seps[index] if index < len(seps) else 0.0)
    # The lines between regions are marked in the margins, on the left only if a column is beside them.
    limits = frame.limits if middle is None else frame.limits._replace(w=middle - MARK_TIGHT - frame.limits.x)
    marks += _parting_marks(placed, heights, seps, top, limits=limits)
    if beside is not None:
        marks += _lay_column(frame, placed, beside, middle=middle, gap=gap, bleed=bleed)
    return Sheet(frame, tuple(placed), tuple(marks), len(regions) + (beside is not None))


def _lay_column(frame: Frame, placed: list[Placed], beside: _Region, *, middle: float, gap: float,
                bleed: float) -> list[Mark]:
    """The column beside the stack, right of the line ``middle`` (``gap`` wide, each side's
    bleed): its pieces, their marks, and a mark at each end of the line where the sheet is
    cut in two first."""
    grid = beside.grid._replace(rows=beside.rows, cols=min(beside.grid.cols, len(beside.items)))
    stack = placed[:]
    left = middle + gap / 2
    bottom = frame.centred(0.0, grid.block_h)[1]
    grid = grid._replace(origin_x=left, origin_y=bottom)
    rooms = _rooms(frame, Box(left, bottom, grid.block_w, grid.block_h))
    rooms["left"] = (gap / 2, gap / 2)
    sides = {side: side_room(room, bleed, reach_room) for side, (room, reach_room) in rooms.items()}
    marks = _lay_grid(placed, beside, grid, sides, bleed=bleed)
    limits = frame.limits
    high = max(p.printed.top for p in placed) + MARK_CLEAR
    low = min(p.printed.y for p in placed) - MARK_CLEAR
    if any(p.printed.x < middle < p.printed.right for p in stack):
        return marks
    if limits.top - high >= MARK_MIN_LENGTH - EPS:
        marks.append(Mark(middle, limits.top, middle, max(high, limits.top - MARK_LENGTH)))
    if low - limits.y >= MARK_MIN_LENGTH - EPS:
        marks.append(Mark(middle, limits.y, middle, min(low, limits.y + MARK_LENGTH)))
    return marks

