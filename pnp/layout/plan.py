"""The page plan of one kit: which pages, what sits where on each, and what each face draws.

Pure computation over the model: pieces are laid out on sheets (pieces of
different components share a sheet when they print the same way), every face
is resolved into primitives (every problem of every piece found before
anything is drawn), the pages are put in print order, the cover is laid out,
and each page's marks and footer. The renderer only draws what the plan says.

Print order. A double-sided print puts pages 1+2, 3+4... on one sheet, so in
a double-sided file every back is the even page right after its front and a
one-sided page has a blank page behind it (the cover's own continuation is
the only thing printed behind the cover). A file printed on one side (with
``--fold`` or ``--no-duplex``) has no back pages: backs that are printed go
on fold pages, beside their fronts.
"""

from __future__ import annotations

import math
from itertools import chain, islice
from typing import TYPE_CHECKING, Iterable, Sequence

from pnp.core.errors import TemplateError, raise_problems
from pnp.core.records import NamedTuple
from pnp.layout.cover import BAND_H as COVER_BAND
from pnp.layout.cover import PAPER, CoverContents, PlanRow, lay_out_cover, stock_of
from pnp.layout.bounds import QUIET_BAND, quiet_band_problems
from pnp.layout.faces import FaceResolver, Filled, ResolvedFace, face_elements
from pnp.layout.furniture import (SEPARATOR, Imprint, cut_guides_layout, fold_layout, footer_layout, marks_layout,
                                  seams_layout)
from pnp.layout.imposition import (MARGIN, MARK_CLEAR, MARK_LENGTH, Box, Frame,
                                   Mark, bottom_frame, grid_in, mirror_across, mirror_for_long_edge,
                                   page_frames)
from pnp.layout.outline import outline_of
from pnp.layout.primitives import Primitive
from pnp.layout.sheets import Item, Placed, Sheet, best_turn, pack, runs_of
from pnp.layout.text import Measurer
from pnp.core.i18n import Catalog
from pnp.core.limits import MAX_PAGES
from pnp.template.model import Component, Copy, Face, Game, PageKind, PrintOptions

if TYPE_CHECKING:
    from pnp.layout.boards import Part, SeamReport

#: Between the fold line and the nearest bleed on either side, mm: a fold a
#: little off never creases a piece's printed area.
FOLD_CLEAR = 5.0
#: From how many faces printed from their design alone a kit resolves them as their page is drawn.
LATER_FROM = 1000


class Run(NamedTuple):
    """Consecutive layers of a face that are drawn together.

    ``drawing`` numbers a run that every copy printed from the same face
    design draws alike (their resolved primitives are equal): the renderer
    draws it once, as a PDF form, when it is placed more than once. A run
    whose primitives differ from copy to copy (a card's number) has none.
    """

    #: None: the placement's whole face, resolved as its page is drawn (a card of its own
    #: in a deck of many: :attr:`KitPlan.faces`).
    primitives: tuple[Primitive, ...] | None
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
    sheet: int = 0                   # which sheet of paper of the file it is printed on
    components: tuple[str, ...] = ()  # whose pieces it carries, in template order
    placements: tuple[Placement, ...] = ()
    marks: tuple[Mark, ...] = ()
    #: What the page draws besides its pieces, over them: the cover's
    #: contents, crop marks, board seams, the fold line, the footer (mm from
    #: the page's top-left).
    drawing: tuple[Primitive, ...] = ()
    fold_line: Mark | None = None    # a fold page's, mm from the bottom-left
    frame: Frame | None = None
    stock: str = PAPER               # the paper its sheet is printed on
    #: A side of the printer alignment sheet, the optional last sheet of a double-sided kit.
    alignment: bool = False
    #: A front a cutting machine cuts: its registration marks are printed, and it has a cut file.
    cutter: bool = False


class KitPlan:
    """Every page of one kit, each face resolved, ready to draw."""

    def __init__(self, game: Game, options: PrintOptions, page_size: tuple[float, float]) -> None:
        self.game = game
        self.options = options
        self.page_size = page_size
        self.pages: list[PagePlan] = []
        #: drawing number -> how many placements draw it (a form when more than one)
        self.drawing_uses: dict[int, int] = {}
        #: True when the file is meant to be printed double-sided
        self.duplex = False
        #: How many sheets of paper the file is printed on
        self.sheets = 0
        #: What laying it out counted against the kit's work budget (pnp.core.limits.WorkBudget);
        #: with :attr:`faces`, counted in full once every page is drawn
        self.budget = None
        #: What is worth a word besides problems: a board cut at a line its seams do not
        #: name, or through text (warnings); named seams not used (notes).
        self.reports: list[SeamReport] = []
        #: Each picture placed: piece, face, file and resolution (pnp.layout.kinds.image.Placed)
        self.pictures: list = []
        #: The resolver of the faces left to be resolved as their pages are drawn (runs whose
        #: primitives are None), whose problems are raised once every page is drawn; None
        #: when every face is resolved here
        self.faces: FaceResolver | None = None


def copies(component: Component) -> list[Copy]:
    """Every physical piece of a component, set by set, in template order."""
    result = []
    for set_name in component.sets or (None,):
        # Several entries may share a piece id (44 `monster` cards in 17 kinds):
        # copies are numbered across them, so (piece, set, copy) names one piece.
        numbers: dict[str, int] = {}
        for piece in component.pieces:
            number = numbers.get(piece.id, 0)
            for _ in range(piece.count):
                number += 1
                result.append(Copy(component, piece, number, set_name))
            numbers[piece.id] = number
    return result


def prints_backs(component: Component, options: PrintOptions) -> bool:
    """Whether the component's backs are printed: with ``--duplex`` or ``--fold``,
    or always when they carry game information (the lodge's "4" side)."""
    return component.two_sided and (options.duplex or component.back_kind == "required")


def duplex_file(options: PrintOptions) -> bool:
    """Whether backs go on back pages (a double-sided print) rather than fold pages."""
    return options.duplex and not options.fold


def fits_a_sheet(component: Component, page_size: tuple[float, float], bleed: float,
                 frames: Sequence[Frame] | None = None) -> bool:
    """Whether one piece fits a sheet whole (else it is split into parts)."""
    return any(grid_in(frame.area, *component.size, bleed, allow_rotate=component.rotate, gutter=component.gutter)
               for frame in frames or page_frames(*page_size))


def _machine_cut(kit: _Kit, component: Component) -> bool:
    """Whether a cutting machine cuts the component: pieces to cut that fit inside its marks
    (the others, a scoresheet or a board too large, are laid out and cut as usual)."""
    return bool(kit.cut_frames) and component.cut and \
        fits_a_sheet(component, kit.page_size, kit.options.bleed, kit.cut_frames)


class _Entry(NamedTuple):
    """One sheet of paper in print order, before pages are numbered."""

    how: str                  # "both" (front and back pages), "fold" or "one"
    sheet: Sheet
    fold_line: Mark | None = None
    stock: str = PAPER        # what it is printed on (see :func:`~pnp.layout.cover.stock_of`)
    machine: bool = False     # cut by a cutting machine: its marks on the front, a cut file


