"""Pieces too big for a sheet (boards): split into parts along the board's own lines.

Pure computation. Neighbouring parts share a strip ``overlap`` mm wide. The
part to the right of a seam (or below it) is cut along the middle of the
strip and laid over its neighbour, whose half of the strip slides under it:
the join a player sees is that cut line. So a seam's cut line keeps
:data:`TEXT_CLEARANCE` mm from every line of text (a join through a word
shows the slightest misalignment), and when the template names the board's
own lines (``seams = { x = [...], y = [...] }``: between spaces, along a
river), the cut lies on one of them.

The split is a guillotine: full-width seams make bands, and each band is cut
into parts by its own seams, so a band can put its join where its own text
leaves room. Parts are numbered band by band from the top, left to right.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from typing import Iterable, Sequence

from pnp.core.records import NamedTuple
from pnp.layout.imposition import EPS, Box
from pnp.layout.primitives import Text, absolute
from pnp.layout.text import Measurer

TEXT_CLEARANCE = 2.0   # mm between a seam's cut line and any text
SEARCH_STEP = 1.0      # mm between the cut lines tried when the template names none


class Seam(NamedTuple):
    """An edge a part shares with its neighbours.

    ``side`` is the part's side as it lies on the sheet; ``over`` says this
    part is cut along the middle of the shared strip and laid over the
    neighbours (the part to the right or below), rather than slid under them.
    """

    side: str                    # left, right, top, bottom
    over: bool
    neighbours: tuple[int, ...]  # indices of the parts across the seam


class Part(NamedTuple):
    """One sheet's share of a piece too big for a sheet."""

    index: int          # 0-based, band by band from the piece's top, left to right
    count: int
    region: Box         # in mm of the whole piece (its own frame, origin bottom-left)
    rotated: bool       # the piece is turned a quarter counter-clockwise on the sheet
    sheet_region: Box   # the region in the turned piece's frame (as it lies on the sheet)
    seams: tuple[Seam, ...] = ()

    @property
    def label(self) -> str:
        return f"{self.index + 1}/{self.count}"


class Split(NamedTuple):
    parts: tuple[Part, ...]
    #: How many seams pass through text (0 for every shipped board).
    through_text: int
    #: How many bands are cut at lines the template does not name, when it names some
    #: (0 for every shipped board): no named line let the parts fit.
    unnamed: int = 0


def text_boxes(primitives: Iterable, measure: Measurer) -> list[Box]:
    """The box of every line of text a face prints, in mm from its top-left, y downwards.

    Turned text is turned with it, so the boxes are where the glyphs land.
    """
    return [box for p in absolute(primitives) if type(p) is Text for box in p.boxes(measure)]


def split_piece(area_w: float, area_h: float, piece_w: float, piece_h: float, *, overlap: float,
                allow_rotate: bool = True, texts: Sequence[Box] = (),
                lines_x: Sequence[float] = (), lines_y: Sequence[float] = ()) -> Split:
    """Split a piece too big for a sheet whose trims may fill ``area_w`` x ``area_h``.

    ``texts`` are the piece's text boxes (mm from its top-left, y downwards);
    ``lines_x`` and ``lines_y`` the board's own lines a cut may follow, in the
    piece's own frame whichever way it lies on the sheet: ``lines_x`` the
    vertical cuts, mm from its left edge, ``lines_y`` the horizontal ones, mm
    from its top. When the template names any, every cut lies on a named line
    (one clear of text if it can, else one through text), and only where no
    named line lets the parts fit is a band cut elsewhere (``Split.unnamed``);
    when it names none, any place clear of text. Upright or turned, in bands
    across or down, whichever cuts only on named lines, then keeps every seam
    off text, with the fewest parts.

    >>> split = split_piece(194, 276, 280, 280, overlap=12)
    >>> [p.label for p in split.parts], split.through_text
    (['1/4', '2/4', '3/4', '4/4'], 0)

    A ValueError if parts sharing ``overlap`` could not each show more than they share.
    """
    most = min(area_w, area_h) / 2
    if not 0 <= overlap < most:
        raise ValueError(f"an overlap of {overlap:g} mm; the parts of a piece split over sheets share "
                         f"at most {most:g} mm on this paper")
    best: tuple[tuple, Split] | None = None
    # A square piece is worth turning too: its seams then fall on its other lines.
    options = [False] + ([True] if allow_rotate else [])
    for rotated in options:
        for across in (True, False):
            split = _split_oriented(area_w, area_h, piece_w, piece_h, overlap=overlap, rotated=rotated,
                                    across=across, texts=texts, lines_x=lines_x, lines_y=lines_y)
            key = (split.unnamed > 0, split.through_text > 0, len(split.parts), rotated, not across)
            if best is None or key < best[0]:
                best = (key, split)
    assert best is not None
    return best[1]


