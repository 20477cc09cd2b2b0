"""Every key the template loader accepts is documented and alive.

The keys are read from the loader's own declarations (pnp.template.spec's tables, pnp.template.kinds'
rows of element kinds), not listed here: a key added to the language is found by these tests at once.
Each must be named in docs/TEMPLATES.md, and changing its value must change what is printed (the
PDF or its manifest): a key that is read and then ignored is a promise the kit does not keep. Each
key needs a case below, a small kit and the change to make; a new key without one fails until it
has one.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import pytest

from pnp.kit.build import render_to_memory
from pnp.core.errors import TemplateError
from pnp.template.kinds import COMMON_KEYS, KINDS
from pnp.template.model import PrintOptions
from pnp.template.fonts import FONT_KEYS
from pnp.template.spec import COMPONENT, GAME, HEADER, piece_table
from pnp.template.loader import load_game

GUIDE = (Path(__file__).resolve().parent.parent / "docs" / "TEMPLATES.md").read_text(encoding="utf-8")
#: A TrueType font of the template's own (the second designer example's, SIL OFL).
FONT = Path(__file__).resolve().parent.parent / "examples" / "lantern-market" / "fonts" / "Comfortaa-Bold.ttf"
#: Another, to change a font's file to: Lato Black, as a file of the template's own.
OTHER_FONT = Path(__file__).resolve().parent.parent / "fonts" / "Lato-Black.ttf"

#: Keys checked on load but not drawn yet, each with the reason; the test fails once one comes
#: alive, so that it is taken off this list.
NOT_YET_ALIVE: dict[tuple[str, str], str] = {}


def accepted_keys() -> list[tuple[str, str]]:
    """Every (table, key) a template may write, from the loader's declarations."""
    keys = [("file", key) for key in GAME.fields]
    keys += [("game", key) for key in HEADER.fields]
    keys += [("component", key) for key in (*COMPONENT.fields, *COMPONENT.extra_keys)]
    pieces = piece_table({}, [])
    keys += [("piece", key) for key in (*pieces.fields, *pieces.extra_keys)]
    keys += [("data file", key) for key in ("file", "sheet")]
    keys += [("font", key) for key in FONT_KEYS]
    keys += [(f"element {name}", key) for name, kind in KINDS.items()
             for key in (*COMMON_KEYS, *kind.keys)]
    return keys


# ------------------------------------------------------------------ a small kit, as data

def toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml(v) for v in value) + "]"
    return "{ " + ", ".join(f"{k} = {toml(v)}" for k, v in value.items()) + " }"


def write_kit(folder: Path, kit: dict) -> Path:
    lines = []
    for table in ("game", "palette", "params"):
        lines.append(f"[{table}]")
        lines += [f"{k} = {toml(v)}" for k, v in kit[table].items()]
    for name, colour in kit.get("colors", {}).items():
        lines.append(f"[colors.{name}]")
        lines += [f"{k} = {toml(v)}" for k, v in colour.items()]
    if "fonts" in kit:
        lines.append("[fonts]")
        lines += [f"{k} = {toml(v)}" for k, v in kit["fonts"].items()]
        (folder / "Title.ttf").write_bytes(FONT.read_bytes())
        (folder / "Other.ttf").write_bytes(OTHER_FONT.read_bytes())
    if "score" in kit:
        lines.append("[score]")
        lines += [f"{k} = {toml(v)}" for k, v in kit["score"].items()]
    for component in kit["components"]:
        lines.append("[[components]]")
        lines += [f"{k} = {toml(v)}" for k, v in component.items()]
    path = folder / f"{kit['game']['id']}.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    sheets = any(e.get("type") == "scoresheet" for c in kit["components"] for e in c.get("front", ()))
    catalog = (scoresheet_texts() if sheets else "") + '[game]\nname = "Keys"\ncredits = "Made for a test."\n[word]\nhello = "Hello"\nbye = "Bye"\n' \
              '[word.point]\none = "{copy} point"\nother = "{copy} points"\n'
    if kit.get("colors"):
        catalog += "[color]\n" + "".join(f'{name} = "{name.title()}"\n' for name in kit["colors"])
    for component in kit["components"]:
        catalog += f'[component.{component["id"]}]\nname = "Part"\ncut = "Cut it."\n'
    for lang in ("en", "fr"):
        (folder / f"{kit['game']['id']}.{lang}.toml").write_text(catalog, encoding="utf-8")
    (folder / "cards.csv").write_text("id,count\ncard,2\nother,1\n", encoding="utf-8")
    write_pictures(folder)
    # Two sheets "A" and "B" written by openpyxl: card 2 + other 1, and card 3 + other 1.
    (folder / "two-decks.xlsx").write_bytes((Path(__file__).parent / "data" / "two-decks.xlsx").read_bytes())
    return path


