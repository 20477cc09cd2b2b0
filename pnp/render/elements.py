"""Draw a face's elements (from the template) inside a piece's trim box.

Element coordinates are mm from the piece's top-left corner, y downwards, as a
designer measures a card; here they become points from the bottom-left.
"""

from __future__ import annotations

import re
import string
from functools import lru_cache
from weakref import WeakKeyDictionary
from typing import TYPE_CHECKING, Any, Iterator, Mapping

from reportlab.pdfgen.canvas import Canvas

from pnp.errors import PnpError, TemplateError
from pnp.i18n import Catalog
from pnp.language import ExpressionError, evaluate
from pnp.model import Element
from pnp.render.colors import Inks, luminance, set_fill, set_stroke
from pnp.render.fonts import font
from pnp.render.shapes import symbol_path
from pnp.render.text import fit_or_fail
from pnp.units import pt

if TYPE_CHECKING:
    from pnp.render.svg import Icon

OUTLINE_MM = 0.3  # outline given to filled shapes by the ink saver


class _Formatter(string.Formatter):
    """str.format without attribute or item access: template text is data."""

    def get_field(self, field_name, args, kwargs):
        if "." in field_name or "[" in field_name:
            raise KeyError(field_name)
        return kwargs[field_name], field_name

    def format_field(self, value, format_spec):
        text = format(value, format_spec)
        # Printed numbers take a true minus sign, not a hyphen.
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            text = text.replace("-", "\u2212")
        return text


_FORMAT = _Formatter()


#: A property that names the copy number can differ from one copy to the next.
_COPY = re.compile(r"\bcopy\b")


class CopyNumbers:
    """Which elements of a face draw differently for each copy of a piece.

    An element does when it names ``copy`` (``{copy}``, ``copy * 2``, ``when =
    "copy=1"``), or when it prints an ``@key`` text whose catalog string does.
    Each element is read once; its catalog keys are looked up per piece, since
    a key may name the piece's fields (``@card.{id}``).
    """

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.numbered_texts = any(_COPY.search(text) for text in catalog.texts.values())
        self._read: dict[int, tuple[bool, tuple[str, ...]]] = {}

    def varies(self, element: Element, values: Mapping[str, Any]) -> bool:
        read = self._read.get(id(element))
        if read is None:
            strings = list(_strings(element.props.values()))
            read = (any(_COPY.search(s) for s in strings),
                    tuple(s[1:] for s in strings if s.startswith("@")))
            self._read[id(element)] = read
        names_copy, keys = read
        if names_copy:
            return True
        if not (keys and self.numbered_texts):
            return False
        for key in keys:
            try:
                key = _FORMAT.vformat(key, (), values)
            except (KeyError, IndexError, ValueError):
                return True  # drawn per copy, where the error is reported with its place
            if _COPY.search(self.catalog.raw(key) or ""):
                return True
        return False


def _strings(values: Any) -> Iterator[str]:
    """Every string in a property's values, lists and tables included."""
    for value in values:
        if isinstance(value, str):
            yield value
        elif isinstance(value, (list, tuple)):
            yield from _strings(value)
        elif isinstance(value, dict):
            yield from _strings(value.values())