def _split_oriented(area_w: float, area_h: float, piece_w: float, piece_h: float, *, overlap: float,
                    rotated: bool, across: bool, texts: Sequence[Box], lines_x: Sequence[float],
                    lines_y: Sequence[float]) -> Split:
    """One way of splitting: upright or turned; bands across the piece first
    (``across``) or down it first."""
    # Work in the frame of the piece as it lies on the sheet, origin bottom-left.
    if rotated:
        # Turned a quarter counter-clockwise, piece (u, v) lies at sheet (piece_h - v, u):
        # the piece's top edge (its y downwards = 0) becomes the sheet's left.
        width, height = piece_h, piece_w
        boxes = [Box(t.y, t.x, t.h, t.w) for t in texts]
        cuts_x = list(lines_y)                     # across the sheet: the piece's y lines
        cuts_y = list(lines_x)                     # up the sheet: the piece's x lines
    else:
        width, height = piece_w, piece_h
        boxes = [Box(t.x, piece_h - t.y - t.h, t.w, t.h) for t in texts]
        cuts_x = list(lines_x)
        cuts_y = [piece_h - v for v in lines_y]
    if not across:
        # Bands down the piece: the same search with x and y exchanged.
        width, height, area_w, area_h = height, width, area_h, area_w
        boxes = [Box(b.y, b.x, b.h, b.w) for b in boxes]
        cuts_x, cuts_y = cuts_y, cuts_x
    named = bool(lines_x or lines_y)
    dirty = unnamed = 0

    def cut(length: float, space: float, blocked: list[tuple[float, float]], lines: list[float]) -> list[float]:
        """The cuts of one band along one axis, counting those off text and off the named lines."""
        nonlocal dirty, unnamed
        if named:
            found = _seams(length, space, overlap, blocked, lines=lines, named=True)
            if found is not None:
                cuts, clear = found
                dirty += not clear
                return cuts
            unnamed += 1
        found = _seams(length, space, overlap, blocked, lines=())
        if found is not None:
            return found[0]
        dirty += 1
        return _even(length, space, overlap)

    rows = cut(height, area_h, [(b.y, b.top) for b in boxes], cuts_y)
    stops = [0.0] + rows + [height]
    half = overlap / 2
    rects = []
    for k in range(len(stops) - 1):
        bottom = stops[k] - (half if k else 0.0)
        top = stops[k + 1] + (half if k + 1 < len(stops) - 1 else 0.0)
        inside = [(b.x, b.right) for b in boxes if b.top > bottom and b.y < top]
        cols = cut(width, area_w, inside, cuts_x)
        xs = [0.0] + cols + [width]
        for i in range(len(xs) - 1):
            left = xs[i] - (half if i else 0.0)
            right = xs[i + 1] + (half if i + 1 < len(xs) - 1 else 0.0)
            rects.append(Box(left, bottom, right - left, top - bottom))
    if not across:
        rects = [Box(r.y, r.x, r.h, r.w) for r in rects]
        width, height = height, width
    def region(rect: Box) -> Box:
        return Box(rect.y, width - rect.x - rect.w, rect.h, rect.w) if rotated else rect

    # Numbered as the board reads, turned or not: from its top, left to right.
    rects.sort(key=lambda r: (-round(region(r).top, 6), round(region(r).x, 6)))
    parts = [Part(index, len(rects), region(rect), rotated, sheet_region=rect, seams=_seams_of(index, rects,
                                                                                               overlap))
             for index, rect in enumerate(rects)]
    return Split(tuple(parts), dirty, unnamed)


def _seams_of(index: int, rects: list[Box], overlap: float) -> tuple[Seam, ...]:
    """The edges a part shares with its neighbours: the part to the right of a
    seam, or below it, is the one laid over."""
    me = rects[index]
    found: dict[str, list[int]] = {}
    for other, rect in enumerate(rects):
        if other == index:
            continue
        # Parts in neighbouring bands also meet in the corner of two strips: a
        # neighbour shares more of an edge than that.
        spans_y = min(me.top, rect.top) - max(me.y, rect.y) > overlap + EPS
        spans_x = min(me.right, rect.right) - max(me.x, rect.x) > overlap + EPS
        if spans_y and abs(me.right - rect.x - overlap) < 1e-6:
            found.setdefault("right", []).append(other)
        elif spans_y and abs(rect.right - me.x - overlap) < 1e-6:
            found.setdefault("left", []).append(other)
        elif spans_x and abs(me.top - rect.y - overlap) < 1e-6:
            found.setdefault("top", []).append(other)
        elif spans_x and abs(rect.top - me.y - overlap) < 1e-6:
            found.setdefault("bottom", []).append(other)
    order = ("left", "top", "right", "bottom")
    return tuple(Seam(side, side in ("left", "top"), tuple(sorted(found[side])))
                 for side in order if side in found)


