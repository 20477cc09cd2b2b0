"""Load ``templates/*.toml``, validate them, and build model objects.

Every problem names the file, the key and the expected form, e.g.
``hunting-fever.toml: components[0].pieces[2].count: expected a positive whole number, got 0``.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any, Mapping

from pnp import games, toml_reader
from pnp.elements import (BUILT_IN_COLORS, FIELD_TYPES, HEX, LATE_NAMES, SET_COLORS, SYMBOLS,
                          Scope, compile_elements, uses_of)
from pnp.facts import Facts, resolve_template, resolve_texts, uses_facts
from pnp.errors import KeyClash, TemplateError, UnknownNameError, composed, raise_problems
from pnp.files import ReadError, read_regular, shown_path
from pnp.i18n import LANGUAGES, Catalog, game_catalog
from pnp.language import ExpressionError, evaluate, fill, number_shown, placeholder_names
from pnp.limits import (MAX_NUMBER, MAX_OVERLAP_MM, MAX_PIECE_MM, MAX_PIECES, MAX_QR_BYTES, MAX_REPEAT,
                        MAX_TEMPLATE_BYTES, MAX_TEXT_CHARS, MIN_PIECE_MM, size_shown)
from pnp.model import PIECE_KINDS, Component, Element, Game, Piece, PlayerColor
from pnp.resources import templates_dir
from pnp.units import piece_size

# ---------------------------------------------------------------- schemas

LEN, STR, BOOL = "len", "str", "bool"
LENS = "lens"

#: What a palette always holds: the cover page, footers and scoresheets draw
#: with these names, so a game that does not set them gets these.
PALETTE_DEFAULTS = {"ink": "#000000", "paper": "#ffffff", "light": "#eeeeee"}

_GAME_KEYS = {"game", "palette", "params", "components"}
_GAME_HEADER = {"id": STR, "players": LENS, "rules_url": STR, "designers": "strs"}
_COMPONENT_KEYS = {
    "id": STR, "size": "size", "sets": "strs", "rotate": BOOL, "back_kind": STR,
    "corner_radius": LEN, "overlap": LEN, "fields": "table", "front": "elements",
    "back": "elements", "same_back": BOOL, "gutter": BOOL, "pieces": "pieces", "kind": STR,
    "cut": BOOL, "seams": "table", "with_cover": BOOL, "shrink": BOOL, "hidden": BOOL,
}
_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")
_FIELD = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def with_defaults(palette: Mapping[str, str]) -> dict[str, str]:
    """The palette with every name the engine draws with: black ink on white
    paper, a light grey, the ink as accent, and the ink for good and bad points.

    >>> with_defaults({"ink": "#2b2118"})["accent"]
    '#2b2118'
    """
    ink = palette.get("ink", PALETTE_DEFAULTS["ink"])
    return {**PALETTE_DEFAULTS, "accent": ink, "good": ink, "bad": ink, **palette}


def _type_name(value: Any) -> str:
    return {bool: "true/false", int: "a whole number", float: "a number", str: "text",
            list: "a list", dict: "a table"}.get(type(value), type(value).__name__)


class _Checker:
    """Collects problems with one template file, then reports them all at once."""

    def __init__(self, source: str):
        self.source = source
        self.problems: list[str] = []

    def fail(self, where: str, expected: str, got: Any = None, *, show: bool = True) -> None:
        tail = f", got {got!r}" if show and not isinstance(got, (dict, list)) else (
            f", got {_type_name(got)}" if show else "")
        self.problems.append(f"{self.source}: {where}: expected {expected}{tail}")

    def unknown_keys(self, table: Mapping, allowed, where: str) -> None:
        for key in table:
            if key not in allowed:
                self.problems.append(
                    f"{self.source}: {where}: unknown key {key!r} (expected one of: "
                    f"{', '.join(sorted(allowed))})"
                )

    def raise_if_any(self) -> None:
        raise_problems(self.problems)


def load_colors(path: Path) -> dict[str, PlayerColor]:
    """The shared player colours (``templates/colors.toml``)."""
    check = _Checker(path.name)
    table = _read_toml(path)
    colors = {}
    for name, entry in table.get("colors", {}).items():
        at = f"colors.{name}"
        if not isinstance(entry, dict):
            check.fail(at, "a table with rgb, ink and symbol", entry)
            continue
        check.unknown_keys(entry, {"rgb", "ink", "symbol"}, at)
        for key in ("rgb", "ink"):
            if not (isinstance(entry.get(key), str) and HEX.match(entry[key])):
                check.fail(f"{at}.{key}", "a colour #RRGGBB", entry.get(key))
        if entry.get("symbol") not in SYMBOLS:
            check.fail(f"{at}.symbol", "one of " + ", ".join(SYMBOLS), entry.get("symbol"))
        if not check.problems:
            colors[name] = PlayerColor(name, entry["rgb"], entry["ink"], entry["symbol"])
    check.raise_if_any()
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


def _check_values(table: dict, check: "_Checker") -> None:
    """Every number a template writes is finite and at most MAX_NUMBER (counts and
    repeats lower), every text at most MAX_TEXT_CHARS long: checked for the whole
    file, naming each key, after the checks of each key's own form, so that a key
    another check already named is not named twice. Lengths are bounded again,
    with their own limits, once a face computes them (pnp.layout.faces)."""
    named = "\n".join(check.problems)
    stack: list[tuple[str, Any]] = [("", table)]
    while stack:  # iterative: TOML may nest deeper than Python recurses
        path, value = stack.pop()
        if isinstance(value, dict):
            stack.extend((f"{path}.{k}" if path else str(k), v) for k, v in reversed(value.items()))
        elif isinstance(value, list):
            if _numbers_within(value, _KEY_LIMITS.get(_INDEX.sub("", path.rsplit(".", 1)[-1]), MAX_NUMBER)):
                continue  # a polygon's 10,000 corners, all fine: no path named for each
            stack.extend((f"{path}[{i}]", v) for i, v in reversed(list(enumerate(value))))
        elif isinstance(value, bool):
            continue
        elif f": {path}:" in named:
            continue
        elif isinstance(value, (int, float)):
            limit = _KEY_LIMITS.get(_INDEX.sub("", path.rsplit(".", 1)[-1]), MAX_NUMBER)
            if not math.isfinite(value):
                check.problems.append(f"{check.source}: {path}: {value} is not a finite number")
            elif abs(value) > limit:
                check.problems.append(f"{check.source}: {path}: {number_shown(value)} is past the limit "
                                      f"of {limit:.0f} (either way)")
        elif isinstance(value, str) and len(value) > MAX_TEXT_CHARS:
            check.problems.append(f"{check.source}: {path}: a text of {len(value)} characters; the "
                                  f"limit is {MAX_TEXT_CHARS}")


_INDEX = re.compile(r"(\[\d+\])+$")


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


def load_game(path: Path, catalog_dir: Path | None = None,
              overrides: Mapping[str, float] | None = None) -> Game:
    """Read, validate and build one game from its TOML file and its catalogs.

    The catalogs are ``<stem>.en.toml`` and ``<stem>.fr.toml`` beside the file
    (or in ``catalog_dir``), merged over the shared ``common.<lang>.toml``.
    """
    path = Path(path)
    table, text = _read_source(path)
    facts = _facts_of(table)
    if facts is not None and uses_facts(text):
        table = _with_facts(table, facts, path.name)
    check = _Checker(path.name)
    base = templates_dir()
    colors = load_colors(base / "colors.toml")

    check.unknown_keys(table, _GAME_KEYS, "top level")
    header = table.get("game")
    if not isinstance(header, dict):
        check.fail("[game]", "a table with id, players, rules_url and designers", header)
        check.raise_if_any()
    check.unknown_keys(header, _GAME_HEADER, "game")
    game_id = header.get("id")
    if not (isinstance(game_id, str) and _NAME.match(game_id)):
        check.fail("game.id", "a lower-case id like 'hunting-fever'", game_id)
    players = header.get("players", [1, 1])
    if not (isinstance(players, list) and len(players) == 2
            and all(isinstance(p, int) and not isinstance(p, bool) and p > 0 for p in players)
            and players[0] <= players[1]):
        check.fail("game.players", "[min, max] player counts", players)
        players = [1, 1]
    rules_url = header.get("rules_url", "")
    if not isinstance(rules_url, str):
        check.fail("game.rules_url", "text", rules_url)
    elif len(rules_url.encode("utf-8", "surrogatepass")) > MAX_QR_BYTES or not rules_url.isprintable():
        # The cover page's QR code holds it.
        check.problems.append(f"{check.source}: game.rules_url: {len(rules_url.encode('utf-8', 'surrogatepass'))} "
                              f"bytes; a web address of printable characters up to the limit of "
                              f"{MAX_QR_BYTES} bytes (what a QR code holds and a phone still reads)")
    designers = header.get("designers", [])
    if not (isinstance(designers, list) and all(isinstance(d, str) for d in designers)):
        check.fail("game.designers", "a list of names", designers)
        designers = []

    palette = table.get("palette", {})
    if not isinstance(palette, dict):
        check.fail("[palette]", "a table of name = \"#RRGGBB\"", palette)
        palette = {}
    for name, value in palette.items():
        if not (isinstance(value, str) and HEX.match(value)):
            check.fail(f"palette.{name}", "a colour #RRGGBB", value)
    palette = with_defaults(palette)

    params = table.get("params", {})
    if not isinstance(params, dict):
        check.fail("[params]", "a table of name = number", params)
        params = {}
    for name, value in params.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            check.fail(f"params.{name}", "a number", value)
        elif not (math.isfinite(value) and abs(value) <= MAX_NUMBER):
            # Named first: a size or length computed from it would fail too.
            check.problems.append(f"{check.source}: params.{name}: {number_shown(value)} is not a finite "
                                  f"number up to the limit of {MAX_NUMBER:.0f}")
    for name, value in (overrides or {}).items():
        if name not in params:
            raise UnknownNameError(
                f"{path.name} has no setting {name!r}; it has: {', '.join(params) or '(none)'}")
        if not (math.isfinite(value) and 0 < value <= MAX_NUMBER):
            raise TemplateError(f"the setting {name!r} must be a positive number up to the limit of "
                                f"{MAX_NUMBER:.0f}, got {value:g}")
        params = {**params, name: value}

    raw_components = table.get("components")
    if not isinstance(raw_components, list) or not raw_components:
        check.fail("components", "at least one [[components]] table", raw_components, show=False)
        raw_components = []
    components = []
    seen_ids: set[str] = set()
    for index, raw in enumerate(raw_components):
        component = _component(raw, f"components[{index}]", check, palette, colors, params)
        if component is not None:
            if component.id in seen_ids:
                check.fail(f"components[{index}].id", "an id used once", component.id)
            seen_ids.add(component.id)
            components.append(component)
    openers = [index for index, c in enumerate(raw_components)
               if isinstance(c, dict) and c.get("with_cover") is True]
    for index in openers[1:]:
        check.fail(f"components[{index}].with_cover", "one component that opens the kit; "
                   f"components[{openers[0]}] already does", True)
    pieces = sum(c.piece_count() for c in components)
    if pieces > MAX_PIECES:
        check.problems.append(f"{check.source}: components: {pieces} pieces in the kit (every count, every "
                              f"set); the limit is {MAX_PIECES}")
    _check_values(table, check)
    check.raise_if_any()

    catalogs = load_game_catalogs(path.stem, catalog_dir or path.parent, facts)
    shipped_icons = templates_dir() / "icons"
    own_icons = path.parent.resolve() / "icons"
    icon_dirs = tuple(str(d) for d in dict.fromkeys([own_icons, shipped_icons]) if d.is_dir())
    game = Game(
        id=game_id, players=(players[0], players[1]), rules_url=rules_url,
        designers=tuple(designers), palette=dict(palette), colors=colors,
        params={k: float(v) for k, v in params.items()}, components=tuple(components),
        catalogs=catalogs, source=str(path), icon_dirs=icon_dirs or (str(shipped_icons),),
        blank_sheet=games.blank_sheet,
    )
    return _check_faces(game, path.name)


def _component(raw: Any, at: str, check: _Checker, palette: Mapping,
               colors: Mapping[str, PlayerColor], params: Mapping) -> Component | None:
    if not isinstance(raw, dict):
        check.fail(at, "a [[components]] table", raw)
        return None
    check.unknown_keys(raw, _COMPONENT_KEYS, at)
    cid = raw.get("id")
    if not (isinstance(cid, str) and _NAME.match(cid)):
        check.fail(f"{at}.id", "a lower-case id like 'player-cards'", cid)
        cid = f"component-{at}"
    size_spec = raw.get("size")
    try:
        if isinstance(size_spec, str) and size_spec.startswith("{"):
            raise UnknownNameError("param sizes are written [\"expr\", \"expr\"]")
        if isinstance(size_spec, list) and all(isinstance(v, str) for v in size_spec):
            size = (evaluate(size_spec[0], params), evaluate(size_spec[1], params))
        else:
            size = piece_size(size_spec)
        if not all(math.isfinite(side) and MIN_PIECE_MM <= side <= MAX_PIECE_MM for side in size):
            raise UnknownNameError(f"{size[0]:g} x {size[1]:g} mm; each side must be within the limits, "
                                   f"{MIN_PIECE_MM:g} to {MAX_PIECE_MM:g} mm")
    except (UnknownNameError, ValueError) as exc:
        check.fail(f"{at}.size", f"a card size name, 'WxH' or [w, h] ({exc})", size_spec)
        size = (1.0, 1.0)
    sets = raw.get("sets", [])
    if not (isinstance(sets, list) and all(isinstance(s, str) for s in sets)):
        check.fail(f"{at}.sets", "a list of player colours", sets)
        sets = []
    for name in sets:
        if name not in colors:
            check.fail(f"{at}.sets", "colours from colors.toml: " + ", ".join(colors), name)
    for name in sorted({name for name in sets if sets.count(name) > 1}):
        # A set is one player's pieces, told apart by its colour: two alike could not be.
        check.fail(f"{at}.sets", "each colour once (a set is one player's pieces; raise the pieces' "
                   "counts for more of them)", name)
    back_kind = raw.get("back_kind", "optional")
    if back_kind not in ("optional", "required"):
        check.fail(f"{at}.back_kind", "'optional' or 'required'", back_kind)
    made_as = raw.get("kind", "card")
    if made_as not in PIECE_KINDS:
        check.fail(f"{at}.kind", " or ".join(repr(k) for k in PIECE_KINDS), made_as)
        made_as = "card"
    for key in ("rotate", "gutter", "cut", "with_cover", "shrink", "hidden"):
        if key in raw and not isinstance(raw[key], bool):
            check.fail(f"{at}.{key}", "true or false", raw[key])
    for key in ("corner_radius", "overlap"):
        if key in raw and not (isinstance(raw[key], (int, float)) and not isinstance(raw[key], bool)
                               and raw[key] >= 0):
            check.fail(f"{at}.{key}", "a length in mm >= 0", raw[key])
    overlap = raw.get("overlap", 12)
    if isinstance(overlap, (int, float)) and not isinstance(overlap, bool) and not 10 <= overlap <= MAX_OVERLAP_MM:
        # At least 10 mm to glue the parts of a board; above the limit, parts would barely advance.
        check.fail(f"{at}.overlap", f"from 10 mm (to join board parts) to the limit of {MAX_OVERLAP_MM:g} mm",
                   overlap)

    seam_lines = _seam_lines(raw.get("seams"), f"{at}.seams", check, params, size)

    field_types = raw.get("fields", {})
    if not isinstance(field_types, dict) or not all(
            isinstance(v, str) and v.rstrip("?") in FIELD_TYPES for v in field_types.values()):
        check.fail(f"{at}.fields", "a table of name = \"str\" | \"int\" | \"num\" | \"bool\" | "
                   "\"color\" (add ? for an optional field: \"int?\")", field_types)
        field_types = {}
    for name in field_types:
        if not _FIELD.match(name) or name in ("id", "count", "front", "back"):
            check.fail(f"{at}.fields", "field names made of letters, digits and _, other than "
                       "id, count, front and back", name)
    scope = Scope({n: t.rstrip("?") for n, t in field_types.items()}, frozenset(params), palette,
                  bool(sets))

    raw_pieces = raw.get("pieces")
    if not isinstance(raw_pieces, list) or not raw_pieces:
        check.fail(f"{at}.pieces", "at least one [[components.pieces]] table", raw_pieces, show=False)
        raw_pieces = []
    piece_keys = {"id", "count", "front", "back", *field_types}
    entries = []  # (index, entry, id, count, fields) of every well-formed piece table
    for index, entry in enumerate(raw_pieces):
        pat = f"{at}.pieces[{index}]"
        if not isinstance(entry, dict):
            check.fail(pat, "a table with id and count", entry)
            continue
        check.unknown_keys(entry, piece_keys, pat)
        pid = entry.get("id")
        if not (isinstance(pid, str) and _NAME.match(pid)):
            check.fail(f"{pat}.id", "a lower-case id like 'wolf'", pid)
        count = entry.get("count")
        if isinstance(count, bool) or not isinstance(count, int) or count <= 0:
            check.fail(f"{pat}.count", "a positive whole number", count)
        fields = {}
        for name, declared in field_types.items():
            kind = declared.rstrip("?")
            if name not in entry:
                if not declared.endswith("?"):
                    check.problems.append(f"{check.source}: {pat}: missing field {name!r} ({kind})")
                continue
            value = entry[name]
            expected = FIELD_TYPES[kind]
            if (isinstance(value, bool) and kind != "bool") or not isinstance(value, expected):
                check.fail(f"{pat}.{name}", f"a value of type {kind}", value)
            elif kind == "color" and not _is_color_value(value, palette, bool(sets)):
                check.fail(f"{pat}.{name}", "a colour: #RRGGBB, a palette name ("
                           + ", ".join(sorted(palette)) + ")", value)
            fields[name] = value
        entries.append((index, entry, pid, count, fields))

    everyone = [{"id": pid, **fields} for _, _, pid, _, fields in entries]
    front = compile_elements(raw.get("front", []), f"{at}.front", check.source, scope,
                             check.problems, everyone, tuple(sets))
    back = (compile_elements(raw["back"], f"{at}.back", check.source, scope, check.problems,
                             everyone, tuple(sets)) if "back" in raw else None)
    if raw.get("same_back") is True:
        # Both sides alike (the "Hunt Starts Here" card): the back repeats the front.
        if back is not None:
            check.fail(f"{at}.same_back", "either same_back = true or a back design, not both", True)
        back = front
    elif "same_back" in raw and not isinstance(raw["same_back"], bool):
        check.fail(f"{at}.same_back", "true or false", raw["same_back"])

    pieces = []
    for index, entry, pid, count, fields in entries:
        pat = f"{at}.pieces[{index}]"
        alone = [{"id": pid, **fields}]
        pfront = (compile_elements(entry["front"], f"{pat}.front", check.source, scope,
                                   check.problems, alone, tuple(sets)) if "front" in entry else None)
        pback = (compile_elements(entry["back"], f"{pat}.back", check.source, scope,
                                  check.problems, alone, tuple(sets)) if "back" in entry else None)
        if isinstance(pid, str) and isinstance(count, int):
            pieces.append(Piece(pid, count, fields, pfront, pback, index))
    if not front and not all(p.front for p in pieces):
        check.fail(f"{at}.front", "a front design for the component or for every piece", None, show=False)
    with_cover = raw.get("with_cover") is True
    if with_cover:
        # It is printed behind the cover and read before anything is cut: one
        # page, nothing on its back, no cut.
        one_page = not sets and sum(p.count for p in pieces) == 1
        if not one_page or raw.get("cut", True) is not False or back is not None or \
                any(p.back is not None for p in pieces):
            check.fail(f"{at}.with_cover", "true only on one page with cut = false, one piece "
                       "counted once, no sets and no back", True)
    shrink = raw.get("shrink") is True
    if shrink and (back is not None or any(p.back is not None for p in pieces)):
        # Its back would have to shrink alike behind it: one-sided pages only.
        check.fail(f"{at}.shrink", "true only on a component without backs", True)
    hidden = raw.get("hidden") is True
    if hidden:
        _check_hidden(raw, at, check, back, pieces, field_types, made_as)
    return Component(
        id=cid, size=size, pieces=tuple(pieces), front=front, back=back, sets=tuple(sets),
        rotate=raw.get("rotate", True), back_kind=back_kind, gutter=raw.get("gutter", False),
        corner_radius=float(raw.get("corner_radius", 0.0)), overlap=float(raw.get("overlap", 12.0)),
        kind=made_as, cut=raw.get("cut", True), with_cover=with_cover, shrink=shrink,
        fields={n: t.rstrip("?") for n, t in field_types.items()},
        seam_lines=seam_lines, hidden=hidden,
    )


#: What a hidden piece's back may not depend on: anything that differs from piece to piece.
_PIECE_NAMES = frozenset({"id", "copy"})


def _check_hidden(raw: dict, at: str, check, back, pieces: list, field_types: dict, made_as: str) -> None:
    """A hidden component (kept in hand or face down) has one back for all its
    pieces (in each set): a back of its own on a piece, or a back element that
    names a piece's field, id or copy number, would tell the pieces apart."""
    if back is None or raw.get("same_back") is True:
        check.fail(f"{at}.hidden", "true only on a component with a back design of its own "
                   "(same_back = true shows the front, which is what a hidden piece hides)", True)
        return
    if made_as in ("sheet", "board") or raw.get("with_cover") is True or raw.get("shrink") is True \
            or raw.get("cut", True) is False:
        check.fail(f"{at}.hidden", "true only on cut pieces (cards, tiles, tokens), not on sheets, "
                   "boards, a page that opens the kit or one that shrinks", True)
    for piece in pieces:
        if piece.back is not None:
            check.fail(f"{at}.pieces[{piece.index}].back", "no back of its own in a hidden component: "
                       "every piece shares the component's back", "[...]", show=False)
    varying = _PIECE_NAMES | set(field_types)
    for element in back:
        used = sorted(set(element.names) & varying)
        if used:
            check.fail(element.where.rsplit(": ", 1)[-1], "a back that is the same for every piece of a hidden "
                       f"component; it uses {', '.join(used)}", element.type)


