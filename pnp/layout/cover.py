"""The first page of every kit, laid out: what is inside, how to print, cut and assemble, credits.

A long cover goes on to more pages; how many is known here, when the kit is
planned. The text flows down in mm from the page's bottom-left (as the
imposition measures) and each primitive is turned into the page's top-left
frame as it is made.
"""

from __future__ import annotations

from typing import Callable

from pnp.errors import TextFitError
from pnp.i18n import Catalog
from pnp.layout.colors import Inks
from pnp.layout.furniture import footer_layout
from pnp.layout.imposition import MARGIN, fit_grid, split_piece
from pnp.layout.primitives import QR, Line, Primitive, Rect, Symbol, Text, TextLine
from pnp.layout.text import Measurer, fit_or_fail
from pnp.model import Component, Game, PrintOptions
from pnp.units import POINTS_PER_MM, pt

BODY = 9.5
HEADING = 12.5
BAND_H = 34.0
QR_SIZE = 26.0


class CoverContents:
    """What the cover page says about the kit's pages."""

    def __init__(self, components: list[Component], copies: dict[str, int], sheets: dict[str, int],
                 has_backs: bool):
        self.components = components    # in the order they are printed
        self.copies = copies            # component id -> pieces
        self.sheets = sheets            # component id -> sheets
        self.has_backs = has_backs


class _Flow:
    """A column of text that moves down the page and goes on to a new page when full.

    ``y`` is measured up from the page's bottom edge, in mm; primitives are
    added to the current page in the page's top-left frame.
    """

    def __init__(self, measure: Measurer, page_h: float, x: float, y: float, width: float,
                 bottom: float, ink: str, next_page: Callable[[], None], top: float):
        self.measure, self.page_h = measure, page_h
        self.x, self.y, self.width, self.bottom, self.ink = x, y, width, bottom, ink
        self.next_page, self.top = next_page, top
        self.page: list[Primitive] = []

    def down(self, y: float) -> float:
        """A height up from the bottom edge as a distance down from the top edge."""
        return self.page_h - y

    def need(self, height: float, what: str) -> None:
        if self.y - height >= self.bottom:
            return
        if height > self.top - self.bottom:
            raise TextFitError(f"the cover page has no room for {what!r}; shorten the cover texts")
        self.next_page()
        self.y = self.top

    def fits(self, text: str, style: str, size: float, width: float) -> float:
        """The width of a one-line text drawn at its size, or a TextFitError if it is too wide."""
        fit_or_fail(self.measure, text, style, size, pt(width), pt(size * 1.2 / POINTS_PER_MM),
                    wrap=False, leading=1.2, min_size=size, where="cover")
        return self.measure.width(text, style, size)

    def heading(self, text: str, accent: str) -> None:
        self.y -= 3.0
        # Keep a heading with the start of its section.
        self.need(8 + 12, text)
        self.fits(text, "black", HEADING, self.width - 3.5)
        self.page.append(Rect(self.x, self.down(self.y), 1.6, 5.6, fill=accent))
        self.page.append(Text((TextLine(text, self.x + 3.5, self.down(self.y - 4.6)),), "black",
                              HEADING, self.ink))
        self.y -= 8.0

    def paragraph(self, text: str, size: float = BODY, style: str = "regular", indent: float = 0.0,
                  bullet: str | None = None) -> None:
        width = self.width - indent - (4 if bullet else 0)
        fitted = fit_or_fail(self.measure, text, style, size, pt(width), pt(200), wrap=True,
                             leading=1.3, min_size=size, where="cover")
        height = (fitted.size + (len(fitted.lines) - 1) * fitted.leading) / pt(1) + 1.6
        self.need(height, text[:30])
        baseline = self.down(self.y) + fitted.size * 0.8 / POINTS_PER_MM
        left = self.x + indent + (4 if bullet else 0)
        lines = [TextLine(bullet, self.x + indent, baseline)] if bullet else []
        for line in fitted.lines:
            lines.append(TextLine(line, left, baseline))
            baseline += fitted.leading / POINTS_PER_MM
        self.page.append(Text(tuple(lines), style, fitted.size, self.ink))
        self.y -= height


