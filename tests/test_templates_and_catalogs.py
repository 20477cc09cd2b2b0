"""Component definitions are validated on load; catalogs match across languages."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import CATALOG, GOOD, write_game
from pnp.core.errors import CatalogError, TemplateError
from pnp.core.i18n import LANGUAGES, compare_catalogs, load_catalog, placeholders
from pnp.template.loader import game_files, load_game, load_shipped_game, templates_dir

def test_a_good_template_loads(tmp_path):
    game = load_game(write_game(tmp_path))
    assert game.id == "tiny" and game.players == (2, 4)
    component = game.component("cards")
    assert component.size == (63.5, 88.9)
    assert [(p.id, p.count, dict(p.fields)) for p in component.pieces] == [("fox", 3, {"value": 5})]


@pytest.mark.parametrize("change, expected", [
    (("count = 3", "count = 0"), r"tiny.toml: components.cards.pieces\[0\].count: expected a positive whole number, got 0"),
    (("count = 3", "count = 2.5"), r"pieces\[0\].count: expected a positive whole number"),
    (("count = 3", 'count = "3"'), r"pieces\[0\].count: expected a positive whole number, got '3'"),
    (("value = 5", 'value = "five"'), r"pieces\[0\].value: expected a value of type int"),
    (('size = "poker"', 'size = "huge"'), r"components.cards.size: expected a card size name"),
    (("size = 14", "size = 14\ncolour = \"red\""), r"components.cards.front\[0\]: unknown key 'colour'"),
    (('type = "text"', 'type = "texte"'), r"front\[0\].type: expected one of background, rect"),
    (('x = 4', 'x = "w +"'), r"front\[0\].x: expected a length in mm"),
    (('id = "fox"', 'id = "fox"\nspeed = 3'), r"pieces\[0\]: unknown key 'speed'"),
    (('players = [2, 4]', 'players = [4, 2]'), r"game.players: expected \[min, max\] player counts"),
    (('size = "poker"', 'size = "poker"\nshrink = "yes"'), r"components.cards.shrink: expected true or false"),
    (('size = "poker"', 'size = "poker"\nshrink = true\nback = [{ type = "background", fill = "ink" }]'),
     r"components.cards.shrink: expected true only on a component without backs"),
    # Once crashes of the loader, now one line each like every other mistake.
    (('size = "poker"', 'size = []'), r"components.cards.size: expected a card size name, 'WxH' or \[w, h\] "
                                     r"\(unknown size \[\]; expected a name, 'WxH' or \[w, h\]\), got a list"),
    (('size = "poker"', 'size = ["w"]'), r"components.cards.size: .*\(a size has two values, not 1\)"),
    (('size = "poker"', 'size = "poker"\ncorner_radius = "3"'), r"components.cards.corner_radius: expected a length "
                                                                r"in mm >= 0, got '3'"),
    (('size = "poker"', 'size = "poker"\noverlap = [12]'), r"components.cards.overlap: expected a length in mm >= 0, "
                                                           r"got a list"),
])
def test_bad_templates_name_file_key_and_expected_form(tmp_path, change, expected):
    text = GOOD.replace(*change)
    with pytest.raises(TemplateError, match=expected):
        load_game(write_game(tmp_path, text))


RULES_PAGE = """
[[components]]
id = "{id}"
kind = "sheet"
cut = false
with_cover = true
size = "190x255"

[[components.front]]
type = "background"
fill = "paper"

