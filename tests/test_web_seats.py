"""Seats and who may do what: every write route of the API and the pages, for each kind of visitor.

A seat is one player's: the phone (or script) that took it writes that player's
parts and the table's own answers, undoes its own changes, gives the seat back;
the join link only takes a free seat; the organiser does everything, frees a
seat or moves it with a one-time link.  Every refusal is a 403 with its reason
and changes nothing.  Through Starlette's in-process client.
"""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from pnp.web.app import create_app
from pnp.web.db import Database
from web_helpers import (
    ORGANISER,
    hunting_fever,
    organiser_headers,
    seat_headers,
    start_session,
    take_seat,
    versioned,
)

PLAYERS = ["Ann", "Ben", "Cat"]


@pytest.fixture()
def app(tmp_path):
    db = Database.in_folder(tmp_path)
    yield create_app(db, ORGANISER, "http://192.168.1.20:8765")
    db.close()


def day_one() -> dict:
    raw = hunting_fever(5, PLAYERS)
    return raw["days"][0]


class Table:
    """A Hunting Fever table of Ann, Ben and Cat: Ann's and Ben's seats taken by scripts, Cat's free."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.id, self.join = start_session(client, "hunting-fever", PLAYERS)
        self.ann = seat_headers(client, self.id, self.join, "Ann")
        self.ben = seat_headers(client, self.id, self.join, "Ben")
        self.day = day_one()

    def url(self, path: str = "") -> str:
        return f"/api/sessions/{self.id}{path}"

    def state(self) -> tuple:
        """Everything a refused request must leave as it was: the session, the day, its history, the seats."""
        get = lambda path: self.client.get(self.url(path), headers=organiser_headers()).json()  # noqa: E731
        return get(""), get("/rounds/1"), get("/history"), get("/seats")

    def ann_sends(self) -> int:
        """Ann's seat sends her part of day 1; the change's id."""
        sent = versioned(self.client, "PATCH", self.url("/rounds/1"), json={"Ann": self.day["Ann"]}, headers=self.ann)
        assert sent.status_code == 200, sent.text
        return self.client.get(self.url("/history"), headers=organiser_headers()).json()["changes"][0]["id"]


def actors(table: Table) -> dict[str, dict]:
    return {"organiser": organiser_headers(), "seat": table.ann, "other seat": table.ben, "join link": table.join,
            "nobody": {}}


def _patch_ann(table: Table, headers: dict):
    return versioned(table.client, "PATCH", table.url("/rounds/1"), json={"Ann": table.day["Ann"]}, headers=headers)


def _put_day(table: Table, headers: dict):
    return table.client.put(table.url("/rounds/1"), json=table.day, headers={**headers, "If-Match": "*"})


def _undo(table: Table, headers: dict):
    change = table.ann_sends()
    return table.client.post(table.url("/undo"), json={"change": change}, headers=headers)


def _redo(table: Table, headers: dict):
    change = table.ann_sends()
    undone = table.client.post(table.url("/undo"), json={"change": change}, headers=table.ann)
    assert undone.status_code == 200, undone.text
    return table.client.post(table.url("/redo"), json={"change": int(undone.headers["x-change"])}, headers=headers)


def _give_back(table: Table, headers: dict):
    return table.client.delete(table.url("/seats/Ann"), headers={**headers, "If-Match": "*"})


def _move(table: Table, headers: dict):
    return table.client.post(table.url("/seats/Ann/handover"), headers=headers)


def _take_free(table: Table, headers: dict):
    return table.client.post(table.url("/seats"), json={"player": "Cat"}, headers=headers)


def _read(table: Table, headers: dict):
    return table.client.get(table.url(""), headers=headers)


# Each write route, and what each visitor gets: a status, and for a refusal its reason.
WHO_MAY = {
    "PATCH a player's part": (_patch_ann, {"organiser": 200, "seat": 200, "other seat": (403, "not_your_seat"),
                                           "join link": (403, "join_only"), "nobody": 401}),
    "PUT a whole day": (_put_day, {"organiser": 200, "seat": (403, "not_your_seat"),
                                   "other seat": (403, "not_your_seat"), "join link": (403, "join_only"),
                                   "nobody": 401}),
    "undo the seat's change": (_undo, {"organiser": 200, "seat": 200, "other seat": (403, "not_your_change"),
                                       "join link": (403, "join_only"), "nobody": 401}),
    "redo the seat's undo": (_redo, {"organiser": 200, "seat": 200, "other seat": (403, "not_your_change"),
                                     "join link": (403, "join_only"), "nobody": 401}),
    "give the seat back": (_give_back, {"organiser": 200, "seat": 200, "other seat": (403, "not_your_seat"),
                                        "join link": (403, "join_only"), "nobody": 401}),
    "move the seat": (_move, {"organiser": 201, "seat": (403, "organiser_only"),
                              "other seat": (403, "organiser_only"), "join link": (403, "organiser_only"),
                              "nobody": 401}),
    "take a free seat": (_take_free, {"organiser": (403, "organiser_has_every_seat"), "seat": 201,
                                      "other seat": 201, "join link": 201, "nobody": 401}),
    "read the session": (_read, {"organiser": 200, "seat": 200, "other seat": 200,
                                 "join link": (403, "join_only"), "nobody": 401}),
}


@pytest.mark.parametrize("route", WHO_MAY)
def test_who_may_do_what_through_the_api(app, route):
    request, expected = WHO_MAY[route]
    for who, outcome in expected.items():
        table = Table(TestClient(app))
        before = table.state()
        answer = request(table, actors(table)[who])
        status, reason = outcome if isinstance(outcome, tuple) else (outcome, None)
        assert answer.status_code == status, (route, who, answer.text)
        if status >= 400:
            assert answer.json()["errors"][0]["message"], (route, who)
        if reason is not None:
            assert answer.json()["errors"][0]["code"] == reason, (route, who)
        if status == 403 and route not in ("undo the seat's change", "redo the seat's undo"):
            assert table.state() == before, (route, who)  # a refusal changes nothing


def test_a_stranger_with_the_join_link_cannot_write_another_players_part_nor_undo_theirs(app):
    client = TestClient(app)
    table = Table(client)
    change = table.ann_sends()
    stranger = seat_headers(client, table.id, table.join, "Cat")  # takes the one free seat, then tries Ann's
    before = table.state()
    forged = versioned(client, "PATCH", table.url("/rounds/1"), json={"Ann": {**table.day["Ann"], "lodge_flipped": True}},
                       headers=stranger)
    assert forged.status_code == 403 and forged.json()["errors"][0]["code"] == "not_your_seat"
    assert client.post(table.url("/undo"), json={"change": change}, headers=stranger).status_code == 403
    assert client.post(table.url("/seats"), json={"player": "Ann"}, headers=stranger).json()["errors"][0]["code"] \
        == "seat_taken"
    assert table.state() == before


def test_a_seat_is_listed_with_who_holds_it_and_given_back_with_its_version(app):
    client = TestClient(app)
    table = Table(client)
    seats = client.get(table.url("/seats"), headers=table.ann)
    assert [(s["player"], s["taken"], s["yours"]) for s in seats.json()["seats"]] == \
        [("Ann", True, True), ("Ben", True, False), ("Cat", False, False)]
    assert client.get(table.url("/seats"), headers=table.join).status_code == 200  # which are free, to take one
    without = client.delete(table.url("/seats/Ann"), headers=table.ann)
    assert without.status_code == 428 and without.json()["errors"][0]["code"] == "version_required"
    assert client.delete(table.url("/seats/Ann"), headers={**table.ann, "If-Match": '"0"'}).status_code == 412
    given = client.delete(table.url("/seats/Ann"), headers={**table.ann, "If-Match": seats.headers["etag"]})
    assert given.status_code == 200 and given.json()["seats"][0]["taken"] is False
    # The token held no other seat: it reads nothing now, and another phone may take Ann's seat.
    assert client.get(table.url(""), headers=table.ann).status_code == 403
    assert client.post(table.url("/seats"), json={"player": "Ann"}, headers=table.join).status_code == 201


def test_a_handover_moves_a_seat_once(app):
    client = TestClient(app)
    table = Table(client)
    made = client.post(table.url("/seats/Ann/handover"), headers=organiser_headers()).json()
    assert made["url"].startswith(f"http://192.168.1.20:8765/s/{table.id}/handover?h=")
    moved = client.post(table.url("/seats"), json={"player": "Ann"}, headers={"Authorization": f"Bearer {made['token']}"})
    assert moved.status_code == 201 and moved.json()["player"] == "Ann"
    new_ann = {"Authorization": f"Bearer {moved.json()['token']}"}
    assert _patch_ann(table, new_ann).status_code == 200
    # The old phone's token holds no seat any more: it opens nothing.
    assert _patch_ann(table, table.ann).json()["errors"][0]["code"] == "token_wrong"
    again = client.post(table.url("/seats"), json={"player": "Ann"}, headers={"Authorization": f"Bearer {made['token']}"})
    assert again.status_code == 403  # the link worked once


def test_a_write_without_its_version_is_refused_with_428_and_changes_nothing(app):
    client = TestClient(app)
    table = Table(client)
    before = table.state()
    for method, body in (("PATCH", {"Ann": table.day["Ann"]}), ("PUT", table.day)):
        answer = client.request(method, table.url("/rounds/1"), json=body, headers=organiser_headers())
        assert answer.status_code == 428
        assert answer.json()["errors"][0]["code"] == "version_required"
        assert "If-Match" in answer.json()["errors"][0]["message"]
        assert answer.headers["etag"] == client.get(table.url("/rounds/1"), headers=organiser_headers()).headers["etag"]
    assert table.state() == before


def test_each_phone_sends_its_own_part_against_the_version_it_read(app):
    """Parts of other players sent meanwhile do not make a write stale; a change to the same part does."""
    client = TestClient(app)
    table = Table(client)
    seen = client.get(table.url("/rounds/1"), headers=table.ann).headers["etag"]
    assert versioned(client, "PATCH", table.url("/rounds/1"), json={"Ben": table.day["Ben"]},
                     headers=table.ben).status_code == 200
    mine = client.patch(table.url("/rounds/1"), json={"Ann": table.day["Ann"]}, headers={**table.ann, "If-Match": seen})
    assert mine.status_code == 200 and mine.json()["entered"] == ["Ann", "Ben"]
    # Ann's own part changed since `seen` (by Ann's first send): sending against `seen` again is stale.
    again = client.patch(table.url("/rounds/1"), json={"Ann": {**table.day["Ann"], "lodge_flipped": False}},
                         headers={**table.ann, "If-Match": seen})
    assert again.status_code == 412 and again.json()["current"]["parts"]["Ann"] == table.day["Ann"]


def test_the_join_link_is_shown_to_the_organiser_only_and_no_token_on_a_phones_page(app):
    owner = TestClient(app, follow_redirects=False)
    owner.get("/", params={"token": ORGANISER})
    session_id, join = start_session(owner, "halali", ["Ann", "Ben"])
    table = owner.get(f"/s/{session_id}").text
    link = re.search(r'id="join-link" type="text" readonly value="([^"]+)"', table).group(1)
    phone = TestClient(app, follow_redirects=False)
    phone.get(link.replace("http://192.168.1.20:8765", ""))
    seats_page = phone.get(f"/s/{session_id}")
    assert seats_page.status_code == 200 and "Take your seat" in seats_page.text and "join-link" not in seats_page.text
    token = link.split("t=")[1]
    assert token not in seats_page.text
    take_seat(phone, session_id, "Ann")
    page = phone.get(f"/s/{session_id}")
    assert "join-link" not in page.text and token not in page.text and "Your seat" in page.text


def test_taking_a_seat_says_whose_it_is_and_asks_once(app):
    owner = TestClient(app, follow_redirects=False)
    owner.get("/", params={"token": ORGANISER})
    session_id, _ = start_session(owner, "halali", ["Ann", "Ben"])
    link = re.search(r'id="join-link" type="text" readonly value="([^"]+)"', owner.get(f"/s/{session_id}").text).group(1)
    phone = TestClient(app, follow_redirects=False)
    phone.get(link.replace("http://192.168.1.20:8765", ""))
    asked = phone.get(f"/s/{session_id}/seat", params={"player": "Ann"})
    assert "Ann’s seat" in asked.text and "Take it only if you are Ann" in asked.text
    assert phone.get(f"/s/{session_id}/enter", params={"player": "Ann"}).status_code == 303  # no seat, no scores
    taken = take_seat(phone, session_id, "Ann")
    assert taken.status_code == 303 and taken.headers["location"] == f"/s/{session_id}?seated=Ann"
    assert "This phone holds Ann’s seat" in phone.get(taken.headers["location"]).text
    other = TestClient(app, follow_redirects=False)
    other.get(link.replace("http://192.168.1.20:8765", ""))
    refused = other.get(f"/s/{session_id}/seat", params={"player": "Ann"})
    assert refused.status_code == 409 and "Another phone holds Ann’s seat" in refused.text


def organised(app, game: str, players: list[str]) -> tuple[TestClient, str, str]:
    """The organiser's browser, a session it started, and the table's join link (its path on this server)."""
    owner = TestClient(app, follow_redirects=False)
    owner.get("/", params={"token": ORGANISER})
    session_id, _ = start_session(owner, game, players)
    join = re.search(r'id="join-link" type="text" readonly value="([^"]+)"', owner.get(f"/s/{session_id}").text)
    return owner, session_id, join.group(1).replace("http://192.168.1.20:8765", "")


def _organiser_form(client: TestClient, session_id: str, player: str) -> dict:
    table = client.get(f"/s/{session_id}").text
    return {"csrf": re.search(r'name="csrf" value="([0-9a-f]+)"', table).group(1), "player": player}


def test_a_player_locked_out_by_a_wrong_phone_is_never_stranded(app):
    """The path of the issue: a wrong phone takes Ann's seat and sends her part; it is undone; Ann's own phone
    is told what to do, the organiser frees the seat (or moves it), and Ann enters her part."""
    owner = TestClient(app, follow_redirects=False)
    owner.get("/", params={"token": ORGANISER})
    session_id, _ = start_session(owner, "hunting-fever", PLAYERS)
    link = re.search(r'id="join-link" type="text" readonly value="([^"]+)"', owner.get(f"/s/{session_id}").text)
    join = link.group(1).replace("http://192.168.1.20:8765", "")
    wrong, ann = TestClient(app, follow_redirects=False), TestClient(app, follow_redirects=False)
    for phone in (wrong, ann):
        phone.get(join)
    take_seat(wrong, session_id, "Ann")
    day = day_one()
    page = wrong.get(f"/s/{session_id}/enter", params={"player": "Ann"})
    fields = {"csrf": re.search(r'name="csrf" value="([0-9a-f]+)"', page.text).group(1),
              "v": re.search(r'name="v" value="([0-9a-f]+)"', page.text).group(1), "number": "1", "player": "Ann",
              **_part_fields(day["Ann"])}
    assert wrong.post(f"/s/{session_id}/enter", data=fields).status_code == 303
    # The organiser undoes it.
    history = owner.get(f"/s/{session_id}/history").text
    change = re.search(r'/undo\?change=(\d+)', history).group(1)
    asked = owner.get(f"/s/{session_id}/undo", params={"change": change}).text
    owner.post(f"/s/{session_id}/undo", data={"csrf": re.search(r'name="csrf" value="([0-9a-f]+)"', asked).group(1),
                                              "change": change})
    # Ann's own phone: her seat is taken; the page says by whom and what to do.
    seats = ann.get(f"/s/{session_id}")
    assert "Take your seat" in seats.text
    refused = ann.get(f"/s/{session_id}/seat", params={"player": "Ann"})
    assert refused.status_code == 409 and "organiser can move it to this phone" in refused.text
    # The organiser frees it; Ann takes it and enters her part.
    freed = owner.post(f"/s/{session_id}/seat/give-back", data=_organiser_form(owner, session_id, "Ann"))
    assert freed.status_code == 303 and "freed=Ann" in freed.headers["location"]
    assert take_seat(ann, session_id, "Ann").status_code == 303
    page = ann.get(f"/s/{session_id}/enter", params={"player": "Ann"})
    fields |= {"csrf": re.search(r'name="csrf" value="([0-9a-f]+)"', page.text).group(1),
               "v": re.search(r'name="v" value="([0-9a-f]+)"', page.text).group(1)}
    assert ann.post(f"/s/{session_id}/enter", data=fields).status_code == 303
    assert owner.get(f"/api/sessions/{session_id}/rounds/1", headers=organiser_headers()).json()["entered"] == ["Ann"]
    # The wrong phone holds no seat now: it is back to choosing one.
    assert "Take your seat" in wrong.get(f"/s/{session_id}").text


def test_the_organiser_moves_a_seat_to_another_phone_with_a_code_that_works_once(app):
    owner, session_id, join = organised(app, "halali", ["Ann", "Ben"])
    old = TestClient(app, follow_redirects=False)
    old.get(join)
    take_seat(old, session_id, "Ann")
    move = owner.get(f"/s/{session_id}/seat/move", params={"player": "Ann"})
    assert move.status_code == 200 and 'class="qr"' in move.text
    link = re.search(r'id="handover-link" type="text" readonly value="([^"]+)"', move.text).group(1)
    new = TestClient(app, follow_redirects=False)
    handover = link.replace("http://192.168.1.20:8765", "")
    asked = new.get(handover)
    assert asked.status_code == 200 and "Take Ann’s seat" in asked.text
    data = {"csrf": re.search(r'name="csrf" value="([0-9a-f]+)"', asked.text).group(1),
            "h": re.search(r'name="h" value="([^"]+)"', asked.text).group(1)}
    taken = new.post(f"/s/{session_id}/handover", data=data)
    assert taken.status_code == 303
    assert "Your seat" in new.get(f"/s/{session_id}").text
    assert "Take your seat" in old.get(f"/s/{session_id}").text  # the old phone lost it
    assert new.get(handover).status_code == 403  # used once
    # A phone may give its own seat back.
    given = new.post(f"/s/{session_id}/seat/give-back", data={
        "csrf": re.search(r'name="csrf" value="([0-9a-f]+)"', new.get(f"/s/{session_id}").text).group(1),
        "player": "Ann"})
    assert given.status_code == 303 and "Take your seat" in new.get(f"/s/{session_id}").text


def test_pages_refuse_what_the_api_refuses(app):
    owner, session_id, join = organised(app, "halali", ["Ann", "Ben"])
    ann, ben, joined = (TestClient(app, follow_redirects=False) for _ in range(3))
    for phone, player in ((ann, "Ann"), (ben, "Ben"), (joined, None)):
        phone.get(join)
        if player:
            take_seat(phone, session_id, player)
    csrf = {p: re.search(r'name="csrf" value="([0-9a-f]+)"', p.get(f"/s/{session_id}").text) for p in (ann, ben)}
    # Ben's phone cannot free Ann's seat, nor open the organiser's move page.
    refused = ben.post(f"/s/{session_id}/seat/give-back", data={"csrf": csrf[ben].group(1), "player": "Ann"})
    assert refused.status_code == 403
    assert ben.get(f"/s/{session_id}/seat/move", params={"player": "Ann"}).status_code == 403
    # A phone that only joined sees no scores, no history, no result.
    for path in ("/enter", "/history", "/result", "/export/json"):
        answer = joined.get(f"/s/{session_id}{path}")
        assert answer.status_code == 303 and answer.headers["location"] == f"/s/{session_id}", path
    assert joined.get(f"/s/{session_id}/live").status_code == 403


def _part_fields(part: dict) -> dict:
    fields = {f"p.{place}.{card}": str(part[place][card])
              for place in ("hand", "prey") for card in part[place] if card != "hunter"}
    fields["p.hunter"] = "hand" if part["hand"]["hunter"] else "prey" if part["prey"]["hunter"] else "lodge"
    fields["p.lodge_flipped"] = "true" if part["lodge_flipped"] else "false"
    return fields
