"""`pnp export`: draw, rasterise and write the files of one export.

An export is one folder, ``OUT/GAME_LANG_FORMAT[_SERVICE]``, written whole
beside its place and swapped in for the earlier export there
(:class:`pnp.core.files.FolderReplacement`): it holds exactly the files its summary
line counts, and on any error (or Ctrl-C, SIGTERM, SIGHUP) the earlier export
stays as it was and nothing is left half-written. Every file of a component is
in the component's own folder, under a name made from the piece's colour, id
and copy number (:func:`pnp.export.plan.file_names` checks, before anything is
drawn, that no two pieces get the same name).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from pathlib import Path
from typing import Callable, Mapping
from urllib.parse import quote

from pnp.core.errors import OutputError, PnpError
from pnp.core.records import NamedTuple
from pnp.export.plan import (TTS_CARDS_PER_SHEET, ComponentExport, Image, Skipped, card_id,
                             check_base_url, check_cells, check_choices, check_file_names,
                             check_unique, chosen_components,
                             earlier_export, file_stem, pdf_order, print_images, sheet_grid,
                             tts_decks, tts_pixels)
from pnp.export.raster import PNG_OPTIONS, Job, rasterise
from pnp.core.files import FolderReplacement, WriteError
from pnp.core.units import MM_PER_INCH
from pnp.layout.kinds.image import enlarged_pictures, soft_pictures
from pnp.layout.plan import copies
from pnp.template.model import Component, Copy, Face, Game, PrintOptions
from pnp.layout.options import checked
from pnp.render.document import CLIPPED_IN_KITS
from pnp.render.single import FacePage, FacesPdf, faces_pdf
from pnp.export.services import Service

Progress = Callable[[int, int], None]   # (pages just finished, pages in all)


class Exported(NamedTuple):
    folder: Path
    files: int
    bytes: int
    sizes: tuple[str, ...]      # "player-cards 825 x 1125 px", one per component or sheet
    skipped: tuple[Skipped, ...]
    main_file: Path | None      # the CSV, or the Tabletop Simulator saved object
    #: Each picture the images enlarge (or, in a PDF, that may print soft), a line each.
    warnings: tuple[str, ...] = ()


def export_game(game: Game, options: PrintOptions, fmt: str, service: Service, *, dpi: int | None,
                order: str, components: list[str] | None, out: Path, base_url: str | None = None,
                progress: Progress | None = None) -> Exported:
    """Export a game's pieces as print files (png, pdf) or a Tabletop Simulator object (tts)."""
    options = checked(options)
    dpi = check_choices(fmt, service, dpi, order)
    if base_url is not None and fmt != "tts":
        raise PnpError("--base-url is for --format tts (where Tabletop Simulator finds the images)")
    if base_url is not None:
        check_base_url(base_url)
    kept, skipped = chosen_components(game, service, components, fmt)
    if not kept:
        raise PnpError(f"{service.name} makes none of the pieces asked for: "
                       + "; ".join(s.reason for s in skipped))
    name = f"{game.id}_{options.lang}_{fmt}" + ("" if service.id == "generic" else f"_{service.id}")
    folder = Path(out) / name
    with FolderReplacement(folder, earlier_export) as replacement:
        try:
            replacement.check()   # before any work: a folder that cannot be replaced is said at once
        except WriteError as exc:
            raise OutputError(str(exc)) from None
        output = _Output(replacement.target, replacement)
        if fmt == "tts":
            sizes, main = _tts(game, options, kept, dpi, output=output, base_url=base_url, progress=progress)
        elif fmt == "cricut":
            from pnp.export.cricut import cricut_files

            sizes, left_out, output.warnings = cricut_files(game, options, [c for c, _ in kept], output.add,
                                                            progress=progress)
            skipped += [Skipped(c, reason) for c, reason in left_out]
            if not sizes:
                raise PnpError("none of the pieces asked for can be cut by Print Then Cut: "
                               + "; ".join(reason for _, reason in left_out))
            main = None
        else:
            exports = [print_images(c, found, service, dpi, fmt=fmt) for c, found in kept]
            check_file_names(exports, fmt)
            if fmt == "pdf":
                sizes, main = _pdfs(game, options, exports, order, output=output, progress=progress)
            else:
                sizes, main = _pngs(game, options, exports, dpi, output=output, progress=progress)
        try:
            replacement.commit()
        except WriteError as exc:
            raise OutputError(str(exc)) from None
    return Exported(folder, output.files, output.bytes, tuple(sizes), skipped=tuple(skipped), main_file=main,
                    warnings=tuple(dict.fromkeys(output.warnings)))


