"""What an export makes: which faces, at what size, under which file names.

Pure computation over the model and the services' figures; drawing and
writing are in :mod:`pnp.export.run`.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Iterable
from urllib.parse import urlsplit

from pnp.core.errors import PnpError
from pnp.core.records import NamedTuple
from pnp.layout.outline import outline_of
from pnp.layout.plan import copies
from pnp.core.limits import MAX_IMAGE_PIXELS
from pnp.template.model import Component, Copy, Face, Game
from pnp.render.single import FacePage
from pnp.export.services import GENERIC, Service, match, not_made, shape_note
from pnp.core.units import MM_PER_INCH

FORMATS = ("png", "pdf", "tts", "cricut")
ORDERS = ("front-back", "back-front")
GENERIC_BLEED_MM = 3.0          # the kit's own default bleed
MIN_DPI, MAX_DPI = 72, 1200     # below: unreadable text; above: a card is 20 MB of pixels

#: Tabletop Simulator: a deck sheet holds at most 10 x 7 cards and 4096 px a
#: side. The 70th slot is left to the deck's back: TTS shows the sheet's last
#: image as the hidden face when a deck does not use its back for that.
TTS_COLUMNS, TTS_ROWS, TTS_MAX_PX = 10, 7, 4096
TTS_CARDS_PER_SHEET = TTS_COLUMNS * TTS_ROWS - 1


class Skipped(NamedTuple):
    component: Component
    reason: str


class Image(NamedTuple):
    """One face of one copy as an image or a PDF page of its own."""

    copy: Copy
    face: Face
    page: FacePage              # what is drawn: trim and bleed in mm
    pixels: tuple[int, int]     # the image's exact size
    name: str                   # file name without extension: "yellow-wolf-02-front"


class ComponentExport(NamedTuple):
    component: Component
    product: str                # the service's product name, "" for generic
    images: tuple[Image, ...]   # fronts and backs, copy by copy (front first)
    note: str = ""              # how a service makes a shaped piece it has no product of that shape for


def check_choices(fmt: str, service: Service, dpi: int | None, order: str) -> int:
    """The dpi to use; a PnpError for a format, order or dpi the service cannot take."""
    if fmt not in FORMATS:
        raise PnpError(f"unknown format {fmt!r}; expected one of: {', '.join(FORMATS)}")
    if order not in ORDERS:
        raise PnpError(f"unknown order {order!r}; expected one of: {', '.join(ORDERS)}")
    if service is not GENERIC:
        if fmt in ("tts", "cricut"):
            raise PnpError(f"--service is for print files (png, pdf); {_TAKES[fmt]}: leave --service out")
        if dpi is not None and dpi != service.dpi:
            raise PnpError(f"{service.name} takes images at exactly {service.dpi} dpi; "
                           f"leave --dpi out (got {dpi})")
        return service.dpi
    if fmt == "cricut" and dpi not in (None, 300):
        raise PnpError(f"Cricut Design Space prints its Print Then Cut pictures at 300 dpi; leave --dpi out "
                       f"(got {dpi})")
    dpi = 300 if dpi is None else dpi
    if not MIN_DPI <= dpi <= MAX_DPI:
        raise PnpError(f"--dpi must be a whole number from {MIN_DPI} to {MAX_DPI}, got {dpi}")
    return dpi


_TAKES = {"tts": "Tabletop Simulator takes the pieces at their own size",
          "cricut": "Cricut's Print Then Cut takes the pieces at their own size"}


def chosen_components(game: Game, service: Service, names: list[str] | None,
                      fmt: str) -> tuple[list[tuple[Component, object]], list[Skipped]]:
    """The components to export, each with the service's match; those a service does not
    make are skipped, or an error when asked for by name."""
    chosen = [game.component(n) for n in names] if names else list(game.components)
    kept, skipped = [], []
    for component in chosen:
        if service is GENERIC:
            kept.append((component, None))
            continue
        found = match(service, component)
        if found is not None:
            kept.append((component, found))
        elif names:
            raise PnpError(not_made(service, game, component))
        else:
            skipped.append(Skipped(component, not_made(service, game, component)))
    return kept, skipped


def file_stem(copy: Copy, digits: int) -> str:
    """``yellow-wolf-02``: set, piece and copy number, so fronts and backs pair by name.

    >>> from pnp.template.model import Component, Piece
    >>> piece = Piece("closed_season", 1, {})
    >>> file_stem(Copy(Component("cards", (1, 1), (piece,), (), None), piece, 3, "red"), 2)
    'red-closed-season-03'
    """
    parts = ([copy.set] if copy.set else []) + [copy.piece.id.replace("_", "-"),
                                                f"{copy.copy:0{digits}d}"]
    return "-".join(parts)


def _digits(all_copies: list[Copy]) -> int:
    return max(2, len(str(max((c.copy for c in all_copies), default=1))))


def _faces(component: Component) -> tuple[Face, ...]:
    return (Face.FRONT, Face.BACK) if component.two_sided else (Face.FRONT,)


def print_images(component: Component, found, service: Service, dpi: int,
                 *, fmt: str = "png") -> ComponentExport:
    """Every face of every copy at the service's size (or the piece's own, generic)."""
    w, h = component.size
    if found is None and fmt == "pdf":
        # A PDF has no pixels to round to: the kit's bleed exactly.
        return _component_export(component, "", (w, h), (GENERIC_BLEED_MM,) * 2, turned=False,
                                 px=(round((w + 2 * GENERIC_BLEED_MM) * dpi / MM_PER_INCH),
                                  round((h + 2 * GENERIC_BLEED_MM) * dpi / MM_PER_INCH)))
    if found is None:
        # A whole number of pixels of bleed, so the trim starts on a pixel edge; a hex's
        # points reach further out than its sides, as its outline grown by the bleed does.
        bleed_px = round(GENERIC_BLEED_MM * dpi / MM_PER_INCH)
        grown = outline_of(component).grown(GENERIC_BLEED_MM)
        side_px = round((grown.width - w) / 2 * dpi / MM_PER_INCH)
        px = (round(w * dpi / MM_PER_INCH) + 2 * side_px, round(h * dpi / MM_PER_INCH) + 2 * bleed_px)
        trim, turned, product = (w, h), False, ""
    else:
        px = found.product.pixels
        trim, turned, product = found.product.trim_mm(service), found.turned, found.product.name
    # The bleed is whatever the exact pixel size leaves around the trim.
    bleed = ((px[0] * MM_PER_INCH / dpi - trim[0]) / 2, (px[1] * MM_PER_INCH / dpi - trim[1]) / 2)
    export = _component_export(component, product, trim, bleed, turned=turned, px=px)
    return export._replace(note=shape_note(service, component, found)) if found is not None else export


def _component_export(component, product, trim, bleed, *, turned, px) -> ComponentExport:
    if px[0] * px[1] > MAX_IMAGE_PIXELS:
        # Checked before anything is drawn: one such image would take gigabytes.
        raise PnpError(f"{component.id}: an image of {px[0]} x {px[1]} pixels; the limit is "
                       f"{MAX_IMAGE_PIXELS // 1_000_000} million pixels an image (lower --dpi)")
    all_copies = copies(component)
    digits = _digits(all_copies)
    images = []
    for copy in all_copies:
        stem = file_stem(copy, digits)
        for face in _faces(component):
            images.append(Image(copy, face, FacePage(copy, face, trim, bleed, turned=turned), px,
                                name=f"{stem}-{face.value}"))
    return ComponentExport(component, product, tuple(images))


def check_file_names(exports: list[ComponentExport], fmt: str) -> None:
    """PnpError naming both pieces if two would be written under one file name, before
    anything is drawn. Names join a piece's colour, id and copy with ``-`` and write the
    id's ``_`` as ``-`` (bulk uploads read words apart by ``-``), so ids that differ
    only there (``a_b``, ``a-b``) meet: one of them must be renamed."""
    if fmt == "pdf":
        return      # one file per component, named by its id
    check_unique((f"{e.component.id}/{image.name}.png", e.component.id, image.copy)
                 for e in exports for image in e.images)


def check_unique(names: Iterable[tuple[str, str, Copy]]) -> None:
    """PnpError for the first file name given to two different pieces: (name, component, copy)."""
    seen: dict[str, Copy] = {}
    for name, component, copy in names:
        other = seen.setdefault(name, copy)
        if other is not copy:
            raise PnpError(f"{component}: pieces {_piece_named(other)!r} and {_piece_named(copy)!r} would both be "
                           f"exported as {name} (in file names a piece id's _ is written -); rename one of them")


def _piece_named(copy: Copy) -> str:
    return f"{copy.set + ' ' if copy.set else ''}{copy.piece.id} {copy.copy}"


#: What an export writes, and where: files of these kinds, in its folder or in a component's folder
#: (and, from a version of pnp that wrote file by file, a hidden temporary file left by a crash).
_EXPORTED = (".png", ".pdf", ".csv", ".json", ".svg")  # .svg: the cut outlines beside Cricut pictures


def earlier_export(folder: Path) -> str | None:
    """Why ``folder`` must not be replaced by a new export (None: it holds only what an export writes).

    An export replaces its folder whole; anything else in there (a note, a
    folder of the user's) is a sign that it is not an earlier export, and it is kept.
    """
    for root, folders, files in os.walk(folder, followlinks=False):
        depth = len(Path(root).relative_to(folder).parts)
        for name in folders:
            if depth >= 1 or os.path.islink(os.path.join(root, name)):
                return _kept(Path(root, name), folder)
        for name in files:
            path = Path(root, name)
            leftover = name.startswith(".") and name.endswith(".tmp")
            if path.is_symlink() or not (leftover or path.suffix.lower() in _EXPORTED):
                return _kept(path, folder)
    return None


def _kept(path: Path, folder: Path) -> str:
    return (f"it holds {path.relative_to(folder)}, which no export writes: it is not replaced by a new export; "
            "move what you keep there elsewhere, or export with another --out")


def check_base_url(url: str) -> None:
    """PnpError unless ``url`` is an http(s) address with a host, or a file: address, without
    spaces or control characters (it is written into every image's address in the saved object)."""
    problem = None
    if any(char.isspace() or not char.isprintable() for char in url):
        problem = "it holds a space, a line break or a control character"
    else:
        try:
            parts = urlsplit(url)
            parts.port   # a port that is not a number fails here
        except ValueError as exc:
            parts, problem = None, f"it is not a web address ({exc})"
        if parts is not None:
            if parts.scheme in ("http", "https"):
                if not parts.hostname:
                    problem = "it names no host"
            elif parts.scheme == "file":
                if not parts.path.startswith("/"):
                    problem = "a file: address needs a path from the root (file:///folder)"
            else:
                problem = "it is not an http://, https:// or file:/// address"
    if problem:
        raise PnpError(f"--base-url must be where the images will be, such as https://example.org/kit, "
                       f"with a host and no spaces: {problem} (got {_shown(url)})")


def _shown(text: str) -> str:
    text = text if len(text) <= 80 else text[:79] + "…"
    return repr(text)


def pdf_order(images: tuple[Image, ...], order: str) -> list[Image]:
    """Faces in the order a print service reads a PDF: each copy's front and back together,
    back first with ``back-front``."""
    if order == "front-back":
        return list(images)
    by_copy: dict[tuple, list[Image]] = {}
    for image in images:
        by_copy.setdefault((image.copy.set, image.copy.piece.id, image.copy.copy), []).append(image)
    return [image for pair in by_copy.values() for image in reversed(pair)]


# ---- Tabletop Simulator ---------------------------------------------------------------------

def _whole(pixels: float) -> int:
    """Pixels rounded down, but 749.9999999 (63.5 mm at 300 dpi) is 750."""
    return math.floor(pixels + 1e-6)


class SheetGrid(NamedTuple):
    columns: int
    rows: int
    cell: tuple[int, int]       # px of one card, trim only

    @property
    def pixels(self) -> tuple[int, int]:
        return self.columns * self.cell[0], self.rows * self.cell[1]


def sheet_grid(cards: int, size_mm: tuple[float, float], dpi: int) -> SheetGrid:
    """The deck sheet for ``cards`` cards: the grid (at most 10 x 7) that shows them largest
    within 4096 px a side, at most at ``dpi``; then the one with fewest empty slots.

    >>> sheet_grid(69, (63.5, 88.9), 300)
    SheetGrid(columns=10, rows=7, cell=(409, 573))
    >>> sheet_grid(10, (63.5, 88.9), 300)
    SheetGrid(columns=5, rows=2, cell=(750, 1050))
    """
    if not 1 <= cards <= TTS_CARDS_PER_SHEET:
        raise ValueError(f"a sheet holds 1 to {TTS_CARDS_PER_SHEET} cards, not {cards}")
    w, h = size_mm
    best = None
    for columns in range(1, TTS_COLUMNS + 1):
        rows = math.ceil(cards / columns)
        if rows > TTS_ROWS:
            continue
        px_per_mm = min(dpi / MM_PER_INCH, TTS_MAX_PX / (columns * w), TTS_MAX_PX / (rows * h))
        cell = (_whole(w * px_per_mm), _whole(h * px_per_mm))
        # Largest cards first, then fewest empty slots, then the squarest sheet.
        key = (cell[0] * cell[1], -(columns * rows - cards),
               -max(columns * cell[0], rows * cell[1]))
        if best is None or key > best[0]:
            best = (key, SheetGrid(columns, rows, cell))
    return best[1]


def check_cells(component: Component, grid: SheetGrid) -> None:
    """PnpError unless each card of a deck sheet is at least a pixel each way (a card far
    longer than it is wide shrinks to nothing on a sheet of 10 x 7 cards, 4096 px a side)."""
    if min(grid.cell) < 1:
        w, h = component.size
        raise PnpError(f"{component.id}: a {w:g} x {h:g} mm card would be {grid.cell[0]} x {grid.cell[1]} pixels "
                       f"on a Tabletop Simulator deck sheet ({grid.columns} x {grid.rows} cards, at most "
                       f"{TTS_MAX_PX} px a side); a card needs at least 1 pixel each way: export it with "
                       "--component for another format, or make fewer or squarer cards")


def tts_pixels(size_mm: tuple[float, float], dpi: int) -> tuple[int, int]:
    """A single piece's image in Tabletop Simulator: at ``dpi``, at most 4096 px a side."""
    w, h = size_mm
    px_per_mm = min(dpi / MM_PER_INCH, TTS_MAX_PX / w, TTS_MAX_PX / h)
    return max(1, _whole(w * px_per_mm)), max(1, _whole(h * px_per_mm))


def card_id(deck_key: int, slot: int) -> int:
    """Tabletop Simulator's card id: the sheet's key in ``CustomDeck`` x 100 + the slot.

    >>> card_id(3, 12)
    312
    """
    return deck_key * 100 + slot


def tts_decks(component: Component) -> list[tuple[str, list[Copy]]]:
    """A component's cards as Tabletop Simulator decks: one per player colour when each
    colour has several cards (a player's own deck), else one for the whole component."""
    groups: dict[str | None, list[Copy]] = {}
    for copy in copies(component):
        groups.setdefault(copy.set, []).append(copy)
    if len(groups) > 1 and all(len(cs) > 1 for cs in groups.values()):
        return [(f"{component.id}-{s}", cs) for s, cs in groups.items()]
    return [(component.id, [c for cs in groups.values() for c in cs])]
