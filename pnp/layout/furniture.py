"""What every sheet carries besides its pieces, laid out: footer, crop marks, board seams, fold line.

Page primitives are in mm from the page's top-left, y downwards; the
imposition's boxes and marks (from the bottom-left) are turned over here.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from pnp.core.i18n import Catalog
from pnp.core.records import NamedTuple
from pnp.layout.imposition import MARGIN, PRINTABLE, Frame, Mark
from pnp.layout.outline import on_sheet, outline_of
from pnp.layout.primitives import Line, Path, Primitive, Rect, Text, TextLine
from pnp.layout.text import Measurer, fit_or_fail, fit_text
from pnp.template.model import Face, PageKind, PrintOptions
from pnp.core.units import POINTS_PER_MM, pt

FOOTER_SIZE = 7.0
FOOTER_MIN = 6.0
MARK_WIDTH_PT = 0.6        # well above a hairline, still crisp
CALIBRATION_MM = 50.0
REGISTRATION = "#000000"
FOOTER_INK = "#333333"
BAR_WIDTH_PT = 0.7
SEAM_WIDTH_PT = 0.8
GUIDE_INK = "#555555"
CUT_GUIDE_PT = 0.5         # the line along a trim a guillotine cannot follow
CUT_GUIDE_INK = "#6b6b6b"
SEPARATOR = "  ·  "
#: Where the footer's ink sits, from the paper's edge (mm): its lowest baseline
#: keeps the descenders (a quarter of the type size) PRINTABLE from the edge,
#: the line above it and the bar's label end below imposition.FOOTER_TOP.
FOOTER_BASELINE = PRINTABLE + 0.7
FOOTER_LEADING = 2.9
BAR_Y = PRINTABLE + 1.5         # the 50 mm bar, its ticks 1.2 mm either side
BAR_TICK = 1.2


class Imprint(NamedTuple):
    """The kit's imprint, on its cover: which pnp made it, and a date only when
    the build asks for one (``SOURCE_DATE_EPOCH``), so builds stay identical."""

    version: str
    date: str | None = None


def marks_layout(marks, page_h: float) -> tuple[Primitive, ...]:
    """Crop marks, one path of short strokes."""
    if not marks:
        return ()
    return _marks_path(tuple(marks), page_h)


@lru_cache(maxsize=64)
def _marks_path(marks: tuple, page_h: float) -> tuple[Primitive, ...]:
    # Full sheets of one component have the same marks: one path for all of them.
    segments = tuple(((m.x1, page_h - m.y1), (m.x2, page_h - m.y2)) for m in marks)
    return (Path(segments, closed=False, stroke=REGISTRATION, width=MARK_WIDTH_PT / POINTS_PER_MM),)


def cut_guides_layout(placements, page_h: float) -> tuple[Primitive, ...]:
    """A thin line along each front's trim where a guillotine cannot follow it: the arcs of
    rounded corners, the whole edge of a circle or a hex. Fronts only (a back lands up to
    1 mm off its front, and a hidden back must stay quiet at its edge), and only on pieces
    that are cut."""
    segments = []
    guides: dict[int, tuple] = {}   # each component's outline and the runs of its guides, worked out once
    for placement in placements:
        component = placement.copy.component
        if placement.face is not Face.FRONT or not component.cut or placement.part is not None:
            continue
        found = guides.get(id(component))
        if found is None:
            outline = outline_of(component)
            found = guides[id(component)] = (outline, outline.corner_guides())
        outline, runs = found
        for run in runs:
            points = on_sheet(outline, placement.trim.x, placement.trim.y, placement.rotation, points=run)
            segments.append(tuple((x, page_h - y) for x, y in points))
    if not segments:
        return ()
    return (Path(tuple(segments), closed=False, stroke=CUT_GUIDE_INK, width=CUT_GUIDE_PT / POINTS_PER_MM,
                 join=1, cap=1),)


#: The catalog's word for each side of a sheet of paper.
_SIDE_WORDS = {PageKind.FRONT: "footer.front", PageKind.BACK: "footer.back",
               PageKind.SHEET: "footer.one_sided", PageKind.FOLD: "footer.fold"}


def sheet_label(kind: PageKind, sheet: int, sheets: int, catalog: Catalog) -> str:
    """"Sheet 3 of 12, front": which sheet of paper, and which side of it."""
    return catalog.get("footer.sheet", n=sheet, total=sheets, side=catalog.get(_SIDE_WORDS[kind]))


def footer_layout(frame: Frame, page_size: tuple[float, float], options: PrintOptions,
                  catalog: Catalog, *, measure: Measurer, page: int, pages: int,
                  components: Sequence[str] = (), kind: PageKind | None = None,
                  sheet: int = 0, sheets: int = 0, fold_line: Mark | None = None,
                  title: str | None = None, alike: dict | None = None) -> tuple[Primitive, ...]:
    """Game, components, sheet n of N and its side, language, page n/N; and the 50 mm bar.

    At the bottom of the page, or turned in the side margins when the pieces
    need the height (then the words read upwards in the left margin and the
    bar stands in the right one).

    ``alike`` keeps what the footers of one kit's pages (one catalog, one
    measurer) have alike, the bar and its label, made once for all of them.
    """
    parts = [title if title is not None else catalog.get("game.name")]
    if components:
        parts.append(", ".join(catalog.get(f"component.{c}.name") for c in components))
    if kind is not None and kind in (PageKind.FRONT, PageKind.BACK, PageKind.SHEET, PageKind.FOLD):
        parts.append(sheet_label(kind, sheet, sheets, catalog))
    parts += [options.lang.upper(), catalog.get("footer.page", n=page, total=pages)]
    key = (frame.footer, page_size, frame.footer_clear)
    bar = alike.get(key) if alike is not None else None
    label = catalog.get("footer.print_actual_size", mm=int(CALIBRATION_MM)) if bar is None else ""
    if frame.footer == "side":
        footer = _side_footer(page_size, parts, label, measure, clear=frame.footer_clear, bar=bar)
    else:
        footer = _bottom_footer(page_size, parts, label, measure, fold_line=fold_line, clear=frame.footer_clear,
                                bar=bar)
    if alike is not None and bar is None:
        alike[key] = footer[1:]
    return footer


def _fitted_lines(measure: Measurer, parts: list[str], width_mm: float) -> tuple[list[str], float]:
    """The footer words in one line if they fit at 6 pt or more, else two."""
    text = SEPARATOR.join(parts)
    fitted = fit_text(measure, text, "black", FOOTER_SIZE, width=pt(width_mm), height=pt(4), wrap=False,
                      leading=1.2, min_size=FOOTER_MIN)
    if fitted is not None:
        return [text], fitted.size
    # Two lines, split where the widths come out closest.
    best = None
    for cut in range(1, len(parts)):
        lines = [SEPARATOR.join(parts[:cut]), SEPARATOR.join(parts[cut:])]
        size = min(_size(measure, line, width_mm) for line in lines)
        if best is None or size > best[1]:
            best = (lines, size)
    assert best is not None
    if best[1] < FOOTER_MIN:
        fit_or_fail(measure, best[0][0], "black", FOOTER_SIZE, width=pt(width_mm), height=pt(4), wrap=False,
                    leading=1.2, min_size=FOOTER_MIN, where="footer")
        fit_or_fail(measure, best[0][1], "black", FOOTER_SIZE, width=pt(width_mm), height=pt(4), wrap=False,
                    leading=1.2, min_size=FOOTER_MIN, where="footer")
    return best[0], best[1]


def _size(measure: Measurer, text: str, width_mm: float) -> float:
    fitted = fit_text(measure, text, "black", FOOTER_SIZE, width=pt(width_mm), height=pt(4), wrap=False,
                      leading=1.2, min_size=FOOTER_MIN)
    return fitted.size if fitted is not None else 0.0


def _bottom_footer(page_size: tuple[float, float], parts: list[str], label: str, measure: Measurer,
                   *, fold_line: Mark | None, clear: float = 0.0, bar: tuple[Primitive, ...] | None = None
                   ) -> tuple[Primitive, ...]:
    """The words, then the bar's label and the bar (``bar``: those two, made for another page)."""
    page_w, page_h = page_size
    bar_x = page_w - MARGIN - CALIBRATION_MM
    left = max(MARGIN, clear)   # past a registration mark at the lower left
    room = bar_x - left - 6
    if fold_line is not None and fold_line.x1 == fold_line.x2:
        # A vertical fold: the words stay on the left half, clear of the fold.
        room = min(room, fold_line.x1 - MARGIN - 3)
    lines, size = _fitted_lines(measure, parts, room)
    low = page_h - FOOTER_BASELINE
    if bar is None:
        label_size = fit_or_fail(measure, label, "regular", FOOTER_SIZE, width=pt(CALIBRATION_MM + 60),
                                 height=pt(4), wrap=False, leading=1.2, min_size=FOOTER_MIN, where="footer").size
        label_w = measure.width(label, "regular", label_size) / POINTS_PER_MM
        bar = (Text((TextLine(label, page_w - MARGIN - label_w, low - FOOTER_LEADING),), "regular", label_size,
                    FOOTER_INK),
               _calibration_bar(bar_x, page_h))
    baselines = [low] if len(lines) == 1 else [low - FOOTER_LEADING, low]
    return (
        Text(tuple(TextLine(line, left, b) for line, b in zip(lines, baselines)), "black", size,
             FOOTER_INK),
        *bar,
    )


