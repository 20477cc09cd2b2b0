"""Faces resolved before drawing: a piece copy's face, as primitives in mm.

A face is its template's elements filled with one copy's values (fields,
copy number, player colour, language) and the print options (ink saver,
bleed, QR address). Each element becomes a *layer*: the primitives it draws,
in stacking order (an element hidden by ``when`` draws an empty layer).

An element is resolved once per distinct set of the values it uses (the
template language says which names each element uses): 36 copies of a card
cost one resolution of each element that does not name ``copy``. Problems
(a text that does not fit, a box outside the trim, a missing glyph or icon)
are collected, with the game, piece, face and language, rather than raised:
a kit is checked whole before anything is drawn.

Nothing here imports a PDF library: text is measured through the
:class:`~pnp.layout.text.Measurer` given to the resolver.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Callable, Iterable, Mapping, NamedTuple

from pnp.template.elements import (_COMMON, ELEMENT_SCHEMAS, FACE_NAMES, LEN, LENS, POINTS, REPEAT_NAMES,
                          SET_NAMES, SYMBOLS)
from pnp.core.errors import PnpError, TemplateError, UnknownNameError, raise_problems
from pnp.core.i18n import plural_form
from pnp.template.language import ExpressionError, evaluate, fill, names_in, number_shown
from pnp.layout.colors import BLACK, Inks
from pnp.layout.primitives import (QR, Ellipse, Icon, Line, Moved, Path, Primitive, Rect, Symbol,
                                   Text, TextLine)
from pnp.layout.text import MIN_SIZE, Measurer, fit_or_fail
from pnp.core.limits import MAX_LENGTH_MM, MAX_QR_BYTES, MAX_REPEAT, MAX_TEXT_SIZE_PT, BudgetError, WorkBudget
from pnp.template.model import Component, Copy, Element, Face, Game, Piece, PrintOptions
from pnp.core.units import POINTS_PER_MM, pt

OUTLINE_MM = 0.3          # outline given to filled shapes by the ink saver
DEFAULT_STROKE_MM = 0.3
Layer = tuple[Primitive, ...]


class Filled(NamedTuple):
    """A scoresheet filled from a score session: what the game's rules put on it, QR text and date."""

    sheet: Any            # a pnp.core.sheet_model.Scoresheet, built by the game's rules from the result
    qr: str | None = None
    date: str | None = None


class ResolvedFace(NamedTuple):
    """One face of one copy, ready to draw: one layer per element, in stacking order."""

    size: tuple[float, float]     # the trim, mm
    bleed: float                  # drawn beyond the trim on every side, mm
    layers: tuple[Layer, ...]

    @property
    def primitives(self) -> tuple[Primitive, ...]:
        return tuple(p for layer in self.layers for p in layer)


class _Failed(NamedTuple):
    message: str
    key: str | None = None   # the element's key at fault, when one is


class KeyedError(TemplateError):
    """One key of an element gives a value that cannot be used (past a limit, not a
    number...): ``key`` names it, so the problem names the file, the key and the value."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


def face_elements(component: Component, piece: Piece, face: Face) -> tuple[Element, ...]:
    """The elements a face of a piece is drawn from: its own, else its component's."""
    if face is Face.FRONT:
        return piece.front or component.front
    return piece.back or component.back or ()


#: Resolved layers a resolver keeps for the copies still to come.
RESOLVED_LIMIT = 8192


