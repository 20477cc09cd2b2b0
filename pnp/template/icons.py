"""A small SVG reader for our own pictograms: their shapes as plain path operations.

Reads what hand-made icons and drawing programs' exports hold: ``path`` (all
commands, arcs included), ``circle``, ``ellipse``, ``rect`` (with rx),
``polygon``, ``polyline``, ``line``, ``g``, ``a`` (its content), ``use`` (of
an element of the same file, ``defs`` and ``symbol`` included), ``switch``
(its first child that applies) and ``text`` (with ``tspan``, set in the kit's
fonts), with ``fill``, ``stroke``, ``stroke-width``, ``stroke-linecap``,
``stroke-linejoin``, ``fill-rule``, ``opacity``, ``fill-opacity``,
``stroke-opacity`` (numbers or percentages, held to 0-1), ``transform`` and
lengths in user units, ``px``, ``pt``, ``mm``, ``cm``, ``in`` or percentages of
the viewBox. ``currentColor`` takes the colour the template asks for.
Descriptions, metadata and other programs' elements (Inkscape's, say) are
skipped. Anything else that would draw (an image, a gradient, a clip, a
stylesheet...) is refused with its element and line: an icon is never drawn
blank or wrong without a word. The renderer draws the shapes; nothing here
needs a PDF library.

An icon is a plain name (letters, digits, ``-`` and ``_``) found in an
``icons/`` folder, never a path. Its file, its nesting, its number of elements
(counted again once each ``use`` is expanded) and every number it holds are
bounded (:mod:`pnp.core.limits`): the file is refused before it is parsed, and its
shapes before they are drawn. Entity declarations are refused outright.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from xml.parsers import expat
from pathlib import Path
from typing import Callable

from pnp.core.errors import TemplateError, composed
from pnp.core.files import ReadError, read_regular
from pnp.core.limits import MAX_NUMBER, MAX_SVG_BYTES, MAX_SVG_DEPTH, MAX_SVG_ELEMENTS, size_shown
from pnp.core.records import NamedTuple

_SVG = "http://www.w3.org/2000/svg"
_XLINK = "http://www.w3.org/1999/xlink"
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
    opacity: float         # of the fill: opacity x fill-opacity, 0 to 1
    transform: tuple[float, ...] | None  # a, b, c, d, e, f
    stroke_opacity: float = 1.0   # opacity x stroke-opacity, 0 to 1


class Label(NamedTuple):
    """A line of an icon's text, set in the kit's fonts at (x, y) of its baseline."""

    text: str
    x: float
    y: float
    size: float
    style: str             # "regular", "bold", "black" or "italic" (pnp.render.fonts.FAMILY)
    anchor: str            # "start", "middle" or "end"
    fill: str | None
    opacity: float
    transform: tuple[float, ...] | None
    line: int              # where it is in the file, for messages


class Icon(NamedTuple):
    name: str
    view_box: tuple[float, float, float, float]
    shapes: tuple[Shape | Label, ...]
    source: str = ""    # the file it was read from

    @property
    def labels(self) -> tuple[Label, ...]:
        return tuple(shape for shape in self.shapes if type(shape) is Label)


class IconError(TemplateError):
    """An icon file is missing or cannot be read."""


def _arc_to_beziers(x1, y1, rx, ry, *, phi, large, sweep, x2, y2):
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
    return _PathReader(d).read()


class _PathReader:
    """Reads path data command by command, keeping the pen's position, where the subpath
    started and the last control point (which a smooth curve mirrors); each command is
    one method (see :data:`_PATH_COMMANDS`), given its origin (the pen for a relative one)."""

    def __init__(self, d: str) -> None:
        self.d = d
        self.tokens = [(c, float(n) if n else None) for c, n in _TOKEN.findall(d)]
        self.i = 0
        self.ops: list[Op] = []
        self.x = self.y = self.sx = self.sy = 0.0
        self.last_ctrl: tuple[float, float] | None = None
        self.last_cmd = ""
        self.cmd = ""

    def numbers(self, count: int) -> list[float]:
        values = []
        for _ in range(count):
            if self.i >= len(self.tokens) or self.tokens[self.i][0]:
                raise ValueError(f"path data ends early near token {self.i}: {self.d[:40]!r}")
            values.append(self.tokens[self.i][1])
            self.i += 1
        return values

    def read(self) -> list[Op]:
        tokens = self.tokens
        if tokens and tokens[0][0] not in ("M", "m"):
            found = tokens[0][0] or "a number"
            raise ValueError(f"path data must start with a move-to (M), not {found}: {self.d[:40]!r}")
        while self.i < len(tokens):
            if tokens[self.i][0]:
                self.cmd = tokens[self.i][0]
                self.i += 1
            elif not self.cmd:
                raise ValueError(f"path data must start with a command: {self.d[:40]!r}")
            rel = self.cmd.islower()
            c = self.cmd.upper()
            ox, oy = (self.x, self.y) if rel else (0.0, 0.0)
            getattr(self, _PATH_COMMANDS[c])(ox, oy, rel)
            self.last_cmd = c
        return self.ops

    def close(self, ox: float, oy: float, rel: bool) -> None:
        self.ops.append(("Z",))
        self.x, self.y = self.sx, self.sy
        self.last_ctrl = None

    def move(self, ox: float, oy: float, rel: bool) -> None:
        px, py = self.numbers(2)
        self.x, self.y = ox + px, oy + py
        self.sx, self.sy = self.x, self.y
        self.ops.append(("M", self.x, self.y))
        self.cmd = "l" if rel else "L"  # following pairs are line-tos
        self.last_ctrl = None

    def line(self, ox: float, oy: float, rel: bool) -> None:
        px, py = self.numbers(2)
        self.x, self.y = ox + px, oy + py
        self.ops.append(("L", self.x, self.y))
        self.last_ctrl = None

    def horizontal(self, ox: float, oy: float, rel: bool) -> None:
        (px,) = self.numbers(1)
        self.x = ox + px
        self.ops.append(("L", self.x, self.y))
        self.last_ctrl = None

    def vertical(self, ox: float, oy: float, rel: bool) -> None:
        (py,) = self.numbers(1)
        self.y = oy + py
        self.ops.append(("L", self.x, self.y))
        self.last_ctrl = None

    def cubic(self, ox: float, oy: float, rel: bool) -> None:
        x1, y1, x2, y2, px, py = self.numbers(6)
        self._curve(ox + x1, oy + y1, ox + x2, oy + y2, ex=ox + px, ey=oy + py)

    def smooth_cubic(self, ox: float, oy: float, rel: bool) -> None:
        x2, y2, px, py = self.numbers(4)
        x, y, last = self.x, self.y, self.last_ctrl
        x1, y1 = (2 * x - last[0], 2 * y - last[1]) if self.last_cmd in "CS" and last else (x, y)
        self._curve(x1, y1, ox + x2, oy + y2, ex=ox + px, ey=oy + py)

    def _curve(self, x1: float, y1: float, x2: float, y2: float, *, ex: float, ey: float) -> None:
        self.ops.append(("C", x1, y1, x2, y2, ex, ey))
        self.last_ctrl = (x2, y2)
        self.x, self.y = ex, ey

    def quadratic(self, ox: float, oy: float, rel: bool) -> None:
        """Q, and T (its control point the last one mirrored), as the cubic it equals."""
        x, y, last = self.x, self.y, self.last_ctrl
        if self.cmd.upper() == "Q":
            qx, qy, px, py = self.numbers(4)
            qx, qy = ox + qx, oy + qy
        else:
            px, py = self.numbers(2)
            qx, qy = (2 * x - last[0], 2 * y - last[1]) if self.last_cmd in "QT" and last else (x, y)
        ex, ey = ox + px, oy + py
        self.ops.append(("C", x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y),
                         ex + 2 / 3 * (qx - ex), ey + 2 / 3 * (qy - ey), ex, ey))
        self.last_ctrl = (qx, qy)
        self.x, self.y = ex, ey

    def arc(self, ox: float, oy: float, rel: bool) -> None:
        rx, ry, phi, large, sweep, px, py = self.numbers(7)
        ex, ey = ox + px, oy + py
        self.ops.extend(_arc_to_beziers(self.x, self.y, rx, ry, phi=phi, large=int(large), sweep=int(sweep), x2=ex,
                                        y2=ey))
        self.x, self.y = ex, ey
        self.last_ctrl = None


#: The method of :class:`_PathReader` that reads each path command.
_PATH_COMMANDS = {"Z": "close", "M": "move", "L": "line", "H": "horizontal", "V": "vertical", "C": "cubic",
                  "S": "smooth_cubic", "Q": "quadratic", "T": "quadratic", "A": "arc"}


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


def _rect_ops(x, y, w, h, *, r) -> list[Op]:
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


def _points(text: str, tag: str) -> list[tuple[float, float]]:
    """A polygon's or polyline's ``points``: x,y pairs, at least two (SVG draws nothing of
    fewer, and stops at a number without its pair: refused here, never drawn as nothing).

    >>> _points("1,2 3,4", "polygon")
    [(1.0, 2.0), (3.0, 4.0)]
    >>> _points("5", "polygon")
    Traceback (most recent call last):
    ...
    ValueError: points="5" holds 1 number; a polygon's points are pairs of x and y, at least two of them
    """
    # What is left once every number is taken out is only spaces and commas (a pattern of the
    # whole list would backtrack without end on a long run of digits).
    if _NUMBER.sub(" ", text).strip(" \t\r\n,"):
        raise ValueError(f"points={text[:40]!r} is not a list of numbers (x,y pairs)")
    values = [float(n) for n in _NUMBER.findall(text)]
    if len(values) % 2 or len(values) < 4:
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise ValueError(f"points=\"{shown}\" holds {len(values)} number{'' if len(values) == 1 else 's'}; "
                         f"a {tag}'s points are pairs of x and y, at least two of them")
    return list(zip(values[::2], values[1::2]))


#: How many numbers each transform takes (SVG 1.1: a transform given others is in error).
_TRANSFORM_ARITY = {"matrix": (6,), "translate": (1, 2), "scale": (1, 2), "rotate": (1, 3), "skewX": (1,),
                    "skewY": (1,)}


def _matrix(text: str | None) -> tuple[float, ...] | None:
    if not text:
        return None
    result = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    found = re.findall(r"(\w+)\s*\(([^)]*)\)", text)
    if re.sub(r"(\w+)\s*\(([^)]*)\)", " ", text).strip(" \t\r\n,"):
        raise ValueError("not a list of transforms like translate(10, 5) rotate(45)")
    for name, args in found:
        if _NUMBER.sub(" ", args).strip(" \t\r\n,"):
            raise ValueError(f"{name}({args[:30]}) takes numbers only")
        v = [float(n) for n in _NUMBER.findall(args)]
        if name in _TRANSFORM_ARITY and len(v) not in _TRANSFORM_ARITY[name]:
            counts = " or ".join(map(str, _TRANSFORM_ARITY[name]))
            raise ValueError(f"{name}() takes {counts} number{'' if counts == '1' else 's'}, got {len(v)}")
        past = next((n for n in v if not abs(n) <= MAX_NUMBER), None)   # an infinity too
        if past is not None:
            raise ValueError(f"{name}() holds {past:g}; numbers must be finite and at most {MAX_NUMBER:.0f}")
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
        elif name == "matrix" and len(v) == 6:
            m = tuple(v)
        elif name == "skewX":
            m = (1, 0, math.tan(math.radians(v[0])), 1, 0, 0)
        elif name == "skewY":
            m = (1, math.tan(math.radians(v[0])), 0, 1, 0, 0)
        else:
            raise ValueError(f"unsupported transform {name!r}")
        result = _multiply(result, m)
    return result


def _multiply(p: tuple[float, ...], q: tuple[float, ...]) -> tuple[float, ...]:
    """The product of two affine matrices, each its six numbers (a, b, c, d, e, f) as SVG and PDF write them."""
    a, b, c, d, e, f = p
    A, B, C, D, E, F = q
    return (a * A + c * B, b * A + d * B, a * C + c * D, b * C + d * D,
            a * E + c * F + e, b * E + d * F + f)


#: Colour names a drawing program writes, as CSS knows them (the ones an icon is likely to hold).
_NAMED = {"black": "#000000", "white": "#ffffff", "red": "#ff0000", "green": "#008000", "blue": "#0000ff",
          "yellow": "#ffff00", "orange": "#ffa500", "purple": "#800080", "gray": "#808080",
          "grey": "#808080", "silver": "#c0c0c0", "maroon": "#800000", "olive": "#808000",
          "lime": "#00ff00", "aqua": "#00ffff", "teal": "#008080", "navy": "#000080",
          "fuchsia": "#ff00ff", "brown": "#a52a2a"}
_RGB = re.compile(r"rgb\(\s*([^,\s]+)\s*,\s*([^,\s]+)\s*,\s*([^,\s)]+)\s*\)")


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
    if value.lower() in _NAMED:
        return _NAMED[value.lower()]
    found = _RGB.fullmatch(value)
    if found:
        channels = []
        for part in found.groups():
            number = float(part[:-1]) * 2.55 if part.endswith("%") else float(part)
            channels.append(min(255, max(0, round(number))))
        return "#" + "".join(f"{c:02x}" for c in channels)
    if value.startswith("url("):
        raise ValueError(f"a paint server ({value[:40]}: a gradient or a pattern) cannot be drawn; "
                         "give a plain colour")
    raise ValueError(f"unsupported colour {value[:40]!r}")


# ---- the document: elements with their lines ---------------------------------------------------

class _Node(NamedTuple):
    tag: str               # the local name of an SVG element; "{namespace}name" for another's
    attrs: dict[str, str]  # presentation attributes from style="" included
    content: list          # character data and child nodes, in order
    line: int

    @property
    def children(self) -> list["_Node"]:
        return [item for item in self.content if type(item) is _Node]

    @property
    def svg(self) -> bool:
        return not self.tag.startswith("{")

    def where(self) -> str:
        return f"<{self.tag}> at line {self.line}"


def _styled(attrs: dict[str, str]) -> dict[str, str]:
    style = attrs.pop("style", "")
    for item in style.split(";"):
        if ":" in item:
            key, val = item.split(":", 1)
            attrs[key.strip()] = val.strip()
    return attrs


def _document(text: str) -> _Node:
    """The SVG text as nodes; ValueError for XML that is not well formed, an entity
    declaration, or a tree past its limits of depth and number of elements."""
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    stack: list[_Node] = []
    found: list[_Node] = []
    count = deepest = depth = 0

    def name_of(raw: str) -> str:
        namespace, _, local = raw.rpartition(" ")
        return local if namespace in ("", _SVG) else "{" + namespace + "}" + local

    def attribute(raw: str) -> str:
        namespace, _, local = raw.rpartition(" ")
        if namespace == _XLINK:
            return "xlink:" + local
        return local if not namespace else "{" + namespace + "}" + local

    def start(raw: str, attrs: dict[str, str]) -> None:
        nonlocal count, deepest, depth
        count += 1
        depth += 1
        deepest = max(deepest, depth)
        if count > MAX_SVG_ELEMENTS or deepest > MAX_SVG_DEPTH:
            return   # past a limit: only counted from here on, and refused once all is counted
        node = _Node(name_of(raw), _styled({attribute(k): v for k, v in attrs.items()}), [],
                     parser.CurrentLineNumber)
        if stack:
            stack[-1].content.append(node)
        else:
            found.append(node)
        stack.append(node)

    def end(raw: str) -> None:
        nonlocal depth
        if len(stack) == depth:
            stack.pop()
        depth -= 1

    def characters(data: str) -> None:
        if stack and len(stack) == depth:
            stack[-1].content.append(data)

    def entity(name, *args) -> None:
        raise ValueError(f"an entity declaration ({name}) at line {parser.CurrentLineNumber}: "
                         "entities are not read in an icon")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = characters
    parser.EntityDeclHandler = entity
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        raise ValueError(f"not well-formed XML ({exc})") from None
    if deepest > MAX_SVG_DEPTH:
        raise ValueError(f"elements nested {deepest} deep; the limit is {MAX_SVG_DEPTH}")
    if count > MAX_SVG_ELEMENTS:
        raise ValueError(f"{count} elements; the limit is {MAX_SVG_ELEMENTS}")
    return found[0]


# ---- lengths, opacities, attributes ------------------------------------------------------------

#: User units per unit: CSS's 96 px to the inch.
_UNITS = {"": 1.0, "px": 1.0, "pt": 96 / 72, "pc": 16.0, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0}
_LENGTH = re.compile(r"\s*([-+]?(?:\d*\.\d+|\d+\.?)(?:[eE][-+]?\d+)?)\s*(px|pt|pc|mm|cm|in|%|em|ex)?\s*")


class _Reader:
    """Walks an icon's document into shapes and labels."""

    def __init__(self, root: _Node, box: tuple[float, float, float, float]) -> None:
        self.root = root
        self.box = box
        self.out: list[Shape | Label] = []
        self.visited = 0
        self.using: list[str] = []
        self.ids: dict[str, _Node] = {}
        stack = [root]
        while stack:
            node = stack.pop()
            if "id" in node.attrs:
                self.ids.setdefault(node.attrs["id"], node)
            stack.extend(node.children)

    # -- values --
    def length(self, node: _Node, key: str, default: float = 0.0, axis: str = "x") -> float:
        raw = node.attrs.get(key)
        if raw is None or not raw.strip():
            return default
        found = _LENGTH.match(raw)
        if not found:
            raise ValueError(f"{node.where()}: {key}={raw[:30]!r} is not a length")
        number, unit = float(found.group(1)), found.group(2) or ""
        if unit == "%":
            w, h = self.box[2], self.box[3]
            whole = {"x": w, "y": h}.get(axis, math.hypot(w, h) / math.sqrt(2))
            return number / 100 * whole
        if unit in ("em", "ex"):
            raise ValueError(f"{node.where()}: {key}={raw[:30]!r}: lengths in {unit} are not read; "
                             "give user units, px, pt, mm, cm, in or %")
        return number * _UNITS[unit]

    @staticmethod
    def fraction(node: _Node, key: str, raw: str) -> float:
        """An opacity: a number or a percentage, held to 0-1 as SVG says."""
        found = re.fullmatch(r"\s*([-+]?(?:\d*\.\d+|\d+\.?)(?:[eE][-+]?\d+)?)\s*(%?)\s*", raw)
        if not found:
            raise ValueError(f"{node.where()}: {key}={raw[:30]!r} is not a number or a percentage")
        value = float(found.group(1)) / (100 if found.group(2) else 1)
        return min(1.0, max(0.0, value)) if math.isfinite(value) else value

    def state(self, node: _Node, inherited: dict) -> dict:
        attrs = node.attrs
        state = dict(inherited)
        try:
            for key in ("fill", "stroke"):
                if key in attrs and attrs[key].strip() != "inherit":
                    state[key] = _color(attrs[key], None)
        except ValueError as exc:
            raise ValueError(f"{node.where()}: {exc}") from None
        if "opacity" in attrs:   # a group's opacity applies to all it holds
            state["opacity"] = inherited.get("opacity", 1.0) * self.fraction(node, "opacity", attrs["opacity"])
        for key in ("fill-opacity", "stroke-opacity"):
            if key in attrs:
                state[key] = self.fraction(node, key, attrs[key])
        if "stroke-width" in attrs:
            state["stroke-width"] = self.length(node, "stroke-width", 1.0, "diagonal")
        if "font-size" in attrs:
            state["font-size"] = self.length(node, "font-size", 16.0, "y")
        for key in ("fill-rule", "stroke-linecap", "stroke-linejoin", "font-weight", "font-style",
                    "text-anchor", "dominant-baseline"):
            if key in attrs:
                state[key] = attrs[key].strip()
        return state

    # -- the walk --
    def walk(self, node: _Node, inherited: dict, transform) -> None:
        if not node.svg:
            return      # another program's element (Inkscape's, Sodipodi's...): nothing to draw
        self.visited += 1
        if self.visited > MAX_SVG_ELEMENTS:
            raise ValueError(f"more than {MAX_SVG_ELEMENTS} elements to draw once each <use> is expanded; "
                             f"the limit is {MAX_SVG_ELEMENTS}")
        tag, attrs = node.tag, node.attrs
        if tag in _NOT_DRAWN or attrs.get("display", "").strip() == "none":
            return
        if tag == "style":
            if "".join(item for item in node.content if type(item) is str).strip():
                raise ValueError(f"{node.where()}: a stylesheet is not read; give each element its "
                                 "fill, stroke... as attributes")
            return
        for key in _REFUSED_ATTRIBUTES:
            if attrs.get(key, "none").strip() != "none":
                raise ValueError(f"{node.where()}: {key}={attrs[key][:30]!r} cannot be drawn in an icon")
        if attrs.get("visibility", "").strip() in ("hidden", "collapse"):
            raise ValueError(f"{node.where()}: visibility={attrs['visibility']!r} is not read; "
                             "leave the element out, or use display=\"none\"")
        try:
            local = _matrix(attrs.get("transform"))
        except (ValueError, IndexError) as exc:
            raise ValueError(f"{node.where()}: transform {attrs.get('transform', '')[:40]!r}: {exc}") from None
        if local:
            transform = _multiply(transform, local) if transform else local
        state = self.state(node, inherited)
        if tag in ("svg", "g", "a"):
            if tag == "svg" and any(key in attrs for key in ("viewBox", "x", "y", "width", "height")) \
                    and node is not self.root:
                raise ValueError(f"{node.where()}: an <svg> inside the icon, with a viewport of its own, "
                                 "is not read; use a <g>")
            for child in node.children:
                self.walk(child, state, transform)
        elif tag == "switch":
            self.switch(node, state, transform)
        elif tag == "use":
            self.use(node, state, transform)
        elif tag == "text":
            self.text(node, state, transform)
        elif tag in _SHAPES:
            self.shape(node, state, transform)
        else:
            raise ValueError(f"{node.where()}: this element cannot be drawn in an icon (it draws "
                             "paths, circles, ellipses, rectangles, polygons, lines, text, <use>, "
                             "<switch> and groups)")

    def switch(self, node: _Node, state: dict, transform) -> None:
        for child in node.children:
            if not child.svg:
                continue
            if "systemLanguage" in child.attrs:
                raise ValueError(f"{child.where()}: systemLanguage is not read: an icon is drawn alike "
                                 "in every language of the kit; keep one drawing")
            if "requiredExtensions" in child.attrs:
                continue    # no extension is supported (SVG 1.1: even an empty list fails)
            features = child.attrs.get("requiredFeatures")
            if features is not None and not all(f.rpartition("#")[2] in _FEATURES for f in features.split()):
                continue
            self.walk(child, state, transform)
            return
        raise ValueError(f"{node.where()}: none of its children can be drawn (each asks for a feature "
                         "or extension this reader does not have)")

    def use(self, node: _Node, state: dict, transform) -> None:
        reference = node.attrs.get("href", node.attrs.get("xlink:href", "")).strip()
        if not reference.startswith("#"):
            raise ValueError(f"{node.where()}: href={reference[:40]!r}: a <use> may refer only to an "
                             "element of the same file (href=\"#id\")")
        target = self.ids.get(reference[1:])
        if target is None:
            raise ValueError(f"{node.where()}: no element has the id {reference[1:][:40]!r}")
        if reference in self.using:
            raise ValueError(f"{node.where()}: the <use> of {reference[:40]} refers back to itself")
        x, y = self.length(node, "x", 0.0, "x"), self.length(node, "y", 0.0, "y")
        if x or y:
            moved = (1.0, 0.0, 0.0, 1.0, x, y)
            transform = _multiply(transform, moved) if transform else moved
        self.using.append(reference)
        try:
            if target.tag == "symbol":
                self.symbol(node, target, state, transform)
            else:
                self.walk(target, state, transform)
        finally:
            self.using.pop()

    def symbol(self, use: _Node, symbol: _Node, state: dict, transform) -> None:
        box = [float(n) for n in _NUMBER.findall(symbol.attrs.get("viewBox", ""))]
        if box:
            if len(box) != 4 or not (box[2] > 0 and box[3] > 0):
                raise ValueError(f"{symbol.where()}: a viewBox needs four numbers, a width and a height above 0")
            w = self.length(use, "width", self.box[2], "x")
            h = self.length(use, "height", self.box[3], "y")
            scale = min(w / box[2], h / box[3])   # xMidYMid meet, SVG's default
            fit = (scale, 0.0, 0.0, scale, (w - box[2] * scale) / 2 - box[0] * scale,
                   (h - box[3] * scale) / 2 - box[1] * scale)
            transform = _multiply(transform, fit) if transform else fit
        state = self.state(symbol, state)
        for child in symbol.children:
            self.walk(child, state, transform)

    def shape(self, node: _Node, state: dict, transform) -> None:
        tag, attrs = node.tag, node.attrs
        length = self.length
        try:
            if tag == "path":
                ops = parse_path(attrs.get("d", ""))
            elif tag == "circle":
                r = length(node, "r", 0.0, "diagonal")
                ops = _ellipse_ops(length(node, "cx"), length(node, "cy", axis="y"), r, r) if r > 0 else []
            elif tag == "ellipse":
                rx, ry = length(node, "rx"), length(node, "ry", axis="y")
                ops = _ellipse_ops(length(node, "cx"), length(node, "cy", axis="y"), rx, ry) if rx > 0 and ry > 0 else []
            elif tag == "rect":
                w, h = length(node, "width"), length(node, "height", axis="y")
                r = length(node, "rx", length(node, "ry", axis="y"))
                ops = _rect_ops(length(node, "x"), length(node, "y", axis="y"), w, h,
                                r=r) if w > 0 and h > 0 else []
            elif tag in ("polygon", "polyline"):
                points = _points(attrs.get("points", ""), tag)
                ops = [("M", *points[0])] + [("L", *q) for q in points[1:]]
                if tag == "polygon":
                    ops.append(("Z",))
            else:  # line
                ops = [("M", length(node, "x1"), length(node, "y1", axis="y")),
                       ("L", length(node, "x2"), length(node, "y2", axis="y"))]
        except ValueError as exc:
            message = str(exc)
            raise ValueError(message if message.startswith("<") else f"{node.where()}: {message}") from None
        if not ops:
            return
        caps = {"butt": 0, "round": 1, "square": 2}
        joins = {"miter": 0, "round": 1, "bevel": 2, "miter-clip": 0, "arcs": 0}
        fill = state.get("fill", "#000000") if tag not in ("line", "polyline") else state.get("fill")
        opacity = state.get("opacity", 1.0)
        self.out.append(Shape(
            tuple(ops), fill, state.get("stroke"), state.get("stroke-width", 1.0),
            even_odd=state.get("fill-rule") == "evenodd", cap=caps.get(state.get("stroke-linecap", "butt"), 0),
            join=joins.get(state.get("stroke-linejoin", "miter"), 0),
            opacity=opacity * state.get("fill-opacity", 1.0), transform=transform,
            stroke_opacity=opacity * state.get("stroke-opacity", 1.0),
        ))

    def text(self, node: _Node, state: dict, transform) -> None:
        """Each run of the text (the text itself, each positioned <tspan>) as a label."""
        x, y = self.first(node, "x", 0.0, "x"), self.first(node, "y", 0.0, "y")
        x, y = x + self.first(node, "dx", 0.0, "x"), y + self.first(node, "dy", 0.0, "y")
        runs: list[tuple[float, float, dict, _Node, list[str]]] = [(x, y, state, node, [])]
        self.gather(node, state, runs)
        for x, y, style, where, words in runs:
            text = composed(" ".join(" ".join(words).split()))   # XML's default: spaces run together
            if text:
                self.out.append(self.label(where, text, x, y, state=style, transform=transform))

    def gather(self, node: _Node, state: dict, runs: list) -> None:
        for item in node.content:
            if type(item) is str:
                runs[-1][4].append(item)
                continue
            if not item.svg or item.tag in ("title", "desc", "metadata"):
                continue
            if item.tag != "tspan":
                raise ValueError(f"{item.where()}: inside a <text> only <tspan> is read")
            for key in ("textLength", "rotate"):
                if key in item.attrs:
                    raise ValueError(f"{item.where()}: {key} is not read")
            inner = self.state(item, state)
            if any(key in item.attrs for key in ("x", "y", "dx", "dy")):
                x0, y0 = runs[-1][0], runs[-1][1]
                x = self.first(item, "x", x0, "x") + self.first(item, "dx", 0.0, "x")
                y = self.first(item, "y", y0, "y") + self.first(item, "dy", 0.0, "y")
                runs.append((x, y, inner, item, []))
                self.gather(item, inner, runs)
            elif _text_look(inner) != _text_look(runs[-1][2]):
                raise ValueError(f"{item.where()}: a <tspan> that changes the look of the words within "
                                 "a line is not read; give it a line of its own (x and y)")
            else:
                self.gather(item, inner, runs)

    def first(self, node: _Node, key: str, default: float, axis: str) -> float:
        """The first of a list of lengths (a text's x="10 12 14" places its first letter)."""
        raw = node.attrs.get(key)
        if raw is None:
            return default
        first = raw.replace(",", " ").split()[:1]
        return self.length(_Node(node.tag, {key: first[0]}, [], node.line), key, default, axis) if first else default

    def label(self, node: _Node, text: str, x: float, y: float, *, state: dict, transform) -> Label:
        for key in ("textLength", "lengthAdjust", "letter-spacing", "word-spacing", "writing-mode"):
            if key in node.attrs:
                raise ValueError(f"{node.where()}: {key} is not read")
        if state.get("stroke"):
            raise ValueError(f"{node.where()}: outlined text (stroke) is not drawn; give the text a fill only")
        weight = state.get("font-weight", "normal")
        bold = weight in ("bold", "bolder") or (weight.isdigit() and int(weight) >= 600)
        black = weight.isdigit() and int(weight) >= 800
        italic = state.get("font-style", "normal") in ("italic", "oblique")
        if italic and bold:
            raise ValueError(f"{node.where()}: the kit's fonts (Lato regular, bold, black, italic) have no "
                             "bold italic")
        style = "black" if black else "bold" if bold else "italic" if italic else "regular"
        anchor = state.get("text-anchor", "start")
        if anchor not in ("start", "middle", "end"):
            raise ValueError(f"{node.where()}: text-anchor={anchor!r}; start, middle or end")
        size = state.get("font-size", 16.0)
        baseline = state.get("dominant-baseline", "auto")
        shift = {"auto": 0.0, "alphabetic": 0.0, "middle": 0.36, "central": 0.36,
                 "hanging": 0.72, "text-before-edge": 0.72}.get(baseline)
        if shift is None:
            raise ValueError(f"{node.where()}: dominant-baseline={baseline!r} is not read")
        return Label(text, x, y + shift * size, size, style=style, anchor=anchor, fill=state.get("fill", "#000000"),
                     opacity=state.get("opacity", 1.0) * state.get("fill-opacity",
                                                                   1.0), transform=transform, line=node.line)


