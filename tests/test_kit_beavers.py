"""The Hunting Hunting Beavers kit: deck counts, hidden beaver values, currency, a board
that splits and joins, planning boards in seat order, both languages."""

from __future__ import annotations

import io
import re
import tomllib
from collections import Counter
from functools import lru_cache
from itertools import combinations

import pytest

from pnp.kit.build import render_to_memory
from pnp.template.model import PrintOptions
from pnp.template.icons import load_icon
from pnp.template.loader import load_shipped_game, templates_dir
from scoring import beavers as rules

GAME = "hunting-hunting-beavers"
# The rules' facts, kept once in the rules module: count, attack and defense of each unit.
UNITS = {unit: (count, rules.ATTACK[unit], rules.DEFENSE[unit]) for unit, count in rules.UNITS.items()}
BEAVERS = rules.BEAVER_CARDS
SEATS = ["red", "green", "blue", "white"]  # clockwise round the board
BOTH = [("en", "a4"), ("fr", "letter")]


@lru_cache(maxsize=None)
def kit(lang: str, paper: str) -> tuple[bytes, dict]:
    """Render once per language and paper; the whole file stays around two seconds."""
    return render_to_memory(load_shipped_game(GAME), PrintOptions(lang=lang, paper=paper))


def items(manifest: dict, component: str, face: str = "front") -> list[dict]:
    return [item for page in manifest["pages"] for item in page["items"]
            if item["component"] == component and item["face"] == face]


def pdf_text(data: bytes, pages=None) -> str:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    chosen = reader.pages if pages is None else [reader.pages[i] for i in pages]
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in chosen))


@pytest.mark.parametrize("lang, paper", [("en", "a4"), ("en", "letter"), ("fr", "a4"), ("fr", "letter")])
def test_unit_and_beaver_decks_match_the_rules(lang, paper):
    _, manifest = kit(lang, paper)
    units = items(manifest, "unit-cards")
    assert {u["piece"] for u in units} == {"unit"}
    assert Counter(u["unit"] for u in units) == {kind: n for kind, (n, _, _) in UNITS.items()}
    assert all((u["attack"], u["defense"]) == UNITS[u["unit"]][1:] for u in units)
    beavers = items(manifest, "beaver-cards")
    assert {b["piece"] for b in beavers} == {"beaver"}
    assert Counter(b["beavers"] for b in beavers) == BEAVERS
    assert sum(b["beavers"] for b in beavers) == 50
    # Every card has its back right behind it.
    for component in ("unit-cards", "beaver-cards"):
        assert len(items(manifest, component, "back")) == len(items(manifest, component))


def test_beaver_backs_are_one_drawing_so_values_stay_hidden():
    """Dealt face down, singles, doubles and triples must print the very same back."""
    from pypdf import PdfReader

    data, manifest = kit("en", "a4")
    component = load_shipped_game(GAME).component("beaver-cards")
    assert component.back is not None and all(p.back is None for p in component.pieces)
    reader = PdfReader(io.BytesIO(data))
    streams = set()
    for page in manifest["pages"]:
        if page["kind"] == "back" and page.get("components") == ["beaver-cards"]:
            assert {i["beavers"] for i in page["items"]} >= {2}
            forms = reader.pages[page["number"] - 1]["/Resources"]["/XObject"]
            streams |= {forms[name].get_object().get_data() for name in forms}
    assert len(streams) == 1


def test_currency_tokens_are_double_sided_ones_and_fives_worth_at_least_50():
    _, manifest = kit("fr", "letter")
    fronts, backs = items(manifest, "currency"), items(manifest, "currency", "back")
    assert {t["piece"] for t in fronts} == {"currency"}
    assert {t["value"] for t in fronts} == {1, 5}
    assert sum(t["value"] for t in fronts) >= 50
    assert all(t["w"] == t["h"] <= 30 for t in fronts)
    # The same value on both sides: each back lies behind a front of the same value.
    page_w = manifest["page_size_mm"][0]
    behind = {(round(page_w - t["x"] - t["w"], 2), t["y"], t["value"]) for t in fronts}
    assert {(round(t["x"], 2), t["y"], t["value"]) for t in backs} == behind