class FaceResolver:
    """Resolves the faces of one kit: one game, one set of print options, one language.

    The game, options, language, measurer and filled result are fixed for the
    resolver's life; its cache of resolved elements is keyed on the element
    and the values of every name the element uses, which is all that can
    differ between two copies.
    """

    def __init__(self, game: Game, options: PrintOptions, measure: Measurer,
                 filled: Filled | None = None) -> None:
        self.game, self.options, self.measure, self.filled = game, options, measure, filled
        self.catalog = game.catalogs[options.lang]
        self.params = {**game.params, **options.params}
        self.problems: list[str] = []
        self._reported: set[str] = set()
        self._cache: dict[tuple, Layer | _Failed] = {}
        self._faces: dict[tuple[int, int], tuple[tuple, ...]] = {}
        self._folded: dict[tuple[int, int], Mapping[str, Any]] = {}
        self._inks: dict[str | None, Inks] = {}
        #: What this kit has laid out so far, against its limits.
        self.budget = WorkBudget()

    # -- values --------------------------------------------------------
    def values(self, copy: Copy) -> dict[str, Any]:
        """The named values a face of this copy offers its elements."""
        component, piece = copy.component, copy.piece
        values: dict[str, Any] = {**self.params, **piece.fields, "id": piece.id, "copy": copy.copy,
                                  "lang": self.catalog.lang, "rules_url": self.game.rules_url,
                                  "game_id": self.game.id}
        if copy.set:
            color = self.game.colors[copy.set]
            values.update(set=copy.set, set_symbol=color.symbol,
                          set_name=self.catalog.get(f"color.{copy.set}"))
        values["w"], values["h"] = component.size
        return values

    def inks(self, set_name: str | None) -> Inks:
        """The colours of a face in a player colour (or in none)."""
        inks = self._inks.get(set_name)
        if inks is None:
            inks = self._inks[set_name] = Inks(self.game.palette,
                                               self.game.colors[set_name] if set_name else None,
                                               self.options.ink_saver)
        return inks

    # -- faces ---------------------------------------------------------
    def face(self, copy: Copy, face: Face) -> ResolvedFace:
        """Resolve one face of one copy; problems are added to :attr:`problems`."""
        component, piece = copy.component, copy.piece
        values = self.values(copy)
        context = None  # made on the first element not resolved yet
        cache = self._cache
        layers = []
        for prepared in self._prepared(component, face_elements(component, piece, face)):
            element, getter = prepared[0], prepared[1]
            try:
                key = (id(element), getter(values))
            except KeyError:
                # An optional field the piece leaves out: absent is a value too.
                key = (id(element), tuple(values.get(n, _Missing) for n in element.names))
            layer = cache.get(key)
            if layer is None:
                if context is None:
                    context = _Context(self, copy, values)
                if len(cache) >= RESOLVED_LIMIT:
                    # A deck of thousands of different cards would keep every
                    # card's layers twice; what is resolved again is equal.
                    cache.clear()
                layer = cache[key] = self._resolve(context, *prepared)
            if type(layer) is _Failed:
                where = (f"{self.game.id} {component.id}/{piece.id} {face.value}, "
                         f"{self.catalog.lang}")
                at = f"{element.where}.{layer.key}" if layer.key else element.where
                self._report(f"{at} ({where}): {layer.message}")
                layer = ()
            layers.append(layer)
        return ResolvedFace(component.size, self.options.bleed, tuple(layers))

    def _prepared(self, component: Component, elements: tuple[Element, ...]) -> tuple[tuple, ...]:
        """Each element of a face with what resolving it needs on every copy:
        the getter of the values it uses, its keys with lengths folded, the
        function that lays it out, and the shapes and corners it spends (None
        for a repeated element: its copies are counted as it is laid out)."""
        key = (id(elements), id(component))
        prepared = self._faces.get(key)
        if prepared is None:
            prepared = self._faces[key] = tuple(
                (element, itemgetter(*element.names) if element.names else _no_values, props,
                 _RESOLVE[element.type], None if "repeat" in props else _spent_once(element, props))
                for element in elements
                for props in (self._folded_props(element, component),))
        return prepared

    def _folded_props(self, element: Element, component: Component) -> Mapping[str, Any]:
        """The element's keys, each length that is the same on every copy of the
        component (it uses only the piece's size and the game's settings) worked
        out once: most of a card's lengths are "w - 8" and the like."""
        key = (id(element), id(component))
        props = self._folded.get(key)
        if props is None:
            varying = {*component.fields, *FACE_NAMES, *SET_NAMES, *REPEAT_NAMES}
            constants = {name: value for name, value in self.params.items() if name not in varying}
            constants["w"], constants["h"] = component.size
            props = self._folded[key] = fold_lengths(element, constants)
        return props

    def _resolve(self, context: _Context, element: Element, getter, props: Mapping[str, Any],
                 resolve: Callable[..., Layer], spent: tuple[int, int] | None) -> Layer | _Failed:
        try:
            if element.when is not None and not element.when.holds(context.values):
                return ()
            if spent is None:
                self._spend(element, context, props)
                layer = tuple(_repeated(element, props, context))
            else:
                self.budget.spend(*spent, element.where)
                layer = resolve(props, context, context.values, 0.0, 0.0)
                layer = layer if type(layer) is tuple else tuple(layer)
            if element.type in _WITH_QR:
                for code in _qr_codes(layer):
                    self.budget.qr(code.data, element.where)
            return layer
        except BudgetError:
            raise
        except KeyedError as exc:
            return _Failed(str(exc), exc.key)
        except (PnpError, ExpressionError) as exc:
            return _Failed(str(exc))
        except (KeyError, ValueError, TypeError) as exc:
            return _Failed(f"cannot resolve this {element.type} ({exc})")

    def estimate(self, components: Iterable[Component]) -> None:
        """Refuse at once (BudgetError) a kit whose elements multiply past the work budget,
        before any face is laid out: each element's repeats times how many different
        drawings of it the copies can make (one, unless it uses a piece's fields, its
        colour or its copy number), times a polygon's corners.

        Counted where it can be known from the template: a repeat that depends on the
        copy counts its first copy's; the budget counted as faces are laid out stops
        the rest."""
        budget = WorkBudget()
        for component in components:
            sets = max(1, len(component.sets))
            faces = (Face.FRONT, Face.BACK) if component.two_sided else (Face.FRONT,)
            for face in faces:
                using: dict[int, tuple[tuple[Element, ...], list[Piece]]] = {}
                for piece in component.pieces:
                    elements = face_elements(component, piece, face)
                    using.setdefault(id(elements), (elements, []))[1].append(piece)
                for elements, pieces in using.values():
                    for element in elements:
                        self._estimate(element, component, pieces, sets, budget)

    def _estimate(self, element: Element, component: Component, pieces: list[Piece], sets: int,
                  budget: WorkBudget) -> None:
        names = set(element.names)
        # How many different drawings each piece entry's copies can make of the element.
        if "copy" in names:
            each = [piece.count * sets for piece in pieces]
        elif names & set(SET_NAMES):
            each = [sets] * len(pieces)
        elif names & {"id", *component.fields}:
            each = [1] * len(pieces)
        else:
            each, pieces = [1], pieces[:1]   # one drawing, whatever the piece
        props = self._folded_props(element, component)
        repeat = props.get("repeat")
        shapes = 0
        for piece, drawings in zip(pieces, each):
            count = 1
            if repeat is not None:
                values = {**self.params, **piece.fields, "id": piece.id, "copy": 1, "w": component.size[0],
                          "h": component.size[1], "lang": self.catalog.lang}
                try:
                    for value in (repeat if isinstance(repeat, list) else [repeat]):
                        count *= int(evaluate(value, values))
                except (ExpressionError, KeyError, ValueError, TypeError, ArithmeticError):
                    count = 1   # reported where the element is laid out
                count = max(0, min(count, MAX_REPEAT))
            shapes += drawings * count
        if element.type == "table" and isinstance(props.get("rows"), list):
            shapes *= max(1, sum(len(row) for row in props["rows"] if isinstance(row, list)))
        points = props.get("points") if element.type == "polygon" else None
        corners = shapes * len(points) if isinstance(points, (list, tuple)) else 0
        budget.spend(shapes, corners, element.where)

    def _spend(self, element: Element, context: _Context, props: Mapping[str, Any]) -> None:
        """Count the shapes and corners a repeated element is about to lay out, before it does
        (:class:`~pnp.core.limits.WorkBudget`): past a limit, the kit stops here."""
        repeat = props.get("repeat")
        values = context.values
        if isinstance(repeat, list):
            count = 1
            for index, value in enumerate(repeat):
                count *= copies_of(value, values, f"repeat[{index}]")
        else:
            count = copies_of(repeat, values, "repeat")
        if count > MAX_REPEAT:
            return    # refused as the element is laid out, naming its limit
        shapes, corners = _spent_once(element, props)
        self.budget.spend(shapes * count, corners * count, element.where)

    def holds(self, copy: Copy, face: Face) -> bool:
        """Whether a face of this copy resolves without a problem; nothing is reported.

        How a page that may shrink learns how short it can be.
        """
        problems, reported = self.problems, self._reported
        self.problems, self._reported = [], set()
        try:
            self.face(copy, face)
            return not self.problems
        finally:
            self.problems, self._reported = problems, reported

    def _report(self, message: str) -> None:
        if message not in self._reported:
            self._reported.add(message)
            self.problems.append(message)


