"""Load ``templates/*.toml``, validate them, and build model objects.

What a file may hold is declared in :mod:`pnp.template.spec` (its tables and
keys) and :mod:`pnp.template.elements` (the elements of a face); here the files are
read, the game's facts filled in, the catalogs checked against every face, and
the model built. Every problem names the file, the key and the expected form, e.g.
``hunting-fever.toml: components.player-cards.pieces[2].count: expected a positive whole number, got 0``.
"""

from __future__ import annotations

import math
import os
import re
import shlex
from itertools import chain, repeat
from pathlib import Path
from types import NoneType
from typing import Any, Iterable, Mapping

from pnp.core import games

from pnp.core import toml_reader
from pnp.template.elements import LATE_NAMES, REPEAT_NAMES, Scope, hidden_on_load, uses_of
from pnp.core.errors import KeyClash, TemplateError, UnknownNameError, composed, raise_problems
from pnp.template.facts import Facts, resolve_template, resolve_texts, uses_facts
from pnp.core.files import ReadError, read_regular, shown_path
from pnp.core.i18n import LANGUAGES, Catalog, over_common, own_catalog
from pnp.template.language import ExpressionError, evaluate, fill, names_in, placeholder_names
from pnp.core.limits import (MAX_NUMBER, MAX_PIECES, MAX_REPEAT, MAX_TEMPLATE_BYTES, MAX_TEXT_CHARS, number_problem,
                             size_shown)
from pnp.template.model import Component, Element, Game, Piece, PlayerColor
from pnp.core.resources import templates_dir
from pnp.template.schema import Checker
from pnp.template.spec import COLOR, GAME, named_by_id


def load_colors(path: Path) -> dict[str, PlayerColor]:
    """The shared player colours (``templates/colors.toml``)."""
    check = Checker(path.name)
    colors = {}
    for name, entry in _read_toml(path).get("colors", {}).items():
        checked = COLOR.check(entry, f"colors.{name}", check)
        if not check.problems:
            colors[name] = PlayerColor(name, checked["rgb"], checked["ink"], checked["symbol"])
    raise_problems(check.problems)
    return colors


def _read_toml(path: Path) -> dict:
    return _read_source(path)[0]


def _read_source(path: Path) -> tuple[dict, str]:
    """A TOML file's table and its text."""
    try:
        data = read_regular(path, MAX_TEMPLATE_BYTES)
        # Every text composed (NFC): an "é" typed as e and an accent prints as the font's é.
        text = data.decode("utf-8")
        return composed(toml_reader.loads(text), text), text
    except KeyClash as exc:
        raise TemplateError(f"{path.name}: {exc}") from None
    except ReadError as exc:
        if exc.kind == "too_large":
            raise TemplateError(f"{path.name}: the file is larger than the limit of "
                                f"{size_shown(MAX_TEMPLATE_BYTES)}") from None
        if exc.kind == "missing":
            raise TemplateError(f"{shown_path(path)}: no such template file") from None
        if exc.kind == "folder":
            raise TemplateError(f"{shown_path(path)}: a folder, not a template file") from None
        raise TemplateError(f"{shown_path(path)}: cannot read the template ({exc.reason})") from None
    except toml_reader.TOMLDecodeError as exc:
        raise TemplateError(f"{path.name}: not valid TOML ({exc})") from None
    except UnicodeDecodeError:
        raise TemplateError(f"{path.name}: not a UTF-8 text file") from None
    except RecursionError:
        raise TemplateError(f"{path.name}: not valid TOML (nested too deeply)") from None


#: Keys whose numbers have a limit of their own, lower than MAX_NUMBER.
_KEY_LIMITS = {"count": MAX_PIECES, "repeat": MAX_REPEAT}


