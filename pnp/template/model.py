"""The kit model: immutable records built from the templates, in millimetres.

They are named tuples rather than frozen dataclasses: the model is imported on
every run, and defining a frozen dataclass is far slower than defining a named
tuple, a cost every command would pay before doing anything.
"""

from __future__ import annotations

from enum import Enum
from itertools import repeat
from operator import attrgetter, is_not
from types import MappingProxyType
from typing import Any, Callable, Mapping

from pnp.core.i18n import Catalog
from pnp.core.records import NamedTuple
from pnp.template.language import Condition


class Face(str, Enum):
    FRONT = "front"
    BACK = "back"


class PageKind(str, Enum):
    COVER = "cover"
    FRONT = "front"
    BACK = "back"      # the even page right after its front, mirrored for a long-edge flip
    SHEET = "sheet"    # printed on one side
    BLANK = "blank"    # nothing printed: keeps a double-sided file's order behind a one-sided page
    FOLD = "fold"      # fronts and their mirrored backs on one page, folded before cutting


class PlayerColor(NamedTuple):
    """A player colour; the symbol keeps it apart in grayscale and for colour-blind players."""

    id: str
    rgb: str
    ink: str  # text and line colour that reads on ``rgb``
    symbol: str


class Element(NamedTuple):
    """One drawing instruction of a face, as validated from the template."""

    type: str
    props: Mapping[str, Any]
    where: str  # "file: components.cards.front[4]" for error messages
    when: Condition | None = None
    #: Every name the element's look depends on (fields, ``copy``, ``set``,
    #: params, ``w``..., and the placeholders of the catalog texts it prints),
    #: sorted: elements are resolved once per distinct set of these values.
    names: tuple[str, ...] = ()


class Piece(NamedTuple):
    """One kind of piece in a component (``wolf``), with its own fields."""

    id: str
    count: int
    fields: Mapping[str, Any]
    front: tuple[Element, ...] | None = None
    back: tuple[Element, ...] | None = None
    #: Position in the component: several entries may share an id (44 `monster`
    #: cards in 17 kinds), so drawings are keyed by index, not by id.
    index: int = 0


class Component(NamedTuple):
    """A group of pieces printed together on their own sheets (``player-cards``)."""

    id: str
    size: tuple[float, float]
    pieces: tuple[Piece, ...]
    front: tuple[Element, ...]
    back: tuple[Element, ...] | None
    sets: tuple[str, ...] = ()
    rotate: bool = True
    #: "optional": backs are printed only with --duplex; "required": the back
    #: carries game information (the lodge's "4" side) and is always printed.
    back_kind: str = "optional"
    corner_radius: float = 0.0
    overlap: float = 12.0
    #: Always keep a bleed gutter between pieces, even if fewer fit a sheet
    #: (small tiles of different colours, where a shared cut would show the neighbour).
    gutter: bool = False
    #: What the pieces are made as, for print services and Tabletop Simulator:
    #: "card", "tile", "token", "board", or "sheet" (paper printed at home:
    #: scoresheets, player aids). Kits print every kind alike.
    kind: str = "card"
    #: False for a page printed whole and used as it comes out of the printer (a
    #: scoresheet, a rules summary): nothing to cut, so no crop marks.
    cut: bool = True
    #: True for the page a kit opens with, read before anything is cut (the
    #: rules summary): printed with the cover, on its back when the cover fits
    #: one page. One uncut, one-sided page; at most one component of a game.
    with_cover: bool = False
    #: True for a one-sided page whose height may shrink, down to what its
    #: contents need (a scoresheet's boxes stay big enough for a pen), to go
    #: below other pieces on their sheet rather than take a sheet of its own.
    #: Alone on a sheet, it keeps its size.
    shrink: bool = False
    #: The per-piece fields and their types ("str", "int", "num", "bool", "color").
    fields: Mapping[str, str] = MappingProxyType({})
    #: Lines of a piece too big for a sheet along which it may be split (between
    #: spaces, along a river): mm from its left edge, and from its top edge.
    seam_lines: tuple[tuple[float, ...], tuple[float, ...]] = ((), ())
    #: True for pieces kept in hand or face down (a deck's cards, tiles laid face
    #: down): their backs must not tell them apart. Every copy in one set shares
    #: one back, printed with a quiet edge, on one paper, never sharing a cut with
    #: a different back and never turned differently from the rest of its deck.
    hidden: bool = False
    #: The trim's shape (SHAPES below): "rectangle", "rounded"
    #: (corners of ``corner_radius``), "circle" (the ellipse filling the size) or
    #: "hex" (flat-topped, points left and right). Circles and hexes keep a
    #: gutter, are clipped to their outline grown by the bleed, and carry a cut guide.
    shape: str = "rectangle"

    # Both go through every piece (14,400 of a big deck, a few times a render): in built-ins.

    @property
    def two_sided(self) -> bool:
        return self.back is not None or any(map(is_not, map(_BACK, self.pieces), repeat(None)))

    def piece_count(self) -> int:
        """How many physical pieces the component has."""
        return sum(map(_COUNT, self.pieces)) * max(1, len(self.sets))