def resolve_piece_face(game: Game, options: PrintOptions, measure: Measurer, component_id: str,
                       piece_id: str, face: Face = Face.FRONT, copy: int = 1,
                       set_name: str | None = None) -> ResolvedFace:
    """One face of one piece copy, resolved alone (for drawing it on its own).

    ``copy`` numbers the copy among the pieces with this id; ``set_name`` is
    its player colour, for a component with sets (the first set if not given).
    A problem with the face raises a TemplateError naming every problem found.
    """
    component = game.component(component_id)
    if set_name is not None and set_name not in component.sets:
        raise UnknownNameError(f"{component.id} has no set {set_name!r}; expected one of: "
                               + (", ".join(component.sets) or "(none)"))
    chosen = set_name if set_name is not None else (component.sets[0] if component.sets else None)
    number = 0
    for piece in component.pieces:
        if piece.id != piece_id:
            continue
        if copy <= number + piece.count:
            resolver = FaceResolver(game, options, measure)
            resolved = resolver.face(Copy(component, piece, copy, chosen), face)
            raise_problems(resolver.problems)
            return resolved
        number += piece.count
    if number == 0:
        raise UnknownNameError(f"{component.id} has no piece {piece_id!r}; expected one of: "
                               + ", ".join(dict.fromkeys(p.id for p in component.pieces)))
    raise UnknownNameError(f"{component.id} has {number} {piece_id!r}, not a copy {copy}")