def _seam_lines(raw: Any, at: str, check: _Checker, params: Mapping,
                size: tuple[float, float]) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """``seams = { x = [...], y = [...] }``: the lines a board may be split along,
    mm from its left and from its top edge (numbers or expressions of the params)."""
    if raw is None:
        return (), ()
    if not isinstance(raw, dict):
        check.fail(at, "a table { x = [...], y = [...] } of lengths in mm", raw)
        return (), ()
    check.unknown_keys(raw, {"x", "y"}, at)
    lines: list[tuple[float, ...]] = []
    for axis, length in (("x", size[0]), ("y", size[1])):
        values = raw.get(axis, [])
        if not isinstance(values, list):
            check.fail(f"{at}.{axis}", "a list of lengths in mm", values)
            lines.append(())
            continue
        found = []
        for index, value in enumerate(values):
            where = f"{at}.{axis}[{index}]"
            try:
                if isinstance(value, bool):
                    raise ValueError("not a length")
                number = evaluate(value, params) if isinstance(value, str) else float(value)
            except (ExpressionError, UnknownNameError, ValueError, TypeError) as exc:
                check.fail(where, f"a length in mm or an expression of the params ({exc})", value)
                continue
            if not 0 < number < length:
                check.fail(where, f"a line inside the piece, between 0 and {length:g} mm", value)
                continue
            found.append(float(number))
        lines.append(tuple(sorted(found)))
    return lines[0], lines[1]


