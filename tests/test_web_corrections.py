"""Correcting anything already entered, never overwriting what another phone changed, and the history.

Through Starlette's in-process client: the round's version (ETag, If-Match,
412), corrections of committed days from the API and from the pages (a phone
its own players' parts, the organiser any part), the session checked again
whole, every change kept and shown, the last one undone.
"""

from __future__ import annotations

import copy
import re

import pytest
from starlette.testclient import TestClient

from pnp.web.app import create_app
from pnp.web.db import Database
from scoring import check_session, score_session
from scoring.report import result_json
from web_helpers import ORGANISER, beavers, hunting_fever, organiser_headers, take_seat, versioned


@pytest.fixture()
def app(tmp_path):
    db = Database.in_folder(tmp_path)
    yield create_app(db, ORGANISER, "http://192.168.1.20:8765")
    db.close()


def api_start(client: TestClient, game: str, players: list[str], **extra) -> tuple[str, dict]:
    """A session the organiser's script started, and the headers it reads and writes with."""
    made = client.post("/api/sessions", json={"game": game, "players": players, **extra},
                       headers=organiser_headers())
    assert made.status_code == 201, made.text
    return made.json()["id"], organiser_headers()


def phone(app, session_id: str, *players: str) -> TestClient:
    """A phone that joined the table through its QR code and took the seats of ``players``."""
    client = TestClient(app, follow_redirects=False)
    owner = TestClient(app, follow_redirects=False)
    owner.get("/", params={"token": ORGANISER})
    link = re.search(r'id="join-link" type="text" readonly value="([^"]+)"', owner.get(f"/s/{session_id}").text)
    assert client.get(link.group(1).replace("http://192.168.1.20:8765", "")).status_code == 303
    for player in players:
        assert take_seat(client, session_id, player).status_code == 303
    return client


def organiser(app) -> TestClient:
    client = TestClient(app, follow_redirects=False)
    client.get("/", params={"token": ORGANISER})
    return client


def form_keys(html: str) -> dict:
    return {"csrf": re.search(r'name="csrf" value="([0-9a-f]+)"', html).group(1),
            "v": re.search(r'name="v" value="([0-9a-f]+)"', html).group(1)}


def expected(raw: dict) -> dict:
    return result_json(score_session(check_session(raw).session))


def beaver_fields(change: int) -> dict:
    return {"p.change": str(change)}


def beavers_table(app, seed: int):
    """A Beavers session started by the organiser, and two phones that joined it."""
    raw = beavers(seed)
    owner = organiser(app)
    session_id, token = api_start(owner, raw["game"], raw["players"])
    ann, ben = raw["players"][:2]
    return raw, owner, session_id, token, phone(app, session_id, ann), phone(app, session_id, ben)


def send_change(client: TestClient, session_id: str, player: str, change: int, page=None, number: int = 1):
    """A Beavers player's change of currency sent from their entry page (``page``, else opened now)."""
    if page is None:
        page = client.get(f"/s/{session_id}/enter", params={"player": player})
    return client.post(f"/s/{session_id}/enter", data={**form_keys(page.text), "number": str(number),
                                                       "player": player, **beaver_fields(change)})


# -- versions: ETag and If-Match -----------------------------------------------


