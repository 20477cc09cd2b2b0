"""What every sheet carries besides its pieces, laid out: footer, crop marks, board seams.

Page primitives are in mm from the page's top-left, y downwards; the
imposition's boxes and marks (from the bottom-left) are turned over here.
"""

from __future__ import annotations

from functools import lru_cache

from pnp.i18n import Catalog
from pnp.layout.imposition import MARGIN
from pnp.layout.primitives import Ellipse, Line, Path, Primitive, Text, TextLine
from pnp.layout.text import Measurer, fit_or_fail
from pnp.model import PageKind, PrintOptions
from pnp.units import POINTS_PER_MM, pt

FOOTER_SIZE = 7.0
MARK_WIDTH_PT = 0.6        # well above a hairline, still crisp
CALIBRATION_MM = 50.0
REGISTRATION = "#000000"
FOOTER_INK = "#333333"
BAR_WIDTH_PT = 0.7
SEAM_WIDTH_PT = 0.8


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


def sheet_label(kind: PageKind, sheet: int, sheets: int, catalog: Catalog) -> str:
    side = {PageKind.FRONT: "footer.front", PageKind.BACK: "footer.back",
            PageKind.SHEET: "footer.one_sided"}[kind]
    return catalog.get("footer.sheet", n=sheet, total=sheets, side=catalog.get(side))


def footer_layout(page_size: tuple[float, float], options: PrintOptions, catalog: Catalog,
                  measure: Measurer, component_id: str | None = None, kind: PageKind | None = None,
                  sheet: int = 0, sheets: int = 0) -> tuple[Primitive, ...]:
    """Game, component, sheet n of N, language; and the 50 mm calibration bar."""
    page_w, page_h = page_size
    parts = [catalog.get("game.name")]
    if component_id is not None:
        parts += [catalog.get(f"component.{component_id}.name"), sheet_label(kind, sheet, sheets, catalog)]
    parts.append(options.lang.upper())
    left = "  ·  ".join(parts)
    right = catalog.get("footer.print_actual_size", mm=int(CALIBRATION_MM))
    bar_x = page_w - MARGIN - CALIBRATION_MM
    available = pt(page_w - 2 * MARGIN)
    fitted_right = fit_or_fail(measure, right, "regular", FOOTER_SIZE, pt(CALIBRATION_MM + 60), pt(4),
                               wrap=False, leading=1.2, where="footer")
    fitted_left = fit_or_fail(measure, left, "black", FOOTER_SIZE, available - pt(CALIBRATION_MM) - pt(6),
                              pt(4), wrap=False, leading=1.2, where="footer")
    right_w = measure.width(right, "regular", fitted_right.size)
    return (
        Text((TextLine(left, MARGIN, page_h - 5.2),), "black", fitted_left.size, FOOTER_INK),
        Text((TextLine(right, page_w - MARGIN - right_w / POINTS_PER_MM, page_h - 8.6),), "regular",
             fitted_right.size, FOOTER_INK),
        _calibration_bar(bar_x, page_h),
    )


@lru_cache(maxsize=16)
def _calibration_bar(bar_x: float, page_h: float) -> Path:
    """50 mm with a tick every 10 mm: the same on every page of a paper size."""
    y = page_h - 5.6
    segments = [((bar_x, y), (bar_x + CALIBRATION_MM, y))]
    for i in range(6):
        tick = 1.3 if i in (0, 5) else 0.9
        segments.append(((bar_x + i * 10, y + tick), (bar_x + i * 10, y - tick)))
    return Path(tuple(segments), closed=False, stroke=REGISTRATION, width=BAR_WIDTH_PT / POINTS_PER_MM)


def seams_layout(placement, page_h: float, catalog: Catalog, measure: Measurer) -> tuple[Primitive, ...]:
    """Join marks on the edges a board part shares with its neighbours."""
    part, trim = placement.part, placement.trim
    overlap = placement.copy.component.overlap
    width = SEAM_WIDTH_PT / POINTS_PER_MM
    out: list[Primitive] = []

    def cross(x: float, y: float) -> None:
        r = 2.6
        top = page_h - y
        out.append(Ellipse(x, top, r, r, fill="#ffffff", stroke=REGISTRATION, width=width))
        out.append(Line(x - r - 1.2, top, x + r + 1.2, top, REGISTRATION, width))
        out.append(Line(x, top + r + 1.2, x, top - r - 1.2, REGISTRATION, width))

    def label(text: str, x: float, y: float, angle: int) -> None:
        # Between two join marks: at most a fifth of the edge on either side of (x, y).
        room = (trim.h if angle == 90 else trim.w) * 0.25
        fitted = fit_or_fail(measure, text, "black", 6.5, pt(room), pt(4), wrap=False, leading=1.2,
                             where="board seam label")
        half = measure.width(text, "black", fitted.size) / 2 / POINTS_PER_MM
        if angle:
            out.append(Text((TextLine(text, -half, 1.0),), "black", fitted.size, "#000000", angle,
                            (x, page_h - y)))
        else:
            out.append(Text((TextLine(text, x - half, page_h - y + 1.0),), "black", fitted.size, "#000000"))

    def dashed(x1: float, y1: float, x2: float, y2: float) -> None:
        out.append(Line(x1, page_h - y1, x2, page_h - y2, REGISTRATION, width, dash=(2.0, 1.5)))

    number = part.index
    cols = part.cols
    # Left and top edges: this sheet is laid over its neighbour after cutting
    # along the dashed line; right and bottom edges are glued under.
    edges = []
    if part.col > 0:
        edges.append(("v", trim.x + overlap / 2, number - 1 + 1, True))
    if part.col < cols - 1:
        edges.append(("v", trim.right - overlap / 2, number + 1 + 1, False))
    if part.row > 0:
        edges.append(("h", trim.top - overlap / 2, number - cols + 1, True))
    if part.row < part.rows - 1:
        edges.append(("h", trim.y + overlap / 2, number + cols + 1, False))
    total = part.cols * part.rows
    for orient, at, neighbour, on_top in edges:
        text = catalog.get("board.cut_over" if on_top else "board.glue_under",
                           part=f"{neighbour}/{total}")
        if orient == "v":
            if on_top:
                dashed(at, trim.y, at, trim.top)
            for y in [trim.y + trim.h * f for f in (0.2, 0.5, 0.8)]:
                cross(at, y)
            label(text, at + (-overlap / 4 if on_top else overlap / 4), trim.y + trim.h * 0.35, 90)
        else:
            if on_top:
                dashed(trim.x, at, trim.right, at)
            for x in [trim.x + trim.w * f for f in (0.2, 0.5, 0.8)]:
                cross(x, at)
            label(text, trim.x + trim.w * 0.35, at + (overlap / 4 if on_top else -overlap / 4), 0)
    return tuple(out)
