"""The Card Hunter kit: the four Parts as the setup lists them, 44 monster cards on one back,
the Random deck, the heroes, trackers whose four edges read 4-3-2-1, and both languages."""

from __future__ import annotations

import io
from collections import Counter
from functools import lru_cache

import pytest
from pypdf import PdfReader

from pnp.kit.build import render_to_memory
from pnp.core.i18n import compare_catalogs
from pnp.template.language import evaluate
from pnp.template.model import PrintOptions
from pnp.template.loader import load_shipped_game, templates_dir

GAME = "card-hunter"
WEAK, MEDIUM, STRONG = 1, 2, 3

# Typed from the rules' setup list (step 1), Part by Part: {(suit, hits): cards}.
SETUP = {
    "tail": {("tail", WEAK): 2, ("tail", MEDIUM): 2, ("tail", STRONG): 1,
             ("head", STRONG): 1,
             ("claws", WEAK): 1, ("claws", MEDIUM): 1,
             ("wings", MEDIUM): 2},
    "claws": {("tail", WEAK): 1, ("tail", MEDIUM): 1,
              ("head", WEAK): 1, ("head", MEDIUM): 1,
              ("claws", WEAK): 2, ("claws", MEDIUM): 1, ("claws", STRONG): 2,
              ("wings", MEDIUM): 1},
    "wings": {("tail", WEAK): 1, ("tail", MEDIUM): 1,
              ("head", WEAK): 2,
              ("claws", WEAK): 1,
              ("wings", WEAK): 3, ("wings", MEDIUM): 1, ("wings", STRONG): 1},
    "head": {("tail", STRONG): 1,
             ("head", WEAK): 1, ("head", MEDIUM): 3, ("head", STRONG): 1,
             ("claws", MEDIUM): 2,
             ("wings", WEAK): 1, ("wings", STRONG): 1},
}
PARTS = ("tail", "head", "claws", "wings")


@lru_cache(maxsize=None)
def kit(lang: str, paper: str, **options) -> tuple[bytes, dict]:
    """Render once per combination; the whole file stays around two seconds."""
    return render_to_memory(load_shipped_game(GAME), PrintOptions(lang=lang, paper=paper, **options))


def faces(manifest: dict, component: str, face: str = "front") -> list[dict]:
    return [item for page in manifest["pages"] for item in page["items"]
            if item["component"] == component and item["face"] == face]


def page_text(pdf: bytes, manifest: dict, component: str) -> str:
    """The text of every page that carries the component's fronts."""
    reader = PdfReader(io.BytesIO(pdf))
    numbers = [p["number"] for p in manifest["pages"]
               if any(i["component"] == component and i["face"] == "front" for i in p["items"])]
    kind = "front"
    assert numbers, f"no {kind} page for {component}"
    return "\n".join(reader.pages[n - 1].extract_text() for n in numbers)


def test_the_setup_list_itself_has_ten_cards_per_part_and_ten_per_suit():
    # Guards the table above against a typing slip before it judges the kit.
    assert {part: sum(cards.values()) for part, cards in SETUP.items()} == dict.fromkeys(PARTS, 10)
    by_suit = Counter()
    for cards in SETUP.values():
        for (suit, _), n in cards.items():
            by_suit[suit] += n
    assert by_suit == dict.fromkeys(PARTS, 10)


@pytest.mark.parametrize("lang, paper", [("fr", "letter"), ("en", "a4")])
def test_each_part_holds_exactly_the_cards_of_the_setup_list(lang, paper):
    _, manifest = kit(lang, paper)
    monsters = faces(manifest, "monster-cards")
    assert {m["piece"] for m in monsters} == {"monster"}
    assert len(monsters) == 44
    for part in PARTS:
        dealt = Counter((m["suit"], m["hits"]) for m in monsters
                        if m["part"] == part and m["suit"] != "rage")
        assert dealt == SETUP[part], part