class _Output:
    """The export's folder: files are written into its replacement as they are made."""

    def __init__(self, folder: Path, replacement: FolderReplacement) -> None:
        self.folder, self.replacement = folder, replacement
        self.files = self.bytes = 0
        self.warnings: list[str] = []

    def drawn(self, faces: FacesPdf, needed: Mapping[tuple[str, str], float] | None) -> FacesPdf:
        """Note what is worth saying of the pictures a PDF of faces placed: those its images
        enlarge (``needed``: :func:`images_dpi`), or in a PDF (``needed`` None) those that may
        print soft."""
        if needed is None:
            self.warnings += soft_pictures(list(faces.pictures))
        else:
            self.warnings += enlarged_pictures(list(faces.pictures), needed)
        return faces

    def add(self, relative: str, data: bytes) -> Path:
        try:
            path = self.replacement.add(relative, data)
        except WriteError as exc:
            raise OutputError(str(exc)) from None
        self.files += 1
        self.bytes += len(data)
        return path


def images_dpi(pages: list[FacePage], pixels: list[tuple[int, int]]) -> dict[tuple[str, str], float]:
    """How many pixels an inch of each piece's face has in its images (the most among its
    copies), by piece (``component/piece``) and face: the resolution its pictures need. A
    service's product may stretch the piece a little; a Tabletop Simulator deck sheet of many
    cards has fewer pixels an inch than the export's dpi.

    >>> from pnp.template.model import Component, Copy, Face, Piece
    >>> card = Copy(Component("cards", (63.0, 88.0), (Piece("a", 1, {}),), (), None), Piece("a", 1, {}), 1)
    >>> images_dpi([FacePage(card, Face.FRONT, (63.5, 88.9), (3.175, 3.175))], [(825, 1125)])
    {('cards/a', 'front'): 303.1}
    """
    needed: dict[tuple[str, str], float] = {}
    for page, (px_w, px_h) in zip(pages, pixels):
        w, h = page.copy.component.size
        along_x, along_y = (h, w) if page.turned else (w, h)   # the piece's sides along the image's
        page_w, page_h = page.page_size
        dpi = round(max(px_w / page_w * page.trim[0] / along_x, px_h / page_h * page.trim[1] / along_y)
                    * MM_PER_INCH, 1)
        key = (f"{page.copy.component.id}/{page.copy.piece.id}", page.face.value)
        needed[key] = max(dpi, needed.get(key, 0.0))
    return needed


def _size(pixels: tuple[int, int]) -> str:
    return f"{pixels[0]} x {pixels[1]} px"


# ---- print files ----------------------------------------------------------------------------

def _pdfs(game, options, exports: list[ComponentExport], order, *, output: _Output, progress):
    sizes = []
    total = sum(len(e.images) for e in exports)
    for export in exports:
        pages = [image.page for image in pdf_order(export.images, order)]
        clipped = CLIPPED_IN_KITS if not export.product else ()
        output.add(f"{export.component.id}.pdf", output.drawn(faces_pdf(game, options, pages, clipped), None).pdf)
        w, h = pages[0].page_size
        sizes.append(f"{export.component.id} {w:.2f} x {h:.2f} mm pages{'; ' + export.note if export.note else ''}")
        if progress:
            progress(len(pages), total)
    return sizes, None


