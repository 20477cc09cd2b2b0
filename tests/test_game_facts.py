"""The kits print the facts of the rules modules, the one place they are kept.

Counts, points and values are written in the templates and catalogs as
``{facts.NAME}`` and read from ``scoring/<game>.py`` when a kit is loaded. Each
test here hands the kit a changed copy of its game's facts (a test double of the
rules) and checks that the pieces, the tables and the sentences printed change
with them; then the language's own checks: a fact that does not exist, a table
named as if it were one value, a game without rules.
"""

from __future__ import annotations

import copy
import re

import pytest

from helpers import pdf_reader
from pnp.core import games
from scoring import rules
from pnp.kit.build import render_to_memory
from pnp.core.errors import TemplateError
from pnp.template.model import PrintOptions
from pnp.template.loader import load_game, load_shipped_game
from scoring import beavers, card_hunter, halali, hunting_fever
from helpers import CATALOG, GOOD, write_game


@pytest.fixture
def facts_double(monkeypatch):
    """Give one game a changed copy of its facts; the others keep theirs."""

    def use(game_id: str, facts: dict) -> None:
        real = rules.game_facts
        monkeypatch.setattr(rules, "game_facts", lambda asked: facts if asked == game_id else real(asked))

    return use


def printed(game, components: list[str], lang: str = "en") -> str:
    data, _ = render_to_memory(game, PrintOptions(lang=lang), components)
    text = " ".join(page.extract_text() for page in pdf_reader(data).pages)
    return " ".join(text.split())


def pieces(game, component: str) -> list:
    return list(game.component(component).pieces)


def test_halali_tiles_reference_and_summary_follow_the_rules_module(facts_double):
    facts = copy.deepcopy(halali.FACTS)
    facts["box"]["bear"], facts["points"]["bear"], facts["tiles"] = 3, 12, 49
    facts["teams"]["duck"] = "brown"
    facts_double("halali", facts)
    game = load_shipped_game("halali")
    [bear] = [p for p in pieces(game, "tiles") if p.id == "bear"]
    [duck] = [p for p in pieces(game, "tiles") if p.id == "duck"]
    assert (bear.count, bear.fields["points"]) == (3, 12)
    assert (duck.fields["team"], duck.fields["_team_tone"]) == ("brown", "team_brown")
    trees = [p.count for p in pieces(game, "tiles") if p.id == "tree"]
    assert sum(trees) == halali.BOX["tree"]  # two designs, the box's trees between them
    reference = printed(game, ["reference", "how-to-play"])
    assert "The 49 tiles" in reference and "The 48 tiles" not in reference
    assert "3×" in reference and "12" in reference
    assert "Mélangez les 49 tuiles" in printed(game, ["how-to-play"], "fr")


def test_hunting_fever_cards_aids_and_words_follow_the_rules_module(facts_double):
    facts = copy.deepcopy(hunting_fever.FACTS)
    facts["colors"] = ["yellow", "green", "red", "blue"]
    facts["players"]["max"] = 4
    facts["set"]["wolf"], facts["prey"]["wolf"], facts["lodge_bonus"] = 3, 6, 5
    facts_double("hunting-fever", facts)
    game = load_shipped_game("hunting-fever")
    cards = game.component("player-cards")
    assert cards.sets == ("yellow", "green", "red", "blue") and game.component("lodges").sets == cards.sets
    [wolf] = [p for p in cards.pieces if p.id == "wolf"]
    assert (wolf.count, wolf.fields["prey"]) == (3, 6)
    assert game.players == (3, 4) and pieces(game, "player-aids")[0].count == 4
    aid = printed(game, ["player-aids"])
    assert "+6" in aid and "+5" in aid and "Lodge on its 5 side" in aid
    assert "Player cards (4 sets)" in game.catalogs["en"].get("component.player-cards.name")


def test_card_hunter_deck_and_setup_follow_the_rules_module(facts_double):
    facts = copy.deepcopy(card_hunter.FACTS)
    facts["monster"]["tail"]["tail"][1] = 5
    facts["monster_cards"], facts["part_cards"] = 47, 43
    facts["lives"], facts["knockouts"] = 5, 2
    facts_double("card-hunter", facts)
    game = load_shipped_game("card-hunter")
    assert sum(p.count for p in pieces(game, "monster-cards")) == 47
    assert [p.count for p in pieces(game, "tokens") if p.id == "knockout_token"] == [2]
    words = game.catalogs["fr"]
    assert "47 cartes" in words.get("component.monster-cards.cut")
    assert "compteur de vies sur 5" in words.get("how.setup_4") and "Posez les 2 jetons" in words.get("how.setup_4")
    assert "start: 5 lives" in printed(game, ["characters", "trackers"])


