"""Turn a kit plan into PDF bytes and its manifest.

Each distinct face (a piece in a set, front or back) is drawn once into a
reportlab form and placed wherever a copy of it goes: identical cards cost one
drawing, and the PDF stays small. Numbered copies share the form too; only
their numbers are drawn one by one.
"""

from __future__ import annotations

import io
from typing import Any

from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas

from pnp.i18n import Catalog
from pnp.layout.plan import KitPlan, PagePlan, Placement
from pnp.model import Copy, Element, Face, Game, PageKind
from pnp.render.colors import Inks
from pnp.render.cover import draw_cover
from pnp.render.elements import CopyNumbers, FaceContext, draw_face
from pnp.render.fonts import font
from pnp.render.furniture import draw_footer, draw_marks, draw_seams
from pnp.units import pt


def face_values(game: Game, copy: Copy, catalog: Catalog, params: dict) -> dict[str, Any]:
    """The named values a face may use in texts and expressions."""
    values: dict[str, Any] = {**game.params, **params, **copy.piece.fields,
                              "id": copy.piece.id, "copy": copy.copy, "lang": catalog.lang,
                              "rules_url": game.rules_url, "game_id": game.id}
    if copy.set:
        color = game.colors[copy.set]
        values.update(set=copy.set, set_symbol=color.symbol,
                      set_name=catalog.get(f"color.{copy.set}"))
    return values


# Streams are compressed; ASCII85 on top would only make them 25% bigger.
rl_config.useA85 = 0


class _Faces:
    """Draws each face. What every copy of a face shares is drawn once, as a
    form, when the face is printed more than once; what differs per copy (a
    card's number) is drawn copy by copy, in its place among the shared parts."""

    def __init__(self, canvas: Canvas, plan: KitPlan, catalog: Catalog) -> None:
        self.canvas, self.plan, self.catalog, self.game = canvas, plan, catalog, plan.game
        self.uses: dict[tuple, int] = {}    # face key -> how many times it is printed
        for page in plan.pages:
            for placement in page.placements:
                key = (*placement.copy.face_key, placement.face.value)
                self.uses[key] = self.uses.get(key, 0) + 1
        self.runs: dict[tuple, list] = {}   # face key -> [(shared by every copy, elements)]
        self.forms: dict[tuple, str] = {}   # (face key, run index) -> form name
        self.copy_numbers = CopyNumbers(catalog)

    def place(self, placement: Placement) -> None:
        key = (*placement.copy.face_key, placement.face.value)
        runs = self.runs.get(key)
        if runs is None:
            runs = self.runs[key] = self._runs(placement)
        shared = self.uses[key] > 1
        if shared:
            for index, (same, elements) in enumerate(runs):
                if same and (key, index) not in self.forms:
                    self._form((key, index), placement, elements)

        def draw() -> None:
            ctx = None
            for index, (same, elements) in enumerate(runs):
                if same and shared:
                    self.canvas.doForm(self.forms[key, index])
                else:
                    # A face printed once compresses better inline with its page.
                    ctx = ctx or self._context(placement)
                    draw_face(self.canvas, elements, ctx)

        _place(self.canvas, placement, draw)

    def _elements(self, placement: Placement) -> tuple[Element, ...]:
        piece, component = placement.copy.piece, placement.copy.component
        if placement.face is Face.FRONT:
            return piece.front or component.front
        return piece.back or component.back or ()

    def _runs(self, placement: Placement) -> list[tuple[bool, tuple[Element, ...]]]:
        """The face's elements in order, grouped into runs that every copy shares or not."""
        values = self._values(placement.copy)
        runs: list[tuple[bool, tuple[Element, ...]]] = []
        for element in self._elements(placement):
            same = not self.copy_numbers.varies(element, values)
            if runs and runs[-1][0] == same:
                runs[-1] = (same, runs[-1][1] + (element,))
            else:
                runs.append((same, (element,)))
        return runs

    def _form(self, name_key: tuple, placement: Placement, elements: tuple[Element, ...]) -> None:
        name = f"F{len(self.forms)}"
        w, h = placement.copy.component.size
        bleed = self.plan.options.bleed
        self.canvas.beginForm(name, -pt(bleed), -pt(bleed), pt(w + bleed), pt(h + bleed))
        draw_face(self.canvas, elements, self._context(placement))
        self.canvas.endForm()
        self.forms[name_key] = name

    def _values(self, copy: Copy) -> dict[str, Any]:
        return face_values(self.game, copy, self.catalog, dict(self.plan.options.params))

    def _context(self, placement: Placement) -> FaceContext:
        copy, face = placement.copy, placement.face
        component, piece = copy.component, copy.piece
        w, h = component.size
        options = self.plan.options
        return FaceContext(
            catalog=self.catalog,
            inks=Inks(self.game.palette, self.game.colors.get(copy.set) if copy.set else None,
                      options.ink_saver),
            width=w, height=h, bleed=options.bleed,
            values=self._values(copy),
            icon_dir=self.game.icon_dirs,
            where=f"{self.game.id} {component.id}/{piece.id} {face.value} ({self.catalog.lang})",
            qr_override=options.qr_url,
            colors=self.game.colors,
            filled=self.plan.filled,
            filled_qr=self.plan.filled_qr,
            filled_date=self.plan.filled_date,
        )