def _check_values(table: dict, check: Checker) -> None:
    """Every number a template writes is finite and at most MAX_NUMBER (counts and
    repeats lower), every text at most MAX_TEXT_CHARS long: checked for the whole
    file, naming each key, after the checks of each key's own form, so that a key
    another check already named is not named twice. Lengths are bounded again,
    with their own limits, once a face computes them (pnp.layout.faces).

    One pass over the file in its own order, a few steps a value: a key's path is
    written out only for a table or list to go into, or a value to report, and
    the problems already named are searched only for a value that is wrong (a deck
    of 14,400 cards has 72,000 values and, as a rule, none of them wrong)."""
    named = "\n".join(check.problems)
    # Each open table or list: its path, its (key, value) pairs still to visit, and
    # the limit of its numbers when it is a list (a list's numbers share its key's).
    stack: list[tuple[str, Any, float | None]] = [("", iter(table.items()), None)]
    while stack:  # iterative: TOML may nest deeper than Python recurses
        path, pairs, list_limit = stack[-1]
        for key, value in pairs:
            kind = type(value)
            if kind is str:
                if len(value) <= MAX_TEXT_CHARS:
                    continue
            elif kind is bool:
                continue
            elif kind is int or kind is float:
                limit = list_limit if list_limit is not None else _limit_of(key)
                if -limit <= value <= limit:   # NaN fails both comparisons; inf fails one
                    continue
            elif kind is not dict and kind is not list:
                continue  # dates and times: no limit of their own
            at = f"{path}[{key}]" if list_limit is not None else (f"{path}.{key}" if path else str(key))
            if kind is dict:
                stack.append((at, iter(value.items()), None))
                break
            if kind is list:
                limit = _limit_of(at.rsplit(".", 1)[-1])
                if _numbers_within(value, limit) or _rows_within(value):
                    continue  # a polygon's 10,000 corners, a deck's 14,400 pieces, all fine: no path named for each
                stack.append((at, enumerate(value), limit))
                break
            if f": {at}:" in named or f": {named_by_id([at], table)[0]}:" in named:
                continue
            if kind is str:
                check.problems.append(f"{check.source}: {at}: a text of {len(value)} characters; the "
                                      f"limit is {MAX_TEXT_CHARS}")
            else:
                check.problems.append(f"{check.source}: {at}: {number_problem(value, limit)}")
        else:
            stack.pop()


_INDEX = re.compile(r"(\[\d+\])+$")


def _limit_of(key: Any) -> float:
    """The limit of the numbers of a key (its last part, written ``a.b[2]`` or plain):
    a count's and a repeat's are their own, every other's MAX_NUMBER."""
    key = str(key)
    if "." in key or "[" in key:
        key = _INDEX.sub("", key.rsplit(".", 1)[-1])
    return _KEY_LIMITS.get(key, MAX_NUMBER)


def _numbers_within(items: list, limit: float) -> bool:
    """True if ``items`` holds only numbers (or lists of them), each finite and within ``limit``."""
    stack = [items]   # iterative: TOML may nest deeper than Python recurses
    while stack:
        for item in stack.pop():
            kind = type(item)
            if kind is list:
                stack.append(item)
            elif kind is not float and kind is not int:
                return False
            elif not -limit <= item <= limit:   # NaN fails both comparisons; inf fails one
                return False
    return True


def _rows_within(rows: list) -> bool:
    """True if ``rows`` holds only tables (``[[components.pieces]]``) of texts, true/false and
    numbers, each within its limit (its key's): checked a key at a time, each column in a few
    passes of built-ins (map, set, min, max) rather than a few steps for each value. False as
    soon as one might not be, and for a few rows (the walk takes them as quickly): the walk
    then names it."""
    if len(rows) < _MANY_ROWS or set(map(type, rows)) != {dict}:
        return False
    for key in set(chain.from_iterable(rows)):
        column = list(map(dict.get, rows, repeat(key)))
        kinds = set(map(type, column))
        if NoneType in kinds:   # a key some tables leave out (TOML has no null)
            kinds.discard(NoneType)
            column = [value for value in column if value is not None]
        if kinds <= {str}:
            if max(map(len, column), default=0) > MAX_TEXT_CHARS:
                return False
        elif kinds <= {int, float}:
            limit = _limit_of(key)
            # NaN compares false with everything (min and max may pass it over): isfinite finds it.
            if not (-limit <= min(column) and max(column) <= limit) or (
                    float in kinds and not all(map(math.isfinite, column))):
                return False
        elif kinds != {bool}:
            return False   # tables, lists, dates, a key of several kinds: walked
    return True


