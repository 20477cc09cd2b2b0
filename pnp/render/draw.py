"""Draw primitives on a reportlab canvas: one small function per kind of primitive.

Primitives are in mm from the top-left of their frame, y downwards; here they
become points from the frame's bottom-left (``height`` is the frame's height
in mm). Simple shapes set every colour and width they use, so they need no
saved graphics state of their own (saving it costs as much as drawing);
shapes that change the line cap, join or dash keep the change to themselves.

The operators written are exactly those of reportlab's canvas calls; a
:class:`Pen` records each shape's once and writes the recording again
wherever the same shape is drawn (see its docstring).
"""

from __future__ import annotations

import math
from typing import Callable, Mapping
from weakref import WeakKeyDictionary

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from pnp.core.records import NamedTuple
from pnp.layout.colors import luminance
from pnp.layout.kinds.image import Picture
from pnp.layout.primitives import QR, Ellipse, Icon, Line, Moved, Path, Primitive, Rect, Symbol, Text
from pnp.render.colors import fill_ops, set_fill, set_stroke, stroke_ops
from pnp.render.fonts import font as font_name
from pnp.render.reportlab_internals import (escaper, font_characters, font_chunks, fp_str, glyph_codes, page_ops,
                                            restore_state_record, save_state_record, subset_name, use_form,
                                            writes_text_as_drawn)
from pnp.render.shapes import symbol_path
from pnp.core.units import pt
from pnp.core.qr import dark_runs, modules as qr_modules


class Pen:
    """Writes primitives on one canvas, and keeps what it wrote to write it again.

    Drawing through reportlab's canvas methods costs far more than the PDF
    operators they write: a frame of the same size in every card's own colour
    is the same operators after its colour. So each shape's operators are
    *recorded* the first time, from reportlab's own calls, and copied after
    that: a recording is keyed on the function that draws it and every one of
    its arguments, and depends on nothing else (the canvas is drawn bottom-up
    and never changes its fill rule). Colours are set by operators of their
    own, cached per colour. Text is written as ``drawString`` writes it, from
    the font's own subsets, without measuring it again; a text whose every
    character the font's first subset already holds is written from a table of
    those characters' codes (:class:`_Written`), without going through the font.
    """

    __slots__ = ("canvas", "recorded", "tf", "fonts", "written", "direct_text", "pictures")

    def __init__(self, canvas: Canvas, pictures=None) -> None:
        self.canvas = canvas
        #: The document's pictures (pnp.render.pictures.PictureStore), made on first use if not given.
        self.pictures = pictures
        self.recorded: dict[tuple, str] = {}
        self.tf: dict[float, str] = {}      # size -> "16 Tf 19.2 TL"
        self.fonts: dict[str, object] = {}  # style -> the registered TrueType font
        self.written: dict[str, _Written] = {}   # style -> the characters its first subset holds
        # Text is written directly only where drawString would write it plainly.
        self.direct_text = writes_text_as_drawn(canvas)

    def put(self, draw: Callable, *args) -> None:
        """Write what ``draw(canvas, *args)`` writes, recorded once per set of arguments."""
        key = (draw, *args)
        ops = self.recorded.get(key)
        if ops is None:
            ops = _record(self.canvas, draw, args)
            if len(self.recorded) < RECORDED_LIMIT:
                self.recorded[key] = ops
        if ops:
            page_ops(self.canvas).append(ops)

    def draw(self, primitives, height: float) -> None:
        """Draw primitives in stacking order (see :func:`draw_primitives`)."""
        for primitive in primitives:
            DRAWERS[type(primitive)](self, primitive, height)

    def text_ops(self, style: str, size: float, text: str) -> str:
        """The operators that show ``text``, as reportlab's text object writes them
        (font subset, size and leading, then the encoded string)."""
        font = self.fonts.get(style)
        if font is None:
            font = self.fonts[style] = pdfmetrics.getFont(font_name(style))
        tf = self.tf.get(size)
        if tf is None:
            tf = self.tf[size] = f"{fp_str(size)} Tf {fp_str(size * 1.2)} TL"
        written = self.written.get(style)
        if written is not None and text and written.characters.issuperset(text):
            return f"{written.subset} {tf} ({text.translate(written.escaped)}) Tj"
        canvas = self.canvas
        escape = escaper(canvas)
        parts = []
        current = -1
        for subset, chunk in font_chunks(font, text, canvas):
            if subset != current:
                parts.append(f"{subset_name(font, subset, canvas)} {tf}")
                current = subset
            parts.append(f"({escape(chunk)}) Tj")
        if written is None:
            written = self.written[style] = _Written(set(), {}, subset_name(font, 0, canvas))
        written.learn(text, glyph_codes(font, canvas), font_characters(font), escape)
        return " ".join(parts)


