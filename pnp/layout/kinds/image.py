"""``image``: a designer's picture fitted into its box, maybe turned, see-through, or past the trim.

What it accepts: ``KINDS["image"]`` in pnp/template/kinds.py. The file is found and its
header checked once (:mod:`pnp.template.pictures`); here only its size in pixels is
used, to fit it and to say at what resolution it prints. How its pixels are decoded and
stored in the PDF (once, however many pieces show it) is ``pnp/render/pictures.py``'s.

- ``fit``: ``cover`` (the default) fills the box, cropping what spills over, keeping the
  part ``anchor`` names or the point ``focus`` gives (fractions of the picture, [0.5, 0.5]
  its centre) as near the box's middle as the crop allows; ``contain`` shows all of the
  picture, placed in the box by ``anchor``; ``stretch`` fills the box exactly.
- ``bleed``: ``true`` pushes each side of the box that lies on the trim out to the bleed's
  edge, so the picture itself fills the bleed; ``"extend"`` and ``"mirror"`` leave the
  picture within the trim and make the bleed from its edge (its last pixels drawn out, or
  the picture mirrored at its edge), for art drawn to the trim and no further.
- Its resolution at its printed size (pixels per inch) is worked out here: below the
  template's ``min_dpi`` (150 unless it says otherwise) the piece is refused, naming the
  file and the figure.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from pnp.core.errors import TemplateError
from pnp.core.records import NamedTuple
from pnp.layout.colors import BLACK
from pnp.layout.imposition import Box
from pnp.layout.kinds.base import OUTLINE_MM, CopyFace, KeyedError, Layer, mm
from pnp.layout.primitives import Rect

#: Below this resolution a picture is refused, unless its element's ``min_dpi`` allows it:
#: printed soft and blocky at arm's length.
MIN_DPI = 150.0
#: Below this resolution a picture is said to print soft (a warning, and pnp preflight's).
GOOD_DPI = 300.0
MM_PER_INCH = 25.4
#: A side of the box within this of the trim's edge lies on it (mm).
ON_EDGE = 0.01


class Picture(NamedTuple):
    """A picture drawn into a box (mm from the frame's top-left, y down), clipped to it.

    The whole picture lands on (ix, iy, iw, ih), turned ``rotate`` degrees counter-clockwise
    (iw and ih are its sides as turned); only the part inside the box (x, y, w, h) shows.
    With ``bleed`` "extend" or "mirror", the picture's edge is drawn on past each side of the
    box by ``spread`` (left, top, right, bottom mm): its last pixels drawn out, or mirrored.
    ``dpi`` is its resolution as printed; ``name`` the file as the template wrote it.
    """

    source: str
    x: float
    y: float
    w: float
    h: float
    ix: float
    iy: float
    iw: float
    ih: float
    dpi: float
    name: str
    rotate: int = 0
    opacity: float = 1.0
    bleed: str = ""
    spread: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)

    def boxes(self, measure=None) -> tuple[Box, ...]:
        """Where its pixels land: its box, and the bleed made from its edge."""
        left, top, right, bottom = self.spread
        return (Box(self.x - left, self.y - top, self.w + left + right, self.h + top + bottom),)

    def moved(self, dx: float, dy: float) -> Picture:
        return self._replace(x=self.x + dx, y=self.y + dy, ix=self.ix + dx, iy=self.iy + dy)


DRAWS = (Picture, Rect)

#: For each anchor, where the picture sits in its box across and down (0 left or top, 1 right or bottom).
_PLACES = {"center": (0.5, 0.5), "top": (0.5, 0.0), "bottom": (0.5, 1.0), "left": (0.0, 0.5),
           "right": (1.0, 0.5), "top-left": (0.0, 0.0), "top-right": (1.0, 0.0),
           "bottom-left": (0.0, 1.0), "bottom-right": (1.0, 1.0)}


def resolve(keys: Mapping[str, Any], face: CopyFace, values: Mapping[str, Any],
            frame: tuple[float, float]) -> Layer:
    from pnp.template.pictures import picture_info   # Pillow loads only for kits with pictures

    name = face.text(str(keys["file"]), values, "file")
    if face.folder is None:
        raise KeyedError("file", f"{name}: a picture is read beside a template file")
    try:
        info = picture_info(face.folder, name)
    except TemplateError as exc:
        raise KeyedError("file", str(exc)) from None
    face.budget.picture(info.path, info.width * info.height, name)
    x, y = mm(keys["x"], values, "x"), mm(keys["y"], values, "y")
    w, h = mm(keys["w"], values, "w", low=0), mm(keys["h"], values, "h", low=0)
    if w <= 0 or h <= 0:
        return ()
    bleed = keys.get("bleed", False)
    sides = _on_the_trim(face, (x + frame[0], y + frame[1], w, h))
    if bleed is not False and not any(sides):
        raise KeyedError("bleed", f"a bleed made {'of' if bleed is True else 'from'} the picture runs past "
                                  "the sides of its box that lie on the trim; this box reaches no edge of the "
                                  f"{face.width:g} x {face.height:g} mm piece")
    if bleed is True:
        # The picture itself fills the bleed: each side of its box on the trim reaches the bleed's edge.
        left, top, right, bottom = _to_the_bleed(face, (x + frame[0], y + frame[1], w, h), sides)
        x, y, w, h = left - frame[0], top - frame[1], right - left, bottom - top
    rotate = keys.get("rotate", 0)
    turned = rotate in (90, 270)
    pixels_w, pixels_h = (info.height, info.width) if turned else (info.width, info.height)
    ix, iy, iw, ih = _fitted(keys, values, (x, y, w, h), (pixels_w, pixels_h), rotate=rotate)
    dpi = min(pixels_w / (iw / MM_PER_INCH), pixels_h / (ih / MM_PER_INCH))
    least = float(keys.get("min_dpi", MIN_DPI))
    if dpi < least - 0.05:
        raise KeyedError("file", f"{name} prints at {dpi:.0f} dpi ({info.width} x {info.height} px over "
                                 f"{iw:.1f} x {ih:.1f} mm); below {least:g} dpi a picture prints soft and "
                                 "blocky: use a larger file, a smaller box, or allow it with min_dpi")
    if face.inks.ink_saver:
        # The ink saver prints no picture: its box, outlined, shows where it goes.
        return (_outline(face, (x, y, w, h), frame),)
    opacity = float(keys.get("opacity", 1.0))
    if bleed in ("extend", "mirror"):
        # The picture's edge drawn on from each side of its box on the trim to the bleed's edge.
        left, top, right, bottom = _to_the_bleed(face, (x + frame[0], y + frame[1], w, h), sides)
        spread = (x + frame[0] - left, y + frame[1] - top, right - (x + frame[0] + w), bottom - (y + frame[1] + h))
        return (Picture(info.path, x, y, w, h=h, ix=ix, iy=iy, iw=iw, ih=ih, dpi=dpi, name=name, rotate=rotate,
                        opacity=opacity, bleed=bleed, spread=spread),)
    return (Picture(info.path, x, y, w, h=h, ix=ix, iy=iy, iw=iw, ih=ih, dpi=dpi, name=name, rotate=rotate,
                    opacity=opacity),)


def _on_the_trim(face: CopyFace, box: tuple[float, float, float, float]) -> list[bool]:
    """Which sides of a box (left, top, right, bottom; in the piece's frame) lie on its trim or past it."""
    x, y, w, h = box
    return [x <= ON_EDGE, y <= ON_EDGE, x + w >= face.width - ON_EDGE, y + h >= face.height - ON_EDGE]


class _Edges(NamedTuple):
    """A box's sides, mm in the piece's frame (y down)."""

    left: float
    top: float
    right: float
    bottom: float


def _to_the_bleed(face: CopyFace, box: tuple[float, float, float, float], sides: list[bool]) -> _Edges:
    """A box (in the piece's frame) with each of its sides on the trim pushed out to the bleed's
    edge."""
    x, y, w, h = box
    bleed = face.bleed
    return _Edges(min(x, -bleed) if sides[0] else x, min(y, -bleed) if sides[1] else y,
                  right=max(x + w, face.width + bleed) if sides[2] else x + w,
                  bottom=max(y + h, face.height + bleed) if sides[3] else y + h)


def _fitted(keys: Mapping[str, Any], values: Mapping[str, Any], box: tuple[float, float, float, float],
            pixels: tuple[int, int], *, rotate: int) -> Box:
    """Where the whole picture lands (x, y: its top-left, w, h; mm in the piece's frame, as turned)
    to fill its box as ``fit`` says."""
    x, y, w, h = box
    pixels_w, pixels_h = pixels
    fit = keys.get("fit", "cover")
    if fit == "stretch":
        return Box(x, y, w, h)
    scale = (max if fit == "cover" else min)(w / pixels_w, h / pixels_h)
    iw, ih = pixels_w * scale, pixels_h * scale
    if fit == "cover" and "focus" in keys:
        fx, fy = (mm(v, values, f"focus[{i}]", low=0.0, high=1.0, unit="") for i, v in enumerate(keys["focus"]))
        fx, fy = _turned_point(fx, fy, rotate)
        # The focus as near the box's middle as the picture allows: never a gap at an edge.
        ix = min(x, max(x + w - iw, x + w / 2 - fx * iw))
        iy = min(y, max(y + h - ih, y + h / 2 - fy * ih))
        return Box(ix, iy, iw, ih)
    across, down = _PLACES[keys.get("anchor", "center")]
    return Box(x + (w - iw) * across, y + (h - ih) * down, iw, ih)


def _turned_point(u: float, v: float, rotate: int) -> tuple[float, float]:
    """A point of the picture (fractions from its top-left) once the picture is turned
    ``rotate`` degrees counter-clockwise.

    >>> _turned_point(1.0, 0.0, 90), _turned_point(0.25, 0.0, 180), _turned_point(0.0, 0.0, 270)
    ((0.0, 0.0), (0.75, 1.0), (1.0, 0.0))
    """
    if rotate == 90:
        return v, 1.0 - u
    if rotate == 180:
        return 1.0 - u, 1.0 - v
    if rotate == 270:
        return 1.0 - v, u
    return u, v


def _outline(face: CopyFace, box: tuple[float, float, float, float], frame: tuple[float, float]) -> Rect:
    """The ink saver's outline of a picture's box, kept within the trim."""
    x, y, w, h = box
    left, top = max(x, -frame[0]), max(y, -frame[1])
    right, bottom = min(x + w, face.width - frame[0]), min(y + h, face.height - frame[1])
    half = OUTLINE_MM / 2
    return Rect(left + half, top + half, max(0.0, right - left - OUTLINE_MM), max(0.0, bottom - top - OUTLINE_MM),
                stroke=BLACK, width=OUTLINE_MM)


# ------------------------------------------------------------------ pictures placed in a kit

class Placed(NamedTuple):
    """A picture as a kit places it: on which piece and face, by which element, at what resolution."""

    piece: str                  # component/piece, as reports name it
    face: str                   # front or back
    element: str                # the element's key path
    name: str                   # the file as the template wrote it
    source: str                 # the file, resolved
    dpi: float                  # its resolution as printed (the lowest among the piece's copies)
    pixels: tuple[int, int]     # the file's, as shown


#: A picture is stored smaller only when it has this many times the pixels its printed size
#: needs at the kit's ``image_dpi``: a little more is kept as it is (shrinking it would cost
#: time and sharpness for little less file).
SHRINK_FROM = 1.5


def stored_sizes(placed: list[Placed], image_dpi: float) -> dict[str, tuple[int, int] | None]:
    """Each picture's size in the PDF: None to keep its own pixels, or the smaller size its
    largest use needs at ``image_dpi`` when it has :data:`SHRINK_FROM` times that or more.

    >>> use = Placed("cards/a", "front", "f[0]", "a.jpg", "/t/a.jpg", 600.0, (1500, 2100))
    >>> stored_sizes([use], 300), stored_sizes([use._replace(dpi=400.0)], 300)
    ({'/t/a.jpg': (750, 1050)}, {'/t/a.jpg': None})
    """
    lowest: dict[str, Placed] = {}
    for use in placed:
        if use.source not in lowest or use.dpi < lowest[use.source].dpi:
            lowest[use.source] = use
    sizes: dict[str, tuple[int, int] | None] = {}
    for source, use in lowest.items():
        scale = image_dpi / use.dpi
        if scale * SHRINK_FROM > 1:
            sizes[source] = None
        else:
            w, h = use.pixels
            sizes[source] = (max(1, round(w * scale)), max(1, round(h * scale)))
    return sizes


def manifest_pictures(placed: list[Placed], stored: Mapping[str, tuple[int, int] | None]) -> list[dict]:
    """What a manifest says of a kit's pictures: each file once, its pixels and those stored in
    the PDF, and every piece and face it is placed on with its resolution as printed."""
    by_file: dict[str, dict] = {}
    for use in sorted(placed, key=lambda u: (u.name, u.piece, u.face, u.element)):
        entry = by_file.get(use.source)
        if entry is None:
            size = stored.get(use.source) or use.pixels
            entry = by_file[use.source] = {"file": use.name, "pixels": list(use.pixels), "stored": list(size),
                                           "placed": []}
        entry["placed"].append({"piece": use.piece, "face": use.face, "dpi": round(use.dpi, 1)})
    return list(by_file.values())


def soft_pictures(placed: list[Placed], below: float = GOOD_DPI) -> list[str]:
    """A line for each picture placed at under ``below`` dpi, naming the piece, the file and the figure."""
    soft = [use for use in placed if use.dpi < below - 0.05]
    return _lines(soft, lambda use: f"under {below:g} dpi it may print soft")


#: An export's image may enlarge a picture this little (a service's product 63.5 mm wide made
#: from a 63 mm card stretches it by 0.8 %) before it is said.
ENLARGED_FROM = 1.01


def enlarged_pictures(placed: list[Placed], needed: Mapping[tuple[str, str], float]) -> list[str]:
    """A line for each picture an export's images enlarge: placed on a piece's face at fewer
    pixels per inch than the face's images have (``needed``, by piece and face, in the piece's
    own inches).

    >>> use = Placed("cards/a", "front", "f[0]", "a.jpg", "/t/a.jpg", 200.0, (500, 700))
    >>> enlarged_pictures([use], {("cards/a", "front"): 302.4})
    ['cards/a front: a.jpg prints at 200 dpi (500 x 700 px over 63.5 x 88.9 mm); the 302 dpi images of this export enlarge it']
    >>> enlarged_pictures([use], {("cards/a", "front"): 164.0}), enlarged_pictures([use], {})
    ([], [])
    """
    enlarged = [use for use in placed if use.dpi * ENLARGED_FROM < needed.get((use.piece, use.face), 0.0)]
    return _lines(enlarged, lambda use: f"the {needed[use.piece, use.face]:.0f} dpi images of this export enlarge it")


def _lines(uses: list[Placed], said: Callable[[Placed], str]) -> list[str]:
    """A line for each of ``uses`` naming its piece, face, file and resolution, then what ``said``
    says of it, in the order of the pieces; the pieces of a component that place a file alike
    (a back every card shares) one line, with their count.

    >>> use = Placed("cards/a", "back", "b[0]", "back.png", "/t/back.png", 200.0, (500, 700))
    >>> _lines([use, use._replace(piece="cards/b")], lambda use: "soft")
    ['cards back, 2 pieces: back.png prints at 200 dpi (500 x 700 px over 63.5 x 88.9 mm); soft']
    """
    alike: dict[tuple, list[Placed]] = {}
    for use in sorted(uses, key=lambda u: (u.piece, u.face, u.element, u.name)):
        key = (use.piece.partition("/")[0], use.face, use.name, use.dpi, use.pixels, said(use))
        if use.piece not in {u.piece for u in alike.get(key, ())}:
            alike.setdefault(key, []).append(use)
    lines = []
    for (component, face, name, dpi, (w, h), saying), same in alike.items():
        where = f"{same[0].piece} {face}" if len(same) == 1 else f"{component} {face}, {len(same)} pieces"
        lines.append(f"{where}: {name} prints at {dpi:.0f} dpi ({w} x {h} px over {w / dpi * MM_PER_INCH:.1f} x "
                     f"{h / dpi * MM_PER_INCH:.1f} mm); {saying}")
    return lines
