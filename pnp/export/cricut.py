"""`pnp export --format cricut`: pictures for Cricut Design Space's Print Then Cut.

Design Space prints a picture with its own registration frame around it and
cuts inside it; the picture may be at most 9.25 x 6.75 in, either way round
(Cricut's "Print Then Cut" size limit for Letter and A4 paper). Each component's
fronts are laid out as a kit's sheets are (:func:`pnp.layout.sheets.pack`),
in that area, pieces at least :data:`~pnp.layout.cutter.PIECE_GAP` apart with
their bleed between them: each such sheet is one RGB PNG at 300 dpi, cropped
to its pieces and their bleed (a whole number of pixels), and an SVG of the
same name and size holding each piece's outline (:mod:`pnp.layout.outline`) in
the same frame, to upload together. Print Then Cut prints one side only: the
backs are not exported; pages read as printed (a scoresheet) and pieces larger
than the area are skipped, each with its reason.
"""

from __future__ import annotations

import math

from pnp.core.records import NamedTuple
from pnp.export.raster import Job, rasterise
from pnp.layout.cutter import PIECE_GAP, cut_svg
from pnp.layout.imposition import Box, Frame
from pnp.layout.outline import outline_of
from pnp.layout.kinds.image import enlarged_pictures
from pnp.layout.plan import Placement, copies, resolve_placements
from pnp.layout.sheets import Item, pack, runs_of
from pnp.template.model import Component, Face, Game, PrintOptions
from pnp.core.units import MM_PER_INCH

#: Design Space's Print Then Cut area, inches (and mm).
AREA_IN = (9.25, 6.75)
AREA_MM = (AREA_IN[0] * MM_PER_INCH, AREA_IN[1] * MM_PER_INCH)
DPI = 300


class Picture(NamedTuple):
    """One Print Then Cut picture: its name, size and what is on it (mm from its bottom-left)."""

    name: str
    size_mm: tuple[float, float]
    pixels: tuple[int, int]
    placements: tuple[Placement, ...]


def fits(component: Component, bleed: float) -> bool:
    """Whether one piece and its bleed fit the area, either way round."""
    w, h = component.size
    long, short = max(AREA_MM), min(AREA_MM)
    return (max(w, h) + 2 * bleed <= long + 1e-6 and min(w, h) + 2 * bleed <= short + 1e-6)


def pictures(component: Component, bleed: float) -> list[Picture]:
    """A component's fronts laid out on as few pictures as the area holds."""
    frames = [Frame(Box(bleed, bleed, w - 2 * bleed, h - 2 * bleed), Box(0.0, 0.0, w, h), "bottom",
                    Box(0.0, 0.0, w, h), gap=PIECE_GAP) for w, h in (AREA_MM, AREA_MM[::-1])]
    sheets = pack(runs_of([Item(copy) for copy in copies(component)]), frames, bleed)
    out = []
    step = MM_PER_INCH / DPI
    for number, sheet in enumerate(sheets, start=1):
        left = min(p.printed.x for p in sheet.placed)
        bottom = min(p.printed.y for p in sheet.placed)
        # Whole pixels, so the PNG and the SVG are the same size to the micrometre.
        px = (math.ceil((max(p.printed.right for p in sheet.placed) - left) / step - 1e-6),
              math.ceil((max(p.printed.top for p in sheet.placed) - bottom) / step - 1e-6))
        size = (px[0] * step, px[1] * step)
        placements = tuple(Placement(p.item.copy, Face.FRONT, _moved(p.trim, left, bottom),
                                     _moved(p.printed, left, bottom), rotation=p.rotation) for p in sheet.placed)
        name = f"{component.id}/{component.id}-{number}" if len(sheets) > 1 else f"{component.id}/{component.id}"
        out.append(Picture(name, size, px, placements))
    return out


def _moved(box: Box, left: float, bottom: float) -> Box:
    return Box(box.x - left, box.y - bottom, box.w, box.h)


def outlines_svg(picture: Picture) -> bytes:
    """The picture's cut file: each piece's outline where the picture shows it."""
    w, h = picture.size_mm
    return cut_svg(w, h, [(outline_of(p.copy.component), p.rotation, p.trim.x, h - p.trim.top)
                          for p in picture.placements])


def pictures_pdf(game: Game, options: PrintOptions, shown: list[Picture]) -> tuple[bytes, list]:
    """One PDF page per picture, each piece drawn as the kit draws it (render.document.place), and
    the designer's pictures those pieces place (pnp.layout.kinds.image.Placed)."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from pnp.render.document import Drawings, place
    from pnp.render.fonts import MEASURER, font
    from pnp.core.units import pt

    flat = [p for picture in shown for p in picture.placements]
    art: list = []
    resolved, uses = resolve_placements(game, options, flat, measure=MEASURER, pictures=art)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(pt(shown[0].size_mm[0]), pt(shown[0].size_mm[1])), invariant=1,
                    pageCompression=1, lang=options.lang, initialFontName=font("regular"))
    canvas.setCreator("pnp")
    drawings = Drawings(canvas, uses, options.bleed)
    drawings.store_pictures(art, DPI)
    placed = iter(resolved)
    for picture in shown:
        canvas.setPageSize((pt(picture.size_mm[0]), pt(picture.size_mm[1])))
        for _ in picture.placements:
            place(canvas, next(placed), drawings)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue(), art


class CricutFiles(NamedTuple):
    """What :func:`cricut_files` wrote and left out."""

    sizes: list[str]                        # each picture's name, pieces and size in pixels
    skipped: list[tuple[Component, str]]    # each component left out, with its reason
    warnings: list[str]                     # each designer's picture the images enlarge


def cricut_files(game: Game, options: PrintOptions, components: list[Component], add, *,
                 progress=None) -> CricutFiles:
    """Write every picture and its SVG through ``add(relative, bytes)``; the sizes shown, the
    components skipped, each with its reason, and the designer's pictures the images enlarge."""
    shown: list[Picture] = []
    skipped: list[tuple[Component, str]] = []
    # The command that renders this kit (a template by its file): what a skipped piece is printed with.
    command = game.command or f"pnp render {game.id}"
    for component in components:
        if not component.cut:
            skipped.append((component, f"{component.id}: a page read as it is printed, not cut "
                                       f"(print it with {command} --component {component.id})"))
        elif not fits(component, options.bleed):
            w, h = component.size
            skipped.append((component, f"{component.id}: {w:g} x {h:g} mm with its bleed is larger than "
                                       f"Print Then Cut's {AREA_IN[0]:g} x {AREA_IN[1]:g} in (print it on "
                                       f"paper with {command} --component {component.id})"))
        else:
            shown += pictures(component, options.bleed)
    if not shown:
        return CricutFiles([], skipped, [])
    pdf, art = pictures_pdf(game, options, shown)
    jobs = [Job(index, picture.pixels, True, DPI) for index, picture in enumerate(shown)]
    done = (lambda n: progress(n, len(jobs))) if progress else None
    for job, data in rasterise(pdf, jobs, done):
        picture = shown[job.page]
        add(f"{picture.name}.png", data)
        add(f"{picture.name}.svg", outlines_svg(picture))
    sizes = [f"{p.name.rpartition('/')[2]} {len(p.placements)} pieces {p.pixels[0]} x {p.pixels[1]} px"
             for p in shown]
    return CricutFiles(sizes, skipped, enlarged_pictures(art, {(use.piece, use.face): DPI for use in art}))