#: Shapes whose print images are transparent outside their trim grown by the bleed. Only
#: without a service: a service's product is cut from a full, opaque image.
SHAPED = ("rounded", "circle", "hex")


def _pngs(game, options, exports: list[ComponentExport], dpi, *, output: _Output, progress):
    images = [image for export in exports for image in export.images]
    generic = all(not export.product for export in exports)
    clipped = SHAPED if generic else ()
    pages = [image.page for image in images]
    needed = images_dpi(pages, [image.pixels for image in images])
    # Each picture kept at the pixels its images need (the game's image_dpi is the kit PDF's).
    drawn = output.drawn(faces_pdf(game, options, pages, clipped, image_dpi=max(needed.values())), needed)
    alike: dict[int, list[Image]] = {}
    for index, image in enumerate(images):
        alike.setdefault(drawn.same_as[index], []).append(image)
    jobs = [Job(i, images[i].pixels, True, dpi,
                alpha=images[i].copy.component.shape in clipped) for i in sorted(alike)]
    # Each picture is written as soon as it is made, while the others are still drawn.
    for job, data in rasterise(drawn.pdf, jobs, _counter(progress, len(jobs))):
        for image in alike[job.page]:
            output.add(_png_name(image), data)
    table = io.StringIO()
    writer = csv.writer(table, lineterminator="\n")
    writer.writerow(["file", "component", "piece", "set", "copy", "face", "quantity",
                     "width_px", "height_px"])
    for image in images:
        writer.writerow([_png_name(image), image.copy.component.id, image.copy.piece.id,
                         image.copy.set or "", image.copy.copy, image.face.value, 1,
                         image.pixels[0], image.pixels[1]])
    csv_path = output.add("files.csv", table.getvalue().encode("utf-8"))
    sizes = [f"{e.component.id}{' (' + e.product + ')' if e.product else ''} "
             f"{_size(e.images[0].pixels)}{'; ' + e.note if e.note else ''}" for e in exports]
    return sizes, csv_path


def _png_name(image: Image) -> str:
    return f"{image.copy.component.id}/{image.name}.png"


def _counter(progress: Progress | None, total: int):
    if progress is None:
        return None
    return lambda done: progress(done, total)


# ---- Tabletop Simulator ---------------------------------------------------------------------

class _Sheet(NamedTuple):
    """One deck sheet: its cards, their grid and the images it is made of."""

    name: str                   # its files' names, in its component's folder
    deck: int                   # which deck it belongs to: a deck may need several sheets
    cards: list[Copy]
    grid: object
    fronts: list[int]           # page index of each card's front
    backs: list[int]            # page index of each card's back (or of a blank back)


class _TtsFaces:
    """Every face a Tabletop Simulator save shows: card decks as sheets of a grid (a deck
    may need several), and the other pieces (tiles, tokens, boards, sheets) one by one."""

    def __init__(self) -> None:
        self.pages: list[FacePage] = []
        self.pixels: list[tuple[int, int]] = []
        self.alpha: list[bool] = []      # transparent outside the trim: a round or hex piece alone
        self.sheets: list[_Sheet] = []
        self.singles: list[tuple[Component, Copy, int, int | None]] = []

    def page(self, copy: Copy, face: Face, size_px: tuple[int, int], alpha: bool = False) -> int:
        # The trim alone: Tabletop Simulator shows all of an image. Rasterising
        # stretches the page to the exact pixels (a fraction of a pixel at most).
        self.pages.append(FacePage(copy, face, copy.component.size, (0.0, 0.0)))
        self.pixels.append(size_px)
        self.alpha.append(alpha)
        return len(self.pages) - 1

    def add_decks(self, component: Component, dpi: int, deck_number: int) -> int:
        """The sheets of a component's decks; the number of the last deck."""
        for deck_name, deck in tts_decks(component):
            deck_number += 1
            for start in range(0, len(deck), TTS_CARDS_PER_SHEET):
                cards = deck[start:start + TTS_CARDS_PER_SHEET]
                grid = sheet_grid(len(cards), component.size, dpi)
                check_cells(component, grid)
                number = start // TTS_CARDS_PER_SHEET + 1
                # In the component's own folder: no other component's file can take its name.
                name = f"{deck_name}-{number}" if len(deck) > TTS_CARDS_PER_SHEET else deck_name
                self.sheets.append(_Sheet(f"{component.id}/{name}", deck_number, cards, grid,
                                          fronts=[self.page(c, Face.FRONT, grid.cell) for c in cards],
                                          backs=[self.page(c, Face.BACK, grid.cell) for c in cards]))
        return deck_number

    def add_singles(self, component: Component, dpi: int) -> None:
        size = tts_pixels(component.size, dpi)
        two_faced = component.two_sided and not _same_back(component)
        alpha = component.shape in CLIPPED_IN_KITS
        for copy in copies(component):
            self.singles.append((component, copy, self.page(copy, Face.FRONT, size, alpha),
                                 self.page(copy, Face.BACK, size, alpha) if two_faced else None))


