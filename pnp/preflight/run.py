"""``pnp preflight``: one report of what a kit prints badly, before paper is wasted.

The kit is laid out as ``pnp render`` lays it out (its plan: every face as it
is printed, a scoresheet shrunk below other pieces included) and drawn into a
PDF in memory. Every face is then looked at element by element
(:mod:`pnp.preflight.checks`), so each finding names the piece, the face, the
element and a measure; the checks of a component as a whole (colours of its
sets, backs of a hidden deck) and of the file (its size against print shops'
limits, its print order) follow. A kit that cannot be rendered is still
looked at, face by face, with the render's own problems reported as errors.
"""

from __future__ import annotations

from collections import Counter

from pnp.core.errors import TemplateError
from pnp.core.records import NamedTuple
from pnp.core.units import paper_size
from pnp.kit.build import collector_paused, imprint
from pnp.layout.faces import FaceResolver, face_elements
from pnp.layout.outline import outline_of
from pnp.layout.plan import copies, plan_kit, prints_backs
from pnp.layout.print_order import pdf_page_count, print_order_problems
from pnp.layout.text import Measurer
from pnp.preflight import checks, colours
from pnp.preflight.checks import ERROR, NOTE, SEVERITIES, WARNING, Found
from pnp.render.document import render_kit
from pnp.template.model import Component, Copy, Face, Game, PrintOptions

#: The sizes a PDF is sent to a print shop by, and what happens past them (bytes; see
#: docs/PRINTING.md, "Checking a design before printing", for the sources).
FILE_LIMITS = (
    (25_000_000, WARNING, "too large to send by e-mail (Gmail takes 25 MB of attachments)"),
    (200_000_000, WARNING, "over the 200 MB some online printers take in one upload (1-2-print)"),
    (1_500_000_000, ERROR, "over the 1.5 GB the most generous online printers take in one upload "
                           "(Pixartprinting)"),
)


class Finding(NamedTuple):
    """One line of the report: what prints badly, where, and by how much."""

    severity: str        # error, warning or note
    check: str           # safe-zone, text-size, thin-line, ink, set-colours, hidden-backs, seams, file,
                         # print-order, render
    piece: str           # the piece(s), a component, or the kit
    face: str            # front or back; empty for a component or the kit
    element: str         # the element's key path and type; empty for a component or the kit
    measure: str
    message: str

    def line(self) -> str:
        """The finding as the report prints it: what, where, by how much.

        >>> Finding("error", "text-size", "cards/fox", "front", "components.cards.front[2] (text)",
        ...         "5.5 pt", "under 6 pt").line()
        'error: cards/fox front, components.cards.front[2] (text): 5.5 pt: under 6 pt'
        """
        at = " ".join(part for part in (self.piece, self.face) if part)
        if self.element:
            at += f", {self.element}"
        return f"{self.severity}: {at}: {self.measure}: {self.message}" if self.measure else \
            f"{self.severity}: {at}: {self.message}"


class Report(NamedTuple):
    game: Game
    options: PrintOptions
    findings: list[Finding]
    faces: int                  # faces looked at
    pdf: bytes | None           # the kit as pnp render draws it; None when it cannot be rendered
    manifest: dict | None
    problems: list[str]         # why it cannot be rendered, as pnp render says it

    @property
    def pages(self) -> int | None:
        return len(self.manifest["pages"]) if self.manifest is not None else None

    def count(self, severity: str) -> int:
        return sum(1 for f in self.findings if f.severity == severity)

    def fails(self, strict: bool = False) -> bool:
        """Whether the kit fails its preflight: an error, or with ``strict`` a warning."""
        return bool(self.count(ERROR) or (strict and self.count(WARNING)))