def test_four_rage_cards_one_per_part_without_hit_symbols():
    _, manifest = kit("en", "a4")
    rage = [m for m in faces(manifest, "monster-cards") if m["suit"] == "rage"]
    assert len(rage) == 4
    assert sorted(m["part"] for m in rage) == sorted(PARTS)
    # No Hit symbols: the manifest items of Rage cards have no `hits` at all.
    assert all("hits" not in m for m in rage)
    others = [m for m in faces(manifest, "monster-cards") if m["suit"] != "rage"]
    assert {m["hits"] for m in others} == {WEAK, MEDIUM, STRONG}


def test_all_monster_cards_share_one_back_and_every_front_has_its_back():
    game = load_shipped_game(GAME)
    monsters = game.component("monster-cards")
    assert monsters.back and all(p.back is None and p.front is None for p in monsters.pieces)
    _, manifest = kit("en", "a4")
    fronts = Counter((m["suit"], m.get("hits"), m["part"]) for m in faces(manifest, "monster-cards"))
    backs = Counter((m["suit"], m.get("hits"), m["part"]) for m in faces(manifest, "monster-cards", "back"))
    assert fronts == backs
    # The Random deck has a back of its own.
    random = game.component("random-cards")
    assert random.back and random.back != monsters.back


def test_random_deck_characters_trackers_tokens_and_aid():
    _, manifest = kit("fr", "letter")
    random = faces(manifest, "random-cards")
    assert [r["piece"] for r in random] == ["random"] * 4
    assert sorted(r["suit"] for r in random) == sorted(PARTS)
    assert "hits" not in random[0]
    heroes = faces(manifest, "characters")
    assert [(h["piece"], h["who"]) for h in heroes] == [
        ("character", "jack"), ("character", "queen"), ("character", "king")]
    # A Life and a Potion tracker for each Character, marked with their letter.
    assert Counter((i["piece"], i["who"]) for i in faces(manifest, "trackers")) == {
        (kind, who): 1 for kind in ("life_tracker", "potion_tracker")
        for who in ("jack", "queen", "king")}
    assert Counter(i["piece"] for i in faces(manifest, "tokens")) == {
        "knockout_token": 3, "attack_marker": 1}
    assert Counter(i["piece"] for i in faces(manifest, "setup-aid")) == {"setup_aid": 1}
    trackers = faces(manifest, "trackers")
    assert all(t["w"] == t["h"] for t in trackers), "trackers are square"


def _edge_values(piece, component, w):
    """{value: (rotate, which edge)} for the big numbers on a tracker's front."""
    values = {}
    for element in piece.front or component.front:
        props = element.props
        if element.type != "text" or props["text"] not in ("1", "2", "3", "4"):
            continue
        names = {"w": w, "h": w}
        cx = evaluate(props["x"], names) + evaluate(props["w"], names) / 2
        cy = evaluate(props["y"], names) + evaluate(props["h"], names) / 2
        # y grows downwards: the near edge (facing the player) is at the bottom.
        edge = min((("near", w - cy), ("far", cy), ("left", cx), ("right", w - cx)),
                   key=lambda e: e[1])[0]
        values[props["text"]] = (props.get("rotate", 0), edge)
    return values


@pytest.mark.parametrize("piece_id", ["life_tracker", "potion_tracker"])
def test_trackers_show_four_three_two_one_turning_clockwise(piece_id):
    game = load_shipped_game(GAME)
    trackers = game.component("trackers")
    w, h = trackers.size
    assert w == h
    for piece in (p for p in trackers.pieces if p.id == piece_id):
        # Turning the tracker a quarter clockwise brings the right-hand edge to the
        # player: 4 near, 3 right (text turned 90, reading upwards), 2 far, 1 left.
        assert _edge_values(piece, trackers, w) == {
            "4": (0, "near"), "3": (90, "right"), "2": (180, "far"), "1": (270, "left")}


