"""One piece face alone on its own page: what `pnp export` rasterises and prints.

Everything that draws a single piece for the exports goes through
:func:`faces_pdf`. Its faces are resolved as a kit's are and placed with the
kit renderer's own placement (no cover, no footer, no crop marks), so an
exported face is the very drawing of the kit's PDF.
"""

from __future__ import annotations

import io

from reportlab.pdfgen.canvas import Canvas

from pnp.core.records import NamedTuple
from pnp.layout.imposition import Box
from pnp.layout.plan import Placement, resolve_placements
from pnp.template.model import Copy, Face, Game, PrintOptions
from pnp.render.document import CLIPPED_IN_KITS, Drawings, place
from pnp.render.fonts import MEASURER, font
from pnp.render.reportlab_internals import page_ops
from pnp.core.units import pt


class FacePage(NamedTuple):
    """One page: a face of one copy, its trim on the page and the bleed around it."""

    copy: Copy
    face: Face
    trim: tuple[float, float]   # mm; the face is stretched to it (a service's size may differ a little)
    bleed: tuple[float, float]  # mm left and right, top and bottom of the trim
    turned: bool = False        # the piece lies a quarter turn round on the page

    @property
    def page_size(self) -> tuple[float, float]:
        (w, h), (bx, by) = self.trim, self.bleed
        return w + 2 * bx, h + 2 * by


class FacesPdf(NamedTuple):
    pdf: bytes
    #: For each page, the first page that looks exactly like it (itself if none
    #: does): identical copies are rasterised once.
    same_as: tuple[int, ...]
    #: Each picture the faces place, with its resolution (pnp.layout.kinds.image.Placed).
    pictures: tuple = ()


def faces_pdf(game: Game, options: PrintOptions, pages: list[FacePage],
              clipped: tuple[str, ...] = CLIPPED_IN_KITS, *, image_dpi: float | None = None) -> FacesPdf:
    """A PDF with one page per face: page = trim + bleed, /TrimBox and /BleedBox set,
    no marks. ``options`` gives the language, ink saver, QR address and settings;
    faces of the ``clipped`` shapes are clipped to their trim grown by the bleed. Pictures
    keep at most ``image_dpi`` (the game's own by default; an export's images, theirs)."""
    # The bleed a face is drawn with, in the piece's own mm: enough for every page.
    bleed = max((_bleed_in_piece_mm(p) for p in pages), default=0.0)
    # Faces are resolved together, so the runs copies share are drawn once, as forms.
    placed: list = []
    placements, uses = resolve_placements(game, options._replace(bleed=bleed, crop_marks=False),
                                          [_placement(p) for p in pages], measure=MEASURER, pictures=placed)
    buffer = io.BytesIO()
    first = pages[0].page_size if pages else (10.0, 10.0)
    canvas = Canvas(buffer, pagesize=(pt(first[0]), pt(first[1])), invariant=1,
                    pageCompression=1, lang=options.lang, initialFontName=font("regular"))
    catalog = game.catalogs[options.lang]
    canvas.setTitle(catalog.get("game.name"))
    canvas.setCreator("pnp")
    # A shape is clipped to its outline grown by the least bleed of a page: a hex's page has
    # more on its left and right, where its points reach.
    grow = min((min(_bleeds_in_piece_mm(p)) for p in pages), default=0.0)
    drawings = Drawings(canvas, uses, bleed, clipped, grow=grow)
    drawings.store_pictures(placed, image_dpi or game.image_dpi)
    first_with: dict[tuple, int] = {}
    same_as = []
    for index, (page, placement) in enumerate(zip(pages, placements)):
        page_w, page_h = page.page_size
        canvas.setPageSize((pt(page_w), pt(page_h)))
        (bx, by), (trim_w, trim_h) = page.bleed, page.trim
        canvas.setTrimBox((pt(bx), pt(by), pt(bx + trim_w), pt(by + trim_h)))
        canvas.setBleedBox((0, 0, pt(page_w), pt(page_h)))
        sx, sy = _stretch(page)
        canvas.saveState()
        canvas.scale(sx, sy)
        place(canvas, placement, drawings)
        canvas.restoreState()
        # Two pages of one size with the same drawing operators look the same:
        # copies of a face share its form, so only what differs (a number) shows here.
        drawn = (page.page_size, page.trim, "\n".join(page_ops(canvas)))
        same_as.append(first_with.setdefault(drawn, index))
        canvas.showPage()
    canvas.save()
    return FacesPdf(buffer.getvalue(), tuple(same_as), tuple(placed))


def _piece_on_page(page: FacePage) -> tuple[float, float]:
    w, h = page.copy.component.size
    return (h, w) if page.turned else (w, h)


def _stretch(page: FacePage) -> tuple[float, float]:
    w, h = _piece_on_page(page)
    return page.trim[0] / w, page.trim[1] / h


def _bleeds_in_piece_mm(page: FacePage) -> tuple[float, float]:
    sx, sy = _stretch(page)
    return page.bleed[0] / sx, page.bleed[1] / sy


def _bleed_in_piece_mm(page: FacePage) -> float:
    return max(_bleeds_in_piece_mm(page))


def _placement(page: FacePage) -> Placement:
    """The face in the page's stretched coordinates: trim at the bleed, clipped to the page."""
    sx, sy = _stretch(page)
    w, h = _piece_on_page(page)
    left, bottom = page.bleed[0] / sx, page.bleed[1] / sy
    trim = Box(left, bottom, w, h)
    printed = Box(0.0, 0.0, w + 2 * left, h + 2 * bottom)
    return Placement(page.copy, page.face, trim, printed, rotation=90 if page.turned else 0)