#: The fewest rows :func:`_rows_within` takes (a face's few elements, each with keys of its own, are
#: walked as quickly).
_MANY_ROWS = 64


def load_game(path: Path, catalog_dir: Path | None = None,
              overrides: Mapping[str, float] | None = None) -> Game:
    """Read, validate and build one game from its TOML file and its catalogs.

    The catalogs are ``<stem>.en.toml`` and ``<stem>.fr.toml`` beside the file
    (or in ``catalog_dir``), merged over the shared ``common.<lang>.toml``.
    The file is checked against :data:`pnp.template.spec.GAME`, with the
    game's facts filled in first (``{facts.points.bear}``).
    """
    path = Path(path)
    table, text = _read_source(path)
    facts = _facts_of(table)
    if facts is not None and uses_facts(text):
        table = _with_facts(table, facts, path.name)
    del text   # a big deck's text is as large as its table: not kept while the table is checked
    colors = load_colors(templates_dir() / "colors.toml")
    check = Checker(path.name, colors=colors, overrides=overrides, folder=path.parent)
    checked = GAME.check(table, "", check)
    _check_values(table, check)
    raise_problems(named_by_id(check.problems, table))

    header = checked["game"]
    colors = check.colors   # the shared player colours with the template's own
    catalogs = load_game_catalogs(path.stem, catalog_dir or path.parent, facts)
    score_rules = _declared_rules(checked["score"], header, path=path, folder=catalog_dir or path.parent,
                                  catalogs=catalogs)
    shipped_icons = templates_dir() / "icons"
    own_icons = path.parent.resolve() / "icons"
    icon_dirs = tuple(str(d) for d in dict.fromkeys([own_icons, shipped_icons]) if d.is_dir())
    game = Game(
        id=header["id"], players=tuple(header["players"]), rules_url=header["rules_url"],
        designers=tuple(header["designers"]), palette=dict(checked["palette"]), colors=colors,
        fan_copy=header["fan_copy"],
        params={k: float(v) for k, v in checked["params"].items()},
        components=tuple(_component(c) for c in checked["components"]),
        catalogs=catalogs, source=str(path), icon_dirs=icon_dirs or (str(shipped_icons),),
        blank_sheet=_blank_sheet if score_rules is None else _own_sheet(score_rules),
        command=_command(path, header["id"]),
        image_dpi=float(header["image_dpi"]), fonts=dict(checked["fonts"]), score_rules=score_rules,
    )
    return _check_faces(game, path.name)


def _command(path: Path, game_id: str) -> str:
    """``pnp render GAME`` for a registered game's own kit, else ``pnp render --template FILE``.

    It is printed on the kit's alignment sheet, a page meant to be shared: the file is
    named from the folder the command runs in, or by its name alone when it lies elsewhere
    (never the user's home folder), and a long name is cut to fit a line there.
    """
    registered = games.template_file(game_id) if isinstance(game_id, str) else None
    if registered is not None and Path(registered).resolve() == path.resolve():
        return f"pnp render {game_id}"
    try:
        shown = path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except (ValueError, OSError):
        shown = path.name
    if len(shown) > _SHOWN_PATH:
        shown = path.name
    if len(shown) > _SHOWN_PATH:
        half = _SHOWN_PATH // 2 - 1
        shown = f"{shown[:half]}…{shown[-half:]}"
    return f"pnp render --template {shlex.quote(shown)}"