#: Elements whose layers may hold QR codes.
_WITH_QR = frozenset({"qr", "scoresheet"})


def _qr_codes(layer: Iterable[Primitive]) -> Iterable[QR]:
    for primitive in layer:
        if type(primitive) is QR:
            yield primitive
        elif type(primitive) is Moved:
            yield from _qr_codes(primitive.primitives)


def _no_values(values: Mapping[str, Any]) -> tuple:
    return ()


def _spent_once(element: Element, props: Mapping[str, Any]) -> tuple[int, int]:
    """The shapes and polygon corners one drawing of an element lays out (a table's cells)."""
    shapes = 1
    if element.type == "table" and isinstance(props.get("rows"), list):
        shapes = max(1, sum(len(row) for row in props["rows"] if isinstance(row, list)))
    points = props.get("points") if element.type == "polygon" else None
    return shapes, len(points) if isinstance(points, (list, tuple)) else 0


class _MissingType:
    def __repr__(self) -> str:
        return "<missing>"


_Missing = _MissingType()


class _Context:
    """One copy's face being resolved: its values, colours and size."""

    def __init__(self, resolver: FaceResolver, copy: Copy, values: dict[str, Any]):
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

    def text(self, raw: str, values: Mapping[str, Any], key: str) -> str:
        """``@catalog.key`` looked up, and ``{placeholders}`` filled (the text of ``key``)."""
        try:
            if raw.startswith("@"):
                return fill(self.catalog.get(fill(raw[1:], values)), values)
            return fill(raw, values)
        except ExpressionError as exc:
            raise KeyedError(key, str(exc)) from None

    def color(self, raw: str | None, values: Mapping[str, Any]) -> str | None:
        """A colour name as written, or the value of the colour field it names."""
        if raw is not None and raw[:1] == "{":
            return values[raw[1:-1]]
        return raw


def mm(raw: Any, values: Mapping[str, Any], key: str, low: float = -MAX_LENGTH_MM,
       high: float = MAX_LENGTH_MM, unit: str = "mm") -> float:
    """A length: a number, or an expression of the face's values, from ``low`` to ``high``.

    Every length of a face passes here, so every one is a finite number within
    its limits (by default at most :data:`~pnp.core.limits.MAX_LENGTH_MM` either way
    from the piece's corner); otherwise a KeyedError names ``key`` and the value.
    """
    if type(raw) is float:
        value = raw  # most lengths, once folded (see fold_lengths): a finite number already
    else:
        try:
            value = evaluate(raw, values)
        except ExpressionError as exc:
            raise KeyedError(key, str(exc)) from None
    if not low <= value <= high:
        raise KeyedError(key, f"{number_shown(value)} {unit} is past the limits: from {low:g} to "
                              f"{high:g} {unit}")
    return value


def copies_of(raw: Any, values: Mapping[str, Any], key: str) -> int:
    """How many times a repeated element is drawn: a whole number from 0 to MAX_REPEAT."""
    value = mm(raw, values, key, 0, MAX_REPEAT, "copies")
    if abs(value - round(value)) > 1e-9:
        raise KeyedError(key, f"{value:g} is not a whole number of copies")
    return int(round(value))


