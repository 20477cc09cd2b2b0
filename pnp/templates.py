"""Load ``templates/*.toml``, validate them, and build model objects.

Every problem names the file, the key and the expected form, e.g.
``hunting-fever.toml: components[0].pieces[2].count: expected a positive whole number, got 0``.
"""

from __future__ import annotations

import re
import string
import tomllib
from pathlib import Path
from typing import Any, Mapping

from pnp.errors import TemplateError, UnknownNameError
from pnp.i18n import LANGUAGES, Catalog, game_catalog, shipped_folder
from pnp.layout.expr import ExpressionError, compile_expression
from pnp.model import PIECE_KINDS, Component, Element, Game, Piece, PlayerColor
from pnp.units import piece_size

PACKAGE_DIR = Path(__file__).resolve().parent


def _data_dir(name: str) -> Path:
    folder = shipped_folder(name)
    if folder is None:
        raise TemplateError(f"cannot find the {name}/ folder next to {PACKAGE_DIR}")
    return folder


def templates_dir() -> Path:
    return _data_dir("templates")


def fonts_dir() -> Path:
    return _data_dir("fonts")


# ---------------------------------------------------------------- schemas

LEN, COLOR, TEXT, STR, INT, NUM, BOOL = "len", "color", "text", "str", "int", "num", "bool"
ROWS, LENS, POINTS = "rows", "lens", "points"

_COMMON = {"type": STR, "when": STR, "repeat": "repeat", "step": LENS}
_STROKE = {"stroke": COLOR, "stroke_width": LEN, "dash": LENS}

ELEMENT_SCHEMAS: dict[str, dict[str, str]] = {
    "background": {"fill": COLOR},
    "rect": {"x": LEN, "y": LEN, "w": LEN, "h": LEN, "fill": COLOR, "radius": LEN, **_STROKE},
    "ellipse": {"cx": LEN, "cy": LEN, "rx": LEN, "ry": LEN, "fill": COLOR, **_STROKE},
    "line": {"x1": LEN, "y1": LEN, "x2": LEN, "y2": LEN, **_STROKE},
    "polygon": {"points": POINTS, "fill": COLOR, "closed": BOOL, **_STROKE},
    "text": {
        "x": LEN, "y": LEN, "w": LEN, "h": LEN, "text": TEXT, "font": STR, "size": LEN,
        "min_size": NUM, "align": STR, "valign": STR, "color": COLOR, "wrap": BOOL,
        "rotate": INT, "leading": NUM,
    },
    "icon": {"name": STR, "x": LEN, "y": LEN, "w": LEN, "h": LEN, "color": COLOR, "rotate": INT,
             "mirror": BOOL},
    "symbol": {"shape": STR, "cx": LEN, "cy": LEN, "size": LEN, "fill": COLOR, **_STROKE},
    "table": {
        "x": LEN, "y": LEN, "w": LEN, "rows": ROWS, "cols": LENS, "row_h": LEN, "size": NUM,
        "font": STR, "header": BOOL, "color": COLOR, "line": COLOR, "header_fill": COLOR,
        "header_color": COLOR, "zebra": COLOR, "align": STR,
    },
    "qr": {"x": LEN, "y": LEN, "size": LEN, "data": TEXT, "color": COLOR},
    "scoresheet": {"x": LEN, "y": LEN, "w": LEN, "h": LEN, "layout": STR, "qr": TEXT},
}
REQUIRED: dict[str, tuple[str, ...]] = {
    "background": ("fill",),
    "rect": ("x", "y", "w", "h"),
    "ellipse": ("cx", "cy", "rx"),
    "line": ("x1", "y1", "x2", "y2"),
    "polygon": ("points",),
    "text": ("x", "y", "w", "h", "text", "size"),
    "icon": ("name", "x", "y", "w", "h"),
    "symbol": ("cx", "cy", "size"),
    "table": ("x", "y", "w", "rows", "cols", "row_h", "size"),
    "qr": ("x", "y", "size", "data"),
    "scoresheet": ("x", "y", "w", "h", "layout"),
}
FONTS = ("regular", "bold", "black", "italic")
SYMBOLS = ("circle", "square", "triangle", "diamond", "star", "hexagon", "cross", "heart")
FIELD_TYPES = {"str": str, "int": int, "num": (int, float), "bool": bool}

