"""French that reads native: typography, the rules' terms, no calques, on every French catalog."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers import pdf_reader, rendered
from pnp.core.i18n import flatten
from pnp.template.loader import templates_dir
from pnp.core.units import PAPERS
from french_typesetting import typesetting_faults

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = sorted(templates_dir().glob("*.fr.toml")) + [ROOT / "tests/fixtures/toy_game/acorn-hoard.fr.toml"]


def french(path: Path) -> dict[str, str]:
    import tomllib

    return flatten(tomllib.loads(path.read_text(encoding="utf-8")))


def every_french_string() -> dict[str, str]:
    """Every French string the project prints or shows: every key of every French catalog (the
    kits, scoresheets, covers, command messages and web pages all take their words from these)
    and the texts templates write out themselves (numbers, marks), which French kits print too."""
    import tomllib

    strings = {f"{path.name}:{key}": text for path in CATALOGS for key, text in french(path).items()}
    for path in [*sorted(templates_dir().glob("*.toml")), ROOT / "tests/fixtures/toy_game/acorn-hoard.toml"]:
        if path.name.count(".") > 1 or path.name == "colors.toml":
            continue  # a catalog, read above, or the player colours
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        for c, component in enumerate(raw.get("components", [])):
            for face in ("front", "back"):
                for number, element in enumerate(component.get(face, [])):
                    cells = [element.get("text")] + [cell for row in element.get("rows", []) for cell in row]
                    for cell in cells:
                        if isinstance(cell, str) and not cell.startswith("@"):
                            strings[f"{path.name}:components[{c}].{face}[{number}]"] = cell
    return strings


def test_every_french_string_is_typeset_by_the_french_rules():
    strings = every_french_string()
    assert len(strings) > 900
    faults = {key: typesetting_faults(text) for key, text in strings.items()}
    assert {key: found for key, found in faults.items() if found} == {}


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


def test_french_messages_built_from_parts_keep_the_no_break_space():
    """A file named before its problem, a game before a command: the colon comes from the catalog."""
    from pnp.core.i18n import game_catalog
    from scoring.errors import SessionFileError
    from scoring.messages import Messages
    from scoring.report import file_error_text

    words = Messages(game_catalog("hunting-fever", "fr"))
    text = file_error_text(SessionFileError("file_not_found", path="soirée.toml"), words)
    assert text.startswith("soirée.toml\u00a0: ") and typesetting_faults(text) == []
    assert words.text("where.at", where="Chasse en folie", what="pnp score add x.toml") == \
        "Chasse en folie\u00a0: pnp score add x.toml"


def test_the_french_web_pages_are_typeset_by_the_french_rules(tmp_path):
    """Every page a French table sees: start, table, entry, result and history."""
    from starlette.testclient import TestClient

    from pnp.web.app import create_app
    from pnp.web.db import Database

    db = Database.in_folder(tmp_path)
    try:
        client = TestClient(create_app(db, "organiser-secret", "http://192.168.1.20:8765"),
                            follow_redirects=False)
        client.get("/", params={"token": "organiser-secret"})
        home = client.get("/", params={"lang": "fr"})
        token = re.search(r'name="csrf" value="([0-9a-f]+)"', home.text).group(1)
        fields = {"csrf": token, "game": "hunting-fever", "lang": "fr", "player1": "Ann",
                  "player2": "Ben", "player3": "Cat"}
        table = client.post("/sessions", data=fields).headers["location"]
        pages = {"home": home, "table": client.get(table), "enter": client.get(f"{table}/enter"),
                 "result": client.get(f"{table}/result"), "history": client.get("/history", params={"lang": "fr"}),
                 "too few players": client.post("/sessions", data={**fields, "player3": ""})}
    finally:
        db.close()
    for name, page in pages.items():
        assert '<html lang="fr">' in page.text, name
        shown = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", page.text, flags=re.S)
        shown = re.sub(r"<[^>]+>", " ", shown)  # the words, not the markup
        assert typesetting_faults(shown) == [], (name, typesetting_faults(shown))


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
    from pnp.template.model import PrintOptions
    from pnp.render.fonts import MEASURER
    from pnp.template.loader import load_shipped_game

    game = load_shipped_game(game_id)
    name = game.catalogs[lang].get(key)
    copy = 2 if key == "hero.queen.name" else 1  # the Queen is the second character
    face = absolute(resolve_piece_face(game, PrintOptions(lang=lang), MEASURER, component_id=component,
                                       piece_id=piece,
                                       copy=copy).primitives)
    [title] = [p for p in face if isinstance(p, Text) and " ".join(l.text for l in p.lines) == name]
    assert len(title.lines) == 1 and title.size >= 12
