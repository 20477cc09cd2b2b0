"""Scoresheets for the four games: blank to fill with a pen, or filled from a session.

A scoresheet is an element of a piece (``type = "scoresheet"``) so it is imposed,
footed and written like every other piece; here it is laid out as primitives. Boxes meant for a pen are at least
7 mm; entered numbers are printed in pen blue, computed totals in bold ink.
The optional ``result`` is a :class:`scoring.Result` (duck-typed: this module
does not import the scoring package).
"""

from __future__ import annotations

from typing import Any, Callable

from pnp.errors import TemplateError
from pnp.layout.primitives import QR, Icon, Line, Primitive, Rect, Symbol, Text, TextLine
from pnp.layout.text import fit_or_fail
from pnp.units import POINTS_PER_MM, pt

PEN = "#1d3f9a"
MIN_BOX = 7.0
HF_CARDS = ("hunter", "wolf", "rabbit", "carrot", "closed_season")
HF_PREY = {"hunter": -4, "wolf": 4, "rabbit": 2, "carrot": 1, "closed_season": 1}
HF_HAND = {"hunter": -4, "wolf": -4, "rabbit": -2, "carrot": -1, "closed_season": -1}
HALALI_TILES = ("bear", "fox", "lumberjack", "hunter", "pheasant", "duck", "tree")
HALALI_POINTS = {"bear": 10, "fox": 5, "lumberjack": 5, "hunter": 5, "pheasant": 3, "duck": 2, "tree": 2}
HHB_COLORS = ("red", "green", "blue", "white")


def signed(value: int) -> str:
    """A score with its sign and a true minus: +4, −4, 0."""
    return "0" if value == 0 else (f"+{value}" if value > 0 else f"\u2212{-value}")


class Sheet:
    """Lays out a sheet in mm from the top-left of its box, y downwards, as primitives."""

    def __init__(self, ctx, x: float, y: float, w: float, h: float):
        self.ctx = ctx
        self.x0, self.y0, self.w, self.h = x, y, w, h
        self.out: list[Primitive] = []
        self.ink = ctx.inks.line("ink")
        self.accent = ctx.inks.line("accent")
        self.light = ctx.inks.fill("light")
        self.pen = ctx.inks.line(PEN)

    def box(self, x: float, y: float, w: float, h: float, fill: str | None = None,
            width: float = 0.3, stroke: str | None = None) -> None:
        self.out.append(Rect(self.x0 + x, self.y0 + y, w, h, fill, stroke or self.ink, width))

    def fill(self, x: float, y: float, w: float, h: float, color: str) -> None:
        self.out.append(Rect(self.x0 + x, self.y0 + y, w, h, fill=color))

    def line(self, x1: float, y1: float, x2: float, y2: float, width: float = 0.3,
             color: str | None = None) -> None:
        self.out.append(Line(self.x0 + x1, self.y0 + y1, self.x0 + x2, self.y0 + y2,
                             color or self.ink, width))

    def text(self, x: float, y: float, w: float, h: float, text: str, size: float = 8,
             style: str = "regular", align: str = "center", color: str | None = None,
             wrap: bool = False) -> None:
        if not text:
            return
        fitted = fit_or_fail(self.ctx.measure, text, style, size, pt(w - 1.0), pt(h), wrap=wrap,
                             leading=1.15, min_size=6)
        block = 0.72 * fitted.size + (len(fitted.lines) - 1) * fitted.leading
        # The first baseline, in mm down from the sheet's top: the block is centred on the box.
        baseline = self.y0 + y + h / 2 - (block / 2 - 0.72 * fitted.size) / POINTS_PER_MM
        lines = []
        for line, width in zip(fitted.lines, fitted.widths):
            if align == "left":
                left = self.x0 + x + 0.6
            elif align == "right":
                left = self.x0 + x + w - 0.6 - width / POINTS_PER_MM
            else:
                left = self.x0 + x + w / 2 - width / 2 / POINTS_PER_MM
            lines.append(TextLine(line, left, baseline))
            baseline += fitted.leading / POINTS_PER_MM
        self.out.append(Text(tuple(lines), style, fitted.size, color or self.ink))

    def t(self, key: str, **values: Any) -> str:
        return self.ctx.catalog.get(key, **values)

    def icon(self, name: str, x: float, y: float, w: float, h: float) -> None:
        from pnp.icons import load_icon  # the SVG reader loads only for kits with icons

        source = load_icon(self.ctx.icon_dirs, name).source
        self.out.append(Icon(source, self.x0 + x, self.y0 + y, w, h, self.ink,
                             line_art=self.ctx.inks.ink_saver))

    def symbol(self, shape: str, cx: float, cy: float, size: float, color: str) -> None:
        self.out.append(Symbol(shape, self.x0 + cx, self.y0 + cy, size, color))

    def qr(self, data: str, x: float, y: float, size: float) -> None:
        self.out.append(QR(data, self.x0 + x, self.y0 + y, size, self.ink))

    def pen_number(self, x: float, y: float, w: float, h: float, value: int | str | None,
                   computed: bool = False) -> None:
        """An entered (pen blue) or computed (bold ink) number in a box."""
        if value is None:
            return
        self.text(x, y, w, h, str(value), size=11 if computed else 10.5,
                  style="black" if computed else "bold", color=self.ink if computed else self.pen)


