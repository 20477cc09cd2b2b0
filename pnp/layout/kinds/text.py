"""``text``: text fitted into its box (shrunk, wrapped), aligned, maybe turned a quarter.

What it accepts: ``KINDS["text"]`` in pnp/template/kinds.py. Its box stays inside the
piece, so no text runs past a cut; every letter must be in the kit's fonts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from pnp.core.i18n import plural_form
from pnp.core.limits import MAX_LENGTH_MM, MAX_TEXT_SIZE_PT
from pnp.core.records import NamedTuple
from pnp.core.units import POINTS_PER_MM, pt
from pnp.core.errors import TemplateError
from pnp.layout.colors import BLACK
from pnp.layout.kinds.base import CopyFace, KeyedError, Layer, Length, PreparedKeys, inside_trim, lengths, mm
from pnp.layout.primitives import Icon, Text, TextLine
from pnp.layout.text import MIN_SIZE, fit_or_fail

if TYPE_CHECKING:
    from pnp.layout.rich_text import Run

DRAWS = (Text, Icon)


def resolve(keys: Mapping[str, Any], face: CopyFace, values: Mapping[str, Any],
            frame: tuple[float, float]) -> Layer:
    raw = keys["text"]
    if "plural" in keys:
        # "@score" with plural = "points": the catalog's score.one or score.other, by the number.
        count = mm(keys["plural"], values, "plural", low=-MAX_LENGTH_MM, high=MAX_LENGTH_MM, unit="")
        raw = f"{raw}.{plural_form(face.catalog.lang, abs(count))}"
    text = face.text(raw, values, "text")
    if not text:
        return ()
    fixed = keys.fixed if type(keys) is PreparedKeys else None
    if fixed is not None and not (fixed.font in face.fonts or "*" in text or ":" in text or "\\" in text):
        return _laid_out(keys, face, values, text=text, fixed=fixed)
    x, y, w, h = lengths(keys, values, _BOX)
    inside_trim(face, (x + frame[0], y + frame[1], w, h), "text", text)
    rotate = keys.get("rotate", 0)
    # The text's own frame, in points: turned a quarter, its width is the box's height.
    frame_w, frame_h = (h * POINTS_PER_MM, w * POINTS_PER_MM) if rotate in (90, 270) else \
        (w * POINTS_PER_MM, h * POINTS_PER_MM)
    font = style = keys.get("font", "regular")
    if style in face.fonts:   # a font of the template's own: set in its file
        style = face.style(style)
    size = mm(keys["size"], values, "size", low=MIN_SIZE, high=MAX_TEXT_SIZE_PT, unit="pt")
    if "*" in text or ":" in text or "\\" in text:   # maybe runs, inline icons or escapes
        from pnp.layout.rich_text import MarkupError, runs_of  # loaded only for a kit that may need it

        try:
            runs = runs_of(text)
        except MarkupError as exc:
            raise KeyedError("text", str(exc)) from None
        if runs is not None:
            if len(runs) > 1 or runs[0].variant or runs[0].icon is not None:
                return _rich(keys, face, values, runs, font=font, size=size, box=(x, y, w, h), frame=(frame_w, frame_h),
                                 rotate=rotate)
            text = runs[0].text   # escaped stars and colons only: plain text
    fitting = (keys.get("wrap", False), float(keys.get("leading", 1.18)), float(keys.get("min_size", MIN_SIZE)))
    fixed = _Fixed((x, y, w, h), (frame_w, frame_h), style, size, fitting=fitting, valign=keys.get("valign", "middle"),
                   share=_SHARE[keys.get("align", "center")], rotate=rotate)
    return _laid_out(keys, face, values, text=text, fixed=fixed)


_SHARE = {"left": 0.0, "center": 0.5, "right": 1.0}
_BOX = (Length("x"), Length("y"), Length("w", low=0), Length("h", low=0))


class _Fixed(NamedTuple):
    """What every copy of a plain text shares (:func:`prepare`): its box in mm, its frame in
    points, its font, size and fitting, where its lines go in the frame."""

    box: tuple[float, float, float, float]
    frame: tuple[float, float]
    font: str
    size: float
    fitting: tuple[bool, float, float]    # wrap, leading, min_size
    valign: str
    share: float
    rotate: int = 0


def prepare(keys: dict[str, Any], size: tuple[float, float]) -> Mapping[str, Any]:
    """``keys`` (their lengths folded: pnp.layout.faces.fold_lengths) of a text on a piece of
    ``size`` mm, with what every copy of it shares worked out once, when it can be: its box
    and size known numbers within their limits, the box inside the piece, not turned, not
    repeated, not counted for a plural. Anything else (or anything wrong: it is reported as
    each copy is resolved, naming the copy) is left to :func:`resolve`'s every step."""
    if "plural" in keys or "repeat" in keys or keys.get("rotate", 0) or type(keys.get("size")) not in (int, float):
        return keys
    box = tuple(keys.get(length.key) for length in _BOX)
    if not all(type(v) is float for v in box):
        return keys
    x, y, w, h = box
    font_size = float(keys["size"])
    if not (-MAX_LENGTH_MM <= x <= MAX_LENGTH_MM and -MAX_LENGTH_MM <= y <= MAX_LENGTH_MM
            and 0 <= w <= MAX_LENGTH_MM and 0 <= h <= MAX_LENGTH_MM and MIN_SIZE <= font_size <= MAX_TEXT_SIZE_PT
            and -0.01 <= x and -0.01 <= y and x + w <= size[0] + 0.01 and y + h <= size[1] + 0.01):
        return keys
    leading, min_size = keys.get("leading", 1.18), keys.get("min_size", MIN_SIZE)
    align = keys.get("align", "center")
    if type(leading) not in (int, float) or type(min_size) not in (int, float) or align not in _SHARE:
        return keys
    prepared = PreparedKeys(keys)
    prepared.fixed = _Fixed(box, (w * POINTS_PER_MM, h * POINTS_PER_MM), keys.get("font", "regular"), font_size,
                            fitting=(keys.get("wrap", False), float(leading), float(min_size)),
                            valign=keys.get("valign", "middle"), share=_SHARE[align])
    return prepared