@pytest.mark.parametrize("lang, words", [
    ("en", ["start: easy", "start: normal", "start: hard", "start: 4 lives"]),
    ("fr", ["départ\u00a0: facile", "départ\u00a0: normal", "départ\u00a0: difficile",
            "départ\u00a0: 4 vies"]),
])
def test_tracker_page_prints_the_four_values_and_the_starting_potions(lang, words):
    pdf, manifest = kit(lang, "a4")
    # pypdf reads the no-break space before a French colon as a plain space.
    text = page_text(pdf, manifest, "trackers").replace("\xa0", " ")
    for value in "1234":
        assert text.count(value) >= 6, value  # on each of the 6 trackers
    for word in words:
        assert word.replace("\xa0", " ") in text


@pytest.mark.parametrize("lang, paper, names", [
    ("en", "a4", ["Tail", "Head", "Claws", "Wings", "Rage", "Hits north", "Weak: 1 life",
                  "Jack of all Trades", "Queen of Quivers", "King of Knights"]),
    ("fr", "letter", ["Queue", "Tête", "Griffes", "Ailes", "Rage", "Frappe au nord",
                      "Faible\u00a0: 1 vie", "Valet à tout faire", "Dame des Carquois",
                      "Roi des Chevaliers"]),
])
def test_both_languages_render_their_own_card_names(lang, paper, names):
    pdf, manifest = kit(lang, paper)
    text = page_text(pdf, manifest, "monster-cards") + page_text(pdf, manifest, "characters")
    # Compare words, not line breaks (a long name wraps); pypdf reads a no-break space as a space.
    text = " ".join(text.split())
    for name in names:
        assert " ".join(name.split()) in text, name
    reader = PdfReader(io.BytesIO(pdf))
    cover = "\n".join(reader.pages[p["number"] - 1].extract_text() for p in manifest["pages"]
                      if p["kind"] == "cover")
    assert "Zakimos Kleidos" in cover and "2015" in cover and "CC BY-NC-ND" in cover


def test_credits_name_the_author_and_catalogs_match():
    game = load_shipped_game(GAME)
    assert game.designers == ("Zakimos Kleidos",)
    assert compare_catalogs(game.catalogs["en"], game.catalogs["fr"]) == []


def test_card_names_are_at_least_12_pt_and_no_text_goes_below_6_pt():
    game = load_shipped_game(GAME)
    names = ("@suit.{suit}", "@hero.{who}.name", "@game.name")
    for component in game.components:
        elements = [*component.front, *(component.back or ())]
        for element in (e for e in elements if e.type == "text"):
            props = element.props
            # The engine may shrink a text down to its min_size (6 pt when not given).
            floor = props.get("min_size", 6)
            assert floor >= 6 and props["size"] >= floor, element.where
            if props["text"] in names:
                assert floor >= 12, element.where


def test_every_icon_the_kit_names_exists():
    folder = templates_dir() / "icons"
    needed = {f"ch_{s}" for s in (*PARTS, "rage")} | {f"ch_setup_{p}" for p in PARTS}
    needed |= {"ch_hit", "ch_arrow", "ch_arrow_ghost", "ch_jack", "ch_queen", "ch_king",
               "ch_life", "ch_potion", "ch_knockout", "ch_attack"}
    assert all((folder / f"{name}.svg").is_file() for name in needed)


@pytest.mark.parametrize("options", [{"ink_saver": True}, {"duplex": False}])
def test_print_options_render(options):
    pdf, manifest = kit("fr", "a4", **options)
    assert pdf.startswith(b"%PDF")
    assert len(faces(manifest, "monster-cards")) == 44
    if not options.get("duplex", True):
        assert not faces(manifest, "monster-cards", "back")