def _header(s: Sheet, title: str, qr_data: str | None, hint: str, filled: bool) -> float:
    """Title, date line, hint and QR code; returns where the body starts (mm)."""
    qr = 21.0
    s.fill(0, 0, s.w - qr - 3, 11, s.ctx.inks.fill("accent"))
    s.text(3, 0, s.w - qr - 9, 11, title, size=15, style="black", align="left",
           color=s.ctx.inks.line("#ffffff"))
    s.text(0, 12, 14, 6, s.t("sheet.date_label"), size=8.5, style="bold", align="left")
    s.line(14, 17, 64, 17, 0.3)
    date = s.ctx.filled.date if s.ctx.filled is not None else None
    if filled and date:
        s.text(15, 11.5, 48, 6, date, size=9.5, style="bold", align="left", color=s.pen)
    s.text(66, 11.5, s.w - qr - 69, 9.5, s.t("sheet.filled_note") if filled else hint, size=7,
           align="left", wrap=True)
    if qr_data:
        s.qr(qr_data, s.w - qr, 0, qr)
    return qr + 2.0


def _player_names(result) -> list[str]:
    return list(result.players) if result is not None else []


# ----------------------------------------------------------------- Hunting Fever

def hunting_fever(s: Sheet, result, qr_data: str | None) -> None:
    top = _header(s, s.t("game.name") + " — " + s.t("sheet.title"), qr_data, s.t("sheet.hf.hint"),
                  result is not None)
    name_w, col_w, lodge_w, day_w, total_w = 30.0, 11.0, 13.0, 17.0, 19.0
    rows, row_h = 5, 7.6
    players = _player_names(result)
    x_prey = name_w
    x_hand = name_w + 5 * col_w
    x_lodge = name_w + 10 * col_w
    x_day = x_lodge + lodge_w
    x_total = x_day + day_w
    y = top
    for day in range(1, 5):
        played = result.rounds[day - 1] if result is not None and day <= len(result.rounds) else None
        # Group headings
        s.fill(0, y, s.w, 5, s.light)
        s.text(0, y, name_w, 5, s.t("sheet.hf.day", n=day), size=9, style="black", align="left",
               color=s.accent)
        s.text(x_prey, y, 5 * col_w, 5, s.t("sheet.hf.prey_pile"), size=8, style="black")
        s.text(x_hand, y, 5 * col_w, 5, s.t("sheet.hf.in_hand"), size=8, style="black")
        s.text(x_lodge, y, lodge_w, 5, s.t("sheet.hf.lodge"), size=7.5, style="bold")
        s.text(x_day, y, day_w, 5, s.t("sheet.hf.day_total"), size=7.5, style="bold")
        s.text(x_total, y, total_w, 5, s.t("sheet.hf.running_total"), size=7.5, style="bold")
        # Pictograms and values
        y += 5
        for base, points in ((x_prey, HF_PREY), (x_hand, HF_HAND)):
            for i, card in enumerate(HF_CARDS):
                cx = base + i * col_w
                s.icon(_hf_icon(card), cx + 0.6, y + 0.4, 4.6, 4.6)
                s.text(cx + 5.0, y, col_w - 5.0, 5.4, signed(points[card]), size=7.5, style="bold",
                       color=s.ctx.inks.line("bad" if points[card] < 0 else "good"))
        s.text(x_lodge, y, lodge_w, 5.4, "+4", size=7.5, style="bold")
        y += 5.6
        for r in range(rows):
            ry = y + r * row_h
            s.box(0, ry, name_w - 1, row_h - 0.6)
            entry = played.of(players[r]) if played is not None and r < len(players) else None
            if r < len(players):
                s.text(0.5, ry, name_w - 2, row_h - 0.6, players[r], size=8.5, style="bold", align="left")
            for base, place in ((x_prey, "prey"), (x_hand, "hand")):
                for i, card in enumerate(HF_CARDS):
                    bx = base + i * col_w + 1
                    s.box(bx, ry, col_w - 2, row_h - 0.6)
                    if entry is not None:
                        s.pen_number(bx, ry, col_w - 2, row_h - 0.6, entry.line(place, card).count)
            s.box(x_lodge + 1, ry, lodge_w - 2, row_h - 0.6)
            s.box(x_day + 1, ry, day_w - 2, row_h - 0.6, width=0.5)
            s.box(x_total + 1, ry, total_w - 2, row_h - 0.6, width=0.7)
            if entry is not None:
                flipped = entry.line("lodge", "lodge_flipped").count
                under = entry.line("lodge", "hunter_under_lodge").count
                s.pen_number(x_lodge + 1, ry, lodge_w - 2 - (4 if under else 0), row_h - 0.6,
                             "+4" if flipped else "0")
                if under:
                    s.icon("hunter", x_lodge + lodge_w - 5.5, ry + 1.4, 4, 4)
                s.pen_number(x_day + 1, ry, day_w - 2, row_h - 0.6, signed(entry.score), computed=True)
                s.pen_number(x_total + 1, ry, total_w - 2, row_h - 0.6, signed(entry.running_total),
                             computed=True)
        y += rows * row_h + 1.8
    _final_block(s, y, players, result, name_w, [
        (s.t("sheet.hf.after_four"), lambda p: signed(result.totals[p]) if result and result.complete else None),
        (s.t("sheet.hf.best_day"), lambda p: _best_day(result, p)),
    ])