class FaceContext:
    """Everything a face needs to be drawn for one piece in one language."""

    def __init__(self, *, catalog: Catalog, inks: Inks, width: float, height: float, bleed: float,
                 values: Mapping[str, Any], icon_dir: tuple[str, ...], where: str,
                 qr_override: str | None = None, colors: Mapping[str, Any] | None = None,
                 filled: Any = None, filled_qr: str | None = None,
                 filled_date: str | None = None) -> None:
        self.catalog = catalog
        self.inks = inks
        self.width, self.height = width, height      # trim, mm
        self.bleed = bleed
        self.values = values                         # piece fields, id, set, params...
        self.icon_dir = icon_dir                     # folders searched for icons, in order
        self.where = where                           # "hunting-fever player-cards/wolf (fr)"
        self.qr_override = qr_override
        self.colors = colors or {}                   # player colours by id
        self.filled = filled                         # a scoring Result, for a filled scoresheet
        self.filled_qr = filled_qr                   # its short text, for the QR code
        self.filled_date = filled_date
        # What expressions may use: the numeric values, and the trim size.
        self.numbers = {k: v for k, v in values.items()
                        if isinstance(v, (int, float)) and not isinstance(v, bool)}
        self.numbers.update(w=width, h=height)

    def text(self, raw: str) -> str:
        """Resolve ``@catalog.key`` and fill ``{field}`` placeholders."""
        try:
            if raw.startswith("@"):
                key = _FORMAT.vformat(raw[1:], (), self.values)
                return _FORMAT.vformat(self.catalog.get(key), (), self.values)
            return _FORMAT.vformat(raw, (), self.values)
        except PnpError:
            raise
        except (KeyError, IndexError, ValueError) as exc:
            raise TemplateError(f"{self.where}: text {raw!r} uses an unknown field {exc}") from None

    def value(self, raw: Any) -> Any:
        """A property that may be written "{field}" to take the piece's value."""
        if isinstance(raw, str) and "{" in raw:
            if raw.startswith("{") and raw.endswith("}") and raw.count("{") == 1:
                name = raw[1:-1]
                if name not in self.values:
                    raise TemplateError(f"{self.where}: unknown field {name!r} in {raw!r}")
                return self.values[name]
            return self.text(raw)
        return raw

    def mm(self, raw: Any, extra: Mapping[str, float] | None = None) -> float:
        raw = self.value(raw)
        try:
            return evaluate(raw, {**self.numbers, **extra} if extra else self.numbers)
        except ExpressionError as exc:
            raise TemplateError(f"{self.where}: {exc}") from None


def _test(condition: str, ctx: FaceContext) -> bool:
    condition = condition.strip()
    negate = condition.startswith("!")
    condition = condition.lstrip("!").strip()
    if "=" in condition:
        name, expected = condition.split("=", 1)
        result = str(ctx.values.get(name.strip())) == expected.strip()
    else:
        result = bool(ctx.values.get(condition))
    return result != negate


def _visible(element: Element, ctx: FaceContext) -> bool:
    """``when``: tests like ``field``, ``!field``, ``field=value``, joined by ``&`` (all)
    and ``|`` (any; ``&`` binds tighter)."""
    condition = element.props.get("when")
    if not condition:
        return True
    return any(all(_test(term, ctx) for term in either.split("&")) for either in condition.split("|"))


def draw_face(canvas: Canvas, elements: tuple[Element, ...], ctx: FaceContext) -> None:
    """Draw every element of a face; the canvas origin is the trim's bottom-left."""
    for element in elements:
        if not _visible(element, ctx):
            continue
        repeat = element.props.get("repeat")
        if isinstance(repeat, list):  # a grid: [columns, rows]
            cols, rows = (int(ctx.mm(v)) for v in repeat)
        else:
            cols, rows = (1 if repeat is None else int(ctx.mm(repeat))), 1
        step = element.props.get("step")
        # Simple shapes set every colour and width they use, so they need no
        # saved graphics state of their own (saving it costs as much as drawing).
        isolate = element.type not in _SELF_CONTAINED or "dash" in element.props
        for index in range(max(0, cols) * max(0, rows)):
            dx = dy = 0.0
            if step:
                row, col = divmod(index, cols)
                names = {"i": index, "col": col, "row": row}
                grid = rows > 1 or isinstance(repeat, list)
                dx = ctx.mm(step[0], names) * (col if grid else index)
                dy = ctx.mm(step[1], names) * (row if grid else index) if len(step) > 1 else 0.0
            moved = bool(dx or dy)
            if isolate or moved:
                canvas.saveState()
            if moved:
                canvas.translate(pt(dx), -pt(dy))
            try:
                _DRAW[element.type](canvas, element.props, ctx, element.where)
            except PnpError:
                raise
            except (KeyError, ValueError, TypeError) as exc:
                raise TemplateError(f"{element.where}: cannot draw this {element.type} ({exc})") from None
            if isolate or moved:
                canvas.restoreState()