@pytest.mark.parametrize("lang, paper", BOTH)
def test_board_parts_overlap_and_cover_the_whole_board(lang, paper):
    data, manifest = kit(lang, paper)
    game = load_shipped_game(GAME)
    board_w, board_h = game.component("board").size
    parts = items(manifest, "board")
    assert len(parts) >= 2 and {p["piece"] for p in parts} == {"board"}
    total = len(parts)
    assert sorted(p["sheet_part"] for p in parts) == sorted(f"{n}/{total}" for n in range(1, total + 1))
    page_w, page_h = manifest["page_size_mm"]
    regions = []
    for part in parts:
        r = part["region"]
        regions.append((r["x"], r["y"], r["x"] + r["w"], r["y"] + r["h"]))
        assert (r["w"], r["h"]) in ((part["w"], part["h"]), (part["h"], part["w"]))
        # Each part sits on its own sheet inside the 8 mm margin.
        assert part["x"] >= 8 and part["x"] + part["w"] <= page_w - 8
        assert part["y"] >= 8 and part["y"] + part["h"] <= page_h - 8
    # Neighbours share a strip of at least 10 mm: wide enough to glue.
    for a, b in combinations(regions, 2):
        overlap_w = min(a[2], b[2]) - max(a[0], b[0])
        overlap_h = min(a[3], b[3]) - max(a[1], b[1])
        if overlap_w > 0 and overlap_h > 0:
            assert min(overlap_w, overlap_h) >= 10
    assert all(any(min(a[2], b[2]) - max(a[0], b[0]) >= 10 and min(a[3], b[3]) - max(a[1], b[1]) >= 10
                   for b in regions if b is not a) for a in regions)
    # Together they cover the board: every point of a 1 mm grid lies in some part.
    for x in range(0, int(board_w) + 1):
        for y in range(0, int(board_h) + 1):
            assert any(r[0] <= x <= r[2] and r[1] <= y <= r[3] for r in regions), (x, y)
    # The cover explains the assembly for that number of sheets.
    catalog = game.catalogs[lang]
    sentence = catalog.get("cover.assembly", name=catalog.get("component.board.name"), n=total,
                           overlap="12")
    # pypdf reads a no-break space as a space.
    assert sentence[:40].replace("\u00a0", " ") in pdf_text(data, range(1))


def test_planning_boards_one_per_colour_with_raids_in_seat_order():
    _, manifest = kit("en", "a4")
    boards = items(manifest, "planning-boards")
    assert sorted(b["color"] for b in boards) == sorted(SEATS)
    assert {b["piece"] for b in boards} == {"planning_board"}
    game = load_shipped_game(GAME)
    for piece in game.component("planning-boards").pieces:
        seat = SEATS.index(piece.fields["color"])
        # Left, across and right neighbours, as the board seats them.
        assert [piece.fields[k] for k in ("_left", "_across", "_right")] == \
            [SEATS[(seat + n) % 4] for n in (1, 2, 3)]
        for colour, shape in (("color", "_sym"), ("_left", "_lsym"), ("_across", "_asym"),
                              ("_right", "_rsym")):
            assert piece.fields[shape] == game.colors[piece.fields[colour]].symbol
    assert Counter(i["piece"] for i in items(manifest, "player-aids")) == {"player_aid": 4}
    # One board, however many sheets it is split over.
    assert {(i["piece"], i["copy"]) for i in items(manifest, "board")} == {("board", 1)}


def test_palette_player_colours_are_the_shared_ones():
    """The board needs all four colours on one piece, so the palette repeats colors.toml."""
    game = load_shipped_game(GAME)
    for name in SEATS:
        color = game.colors[name]
        assert game.palette[f"player_{name}"] == color.rgb
        assert game.palette[f"player_{name}_ink"] == color.ink


@pytest.mark.parametrize("lang, words, foreign", [
    ("en", ["War Chief", "Defender", "One Beaver", "Hunting ground", "Hidden area", "Do nothing"],
     ["Chef de guerre", "Zone cachée"]),
    ("fr", ["Chef de guerre", "Défenseur", "Un castor", "Territoire de chasse", "Zone cachée",
            "Ne rien faire"], ["War Chief", "Hidden area"]),
])
def test_each_language_prints_its_own_words(lang, words, foreign):
    paper = dict(BOTH)[lang]
    data, manifest = kit(lang, paper)
    assert manifest["lang"] == lang
    # One page of each component is enough (and keeps text extraction quick), plus the war chiefs'.
    first = {}
    for page in manifest["pages"]:
        if page["kind"] in ("front", "sheet"):
            for name in page["components"]:
                first.setdefault(name, page["number"] - 1)
            if any(i.get("unit") == "war_chief" for i in page["items"]):
                first["war_chief"] = page["number"] - 1
    text = pdf_text(data, sorted(set(first.values())))
    assert all(word in text for word in words)
    assert not any(word in text for word in foreign)


def test_card_names_are_large_and_no_text_is_below_6_pt():
    raw = tomllib.loads((templates_dir() / f"{GAME}.toml").read_text(encoding="utf-8"))
    for component in raw["components"]:
        for element in component.get("front", []) + component.get("back", []):
            if element["type"] in ("text", "table"):
                assert element["size"] >= 6 and element.get("min_size", 6) >= 6
            if element["type"] == "text" and re.match(r"@(unit\.\{unit\}|beaver\.name_)", element["text"]):
                assert element["size"] >= 12 and element["min_size"] >= 12


