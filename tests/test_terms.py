"""One way to write each term of a game (issue 33: "Closed season!" beside "Closed Season"), and
one apostrophe in a kit (straight and curly ones were mixed): read over every string of each
game's catalogs, which are everything its kit and its scoring messages say.

A term is written as the kit writes it everywhere; one that is lower case in running text may
take a capital where a sentence or a label starts."""

from __future__ import annotations

import re

import pytest

from pnp.core import games
from pnp.core.i18n import common_catalog
from pnp.template.loader import load_shipped_game

#: Each game's terms, as its kit writes them (its rules' names for its cards, piles and actions).
TERMS = {
    "hunting-fever": {"en": ("Closed Season", "Easy Prey", "Hunt Starts Here", "prey pile"),
                      "fr": ("Chasse interdite", "Proie facile", "pile Proies", "piles Proies", "La chasse démarre ici")},
    "halali": {"en": ("forest exit",), "fr": ("sorties de la forêt",)},
    "card-hunter": {"en": ("Hit Pile", "Light Attack", "Heavy Attack", "Knockout token", "Rage card"),
                    "fr": ("Pile de coups", "Attaque légère", "Attaque lourde", "jeton K.-O.", "carte Rage")},
    "hunting-hunting-beavers": {"en": ("Beaver card", "unit card", "hunting ground", "currency token"),
                                "fr": ("carte Castor", "carte Unité", "territoire de chasse", "jetons de monnaie")},
}
#: Where a sentence or a label starts: the string's start, or after a full stop, a line break, a
#: number or a bullet.
STARTS = re.compile(r"(?:^|[.!?\n]\s*|^\d+\.\s*|[·•]\s*)$")


def _texts(game_id: str, lang: str) -> dict[str, str]:
    catalog = load_shipped_game(game_id).catalogs[lang]
    common = common_catalog(lang)
    return {key: " ".join(text.replace("\u00a0", " ").split()) for key, text in catalog.texts.items()
            if isinstance(text, str) and (key not in common.texts or common.texts[key] != text)}


@pytest.mark.parametrize("lang", ("en", "fr"))
@pytest.mark.parametrize("game_id", tuple(games.SHIPPED))
def test_each_term_is_written_one_way(game_id, lang):
    wrong = []
    texts = _texts(game_id, lang)
    for term in TERMS[game_id][lang]:
        assert any(term.casefold() in text.casefold() for text in texts.values()), term
    for key, text in texts.items():
        for term in TERMS[game_id][lang]:
            for found in re.finditer(re.escape(term), text, re.IGNORECASE):
                written = found.group(0)
                at_start = bool(STARTS.search(text[:found.start()]))
                if written != term and not (at_start and written == term[0].upper() + term[1:]):
                    wrong.append(f"{key}: {written!r} (the kit writes {term!r})")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", ("en", "fr"))
@pytest.mark.parametrize("game_id", tuple(games.SHIPPED))
def test_a_kit_has_one_apostrophe(game_id, lang):
    """The typographic one (’), in both languages: the game's texts and the common ones its
    cover, footers and messages print."""
    texts = {**_texts(game_id, lang), **{f"common.{k}": v for k, v in common_catalog(lang).texts.items()
                                        if isinstance(v, str)}}
    straight = [f"{key}: {text!r}" for key, text in texts.items() if re.search(r"\w'|'\w", text)]
    assert not straight, "\n".join(straight)
