"""Undo and redo: asked and confirmed, what they change back named, both in the history with date and time,
and what was undone offered back in the form.  Through Starlette's in-process client."""

from __future__ import annotations

import datetime
import re

import pytest
from starlette.testclient import TestClient

from pnp.web.app import create_app
from pnp.web.db import Database
from web_helpers import ORGANISER, beavers, organiser_headers, start_session, take_seat, versioned


@pytest.fixture()
def app(tmp_path):
    db = Database.in_folder(tmp_path)
    yield create_app(db, ORGANISER, "http://192.168.1.20:8765")
    db.close()


def csrf(html: str) -> str:
    return re.search(r'name="csrf" value="([0-9a-f]+)"', html).group(1)


def test_undo_then_redo_through_the_api_and_redo_is_refused_once_something_new_is_entered(app):
    client = TestClient(app)
    raw = beavers(4)
    session_id, _ = start_session(client, raw["game"], raw["players"])
    url, owner = f"/api/sessions/{session_id}", organiser_headers()
    versioned(client, "PUT", f"{url}/rounds/1", json=raw["rounds"][0], headers=owner)
    one_round = client.get(url, headers=owner).json()
    versioned(client, "PUT", f"{url}/rounds/2", json=raw["rounds"][1], headers=owner)
    two_rounds = client.get(url, headers=owner).json()
    last = client.get(f"{url}/history", headers=owner).json()["changes"][0]["id"]
    undone = client.post(f"{url}/undo", json={"change": last}, headers=owner)
    assert undone.status_code == 200 and undone.json() == one_round
    assert client.post(f"{url}/redo", json={"change": last}, headers=owner).status_code == 409  # not an undo
    redone = client.post(f"{url}/redo", json={"change": int(undone.headers["x-change"])}, headers=owner)
    assert redone.status_code == 200 and redone.json() == two_rounds
    history = client.get(f"{url}/history", headers=owner).json()["changes"]
    assert [c["action"] for c in history] == ["redo", "undo", "replace", "replace"]
    assert all(datetime.datetime.fromisoformat(c["at"]).tzinfo is not None for c in history)
    # The redo can itself be undone; then something new is entered, and that undo can no longer be redone.
    undone = client.post(f"{url}/undo", json={"change": history[0]["id"]}, headers=owner)
    assert undone.json() == one_round
    versioned(client, "PATCH", f"{url}/rounds/2", json={raw["players"][0]: 1}, headers=owner)
    late = client.post(f"{url}/redo", json={"change": int(undone.headers["x-change"])}, headers=owner)
    assert late.status_code == 409 and late.json()["errors"][0]["code"] == "not_last_undo"


def test_undo_asks_names_what_it_changes_back_offers_redo_and_the_values_come_back_into_the_form(app):
    owner = TestClient(app, follow_redirects=False)
    owner.get("/", params={"token": ORGANISER})
    raw = beavers(6)
    ann = raw["players"][0]
    session_id, _ = start_session(owner, raw["game"], raw["players"])
    join = re.search(r'id="join-link" type="text" readonly value="([^"]+)"',
                     owner.get(f"/s/{session_id}").text).group(1).replace("http://192.168.1.20:8765", "")
    phone = TestClient(app, follow_redirects=False)
    phone.get(join)
    take_seat(phone, session_id, ann)
    page = phone.get(f"/s/{session_id}/enter", params={"player": ann})
    sent = phone.post(f"/s/{session_id}/enter", data={
        "csrf": csrf(page.text), "v": re.search(r'name="v" value="([0-9a-f]+)"', page.text).group(1),
        "number": "1", "player": ann, "p.change": "2"})
    assert sent.status_code == 303
    table = phone.get(f"/s/{session_id}").text
    change = re.search(r'href="/s/[^/]+/undo\?change=(\d+)"', table).group(1)
    asked = phone.get(f"/s/{session_id}/undo", params={"change": change})
    # It names what it will change back: Ann’s currency change, 2 back to nothing.
    assert "Undo this change?" in asked.text and ann in asked.text
    assert re.search(r"Currency change this round \(negative for a loss\): 2 → –", asked.text)
    undone = phone.post(f"/s/{session_id}/undo", data={"csrf": csrf(asked.text), "change": change})
    assert undone.status_code == 303 and "undone=done" in undone.headers["location"]
    history = phone.get(undone.headers["location"]).text
    assert "The change is undone" in history and "Redo what was undone" in history
    # Each time is dated.
    today = datetime.date.today()
    assert f"{today.day} {today.strftime('%B')} {today.year}, " in history
    # What was undone comes back into the form, to send again.
    again = re.search(r'href="(/s/[^"]+/enter\?[^"]+from=\d+[^"]*)"', history).group(1).replace("&amp;", "&")
    form = phone.get(again)
    assert form.status_code == 200 and "These are the values that were undone" in form.text
    assert 'name="p.change" type="number" inputmode="numeric" value="2"' in form.text
    # Or redo it: asked, then done.
    redo = re.search(r'href="/s/[^/]+/redo\?change=(\d+)"', history).group(1)
    asked = phone.get(f"/s/{session_id}/redo", params={"change": redo})
    assert "Redo this change?" in asked.text
    redone = phone.post(f"/s/{session_id}/redo", data={"csrf": csrf(asked.text), "change": redo})
    assert "undone=redone" in redone.headers["location"]
    assert owner.get(f"/api/sessions/{session_id}/rounds/1", headers=organiser_headers()).json()["parts"] == {ann: 2}
    assert "redone" in phone.get(f"/s/{session_id}/history").text
