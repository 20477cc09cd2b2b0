"""The JSON API of ``pnp serve`` through Starlette's in-process client: every game, refusals, auth."""

from __future__ import annotations

import copy
import json
import threading
from urllib.parse import parse_qs, unquote, urlparse

import pytest
from starlette.testclient import TestClient

from pnp.web.app import create_app
from pnp.web.db import Database
from scoring import check_session, score_session
from scoring.report import result_json
from web_helpers import (
    versioned,
    NAMES,
    ORGANISER,
    beavers,
    check_json,
    halali,
    hunting_fever,
    organiser_headers,
    rounds_of,
)


@pytest.fixture()
def db(tmp_path):
    database = Database.in_folder(tmp_path / "data")
    yield database
    database.close()


@pytest.fixture()
def client(db):
    return TestClient(create_app(db, ORGANISER))


def start(client, game: str, players: list[str], **extra) -> tuple[str, dict]:
    """A session started by the organiser's script, and the headers it writes with (the organiser's token)."""
    return made(client, game, players, **extra)[0], organiser_headers()


def made(client, game: str, players: list[str], **extra) -> tuple[str, dict]:
    """A session started by the organiser's script, and the headers of its join link's token."""
    response = client.post("/api/sessions", json={"game": game, "players": players, **extra},
                           headers=organiser_headers())
    assert response.status_code == 201, response.text
    body = response.json()
    return body["id"], {"Authorization": f"Bearer {body['token']}"}


def expected_json(raw: dict) -> dict:
    checked = check_session(raw)
    assert checked.problems == ()
    return result_json(score_session(checked.session))


def codes(response) -> list[str]:
    return [error["code"] for error in response.json()["errors"]]


# -- starting a session ------------------------------------------------------


def test_health(client):
    assert client.get("/healthz").status_code == 200


def test_start_returns_id_token_and_a_join_link_carrying_the_token(client):
    response = client.post("/api/sessions", json={"game": "halali", "players": ["Ann", "Ben"], "lang": "fr"},
                           headers=organiser_headers())
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"id", "token", "url"}
    link = urlparse(body["url"])
    assert link.path == f"/s/{body['id']}/join" and parse_qs(link.query) == {"t": [body["token"]]}
    assert response.headers["location"] == f"/api/sessions/{body['id']}"
    join = {"Authorization": f"Bearer {body['token']}"}
    assert client.get(f"/api/sessions/{body['id']}", headers=join).status_code == 403  # it only takes a seat
    seat = client.post(f"/api/sessions/{body['id']}/seats", json={"player": "Ann"}, headers=join)
    assert seat.status_code == 201 and seat.json()["player"] == "Ann" and seat.json()["token"] != body["token"]
    state = client.get(f"/api/sessions/{body['id']}", headers={"Authorization": f"Bearer {seat.json()['token']}"})
    assert state.json() == {"game": "halali", "players": ["Ann", "Ben"], "rounds": [], "totals": {"Ann": 0, "Ben": 0},
                            "complete": False, "winners": [], "tie_break": None}


@pytest.mark.parametrize("body, status, code", [
    ({"game": "hunting-fever", "players": ["Ann", "Ben"]}, 422, "player_count"),
    ({"game": "halali", "players": ["Ann", "Ann"]}, 422, "duplicate_player"),
    ({"game": "halali", "players": "Ann, Ben"}, 422, "wrong_type"),
    ({"game": "halali", "players": ["Ann", ""]}, 422, "empty_player_name"),
    ({"game": "chess", "players": ["Ann", "Ben"]}, 422, "unknown_game"),
    ({"players": ["Ann", "Ben"]}, 422, "missing_game"),
    ({"game": "halali", "players": ["Ann", "Ben"], "lang": "de"}, 422, "unknown_value"),
    ({"game": "halali", "players": ["Ann", "Ben"], "date": "yesterday"}, 422, "invalid_date"),
    ({"game": "card-hunter", "players": ["Ann"], "difficulty": "impossible"}, 422, "unknown_value"),
    ([1, 2], 422, "not_a_table"),
])
def test_an_impossible_session_is_refused_with_every_reason(client, db, body, status, code):
    response = client.post("/api/sessions", json=body, headers=organiser_headers())
    assert response.status_code == status
    assert code in codes(response)
    assert all(error["message"] for error in response.json()["errors"])
    with db.read() as connection:
        assert connection.execute("SELECT count(*) FROM sessions").fetchone()[0] == 0


