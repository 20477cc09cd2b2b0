"""The first page of every kit: what is inside, how to print, cut and assemble, credits."""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from pnp.errors import TextFitError
from pnp.i18n import Catalog
from pnp.layout.imposition import MARGIN, split_piece, fit_grid
from pnp.layout.plan import KitPlan, copies
from pnp.model import PageKind
from pnp.render.colors import Inks, set_fill, set_stroke
from pnp.render.elements import draw_qr
from pnp.render.fonts import font
from pnp.render.furniture import draw_footer
from pnp.render.shapes import symbol_path
from pnp.render.text import fit_or_fail
from pnp.units import pt

BODY = 9.5
HEADING = 12.5


class _Flow:
    """A column of text that moves down the page and goes on to a new page when full."""

    def __init__(self, canvas: Canvas, x: float, y: float, width: float, bottom: float, ink: str,
                 next_page=None, top: float = 0.0):
        self.canvas, self.x, self.y, self.width, self.bottom, self.ink = canvas, x, y, width, bottom, ink
        self.next_page, self.top = next_page, top
        self.pages = 1

    def need(self, height: float, what: str) -> None:
        if self.y - height >= self.bottom:
            return
        if self.next_page is None or height > self.top - self.bottom:
            raise TextFitError(f"the cover page has no room for {what!r}; shorten the cover texts")
        self.next_page()
        self.pages += 1
        self.y = self.top

    def heading(self, text: str, accent: str) -> None:
        self.y -= 3.0
        # Keep a heading with the start of its section.
        self.need(8 + 12, text)
        c = self.canvas
        set_fill(c, accent)
        c.rect(pt(self.x), pt(self.y - 5.6), pt(1.6), pt(5.6), stroke=0, fill=1)
        set_fill(c, self.ink)
        c.setFont(font("black"), HEADING)
        c.drawString(pt(self.x + 3.5), pt(self.y - 4.6), text)
        self.y -= 8.0

    def paragraph(self, text: str, size: float = BODY, style: str = "regular", indent: float = 0.0,
                  bullet: str | None = None) -> None:
        width = self.width - indent - (4 if bullet else 0)
        fitted = fit_or_fail(text, style, size, pt(width), pt(200), wrap=True, leading=1.3,
                             min_size=size, where="cover")
        height = (fitted.size + (len(fitted.lines) - 1) * fitted.leading) / pt(1) + 1.6
        self.need(height, text[:30])
        c = self.canvas
        set_fill(c, self.ink)
        c.setFont(font(style), fitted.size)
        baseline = pt(self.y) - fitted.size * 0.8
        left = pt(self.x + indent + (4 if bullet else 0))
        if bullet:
            c.drawString(pt(self.x + indent), baseline, bullet)
        for line in fitted.lines:
            c.drawString(left, baseline, line)
            baseline -= fitted.leading
        self.y -= height