def _with_backs(items: list[Item], resolver: FaceResolver, measure: Measurer) -> list[Item]:
    """The items, each with the number of the back it prints: equal numbers for
    equal backs (the resolved drawing decides, never a name), so that only
    pieces with the same back share a cut.

    A hidden component's back is checked here: one back for every piece of a
    set (its deck), and a quiet band (one colour in its outer 4 mm); each
    problem goes with the resolver's others.
    """
    numbers: dict[tuple, int] = {}
    by_design: dict[tuple, int] = {}
    decks: dict[tuple[str, str | None], set[int]] = {}
    quiet: set[int] = set()   # hidden backs whose band is checked
    out = []
    for item in items:
        copy = item.copy
        if item.part is not None:
            # A board part's back is its own region of the board's back: never shared.
            out.append(item._replace(back=len(numbers) + len(out) + 1_000_000))
            continue
        design = (*copy.face_key, copy.copy if _uses_copy(copy) else None)
        number = by_design.get(design)
        if number is None:
            face = _back_after_front(resolver, copy)
            number = numbers.setdefault(face.layers, len(numbers))
            by_design[design] = number
            component = copy.component
            if component.hidden and number not in quiet:
                quiet.add(number)
                elements = face_elements(component, copy.piece, Face.BACK)
                for layer, problem in quiet_band_problems(face.layers, component.size, measure):
                    resolver._report(f"{elements[layer].where} ({resolver.game.id} {component.id}/"
                                     f"{copy.piece.id} back, {resolver.catalog.lang}): the back of a hidden "
                                     f"piece is one colour in its outer {QUIET_BAND:g} mm, so a back printed "
                                     f"a little off still looks like every other; {problem}")
        if copy.component.hidden:
            decks.setdefault((copy.component.id, copy.set), set()).add(number)
        out.append(item._replace(back=number))
    for (component_id, set_name), backs in decks.items():
        if len(backs) > 1:
            where = f" in the set {set_name!r}" if set_name else ""
            resolver._report(f"{component_id} ({resolver.game.id}): the pieces of a hidden component "
                             f"share one back{where}, but they print {len(backs)} different backs")
    return out


def _back_after_front(resolver: FaceResolver, copy: Copy) -> ResolvedFace:
    """The back of a copy, its problems told after its front's, piece by piece.

    The front is resolved here only when the back has a problem: resolving it
    again with every other face would cost a deck of thousands of different
    cards all its fronts twice (the resolver keeps a bounded number of layers)."""
    before = len(resolver.problems)
    face = resolver.face(copy, Face.BACK)
    if len(resolver.problems) > before:
        told = resolver.problems[before:]
        del resolver.problems[before:]
        resolver.face(copy, Face.FRONT)
        resolver.problems.extend(told)
    return face


def _uses_copy(copy: Copy) -> bool:
    """Whether the back of a copy depends on its copy number (a numbered back)."""
    return any("copy" in element.names for element in face_elements(copy.component, copy.piece, Face.BACK))


class _Kit(NamedTuple):
    """What every step of planning one kit works with."""

    game: Game
    options: PrintOptions
    page_size: tuple[float, float]
    frames: list[Frame]
    measure: Measurer
    resolver: FaceResolver
    catalog: Catalog
    #: A cutting machine's frames, inside its registration marks; none without --cutter.
    cut_frames: tuple[Frame, ...] = ()
    #: What the plan reports besides problems: where a board is cut.
    reports: list[SeamReport] | None = None
    #: Whether a piece to cut has an edge a guillotine cannot follow (rounded corners, a circle,
    #: a hex): the kit's sheets have cut guides to look for.
    guided: bool = True


class _Laid(NamedTuple):
    """A component's pieces to lay out on sheets: whether its backs are printed, and on what paper."""

    component: Component
    backs: bool
    stock: str
    items: list[Item]


class _Pages(NamedTuple):
    """Every page of the kit in print order, before its faces are resolved and its furniture drawn."""

    pending: list[tuple[PagePlan, int]]      # each page and how many placements it takes
    placements: list[Placement]              # in page order
    cover_pages: list[tuple[Primitive, ...]]
    kinds: tuple[str, ...]                   # the cover section's pages: "cover", "opening", "blank"
    duplex: bool
    alignment: bool
    total_pages: int
    total_sheets: int
    alignment_page: int = 0                  # the alignment sheet's front, if the kit has one


def plan_kit(game: Game, options: PrintOptions, page_size: tuple[float, float],
             component_ids: list[str] | None = None, *, cover: bool = True,
             measure: Measurer, filled: Filled | None = None, imprint: Imprint | None = None) -> KitPlan:
    """The cover, then every sheet in print order, each face resolved.

    Every face is resolved here; a template mistake anywhere (a text that does
    not fit, a box outside the trim, a missing glyph or icon) is reported with
    all the others, as one TemplateError, before anything is drawn.
    """
    chosen = [game.component(c) for c in component_ids] if component_ids else list(game.components)
    resolver = FaceResolver(game, options, measure, filled)
    resolver.estimate(chosen)   # a kit past its work budget stops here, before any face is laid out
    cut_frames = ()
    if options.cutter:
        from pnp.layout import cutter   # a cutting machine's module loads for a kit it cuts

        cut_frames = cutter.frames(*page_size, options.mark_inset, options.mark_length)
    kit = _Kit(game, options, page_size, page_frames(*page_size), measure=measure, resolver=resolver,
               catalog=game.catalogs[options.lang], cut_frames=cut_frames,
               reports=[], guided=any(c.cut and not outline_of(c).straight for c in chosen))
    # The page the kit opens with (the rules summary) goes with the cover.
    opener = next((c for c in chosen if c.with_cover), None) if cover else None
    # The sheets' layout is let go with _pages' frame, before the faces are resolved:
    # for a deck of thousands of cards, an item and a slot each.
    pages = _pages(kit, chosen, opener=opener, cover=cover, imprint=imprint)
    resolved, uses = resolve_placements(game, options, pages.placements, measure=measure, resolver=resolver,
                                        later=True)
    plan = KitPlan(game, options, page_size)
    plan.drawing_uses, plan.duplex, plan.sheets = uses, pages.duplex, pages.total_sheets
    plan.budget = resolver.budget
    plan.reports = list(dict.fromkeys(kit.reports))
    plan.pictures = list(resolver.pictures.values())
    if any(placement.runs is _LATER for placement in resolved):
        plan.faces = resolver
    plan.pages = _drawn(kit, pages, resolved)
    return plan


class _Opening(NamedTuple):
    """What every way of opening the kit is worked out from."""

    chosen: list[Component]       # the components printed
    entries: list[_Entry]         # their sheets
    sheet: Sheet | None           # the opening page's (the rules summary), if the kit has one
    opener: Component | None      # its component
    cover: bool                   # the kit opens with its cover
    duplex: bool                  # the file is printed double-sided
    alignment: bool               # and ends with the printer alignment sheet
    imprint: Imprint | None       # what the cover says made the kit


