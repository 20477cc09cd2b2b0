"""What each kind of element accepts: one row per kind, the vocabulary of a face.

A face is a list of elements (``rect``, ``text``, ``icon``...). A kind's row says
which keys it takes and the kind of value each holds (a length, a colour, a
printed text...), which keys it needs, the values a key may choose from, the
most a key may hold, and the rules that tie its keys together.
:mod:`pnp.template.elements` checks every element against its row when a
template is loaded, and names the file and key of every problem.

The rest of a kind lives in the layer that does it: how it is laid out is the
module named after it in :mod:`pnp.layout.kinds` (its resolver and the
primitives it draws, each with its box), and how each primitive is drawn is
its function in ``pnp/render/draw.py``. tests/test_element_kinds.py fails when
a kind lacks any of them; docs/ARCHITECTURE.md lists the steps to add one.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from pnp.core.limits import MAX_DPI, MAX_LEADING, MAX_POINTS, MAX_TABLE_COLS, MAX_TABLE_ROWS, MAX_TEXT_SIZE_PT
from pnp.core.records import NamedTuple

# Kinds of value a key takes (checked by pnp.template.elements' KIND_CHECKS).
LEN, COLOR, TEXT, NAME, SHAPE, STR, INT, NUM, BOOL = (
    "len", "color", "text", "name", "shape", "str", "int", "num", "bool")
#: A plain value, true, false or a word, one of the key's choices (an image's ``bleed``).
CHOICE = "choice"
ROWS, LENS, POINTS, REPEAT = "rows", "lens", "points", "repeat"
#: Kinds of value that are lengths: worked out in mm when a face is laid out.
LENGTHS = frozenset({LEN, LENS, POINTS, REPEAT})
#: Kinds of value that are printed: ``@catalog.key`` or text, with placeholders.
PRINTED = frozenset({TEXT, ROWS})

#: Keys every kind takes: its type, a condition, copies of it and their step.
COMMON_KEYS = {"type": STR, "when": STR, "repeat": REPEAT, "step": LENS}
_STROKE = {"stroke": COLOR, "stroke_width": LEN, "dash": LENS}
#: Keys with a fixed set of values, in every kind that takes them.
CHOICES: dict[str, tuple] = {
    "font": ("regular", "bold", "black", "italic"),
    "rotate": (0, 90, 180, 270),
}


class ElementKind(NamedTuple):
    """What one kind of element accepts."""

    #: Each key it takes besides :data:`COMMON_KEYS`, and the kind of value the key holds.
    keys: Mapping[str, str]
    #: The keys an element of this kind cannot do without.
    required: tuple[str, ...]
    #: Keys with a fixed set of values of this kind's own (besides :data:`CHOICES`).
    choices: Mapping[str, tuple] = {}
    #: The most a key may hold: the largest value of a number (``num``), the most
    #: entries of a list (rows, columns, points).
    limits: Mapping[str, float] = {}
    #: Rules across its keys, ``rules(check, table, has_sets)``: each problem through
    #: ``check.fail(key, message)`` (pnp.template.elements' element check).
    rules: Callable[[Any, Mapping[str, Any], bool], None] | None = None

    def printed(self) -> tuple[str, ...]:
        """The keys whose values are printed (each may be an ``@catalog.key``)."""
        return tuple(key for key, kind in self.keys.items() if kind in PRINTED)


def _text_rules(check, table: Mapping[str, Any], has_sets: bool) -> None:
    if "plural" in table and not (isinstance(table.get("text"), str) and table["text"].startswith("@")):
        check.fail("plural", "a plural picks the one or other form of a catalog text: the text is "
                             "\"@key\", with key.one and key.other in the catalogs")


def _symbol_rules(check, table: Mapping[str, Any], has_sets: bool) -> None:
    # A symbol without its own shape and fill takes the set's symbol and ink.
    for key, default in SYMBOL_DEFAULTS.items():
        if key not in table:
            if not has_sets:
                check.fail(key, f"a symbol in a component without sets needs its own {key}")
            check.value(KINDS["symbol"].keys[key], key, default)


#: What a symbol shows when it names no shape or fill: the piece's player symbol and ink.
SYMBOL_DEFAULTS = {"shape": "{set_symbol}", "fill": "set_ink"}


#: How an image fills its box: all of it covered (cropped), all of the picture shown, or stretched.
FITS = ("cover", "contain", "stretch")
#: Where an image sits in its box: the part of the picture kept when it is cropped (``cover``),
#: or the side it keeps to when it does not fill the box (``contain``).
ANCHORS = ("center", "top", "bottom", "left", "right", "top-left", "top-right", "bottom-left", "bottom-right")
#: An image's bleed: none, the picture itself past the trim, or made from its edge.
BLEEDS = (False, True, "extend", "mirror")


def _image_rules(check, table: Mapping[str, Any], has_sets: bool) -> None:
    if "focus" in table:
        focus = table["focus"]
        if not (isinstance(focus, list) and len(focus) == 2):
            check.expect("focus", "[x, y]: the point of the picture to keep in view, each from 0 (left, top) "
                                  "to 1 (right, bottom)", focus)
        if "anchor" in table:
            check.fail("anchor", "either an anchor or a focus, not both (the focus is the point kept in view)")
    if table.get("bleed") in ("extend", "mirror") and table.get("fit") == "contain":
        check.fail("bleed", f"{table['bleed']!r} makes the bleed from the picture's edge at the sides of its box, "
                            "which a contained picture may not reach: fit = 'cover' or 'stretch'")


def _table_rules(check, table: Mapping[str, Any], has_sets: bool) -> None:
    rows, cols = table.get("rows"), table.get("cols")
    if isinstance(rows, list) and isinstance(cols, list):
        for r, row in enumerate(rows):
            if isinstance(row, list) and len(row) > len(cols):
                check.fail(f"rows[{r}]", f"{len(row)} cells but only {len(cols)} cols")


KINDS: dict[str, ElementKind] = {
    "background": ElementKind({"fill": COLOR}, required=("fill",)),
    "rect": ElementKind({"x": LEN, "y": LEN, "w": LEN, "h": LEN, "fill": COLOR, "radius": LEN, **_STROKE},
                        required=("x", "y", "w", "h")),
    "ellipse": ElementKind({"cx": LEN, "cy": LEN, "rx": LEN, "ry": LEN, "fill": COLOR, **_STROKE},
                           required=("cx", "cy", "rx")),
    "line": ElementKind({"x1": LEN, "y1": LEN, "x2": LEN, "y2": LEN, **_STROKE},
                        required=("x1", "y1", "x2", "y2")),
    "polygon": ElementKind({"points": POINTS, "fill": COLOR, "closed": BOOL, **_STROKE},
                           required=("points",), limits={"points": MAX_POINTS}),
    "text": ElementKind(
        {"x": LEN, "y": LEN, "w": LEN, "h": LEN, "text": TEXT, "font": STR, "size": LEN,
         "min_size": NUM, "align": STR, "valign": STR, "color": COLOR, "wrap": BOOL,
         "rotate": INT, "leading": NUM, "plural": LEN},
        required=("x", "y", "w", "h", "text", "size"),
        choices={"align": ("left", "center", "right"), "valign": ("top", "middle", "bottom")},
        limits={"min_size": MAX_TEXT_SIZE_PT, "leading": MAX_LEADING}, rules=_text_rules),
    "icon": ElementKind({"name": NAME, "x": LEN, "y": LEN, "w": LEN, "h": LEN, "color": COLOR, "rotate": INT,
                         "mirror": BOOL},
                        required=("name", "x", "y", "w", "h")),
    "symbol": ElementKind({"shape": SHAPE, "cx": LEN, "cy": LEN, "size": LEN, "fill": COLOR, **_STROKE},
                          required=("cx", "cy", "size"), rules=_symbol_rules),
    "table": ElementKind(
        {"x": LEN, "y": LEN, "w": LEN, "rows": ROWS, "cols": LENS, "row_h": LEN, "size": NUM,
         "font": STR, "header": BOOL, "color": COLOR, "line": COLOR, "header_fill": COLOR,
         "header_color": COLOR, "zebra": COLOR, "align": STR, "col_lines": BOOL},
        required=("x", "y", "w", "rows", "cols", "row_h", "size"),
        choices={"align": ("left", "center")},
        limits={"rows": MAX_TABLE_ROWS, "cols": MAX_TABLE_COLS, "size": MAX_TEXT_SIZE_PT},
        rules=_table_rules),
    "image": ElementKind(
        {"file": NAME, "x": LEN, "y": LEN, "w": LEN, "h": LEN, "fit": STR, "anchor": STR, "focus": LENS,
         "rotate": INT, "opacity": NUM, "bleed": CHOICE, "min_dpi": NUM},
        required=("file", "x", "y", "w", "h"),
        choices={"fit": FITS, "anchor": ANCHORS, "bleed": BLEEDS},
        limits={"opacity": 1.0, "min_dpi": MAX_DPI, "focus": 2}, rules=_image_rules),
    "qr": ElementKind({"x": LEN, "y": LEN, "size": LEN, "data": TEXT, "color": COLOR},
                      required=("x", "y", "size", "data")),
    "scoresheet": ElementKind({"x": LEN, "y": LEN, "w": LEN, "h": LEN, "game": NAME, "qr": TEXT},
                              required=("x", "y", "w", "h")),
}