class _Pictures:
    """The faces rasterised, each distinct drawing once, and where their images are written."""

    def __init__(self, game: Game, options: PrintOptions, faces: _TtsFaces, dpi: int, *, output: _Output,
                 base_url: str | None, progress: Progress | None) -> None:
        needed = images_dpi(faces.pages, faces.pixels)
        self.drawn = output.drawn(faces_pdf(game, options, faces.pages, image_dpi=max(needed.values())), needed)
        self.pixels, self.alpha = faces.pixels, faces.alpha
        unique = sorted(set(self.drawn.same_as))
        jobs = [Job(i, faces.pixels[i], False, dpi, alpha=faces.alpha[i]) for i in unique]
        self.raw = {job.page: data for job, data in rasterise(self.drawn.pdf, jobs, _counter(progress, len(jobs)))}
        self.output, self.base_url = output, base_url

    def picture(self, index: int):
        from PIL import Image as PilImage

        i = self.drawn.same_as[index]
        return PilImage.frombytes("RGBA" if self.alpha[i] else "RGB", self.pixels[i], self.raw[i])

    def digest(self, index: int) -> bytes:
        """What the face's pixels are, to tell two faces apart that were drawn apart."""
        return hashlib.sha1(self.raw[self.drawn.same_as[index]]).digest()

    def save(self, relative: str, image) -> str:
        """Write an image; the address a saved game finds it at."""
        buffer = io.BytesIO()
        image.save(buffer, "PNG", **PNG_OPTIONS)
        self.output.add(relative, buffer.getvalue())
        if self.base_url:
            return self.base_url.rstrip("/") + "/" + quote(relative)
        return (self.output.folder / relative).resolve().as_uri()

    def grid_image(self, grid, indexes: list[int]):
        """The faces side by side in the sheet's grid, row by row."""
        from PIL import Image as PilImage

        image = PilImage.new("RGB", grid.pixels, "white")
        for slot, index in enumerate(indexes):
            row, col = divmod(slot, grid.columns)
            image.paste(self.picture(index), (col * grid.cell[0], row * grid.cell[1]))
        return image


#: Tabletop Simulator's shapes, as its Custom Tile and Custom Deck dialogs number them. A tile
#: is a box, a hex, a circle or a box with rounded corners; a card a rounded rectangle (what
#: every deck was before shapes, kept), a hex or a circle. A token takes its shape from its
#: image's transparency, which a round or hex piece's image has.
TTS_TILE_TYPES = {"rectangle": 0, "hex": 1, "circle": 2, "rounded": 3}
TTS_CARD_TYPES = {"hex": 3, "circle": 4}