_SELF_CONTAINED = frozenset({"background", "rect", "ellipse", "text"})


def _box(props, ctx) -> tuple[float, float, float, float]:
    """(x, y, w, h) in points from the bottom-left of the trim."""
    x, y, w, h = (ctx.mm(props[k]) for k in ("x", "y", "w", "h"))
    return pt(x), pt(ctx.height - y - h), pt(w), pt(h)


def _stroke(canvas: Canvas, props, ctx) -> bool:
    color = ctx.inks.line(ctx.value(props.get("stroke")))
    if color is None:
        return False
    set_stroke(canvas, color)
    canvas.setLineWidth(pt(ctx.mm(props.get("stroke_width", 0.3))))
    if props.get("dash"):
        canvas.setDash([pt(ctx.mm(v)) for v in props["dash"]])
    return True


def _fill(canvas: Canvas, props, ctx, key: str = "fill") -> tuple[bool, bool]:
    """Set fill (and the ink saver's outline); returns (fill, extra_outline)."""
    raw = ctx.value(props.get(key))
    color = ctx.inks.fill(raw)
    if color is None:
        return False, False
    set_fill(canvas, color)
    outline = ctx.inks.ink_saver and props.get("stroke") is None and raw not in ("white", "paper")
    if outline:
        set_stroke(canvas, "#000000")
        canvas.setLineWidth(pt(OUTLINE_MM))
    return True, outline


def _draw_background(canvas, props, ctx, where) -> None:
    color = ctx.inks.fill(ctx.value(props["fill"]))
    if color:
        set_fill(canvas, color)
        b = pt(ctx.bleed)
        canvas.rect(-b, -b, pt(ctx.width) + 2 * b, pt(ctx.height) + 2 * b, stroke=0, fill=1)


def _draw_rect(canvas, props, ctx, where) -> None:
    x, y, w, h = _box(props, ctx)
    fill, outline = _fill(canvas, props, ctx)
    stroke = _stroke(canvas, props, ctx) or outline
    if not (fill or stroke):
        return
    radius = pt(ctx.mm(props.get("radius", 0)))
    if radius > 0:
        canvas.roundRect(x, y, w, h, radius, stroke=int(stroke), fill=int(fill))
    else:
        canvas.rect(x, y, w, h, stroke=int(stroke), fill=int(fill))


def _draw_ellipse(canvas, props, ctx, where) -> None:
    cx, cy = pt(ctx.mm(props["cx"])), pt(ctx.height - ctx.mm(props["cy"]))
    rx = pt(ctx.mm(props["rx"]))
    ry = pt(ctx.mm(props.get("ry", props["rx"])))
    fill, outline = _fill(canvas, props, ctx)
    stroke = _stroke(canvas, props, ctx) or outline
    if fill or stroke:
        canvas.ellipse(cx - rx, cy - ry, cx + rx, cy + ry, stroke=int(stroke), fill=int(fill))


def _draw_line(canvas, props, ctx, where) -> None:
    if "stroke" not in props:
        props = {**props, "stroke": "ink"}
    if _stroke(canvas, props, ctx):
        canvas.setLineCap(1)
        canvas.line(pt(ctx.mm(props["x1"])), pt(ctx.height - ctx.mm(props["y1"])),
                    pt(ctx.mm(props["x2"])), pt(ctx.height - ctx.mm(props["y2"])))