def _hf_icon(card: str) -> str:
    return {"closed_season": "no_hunting"}.get(card, card)


def _best_day(result, player: str) -> str | None:
    if result is None or not result.rounds:
        return None
    return signed(max(r.of(player).score for r in result.rounds))


def _final_block(s: Sheet, y: float, players: list, result, label_w: float,
                 rows: list[tuple[str, Callable[[str], str | None]]], columns: int = 5,
                 headers: list[str] | None = None) -> float:
    """Totals and the winner, one column per player."""
    row_h = 7.6
    col_w = (s.w - label_w) / columns
    s.fill(0, y, s.w, 5.5, s.light)
    s.text(0, y, label_w, 5.5, s.t("sheet.player"), size=8, style="black", align="left", color=s.accent)
    for i in range(columns):
        name = players[i] if i < len(players) else (headers[i] if headers else "")
        s.text(label_w + i * col_w, y, col_w, 5.5, name, size=8, style="bold")
    y += 5.5
    winners = set(result.winners) if result is not None else set()
    for label, value in [*rows, (s.t("sheet.winner"), None)]:
        s.text(0, y, label_w, row_h, label, size=7.5, style="bold", align="left", wrap=True)
        for i in range(columns):
            bx = label_w + i * col_w + 1
            s.box(bx, y + 0.3, col_w - 2, row_h - 0.6, width=0.5)
            if i < len(players) and result is not None:
                if value is not None:
                    s.pen_number(bx, y + 0.3, col_w - 2, row_h - 0.6, value(players[i]), computed=True)
                elif players[i] in winners:
                    s.text(bx, y + 0.3, col_w - 2, row_h - 0.6, s.t("sheet.winner"), size=9,
                           style="black", color=s.accent)
        y += row_h
    if result is not None:
        note = ""
        if not result.complete:
            done = len(result.rounds)
            note = s.t("sheet.incomplete", done=done, expected=result.rounds_expected)
        elif result.tie_break is not None:
            note = s.t(f"sheet.tie_break.{result.tie_break.value}")
            if result.tie_break.value == "shared" and len(result.winners) > 1:
                note += " " + s.t("sheet.shared_win", names=", ".join(result.winners))
        if note:
            s.text(0, y + 0.5, s.w, 5, note, size=8, style="bold", align="left", color=s.accent)
            y += 5.5
    return y


