"""pnp serve knows no game: the toy fifth game of tests/fixtures/toy_game, registered at run time, is
started, entered from the pages and the API, scored, exported and put in the history unchanged."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from pnp.web.app import create_app
from pnp.web.db import Database
from scoring import check_session, register, score_session, unregister
from scoring.report import result_json
from helpers import load_toy_rules
from web_helpers import ORGANISER, organiser_headers, versioned


@pytest.fixture()
def client(tmp_path):
    module = load_toy_rules()
    register(module.RULES)
    db = Database.in_folder(tmp_path)
    yield TestClient(create_app(db, ORGANISER), follow_redirects=False)
    db.close()
    unregister(module.RULES.id)


def test_a_game_registered_at_run_time_is_played_through_pages_and_api(client):
    client.get("/", params={"token": ORGANISER})
    home = client.get("/")
    assert "Acorn Hoard" in home.text or "acorn-hoard" in home.text
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', home.text).group(1)
    started = client.post("/sessions", data={"csrf": csrf, "game": "acorn-hoard", "lang": "en",
                                             "player1": "Ann", "player2": "Ben"})
    assert started.status_code == 303
    session_id = started.headers["location"].rsplit("/", 1)[1]
    rounds = [{"Ann": {"acorns": 4, "stash_flipped": True}, "Ben": {"acorns": 2, "stash_flipped": False}},
              {"Ann": {"acorns": 1, "stash_flipped": False}, "Ben": {"acorns": 6, "stash_flipped": True}},
              {"Ann": {"acorns": 3, "stash_flipped": False}, "Ben": {"acorns": 0, "stash_flipped": False}}]
    # Round 1 from the entry page, player by player; the rest through the API.
    for player in ("Ann", "Ben"):
        page = client.get(f"/s/{session_id}/enter", params={"player": player})
        assert 'name="p.acorns"' in page.text and 'max="20"' in page.text
        answer = client.post(f"/s/{session_id}/enter", data={
            "csrf": re.search(r'name="csrf" value="([0-9a-f]+)"', page.text).group(1), "number": "1",
            "v": re.search(r'name="v" value="([0-9a-f]+)"', page.text).group(1),
            "player": player, "p.acorns": str(rounds[0][player]["acorns"]),
            "p.stash_flipped": "true" if rounds[0][player]["stash_flipped"] else "false"})
        assert answer.status_code == 303
    small = versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/2", json={"Ben": {"acorns": 1, "stash_flipped": True}},
                         headers=organiser_headers())
    assert small.status_code == 422 and small.json()["errors"][0]["code"] == "flipped_stash_too_small"
    versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/2", json=rounds[1], headers=organiser_headers())
    versioned(client, "PUT", f"/api/sessions/{session_id}/rounds/3", json=rounds[2], headers=organiser_headers())
    raw = {"game": "acorn-hoard", "players": ["Ann", "Ben"], "rounds": rounds}
    state = client.get(f"/api/sessions/{session_id}", headers=organiser_headers()).json()
    assert state == result_json(score_session(check_session(raw).session)) and state["complete"]
    result = client.get(f"/s/{session_id}/result")
    assert result.status_code == 200 and "sheet/a4.pdf" not in result.text  # no kit, no scoresheet to fill
    assert client.get(f"/s/{session_id}/sheet/a4.pdf").status_code == 404
    assert client.get(f"/api/sessions/{session_id}/export", params={"format": "csv"},
                      headers=organiser_headers()).text.startswith("round,player,game")
    assert client.get("/history").status_code == 200


def test_sessions_of_a_game_no_longer_loaded_are_listed_but_not_opened(client, tmp_path):
    client.get("/", params={"token": ORGANISER})
    made = client.post("/api/sessions", json={"game": "acorn-hoard", "players": ["Ann", "Ben"]},
                       headers=organiser_headers()).json()
    unregister("acorn-hoard")
    try:
        assert "acorn-hoard" in client.get("/history").text
        assert client.get(f"/s/{made['id']}").status_code == 409
        gone = client.get(f"/api/sessions/{made['id']}", headers=organiser_headers())
        assert gone.status_code == 409 and gone.json()["errors"][0]["code"] == "unknown_game"
    finally:
        register(load_toy_rules().RULES)
