"""Turn a kit plan into PDF bytes and its manifest.

The plan has every face resolved into primitives and grouped into runs. A
run that copies share (equal primitives) and that is placed more than once
is drawn once into a reportlab form and placed wherever it goes: identical
cards cost one drawing, and the PDF stays small. What differs per copy (a
card's number) is drawn copy by copy, in its place among the shared runs.
"""

from __future__ import annotations

import json
from array import array
from itertools import chain
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from reportlab.pdfgen.canvas import Canvas

from pnp.core.records import NamedTuple
from pnp.layout.faces import FaceResolver, ResolvedFace, resolve_piece_face
from pnp.layout.imposition import Box
from pnp.layout.kinds.image import manifest_pictures, stored_sizes
from pnp.layout.outline import Outline, outline_of
from pnp.layout.plan import KitPlan, PagePlan, Placement, Run
from pnp.template.model import Component, Face, Game, Piece, PrintOptions
from pnp.layout.options import checked
from pnp.render.draw import Pen, draw_primitives
from pnp.render.fonts import MEASURER, font
from pnp.render.reportlab_internals import compress_last_page, page_ops, write_streams_plain
from pnp.core.errors import raise_problems
from pnp.core.units import pt

if TYPE_CHECKING:
    from pnp.layout.boards import Part

write_streams_plain()


#: The trims a kit clips its faces to (grown by the bleed): pieces cut by hand along a guide.
#: Rounded corners are cut straight and then rounded: their bleed's corners are cut away anyway.
CLIPPED_IN_KITS = ("circle", "hex")


class Drawings:
    """The forms of one PDF: each shared run placed more than once, drawn on first use.

    ``clipped``: the shapes whose faces are clipped to their trim grown by ``grow`` (the bleed).
    ``faces``: the resolver of the faces a plan left to be resolved as they are drawn."""

    def __init__(self, canvas: Canvas, uses: Mapping[int, int], bleed: float,
                 clipped: tuple[str, ...] = CLIPPED_IN_KITS, *, grow: float | None = None,
                 faces: FaceResolver | None = None) -> None:
        self.canvas, self.uses, self.bleed, self.clipped = canvas, uses, bleed, clipped
        self.grow = bleed if grow is None else grow    # how far past its trim a shape is clipped
        self.pen = Pen(canvas)  # one for the whole document: what it records serves every page
        self.forms: dict[int, str] = {}
        self.faces = faces

    def store_pictures(self, placed: list, image_dpi: float) -> dict[str, tuple[int, int] | None]:
        """Ready the document's store of pictures for those ``placed`` (pnp.layout.kinds.image.Placed),
        each kept at most ``image_dpi`` at its largest printed size; the sizes chosen."""
        stored = stored_sizes(placed, image_dpi) if placed else {}
        if placed:
            from pnp.render.pictures import PictureStore  # Pillow's decoders load only for a kit with pictures

            self.pen.pictures = PictureStore(stored, {use.source: use.name for use in placed})
        return stored

    def draw(self, run: Run, size: tuple[float, float]) -> None:
        """Draw one run of a face whose trim is ``size`` mm, the canvas at its bottom-left."""
        if run.drawing is None or self.uses.get(run.drawing, 0) < 2:
            # A drawing placed once compresses better inline with its page.
            self.pen.draw(run.primitives, size[1])
            return
        canvas = self.canvas
        name = self.forms.get(run.drawing)
        if name is None:
            name = self.forms[run.drawing] = f"F{len(self.forms)}"
            w, h = size
            bleed = self.bleed
            canvas.beginForm(name, lowerx=-pt(bleed), lowery=-pt(bleed), upperx=pt(w + bleed), uppery=pt(h + bleed))
            self.pen.draw(run.primitives, h)
            canvas.endForm()
        canvas.doForm(name)


def place(canvas: Canvas, placement: Placement, drawings: Drawings) -> None:
    """Draw a placement's face where the plan puts it: moved, turned, clipped to its printed area."""
    size = w, h = placement.copy.component.size
    trim, printed = placement.trim, placement.printed
    x, y = trim.x, trim.y
    # The turned piece's own width and height as it lies on the sheet.
    sheet_w, sheet_h = (h, w) if placement.rotation in (90, 270) else (w, h)
    part = placement.part
    if part is not None:
        region = part.sheet_region
        rx = region.x if placement.face is Face.FRONT else sheet_w - region.x - region.w
        x, y = x - rx, y - region.y
    pen = drawings.pen
    # A _Placing's values: the pen's recording is keyed on them as a plain tuple, the record made only to record it.
    pen.put(_move_to_piece, (printed, x, y, placement.rotation, sheet_w, sheet_h))
    component = placement.copy.component
    if component.shape in drawings.clipped:
        pen.put(_clip_to_outline, outline_of(component).grown(drawings.grow), size)
    for run in placement.runs:
        if run.primitives is None:   # a card of its own in a deck of many, resolved now
            layers = drawings.faces.face(placement.copy, placement.face).layers
            pen.draw(chain.from_iterable(layers), h)
        else:
            drawings.draw(run, size)
    page_ops(canvas).append("Q")  # closes the state _move_to_piece saved


