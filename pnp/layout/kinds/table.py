"""``table``: rows of texts in columns of given weights, a bold header and first column, rules.

What it accepts: ``KINDS["table"]`` in pnp/template/kinds.py (at most
pnp.core.limits.MAX_TABLE_ROWS rows of MAX_TABLE_COLS cells). Its box stays inside the
piece; each cell spends one shape of the kit's work budget.
"""

from __future__ import annotations

from typing import Any, Mapping

from pnp.core.units import POINTS_PER_MM, pt
from pnp.layout.kinds.base import CopyFace, KeyedError, Layer, inside_trim, mm
from pnp.layout.primitives import Line, Primitive, Rect, Text, TextLine
from pnp.layout.text import MIN_SIZE, fit_or_fail

DRAWS = (Rect, Text, Line)

TABLE_PAD = 1.5
TABLE_RULE_PT = 0.5
TABLE_FRAME_PT = 0.8


def resolve(keys: Mapping[str, Any], face: CopyFace, values: Mapping[str, Any],
            frame: tuple[float, float]) -> Layer:
    x, top = mm(keys["x"], values, "x"), mm(keys["y"], values, "y")
    width, row_h = mm(keys["w"], values, "w", low=0), mm(keys["row_h"], values, "row_h", low=0)
    weights = [mm(col, values, f"cols[{i}]", low=0) for i, col in enumerate(keys["cols"])]
    total = sum(weights)
    if not total > 0:
        raise KeyedError("cols", "the columns' widths add up to 0; give at least one a width above 0")
    widths = [width * weight / total for weight in weights]
    size = float(keys["size"])
    rule = face.inks.line(face.color(keys.get("line", "ink"), values))
    header = keys.get("header", True)
    rows = keys["rows"]
    font = keys.get("font", "regular")
    # The header and the first column are bold: Lato's, or the template's font's own bold.
    plain, strong = (font, "bold") if font not in face.fonts else (face.style(font), _strong(face, font))
    inside_trim(face, (x + frame[0], top + frame[1], width, row_h * len(rows)), "table")
    out: list[Primitive] = []
    for r, row in enumerate(rows):
        y = top + r * row_h
        is_header = header and r == 0
        fill_name = keys.get("header_fill") if is_header else (keys.get("zebra") if r % 2 == 0 else None)
        fill_color = face.inks.fill(face.color(fill_name, values))
        if fill_color:
            out.append(Rect(x, y, width, row_h, fill=fill_color))
        left = x
        for col, cell in enumerate(row):
            text = face.text(cell, values, f"rows[{r}][{col}]")
            style = strong if is_header or col == 0 else plain
            color = face.inks.line(face.color(keys.get("header_color" if is_header else "color", "ink"), values)
                                   or "ink")
            if text:
                fitted = fit_or_fail(face.measure, text, style, size, width=pt(widths[col] - 2 * TABLE_PAD),
                                     height=pt(row_h - 1), wrap=True, leading=1.12, min_size=MIN_SIZE)
                block = 0.72 * fitted.size + (len(fitted.lines) - 1) * fitted.leading
                # Baseline of the first line, in mm down from the row's top.
                base = row_h - ((pt(row_h) + block) / 2 - 0.72 * fitted.size) / POINTS_PER_MM
                lines = []
                for line, line_w in zip(fitted.lines, fitted.widths):
                    if col == 0 or keys.get("align", "center") == "left":
                        lines.append(TextLine(line, left + TABLE_PAD, y + base))
                    else:
                        lines.append(TextLine(line, left + widths[col] / 2 - line_w / 2 / POINTS_PER_MM,
                                              y + base))
                    base += fitted.leading / POINTS_PER_MM
                out.append(Text(tuple(lines), style, fitted.size, color))
            left += widths[col]
        if rule:
            out.append(Line(x, y + row_h, x + width, y + row_h, stroke=rule, width=TABLE_RULE_PT / POINTS_PER_MM))
    if rule and keys.get("col_lines", False):
        left = x
        for column_w in widths[:-1]:
            left += column_w
            out.append(Line(left, top, left, top + len(rows) * row_h, stroke=rule,
                            width=TABLE_RULE_PT / POINTS_PER_MM))
    if rule:
        out.append(Rect(x, top, width, len(rows) * row_h, stroke=rule, width=TABLE_FRAME_PT / POINTS_PER_MM))
    return tuple(out)


def _strong(face: CopyFace, font: str) -> str:
    """A template's own font's bold, or the font itself when it has none."""
    own = face.fonts[font]
    return own.bold or own.path


def spent(keys: Mapping[str, Any]) -> tuple[int, int]:
    """A shape per cell (at least one), no polygon corners."""
    rows = keys.get("rows")
    if not isinstance(rows, list):
        return 1, 0
    return max(1, sum(len(row) for row in rows if isinstance(row, list))), 0