def test_a_round_carries_its_version_and_a_stale_write_gets_412_with_the_current_state(app):
    client = TestClient(app)
    session_id, token = api_start(client, "halali", ["Ann", "Ben"])
    url = f"/api/sessions/{session_id}/rounds/1"
    seen = client.get(url, headers=token)
    etag = seen.headers["etag"]
    assert re.fullmatch(r'"[0-9a-f]{20}\.en"', etag)
    assert client.get(url, headers={**token, "If-None-Match": etag}).status_code == 304
    # Phone A answers "Ann plays blue"; Ann enters her tiles.
    answered = client.patch(url, json={"blue": "Ann"}, headers={**token, "If-Match": etag})
    assert answered.status_code == 200 and answered.headers["etag"] != etag
    unversioned = client.patch(url, json={"tiles": {"Ann": {"bear": 1}}}, headers=token)
    assert unversioned.status_code == 428 and unversioned.json()["errors"][0]["code"] == "version_required"
    assert unversioned.json()["current"]["parts"] == {} and unversioned.headers["etag"] == answered.headers["etag"]
    client.patch(url, json={"tiles": {"Ann": {"bear": 1}}}, headers={**token, "If-Match": answered.headers["etag"]})
    # Phone B, still on the old question, sends "Ben": refused, with what is stored now.
    stale = client.patch(url, json={"blue": "Ben"}, headers={**token, "If-Match": etag})
    assert stale.status_code == 412
    assert [e["code"] for e in stale.json()["errors"]] == ["stale"]
    assert stale.json()["current"]["round"] == {"blue": "Ann"}
    assert stale.json()["current"]["parts"] == {"Ann": {"bear": 1}}
    assert stale.headers["etag"] == client.get(url, headers=token).headers["etag"]
    # Sent again against the fresh version, it is a deliberate change.
    again = client.patch(url, json={"blue": "Ben"}, headers={**token, "If-Match": stale.headers["etag"]})
    assert again.status_code == 200 and again.json()["round"] == {"blue": "Ben"}
    assert client.put(url, json={"blue": "Ann", "tiles": {}}, headers={**token, "If-Match": etag}).status_code == 412
    assert client.put(url, json={"blue": "Ann", "tiles": {}}, headers={**token, "If-Match": "*"}).status_code == 200


def test_a_version_names_a_language_too(app):
    client = TestClient(app)
    session_id, token = api_start(client, "halali", ["Ann", "Ben"])
    url = f"/api/sessions/{session_id}/rounds/1"
    french = client.get(url, params={"lang": "fr"}, headers=token).headers["etag"]
    assert french.endswith('.fr"')
    assert client.patch(url, json={"blue": "Ann"}, headers={**token, "If-Match": french}).status_code == 412
    assert client.patch(url, params={"lang": "fr"}, json={"blue": "Ann"},
                        headers={**token, "If-Match": french}).status_code == 200


# -- corrections through the API ----------------------------------------------------


def test_a_committed_day_is_corrected_and_the_whole_session_checked_again(app):
    client = TestClient(app)
    raw = hunting_fever(12)
    session_id, token = api_start(client, "hunting-fever", raw["players"])
    for number, day in enumerate(raw["days"][:2], start=1):
        versioned(client, "PUT", f"/api/sessions/{session_id}/rounds/{number}", json=day, headers=token)
    alice, bob = raw["players"][:2]
    # Alice counted one of Bob's Carrots in her pile: two parts to correct, one at a time.
    wrong = copy.deepcopy(raw["days"][0])
    wrong[alice]["prey"]["carrot"] = wrong[alice]["prey"].get("carrot", 0) + 1
    wrong[bob]["prey"]["carrot"] = wrong[bob]["prey"].get("carrot", 0) - 1
    if wrong[bob]["prey"]["carrot"] < 0 or check_session({**raw, "days": [wrong]}).problems:
        pytest.skip("this simulated day leaves no carrot to move between the two piles")
    versioned(client, "PUT", f"/api/sessions/{session_id}/rounds/1", json=wrong, headers=token)
    typo = client.get(f"/api/sessions/{session_id}", headers=token).json()
    first = versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/1", json={alice: raw["days"][0][alice]},
                         headers=token).json()
    assert first["committed"] is True and first["corrections"] == {alice: raw["days"][0][alice]}
    assert [p["code"] for p in first["problems"]] == ["cards_not_conserved"]
    assert client.get(f"/api/sessions/{session_id}", headers=token).json() == typo  # the scores wait
    second = versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/1", json={bob: raw["days"][0][bob]},
                          headers=token).json()
    assert second["corrections"] == {} and second["problems"] == []
    assert second["session"] == expected({**raw, "days": raw["days"][:2]})