def write_pictures(folder: Path) -> None:
    """Two pictures beside the kit (600 x 400 px, told apart by their colours), for its images."""
    from PIL import Image, ImageDraw

    for name, colour in (("art.png", "#2f6e9c"), ("art2.png", "#9c2f4e")):
        picture = Image.new("RGB", (600, 400), colour)
        ImageDraw.Draw(picture).rectangle([0, 0, 200, 400], fill="#f0d060")   # the left third differs
        picture.save(folder / name)


@lru_cache(maxsize=None)
def scoresheet_texts() -> str:
    """The texts the shipped games' scoresheets print (``sheet.*``, facts filled in), as quoted keys."""
    from pnp.template.loader import load_shipped_game

    texts = {}
    for game in ("halali", "card-hunter"):
        texts.update({key: text for key, text in load_shipped_game(game).catalogs["en"].texts.items()
                      if key.startswith("sheet.")})
    return "".join(f"{json.dumps(key)} = {json.dumps(text, ensure_ascii=False)}\n" for key, text in texts.items())


def base_kit(front: list[dict] | None = None, **component: Any) -> dict:
    return {
        "game": {"id": "keys", "players": [2, 4], "rules_url": "https://example.org/keys", "designers": ["Ada"]},
        "palette": {"ink": "#222222", "tone": "#2f6e9c", "soft": "#dcead2"},
        "params": {"margin": 4},
        "components": [{
            "id": "cards", "size": "poker",
            "pieces": [{"id": "card", "count": 2}, {"id": "other", "count": 1}],
            "front": front if front is not None else [{"type": "background", "fill": "soft"}],
            "back": [{"type": "background", "fill": "tone"}],
            **component,
        }],
    }


def output(folder: Path, kit: dict, options: dict) -> str:
    """What the kit prints, as a hash; a kit its keys make wrong is an output too (a limit like
    min_size changes what is printed by refusing a text that would go below it)."""
    try:
        game = load_game(write_kit(folder, kit))
        data, manifest = render_to_memory(game, PrintOptions(**options))
    except TemplateError as error:
        return f"refused: {error.problems}"
    return hashlib.sha256(data + json.dumps(manifest, sort_keys=True).encode()).hexdigest()


Change = Callable[[dict], None]


def component_of(kit: dict) -> dict:
    return kit["components"][0]


def setting(key: str, value: Any) -> Change:
    return lambda kit: component_of(kit).__setitem__(key, value)


# ------------------------------------------------------------------ the cases

def one_sided(kit: dict, **keys: Any) -> dict:
    component = component_of(kit)
    component.pop("back")
    component.update(keys)
    return kit


def _cover_page(kit: dict) -> dict:
    one_sided(kit, size="150x100", cut=False, pieces=[{"id": "rules", "count": 1}])
    return kit


def _sheet_beside_cards(kit: dict) -> dict:
    """A one-sided page too tall to go below a one-sided aid on its sheet, unless it shrinks."""
    one_sided(kit, size="190x255", cut=False, kind="sheet", pieces=[{"id": "sheet", "count": 1}],
              front=[{"type": "text", "x": 5, "y": 5, "w": 100, "h": 10, "text": "Hi", "size": 10}])
    kit["components"].insert(0, {"id": "aid", "size": "180x125", "kind": "sheet", "pieces": [{"id": "aid", "count": 1}],
                              "front": [{"type": "background", "fill": "soft"}]})
    return kit