class _Written(NamedTuple):
    """The characters of one font that its first subset in a document already holds, each
    with its code written as a text operator writes it (escaped): a text made only of
    them is one run of that subset, its bytes those codes, as the font would split it."""

    characters: set[str]
    escaped: dict[int, str]      # code point -> its escaped byte, for str.translate
    subset: str                  # the first subset's name ("/F1+0")

    def learn(self, text: str, codes: Mapping[int, int], glyphs, escape: Callable[[bytes], str]) -> None:
        """Take in the characters of ``text``, just written by the font (which gave each a code)."""
        for char in set(text) - self.characters:
            point = ord(char)
            written_as = 32 if point == 0xA0 else point   # the font writes a no-break space as a space
            code = codes.get(written_as)
            if code is None:
                if written_as in glyphs:
                    continue   # not given a code: nothing to learn
                code = 0       # a character the font has no glyph for is written as code 0
            if code < 256:
                self.characters.add(char)
                self.escaped[point] = escape(bytes((code,)))


#: Recordings kept per pen: a deck of shapes all different keeps the first ones.
RECORDED_LIMIT = 4096


def _record(canvas: Canvas, draw: Callable, args: tuple) -> str:
    """The operators ``draw(canvas, *args)`` writes, taken back out of the page;
    the canvas's own record of its state is left as it was."""
    code = page_ops(canvas)
    code.append("")  # a fence: a first transform must not merge into what came before
    start = len(code)
    depth = save_state_record(canvas)
    try:
        draw(canvas, *args)
    finally:
        # A recording may save a state that the drawing after it restores
        # (a piece's clip): the canvas's own record is put back as it was.
        restore_state_record(canvas, depth)
    ops = "\n".join(code[start:])
    del code[start - 1:]
    return ops


def draw_primitives(canvas: Canvas, primitives, height: float) -> None:
    """Draw primitives in stacking order, in a frame ``height`` mm tall whose
    bottom-left is the canvas origin (with a pen of their own: a document
    drawn page by page keeps one :class:`Pen` for all its pages)."""
    Pen(canvas).draw(primitives, height)


def draw_moved(pen: Pen, m: Moved, height: float) -> None:
    code = page_ops(pen.canvas)
    code.append("q")
    pen.put(_translate, m.dx, m.dy)
    pen.draw(m.primitives, height)
    code.append("Q")


def _translate(canvas: Canvas, dx: float, dy: float) -> None:
    canvas.translate(pt(dx), -pt(dy))


def draw_rect(pen: Pen, r: Rect, height: float) -> None:
    code = page_ops(pen.canvas)
    if r.dash:
        code.append("q")
    if r.fill:
        code.append(fill_ops(r.fill))
    if r.stroke:
        code.append(stroke_ops(r.stroke))
    shape = (r.x, r.y, r.w, r.h, r.radius, r.width, r.dash, r.stroke is not None, r.fill is not None)
    pen.put(_rect, shape, height)   # a _RectShape's values: the record is made only to record them
    if r.dash:
        code.append("Q")


class _RectShape(NamedTuple):
    """What a rectangle's operators depend on: its colours are set by operators of their own.

    The pen's recordings are keyed on these values as a plain tuple, in this order (a record
    made for every shape drawn would cost a call each); the record reads them when a shape's
    operators are recorded. So are the other shapes' below."""

    x: float
    y: float
    w: float
    h: float
    radius: float
    width: float
    dash: tuple[float, ...]
    stroked: bool
    filled: bool