def _is_color_value(value: str, palette: Mapping, has_sets: bool) -> bool:
    return bool(HEX.match(value)) or value in palette or value in BUILT_IN_COLORS or (
        has_sets and value in SET_COLORS)


def load_game_catalogs(stem: str, folder: Path, facts: Facts | None = None) -> dict[str, Catalog]:
    """The catalogs of a game in every language, each merged over the common one, with the
    game's facts written into their texts (``{facts.points.bear}``)."""
    catalogs = {lang: game_catalog(stem, lang, Path(folder)) for lang in LANGUAGES}
    problems: list[str] = []
    for lang, catalog in catalogs.items():
        if any(uses_facts(text) for text in catalog.texts.values()):
            texts = resolve_texts(catalog.texts, facts or Facts(stem, lambda: None), f"{stem}.{lang}.toml", problems)
            catalogs[lang] = catalog._replace(texts=texts)
    raise_problems(problems)
    return catalogs


def _facts_of(table: dict) -> Facts | None:
    """The facts of the game a template names (its ``[game] id``), when it names a game."""
    header = table.get("game")
    game_id = header.get("id") if isinstance(header, dict) else None
    if not isinstance(game_id, str):
        return None
    # Looked up when a fact is first named: a kit that names none loads no rules.
    return Facts(game_id, lambda: games.facts(game_id))