class _Placing(NamedTuple):
    """Where a piece's face is drawn on its page, mm from the bottom-left: clipped to ``printed``
    (its trim and bleed), its frame's corner at (x, y), turned ``rotation`` degrees, taking
    ``sheet_w`` x ``sheet_h`` as it lies."""

    printed: Box
    x: float
    y: float
    rotation: int
    sheet_w: float
    sheet_h: float


def _move_to_piece(canvas: Canvas, placing: tuple) -> None:
    """Save the state, clip to the piece's printed area and move to its trim's
    corner, turned (``placing``: a :class:`_Placing`'s values); the piece's drawing ends by
    restoring the state."""
    at = _Placing._make(placing)
    printed, rotation, sheet_w, sheet_h = at.printed, at.rotation, at.sheet_w, at.sheet_h
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(pt(printed.x), pt(printed.y), pt(printed.w), pt(printed.h))
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.translate(pt(at.x), pt(at.y))
    if rotation == 90:
        canvas.translate(pt(sheet_w), 0)
    elif rotation == 180:
        canvas.translate(pt(sheet_w), pt(sheet_h))
    elif rotation == 270:
        canvas.translate(0, pt(sheet_h))
    if rotation:
        canvas.rotate(rotation)


def _clip_to_outline(canvas: Canvas, outline: Outline, size: tuple[float, float]) -> None:
    """Clip to a trim's outline grown by the bleed (centred on the trim of ``size`` mm), in the
    piece's frame (its trim's bottom-left at the origin, turned with the piece): the face's
    colours reach the bleed all round the shape and nothing past it."""
    clip = canvas.beginPath()
    dx, dy = (outline.width - size[0]) / 2, (outline.height - size[1]) / 2
    left, bottom, w, h = pt(-dx), pt(-dy), pt(outline.width), pt(outline.height)
    if outline.shape == "circle":
        clip.ellipse(left, bottom, w, h)
    elif outline.shape == "rounded":
        clip.roundRect(left, bottom, w, h, radius=pt(outline.corner))
    else:
        top = size[1] + dy   # the outline's box's top, y up
        points = [(pt(px - dx), pt(top - py)) for px, py in outline.points()]
        clip.moveTo(*points[0])
        for point in points[1:]:
            clip.lineTo(*point)
        clip.close()
    canvas.clipPath(clip, stroke=0, fill=0)


def draw_face(canvas: Canvas, face: ResolvedFace, x: float, y: float) -> None:
    """Draw one resolved face on any canvas, its trim's bottom-left at (x, y) mm,
    its bleed included and nothing past it.

    The entry point for exporting one piece alone: a page of the trim plus
    the bleed on each side takes the face at (bleed, bleed).
    """
    w, h = face.size
    b = face.bleed
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(pt(x - b), pt(y - b), pt(w + 2 * b), pt(h + 2 * b))
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.translate(pt(x), pt(y))
    draw_primitives(canvas, face.primitives, h)
    canvas.restoreState()


def draw_piece_face(canvas: Canvas, game: Game, *, component_id: str, piece_id: str,
                    face: Face = Face.FRONT, options: PrintOptions = PrintOptions(), copy: int = 1,
                    set_name: str | None = None, x: float = 0.0, y: float = 0.0) -> ResolvedFace:
    """Resolve one face of one piece and draw it alone, bleed included, its
    trim's bottom-left at (x, y) mm on ``canvas``; returns what was drawn.

    On a page just the size of a printed poker card with 3 mm of bleed,
    ``Canvas(out, pagesize=(pt(63.5 + 6), pt(88.9 + 6)))``, the wolf goes at
    ``draw_piece_face(canvas, game, "player-cards", "wolf", x=3, y=3)``.
    A problem with the face raises a TemplateError naming every problem.
    """
    resolved = resolve_piece_face(game, checked(options), MEASURER, component_id=component_id, piece_id=piece_id,
                                  face=face,
                                  copy=copy, set_name=set_name)
    draw_face(canvas, resolved, x, y)
    return resolved