def _set_line(canvas: Canvas, width: float, dash: tuple[float, ...]) -> None:
    """A stroke's width and dash pattern (mm), set as reportlab sets them."""
    canvas.setLineWidth(pt(width))
    if dash:
        canvas.setDash([pt(d) for d in dash])


def _rect(canvas: Canvas, shape: tuple, height: float) -> None:
    r = _RectShape._make(shape)
    if r.stroked:
        _set_line(canvas, r.width, r.dash)
    x, y, w, h = pt(r.x), pt(height - r.y - r.h), pt(r.w), pt(r.h)
    if r.radius > 0:
        canvas.roundRect(x, y, w, h, radius=pt(r.radius), stroke=int(r.stroked), fill=int(r.filled))
    else:
        canvas.rect(x, y, w, h, stroke=int(r.stroked), fill=int(r.filled))


def draw_ellipse(pen: Pen, e: Ellipse, height: float) -> None:
    code = page_ops(pen.canvas)
    if e.dash:
        code.append("q")
    if e.fill:
        code.append(fill_ops(e.fill))
    if e.stroke:
        code.append(stroke_ops(e.stroke))
    shape = (e.cx, e.cy, e.rx, e.ry, e.width, e.dash, e.stroke is not None, e.fill is not None)
    pen.put(_ellipse, shape, height)   # an _EllipseShape's values
    if e.dash:
        code.append("Q")


class _EllipseShape(NamedTuple):
    """What an ellipse's operators depend on (its colours apart)."""

    cx: float
    cy: float
    rx: float
    ry: float
    width: float
    dash: tuple[float, ...]
    stroked: bool
    filled: bool


def _ellipse(canvas: Canvas, shape: tuple, height: float) -> None:
    e = _EllipseShape._make(shape)
    if e.stroked:
        _set_line(canvas, e.width, e.dash)
    cx, cy, rx, ry = pt(e.cx), pt(height - e.cy), pt(e.rx), pt(e.ry)
    canvas.ellipse(cx - rx, cy - ry, cx + rx, cy + ry, stroke=int(e.stroked), fill=int(e.filled))


def draw_line(pen: Pen, line: Line, height: float) -> None:
    code = page_ops(pen.canvas)
    code.append("q")
    code.append(stroke_ops(line.stroke))
    shape = (line.x1, line.y1, line.x2, line.y2, line.width, line.dash, line.cap)
    pen.put(_line, shape, height)   # a _LineShape's values
    code.append("Q")


class _LineShape(NamedTuple):
    """What a line's operators depend on (its colour apart)."""

    x1: float
    y1: float
    x2: float
    y2: float
    width: float
    dash: tuple[float, ...]
    cap: int


def _line(canvas: Canvas, shape: tuple, height: float) -> None:
    line = _LineShape._make(shape)
    _set_line(canvas, line.width, line.dash)
    if line.cap:
        canvas.setLineCap(line.cap)
    canvas.line(pt(line.x1), pt(height - line.y1), pt(line.x2), pt(height - line.y2))


def draw_path(pen: Pen, p: Path, height: float) -> None:
    code = page_ops(pen.canvas)
    code.append("q")
    if p.fill:
        code.append(fill_ops(p.fill))
    if p.stroke:
        code.append(stroke_ops(p.stroke))
    shape = (p.segments, p.closed, p.width, p.dash, p.join, p.cap, p.stroke is not None, p.fill is not None)
    pen.put(_path, shape, height)   # a _PathShape's values
    code.append("Q")


class _PathShape(NamedTuple):
    """What a path's operators depend on (its colours apart)."""

    segments: tuple[tuple[tuple[float, float], ...], ...]
    closed: bool
    width: float
    dash: tuple[float, ...]
    join: int
    cap: int
    stroked: bool
    filled: bool


def _path(canvas: Canvas, shape: tuple, height: float) -> None:
    p = _PathShape._make(shape)
    if p.stroked:
        _set_line(canvas, p.width, p.dash)
    if p.join:
        canvas.setLineJoin(p.join)
    if p.cap:
        canvas.setLineCap(p.cap)
    path = canvas.beginPath()
    closed = p.closed
    for segment in p.segments:
        (x, y), rest = segment[0], segment[1:]
        path.moveTo(pt(x), pt(height - y))
        for x, y in rest:
            path.lineTo(pt(x), pt(height - y))
        if closed:
            path.close()
    canvas.drawPath(path, stroke=int(p.stroked), fill=int(p.filled))


