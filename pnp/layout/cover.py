"""The first page of every kit, laid out: what the kit is, the print plan, cutting, credits.

The cover is the kit's print plan: which pages print on both sides and which
on one, on how many sheets of which paper, then what is inside and on which
sheets, and how to cut and assemble it. Its numbers come from the same
plan as the pages, so they cannot disagree.

A long cover goes on to more pages; how many is known here, when the kit is
planned. The text flows down in mm from the page's bottom-left (as the
imposition measures) and each primitive is turned into the page's top-left
frame as it is made.
"""

from __future__ import annotations

from typing import Callable, Sequence

from pnp.core.errors import TextFitError
from pnp.core.i18n import Catalog
from pnp.core.records import NamedTuple
from pnp.layout.colors import Inks
from pnp.layout.furniture import Imprint
from pnp.layout.imposition import MARGIN, PRINTABLE
from pnp.layout.primitives import QR, Primitive, Rect, Symbol, Text, TextLine
from pnp.layout.text import Measurer, fit_or_fail
from pnp.template.model import Component, Game, PrintOptions
from pnp.core.units import POINTS_PER_MM, pt

BODY = 8.5
TABLE = 8.0
HEADING = 11.0
BAND_H = 34.0
QR_SIZE = 26.0


class PlanRow(NamedTuple):
    """Consecutive sheets printed alike, for the cover's print plan."""

    first_page: int
    last_page: int
    sheets: int
    how: str                      # "both" (front and back), "cover_both" (a cover sheet printed
                                  # on both sides), "fold" or "one" (one side)
    stock: str                    # the paper: one of STOCKS (see :func:`stock_of`)
    components: tuple[str, ...]
    cover: bool = False           # the cover's own sheets (the cover itself on page 1)
    alignment: bool = False       # the optional printer alignment sheet, first after the cover


class CoverContents(NamedTuple):
    """What the cover says about the kit's pages."""

    components: Sequence[Component]      # in the order they are printed
    copies: dict[str, int]               # component id -> pieces
    sheets: dict[str, tuple[int, ...]]   # component id -> the sheets that carry it
    rows: tuple[PlanRow, ...]
    total_pages: int
    total_sheets: int
    duplex: bool                         # meant to be printed double-sided
    folds: bool                          # has fold pages
    stocks: dict[str, str]               # component id -> the paper it is printed on
    #: Pieces too big for a sheet, each with the parts it is split into.
    boards: tuple[tuple[Component, tuple], ...] = ()
    cover_pages: int = 1
    #: Pieces printed below the cover's text on its first page, and where
    #: that text must stop (mm from the bottom edge) on every cover page.
    below: tuple[str, ...] = ()
    text_bottom: float = 14.0
    #: The least colour printed past a cut line that pieces do not share, mm.
    bleed: float = 3.0
    #: Whether some pieces are printed edge to edge, sharing a cut line.
    butted: bool = False
    #: Whether some pieces print a back (their gutters keep backs apart).
    backs: bool = False
    #: One-sided tiles, tokens and boards: glued onto card before cutting, if wanted.
    mount: bool = False
    #: The kit has the printer alignment sheet, right after the cover's sheets: printed first.
    alignment: bool = False
    #: Components a cutting machine cuts (--cutter): no hand follows their outlines.
    machine: frozenset[str] = frozenset()
    #: The alignment sheet's front page (its back is the next).
    alignment_page: int = 0


#: The papers a kit is printed on, from the lightest, by the names its manifest
#: gives them: paper to read, write on, fold or glue; card stock for cards;
#: thick card for tiles and tokens whose backs are printed.
PAPER, CARD, THICK = "paper-80-120", "card-160-220", "card-220-300"
STOCKS = (PAPER, CARD, THICK)


