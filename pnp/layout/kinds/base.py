"""What every kind's resolver shares: the face being resolved, lengths within their limits, paint.

A resolver (``resolve(keys, face, values, frame)`` in each kind's module) is
given the element's keys (lengths every copy shares already worked out), the
:class:`CopyFace` it is drawn on, the values its expressions and placeholders
read (with ``i``, ``col`` and ``row`` inside a repeat), and ``frame``: where
the frame of a repeated copy sits on the piece, (dx, dy) mm, for the checks
that need to know where it lands. It gives back its primitives in its own
frame. A key that cannot be used raises :class:`KeyedError`, naming the key.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from pnp.core.errors import TemplateError
from pnp.core.limits import MAX_LENGTH_MM, MAX_QR_BYTES, number_shown
from pnp.core.records import NamedTuple
from pnp.layout.colors import BLACK
from pnp.layout.primitives import Primitive
from pnp.template.language import ColorChoice, ExpressionError, evaluate, fill

Layer = tuple[Primitive, ...]
#: ``resolve(keys, face, values, frame)``: one element's primitives (see the module's docstring).
Resolver = Callable[[Mapping[str, Any], "CopyFace", Mapping[str, Any], tuple[float, float]], Layer]
#: The frame of an element that is not repeated: the piece's own.
NOT_MOVED = (0.0, 0.0)

OUTLINE_MM = 0.3          # outline given to filled shapes by the ink saver
DEFAULT_STROKE_MM = 0.3


class KeyedError(TemplateError):
    """One key of an element gives a value that cannot be used (past a limit, not a
    number...): ``key`` names it, so the problem names the file, the key and the value."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


class CopyFace:
    """One copy's face being resolved: its values, colours and size.

    Made by :class:`pnp.layout.faces.FaceResolver` (``resolver``) for one copy
    of a piece, the first time one of its elements is not resolved yet.
    """

    def __init__(self, resolver, copy, values: dict[str, Any]):
        game = resolver.game
        self.values = values
        self.catalog = resolver.catalog
        self.measure = resolver.measure
        self.options = resolver.options
        self.inks = resolver.inks(copy.set)
        self.width, self.height = copy.component.size
        self.bleed = resolver.options.bleed
        self.icon_dirs = game.icon_dirs
        self.colors = game.colors
        self.filled = resolver.filled
        self.blank_sheet = game.blank_sheet
        self.folder = resolver.folder     # the template's, where its pictures are found
        self.budget = resolver.budget
        self.fonts = game.fonts           # the template's own, beside Lato's styles

    def text(self, raw: str, values: Mapping[str, Any], key: str) -> str:
        """``@catalog.key`` looked up, and ``{placeholders}`` filled (the text of ``key``)."""
        try:
            if raw.startswith("@"):
                return fill(self.catalog.get(fill(raw[1:], values)), values)
            return fill(raw, values)
        except ExpressionError as exc:
            raise KeyedError(key, str(exc)) from None

    def style(self, name: str, variant: str = "", key: str = "font") -> str:
        """The style a text in the font ``name`` is set in (Lato's by name, the template's own by
        its file), or a run of it in ``variant`` (``bold``, ``italic``, ``bold_italic``)."""
        if not variant and name not in self.fonts:
            return name
        from pnp.template.fonts import FontError, run_style

        try:
            return run_style(self.fonts, name, variant)
        except FontError as exc:
            raise KeyedError(key, str(exc)) from None

    def color(self, raw: str | ColorChoice | None, values: Mapping[str, Any]) -> str | None:
        """A colour name as written, the value of the colour field it names, or the colour an
        expression chooses (``"i % 10 == 0 ? gold : light"``, read on load)."""
        if type(raw) is ColorChoice:
            raw = raw.pick(values)
        if raw is not None and raw[:1] == "{":
            return values[raw[1:-1]]
        return raw


def mm(raw: Any, values: Mapping[str, Any], key: str, *, low: float = -MAX_LENGTH_MM,
       high: float = MAX_LENGTH_MM, unit: str = "mm") -> float:
    """A length: a number, or an expression of the face's values, from ``low`` to ``high``.

    Every length of a face passes here, so every one is a finite number within
    its limits (by default at most :data:`~pnp.core.limits.MAX_LENGTH_MM` either way
    from the piece's corner); otherwise a KeyedError names ``key`` and the value.
    """
    if type(raw) is float:
        value = raw  # most lengths, once folded (see pnp.layout.faces.fold_lengths): a finite number already
    else:
        try:
            value = evaluate(raw, values)
        except ExpressionError as exc:
            raise KeyedError(key, str(exc)) from None
    if not low <= value <= high:
        raise KeyedError(key, f"{number_shown(value)} {unit} is past the limits: from {low:g} to "
                              f"{high:g} {unit}")
    return value


class Length(NamedTuple):
    """One length key of a kind: its limits (as :func:`mm` takes them) and, for a key that
    may be left out, its default."""

    key: str
    low: float = -MAX_LENGTH_MM
    high: float = MAX_LENGTH_MM
    unit: str = "mm"
    default: Any = None      # None: the key is required