def _pages(kit: _Kit, chosen: list[Component], *, opener: Component | None, cover: bool,
           imprint: Imprint | None) -> _Pages:
    """The sheets the pieces take, the cover section that opens the kit, and every page in order."""
    entries = _fewest_sheets(kit, _laid_out(kit, chosen, opener))
    duplex = any(e.how == "both" for e in entries)
    # A double-sided kit has the printer alignment sheet, optional, for whoever holds only the
    # PDF, right after the cover: the cover says to print it first, and what to do with its reading.
    opening = _Opening(chosen, entries, _opening_sheet(kit, opener), opener, cover=cover, duplex=duplex,
                       alignment=cover and duplex, imprint=imprint)
    _check_totals(opening)
    best = _opening_section(kit, opening)
    numbers = best.numbers
    pending, placements = _section_pages_planned(kit, best, opening.sheet, duplex)
    if opening.alignment:
        sheet = _sheet_of(numbers.alignment, duplex)
        pending += [(PagePlan(numbers.alignment, PageKind.FRONT, sheet, alignment=True, stock=PAPER), 0),
                    (PagePlan(numbers.alignment + 1, PageKind.BACK, sheet, alignment=True, stock=PAPER), 0)]
    _sheet_pages(kit, best.entries, numbers.starts, duplex=duplex, pending=pending, placements=placements)
    pending.sort(key=lambda entry: entry[0].number)
    return _Pages(pending, placements, best.cover_pages, best.pages, duplex=duplex, alignment=opening.alignment,
                  total_pages=numbers.pages, total_sheets=numbers.sheets, alignment_page=numbers.alignment)


def _laid_out(kit: _Kit, chosen: list[Component], opener: Component | None) -> list[_Laid]:
    """What to lay out: each component's items (a board too big for a sheet in parts), with
    whether its backs are printed (they go on fold pages unless the file is double-sided), the
    paper it wants, and the back each piece prints."""
    folded = not duplex_file(kit.options)
    laid: list[_Laid] = []
    for component in chosen:
        if component is opener:
            continue
        backs = prints_backs(component, kit.options)
        items = ([Item(copy) for copy in copies(component)]
                 if fits_a_sheet(component, kit.page_size, kit.options.bleed)
                 else _board_parts(kit, component, backs))
        laid.append(_Laid(component, backs, stock_of(component, backs, folded), items))
    raise_problems(kit.resolver.problems)
    # Each piece learns which back it prints (its problems are raised with every
    # other face's, once all are resolved).
    two_sided = [item for entry in laid if entry.backs for item in entry.items]
    numbered = iter(_with_backs(two_sided, kit.resolver, kit.measure))
    for entry in laid:
        if entry.backs:
            entry.items[:] = [next(numbered) for _ in entry.items]
    return laid


def _board_parts(kit: _Kit, component: Component, backs: bool) -> list[Item]:
    """The parts of each copy of a piece too big for a sheet, split clear of its texts
    (copies whose texts lie alike split alike)."""
    from pnp.layout.boards import seam_reports, split_piece, text_boxes  # loaded only for a kit with a board

    area = kit.frames[0].area
    splits: dict[tuple, tuple[Part, ...]] = {}
    all_copies = copies(component)
    items = []
    for copy in all_copies:
        faces = [kit.resolver.face(copy, Face.FRONT)] + ([kit.resolver.face(copy, Face.BACK)] if backs else [])
        texts = tuple(box for face in faces for box in text_boxes(face.primitives, kit.measure))
        parts = splits.get(texts)
        if parts is None:
            try:
                lines_x, lines_y = component.seam_lines
                parts = split_piece(area.w, area.h, *component.size, overlap=component.overlap,
                                    allow_rotate=component.rotate, texts=texts, lines_x=lines_x,
                                    lines_y=lines_y).parts
            except ValueError as exc:
                raise TemplateError(f"component {component.id!r}: {exc}") from None
            _check_pages(component, len(all_copies) * len(parts))
            splits[texts] = parts
            lines_x, lines_y = component.seam_lines
            kit.reports.extend(seam_reports(component.id, size=component.size, overlap=component.overlap,
                                            parts=parts, texts=texts, lines_x=lines_x, lines_y=lines_y,
                                            paper=kit.options.paper))
        items += [Item(copy, part) for part in parts]
    return items


class _Shrinker:
    """A page marked ``shrink`` at a given height: the piece at that height when its front
    still holds there, else None. Every shrunk component is kept, held or not: the
    resolver knows a component by its id while the kit is planned."""

    def __init__(self, resolver: FaceResolver) -> None:
        self.resolver = resolver
        self.shrunk: dict[tuple[str, float], tuple[Item, bool]] = {}

    def __call__(self, item: Item, height: float) -> Item | None:
        component = item.copy.component
        # To the micrometre, and never more than EPS above the room it was given.
        key = (component.id, math.floor(height * 1000 + 1e-3) / 1000)
        if key not in self.shrunk:
            copy = item.copy._replace(component=component._replace(size=(component.size[0], key[1])))
            self.shrunk[key] = (Item(copy), self.resolver.holds(copy, Face.FRONT))
        smaller, held = self.shrunk[key]
        return smaller if held else None


def _fewest_sheets(kit: _Kit, laid: list[_Laid]) -> list[_Entry]:
    """Every sheet in print order: each piece on its own paper, unless joining the pieces
    with backs to the hidden decks' paper saves a sheet."""
    shrink = _Shrinker(kit.resolver)
    decks = {entry.stock for entry in laid if entry.backs and entry.component.hidden}
    joins = (False, True) if decks and any(entry.backs and not entry.component.hidden and entry.stock not in decks
                                           for entry in laid) else (False,)
    return min((_sheets_on_papers(kit, laid, join, shrink) for join in joins), key=len)


def _sheets_on_papers(kit: _Kit, laid: list[_Laid], join: bool, shrink: _Shrinker) -> list[_Entry]:
    """Every sheet: pieces in groups that print alike (with backs or one-sided) on one
    paper, so a hidden deck is on one. With ``join``, pieces with backs that are not
    hidden go on the paper of the hidden decks (the first one's if theirs is none of
    them): four tokens on card stock beside the cards, rather than a sheet of thick card
    of their own."""
    options = kit.options
    decks = list(dict.fromkeys(entry.stock for entry in laid if entry.backs and entry.component.hidden))
    groups: dict[tuple[bool, str, bool], list[Item]] = {}
    for component, backs, stock, items in laid:
        if join and backs and not component.hidden and decks and stock not in decks:
            stock = decks[0]
        machine = _machine_cut(kit, component) and all(item.part is None for item in items)
        groups.setdefault((backs, stock, machine), []).extend(items)
    entries: list[_Entry] = []
    for (backs, stock, machine), items in groups.items():
        frames = kit.cut_frames if machine else kit.frames
        if machine:
            # One orientation for each size of piece on every sheet the machine cuts.
            turns: dict[tuple[float, float], bool] = {}
            items = [item if item.turn is not None or item.part is not None else item._replace(
                turn=turns.setdefault(item.size, best_turn(item, frames, options.bleed))) for item in items]
        runs = runs_of(items)
        try:
            if not backs:
                entries += [_Entry("one", sheet, stock=stock, machine=machine)
                            for sheet in pack(runs, frames, options.bleed, shrink)]
            elif duplex_file(options):
                entries += [_Entry("both", sheet, stock=stock, machine=machine)
                            for sheet in pack(runs, frames, options.bleed)]
            else:
                entries += _fold_entries(runs, kit.page_size, options.bleed,
                                         has_parts=any(item.part is not None for item in items), stock=stock)
        except ValueError as exc:
            raise TemplateError(str(exc)) from None
    return entries