[[components.pieces]]
id = "page"
count = 1
"""
RULES_WORDS = """
[component.{id}]
name = "Rules"
cut = "Keep it on the table."
"""


def _with_rules(folder: Path, *ids: str, text: str = GOOD) -> Path:
    text += "".join(RULES_PAGE.format(id=i) for i in ids)
    words = "".join(RULES_WORDS.format(id=i) for i in ids)
    return write_game(folder, text, CATALOG.format(name="Tiny", fox="Fox") + words,
                      CATALOG.format(name="Petit", fox="Renard") + words)


def test_the_page_a_kit_opens_with_is_one_uncut_page_of_one_component(tmp_path):
    from pnp.kit.build import render_to_memory
    from pnp.template.model import PrintOptions

    game = load_game(_with_rules(tmp_path, "rules"))
    assert game.component("rules").with_cover and not game.component("cards").with_cover
    _, manifest = render_to_memory(game, PrintOptions())
    # Printed on one side, the cards go below the cover's short text; the rules page follows it.
    assert [(p["kind"], p.get("components")) for p in manifest["pages"][:2]] == [
        ("cover", ["cards"]), ("cover", ["rules"])]
    for change, expected in [
        (('size = "poker"', 'size = "poker"\nwith_cover = true'),
         r"components.cards.with_cover: expected true only on one page with cut = false"),
        (("with_cover = true", 'with_cover = "yes"'), r"components.rules.with_cover: expected true or false"),
    ]:
        text = (GOOD + RULES_PAGE.format(id="rules")).replace(*change)
        with pytest.raises(TemplateError, match=expected):
            load_game(write_game(tmp_path, text, CATALOG.format(name="Tiny", fox="Fox") + RULES_WORDS.format(id="rules"),
                                 CATALOG.format(name="Petit", fox="Renard") + RULES_WORDS.format(id="rules")))
    with pytest.raises(TemplateError, match=r"components.more-rules.with_cover: expected one component that "
                                            r"opens the kit; components.rules already does"):
        load_game(_with_rules(tmp_path, "rules", "more-rules"))


def test_every_problem_is_reported_at_once(tmp_path):
    text = GOOD.replace("count = 3", "count = -1").replace('size = "poker"', 'size = "huge"')
    with pytest.raises(TemplateError) as caught:
        load_game(write_game(tmp_path, text))
    assert len(caught.value.problems) == 2


def test_a_text_missing_in_one_language_is_reported(tmp_path):
    fr = CATALOG.format(name="Petit", fox="Renard").replace('fox = "Renard"', "")
    with pytest.raises(TemplateError, match=r"text 'card.fox' missing in fr \(piece fox\)"):
        load_game(write_game(tmp_path, fr=fr))


def test_broken_toml_is_one_clear_error(tmp_path):
    with pytest.raises(TemplateError, match=r"tiny.toml: not valid TOML"):
        load_game(write_game(tmp_path, GOOD + "\n[[[oops"))


def test_missing_catalog_file_is_an_error(tmp_path):
    path = write_game(tmp_path)
    (tmp_path / "tiny.fr.toml").unlink()
    with pytest.raises(TemplateError, match="missing fr catalog"):
        load_game(path)


def test_catalog_lookup_is_strict():
    catalog = load_shipped_game("hunting-fever").catalogs["fr"]
    assert catalog.get("card.closed_season") == "Chasse interdite"
    with pytest.raises(CatalogError, match="missing text 'card.unicorn' \\(fr\\)"):
        catalog.get("card.unicorn")


def test_shipped_games_have_the_same_keys_and_placeholders_in_both_languages():
    folder = templates_dir()
    stems = ["common", *game_files()]
    for stem in stems:
        en = load_catalog(folder / f"{stem}.en.toml", "en")
        fr = load_catalog(folder / f"{stem}.fr.toml", "fr")
        assert compare_catalogs(en, fr) == [], stem


def test_the_common_catalogs_name_no_game_facts():
    # A game's facts are written into its own texts only (pnp.template.loader.load_game_catalogs),
    # so that the common catalog of a language need not be read before one of its texts is.
    for lang in LANGUAGES:
        texts = load_catalog(templates_dir() / f"common.{lang}.toml", lang).texts
        assert [key for key, text in texts.items() if "{facts." in text] == [], lang


def test_a_game_catalog_reads_as_its_own_texts_over_the_common_ones(tmp_path):
    import pickle

    from pnp.core.i18n import common_catalog, game_catalog

    for lang in LANGUAGES:
        catalog = game_catalog("halali", lang)
        own = load_catalog(templates_dir() / f"halali.{lang}.toml", lang)
        merged = common_catalog(lang).merged(own)
        assert catalog.texts["game.name"] == own.texts["game.name"]
        assert catalog.texts == merged.texts and list(catalog.texts) == list(merged.texts)
        assert dict(catalog.texts.items()) == merged.texts and len(catalog.texts) == len(merged.texts)
        assert catalog.has("cover.subtitle") and merged.has("cover.subtitle") and not catalog.has("no.such.key")
        assert catalog.raw("no.such.key") is None and catalog.sources == merged.sources
        assert pickle.loads(pickle.dumps(catalog)) == merged


def test_compare_catalogs_finds_missing_keys_and_placeholder_drift(tmp_path):
    from pnp.core.i18n import Catalog
    en = Catalog("en", {"a": "Sheet {n} of {total}", "b": "x"})
    fr = Catalog("fr", {"a": "Feuille {n}"})
    problems = compare_catalogs(en, fr)
    assert "'b' is in en but not in fr" in problems
    assert any("'a' has placeholders ['n', 'total'] in en but ['n'] in fr" in p for p in problems)
    assert placeholders("{x} and {y:+d}") == {"x", "y"}


def test_french_uses_the_french_rules_terms():
    fr = load_shipped_game("hunting-fever").catalogs["fr"]
    terms = {fr.get(k) for k in ("card.hunter", "card.wolf", "card.rabbit", "card.carrot",
                                  "card.closed_season", "card.lodge", "card.hunt_starts_here",
                                  "label.prey_pile")}
    assert terms == {"Chasseur", "Loup", "Lapin", "Carotte", "Chasse interdite", "Pavillon de chasse",
                     "La chasse démarre ici", "Pile Proies"}
    assert "Proie facile" in fr.get("lodge.easy_prey")


def test_each_shipped_game_loads_in_both_languages():
    for game_id in game_files():
        game = load_shipped_game(game_id)
        assert set(game.catalogs) == set(LANGUAGES)


def test_when_conditions_combine_with_and_and_or():
    from pnp.template.language import parse_condition

    values = {"suit": "rage", "hits": 0, "part": "tail"}

    def shown(when):
        return parse_condition(when).holds(values)

    assert shown("suit=rage") and not shown("!suit=rage") and not shown("hits")
    assert shown("suit=rage & part=tail") and not shown("suit=rage & part=head")
    assert shown("suit=tail | suit=rage") and not shown("suit=tail | hits")
    assert shown("part=head | suit=rage & !hits")
    assert not shown("part=head & suit=rage | hits")