def lengths(keys: Mapping[str, Any], values: Mapping[str, Any], wanted: tuple[Length, ...]) -> list[float]:
    """Several lengths of an element, each as :func:`mm` gives it: one call for a shape's
    every length, most of them worked out already (pnp.layout.faces.fold_lengths) and
    only checked against their limits here."""
    out = []
    for key, low, high, unit, default in wanted:
        raw = keys[key] if default is None else keys.get(key, default)
        if type(raw) is float and low <= raw <= high:
            out.append(raw)
        else:
            out.append(mm(raw, values, key, low=low, high=high, unit=unit))
    return out


class PreparedKeys(dict):
    """An element's keys with what every copy of it shares worked out once (:attr:`fixed`),
    by its kind's ``prepare`` (see :mod:`pnp.layout.kinds`)."""

    __slots__ = ("fixed",)


def with_lengths(keys: Mapping[str, Any], wanted: tuple[Length, ...]) -> Mapping[str, Any]:
    """``keys`` with the ``wanted`` lengths worked out once, as :func:`lengths` gives them, when
    every one is a number already (folded) within its limits; else ``keys`` as they are, each
    length then worked out (and anything wrong named) on each copy."""
    fixed = []
    for key, low, high, _, default in wanted:
        raw = keys.get(key, default)
        if type(raw) is int and raw is default:
            raw = float(raw)   # as mm() gives a default written as a whole number
        if type(raw) is not float or not low <= raw <= high:
            return keys
        fixed.append(raw)
    prepared = PreparedKeys(keys)
    prepared.fixed = fixed
    return prepared


def inside_trim(face: CopyFace, box: tuple[float, float, float, float], what: str,
                text: str | None = None) -> None:
    """Boxes of text stay inside the piece, so no text can run past a cut.

    ``box`` is (x, y, w, h) in mm from the trim's top-left; ``what`` names it in the
    message, followed by the start of ``text`` if given.
    """
    x, y, w, h = box
    tolerance = 0.01
    if x < -tolerance or y < -tolerance or x + w > face.width + tolerance or y + h > face.height + tolerance:
        if text is not None:
            what = f"{what} {text[:20]!r}"
        raise TemplateError(f"{what} box ({x:g}, {y:g}, {w:g} x {h:g} mm) runs outside the "
                            f"{face.width:g} x {face.height:g} mm piece")


class Stroke(NamedTuple):
    """An element's outline: its colour (None: no outline), width and dash, in mm."""

    color: str | None
    width: float = 0.0
    dash: tuple[float, ...] = ()


NO_STROKE = Stroke(None)


def stroke_of(keys: Mapping[str, Any], face: CopyFace, values: Mapping[str, Any]) -> Stroke:
    """An element's outline, from its ``stroke``, ``stroke_width`` and ``dash``."""
    raw = keys.get("stroke")
    if raw is None:
        return NO_STROKE
    color = face.inks.line(face.color(raw, values))
    if color is None:
        return NO_STROKE
    dash = (tuple(mm(d, values, f"dash[{i}]", low=0) for i, d in enumerate(keys["dash"]))
            if keys.get("dash") else ())
    if dash and not sum(dash) > 0:
        raise KeyedError("dash", "a dash of zero lengths draws nothing (some printers stall on it); "
                                 "give a dash and a gap above 0 mm")
    return Stroke(color, mm(keys.get("stroke_width", DEFAULT_STROKE_MM), values, "stroke_width", low=0), dash)


def paint_of(keys: Mapping[str, Any], face: CopyFace, values: Mapping[str, Any]) -> tuple[str | None, Stroke]:
    """(fill, outline) of a filled shape; the ink saver outlines what it whitens."""
    raw = face.color(keys.get("fill"), values)
    inks = face.inks
    fill_color = inks.fill(raw)
    if fill_color is not None and inks.ink_saver and keys.get("stroke") is None \
            and raw not in ("white", "paper"):
        return fill_color, INK_SAVER_OUTLINE
    return fill_color, stroke_of(keys, face, values)


#: What the ink saver draws around a surface it whitens.
INK_SAVER_OUTLINE = Stroke(BLACK, OUTLINE_MM)


def qr_text(data: str, key: str) -> str:
    """What a QR code holds: at most :data:`~pnp.core.limits.MAX_QR_BYTES` as UTF-8."""
    size = len(data.encode("utf-8", "surrogatepass"))
    if size > MAX_QR_BYTES:
        raise KeyedError(key, f"{size} bytes to put in a QR code; the limit is {MAX_QR_BYTES} (a denser code "
                              "is not readable at this size)")
    return data


def one_shape(keys: Mapping[str, Any]) -> tuple[int, int]:
    """What one drawing of most kinds lays out: one shape, no polygon corners."""
    return ONE_SHAPE


ONE_SHAPE = (1, 0)