def _draw_polygon(canvas, props, ctx, where) -> None:
    points = [(pt(ctx.mm(x)), pt(ctx.height - ctx.mm(y))) for x, y in props["points"]]
    path = canvas.beginPath()
    path.moveTo(*points[0])
    for p in points[1:]:
        path.lineTo(*p)
    if props.get("closed", True):
        path.close()
    fill, outline = _fill(canvas, props, ctx)
    stroke = _stroke(canvas, props, ctx) or outline
    canvas.setLineJoin(1)
    canvas.drawPath(path, stroke=int(stroke), fill=int(fill))


def _inside_trim(ctx: FaceContext, x: float, y: float, w: float, h: float, what: str,
                 text: str | None = None) -> None:
    """Text boxes stay inside the piece, so no text can run past a cut (mm, top-left)."""
    tolerance = 0.01
    if x < -tolerance or y < -tolerance or x + w > ctx.width + tolerance or y + h > ctx.height + tolerance:
        if text is not None:
            what = f"{what} {text[:20]!r}"
        raise TemplateError(
            f"{ctx.where}: {what} box ({x:g}, {y:g}, {w:g} x {h:g} mm) runs outside the "
            f"{ctx.width:g} x {ctx.height:g} mm piece")


def _draw_text(canvas, props, ctx, where) -> None:
    text = ctx.text(props["text"])
    if not text:
        return
    x, y, w, h = ctx.mm(props["x"]), ctx.mm(props["y"]), ctx.mm(props["w"]), ctx.mm(props["h"])
    _inside_trim(ctx, x, y, w, h, "text", text)
    x, y, w, h = pt(x), pt(ctx.height - y - h), pt(w), pt(h)
    rotate = props.get("rotate", 0)
    if rotate in (90, 270):
        w, h = h, w
    style = props.get("font", "regular")
    fitted = fit_or_fail(
        text, style, ctx.mm(props["size"]), w, h, wrap=props.get("wrap", False),
        leading=float(props.get("leading", 1.18)), min_size=float(props.get("min_size", 6)),
        where=ctx.where,
    )
    color = ctx.inks.line(ctx.value(props.get("color", "ink")))
    set_fill(canvas, color)
    canvas.setFont(font(style), fitted.size)
    if rotate:
        # Draw in a frame whose origin is the turned box's bottom-left.
        canvas.saveState()
        cx, cy = x + (h if rotate in (90, 270) else w) / 2, y + (w if rotate in (90, 270) else h) / 2
        canvas.translate(cx, cy)
        canvas.rotate(rotate)
        canvas.translate(-w / 2, -h / 2)
        x0, y0 = 0.0, 0.0
    else:
        x0, y0 = x, y
    cap = 0.72 * fitted.size
    block = cap + (len(fitted.lines) - 1) * fitted.leading
    valign = props.get("valign", "middle")
    if valign == "top":
        baseline = h - 0.94 * fitted.size
    elif valign == "bottom":
        baseline = 0.22 * fitted.size + (len(fitted.lines) - 1) * fitted.leading
    else:
        baseline = (h + block) / 2 - cap
    align = props.get("align", "center")
    # Placed with the widths measured while fitting: reportlab's centred and
    # right-aligned calls would measure every line a second time.
    share = 0.0 if align == "left" else 1.0 if align == "right" else 0.5
    for line, width in zip(fitted.lines, fitted.widths):
        canvas.drawString(x0 + (w - width) * share, y0 + baseline, line)
        baseline -= fitted.leading
    if rotate:
        canvas.restoreState()


def _toward_white(color: str, opacity: float) -> str:
    channels = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(c * opacity + 255 * (1 - opacity)):02x}" for c in channels)