def test_a_refusal_speaks_the_language_asked(client):
    body = {"game": "hunting-fever", "players": ["Ann"], "lang": "fr"}
    response = client.post("/api/sessions", json=body, headers=organiser_headers())
    assert "joueurs" in response.json()["errors"][0]["message"]
    response = client.post("/api/sessions", json={**body, "lang": "en"}, headers=organiser_headers())
    assert "players" in response.json()["errors"][0]["message"]


def test_a_body_that_is_not_json_is_a_bad_request(client):
    response = client.post("/api/sessions", content=b"{", headers=organiser_headers())
    assert response.status_code == 400 and codes(response) == ["invalid_json"]
    response = client.post("/api/sessions", content=b'{"game": "halali", "game": "halali"}',
                           headers=organiser_headers())
    assert response.status_code == 400 and codes(response) == ["duplicate_json_key"]


def test_a_huge_body_is_refused_before_it_is_read(client):
    response = client.post("/api/sessions", content=b"[" + b"0," * 200_000 + b"0]", headers=organiser_headers())
    assert response.status_code == 413


# -- tokens ------------------------------------------------------------------


def test_starting_needs_the_organisers_token(client, db):
    body = {"game": "halali", "players": ["Ann", "Ben"]}
    missing = client.post("/api/sessions", json=body)
    assert missing.status_code == 401 and missing.headers["www-authenticate"].startswith("Bearer")
    assert client.post("/api/sessions", json=body, headers=organiser_headers("guess")).status_code == 403
    _, session_token = made(client, "halali", ["Ann", "Ben"])
    assert client.post("/api/sessions", json=body, headers=session_token).status_code == 403
    with db.read() as connection:
        assert connection.execute("SELECT count(*) FROM sessions").fetchone()[0] == 1


def test_a_join_link_opens_only_its_own_session_and_only_to_take_a_seat(client):
    raw = halali(1)
    first, first_join = made(client, "halali", raw["players"])
    second, second_join = made(client, "halali", raw["players"])
    before = client.get(f"/api/sessions/{first}", headers=organiser_headers()).json()
    body = raw["rounds"][0]
    assert client.put(f"/api/sessions/{first}/rounds/1", json=body).status_code == 401
    for join in (first_join, second_join):
        for method, path in (("PUT", "/rounds/1"), ("PATCH", "/rounds/1"), ("GET", ""), ("GET", "/export"),
                             ("GET", "/rounds/1"), ("GET", "/history")):
            answer = client.request(method, f"/api/sessions/{first}{path}", json=body,
                                    headers={**join, "If-Match": "*"})
            assert answer.status_code == 403, (method, path)
            assert answer.json()["errors"][0]["code"] == ("join_only" if join is first_join else "token_wrong")
    assert client.get(f"/api/sessions/{first}", headers=organiser_headers()).json() == before
    # The organiser may do everything about every session.
    assert versioned(client, "PUT", f"/api/sessions/{first}/rounds/1", json=body,
                     headers=organiser_headers()).status_code == 200


def test_an_unknown_session_is_not_found(client):
    assert client.get("/api/sessions/nothing", headers=organiser_headers()).status_code == 404
    assert client.get("/api/sessions/nothing").status_code == 401


# -- playing every game ------------------------------------------------------


@pytest.mark.parametrize("raw", [hunting_fever(1), hunting_fever(2, NAMES), halali(3), beavers(4),
                                 {"game": "card-hunter", "players": ["Ann", "Ben", "Cat"], "difficulty": "hard",
                                  "result": "won", "knockouts_left": 1}],
                         ids=["hunting-fever-3", "hunting-fever-5", "halali", "beavers", "card-hunter"])