def test_correcting_who_played_blue_decides_round_two_again(app):
    client = TestClient(app)
    raw = {"game": "halali", "players": ["Ann", "Ben"], "rounds": [
        {"blue": "Ann", "tiles": {"Ann": {"bear": 1}, "Ben": {"hunter": 2}}},
        {"blue": "Ben", "tiles": {"Ann": {"tree": 2}, "Ben": {"fox": 1}}}]}
    session_id, token = api_start(client, "halali", raw["players"])
    for number, body in enumerate(raw["rounds"], start=1):
        versioned(client, "PUT", f"/api/sessions/{session_id}/rounds/{number}", json=body, headers=token)
    swapped = versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/1", json={"blue": "Ben"}, headers=token).json()
    # Ann plays blue in round 2 now, and blue cannot hold the trees she entered.
    assert [(p["code"], p["round"], p["player"], p["item"]) for p in swapped["problems"]] == \
        [("tile_not_allowed", 2, "Ann", "tree")]
    assert "key" not in swapped["problems"][0]["message"]
    done = versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/2", json={"tiles": {"Ann": {"duck": 2}}},
                        headers=token).json()
    assert done["problems"] == [] and done["corrections"] == {}
    stored = client.get(f"/api/sessions/{session_id}/export", params={"format": "json"}, headers=token).json()
    assert [r["blue"] for r in stored["rounds"]] == ["Ben", "Ann"]
    assert stored["rounds"][1]["tiles"]["Ann"] == {"duck": 2}


def test_every_change_is_kept_and_the_last_can_be_undone_step_by_step(app):
    client = TestClient(app)
    raw = beavers(3)
    session_id, token = api_start(client, raw["game"], raw["players"])
    first, second = raw["rounds"][:2]
    versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/1", json=first, headers=token)
    versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/2", json=second, headers=token)
    player = raw["players"][0]
    fixed = {player: second[player] - 1} if second[player] > 0 else {player: second[player] + 1}
    versioned(client, "PATCH", f"/api/sessions/{session_id}/rounds/2", json=fixed, headers=token)
    changes = client.get(f"/api/sessions/{session_id}/history", headers=token).json()["changes"]
    assert [(c["number"], c["action"], c["outcome"]) for c in changes] == \
        [(2, "correct", "applied"), (2, "enter", "committed"), (1, "enter", "committed")]
    assert changes[0]["before"] == {player: second[player]} and changes[0]["after"] == fixed
    two_rounds = expected({**raw, "rounds": raw["rounds"][:2]})
    assert client.post(f"/api/sessions/{session_id}/undo", json={"change": changes[1]["id"]},
                       headers=token).status_code == 409  # not the last one
    assert client.post(f"/api/sessions/{session_id}/undo", json={"change": changes[0]["id"]},
                       headers=token).json() == two_rounds
    # Undoing the day's entry takes it out of the scores and leaves nothing waiting for it.
    assert client.post(f"/api/sessions/{session_id}/undo", json={"change": changes[1]["id"]},
                       headers=token).json() == expected({**raw, "rounds": raw["rounds"][:1]})
    status = client.get(f"/api/sessions/{session_id}/rounds/2", headers=token).json()
    assert status["committed"] is False and status["entered"] == []
    after = client.get(f"/api/sessions/{session_id}/history", headers=token).json()["changes"]
    assert [c["action"] for c in after] == ["undo", "undo", "correct", "enter", "enter"]
    assert after[0]["undoes"] == changes[1]["id"] and after[3]["undone_by"] == after[0]["id"]


# -- the pages: correcting from a phone -------------------------------------------------