class _Ledger:
    """What the manifest says of each placement, kept from its page until the PDF is
    made: eight whole numbers per placement, in one array per page.

    A tuple and a Copy for each placement would take five times the memory,
    held while reportlab writes the PDF, the build's peak. A component, a set, a trim or a board part is numbered
    the first time it is seen (a trim is shared by the pieces in the same
    slot of every sheet); a piece is found again by its index in its component.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.known: list[Any] = []           # what each number stands for
        self._numbers: dict[Any, int] = {}
        self._pieces: dict[int, dict[int, Piece]] = {}   # component number -> its pieces by index
        self._boxes: dict[int, Box] = {}     # trim number -> its box in the manifest, rounded
        #: number -> what the JSON of an item says of it (its components, trim, set, part)
        self._json: dict[int, Any] = {}

    def _number(self, key: Any, value: Any) -> int:
        number = self._numbers.get(key)
        if number is None:
            number = self._numbers[key] = len(self.known)
            self.known.append(value)
        return number

    def record(self, placements: Sequence[Placement]) -> array:
        """The numbers of a page's placements, to be turned into items by :meth:`items`."""
        numbers = array("i")
        for placement in placements:
            copy, part = placement.copy, placement.part
            component = copy.component
            numbers.extend((
                self._number(("component", component.id), component), copy.piece.index, copy.copy,
                -1 if copy.set is None else self._number(("set", copy.set), copy.set),
                placement.face is Face.BACK, self._number(placement.trim, placement.trim),
                placement.rotation, -1 if part is None else self._number(("part", id(part)), part)))
        return numbers

    def _piece(self, component_no: int, index: int) -> Piece:
        by_index = self._pieces.get(component_no)
        if by_index is None:
            by_index = self._pieces[component_no] = {p.index: p for p in self.known[component_no].pieces}
        return by_index[index]

    def _box(self, trim_no: int) -> Box:
        box = self._boxes.get(trim_no)
        if box is None:
            box = self._boxes[trim_no] = self.known[trim_no].rounded()
        return box

    def items(self, numbers: array) -> Iterator[dict]:
        """The manifest items of one page's numbers, one dict each."""
        known, faces = self.known, (Face.FRONT, Face.BACK)
        for at in range(0, len(numbers), 8):
            component_no, piece_index, copy, set_no, back, trim_no, rotation, part_no = numbers[at:at + 8]
            yield _manifest_item(
                self.game, known[component_no], self._piece(component_no, piece_index), copy,
                set_name=None if set_no < 0 else known[set_no], face=faces[back], box=self._box(trim_no),
                rotation=rotation, part=None if part_no < 0 else known[part_no])

    def json_lines(self, numbers: array) -> list[str]:
        """The manifest items of one page's numbers as the lines of JSON
        :func:`pnp.kit.build.manifest_parts` writes for each (indented by three
        spaces), put together from parts worked out once per component, trim, set and
        board part: a kit of thousands of pieces makes no dict per piece to write them."""
        said, lines = self._json, []
        for at in range(0, len(numbers), 8):
            component_no, piece_index, copy, set_no, back, trim_no, rotation, part_no = numbers[at:at + 8]
            head = said.get(component_no)
            if head is None:
                head = said[component_no] = _component_json(self.known[component_no])
            start, hidden, private = head
            box = said.get(trim_no)
            if box is None:
                box = said[trim_no] = _dict_json(self._box(trim_no)._asdict())
            piece = self._piece(component_no, piece_index)
            fields = piece.fields
            if private:
                fields = {name: value for name, value in fields.items() if not name.startswith("_")}
            line = (f'{start}{_string_json(piece.id)}, "face": "{"back" if back else "front"}", '
                    f'"copy": {copy}, {box}')
            if rotation:
                line += f", \"rotation\": {rotation}"
            if hidden:
                line += ', "hidden": true'
            if set_no >= 0:
                line += self._part_json(set_no, _set_json)
            if fields:
                line += ", " + _dict_json(fields)
            if part_no >= 0:
                line += self._part_json(part_no, _board_part_json)
            lines.append(line + "}")
        return lines

    def _part_json(self, number: int, said_as: Callable[[Game, Any], str]) -> str:
        text = self._json.get(number)
        if text is None:
            text = self._json[number] = said_as(self.game, self.known[number])
        return text


