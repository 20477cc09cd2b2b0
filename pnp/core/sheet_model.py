"""What a scoresheet holds, as data: the contract between a game's rules and the one sheet layout.

A game's rules (``scoring/<game>.py``, :meth:`scoring.GameRules.scoresheet`)
describe its sheet with these records, blank or filled from a scored session;
:mod:`pnp.layout.scoresheets` draws any of them and names no game. The records
say *what* is on the sheet (columns, rows of boxes, labels, the points printed
beside them, the totals, the values of a filled sheet); the layout decides
*where* (widths, heights, type sizes) and checks that every box meant for a pen
is big enough.

Texts are :class:`CatalogText` (a catalog key and its values, put into words in the
sheet's language) or plain strings printed as they are (a player's name, a
number). Standard library only: the scoring package builds these without
loading anything that draws.
"""

from __future__ import annotations

from typing import Union

from pnp.core.records import NamedTuple


class CatalogText(NamedTuple):
    """A catalog text and the plain values its placeholders take."""

    key: str
    values: tuple[tuple[str, object], ...] = ()


def catalog_text(key: str, /, **values: object) -> CatalogText:
    """A :class:`CatalogText` written like a call.

    >>> catalog_text("sheet.hf.day", n=2)
    CatalogText(key='sheet.hf.day', values=(('n', 2),))
    """
    return CatalogText(key, tuple(values.items()))


def signed(value: int) -> str:
    """A score with its sign and a true minus: +4, −4, 0.

    >>> signed(4), signed(-4), signed(0)
    ('+4', '−4', '0')
    """
    return "0" if value == 0 else (f"+{value}" if value > 0 else f"\u2212{-value}")


#: A text of the sheet: words from the catalog, or a string printed as it is.
SheetText = Union[CatalogText, str]

#: What a box is for. ``pen``: a number written by hand (in a filled sheet, an
#: entered number, in pen blue); ``total``: a number worked out from others (a
#: heavier frame; filled, in bold ink); ``text``: words written by hand (a
#: name, a note); ``choice``: one of ``options`` to tick, each with its own
#: small box; ``caption``: no box, the words or pictogram that head a column
#: of boxes; ``blank``: nothing, keeps the boxes of the rows above and below
#: aligned.
BOX_KINDS = ("pen", "total", "text", "choice", "caption", "blank")


class Box(NamedTuple):
    """One box of a cell, side by side with the cell's other boxes."""

    kind: str = "pen"
    #: What a filled sheet shows in it (None: left empty).
    value: SheetText | None = None
    #: A caption's words, or a short label printed small in the box's top corner
    #: (the box is then taller, so the label leaves room to write).
    text: SheetText | None = None
    #: A caption's pictogram (an icon of the kit), or a choice's, before its options.
    icon: str | None = None
    #: Printed in the gap before the box, to read a row as a sum: "−", "+", "=".
    #: "" keeps the gap without a sign, so the boxes line up with a row that has one.
    sign: str | None = None
    #: Its share of the width of its line in the cell.
    weight: float = 1.0
    #: A choice's words, and which one a filled sheet ticks.
    options: tuple[SheetText, ...] = ()
    chosen: int | None = None
    #: The box starts a new line of the cell's boxes: a cell too narrow for all
    #: its boxes side by side reads as two lines, the second under the first.
    breaks: bool = False


class DetailLine(NamedTuple):
    """A line of small print under a cell's boxes: what a filled sheet's numbers were made of."""

    label: SheetText | None
    items: tuple[tuple[str, str], ...]   # (pictogram, text), e.g. ("wolf", "2")


class Cell(NamedTuple):
    """The boxes of one row in one column."""

    boxes: tuple[Box, ...] = ()
    detail: tuple[DetailLine, ...] = ()


#: Row kinds. ``entry``: boxes to fill in; ``captions``: the words over the
#: boxes below; ``heading``: a band naming what follows (a round); ``total``:
#: a row of the foot, after the grid.
ROW_KINDS = ("entry", "captions", "heading", "total")


class Row(NamedTuple):
    """One row of the sheet: a label at the left, a cell per column."""

    label: SheetText | None = None
    cells: tuple[Cell, ...] = ()
    kind: str = "entry"
    #: A pictogram before the label.
    icon: str | None = None
    #: Printed at the right of the label, what one counted thing is worth: "× 10".
    points: str | None = None
    #: A light band behind the row, to follow a long row across the sheet.
    shade: bool = False


class Column(NamedTuple):
    """A column of cells: a player, a player colour, or a field of a log."""

    heading: SheetText | None = None
    #: A player colour id (``templates/colors.toml``): its colour and symbol head the column.
    color: str | None = None
    weight: float = 1.0


class KeyColumn(NamedTuple):
    """One thing the key explains: its pictogram and what it is worth, row by row."""

    icon: str | None
    values: tuple[str, ...]
    caption: SheetText | None = None


class Key(NamedTuple):
    """A small table printed above the grid: what each card or tile is worth."""

    title: SheetText
    rows: tuple[SheetText, ...]          # what each line of values means
    columns: tuple[KeyColumn, ...]
    notes: tuple[SheetText, ...] = ()    # short lines beside the table


class Scoresheet(NamedTuple):
    """A whole sheet: its title and hint, a key, columns, rows, the foot, and what a filled sheet says."""

    title: SheetText
    hint: SheetText
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    foot: tuple[Row, ...] = ()
    key: Key | None = None
    #: The words in the top-left corner, over the row labels ("#").
    corner: SheetText | None = None
    #: A date line in the header (a log dates each row instead).
    dated: bool = True
    #: Sentences under the foot of a filled sheet: the tie-break, an unfinished game.
    notes: tuple[SheetText, ...] = ()
    filled: bool = False
    #: A filled sheet's outcome in a few words when a list of winners does not say it
    #: (a team that won or lost together): what the QR code's summary ends with.
    verdict: CatalogText | None = None


def problems(sheet: Scoresheet) -> list[str]:
    """What is wrong with a sheet's description, one sentence each (empty when it is sound).

    Every row has a cell per column, and every box and row has a known kind.

    >>> problems(Scoresheet("t", "h", (Column(),), (Row(cells=()),)))
    ['row 1 has 0 cells for 1 columns']
    """
    found = []
    for number, row in enumerate((*sheet.rows, *sheet.foot), start=1):
        if row.kind not in ROW_KINDS:
            found.append(f"row {number} has the unknown kind {row.kind!r}")
        if len(row.cells) != len(sheet.columns):
            found.append(f"row {number} has {len(row.cells)} cells for {len(sheet.columns)} columns")
        for cell in row.cells:
            for box in cell.boxes:
                if box.kind not in BOX_KINDS:
                    found.append(f"row {number} has a box of the unknown kind {box.kind!r}")
                elif box.kind == "choice" and not box.options:
                    found.append(f"row {number} has a choice with nothing to choose")
                elif box.chosen is not None and not 0 <= box.chosen < len(box.options):
                    found.append(f"row {number} circles option {box.chosen} of {len(box.options)}")
    return found


__all__ = [
    "Box",
    "BOX_KINDS",
    "catalog_text",
    "CatalogText",
    "Cell",
    "Column",
    "DetailLine",
    "Key",
    "KeyColumn",
    "problems",
    "Row",
    "ROW_KINDS",
    "Scoresheet",
    "SheetText",
    "signed",
]