def test_a_phone_corrects_its_own_part_of_a_committed_round_and_no_other(app):
    raw, owner, session_id, token, phone_a, phone_b = beavers_table(app, 5)
    ann, ben = raw["players"][:2]
    for player, own in ((ann, phone_a), (ben, phone_b)):
        sent = send_change(own, session_id, player, raw["rounds"][0][player])
        assert sent.status_code == 303, sent.text
    versioned(owner, "PATCH", f"/api/sessions/{session_id}/rounds/1", json={p: raw["rounds"][0][p] for p in raw["players"][2:]},
                headers=token)
    assert owner.get(f"/api/sessions/{session_id}/rounds/1", headers=token).json()["committed"] is True
    table = phone_a.get(f"/s/{session_id}")
    assert f'href="/s/{session_id}/enter?round=1"' in table.text  # every entered round can be corrected
    picker = phone_a.get(f"/s/{session_id}/enter", params={"round": "1"})
    assert "This phone" in picker.text and "Other phone" in picker.text
    page = phone_a.get(f"/s/{session_id}/enter", params={"round": "1", "player": ann})
    assert "Correct: Round 1 — " in page.text and "Send the correction" in page.text
    change = raw["rounds"][0][ann] + 1
    fixed = phone_a.post(f"/s/{session_id}/enter", data={**form_keys(page.text), "number": "1", "player": ann,
                                                         **beaver_fields(change)})
    assert fixed.status_code == 303 and "fixed=1" in fixed.headers["location"]
    assert "Round 1 is corrected" in phone_a.get(fixed.headers["location"]).text
    rounds = owner.get(f"/api/sessions/{session_id}/export", params={"format": "json"}, headers=token).json()["rounds"]
    assert rounds[0][ann] == change
    # Ben's phone cannot change Ann's part; the organiser can change anyone's.
    locked = phone_b.get(f"/s/{session_id}/enter", params={"round": "1", "player": ann})
    assert "Another phone holds" in locked.text and 'name="p.change"' not in locked.text
    forged = phone_b.post(f"/s/{session_id}/enter", data={**form_keys(phone_b.get(
        f"/s/{session_id}/enter", params={"round": "1", "player": ben}).text), "number": "1", "player": ann,
        **beaver_fields(0)})
    assert forged.status_code in (403, 409)
    assert owner.get(f"/api/sessions/{session_id}/export", params={"format": "json"},
                     headers=token).json()["rounds"][0][ann] == change
    by_organiser = owner.get(f"/s/{session_id}/enter", params={"round": "1", "player": ann})
    again = owner.post(f"/s/{session_id}/enter", data={**form_keys(by_organiser.text), "number": "1",
                                                       "player": ann, **beaver_fields(raw["rounds"][0][ann])})
    assert again.status_code == 303
    history = phone_a.get(f"/s/{session_id}/history").text
    assert "the organiser" in history and f"the phone of {ann}" in history
    assert f"Currency change this round (negative for a loss): {change} → {raw['rounds'][0][ann]}" in history


def test_a_stale_round_answer_is_refused_and_kept_to_send_again(app):
    owner = organiser(app)
    session_id, token = api_start(owner, "halali", ["Ann", "Ben"])
    phone_a, phone_b = phone(app, session_id, "Ann"), phone(app, session_id, "Ben")
    page_a = phone_a.get(f"/s/{session_id}/enter")
    page_b = phone_b.get(f"/s/{session_id}/enter")
    assert phone_a.post(f"/s/{session_id}/enter", data={**form_keys(page_a.text), "number": "1",
                                                        "r.blue": "Ann"}).status_code == 303
    refused = phone_b.post(f"/s/{session_id}/enter", data={**form_keys(page_b.text), "number": "1", "r.blue": "Ben"})
    assert refused.status_code == 409 and "This changed while you were typing" in refused.text
    assert re.search(r'name="r\.blue" value="Ben" checked', refused.text)  # what B chose is kept
    assert "Saved now: Ann" in refused.text
    assert owner.get(f"/api/sessions/{session_id}/rounds/1", headers=token).json()["round"] == {"blue": "Ann"}
    resent = phone_b.post(f"/s/{session_id}/enter", data={**form_keys(refused.text), "number": "1", "r.blue": "Ben"})
    assert resent.status_code == 303
    assert owner.get(f"/api/sessions/{session_id}/rounds/1", headers=token).json()["round"] == {"blue": "Ben"}