def test_a_whole_session_put_day_by_day_scores_as_the_companion_does(client, raw, tmp_path):
    session_id, token = start(client, raw["game"], raw["players"], date="2026-11-22")
    key, played = rounds_of(raw)
    for number, body in enumerate(played, start=1):
        response = versioned(client, "PUT", f"/api/sessions/{session_id}/rounds/{number}", json=body, headers=token)
        assert response.status_code == 200, response.text
        partial = copy.deepcopy(raw)
        if key is not None:
            partial[key] = played[:number]
        assert response.json() == expected_json(partial)
    state = client.get(f"/api/sessions/{session_id}", headers=token).json()
    assert state == expected_json(raw) and state["complete"]
    for fmt in ("toml", "json", "csv"):
        exported = client.get(f"/api/sessions/{session_id}/export", params={"format": fmt}, headers=token)
        assert exported.status_code == 200
        assert f'.{fmt}"' in exported.headers["content-disposition"]
        path = tmp_path / f"export.{fmt}"
        path.write_bytes(exported.content)
        assert check_json(path) == state


def test_a_day_that_breaks_a_rule_is_refused_whole_and_nothing_is_stored(client):
    raw = hunting_fever(5)
    session_id, token = start(client, "hunting-fever", raw["players"])
    assert versioned(client, "PUT", f"/api/sessions/{session_id}/rounds/1", json=raw["days"][0], headers=token).status_code == 200
    before = client.get(f"/api/sessions/{session_id}/export", params={"format": "json"}, headers=token).text
    broken = copy.deepcopy(raw["days"][1])
    broken["Alice"]["hand"]["wolf"] = 3
    response = versioned(client, "PUT", f"/api/sessions/{session_id}/rounds/2", json=broken, headers=token)
    assert response.status_code == 422
    errors = response.json()["errors"]
    mistake = next(e for e in errors if e["code"] == "hand_exceeds_set")
    assert (mistake["round"], mistake["player"], mistake["item"]) == (2, "Alice", "wolf")
    assert "cards_not_conserved" in [e["code"] for e in errors]
    after = client.get(f"/api/sessions/{session_id}/export", params={"format": "json"}, headers=token).text
    assert after == before


def test_a_day_cannot_skip_ahead_and_a_correction_replaces_the_day(client):
    raw = hunting_fever(6)
    session_id, token = start(client, "hunting-fever", raw["players"])
    skipped = versioned(client, "PUT", f"/api/sessions/{session_id}/rounds/2", json=raw["days"][1], headers=token)
    assert skipped.status_code == 409 and codes(skipped) == ["out_of_turn"]
    assert skipped.json()["errors"][0]["message"] == "Day 2: cannot be entered now; the one being entered is Day 1."
    versioned(client, "PUT", f"/api/sessions/{session_id}/rounds/1", json=raw["days"][1], headers=token)
    corrected = versioned(client, "PUT", f"/api/sessions/{session_id}/rounds/1", json=raw["days"][0], headers=token)
    assert corrected.json()["rounds"] == [expected_json({**raw, "days": raw["days"][:1]})["rounds"][0]]


def test_correcting_round_one_is_checked_against_round_two(client):
    raw = halali(7)
    session_id, token = start(client, "halali", raw["players"])
    for number, body in enumerate(raw["rounds"], start=1):
        versioned(client, "PUT", f"/api/sessions/{session_id}/rounds/{number}", json=body, headers=token)
    same_blue = {**raw["rounds"][0], "blue": raw["rounds"][1]["blue"]}
    response = versioned(client, "PUT", f"/api/sessions/{session_id}/rounds/1", json=same_blue, headers=token)
    assert response.status_code == 422 and "roles_not_swapped" in codes(response)


def test_a_single_outcome_cannot_change_who_plays(client):
    session_id, token = start(client, "card-hunter", ["Ann"])
    response = versioned(client, "PUT", f"/api/sessions/{session_id}/rounds/1",
                          json={"result": "won", "knockouts_left": 2, "players": ["Zed"]}, headers=token)
    assert response.status_code == 422 and codes(response) == ["fixed_key"]
    assert client.get(f"/api/sessions/{session_id}", headers=token).json()["players"] == ["Ann"]