def _manifest_item(game: Game, component: Component, piece: Piece, copy: int, *, set_name: str | None,
                   face: Face, box: Box, rotation: int, part: Part | None) -> dict:
    item: dict[str, Any] = {
        "component": component.id, "piece": piece.id, "face": face.value,
        "copy": copy, "x": box.x, "y": box.y, "w": box.w, "h": box.h,
    }
    if rotation:
        item["rotation"] = rotation
    if component.hidden:
        item["hidden"] = True
    if set_name:
        item["set"] = set_name
        item["symbol"] = game.colors[set_name].symbol
    for name, value in piece.fields.items():
        if not name.startswith("_"):
            item[name] = value
    if part is not None:
        region = part.region.rounded()
        item["sheet_part"] = part.label
        item["region"] = {"x": region.x, "y": region.y, "w": region.w, "h": region.h}
    return item


#: ``json.dumps(value, ensure_ascii=False, allow_nan=False)`` (see :func:`pnp.kit.build.manifest_parts`),
#: without making an encoder for each value.
_json_of = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode
#: A string as ``json.dumps(text, ensure_ascii=False)`` writes it (json's own C function).
_string_json = json.encoder.encode_basestring
_LITERALS = {True: "true", False: "false", None: "null"}


def _dict_json(values: Mapping[str, Any]) -> str:
    """A dict's entries as ``json.dumps(values, ensure_ascii=False, allow_nan=False)`` writes
    them, without the braces: strings, whole numbers, finite numbers and true/false written
    here (a piece's fields), anything else by json (a number that is not finite is refused,
    ValueError, as it is there)."""
    parts = []
    for name, value in values.items():
        if type(name) is not str:
            return _json_of(values)[1:-1]
        kind = type(value)
        if kind is str:
            text = _string_json(value)
        elif kind is int:
            text = int.__repr__(value)
        elif kind is float and value - value == 0:   # finite: json writes its repr
            text = float.__repr__(value)
        elif kind is bool or value is None:
            text = _LITERALS[value]
        else:
            text = _json_of(value)
        parts.append(f"{_string_json(name)}: {text}")
    return ", ".join(parts)


class _ComponentJson(NamedTuple):
    """What a component's items in a manifest share."""

    start: str        # each item's line up to its piece's id
    hidden: bool      # its pieces are hidden
    private: bool     # some piece has a field of its own (named ``_...``) that manifests leave out


def _component_json(component: Component) -> _ComponentJson:
    private = any(name.startswith("_") for piece in component.pieces for name in piece.fields)
    return _ComponentJson(f'   {{"component": {_string_json(component.id)}, "piece": ', component.hidden, private)


def _set_json(game: Game, set_name: str) -> str:
    if not set_name:
        return ""
    return ", " + _dict_json({"set": set_name, "symbol": game.colors[set_name].symbol})


def _board_part_json(game: Game, part: Part) -> str:
    region = part.region.rounded()
    return ", " + _dict_json({"sheet_part": part.label,
                              "region": {"x": region.x, "y": region.y, "w": region.w, "h": region.h}})


