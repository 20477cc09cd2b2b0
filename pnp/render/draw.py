"""Draw primitives on a reportlab canvas: one small function per kind of primitive.

Primitives are in mm from the top-left of their frame, y downwards; here they
become points from the frame's bottom-left (``height`` is the frame's height
in mm). Simple shapes set every colour and width they use, so they need no
saved graphics state of their own (saving it costs as much as drawing);
shapes that change the line cap, join or dash keep the change to themselves.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable
from weakref import WeakKeyDictionary

from reportlab.pdfgen.canvas import Canvas

from pnp.layout.colors import luminance
from pnp.layout.primitives import QR, Ellipse, Icon, Line, Moved, Path, Primitive, Rect, Symbol, Text
from pnp.render.colors import set_fill, set_stroke
from pnp.render.fonts import font
from pnp.render.shapes import symbol_path
from pnp.units import pt


def draw_primitives(canvas: Canvas, primitives, height: float) -> None:
    """Draw primitives in stacking order, in a frame ``height`` mm tall whose
    bottom-left is the canvas origin."""
    for primitive in primitives:
        _DRAW[type(primitive)](canvas, primitive, height)


def draw_moved(canvas: Canvas, m: Moved, height: float) -> None:
    canvas.saveState()
    canvas.translate(pt(m.dx), -pt(m.dy))
    draw_primitives(canvas, m.primitives, height)
    canvas.restoreState()


def draw_rect(canvas: Canvas, r: Rect, height: float) -> None:
    if r.dash:
        canvas.saveState()
    if r.fill:
        set_fill(canvas, r.fill)
    if r.stroke:
        set_stroke(canvas, r.stroke)
        canvas.setLineWidth(pt(r.width))
        if r.dash:
            canvas.setDash([pt(d) for d in r.dash])
    x, y, w, h = pt(r.x), pt(height - r.y - r.h), pt(r.w), pt(r.h)
    if r.radius > 0:
        canvas.roundRect(x, y, w, h, pt(r.radius), stroke=int(r.stroke is not None),
                         fill=int(r.fill is not None))
    else:
        canvas.rect(x, y, w, h, stroke=int(r.stroke is not None), fill=int(r.fill is not None))
    if r.dash:
        canvas.restoreState()


def draw_ellipse(canvas: Canvas, e: Ellipse, height: float) -> None:
    if e.dash:
        canvas.saveState()
    if e.fill:
        set_fill(canvas, e.fill)
    if e.stroke:
        set_stroke(canvas, e.stroke)
        canvas.setLineWidth(pt(e.width))
        if e.dash:
            canvas.setDash([pt(d) for d in e.dash])
    cx, cy, rx, ry = pt(e.cx), pt(height - e.cy), pt(e.rx), pt(e.ry)
    canvas.ellipse(cx - rx, cy - ry, cx + rx, cy + ry, stroke=int(e.stroke is not None),
                   fill=int(e.fill is not None))
    if e.dash:
        canvas.restoreState()


def draw_line(canvas: Canvas, line: Line, height: float) -> None:
    canvas.saveState()
    set_stroke(canvas, line.stroke)
    canvas.setLineWidth(pt(line.width))
    if line.dash:
        canvas.setDash([pt(d) for d in line.dash])
    if line.cap:
        canvas.setLineCap(line.cap)
    canvas.line(pt(line.x1), pt(height - line.y1), pt(line.x2), pt(height - line.y2))
    canvas.restoreState()


def draw_path(canvas: Canvas, p: Path, height: float) -> None:
    canvas.saveState()
    if p.fill:
        set_fill(canvas, p.fill)
    if p.stroke:
        set_stroke(canvas, p.stroke)
        canvas.setLineWidth(pt(p.width))
        if p.dash:
            canvas.setDash([pt(d) for d in p.dash])
    if p.join:
        canvas.setLineJoin(p.join)
    if p.cap:
        canvas.setLineCap(p.cap)
    path = canvas.beginPath()
    for segment in p.segments:
        (x, y), rest = segment[0], segment[1:]
        path.moveTo(pt(x), pt(height - y))
        for x, y in rest:
            path.lineTo(pt(x), pt(height - y))
        if p.closed:
            path.close()
    canvas.drawPath(path, stroke=int(p.stroke is not None), fill=int(p.fill is not None))
    canvas.restoreState()


def draw_text(canvas: Canvas, t: Text, height: float) -> None:
    set_fill(canvas, t.color)
    canvas.setFont(font(t.style), t.size)
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


def draw_symbol(canvas: Canvas, s: Symbol, height: float) -> None:
    canvas.saveState()
    path = symbol_path(canvas, s.shape, pt(s.cx), pt(height - s.cy), pt(s.size))
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


def draw_qr(canvas: Canvas, q: QR, height: float) -> None:
    """A QR code as vector squares, quiet zone included in its size."""
    matrix = _qr_matrix(q.data)
    n = len(matrix)
    size = pt(q.size)
    x, y = pt(q.x), pt(height - q.y) - size
    cell = size / n
    canvas.saveState()
    set_fill(canvas, "#ffffff")
    canvas.rect(x, y, size, size, stroke=0, fill=1)
    set_fill(canvas, q.color)
    path = canvas.beginPath()
    for r, row in enumerate(matrix):
        c = 0
        while c < n:
            if row[c]:
                start = c
                while c < n and row[c]:
                    c += 1
                path.rect(x + start * cell, y + size - (r + 1) * cell, (c - start) * cell, cell)
            else:
                c += 1
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()


@lru_cache(maxsize=64)
def _qr_matrix(data: str) -> tuple[tuple[bool, ...], ...]:
    """The modules of a QR code, quiet zone included. The same rules address
    goes on every language and paper of a kit: it is encoded once."""
    import qrcode  # only the pages that carry a code need it

    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(data)
    code.make(fit=True)
    return tuple(tuple(row) for row in code.get_matrix())


def draw_icon(canvas: Canvas, i: Icon, height: float) -> None:
    """Fit an icon's viewBox into its box, centred, keeping its proportions."""
    from pnp.icons import read_icon  # the SVG reader loads only for kits with icons

    icon = read_icon(i.source)
    vx, vy, vw, vh = icon.view_box
    form = _icon_form(canvas, icon, i.tint, i.line_art)
    x, y, w, h = pt(i.x), pt(height - i.y - i.h), pt(i.w), pt(i.h)
    if i.rotate in (90, 270):
        w, h = h, w
    scale = min(w / vw, h / vh)
    canvas.saveState()
    if i.rotate:
        canvas.translate(x + (h if i.rotate in (90, 270) else w) / 2,
                         y + (w if i.rotate in (90, 270) else h) / 2)
        canvas.rotate(i.rotate)
        canvas.translate(-w / 2, -h / 2)
    else:
        canvas.translate(x, y)
    canvas.translate((w - vw * scale) / 2, (h + vh * scale) / 2)
    canvas.scale(-scale if i.mirror else scale, -scale)
    if i.mirror:
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
        canvas.beginForm(name, vx - vw, vy - vh, vx + 2 * vw, vy + 2 * vh)
        _draw_icon_shapes(canvas, icon, tint, line_art)
        canvas.endForm()
        forms[key] = name
    return forms[key]