def _with_facts(table: dict, facts: Facts, source: str) -> dict:
    """The template with its game's facts filled in; every fact that cannot be is reported at once."""
    problems: list[str] = []
    resolve_template(table, facts, source, problems)
    raise_problems(problems)
    return table


def _check_faces(game: Game, source: str) -> Game:
    """Check what the catalogs add to every face, and return the game with each
    element's names complete.

    Every ``@key`` a piece prints must exist in every language, and the names
    its catalog texts use must be names a face offers. An element shown for a
    piece must not use an optional field the piece leaves out. The names a
    catalog text uses become names the element's look depends on.
    """
    problems = []
    for component in game.components:
        for lang, catalog in game.catalogs.items():
            for key in (f"component.{component.id}.name", f"component.{component.id}.cut"):
                if not catalog.has(key):
                    problems.append(f"{source}: components {component.id}: text {key!r} missing in {lang}")
    extra: dict[int, set[str]] = {}  # id(element) -> names its catalog texts use
    # id(element) -> its "@key" texts: the same for every piece drawn with it
    # (thousands of pieces may share one face design).
    catalog_texts: dict[int, list[str]] = {}
    components = []
    for component in game.components:
        scope_names = _placeholder_scope(game, component)
        numbers = _copy_numbers(component)
        for piece in component.pieces:
            values = {"id": piece.id, **piece.fields, "rules_url": game.rules_url, "game_id": game.id,
                      **game.params}
            faces = (piece.front or component.front, piece.back or component.back or ())
            for element in (e for face in faces for e in face):
                texts = catalog_texts.get(id(element))
                if texts is None:
                    texts = catalog_texts[id(element)] = [t[1:] for t in uses_of(element)
                                                          if t.startswith("@")]
                if not texts:
                    continue
                when = element.when
                if when is not None and not (when.names & LATE_NAMES) and not when.holds(values):
                    continue
                used = extra.setdefault(id(element), set())
                for text in texts:
                    used |= _catalog_names(game, component, piece, element, text, values,
                                           numbers[piece.id], scope_names, problems)
        components.append(component)
    raise_problems(problems)

    def completed(elements):
        if elements is None:
            return None
        return tuple(e._replace(names=tuple(sorted({*e.names, *extra.get(id(e), ())})))
                     for e in elements)

    rebuilt = []
    for component in components:
        front, back = completed(component.front), completed(component.back)
        if component.back is component.front:
            back = front
        pieces = tuple(p if p.front is None and p.back is None
                       else p._replace(front=completed(p.front), back=completed(p.back))
                       for p in component.pieces)
        rebuilt.append(component._replace(front=front, back=back, pieces=pieces))
    return game._replace(components=tuple(rebuilt))


