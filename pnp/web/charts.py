"""Small charts for the history page, drawn as inline SVG (no script, no image file).

Colours and fonts come from the page's style sheet through class names, so a
chart follows the page.
"""

from __future__ import annotations

from typing import Callable

from markupsafe import escape

WIDTH = 340
ROW = 46
#: A name longer than this is cut with an ellipsis (the tables beside a chart hold it whole).
NAME_CHARS = 34


def bars(rows: list[tuple[str, float]], label: str, show: Callable[[float], str] = "{:.1f}".format, *,
         scale: float | None = None) -> str:
    """Horizontal bars, one per (name, value), each under its name with its value at the right; bars grow from
    a zero line, negative values to the left of it.

    ``scale`` is the value of a full bar (1.0 for shares); by default the largest value's.  Names sit above
    their bars, so a long name (a game's, in French) is never squeezed into a narrow column.

    >>> chart = bars([("Ann", 12.0), ("Ben", -3.0)], "Average total")
    >>> chart.count('class="bar'), 'aria-label="Average total"' in chart
    (2, True)
    """
    height = ROW * len(rows) + 4
    low = min([0.0] + [value for _, value in rows])
    high = max([0.0, scale or 0.0] + [value for _, value in rows])
    span = (high - low) or 1.0
    left, track = 2.0, WIDTH - 4.0
    zero = left + track * (-low / span)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" aria-label="{escape(label)}" '
             f'viewBox="0 0 {WIDTH} {height}">']
    for index, (name, value) in enumerate(rows):
        top = 2 + index * ROW
        start = zero + min(0.0, value) * track / span
        width = max(abs(value) * track / span, 1.5)
        kind = "bar negative" if value < 0 else "bar"
        shown = name if len(name) <= NAME_CHARS else name[:NAME_CHARS - 1] + "…"
        parts.append(f'<text class="name" x="{left}" y="{top + 16}">{escape(shown)}</text>')
        parts.append(f'<text class="value" x="{WIDTH - 2}" y="{top + 16}" text-anchor="end">'
                     f'{escape(show(value))}</text>')
        parts.append(f'<rect class="{kind}" x="{start:.1f}" y="{top + 23}" width="{width:.1f}" height="16" rx="3"/>')
    if low < 0:
        parts.append(f'<line class="axis" x1="{zero:.1f}" y1="0" x2="{zero:.1f}" y2="{height}"/>')
    parts.append("</svg>")
    return "".join(parts)


SERIES_HEIGHT = 150
SERIES_PAD = 26


def series(points: list[tuple[float, bool]], label: str, show: Callable[[float], str] = "{:.0f}".format) -> str:
    """A line through values in order (oldest first), a dot on each, filled where ``True`` (a win), a ring
    elsewhere; the lowest and highest values written at the left edge, on lines across.

    >>> chart = series([(31.0, False), (48.0, True), (40.0, False)], "Totals")
    >>> chart.count("<circle"), chart.count('class="dot won"'), 'role="img"' in chart
    (3, 1, True)
    """
    values = [value for value, _ in points]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    left, right = 44.0, WIDTH - 10.0
    step = (right - left) / max(len(points) - 1, 1)

    def place(index: int, value: float) -> tuple[float, float]:
        return left + index * step, SERIES_PAD / 2 + (high - value) * (SERIES_HEIGHT - SERIES_PAD) / span

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart series" role="img" aria-label="{escape(label)}" '
             f'viewBox="0 0 {WIDTH} {SERIES_HEIGHT}">']
    for value in sorted({low, high}):
        _, y = place(0, value)
        parts.append(f'<line class="grid" x1="{left:.1f}" y1="{y:.1f}" x2="{right:.1f}" y2="{y:.1f}"/>')
        parts.append(f'<text class="value" x="{left - 6:.1f}" y="{y + 5:.1f}" text-anchor="end">'
                     f'{escape(show(value))}</text>')
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in (place(i, v) for i, v in enumerate(values)))
    parts.append(f'<polyline class="line" points="{line}"/>')
    for index, (value, won) in enumerate(points):
        x, y = place(index, value)
        parts.append(f'<circle class="dot{" won" if won else ""}" cx="{x:.1f}" cy="{y:.1f}" r="4.5"/>')
    parts.append("</svg>")
    return "".join(parts)