def _opening_sheet(kit: _Kit, opener: Component | None) -> Sheet | None:
    """The sheet of the page the kit opens with (the rules summary), if it has one."""
    if opener is None:
        return None
    try:
        # A page read as it comes out of the printer: never cut, so the usual frames even for a cutter.
        [opening] = pack(runs_of([Item(copy) for copy in copies(opener)]), page_frames(*kit.page_size),
                         kit.options.bleed)
    except ValueError as exc:
        raise TemplateError(f"component {opener.id!r}: {exc}") from None
    return opening


def _check_totals(opening: _Opening) -> None:
    """A kit within the pages a PDF may have, with every piece placed."""
    entries = opening.entries
    pages = len(entries) * (2 if opening.duplex else 1) + 4 + (2 if opening.alignment else 0)
    if pages > MAX_PAGES:
        raise TemplateError(f"the kit would take {pages} pages; the limit is {MAX_PAGES} pages in a PDF")
    placed = sum(1 for entry in entries + ([_Entry("one", opening.sheet)] if opening.sheet else [])
                 for p in entry.sheet.placed if p.item.part is None or p.item.part.index == 0)
    expected = sum(component.piece_count() for component in opening.chosen)
    if placed != expected:  # packing is pure arithmetic: this guards it, it never drops a piece
        raise TemplateError(f"{expected - placed} of {expected} pieces could not be placed on a sheet")


def _opening_section(kit: _Kit, opening: _Opening) -> _Section:
    """How the kit opens: the cover (its text may go on to more pages) and the opening page,
    the rules summary, on the back of the cover when the cover fits one page. The cover's
    own sheet may instead take the pieces of a one-sided sheet below its text; nothing is
    then printed behind them, so the opening page goes on a sheet of its own. Whichever
    uses fewer sheets is kept, the summary behind the cover on a tie."""
    tries: list[_UnderCover | None] = [None]
    # Pieces below the cover's text would need marks of their own beside it: not with a cutter.
    if opening.cover and not kit.options.cutter:
        below_cover = _under_cover(opening.entries, kit.page_size, kit.options.bleed)
        if below_cover is not None:
            tries.append(below_cover)
    best: _Section | None = None
    for under in tries:
        kept = [e for e in opening.entries if under is None or e is not under.entry]
        if best is not None and under is not None and _sheets_at_best(opening, kept) >= best.numbers.sheets:
            continue  # not even a one-page cover would save a sheet: it is not laid out to find that out
        settled = _settled_cover(kit, opening, kept=kept, under=under)
        if under is not None and len(settled.cover_pages) > (2 if opening.duplex else 1):
            continue  # the continuation would print behind the pieces' own sheet
        if best is None or settled.numbers.sheets < best.numbers.sheets:
            best = _Section(kept, under.sheet if under else None, settled.section, settled.cover_pages,
                            numbers=settled.numbers, below_stock=under.entry.stock if under else PAPER)
    assert best is not None
    return best


def _sheets_at_best(opening: _Opening, kept: list[_Entry]) -> int:
    """The fewest sheets the kit can take with pieces below the cover's text: its cover on one
    page (more pages only add sheets)."""
    section = _section_pages(1, True, opening.sheet is not None, opening.duplex)
    return _number(kept, len(section), opening.duplex, opening.alignment).sheets


class _Settled(NamedTuple):
    """One way of opening the kit, worked out: its section's pages, the pages' numbers, the cover."""

    section: tuple[str, ...]
    numbers: _Numbers
    cover_pages: list[tuple[Primitive, ...]]


def _settled_cover(kit: _Kit, opening: _Opening, *, kept: list[_Entry], under: _UnderCover | None) -> _Settled:
    """The cover section's pages, the pages' numbers, and the cover laid out, with ``kept``
    sheets after it (``under``: pieces below the cover's text). The cover's length only moves
    later pages in a one-sided file, so it is laid out until the numbers it prints stop changing."""
    options, page_size = kit.options, kit.page_size
    count = 1 if opening.cover else 0
    for _ in range(4):
        section = _section_pages(count, under is not None, opening.sheet is not None, opening.duplex)
        numbers = _number(kept, len(section), opening.duplex, opening.alignment)
        if not opening.cover:
            return _Settled(section, numbers, [])
        contents = _contents(opening, kept, numbers, options=options, under=under,
                             section=section)._replace(cover_pages=count)
        below_ids = contents.below
        cover_pages = lay_out_cover(kit.game, options, page_size, contents, measure=kit.measure,
                                    imprint=opening.imprint,
                                    footer=lambda n: footer_layout(kit.frames[0], page_size, options, kit.catalog,
                                                                   measure=kit.measure, page=n, pages=numbers.pages,
                                                                   components=below_ids if n == 1 else ()))
        if len(cover_pages) == count:
            return _Settled(section, numbers, cover_pages)
        count = len(cover_pages)
    raise AssertionError("the cover's length did not settle")


def _section_pages_planned(kit: _Kit, best: _Section, opening: Sheet | None, duplex: bool
                           ) -> tuple[list[tuple[PagePlan, int]], list[Placement]]:
    """The cover section's pages and the placements they take: the cover's sheet takes the
    paper of the pieces below its text, if any."""
    pending: list[tuple[PagePlan, int]] = []
    placements: list[Placement] = []
    below = best.below
    cover_stock = best.below_stock if below is not None else PAPER
    for number, what in enumerate(best.pages, start=1):
        sheet_no = _sheet_of(number, duplex)
        stock = cover_stock if sheet_no == 1 else PAPER
        if what == "blank":
            pending.append((PagePlan(number, PageKind.BLANK, sheet_no, stock=stock), 0))
        elif what == "opening":
            assert opening is not None
            pending.append((PagePlan(number, PageKind.COVER, sheet_no, _components(opening), frame=opening.frame,
                                     stock=stock), len(opening.placed)))
            placements += [_front(p) for p in opening.placed]
        elif number == 1 and below is not None:
            pending.append((PagePlan(number, PageKind.COVER, sheet_no, _components(below),
                                     marks=below.marks if kit.options.crop_marks else (), frame=below.frame,
                                     stock=stock), len(below.placed)))
            placements += [_front(p) for p in below.placed]
        else:
            pending.append((PagePlan(number, PageKind.COVER, sheet_no, stock=stock), 0))
    return pending, placements