_BACK, _COUNT = attrgetter("back"), attrgetter("count")


#: The values of a component's ``kind``.
PIECE_KINDS = ("card", "tile", "token", "board", "sheet")
#: The trims a piece can have (a component's ``shape``; pnp.layout.outline draws them).
SHAPES = ("rectangle", "rounded", "circle", "hex")


class Game(NamedTuple):
    id: str
    players: tuple[int, int]
    rules_url: str
    designers: tuple[str, ...]
    palette: Mapping[str, str]
    colors: Mapping[str, PlayerColor]
    params: Mapping[str, float]
    components: tuple[Component, ...]
    catalogs: Mapping[str, Catalog]
    source: str = ""
    icon_dirs: tuple[str, ...] = ()  # where its icons are looked for, in order
    #: The blank scoresheet of a game, by id, as its rules describe it (a
    #: ``pnp.core.sheet_model.Scoresheet``): handed in by the loader from the registry
    #: of games, so that laying out a scoresheet asks no registry and no rules.
    blank_sheet: Callable[[str], Any] | None = None
    #: True: a fan-made copy of someone else's game (the cover says so); false: the
    #: designer's own game, whose cover carries its own credits and licence only.
    fan_copy: bool = True
    #: The command that renders this kit, for messages that suggest one: ``pnp render
    #: hunting-fever`` for a registered game's kit, ``pnp render --template FILE`` otherwise.
    command: str = ""
    #: The most pixels per inch a picture keeps in the PDF: one with many more at its printed
    #: size is stored smaller (``[game] image_dpi``).
    image_dpi: float = 300.0
    #: The template's own fonts by name (``[fonts]``: pnp.template.fonts.Font), beside Lato's.
    fonts: Mapping[str, Any] = MappingProxyType({})
    #: The rules its template declares (``[score]``: a ``scoring.declared.DeclaredRules``), which
    #: give its scoresheet and let ``pnp score`` keep its sessions; None without ``[score]``.
    score_rules: Any = None

    def component(self, component_id: str) -> Component:
        from pnp.core.errors import UnknownNameError

        for component in self.components:
            if component.id == component_id:
                return component
        raise UnknownNameError(
            f"{self.id} has no component {component_id!r}; expected one of: "
            + ", ".join(c.id for c in self.components)
        )


class Copy(NamedTuple):
    """One physical piece to print: a piece of a component, in a set, numbered."""

    component: Component
    piece: Piece
    copy: int
    set: str | None = None

    @property
    def face_key(self) -> tuple[object, ...]:
        """Copies with the same key are printed from the same design; only
        what the design says about the copy number can tell them apart. A key
        compared whole (the component's id, the piece's index, the set), never
        read part by part; the layout extends it with a face or a copy number."""
        return (self.component.id, self.piece.index, self.set)


class PrintOptions(NamedTuple):
    """What the user asked for, in print-shop words."""

    lang: str = "en"
    paper: str = "a4"
    bleed: float = 3.0
    crop_marks: bool = True
    duplex: bool = True
    #: Single-sided printing: backs go beside their fronts, mirrored, to be
    #: folded over before cutting.
    fold: bool = False
    back_offset: tuple[float, float] = (0.0, 0.0)
    ink_saver: bool = False
    qr_url: str | None = None
    params: Mapping[str, float] = MappingProxyType({})
    #: A cutting machine's print-and-cut (``"silhouette"``): its registration
    #: marks on every front, an SVG cut file per front (pnp.layout.cutter).
    cutter: str | None = None
    mark_inset: float = 10.0
    #: The length of the registration marks' corners, as Silhouette Studio is set (mm).
    mark_length: float = 20.0