def _even(length: float, space: float, overlap: float) -> list[float]:
    """Cut lines that split ``length`` into equal parts no longer than ``space``."""
    count = _count(length, space, overlap)
    part = (length + (count - 1) * overlap) / count
    return [i * (part - overlap) + part - overlap / 2 for i in range(count - 1)]


def _count(length: float, space: float, overlap: float) -> int:
    if length <= space + EPS:
        return 1
    return math.ceil((length - overlap) / (space - overlap) - EPS)


def _seams(length: float, space: float, overlap: float, blocked: list[tuple[float, float]],
           *, lines: Sequence[float], named: bool = False) -> tuple[list[float], bool] | None:
    """Cut lines along one axis (ascending), parts no longer than ``space``: as few parts
    as possible (up to two more than the least), then the most even; and whether every
    cut is clear of text. Without ``named``, any line clear of text (``lines`` unused);
    with it, only ``lines``: those clear of text if they can do, else any of them. None
    if no such cuts exist.
    """
    least = _count(length, space, overlap)
    if least == 1:
        return [], True
    half = overlap / 2
    clear = [(lo - TEXT_CLEARANCE, hi + TEXT_CLEARANCE) for lo, hi in blocked]
    if named:
        candidates = sorted({float(c) for c in lines if half < c < length - half})
    else:
        steps = int((length - overlap) / SEARCH_STEP)
        candidates = [half + i * SEARCH_STEP for i in range(steps + 1)]
    pools = [(_clear_of(candidates, clear), True)] + ([(candidates, False)] if named else [])
    for pool, off_text in pools:
        for count in range(least, least + 3):
            found = _best_cuts(length, space, half, pool, cuts=count - 1)
            if found is not None:
                return found, off_text
    return None


def _clear_of(candidates: list[float], blocked: list[tuple[float, float]]) -> list[float]:
    """The candidates inside no blocked interval (ends excluded), in order.

    >>> _clear_of([1.0, 5.0, 9.0], [(4.0, 6.0), (8.5, 12.0)])
    [1.0]
    """
    merged: list[list[float]] = []
    for lo, hi in sorted(blocked):
        if merged and lo <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    starts = [lo for lo, _ in merged]
    kept = []
    for c in candidates:
        k = bisect_left(starts, c) - 1
        if k >= 0 and merged[k][0] < c < merged[k][1]:
            continue
        kept.append(c)
    return kept


def _best_cuts(length: float, space: float, half: float, candidates: list[float],
               *, cuts: int) -> list[float] | None:
    """``cuts`` cut lines from ``candidates`` whose parts all fit ``space``,
    with the longest part as short as possible (then nearest an even split).

    Every combination is tried up to two cuts (three parts along a side: any
    shipped board); beyond that, each cut in turn takes the candidate nearest
    its even place that leaves the rest coverable.
    """
    even = [(i + 1) * length / (cuts + 1) for i in range(cuts)]
    if cuts > 2:
        return _cuts_in_turn(length, space, half, candidates, even=even)
    best: tuple[tuple[float, float], list[float]] | None = None

    def search(chosen: list[float], start: int) -> None:
        nonlocal best
        previous = chosen[-1] if chosen else None
        if len(chosen) == cuts:
            last = length - previous + half
            if last > space + EPS:
                return
            stops = [0.0] + chosen + [length]
            longest = max(stops[i + 1] - stops[i] for i in range(len(stops) - 1))
            score = (round(longest, 6), sum(abs(c - e) for c, e in zip(chosen, even)))
            if best is None or score < best[0]:
                best = (score, list(chosen))
            return
        for j in range(start, len(candidates)):
            c = candidates[j]
            part = c + half - (previous - half if previous is not None else 0.0)
            if part > space + EPS:
                break
            if previous is not None and c - previous < 2 * half:
                continue
            search(chosen + [c], j + 1)

    search([], 0)
    return best[1] if best else None


def _cuts_in_turn(length: float, space: float, half: float, candidates: list[float],
                  *, even: list[float]) -> list[float] | None:
    chosen: list[float] = []
    start = 0.0   # where the next part begins
    for index, target in enumerate(even):
        left = len(even) - index - 1          # cuts still to place after this one
        reach = left * (space - 2 * half) + space
        window = [c for c in candidates
                  if c + half - start <= space + EPS and (not chosen or c - chosen[-1] >= 2 * half)
                  and length - (c - half) <= reach + EPS]
        if not window:
            return None
        cut = min(window, key=lambda c: abs(c - target))
        chosen.append(cut)
        start = cut - half
    return chosen if length - start <= space + EPS else None