def draw_text(pen: Pen, t: Text, height: float) -> None:
    canvas = pen.canvas
    if not pen.direct_text:
        _draw_text_with_canvas(canvas, t, height)
        return
    code = page_ops(canvas)
    code.append(fill_ops(t.color))
    if not t.rotate:
        for line in t.lines:
            code.append(f"BT 1 0 0 1 {fp_str(pt(line.x), pt(height - line.y))} Tm "
                        f"{pen.text_ops(t.style, t.size, line.text)} T* ET")
        return
    code.append("q")
    pen.put(_turn, t.pivot, t.rotate, height)
    for line in t.lines:
        code.append(f"BT 1 0 0 1 {fp_str(pt(line.x), -pt(line.y))} Tm "
                    f"{pen.text_ops(t.style, t.size, line.text)} T* ET")
    code.append("Q")


def _turn(canvas: Canvas, pivot, rotate, height) -> None:
    canvas.translate(pt(pivot[0]), pt(height - pivot[1]))
    canvas.rotate(rotate)


def _draw_text_with_canvas(canvas: Canvas, t: Text, height: float) -> None:
    """Text through reportlab's own calls, for a canvas drawn top-down or
    text that reportlab would reorder (its right-to-left support)."""
    set_fill(canvas, t.color)
    canvas.setFont(font_name(t.style), t.size)
    if not t.rotate:
        for line in t.lines:
            canvas.drawString(pt(line.x), pt(height - line.y), line.text)
        return
    canvas.saveState()
    canvas.translate(pt(t.pivot[0]), pt(height - t.pivot[1]))
    canvas.rotate(t.rotate)
    for line in t.lines:
        canvas.drawString(pt(line.x), -pt(line.y), line.text)
    canvas.restoreState()


def draw_symbol(pen: Pen, s: Symbol, height: float) -> None:
    pen.put(_symbol, s, height)


def _symbol(canvas: Canvas, s: Symbol, height: float) -> None:
    canvas.saveState()
    path = symbol_path(canvas, s.shape, pt(s.cx), pt(height - s.cy), size=pt(s.size))
    if s.fill:
        set_fill(canvas, s.fill)
    if s.stroke:
        set_stroke(canvas, s.stroke)
        canvas.setLineWidth(pt(s.width))
        if s.dash:
            canvas.setDash([pt(d) for d in s.dash])
    canvas.setLineJoin(1)
    canvas.drawPath(path, stroke=int(s.stroke is not None), fill=int(s.fill is not None))
    canvas.restoreState()


def draw_qr(pen: Pen, q: QR, height: float) -> None:
    pen.put(_qr, q, height)


def _qr(canvas: Canvas, q: QR, height: float) -> None:
    """A QR code as vector squares, quiet zone included in its size."""
    grid = qr_modules(q.data, border=2)
    n = len(grid)
    size = pt(q.size)
    x, y = pt(q.x), pt(height - q.y) - size
    cell = size / n
    canvas.saveState()
    set_fill(canvas, "#ffffff")
    canvas.rect(x, y, size, size, stroke=0, fill=1)
    set_fill(canvas, q.color)
    path = canvas.beginPath()
    for r, start, length in dark_runs(grid):
        path.rect(x + start * cell, y + size - (r + 1) * cell, length * cell, cell)
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()


def draw_icon(pen: Pen, i: Icon, height: float) -> None:
    """Fit an icon's viewBox into its box, centred, keeping its proportions: its form
    (drawn once per colour) placed, recorded once per place like any shape, and
    registered with the page each time (which a recording does not do)."""
    from pnp.template.icons import read_icon  # the SVG reader loads only for kits with icons

    canvas = pen.canvas
    icon = read_icon(i.source)
    form = _icon_form(canvas, icon, i.tint, i.line_art)
    # The form's placing as one plain tuple: (viewBox, box, rotate, mirror), the recording's key.
    pen.put(_place_form, form, (icon.view_box, (i.x, i.y, i.w, i.h), i.rotate, i.mirror), height)
    use_form(canvas, form)


