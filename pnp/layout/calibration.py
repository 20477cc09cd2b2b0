"""The printer alignment sheet: two pages printed on both sides of one sheet.

The front carries three targets (crosses); the back, right behind each one,
a pair of millimetre scales whose zero is where the cross should show
through. Held against the light, each cross reads off how far this printer
puts its backs from where they belong, already as the numbers to pass to
``--back-offset X,Y``: the reading is the shift that brings the backs back.

Why the reading is the offset: a back drawn at x lands at x + d on a printer
that drifts by d, so the cross, at x, shows at -d on a scale that landed
with its zero at x + d; backs drawn shifted by -d land where they belong.
Both scales count as seen on the back page: right and up are positive,
which is how ``--back-offset`` shifts back pages.
"""

from __future__ import annotations


from pnp.core.i18n import Catalog
from pnp.core.records import NamedTuple
from pnp.layout.furniture import footer_layout
from pnp.layout.imposition import MARGIN, bottom_frame
from pnp.layout.primitives import Ellipse, Line, Path, Primitive, Rect, Text, TextLine
from pnp.layout.text import Measurer, fit_or_fail
from pnp.template.model import PrintOptions
from pnp.core.units import POINTS_PER_MM, pt

SCALE_MM = 5.0       # each scale reads from -5 to +5 mm
ARM = 14.0           # half the length of a target's lines
OFFSET = 9.0         # how far from the target's centre each scale runs
INK = "#000000"
HAIR = 0.18          # mm: fine enough to read a half millimetre


class Target(NamedTuple):
    """A target's name and its centre on the front page, mm from the bottom-left."""

    name: str
    x: float
    y: float


def targets(page_w: float, page_h: float) -> tuple[Target, ...]:
    """Three targets: near the top left, the middle and the bottom right, so a
    printer that turns the paper shows it as different readings.

    >>> [(t.name, t.x, t.y) for t in targets(210, 297)]
    [('A', 45.0, 202.0), ('B', 105.0, 125.0), ('C', 165.0, 48.0)]
    """
    middle = page_w / 2
    top, bottom = page_h - 95.0, 48.0   # below the instructions, above the footer
    return (Target("A", middle - 60, top), Target("B", middle, (top + bottom) / 2),
            Target("C", middle + 60, bottom))


