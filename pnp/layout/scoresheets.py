"""The one scoresheet layout: any game's sheet, blank or filled, as primitives.

A scoresheet is an element of a piece (``type = "scoresheet"``), so it is
imposed, footed and written like every other piece. What is on it comes from
the game's rules as a :class:`~pnp.core.sheet_model.Scoresheet` (columns, rows of
boxes, labels, points, totals, and the values of a filled sheet); this module
decides where everything goes and names no game.

From the top: a title band, the date line and a hint (or, filled, a note on
what was entered), the QR code; the key (what each card is worth); a heading
per column (a player colour, a field of a log); the rows; the foot (totals and
winners); the notes of a filled sheet. Rows of boxes share the height the page
leaves them, so a short sheet gets roomy boxes. Every box meant for a pen is
at least :data:`MIN_BOX` mm each way, and a box for a number at least
:data:`MIN_NUMBER_W` mm wide (a sign and two digits, written by hand): a
sheet that cannot give its boxes that much is a problem, reported before
anything is drawn. A choice is a row of small boxes to tick, one per option.
A cell's boxes may run on two lines (``Box.breaks``), each line read as a sum.

Entered numbers are printed in pen blue, worked-out totals in bold ink,
words (a winner) in the accent colour.
"""

from __future__ import annotations


from pnp.core.errors import TemplateError
from pnp.layout.primitives import QR, Icon, Line, Path, Primitive, Rect, Symbol, Text, TextLine
from pnp.layout.text import fit_or_fail
from pnp.core.sheet_model import Box, Cell, Key, Row, CatalogText, Scoresheet, SheetText, problems
from pnp.core.units import POINTS_PER_MM, pt

PEN = "#1d3f9a"
#: The smallest box a pen writes in, each way (mm).
MIN_BOX = 7.0
#: The narrowest box a number is written in (mm): "−12" by hand.
MIN_NUMBER_W = 10.0
LABEL_H = 2.8          # a box's corner label, above the room to write
LINE_GAP = 1.2         # between two lines of boxes in a cell
TICK = 3.2             # the side of a choice's box to tick (mm)
HEADER = 23.0          # the title band, date and hint
TITLE_BAND = 11.0
QR_SIZE = 21.0
PAD = 0.9              # inside a cell, around its boxes: stacked boxes never touch
GAP = 1.0              # between two boxes
SIGN_GAP = 4.0          # between two boxes with a sign printed between them
ROW_MIN = MIN_BOX + 2 * PAD   # an entry row: a box and a little air
ROW_GROWTH = 6.0       # rows grow by at most this much when the page has room
HEADING_H = 7.0
CAPTIONS_H = 6.0
CAPTIONS_ICON_H = 8.0
COLUMN_HEAD_H = 8.5
DETAIL_LINE = 3.6
OPTION_LINE = 4.4
CHOICE_SIZE = 8.0      # the words of a choice side by side (pt)
CHOICE_AIR = 2.0       # and the least room they leave around each word (mm)
ICON_W = 5.0           # a choice's pictogram, before its options
FOOT_GAP = 2.5
NOTE_H = 5.5
KEY_ICON_H = 7.0
KEY_LINE = 4.6
KEY_COLUMN_W = 13.0
ONE_LINE_LABEL = 22.0  # a row label up to this wide stays on one line; a longer one may take two


class SheetProblem(TemplateError):
    """A sheet that cannot be laid out: its boxes or rows do not fit the piece."""