def test_a_part_without_the_hunters_place_is_refused_beside_that_question_and_nothing_typed_is_lost(app):
    owner = organiser(app)
    raw = hunting_fever(14)
    session_id, token = api_start(owner, "hunting-fever", raw["players"], lang="fr")
    alice = raw["players"][0]
    page = owner.get(f"/s/{session_id}/enter", params={"player": alice})
    typed = {"p.lodge_flipped": "false", "p.hand.wolf": "1", "p.hand.rabbit": "2", "p.prey.carrot": "3"}
    answer = owner.post(f"/s/{session_id}/enter", data={**form_keys(page.text), "number": "1", "player": alice,
                                                        **typed})
    assert answer.status_code == 422
    hunter = answer.text[answer.text.index('name="p.hunter"') - 600:answer.text.index('name="p.lodge_flipped"')]
    assert "«\u00a0Où est le Chasseur\u00a0?\u00a0» n’a pas encore de réponse" in hunter
    for name, value in typed.items():
        if name.startswith("p.hand") or name.startswith("p.prey"):
            assert f'name="{name}" type="number" inputmode="numeric" value="{value}"' in answer.text
    assert 'name="p.lodge_flipped" value="false" checked' in answer.text
    assert owner.get(f"/api/sessions/{session_id}/rounds/1", headers=token).json()["entered"] == []


def test_an_impossible_part_alone_is_refused_at_once_in_words_beside_its_field(app):
    owner = organiser(app)
    session_id, token = api_start(owner, "hunting-fever", ["Ann", "Ben", "Cat"])
    part = {"hand": {"hunter": 1, "wolf": 2}, "prey": {"wolf": 6}}
    refused = versioned(owner, "PATCH", f"/api/sessions/{session_id}/rounds/1", json={"Ann": part}, headers=token)
    assert refused.status_code == 422
    [error] = refused.json()["errors"]
    assert (error["code"], error["place"], error["item"]) == ("cards_beyond_game", "prey", "wolf")
    assert error["message"].startswith("Day 1, Ann, prey pile, Wolf: 6 in the prey pile and 2 in hand")
    assert "at most 4 can be in the prey pile" in error["message"] and "prey.wolf" not in error["message"]
    page = owner.get(f"/s/{session_id}/enter", params={"player": "Ann", "lang": "fr"})
    fields = {**form_keys(page.text), "number": "1", "player": "Ann", "p.hunter": "hand", "p.lodge_flipped": "false",
              "p.hand.wolf": "2", "p.prey.wolf": "6"}
    answer = owner.post(f"/s/{session_id}/enter", params={"lang": "fr"}, data=fields)
    assert answer.status_code == 422
    wolves = answer.text.index('name="p.prey.wolf"')
    beside = answer.text[wolves:answer.text.index('class="question', wolves)]
    assert "la pile Proies peut en contenir 4 au plus" in beside and "clé" not in answer.text


# -- starting: Card Hunter's difficulty, names ------------------------------------------


def test_card_hunters_difficulty_is_chosen_when_the_session_starts(app):
    client = organiser(app)
    home = client.get("/")
    assert 'name="start.card-hunter.difficulty"' in home.text
    fields = {"csrf": re.search(r'name="csrf" value="([0-9a-f]+)"', home.text).group(1), "game": "card-hunter",
              "lang": "en", "player1": "Ann", "start.card-hunter.difficulty": "hard"}
    started = client.post("/sessions", data=fields)
    session_id = started.headers["location"].rsplit("/", 1)[1]
    document = client.get(f"/api/sessions/{session_id}/export", params={"format": "json"},
                          headers=organiser_headers()).json()
    assert document["difficulty"] == "hard"
    entry = client.get(f"/s/{session_id}/enter")
    assert 'name="r.difficulty"' not in entry.text and 'name="r.result"' in entry.text
    refused = client.post("/sessions", data={**fields, "start.card-hunter.difficulty": "deadly"})
    assert refused.status_code == 422 and "does not answer “Difficulty?”" in refused.text