def calibration_pages(page_size: tuple[float, float], options: PrintOptions, catalog: Catalog,
                      measure: Measurer, *, footers: tuple[tuple[Primitive, ...], ...] | None = None,
                      command: str | None = None) -> tuple[tuple[Primitive, ...], tuple[Primitive, ...]]:
    """The front and the back page, each a tuple of primitives (mm from the top-left).

    ``footers``: the footers of the two pages when the sheet is the last of a kit
    (by default, its own: a file of two pages); ``command``: the command that renders the
    kit again (``pnp build`` for the shipped games; none for the sheet alone)."""
    page_w, page_h = page_size
    frame = bottom_frame(page_w, page_h)
    front: list[Primitive] = []
    back: list[Primitive] = []

    def text(page: list, words: str, x: float, y_down: float, *, size: float, style: str = "regular",
             width: float | None = None) -> float:
        """Words wrapped in ``width`` from (x, y_down); returns the y below them."""
        room = width if width is not None else page_w - 2 * MARGIN - (x - MARGIN)
        fitted = fit_or_fail(measure, words, style, size, width=pt(room), height=pt(200), wrap=True, leading=1.25,
                             min_size=size, where="calibration page")
        baseline = y_down + size * 0.8 / POINTS_PER_MM
        lines = []
        for line in fitted.lines:
            lines.append(TextLine(line, x, baseline))
            baseline += fitted.leading / POINTS_PER_MM
        page.append(Text(tuple(lines), style, fitted.size, INK))
        return baseline - size * 0.8 / POINTS_PER_MM + 1.5

    # Front: what this is and how to read it.
    y = text(front, catalog.get("calibrate.title"), MARGIN, MARGIN, size=16, style="black")
    paper = catalog.get(f"paper.{options.paper}")
    # A kit names the command that renders it again; the sheet alone, both kinds.
    for step in ("print", "hold", "read", "use" if command else "use_any"):
        y = text(front, "• " + catalog.get(f"calibrate.{step}", paper=paper, command=command),
                 MARGIN, y + 0.5, size=9.5)
    for target in targets(page_w, page_h):
        cx, cy = target.x, page_h - target.y
        front.append(Line(cx - ARM, cy, cx + ARM, cy, stroke=INK, width=HAIR * 2))
        front.append(Line(cx, cy - ARM, cx, cy + ARM, stroke=INK, width=HAIR * 2))
        front.append(Ellipse(cx, cy, 3.0, 3.0, stroke=INK, width=HAIR * 2))
        text(front, target.name, cx - ARM - 6, cy - ARM - 1, size=14, style="black", width=10)

    # Back: behind each target (mirrored for a long-edge flip), its two scales.
    y = text(back, catalog.get("calibrate.back_title"), MARGIN, MARGIN, size=12, style="black")
    text(back, catalog.get("calibrate.back_note"), MARGIN, y + 0.5, size=9.5)
    for target in targets(page_w, page_h):
        cx, cy = page_w - target.x, page_h - target.y
        back += _scale(cx, cy - OFFSET, horizontal=True, measure=measure)
        back += _scale(cx + OFFSET, cy, horizontal=False, measure=measure)
        back.append(Text((TextLine(f"{target.name}  X", cx - SCALE_MM - 12, cy - OFFSET - 1.0),), "black",
                         9, INK))
        back.append(Text((TextLine(f"{target.name}  Y", cx + OFFSET - 4, cy + SCALE_MM + 8),), "black",
                         9, INK))
        # Where the cross should show through, for a printer that keeps its backs in place.
        back.append(Rect(cx - 0.6, cy - 0.6, 1.2, 1.2, fill=INK))

    if footers is None:
        title = catalog.get("calibrate.title")
        footers = tuple(footer_layout(frame, page_size, options, catalog, measure=measure, page=n, pages=2,
                                      title=title)
                        for n in (1, 2))
    return (*front, *footers[0]), (*back, *footers[1])


def _scale(x: float, y: float, horizontal: bool, measure: Measurer) -> list[Primitive]:
    """A ruler from -5 to +5 mm centred on (x, y) (top-left frame): a tick every
    half millimetre, longer every millimetre, numbered every two. Positive
    values to the right, or upwards (y downwards on the page: up is minus)."""
    out: list[Primitive] = []
    segments = []
    steps = int(SCALE_MM * 2)
    for k in range(-steps, steps + 1):
        value = k / 2
        length = 2.6 if k % 2 == 0 else 1.4
        if k % 4 == 0:
            length = 3.6
        if horizontal:
            segments.append(((x + value, y), (x + value, y - length)))
        else:
            segments.append(((x, y - value), (x + length, y - value)))
        if k % 4 == 0:
            # Numbers every 2 mm, on alternate sides of the scale so they never touch.
            label = (f"{value:+.0f}" if value else "0").replace("-", "−")
            width = measure.width(label, "regular", 6.5) / POINTS_PER_MM
            outside = (k // 4) % 2 == 0
            if horizontal:
                baseline = y - 4.4 if outside else y + 3.0
                out.append(Text((TextLine(label, x + value - width / 2, baseline),), "regular", 6.5, INK))
            else:
                left = x + 4.4 if outside else x - 1.2 - width
                out.append(Text((TextLine(label, left, y - value + 0.8),), "regular", 6.5, INK))
    if horizontal:
        segments.append(((x - SCALE_MM, y), (x + SCALE_MM, y)))
    else:
        segments.append(((x, y - SCALE_MM), (x, y + SCALE_MM)))
    out.insert(0, Path(tuple(segments), closed=False, stroke=INK, width=HAIR))
    return out