def preflight(game: Game, options: PrintOptions, components: list[str] | None = None, *,
              measure: Measurer) -> Report:
    """Look at every face of a kit (or of some of its components) as it is printed."""
    chosen = [game.component(c) for c in components] if components else list(game.components)
    findings: list[Finding] = []
    problems: list[str] = []
    pdf: bytes | None = None
    manifest: dict | None = None
    try:
        with collector_paused():
            plan = plan_kit(game, options, paper_size(options.paper), components, measure=measure,
                            imprint=imprint())
            findings += [Finding(r.severity, "seams", r.component, "", element=f"components.{r.component}.{r.key}",
                                 measure="", message=r.message) for r in plan.reports]
            faces = _printed(plan)
            pdf, manifest = render_kit(plan, release_pages=True)
    except TemplateError as exc:
        problems = list(exc.problems)
        faces = [(copy, face) for component in chosen for copy in copies(component)
                 for face in _faces(component, options)]
    resolver = FaceResolver(game, options, measure)
    looked = _Looked(resolver, measure)
    with collector_paused():   # as for a render: shapes form no cycles
        for copy, face in faces:
            looked.face(copy, face)
    for problem in dict.fromkeys(problems + resolver.problems):
        findings.append(Finding(ERROR, "render", game.id, "", element="", measure="",
                                message=f"cannot be printed as it is: {problem}"))
    findings += looked.findings()
    for component in chosen:
        findings += _set_colours(game, component, looked)
        findings += _hidden_backs(component, looked)
    if pdf is not None and manifest is not None:
        findings += _file_checks(game, pdf, manifest)
    order = {severity: index for index, severity in enumerate(SEVERITIES)}
    findings.sort(key=lambda f: order[f.severity])
    return Report(game, options, findings, len(looked.seen), pdf=pdf, manifest=manifest, problems=problems)


def _faces(component: Component, options: PrintOptions) -> tuple[Face, ...]:
    return (Face.FRONT, Face.BACK) if prints_backs(component, options) else (Face.FRONT,)


def _printed(plan) -> list[tuple[Copy, Face]]:
    """Each face the plan prints, once (a board's parts print one face several times),
    as it is printed (a page that shrinks at its shrunk height)."""
    seen: dict[tuple, tuple[Copy, Face]] = {}
    for page in plan.pages:
        for placement in page.placements:
            copy = placement.copy
            seen.setdefault((copy.face_key, copy.copy, placement.face, copy.component.size), (copy, placement.face))
    return list(seen.values())


class _Looked:
    """Every face looked at: its resolved layers, and what each element's checks found.

    An element's layer is checked once however many copies print it alike; what is
    found is then said once for every piece, face and element it was found on."""

    def __init__(self, resolver: FaceResolver, measure: Measurer) -> None:
        self.resolver, self.measure = resolver, measure
        #: Each face looked at, with its layers in the order of its elements
        self.seen: list[tuple[Copy, Face, tuple]] = []
        self._checked: dict[tuple, list[Found]] = {}
        #: (found, component, face, element's index) -> the element as named, the copies it was found on
        self._where: dict[tuple, tuple[str, list[Copy]]] = {}

    def face(self, copy: Copy, face: Face) -> None:
        component = copy.component
        layers = self.resolver.face(copy, face).layers
        self.seen.append((copy, face, layers))
        piece = checks.Piece(component.size, outline_of(component), component.cut)
        elements = face_elements(component, copy.piece, face)
        for index, (element, layer) in enumerate(zip(elements, layers)):
            if not layer:
                continue
            key = (id(element), component.size, component.cut, layer)
            found = self._checked.get(key)
            if found is None:
                found = self._checked[key] = checks.check_layer(element, layer, piece, self.measure)
            for item in found:
                self._where.setdefault((item, component.id, face, index),
                                       (checks.what(element, layer), []))[1].append(copy)

    def findings(self) -> list[Finding]:
        out = []
        for (found, _, face, _), (element, found_on) in self._where.items():
            out.append(Finding(found.severity, found.check, _pieces(found_on), face.value, element=element,
                               measure=found.measure, message=found.message))
        return out


def _pieces(found_on: list[Copy]) -> str:
    """The pieces a finding is on: ``cards/wolf``, ``cards/wolf, fox, bear +2 more``, or
    ``cards (every piece)``; with their sets when only some of them."""
    component = found_on[0].component
    ids = list(dict.fromkeys(copy.piece.id for copy in found_on))
    sets = list(dict.fromkeys(copy.set for copy in found_on if copy.set))
    copies_in_sets = sum(p.count for p in component.pieces) * max(1, len(sets))
    if len(found_on) >= copies_in_sets and len(set(p.id for p in component.pieces)) > 1:
        text = f"{component.id} (every piece)"
    elif len(ids) <= 3:
        text = f"{component.id}/{', '.join(ids)}"
    else:
        text = f"{component.id}/{', '.join(ids[:3])} +{len(ids) - 3} more"
    if sets and len(sets) < len(component.sets):
        text += f" ({', '.join(sets)})"
    return text