def _placeholder_scope(game: Game, component: Component) -> frozenset[str]:
    return Scope(component.fields, frozenset(game.params), game.palette,
                 bool(component.sets)).placeholders()


def _copy_numbers(component: Component) -> dict[str, int]:
    """How many copies each piece id has (copies are numbered across entries that share it)."""
    numbers: dict[str, int] = {}
    for piece in component.pieces:
        numbers[piece.id] = numbers.get(piece.id, 0) + piece.count
    return numbers


def _catalog_names(game: Game, component: Component, piece: Piece, element: Element, key: str,
                   values: dict, copies: int, known: frozenset[str], problems: list[str]) -> set[str]:
    """Check every catalog text ``@key`` can be for this piece; return the names they use."""
    key_names = placeholder_names(key)
    choices: list[tuple[str, list]] = []
    if "set" in key_names or "set_symbol" in key_names or "set_name" in key_names:
        choices.append(("set", list(component.sets)))
    if "copy" in key_names:
        choices.append(("copy", list(range(1, copies + 1))))
    variants = [dict(values)]
    for name, options in choices:
        variants = [{**v, name: option} for v in variants for option in options]
    used: set[str] = set()
    for lang, catalog in game.catalogs.items():
        for variant in variants:
            if "set" in variant and variant.get("set") is not None:
                variant = {**variant, "set_symbol": game.colors[variant["set"]].symbol,
                           "set_name": catalog.raw(f"color.{variant['set']}") or ""}
            try:
                resolved = fill(key, {**variant, "lang": lang})
            except ExpressionError as exc:
                problems.append(f"{element.where}: text '@{key}': {exc} (piece {piece.id})")
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
    return used


def game_files() -> dict[str, Path]:
    """The games that have a kit, by id: their template files (from the registry of games)."""
    return games.kit_files()


def load_shipped_game(game_id: str, overrides: Mapping[str, float] | None = None) -> Game:
    """A registered game's kit, by id."""
    path = games.template_file(game_id)
    if path is None:
        raise UnknownNameError(
            f"unknown game {game_id!r}; expected one of: {', '.join(games.kit_files()) or '(none)'}"
        )
    return load_game(path, overrides=overrides)
