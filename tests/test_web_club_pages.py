"""The club's history pages and API: who may read which person's and game's pages, rename and merge, export.

The organiser reads everything; a seat reads the pages of the people at its table and of its game, and
nothing else; the join link and strangers nothing.  Every refusal is a 401 or a 403 with its reason and
changes nothing.  Through Starlette's in-process client, on a club of imported sessions and a table
being played.
"""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from starlette.testclient import TestClient

from pnp.web import records, sessions
from pnp.web.app import create_app
from pnp.web.db import Database
from web_helpers import ORGANISER, halali, hunting_fever, organiser_headers, seat_headers, start_session, take_seat

TABLE = ["Ann", "Ben", "Cat"]


def _beavers(players: list[str], first: list[int], date: str) -> dict:
    return {"game": "hunting-hunting-beavers", "players": players, "date": date,
            "rounds": [dict(zip(players, first))] + [dict.fromkeys(players, 0)] * 9}


class Club:
    """A club's history (a finished Hunting Fever of Ann, Ben and Cat, Beavers with Dan, a Halali of Eve and
    Fay, who never sat with them) and a new Hunting Fever table of Ann, Ben and Cat: Ann's seat taken by a
    phone and Ben's by a script, a phone that only joined, the organiser's browser."""

    def __init__(self, app) -> None:
        db = app.state.site.db
        eve_fay = {**halali(3), "players": ["Eve", "Fay"]}
        eve_fay["rounds"] = [_swap(r, {"Ann": "Eve", "Ben": "Fay"}) for r in eve_fay["rounds"]]
        sessions.import_documents(db, [
            ("hf.json", {**hunting_fever(4, TABLE), "date": "2026-10-02"}),
            ("b1.json", _beavers(["Ann", "Ben", "Cat", "Dan"], [3, 1, 0, 2], "2026-10-09")),
            ("h.json", {**eve_fay, "date": "2026-10-16"})])
        self.people = {name: records.person_called(db, name) for name in ("Ann", "Ben", "Cat", "Dan", "Eve")}
        self.client = TestClient(app, follow_redirects=False)
        self.table, self.join = start_session(self.client, "hunting-fever", TABLE)
        self.ben = seat_headers(self.client, self.table, self.join, "Ben")
        other, other_join = start_session(self.client, "halali", ["Eve", "Fay"])
        self.elsewhere = seat_headers(self.client, other, other_join, "Eve")
        self.other_table = other
        made = self.client.post("/api/sessions", json={"game": "hunting-fever", "players": TABLE},
                                headers=organiser_headers())
        self.organiser_page = TestClient(app, follow_redirects=False)
        self.organiser_page.get("/", params={"token": ORGANISER})
        self.phone = self._joined(app, f"/s/{self.table}/join", self.join)
        assert take_seat(self.phone, self.table, "Ann").status_code == 303
        self.joined_only = self._joined(app, f"/s/{self.table}/join", self.join)
        self.stranger = TestClient(app, follow_redirects=False)
        assert made.status_code == 201

    @staticmethod
    def _joined(app, path: str, join: dict) -> TestClient:
        phone = TestClient(app, follow_redirects=False)
        phone.get(path, params={"t": join["Authorization"].split()[1]})
        return phone

    def state(self) -> tuple:
        """What a refused request must leave as it was: everyone's names and figures, every play."""
        get = lambda path: self.client.get(path, headers=organiser_headers()).json()  # noqa: E731
        return get("/api/history"), get("/api/history/players?q="), self.client.get(
            "/api/history/plays", headers=organiser_headers()).text