# ----------------------------------------------------------------- Halali

def halali(s: Sheet, result, qr_data: str | None) -> None:
    top = _header(s, s.t("game.name") + " — " + s.t("sheet.title"), qr_data,
                  s.t("sheet.halali.hint"), result is not None)
    players = _player_names(result)
    label_w = 62.0
    col_w = (s.w - label_w) / 2
    row_h = 7.8
    y = top
    for number in (1, 2):
        played = result.rounds[number - 1] if result is not None and number <= len(result.rounds) else None
        s.fill(0, y, s.w, 6, s.light)
        s.text(0, y, label_w, 6, s.t("sheet.halali.round", n=number), size=10, style="black",
               align="left", color=s.accent)
        for i in range(2):
            x = label_w + i * col_w
            s.box(x + 1, y + 0.5, col_w - 2, 5, fill="#ffffff")
            if i < len(players):
                s.text(x + 1, y + 0.5, col_w - 2, 5, players[i], size=8.5, style="black")
        y += 6.5
        # Role: two tick boxes per player.
        s.text(0, y, label_w, 2 * 6.2, s.t("sheet.halali.role"), size=8, style="bold", align="left")
        for i in range(2):
            x = label_w + i * col_w
            role = played.of(players[i]).role if played is not None else None
            for k, (key, symbol) in enumerate((("blue", "halali_bear"), ("brown", "halali_hunter"))):
                ry = y + k * 6.2
                s.box(x + 2, ry + 0.6, 5, 5)
                if role == key:
                    s.text(x + 2, ry + 0.6, 5, 5, "X", size=10, style="black", color=s.pen)
                s.text(x + 8, ry, col_w - 10, 6.2, s.t(f"sheet.halali.{key}"), size=7.5, align="left")
        y += 2 * 6.2 + 1
        s.text(label_w, y, col_w / 2, 4.5, s.t("sheet.halali.count"), size=7, style="bold")
        s.text(label_w + col_w / 2, y, col_w / 2, 4.5, s.t("sheet.halali.points"), size=7, style="bold")
        s.text(label_w + col_w, y, col_w / 2, 4.5, s.t("sheet.halali.count"), size=7, style="bold")
        s.text(label_w + 1.5 * col_w, y, col_w / 2, 4.5, s.t("sheet.halali.points"), size=7, style="bold")
        y += 4.5
        for tile in HALALI_TILES:
            s.text(0, y, label_w - 16, row_h, s.t(f"sheet.halali.tile.{tile}"), size=8.5, style="bold",
                   align="left")
            s.text(label_w - 16, y, 15, row_h, f"× {HALALI_POINTS[tile]}", size=8.5, align="right")
            for i in range(2):
                x = label_w + i * col_w
                s.box(x + 2, y + 0.4, col_w / 2 - 4, row_h - 0.8)
                s.text(x + col_w / 2 - 2.5, y, 3, row_h, "=", size=8)
                s.box(x + col_w / 2 + 1, y + 0.4, col_w / 2 - 4, row_h - 0.8)
                if played is not None:
                    line = played.of(players[i]).line("tiles", tile)
                    s.pen_number(x + 2, y + 0.4, col_w / 2 - 4, row_h - 0.8, line.count)
                    s.pen_number(x + col_w / 2 + 1, y + 0.4, col_w / 2 - 4, row_h - 0.8, line.points,
                                 computed=True)
            y += row_h
        for key, attr in (("sheet.halali.round_points", "score"), ("sheet.halali.round_tiles", "tile_count")):
            s.text(0, y, label_w, row_h, s.t(key), size=8.5, style="black", align="left")
            for i in range(2):
                x = label_w + i * col_w
                s.box(x + col_w / 2 + 1, y + 0.4, col_w / 2 - 4, row_h - 0.8, width=0.7)
                if played is not None:
                    s.pen_number(x + col_w / 2 + 1, y + 0.4, col_w / 2 - 4, row_h - 0.8,
                                 getattr(played.of(players[i]), attr), computed=True)
            y += row_h
        y += 2
    tiles_total = None
    if result is not None:
        tiles_total = {p: sum(r.of(p).tile_count or 0 for r in result.rounds) for p in players}
    _final_block(s, y, players, result, label_w, [
        (s.t("sheet.halali.grand_total"), lambda p: result.totals[p] if result else None),
        (s.t("sheet.halali.tiles_total"), lambda p: tiles_total[p] if tiles_total else None),
    ], columns=2)