# -- players sending their own parts -------------------------------------------


def test_parts_are_kept_until_the_day_is_complete_then_committed(client):
    raw = hunting_fever(8)
    session_id, token = start(client, "hunting-fever", raw["players"])
    day = raw["days"][0]
    first = versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/1", json={"Alice": day["Alice"]}, headers=token)
    assert first.status_code == 200
    assert first.json()["entered"] == ["Alice"] and first.json()["missing"] == ["Bob", "Chloé"]
    assert first.json()["committed"] is False and first.json()["session"]["rounds"] == []
    status = client.get(f"/api/sessions/{session_id}/rounds/1", headers=token).json()
    assert status["entered"] == ["Alice"]
    last = versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/1", json={"Bob": day["Bob"], "Chloé": day["Chloé"]},
                        headers=token)
    assert last.json()["committed"] is True
    assert last.json()["session"] == expected_json({**raw, "days": raw["days"][:1]})
    # A committed day takes corrections: the same part sent again changes nothing.
    again = versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/1", json={"Bob": day["Bob"]}, headers=token)
    assert again.status_code == 200 and again.json()["committed"] is True and again.json()["corrections"] == {}
    assert again.json()["session"] == last.json()["session"]
    ahead = versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/3", json={"Bob": day["Bob"]}, headers=token)
    assert ahead.status_code == 409 and codes(ahead) == ["out_of_turn"]


def test_a_part_that_breaks_a_rule_on_its_own_is_refused(client):
    raw = hunting_fever(9)
    session_id, token = start(client, "hunting-fever", raw["players"])
    broken = copy.deepcopy(raw["days"][0]["Bob"])
    broken["prey"]["wolf"] = "two"
    response = versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/1", json={"Bob": broken}, headers=token)
    assert response.status_code == 422
    error = response.json()["errors"][0]
    assert (error["code"], error["round"], error["player"], error["place"], error["item"]) == \
        ("not_a_whole_number", 1, "Bob", "prey", "wolf")
    stranger = versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/1", json={"Zed": raw["days"][0]["Bob"]},
                            headers=token)
    assert stranger.status_code == 422 and codes(stranger) == ["unknown_player"]
    assert client.get(f"/api/sessions/{session_id}/rounds/1", headers=token).json()["entered"] == []


def test_a_complete_day_that_does_not_add_up_waits_for_a_correction(client):
    raw = hunting_fever(10)
    session_id, token = start(client, "hunting-fever", raw["players"])
    day = copy.deepcopy(raw["days"][0])
    wrong = copy.deepcopy(day["Chloé"])
    wrong["prey"]["carrot"] += 1  # fine alone, but one carrot too many at the table
    versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/1", json={"Alice": day["Alice"], "Bob": day["Bob"]},
                 headers=token)
    waiting = versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/1", json={"Chloé": wrong}, headers=token).json()
    assert waiting["committed"] is False and waiting["missing"] == []
    assert [p["code"] for p in waiting["problems"]] == ["cards_not_conserved"]
    assert waiting["problems"][0]["item"] == "carrot"
    fixed = versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/1", json={"Chloé": day["Chloé"]}, headers=token).json()
    assert fixed["committed"] is True and fixed["problems"] == []


