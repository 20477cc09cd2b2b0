"""How a home printer prints a kit, to check what a player can see: each back of a hidden deck
printed a millimetre off (differently on every sheet) and nothing printed in the outer 5 mm of the
paper. tests/test_fairness.py and tests/test_cutter.py check every kit with these.

A home printer lands the back side up to 1 mm off its front, differently on every sheet, and
prints nothing in the outer 5 mm of the paper. So the back pages are rendered (PDFium, 127 dpi),
that outer band left white, each back of every hidden deck is cut out along its front's trim
(from the manifest) with the back page shifted 1 mm each way, and the backs of a deck are
compared: they must all look alike, their outer 4 mm one colour.
"""

from __future__ import annotations

from pnp.layout.bounds import QUIET_BAND
from pnp.layout.imposition import PRINTABLE

PX = 5                                # pixels a millimetre: 127 dpi
SHIFTS = ((1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0), (0.0, 0.0))
#: Two cut-outs of the same back differ by no more than this in any pixel and channel
#: (each is rendered on a pixel grid that starts at its own trim, so only rounding differs).
ALIKE = 8
#: The pixels of a quiet band differ from each other by no more than this.
QUIET = 8
#: What many home printers leave unprinted at each edge of the paper, mm.
BLIND = 5.0


def render_region(page, page_h: float, x: float, y: float, w: float, h: float, px: float):
    """The part of a PDF page from (x, y) (its bottom-left, mm from the page's) w x h mm,
    rendered by PDFium at ``px`` pixels a mm on a grid that starts exactly at its corner."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    width, height = max(1, int(w * px)), max(1, int(h * px))
    bitmap = pdfium.PdfBitmap.new_native(width, height, raw.FPDFBitmap_BGR)
    bitmap.fill_rect((255, 255, 255, 255), 0, 0, width, height)
    scale = px * 25.4 / 72                     # pixels a PDF point
    left = x * 72 / 25.4                       # points from the page's left edge
    below_top = (page_h - y - h) * 72 / 25.4   # and down from its top edge
    matrix = raw.FS_MATRIX(scale, 0, 0, scale, -left * scale, -below_top * scale)
    raw.FPDF_RenderPageBitmapWithMatrix(bitmap.raw, page.raw, matrix, raw.FS_RECTF(0, 0, width, height),
                                        raw.FPDF_ANNOT)
    return bitmap.to_pil()


class Backs:
    """The hidden decks of one rendered kit: each back, as printed, cut out along its trim."""

    def __init__(self, data: bytes, manifest: dict) -> None:
        import pypdfium2 as pdfium

        self.manifest = manifest
        self.document = pdfium.PdfDocument(data)
        self.page_w, self.page_h = manifest["page_size_mm"]
        #: deck (component, set) -> [(page number, back item)]
        self.decks: dict[tuple, list[tuple[int, dict]]] = {}
        for page in manifest["pages"]:
            if page["kind"] not in ("back", "fold"):
                continue
            for item in page["items"]:
                if item.get("hidden") and item["face"] == "back":
                    self.decks.setdefault((item["component"], item.get("set")), []).append(
                        (page["number"], item))
        self._rendered: dict[tuple, object] = {}

    def _around(self, number: int, item: dict):
        """The back and 1 mm of what is printed round it, rendered on a pixel grid whose
        corner is 1 mm from the trim's, as a home printer prints it: nothing in the outer
        5 mm of the paper (:data:`BLIND`). Every back of a deck is cut alike."""
        key = (number, item["x"], item["y"])
        if key not in self._rendered:
            x, y, w, h = item["x"] - 1, item["y"] - 1, item["w"] + 2, item["h"] + 2
            image = render_region(self.document[number - 1], self.page_h, x, y, w, h, PX)
            self._rendered[key] = blind_band(image, self.page_w, self.page_h, x, y, w, h)
        return self._rendered[key]

    def crop(self, number: int, item: dict, shift: tuple[float, float]):
        """The back cut out along its front's trim, the back page printed ``shift`` mm off
        (x right, y up), turned back to the piece's own orientation."""
        from PIL import Image

        dx, dy = shift
        left, top = round((1 - dx) * PX), round((1 + dy) * PX)
        width, height = int(item["w"] * PX), int(item["h"] * PX)
        piece = self._around(number, item).crop((left, top, left + width, top + height))
        turn = {90: Image.Transpose.ROTATE_270, 180: Image.Transpose.ROTATE_180,
                270: Image.Transpose.ROTATE_90}.get(item.get("rotation", 0) % 360)
        return piece.transpose(turn) if turn is not None else piece