# ----------------------------------------------------------------- Hunting Hunting Beavers

def beavers(s: Sheet, result, qr_data: str | None) -> None:
    top = _header(s, s.t("game.name") + " — " + s.t("sheet.title"), qr_data,
                  s.t("sheet.hhb.hint"), result is not None)
    round_w = 16.0
    group_w = (s.w - round_w) / 4
    sub = (group_w - 1) / 3
    row_h = 13.0
    y = top
    colors = _beaver_colors(result)
    # Colour headings with their symbols, and the player's name.
    for i, color in enumerate(HHB_COLORS):
        x = round_w + i * group_w
        player = s.ctx.colors[color]
        s.box(x + 0.5, y, group_w - 1, 7, fill=s.ctx.inks.fill(player.rgb), width=0.4)
        s.symbol(player.symbol, x + 4.5, y + 3.5, 4.6, s.ctx.inks.line(player.ink))
        s.text(x + 8, y, group_w - 9, 7, s.t(f"color.{color}"), size=9, style="black", align="left",
               color=s.ctx.inks.line(player.ink))
        s.box(x + 0.5, y + 7.5, group_w - 1, 7)
        if colors.get(color):
            s.text(x + 0.5, y + 7.5, group_w - 1, 7, colors[color], size=9, style="bold", color=s.pen)
    s.text(0, y + 7.5, round_w, 7, s.t("sheet.player"), size=7.5, style="bold", align="left")
    y += 15.5
    s.text(0, y, round_w, 5, s.t("sheet.hhb.round"), size=7.5, style="black", align="left")
    for i in range(4):
        x = round_w + i * group_w + 0.5
        for k, key in enumerate(("won", "lost", "after")):
            s.text(x + k * sub, y, sub, 5, s.t(f"sheet.hhb.{key}"), size=7, style="bold")
    y += 5
    for number in range(1, 11):
        played = result.rounds[number - 1] if result is not None and number <= len(result.rounds) else None
        if number % 2 == 0:
            s.fill(0, y, s.w, row_h, s.light)
        s.text(0, y, round_w, row_h, str(number), size=11, style="black", color=s.accent)
        for i, color in enumerate(HHB_COLORS):
            x = round_w + i * group_w + 0.5
            for k in range(3):
                s.box(x + k * sub + 0.5, y + 0.6, sub - 1, row_h - 1.2, width=0.7 if k == 2 else 0.3,
                      fill="#ffffff")
            player = colors.get(color)
            if played is not None and player:
                entry = played.of(player)
                change = entry.score
                s.pen_number(x + 0.5, y + 0.6, sub - 1, row_h - 1.2, change if change > 0 else None)
                s.pen_number(x + sub + 0.5, y + 0.6, sub - 1, row_h - 1.2, -change if change < 0 else None)
                s.pen_number(x + 2 * sub + 0.5, y + 0.6, sub - 1, row_h - 1.2, entry.running_total, computed=True)
        y += row_h
    y += 2
    players_by_color = [colors.get(c) for c in HHB_COLORS]
    rows_final = [(s.t("sheet.hhb.final"), lambda p: result.totals[p] if result and result.complete else None)]
    _final_block(s, y, [p or "" for p in players_by_color] if result is not None else [], result,
                 round_w + 0.5, rows_final, columns=4,
                 headers=[s.t(f"color.{c}") for c in HHB_COLORS])


def _beaver_colors(result) -> dict[str, str]:
    """Colour -> player: the session's colours, else players in the rules' colour order."""
    if result is None:
        return {}
    chosen = result.colors
    if chosen:
        return {color: player for player, color in chosen.items()}
    return dict(zip(HHB_COLORS, result.players))