#: The longest file name or path a printed command shows: a line of the alignment sheet holds it.
_SHOWN_PATH = 60


def _component(checked: Mapping[str, Any]) -> Component:
    """A component from its checked table (pnp.template.spec.COMPONENT)."""
    return Component(
        id=checked["id"], size=checked["size"], pieces=checked["pieces"], front=checked["front"],
        back=checked["back"], sets=tuple(checked["sets"]), rotate=checked["rotate"],
        # A circle or a hex is cut by hand along its guide: never edge to edge with another.
        back_kind=checked["back_kind"], gutter=checked["gutter"] or checked["shape"] in ("circle", "hex"),
        corner_radius=float(checked["corner_radius"]) if checked["shape"] == "rounded" else 0.0,
        overlap=float(checked["overlap"]), shape=checked["shape"],
        kind=checked["kind"], cut=checked["cut"], with_cover=checked["with_cover"],
        shrink=checked["shrink"], fields={n: t.rstrip("?") for n, t in checked["fields"].items()},
        seam_lines=checked["seams"], hidden=checked["hidden"],
    )


def load_game_catalogs(stem: str, folder: Path, facts: Facts | None = None) -> dict[str, Catalog]:
    """The catalogs of a game in every language, each merged over the common one, with the
    game's facts written into their texts (``{facts.points.bear}``)."""
    problems: list[str] = []
    catalogs = {}
    for lang in LANGUAGES:
        own = own_catalog(stem, lang, Path(folder))
        # Only a game's own texts name its facts (tests/test_templates_and_catalogs.py holds the
        # common ones to none): the common catalog is left to be read when it is needed.
        if any(map(uses_facts, own.texts.values())):
            texts = resolve_texts(own.texts, facts or Facts(stem, lambda: None), f"{stem}.{lang}.toml", problems)
            own = own._replace(texts=texts)
        catalogs[lang] = over_common(own)
    raise_problems(problems)
    return catalogs


def _facts_of(table: dict) -> Facts | None:
    """The facts of the game a template names (its ``[game] id``), when it names a game."""
    header = table.get("game")
    game_id = header.get("id") if isinstance(header, dict) else None
    if not isinstance(game_id, str):
        return None
    # Looked up when a fact is first named: a kit that names none loads no rules.
    return Facts(game_id, lambda: _game_facts(game_id))


def _game_facts(game_id: str) -> Mapping[str, Any] | None:
    """A game's facts, from its rules (the score companion's: loaded when a kit first names one)."""
    from scoring import rules

    return rules.game_facts(game_id)


def _blank_sheet(game_id: str) -> Any:
    """A game's blank scoresheet, as its rules describe it (a pnp.core.sheet_model.Scoresheet)."""
    from scoring import rules

    return rules.blank_sheet(game_id)


def _declared_rules(score: Mapping[str, Any] | None, header: Mapping[str, Any], *, path: Path, folder: Path,
                    catalogs: Mapping[str, Catalog]) -> Any:
    """The rules a template's ``[score]`` declares (``scoring.declared``), or None without one.

    Each row's name (``score.<row>``) must be in every catalog, and the sheet's own hint
    (``score.hint``) in all of them or none: every missing text is named at once."""
    if score is None:
        return None
    # Loaded only for a template that declares its scoring (the rules cost start-up time).
    from scoring.declared import Declaration, DeclaredRules

    problems = [f"{path.name}: score.rows: text 'score.{row}' missing in {lang} (each row's name)"
                for row in score["rows"] for lang, catalog in catalogs.items() if not catalog.has(f"score.{row}")]
    hinted = sorted(lang for lang, catalog in catalogs.items() if catalog.has("score.hint"))
    if hinted and len(hinted) < len(catalogs):
        problems += [f"{path.name}: score: text 'score.hint' missing in {lang} (the others have it)"
                     for lang in catalogs if lang not in hinted]
    raise_problems(problems)
    return DeclaredRules(Declaration(
        id=header["id"], player_range=tuple(header["players"]), rounds=score["rounds"], rows=score["rows"],
        points=score["points"], low=score["low"], high=score["high"], lowest_wins=score["lowest_wins"],
        tie_break=score["tie_break"], tie_break_lowest=score["tie_break_lowest"], own_hint=bool(hinted),
        catalog_folder=Path(folder), catalog_name=path.stem))