def _board(kit: dict) -> dict:
    component_of(kit).update(size="300x300", kind="board")
    component_of(kit).pop("back")
    component_of(kit)["pieces"] = [{"id": "board", "count": 1}]
    return kit


COMPONENT_CASES: dict[str, tuple[Callable[[dict], dict], Change, dict]] = {
    # key: (the kit before, the change, print options)
    "id": (lambda k: k, setting("id", "deck"), {}),
    "size": (lambda k: k, setting("size", "mini"), {}),
    "sets": (lambda k: k, setting("sets", ["red"]), {}),
    "back_kind": (lambda k: k, setting("back_kind", "required"), {"duplex": False}),
    "kind": (lambda k: k, setting("kind", "tile"), {}),
    "rotate": (lambda k: one_sided(k, size="120x80", pieces=[{"id": "card", "count": 6}]), setting("rotate", False), {}),
    "gutter": (lambda k: k, setting("gutter", True), {}),
    "cut": (lambda k: one_sided(k), setting("cut", False), {}),
    "with_cover": (_cover_page, setting("with_cover", True), {}),
    "shrink": (_sheet_beside_cards, lambda k: k["components"][-1].update(shrink=True), {}),
    "hidden": (lambda k: k, setting("hidden", True), {}),
    "corner_radius": (lambda k: k, setting("corner_radius", 3), {}),
    "shape": (lambda k: k, setting("shape", "circle"), {}),
    "overlap": (_board, setting("overlap", 20), {}),
    "seams": (_board, setting("seams", {"x": [120], "y": [130]}), {}),
    "fields": (lambda k: k, lambda k: component_of(k).update(
        fields={"value": "int"}, pieces=[{"id": "card", "count": 2, "value": 1}, {"id": "other", "count": 1, "value": 2}]), {}),
    "computed": (lambda k: k, setting("computed", {"points": "copy * 2"}), {}),
    "pieces": (lambda k: k, setting("pieces", [{"id": "card", "count": 3}]), {}),
    "front": (lambda k: k, setting("front", [{"type": "background", "fill": "tone"}]), {}),
    "back": (lambda k: k, setting("back", [{"type": "background", "fill": "ink"}]), {}),
    "same_back": (lambda k: k, lambda k: (component_of(k).pop("back"), component_of(k).update(same_back=True)), {}),
}

GAME_CASES: dict[str, Change] = {
    "id": lambda k: k["game"].update(id="keys-two"),
    "players": lambda k: k["game"].update(players=[1, 5]),
    "rules_url": lambda k: k["game"].update(rules_url="https://example.org/other"),
    "designers": lambda k: k["game"].update(designers=["Grace"]),
    "fan_copy": lambda k: k["game"].update(fan_copy=False),
    # Its picture (508 dpi as placed) is stored smaller for 150 dpi than for 300 (see ELEMENTS).
    "image_dpi": lambda k: k["game"].update(image_dpi=150),
}

FILE_CASES: dict[str, Change] = {
    "game": GAME_CASES["players"],
    "palette": lambda k: k["palette"].update(soft="#ffeeaa"),
    "params": lambda k: (k["params"].update(margin=6), component_of(k)["front"].append(
        {"type": "rect", "x": "margin", "y": 5, "w": 10, "h": 10, "fill": "ink"})),
    "components": COMPONENT_CASES["size"][1],
    # A template's own player colour, another shade.
    "colors": lambda k: k["colors"]["gold"].update(rgb="#b8871f"),
    # A template's own font: its licence named on the cover.
    "fonts": lambda k: k["fonts"].update(title={"file": "Title.ttf", "licence": "SIL Open Font License 1.1"}),
    # The game's own scoring: its sheet has a row per round.
    "score": lambda k: k["score"].update(rounds=6),
}