def _swap(value, names):
    if isinstance(value, dict):
        return {names.get(k, k): _swap(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_swap(v, names) for v in value]
    return names.get(value, value) if isinstance(value, str) else value


@pytest.fixture()
def club(tmp_path):
    db = Database.in_folder(tmp_path)
    app = create_app(db, ORGANISER, "http://192.168.1.20:8765")
    yield Club(app)
    db.close()


def _api_actors(club: Club) -> dict:
    return {"organiser": organiser_headers(), "seat": club.ben, "join link": club.join,
            "seat elsewhere": club.elsewhere, "nobody": {}}


# Each API route and what each asker gets: a status, and for a refusal its reason.
ORGANISER_ONLY = {"organiser": 200, "seat": (403, "organiser_only"), "join link": (403, "organiser_only"),
                  "seat elsewhere": (403, "organiser_only"), "nobody": 401}
API = {
    "the history": (lambda c: ("GET", "/api/history", None), ORGANISER_ONLY),
    "the club": (lambda c: ("GET", "/api/history/club", None), ORGANISER_ONLY),
    "every player": (lambda c: ("GET", "/api/history/players", None), ORGANISER_ONLY),
    "Ann's page": (lambda c: ("GET", f"/api/history/players/{c.people['Ann']}", None), ORGANISER_ONLY),
    "a game's page": (lambda c: ("GET", "/api/history/games/halali", None), ORGANISER_ONLY),
    "every play": (lambda c: ("GET", "/api/history/plays?format=bgstats", None), ORGANISER_ONLY),
    "rename Ann": (lambda c: ("POST", f"/api/history/players/{c.people['Ann']}/rename", {"name": "Annie"}),
                   ORGANISER_ONLY),
    "merge Dan into Eve": (lambda c: ("POST", f"/api/history/players/{c.people['Eve']}/merge",
                                      {"other": c.people["Dan"]}), ORGANISER_ONLY),
    "Ann's page from her table": (
        lambda c: ("GET", f"/api/sessions/{c.table}/players/{c.people['Ann']}", None),
        {"organiser": 200, "seat": 200, "join link": (403, "join_only"), "seat elsewhere": (403, "token_wrong"),
         "nobody": 401}),
    "Dan's page from Ann's table": (
        lambda c: ("GET", f"/api/sessions/{c.table}/players/{c.people['Dan']}", None),
        {"organiser": 200, "seat": (403, "not_at_table"), "join link": (403, "join_only"),
         "seat elsewhere": (403, "token_wrong"), "nobody": 401}),
    "the table's game": (
        lambda c: ("GET", f"/api/sessions/{c.table}/game", None),
        {"organiser": 200, "seat": 200, "join link": (403, "join_only"), "seat elsewhere": (403, "token_wrong"),
         "nobody": 401}),
}


@pytest.mark.parametrize("route", API)
def test_who_may_read_and_change_the_club_through_the_api(club, route):
    made, expected = API[route]
    method, path, body = made(club)
    for who, outcome in expected.items():
        before = club.state()
        answer = club.client.request(method, path, json=body, headers=_api_actors(club)[who])
        status, reason = outcome if isinstance(outcome, tuple) else (outcome, None)
        assert answer.status_code == status, (route, who, answer.text)
        if reason is not None:
            assert answer.json()["errors"][0]["code"] == reason and answer.json()["errors"][0]["message"], who
        if status >= 400:
            assert club.state() == before, (route, who)  # a refusal changes nothing


def test_a_seat_reads_the_pages_of_its_table_and_nobody_elses(club):
    ann, dan = club.people["Ann"], club.people["Dan"]
    page = club.phone.get(f"/s/{club.table}/players/{ann}")
    assert page.status_code == 200 and "<h1" in page.text and ">Ann<" in page.text
    # Ben and Cat sat at this table: their names lead to their pages; Dan did not: his is plain text.
    assert f'href="/s/{club.table}/players/{club.people["Ben"]}"' in page.text
    assert f"/players/{dan}" not in page.text and ">Dan<" in page.text
    assert f'href="/s/{club.table}/game"' in page.text
    refused = club.phone.get(f"/s/{club.table}/players/{dan}")
    assert refused.status_code == 403 and "Not a player of this table" in refused.text
    assert club.phone.get(f"/s/{club.table}/game").status_code == 200
    # A phone that only joined is sent to take its seat; a stranger is asked to join; neither sees a figure.
    assert club.joined_only.get(f"/s/{club.table}/players/{ann}").headers["location"] == f"/s/{club.table}"
    assert club.stranger.get(f"/s/{club.table}/players/{ann}").status_code == 401
    # The club's own pages and the organiser's forms are not a seat's.
    for path in ("/history", f"/history/players/{ann}", "/history/games/halali", "/history/export",
                 "/history/export/plays.csv", f"/history/players/{ann}/rename"):
        assert club.phone.get(path).status_code == 401, path


def test_the_organiser_renames_and_merges_with_forms_that_need_their_token(club):
    ann, eve, dan = club.people["Ann"], club.people["Eve"], club.people["Dan"]
    form = club.organiser_page.get(f"/history/players/{ann}/rename")
    token = re.search(r'name="csrf" value="([0-9a-f]+)"', form.text).group(1)
    before = club.state()
    assert club.organiser_page.post(f"/history/players/{ann}/rename", data={"name": "Annie"}).status_code == 403
    assert club.phone.post(f"/history/players/{ann}/rename", data={"csrf": token, "name": "Annie"}).status_code == 401
    taken = club.organiser_page.post(f"/history/players/{ann}/rename", data={"csrf": token, "name": "ben"})
    assert taken.status_code == 422 and "is already Ben’s name" in taken.text and 'aria-invalid="true"' in taken.text
    assert club.state() == before
    done = club.organiser_page.post(f"/history/players/{ann}/rename", data={"csrf": token, "name": "Annie"})
    assert done.status_code == 303
    page = club.organiser_page.get(done.headers["location"])
    assert "the pages name this player Annie from now on" in page.text and "Also written: Ann" in page.text
    # Merging someone who sat at her table is refused with the date; Eve and Dan never met: merged.
    merge_form = club.organiser_page.get(f"/history/players/{ann}/merge")
    refused = club.organiser_page.post(f"/history/players/{ann}/merge", data={"csrf": token, "other": club.people["Ben"]})
    assert merge_form.status_code == 200 and refused.status_code == 422 and "9 October 2026" in refused.text
    merged = club.organiser_page.post(f"/history/players/{eve}/merge", data={"csrf": token, "other": dan})
    assert merged.status_code == 303 and merged.headers["location"].startswith(f"/history/players/{eve}?done=merged")
    assert "Dan is now Eve" in club.organiser_page.get(merged.headers["location"]).text
    # Dan's old address leads to Eve's page.
    moved = club.organiser_page.get(f"/history/players/{dan}")
    assert moved.status_code == 301 and moved.headers["location"] == f"/history/players/{eve}"
    # A spelling made a separate player again.
    separated = club.organiser_page.post(f"/history/players/{eve}/separate", data={"csrf": token, "name": "Dan"})
    assert separated.status_code == 303 and "done=separated" in separated.headers["location"]
    assert records.person(club.client.app.state.site.db, eve)["spellings"] == ["Eve"]


def test_every_history_page_is_small_and_paged(club):
    db = club.client.app.state.site.db
    many = [_beavers(["Ann", "Ben", "Cat", "Dan"], [i % 4, (i + 1) % 4, 0, 1], f"2026-0{1 + i % 9}-{1 + i % 27:02d}")
            for i in range(70)]
    sessions.import_documents(db, [(f"{i}.json", raw) for i, raw in enumerate(many)])
    ann = club.people["Ann"]
    for path in ("/history", "/history?page=3", "/history/players", f"/history/players/{ann}",
                 f"/history/players/{ann}?page=3&game=hunting-hunting-beavers",
                 "/history/games/hunting-hunting-beavers", "/history/games/hunting-hunting-beavers?page=2&leaders=1",
                 "/history/export"):
        answer = club.organiser_page.get(path)
        assert answer.status_code == 200, path
        assert len(answer.content) < 100_000, (path, len(answer.content))
    listed = club.organiser_page.get("/history?page=2")
    assert "Page 2 of 4" in listed.text and 'rel="next"' in listed.text and 'rel="prev"' in listed.text
    api = club.client.get(f"/api/history/players/{ann}", params={"page": 2}, headers=organiser_headers()).json()
    assert api["page"] == {"page": 2, "pages": 4, "total": 72, "size": 20} and len(api["recent"]) == 20
    # A page past the last shows the last; a page that is no number, the first.
    assert club.client.get(f"/api/history/players/{ann}", params={"page": "99"},
                           headers=organiser_headers()).json()["page"]["page"] == 4
    assert club.organiser_page.get("/history", params={"page": "x" * 5000}).status_code == 200


def test_the_exports_hold_every_finished_play(club):
    answer = club.organiser_page.get("/history/export/plays.csv")
    assert answer.headers["content-type"].startswith("text/csv")
    assert 'filename="pnp-plays.csv"' in answer.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    assert len(rows) == 3 + 4 + 2 and {row["game"] for row in rows} == {"hunting-fever", "hunting-hunting-beavers",
                                                                        "halali"}
    halali_rows = [row for row in rows if row["game"] == "halali"]
    assert {row["side"] for row in halali_rows} == {"blue", "brown"} and all(row["score"] for row in halali_rows)
    beavers_rows = [row for row in rows if row["game"] == "hunting-hunting-beavers"]
    assert [(row["name"], row["score"], row["winner"], row["rank"]) for row in beavers_rows] == [
        ("Ann", "3", "yes", "1"), ("Ben", "1", "no", "3"), ("Cat", "0", "no", "4"), ("Dan", "2", "no", "2")]
    ann = club.people["Ann"]
    made = json.loads(club.organiser_page.get("/history/export/plays.bgsplay", params={"me": ann}).text)
    assert set(made) == {"about", "players", "games", "locations", "plays", "userInfo"}
    me = next(p for p in made["players"] if p["name"] == "Ann")
    assert made["userInfo"] == {"meRefId": me["id"]} and len(made["plays"]) == 3
    assert {g["name"] for g in made["games"]} == {"Hunting Fever", "Hunting Hunting Beavers", "Halali!"}
    page = club.organiser_page.get("/history/export")
    assert "3 sessions" in page.text and "9 plays" in page.text


def test_the_result_page_leads_a_seat_to_its_players_pages(club):
    db = club.client.app.state.site.db
    raw = hunting_fever(8, TABLE)
    for number, day in enumerate(raw["days"], start=1):
        put = club.client.put(f"/api/sessions/{club.table}/rounds/{number}", json=day,
                              headers={**organiser_headers(), "If-Match": "*"})
        assert put.status_code == 200, put.text
    result = club.phone.get(f"/s/{club.table}/result")
    for name in TABLE:
        assert f'href="/s/{club.table}/players/{club.people[name]}"' in result.text
    assert f'href="/s/{club.table}/game"' in result.text
    # The table counts at once: Ann's plays of Hunting Fever went from 1 to 2.
    ann = records.person(db, club.people["Ann"])
    assert next(g for g in ann["games"] if g["game"] == "hunting-fever")["plays"] == 2
    # The printed scoresheet's read-only key shows the result, and no one's history.
    key = re.search(r"\?k=([0-9a-f]+)", result.text).group(1)
    by_key = club.stranger.get(f"/s/{club.table}/result", params={"k": key})
    assert by_key.status_code == 200 and "/players/" not in by_key.text


def test_unknown_people_and_games_are_404s_naming_them(club):
    assert club.organiser_page.get("/history/players/999").status_code == 404
    assert club.organiser_page.get("/history/players/" + "9" * 400).status_code == 404
    assert club.organiser_page.get("/history/games/chess").status_code == 404
    assert club.organiser_page.get("/history/games/card-hunter").status_code == 404  # no finished session
    answer = club.client.get("/api/history/players/999", headers=organiser_headers())
    assert answer.status_code == 404 and answer.json()["errors"][0]["code"] == "unknown_person"
    wrong = club.client.post(f"/api/history/players/{club.people['Ann']}/merge", json={"other": "Ben"},
                             headers=organiser_headers())
    assert wrong.status_code == 404 and wrong.json()["errors"][0]["code"] == "unknown_person"


def test_a_correction_sent_to_the_api_changes_the_pages_at_once(club):
    ann = club.people["Ann"]
    raw, other = hunting_fever(8, TABLE), hunting_fever(21, TABLE)
    for number, day in enumerate(raw["days"], start=1):
        club.client.put(f"/api/sessions/{club.table}/rounds/{number}", json=day,
                        headers={**organiser_headers(), "If-Match": "*"})
    imported = club.client.get("/api/history", headers=organiser_headers()).json()
    first = next(s for s in imported["sessions"]
                 if s["game"] == "hunting-fever" and s["id"] != club.table and s["complete"])

    def figures() -> tuple:
        page = club.client.get(f"/api/history/players/{ann}", headers=organiser_headers()).json()
        fever = next(g for g in page["games"] if g["game"] == "hunting-fever")
        game = club.client.get("/api/history/games/hunting-fever", headers=organiser_headers()).json()
        table = club.client.get(f"/api/sessions/{club.table}", headers=organiser_headers()).json()
        return fever, game, table

    before, _, table = figures()
    assert before["average"] == (first["totals"]["Ann"] + table["totals"]["Ann"]) / 2
    # Day 1 corrected by the organiser, after the fact: the whole of it replaced by another deal.
    corrected = club.client.put(f"/api/sessions/{club.table}/rounds/1", json=other["days"][0],
                                headers={**organiser_headers(), "If-Match": "*"})
    assert corrected.status_code == 200, corrected.text
    after, game, table = figures()
    totals = [first["totals"]["Ann"], table["totals"]["Ann"]]
    assert after["average"] == sum(totals) / 2 and after["best"]["value"] == max(totals)
    assert after["wins"] == sum(["Ann" in s["winners"] for s in (first, table)])
    everyone = [first["totals"], table["totals"]]
    assert game["records"]["highest"]["value"] == max(t for totals_ in everyone for t in totals_.values())
    assert game["average"] == sum(sum(t.values()) for t in everyone) / 6