def _laid_out(keys: Mapping[str, Any], face: CopyFace, values: Mapping[str, Any], *, text: str, fixed: _Fixed) -> Layer:
    """A plain text fitted into its frame, in its colour, each line placed."""
    (x, y, w, h), (frame_w, frame_h) = fixed.box, fixed.frame
    wrap, leading, min_size = fixed.fitting
    fitted = fit_or_fail(face.measure, text, fixed.font, fixed.size, width=frame_w, height=frame_h, wrap=wrap,
                         leading=leading, min_size=min_size)
    color = face.inks.line(face.color(keys.get("color", "ink"), values))
    baselines = _baselines(fitted, frame_h, fixed.valign)
    share = fixed.share
    if not fixed.rotate:
        lines = tuple([TextLine(line, x + (frame_w - width) * share / POINTS_PER_MM,
                                y + h - baseline / POINTS_PER_MM)
                       for line, width, baseline in zip(fitted.lines, fitted.widths, baselines)])
        return (Text(lines, fixed.font, fitted.size, color),)
    # Turned text is laid out in its own frame, centred on the box's centre.
    lines = tuple([TextLine(line, (-frame_w / 2 + (frame_w - width) * share) / POINTS_PER_MM,
                            (frame_h / 2 - baseline) / POINTS_PER_MM)
                   for line, width, baseline in zip(fitted.lines, fitted.widths, baselines)])
    return (Text(lines, fixed.font, fitted.size, color, rotate=fixed.rotate, pivot=(x + w / 2, y + h / 2)),)


def _baselines(fitted, frame_h: float, valign: str) -> list[float]:
    """Each line's baseline, in points up from the bottom of its frame."""
    cap = 0.72 * fitted.size
    count = len(fitted.lines)
    if valign == "top":
        first = frame_h - 0.94 * fitted.size
    elif valign == "bottom":
        first = 0.22 * fitted.size + (count - 1) * fitted.leading
    else:
        first = (frame_h + cap + (count - 1) * fitted.leading) / 2 - cap
    baselines = []
    for _ in range(count):
        baselines.append(first)
        first -= fitted.leading
    return baselines