#: A font of [fonts] (``title``, set in a text of each of its runs) with each key of its table:
#: the table it starts from, and the value the key changes to.
FONT_CASES: dict[str, tuple[dict, Any]] = {
    "file": ({"file": "Title.ttf"}, "Other.ttf"),
    "bold": ({"file": "Title.ttf", "bold": "Title.ttf"}, "Other.ttf"),
    "italic": ({"file": "Title.ttf", "italic": "Title.ttf"}, "Other.ttf"),
    "bold_italic": ({"file": "Title.ttf", "bold_italic": "Title.ttf"}, "Other.ttf"),
    "licence": ({"file": "Title.ttf", "licence": "SIL Open Font License 1.1"}, "Its maker's own licence"),
}
#: The text set in it: a plain run, and each variant's run (those the font has no file for left
#: plain).
FONT_TEXT = {"file": "Hi", "bold": "**Hi**", "italic": "*Hi*", "bold_italic": "***Hi***", "licence": "Hi"}

PIECE_CASES: dict[str, Change] = {
    "id": lambda k: component_of(k)["pieces"][0].update(id="card-a"),
    "count": lambda k: component_of(k)["pieces"][0].update(count=4),
    "front": lambda k: component_of(k)["pieces"][0].update(front=[{"type": "background", "fill": "ink"}]),
    "back": lambda k: component_of(k)["pieces"][0].update(back=[{"type": "background", "fill": "ink"}]),
}

DATA_CASES: dict[str, tuple[Change, Change]] = {
    "file": (setting("pieces", {"file": "cards.csv"}), setting("pieces", {"file": "two-decks.xlsx", "sheet": "B"})),
    "sheet": (setting("pieces", {"file": "two-decks.xlsx", "sheet": "A"}),
              setting("pieces", {"file": "two-decks.xlsx", "sheet": "B"})),
}