def test_names_longer_than_forty_characters_are_refused_by_the_server(app):
    client = organiser(app)
    long_name = "A" * 41
    api = client.post("/api/sessions", json={"game": "halali", "players": [long_name, "Ben"]},
                      headers=organiser_headers())
    assert api.status_code == 422
    assert api.json()["errors"][0]["code"] == "name_too_long"
    assert "has 41 characters; a name has at most 40" in api.json()["errors"][0]["message"]
    assert client.post("/api/sessions", json={"game": "halali", "players": ["A" * 40, "Ben"]},
                       headers=organiser_headers()).status_code == 201
    home = client.get("/")
    page = client.post("/sessions", data={"csrf": re.search(r'name="csrf" value="([0-9a-f]+)"', home.text).group(1),
                                          "game": "halali", "lang": "en", "player1": "B" * 400, "player2": "Ben"})
    assert page.status_code == 422 and "has 400 characters" in page.text


def test_a_phone_undoes_its_own_last_change_and_the_organiser_any(app):
    raw, owner, session_id, token, phone_a, phone_b = beavers_table(app, 9)
    ann, ben = raw["players"][:2]
    send_change(phone_a, session_id, ann, 2)
    table_a, table_b = phone_a.get(f"/s/{session_id}").text, phone_b.get(f"/s/{session_id}").text
    assert "Undo the last change" in table_a and "Undo the last change" not in table_b
    change = re.search(r'href="/s/[^/]+/undo\?change=(\d+)"', table_a).group(1)
    # Undo asks first, and says what it will put back.
    asked = phone_a.get(f"/s/{session_id}/undo", params={"change": change})
    assert asked.status_code == 200 and "Undo this change?" in asked.text and "This puts back:" in asked.text
    csrf_b = form_keys(phone_b.get(f"/s/{session_id}/enter", params={"player": ben}).text)["csrf"]
    assert phone_b.get(f"/s/{session_id}/undo", params={"change": change}).status_code == 403
    assert phone_b.post(f"/s/{session_id}/undo", data={"csrf": csrf_b, "change": change}).status_code == 403
    csrf_a = re.search(r'name="csrf" value="([0-9a-f]+)"', asked.text).group(1)
    undone = phone_a.post(f"/s/{session_id}/undo", data={"csrf": csrf_a, "change": change})
    assert undone.status_code == 303 and "undone=done" in undone.headers["location"]
    assert "The change is undone" in phone_a.get(undone.headers["location"]).text
    assert owner.get(f"/api/sessions/{session_id}/rounds/1", headers=token).json()["entered"] == []
    # Twice the same undo: nothing more happens, and the page says why.
    again = phone_a.post(f"/s/{session_id}/undo", data={"csrf": csrf_a, "change": change})
    assert "undone=late" in again.headers["location"]
    # The organiser may undo a phone's change.
    send_change(phone_b, session_id, ben, 1)
    table = owner.get(f"/s/{session_id}").text
    assert "Last change: Round 1" in table and f"by the phone of {ben}" in table
    change = re.search(r'href="/s/[^/]+/undo\?change=(\d+)"', table).group(1)
    asked = owner.get(f"/s/{session_id}/undo", params={"change": change}).text
    owner.post(f"/s/{session_id}/undo", data={"csrf": re.search(r'name="csrf" value="([0-9a-f]+)"', asked).group(1),
                                              "change": change})
    assert owner.get(f"/api/sessions/{session_id}/rounds/1", headers=token).json()["entered"] == []
    history = owner.get(f"/s/{session_id}/history").text
    assert history.count("undone") >= 2


def test_another_players_part_sent_meanwhile_leaves_a_form_as_it_was(app):
    raw, owner, session_id, token, phone_a, phone_b = beavers_table(app, 11)
    ann, ben = raw["players"][:2]
    page_a = phone_a.get(f"/s/{session_id}/enter", params={"player": ann})
    assert send_change(phone_b, session_id, ben, 1).status_code == 303
    # Each phone changes its own part: Ben's does not make Ann's form stale.
    assert send_change(phone_a, session_id, ann, 2, page_a).status_code == 303
    assert owner.get(f"/api/sessions/{session_id}/rounds/1", headers=token).json()["parts"] == {ann: 2, ben: 1}
