"""What every sheet carries besides its pieces: footer, crop marks, board seams."""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from pnp.i18n import Catalog
from pnp.layout.imposition import MARGIN, Mark
from pnp.layout.plan import KitPlan, PagePlan
from pnp.model import PageKind
from pnp.render.colors import set_fill, set_stroke
from pnp.render.fonts import font
from pnp.render.text import fit_or_fail
from pnp.units import pt

FOOTER_SIZE = 7.0
MARK_WIDTH = 0.6           # points: well above a hairline, still crisp
CALIBRATION_MM = 50.0
REGISTRATION = "#000000"
FOOTER_INK = "#333333"


def draw_marks(canvas: Canvas, marks: tuple[Mark, ...]) -> None:
    if not marks:
        return
    canvas.saveState()
    set_stroke(canvas, REGISTRATION)
    canvas.setLineWidth(MARK_WIDTH)
    canvas.setLineCap(0)
    path = canvas.beginPath()
    for mark in marks:
        path.moveTo(pt(mark.x1), pt(mark.y1))
        path.lineTo(pt(mark.x2), pt(mark.y2))
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.restoreState()


def sheet_label(page: PagePlan, catalog: Catalog) -> str:
    side = {PageKind.FRONT: "footer.front", PageKind.BACK: "footer.back",
            PageKind.SHEET: "footer.one_sided"}[page.kind]
    return catalog.get("footer.sheet", n=page.sheet, total=page.sheets, side=catalog.get(side))


def draw_footer(canvas: Canvas, plan: KitPlan, page: PagePlan | None, catalog: Catalog) -> None:
    """Game, component, sheet n of N, language; and the 50 mm calibration bar."""
    page_w = plan.page_size[0]
    game = catalog.get("game.name")
    parts = [game]
    if page is not None and page.component is not None:
        parts += [catalog.get(f"component.{page.component.id}.name"), sheet_label(page, catalog)]
    parts.append(plan.options.lang.upper())
    left = "  ·  ".join(parts)
    right = catalog.get("footer.print_actual_size", mm=int(CALIBRATION_MM))
    bar_x = page_w - MARGIN - CALIBRATION_MM
    canvas.saveState()
    set_fill(canvas, FOOTER_INK)
    available = pt(page_w - 2 * MARGIN)
    fitted_right = fit_or_fail(right, "regular", FOOTER_SIZE, pt(CALIBRATION_MM + 60), pt(4),
                               wrap=False, leading=1.2, min_size=6, where="footer")
    fitted_left = fit_or_fail(left, "black", FOOTER_SIZE, available - pt(CALIBRATION_MM) - pt(6),
                              pt(4), wrap=False, leading=1.2, min_size=6, where="footer")
    canvas.setFont(font("black"), fitted_left.size)
    canvas.drawString(pt(MARGIN), pt(5.2), left)
    canvas.setFont(font("regular"), fitted_right.size)
    canvas.drawRightString(pt(page_w - MARGIN), pt(8.6), right)
    # Calibration bar: 50 mm with a tick every 10 mm.
    set_stroke(canvas, REGISTRATION)
    canvas.setLineWidth(0.7)
    y = pt(5.6)
    bar = canvas.beginPath()
    bar.moveTo(pt(bar_x), y)
    bar.lineTo(pt(bar_x + CALIBRATION_MM), y)
    for i in range(6):
        tick = pt(1.3 if i in (0, 5) else 0.9)
        bar.moveTo(pt(bar_x + i * 10), y - tick)
        bar.lineTo(pt(bar_x + i * 10), y + tick)
    canvas.drawPath(bar, stroke=1, fill=0)
    canvas.restoreState()


def draw_seams(canvas: Canvas, page: PagePlan, plan: KitPlan) -> None:
    """Join marks on the edges a board part shares with its neighbours."""
    placement = page.placements[0]
    part = placement.part
    trim = placement.trim
    overlap = placement.copy.component.overlap
    catalog = plan.game.catalogs[plan.options.lang]
    canvas.saveState()
    set_stroke(canvas, REGISTRATION)
    canvas.setLineWidth(0.8)

    def cross(x: float, y: float) -> None:
        r = 2.6
        set_fill(canvas, "#ffffff")
        canvas.circle(pt(x), pt(y), pt(r), stroke=1, fill=1)
        canvas.line(pt(x - r - 1.2), pt(y), pt(x + r + 1.2), pt(y))
        canvas.line(pt(x), pt(y - r - 1.2), pt(x), pt(y + r + 1.2))

    def label(text: str, x: float, y: float, angle: int) -> None:
        # Between two join marks: at most a fifth of the edge on either side of (x, y).
        room = (trim.h if angle == 90 else trim.w) * 0.25
        fitted = fit_or_fail(text, "black", 6.5, pt(room), pt(4), wrap=False, leading=1.2,
                             min_size=6, where="board seam label")
        canvas.saveState()
        canvas.translate(pt(x), pt(y))
        canvas.rotate(angle)
        set_fill(canvas, "#000000")
        canvas.setFont(font("black"), fitted.size)
        canvas.drawCentredString(0, -pt(1), text)
        canvas.restoreState()

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
            span = [trim.y + trim.h * f for f in (0.2, 0.5, 0.8)]
            if on_top:
                canvas.setDash([pt(2), pt(1.5)])
                canvas.line(pt(at), pt(trim.y), pt(at), pt(trim.top))
                canvas.setDash([])
            for y in span:
                cross(at, y)
            label(text, at + (-overlap / 4 if on_top else overlap / 4), trim.y + trim.h * 0.35, 90)
        else:
            span = [trim.x + trim.w * f for f in (0.2, 0.5, 0.8)]
            if on_top:
                canvas.setDash([pt(2), pt(1.5)])
                canvas.line(pt(trim.x), pt(at), pt(trim.right), pt(at))
                canvas.setDash([])
            for x in span:
                cross(x, at)
            label(text, trim.x + trim.w * 0.35, at + (overlap / 4 if on_top else -overlap / 4), 0)
    canvas.restoreState()