#: Each element kind drawn on its own, with every key it has a value to change from.
ELEMENTS: dict[str, tuple[dict, dict]] = {
    # kind: (the element, {key: the value it changes to}), plus the component it needs.
    "background": ({"type": "background", "fill": "soft"}, {"fill": "tone"}),
    "rect": ({"type": "rect", "x": 5, "y": 5, "w": 20, "h": 10, "fill": "soft", "stroke": "ink", "stroke_width": 0.5},
             {"x": 6, "y": 6, "w": 21, "h": 11, "fill": "tone", "stroke": "tone", "stroke_width": 1, "radius": 2,
              "dash": [1, 1]}),
    "ellipse": ({"type": "ellipse", "cx": 20, "cy": 20, "rx": 8, "fill": "soft", "stroke": "ink", "stroke_width": 0.5},
                {"cx": 21, "cy": 21, "rx": 9, "ry": 4, "fill": "tone", "stroke": "tone", "stroke_width": 1,
                 "dash": [1, 1]}),
    "line": ({"type": "line", "x1": 5, "y1": 5, "x2": 30, "y2": 30, "stroke_width": 0.5},
             {"x1": 6, "y1": 6, "x2": 31, "y2": 31, "stroke": "tone", "stroke_width": 1, "dash": [1, 1]}),
    "polygon": ({"type": "polygon", "points": [[5, 5], [30, 5], [15, 25]], "fill": "soft", "stroke": "ink",
                 "stroke_width": 0.5},
                {"points": [[5, 5], [31, 5], [15, 25]], "fill": "tone", "stroke": "tone", "stroke_width": 1,
                 "dash": [1, 1], "closed": False}),
    "text": ({"type": "text", "x": 5, "y": 5, "w": 50, "h": 24, "text": "Hello there, my good old friend of the harbour",
              "size": 10, "wrap": True, "min_size": 6},
             {"x": 6, "y": 6, "w": 51, "h": 25, "text": "Bye", "size": 11, "font": "bold", "align": "left",
              "valign": "top", "color": "tone", "wrap": False, "rotate": 90, "leading": 1.6, "min_size": 12}),
    "icon": ({"type": "icon", "name": "arrow", "x": 5, "y": 5, "w": 20, "h": 20},
             {"name": "carrot", "x": 6, "y": 6, "w": 21, "h": 21, "color": "tone", "rotate": 90, "mirror": True}),
    "symbol": ({"type": "symbol", "cx": 20, "cy": 20, "size": 10, "shape": "star", "fill": "tone", "stroke": "ink",
                "stroke_width": 0.5},
               {"cx": 21, "cy": 21, "size": 11, "shape": "heart", "fill": "soft", "stroke": "tone", "stroke_width": 1,
                "dash": [1, 1]}),
    "table": ({"type": "table", "x": 5, "y": 5, "w": 50, "rows": [["A", "B"], ["1", "2"], ["3", "4"]], "cols": [1, 1],
               "row_h": 8, "size": 9, "zebra": "soft"},
              {"x": 6, "y": 6, "w": 51, "rows": [["A", "B"], ["1", "5"], ["3", "4"]], "cols": [2, 1], "row_h": 9,
               "size": 10, "font": "italic", "header": False, "color": "tone", "line": "tone",
               "header_fill": "tone", "header_color": "soft", "zebra": "tone", "align": "left", "col_lines": True}),
    "qr": ({"type": "qr", "x": 5, "y": 5, "size": 20, "data": "https://example.org/a"},
           {"x": 6, "y": 6, "size": 21, "data": "https://example.org/b", "color": "tone"}),
    # A 600 x 400 px picture covering a 20 x 20 mm box at the card's corner (its sides cropped):
    # 508 dpi as placed.
    "image": ({"type": "image", "file": "art.png", "x": 0, "y": 0, "w": 20, "h": 20},
              {"file": "art2.png", "x": 1, "y": 1, "w": 21, "h": 21, "fit": "contain", "anchor": "left",
               "focus": [0.1, 0.5], "rotate": 90, "opacity": 0.5, "bleed": "mirror", "min_dpi": 1000}),
    "scoresheet": ({"type": "scoresheet", "x": 5, "y": 5, "w": 180, "h": 250, "game": "halali"},
                   {"x": 6, "y": 6, "w": 178, "h": 248, "game": "card-hunter", "qr": "https://example.org/s"}),
}
#: Elements that need more room than a card.
ELEMENT_COMPONENT = {"scoresheet": {"size": "190x270", "kind": "sheet", "cut": False}}
#: The text's plural draws the catalog's word.point forms: its text is a catalog key there.
PLURAL_TEXT = "@word.point"


def element_case(kind: str, key: str) -> tuple[dict, dict]:
    element, changes = ELEMENTS[kind]
    before = copy.deepcopy(element)
    if key == "when":
        after = {**before, "when": "id=card"}
    elif key == "repeat":
        after = {**before, "repeat": 2, "step": [1, 1]}
        before = {**before, "repeat": 1, "step": [1, 1]}
    elif key == "step":
        before, after = {**before, "repeat": 2, "step": [0, 0]}, {**before, "repeat": 2, "step": [2, 3]}
    elif key == "type":
        after = {"type": "background", "fill": "ink"} if kind != "background" else ELEMENTS["rect"][0]
    elif key == "plural":
        before, after = {**before, "text": PLURAL_TEXT + ".other"}, {**before, "text": PLURAL_TEXT, "plural": "copy"}
    else:
        after = {**before, key: changes[key]}
    return before, after


def element_kit(kind: str, element: dict) -> dict:
    extra = ELEMENT_COMPONENT.get(kind, {})
    kit = base_kit([{"type": "background", "fill": "white"}, element], **extra)
    if extra.get("cut") is False:
        component_of(kit).pop("back")
    return kit