def draw_icon(canvas: Canvas, icon: Icon, x: float, y: float, w: float, h: float,
              tint: str, inks: Inks, rotate: int = 0, mirror: bool = False) -> None:
    """Fit an icon's viewBox into a box (points), centred, keeping its proportions."""
    vx, vy, vw, vh = icon.view_box
    form = _icon_form(canvas, icon, tint, inks.ink_saver)
    if rotate in (90, 270):
        w, h = h, w
    scale = min(w / vw, h / vh)
    canvas.saveState()
    if rotate:
        canvas.translate(x + (h if rotate in (90, 270) else w) / 2, y + (w if rotate in (90, 270) else h) / 2)
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


#: Per PDF: (icon, tint, ink saver) -> (form name, icon). An icon is drawn once
#: per colour into a form, in its own viewBox units, and placed wherever it goes.
_ICON_FORMS: WeakKeyDictionary = WeakKeyDictionary()


def _icon_form(canvas: Canvas, icon: Icon, tint: str, ink_saver: bool) -> str:
    forms = _ICON_FORMS.setdefault(canvas, {})
    key = (id(icon), tint, ink_saver)  # the icon is kept in the value, so its id stays its own
    if key not in forms:
        name = f"I{len(forms)}"
        vx, vy, vw, vh = icon.view_box
        # The box only bounds the form; strokes may reach past the viewBox, as inline.
        canvas.beginForm(name, vx - vw, vy - vh, vx + 2 * vw, vy + 2 * vh)
        _draw_icon_shapes(canvas, icon, tint, ink_saver)
        canvas.endForm()
        forms[key] = (name, icon)
    return forms[key][0]


def _draw_icon_shapes(canvas: Canvas, icon: Icon, tint: str, ink_saver: bool) -> None:
    for shape in icon.shapes:
        fill = tint if shape.fill == "current" else shape.fill
        stroke = tint if shape.stroke == "current" else shape.stroke
        if ink_saver:
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


def _draw_icon(canvas, props, ctx, where) -> None:
    from pnp.render.svg import load_icon  # the SVG reader loads only for kits with icons

    name = ctx.text(str(props["name"]))
    icon = load_icon(ctx.icon_dir, name)
    tint = ctx.inks.resolve(ctx.value(props.get("color", "ink")))
    draw_icon(canvas, icon, *_box(props, ctx), tint, ctx.inks, props.get("rotate", 0),
              bool(props.get("mirror", False)))


def _draw_symbol(canvas, props, ctx, where) -> None:
    shape = ctx.text(str(props.get("shape", "{set_symbol}")))
    cx, cy = pt(ctx.mm(props["cx"])), pt(ctx.height - ctx.mm(props["cy"]))
    path = symbol_path(canvas, shape, cx, cy, pt(ctx.mm(props["size"])))
    fill = ctx.inks.fill(ctx.value(props.get("fill", "set_ink")))
    if ctx.inks.ink_saver:
        # The shape alone tells the sets apart once colours are gone.
        fill = "#000000"
    stroke = _stroke(canvas, props, ctx)
    if fill:
        set_fill(canvas, fill)
    canvas.setLineJoin(1)
    canvas.drawPath(path, stroke=int(stroke), fill=int(fill is not None))