def fold_lengths(element: Element, constants: Mapping[str, float]) -> dict[str, Any]:
    """The element's keys with every length written as an expression of
    ``constants`` alone replaced by its value (in mm, as :func:`mm` gives it).

    An expression that cannot be worked out is left as written, so that
    resolving the element reports it as it always would.

    >>> from pnp.template.model import Element
    >>> fold_lengths(Element("rect", {"x": 4, "w": "w - 8", "h": "h - copy"}, ""), {"w": 63.5})
    {'x': 4.0, 'w': 55.5, 'h': 'h - copy'}
    """
    schema = ELEMENT_SCHEMAS.get(element.type, {})
    props = dict(element.props)
    for key, value in element.props.items():
        kind = schema.get(key) or _COMMON.get(key)
        if kind == LEN:
            props[key] = _folded(value, constants)
        elif kind == LENS and isinstance(value, list):
            props[key] = [_folded(v, constants) for v in value]
        elif kind == POINTS and isinstance(value, list):
            points = [[_folded(v, constants) for v in point] if isinstance(point, list) else point
                      for point in value]
            if all(isinstance(point, list) and len(point) == 2
                   and all(type(v) is float and -MAX_LENGTH_MM <= v <= MAX_LENGTH_MM for v in point)
                   for point in points):
                # Known in full, and within the limits :func:`mm` checks: one
                # tuple of points that every copy's polygon shares.
                points = tuple((x, y) for x, y in points)
            props[key] = points
    return props


def _folded(value: Any, constants: Mapping[str, float]) -> Any:
    try:
        if type(value) is int or type(value) is float:
            return evaluate(value, constants)
        if isinstance(value, str) and names_in(value) <= constants.keys():
            return evaluate(value, constants)
    except (ValueError, ArithmeticError, TypeError):
        pass  # reported, with the element and its key, when it is resolved
    return value


def _repeated(element: Element, props: Mapping[str, Any], c: _Context) -> Iterable[Primitive]:
    """The element's primitives; a repeated element's copies each laid out in
    its own frame and moved by the step (checks see where they land)."""
    resolve = _RESOLVE[element.type]
    repeat = props.get("repeat")
    values = c.values
    if repeat is None:
        yield from resolve(props, c, values, 0.0, 0.0)
        return
    if isinstance(repeat, list):  # a grid: [columns, rows]
        cols, rows = (copies_of(v, values, f"repeat[{i}]") for i, v in enumerate(repeat))
        if cols * rows > MAX_REPEAT:
            raise KeyedError("repeat", f"{cols} x {rows} = {cols * rows} copies; the limit is "
                                       f"{MAX_REPEAT}")
    else:
        cols, rows = copies_of(repeat, values, "repeat"), 1
    step = props.get("step")
    grid = rows > 1 or isinstance(repeat, list)
    for index in range(cols * rows):
        row, col = divmod(index, cols)
        names = {**values, "i": index, "col": col, "row": row}
        dx = dy = 0.0
        if step:
            dx = mm(step[0], names, "step[0]") * (col if grid else index)
            dy = mm(step[1], names, "step[1]") * (row if grid else index) if len(step) > 1 else 0.0
        primitives = resolve(props, c, names, dx, dy)
        if dx or dy:
            if primitives:
                yield Moved(dx, dy, primitives)
        else:
            yield from primitives


# ---------------------------------------------------------------- elements
# Each function lays out one element in its own frame; (dx, dy) says where a
# repeated copy's frame sits on the piece, for the checks that need to know.

def _stroke(props, c: _Context, v) -> tuple[str | None, float, tuple[float, ...]]:
    """(colour, width, dash) of an element's outline; the colour is None when it has none."""
    raw = props.get("stroke")
    if raw is None:
        return None, 0.0, ()
    color = c.inks.line(c.color(raw, v))
    if color is None:
        return None, 0.0, ()
    dash = (tuple(mm(d, v, f"dash[{i}]", 0) for i, d in enumerate(props["dash"]))
            if props.get("dash") else ())
    if dash and not sum(dash) > 0:
        raise KeyedError("dash", "a dash of zero lengths draws nothing (some printers stall on it); "
                                 "give a dash and a gap above 0 mm")
    return color, mm(props.get("stroke_width", DEFAULT_STROKE_MM), v, "stroke_width", 0), dash


