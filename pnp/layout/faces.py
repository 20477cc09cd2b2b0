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

Each kind of element is laid out by its module in :mod:`pnp.layout.kinds`;
here is what every kind shares: values, the cache, repeats and their steps,
the work budget, the problems. Nothing here imports a PDF library: text is
measured through the :class:`~pnp.layout.text.Measurer` given to the resolver.
"""

from __future__ import annotations

import os
from operator import itemgetter
from types import ModuleType
from typing import Any, Callable, Iterable, Mapping

from pnp.core.errors import PnpError, UnknownNameError, raise_problems
from pnp.core.limits import MAX_LENGTH_MM, MAX_REPEAT, BudgetError, WorkBudget
from pnp.core.records import NamedTuple
from pnp.layout.colors import Inks
from pnp.layout.kinds import laid_out
from pnp.layout.kinds.base import NOT_MOVED, CopyFace, KeyedError, Layer, Resolver, mm, one_shape
from pnp.layout.kinds.image import Picture, Placed
from pnp.layout.primitives import QR, Moved, Primitive, absolute
from pnp.layout.text import Measurer
from pnp.template.elements import FACE_NAMES, REPEAT_NAMES, SET_NAMES
from pnp.template.kinds import COMMON_KEYS, KINDS, LEN, LENS, POINTS
from pnp.template.language import ExpressionError, evaluate, names_in
from pnp.template.model import Component, Copy, Element, Face, Game, Piece, PrintOptions


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


def face_elements(component: Component, piece: Piece, face: Face) -> tuple[Element, ...]:
    """The elements a face of a piece is drawn from: its own, else its component's."""
    if face is Face.FRONT:
        return piece.front or component.front
    return piece.back or component.back or ()