def _sheet_pages(kit: _Kit, entries: list[_Entry], starts: list[int], *, duplex: bool,
                 pending: list[tuple[PagePlan, int]], placements: list[Placement]) -> None:
    """Each sheet's pages and the placements they take: a one-sided sheet (with a blank page
    behind it in a double-sided file), a front and its back, or a fold page."""
    options, page_w = kit.options, kit.page_size[0]
    for entry, number in zip(entries, starts):
        sheet_no = _sheet_of(number, duplex)
        names = _components(entry.sheet)
        # A sheet the machine cuts has no crop marks: they would only print beside its marks.
        marks = entry.sheet.marks if options.crop_marks and not entry.machine else ()
        fronts = [_front(p) for p in entry.sheet.placed]
        stock = entry.stock
        if entry.machine:
            from pnp.layout import cutter

            # Nothing printed on or beside a registration mark (fronts only: backs carry none).
            zones = cutter.keep_clear(*kit.page_size, options.mark_inset, options.mark_length)
            cleared = [p._replace(printed=cutter.clear_of(p.printed, p.trim, zones)) for p in fronts]
        else:
            cleared = fronts
        if entry.how == "one":
            pending.append((PagePlan(number, PageKind.SHEET, sheet_no, names, marks=marks,
                                     frame=entry.sheet.frame, stock=stock, cutter=entry.machine), len(fronts)))
            placements += cleared
            if duplex:
                pending.append((PagePlan(number + 1, PageKind.BLANK, sheet_no, stock=stock), 0))
        elif entry.how == "both":
            # Backs keep their whole bleed: the back page carries no marks, and a hidden back
            # with less bleed than its deck's others would show it after a printer's drift.
            backs = [_long_edge_back(_front(_with_back_bleed(p)), page_w, options.back_offset)
                     for p in entry.sheet.placed]
            pending.append((PagePlan(number, PageKind.FRONT, sheet_no, names, marks=marks,
                                     frame=entry.sheet.frame, stock=stock, cutter=entry.machine), len(fronts)))
            pending.append((PagePlan(number + 1, PageKind.BACK, sheet_no, names,
                                     frame=entry.sheet.frame, stock=stock), len(backs)))
            placements += cleared + backs
        else:
            backs = [_folded_back(_front(_with_back_bleed(p)), entry.fold_line) for p in entry.sheet.placed]
            pending.append((PagePlan(number, PageKind.FOLD, sheet_no, names, marks=marks,
                                     fold_line=entry.fold_line, frame=entry.sheet.frame, stock=stock),
                            len(fronts) + len(backs)))
            placements += fronts + backs


def _drawn(kit: _Kit, pages: _Pages, resolved: list[Placement]) -> list[PagePlan]:
    """Every page with its resolved placements and what it draws besides: the cover's
    contents, crop marks, board seams, the fold line, the footer; the alignment sheet's sides."""
    page_h = kit.page_size[1]
    placed = iter(resolved)
    covers = iter(pages.cover_pages)
    # pnp build renders a registered game's kit again; a template's is rendered by its own command.
    command = kit.game.command if "--template" in kit.game.command else "pnp build"
    sides = _alignment_sides(kit, pages, command) if pages.alignment else ()
    alike: dict = {}   # what sheets have alike: their footers' bar, a layout's crop marks (_furniture)
    done = []
    for page, count in pages.pending:
        placements = tuple(islice(placed, count))
        if page.kind is PageKind.COVER and pages.kinds[page.number - 1] == "cover":
            done.append(page._replace(placements=placements,
                                      drawing=(*marks_layout(page.marks, page_h),
                                               *cut_guides_layout(placements, page_h), *next(covers))))
        elif page.kind is PageKind.BLANK:
            done.append(page)
        elif page.alignment:
            done.append(page._replace(drawing=sides[page.kind is PageKind.BACK]))
        else:
            done.append(page._replace(placements=placements,
                                      drawing=_furniture(kit, page, placements, pages, alike=alike)))
    return done


def _furniture(kit: _Kit, page: PagePlan, placements: tuple[Placement, ...], pages: _Pages, *,
               alike: dict | None = None) -> tuple[Primitive, ...]:
    """What a sheet's page draws over its pieces: crop marks, the fold line, board seams, the footer
    (``alike``: what the kit's sheets have alike, kept from page to page while they are planned)."""
    page_size, catalog, measure = kit.page_size, kit.catalog, kit.measure
    # Sheets laid out alike share one tuple of marks (pnp.layout.sheets._finish): its path is
    # made once, rather than every mark compared again for each sheet.
    key = ("marks", id(page.marks))
    marks = alike.get(key) if alike is not None else None
    if marks is None:
        marks = marks_layout(page.marks, page_size[1])
        if alike is not None:
            alike[key] = marks
    drawing = list(marks)
    if page.cutter:
        from pnp.layout import cutter

        # The machine cuts along the trims: no guide for a hand to follow beside its marks.
        drawing += cutter.marks_drawing(*page_size, kit.options.mark_inset, kit.options.mark_length)
    elif kit.guided:
        drawing += cut_guides_layout(placements, page_size[1])
    if page.fold_line is not None:
        drawing += fold_layout(page.fold_line, page_size, catalog, measure)
    for placement in placements:
        if placement.part is not None and placement.face is Face.FRONT:
            drawing += seams_layout(placement, page_size[1], catalog, measure)
    drawing += footer_layout(page.frame or kit.frames[0], page_size, kit.options, catalog, measure=measure,
                             page=page.number, pages=pages.total_pages, components=page.components, kind=page.kind,
                             sheet=page.sheet, sheets=pages.total_sheets, fold_line=page.fold_line, alike=alike)
    return tuple(drawing)


def _check_pages(component: Component, sheets: int) -> None:
    """Refuse, before laying them out, more sheets than a PDF may have (every piece is
    placed, or the kit is refused: a piece is never left out)."""
    if sheets > MAX_PAGES:
        raise TemplateError(f"component {component.id!r} would take {sheets} sheets; the limit is "
                            f"{MAX_PAGES} pages in a PDF")


#: The least height the cover's text keeps on its first page, below the title band.
COVER_TEXT_MIN = 70.0


class _UnderCover(NamedTuple):
    """A one-sided sheet's pieces laid out below the cover's text."""

    entry: _Entry         # the sheet they come from
    sheet: Sheet          # laid out at the foot of the cover page
    text_bottom: float    # where the cover's text must stop, mm from the page's bottom edge


def _under_cover(entries: Sequence[_Entry], page_size: tuple[float, float], bleed: float) -> _UnderCover | None:
    """The one-sided sheet whose pieces could go below the cover's text, laid out
    at the foot of the cover page, and where the text must then stop (mm from
    the bottom edge): the shortest such sheet, if it leaves the text room."""
    usual = bottom_frame(*page_size)
    best = None
    for entry in entries:
        if entry.how != "one":
            continue
        placed = entry.sheet.placed
        height = max(p.trim.top for p in placed) - min(p.trim.y for p in placed)
        if best is None or height < best[0]:
            best = (height, entry)
    if best is None:
        return None
    height, entry = best
    room = bleed + MARK_CLEAR + MARK_LENGTH       # for the marks above the pieces
    text_bottom = usual.area.y + height + room + 1.0
    if usual.area.top - COVER_BAND - text_bottom < COVER_TEXT_MIN:
        return None
    area = Box(usual.area.x, usual.area.y, usual.area.w, height)
    limits = Box(usual.limits.x, usual.limits.y, usual.limits.w, area.top + room - usual.limits.y)
    items = [p.item for p in entry.sheet.placed]
    sheets = pack(runs_of(items), [Frame(area, limits)], bleed)
    if len(sheets) != 1:
        return None
    return _UnderCover(entry, sheets[0], text_bottom)