def _place_form(canvas: Canvas, form: str, placing: tuple, height: float) -> None:
    view_box, box, rotate, mirror = placing
    vx, vy, vw, vh = view_box
    x, y, w, h = pt(box[0]), pt(height - box[1] - box[3]), pt(box[2]), pt(box[3])
    if rotate in (90, 270):
        w, h = h, w
    scale = min(w / vw, h / vh)
    canvas.saveState()
    if rotate:
        canvas.translate(x + (h if rotate in (90, 270) else w) / 2,
                         y + (w if rotate in (90, 270) else h) / 2)
        canvas.rotate(rotate)
        canvas.translate(-w / 2, -h / 2)
    else:
        canvas.translate(x, y)
    canvas.translate((w - vw * scale) / 2, (h + vh * scale) / 2)
    canvas.scale(-scale if mirror else scale, -scale)
    if mirror:
        canvas.translate(-vw, 0)
    canvas.translate(-vx, -vy)
    canvas.doForm(form)
    canvas.restoreState()


#: Per canvas: (icon file, tint, line art) -> form name. An icon is drawn once
#: per colour into a form, in its own viewBox units, and placed wherever it goes.
_ICON_FORMS: WeakKeyDictionary = WeakKeyDictionary()


def _icon_form(canvas: Canvas, icon, tint: str, line_art: bool) -> str:
    forms = _ICON_FORMS.setdefault(canvas, {})
    key = (icon.source, tint, line_art)
    if key not in forms:
        name = f"I{len(forms)}"
        vx, vy, vw, vh = icon.view_box
        # The box only bounds the form; strokes may reach past the viewBox, as inline.
        canvas.beginForm(name, lowerx=vx - vw, lowery=vy - vh, upperx=vx + 2 * vw, uppery=vy + 2 * vh)
        _draw_icon_shapes(canvas, icon, tint, line_art)
        canvas.endForm()
        forms[key] = name
    return forms[key]


def _toward_white(color: str, opacity: float) -> str:
    channels = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(c * opacity + 255 * (1 - opacity)):02x}" for c in channels)


def _draw_icon_shapes(canvas: Canvas, icon, tint: str, line_art: bool) -> None:
    from pnp.template.icons import Shape as IconShape

    for shape in icon.shapes:
        if type(shape) is not IconShape:
            _draw_icon_label(canvas, shape, tint, line_art)
            continue
        fill = tint if shape.fill == "current" else shape.fill
        stroke = tint if shape.stroke == "current" else shape.stroke
        if line_art:
            # A line drawing: outlined parts go white, dark details stay black.
            fill = fill and ("#ffffff" if stroke or luminance(fill) >= 0.3 else "#000000")
            stroke = stroke and "#000000"
        # Transparency inside reused drawings (forms) is not carried to the
        # pages by reportlab, so an icon's see-through parts are mixed with
        # the paper white instead.
        if shape.opacity < 1:
            fill = fill and shape.opacity > 0 and _toward_white(fill, shape.opacity) or None
        if shape.stroke_opacity < 1:
            stroke = stroke and shape.stroke_opacity > 0 and _toward_white(stroke, shape.stroke_opacity) or None
        if fill is None and stroke is None:
            continue
        canvas.saveState()
        if shape.transform:
            canvas.transform(*shape.transform)
        path = canvas.beginPath()
        for op in shape.ops:
            if op[0] == "M":
                path.moveTo(op[1], op[2])
            elif op[0] == "L":
                path.lineTo(op[1], op[2])
            elif op[0] == "C":
                path.curveTo(*op[1:])
            else:
                path.close()
        if fill:
            set_fill(canvas, fill)
        if stroke:
            set_stroke(canvas, stroke)
            canvas.setLineWidth(shape.stroke_width)
            canvas.setLineCap(shape.cap)
            canvas.setLineJoin(shape.join)
        canvas.drawPath(path, stroke=int(stroke is not None), fill=int(fill is not None),
                        fillMode=0 if shape.even_odd else 1)
        canvas.restoreState()


