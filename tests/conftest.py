"""Shared fixtures: kits rendered once per test session, in memory."""

from __future__ import annotations

import io
from functools import lru_cache

import pytest

from pnp.kit.build import render_to_memory
from pnp.template.model import PrintOptions
from pnp.template.loader import load_shipped_game


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


@pytest.fixture(scope="session")
def hunting_fever_en_a4():
    return rendered("hunting-fever", "en", "a4")


@pytest.fixture(scope="session")
def hunting_fever_fr_letter():
    return rendered("hunting-fever", "fr", "letter")


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