@pytest.mark.parametrize("raw", [hunting_fever(11, NAMES), beavers(12)], ids=["hunting-fever", "beavers"])
def test_parts_sent_at_the_same_moment_by_every_phone_are_all_kept(db, raw):
    app = create_app(db, ORGANISER)
    session_id, token = start(TestClient(app), raw["game"], raw["players"])
    key, played = rounds_of(raw)
    for number, day in enumerate(played, start=1):
        gate = threading.Barrier(len(raw["players"]))
        answers = {}

        def phone(player: str) -> None:
            with TestClient(app) as own:
                gate.wait()
                answers[player] = versioned(own, "PATCH", f"/api/sessions/{session_id}/rounds/{number}",
                                            json={player: day.get(player, 0)}, headers=token)

        threads = [threading.Thread(target=phone, args=(p,)) for p in raw["players"]]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert all(a.status_code == 200 for a in answers.values())
        assert sum(a.json()["committed"] for a in answers.values()) == 1
    with TestClient(app) as client:
        assert client.get(f"/api/sessions/{session_id}", headers=token).json() == expected_json(raw)
    with db.read() as connection:
        assert connection.execute("SELECT count(*) FROM parts").fetchone()[0] == 0


# -- BG Stats ----------------------------------------------------------------


def bgstats_data(url: str) -> dict:
    prefix = "bgstats://app.bgstatsapp.com/createPlay.html?data="
    assert url.startswith(prefix)
    return json.loads(unquote(url[len(prefix):]))


def test_bgstats_link_of_a_finished_session(client):
    raw = hunting_fever(13)
    session_id, token = start(client, "hunting-fever", raw["players"], date="2026-11-22")
    assert client.get(f"/api/sessions/{session_id}/bgstats", headers=token).status_code == 409
    for number, body in enumerate(raw["days"], start=1):
        versioned(client, "PUT", f"/api/sessions/{session_id}/rounds/{number}", json=body, headers=token)
    result = expected_json(raw)
    data = bgstats_data(client.get(f"/api/sessions/{session_id}/bgstats", headers=token).json()["url"])
    assert data["sourceName"] == "pnp" and data["sourcePlayId"] == session_id
    assert data["game"] == {"name": "Hunting Fever", "sourceGameId": "hunting-fever", "highestWins": True,
                            "noPoints": False}
    assert data["playDate"][:4] == "2026" and len(data["playDate"]) == 19
    assert [p["name"] for p in data["players"]] == raw["players"]
    assert {p["name"]: p["score"] for p in data["players"]} == result["totals"]
    assert [p["name"] for p in data["players"] if p["winner"]] == result["winners"]
    best = max(result["totals"].values())
    for player in data["players"]:
        assert (player["rank"] == 1) == (player["name"] in result["winners"])
        assert player["rank"] == 1 + sum(1 for p in data["players"]
                                         if (p["winner"], p["score"]) > (player["winner"], player["score"]))
    assert best == max(p["score"] for p in data["players"])


def test_bgstats_ranks_a_player_beaten_on_the_tie_break_second():
    from pnp.web.bgstats import ranks

    assert ranks(["A", "B", "C"], {"A": 20, "B": 20, "C": 30}, ["C"]) == {"C": 1, "A": 2, "B": 2}
    assert ranks(["A", "B", "C"], {"A": 20, "B": 20, "C": 10}, ["B"]) == {"B": 1, "A": 2, "C": 3}
    assert ranks(["A", "B"], {"A": 5, "B": 5}, ["A", "B"]) == {"A": 1, "B": 1}


def test_bgstats_for_a_cooperative_game_has_no_points(client):
    session_id, token = start(client, "card-hunter", ["Ann", "Ben"])
    versioned(client, "PUT", f"/api/sessions/{session_id}/rounds/1", json={"result": "lost"}, headers=token)
    data = bgstats_data(client.get(f"/api/sessions/{session_id}/bgstats", headers=token).json()["url"])
    assert data["game"]["noPoints"] is True
    assert all("score" not in p and p["winner"] is False for p in data["players"])


def test_unknown_export_format_is_refused(client):
    session_id, token = start(client, "halali", ["Ann", "Ben"])
    response = client.get(f"/api/sessions/{session_id}/export", params={"format": "xml"}, headers=token)
    assert response.status_code == 400 and codes(response) == ["unknown_format"]


def test_every_response_forbids_framing_and_sniffing(client):
    response = client.get("/healthz")
    assert response.headers["x-content-type-options"] == "nosniff"
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]


# -- the entry form decides what a part is -------------------------------------