def _own_sheet(rules: Any) -> Any:
    """The blank scoresheets of a kit whose template declares its scoring: its own from what it
    declares, any other game's from that game's rules."""
    def blank(game_id: str) -> Any:
        return rules.scoresheet(None) if game_id == rules.id else _blank_sheet(game_id)

    return blank


def _with_facts(table: dict, facts: Facts, source: str) -> dict:
    """The template with its game's facts filled in; every fact that cannot be is reported at once."""
    problems: list[str] = []
    resolve_template(table, facts, source, problems)
    raise_problems(named_by_id(problems, table))
    return table


def _check_faces(game: Game, source: str) -> Game:
    """Check what the catalogs add to every face, and return the game with each
    element's names complete.

    Every ``@key`` a piece prints must exist in every language, and the names
    its catalog texts use must be names a face offers. An element shown for a
    piece must not use an optional field the piece leaves out. The names a
    catalog text uses become names the element's look depends on.
    """
    problems = _missing_names(game, source)
    extra: dict[int, set[str]] = {}  # id(element) -> names its catalog texts use
    # id(element) -> its "@key" texts: the same for every piece drawn with it
    # (thousands of pieces may share one face design).
    catalog_texts: dict[int, list[str]] = {}
    # (id(front), id(back)) -> the elements of those faces that print catalog texts
    printing: dict[tuple[int, int], list[tuple[Element, list[str]]]] = {}
    # (id(element), key) -> the names its texts use, for a key that names nothing of a piece
    # ("@label.points"), found in every language without a problem: the same for every piece.
    alike: dict[tuple[int, str], set[str]] = {}
    components = []
    # Each component's pieces with a design of their own (most components have none).
    own_designs: list[list[Piece]] = []

    def printing_texts(front: tuple[Element, ...], back: tuple[Element, ...]) -> list[tuple[Element, list[str]]]:
        with_texts = printing.get((id(front), id(back)))
        if with_texts is None:
            with_texts = printing[id(front), id(back)] = []
            for element in (*front, *back):
                texts = catalog_texts.get(id(element))
                if texts is None:
                    texts = catalog_texts[id(element)] = [t[1:] for t in uses_of(element) if t.startswith("@")]
                if texts:
                    with_texts.append((element, texts))
        return with_texts

    for component in game.components:
        scope_names = _placeholder_scope(game, component)
        own = [p for p in component.pieces if p.front is not None or p.back is not None]
        own_designs.append(own)
        # The pieces drawn with the component's own faces print their catalog texts alike: when
        # those faces print none, only the pieces with designs of their own are gone through.
        shared = printing_texts(component.front, component.back or ())
        numbers = _copy_numbers(component) if shared or own else {}
        for piece in component.pieces if shared else own:
            with_texts = printing_texts(piece.front or component.front, piece.back or component.back or ())
            if not with_texts:
                continue   # a piece that prints no catalog text: nothing to check
            values = {"id": piece.id, **piece.fields, "rules_url": game.rules_url, "game_id": game.id,
                      **game.params}
            for element, texts in with_texts:
                when = element.when
                # A plain condition decided here (a call per element and card is the budget's):
                # one that compares numbers asks hidden_on_load, which knows its names may be missing.
                if when is not None and not (when.names & LATE_NAMES) and (
                        not when.holds(values) if when.expression is None else hidden_on_load(when, values)):
                    continue
                used = extra.setdefault(id(element), set())
                for text in texts:
                    names = alike.get((id(element), text))
                    if names is None:
                        before = len(problems)
                        names = _catalog_names(game, component, piece, element, key=text, values=values,
                                               copies=numbers[piece.id], known=scope_names, problems=problems)
                        # (A field named "set" is looked up among the colours, even for such a key.)
                        if len(problems) == before and not placeholder_names(text) and "set" not in values:
                            alike[id(element), text] = names
                    used |= names
        components.append(component)
    raise_problems(problems)
    return _with_names(game, zip(components, own_designs), extra)


