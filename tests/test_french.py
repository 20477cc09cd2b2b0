"""French that reads native: typography, the rules' terms, no calques, on every French catalog."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import pdf_reader, rendered
from pnp.i18n import flatten
from pnp.templates import templates_dir
from pnp.units import PAPERS

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = sorted(templates_dir().glob("*.fr.toml")) + [ROOT / "tests/fixtures/toy_game/acorn-hoard.fr.toml"]


def french(path: Path) -> dict[str, str]:
    import tomllib

    return flatten(tomllib.loads(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.name)
def test_typography(path):
    """A no-break space before : ; ! ? and inside « », and typographic apostrophes."""
    for key, text in french(path).items():
        assert not re.search(r"[ \t][:;!?»]", text), (key, text)
        assert not re.search(r"«[ \t]", text), (key, text)
        assert not re.search(r"\w'\w", text), (key, text)
        # A word directly against ; ! ? is a missing space (the games' own names aside).
        bare = text.replace("Halali!", "").replace("Tally Ho!", "")
        assert not re.search(r"[A-Za-zÀ-ÿ)][;!?]", bare), (key, text)


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.name)
def test_no_calque_colloquialism_or_regionalism(path):
    found = " ".join(french(path).values())
    for phrase in ("sort avec", "n’importe quel mélange", "chambreur", "le plus gros", "marron", "session de score"):
        assert phrase not in found.lower(), phrase


def test_a_card_name_in_running_text_is_between_guillemets_and_never_broken():
    texts = french(templates_dir() / "hunting-fever.fr.toml")
    name = texts["card.hunt_starts_here"]
    running = {key: text for key, text in texts.items()
               if name in text.replace("\u00a0", " ") and text != name}
    assert len(running) >= 4
    unbroken = name.replace(" ", "\u00a0")
    for key, text in running.items():
        assert f"«\u00a0{unbroken}\u00a0»" in text, key


def test_every_paper_has_its_written_name_and_the_french_cover_says_papier_letter():
    common = french(templates_dir() / "common.fr.toml")
    assert {key.removeprefix("paper.") for key in common if key.startswith("paper.")} == set(PAPERS)
    data, _ = rendered("halali", "fr", "letter")
    cover = " ".join(pdf_reader(data).pages[0].extract_text().split())
    assert "papier Letter" in cover and "LETTER" not in cover


@pytest.mark.parametrize("game_id, component, piece, key", [
    ("hunting-fever", "hunt-starts-here", "hunt_starts_here", "card.hunt_starts_here"),
    ("hunting-fever", "player-cards", "closed_season", "card.closed_season"),
    ("card-hunter", "characters", "character", "hero.queen.name"),
])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_cards_own_name_is_one_line_of_at_least_12_pt(game_id, component, piece, key, lang):
    from pnp.layout.faces import resolve_piece_face
    from pnp.layout.primitives import Text, absolute
    from pnp.model import PrintOptions
    from pnp.render.fonts import MEASURER
    from pnp.templates import load_shipped_game

    game = load_shipped_game(game_id)
    name = game.catalogs[lang].get(key)
    copy = 2 if key == "hero.queen.name" else 1  # the Queen is the second character
    face = absolute(resolve_piece_face(game, PrintOptions(lang=lang), MEASURER, component, piece,
                                       copy=copy).primitives)
    [title] = [p for p in face if isinstance(p, Text) and " ".join(l.text for l in p.lines) == name]
    assert len(title.lines) == 1 and title.size >= 12