class _Pen:
    """Primitives in mm from the top-left of the sheet's box, y downwards."""

    def __init__(self, ctx, *, x: float, y: float, w: float, h: float):
        self.ctx = ctx
        self.x0, self.y0, self.w, self.h = x, y, w, h
        self.out: list[Primitive] = []
        inks = ctx.inks
        self.ink = inks.line("ink")
        self.accent = inks.line("accent")
        self.light = inks.fill("light")
        self.white = inks.fill("white")
        self.pen = inks.line(PEN)
        self.good = inks.line("good")
        self.bad = inks.line("bad")

    def words(self, text: SheetText | None) -> str:
        """A sheet text in the sheet's language (a value that is words itself put into words first:
        a declared sheet's tie-break names its row)."""
        if text is None:
            return ""
        if isinstance(text, CatalogText):
            return self.ctx.catalog.get(text.key, **{name: self.words(value) if isinstance(value, CatalogText) else value
                                                     for name, value in text.values})
        return str(text)

    def rect(self, x: float, y: float, w: float, h: float, *, fill: str | None = None,
             stroke: str | None = None, width: float = 0.0) -> None:
        self.out.append(Rect(self.x0 + x, self.y0 + y, w, h, fill=fill, stroke=stroke, width=width))

    def line(self, x1: float, y1: float, x2: float, y2: float, *, width: float = 0.3,
             color: str | None = None) -> None:
        self.out.append(Line(self.x0 + x1, self.y0 + y1, self.x0 + x2, self.y0 + y2,
                             stroke=color or self.ink, width=width))

    def width(self, text: str, size: float, style: str = "regular") -> float:
        """How wide ``text`` is, in mm."""
        return self.ctx.measure.width(text, style, size) / POINTS_PER_MM

    def text(self, x: float, y: float, w: float, h: float, *, text: str, size: float = 8,
             style: str = "regular", align: str = "center", color: str | None = None,
             wrap: bool = False, min_size: float = 6.0) -> None:
        """``text`` fitted into the box and centred on it vertically."""
        if not text:
            return
        fitted = fit_or_fail(self.ctx.measure, text, style, size, width=pt(max(w - 1.0, 0.1)), height=pt(h),
                             wrap=wrap, leading=1.15, min_size=min_size)
        block = 0.72 * fitted.size + (len(fitted.lines) - 1) * fitted.leading
        # The first baseline, in mm down from the sheet's top: the block is centred on the box.
        baseline = self.y0 + y + h / 2 - (block / 2 - 0.72 * fitted.size) / POINTS_PER_MM
        lines = []
        for line, width in zip(fitted.lines, fitted.widths):
            if align == "left":
                left = self.x0 + x + 0.5
            elif align == "right":
                left = self.x0 + x + w - 0.5 - width / POINTS_PER_MM
            else:
                left = self.x0 + x + w / 2 - width / 2 / POINTS_PER_MM
            lines.append(TextLine(line, left, baseline))
            baseline += fitted.leading / POINTS_PER_MM
        self.out.append(Text(tuple(lines), style, fitted.size, color or self.ink))

    def icon(self, name: str, *, x: float, y: float, w: float, h: float) -> None:
        from pnp.template.icons import load_icon  # the SVG reader loads only for kits with icons

        icon = load_icon(self.ctx.icon_dirs, name, self.ctx.measure.missing)
        self.out.append(Icon(icon.source, self.x0 + x, self.y0 + y, w, h=h,
                             tint=self.ink, line_art=self.ctx.inks.ink_saver))

    def symbol(self, shape: str, cx: float, cy: float, size: float, *, color: str) -> None:
        self.out.append(Symbol(shape, self.x0 + cx, self.y0 + cy, size, fill=color))

    def tick(self, x: float, y: float, size: float, color: str) -> None:
        """A pen's tick in the box of side ``size`` at (x, y)."""
        corner = lambda u, v: (self.x0 + x + u * size, self.y0 + y + v * size)  # noqa: E731
        self.out.append(Path(((corner(0.18, 0.55), corner(0.42, 0.8), corner(0.86, 0.16)),), closed=False,
                             stroke=color, width=0.45))

    def qr(self, data: str, x: float, y: float, size: float) -> None:
        self.out.append(QR(data, self.x0 + x, self.y0 + y, size, color=self.ink))

    def tone(self, value: str) -> str:
        """A printed worth's colour: gains in the good colour, losses in the bad one."""
        if value.startswith("+"):
            return self.good
        if value.startswith(("\u2212", "-")):
            return self.bad
        return self.ink


# ------------------------------------------------------------------ heights


def _detail_height(row: Row) -> float:
    return max((len(c.detail) for c in row.cells), default=0) * DETAIL_LINE


# ------------------------------------------------------------------ the sheet