class _Section(NamedTuple):
    """One way of opening the kit, and the pages that follow from it."""

    entries: list[_Entry]              # the sheets after the cover section
    below: Sheet | None                # pieces below the cover's text, if any
    pages: tuple[str, ...]             # the cover section: "cover", "opening" or "blank" pages
    cover_pages: list[tuple[Primitive, ...]]
    numbers: _Numbers
    below_stock: str = PAPER           # the paper of the pieces below the cover's text


def _section_pages(cover_pages: int, below: bool, opening: bool, duplex: bool) -> tuple[str, ...]:
    """The pages a kit opens with, in order.

    The cover's pages, then the opening page (the rules summary): in a
    double-sided file on the back of the cover's last page, unless pieces to
    cut lie below the cover's text, which nothing may be printed behind; and a
    blank page to end the section on a back.

    >>> _section_pages(1, False, True, True)
    ('cover', 'opening')
    >>> _section_pages(2, False, True, True)
    ('cover', 'cover', 'opening', 'blank')
    >>> _section_pages(1, True, True, True)
    ('cover', 'blank', 'opening', 'blank')
    """
    pages = ["cover"] * cover_pages
    if opening:
        if below and duplex and len(pages) % 2:
            pages.append("blank")
        pages.append("opening")
    if duplex and len(pages) % 2:
        pages.append("blank")
    return tuple(pages)


def _sheet_of(page: int, duplex: bool) -> int:
    return (page + 1) // 2 if duplex else page


class _Numbers(NamedTuple):
    """The pages' numbers: where each sheet's pages start, and how many pages and sheets the kit takes."""

    starts: list[int]
    pages: int
    sheets: int
    alignment: int = 0     # the alignment sheet's first page, right after the cover section (0: none)


def _number(entries: Sequence[_Entry], section: int, duplex: bool, alignment: bool = False) -> _Numbers:
    """The first page of each entry, the number of pages and of sheets, after a cover section
    of ``section`` pages and the alignment sheet's two (printed first, to set the printer)."""
    page = section + (section % 2 if duplex else 0)
    first = page + 1 if alignment else 0
    page += 2 if alignment else 0
    starts = []
    for entry in entries:
        starts.append(page + 1)
        page += 2 if duplex else 1
    return _Numbers(starts, page, _sheet_of(page, duplex), alignment=first)


def _alignment_sides(kit: _Kit, pages: _Pages, command: str) -> tuple[tuple[Primitive, ...], ...]:
    """The two sides of the kit's printer alignment sheet, the sheet after the cover's, with the
    kit's footers; ``command`` renders the kit again."""
    from pnp.layout.calibration import calibration_pages

    page_size, options, catalog, measure = kit.page_size, kit.options, kit.catalog, kit.measure
    title = catalog.get("game.name") + SEPARATOR + catalog.get("calibrate.title")
    first, sheet = pages.alignment_page, _sheet_of(pages.alignment_page, pages.duplex)
    footers = tuple(footer_layout(kit.frames[0], page_size, options, catalog, measure=measure, page=number,
                                  pages=pages.total_pages, components=(), kind=kind, sheet=sheet,
                                  sheets=pages.total_sheets, title=title)
                    for number, kind in ((first, PageKind.FRONT), (first + 1, PageKind.BACK)))
    return calibration_pages(page_size, options, catalog, measure, footers=footers, command=command)


def _components(sheet: Sheet) -> tuple[str, ...]:
    return tuple(dict.fromkeys(p.item.copy.component.id for p in sheet.placed))


def _contents(opening: _Opening, entries: Sequence[_Entry], numbers: _Numbers, *, options: PrintOptions,
              under: _UnderCover | None = None, section: Sequence[str] = ("cover",)) -> CoverContents:
    """What the cover says about the pages: each component's sheets, and the print plan."""
    starts, total_pages, total_sheets = numbers.starts, numbers.pages, numbers.sheets
    duplex, alignment, opener = opening.duplex, opening.alignment, opening.opener
    # The opening page is printed first after the cover: it comes first in the contents.
    chosen = sorted(opening.chosen, key=lambda c: c is not opener)
    sheets_of: dict[str, list[int]] = {c.id: [] for c in chosen}
    below: tuple[str, ...] = ()
    text_bottom = 14.0
    if under is not None:
        below, text_bottom = _components(under.sheet), under.text_bottom
    rows: list[PlanRow] = []
    by_sheet: dict[int, list[tuple[int, str]]] = {}
    for number, what in enumerate(section, start=1):
        by_sheet.setdefault(_sheet_of(number, duplex), []).append((number, what))
    for sheet, pages in by_sheet.items():
        names: tuple[str, ...] = ()
        printed = [what for _, what in pages if what != "blank"]
        if pages[0][0] == 1:
            names += below
        if "opening" in printed and opener is not None:
            names += (opener.id,)
        for name in names:
            sheets_of[name].append(sheet)
        stock = PAPER
        how = "cover_both" if len(printed) == 2 else "one"
        _add_row(rows, PlanRow(pages[0][0], pages[-1][0], 1, how, stock=stock, components=names, cover=True))
    if alignment:
        rows.append(PlanRow(numbers.alignment, numbers.alignment + 1, 1, "both", stock=PAPER, components=(),
                            alignment=True))
    boards: dict[str, tuple[Component, list]] = {}
    for entry in list(entries) + ([under.entry] if under else []):
        for placed in entry.sheet.placed:
            item = placed.item
            if item.part is not None and item.copy.copy == 1:
                boards.setdefault(item.copy.component.id, (item.copy.component, []))[1].append(item.part)
    machine: set[str] = set()    # components on sheets a cutting machine cuts
    for entry, start in zip(entries, starts):
        sheet = _sheet_of(start, duplex)
        names = _components(entry.sheet)
        for name in names:
            sheets_of[name].append(sheet)
        if entry.machine:
            machine.update(names)
        stock = entry.stock
        last = start + (1 if duplex or entry.how == "both" else 0)
        _add_row(rows, PlanRow(start, last, 1, entry.how, stock=stock, components=names))
    sheets = [entry.sheet for entry in entries] + ([under.sheet] if under else [])
    least, butted = _cut_bleed(sheets, options.bleed)
    return CoverContents(
        components=chosen, copies={c.id: c.piece_count() for c in chosen},
        sheets={c: tuple(v) for c, v in sheets_of.items()}, rows=tuple(rows),
        total_pages=total_pages, total_sheets=total_sheets, duplex=duplex,
        folds=any(e.how == "fold" for e in entries),
        stocks={c.id: stock_of(c, prints_backs(c, options), not duplex_file(options)) for c in chosen},
        boards=tuple((c, tuple(sorted(parts, key=lambda p: p.index))) for c, parts in boards.values()),
        below=below, text_bottom=text_bottom, bleed=least, butted=butted,
        backs=any(entry.how != "one" for entry in entries),
        mount=any(c.kind in ("tile", "token", "board") and not prints_backs(c, options) for c in chosen),
        alignment=alignment, alignment_page=numbers.alignment,
        machine=frozenset(machine))