@lru_cache(maxsize=16)
def _calibration_bar(bar_x: float, page_h: float) -> Path:
    """50 mm with a tick every 10 mm: the same on every page of a paper size."""
    y = page_h - BAR_Y
    segments = [((bar_x, y), (bar_x + CALIBRATION_MM, y))]
    for i in range(6):
        tick = BAR_TICK if i in (0, 5) else 0.8
        segments.append(((bar_x + i * 10, y + tick), (bar_x + i * 10, y - tick)))
    return Path(tuple(segments), closed=False, stroke=REGISTRATION, width=BAR_WIDTH_PT / POINTS_PER_MM)


def _side_footer(page_size: tuple[float, float], parts: list[str], label: str, measure: Measurer,
                 *, clear: float = 0.0, bar: tuple[Primitive, ...] | None = None) -> tuple[Primitive, ...]:
    """The footer turned a quarter: words up the left margin, the bar up the right one.

    Turned text reads upwards; its glyphs rise towards the left. In the left
    lane the ascenders reach towards the paper edge and stop PRINTABLE from
    it; in the right lane the descenders do. The bar stands in the right lane
    too; marks and bleed stay beyond imposition.SIDE_LANE.
    """
    page_w, page_h = page_size
    start = max(10.0, clear)           # mm from the bottom and top edges
    length = page_h - 2 * start
    text = SEPARATOR.join(parts)
    fitted = fit_or_fail(measure, text, "black", FOOTER_SIZE, width=pt(length), height=pt(4), wrap=False,
                         leading=1.2, min_size=FOOTER_MIN, where="footer")
    baseline = FOOTER_BASELINE + 1.3   # the ascenders (0.78 of 7 pt) end PRINTABLE from the edge
    words = Text((TextLine(text, 0.0, 0.0),), "black", fitted.size, FOOTER_INK, rotate=90,
                 pivot=(baseline, page_h - start))
    if bar is None:
        label_size = fit_or_fail(measure, label, "regular", FOOTER_SIZE, width=pt(length - CALIBRATION_MM - 6),
                                 height=pt(4), wrap=False, leading=1.2, min_size=FOOTER_MIN, where="footer").size
        label_w = measure.width(label, "regular", label_size) / POINTS_PER_MM
        right = page_w - FOOTER_BASELINE   # the label's descenders at the lane's paper side
        x = page_w - BAR_Y - 0.05
        bottom = page_h - start - label_w - 4.0
        segments = [((x, bottom), (x, bottom - CALIBRATION_MM))]
        for i in range(6):
            tick = BAR_TICK if i in (0, 5) else 0.8
            segments.append(((x - tick, bottom - i * 10), (x + tick, bottom - i * 10)))
        bar = (Text((TextLine(label, 0.0, 0.0),), "regular", label_size, FOOTER_INK, rotate=90,
                    pivot=(right, page_h - start)),
               Path(tuple(segments), closed=False, stroke=REGISTRATION, width=BAR_WIDTH_PT / POINTS_PER_MM))
    return (words, *bar)