def _draw_icon_label(canvas: Canvas, label, tint: str, line_art: bool) -> None:
    """A line of an icon's text, in the kit's fonts, in the icon's own units (y down)."""
    fill = tint if label.fill == "current" else label.fill
    if fill is None:
        return
    if label.opacity <= 0:
        return
    if line_art:
        fill = "#000000"
    elif label.opacity < 1:
        fill = _toward_white(fill, label.opacity)
    canvas.saveState()
    if label.transform:
        canvas.transform(*label.transform)
    canvas.translate(label.x, label.y)
    canvas.scale(1, -1)   # the icon's y points down; text stands upright
    set_fill(canvas, fill)
    canvas.setFont(font_name(label.style), label.size)
    draw = {"start": canvas.drawString, "middle": canvas.drawCentredString, "end": canvas.drawRightString}
    draw[label.anchor](0, 0, label.text)
    canvas.restoreState()


def draw_picture(pen: Pen, p: Picture, height: float) -> None:
    """A picture in its box: the stored image placed, turned, see-through, clipped to the box;
    then its bleed, made from its edge, in each strip past the box (see :class:`Picture`).

    Drawn through the canvas each time: placing an image registers it with the page."""
    from pnp.render.pictures import PictureStore

    canvas = pen.canvas
    if pen.pictures is None:
        pen.pictures = PictureStore()
    store = pen.pictures
    name = store.name(canvas, p.source, p.name)
    code = page_ops(canvas)
    code.append("q")
    if p.opacity < 1:
        canvas.setFillAlpha(p.opacity)
    strips = _strips(p) if p.bleed else ()
    code.append(f"{_box_ops(p.x, p.y, p.w, p.h, height=height)} W n")
    code.append(f"q {_placing(p, height)} cm /{name} Do Q")
    code.append("Q")
    for (sx, sy, sw, sh), reflect in strips:
        code.append(f"q {_box_ops(sx, sy, sw, sh, height=height)} W n")
        if p.opacity < 1:
            canvas.setFillAlpha(p.opacity)
        if p.bleed == "mirror":
            code.append(f"{_reflection(p, reflect, height)} cm {_placing(p, height)} cm /{name} Do")
        else:
            crop = _edge_pixels(p, reflect, store.pixels[p.source])
            edge = store.edge(canvas, p.source, p.name, crop, rotate=p.rotate)
            code.append(f"{_edge_placing(p, reflect, store.pixels[p.source], height)} cm /{edge} Do")
        code.append("Q")


#: How far a bleed strip reaches back over the picture's box (mm), so no seam shows between them.
_SEAM = 0.02


def _strips(p: Picture) -> list[tuple[tuple[float, float, float, float], tuple[int, int]]]:
    """Each strip past a picture's box that its bleed fills: (x, y, w, h) mm and which way it
    lies from the box (-1 before it, 1 after it, 0 alongside), across and down."""
    left, top, right, bottom = p.spread
    across = [(-1, p.x - left, left + _SEAM), (0, p.x, p.w), (1, p.x + p.w - _SEAM, right + _SEAM)]
    down = [(-1, p.y - top, top + _SEAM), (0, p.y, p.h), (1, p.y + p.h - _SEAM, bottom + _SEAM)]
    strips = []
    for sx, x, w in across:
        for sy, y, h in down:
            if (sx or sy) and (not sx or (left if sx < 0 else right)) and (not sy or (top if sy < 0 else bottom)):
                strips.append(((x, y, w, h), (sx, sy)))
    return strips


def _box_ops(x: float, y: float, w: float, h: float, *, height: float) -> str:
    return f"{fp_str(pt(x), pt(height - y - h), pt(w), pt(h))} re"


def _placing(p: Picture, height: float) -> str:
    """The matrix that draws the image (a unit square) over (ix, iy, iw, ih), turned ``rotate``
    degrees counter-clockwise about its middle."""
    cx, cy = pt(p.ix + p.iw / 2), pt(height - p.iy - p.ih / 2)
    w, h = (pt(p.ih), pt(p.iw)) if p.rotate in (90, 270) else (pt(p.iw), pt(p.ih))
    cos, sin = {0: (1, 0), 90: (0, 1), 180: (-1, 0), 270: (0, -1)}[p.rotate]
    # translate(cx, cy) . rotate . translate(-w/2, -h/2) . scale(w, h)
    a, b, c, d = cos * w, sin * w, -sin * h, cos * h
    e = cx - (cos * w / 2 - sin * h / 2)
    f = cy - (sin * w / 2 + cos * h / 2)
    matrix = (a, b, c, d, e, f)
    return fp_str(*matrix)