def _paint(props, c: _Context, v) -> tuple[str | None, str | None, float, tuple[float, ...]]:
    """(fill, stroke, width, dash) of a filled shape; the ink saver outlines what it whitens."""
    raw = c.color(props.get("fill"), v)
    fill_color = c.inks.fill(raw)
    if fill_color is not None and c.inks.ink_saver and props.get("stroke") is None \
            and raw not in ("white", "paper"):
        return fill_color, BLACK, OUTLINE_MM, ()
    stroke, width, dash = _stroke(props, c, v)
    return fill_color, stroke, width, dash


def _background(props, c: _Context, v, dx: float, dy: float) -> Layer:
    color = c.inks.fill(c.color(props["fill"], v))
    if color is None:
        return ()
    b = c.bleed
    return (Rect(-b, -b, c.width + 2 * b, c.height + 2 * b, fill=color),)


def _rect(props, c: _Context, v, dx: float, dy: float) -> Layer:
    fill_color, stroke, width, dash = _paint(props, c, v)
    if fill_color is None and stroke is None:
        return ()
    return (Rect(mm(props["x"], v, "x"), mm(props["y"], v, "y"), mm(props["w"], v, "w"),
                 mm(props["h"], v, "h"), fill_color, stroke, width, mm(props.get("radius", 0), v, "radius", 0),
                 dash),)


def _ellipse(props, c: _Context, v, dx: float, dy: float) -> Layer:
    fill_color, stroke, width, dash = _paint(props, c, v)
    if fill_color is None and stroke is None:
        return ()
    rx = mm(props["rx"], v, "rx", 0)
    return (Ellipse(mm(props["cx"], v, "cx"), mm(props["cy"], v, "cy"), rx,
                    mm(props["ry"], v, "ry", 0) if "ry" in props else rx, fill_color, stroke, width, dash),)


def _line(props, c: _Context, v, dx: float, dy: float) -> Layer:
    if "stroke" not in props:
        props = {**props, "stroke": "ink"}
    stroke, width, dash = _stroke(props, c, v)
    if stroke is None:
        return ()
    return (Line(mm(props["x1"], v, "x1"), mm(props["y1"], v, "y1"), mm(props["x2"], v, "x2"),
                 mm(props["y2"], v, "y2"),
                 stroke, width, dash, cap=1),)


def _polygon(props, c: _Context, v, dx: float, dy: float) -> Layer:
    fill_color, stroke, width, dash = _paint(props, c, v)
    if fill_color is None and stroke is None:
        return ()
    points = props["points"]
    if type(points) is not tuple:  # some point depends on the copy (see fold_lengths)
        points = tuple((mm(x, v, f"points[{i}][0]"), mm(y, v, f"points[{i}][1]"))
                       for i, (x, y) in enumerate(points))
    return (Path((points,), props.get("closed", True), fill_color, stroke, width, dash, join=1),)


def inside_trim(c: _Context, x: float, y: float, w: float, h: float, what: str,
                text: str | None = None) -> None:
    """Boxes of text stay inside the piece, so no text can run past a cut (mm, top-left).

    ``what`` names the box in the message, followed by the start of ``text`` if given.
    """
    tolerance = 0.01
    if x < -tolerance or y < -tolerance or x + w > c.width + tolerance or y + h > c.height + tolerance:
        if text is not None:
            what = f"{what} {text[:20]!r}"
        raise TemplateError(f"{what} box ({x:g}, {y:g}, {w:g} x {h:g} mm) runs outside the "
                            f"{c.width:g} x {c.height:g} mm piece")