def _text_look(state: dict) -> tuple:
    return tuple(state.get(key) for key in ("fill", "font-size", "font-weight", "font-style", "opacity",
                                            "fill-opacity"))


#: Elements that describe or define, and draw nothing where they stand.
_NOT_DRAWN = frozenset({"title", "desc", "metadata", "defs", "symbol", "clipPath", "mask", "marker",
                        "linearGradient", "radialGradient", "pattern", "filter"})
#: Attributes that would change the drawing in a way this reader cannot follow.
_REFUSED_ATTRIBUTES = ("clip-path", "mask", "filter", "marker", "marker-start", "marker-mid", "marker-end")
_SHAPES = frozenset({"path", "circle", "ellipse", "rect", "polygon", "polyline", "line"})
#: SVG 1.1 features (requiredFeatures) of what this reader draws.
_FEATURES = frozenset({"SVG", "SVG-static", "CoreAttribute", "Structure", "BasicStructure",
                       "ContainerAttribute", "ConditionalProcessing", "Shape", "Text", "BasicText",
                       "PaintAttribute", "BasicPaintAttribute", "OpacityAttribute", "GraphicsAttribute",
                       "BasicGraphicsAttribute", "Hyperlinking", "XlinkAttribute", "Style"})


def _check_numbers(box: tuple[float, ...], shapes: list[Shape | Label]) -> None:
    """Every number of the drawing finite and at most MAX_NUMBER: reportlab would
    otherwise write NaN into the PDF, or stop with an error of its own."""
    for shape in shapes:
        if type(shape) is Label:
            numbers = [shape.x, shape.y, shape.size, shape.opacity, *(shape.transform or ())]
        else:
            numbers = [value for op in shape.ops for value in op[1:]]
            numbers += [shape.stroke_width, shape.opacity, shape.stroke_opacity, *(shape.transform or ())]
        for value in numbers:
            if not (math.isfinite(value) and abs(value) <= MAX_NUMBER):
                raise ValueError(f"the number {value:g} in its drawing; numbers must be finite and "
                                 f"at most {MAX_NUMBER:.0f}")
    for value in box:
        if not (math.isfinite(value) and abs(value) <= MAX_NUMBER):
            raise ValueError(f"the viewBox holds {value:g}; numbers must be finite and at most {MAX_NUMBER:.0f}")