def draw_cover(canvas: Canvas, plan: KitPlan, catalog: Catalog) -> int:
    """Draw the cover, going on to more pages if its contents need them; return how many."""
    game, options = plan.game, plan.options
    page_w, page_h = plan.page_size
    inks = Inks(game.palette, None, options.ink_saver)
    ink = inks.line("ink")
    accent = inks.line("accent")
    band = inks.fill("accent")
    # Title band
    band_h = 34.0
    set_fill(canvas, band)
    canvas.rect(0, pt(page_h - band_h), pt(page_w), pt(band_h), stroke=0, fill=1)
    title_ink = inks.line("#ffffff")
    if options.ink_saver:
        set_stroke(canvas, "#000000")
        canvas.line(0, pt(page_h - band_h), pt(page_w), pt(page_h - band_h))
    set_fill(canvas, title_ink)
    title = catalog.get("game.name")
    qr_size = 26.0
    fitted = fit_or_fail(title, "black", 30, pt(page_w - 2 * MARGIN - qr_size - 6), pt(14),
                         wrap=False, leading=1.1, min_size=14, where="cover title")
    canvas.setFont(font("black"), fitted.size)
    canvas.drawString(pt(MARGIN + 2), pt(page_h - 17), title)
    canvas.setFont(font("black"), 10.5)
    canvas.drawString(pt(MARGIN + 2), pt(page_h - 25),
                      catalog.get("cover.subtitle", players=_players(game.players, catalog),
                                  paper=options.paper.upper(), lang=options.lang.upper()))
    url = options.qr_url or game.rules_url
    if url:
        draw_qr(canvas, url, pt(page_w - MARGIN - qr_size), pt(page_h - band_h + 4), pt(qr_size), "#000000")

    def next_page() -> None:
        draw_footer(canvas, plan, None, catalog)
        canvas.showPage()

    flow = _Flow(canvas, MARGIN + 2, page_h - band_h - 4, page_w - 2 * MARGIN - 4, 14.0, ink,
                 next_page, page_h - MARGIN - 4)
    if url:
        flow.paragraph(catalog.get("cover.rules_link", url=url), size=8)

    # Contents
    flow.heading(catalog.get("cover.contents"), accent)
    components = []
    for page in plan.pages:
        if page.component is not None and page.component not in components:
            components.append(page.component)
    col_w = [flow.width * f for f in (0.62, 0.19, 0.19)]
    row_h = 5.6
    flow.need(row_h * (len(components) + 1), "contents")
    y = flow.y
    canvas.setFont(font("black"), 8.5)
    set_fill(canvas, ink)
    headers = [catalog.get("cover.component"), catalog.get("cover.pieces"), catalog.get("cover.sheets")]
    x = flow.x
    for i, text in enumerate(headers):
        canvas.drawString(pt(x + 1), pt(y - 4), text)
        x += col_w[i]
    y -= row_h
    for index, component in enumerate(components):
        if index % 2 == 0:
            set_fill(canvas, inks.fill("light") if "light" in game.palette else "#f2f2f2")
            canvas.rect(pt(flow.x), pt(y - row_h), pt(flow.width), pt(row_h), stroke=0, fill=1)
        set_fill(canvas, ink)
        cells = [catalog.get(f"component.{component.id}.name"), str(len(copies(component))),
                 str(plan.sheets_of(component.id))]
        x = flow.x
        for i, text in enumerate(cells):
            style = "black" if i == 0 else "regular"
            fitted = fit_or_fail(text, style, BODY, pt(col_w[i] - 2), pt(row_h), wrap=False,
                                 leading=1.2, min_size=6, where="cover contents")
            canvas.setFont(font(style), fitted.size)
            canvas.drawString(pt(x + 1), pt(y - 4), text)
            x += col_w[i]
        y -= row_h
    flow.y = y - 1

    # How to print
    flow.heading(catalog.get("cover.how_to_print"), accent)
    has_backs = any(p.kind is PageKind.BACK for p in plan.pages)
    flow.paragraph(catalog.get("cover.print_paper", paper=options.paper.upper()), bullet="•")
    flow.paragraph(catalog.get("cover.print_scale"), bullet="•")
    flow.paragraph(catalog.get("cover.print_duplex" if has_backs else "cover.print_simplex"), bullet="•")
    if options.back_offset != (0.0, 0.0):
        flow.paragraph(catalog.get("cover.print_offset", x=options.back_offset[0], y=options.back_offset[1]),
                       bullet="•")
    if options.ink_saver:
        flow.paragraph(catalog.get("cover.ink_saver"), bullet="•")

    # Cutting and assembly
    flow.heading(catalog.get("cover.how_to_cut"), accent)
    flow.paragraph(catalog.get("cover.cut_general", bleed=f"{options.bleed:g}"), bullet="•")
    for component in components:
        flow.paragraph(catalog.get(f"component.{component.id}.name") + " — "
                       + catalog.get(f"component.{component.id}.cut"), bullet="•")
    page_w_mm, page_h_mm = plan.page_size
    for component in components:
        if fit_grid(page_w_mm, page_h_mm, *component.size, options.bleed, component.rotate,
                    component.gutter) is None:
            _assembly_diagram(flow, component, plan, catalog, inks, accent)

    # Player colours
    sets = []
    for component in components:
        for name in component.sets:
            if name not in sets:
                sets.append(name)
    if sets:
        flow.heading(catalog.get("cover.colors"), accent)
        flow.need(9, "colours")
        x = flow.x
        for name in sets:
            color = game.colors[name]
            set_fill(canvas, inks.fill(color.rgb))
            set_stroke(canvas, ink)
            canvas.setLineWidth(0.6)
            canvas.roundRect(pt(x), pt(flow.y - 7), pt(7), pt(7), pt(1.2), stroke=1, fill=1)
            set_fill(canvas, inks.line(color.ink))
            canvas.drawPath(symbol_path(canvas, color.symbol, pt(x + 3.5), pt(flow.y - 3.5), pt(5)),
                            stroke=0, fill=1)
            set_fill(canvas, ink)
            canvas.setFont(font("regular"), BODY)
            label = catalog.get(f"color.{name}")
            canvas.drawString(pt(x + 9), pt(flow.y - 5), label)
            x += 12 + canvas.stringWidth(label, font("regular"), BODY) / pt(1) + 4
        flow.y -= 9
        flow.paragraph(catalog.get("cover.colors_note"), size=8)

    # Credits
    flow.heading(catalog.get("cover.credits"), accent)
    flow.paragraph(catalog.get("game.credits"), size=8.5)
    flow.paragraph(catalog.get("cover.made_with"), size=7.5, style="regular")
    draw_footer(canvas, plan, None, catalog)
    return flow.pages


def _players(players: tuple[int, int], catalog: Catalog) -> str:
    low, high = players
    return catalog.get("cover.players_one", n=low) if low == high else \
        catalog.get("cover.players_range", low=low, high=high)


def _assembly_diagram(flow: _Flow, component, plan: KitPlan, catalog: Catalog, inks: Inks,
                      accent: str) -> None:
    """A small map of a split piece: which sheet goes where, and the overlaps."""
    page_w, page_h = plan.page_size
    parts = split_piece(page_w, page_h, *component.size, component.overlap, component.rotate)
    w, h = component.size
    scale = min(60 / w, 45 / h)
    flow.paragraph(catalog.get("cover.assembly", name=catalog.get(f"component.{component.id}.name"),
                               n=len(parts), overlap=f"{component.overlap:g}"), bullet="•")
    flow.need(h * scale + 4, "assembly diagram")
    canvas = flow.canvas
    ox, oy = flow.x + 6, flow.y - 2 - h * scale
    canvas.saveState()
    canvas.setLineWidth(0.7)
    for part in parts:
        r = part.region
        set_fill(canvas, inks.fill("light") if "light" in plan.game.palette else "#eeeeee")
        set_stroke(canvas, accent)
        canvas.rect(pt(ox + r.x * scale), pt(oy + r.y * scale), pt(r.w * scale), pt(r.h * scale),
                    stroke=1, fill=1)
        set_fill(canvas, flow.ink)
        canvas.setFont(font("black"), 11)
        canvas.drawCentredString(pt(ox + (r.x + r.w / 2) * scale), pt(oy + (r.y + r.h / 2) * scale) - 4,
                                 part.label)
    set_stroke(canvas, flow.ink)
    canvas.setLineWidth(1.2)
    canvas.rect(pt(ox), pt(oy), pt(w * scale), pt(h * scale), stroke=1, fill=0)
    canvas.restoreState()
    flow.y = oy - 3
