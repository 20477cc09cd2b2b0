"""pnp serve scores a designer's game declared in its template ([score]) like a shipped one:
`pnp serve --template FILE` joins its rules; sessions are started, entered from the pages and
the API, scored, printed on its sheet and kept in the history."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from pnp.cli import app
from pnp.web.app import create_app
from pnp.web.db import Database
from scoring import game_ids, unregister
from web_helpers import ORGANISER, organiser_headers, versioned

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture()
def served(tmp_path, monkeypatch):
    """`pnp serve --template` for both examples, stopped before it listens: what it joined."""
    import pnp.web.serve

    before = game_ids()
    monkeypatch.setattr(pnp.web.serve, "run", lambda *args, **kwargs: None)
    result = CliRunner().invoke(app, ["serve", "--data", str(tmp_path), "--template",
                                      str(EXAMPLES / "harbour-lights" / "harbour-lights.toml"),
                                      "--template", str(EXAMPLES / "market-day" / "market-day.toml")])
    assert result.exit_code == 0, result.output
    db = Database.in_folder(tmp_path)
    yield TestClient(create_app(db, ORGANISER), follow_redirects=False)
    db.close()
    for game_id in set(game_ids()) - set(before):
        unregister(game_id)


def start(client, game: str, players: list[str]) -> str:
    made = client.post("/api/sessions", json={"game": game, "players": players}, headers=organiser_headers())
    assert made.status_code == 201, made.text
    return made.json()["id"]


def test_a_game_scored_by_rounds_is_played_through_the_api_and_printed(served):
    session = start(served, "harbour-lights", ["Ann", "Bob"])
    for number in range(1, 9):
        written = versioned(served, "PUT", f"/api/sessions/{session}/rounds/{number}",
                            json={"Ann": number, "Bob": 9 - number}, headers=organiser_headers())
        assert written.status_code == 200, written.text
    state = served.get(f"/api/sessions/{session}", headers=organiser_headers()).json()
    # 36 each: the best single round (Bob's 8 in round 1, Ann's 8 in round 8) leaves them level.
    assert state["totals"] == {"Ann": 36, "Bob": 36} and state["winners"] == ["Ann", "Bob"]
    served.get("/", params={"token": ORGANISER})
    sheet = served.get(f"/s/{session}/sheet/a4.pdf")
    assert sheet.status_code == 200 and sheet.content.startswith(b"%PDF")
    assert served.get("/history/games/harbour-lights").status_code == 200


def test_a_game_scored_once_is_entered_player_by_player_from_the_pages(served):
    served.get("/", params={"token": ORGANISER})
    session = start(served, "market-day", ["Ann", "Bob"])
    for player, counts in (("Ann", ("20", "2", "1")), ("Bob", ("25", "0", "3"))):
        page = served.get(f"/s/{session}/enter", params={"player": player})
        fields = re.findall(r'name="(p\.[a-z_]+)"', page.text)
        assert fields == ["p.sales", "p.stalls", "p.coins"]
        form = {"player": player, **dict(zip(fields, counts))}
        for name in ("csrf", "v", "number"):
            found = re.search(rf'name="{name}" value="([0-9a-f]*)"', page.text)
            if found:
                form[name] = found.group(1)
        assert served.post(f"/s/{session}/enter", data=form).status_code == 303
    state = served.get(f"/api/sessions/{session}", headers=organiser_headers()).json()
    assert state["totals"] == {"Ann": 27, "Bob": 28} and state["winners"] == ["Bob"] and state["complete"]


def test_a_template_without_score_is_refused_before_serving(tmp_path, monkeypatch):
    import pnp.web.serve

    monkeypatch.setattr(pnp.web.serve, "run", lambda *args, **kwargs: pytest.fail("served"))
    (tmp_path / "plain.toml").write_text('[game]\nid = "plain"\n[[components]]\nid = "c"\nsize = "poker"\n'
                                         'pieces = [{ id = "c", count = 1 }]\n'
                                         'front = [{ type = "background", fill = "ink" }]\n', encoding="utf-8")
    for lang in ("en", "fr"):
        (tmp_path / f"plain.{lang}.toml").write_text('[game]\nname = "P"\ncredits = "x"\n[component.c]\n'
                                                     'name = "C"\ncut = "Cut."\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["serve", "--data", str(tmp_path), "--template", str(tmp_path / "plain.toml")])
    assert result.exit_code == 1 and "does not say how its game is scored" in result.output