def fold_layout(fold: Mark, page_size: tuple[float, float], catalog: Catalog,
                measure: Measurer) -> tuple[Primitive, ...]:
    """The fold line, dashed, and a word beside it at each end, in the margins."""
    page_w, page_h = page_size
    width = SEAM_WIDTH_PT / POINTS_PER_MM
    out: list[Primitive] = [Line(fold.x1, page_h - fold.y1, fold.x2, page_h - fold.y2, stroke=REGISTRATION,
                                 width=width, dash=(4.0, 1.5, 0.8, 1.5))]
    word = catalog.get("fold.here")
    size = fit_or_fail(measure, word, "black", 6.5, width=pt(40), height=pt(4), wrap=False, leading=1.2,
                       where="fold line").size
    # In the margin, beside the line's end, clear of the paper edge.
    baseline = PRINTABLE + size * 0.8 / POINTS_PER_MM
    if fold.x1 == fold.x2:
        out.append(Text((TextLine(word, fold.x1 + 1.5, baseline),), "black", size, REGISTRATION))
    else:
        # Turned to read upwards, its glyphs towards the left edge.
        out.append(Text((TextLine(word, 1.5, 0.0),), "black", size, REGISTRATION, rotate=90,
                        pivot=(baseline, page_h - fold.y1)))
    return tuple(out)