def blind_band(image, page_w: float, page_h: float, x: float, y: float, w: float, h: float):
    """A rendered part of a page (from (x, y), its bottom-left, w x h mm) with what lies in
    the outer :data:`BLIND` mm of the paper left white, as many home printers leave it."""
    from PIL import ImageDraw

    draw = ImageDraw.Draw(image)
    left, right = (BLIND - x) * PX, (page_w - BLIND - x) * PX          # pixels from the image's left
    top, bottom = (y + h - (page_h - BLIND)) * PX, (y + h - BLIND) * PX  # and from its top
    width, height = image.size
    for box in ((0, 0, left, height), (right, 0, width, height), (0, 0, width, top), (0, bottom, width, height)):
        if box[2] > box[0] and box[3] > box[1]:
            draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=(255, 255, 255))
    return image


def unlike(a, b) -> int:
    """The largest difference between two cut-outs of a back, in any pixel and channel, that a
    shift of one pixel does not explain: a shape's edge that rounding put on the next pixel in
    one of them is the same back; paper or a neighbour's back showing along an edge is not (it
    has nothing like it within a pixel in the other)."""
    from PIL import ImageChops, ImageFilter

    def beyond(one, other) -> int:
        low, high = other.filter(ImageFilter.MinFilter(3)), other.filter(ImageFilter.MaxFilter(3))
        over, under = ImageChops.subtract(one, high), ImageChops.subtract(low, one)
        return max(high_value for image in (over, under) for _, high_value in image.getextrema())

    return max(beyond(a, b), beyond(b, a))


def deck_problems(backs: Backs) -> list[str]:
    """Everything that tells the backs of a hidden deck apart, printed 1 mm off each way:
    each back, cut along its front's trim, must look like the deck's first (a
    neighbour's back creeping in, or paper left bare, breaks it), and its outer
    4 mm must be one colour."""
    problems = []
    for deck, placed in backs.decks.items():
        for shift in SHIFTS:
            first = backs.crop(*placed[0], shift)
            for number, item in placed[1:]:
                other = backs.crop(number, item, shift)
                worst = unlike(first, other)
                if worst > ALIKE:
                    problems.append(f"{deck} shifted {shift} mm: page {number}, {item['piece']} "
                                    f"{item['copy']} differs from the first by {worst}")
        for number, item in placed:
            problems += [f"{deck}: page {number}, {item['piece']} {item['copy']}: {p}"
                         for p in band_problems(backs.crop(number, item, (0.0, 0.0)))]
    return problems


def band_problems(back) -> list[str]:
    """Whether the outer 4 mm of a cut-out back, inside its trim, is one colour."""
    width, height = back.size
    band = int(QUIET_BAND * PX) - 1   # the last pixel may be softened by what begins at 4 mm
    problems = []
    for name, box in (("left", (0, 0, band, height)), ("right", (width - band, 0, width, height)),
                      ("top", (0, 0, width, band)), ("bottom", (0, height - band, width, height))):
        spread = max(high - low for low, high in back.crop(box).getextrema())
        if spread > QUIET:
            problems.append(f"its outer {QUIET_BAND:g} mm on the {name} is not one colour ({spread})")
    return problems


#: Rendering rounds a shape's edge to the nearest pixel: the outer 5 mm are looked at
#: less this much.
RASTER = 0.3


def edge_ink(data: bytes, manifest: dict) -> list[str]:
    """Every page that prints something other than a piece's bleed in the outer 5 mm of the
    paper: a character, a mark, the bar, a fold line. Each page's four edge strips are
    rendered (PDFium, 100 dpi); what lies within a bleed's reach of a piece is left out."""
    import pypdfium2 as pdfium
    from PIL import Image, ImageDraw

    page_w, page_h = manifest["page_size_mm"]
    bleed = manifest["bleed_mm"]
    px = 100 / 25.4
    band = PRINTABLE - RASTER
    strips = {"left": (0, 0, band, page_h), "right": (page_w - band, 0, band, page_h),
              "bottom": (0, 0, page_w, band), "top": (0, page_h - band, page_w, band)}
    problems = []
    document = pdfium.PdfDocument(data)
    for page in manifest["pages"]:
        if page["kind"] == "blank":
            continue
        pdf_page = document[page["number"] - 1]
        for name, (x, y, w, h) in strips.items():
            image = render_region(pdf_page, page_h, x, y, w, h, px).convert("L")
            mask = ImageDraw.Draw(image)
            for item in page["items"]:   # a piece's bleed may run to the paper's edge
                left, right = (item["x"] - bleed - x) * px, (item["x"] + item["w"] + bleed - x) * px
                top = (y + h - item["y"] - item["h"] - bleed) * px
                bottom = (y + h - item["y"] + bleed) * px
                mask.rectangle((left - 1, top - 1, right + 1, bottom + 1), fill=255)
            low, _ = image.getextrema()
            if low < 250:
                box = Image.eval(image, lambda v: 255 if v < 250 else 0).getbbox()
                problems.append(f"page {page['number']} ({page['kind']}) prints within {PRINTABLE:g} mm of "
                                f"its {name} edge, at {box[0] / px + x:.1f}, {page_h - y - h + box[1] / px:.1f} mm "
                                "from the top-left")
    return problems
