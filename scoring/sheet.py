"""Pieces every game's scoresheet shares: the name row, the winners, what a filled sheet says.

A game's rules describe their sheet (:meth:`scoring.GameRules.scoresheet`) as
a :class:`pnp.core.sheet_model.Scoresheet`; these helpers build the rows most
sheets have, from a :class:`~scoring.result.Result` or, for a blank sheet,
from nothing.
"""

from __future__ import annotations

from typing import Callable, Sequence

from pnp.core.sheet_model import Box, Cell, Row, CatalogText, SheetText, catalog_text, signed
from scoring.result import Result

__all__ = ["CatalogText", "box_row", "name_row", "outcome_notes", "seats", "signed", "winner_row"]


def seats(result: Result | None, blank: int) -> tuple[str | None, ...]:
    """The players in seating order, or ``blank`` empty seats for a blank sheet."""
    if result is None:
        return (None,) * blank
    return tuple(result.players)


def name_row(names: Sequence[str | None]) -> Row:
    """A box per column to write the player's name in (filled: the name)."""
    return Row(catalog_text("sheet.player"), tuple(Cell((Box("text", value=name),)) for name in names))


def box_row(label: SheetText, names: Sequence[str | None], value: Callable[[str], SheetText | None] | None,
            kind: str = "total") -> Row:
    """A row of the foot: one box per column, filled by ``value(player)``."""
    return Row(label, tuple(Cell((Box("total", value=value(name) if value and name else None),))
                            for name in names), kind=kind)


def winner_row(result: Result | None, names: Sequence[str | None]) -> Row:
    """The last row of the foot: "Winner" under each winner of a finished game."""
    winners = set(result.winners) if result is not None else set()
    return box_row(catalog_text("sheet.winner"), names,
                   lambda name: catalog_text("sheet.winner") if name in winners else None)


def outcome_notes(result: Result | None) -> tuple[SheetText, ...]:
    """What a filled sheet says under its foot: how far an unfinished game is, or how a tie was settled."""
    if result is None:
        return ()
    if not result.complete:
        return (catalog_text("sheet.incomplete", done=len(result.rounds), expected=result.rounds_expected),)
    if result.tie_break is None:
        return ()
    notes: list[SheetText] = [catalog_text(f"sheet.tie_break.{result.tie_break.value}")]
    if result.tie_break.value == "shared" and len(result.winners) > 1:
        notes.append(catalog_text("sheet.shared_win", names=", ".join(result.winners)))
    return tuple(notes)


def points(value: int | None) -> str | None:
    """A score as a sheet prints it, with its sign; None stays empty."""
    return None if value is None else signed(value)
