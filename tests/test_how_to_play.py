"""Every kit has a one-page rules summary ("How to play"): goal, setup, a turn, the end and the
scoring, in both languages, readable at the table, on A4 and on Letter."""

from __future__ import annotations

import pytest

from helpers import front_items, pdf_reader, rendered
from pnp.core.i18n import LANGUAGES
from pnp.layout.faces import resolve_piece_face
from pnp.layout.primitives import Icon, Text, absolute
from pnp.template.model import PrintOptions
from pnp.render.fonts import MEASURER
from pnp.template.loader import game_files, load_shipped_game

GAMES = ["hunting-fever", "halali", "card-hunter", "hunting-hunting-beavers"]
#: The parts every summary has, and one more key per game for its turn.
PARTS = ["how.goal_title", "how.goal", "how.setup_title", "how.setup_1", "how.end_title", "how.end"]
TURN = {"hunting-fever": "how.round_1", "halali": "how.turn_flip", "card-hunter": "how.round_1",
        "hunting-hunting-beavers": "how.phase_planning"}


def page_text(game_id: str, lang: str, paper: str) -> str:
    data, manifest = rendered(game_id, lang, paper)
    [page] = [i for i, p in enumerate(manifest["pages"]) if "how-to-play" in p.get("components", ())]
    return " ".join(pdf_reader(data).pages[page].extract_text().split())


def words(text: str) -> str:
    """A catalog text as the PDF's text layer gives it back: spaces of any kind, one each."""
    return " ".join(text.replace("\u00a0", " ").split())


def test_every_shipped_kit_has_one():
    assert sorted(game_files()) == sorted(GAMES)
    for game_id in GAMES:
        component = load_shipped_game(game_id).component("how-to-play")
        assert [(p.id, p.count) for p in component.pieces] == [("how_to_play", 1)]
        assert component.kind == "sheet" and component.cut is False
        w, h = component.size
        assert w <= 194 and h <= 258.4  # the printable area of A4 and of Letter


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("lang, paper", [("en", "a4"), ("fr", "letter"), ("fr", "a4"), ("en", "letter")])
def test_the_summary_is_printed_whole_in_each_language(game_id, lang, paper):
    text = page_text(game_id, lang, paper)
    catalog = load_shipped_game(game_id).catalogs[lang]
    for key in (*PARTS, TURN[game_id], "how.title"):
        printed = words(catalog.get(key))
        # Long texts wrap: their first and last words are on the page, in order.
        head, tail = " ".join(printed.split()[:4]), " ".join(printed.split()[-3:])
        assert head in text and tail in text, (key, printed)
    other = "fr" if lang == "en" else "en"
    assert words(load_shipped_game(game_id).catalogs[other].get("how.goal_title")) not in text.split()[:40]
    _, manifest = rendered(game_id, lang, paper)
    [item] = front_items(manifest, "how-to-play")
    assert (item["w"], item["h"]) == (190.0, 255.0)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_it_reads_at_the_table_with_the_kits_pictograms(game_id, lang):
    game = load_shipped_game(game_id)
    face = absolute(resolve_piece_face(game, PrintOptions(lang=lang), MEASURER, component_id="how-to-play",
                                       piece_id="how_to_play").primitives)
    texts = [p for p in face if isinstance(p, Text)]
    body = [p for p in texts if sum(len(line.text) for line in p.lines) > 60]
    assert len(body) >= 6 and min(p.size for p in body) >= 10  # the paragraphs, at 10 pt or more
    assert min(p.size for p in texts) >= 8
    headings = [p for p in texts if p.style == "black" and p.size >= 11]
    assert len(headings) >= 5  # title, goal, setup, turn, end
    icons = {p.source for p in face if isinstance(p, Icon)}
    assert len(icons) >= 5
    # Nothing runs off the page.
    assert all(0 <= line.x and line.y <= 255 for p in texts for line in p.lines)