@pytest.mark.parametrize("lang, paper, licence, taken, own, personal", [
    ("en", "a4", "under a Creative Commons licence, CC BY-NC-ND, as its rules state",
     "takes the facts of its rules (counts, values, the order of play)",
     "every sentence and every drawing in it is this project’s own", "never sell it"),
    ("fr", "letter", "sous licence Creative Commons CC BY-NC-ND, comme l’indiquent ses règles",
     "reprend les faits de ses règles (nombres, valeurs, ordre de jeu)",
     "chaque phrase et chaque dessin y sont de ce projet", "ne le vendez jamais")])
def test_the_original_games_licence_is_on_the_cover_and_every_character(lang, paper, licence, taken, own,
                                                                        personal):
    """The rules text says "Copyright: 2015 Zakimos Kleidos. Creative Commons Licence: CC BY-NC-ND." and
    names no version: the kit prints that licence as stated, with no version, and says truthfully
    what it is: the facts of the game's rules, in this project's own words and drawings, for
    personal play, never sold (issue 33). Every Character card carries the licence too."""
    pdf, manifest = kit(lang, paper)
    cover = " ".join(PdfReader(io.BytesIO(pdf)).pages[0].extract_text().split())
    for words in ("Card Hunter", "Zakimos Kleidos", "2015", licence, taken, own, personal):
        assert " ".join(words.split()) in cover, words
    # No version the source does not name, and the kit no adaptation of a no-derivatives work.
    for words in ("4.0", "International", "creativecommons.org", "adaptation"):
        assert words not in cover, words
    # No link to a search page, and so no QR code: the rules have no page of their own.
    assert "boardgamegeek" not in cover and "http" not in cover
    assert load_shipped_game(GAME).rules_url == ""
    characters = " ".join(page_text(pdf, manifest, "characters").split())
    assert characters.count("Zakimos Kleidos") == 3 and characters.count("CC BY-NC-ND") == 3
    assert "4.0" not in characters
    never_sold = {"en": "for personal play, never sold", "fr": "pour le jeu personnel, jamais vendu"}[lang]
    assert characters.count(never_sold) == 3


def test_a_monster_part_has_one_french_name_that_is_not_a_game():
    """"Partie" is also a game ("une partie gagnée"): a monster's Part is a "Zone" everywhere."""
    import re

    from pnp.core.i18n import common_catalog

    catalog = load_shipped_game(GAME).catalogs["fr"]
    shared = common_catalog("fr").texts  # its "Partie" is a game session, as it should be
    texts = " ".join(text for key, text in catalog.texts.items() if key not in shared)
    assert not re.search(r"\bParties?\b", texts)
    assert "Zone" in catalog.get("aid.legend_part") and "Zone" in catalog.get("how.setup_3")


def test_every_monster_card_shows_its_suit_pictogram_first_and_large():
    """The suits' colours come close in greyscale; their pictograms tell them apart."""
    from pnp.layout.faces import resolve_piece_face
    from pnp.layout.primitives import Icon, Text, absolute
    from pnp.render.fonts import MEASURER

    game = load_shipped_game(GAME)
    component = game.component("monster-cards")
    seen = set()
    for number, piece in enumerate(component.pieces):
        suit = piece.fields["suit"]
        if suit in seen:
            continue
        seen.add(suit)
        copy = sum(p.count for p in component.pieces[:number] if p.id == piece.id) + 1
        drawn = absolute(resolve_piece_face(game, PrintOptions(), MEASURER, component_id="monster-cards",
                                            piece_id="monster",
                                            copy=copy).primitives)
        icons = [p for p in drawn if isinstance(p, Icon) and p.source.endswith(f"ch_{suit}.svg")]
        band, middle = sorted(icons, key=lambda p: p.y)
        name = next(p for p in drawn if isinstance(p, Text) and p.size >= 12)
        assert band.x + band.w <= name.lines[0].x and band.y < 16  # before the name, in the band
        assert middle.w >= 20  # and the largest thing in the middle of the card
    assert seen == {"tail", "head", "claws", "wings", "rage"}