def _missing_names(game: Game, source: str) -> list[str]:
    """Each component's name and cut texts, and each player colour's name, missing in a language."""
    problems = []
    for component in game.components:
        for lang, catalog in game.catalogs.items():
            for key in (f"component.{component.id}.name", f"component.{component.id}.cut"):
                if not catalog.has(key):
                    problems.append(f"{source}: components {component.id}: text {key!r} missing in {lang}")
            # A player colour's name: the cover, the deck's name in Tabletop Simulator, {set_name}.
            for name in component.sets:
                problem = (f"{source}: sets: the colour {name!r} has no name in {lang} (text 'color.{name}' "
                           "missing)")
                if not catalog.has(f"color.{name}") and problem not in problems:
                    problems.append(problem)
    return problems


def _with_names(game: Game, components: Iterable[tuple[Component, list[Piece]]],
                extra: Mapping[int, set[str]]) -> Game:
    """The game with each element's names completed by those its catalog texts use (``extra``,
    by element), its components given with the pieces that have designs of their own."""
    def completed(elements):
        if elements is None:
            return None
        return tuple(e._replace(names=tuple(sorted({*e.names, *extra.get(id(e), ())})))
                     for e in elements)

    rebuilt = []
    for component, own in components:
        front, back = completed(component.front), completed(component.back)
        if component.back is component.front:
            back = front
        pieces = component.pieces if not own else tuple(
            p if p.front is None and p.back is None else p._replace(front=completed(p.front), back=completed(p.back))
            for p in component.pieces)
        rebuilt.append(component._replace(front=front, back=back, pieces=pieces))
    return game._replace(components=tuple(rebuilt))


def _placeholder_scope(game: Game, component: Component) -> frozenset[str]:
    return Scope(component.fields, frozenset(game.params), game.palette,
                 bool(component.sets), fonts=frozenset(game.fonts)).placeholders()


def _copy_numbers(component: Component) -> dict[str, int]:
    """How many copies each piece id has (copies are numbered across entries that share it)."""
    numbers: dict[str, int] = {}
    for piece in component.pieces:
        numbers[piece.id] = numbers.get(piece.id, 0) + piece.count
    return numbers


def _catalog_names(game: Game, component: Component, piece: Piece, element: Element, *, key: str,
                   values: dict, copies: int, known: frozenset[str], problems: list[str]) -> set[str]:
    """Check every catalog text ``@key`` can be for this piece (each copy, set, language and
    copy of a repeated element the key names); return the names they use. A problem that
    every language meets alike (a key that cannot be filled) is named once."""
    key_names = placeholder_names(key)
    repeats = "repeat" in element.props
    choices: list[tuple[str, list]] = []
    if "set" in key_names or "set_symbol" in key_names or "set_name" in key_names:
        choices.append(("set", list(component.sets)))
    if "copy" in key_names or (repeats and key_names & _REPEATS and "copy" in _repeat_names(element)):
        choices.append(("copy", list(range(1, copies + 1))))
    variants = [dict(values)]
    for name, options in choices:
        variants = [{**v, name: option} for v in variants for option in options]
    if repeats and key_names & _REPEATS:
        variants = [v for variant in variants for v in _repeat_variants(element, component, variant)]
    if repeats:
        known = known | _REPEATS
    used: set[str] = set()
    for lang, catalog in game.catalogs.items():
        for variant in variants:
            if "set" in variant and variant.get("set") is not None:
                variant = {**variant, "set_symbol": game.colors[variant["set"]].symbol,
                           "set_name": catalog.raw(f"color.{variant['set']}") or ""}
            try:
                resolved = fill(key, {**variant, "lang": lang})
            except ExpressionError as exc:
                _once(problems, f"{element.where}: text '@{key}': {exc} (piece {piece.id})")
                continue
            raw = catalog.raw(resolved)
            if raw is None:
                problems.append(f"{element.where}: text {resolved!r} missing in {lang} (piece {piece.id})")
                continue
            try:
                names = placeholder_names(raw)
            except ExpressionError as exc:
                problems.append(f"{element.where}: text {resolved!r} ({lang}): {exc}")
                continue
            for name in sorted(names - known):
                problems.append(f"{element.where}: text {resolved!r} ({lang}) uses {{{name}}}, which "
                                f"a face of {component.id} does not offer (known: {', '.join(sorted(known))})")
            used |= names
    # i, col and row differ from copy to copy of the element's repeat: never a name its look is cached on.
    return used - _REPEATS