def _cut_bleed(sheets: Sequence[Sheet], bleed: float) -> tuple[float, bool]:
    """The least colour printed past a cut line that a piece does not share (mm),
    and whether some pieces share one (printed edge to edge): what the cover
    may say about cutting.

    Sheets laid out alike share their boxes (:func:`pnp.layout.sheets.pack`): each
    layout is looked at once, however many sheets have it."""
    least, butted = bleed, False
    looked: set[tuple] = set()
    for sheet in sheets:
        layout = tuple((id(p.trim), id(p.printed), p.item.part is None and p.item.copy.component.cut)
                       for p in sheet.placed)
        if layout not in looked:
            looked.add(layout)
            sheet_least, sheet_butted = _sheet_cut_bleed(sheet)
            least, butted = min(least, sheet_least), butted or sheet_butted
    return math.floor(least * 2 + 1e-6) / 2, butted   # said as "at least", to the half millimetre


def _sheet_cut_bleed(sheet: Sheet) -> tuple[float, bool]:
    """The least bleed of a sheet's pieces to cut (infinite if none), 0 where a side has
    none and no neighbour, and whether some side is shared with a neighbour. A side
    without bleed is looked up among the trims with an edge at its place (:func:`_edges`)."""
    least, butted = math.inf, False
    edges = None   # made on the first side without bleed
    for p in sheet.placed:
        if p.item.part is not None or not p.item.copy.component.cut:
            continue
        t, r = p.trim, p.printed
        for side, edge in ((t.x - r.x, ("x", t.x)), (r.right - t.right, ("x", t.right)),
                           (t.y - r.y, ("y", t.y)), (r.top - t.top, ("y", t.top))):
            if side > 1e-6:
                least = min(least, side)
                continue
            if edges is None:
                edges = _edges(placed.trim for placed in sheet.placed)
            axis, at = edge
            key = round(at * _EDGE_KEY)
            if any(o is not t and _touches(o, t, edge)
                   for k in (key - 1, key, key + 1) for o in edges.get((axis, k), ())):
                butted = True
            else:
                least = 0.0
    return least, butted


#: Edges are filed by their place in units of the tolerance :func:`_touches` allows
#: (1e-6 mm): two edges it takes as one are filed at most one unit apart.
_EDGE_KEY = 1e6


def _edges(trims: Iterable[Box]) -> dict[tuple[str, int], list[Box]]:
    """The trims of a sheet by the places of their edges: ("x", left or right), ("y", bottom or top)."""
    edges: dict[tuple[str, int], list[Box]] = {}
    for trim in trims:
        for axis, at in (("x", trim.x), ("x", trim.right), ("y", trim.y), ("y", trim.top)):
            listed = edges.setdefault((axis, round(at * _EDGE_KEY)), [])
            if not listed or listed[-1] is not trim:   # a trim of no width has both its edges at one place
                listed.append(trim)
    return edges


def _touches(other: Box, trim: Box, edge: tuple[str, float]) -> bool:
    """Whether ``other`` has an edge on ``trim``'s edge (axis, position), side by side."""
    axis, at = edge
    if axis == "x":
        return (abs(other.x - at) < 1e-6 or abs(other.right - at) < 1e-6) and \
            other.y < trim.top - 1e-6 and trim.y < other.top - 1e-6
    return (abs(other.y - at) < 1e-6 or abs(other.top - at) < 1e-6) and \
        other.x < trim.right - 1e-6 and trim.x < other.right - 1e-6


def _add_row(rows: list[PlanRow], row: PlanRow) -> None:
    """Add a sheet to the print plan, in the row before when it is printed alike."""
    if rows and not rows[-1].alignment and \
            (rows[-1].how, rows[-1].stock, rows[-1].cover) == (row.how, row.stock, row.cover):
        last = rows[-1]
        rows[-1] = last._replace(last_page=row.last_page, sheets=last.sheets + row.sheets,
                                 components=tuple(dict.fromkeys(last.components + row.components)))
    else:
        rows.append(row)


def _front(placed: Placed) -> Placement:
    """``Placement(copy, Face.FRONT, trim, printed, rotation, part)``, as fast as a tuple is made
    (once per piece)."""
    item = placed.item
    return tuple.__new__(Placement, (item.copy, Face.FRONT, placed.trim, placed.printed, placed.rotation,
                                     item.part, ()))


def _with_back_bleed(placed: Placed) -> Placed:
    """A piece as its back is printed: with the whole bleed, where its front gave some way to marks."""
    return placed if placed.back is None else placed._replace(printed=placed.back)


def _long_edge_back(front: Placement, page_w: float, offset: tuple[float, float]) -> Placement:
    """The back, where it lands behind its front after a long-edge flip."""
    mirrored = mirror_for_long_edge(front.trim, page_w, offset)
    trim, printed = front.trim, front.printed
    left, bottom = trim.x - printed.x, trim.y - printed.y
    right, top = printed.right - trim.right, printed.top - trim.top
    # After the flip, the front's left side is the back's right side.
    return front._replace(face=Face.BACK, trim=mirrored, printed=mirrored.grow(right, bottom, left, top),
                          rotation=(360 - front.rotation) % 360)


def _folded_back(front: Placement, fold: Mark) -> Placement:
    """The back, mirrored across the fold line: folded over, it lies behind its front.

    A vertical fold turns the page over like a long-edge flip; a horizontal one
    also turns it upside down, so the back is drawn a half turn round.
    """
    mirrored = mirror_across(front.trim, fold)
    trim, printed = front.trim, front.printed
    left, bottom = trim.x - printed.x, trim.y - printed.y
    right, top = printed.right - trim.right, printed.top - trim.top
    if fold.x1 == fold.x2:
        return front._replace(face=Face.BACK, trim=mirrored,
                              printed=mirrored.grow(right, bottom, left, top),
                              rotation=(360 - front.rotation) % 360)
    return front._replace(face=Face.BACK, trim=mirrored, printed=mirrored.grow(left, top, right, bottom),
                          rotation=(180 - front.rotation) % 360)


def fold_frames(page_w: float, page_h: float, bleed: float = 3.0) -> list[tuple[Mark, Frame]]:
    """The two ways to fold a page: along a vertical line (fronts on the left
    half) or a horizontal one (fronts on the top half), each with the frame of
    the fronts' half. Trims keep the bleed and :data:`FOLD_CLEAR` from the line.
    The cuts that run across the fold have their marks on the fold's side, so the
    margin at the paper's edge across from it needs no room for marks; the margin
    at the ends of the cuts that run along it does."""
    usual = bottom_frame(page_w, page_h)
    area, limits = usual.area, usual.limits
    reach = usual.bleed or limits
    gap = bleed + FOLD_CLEAR
    # The fold lies in the middle of the paper's printable part, between the footer and the top margin.
    middle_x = page_w / 2
    middle_y = (area.y + page_h - MARGIN) / 2
    vertical = Mark(middle_x, limits.y, middle_x, limits.top)
    horizontal = Mark(limits.x, middle_y, limits.right, middle_y)
    return [
        (vertical, Frame(Box(MARGIN, area.y, middle_x - gap - MARGIN, area.h),
                         Box(limits.x, limits.y, middle_x - 1.0 - limits.x, limits.h), "bottom",
                         Box(reach.x, reach.y, middle_x - FOLD_CLEAR - reach.x, reach.h))),
        (horizontal, Frame(Box(area.x, middle_y + gap, area.w, page_h - MARGIN - middle_y - gap),
                           Box(limits.x, middle_y + 1.0, limits.w, limits.top - middle_y - 1.0), "bottom",
                           Box(reach.x, middle_y + FOLD_CLEAR, reach.w, reach.top - middle_y - FOLD_CLEAR))),
    ]