def _draw_table(canvas, props, ctx, where) -> None:
    x, top = ctx.mm(props["x"]), ctx.mm(props["y"])
    width, row_h = ctx.mm(props["w"]), ctx.mm(props["row_h"])
    weights = [ctx.mm(c) for c in props["cols"]]
    total = sum(weights)
    widths = [width * c / total for c in weights]
    size = float(props["size"])
    line = ctx.inks.line(props.get("line", "ink"))
    header = props.get("header", True)
    pad = 1.5
    _inside_trim(ctx, x, top, width, row_h * len(props["rows"]), "table")
    for r, row in enumerate(props["rows"]):
        y = ctx.height - top - (r + 1) * row_h
        is_header = header and r == 0
        fill_name = props.get("header_fill") if is_header else (props.get("zebra") if r % 2 == 0 else None)
        fill = ctx.inks.fill(fill_name)
        if fill:
            set_fill(canvas, fill)
            canvas.rect(pt(x), pt(y), pt(width), pt(row_h), stroke=0, fill=1)
        cx = x
        for c, cell in enumerate(row):
            if c >= len(widths):
                raise TemplateError(f"{where}: row {r + 1} has more cells than cols")
            text = ctx.text(cell)
            style = "bold" if is_header or c == 0 else props.get("font", "regular")
            color = ctx.inks.line(props.get("header_color" if is_header else "color", "ink") or "ink")
            if text:
                fitted = fit_or_fail(text, style, size, pt(widths[c] - 2 * pad), pt(row_h - 1),
                                     wrap=True, leading=1.12, min_size=6, where=ctx.where)
                canvas.setFont(font(style), fitted.size)
                set_fill(canvas, color)
                block = 0.72 * fitted.size + (len(fitted.lines) - 1) * fitted.leading
                base = pt(y) + (pt(row_h) + block) / 2 - 0.72 * fitted.size
                align = "left" if c == 0 else props.get("align", "center")
                for text_line in fitted.lines:
                    if align == "left":
                        canvas.drawString(pt(cx + pad), base, text_line)
                    else:
                        canvas.drawCentredString(pt(cx + widths[c] / 2), base, text_line)
                    base -= fitted.leading
            cx += widths[c]
        if line:
            set_stroke(canvas, line)
            canvas.setLineWidth(0.5)
            canvas.line(pt(x), pt(y), pt(x + width), pt(y))
    if line:
        canvas.setLineWidth(0.8)
        rows = len(props["rows"])
        canvas.rect(pt(x), pt(ctx.height - top - rows * row_h), pt(width), pt(rows * row_h), stroke=1, fill=0)


@lru_cache(maxsize=64)
def _qr_matrix(data: str) -> tuple[tuple[bool, ...], ...]:
    """The modules of a QR code, quiet zone included. The same rules address
    goes on every language and paper of a kit: it is encoded once."""
    import qrcode  # only the pages that carry a code need it

    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(data)
    code.make(fit=True)
    return tuple(tuple(row) for row in code.get_matrix())


def draw_qr(canvas: Canvas, data: str, x: float, y: float, size: float, color: str) -> None:
    """A QR code as vector squares (points), quiet zone included in ``size``."""
    matrix = _qr_matrix(data)
    n = len(matrix)
    cell = size / n
    canvas.saveState()
    set_fill(canvas, "#ffffff")
    canvas.rect(x, y, size, size, stroke=0, fill=1)
    set_fill(canvas, color)
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


def _draw_qr(canvas, props, ctx, where) -> None:
    data = ctx.qr_override or ctx.text(props["data"])
    size = pt(ctx.mm(props["size"]))
    x, y = pt(ctx.mm(props["x"])), pt(ctx.height - ctx.mm(props["y"])) - size
    draw_qr(canvas, data, x, y, size, ctx.inks.line(props.get("color", "ink")) or "#000000")


def _draw_scoresheet(canvas, props, ctx, where) -> None:
    from pnp.render.scoresheets import draw_scoresheet
    x, y, w, h = (ctx.mm(props[k]) for k in ("x", "y", "w", "h"))
    _inside_trim(ctx, x, y, w, h, "scoresheet")
    if ctx.filled is not None:
        qr = ctx.filled_qr
    else:
        qr = ctx.qr_override or (ctx.text(props["qr"]) if props.get("qr") else None)
    draw_scoresheet(canvas, ctx, x, y, w, h, ctx.text(props["layout"]), ctx.filled, qr)


_DRAW = {
    "background": _draw_background,
    "rect": _draw_rect,
    "ellipse": _draw_ellipse,
    "line": _draw_line,
    "polygon": _draw_polygon,
    "text": _draw_text,
    "icon": _draw_icon,
    "symbol": _draw_symbol,
    "table": _draw_table,
    "qr": _draw_qr,
    "scoresheet": _draw_scoresheet,
}
