"""Print services and the piece sizes they make, in their own pixels.

A service takes images of an exact pixel size at 300 dpi: the trim plus a
bleed it cuts away. The figures come from the services' own templates:

- The Game Crafter: the ``size`` of each product in its product catalogue
  (``/api/tgc/products/<Identity>``; poker 825 x 1125 px), every one the trim
  plus 1/8 in (37.5 px) on each side.
- MakePlayingCards: its upload guide (poker 822 x 1122 px, "36 pixels each side
  based on a 300 DPI image" cut off), so 0.12 in of bleed, not 1/8 in.

Only rectangular products are listed: the upload sizes of a service's round
or hexagonal products (if it makes them) are not recorded here, so a round or
hex piece is made as the square product of its size, and the export says so
(:func:`shape_note`) rather than guess a size.

Pure data and computation: no drawing here.
"""

from __future__ import annotations


from pnp.core.errors import PnpError
from pnp.core.records import NamedTuple
from pnp.template.model import Component, Game
from pnp.core.units import MM_PER_INCH

#: How far a piece may differ from a product's trim, per side, and still be
#: made as that product (a 25 mm token as a 1 in chit is 0.4 mm off).
SIZE_TOLERANCE_MM = 0.5


class Product(NamedTuple):
    """One thing a service makes: its name there and its upload size."""

    name: str                      # the service's own name ("PokerDeck")
    label: str                     # what people call it ("poker card")
    pixels: tuple[int, int]        # upload size at the service's dpi, bleed included
    kinds: tuple[str, ...]         # which of our piece kinds it can be

    def trim_mm(self, service: "Service") -> tuple[float, float]:
        """The product's cut size in mm."""
        w, h = self.pixels
        cut = 2 * service.bleed_px
        return (w - cut) / service.dpi * MM_PER_INCH, (h - cut) / service.dpi * MM_PER_INCH


class Service(NamedTuple):
    id: str
    name: str
    dpi: int                       # 0: any (generic)
    bleed_px: float                # on each side, at ``dpi``
    products: tuple[Product, ...]

    @property
    def bleed_mm(self) -> float:
        return self.bleed_px / self.dpi * MM_PER_INCH


class Match(NamedTuple):
    """How a component is made by a service."""

    product: Product
    turned: bool                   # the piece lies a quarter turn round in the product's image


_CARD, _PUNCH, _BOARD = ("card",), ("tile", "token"), ("board",)

THE_GAME_CRAFTER = Service("tgc", "The Game Crafter", 300, 37.5, products=(
    Product("PokerDeck", "poker card", (825, 1125), _CARD),
    Product("BridgeDeck", "bridge card", (750, 1125), _CARD),
    Product("MiniDeck", "mini card", (600, 825), _CARD),
    Product("MicroDeck", "micro card", (450, 600), _CARD),
    Product("TarotDeck", "tarot card", (900, 1500), _CARD),
    Product("JumboDeck", "jumbo card", (1125, 1725), _CARD),
    Product("BusinessDeck", "business card", (675, 1125), _CARD),
    Product("DominoDeck", "domino card", (600, 1125), _CARD),
    Product("SmallSquareDeck", "small square card", (825, 825), _CARD),
    Product("EuroSquareDeck", "euro square card", (900, 900), _CARD),
    Product("SquareDeck", "square card", (1125, 1125), _CARD),
    Product("SmallSquareChit", "small square chit", (225, 225), _PUNCH),
    Product("MediumSquareChit", "medium square chit", (300, 300), _PUNCH),
    Product("LargeSquareChit", "large square chit", (375, 375), _PUNCH),
    Product("MiniSquareTile", "mini square tile", (450, 450), _PUNCH),
    Product("SmallSquareTile", "small square tile", (675, 675), _PUNCH),
    Product("MediumSquareTile", "medium square tile", (825, 825), _PUNCH),
    Product("LargeSquareTile", "large square tile", (1125, 1125), _PUNCH),
    Product("DominoTile", "domino tile", (675, 1275), _PUNCH),
    Product("SmallSquareBoard", "small square board", (1275, 1275), _BOARD),
    Product("QuarterBoard", "quarter board", (1575, 1575), _BOARD),
    Product("SquareBoard", "square board", (2475, 2475), _BOARD),
    Product("LargeSquareBoard", "large square board", (3075, 3075), _BOARD),
    Product("QuadFoldBoard", "quad-fold board", (5475, 5475), _BOARD),
    Product("SkinnyBoard", "skinny board", (1275, 3075), _BOARD),
    Product("HalfBoard", "half board", (1575, 3075), _BOARD),
))