class _Layout:
    """One sheet laid out: the header, the key, the grid, the foot and the notes."""

    def __init__(self, pen: _Pen, sheet: Scoresheet, qr_data: str | None, date: str | None):
        self.pen, self.sheet, self.qr_data, self.date = pen, sheet, qr_data, date
        self.label_w = self._label_width()
        spare = pen.w - self.label_w
        weights = sum(c.weight for c in sheet.columns) or 1.0
        self.col_w = [spare * c.weight / weights for c in sheet.columns]
        self.col_x = [self.label_w + sum(self.col_w[:i]) for i in range(len(sheet.columns))]

    # -- measuring ------------------------------------------------------------
    def placed(self, cell: Cell, w: float) -> list[tuple[Box, int, float, float, float]]:
        """Each box of a cell: the box, its line, its left (from the cell's inner edge), its
        width, and the gap before it (where its sign goes)."""
        out = []
        for number, line in enumerate(_lines(cell)):
            # A sign's gap is kept in every row of the column, printed or not, so boxes line up;
            # at the start of a line only a box with a sign has one.
            gaps = [(SIGN_GAP if b.sign is not None else (GAP if i else 0.0)) for i, b in enumerate(line)]
            inner = w - 2 * PAD - sum(gaps)
            weights = sum(b.weight for b in line) or 1.0
            x = 0.0
            for box, gap in zip(line, gaps):
                width = inner * box.weight / weights
                x += gap
                out.append((box, number, x, width, gap))
                x += width
        return out

    def line_mins(self, cell: Cell) -> list[float]:
        """The least height of each line of a cell's boxes: a pen's, with room for a corner label."""
        return [MIN_BOX + (LABEL_H if any(b.text is not None and b.kind != "caption" for b in line) else 0.0)
                for line in _lines(cell)]

    def stacked(self, box: Box, w: float) -> bool:
        """Whether a choice's words go one under the other: more than two that do not
        all fit side by side, each in its share of the box's width, in bold."""
        if len(box.options) <= 2:
            return False
        share = (w - (ICON_W if box.icon else 0.0)) / len(box.options)
        return any(self.pen.width(self.pen.words(o), CHOICE_SIZE, "bold") + CHOICE_AIR + TICK + 1.0 > share
                   for o in box.options)

    def row_min(self, row: Row) -> float:
        """The least height a row needs: its kind's, its boxes', its stacked choices' and its details'."""
        if row.kind == "heading":
            return HEADING_H
        if row.kind == "captions":
            return CAPTIONS_ICON_H if any(b.icon for c in row.cells for b in c.boxes) else CAPTIONS_H
        need = ROW_MIN
        for cell, w in zip(row.cells, self.col_w):
            lines = self.line_mins(cell)
            for box, line, _, bw, _ in self.placed(cell, w):
                if box.kind == "choice" and self.stacked(box, bw):
                    lines[line] = max(lines[line], len(box.options) * OPTION_LINE + 1.2)
            boxes = sum(lines) + LINE_GAP * (len(lines) - 1) + 2 * PAD
            need = max(need, boxes + len(cell.detail) * DETAIL_LINE)
        return need

    def _label_width(self) -> float:
        """The row labels' column: the widest label (with its pictogram and points), within limits."""
        pen, sheet = self.pen, self.sheet
        widest = pen.width(pen.words(sheet.corner), 8, "black") + 2 if sheet.corner else 0.0
        for row in (*sheet.rows, *sheet.foot):
            if row.label is None or row.kind == "heading":
                continue
            size, style = (11, "black") if row.kind == "entry" and _is_number(row.label) else (8.5, "bold")
            text = pen.words(row.label)
            width = pen.width(text, size, style)
            if width > ONE_LINE_LABEL:
                width = max(_two_lines(pen, text, size, style), ONE_LINE_LABEL)
            width += 2.0
            if row.icon:
                width += 6.5
            if row.points:
                width += pen.width(row.points, 8.5) + 2.0
            widest = max(widest, width)
        # Long labels wrap on two lines rather than take the players' room.
        return min(max(widest, 12.0), 0.36 * pen.w)

    def heights(self, top: float) -> tuple[list[float], float]:
        """Each row's height, and where the foot starts: rows share the room the page leaves."""
        sheet, pen = self.sheet, self.pen
        mins = [self.row_min(row) for row in sheet.rows]
        foot = sum(max(self.row_min(row), ROW_MIN) for row in sheet.foot)
        notes = NOTE_H * len(sheet.notes)
        room = pen.h - top - (FOOT_GAP + foot if sheet.foot else 0.0) - notes - 1.0
        spare = room - sum(mins)
        if spare < -1e-6:
            raise SheetProblem(f"the scoresheet's {len(sheet.rows)} rows need {sum(mins) - room:.1f} mm "
                               f"more than its {pen.h:g} mm piece has")
        growing = [i for i, row in enumerate(sheet.rows) if row.kind == "entry"]
        each = min(ROW_GROWTH, spare / len(growing)) if growing else 0.0
        heights = [h + (each if sheet.rows[i].kind == "entry" else 0.0) for i, h in enumerate(mins)]
        return heights, top + sum(heights)

    # -- drawing --------------------------------------------------------------
    def lay_out(self) -> None:
        top = self.header()
        if self.sheet.key is not None:
            top = self.key(self.sheet.key, top)
        if any(c.heading is not None or c.color is not None for c in self.sheet.columns):
            top = self.column_heads(top)
        heights, y = self.heights(top)
        for row, height in zip(self.sheet.rows, heights):
            self.row(row, top, height)
            top += height
        if self.sheet.foot:
            y += FOOT_GAP
            self.pen.line(0, y - FOOT_GAP / 2, self.pen.w, y - FOOT_GAP / 2, width=0.5, color=self.pen.accent)
            for row in self.sheet.foot:
                height = max(self.row_min(row), ROW_MIN)
                self.row(row, y, height)
                y += height
        for note in self.sheet.notes:
            self.pen.text(0, y + 0.3, self.pen.w, NOTE_H - 0.3, text=self.pen.words(note), size=8.5,
                          style="bold", align="left", color=self.pen.accent, wrap=True)
            y += NOTE_H

    def header(self) -> float:
        """Title, date line, hint and QR code; returns where the body starts (mm)."""
        pen, sheet = self.pen, self.sheet
        qr = QR_SIZE if self.qr_data else 0.0
        band_w = pen.w - qr - (3 if qr else 0)
        pen.rect(0, 0, band_w, TITLE_BAND, fill=pen.ctx.inks.fill("accent"))
        title = pen.words(CatalogText("game.name")) + " — " + pen.words(sheet.title)
        pen.text(3, 0, band_w - 6, TITLE_BAND, text=title, size=15, style="black", align="left",
                 color=pen.ctx.inks.line("#ffffff"))
        hint_x = 0.0
        if sheet.dated:
            label = pen.words(CatalogText("sheet.date_label"))
            label_w = pen.width(label, 8.5, "bold") + 2
            pen.text(0, 12, label_w + 1, 6, text=label, size=8.5, style="bold", align="left")
            pen.line(label_w, 17, label_w + 46, 17, width=0.3)
            if sheet.filled and self.date:
                pen.text(label_w + 1, 11.5, 45, 6, text=self.date, size=9.5, style="bold", align="left",
                         color=pen.pen)
            hint_x = label_w + 49
        hint = CatalogText("sheet.filled_note") if sheet.filled else sheet.hint
        pen.text(hint_x, 11.6, band_w - hint_x, 10.4, text=pen.words(hint), size=7.5, align="left",
                 wrap=True, min_size=6.5)
        if self.qr_data:
            pen.qr(self.qr_data, pen.w - qr, 0, qr)
        return HEADER + 1.0

    def key(self, key: Key, top: float) -> float:
        """The worth of each thing: pictograms over their values, one line of values per row label."""
        pen = self.pen
        height = KEY_ICON_H + KEY_LINE * len(key.rows) + 1.6
        pen.rect(0, top, pen.w, height, fill=pen.light)
        labels = [pen.words(r) for r in key.rows]
        label_w = max([pen.width(l, 8, "bold") for l in labels] + [pen.width(pen.words(key.title), 8.5, "black")]) + 4
        pen.text(1.5, top + 0.8, label_w, KEY_ICON_H - 0.8, text=pen.words(key.title), size=8.5, style="black",
                 align="left", color=pen.accent, wrap=True)
        y = top + KEY_ICON_H + 0.8
        for label in labels:
            pen.text(1.5, y, label_w, KEY_LINE, text=label, size=8, style="bold", align="left")
            y += KEY_LINE
        x = label_w + 2
        for column in key.columns:
            if column.icon:
                pen.icon(column.icon, x=x + (KEY_COLUMN_W - 6.2) / 2, y=top + 0.8, w=6.2, h=6.2)
            if column.caption is not None:
                pen.text(x, top + 0.4, KEY_COLUMN_W, KEY_ICON_H, text=pen.words(column.caption), size=7,
                         style="bold")
            y = top + KEY_ICON_H + 0.8
            for value in column.values:
                pen.text(x, y, KEY_COLUMN_W, KEY_LINE, text=value, size=9, style="black", color=pen.tone(value))
                y += KEY_LINE
            x += KEY_COLUMN_W
        if key.notes:
            x += 2
            pen.line(x - 1, top + 1.5, x - 1, top + height - 1.5, width=0.3, color=pen.accent)
            each = (height - 1.6) / len(key.notes)
            for number, note in enumerate(key.notes):
                pen.text(x + 0.5, top + 0.8 + number * each, pen.w - x - 1.5, each, text=pen.words(note),
                         size=8, style="bold", align="left", wrap=True)
        return top + height + 2.0

    def column_heads(self, top: float) -> float:
        """Each column's heading: a player colour with its symbol, or a field's name."""
        pen, sheet = self.pen, self.sheet
        if sheet.corner is not None:
            pen.text(0, top, self.label_w, COLUMN_HEAD_H, text=pen.words(sheet.corner), size=8, style="black",
                     align="left", color=pen.accent)
        for column, x, w in zip(sheet.columns, self.col_x, self.col_w):
            if column.color is not None:
                player = pen.ctx.colors[column.color]
                pen.rect(x + 0.4, top, w - 0.8, COLUMN_HEAD_H - 0.6, fill=pen.ctx.inks.fill(player.rgb),
                         stroke=pen.ink, width=0.4)
                ink = pen.ctx.inks.line(player.ink)
                symbol = min(5.0, COLUMN_HEAD_H - 2.6)
                pen.symbol(player.symbol, x + 1.6 + symbol / 2, top + (COLUMN_HEAD_H - 0.6) / 2, symbol,
                           color=ink if not pen.ctx.inks.ink_saver else pen.ink)
                pen.text(x + 2.8 + symbol, top, w - 3.6 - symbol, COLUMN_HEAD_H - 0.6,
                         text=pen.words(column.heading), size=9, style="black", align="left", color=ink)
            elif column.heading is not None:
                pen.rect(x, top, w, COLUMN_HEAD_H, fill=pen.light)
                pen.text(x, top, w, COLUMN_HEAD_H, text=pen.words(column.heading), size=7.5, style="black",
                         wrap=True)
        return top + COLUMN_HEAD_H + 0.6

    def row(self, row: Row, top: float, height: float) -> None:
        pen = self.pen
        if row.kind == "heading":
            pen.rect(0, top + 0.5, pen.w, height - 1.0, fill=pen.light)
            pen.text(1.0, top + 0.5, self.label_w + (self.col_w[0] if self.col_w else 0) - 1, height - 1.0,
                     text=pen.words(row.label), size=10, style="black", align="left", color=pen.accent)
        else:
            if row.shade:
                pen.rect(0, top, pen.w, height, fill=pen.light)
            self.row_label(row, top, height - _detail_height(row))
        for cell, x, w in zip(row.cells, self.col_x, self.col_w):
            self.cell(row, cell, x=x, top=top, w=w, height=height)

    def row_label(self, row: Row, top: float, height: float) -> None:
        pen = self.pen
        if row.label is None:
            return
        x, w = 0.5, self.label_w - 1.0
        if row.icon:
            size = min(5.5, height - 1.5)
            pen.icon(row.icon, x=x, y=top + (height - size) / 2, w=size, h=size)
            x += 6.5
            w -= 6.5
        if row.points:
            points_w = pen.width(row.points, 8.5) + 1.5
            pen.text(self.label_w - points_w - 0.5, top, points_w, height, text=row.points, size=8.5,
                     align="right")
            w -= points_w + 0.5
        text = pen.words(row.label)
        if row.kind == "entry" and _is_number(row.label):
            pen.text(x, top, w, height, text=text, size=11, style="black", color=pen.accent)
        else:
            pen.text(x, top, w, height, text=text, size=8.5, style="bold", align="left", wrap=True)

    def cell(self, row: Row, cell: Cell, *, x: float, top: float, w: float, height: float) -> None:
        """The cell's boxes side by side, line by line, each sign in the gap before its box,
        the detail below."""
        pen = self.pen
        detail_h = len(cell.detail) * DETAIL_LINE
        box_top = top + (0.0 if row.kind == "captions" else PAD / 2)
        room = height - detail_h - (0.0 if row.kind == "captions" else PAD)
        # The lines share the room as their least heights do.
        mins = self.line_mins(cell)
        each = (room - LINE_GAP * (len(mins) - 1)) / sum(mins)
        line_h = [m * each for m in mins]
        line_top = [box_top + sum(line_h[:i]) + LINE_GAP * i for i in range(len(mins))]
        for box, line, left, bw, gap in self.placed(cell, w):
            bx, by, bh = x + PAD + left, line_top[line], line_h[line]
            if box.sign and row.kind != "captions":
                pen.text(bx - gap, by, gap, bh, text=box.sign, size=9, style="black")
            self.box(row, box, x=bx, y=by, w=bw, h=bh)
        y = top + height - detail_h
        for line in cell.detail:
            self.detail_line(line, x + PAD, y, w - 2 * PAD)
            y += DETAIL_LINE

    def box(self, row: Row, box: Box, *, x: float, y: float, w: float, h: float) -> None:
        pen = self.pen
        kind = box.kind
        if kind in ("pen", "total", "text") and (w < MIN_BOX - 1e-6 or h < MIN_BOX - 1e-6):
            raise SheetProblem(f"a box for a pen is {w:.1f} x {h:.1f} mm, below {MIN_BOX:g} mm "
                               f"(row {pen.words(row.label)!r}): fewer columns or boxes would fit")
        if kind in ("pen", "total") and w < MIN_NUMBER_W - 1e-6:
            raise SheetProblem(f"a box for a number is {w:.1f} mm wide, below {MIN_NUMBER_W:g} mm "
                               f"(row {pen.words(row.label)!r}): fewer columns or boxes would fit")
        if kind == "caption":
            words = pen.words(box.text)
            if box.icon:
                size = min(5.5, h - (3.2 if words else 0.6))
                pen.icon(box.icon, x=x + (w - size) / 2, y=y + 0.3, w=size, h=size)
                if words:
                    pen.text(x - 0.5, y + size + 0.3, w + 1, h - size - 0.3, text=words, size=6.5, style="bold")
            elif words:
                pen.text(x - 0.5, y, w + 1, h, text=words, size=7, style="bold", wrap=True)
            return
        if kind == "blank":
            return
        if kind == "choice":
            self.choice(box, x=x, y=y, w=w, h=h)
            return
        heavy = kind == "total"
        pen.rect(x, y, w, h, fill=pen.white, stroke=pen.ink, width=0.5 if heavy else 0.3)
        if box.text is not None:
            pen.text(x + 0.2, y + 0.1, w - 0.4, LABEL_H - 0.2, text=pen.words(box.text), size=6, align="left",
                     color=pen.accent)
            # The value goes under the label.
            y, h = y + LABEL_H - 0.4, h - LABEL_H + 0.4
        if box.value is None:
            return
        value = pen.words(box.value)
        if kind == "text":
            pen.text(x + 0.6, y + 0.3, w - 1.2, h - 0.6, text=value, size=9.5, style="bold", align="left",
                     color=pen.pen, wrap=True)
        elif isinstance(box.value, CatalogText):
            pen.text(x, y, w, h, text=value, size=9, style="black", color=pen.accent)
        elif heavy:
            pen.text(x, y, w, h, text=value, size=11, style="black")
        else:
            pen.text(x, y, w, h, text=value, size=10.5, style="bold", color=pen.pen)

    def choice(self, box: Box, *, x: float, y: float, w: float, h: float) -> None:
        """Options to tick, each with its small box before it: side by side, or stacked when
        more than two do not fit so; a pictogram first if the choice has one."""
        pen = self.pen
        if box.icon:
            size = min(ICON_W - 1.0, h - 1.0)
            pen.icon(box.icon, x=x + 0.3, y=y + (h - size) / 2, w=size, h=size)
            x, w = x + ICON_W, w - ICON_W
        options = [pen.words(o) for o in box.options]
        stacked = self.stacked(box, w)
        for number, option in enumerate(options):
            if stacked:
                line = (h - 1.2) / len(options)
                ox, oy, ow, oh = x + 0.8, y + 0.6 + number * line, w - 1.6, line
            else:
                ow = w / len(options)
                ox, oy, oh = x + number * ow, y, h
            chosen = box.chosen == number and self.sheet.filled
            tick = min(TICK, oh - 0.8)
            tx, ty = ox + 0.6, oy + (oh - tick) / 2
            pen.rect(tx, ty, tick, tick, fill=pen.white, stroke=pen.ink, width=0.3)
            if chosen:
                pen.tick(tx, ty, tick, pen.pen)
            pen.text(tx + tick + 0.6, oy, ox + ow - tx - tick - 0.6, oh, text=option,
                     size=CHOICE_SIZE if not stacked else 7.5, style="bold" if chosen else "regular",
                     color=pen.pen if chosen else pen.ink, align="left", wrap=not stacked)

    def detail_line(self, line, x: float, y: float, w: float) -> None:
        """Small print: a label, then each pictogram with its number."""
        pen = self.pen
        cursor = x
        if line.label is not None:
            label = pen.words(line.label)
            label_w = pen.width(label, 7, "black") + 0.8
            pen.text(cursor - 0.5, y, label_w + 1, DETAIL_LINE, text=label, size=7, style="black", align="left")
            cursor += label_w
        for icon, value in line.items:
            needed = 3.1 + (pen.width(value, 7, "bold") + 0.3 if value else 0.0) + 0.7
            if cursor + needed > x + w + 1e-6:
                raise SheetProblem(f"a filled sheet's detail line is wider than its {w:.1f} mm cell")
            pen.icon(icon, x=cursor, y=y + 0.25, w=3.1, h=3.1)
            if value:
                pen.text(cursor + 2.8, y, needed - 2.8 + 0.5, DETAIL_LINE, text=value, size=7, style="bold",
                         align="left", color=pen.pen)
            cursor += needed


