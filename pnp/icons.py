"""A small SVG reader for our own pictograms: their shapes as plain path operations.

Supports what hand-made icons use: ``path`` (all commands, arcs included),
``circle``, ``ellipse``, ``rect`` (with rx), ``polygon``, ``polyline``,
``line`` and ``g``, with ``fill``, ``stroke``, ``stroke-width``,
``stroke-linecap``, ``stroke-linejoin``, ``fill-rule``, ``opacity`` and
``transform``. ``currentColor`` takes the colour the template asks for.
The renderer draws the shapes; nothing here needs a PDF library.

An icon is a plain name (letters, digits, ``-`` and ``_``) found in an
``icons/`` folder, never a path. Its file, its nesting, its number of elements
and every number it holds are bounded (:mod:`pnp.limits`): the file is
refused before it is parsed, and its shapes before they are drawn.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from pnp.errors import TemplateError
from pnp.limits import MAX_NUMBER, MAX_SVG_BYTES, MAX_SVG_DEPTH, MAX_SVG_ELEMENTS, size_shown

_NS = "{http://www.w3.org/2000/svg}"
#: What an icon's name may be: a file name without its .svg, never a path.
_ICON_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,99}")
_NUMBER = re.compile(r"[-+]?(?:\d*\.\d+|\d+\.?)(?:[eE][-+]?\d+)?")
_TOKEN = re.compile(r"([MmLlHhVvCcSsQqTtAaZz])|([-+]?(?:\d*\.\d+|\d+\.?)(?:[eE][-+]?\d+)?)")

# Path operations: ("M", x, y) ("L", x, y) ("C", x1, y1, x2, y2, x, y) ("Z",)
Op = tuple


class Shape(NamedTuple):
    ops: tuple[Op, ...]
    fill: str | None       # "#rrggbb", "current" or None
    stroke: str | None
    stroke_width: float
    even_odd: bool
    cap: int
    join: int
    opacity: float
    transform: tuple[float, ...] | None  # a, b, c, d, e, f


class Icon(NamedTuple):
    name: str
    view_box: tuple[float, float, float, float]
    shapes: tuple[Shape, ...]
    source: str = ""    # the file it was read from


class IconError(TemplateError):
    """An icon file is missing or cannot be read."""


def _arc_to_beziers(x1, y1, rx, ry, phi, large, sweep, x2, y2):
    """Endpoint arc parameters to cubic Béziers (SVG implementation notes F.6)."""
    if rx == 0 or ry == 0:
        return [("L", x2, y2)]
    rx, ry = abs(rx), abs(ry)
    cos_p, sin_p = math.cos(math.radians(phi)), math.sin(math.radians(phi))
    dx, dy = (x1 - x2) / 2, (y1 - y2) / 2
    x1p, y1p = cos_p * dx + sin_p * dy, -sin_p * dx + cos_p * dy
    lam = (x1p ** 2) / (rx ** 2) + (y1p ** 2) / (ry ** 2)
    if lam > 1:
        rx, ry = rx * math.sqrt(lam), ry * math.sqrt(lam)
    num = rx ** 2 * ry ** 2 - rx ** 2 * y1p ** 2 - ry ** 2 * x1p ** 2
    den = rx ** 2 * y1p ** 2 + ry ** 2 * x1p ** 2
    coef = math.sqrt(max(0.0, num / den)) if den else 0.0
    if large == sweep:
        coef = -coef
    cxp, cyp = coef * rx * y1p / ry, -coef * ry * x1p / rx
    cx = cos_p * cxp - sin_p * cyp + (x1 + x2) / 2
    cy = sin_p * cxp + cos_p * cyp + (y1 + y2) / 2

    def angle(ux, uy, vx, vy):
        a = math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)
        return a

    theta1 = angle(1, 0, (x1p - cxp) / rx, (y1p - cyp) / ry)
    delta = angle((x1p - cxp) / rx, (y1p - cyp) / ry, (-x1p - cxp) / rx, (-y1p - cyp) / ry)
    if not sweep and delta > 0:
        delta -= 2 * math.pi
    elif sweep and delta < 0:
        delta += 2 * math.pi
    segments = max(1, math.ceil(abs(delta) / (math.pi / 2) - 1e-9))
    step = delta / segments
    k = 4 / 3 * math.tan(step / 4)
    ops = []
    t = theta1
    for _ in range(segments):
        c1, s1 = math.cos(t), math.sin(t)
        c2, s2 = math.cos(t + step), math.sin(t + step)
        pts = [(c1 - k * s1, s1 + k * c1), (c2 + k * s2, s2 - k * c2), (c2, s2)]
        out = []
        for px, py in pts:
            px, py = px * rx, py * ry
            out += [cos_p * px - sin_p * py + cx, sin_p * px + cos_p * py + cy]
        ops.append(("C", *out))
        t += step
    return ops


def parse_path(d: str) -> list[Op]:
    """SVG path data to absolute M/L/C/Z operations.

    >>> parse_path("M0 0 h10 v10 z")
    [('M', 0.0, 0.0), ('L', 10.0, 0.0), ('L', 10.0, 10.0), ('Z',)]
    """
    tokens = [(c, float(n) if n else None) for c, n in _TOKEN.findall(d)]
    ops: list[Op] = []
    i = 0
    x = y = sx = sy = 0.0
    last_ctrl: tuple[float, float] | None = None
    last_cmd = ""
    cmd = ""

    def numbers(count):
        nonlocal i
        values = []
        for _ in range(count):
            if i >= len(tokens) or tokens[i][0]:
                raise ValueError(f"path data ends early near token {i}: {d[:40]!r}")
            values.append(tokens[i][1])
            i += 1
        return values

    while i < len(tokens):
        if tokens[i][0]:
            cmd = tokens[i][0]
            i += 1
        elif not cmd:
            raise ValueError(f"path data must start with a command: {d[:40]!r}")
        rel = cmd.islower()
        c = cmd.upper()
        ox, oy = (x, y) if rel else (0.0, 0.0)
        if c == "Z":
            ops.append(("Z",))
            x, y = sx, sy
            last_ctrl = None
            last_cmd = c
            continue
        if c == "M":
            px, py = numbers(2)
            x, y = ox + px, oy + py
            sx, sy = x, y
            ops.append(("M", x, y))
            cmd = "l" if rel else "L"  # following pairs are line-tos
            last_ctrl = None
        elif c == "L":
            px, py = numbers(2)
            x, y = ox + px, oy + py
            ops.append(("L", x, y))
            last_ctrl = None
        elif c == "H":
            (px,) = numbers(1)
            x = ox + px
            ops.append(("L", x, y))
            last_ctrl = None
        elif c == "V":
            (py,) = numbers(1)
            y = oy + py
            ops.append(("L", x, y))
            last_ctrl = None
        elif c == "C":
            x1, y1, x2, y2, px, py = numbers(6)
            ops.append(("C", ox + x1, oy + y1, ox + x2, oy + y2, ox + px, oy + py))
            last_ctrl = (ox + x2, oy + y2)
            x, y = ox + px, oy + py
        elif c == "S":
            x2, y2, px, py = numbers(4)
            x1, y1 = (2 * x - last_ctrl[0], 2 * y - last_ctrl[1]) if last_cmd in "CS" and last_ctrl else (x, y)
            ops.append(("C", x1, y1, ox + x2, oy + y2, ox + px, oy + py))
            last_ctrl = (ox + x2, oy + y2)
            x, y = ox + px, oy + py
        elif c in "QT":
            if c == "Q":
                qx, qy, px, py = numbers(4)
                qx, qy = ox + qx, oy + qy
            else:
                px, py = numbers(2)
                qx, qy = (2 * x - last_ctrl[0], 2 * y - last_ctrl[1]) if last_cmd in "QT" and last_ctrl else (x, y)
            ex, ey = ox + px, oy + py
            ops.append(("C", x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y),
                        ex + 2 / 3 * (qx - ex), ey + 2 / 3 * (qy - ey), ex, ey))
            last_ctrl = (qx, qy)
            x, y = ex, ey
        elif c == "A":
            rx, ry, phi, large, sweep, px, py = numbers(7)
            ex, ey = ox + px, oy + py
            ops.extend(_arc_to_beziers(x, y, rx, ry, phi, int(large), int(sweep), ex, ey))
            x, y = ex, ey
            last_ctrl = None
        last_cmd = c
    return ops


def _ellipse_ops(cx, cy, rx, ry) -> list[Op]:
    k = 0.5522847498
    return [
        ("M", cx + rx, cy),
        ("C", cx + rx, cy + k * ry, cx + k * rx, cy + ry, cx, cy + ry),
        ("C", cx - k * rx, cy + ry, cx - rx, cy + k * ry, cx - rx, cy),
        ("C", cx - rx, cy - k * ry, cx - k * rx, cy - ry, cx, cy - ry),
        ("C", cx + k * rx, cy - ry, cx + rx, cy - k * ry, cx + rx, cy),
        ("Z",),
    ]


def _rect_ops(x, y, w, h, r) -> list[Op]:
    if r <= 0:
        return [("M", x, y), ("L", x + w, y), ("L", x + w, y + h), ("L", x, y + h), ("Z",)]
    r = min(r, w / 2, h / 2)
    k = 0.5522847498 * r
    return [
        ("M", x + r, y), ("L", x + w - r, y),
        ("C", x + w - r + k, y, x + w, y + r - k, x + w, y + r), ("L", x + w, y + h - r),
        ("C", x + w, y + h - r + k, x + w - r + k, y + h, x + w - r, y + h), ("L", x + r, y + h),
        ("C", x + r - k, y + h, x, y + h - r + k, x, y + h - r), ("L", x, y + r),
        ("C", x, y + r - k, x + r - k, y, x + r, y), ("Z",),
    ]


def _matrix(text: str | None) -> tuple[float, ...] | None:
    if not text:
        return None
    result = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", text):
        v = [float(n) for n in _NUMBER.findall(args)]
        if name == "translate":
            m = (1, 0, 0, 1, v[0], v[1] if len(v) > 1 else 0)
        elif name == "scale":
            m = (v[0], 0, 0, v[1] if len(v) > 1 else v[0], 0, 0)
        elif name == "rotate":
            a = math.radians(v[0])
            ca, sa = math.cos(a), math.sin(a)
            m = (ca, sa, -sa, ca, 0, 0)
            if len(v) == 3:
                cx, cy = v[1], v[2]
                m = _multiply((1, 0, 0, 1, cx, cy), _multiply(m, (1, 0, 0, 1, -cx, -cy)))
        elif name == "matrix":
            m = tuple(v[:6])
        else:
            raise ValueError(f"unsupported transform {name!r}")
        result = _multiply(result, m)
    return result


def _multiply(p, q):
    a, b, c, d, e, f = p
    A, B, C, D, E, F = q
    return (a * A + c * B, b * A + d * B, a * C + c * D, b * C + d * D,
            a * E + c * F + e, b * E + d * F + f)


def _color(value: str | None, inherited: str | None) -> str | None:
    if value is None:
        return inherited
    value = value.strip()
    if value == "none":
        return None
    if value == "currentColor":
        return "current"
    if re.fullmatch(r"#[0-9a-fA-F]{6}", value):
        return value.lower()
    if re.fullmatch(r"#[0-9a-fA-F]{3}", value):
        return "#" + "".join(ch * 2 for ch in value[1:]).lower()
    named = {"black": "#000000", "white": "#ffffff"}
    if value in named:
        return named[value]
    raise ValueError(f"unsupported colour {value!r}")


def _style(node: ET.Element) -> dict[str, str]:
    attrs = dict(node.attrib)
    for item in attrs.pop("style", "").split(";"):
        if ":" in item:
            key, val = item.split(":", 1)
            attrs[key.strip()] = val.strip()
    return attrs


def _walk(node: ET.Element, inherited: dict, out: list[Shape], transform) -> None:
    attrs = _style(node)
    state = dict(inherited)
    for key in ("fill", "stroke"):
        if key in attrs:
            state[key] = _color(attrs[key], None)
    for key in ("stroke-width", "opacity", "fill-opacity"):
        if key in attrs:
            state[key] = float(_NUMBER.match(attrs[key]).group())
    for key in ("fill-rule", "stroke-linecap", "stroke-linejoin"):
        if key in attrs:
            state[key] = attrs[key]
    local = _matrix(attrs.get("transform"))
    if local:
        transform = _multiply(transform, local) if transform else local
    tag = node.tag.replace(_NS, "")
    num = lambda k, default=0.0: float(_NUMBER.match(attrs.get(k, str(default))).group())  # noqa: E731
    ops: list[Op] | None = None
    if tag == "path":
        ops = parse_path(attrs.get("d", ""))
    elif tag == "circle":
        ops = _ellipse_ops(num("cx"), num("cy"), num("r"), num("r"))
    elif tag == "ellipse":
        ops = _ellipse_ops(num("cx"), num("cy"), num("rx"), num("ry"))
    elif tag == "rect":
        ops = _rect_ops(num("x"), num("y"), num("width"), num("height"), num("rx", attrs.get("ry", 0)))
    elif tag in ("polygon", "polyline"):
        values = [float(n) for n in _NUMBER.findall(attrs.get("points", ""))]
        points = list(zip(values[::2], values[1::2]))
        ops = [("M", *points[0])] + [("L", *p) for p in points[1:]]
        if tag == "polygon":
            ops.append(("Z",))
    elif tag == "line":
        ops = [("M", num("x1"), num("y1")), ("L", num("x2"), num("y2"))]
    elif tag in ("svg", "g"):
        for child in node:
            _walk(child, state, out, transform)
        return
    if ops:
        caps = {"butt": 0, "round": 1, "square": 2}
        joins = {"miter": 0, "round": 1, "bevel": 2}
        fill = state.get("fill", "#000000") if tag != "line" and tag != "polyline" else state.get("fill")
        out.append(Shape(
            tuple(ops), fill, state.get("stroke"), state.get("stroke-width", 1.0),
            state.get("fill-rule") == "evenodd", caps.get(state.get("stroke-linecap", "butt"), 0),
            joins.get(state.get("stroke-linejoin", "miter"), 0),
            state.get("opacity", 1.0) * state.get("fill-opacity", 1.0), transform,
        ))


def _check_tree(root: ET.Element) -> None:
    """Elements nested at most MAX_SVG_DEPTH deep, and at most MAX_SVG_ELEMENTS of them
    (counted without recursing: the nesting is what is being checked)."""
    count, deepest = 0, 0
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        count += 1
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in node)
    if deepest > MAX_SVG_DEPTH:
        raise ValueError(f"elements nested {deepest} deep; the limit is {MAX_SVG_DEPTH}")
    if count > MAX_SVG_ELEMENTS:
        raise ValueError(f"{count} elements; the limit is {MAX_SVG_ELEMENTS}")


def _check_numbers(box: tuple[float, ...], shapes: list[Shape]) -> None:
    """Every number of the drawing finite and at most MAX_NUMBER: reportlab would
    otherwise write NaN into the PDF, or stop with an error of its own."""
    for shape in shapes:
        numbers = [value for op in shape.ops for value in op[1:]]
        numbers += [shape.stroke_width, shape.opacity, *(shape.transform or ())]
        for value in numbers:
            if not (math.isfinite(value) and abs(value) <= MAX_NUMBER):
                raise ValueError(f"the number {value:g} in its drawing; numbers must be finite and "
                                 f"at most {MAX_NUMBER:.0f}")
    for value in box:
        if not (math.isfinite(value) and abs(value) <= MAX_NUMBER):
            raise ValueError(f"the viewBox holds {value:g}; numbers must be finite and at most {MAX_NUMBER:.0f}")


def parse_icon(text: str, name: str = "icon") -> Icon:
    """Parse SVG text into an :class:`Icon`."""
    root = ET.fromstring(text)
    if root.tag.replace(_NS, "") != "svg":
        raise ValueError("the root element is not <svg>")
    _check_tree(root)
    box = [float(n) for n in _NUMBER.findall(root.attrib.get("viewBox", ""))]
    if len(box) != 4 or not box[2] > 0 or not box[3] > 0:
        raise ValueError("the <svg> needs a viewBox with a positive width and height")
    shapes: list[Shape] = []
    _walk(root, {"fill": "#000000"}, shapes, None)
    _check_numbers(tuple(box), shapes)
    return Icon(name, tuple(box), tuple(shapes))


@lru_cache(maxsize=None)
def read_icon(source: str) -> Icon:
    """Read one SVG file, once; errors name the file."""
    path = Path(source)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_SVG_BYTES + 1)
        if len(data) > MAX_SVG_BYTES:
            raise ValueError(f"the file is larger than the limit of {size_shown(MAX_SVG_BYTES)}")
        return parse_icon(data.decode("utf-8"), path.stem)._replace(source=source)
    except FileNotFoundError:
        raise IconError(f"{path}: no such icon") from None
    except OSError as exc:
        raise IconError(f"{path}: cannot read the icon ({exc.strerror})") from None
    except (ET.ParseError, ValueError, IndexError, AttributeError, OverflowError, ZeroDivisionError) as exc:
        # UnicodeDecodeError is a ValueError.
        raise IconError(f"{path}: cannot read the icon ({exc})") from None


@lru_cache(maxsize=None)
def load_icon(folders: str | tuple[str, ...], name: str) -> Icon:
    """Read ``name.svg`` from the first folder that has it, once; errors name the file.

    A user's template may bring its own icons/ folder, searched before ours.
    """
    folders = (folders,) if isinstance(folders, str) else folders
    if not _ICON_NAME.fullmatch(name):
        raise IconError(f"the icon name {name[:60]!r} is not a plain name: letters, digits, - and _ "
                        "(the file NAME.svg in an icons/ folder), not a path")
    path = next((Path(f) / f"{name}.svg" for f in folders if (Path(f) / f"{name}.svg").exists()),
                None)
    if path is None:
        raise IconError(f"no icon {name!r} ({name}.svg) in {', '.join(folders)}")
    return read_icon(str(path))