def parse_icon(text: str, name: str = "icon") -> Icon:
    """Parse SVG text into an :class:`Icon`; ValueError naming the element and its line
    for anything it cannot draw as it would look."""
    root = _document(text)
    if root.tag != "svg":
        raise ValueError("the root element is not <svg>")
    box = [float(n) for n in _NUMBER.findall(root.attrs.get("viewBox", ""))]
    if len(box) != 4 or not box[2] > 0 or not box[3] > 0:
        raise ValueError("the <svg> needs a viewBox with a positive width and height")
    reader = _Reader(root, tuple(box))
    reader.walk(root, {"fill": "#000000"}, None)
    _check_numbers(tuple(box), reader.out)
    return Icon(name, tuple(box), tuple(reader.out))


@lru_cache(maxsize=None)
def read_icon(source: str) -> Icon:
    """Read one SVG file, once; errors name the file."""
    path = Path(source)
    try:
        data = read_regular(path, MAX_SVG_BYTES)
        return parse_icon(data.decode("utf-8"), path.stem)._replace(source=source)
    except ReadError as exc:
        if exc.kind == "missing":
            raise IconError(f"{path}: no such icon") from None
        if exc.kind == "too_large":
            raise IconError(f"{path}: cannot read the icon (the file is larger than the limit of "
                            f"{size_shown(MAX_SVG_BYTES)})") from None
        raise IconError(f"{path}: cannot read the icon ({exc.reason})") from None
    except (ValueError, IndexError, AttributeError, OverflowError, ZeroDivisionError, RecursionError) as exc:
        # UnicodeDecodeError is a ValueError.
        raise IconError(f"{path}: cannot read the icon ({exc})") from None