def _reflection(p: Picture, reflect: tuple[int, int], height: float) -> str:
    """The matrix that mirrors the page at the box's side (or corner) a strip lies beyond."""
    sx, sy = reflect
    a = -1 if sx else 1
    d = -1 if sy else 1
    e = 2 * pt(p.x if sx < 0 else p.x + p.w) if sx else 0
    f = 2 * pt(height - (p.y + p.h if sy > 0 else p.y)) if sy else 0
    matrix = (a, 0, 0, d, e, f)
    return fp_str(*matrix)


def _turned_pixels(p: Picture, pixels: tuple[int, int]) -> tuple[int, int]:
    w, h = pixels
    return (h, w) if p.rotate in (90, 270) else (w, h)


class _Crop(NamedTuple):
    """Pixels of a picture, as it lies turned: its columns from ``left`` up to ``right``, its rows
    from ``top`` up to ``bottom`` (Pillow's crop box)."""

    left: int
    top: int
    right: int
    bottom: int


def _edge_pixels(p: Picture, reflect: tuple[int, int], pixels: tuple[int, int]) -> _Crop:
    """The stored picture's pixels at the box's side or corner a strip lies beyond: one column,
    one row, or one pixel."""
    tw, th = _turned_pixels(p, pixels)
    sx, sy = reflect

    def line(start: float, end: float, count: int) -> tuple[int, int]:
        """The pixels from ``start`` to ``end`` (fractions of the picture) of a row of ``count``."""
        first = min(count - 1, max(0, math.floor(start * count + 1e-6)))
        return first, min(count, max(first + 1, math.ceil(end * count - 1e-6)))

    u0, u1 = (p.x - p.ix) / p.iw, (p.x + p.w - p.ix) / p.iw
    v0, v1 = (p.y - p.iy) / p.ih, (p.y + p.h - p.iy) / p.ih
    cols = line(u0, u1, tw)
    rows = line(v0, v1, th)
    if sx:
        cols = (cols[0], cols[0] + 1) if sx < 0 else (cols[1] - 1, cols[1])
    if sy:
        rows = (rows[0], rows[0] + 1) if sy < 0 else (rows[1] - 1, rows[1])
    return _Crop(cols[0], rows[0], cols[1], rows[1])


def _edge_placing(p: Picture, reflect: tuple[int, int], pixels: tuple[int, int], height: float) -> str:
    """The matrix that draws an edge's pixels drawn out over its strip: along the box's side they
    lie where they lie in the picture; across, they fill the strip."""
    tw, th = _turned_pixels(p, pixels)
    left, top, right, bottom = p.spread
    c0, r0, c1, r1 = _edge_pixels(p, reflect, pixels)
    sx, sy = reflect
    if sx:
        x0, x1 = (p.x - left - _SEAM, p.x + _SEAM) if sx < 0 else (p.x + p.w - _SEAM, p.x + p.w + right + _SEAM)
    else:
        x0, x1 = p.ix + p.iw * c0 / tw, p.ix + p.iw * c1 / tw
    if sy:
        y0, y1 = (p.y - top - _SEAM, p.y + _SEAM) if sy < 0 else (p.y + p.h - _SEAM, p.y + p.h + bottom + _SEAM)
    else:
        y0, y1 = p.iy + p.ih * r0 / th, p.iy + p.ih * r1 / th
    matrix = (pt(x1 - x0), 0, 0, pt(y1 - y0), pt(x0), pt(height - y1))
    return fp_str(*matrix)


#: The function that draws each kind of primitive (a kind of element's own primitive too).
DRAWERS: dict[type, Callable[[Pen, Primitive, float], None]] = {
    Rect: draw_rect,
    Ellipse: draw_ellipse,
    Line: draw_line,
    Path: draw_path,
    Text: draw_text,
    Icon: draw_icon,
    Symbol: draw_symbol,
    QR: draw_qr,
    Moved: draw_moved,
    Picture: draw_picture,
}