def _text(props, c: _Context, v, dx: float, dy: float) -> Layer:
    raw = props["text"]
    if "plural" in props:
        # "@score" with plural = "points": the catalog's score.one or score.other, by the number.
        count = mm(props["plural"], v, "plural", -MAX_LENGTH_MM, MAX_LENGTH_MM, "")
        raw = f"{raw}.{plural_form(c.catalog.lang, abs(count))}"
    text = c.text(raw, v, "text")
    if not text:
        return ()
    x, y = mm(props["x"], v, "x"), mm(props["y"], v, "y")
    w, h = mm(props["w"], v, "w", 0), mm(props["h"], v, "h", 0)
    inside_trim(c, x + dx, y + dy, w, h, "text", text)
    rotate = props.get("rotate", 0)
    # The text's own frame, in points: turned a quarter, its width is the box's height.
    frame_w, frame_h = (pt(h), pt(w)) if rotate in (90, 270) else (pt(w), pt(h))
    style = props.get("font", "regular")
    size = mm(props["size"], v, "size", MIN_SIZE, MAX_TEXT_SIZE_PT, "pt")
    fitted = fit_or_fail(c.measure, text, style, size, frame_w, frame_h,
                         wrap=props.get("wrap", False), leading=float(props.get("leading", 1.18)),
                         min_size=float(props.get("min_size", MIN_SIZE)))
    color = c.inks.line(c.color(props.get("color", "ink"), v))
    baselines = _baselines(fitted, frame_h, props.get("valign", "middle"))
    share = _SHARE[props.get("align", "center")]
    if not rotate:
        lines = tuple(TextLine(line, x + (frame_w - width) * share / POINTS_PER_MM,
                               y + h - baseline / POINTS_PER_MM)
                      for line, width, baseline in zip(fitted.lines, fitted.widths, baselines))
        return (Text(lines, style, fitted.size, color),)
    # Turned text is laid out in its own frame, centred on the box's centre.
    lines = tuple(TextLine(line, (-frame_w / 2 + (frame_w - width) * share) / POINTS_PER_MM,
                           (frame_h / 2 - baseline) / POINTS_PER_MM)
                  for line, width, baseline in zip(fitted.lines, fitted.widths, baselines))
    return (Text(lines, style, fitted.size, color, rotate, (x + w / 2, y + h / 2)),)


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


def find_icon(folders: tuple[str, ...], name: str, measure: Measurer | None = None) -> str:
    """The SVG file of an icon, read and checked once (an IconError if missing or broken);
    with ``measure``, every letter of its text must be in the kit's fonts."""
    from pnp.template.icons import load_icon  # the SVG reader loads only for kits with icons

    return load_icon(folders, name, measure.missing if measure is not None else None).source


def _icon(props, c: _Context, v, dx: float, dy: float) -> Layer:
    try:
        source = find_icon(c.icon_dirs, c.text(str(props["name"]), v, "name"), c.measure)
    except TemplateError as exc:  # the icon this key names cannot be used
        raise KeyedError("name", str(exc)) from None
    tint = c.inks.resolve(c.color(props.get("color", "ink"), v))
    return (Icon(source, mm(props["x"], v, "x"), mm(props["y"], v, "y"), mm(props["w"], v, "w", 0),
                 mm(props["h"], v, "h", 0), tint or BLACK, props.get("rotate", 0), bool(props.get("mirror", False)),
                 c.inks.ink_saver),)


def _symbol(props, c: _Context, v, dx: float, dy: float) -> Layer:
    shape = c.text(str(props.get("shape", "{set_symbol}")), v, "shape")
    if shape not in SYMBOLS:
        raise TemplateError(f"unknown symbol {shape!r}; expected one of: {', '.join(SYMBOLS)}")
    fill_color = c.inks.fill(c.color(props.get("fill", "set_ink"), v))
    if c.inks.ink_saver:
        # The shape alone tells the sets apart once colours are gone.
        fill_color = BLACK
    stroke, width, dash = _stroke(props, c, v)
    return (Symbol(shape, mm(props["cx"], v, "cx"), mm(props["cy"], v, "cy"),
                   mm(props["size"], v, "size", 0), fill_color, stroke, width, dash),)


TABLE_PAD = 1.5
TABLE_RULE_PT = 0.5
TABLE_FRAME_PT = 0.8