def load_icon(folders: str | tuple[str, ...], name: str,
              missing: Callable[[str, str], str] | None = None) -> Icon:
    """Read ``name.svg`` from the first folder that has it, once; errors name the file.

    A user's template may bring its own icons/ folder, searched before ours.
    With ``missing`` (the layout's measurer: (text, style) -> the characters its
    font lacks), every letter of the icon's text must be in the kit's fonts.
    """
    icon = _load_icon(folders, name)
    if missing is not None:
        for label in icon.labels:
            lacking = missing(label.text, label.style)
            if lacking:
                raise IconError(f"{icon.source}: cannot read the icon (<text> at line {label.line}: the kit's "
                                f"fonts have no glyph for {' '.join(repr(ch) for ch in lacking[:8])})")
    return icon


@lru_cache(maxsize=None)
def _load_icon(folders: str | tuple[str, ...], name: str) -> Icon:
    folders = (folders,) if isinstance(folders, str) else folders
    if not _ICON_NAME.fullmatch(name):
        raise IconError(f"the icon name {name[:60]!r} is not a plain name: letters, digits, - and _ "
                        "(the file NAME.svg in an icons/ folder), not a path")
    path = next((Path(f) / f"{name}.svg" for f in folders if (Path(f) / f"{name}.svg").exists()),
                None)
    if path is None:
        raise IconError(f"no icon {name!r} ({name}.svg) in {', '.join(folders)}")
    return read_icon(str(path))