def test_halali_round_one_asks_who_plays_blue_before_any_tiles(client):
    raw = halali(14)
    session_id, token = start(client, "halali", raw["players"])
    first, second = raw["rounds"]
    blue = first["blue"]
    early = versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/1", json={"tiles": {blue: first["tiles"][blue]}},
                         headers=token)
    assert early.status_code == 422 and codes(early) == ["no_answer"]
    assert early.json()["errors"][0]["message"] == \
        "Round 1: “Who plays blue (bears and foxes) this round?” has no answer yet."
    wrong = versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/1", json={"blue": "Zed"}, headers=token)
    assert wrong.status_code == 422 and codes(wrong) == ["not_a_choice"]
    assert wrong.json()["errors"][0]["message"].endswith("choose one of: Ann, Ben.")
    assert wrong.json()["errors"][0]["key"] == "blue"  # the machine's name for it, beside the words
    answered = versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/1", json={"blue": blue}, headers=token).json()
    assert answered["unanswered"] == [] and answered["round"] == {"blue": blue}
    assert answered["missing"] == raw["players"]
    for player in raw["players"]:
        status = versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/1",
                              json={"tiles": {player: first["tiles"].get(player, {})}}, headers=token).json()
    assert status["committed"] is True
    # Round 2: the rules give blue (roles swap); only the tiles are asked.
    state = client.get(f"/api/sessions/{session_id}/rounds/2", headers=token).json()
    assert state["unanswered"] == [] and state["missing"] == raw["players"]
    versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/2", json={"tiles": second["tiles"]}, headers=token)
    assert client.get(f"/api/sessions/{session_id}", headers=token).json() == expected_json(raw)


def test_a_tile_the_player_cannot_hold_is_refused_for_that_player(client):
    session_id, token = start(client, "halali", ["Ann", "Ben"])
    versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/1", json={"blue": "Ann"}, headers=token)
    refused = versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/1", json={"tiles": {"Ann": {"tree": 1}}}, headers=token)
    assert refused.status_code == 422
    error = refused.json()["errors"][0]
    assert (error["code"], error["player"], error["item"]) == ("tile_not_allowed", "Ann", "tree")


def test_a_team_enters_its_outcome_once(client):
    session_id, token = start(client, "card-hunter", ["Ann", "Ben"])
    impossible = versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/1", json={"result": "won", "knockouts_left": 0},
                              headers=token)
    assert impossible.status_code == 422
    assert [(e["code"], e["key"]) for e in impossible.json()["errors"]] == [("below_limit", "knockouts_left")]
    assert impossible.json()["errors"][0]["message"] == "Knockout tokens left: at least 1, not 0."
    half = versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/1", json={"result": "won"}, headers=token).json()
    assert half["committed"] is False and half["unanswered"] == ["knockouts_left"]
    done = versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/1", json={"knockouts_left": 2}, headers=token).json()
    assert done["committed"] is True and done["session"]["winners"] == ["Ann", "Ben"]
    # Sent again once it is in, it corrects the outcome (a lost game keeps no token).
    corrected = versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/1", json={"result": "lost"}, headers=token).json()
    assert corrected["committed"] is True and corrected["session"]["winners"] == []
    assert client.get(f"/api/sessions/{session_id}/export", params={"format": "json"},
                      headers=token).json()["knockouts_left"] == 0


def test_a_session_with_nothing_left_to_enter_says_why(client):
    session_id, token = start(client, "hunting-hunting-beavers", ["A", "B", "C", "D"],
                              final={"A": 3, "B": 2, "C": 0, "D": 1})
    closed = versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/1", json={"A": 1}, headers=token)
    assert closed.status_code == 409 and codes(closed) == ["closed"]
    assert "[final]" in closed.json()["errors"][0]["message"]


def test_a_currency_change_that_is_no_number_is_refused(client):
    raw = beavers(15)
    session_id, token = start(client, raw["game"], raw["players"])
    refused = versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/1", json={raw["players"][0]: "three"}, headers=token)
    assert refused.status_code == 422 and refused.json()["errors"][0]["player"] == raw["players"][0]
