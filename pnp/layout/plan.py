"""The page plan of one kit: which pages, and what sits where on each.

Pure computation over the model; the renderer only draws what the plan says.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from pnp.layout.imposition import (Box, Mark, Part, crop_marks, fit_grid,
                                   mirror_for_long_edge, split_piece)
from pnp.model import Component, Copy, Face, Game, PageKind, PrintOptions


class Placement(NamedTuple):
    """One face of one copy on a page."""

    copy: Copy
    face: Face
    trim: Box            # on the page, mm from its bottom-left
    printed: Box         # trim plus the bleed printed on each side
    rotation: int = 0    # quarter turns counter-clockwise: 0, 90, 180, 270
    part: Part | None = None


class PagePlan(NamedTuple):
    number: int
    kind: PageKind
    component: Component | None = None
    sheet: int = 0          # sheet n of N within the component
    sheets: int = 0
    placements: tuple[Placement, ...] = ()
    marks: tuple[Mark, ...] = ()


class KitPlan:
    """Every page of one kit; a filled scoresheet also carries its result."""

    def __init__(self, game: Game, options: PrintOptions, page_size: tuple[float, float]) -> None:
        self.game = game
        self.options = options
        self.page_size = page_size
        self.pages: list[PagePlan] = []
        self.filled: Any = None             # a scoring Result, for a filled scoresheet
        self.filled_qr: str | None = None   # its one-line summary, for the QR code
        self.filled_date: str | None = None

    def sheets_of(self, component_id: str) -> int:
        return sum(1 for p in self.pages if p.component and p.component.id == component_id
                   and p.kind in (PageKind.FRONT, PageKind.SHEET))


def copies(component: Component) -> list[Copy]:
    """Every physical piece of a component, set by set, in template order."""
    result = []
    for set_name in component.sets or (None,):
        # Several entries may share a piece id (44 `monster` cards in 17 kinds):
        # copies are numbered across them, so (piece, set, copy) names one piece.
        numbers: dict[str, int] = {}
        for piece in component.pieces:
            for _ in range(piece.count):
                numbers[piece.id] = numbers.get(piece.id, 0) + 1
                result.append(Copy(component, piece, numbers[piece.id], set_name))
    return result


def _prints_backs(component: Component, options: PrintOptions) -> bool:
    return component.two_sided and (options.duplex or component.back_kind == "required")


def plan_component(component: Component, page_w: float, page_h: float,
                   options: PrintOptions) -> list[tuple[list[Placement], list[Placement] | None, list[Mark]]]:
    """Placements per sheet for one component: (fronts, backs or None, crop marks) per sheet."""
    bleed = options.bleed
    all_copies = copies(component)
    piece_w, piece_h = component.size
    backs = _prints_backs(component, options)
    grid = fit_grid(page_w, page_h, piece_w, piece_h, bleed, component.rotate, component.gutter)
    sheets = []
    if grid is None:
        # Too big for one sheet: each copy is split into parts, a part a sheet.
        for copy in all_copies:
            parts = split_piece(page_w, page_h, piece_w, piece_h, component.overlap, component.rotate)
            for part in parts:
                sides = _part_bleed(part, bleed)
                front = Placement(copy, Face.FRONT, part.trim, part.trim.grow(*sides),
                                  90 if part.rotated else 0, part)
                back = None
                if backs:
                    mirrored = mirror_for_long_edge(part.trim, page_w, options.back_offset)
                    back = [Placement(copy, Face.BACK, mirrored,
                                      mirrored.grow(sides[2], sides[1], sides[0], sides[3]),
                                      270 if part.rotated else 0, part)]
                marks = crop_marks([front.trim], [front.printed], page_w, page_h) \
                    if options.crop_marks else []
                sheets.append(([front], back, marks))
        return sheets
    rotation = 90 if grid.rotated else 0
    for start in range(0, len(all_copies), grid.capacity):
        chunk = all_copies[start:start + grid.capacity]
        fronts, back_list = [], []
        for slot, copy in enumerate(chunk):
            trim = grid.trim(slot)
            left, bottom, right, top = grid.bleed_sides(slot, bleed)
            fronts.append(Placement(copy, Face.FRONT, trim, trim.grow(left, bottom, right, top),
                                    rotation))
            if backs:
                mirrored = mirror_for_long_edge(trim, page_w, options.back_offset)
                # After the flip, the front's left side is the back's right side.
                back_list.append(Placement(copy, Face.BACK, mirrored,
                                           mirrored.grow(right, bottom, left, top),
                                           (360 - rotation) % 360))
        marks = crop_marks([p.trim for p in fronts], [p.printed for p in fronts], page_w, page_h) \
            if options.crop_marks else []
        sheets.append((fronts, back_list if backs else None, marks))
    return sheets


def _part_bleed(part: Part, bleed: float) -> tuple[float, float, float, float]:
    """Bleed only on the piece's outer edges; the overlap takes care of the seams."""
    left = bleed if part.col == 0 else 0.0
    right = bleed if part.col == part.cols - 1 else 0.0
    top = bleed if part.row == 0 else 0.0
    bottom = bleed if part.row == part.rows - 1 else 0.0
    return left, bottom, right, top


def plan_kit(game: Game, options: PrintOptions, page_size: tuple[float, float],
             component_ids: list[str] | None = None, cover: bool = True) -> KitPlan:
    """Cover first, then every component's sheets (front, its back, next front...)."""
    page_w, page_h = page_size
    chosen = [game.component(c) for c in component_ids] if component_ids else list(game.components)
    kit = KitPlan(game, options, page_size)
    if cover:
        kit.pages.append(PagePlan(1, PageKind.COVER))
    for component in chosen:
        sheets = plan_component(component, page_w, page_h, options)
        for index, (fronts, backs, marks) in enumerate(sheets, start=1):
            kind = PageKind.FRONT if backs is not None else PageKind.SHEET
            kit.pages.append(PagePlan(len(kit.pages) + 1, kind, component, index, len(sheets),
                                      tuple(fronts), tuple(marks)))
            if backs is not None:
                kit.pages.append(PagePlan(len(kit.pages) + 1, PageKind.BACK, component, index,
                                          len(sheets), tuple(backs)))
    return kit