def stock_of(component: Component, backs: bool, fold: bool = False) -> str:
    """The paper a component is printed on (one of :data:`STOCKS`).

    Sheets to read or write on, and one-sided boards, tiles and tokens (glued
    onto card before cutting if wanted), go on paper; cards on card stock;
    tiles and tokens whose backs are printed on thick card, since gluing
    would hide the backs. Pieces folded over (``fold``) go on paper: folded
    and glued, its two layers make the piece, where card would crack.

    >>> from pnp.template.model import Component
    >>> tile = Component("tiles", (23.0, 23.0), (), (), (), kind="tile")
    >>> stock_of(tile, True), stock_of(tile, True, fold=True), stock_of(tile, False)
    ('card-220-300', 'paper-80-120', 'paper-80-120')
    """
    if component.kind == "sheet" or (backs and fold):
        return PAPER
    if component.kind == "card":
        return CARD
    if component.kind == "board":
        return CARD if backs else PAPER
    return THICK if backs else PAPER


def sheet_ranges(numbers: Sequence[int]) -> str:
    """Sheet numbers as ranges: 2, 3, 4, 7 -> "2–4, 7".

    >>> sheet_ranges([2, 3, 4, 7])
    '2–4, 7'
    """
    out: list[str] = []
    run: list[int] = []
    for n in sorted(set(numbers)):
        if run and n == run[-1] + 1:
            run.append(n)
            continue
        if run:
            out.append(f"{run[0]}–{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [n]
    if run:
        out.append(f"{run[0]}–{run[-1]}" if len(run) > 1 else str(run[0]))
    return ", ".join(out)


class _Flow:
    """A column of text that moves down the page and goes on to a new page when full.

    ``y`` is measured up from the page's bottom edge, in mm; primitives are
    added to the current page in the page's top-left frame.
    """

    def __init__(self, measure: Measurer, page_h: float, *, x: float, y: float, width: float,
                 bottom: float, ink: str, next_page: Callable[[], None], top: float, tight: bool = False):
        self.measure, self.page_h = measure, page_h
        self.x, self.y, self.width, self.bottom, self.ink = x, y, width, bottom, ink
        self.next_page, self.top = next_page, top
        self.page: list[Primitive] = []
        #: Set closer (lines, paragraphs, headings; never smaller type) to keep the cover on one page.
        self.leading, self.row_leading, self.after = (1.15, 1.12, 0.7) if tight else (1.25, 1.22, 1.4)
        self.heading_gap = 1.0 if tight else 2.0

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
        fit_or_fail(self.measure, text, style, size, width=pt(width), height=pt(size * 1.2 / POINTS_PER_MM),
                    wrap=False, leading=1.2, min_size=size, where="cover")
        return self.measure.width(text, style, size)

    def heading(self, text: str, accent: str, keep: float = 12.0) -> None:
        self.y -= self.heading_gap
        # Keep a heading with the start of its section.
        self.need(6.5 + keep, text)
        self.fits(text, "black", HEADING, self.width - 3.5)
        self.page.append(Rect(self.x, self.down(self.y), 1.6, 4.8, fill=accent))
        self.page.append(Text((TextLine(text, self.x + 3.5, self.down(self.y - 4.0)),), "black",
                              HEADING, self.ink))
        self.y -= 6.5

    def paragraph(self, text: str, *, size: float = BODY, style: str = "regular", indent: float = 0.0,
                  bullet: str | None = None, right: float = 0.0, keep: float = 0.0) -> None:
        """A wrapped paragraph; ``right`` mm are left free at its right, and
        ``keep`` mm below its top are kept on the same page (a figure beside it)."""
        width = self.width - indent - (4 if bullet else 0) - right
        fitted = fit_or_fail(self.measure, text, style, size, width=pt(width), height=pt(200), wrap=True,
                             leading=self.leading, min_size=size, where="cover")
        height = (fitted.size + (len(fitted.lines) - 1) * fitted.leading) / pt(1) + self.after
        self.need(max(height, keep), text[:30])
        baseline = self.down(self.y) + fitted.size * 0.8 / POINTS_PER_MM
        left = self.x + indent + (4 if bullet else 0)
        lines = [TextLine(bullet, self.x + indent, baseline)] if bullet else []
        for line in fitted.lines:
            lines.append(TextLine(line, left, baseline))
            baseline += fitted.leading / POINTS_PER_MM
        self.page.append(Text(tuple(lines), style, fitted.size, self.ink))
        self.y -= height

    def table(self, headers: list[str], rows: list[list[str]], fractions: Sequence[float], *,
              shade: str, first_bold: bool = True) -> None:
        """Rows of cells that wrap inside their column; a row never splits across pages."""
        widths = [self.width * f for f in fractions]
        line_h = TABLE * self.row_leading / POINTS_PER_MM

        def cells(row: list[str], style_of) -> tuple[list[Text], float]:
            texts, tallest = [], 1
            x = self.x
            for i, text in enumerate(row):
                style = style_of(i)
                fitted = fit_or_fail(self.measure, text, style, TABLE, width=pt(widths[i] - 2), height=pt(100),
                                     wrap=True, leading=self.row_leading, min_size=TABLE, where="cover table")
                tallest = max(tallest, len(fitted.lines))
                texts.append((x + 1, fitted.lines, style))
                x += widths[i]
            return texts, tallest * line_h + 1.8

        header_cells, header_h = cells(headers, lambda i: "black")
        self.need(header_h + 6, "table")

        def put(texts, height: float, fill: str | None) -> None:
            if fill:
                self.page.append(Rect(self.x, self.down(self.y), self.width, height, fill=fill))
            for x, lines, style in texts:
                baseline = self.down(self.y) + 1.0 + TABLE * 0.8 / POINTS_PER_MM
                placed = []
                for line in lines:
                    placed.append(TextLine(line, x, baseline))
                    baseline += line_h
                self.page.append(Text(tuple(placed), style, TABLE, self.ink))
            self.y -= height

        put(header_cells, header_h, None)
        for index, row in enumerate(rows):
            texts, height = cells(row, lambda i: "black" if first_bold and i == 0 else "regular")
            if self.y - height < self.bottom:
                self.need(height, "table row")
                put(header_cells, header_h, None)
            put(texts, height, shade if index % 2 == 0 else None)
        self.y -= 1.0


class _Cover(NamedTuple):
    """What every section of the cover is written with."""

    game: Game
    options: PrintOptions
    contents: CoverContents
    catalog: Catalog
    inks: Inks
    flow: _Flow
    names: dict[str, str]   # component id -> its name in the kit's language

    @property
    def accent(self) -> str:
        return self.inks.line("accent")


def lay_out_cover(game: Game, options: PrintOptions, page_size: tuple[float, float],
                  contents: CoverContents, *, measure: Measurer, imprint: Imprint | None,
                  footer: Callable[[int], tuple]) -> list[tuple[Primitive, ...]]:
    """The cover's pages, each a tuple of primitives, footer included: the title band, the
    print plan and its advice, the contents, cutting and assembly, the player colours, the credits.

    ``footer(n)`` lays out the footer of cover page ``n``; ``imprint`` says which
    pnp made the kit (or None).
    """
    pages = _cover_pages(game, options, page_size, contents, measure=measure, imprint=imprint, footer=footer,
                         tight=False)
    if len(pages) > 1:
        # Set closer, a cover that ran on often fits its first page: a sheet of paper saved.
        tight = _cover_pages(game, options, page_size, contents, measure=measure, imprint=imprint, footer=footer,
                             tight=True)
        if len(tight) < len(pages):
            return tight
    return pages


def _cover_pages(game: Game, options: PrintOptions, page_size: tuple[float, float], contents: CoverContents, *,
                 measure: Measurer, imprint: Imprint | None, footer: Callable[[int], tuple], tight: bool
                 ) -> list[tuple[Primitive, ...]]:
    catalog = game.catalogs[options.lang]
    page_w, page_h = page_size
    inks = Inks(game.palette, None, options.ink_saver)
    pages: list[tuple[Primitive, ...]] = []
    url = options.qr_url or game.rules_url

    def next_page() -> None:
        pages.append((*flow.page, *footer(len(pages) + 1)))
        flow.page = []

    flow = _Flow(measure, page_h, x=MARGIN + 2, y=page_h - BAND_H - 3, width=page_w - 2 * MARGIN - 4,
                 bottom=contents.text_bottom, ink=inks.line("ink"), next_page=next_page, top=page_h - MARGIN - 4, tight=tight)
    flow.page = _title_band(game, options, page_w, catalog, inks=inks, measure=measure, imprint=imprint, url=url)
    if url:
        flow.paragraph(catalog.get("cover.rules_link", url=url), size=7.5)
    cover = _Cover(game, options, contents, catalog, inks=inks, flow=flow,
                   names={c.id: catalog.get(f"component.{c.id}.name") for c in contents.components})
    _print_plan(cover)
    _print_advice(cover)
    _contents_table(cover)
    _cutting(cover)
    _player_colours(cover)
    _credits(cover)
    pages.append((*flow.page, *footer(len(pages) + 1)))
    return pages


def _credits(cover: _Cover) -> None:
    """The game's credits and licence, its own catalogs' words, and what made the kit: a fan
    copy of someone else's game (the shipped kits), or the designer's own (``fan_copy = false``)."""
    flow, catalog = cover.flow, cover.catalog
    flow.heading(catalog.get("cover.credits"), cover.accent)
    flow.paragraph(catalog.get("game.credits"), size=8)
    if catalog.has("game.licence"):
        flow.paragraph(catalog.get("game.licence"), size=8)
    for own in cover.game.fonts.values():   # the template's own fonts whose licence it names
        if own.licence:
            flow.paragraph(catalog.get("cover.font_licence", font=own.family, licence=own.licence), size=8)
    flow.paragraph(catalog.get("cover.made_with" if cover.game.fan_copy else "cover.made_with_own"), size=7.5,
                   style="regular")


def _title_band(game: Game, options: PrintOptions, page_w: float, catalog: Catalog, *, inks: Inks,
                measure: Measurer, imprint: Imprint | None, url: str | None) -> list[Primitive]:
    """The band across the top of the first page: the game's name, players, paper and
    language, which pnp made it, and the QR code of the rules."""
    # The title band keeps to the printable area, as everything printed on a page does:
    # a home printer would leave its outer 5 mm white, and unevenly.
    band = Rect(PRINTABLE, PRINTABLE, page_w - 2 * PRINTABLE, BAND_H - PRINTABLE, fill=inks.fill("accent"),
                radius=2.0)
    first: list[Primitive] = [band]
    title_ink = inks.line("#ffffff")
    if options.ink_saver:
        # The band is white: a rule keeps it apart from the page (drawn at the PDF's 1 pt default).
        inner = 0.5 / POINTS_PER_MM   # the 1 pt rule's outer half inside the printable area too
        first.append(Rect(band.x + inner, band.y + inner, band.w - 2 * inner, band.h - 2 * inner,
                          stroke="#000000", width=1 / POINTS_PER_MM, radius=2.0))
    title = catalog.get("game.name")
    room = page_w - 2 * MARGIN - QR_SIZE - 6
    fitted = fit_or_fail(measure, title, "black", 30, width=pt(room), height=pt(14), wrap=False, leading=1.1,
                         min_size=14, where="cover title")
    first.append(Text((TextLine(title, MARGIN + 2, 15.5),), "black", fitted.size, title_ink))
    subtitle = catalog.get("cover.subtitle", players=_players(game.players, catalog),
                           paper=catalog.get(f"paper.{options.paper}"),
                           language=catalog.get("cover.language"))
    size = fit_or_fail(measure, subtitle, "black", 10.5, width=pt(room), height=pt(6), wrap=False, leading=1.1,
                       min_size=8, where="cover subtitle").size
    first.append(Text((TextLine(subtitle, MARGIN + 2, 23.5),), "black", size, title_ink))
    if imprint is not None:
        line = catalog.get("cover.made_by", version=imprint.version) + (
            catalog.get("cover.made_on", date=imprint.date) if imprint.date else "")
        size = fit_or_fail(measure, line, "regular", 8, width=pt(room), height=pt(5), wrap=False, leading=1.1,
                           min_size=7, where="cover").size
        first.append(Text((TextLine(line, MARGIN + 2, 29.5),), "regular", size, title_ink))
    if url:
        first.append(QR(url, page_w - MARGIN - QR_SIZE, BAND_H - 2 - QR_SIZE, QR_SIZE, color="#000000"))
    return first


def weight(catalog: Catalog, stock: str, paper: str) -> str:
    """A paper's weight in g/m², and on Letter in the US weights card stock and paper are sold
    by too (lb cover, lb bond): ``weight.letter.STOCK`` where the catalog has it."""
    return catalog.get(f"weight.{paper}.{stock}" if catalog.has(f"weight.{paper}.{stock}") else f"weight.{stock}")


def stock_name(catalog: Catalog, stock: str, paper: str) -> str:
    """A paper's name as the cover gives it, with its weight."""
    return catalog.get(f"stock.{stock}", weight=weight(catalog, stock, paper))


def paper_runs(rows: Sequence[PlanRow]) -> list[str]:
    """The papers to load, in print order: a run of rows on one paper is one run.

    >>> paper_runs([PlanRow(1, 2, 1, "cover_both", "p", ()), PlanRow(3, 6, 2, "both", "c", ()),
    ...             PlanRow(7, 8, 1, "both", "c", ()), PlanRow(9, 10, 1, "one", "p", ())])
    ['p', 'c', 'p']
    """
    runs: list[str] = []
    for row in rows:
        if not runs or runs[-1] != row.stock:
            runs.append(row.stock)
    return runs


def plan_intro(catalog: Catalog, contents: CoverContents, paper: str) -> str:
    """The print plan's first line, true of its table: all pages in one go on one paper, or in
    runs, changing paper as the table says; one-sided pages' blank backs said only if there are any."""
    runs = paper_runs(contents.rows)
    sides = "duplex" if contents.duplex else "simplex"
    values = dict(pages=contents.total_pages, sheets=contents.total_sheets, paper=catalog.get(f"paper.{paper}"))
    if len(runs) == 1:
        text = catalog.get(f"cover.plan_{sides}", stock=stock_name(catalog, runs[0], paper), **values)
    else:
        text = catalog.get(f"cover.plan_{sides}_runs", runs=len(runs), **values)
    if contents.duplex and any(row.how == "one" for row in contents.rows):
        text += " " + catalog.get("cover.plan_blank")
    return text


def _print_plan(cover: _Cover) -> None:
    """How to print: the pages and sheets, then a row per run of sheets printed alike."""
    flow, catalog, contents, options = cover.flow, cover.catalog, cover.contents, cover.options
    flow.heading(catalog.get("cover.how_to_print"), cover.accent, keep=20)
    flow.paragraph(plan_intro(catalog, contents, options.paper), bullet="•")
    rows = []
    for row in contents.rows:
        how = row.how if row.how != "one" or not contents.duplex else "one_blank"
        what = ([catalog.get("plan.cover")] if row.first_page == 1 else []) \
            + [cover.names[c] for c in row.components] + ([catalog.get("plan.alignment")] if row.alignment else [])
        rows.append([_pages(row.first_page, row.last_page), str(row.sheets), catalog.get(f"plan.{how}"),
                     stock_name(catalog, row.stock, options.paper), ", ".join(what)])
    flow.table([catalog.get("plan.pages"), catalog.get("plan.sheets"), catalog.get("plan.sides"),
                catalog.get("plan.stock"), catalog.get("plan.what")], rows,
               (0.08, 0.08, 0.21, 0.3, 0.33), shade=cover.inks.fill("light"), first_bold=False)


def _print_advice(cover: _Cover) -> None:
    """What to set and to know before printing: the scale, the alignment sheet, fold pages,
    the decks' paper, mounting, the back offset, the ink saver (only what is true of this kit)."""
    flow, catalog, contents, options = cover.flow, cover.catalog, cover.contents, cover.options
    flow.paragraph(catalog.get("cover.print_scale"), bullet="•")
    if contents.alignment:
        flow.paragraph(catalog.get("cover.calibrate", pages=_pages(contents.alignment_page,
                                                                   contents.alignment_page + 1)), bullet="•")
    if contents.folds:
        flow.paragraph(catalog.get("cover.fold", weight=weight(catalog, PAPER, options.paper)), bullet="•")
    decks: dict[str, list[str]] = {}   # stock -> the hidden components printed on it
    for c in contents.components:
        if c.hidden and c.id in contents.stocks:
            decks.setdefault(contents.stocks[c.id], []).append(cover.names[c.id])
    if decks:
        flow.paragraph(catalog.get("cover.decks", decks="; ".join(
            f"{', '.join(names)} ({stock_name(catalog, stock, options.paper)})" for stock, names in decks.items())),
            bullet="•")
    if contents.mount:
        flow.paragraph(catalog.get("cover.mount_fold" if contents.folds else "cover.mount"), bullet="•")
    if options.back_offset != (0.0, 0.0):
        flow.paragraph(catalog.get("cover.print_offset", x=catalog.number(options.back_offset[0]),
                                   y=catalog.number(options.back_offset[1])),
                       bullet="•")
    if options.ink_saver:
        flow.paragraph(catalog.get("cover.ink_saver"), bullet="•")


def _contents_table(cover: _Cover) -> None:
    """Each component, its pieces, its sheets and how to cut it, one row each (the paper
    to load is the print plan's)."""
    flow, catalog, contents = cover.flow, cover.catalog, cover.contents
    flow.heading(catalog.get("cover.contents"), cover.accent, keep=15)
    flow.table([catalog.get("cover.component"), catalog.get("cover.pieces"), catalog.get("cover.sheets"),
                catalog.get("cover.cut_and_use")],
               [[cover.names[c.id], str(contents.copies[c.id]), sheet_ranges(contents.sheets[c.id]),
                 catalog.get(f"component.{c.id}.cut")] for c in contents.components],
               (0.25, 0.08, 0.12, 0.55), shade=cover.inks.fill("light"))


def _cutting(cover: _Cover) -> None:
    """Cutting and assembly: only what is true of this kit's sheets, and each board's diagram."""
    flow, catalog, contents = cover.flow, cover.catalog, cover.contents
    cut = [c for c in contents.components if c.cut]
    if not cut and not contents.boards and not contents.below:
        return      # nothing of this kit is cut: every page is used as it comes out of the printer
    flow.heading(catalog.get("cover.how_to_cut"), cover.accent)
    if cut or contents.boards:
        flow.paragraph(catalog.get("cover.cut_general", bleed=catalog.number(contents.bleed)), bullet="•")
    for key, shapes in (("cover.cut_shaped", ("circle", "hex")), ("cover.cut_rounded", ("rounded",))):
        names = [cover.names[c.id] for c in cut if c.shape in shapes and c.id not in contents.machine]
        if names:
            flow.paragraph(catalog.get(key, pieces=", ".join(names)), bullet="•")
    apart = ([catalog.get("cover.cut_butted")] if contents.butted else []) + (
        [catalog.get("cover.cut_backs", gutter=catalog.number(2 * cover.options.bleed))] if contents.backs else [])
    if apart:
        flow.paragraph(" ".join(apart), bullet="•")
    if contents.below:
        # Pieces used as they come out of the printer are not cut along marks: the page is cut in two.
        uncut = not any(c.cut for c in contents.components if c.id in contents.below)
        flow.paragraph(catalog.get("cover.cut_below_uncut" if uncut else "cover.cut_below",
                                   pieces=", ".join(cover.names[c] for c in contents.below)), bullet="•")
    if _shared(contents):
        flow.paragraph(catalog.get("cover.cut_shared"), bullet="•")
    if cover.options.cutter:
        flow.paragraph(catalog.get("cover.cut_machine", inset=catalog.number(cover.options.mark_inset),
                                   length=catalog.number(cover.options.mark_length)), bullet="•")
    for component, parts in contents.boards:
        _assembly_diagram(flow, component, parts, catalog, inks=cover.inks, accent=cover.accent)


def _player_colours(cover: _Cover) -> None:
    """The kit's player colours: one line of swatches after their name, then what the symbols are for."""
    flow, catalog, inks = cover.flow, cover.catalog, cover.inks
    sets: list[str] = []
    for component in cover.contents.components:
        for set_name in component.sets:
            if set_name not in sets:
                sets.append(set_name)
    if not sets:
        return
    ink = inks.line("ink")
    flow.y -= 2.0
    flow.need(9 + 8, "colours")
    heading = catalog.get("cover.colors")
    x = flow.x + flow.fits(heading, "black", BODY + 1, flow.width) / pt(1) + 4
    top = flow.down(flow.y)
    flow.page.append(Text((TextLine(heading, flow.x, top + 5),), "black", BODY + 1, ink))
    for set_name in sets:
        color = cover.game.colors[set_name]
        label = catalog.get(f"color.{set_name}")
        label_w = flow.fits(label, "regular", BODY, flow.x + flow.width - x - 9) / pt(1)
        flow.page.append(Rect(x, top, 7, 7, fill=inks.fill(color.rgb), stroke=ink, width=0.6 / POINTS_PER_MM,
                              radius=1.2))
        flow.page.append(Symbol(color.symbol, x + 3.5, top + 3.5, 5, fill=inks.line(color.ink)))
        flow.page.append(Text((TextLine(label, x + 9, top + 5),), "regular", BODY, ink))
        x += 12 + label_w + 3
    flow.y -= 8.5
    flow.paragraph(catalog.get("cover.colors_note"), size=7.5)


def _pages(first: int, last: int) -> str:
    return f"{first}–{last}" if last > first else str(first)


def _shared(contents: CoverContents) -> bool:
    """Whether some sheet carries pieces of more than one component."""
    seen: dict[int, int] = {}
    for numbers in contents.sheets.values():
        for n in set(numbers):
            seen[n] = seen.get(n, 0) + 1
    return any(count > 1 for count in seen.values())


def _players(players: tuple[int, int], catalog: Catalog) -> str:
    low, high = players
    return catalog.get("cover.players_one", n=low) if low == high else \
        catalog.get("cover.players_range", low=low, high=high)


#: The largest a board's assembly map is drawn, mm.
MAP_W, MAP_H = 40.0, 28.0


def _assembly_diagram(flow: _Flow, component: Component, parts, catalog: Catalog, *, inks: Inks,
                      accent: str) -> None:
    """How to join a split piece, and beside it a small map: which part goes where."""
    w, h = component.size
    scale = min(MAP_W / w, MAP_H / h)
    top, page = flow.y, flow.page
    flow.paragraph(catalog.get("cover.assembly", name=catalog.get(f"component.{component.id}.name"),
                               n=len(parts), overlap=catalog.number(component.overlap)), bullet="•",
                   right=w * scale + 6, keep=h * scale + 3)
    if flow.page is not page:
        top = flow.top      # the paragraph began a new page: the map goes at its top
    ox, oy = flow.x + flow.width - w * scale, top - 1 - h * scale
    light = inks.fill("light")
    for part in parts:
        r = part.region
        flow.page.append(Rect(ox + r.x * scale, flow.down(oy + (r.y + r.h) * scale), r.w * scale,
                              r.h * scale, fill=light, stroke=accent, width=0.7 / POINTS_PER_MM))
    for part in parts:
        r = part.region
        label_w = flow.measure.width(part.label, "black", 11)
        baseline = oy + (r.y + r.h / 2) * scale - 4 / POINTS_PER_MM
        flow.page.append(Text((TextLine(part.label, ox + (r.x + r.w / 2) * scale - label_w / 2 / POINTS_PER_MM,
                                        flow.down(baseline)),), "black", 11, flow.ink))
    flow.page.append(Rect(ox, flow.down(oy + h * scale), w * scale, h * scale, stroke=flow.ink,
                          width=1.2 / POINTS_PER_MM))
    flow.y = min(flow.y, oy - 2)
