"""QR codes for the pages (inline SVG) and for the terminal (text blocks)."""

from __future__ import annotations

from pnp.core.qr import dark_runs, modules


def svg(text: str, label: str, dense: bool = False) -> str | None:
    """An SVG QR code of ``text``, one path of unit squares, scaled by CSS; ``label`` is its alt text.

    None when ``text`` is more than any QR code holds (a play of an imported
    session with very long names): the page offers its link without a code.

    >>> svg("pnp", "code").startswith('<svg xmlns="http://www.w3.org/2000/svg" class="qr" role="img"')
    True
    >>> svg("x" * 5000, "code") is None
    True
    """
    from markupsafe import escape
    from qrcode.exceptions import DataOverflowError

    try:
        grid = modules(text, dense=dense)
    except (DataOverflowError, ValueError):  # qrcode says "invalid version 41" for too much data
        return None
    size = len(grid)
    runs = [f"M{start} {y}h{length}v1h{-length}z" for y, start, length in dark_runs(grid)]
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="qr" role="img" aria-label="{escape(label)}" '
            f'viewBox="0 0 {size} {size}" shape-rendering="crispEdges">'
            f'<rect width="{size}" height="{size}" fill="#fff"/>'
            f'<path fill="#000" d="{"".join(runs)}"/></svg>')


def terminal(text: str) -> str:
    """``text``'s QR code drawn with half blocks, two module rows per line, dark on light.

    Light modules are printed as blocks and dark ones as spaces: on a terminal
    with a dark background (the usual one) that is dark on light, as scanners
    expect.  On a light background the code comes out inverted, which most
    phone cameras still read; the address is printed beside it anyway.
    """
    grid = modules(text)
    lines = []
    for y in range(0, len(grid), 2):
        top = grid[y]
        bottom = grid[y + 1] if y + 1 < len(grid) else tuple(False for _ in top)
        line = []
        for upper, lower in zip(top, bottom):
            light_up, light_down = not upper, not lower
            line.append("█" if light_up and light_down else "▀" if light_up else "▄" if light_down else " ")
        lines.append("".join(line))
    return "\n".join(lines)