# Sizes are MakePlayingCards' trim in inches at 300 dpi plus its 36 px a side:
# poker, bridge, tarot, domino, business and micro as published; mini
# (1.75 x 2.5 in) and jumbo (3.5 x 5 in) by the same rule.
MAKE_PLAYING_CARDS = Service("mpc", "MakePlayingCards", 300, 36, products=(
    Product("poker", "poker card", (822, 1122), _CARD),
    Product("bridge", "bridge card", (747, 1122), _CARD),
    Product("mini", "mini card", (597, 822), _CARD),
    Product("micro", "micro card", (447, 597), _CARD),
    Product("tarot", "tarot card", (897, 1497), _CARD),
    Product("jumbo", "jumbo card", (1122, 1572), _CARD),
    Product("domino", "domino card", (597, 1122), _CARD),
    Product("business", "business card", (672, 1122), _CARD),
))

#: No service: each piece at its own size with the kit's bleed, at any dpi.
GENERIC = Service("generic", "generic", 0, 0, products=())

SERVICES = {s.id: s for s in (GENERIC, THE_GAME_CRAFTER, MAKE_PLAYING_CARDS)}


def find_service(name: str) -> Service:
    """A service by its id.

    >>> find_service("tgc").name
    'The Game Crafter'
    """
    try:
        return SERVICES[name.lower()]
    except KeyError:
        raise PnpError(f"unknown service {name!r}; expected one of: {', '.join(SERVICES)}") from None


def _close(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return abs(a[0] - b[0]) <= SIZE_TOLERANCE_MM and abs(a[1] - b[1]) <= SIZE_TOLERANCE_MM


def match(service: Service, component: Component) -> Match | None:
    """The product a service makes this component as, or None.

    >>> from pnp.template.model import Component, Game
    >>> poker = Component("cards", (63.5, 88.9), (), (), None)
    >>> match(THE_GAME_CRAFTER, poker).product.pixels
    (825, 1125)
    >>> match(MAKE_PLAYING_CARDS, poker._replace(size=(88.9, 63.5))).turned
    True
    >>> match(MAKE_PLAYING_CARDS, poker._replace(kind="tile")) is None
    True
    """
    w, h = component.size
    for product in service.products:
        if component.kind not in product.kinds:
            continue
        trim = product.trim_mm(service)
        if _close((w, h), trim):
            return Match(product, False)
        if _close((h, w), trim):
            return Match(product, True)
    return None


def shape_note(service: Service, component: Component, found: Match) -> str:
    """What an export says when a round or hex piece is made as a service's square product."""
    if component.shape not in ("circle", "hex"):
        return ""
    shape = "round" if component.shape == "circle" else "hexagonal"
    return (f"made as a square {found.product.label}: pnp lists no {shape} products of {service.name}; "
            f"cut it to shape yourself, or choose the service's own {shape} product when you upload")


def offered_sizes(service: Service, kind: str) -> str:
    """The sizes a service makes for one kind of piece, for messages."""
    sizes = []
    for product in service.products:
        if kind in product.kinds:
            w, h = product.trim_mm(service)
            sizes.append(f"{product.label} {w:.1f} x {h:.1f} mm "
                         f"({w / MM_PER_INCH:g} x {h / MM_PER_INCH:g} in)")
    return "; ".join(sizes)


def not_made(service: Service, game: Game, component: Component) -> str:
    """Why a service cannot make a component, naming what it does make (and, for a sheet,
    the command that prints it: ``game.command``, which names a template by its file)."""
    w, h = component.size
    game_id = game.id
    if component.kind == "sheet":
        command = game.command or f"pnp render {game_id}"
        return (f"{game_id} {component.id} is a sheet printed on paper at home, which {service.name} "
                f"does not make; print it with `{command} --component {component.id}`")
    offered = offered_sizes(service, component.kind)
    return (f"{service.name} makes no {component.kind} of {w:g} x {h:g} mm ({game_id} {component.id}); "
            + (f"its {component.kind} sizes are: {offered}" if offered
               else f"it makes no {component.kind}s at all"))