# ----------------------------------------------------------------- Card Hunter

def card_hunter(s: Sheet, result, qr_data: str | None) -> None:
    top = _header(s, s.t("game.name") + " — " + s.t("sheet.log_title"), qr_data,
                  s.t("sheet.ch.hint"), result is not None)
    widths = [9, 24, 56, 28, 24, 20, 0]
    widths[-1] = s.w - sum(widths[:-1])
    heads = ["sheet.ch.number", "sheet.date", "sheet.ch.players_characters", "sheet.ch.difficulty",
             "sheet.ch.result", "sheet.ch.knockouts", "sheet.ch.notes"]
    y = top
    s.fill(0, y, s.w, 9, s.light)
    x = 0.0
    for w, key in zip(widths, heads):
        s.text(x, y, w, 9, s.t(key), size=7.5, style="black", wrap=True)
        x += w
    y += 9
    row_h = (s.h - y - 1) / 12
    row_h = min(row_h, 19.0)
    outcome = result.card_hunter if result is not None else None
    for number in range(1, 13):
        x = 0.0
        s.text(x, y, widths[0], row_h, str(number), size=10, style="black", color=s.accent)
        x += widths[0]
        for k, w in enumerate(widths[1:], start=1):
            s.box(x + 0.5, y + 0.5, w - 1, row_h - 1, width=0.35)
            if k == 3:  # difficulty: three tick boxes
                for j, level in enumerate(("easy", "normal", "hard")):
                    ly = y + 1 + j * (row_h - 2) / 3
                    s.box(x + 2, ly + 0.6, 3.6, 3.6, width=0.3)
                    if number == 1 and outcome is not None and outcome.difficulty == level:
                        s.text(x + 2, ly + 0.6, 3.6, 3.6, "X", size=8, style="black", color=s.pen)
                    s.text(x + 6.5, ly, w - 8, (row_h - 2) / 3, s.t(f"sheet.ch.{level}"), size=7, align="left")
            if k == 4:  # result: two tick boxes
                for j, res in enumerate(("won", "lost")):
                    ly = y + 2 + j * (row_h - 4) / 2
                    s.box(x + 2, ly + 0.8, 3.6, 3.6, width=0.3)
                    if number == 1 and outcome is not None and outcome.result == res:
                        s.text(x + 2, ly + 0.8, 3.6, 3.6, "X", size=8, style="black", color=s.pen)
                    s.text(x + 6.5, ly, w - 8, (row_h - 4) / 2, s.t(f"sheet.ch.{res}"), size=7, align="left")
            x += w
        if number == 1 and result is not None:
            names = ", ".join(result.players)
            s.text(widths[0] + widths[1] + 1, y + 0.5, widths[2] - 2, row_h - 1, names, size=9,
                   style="bold", color=s.pen, wrap=True)
            if outcome is not None and outcome.result is not None:
                kx = sum(widths[:5])
                s.pen_number(kx + 0.5, y + 0.5, widths[5] - 1, row_h - 1, outcome.knockouts_left)
                verdict = s.t("sheet.team_won" if outcome.result == "won" else "sheet.team_lost")
                s.text(sum(widths[:6]) + 1, y + 0.5, widths[6] - 2, row_h - 1, verdict, size=8.5,
                       style="black", color=s.accent, wrap=True)
        y += row_h


LAYOUTS: dict[str, Callable] = {
    "hunting-fever": hunting_fever,
    "halali": halali,
    "hunting-hunting-beavers": beavers,
    "card-hunter": card_hunter,
}


def lay_out_scoresheet(ctx, layout: str, x: float, y: float, w: float, h: float,
                       qr_data: str | None) -> tuple[Primitive, ...]:
    """One game's scoresheet in the box (mm, top-left of the piece), blank or filled."""
    if layout not in LAYOUTS:
        raise TemplateError(f"unknown scoresheet layout {layout!r}; expected one of: " + ", ".join(LAYOUTS))
    sheet = Sheet(ctx, x, y, w, h)
    result = ctx.filled.result if ctx.filled is not None else None
    LAYOUTS[layout](sheet, result, qr_data)
    return tuple(sheet.out)
