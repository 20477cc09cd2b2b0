"""``text``: text fitted into its box (shrunk, wrapped), aligned, maybe turned a quarter.

What it accepts: ``KINDS["text"]`` in pnp/template/kinds.py. Its box stays inside the
piece, so no text runs past a cut; every letter must be in the kit's fonts.
"""

from __future__ import annotations

from typing import Any, Mapping

from pnp.core.i18n import plural_form
from pnp.core.limits import MAX_LENGTH_MM, MAX_TEXT_SIZE_PT
from pnp.core.units import POINTS_PER_MM, pt
from pnp.layout.kinds.base import CopyFace, Layer, inside_trim, mm
from pnp.layout.primitives import Text, TextLine
from pnp.layout.text import MIN_SIZE, fit_or_fail

DRAWS = (Text,)


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
    x, y = mm(keys["x"], values, "x"), mm(keys["y"], values, "y")
    w, h = mm(keys["w"], values, "w", low=0), mm(keys["h"], values, "h", low=0)
    inside_trim(face, (x + frame[0], y + frame[1], w, h), "text", text)
    rotate = keys.get("rotate", 0)
    # The text's own frame, in points: turned a quarter, its width is the box's height.
    frame_w, frame_h = (pt(h), pt(w)) if rotate in (90, 270) else (pt(w), pt(h))
    style = keys.get("font", "regular")
    size = mm(keys["size"], values, "size", low=MIN_SIZE, high=MAX_TEXT_SIZE_PT, unit="pt")
    fitted = fit_or_fail(face.measure, text, style, size, frame_w, frame_h,
                         wrap=keys.get("wrap", False), leading=float(keys.get("leading", 1.18)),
                         min_size=float(keys.get("min_size", MIN_SIZE)))
    color = face.inks.line(face.color(keys.get("color", "ink"), values))
    baselines = _baselines(fitted, frame_h, keys.get("valign", "middle"))
    share = _SHARE[keys.get("align", "center")]
    if not rotate:
        lines = tuple(TextLine(line, x + (frame_w - width) * share / POINTS_PER_MM,
                               y + h - baseline / POINTS_PER_MM)
                      for line, width, baseline in zip(fitted.lines, fitted.widths, baselines))
        return (Text(lines, style, fitted.size, color),)
    # Turned text is laid out in its own frame, centred on the box's centre.
    lines = tuple(TextLine(line, (-frame_w / 2 + (frame_w - width) * share) / POINTS_PER_MM,
                           (frame_h / 2 - baseline) / POINTS_PER_MM)
                  for line, width, baseline in zip(fitted.lines, fitted.widths, baselines))
    return (Text(lines, style, fitted.size, color, rotate=rotate, pivot=(x + w / 2, y + h / 2)),)


_SHARE = {"left": 0.0, "center": 0.5, "right": 1.0}


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
