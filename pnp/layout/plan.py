"""The page plan of one kit: which pages, what sits where on each, and what each face draws.

Pure computation over the model: the pages are imposed, every face is
resolved into primitives (every problem of every piece found before anything
is drawn), the cover is laid out, and each page's marks and footer. The
renderer only draws what the plan says.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from pnp.errors import TemplateError, raise_problems
from pnp.layout.cover import CoverContents, lay_out_cover
from pnp.layout.faces import FaceResolver, Filled, ResolvedFace
from pnp.layout.furniture import footer_layout, marks_layout, seams_layout
from pnp.layout.imposition import (Box, Mark, Part, crop_marks, fit_grid,
                                   mirror_for_long_edge, split_piece)
from pnp.layout.primitives import Primitive
from pnp.layout.text import Measurer
from pnp.limits import MAX_PAGES
from pnp.model import Component, Copy, Face, Game, PageKind, PrintOptions


class Run(NamedTuple):
    """Consecutive layers of a face that are drawn together.

    ``drawing`` numbers a run that every copy printed from the same face
    design draws alike (their resolved primitives are equal): the renderer
    draws it once, as a PDF form, when it is placed more than once. A run
    whose primitives differ from copy to copy (a card's number) has none.
    """

    primitives: tuple[Primitive, ...]
    drawing: int | None = None


class Placement(NamedTuple):
    """One face of one copy on a page."""

    copy: Copy
    face: Face
    trim: Box            # on the page, mm from its bottom-left
    printed: Box         # trim plus the bleed printed on each side
    rotation: int = 0    # quarter turns counter-clockwise: 0, 90, 180, 270
    part: Part | None = None
    runs: tuple[Run, ...] = ()   # what the face draws, in stacking order


class PagePlan(NamedTuple):
    number: int
    kind: PageKind
    component: Component | None = None
    sheet: int = 0          # sheet n of N within the component
    sheets: int = 0
    placements: tuple[Placement, ...] = ()
    marks: tuple[Mark, ...] = ()
    #: What the page draws besides its pieces, over them: the cover's
    #: contents, crop marks, board seams, the footer (mm from the page's top-left).
    drawing: tuple[Primitive, ...] = ()


class KitPlan:
    """Every page of one kit, each face resolved, ready to draw."""

    def __init__(self, game: Game, options: PrintOptions, page_size: tuple[float, float]) -> None:
        self.game = game
        self.options = options
        self.page_size = page_size
        self.pages: list[PagePlan] = []
        #: drawing number -> how many placements draw it (a form when more than one)
        self.drawing_uses: dict[int, int] = {}

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
        try:
            parts = split_piece(page_w, page_h, piece_w, piece_h, component.overlap, component.rotate)
        except ValueError as exc:
            raise TemplateError(f"component {component.id!r}: {exc}") from None
        _check_pages(component, len(all_copies) * len(parts))
        for copy in all_copies:
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
                    if options.crop_marks and component.cut else []
                sheets.append(([front], back, marks))
        return sheets
    _check_pages(component, -(-len(all_copies) // grid.capacity))
    rotation = 90 if grid.rotated else 0
    # Every sheet has the same slots: their boxes are made once and shared.
    slots = []
    for slot in range(grid.capacity):
        trim = grid.trim(slot)
        left, bottom, right, top = grid.bleed_sides(slot, bleed)
        mirrored = mirror_for_long_edge(trim, page_w, options.back_offset)
        # After the flip, the front's left side is the back's right side.
        slots.append((trim, trim.grow(left, bottom, right, top),
                      mirrored, mirrored.grow(right, bottom, left, top)))
    marks_for: dict[int, list[Mark]] = {}  # pieces on the sheet -> its crop marks
    for start in range(0, len(all_copies), grid.capacity):
        chunk = all_copies[start:start + grid.capacity]
        fronts, back_list = [], []
        for (trim, printed, mirrored, mirrored_printed), copy in zip(slots, chunk):
            fronts.append(Placement(copy, Face.FRONT, trim, printed, rotation))
            if backs:
                back_list.append(Placement(copy, Face.BACK, mirrored, mirrored_printed,
                                           (360 - rotation) % 360))
        marks = []
        if options.crop_marks and component.cut:
            marks = marks_for.get(len(fronts))
            if marks is None:
                marks = marks_for[len(fronts)] = crop_marks(
                    [p.trim for p in fronts], [p.printed for p in fronts], page_w, page_h)
        sheets.append((fronts, back_list if backs else None, marks))
    return sheets


def _check_pages(component: Component, sheets: int) -> None:
    """Refuse, before laying them out, more sheets than a PDF may have (every piece is
    placed, or the kit is refused: a piece is never left out)."""
    if sheets > MAX_PAGES:
        raise TemplateError(f"component {component.id!r} would take {sheets} sheets; the limit is "
                            f"{MAX_PAGES} pages in a PDF")


def _part_bleed(part: Part, bleed: float) -> tuple[float, float, float, float]:
    """Bleed only on the piece's outer edges; the overlap takes care of the seams."""
    left = bleed if part.col == 0 else 0.0
    right = bleed if part.col == part.cols - 1 else 0.0
    top = bleed if part.row == 0 else 0.0
    bottom = bleed if part.row == part.rows - 1 else 0.0
    return left, bottom, right, top


def plan_kit(game: Game, options: PrintOptions, page_size: tuple[float, float],
             component_ids: list[str] | None = None, cover: bool = True, *,
             measure: Measurer, filled: Filled | None = None) -> KitPlan:
    """Cover first, then every component's sheets (front, its back, next front...).

    Every face is resolved here; a template mistake anywhere (a text that does
    not fit, a box outside the trim, a missing glyph or icon) is reported with
    all the others, as one TemplateError, before anything is drawn.
    """
    page_w, page_h = page_size
    chosen = [game.component(c) for c in component_ids] if component_ids else list(game.components)
    sheet_pages: list[PagePlan] = []
    for component in chosen:
        sheets = plan_component(component, page_w, page_h, options)
        for index, (fronts, backs, marks) in enumerate(sheets, start=1):
            kind = PageKind.FRONT if backs is not None else PageKind.SHEET
            sheet_pages.append(PagePlan(0, kind, component, index, len(sheets), tuple(fronts), tuple(marks)))
            if backs is not None:
                sheet_pages.append(PagePlan(0, PageKind.BACK, component, index, len(sheets), tuple(backs)))

    if len(sheet_pages) > MAX_PAGES:
        raise TemplateError(f"the kit would take {len(sheet_pages)} pages; the limit is {MAX_PAGES} pages in a PDF")
    placed_copies = sum(1 for page in sheet_pages if page.kind is not PageKind.BACK
                        for placement in page.placements if placement.part is None or placement.part.index == 0)
    expected = sum(len(copies(component)) for component in chosen)
    if placed_copies != expected:  # imposition is pure arithmetic: this guards it, it never drops a piece
        raise TemplateError(f"{expected - placed_copies} of {expected} pieces could not be placed on a sheet")
    resolved, uses = resolve_placements(game, options, [p for page in sheet_pages for p in page.placements],
                                        measure=measure, filled=filled)
    kit = KitPlan(game, options, page_size)
    kit.drawing_uses = uses
    placed = iter(resolved)
    catalog = game.catalogs[options.lang]
    pages: list[PagePlan] = []
    if cover:
        contents = CoverContents(
            components=chosen, copies={c.id: len(copies(c)) for c in chosen},
            sheets={c.id: sum(1 for p in sheet_pages if p.component is c and p.kind is not PageKind.BACK)
                    for c in chosen},
            has_backs=any(p.kind is PageKind.BACK for p in sheet_pages))
        for drawing in lay_out_cover(game, options, page_size, contents, measure):
            pages.append(PagePlan(0, PageKind.COVER, drawing=drawing))
    for page in sheet_pages:
        placements = tuple(next(placed) for _ in page.placements)
        drawing = list(marks_layout(page.marks, page_h))
        if placements and placements[0].part is not None:
            drawing += seams_layout(placements[0], page_h, catalog, measure)
        drawing += footer_layout(page_size, options, catalog, measure, page.component.id, page.kind,
                                 page.sheet, page.sheets)
        pages.append(page._replace(placements=placements, drawing=tuple(drawing)))
    kit.pages = [page._replace(number=number) for number, page in enumerate(pages, start=1)]
    return kit


def resolve_placements(game: Game, options: PrintOptions, placements: Sequence[Placement], *,
                       measure: Measurer, filled: Filled | None = None
                       ) -> tuple[list[Placement], dict[int, int]]:
    """Every placement with its face resolved into runs, and how many placements
    draw each shared run (a run drawn more than once becomes one PDF form).

    Every problem of every face is collected first and raised as one
    TemplateError: nothing can be drawn from a kit with a mistake in a face.
    """
    resolver = FaceResolver(game, options, measure, filled)
    designs: dict[tuple, dict[int, ResolvedFace]] = {}  # face design -> copy number -> face
    for placement in placements:
        copy = placement.copy
        design = designs.setdefault((*copy.face_key, placement.face.value), {})
        if copy.copy not in design:
            design[copy.copy] = resolver.face(copy, placement.face)
    raise_problems(resolver.problems)
    del resolver  # and the layers it kept
    _into_runs(designs)
    uses: dict[int, int] = {}
    resolved = []
    for placement in placements:
        copy = placement.copy
        placed = placement._replace(runs=designs[(*copy.face_key, placement.face.value)][copy.copy])
        for run in placed.runs:
            if run.drawing is not None:
                uses[run.drawing] = uses.get(run.drawing, 0) + 1
        resolved.append(placed)
    return resolved, uses


def shared_layers(faces: Sequence[ResolvedFace]) -> list[bool]:
    """For each layer, whether every face has it equal: what copies can share.

    >>> from pnp.layout.primitives import Rect
    >>> a, b = (Rect(0, 0, 1, 1),), (Rect(0, 0, 2, 2),)
    >>> shared_layers([ResolvedFace((1, 1), 0, (a, a)), ResolvedFace((1, 1), 0, (a, b))])
    [True, False]
    """
    first = faces[0].layers
    return [all(f.layers[k] is layer or f.layers[k] == layer for f in faces[1:])
            for k, layer in enumerate(first)]


def _into_runs(designs: dict[tuple, dict[int, ResolvedFace | tuple[Run, ...]]]) -> None:
    """Each copy's face, in place, as runs in stacking order: the runs of layers
    equal in every copy of a face design are shared (one drawing for all of
    them), the others are drawn copy by copy."""
    drawings = 0
    for by_copy in designs.values():
        if len(by_copy) == 1:
            # A face printed from its design alone (a card of its own): one run, its whole face.
            (copy_number, face), = by_copy.items()
            primitives = tuple(p for layer in face.layers for p in layer)
            if primitives:
                by_copy[copy_number] = (Run(primitives, drawings),)
                drawings += 1
            else:
                by_copy[copy_number] = ()
            continue
        faces = list(by_copy.values())
        spans: list[tuple[bool, int, int]] = []
        for index, same in enumerate(shared_layers(faces)):
            if spans and spans[-1][0] == same:
                spans[-1] = (same, spans[-1][1], index + 1)
            else:
                spans.append((same, index, index + 1))
        common: dict[int, Run] = {}
        for number, (same, start, end) in enumerate(spans):
            primitives = tuple(p for layer in faces[0].layers[start:end] for p in layer)
            if same and primitives:
                common[number] = Run(primitives, drawings)
                drawings += 1
        for copy_number, face in list(by_copy.items()):
            runs = []
            for number, (same, start, end) in enumerate(spans):
                if same:
                    if number in common:
                        runs.append(common[number])
                    continue
                primitives = tuple(p for layer in face.layers[start:end] for p in layer)
                if primitives:
                    runs.append(Run(primitives))
            by_copy[copy_number] = tuple(runs)