class PageItems(Sequence):
    """A page's manifest items, made from the ledger's record of its placements
    when they are read (one dict each), and written as JSON without them
    (:meth:`json_lines`): writing the manifest of thousands of pieces then
    holds no dict per piece beside the PDF."""

    __slots__ = ("_ledger", "_numbers")

    def __init__(self, ledger: _Ledger, numbers: array) -> None:
        self._ledger, self._numbers = ledger, numbers

    def __len__(self) -> int:
        return len(self._numbers) // 8

    def __iter__(self) -> Iterator[dict]:
        return self._ledger.items(self._numbers)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return list(self)[index]
        count = len(self)
        if not -count <= index < count:
            raise IndexError("page item index out of range")
        at = (index % count) * 8
        return next(self._ledger.items(self._numbers[at:at + 8]))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (PageItems, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"PageItems({list(self)!r})"

    def json_lines(self) -> list[str]:
        """Each item as ``manifest_parts`` writes it with json, after three spaces."""
        return self._ledger.json_lines(self._numbers)


def render_kit(plan: KitPlan, *, release_pages: bool = False, records: bool = False) -> tuple[bytes, dict]:
    """Draw every page of the plan; return the PDF bytes and the manifest.

    A blank page (behind a one-sided page of a double-sided file) is left
    empty: not even a footer is printed on it. With ``release_pages``, each
    page of the plan is let go once drawn (its place in ``plan.pages`` becomes
    None): a kit of thousands of cards then never holds its whole plan beside
    its whole drawing. The faces the plan left to be resolved as they are drawn
    (:attr:`~pnp.layout.plan.KitPlan.faces`) are, and their problems are raised,
    every one at once, before the PDF is made. With ``records``, each page's items are a :class:`PageItems`
    (made when read; written without a dict per piece) rather than a list of dicts.
    """
    game, options = plan.game, plan.options
    catalog = game.catalogs[options.lang]
    page_w, page_h = plan.page_size
    # The initial font must be our embedded one, or reportlab adds an
    # unembedded Helvetica to every page's resources.
    canvas = Canvas(None, pagesize=(pt(page_w), pt(page_h)), invariant=1,
                    pageCompression=1, lang=options.lang, initialFontName=font("regular"))
    title = catalog.get("game.name")
    canvas.setTitle(f"{title} — {catalog.get('pdf.kit')}")
    canvas.setAuthor(", ".join(game.designers))
    canvas.setSubject(catalog.get("pdf.subject", game=title, paper=catalog.get(f"paper.{options.paper}")))
    canvas.setCreator("pnp")
    canvas.setKeywords(f"{game.id} {options.lang} {options.paper}")
    canvas.setViewerPreference("PrintScaling", "None")
    if plan.duplex:
        canvas.setViewerPreference("Duplex", "DuplexFlipLongEdge")
    drawings = Drawings(canvas, plan.drawing_uses, options.bleed, faces=plan.faces)
    stored = drawings.store_pictures(plan.pictures, game.image_dpi)
    ledger = _Ledger(game)
    listed: list[tuple[dict, array] | None] = []
    for index, page in enumerate(plan.pages):
        listed.append((_manifest_page(page), ledger.record(page.placements)))
        _draw_page(canvas, drawings, page, page_h)
        canvas.showPage()
        compress_last_page(canvas)
        if release_pages:
            plan.pages[index] = None
    if plan.faces is not None:
        # The problems of the faces resolved as they were drawn, every one at once.
        raise_problems(plan.faces.problems)
    # The bytes save() would write, without save()'s copy of them into a buffer.
    pdf = canvas.getpdfdata()
    del canvas, drawings  # the pages' drawing, no longer needed beside the PDF
    # The manifest's items are made from the ledger's records once reportlab has let go of
    # the PDF's parts (with ``records``, only when they are read).
    pages = []
    for entry, numbers in listed:
        items = PageItems(ledger, numbers)
        pages.append({**entry, "items": items if records else list(items)})
    del listed
    manifest = {
        "game": game.id, "lang": options.lang, "paper": options.paper,
        "page_size_mm": [round(page_w, 3), round(page_h, 3)],
        "bleed_mm": options.bleed, "duplex": plan.duplex, "fold": options.fold,
        "back_offset_mm": list(options.back_offset), "ink_saver": options.ink_saver,
        "sheets": plan.sheets,
        "pages": pages,
    }
    if plan.pictures:
        # What each picture is and how it prints, before the pages (the manifest's long part).
        manifest = {**{k: v for k, v in manifest.items() if k != "pages"},
                    "pictures": manifest_pictures(plan.pictures, stored), "pages": pages}
    if options.cutter:
        from pnp.layout.cutter import manifest_entry

        manifest = {**manifest, "cutter": manifest_entry(options.cutter, page_w, page_h, options.mark_inset,
                                                         length=options.mark_length)}
        manifest["pages"] = manifest.pop("pages")   # the pages stay last, the manifest's long part
    return pdf, manifest


def render_pages(pages, page_size: tuple[float, float], title: str, lang: str,
                 *, duplex: bool = False) -> bytes:
    """Pages that are only primitives (the calibration sheet), drawn as they are."""
    page_w, page_h = page_size
    canvas = Canvas(None, pagesize=(pt(page_w), pt(page_h)), invariant=1,
                    pageCompression=1, lang=lang, initialFontName=font("regular"))
    canvas.setTitle(title)
    canvas.setCreator("pnp")
    canvas.setViewerPreference("PrintScaling", "None")
    if duplex:
        canvas.setViewerPreference("Duplex", "DuplexFlipLongEdge")
    for primitives in pages:
        draw_primitives(canvas, primitives, page_h)
        canvas.showPage()
    return canvas.getpdfdata()


def _manifest_page(page: PagePlan) -> dict:
    """A page's manifest entry but for its items."""
    entry: dict[str, Any] = {"number": page.number, "kind": page.kind.value, "sheet": page.sheet,
                             "stock": page.stock}
    if page.components or page.alignment:
        # The alignment sheet's sides carry no pieces: an empty list, like any printed side's.
        entry["components"] = list(page.components)
    if page.fold_line is not None:
        entry["fold_line"] = [round(v, 3) for v in page.fold_line]
    if page.alignment:
        entry["alignment"] = True
    if page.cutter:
        entry["registration_marks"] = True
    return entry


def _draw_page(canvas: Canvas, drawings: Drawings, page: PagePlan, page_h: float) -> None:
    for placement in page.placements:
        place(canvas, placement, drawings)
    drawings.pen.draw(page.drawing, page_h)