def _tts(game: Game, options: PrintOptions, kept, dpi, *, output: _Output, base_url, progress):
    """The Tabletop Simulator save of the kept components and its images; the sizes shown."""
    faces = _TtsFaces()
    deck_number = 0
    for component, _ in kept:
        if component.kind == "card":
            deck_number = faces.add_decks(component, dpi, deck_number)
        else:
            faces.add_singles(component, dpi)
    check_unique((_single_stem(component, copy) + f"-{face}.png", component.id, copy)
                 for component, copy, _, back in faces.singles for face in ("front", "back")[:2 if back else 1])
    pictures = _Pictures(game, options, faces, dpi, output=output, base_url=base_url, progress=progress)
    catalog = game.catalogs[options.lang]
    sizes: list[str] = []
    objects = _deck_objects(catalog, faces.sheets, pictures, sizes)
    _single_objects(catalog, faces.singles, pictures, objects)
    sizes += [f"{component.id} {_size(tts_pixels(component.size, dpi))}"
              for component, _ in kept if component.kind != "card"]
    saved = {"SaveName": "", "GameMode": "", "Date": "", "VersionNumber": "", "GameType": "",
             "GameComplexity": "", "Tags": [], "Gravity": 0.5, "PlayArea": 0.5, "Table": "",
             "Sky": "", "Note": "", "TabStates": {}, "LuaScript": "", "LuaScriptState": "",
             "XmlUI": "", "ObjectStates": objects}
    main = output.add(f"{game.id}_{options.lang}.json",
                      (json.dumps(saved, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))
    return sizes, main


def _deck_objects(catalog, sheets: list[_Sheet], pictures: _Pictures, sizes: list[str]) -> list[dict]:
    """Each deck's sheets written as images, and its saved object: a deck, or a card alone."""
    decks: dict[int, list[tuple[dict, list[dict], list[Copy]]]] = {}
    for deck_key, sheet in enumerate(sheets, start=1):
        grid = sheet.grid
        face_sheet = pictures.grid_image(grid, sheet.fronts)
        # Backs of different pieces are drawn apart but often look alike: compare pixels.
        same_back = len({pictures.digest(i) for i in sheet.backs}) == 1
        if same_back:
            back_url = pictures.save(f"{sheet.name}-back.png", pictures.picture(sheet.backs[0]))
        else:
            back_url = pictures.save(f"{sheet.name}-backs.png", pictures.grid_image(grid, sheet.backs))
        # The first empty slot shows the back: TTS's hidden face if a player's hand hides cards.
        if len(sheet.cards) < grid.columns * grid.rows:
            row, col = divmod(len(sheet.cards), grid.columns)
            face_sheet.paste(pictures.picture(sheet.backs[0]), (col * grid.cell[0], row * grid.cell[1]))
        face_url = pictures.save(f"{sheet.name}-faces.png", face_sheet)
        sizes.append(f"{sheet.name.rpartition('/')[2]} {grid.columns} x {grid.rows} sheet {_size(grid.pixels)}")
        custom = {str(deck_key): {"FaceURL": face_url, "BackURL": back_url,
                                  "NumWidth": grid.columns, "NumHeight": grid.rows,
                                  "BackIsHidden": True, "UniqueBack": not same_back,
                                  "Type": TTS_CARD_TYPES.get(sheet.cards[0].component.shape, 0)}}
        cards = [_card(catalog, copy, card_id(deck_key, slot), custom, index=sheet.deck)
                 for slot, copy in enumerate(sheet.cards)]
        decks.setdefault(sheet.deck, []).append((custom, cards, sheet.cards))
    objects: list[dict] = []
    for parts in decks.values():
        custom = {key: value for part, _, _ in parts for key, value in part.items()}
        cards = [card for _, deck_cards, _ in parts for card in deck_cards]
        copies_in_deck = [copy for _, _, deck_copies in parts for copy in deck_copies]
        colours = {copy.set for copy in copies_in_deck}
        nickname = _deck_nickname(catalog, copies_in_deck[0].component,
                                  colours.pop() if len(colours) == 1 else None)
        if len(cards) == 1:
            objects.append(cards[0] | {"Transform": _transform(len(objects), True)})
        else:
            objects.append(_object("DeckCustom", nickname, len(objects), face_down=True) | {
                "DeckIDs": [card["CardID"] for card in cards], "CustomDeck": custom,
                "ContainedObjects": cards})
    return objects


def _single_objects(catalog, singles: list[tuple[Component, Copy, int, int | None]], pictures: _Pictures,
                    objects: list[dict]) -> None:
    """Each piece that is not a card, its images written once per picture (the 48 Halali
    tiles share one back), as a saved object of its own."""
    saved_images: dict[bytes, str] = {}
    for component, copy, front, back in singles:
        stem = _single_stem(component, copy)

        def image_url(index: int, face: str) -> str:
            key = pictures.digest(index)
            if key not in saved_images:
                saved_images[key] = pictures.save(f"{stem}-{face}.png", pictures.picture(index))
            return saved_images[key]

        front_url = image_url(front, "front")
        back_url = image_url(back, "back") if back is not None else ""
        objects.append(_single(catalog, component, copy, front_url, back=back_url, index=len(objects)))


def _single_stem(component: Component, copy: Copy) -> str:
    return f"{component.id}/{file_stem(copy, max(2, len(str(component.piece_count()))))}"


def _same_back(component: Component) -> bool:
    return component.back is component.front and all(p.back is None for p in component.pieces)


def _guid(*parts) -> str:
    # Six hex digits like Tabletop Simulator's own, the same every run.
    return hashlib.sha1("/".join(str(p) for p in parts).encode()).hexdigest()[:6]


def _transform(index: int, face_down: bool) -> dict:
    # Objects side by side along the table, 4 units apart, so none lands on another.
    return {"posX": -20.0 + 4.0 * (index % 11), "posY": 1.0, "posZ": 8.0 - 6.0 * (index // 11),
            "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if face_down else 0.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def _object(name: str, nickname: str, index: int, face_down: bool = False) -> dict:
    return {"GUID": _guid(name, nickname, index), "Name": name,
            "Transform": _transform(index, face_down), "Nickname": nickname,
            "Description": "", "Locked": False, "Grid": True, "Snap": True, "Tooltip": True}


def _text(catalog, key: str, fallback: str) -> str:
    return catalog.texts.get(key, fallback)


def _deck_nickname(catalog, component: Component, set_name: str | None) -> str:
    name = _text(catalog, f"component.{component.id}.name", component.id)
    return f"{name} — {_text(catalog, f'color.{set_name}', set_name)}" if set_name else name


def _card(catalog, copy: Copy, cid: int, custom: dict, *, index: int) -> dict:
    """A card: alone on the table, or inside its deck (where its place is the deck's)."""
    name = _text(catalog, f"card.{copy.piece.id}", copy.piece.id)
    card = _object("CardCustom", name, index, face_down=True) | {"CardID": cid, "CustomDeck": custom}
    card["GUID"] = _guid("CardCustom", name, index, cid)
    return card


def _single(catalog, component: Component, copy: Copy, front: str, *, back: str, index: int) -> dict:
    name = _text(catalog, f"component.{component.id}.name", component.id)
    if component.kind == "board":
        return _object("Custom_Board", name, index) | {
            "CustomImage": {"ImageURL": front, "ImageSecondaryURL": back, "ImageScalar": 1.0,
                            "WidthScale": 0.0}}
    if component.kind == "token" and not back:
        return _object("Custom_Token", name, index) | {
            "CustomImage": {"ImageURL": front, "ImageSecondaryURL": "", "ImageScalar": 1.0,
                            "WidthScale": 0.0,
                            "CustomToken": {"Thickness": 0.2, "MergeDistancePixels": 15.0,
                                            "StandUp": False, "Stackable": True}}}
    # Tiles, two-sided tokens and paper sheets: a flat tile with a picture on each side.
    return _object("Custom_Tile", name, index) | {
        "CustomImage": {"ImageURL": front, "ImageSecondaryURL": back or front, "ImageScalar": 1.0,
                        "WidthScale": 0.0,
                        "CustomTile": {"Type": TTS_TILE_TYPES[component.shape], "Thickness": 0.1, "Stackable": False,
                                       "Stretch": True}}}
