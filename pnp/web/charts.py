"""Small charts for the history page, drawn as inline SVG (no script, no image file).

Colours and fonts come from the page's style sheet through class names, so a
chart follows the page.
"""

from __future__ import annotations

from typing import Callable

from markupsafe import escape

WIDTH = 340
ROW = 34
NAME_WIDTH = 104
VALUE_WIDTH = 60


def bars(rows: list[tuple[str, float]], label: str, show: Callable[[float], str] = "{:.1f}".format) -> str:
    """Horizontal bars, one per (name, value), from a zero line; negative values go left of it.

    >>> chart = bars([("Ann", 12.0), ("Ben", -3.0)], "Average total")
    >>> chart.count('class="bar'), 'aria-label="Average total"' in chart
    (2, True)
    """
    height = ROW * len(rows) + 4
    low = min([0.0] + [value for _, value in rows])
    high = max([0.0] + [value for _, value in rows])
    span = (high - low) or 1.0
    track = WIDTH - NAME_WIDTH - VALUE_WIDTH
    zero = NAME_WIDTH + track * (-low / span)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" aria-label="{escape(label)}" '
             f'viewBox="0 0 {WIDTH} {height}">']
    for index, (name, value) in enumerate(rows):
        top = 2 + index * ROW
        left = zero + min(0.0, value) * track / span
        width = max(abs(value) * track / span, 1.5)
        kind = "bar negative" if value < 0 else "bar"
        shown = name if len(name) <= 12 else name[:11] + "…"
        parts.append(f'<text class="name" x="{NAME_WIDTH - 8}" y="{top + 22}" text-anchor="end">{escape(shown)}</text>')
        parts.append(f'<rect class="{kind}" x="{left:.1f}" y="{top + 6}" width="{width:.1f}" height="{ROW - 12}" rx="3"/>')
        parts.append(f'<text class="value" x="{WIDTH - 4}" y="{top + 22}" text-anchor="end">'
                     f'{escape(show(value))}</text>')
    parts.append(f'<line class="axis" x1="{zero:.1f}" y1="0" x2="{zero:.1f}" y2="{height}"/>')
    parts.append("</svg>")
    return "".join(parts)