def lay_out_cover(game: Game, options: PrintOptions, page_size: tuple[float, float],
                  contents: CoverContents, measure: Measurer) -> list[tuple[Primitive, ...]]:
    """The cover's pages, each a tuple of primitives, footer included."""
    catalog = game.catalogs[options.lang]
    page_w, page_h = page_size
    inks = Inks(game.palette, None, options.ink_saver)
    ink = inks.line("ink")
    accent = inks.line("accent")
    pages: list[tuple[Primitive, ...]] = []
    first: list[Primitive] = [Rect(0, 0, page_w, BAND_H, fill=inks.fill("accent"))]
    title_ink = inks.line("#ffffff")
    if options.ink_saver:
        # The band is white: a rule keeps it apart from the page (drawn at the PDF's 1 pt default).
        first.append(Line(0, BAND_H, page_w, BAND_H, "#000000", 1 / POINTS_PER_MM))
    title = catalog.get("game.name")
    room = page_w - 2 * MARGIN - QR_SIZE - 6
    fitted = fit_or_fail(measure, title, "black", 30, pt(room), pt(14), wrap=False, leading=1.1,
                         min_size=14, where="cover title")
    first.append(Text((TextLine(title, MARGIN + 2, 17),), "black", fitted.size, title_ink))
    subtitle = catalog.get("cover.subtitle", players=_players(game.players, catalog),
                           paper=catalog.get(f"paper.{options.paper}"), lang=options.lang.upper())
    fit_or_fail(measure, subtitle, "black", 10.5, pt(room), pt(6), wrap=False, leading=1.1,
                min_size=10.5, where="cover subtitle")
    first.append(Text((TextLine(subtitle, MARGIN + 2, 25),), "black", 10.5, title_ink))
    url = options.qr_url or game.rules_url
    if url:
        first.append(QR(url, page_w - MARGIN - QR_SIZE, BAND_H - 4 - QR_SIZE, QR_SIZE, "#000000"))

    def footer() -> tuple[Primitive, ...]:
        return footer_layout(page_size, options, catalog, measure)

    def next_page() -> None:
        pages.append((*flow.page, *footer()))
        flow.page = []

    flow = _Flow(measure, page_h, MARGIN + 2, page_h - BAND_H - 4, page_w - 2 * MARGIN - 4, 14.0, ink,
                 next_page, page_h - MARGIN - 4)
    flow.page = first
    if url:
        flow.paragraph(catalog.get("cover.rules_link", url=url), size=8)

    # Contents
    flow.heading(catalog.get("cover.contents"), accent)
    components = contents.components
    col_w = [flow.width * f for f in (0.62, 0.19, 0.19)]
    row_h = 5.6
    flow.need(row_h * (len(components) + 1), "contents")
    y = flow.y
    headers = [catalog.get("cover.component"), catalog.get("cover.pieces"), catalog.get("cover.sheets")]
    x = flow.x
    lines = []
    for i, text in enumerate(headers):
        flow.fits(text, "black", 8.5, col_w[i] - 2)
        lines.append(TextLine(text, x + 1, flow.down(y - 4)))
        x += col_w[i]
    flow.page.append(Text(tuple(lines), "black", 8.5, ink))
    y -= row_h
    for index, component in enumerate(components):
        if index % 2 == 0:
            flow.page.append(Rect(flow.x, flow.down(y), flow.width, row_h, fill=inks.fill("light")))
        cells = [catalog.get(f"component.{component.id}.name"), str(contents.copies[component.id]),
                 str(contents.sheets[component.id])]
        x = flow.x
        for i, text in enumerate(cells):
            style = "black" if i == 0 else "regular"
            fitted = fit_or_fail(measure, text, style, BODY, pt(col_w[i] - 2), pt(row_h), wrap=False,
                                 leading=1.2, where="cover contents")
            flow.page.append(Text((TextLine(text, x + 1, flow.down(y - 4)),), style, fitted.size, ink))
            x += col_w[i]
        y -= row_h
    flow.y = y - 1

    # How to print
    flow.heading(catalog.get("cover.how_to_print"), accent)
    flow.paragraph(catalog.get("cover.print_paper", paper=catalog.get(f"paper.{options.paper}")), bullet="•")
    flow.paragraph(catalog.get("cover.print_scale"), bullet="•")
    flow.paragraph(catalog.get("cover.print_duplex" if contents.has_backs else "cover.print_simplex"),
                   bullet="•")
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
    for component in components:
        if fit_grid(page_w, page_h, *component.size, options.bleed, component.rotate,
                    component.gutter) is None:
            _assembly_diagram(flow, component, page_size, catalog, inks, accent)

    # Player colours
    sets: list[str] = []
    for component in components:
        for name in component.sets:
            if name not in sets:
                sets.append(name)
    if sets:
        flow.heading(catalog.get("cover.colors"), accent)
        flow.need(9, "colours")
        x = flow.x
        top = flow.down(flow.y)
        for name in sets:
            color = game.colors[name]
            label = catalog.get(f"color.{name}")
            label_w = flow.fits(label, "regular", BODY, flow.x + flow.width - x - 9) / pt(1)
            flow.page.append(Rect(x, top, 7, 7, inks.fill(color.rgb), ink, 0.6 / POINTS_PER_MM, 1.2))
            flow.page.append(Symbol(color.symbol, x + 3.5, top + 3.5, 5, inks.line(color.ink)))
            flow.page.append(Text((TextLine(label, x + 9, top + 5),), "regular", BODY, ink))
            x += 12 + label_w + 4
        flow.y -= 9
        flow.paragraph(catalog.get("cover.colors_note"), size=8)

    # Credits
    flow.heading(catalog.get("cover.credits"), accent)
    flow.paragraph(catalog.get("game.credits"), size=8.5)
    flow.paragraph(catalog.get("cover.made_with"), size=7.5, style="regular")
    pages.append((*flow.page, *footer()))
    return pages