def _table(props, c: _Context, v, dx: float, dy: float) -> Layer:
    x, top = mm(props["x"], v, "x"), mm(props["y"], v, "y")
    width, row_h = mm(props["w"], v, "w", 0), mm(props["row_h"], v, "row_h", 0)
    weights = [mm(col, v, f"cols[{i}]", 0) for i, col in enumerate(props["cols"])]
    total = sum(weights)
    if not total > 0:
        raise KeyedError("cols", "the columns' widths add up to 0; give at least one a width above 0")
    widths = [width * weight / total for weight in weights]
    size = float(props["size"])
    rule = c.inks.line(c.color(props.get("line", "ink"), v))
    header = props.get("header", True)
    rows = props["rows"]
    inside_trim(c, x + dx, top + dy, width, row_h * len(rows), "table")
    out: list[Primitive] = []
    for r, row in enumerate(rows):
        y = top + r * row_h
        is_header = header and r == 0
        fill_name = props.get("header_fill") if is_header else (props.get("zebra") if r % 2 == 0 else None)
        fill_color = c.inks.fill(c.color(fill_name, v))
        if fill_color:
            out.append(Rect(x, y, width, row_h, fill=fill_color))
        left = x
        for col, cell in enumerate(row):
            text = c.text(cell, v, f"rows[{r}][{col}]")
            style = "bold" if is_header or col == 0 else props.get("font", "regular")
            color = c.inks.line(c.color(props.get("header_color" if is_header else "color", "ink"), v)
                                or "ink")
            if text:
                fitted = fit_or_fail(c.measure, text, style, size, pt(widths[col] - 2 * TABLE_PAD),
                                     pt(row_h - 1), wrap=True, leading=1.12, min_size=MIN_SIZE)
                block = 0.72 * fitted.size + (len(fitted.lines) - 1) * fitted.leading
                # Baseline of the first line, in mm down from the row's top.
                base = row_h - ((pt(row_h) + block) / 2 - 0.72 * fitted.size) / POINTS_PER_MM
                lines = []
                for line, line_w in zip(fitted.lines, fitted.widths):
                    if col == 0 or props.get("align", "center") == "left":
                        lines.append(TextLine(line, left + TABLE_PAD, y + base))
                    else:
                        lines.append(TextLine(line, left + widths[col] / 2 - line_w / 2 / POINTS_PER_MM,
                                              y + base))
                    base += fitted.leading / POINTS_PER_MM
                out.append(Text(tuple(lines), style, fitted.size, color))
            left += widths[col]
        if rule:
            out.append(Line(x, y + row_h, x + width, y + row_h, rule, TABLE_RULE_PT / POINTS_PER_MM))
    if rule and props.get("col_lines", False):
        left = x
        for column_w in widths[:-1]:
            left += column_w
            out.append(Line(left, top, left, top + len(rows) * row_h, rule, TABLE_RULE_PT / POINTS_PER_MM))
    if rule:
        out.append(Rect(x, top, width, len(rows) * row_h, stroke=rule,
                        width=TABLE_FRAME_PT / POINTS_PER_MM))
    return tuple(out)


def _qr(props, c: _Context, v, dx: float, dy: float) -> Layer:
    data = c.options.qr_url or qr_text(c.text(props["data"], v, "data"), "data")
    color = c.inks.line(c.color(props.get("color", "ink"), v)) or BLACK
    return (QR(data, mm(props["x"], v, "x"), mm(props["y"], v, "y"), mm(props["size"], v, "size", 0),
               color),)


def qr_text(data: str, key: str) -> str:
    """What a QR code holds: at most :data:`~pnp.core.limits.MAX_QR_BYTES` as UTF-8."""
    size = len(data.encode("utf-8", "surrogatepass"))
    if size > MAX_QR_BYTES:
        raise KeyedError(key, f"{size} bytes to put in a QR code; the limit is {MAX_QR_BYTES} (a denser code "
                              "is not readable at this size)")
    return data


def _scoresheet(props, c: _Context, v, dx: float, dy: float) -> Layer:
    from pnp.layout.scoresheets import lay_out_scoresheet  # only kits with a scoresheet need it

    x, y = mm(props["x"], v, "x"), mm(props["y"], v, "y")
    w, h = mm(props["w"], v, "w", 0), mm(props["h"], v, "h", 0)
    inside_trim(c, x + dx, y + dy, w, h, "scoresheet")
    if c.filled is not None:
        qr = c.filled.qr
    else:
        qr = c.options.qr_url or (qr_text(c.text(props["qr"], v, "qr"), "qr") if props.get("qr") else None)
    return lay_out_scoresheet(c, c.text(str(props.get("game", "{game_id}")), v, "game"), x, y, w, h, qr)


_RESOLVE: dict[str, Callable[..., Layer]] = {
    "background": _background,
    "rect": _rect,
    "ellipse": _ellipse,
    "line": _line,
    "polygon": _polygon,
    "text": _text,
    "icon": _icon,
    "symbol": _symbol,
    "table": _table,
    "qr": _qr,
    "scoresheet": _scoresheet,
}