_GAME_KEYS = {"game", "palette", "params", "components"}
_GAME_HEADER = {"id": STR, "players": LENS, "rules_url": STR, "designers": "strs"}
_COMPONENT_KEYS = {
    "id": STR, "size": "size", "sets": "strs", "rotate": BOOL, "back_kind": STR,
    "corner_radius": LEN, "overlap": LEN, "fields": "table", "front": "elements",
    "back": "elements", "same_back": BOOL, "gutter": BOOL, "pieces": "pieces", "kind": STR,
}
_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")


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
        if self.problems:
            extra = f" (and {len(self.problems) - 1} more problem(s))" if len(self.problems) > 1 else ""
            raise TemplateError(self.problems[0] + extra, self.problems)


def _is_len(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    if isinstance(value, str):
        try:
            compile_expression(value)
            return True
        except ExpressionError:
            return False
    return False


_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def _check_value(kind: str, value: Any, where: str, check: _Checker, palette: Mapping) -> None:
    if kind == LEN:
        if not _is_len(value):
            check.fail(where, "a length in mm or an expression like \"w/2 - 3\"", value)
    elif kind == COLOR:
        ok = isinstance(value, str) and (
            _HEX.match(value) or value in palette or value in ("none", "set", "set_ink", "white", "black")
        )
        if not ok:
            check.fail(where, "a colour: #RRGGBB, a palette name, 'set', 'set_ink' or 'none'", value)
    elif kind in (TEXT, STR):
        if not isinstance(value, str):
            check.fail(where, "text", value)
    elif kind == INT:
        if isinstance(value, bool) or not isinstance(value, int):
            check.fail(where, "a whole number", value)
    elif kind == NUM:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            check.fail(where, "a positive number", value)
    elif kind == BOOL:
        if not isinstance(value, bool):
            check.fail(where, "true or false", value)
    elif kind == "repeat":
        if not (_is_len(value) or (isinstance(value, list) and len(value) == 2
                                   and all(_is_len(v) for v in value))):
            check.fail(where, "a count, or [columns, rows] for a grid", value)
    elif kind == LENS:
        if not isinstance(value, list) or not all(_is_len(v) for v in value):
            check.fail(where, "a list of lengths", value)
    elif kind == POINTS:
        if not isinstance(value, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(_is_len(v) for v in p) for p in value
        ):
            check.fail(where, "a list of [x, y] points", value)
    elif kind == ROWS:
        if not isinstance(value, list) or not all(
            isinstance(r, list) and all(isinstance(c, str) for c in r) for r in value
        ):
            check.fail(where, "a list of rows, each a list of texts", value)


def _elements(raw: Any, where: str, check: _Checker, palette: Mapping) -> tuple[Element, ...]:
    if not isinstance(raw, list) or not all(isinstance(e, dict) for e in raw):
        check.fail(where, "a list of element tables ([[...]])", raw)
        return ()
    elements = []
    for index, table in enumerate(raw):
        at = f"{where}[{index}]"
        kind = table.get("type")
        if kind not in ELEMENT_SCHEMAS:
            check.fail(f"{at}.type", "one of " + ", ".join(ELEMENT_SCHEMAS), kind)
            continue
        schema = {**_COMMON, **ELEMENT_SCHEMAS[kind]}
        check.unknown_keys(table, schema, at)
        for key in REQUIRED[kind]:
            if key not in table:
                check.problems.append(f"{check.source}: {at}: a {kind} needs {key!r}")
        for key, value in table.items():
            if key in schema and key != "type":
                # Values written as "{field}" are filled from the piece later.
                if isinstance(value, str) and "{" in value and schema[key] not in (TEXT, STR):
                    continue
                _check_value(schema[key], value, f"{at}.{key}", check, palette)
        if kind in ("text", "table") and "font" in table and table["font"] not in FONTS:
            check.fail(f"{at}.font", "one of " + ", ".join(FONTS), table["font"])
        if kind == "text":
            for key, allowed in (("align", ("left", "center", "right")),
                                 ("valign", ("top", "middle", "bottom"))):
                if key in table and table[key] not in allowed:
                    check.fail(f"{at}.{key}", " or ".join(allowed), table[key])
        if "rotate" in table and table["rotate"] not in (0, 90, 180, 270):
            check.fail(f"{at}.rotate", "0, 90, 180 or 270", table["rotate"])
        elements.append(Element(kind, dict(table), f"{check.source}: {at}"))
    return tuple(elements)


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
            if not (isinstance(entry.get(key), str) and _HEX.match(entry[key])):
                check.fail(f"{at}.{key}", "a colour #RRGGBB", entry.get(key))
        if entry.get("symbol") not in SYMBOLS:
            check.fail(f"{at}.symbol", "one of " + ", ".join(SYMBOLS), entry.get("symbol"))
        if not check.problems:
            colors[name] = PlayerColor(name, entry["rgb"], entry["ink"], entry["symbol"])
    check.raise_if_any()
    return colors


def _read_toml(path: Path) -> dict:
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise TemplateError(f"{path}: no such template file") from None
    except OSError as exc:
        raise TemplateError(f"{path}: cannot read the template ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise TemplateError(f"{path.name}: not valid TOML ({exc})") from None
    except UnicodeDecodeError:
        raise TemplateError(f"{path.name}: not a UTF-8 text file") from None


def _field_names(text: str) -> set[str]:
    try:
        return {f.split(".")[0].split("[")[0] for _, f, _, _ in string.Formatter().parse(text) if f}
    except ValueError:
        return set()


def load_game(path: Path, catalog_dir: Path | None = None,
              overrides: Mapping[str, float] | None = None) -> Game:
    """Read, validate and build one game from its TOML file and its catalogs.

    The catalogs are ``<stem>.en.toml`` and ``<stem>.fr.toml`` beside the file
    (or in ``catalog_dir``), merged over the shared ``common.<lang>.toml``.
    """
    path = Path(path)
    table = _read_toml(path)
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
    designers = header.get("designers", [])
    if not (isinstance(designers, list) and all(isinstance(d, str) for d in designers)):
        check.fail("game.designers", "a list of names", designers)
        designers = []

    palette = table.get("palette", {})
    if not isinstance(palette, dict):
        check.fail("[palette]", "a table of name = \"#RRGGBB\"", palette)
        palette = {}
    for name, value in palette.items():
        if not (isinstance(value, str) and _HEX.match(value)):
            check.fail(f"palette.{name}", "a colour #RRGGBB", value)
    # The cover page and scoresheets use ink, accent, light and paper.
    palette = {"ink": "#000000", "paper": "#ffffff", "light": "#eeeeee",
               "accent": palette.get("ink", "#000000"), **palette}

    params = table.get("params", {})
    if not isinstance(params, dict):
        check.fail("[params]", "a table of name = number", params)
        params = {}
    for name, value in params.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            check.fail(f"params.{name}", "a number", value)
    for name, value in (overrides or {}).items():
        if name not in params:
            raise UnknownNameError(
                f"{path.name} has no setting {name!r}; it has: {', '.join(params) or '(none)'}")
        if not value > 0:
            raise TemplateError(f"the setting {name!r} must be a positive number, got {value:g}")
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
    check.raise_if_any()

    catalogs = load_game_catalogs(path.stem, catalog_dir or path.parent)
    shipped_icons = templates_dir() / "icons"
    own_icons = path.parent.resolve() / "icons"
    icon_dirs = tuple(str(d) for d in dict.fromkeys([own_icons, shipped_icons]) if d.is_dir())
    game = Game(
        id=game_id, players=(players[0], players[1]), rules_url=rules_url,
        designers=tuple(designers), palette=dict(palette), colors=colors,
        params={k: float(v) for k, v in params.items()}, components=tuple(components),
        catalogs=catalogs, source=str(path), icon_dirs=icon_dirs or (str(shipped_icons),),
    )
    _check_texts(game, path.name)
    return game


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
            from pnp.layout.expr import evaluate
            size = (evaluate(size_spec[0], params), evaluate(size_spec[1], params))
        else:
            size = piece_size(size_spec)
        if size[0] <= 0 or size[1] <= 0:
            raise UnknownNameError("sizes must be positive")
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
    back_kind = raw.get("back_kind", "optional")
    if back_kind not in ("optional", "required"):
        check.fail(f"{at}.back_kind", "'optional' or 'required'", back_kind)
    made_as = raw.get("kind", "card")
    if made_as not in PIECE_KINDS:
        check.fail(f"{at}.kind", " or ".join(repr(k) for k in PIECE_KINDS), made_as)
        made_as = "card"
    for key in ("rotate", "gutter"):
        if key in raw and not isinstance(raw[key], bool):
            check.fail(f"{at}.{key}", "true or false", raw[key])
    for key in ("corner_radius", "overlap"):
        if key in raw and not (isinstance(raw[key], (int, float)) and not isinstance(raw[key], bool)
                               and raw[key] >= 0):
            check.fail(f"{at}.{key}", "a length in mm >= 0", raw[key])
    if raw.get("overlap", 12) < 10:
        check.fail(f"{at}.overlap", "at least 10 mm so board parts can be joined", raw.get("overlap"))

    field_types = raw.get("fields", {})
    if not isinstance(field_types, dict) or not all(
            isinstance(v, str) and v.rstrip("?") in FIELD_TYPES for v in field_types.values()):
        check.fail(f"{at}.fields", "a table of name = \"str\" | \"int\" | \"num\" | \"bool\" "
                   "(add ? for an optional field: \"int?\")", field_types)
        field_types = {}
    front = _elements(raw.get("front", []), f"{at}.front", check, palette)
    back = _elements(raw["back"], f"{at}.back", check, palette) if "back" in raw else None
    if raw.get("same_back") is True:
        # Both sides alike (the "Hunt Starts Here" card): the back repeats the front.
        if back is not None:
            check.fail(f"{at}.same_back", "either same_back = true or a back design, not both", True)
        back = front
    elif "same_back" in raw and not isinstance(raw["same_back"], bool):
        check.fail(f"{at}.same_back", "true or false", raw["same_back"])

    raw_pieces = raw.get("pieces")
    pieces = []
    if not isinstance(raw_pieces, list) or not raw_pieces:
        check.fail(f"{at}.pieces", "at least one [[components.pieces]] table", raw_pieces, show=False)
        raw_pieces = []
    piece_keys = {"id", "count", "front", "back", *field_types}
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
            fields[name] = value
        pfront = _elements(entry["front"], f"{pat}.front", check, palette) if "front" in entry else None
        pback = _elements(entry["back"], f"{pat}.back", check, palette) if "back" in entry else None
        if isinstance(pid, str) and isinstance(count, int):
            pieces.append(Piece(pid, count, fields, pfront, pback, index))
    if not front and not all(p.front for p in pieces):
        check.fail(f"{at}.front", "a front design for the component or for every piece", None, show=False)
    return Component(
        id=cid, size=size, pieces=tuple(pieces), front=front, back=back, sets=tuple(sets),
        rotate=raw.get("rotate", True), back_kind=back_kind, gutter=raw.get("gutter", False),
        corner_radius=float(raw.get("corner_radius", 0.0)), overlap=float(raw.get("overlap", 12.0)),
        kind=made_as,
    )


def load_game_catalogs(stem: str, folder: Path) -> dict[str, Catalog]:
    """The catalogs of a game in every language, each merged over the common one."""
    return {lang: game_catalog(stem, lang, Path(folder)) for lang in LANGUAGES}


def _check_texts(game: Game, source: str) -> None:
    """Every catalog text a piece will print exists in every language."""
    problems = []
    for component in game.components:
        for lang, catalog in game.catalogs.items():
            for key in (f"component.{component.id}.name", f"component.{component.id}.cut"):
                if not catalog.has(key):
                    problems.append(f"{source}: components {component.id}: text {key!r} missing in {lang}")
        for piece in component.pieces:
            fields = {"id": piece.id, **piece.fields}
            elements = [*(piece.front or component.front), *(piece.back or component.back or ())]
            for element in elements:
                texts = [element.props.get("text", ""), element.props.get("data", "")]
                for row in element.props.get("rows", []):
                    texts.extend(row)
                for text in texts:
                    if not text.startswith("@"):
                        continue
                    try:
                        key = text[1:].format_map(fields)
                    except (KeyError, ValueError, IndexError):
                        # Keys that name the set or the language are checked when drawn.
                        continue
                    for lang, catalog in game.catalogs.items():
                        if not catalog.has(key):
                            problems.append(
                                f"{element.where}: text {key!r} missing in {lang} (piece {piece.id})")
    if problems:
        raise TemplateError(problems[0] + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""),
                            problems)


def game_files() -> dict[str, Path]:
    """The games shipped in templates/, by id (file stem)."""
    skip = {"colors", "common"}
    return {
        p.stem: p for p in sorted(templates_dir().glob("*.toml"))
        if "." not in p.stem and p.stem not in skip
    }


def load_shipped_game(game_id: str, overrides: Mapping[str, float] | None = None) -> Game:
    files = game_files()
    if game_id not in files:
        raise UnknownNameError(
            f"unknown game {game_id!r}; expected one of: {', '.join(files) or '(none)'}"
        )
    return load_game(files[game_id], overrides=overrides)