#: Resolved layers a resolver keeps for the copies still to come.
RESOLVED_LIMIT = 8192
#: An element of a face resolved this many times, each with values never met before, is no
#: longer kept: a deck of thousands of different cards would only fill the resolver's memory
#: with layers no copy asks for again (and free them in bulk), which costs it more time than
#: laying them out (a fifth of the drawing of 14,400 different cards).
UNCACHED_AFTER = 512


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
        #: The template's folder, where its pictures are found (None for a game not read from a file).
        self.folder = os.path.dirname(os.path.abspath(game.source)) if game.source else None
        #: Each picture placed, by piece, face, element and file (pnp.layout.kinds.image.Placed).
        self.pictures: dict[tuple, Placed] = {}

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
            element = prepared.element
            tally = prepared.tally
            if tally[0] < 0:
                # Never met twice (see _Prepared.tally): kept, it would only cost memory.
                if context is None:
                    context = CopyFace(self, copy, values)
                layer = self._resolve(context, prepared)
            else:
                try:
                    key = (id(element), prepared.values_of(values))
                except KeyError:
                    # An optional field the piece leaves out: absent is a value too.
                    key = (id(element), tuple(values.get(n, _Missing) for n in element.names))
                layer = cache.get(key)
                if layer is None:
                    if context is None:
                        context = CopyFace(self, copy, values)
                    if len(cache) >= RESOLVED_LIMIT:
                        # A deck of thousands of different cards would keep every
                        # card's layers twice; what is resolved again is equal.
                        cache.clear()
                    layer = cache[key] = self._resolve(context, prepared)
                    tally[0] = tally[0] + 1 if tally[0] + 1 < UNCACHED_AFTER else -1
                else:
                    tally[0] = 0
            if type(layer) is _Failed:
                where = (f"{self.game.id} {component.id}/{piece.id} {face.value}, "
                         f"{self.catalog.lang}")
                at = f"{element.where}.{layer.key}" if layer.key else element.where
                self._report(f"{at} ({where}): {layer.message}")
                layer = ()
            elif prepared.pictured and layer:
                self._placed(copy, face, element, layer)
            layers.append(layer)
        return ResolvedFace(component.size, self.options.bleed, tuple(layers))

    def _placed(self, copy: Copy, face: Face, element: Element, layer: Layer) -> None:
        """Note each picture a layer places, for the manifest and for what is said of its resolution."""
        from pnp.template.pictures import picture_info

        piece = f"{copy.component.id}/{copy.piece.id}"
        for p in absolute(layer):
            if type(p) is Picture:
                key = (piece, face.value, element.where, p.source)
                seen = self.pictures.get(key)
                if seen is None or p.dpi < seen.dpi:
                    info = picture_info(self.folder, p.name)
                    self.pictures[key] = Placed(piece, face.value, element.where.rpartition(": ")[2], p.name,
                                                source=p.source, dpi=p.dpi, pixels=(info.width, info.height))

    def _prepared(self, component: Component, elements: tuple[Element, ...]) -> tuple[_Prepared, ...]:
        """Each element of a face with what resolving it needs on every copy (:class:`_Prepared`)."""
        key = (id(elements), id(component))
        prepared = self._faces.get(key)
        if prepared is None:
            prepared = self._faces[key] = tuple(_prepared(element, self._folded_props(element, component))
                                                for element in elements)
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
            props = fold_lengths(element, constants)
            prepare = getattr(laid_out(element.type), "prepare", None)
            if prepare is not None:   # what every copy shares, worked out once (a text's box and size)
                props = prepare(props, component.size)
            self._folded[key] = props
        return props

    def _resolve(self, context: CopyFace, prepared: _Prepared) -> Layer | _Failed:
        element, keys = prepared.element, prepared.keys
        try:
            if element.when is not None and not prepared.when_each and not element.when.holds(context.values):
                return ()
            if prepared.spent is None:
                self._spend(element, context, prepared)
                layer = tuple(_repeated(prepared, context))
            else:
                self.budget.spend(*prepared.spent, element.where)
                layer = prepared.resolve(keys, context, context.values, NOT_MOVED)
                layer = layer if type(layer) is tuple else tuple(layer)
            if prepared.with_qr:
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
                        self._estimate(element, component, pieces, sets, budget=budget)

    def _estimate(self, element: Element, component: Component, pieces: list[Piece], sets: int,
                  *, budget: WorkBudget) -> None:
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
        each_shapes, each_corners = _spent_by(laid_out(element.type), props)
        budget.spend(shapes * each_shapes, shapes * each_corners, element.where)

    def _spend(self, element: Element, context: CopyFace, prepared: _Prepared) -> None:
        """Count the shapes and corners a repeated element is about to lay out, before it does
        (:class:`~pnp.core.limits.WorkBudget`): past a limit, the kit stops here."""
        repeat = prepared.keys.get("repeat")
        values = context.values
        if isinstance(repeat, list):
            count = 1
            for index, value in enumerate(repeat):
                count *= copies_of(value, values, f"repeat[{index}]")
        else:
            count = copies_of(repeat, values, "repeat")
        if count > MAX_REPEAT:
            return    # refused as the element is laid out, naming its limit
        shapes, corners = _spent_by(prepared.kind, prepared.keys)
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


