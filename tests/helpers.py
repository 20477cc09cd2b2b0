"""What several test modules share: kits rendered once, small templates written to a folder, readers.

Test modules import these (``from helpers import rendered``); they never import one another.
Fixtures built on them are in conftest.py.
"""

from __future__ import annotations

import importlib.util
import io
import sys
from functools import lru_cache
from pathlib import Path

from pnp.kit.build import render_to_memory
from pnp.template.loader import load_shipped_game
from pnp.template.model import PrintOptions

#: The fifth game of tests/fixtures/toy_game: template, catalogs and rules kept outside pnp.
TOY = Path(__file__).parent / "fixtures" / "toy_game"


@lru_cache(maxsize=None)
def rendered(game_id: str, lang: str = "en", paper: str = "a4", **options) -> tuple[bytes, dict]:
    """Render a shipped kit once and reuse it across tests."""
    game = load_shipped_game(game_id)
    return render_to_memory(game, PrintOptions(lang=lang, paper=paper, **options))


def pdf_reader(data: bytes):
    from pypdf import PdfReader

    return PdfReader(io.BytesIO(data))


def front_items(manifest: dict, component: str | None = None) -> list[dict]:
    """Every piece counted once: the front faces."""
    return [item for page in manifest["pages"] for item in page["items"]
            if item["face"] == "front" and (component is None or item["component"] == component)]


def score_host_app():
    """A bare Typer app with the score commands mounted, as `pnp score` has them."""
    import typer

    from pnp.cli.score import score_app

    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """Test host for the score commands."""

    app.add_typer(score_app, name="score")
    return app


def codes(raw: dict) -> list[str]:
    """The codes of the problems a session's check reports, in order."""
    from scoring import check_session

    return [problem.code for problem in check_session(raw).problems]


def result(raw: dict):
    """The scored result of a session that must pass every check."""
    from scoring import check_session, score_session

    checked = check_session(raw)
    assert checked.problems == ()
    return score_session(checked.session)


# ------------------------------------------------------------------ a tiny game of one card kind
GOOD = """
[game]
id = "tiny"
players = [2, 4]
rules_url = "https://example.org/rules"
designers = ["Someone"]

[palette]
ink = "#222222"
accent = "#884422"

[[components]]
id = "cards"
size = "poker"
fields = { value = "int" }

[[components.front]]
type = "text"
x = 4
y = 4
w = "w - 8"
h = 14
text = "@card.{id}"
size = 14

[[components.pieces]]
id = "fox"
count = 3
value = 5
"""

CATALOG = """
[game]
name = "{name}"
credits = "By someone."
[component.cards]
name = "Cards"
cut = "Cut them."
[card]
fox = "{fox}"
"""


def write_game(folder: Path, text: str = GOOD, en: str | None = None, fr: str | None = None) -> Path:
    path = folder / "tiny.toml"
    path.write_text(text, encoding="utf-8")
    (folder / "tiny.en.toml").write_text(en or CATALOG.format(name="Tiny", fox="Fox"), encoding="utf-8")
    (folder / "tiny.fr.toml").write_text(fr or CATALOG.format(name="Petit", fox="Renard"), encoding="utf-8")
    return path


# ------------------------------------------------------------------ a numbered deck (copies that differ)
NUMBERED_DECK = """
[game]
id = "numbered"
players = [1, 4]
rules_url = ""
designers = ["Someone"]

[palette]
paper = "#fbf7ee"
ink = "#2b2118"
accent = "#7a2e1d"

[[components]]
id = "deck"
size = "poker"
rotate = false
fields = { colour = "color" }

[[components.front]]
type = "background"
fill = "paper"

[[components.front]]
type = "rect"
x = 4
y = 4
w = "w - 8"
h = "h - 8"
stroke = "{colour}"
stroke_width = 2

[[components.front]]
type = "text"
x = 6
y = 8
w = "w - 12"
h = 10
text = "@title.{id}"
size = 14

[[components.front]]
type = "text"
x = 6
y = 30
w = "w - 12"
h = 20
text = "{copy}"
size = 40
font = "black"

[[components.front]]
type = "ellipse"
cx = "6 + copy * 2"
cy = "h - 10"
rx = 1.5
fill = "{colour}"

[[components.front]]
type = "text"
x = 6
y = "h - 20"
w = "w - 12"
h = 6
text = "@footer"
size = 8

[[components.pieces]]
id = "fox"
count = 12
colour = "#c8372d"

[[components.pieces]]
id = "owl"
count = 6
colour = "#2a5aa8"
"""

NUMBERED_CATALOG = """
footer = "Same on every card"
[game]
name = "Numbered"
credits = "A numbered test deck."
[component.deck]
name = "Deck"
cut = "Cut them out."
[title]
fox = "{fox}"
owl = "{owl}"
"""


def write_deck(folder: Path, fox: str = "Fox", owl: str = "Owl") -> Path:
    path = folder / "numbered.toml"
    path.write_text(NUMBERED_DECK, encoding="utf-8")
    for lang in ("en", "fr"):
        (folder / f"numbered.{lang}.toml").write_text(NUMBERED_CATALOG.format(fox=fox, owl=owl), encoding="utf-8")
    return path


# ------------------------------------------------------------------ reading what was drawn
def path_points(ops) -> list[tuple[float, float]]:
    """A path's operations (M, L, C, Z) as points along it, curves sampled finely."""
    out: list[tuple[float, float]] = []
    for op in ops:
        if op[0] in ("M", "L"):
            out.append(op[1:3])
        elif op[0] == "C":
            (x0, y0), (x1, y1, x2, y2, x3, y3) = out[-1], op[1:]
            for i in range(1, 17):
                t = i / 16
                a, b, c, d = (1 - t) ** 3, 3 * t * (1 - t) ** 2, 3 * t * t * (1 - t), t ** 3
                out.append((a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3))
    return out


# ------------------------------------------------------------------ the fifth game
def load_toy_rules():
    spec = importlib.util.spec_from_file_location("acorn_hoard", TOY / "acorn_hoard.py")
    module = sys.modules["acorn_hoard"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sessions_at_version_3(source, path: Path) -> None:
    """Write ``path`` as a database of schema version 3 (before the club's figures) holding the sessions of
    the connection ``source``, as that version left them: its upgrade then counts the figures once."""
    import sqlite3

    from pnp.web.db import APPLICATION_ID, MIGRATIONS

    rows = source.execute("SELECT id, game, document, result, complete, token_hash, origin, source, fingerprint, "
                          "played_on, created_at, updated_at, completed_at FROM sessions ORDER BY rowid").fetchall()
    old = sqlite3.connect(path)
    old.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    old.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    old.execute("INSERT INTO schema_version VALUES (3)")
    for statements in MIGRATIONS[:3]:
        for statement in statements:
            old.execute(statement)
    old.executemany("INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    old.commit()
    old.close()