_REPEATS = frozenset(REPEAT_NAMES)


def _once(problems: list[str], problem: str) -> None:
    if problem not in problems:
        problems.append(problem)


def _repeat_names(element: Element) -> frozenset[str]:
    """The names an element's ``repeat`` uses."""
    repeat = element.props.get("repeat")
    names: set[str] = set()
    for value in repeat if isinstance(repeat, list) else [repeat]:
        if isinstance(value, str):
            try:
                names |= names_in(value)
            except ExpressionError:
                pass   # named where the element was checked
    return frozenset(names)


def _repeat_variants(element: Element, component: Component, values: dict) -> list[dict]:
    """``values`` once for each copy of the element's repeat, with its ``i``, ``col`` and ``row``
    (none when the repeat cannot be worked out here: it is named where the element is laid out)."""
    repeat = element.props.get("repeat")
    names = {**values, "w": component.size[0], "h": component.size[1], "copy": values.get("copy", 1)}
    try:
        counts = [evaluate(value, names) for value in (repeat if isinstance(repeat, list) else [repeat])]
    except (ExpressionError, TypeError):
        return []
    if not all(c.is_integer() and 0 <= c <= MAX_REPEAT for c in counts):
        return []
    cols, rows = int(counts[0]), int(counts[1]) if len(counts) > 1 else 1
    if cols * rows > MAX_REPEAT:
        return []
    return [{**values, "i": index, "col": index % cols, "row": index // cols} for index in range(cols * rows)]


def game_files() -> dict[str, Path]:
    """The games that have a kit, by id: their template files (from the registry of games)."""
    return games.kit_files()


def shipped_template(game_id: str) -> Path:
    """A registered game's template file, by id; UnknownNameError naming the games there are."""
    path = games.template_file(game_id)
    if path is None:
        raise UnknownNameError(
            f"unknown game {game_id!r}; expected one of: {', '.join(games.kit_files()) or '(none)'}"
        )
    return path


def load_shipped_game(game_id: str, overrides: Mapping[str, float] | None = None) -> Game:
    """A registered game's kit, by id."""
    return load_game(shipped_template(game_id), overrides=overrides)


def names_a_file(name: str) -> bool:
    """Whether a kit named on the command line is a definition file (a name ending in .toml, or
    a path) rather than a shipped game's id.

    >>> names_a_file("halali"), names_a_file("my-game.toml"), names_a_file("games/tide")
    (False, True, True)
    """
    return name.endswith(".toml") or "/" in name or os.sep in name


def load_kit(name: str, overrides: Mapping[str, float] | None = None) -> Game:
    """A shipped game's kit by id, or a definition file's by its path (:func:`names_a_file`)."""
    if names_a_file(name):
        return load_game(Path(name), overrides=overrides)
    return load_shipped_game(name, overrides)