def _set_colours(game: Game, component: Component, looked: _Looked) -> list[Finding]:
    """Set colours that someone cannot tell apart must be told apart by their symbols: every
    face printed in one of them shows its set's symbol. A face that does not is an error;
    colours alike whose every face shows its symbol are a note."""
    if len(component.sets) < 2:
        return []
    out = []
    for likeness in checks.alike(game.colors, component.sets):
        missing: dict[tuple, list[Copy]] = {}
        painted = False
        for copy, face, layers in looked.seen:
            if copy.component.id != component.id or copy.set not in (likeness.first, likeness.second):
                continue
            color = game.colors[copy.set]
            painting = next((index for index, layer in enumerate(layers) if checks.paints(layer, color.rgb)), None)
            painted = painted or painting is not None
            if painting is None or checks.shows_symbol(layers, color.symbol):
                continue
            element = face_elements(copy.component, copy.piece, face)[painting]
            other = likeness.second if copy.set == likeness.first else likeness.first
            missing.setdefault((face, copy.set, other, checks.what(element)), []).append(copy)
        measure = f"ΔE00 {likeness.difference:.1f}"
        seen_by = colours.SEEN_BY[likeness.vision]
        for (face, set_name, other, element), found_on in missing.items():
            symbol = game.colors[set_name].symbol
            out.append(Finding(ERROR, "set-colours", _pieces(found_on), face.value, element=element,
                               measure=f"{measure} from {other}",
                               message=f"{set_name} looks like {other} {seen_by}, and this face shows no {symbol}, "
                                       f"the symbol of {set_name}"))
        if painted and not missing:
            out.append(Finding(NOTE, "set-colours", component.id, "", element="", measure=measure,
                               message=f"{likeness.first} and {likeness.second} look alike {seen_by}; every face "
                                       f"printed in them shows its set's symbol"))
    return out


def _hidden_backs(component: Component, looked: _Looked) -> list[Finding]:
    """The pieces of a hidden component print one back in each set: a piece whose back
    differs from the others' is named with the elements that differ."""
    if not component.hidden:
        return []
    out = []
    by_set: dict[str | None, list[tuple[Copy, tuple]]] = {}
    for copy, face, layers in looked.seen:
        if copy.component.id == component.id and face is Face.BACK:
            by_set.setdefault(copy.set, []).append((copy, layers))
    for set_name, backs in by_set.items():
        usual, count = Counter(layers for _, layers in backs).most_common(1)[0]
        odd: dict[tuple, list[Copy]] = {}
        for copy, layers in backs:
            if layers == usual:
                continue
            elements = face_elements(copy.component, copy.piece, Face.BACK)
            for index, (mine, theirs) in enumerate(zip(layers, usual)):
                if mine != theirs:
                    odd.setdefault((checks.what(elements[index]),), []).append(copy)
        for (element,), found_on in odd.items():
            out.append(Finding(ERROR, "hidden-backs", _pieces(found_on), "back", element=element,
                               measure=f"{len(found_on)} of {len(backs)} backs",
                               message=f"differs from the back of the {count} others: players tell these pieces "
                                       "apart from behind"))
    return out


def _file_checks(game: Game, pdf: bytes, manifest: dict) -> list[Finding]:
    """The PDF against print shops' limits, and its print order."""
    out = []
    size = len(pdf)
    passed = [limit for limit in FILE_LIMITS if size > limit[0]]
    if passed:
        _, severity, message = passed[-1]
        out.append(Finding(severity, "file", f"the PDF of {game.id}", "", element="",
                           measure=f"{size / 1e6:.1f} MB", message=message))
    for problem in print_order_problems(manifest, pdf_page_count(pdf)):
        out.append(Finding(ERROR, "print-order", f"the PDF of {game.id}", "", element="", measure="",
                           message=problem))
    return out