def _fold_entries(runs: list[list[Item]], page_size: tuple[float, float], bleed: float, *,
                  has_parts: bool, stock: str = PAPER) -> list[_Entry]:
    """Fold pages for pieces with backs: the way of folding that needs fewer pages
    (a vertical fold on a tie: backs then turn as they do on a double-sided print)."""
    best: list[_Entry] | None = None
    for line, frame in fold_frames(*page_size, bleed):
        if has_parts and line.y1 == line.y2:
            continue  # a board part's back is laid out for a left-right turn
        try:
            sheets = pack(runs, [frame], bleed)
        except ValueError:
            continue
        if best is None or len(sheets) < len(best):
            best = [_Entry("fold", sheet, line, stock) for sheet in sheets]
    if best is None:
        raise ValueError("a piece with a back is too big to fold over on this paper; "
                         "print it double-sided")
    return best


def resolve_placements(game: Game, options: PrintOptions, placements: list[Placement], *,
                       measure: Measurer, filled: Filled | None = None,
                       resolver: FaceResolver | None = None, pictures: list | None = None,
                       later: bool = False
                       ) -> tuple[list[Placement], dict[int, int]]:
    """Every placement with its face resolved into runs, and how many placements
    draw each shared run (a run drawn more than once becomes one PDF form); the
    pictures the faces place are added to ``pictures`` when it is given.

    Every problem of every face is collected first and raised as one
    TemplateError: nothing can be drawn from a kit with a mistake in a face.
    The list is resolved in place (each placement replaced by its resolved
    copy, so that a kit of thousands of pieces never holds both) and returned.

    With ``later``, in a kit of :data:`LATER_FROM` faces printed from their
    design alone (a card of its own) or more, those faces are not resolved:
    each is one run whose primitives are None, for the drawing to resolve with
    ``resolver`` as its page is drawn, and raise the resolver's problems once
    every page is. A deck of thousands of different cards then never holds
    them all resolved. (Should another face have a problem, they are resolved
    here too, so that every problem is told at once. A face with an image is
    always resolved here: each picture's stored size is worked out from every
    place it is printed, before any page is drawn.)
    """
    if resolver is None:
        resolver = FaceResolver(game, options, measure, filled)
        resolver.estimate({id(p.copy.component): p.copy.component for p in placements}.values())
    # Face design -> the number of its only copy, or copy number -> face when
    # it has several: the copies of each design are known before any is resolved.
    designs: dict[tuple, int | tuple | dict[int, ResolvedFace | None]] = {}
    again: set[tuple] = set()  # designs of one copy placed more than once (a board's parts)
    # Each placement's design, worked out once for the three passes below (the dict keeps them anyway).
    keys = [_design(placement) for placement in placements]
    for placement, key in zip(placements, keys):
        number = placement.copy.copy
        seen = designs.get(key)
        if seen is None:
            designs[key] = number
        elif type(seen) is dict:
            seen.setdefault(number, None)
        elif seen != number:
            designs[key] = {seen: None, number: None}
        else:
            again.add(key)
    # Left for the drawing: a kit's few would gain nothing from it.
    later = later and sum(type(design) is int for design in designs.values()) >= LATER_FROM
    left: list[Placement] = []
    pictured: dict[int, bool] = {}   # by a face's elements: does one place a picture?
    for placement, key in zip(placements, keys):
        design = designs[key]
        if type(design) is int:
            if later and key not in again and not _pictured(placement, pictured):
                designs[key] = _LATER
                left.append(placement)
                continue
            layers = resolver.face(placement.copy, placement.face).layers
            designs[key] = tuple(chain.from_iterable(layers))
        elif type(design) is dict and design[placement.copy.copy] is None:
            design[placement.copy.copy] = resolver.face(placement.copy, placement.face)
    if resolver.problems:
        for placement in left:   # their problems too, told with the others
            resolver.face(placement.copy, placement.face)
    raise_problems(resolver.problems)
    if pictures is not None:
        pictures.extend(resolver.pictures.values())
    del resolver, left  # and the layers it kept
    _into_runs(designs, again)
    uses: dict[int, int] = {}
    for index, (placement, key) in enumerate(zip(placements, keys)):
        runs = designs[key]
        if type(runs) is dict:
            runs = runs[placement.copy.copy]
        for run in runs:
            if run.drawing is not None:
                uses[run.drawing] = uses.get(run.drawing, 0) + 1
        placements[index] = _with_runs(placement, runs)
    return placements, uses


def _pictured(placement: Placement, known: dict[int, bool]) -> bool:
    """Whether the face of a placement may place a picture: such a face is resolved before
    any page is drawn, as the size each picture is stored at is worked out from them all."""
    copy = placement.copy
    elements = face_elements(copy.component, copy.piece, placement.face)
    found = known.get(id(elements))
    if found is None:
        found = known[id(elements)] = any(element.type == "image" for element in elements)
    return found


def _design(placement: Placement) -> tuple[object, ...]:
    """What the face of a placement is printed from: its piece's design, and which face; a key
    compared whole, as :attr:`~pnp.template.model.Copy.face_key` is, never read part by part."""
    copy = placement.copy
    return copy.component.id, copy.piece.index, copy.set, placement.face is Face.BACK


def _with_runs(placement: Placement, runs: tuple[Run, ...]) -> Placement:
    """``placement._replace(runs=runs)``, as fast as a tuple is made (once per placement)."""
    return tuple.__new__(Placement, (*placement[:_RUNS], runs, *placement[_RUNS + 1:]))


_RUNS = Placement._fields.index("runs")
# _front makes a Placement from its fields in this order.
assert Placement._fields == ("copy", "face", "trim", "printed", "rotation", "part", "runs")


#: The runs of a face resolved as its page is drawn.
_LATER = (Run(None),)


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


def _into_runs(designs: dict[tuple, tuple | dict[int, ResolvedFace]], again: set[tuple]) -> None:
    """Each copy's face, in place, as runs in stacking order: the runs of layers
    equal in every copy of a face design are shared (one drawing for all of
    them), the others are drawn copy by copy."""
    drawings = 0
    for key, by_copy in designs.items():
        if type(by_copy) is not dict:
            # A face printed from its design alone (a card of its own): one run,
            # its whole face; a drawing to share only if placed again.
            if by_copy and by_copy is not _LATER:
                designs[key] = (Run(by_copy, drawings if key in again else None),)
                drawings += key in again
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
