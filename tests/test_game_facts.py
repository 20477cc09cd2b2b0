"""Facts printed in the kits agree with the rules modules, the one place code keeps them.

Card values, tile counts and points, beaver values, unit counts and the other
numbers a template or catalog prints are read from the files as data and
compared with ``scoring/<game>.py``.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter

import pytest

from pnp.i18n import LANGUAGES, game_catalog
from pnp.templates import templates_dir
from scoring import beavers, card_hunter, halali, hunting_fever


def template(game: str) -> dict:
    return tomllib.loads((templates_dir() / f"{game}.toml").read_text(encoding="utf-8"))


def component(game: str, component_id: str) -> dict:
    [found] = [c for c in template(game)["components"] if c["id"] == component_id]
    return found


def counted(pieces: list[dict], field: str) -> Counter:
    """How many copies have each value of ``field``."""
    counts: Counter = Counter()
    for piece in pieces:
        counts[piece[field]] += piece["count"]
    return counts


def table_rows(part: dict) -> list[list[str]]:
    """Every row of every table element of a component (its faces and its pieces' faces)."""
    elements = [*part.get("front", []), *part.get("back", [])]
    for piece in part.get("pieces", []):
        elements += [*piece.get("front", []), *piece.get("back", [])]
    return [row for element in elements if element.get("type") == "table" for row in element["rows"]]


def number(text: str) -> int:
    """A number as printed: "+4", "−4" (a true minus), "2×"."""
    return int(text.replace("\u2212", "-").replace("×", "").replace("+", ""))


def rows_for(rows: list[list[str]], prefix: str) -> dict[str, list[str]]:
    """Rows whose first cell is ``@<prefix>.<name>``, by name."""
    return {row[0][len(prefix) + 2:]: row[1:] for row in rows if row and row[0].startswith(f"@{prefix}.")}


# -- Hunting Fever ----------------------------------------------------------------


def test_hunting_fever_player_cards_carry_the_rules_values_and_set():
    cards = component("hunting-fever", "player-cards")
    assert len(cards["sets"]) == hunting_fever.MAX_PLAYERS  # one set of cards per player colour
    assert counted(cards["pieces"], "id") == Counter(hunting_fever.SET)
    for piece in cards["pieces"]:
        assert piece["prey"] == hunting_fever.PREY_POINTS[piece["id"]], piece["id"]
        assert piece["hand"] == hunting_fever.HAND_POINTS[piece["id"]], piece["id"]
    assert len(component("hunting-fever", "lodges")["sets"]) == hunting_fever.MAX_PLAYERS


@pytest.mark.parametrize("part", ["player-aids", "how-to-play"])
def test_hunting_fever_aid_and_summary_print_the_scoring_table(part):
    rows = table_rows(component("hunting-fever", part))
    cards = rows_for(rows, "card")
    assert set(cards) == set(hunting_fever.CARDS)
    for card, (prey, hand) in cards.items():
        assert (number(prey), number(hand)) == (hunting_fever.PREY_POINTS[card], hunting_fever.HAND_POINTS[card])
    aid = rows_for(rows, "aid")
    assert number(aid["under_lodge"][0]) == hunting_fever.HUNTER_UNDER_LODGE_POINTS
    assert number(aid["lodge_bonus"][0]) == hunting_fever.FLIPPED_LODGE_POINTS


# -- Halali! ----------------------------------------------------------------------


def test_halali_tiles_are_the_box_with_the_rules_points_and_sides():
    tiles = component("halali", "tiles")["pieces"]
    assert counted(tiles, "id") == Counter(halali.BOX)
    for piece in tiles:
        assert piece["points"] == halali.POINTS[piece["id"]], piece["id"]
        side = next((role for role, own in halali.OWN.items() if piece["id"] in own), "green")
        assert piece["team"] == side, piece["id"]


def test_halali_reference_card_prints_the_box_and_points():
    tiles = rows_for(table_rows(component("halali", "reference")), "card")
    assert set(tiles) == set(halali.TILES)
    for tile, (count, points, *_) in tiles.items():
        assert (number(count), number(points)) == (halali.BOX[tile], halali.POINTS[tile]), tile
    for lang in LANGUAGES:
        assert str(sum(halali.BOX.values())) in game_catalog("halali", lang).get("ref.tiles_title")


def test_halali_summary_prints_each_tiles_points_beside_its_pictogram():
    elements = component("halali", "how-to-play")["front"]
    strip = {}
    for icon, text in zip(elements, elements[1:]):
        if icon["type"] == "icon" and text["type"] == "text" and str(text["text"]).isdigit():
            strip[icon["name"]] = int(text["text"])
    tiles = {name.removeprefix("halali_").removesuffix("_deciduous"): points for name, points in strip.items()}
    assert tiles == halali.POINTS


# -- Hunting Hunting Beavers -----------------------------------------------------


def test_beavers_cards_are_the_rules_deck():
    beaver_cards = component("hunting-hunting-beavers", "beaver-cards")["pieces"]
    assert counted(beaver_cards, "beavers") == Counter(beavers.BEAVER_CARDS)
    # One card per hunting ground each round empties the pile in exactly ten rounds.
    assert beavers.HUNTING_GROUNDS * beavers.ROUNDS == sum(beavers.BEAVER_CARDS.values())
    for lang in LANGUAGES:
        assert str(sum(beavers.BEAVER_CARDS.values())) in game_catalog("hunting-hunting-beavers", lang).get(
            "component.beaver-cards.cut")


def test_beavers_units_count_attack_and_defense():
    units = component("hunting-hunting-beavers", "unit-cards")["pieces"]
    assert counted(units, "unit") == Counter(beavers.UNITS)
    for piece in units:
        assert (piece["attack"], piece["defense"]) == (beavers.ATTACK[piece["unit"]], beavers.DEFENSE[piece["unit"]])
    printed = [rows_for(table_rows(component("hunting-hunting-beavers", c)), "unit")
               for c in ("player-aids", "planning-boards", "how-to-play")]
    assert all(set(table) == set(beavers.UNITS) for table in printed)
    for table in printed:
        for unit, cells in table.items():
            assert [number(cells[0]), number(cells[1])] == [beavers.ATTACK[unit], beavers.DEFENSE[unit]], unit
            if len(cells) > 2:
                assert number(cells[2]) == beavers.UNITS[unit]


def test_beavers_planning_boards_are_the_player_colours():
    boards = component("hunting-hunting-beavers", "planning-boards")["pieces"]
    assert [board["color"] for board in boards] == list(beavers.COLORS)


# -- Card Hunter ------------------------------------------------------------------


def test_card_hunter_counts():
    monster = component("card-hunter", "monster-cards")["pieces"]
    assert sum(piece["count"] for piece in monster) == card_hunter.MONSTER_CARDS
    assert counted(monster, "suit")["rage"] == card_hunter.RAGE_CARDS
    assert sum(p["count"] for p in component("card-hunter", "random-cards")["pieces"]) == card_hunter.RANDOM_CARDS
    assert [p["who"] for p in component("card-hunter", "characters")["pieces"]] == list(card_hunter.CHARACTERS)
    trackers = component("card-hunter", "trackers")["pieces"]
    assert counted(trackers, "_kind") == Counter(life=len(card_hunter.CHARACTERS), potion=len(card_hunter.CHARACTERS))
    tokens = counted(component("card-hunter", "tokens")["pieces"], "id")
    assert tokens["knockout_token"] == card_hunter.KNOCKOUT_TOKENS


@pytest.mark.parametrize("lang", LANGUAGES)
def test_card_hunter_lives_and_potions_by_difficulty(lang):
    words = game_catalog("card-hunter", lang)
    assert [int(n) for n in re.findall(r"\d+", words.get("hero.potion_levels"))] == [
        card_hunter.POTIONS[d] for d in card_hunter.DIFFICULTIES]
    for difficulty, potions in card_hunter.POTIONS.items():
        assert words.get(f"difficulty.{difficulty}") in words.get(f"tracker.potion.{potions}")
    assert str(card_hunter.LIVES) in words.get(f"tracker.life.{card_hunter.LIVES}")


@pytest.mark.parametrize("game", ["hunting-fever", "halali", "card-hunter", "hunting-hunting-beavers"])
def test_the_kit_cover_and_the_companion_agree_on_the_players(game):
    from scoring import find_rules

    low, high = template(game)["game"]["players"]
    rules = find_rules(game).player_range
    if game == "card-hunter":
        # The kit prints the base game's 1 to 3; the companion also accepts the 4-player variant.
        assert (low, high + 1) == rules
    else:
        assert (low, high) == rules


# -- What the rules summaries and aids say in words ---------------------------------


def digits(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_summaries_count_what_the_rules_count(lang):
    fever = game_catalog("hunting-fever", lang)
    # "1 Hunter, 2 Wolves, 3 Rabbits, 3 Carrots, 1 Closed Season", in the rules' card order.
    assert digits(fever.get("how.setup_1")) == [hunting_fever.SET[c] for c in hunting_fever.CARDS]
    assert digits(fever.get("how.facts"))[:2] == [hunting_fever.MIN_PLAYERS, hunting_fever.MAX_PLAYERS]

    halali_words = game_catalog("halali", lang)
    assert digits(halali_words.get("how.setup_1")) == [sum(halali.BOX.values())]
    assert digits(halali_words.get("ref.setup"))[0] == sum(halali.BOX.values())

    hunter = game_catalog("card-hunter", lang)
    rage, others = digits(hunter.get("how.setup_1"))
    assert (rage, others) == (card_hunter.RAGE_CARDS, card_hunter.MONSTER_CARDS - card_hunter.RAGE_CARDS)
    lives, *potions, tokens = digits(hunter.get("how.setup_4"))
    assert lives == card_hunter.LIVES and tokens == card_hunter.KNOCKOUT_TOKENS
    assert potions == [card_hunter.POTIONS[d] for d in card_hunter.DIFFICULTIES]

    beaver_words = game_catalog("hunting-hunting-beavers", lang)
    deck = sum(beavers.BEAVER_CARDS.values())
    assert digits(beaver_words.get("how.setup_2"))[0] == sum(beavers.UNITS.values())
    assert digits(beaver_words.get("how.setup_3"))[0] == deck
    assert digits(beaver_words.get("aid.setup"))[0] == beavers.HAND and deck in digits(beaver_words.get("aid.setup"))
    assert digits(beaver_words.get("aid.planning"))[:2] == [beavers.DRAW, beavers.HAND]
    assert deck in digits(beaver_words.get("board.beaver_pile_hint"))
    # The reading that makes the deck last: setup's cards are round 1's, rounds 2 to 10 add theirs.
    assert [2, beavers.ROUNDS] == digits(beaver_words.get("board.beaver_pile_hint"))[-2:]