def alive_case(table: str, key: str) -> tuple[dict, dict, dict]:
    """(kit before, kit after, print options) for one key."""
    if table.startswith("element "):
        kind = table.split()[1]
        before, after = element_case(kind, key)
        return element_kit(kind, before), element_kit(kind, after), {}
    if table == "component":
        start, change, options = COMPONENT_CASES[key]
        before = start(base_kit())
    elif table == "data file":
        make_before, change = DATA_CASES[key]
        before, options = base_kit(), {}
        make_before(before)
    elif table == "font":
        start, value = FONT_CASES[key]
        before, options = base_kit(), {}
        before["fonts"] = {"title": dict(start)}
        component_of(before)["front"].append({"type": "text", "x": 5, "y": 5, "w": 50, "h": 10,
                                              "text": FONT_TEXT[key], "size": 12, "font": "title"})

        def change(kit: dict) -> None:
            kit["fonts"]["title"][key] = value
    else:
        change = {"file": FILE_CASES, "game": GAME_CASES, "piece": PIECE_CASES}[table][key]
        before, options = base_kit(), {}
        if (table, key) == ("file", "colors"):
            before["colors"] = {"gold": {"rgb": "#d9a21b", "ink": "#2b2118", "symbol": "hexagon"}}
            component_of(before)["sets"] = ["gold"]
        if (table, key) == ("file", "fonts"):
            before["fonts"] = {"title": "Title.ttf"}
            component_of(before)["front"].append({"type": "text", "x": 5, "y": 5, "w": 50, "h": 10, "text": "Hi",
                                                  "size": 12, "font": "title"})
        if (table, key) == ("file", "score"):
            before["score"] = {"rounds": 4}
            component_of(before).pop("back")
            component_of(before).update(size="190x270", kind="sheet", cut=False, pieces=[{"id": "sheet", "count": 1}],
                                        front=[{"type": "scoresheet", "x": 5, "y": 5, "w": 180, "h": 250}])
        if (table, key) == ("game", "image_dpi"):
            component_of(before)["front"].append(ELEMENTS["image"][0])
    after = copy.deepcopy(before)
    change(after)
    return before, after, options


def case_exists(table: str, key: str) -> bool:
    if table.startswith("element "):
        kind = table.split()[1]
        return key in COMMON_KEYS or key in ELEMENTS[kind][1] or key == "plural"
    return key in {"component": COMPONENT_CASES, "file": FILE_CASES, "game": GAME_CASES, "piece": PIECE_CASES,
                   "data file": DATA_CASES, "font": FONT_CASES}[table]


KEYS = accepted_keys()


def test_the_keys_are_read_from_the_loader():
    keys = set(KEYS)
    for key in [("component", "pieces"), ("component", "computed"), ("element table", "col_lines"),
                ("element text", "plural"), ("data file", "sheet"), ("game", "designers")]:
        assert key in keys
    assert len(keys) == len(KEYS) > 100


@pytest.mark.parametrize("table, key", KEYS, ids=[f"{t}.{k}" for t, k in KEYS])
def test_every_key_is_in_the_guide(table, key):
    if table.startswith("element "):
        # The elements' table: one row per kind, naming its keys.
        kind = table.split()[1]
        row = re.search(rf"^\| `{kind}` \| (.*) \|$", GUIDE, re.MULTILINE)
        assert row and (key in COMMON_KEYS or re.search(rf"(?<!\w){key}(?!\w)", row.group(1))), (kind, key)
        if key in COMMON_KEYS:
            assert f"`{key}`" in GUIDE
        return
    # The other keys: written in the guide's example file (`key = ...`), or named as `key`.
    assert re.search(rf"^\s*{key} ?=|^\[{{1,2}}{key}[\].]|`{key}`|`{key} =", GUIDE, re.MULTILINE), (table, key)


@pytest.mark.parametrize("table, key", KEYS, ids=[f"{t}.{k}" for t, k in KEYS])
def test_changing_a_key_changes_the_printed_kit(tmp_path, table, key):
    assert case_exists(table, key), f"{table} key {key!r} has no case in tests/test_every_key.py: add one"
    before, after, options = alive_case(table, key)
    first = output(tmp_path, before, options)
    assert not first.startswith("refused"), first
    second = output(tmp_path, after, options)
    if (table, key) in NOT_YET_ALIVE:
        assert first == second, f"{key} is alive now: take it off NOT_YET_ALIVE"
        pytest.xfail(NOT_YET_ALIVE[(table, key)])
    assert first != second, f"changing {table} key {key!r} changes nothing printed"