def _lines(cell: Cell) -> list[list[Box]]:
    """A cell's boxes, line by line: a box that ``breaks`` starts a new line."""
    lines: list[list[Box]] = [[]]
    for box in cell.boxes:
        if box.breaks and lines[-1]:
            lines.append([])
        lines[-1].append(box)
    return lines


def _two_lines(pen: _Pen, text: str, size: float, style: str) -> float:
    """The narrowest width (mm) that holds ``text`` on at most two lines, broken at a space."""
    words = text.split(" ")
    best = pen.width(text, size, style)
    for cut in range(1, len(words)):
        best = min(best, max(pen.width(" ".join(words[:cut]), size, style),
                             pen.width(" ".join(words[cut:]), size, style)))
    return best


def _is_number(words: SheetText) -> bool:
    return isinstance(words, str) and words.isdigit()


def lay_out_sheet(ctx, sheet: Scoresheet, *, x: float, y: float, w: float, h: float,
                  qr_data: str | None, date: str | None = None) -> tuple[Primitive, ...]:
    """A sheet described by a game's rules, laid out in the box (mm, top-left of the piece)."""
    wrong = problems(sheet)
    if wrong:
        raise SheetProblem("the scoresheet's description is not sound: " + "; ".join(wrong))
    pen = _Pen(ctx, x=x, y=y, w=w, h=h)
    _Layout(pen, sheet, qr_data, date).lay_out()
    return tuple(pen.out)


def lay_out_scoresheet(ctx, game_id: str, *, x: float, y: float, w: float, h: float,
                       qr_data: str | None) -> tuple[Primitive, ...]:
    """A game's scoresheet in the box: filled from the session being printed, else blank.

    The blank sheet comes from the game loaded (``Game.blank_sheet``, which asks the
    game's rules): the layout itself knows no game and no registry.
    """
    filled = ctx.filled
    if filled is not None and filled.sheet is not None:
        return lay_out_sheet(ctx, filled.sheet, x=x, y=y, w=w, h=h, qr_data=qr_data, date=filled.date)
    blank = ctx.blank_sheet
    if blank is None:
        raise SheetProblem(f"nothing gives the content of {game_id!r}'s scoresheet (a game built "
                           "without its loader has no rules to ask)")
    return lay_out_sheet(ctx, blank(game_id), x=x, y=y, w=w, h=h, qr_data=qr_data)


__all__ = ["MIN_BOX", "PEN", "SheetProblem", "lay_out_scoresheet", "lay_out_sheet"]