def seams_layout(placement, page_h: float, catalog: Catalog, measure: Measurer) -> tuple[Primitive, ...]:
    """How a board part joins its neighbours, drawn on its front.

    A part cut along the middle of a shared strip ("over") gets the dashed cut
    line and its words on the half that is cut away. A part that slides under
    its neighbour gets, on the half the neighbour will cover, a guide line
    where the neighbour's edge goes, arrows pointing at it, and its words:
    nothing is drawn over art that stays in view.
    """
    part, trim = placement.part, placement.trim
    overlap = placement.copy.component.overlap
    half = overlap / 2
    width = SEAM_WIDTH_PT / POINTS_PER_MM
    out: list[Primitive] = []

    def label(text: str, x: float, y: float, *, turned: bool, along: float) -> None:
        fitted = fit_or_fail(measure, text, "black", 6.5, width=pt(along), height=pt(half - 1.0), wrap=False,
                             leading=1.2, where="board seam label")
        w = measure.width(text, "black", fitted.size) / 2 / POINTS_PER_MM
        # (x, y) is the middle of the text, y from the bottom; the baseline sits a third of the way down.
        drop = fitted.size * 0.35 / POINTS_PER_MM
        # A white ground keeps the words legible over the board's art (all of it cut off or covered).
        across, along = fitted.size * 1.15 / POINTS_PER_MM, 2 * w + 2.0
        if turned:
            out.append(Rect(x - across / 2, page_h - y - along / 2, across, along, fill="#ffffff",
                            radius=0.8))
            out.append(Text((TextLine(text, -w, drop),), "black", fitted.size, "#000000", rotate=90,
                            pivot=(x, page_h - y)))
        else:
            out.append(Rect(x - along / 2, page_h - y - across / 2, along, across, fill="#ffffff",
                            radius=0.8))
            out.append(Text((TextLine(text, x - w, page_h - y + drop),), "black", fitted.size, "#000000"))

    def arrow(x: float, y: float, dx: float, dy: float) -> None:
        """A small filled triangle whose tip is (x, y), pointing along (dx, dy)."""
        size, spread = 2.4, 1.2
        bx, by = x - dx * size, y - dy * size
        px, py = -dy * spread, dx * spread
        out.append(Path((((x, page_h - y), (bx + px, page_h - by - py), (bx - px, page_h - by + py)),),
                        closed=True, fill=GUIDE_INK))

    for seam in part.seams:
        names = ", ".join(f"{n + 1}/{part.count}" for n in seam.neighbours)
        # Each part says which it is, in the strip that is cut away or covered.
        text = catalog.get("board.cut_over", this=part.label, part=names) if seam.over else \
            catalog.plural("board.glue_under", len(seam.neighbours), this=part.label, part=names)
        vertical = seam.side in ("left", "right")
        length = trim.h if vertical else trim.w
        if seam.side == "left":
            line, middle = trim.x + half, trim.x + half / 2
        elif seam.side == "right":
            line, middle = trim.right - half, trim.right - half / 2
        elif seam.side == "top":
            line, middle = trim.top - half, trim.top - half / 2
        else:
            line, middle = trim.y + half, trim.y + half / 2
        if vertical:
            out.append(Line(line, page_h - trim.y, line, page_h - trim.top, stroke=REGISTRATION if seam.over
                            else GUIDE_INK, width=width if seam.over else width / 2,
                            dash=(2.0, 1.5) if seam.over else ()))
            label(text, middle, trim.y + trim.h * 0.375, turned=True, along=length * 0.4)
        else:
            out.append(Line(trim.x, page_h - line, trim.right, page_h - line, stroke=REGISTRATION if seam.over
                            else GUIDE_INK, width=width if seam.over else width / 2,
                            dash=(2.0, 1.5) if seam.over else ()))
            label(text, trim.x + trim.w * 0.375, middle, turned=False, along=length * 0.4)
        if seam.over:
            continue
        # Arrows in the covered half, their tips on the guide line, pointing at it.
        dx, dy = {"right": (-1, 0), "left": (1, 0), "top": (0, -1), "bottom": (0, 1)}[seam.side]
        for f in (0.1, 0.65, 0.9):
            if vertical:
                arrow(line, trim.y + trim.h * f, dx, dy)
            else:
                arrow(trim.x + trim.w * f, line, dx, dy)
    return tuple(out)