def test_icons_exist_and_draw_as_plain_vectors():
    """Every pictogram the kit names parses; none uses transparency, which forms cannot carry."""
    text = (templates_dir() / f"{GAME}.toml").read_text(encoding="utf-8")
    names = set(re.findall(r'name = "(hhb_\w+)"', text)) | {f"hhb_{kind}" for kind in UNITS}
    folder = templates_dir() / "icons"
    for name in sorted(names):
        icon = load_icon(str(folder), name)
        assert icon.shapes and all(shape.opacity == 1 for shape in icon.shapes), name


@pytest.mark.parametrize("lang, role", [("en", "Minister of Beaver Aesthetics"),
                                        ("fr", "ministre de l’esthétique des castors")])
def test_the_cover_holds_everything_even_in_its_fullest_case(lang, role):
    """Letter is the shortest page, and the ink saver and a back offset each add a line.

    A cover that does not fit one page goes on to a second one, also a cover page.
    """
    game = load_shipped_game(GAME)
    data, manifest = render_to_memory(game, PrintOptions(lang=lang, paper="letter", ink_saver=True,
                                                         back_offset=(0.5, -0.3)))
    covers = [i for i, p in enumerate(manifest["pages"]) if p["kind"] == "cover"
              and "how-to-play" not in p.get("components", ())]
    assert covers == list(range(len(covers))) and 1 <= len(covers) <= 2
    assert len(pdf_reader_pages(data)) == len(manifest["pages"])
    cover = pdf_text(data, covers)
    assert all(name in cover for name in ("Xander", "Carter", "David", "Aaron", "Kevin", role))


def pdf_reader_pages(data: bytes):
    from pypdf import PdfReader
    import io
    return PdfReader(io.BytesIO(data)).pages


@pytest.mark.parametrize("lang, paper", BOTH)
def test_setup_and_its_reading_are_printed_on_the_round_aid_and_the_board(lang, paper):
    """The rules deal 3 Beaver cards at setup and 3 more each round for 10 rounds: 33 of 30.
    The kit's reading, that the setup cards are round 1's, is printed where players look."""
    assert rules.HUNTING_GROUNDS * rules.ROUNDS == sum(BEAVERS.values())
    data, manifest = kit(lang, paper)
    catalog = load_shipped_game(GAME).catalogs[lang]

    def printed(component: str) -> str:
        pages = sorted({page["number"] - 1 for page in manifest["pages"]
                        if component in page.get("components", ()) and page["kind"] in ("front", "sheet")})
        return pdf_text(data, pages)

    def said(key: str) -> str:
        return re.sub(r"\s+", " ", catalog.get(key).replace("\u00a0", " "))

    aid = printed("player-aids")
    assert said("aid.setup_title") in aid
    for key in ("aid.setup", "aid.planning"):
        words = said(key).split()
        assert " ".join(words[:5]) in aid and " ".join(words[-3:]) in aid, key
    # "From round 2 on" is where the setup's cards come from: round 1 deals none.
    assert ("From round 2 on" if lang == "en" else "Dès la deuxième manche") in said("aid.planning")
    board = printed("board")
    for key in ("board.ground_hint", "board.beaver_pile_hint"):
        words = said(key).split()
        assert " ".join(words[:4]) in board and " ".join(words[-2:]) in board, key
    assert "30" in said("board.beaver_pile_hint") and str(rules.ROUNDS) not in said("board.ground_hint")


def test_each_player_space_stands_apart_from_the_board_in_greyscale():
    """White's space is far lighter than the board's middle, and every colour's symbol sits on a
    badge of its ink, so a white square on blue is a symbol, not a missing picture."""
    game = load_shipped_game(GAME)

    def lightness(hex_color: str) -> float:
        from pnp.layout.colors import luminance

        y = luminance(hex_color)
        return 116 * y ** (1 / 3) - 16 if y > 0.008856 else 903.3 * y

    middle = lightness(game.palette["meadow"])
    spaces = sorted(lightness(game.palette[f"player_{name}"]) for name in SEATS)
    assert min(abs(space - middle) for space in spaces) >= 10
    assert all(b - a >= 10 for a, b in zip(spaces, spaces[1:]))
    board = game.component("board").front
    for name in SEATS:
        symbols = [e for e in board if e.type == "symbol" and e.props.get("fill") == f"player_{name}"]
        badges = [e for e in board if e.type == "ellipse" and e.props.get("fill") == f"player_{name}_ink"]
        assert len(symbols) == 2 and [(b.props["cx"], b.props["cy"]) for b in badges] == [
            (s.props["cx"], s.props["cy"]) for s in symbols], name
        rims = [e for e in board if e.type == "polygon" and e.props.get("stroke") == f"player_{name}_ink"]
        assert len(rims) == 1, name