#: The papers as a report names them.
_PAPER_NAMES = {"a4": "A4", "letter": "US Letter"}


class SeamReport(NamedTuple):
    """Something a designer should hear about where a piece was cut (not a problem: it prints)."""

    severity: str     # "warning" (a cut the template did not ask for, or through text) or "note"
    component: str    # the component's id
    key: str          # its key at fault: "seams", "seams.x" or "seams.y"
    message: str

    def line(self, source: str) -> str:
        """As ``pnp render`` says it: ``kit.toml: components.board.seams.x: ...``."""
        return f"{source}: components.{self.component}.{self.key}: {self.message}"


def seam_reports(component: str, *, size: tuple[float, float], overlap: float, parts: Sequence[Part],
                 texts: Sequence[Box], lines_x: Sequence[float], lines_y: Sequence[float],
                 paper: str) -> list[SeamReport]:
    """What a designer should hear about where a piece was cut: a warning for a cut at a line
    the template does not name (when it names some) and for a cut through text, a note for
    an axis none of whose named lines cuts the piece (the named lines of one axis are
    alternatives: once one is used, the others are not named again).

    Cuts are named in the piece's own frame, x from its left edge and y from its top, as
    ``seams`` names them.

    >>> parts = split_piece(194, 276, 200, 200, overlap=12, lines_x=[100], lines_y=[100]).parts
    >>> [r.line("b.toml") for r in seam_reports("board", size=(200, 200), overlap=12, parts=parts, texts=(),
    ...                                         lines_x=[100], lines_y=[100], paper="a4")]
    ['b.toml: components.board.seams.y: 100 mm not used: the piece is cut along x = 100 mm, which is enough on A4']
    """
    w, h = size
    half = overlap / 2
    boxes = [Box(t.x, h - t.y - t.h, t.w, t.h) for t in texts]   # from the bottom-left, as regions are
    cuts: dict[tuple[str, float], bool] = {}   # (axis, mm in the piece's own frame) -> through text
    for p in parts:
        for q in parts:
            a, b = p.region, q.region
            if abs(a.right - b.x - overlap) < 1e-6 and min(a.top, b.top) - max(a.y, b.y) > overlap + EPS:
                at, low, high = b.x + half, max(a.y, b.y), min(a.top, b.top)   # a left of b
                crossed = any(t.x - TEXT_CLEARANCE < at < t.right + TEXT_CLEARANCE and t.y < high and t.top > low
                              for t in boxes)
                key = ("x", round(at, 6))
                cuts[key] = cuts.get(key, False) or crossed
            if abs(b.top - a.y - overlap) < 1e-6 and min(a.right, b.right) - max(a.x, b.x) > overlap + EPS:
                line, low, high = a.y + half, max(a.x, b.x), min(a.right, b.right)   # a above b
                crossed = any(t.y - TEXT_CLEARANCE < line < t.top + TEXT_CLEARANCE and t.x < high and t.right > low
                              for t in boxes)
                key = ("y", round(h - line, 6))
                cuts[key] = cuts.get(key, False) or crossed
    paper_name = _PAPER_NAMES.get(paper, paper)
    named = {"x": [float(v) for v in lines_x], "y": [float(v) for v in lines_y]}
    edge = {"x": "its left edge", "y": "its top edge"}
    reports: list[SeamReport] = []
    for (axis, at), through in sorted(cuts.items()):
        on_a_line = any(abs(at - line) < 1e-6 for line in named[axis])
        if (lines_x or lines_y) and not on_a_line:
            reports.append(SeamReport("warning", component, "seams",
                                      f"cut at {axis} = {at:g} mm (from {edge[axis]}), a line seams does not "
                                      f"name: no named line lets every part fit a sheet of {paper_name}; "
                                      "name one there, or near it"))
        if through:
            reports.append(SeamReport("warning", component, "seams",
                                      f"the cut at {axis} = {at:g} mm (from {edge[axis]}) runs through text, "
                                      "where a join shows the slightest misalignment; "
                                      + ("name a line clear of it" if on_a_line else
                                         "no line 2 mm clear of text lets the parts fit")))
    used = [f"{axis} = {at:g} mm" for axis, at in sorted(cuts)]
    for axis in ("x", "y"):
        lines = named[axis]
        if lines and used and not any(abs(at - line) < 1e-6 for (cut_axis, at) in cuts if cut_axis == axis
                                      for line in lines):
            shown = ", ".join(f"{line:g}" for line in lines)
            reports.append(SeamReport("note", component, f"seams.{axis}",
                                      f"{shown} mm not used: the piece is cut along {', '.join(used)}, which "
                                      f"is enough on {paper_name}"))
    return reports