def test_beavers_decks_and_tables_follow_the_rules_module(facts_double):
    facts = copy.deepcopy(beavers.FACTS)
    facts["units"]["hunter"], facts["attack"]["hunter"], facts["unit_cards"] = 70, 7, 142
    facts["tokens"]["large"]["value"] = 10
    facts["hand"] = 5
    facts_double("hunting-hunting-beavers", facts)
    game = load_shipped_game("hunting-hunting-beavers")
    [hunter] = [p for p in pieces(game, "unit-cards") if p.fields["unit"] == "hunter"]
    assert (hunter.count, hunter.fields["attack"]) == (70, 7)
    assert [p.fields["value"] for p in pieces(game, "currency")] == [1, 10]
    table = next(e for e in game.component("player-aids").front if e.type == "table")
    assert ["@unit.hunter", "7", "2", "70"] in table.props["rows"]
    assert game.catalogs["en"].get("component.unit-cards.cut").startswith("142 cards")
    assert "never past 5 in hand" in printed(game, ["player-aids"])


@pytest.mark.parametrize("game_id", sorted(games.SHIPPED))
def test_each_kit_names_its_facts_and_prints_them_without_placeholders(game_id):
    """Every kit reads its facts (no literal copy left in the piece counts), in both languages."""
    game = load_shipped_game(game_id)
    for catalog in game.catalogs.values():
        assert not [key for key, text in catalog.texts.items() if "{facts." in text]
    source = games.template_file(game_id).read_text(encoding="utf-8")
    assert "{facts." in source
    # The players a kit's cover prints are the rules' (Card Hunter: the base game's 1 to 3).
    expected = rules.game_facts(game_id)["players"]
    low, high = (expected, expected) if isinstance(expected, int) else (expected["min"], expected["max"])
    assert game.players == (low, high)


# -- the language's checks ------------------------------------------------------------

def tiny(tmp_path, game="halali", text="x", count="1", credits="Ours."):
    """The small template of the template tests, for ``game``, with a text, a count and credits."""
    template = GOOD.replace('id = "tiny"', f'id = "{game}"').replace('text = "@card.{id}"', f'text = "{text}"')
    template = template.replace("count = 3", f"count = {count}")
    words = {lang: CATALOG.format(name="Tiny", fox="Fox").replace('"By someone."', f'"{credits}"')
             for lang in ("en", "fr")}
    return write_game(tmp_path, template, words["en"], words["fr"])


def test_a_fact_fills_a_text_a_count_and_arithmetic(tmp_path):
    game = load_game(tiny(tmp_path, text="{facts.points.bear:+d} / {facts.box.fox}×",
                          count='"{facts.box.tree} - 8"', credits="{facts.tiles} tiles"))
    [element] = game.component("cards").front
    assert element.props["text"] == "+10 / 6×"
    assert game.component("cards").pieces[0].count == 7
    assert game.catalogs["fr"].get("game.credits") == "48 tiles"


@pytest.mark.parametrize("change, message", [
    ({"text": "{facts.points.beer}"},
     r"tiny.toml: components.cards.front\[0\].text: \{facts.points.beer\}: no such fact; facts.points has bear, duck"),
    ({"text": "{facts.points}"}, r"\.text: \{facts.points\}: facts.points is a table of facts \(bear, duck"),
    ({"count": '"{facts.tiles.all}"'},
     r"pieces\[0\].count: \{facts.tiles.all\}: facts.tiles is 48, which has no 'all'"),
    ({"credits": "{facts.colors}"}, r"tiny.en.toml: game.credits: \{facts.colors\}: no such fact"),
    ({"game": "tiny", "text": "{facts.points.bear}"},
     r"\.text: \{facts.points.bear\}: the game 'tiny' has no facts \(no rules are registered for it\)"),
])
def test_a_fact_that_cannot_be_read_names_the_file_the_key_and_what_exists(tmp_path, change, message):
    with pytest.raises(TemplateError, match=message):
        load_game(tiny(tmp_path, **change))


def test_a_list_fact_fits_only_where_a_list_is_taken(tmp_path):
    path = tiny(tmp_path, game="hunting-fever", text="{facts.colors}")
    with pytest.raises(TemplateError, match=re.escape("{facts.colors} is a list (yellow, green, red, blue, black)")):
        load_game(path)