def resolve_piece_face(game: Game, options: PrintOptions, measure: Measurer, *, component_id: str,
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


class _Prepared(NamedTuple):
    """One element of a face with what resolving it needs on every copy."""

    element: Element
    values_of: Callable[[Mapping[str, Any]], tuple]   # the values of the names it uses
    keys: Mapping[str, Any]     # its keys, the lengths every copy shares worked out
    kind: ModuleType            # its kind's module in pnp.layout.kinds
    resolve: Resolver
    #: The shapes and corners one drawing spends; None for a repeated element (its
    #: copies are counted as it is laid out).
    spent: tuple[int, int] | None
    with_qr: bool               # its layers may hold QR codes (each spends the QR budget)
    pictured: bool = False      # its layers may hold pictures (each noted for the manifest)
    #: Its ``when`` tests ``i``, ``col`` or ``row``: decided for each copy of its repeat.
    when_each: bool = False
    #: How many times running it was resolved with values not kept before, made again at
    #: each value met twice; -1 once that reached :data:`UNCACHED_AFTER` (no longer kept).
    tally: list[int] | None = None


def _prepared(element: Element, keys: Mapping[str, Any]) -> _Prepared:
    kind = laid_out(element.type)
    when_each = "repeat" in keys and element.when is not None and bool(element.when.names & _REPEATS)
    return _Prepared(element, itemgetter(*element.names) if element.names else _no_values, keys, kind,
                     resolve=kind.resolve, spent=None if "repeat" in keys else _spent_by(kind, keys),
                     with_qr=QR in kind.DRAWS, pictured=Picture in kind.DRAWS, when_each=when_each,
                     tally=[0])


_REPEATS = frozenset(REPEAT_NAMES)


def _spent_by(kind: ModuleType, keys: Mapping[str, Any]) -> tuple[int, int]:
    """The shapes and polygon corners one drawing of an element lays out (a table's cells)."""
    return getattr(kind, "spent", one_shape)(keys)


def _qr_codes(layer: Iterable[Primitive]) -> Iterable[QR]:
    for primitive in layer:
        if type(primitive) is QR:
            yield primitive
        elif type(primitive) is Moved:
            yield from _qr_codes(primitive.primitives)


def _no_values(values: Mapping[str, Any]) -> tuple:
    return ()


class _MissingType:
    def __repr__(self) -> str:
        return "<missing>"


_Missing = _MissingType()


def copies_of(raw: Any, values: Mapping[str, Any], key: str) -> int:
    """How many times a repeated element is drawn: a whole number from 0 to MAX_REPEAT."""
    value = mm(raw, values, key, low=0, high=MAX_REPEAT, unit="copies")
    if abs(value - round(value)) > 1e-9:
        raise KeyedError(key, f"{value:g} is not a whole number of copies")
    return int(round(value))


def fold_lengths(element: Element, constants: Mapping[str, float]) -> dict[str, Any]:
    """The element's keys with every length written as an expression of
    ``constants`` alone replaced by its value (in mm, as :func:`~pnp.layout.kinds.base.mm` gives it).

    An expression that cannot be worked out is left as written, so that
    resolving the element reports it as it always would.

    >>> from pnp.template.model import Element
    >>> fold_lengths(Element("rect", {"x": 4, "w": "w - 8", "h": "h - copy"}, ""), {"w": 63.5})
    {'x': 4.0, 'w': 55.5, 'h': 'h - copy'}
    """
    schema = KINDS[element.type].keys if element.type in KINDS else {}
    props = dict(element.props)
    for key, value in element.props.items():
        kind = schema.get(key) or COMMON_KEYS.get(key)
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
                # Known in full, and within the limits mm() checks: one
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


def _repeated(prepared: _Prepared, face: CopyFace) -> Iterable[Primitive]:
    """The element's primitives; a repeated element's copies each laid out in
    its own frame and moved by the step (checks see where they land)."""
    resolve, props = prepared.resolve, prepared.keys
    repeat = props.get("repeat")
    values = face.values
    if repeat is None:
        yield from resolve(props, face, values, NOT_MOVED)
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
    when = prepared.element.when if prepared.when_each else None
    for index in range(cols * rows):
        row, col = divmod(index, cols)
        names = {**values, "i": index, "col": col, "row": row}
        if when is not None and not when.holds(names):
            continue
        dx = dy = 0.0
        if step:
            dx = mm(step[0], names, "step[0]") * (col if grid else index)
            dy = mm(step[1], names, "step[1]") * (row if grid else index) if len(step) > 1 else 0.0
        primitives = resolve(props, face, names, (dx, dy))
        if dx or dy:
            if primitives:
                yield Moved(dx, dy, primitives)
        else:
            yield from primitives
