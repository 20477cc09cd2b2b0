"""QR codes: one encoder for the printed pages, the web pages and the terminal.

Only the module grid is worked out here (with the ``qrcode`` package, loaded on
first use); each front end draws the dark runs its own way: PDF rectangles,
SVG path commands, half blocks on a terminal.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterator


@lru_cache(maxsize=256)
def modules(text: str, border: int = 4, dense: bool = False) -> tuple[tuple[bool, ...], ...]:
    """The dark (True) and light modules of ``text``'s QR code, ``border`` light modules around.

    ``dense`` trades error correction (L instead of M) for fewer modules: for a long
    link shown on a screen, which is never smudged. The same address goes on every
    page of a kit and every language and paper: it is encoded once.

    >>> grid = modules("pnp", border=2)
    >>> len(grid) == len(grid[0]) == 21 + 2 * 2
    True
    """
    import qrcode  # only what carries a code needs it
    from qrcode.constants import ERROR_CORRECT_L, ERROR_CORRECT_M

    code = qrcode.QRCode(border=border, error_correction=ERROR_CORRECT_L if dense else ERROR_CORRECT_M)
    code.add_data(text)
    code.make(fit=True)
    return tuple(tuple(row) for row in code.get_matrix())


def dark_runs(grid: tuple[tuple[bool, ...], ...]) -> Iterator[tuple[int, int, int]]:
    """Each horizontal run of dark modules as (row, first column, length), row by row.

    >>> list(dark_runs(((True, True, False), (False, True, True))))
    [(0, 0, 2), (1, 1, 2)]
    """
    for row_number, row in enumerate(grid):
        size = len(row)
        column = 0
        while column < size:
            if row[column]:
                start = column
                while column < size and row[column]:
                    column += 1
                yield row_number, start, column - start
            else:
                column += 1