def _toward_white(color: str, opacity: float) -> str:
    channels = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(c * opacity + 255 * (1 - opacity)):02x}" for c in channels)


def _draw_icon_shapes(canvas: Canvas, icon, tint: str, line_art: bool) -> None:
    for shape in icon.shapes:
        fill = tint if shape.fill == "current" else shape.fill
        stroke = tint if shape.stroke == "current" else shape.stroke
        if line_art:
            # A line drawing: outlined parts go white, dark details stay black.
            fill = fill and ("#ffffff" if stroke or luminance(fill) >= 0.3 else "#000000")
            stroke = stroke and "#000000"
        if shape.opacity < 1:
            # Transparency inside reused drawings (forms) is not carried to the
            # pages by reportlab, so an icon's see-through parts are mixed with
            # the paper white instead.
            fill = fill and _toward_white(fill, shape.opacity)
            stroke = stroke and _toward_white(stroke, shape.opacity)
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


_DRAW: dict[type, Callable[[Canvas, Primitive, float], None]] = {
    Rect: draw_rect,
    Ellipse: draw_ellipse,
    Line: draw_line,
    Path: draw_path,
    Text: draw_text,
    Icon: draw_icon,
    Symbol: draw_symbol,
    QR: draw_qr,
    Moved: draw_moved,
}