def _players(players: tuple[int, int], catalog: Catalog) -> str:
    low, high = players
    return catalog.get("cover.players_one", n=low) if low == high else \
        catalog.get("cover.players_range", low=low, high=high)


def _assembly_diagram(flow: _Flow, component: Component, page_size: tuple[float, float],
                      catalog: Catalog, inks: Inks, accent: str) -> None:
    """A small map of a split piece: which sheet goes where, and the overlaps."""
    page_w, page_h = page_size
    parts = split_piece(page_w, page_h, *component.size, component.overlap, component.rotate)
    w, h = component.size
    scale = min(60 / w, 45 / h)
    flow.paragraph(catalog.get("cover.assembly", name=catalog.get(f"component.{component.id}.name"),
                               n=len(parts), overlap=f"{component.overlap:g}"), bullet="•")
    flow.need(h * scale + 4, "assembly diagram")
    ox, oy = flow.x + 6, flow.y - 2 - h * scale
    light = inks.fill("light")
    for part in parts:
        r = part.region
        flow.page.append(Rect(ox + r.x * scale, flow.down(oy + (r.y + r.h) * scale), r.w * scale,
                              r.h * scale, light, accent, 0.7 / POINTS_PER_MM))
        label_w = flow.measure.width(part.label, "black", 11)
        baseline = oy + (r.y + r.h / 2) * scale - 4 / POINTS_PER_MM
        flow.page.append(Text((TextLine(part.label, ox + (r.x + r.w / 2) * scale - label_w / 2 / POINTS_PER_MM,
                                        flow.down(baseline)),), "black", 11, flow.ink))
    flow.page.append(Rect(ox, flow.down(oy + h * scale), w * scale, h * scale, stroke=flow.ink,
                          width=1.2 / POINTS_PER_MM))
    flow.y = oy - 3