def _rich(keys: Mapping[str, Any], face: CopyFace, values: Mapping[str, Any], runs: list[Run], *, font: str,
          size: float, box: tuple[float, float, float, float], frame: tuple[float, float], rotate: int) -> Layer:
    """A text of runs and inline icons: fitted as plain text is, drawn as a text per style and
    an icon per inline icon, in the text's colour."""
    from pnp.layout.kinds.icon import find_icon
    from pnp.layout.rich_text import ICON_DROP, ICON_HEIGHT, ICON_SIDE, fit_rich
    from pnp.template.icons import read_icon

    x, y, w, h = box
    frame_w, frame_h = frame

    def style_of(run: Run) -> str:
        return face.style(font, run.variant, key="text") if run.variant else \
            (face.style(font) if font in face.fonts else font)

    def icon_of(name: str) -> tuple[str, float]:
        try:
            source = find_icon(face.icon_dirs, name, face.measure)
        except TemplateError as exc:   # an inline icon that cannot be used
            raise KeyedError("text", str(exc)) from None
        _, _, vw, vh = read_icon(source).view_box
        return source, vw / vh

    fitted = fit_rich(face.measure, runs, style_of, icon_of, size=size, width=frame_w, height=frame_h,
                      wrap=keys.get("wrap", False), leading=float(keys.get("leading", 1.18)),
                      min_size=float(keys.get("min_size", MIN_SIZE)))
    color = face.inks.line(face.color(keys.get("color", "ink"), values))
    baselines = _baselines(fitted, frame_h, keys.get("valign", "middle"))
    share = _SHARE[keys.get("align", "center")]
    size_mm = fitted.size / POINTS_PER_MM
    # The letters in reading order, a Text for each stretch in one style (a PDF's text is read
    # in the order it is drawn: copied or read aloud, "Buy it for 3 coins", not "Buy it for" then "3").
    stretches: list[tuple[str, list[TextLine]]] = []
    icons: list[Icon] = []
    for line, baseline in zip(fitted.lines, baselines):
        start = (frame_w - line.width) * share   # the line's start in points, in the text's own frame
        for piece in line.pieces:
            if piece.icon is None:
                a = (start + piece.x) / POINTS_PER_MM
                if not rotate:
                    line_at = TextLine(piece.text, x + a, y + h - baseline / POINTS_PER_MM)
                else:
                    line_at = TextLine(piece.text, a - frame_w / 2 / POINTS_PER_MM,
                                       (frame_h / 2 - baseline) / POINTS_PER_MM)
                if stretches and stretches[-1][0] == piece.style:
                    stretches[-1][1].append(line_at)
                else:
                    stretches.append((piece.style, [line_at]))
                continue
            # The icon's box along the line: a from its start, b down from the top of the icon.
            across = piece.width / POINTS_PER_MM - 2 * ICON_SIDE * size_mm
            tall = ICON_HEIGHT * size_mm
            a = (start + piece.x) / POINTS_PER_MM + ICON_SIDE * size_mm
            if not rotate:
                top = y + h - baseline / POINTS_PER_MM - tall + ICON_DROP * size_mm
                icons.append(Icon(piece.icon, a + x, top, across, h=tall, tint=color or BLACK,
                                  line_art=face.inks.ink_saver))
                continue
            # Turned: the icon's middle, found as a point of the turned text, its box turned with it.
            ca = a - frame_w / 2 / POINTS_PER_MM + across / 2
            cb = (frame_h / 2 - baseline) / POINTS_PER_MM - tall / 2 + ICON_DROP * size_mm
            px, py = x + w / 2, y + h / 2
            cx, cy = {90: (px + cb, py - ca), 180: (px - ca, py - cb), 270: (px - cb, py + ca)}[rotate]
            bw, bh = (tall, across) if rotate in (90, 270) else (across, tall)
            icons.append(Icon(piece.icon, cx - bw / 2, cy - bh / 2, bw, h=bh, tint=color or BLACK, rotate=rotate,
                              line_art=face.inks.ink_saver))
    pivot = (x + w / 2, y + h / 2)
    texts = tuple(Text(tuple(lines), style, fitted.size, color, rotate=rotate, pivot=pivot if rotate else (0.0, 0.0))
                  for style, lines in stretches)
    return (*texts, *icons)