def _place(canvas: Canvas, placement: Placement, draw) -> None:
    trim, printed = placement.trim, placement.printed
    w, h = placement.copy.component.size
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(pt(printed.x), pt(printed.y), pt(printed.w), pt(printed.h))
    canvas.clipPath(clip, stroke=0, fill=0)
    x, y = trim.x, trim.y
    # The turned piece's own width and height as it lies on the sheet.
    sheet_w, sheet_h = (h, w) if placement.rotation in (90, 270) else (w, h)
    part = placement.part
    if part is not None:
        region = part.sheet_region
        rx = region.x if placement.face is Face.FRONT else sheet_w - region.x - region.w
        x, y = x - rx, y - region.y
    canvas.translate(pt(x), pt(y))
    if placement.rotation == 90:
        canvas.translate(pt(sheet_w), 0)
    elif placement.rotation == 180:
        canvas.translate(pt(sheet_w), pt(sheet_h))
    elif placement.rotation == 270:
        canvas.translate(0, pt(sheet_h))
    if placement.rotation:
        canvas.rotate(placement.rotation)
    draw()
    canvas.restoreState()


def _manifest_item(game: Game, placement: Placement) -> dict:
    copy = placement.copy
    box = placement.trim.rounded()
    item: dict[str, Any] = {
        "component": copy.component.id, "piece": copy.piece.id, "face": placement.face.value,
        "copy": copy.copy, "x": box.x, "y": box.y, "w": box.w, "h": box.h,
    }
    if placement.rotation:
        item["rotation"] = placement.rotation
    if copy.set:
        item["set"] = copy.set
        item["symbol"] = game.colors[copy.set].symbol
    for name, value in copy.piece.fields.items():
        if not name.startswith("_"):
            item[name] = value
    if placement.part is not None:
        region = placement.part.region.rounded()
        item["sheet_part"] = placement.part.label
        item["region"] = {"x": region.x, "y": region.y, "w": region.w, "h": region.h}
    return item


def render_kit(plan: KitPlan) -> tuple[bytes, dict]:
    """Draw every page of the plan; return the PDF bytes and the manifest."""
    game, options = plan.game, plan.options
    catalog = game.catalogs[options.lang]
    page_w, page_h = plan.page_size
    buffer = io.BytesIO()
    # The initial font must be our embedded one, or reportlab adds an
    # unembedded Helvetica to every page's resources.
    canvas = Canvas(buffer, pagesize=(pt(page_w), pt(page_h)), invariant=1,
                    pageCompression=1, lang=options.lang, initialFontName=font("regular"))
    title = catalog.get("game.name")
    canvas.setTitle(f"{title} — {catalog.get('pdf.kit')}")
    canvas.setAuthor(", ".join(game.designers))
    canvas.setSubject(catalog.get("pdf.subject", game=title, paper=options.paper.upper()))
    canvas.setCreator("pnp")
    canvas.setKeywords(f"{game.id} {options.lang} {options.paper}")
    canvas.setViewerPreference("PrintScaling", "None")
    if any(p.kind is PageKind.BACK for p in plan.pages):
        canvas.setViewerPreference("Duplex", "DuplexFlipLongEdge")
    faces = _Faces(canvas, plan, catalog)
    manifest_pages = []
    for page in plan.pages:
        if page.kind is PageKind.COVER:
            # A long cover goes on to more pages; they are all cover pages.
            for _ in range(draw_cover(canvas, plan, catalog) - 1):
                manifest_pages.append({"number": 0, "kind": page.kind.value, "items": []})
        else:
            _draw_page(canvas, faces, page, plan, catalog)
        manifest_pages.append({
            "number": page.number, "kind": page.kind.value,
            **({"component": page.component.id, "sheet": page.sheet, "sheets": page.sheets}
               if page.component else {}),
            "items": [_manifest_item(game, p) for p in page.placements],
        })
        canvas.showPage()
    canvas.save()
    for number, entry in enumerate(manifest_pages, start=1):
        entry["number"] = number
    manifest = {
        "game": game.id, "lang": options.lang, "paper": options.paper,
        "page_size_mm": [round(page_w, 3), round(page_h, 3)],
        "bleed_mm": options.bleed, "duplex": any(p.kind is PageKind.BACK for p in plan.pages),
        "back_offset_mm": list(options.back_offset), "ink_saver": options.ink_saver,
        "pages": manifest_pages,
    }
    return buffer.getvalue(), manifest


def _draw_page(canvas: Canvas, faces: _Faces, page: PagePlan, plan: KitPlan, catalog: Catalog) -> None:
    for placement in page.placements:
        faces.place(placement)
    draw_marks(canvas, page.marks)
    if page.placements and page.placements[0].part is not None:
        draw_seams(canvas, page, plan)
    draw_footer(canvas, plan, page, catalog)
