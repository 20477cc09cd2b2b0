"""Server-side limits of ``pnp serve``: no address, query or form value gets a 5xx; links stay on this server;
the network is never trusted with a short token; every commit is on the disk; older databases are upgraded."""

from __future__ import annotations

import itertools
import json
import re
import sqlite3

import pytest
from starlette.testclient import TestClient

from pnp.core.errors import PnpError
from pnp.web import changes, round_store, sessions
from pnp.web.app import create_app
from pnp.web.db import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION, Database
from web_helpers import ORGANISER, halali, hunting_fever, organiser_headers, versioned

from pnp.web.auth import token_hash
from pnp.web.permissions import ORGANISER as ORGANISER_ACTOR
from pnp.web.seats import seat_map

HOSTILE = ["10000000000000000000000", "-1", "0", "²", "١٢", "%00", "%FF", "x" * 3000, "é", "../..",
           "//evil.example/x", "<script>", "1e9", " 1", ""]


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """A server with a session of each kind, and the organiser's browser."""
    db = Database.in_folder(tmp_path_factory.mktemp("limits"))
    app = create_app(db, ORGANISER)
    client = TestClient(app, follow_redirects=False)
    client.get("/", params={"token": ORGANISER})
    raw = hunting_fever(3)
    made = client.post("/api/sessions", json={"game": "hunting-fever", "players": raw["players"]},
                       headers=organiser_headers()).json()
    versioned(client, "PUT", f"/api/sessions/{made['id']}/rounds/1", json=raw["days"][0], headers=organiser_headers())
    yield client, made["id"]
    db.close()


def test_no_address_or_query_value_gets_a_server_error(world):
    client, session_id = world
    pages = ["/s/{v}", "/s/{s}/enter?player={v}", "/s/{s}/enter?round={v}", "/s/{s}/enter?round=1&player={v}",
             "/s/{s}?sent={v}&fixed={v}&saved={v}", "/s/{s}/live?lang={v}", "/s/{s}/result?k={v}",
             "/s/{s}/export/{v}", "/s/{s}/sheet/{v}.pdf", "/s/{s}/history?undone={v}", "/s/{s}/join?t={v}",
             "/?lang={v}", "/?token={v}", "/history?lang={v}", "/{v}",
             "/api/sessions/{v}", "/api/sessions/{s}/rounds/{v}", "/api/sessions/{s}/export?format={v}",
             "/api/sessions/{s}/bgstats", "/api/history?game={v}", "/api/sessions/{s}/rounds/1?lang={v}"]
    headers = {**organiser_headers(), "If-None-Match": "x", "Accept-Language": "zz;q=abc"}
    for page, value in itertools.product(pages, HOSTILE):
        url = "http://testserver" + page.format(s=session_id, v=value)
        answer = client.get(url, headers=headers)
        assert answer.status_code < 500, (url, answer.status_code, answer.text[:300])


def test_no_written_value_gets_a_server_error(world):
    client, session_id = world
    huge = 10 ** 30
    api = [("PATCH", "/api/sessions/{s}/rounds/2", {"Alice": {"prey": {"wolf": huge}}}),
           ("PATCH", "/api/sessions/{s}/rounds/10000000000000000000000", {"Alice": {}}),
           ("PUT", "/api/sessions/{s}/rounds/10000000000000000000000", {}),
           ("PUT", "/api/sessions/{s}/rounds/0", {}),
           ("PATCH", "/api/sessions/{s}/rounds/2", {"Alice": [huge]}),
           ("POST", "/api/sessions/{s}/undo", {"change": huge}),
           ("POST", "/api/sessions/{s}/undo", [1]),
           ("POST", "/api/sessions", {"game": "halali", "players": ["x" * 10_000, "y"]}),
           ("POST", "/api/sessions", {"game": "card-hunter", "players": ["A"], "difficulty": huge})]
    for method, path, body in api:
        for match in (None, '"x.en"', "*", "W/\"abc\""):
            headers = {**organiser_headers(), **({"If-Match": match} if match else {})}
            answer = client.request(method, path.format(s=session_id), json=body, headers=headers)
            assert answer.status_code < 500, (method, path, answer.text[:300])
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', client.get(f"/s/{session_id}/enter?player=Alice").text).group(1)
    for number, player, value in itertools.product(["2", "10000000000000000000000", "²", "-1", ""],
                                                   ["Alice", "Nobody", ""], [str(huge), "²", "x" * 500]):
        answer = client.post(f"/s/{session_id}/enter", data={
            "csrf": csrf, "number": number, "player": player, "v": value, "p.hand.wolf": value, "p.hunter": value,
            "p.lodge_flipped": value, "r.blue": value})
        assert answer.status_code < 500, (number, player, value, answer.text[:300])
    for change in ("1", str(huge), "x", ""):
        assert client.post(f"/s/{session_id}/undo", data={"csrf": csrf, "change": change}).status_code < 500
    home = client.get("/")
    start_csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', home.text).group(1)
    for value in HOSTILE:
        answer = client.post("/sessions", data={"csrf": start_csrf, "game": value, "player1": value, "player2": "B",
                                                "lang": value, "start.card-hunter.difficulty": value})
        assert answer.status_code < 500, (value, answer.text[:300])


def test_an_unknown_page_never_links_to_another_site(world):
    client, _ = world
    for path in ("//evil.example/x", "/\\evil.example/x", "//evil.example/x?lang=fr&a=//b.example"):
        answer = client.get("http://testserver" + path)
        assert answer.status_code == 404
        links = re.findall(r'href="([^"]*)"', answer.text)
        # Every link is a path of this server or a query on this very page: none leads elsewhere.
        assert links and all(link.startswith("?") or (link.startswith("/") and link[1:2] not in ("/", "\\"))
                             for link in links), links


def test_a_bgstats_code_too_long_for_a_qr_code_leaves_the_button(tmp_path):
    db = Database.in_folder(tmp_path)
    client = TestClient(create_app(db, ORGANISER))
    client.get("/", params={"token": ORGANISER})
    names = ["N" * 400 + "a", "N" * 400 + "b"]
    [imported] = sessions.import_documents(db, [("x.json", {**halali(4), "players": names, "rounds": [
        {"blue": names[0], "tiles": {}}, {"blue": names[1], "tiles": {}}]})])
    page = client.get(f"/s/{imported.session_id}/result")
    assert page.status_code == 200 and 'href="bgstats://' in page.text
    db.close()


# -- pnp serve on the network -----------------------------------------------------


def test_the_network_never_gets_a_short_organiser_token(tmp_path):
    from pnp.web.serve import run

    lines = []
    with pytest.raises(PnpError, match="at least 16 characters"):
        run("0.0.0.0", 0, tmp_path, "aaaaaaaa", echo=lines.append)
    with pytest.raises(PnpError, match="at least 16 characters"):
        run("192.168.1.20", 0, tmp_path, "short-token-1234"[:15], echo=lines.append)
    assert lines == [] and not (tmp_path / "pnp.sqlite3").exists()  # refused before anything is opened


def test_listening_on_the_network_says_the_pages_travel_unencrypted(tmp_path):
    from web_helpers import ServerProcess

    server = ServerProcess(tmp_path, "a-long-enough-organiser-token", "--host", "0.0.0.0")
    try:
        said = [server.process.stdout.readline() for _ in range(2)]
    finally:
        server.stop()
    assert any("unencrypted" in line for line in said), said


# -- durability and upgrades -------------------------------------------------------


def test_every_commit_waits_for_the_disk(tmp_path):
    db = Database.in_folder(tmp_path)
    with db.read() as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert connection.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    db.close()


MAIN_SCHEMA_SESSION = {"game": "halali", "players": ["Ann", "Ben"], "date": "2026-11-22",
                       "rounds": [{"blue": "Ann", "tiles": {"Ann": {"bear": 1}, "Ben": {}}}]}


def _older_database(path, version: int, session_id: str) -> sqlite3.Connection:
    """The file as schema ``version`` left it, with one Halali session (its rows as that version had them)."""
    old = sqlite3.connect(path)
    old.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    old.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    old.execute("INSERT INTO schema_version VALUES (?)", (version,))
    for statements in MIGRATIONS[:version]:
        for statement in statements:
            old.execute(statement)
    result = sessions.scored(MAIN_SCHEMA_SESSION)[0]
    old.execute("INSERT INTO sessions VALUES (?, 'halali', ?, ?, 0, 'hash', 'table', NULL, 'f', '2026-11-22', "
                "'2026-11-22T19:00:00+00:00', '2026-11-22T19:00:00+00:00', NULL)",
                (session_id, json.dumps(MAIN_SCHEMA_SESSION), json.dumps(result)))
    return old


def test_a_database_of_an_earlier_version_is_upgraded_and_keeps_everything(tmp_path):
    # The file as the first version left it: its one migration, a session and a waiting part.
    path = tmp_path / "pnp.sqlite3"
    old = _older_database(path, 1, "old1")
    old.execute("INSERT INTO parts VALUES ('old1', 2, 'Ann', '{\"tree\": 2}', '2026-11-22T19:05:00+00:00')")
    old.commit()
    old.close()
    db = Database(path)
    assert db.migrate() == SCHEMA_VERSION
    with db.read() as connection:
        assert connection.execute("SELECT version FROM schema_version").fetchone()[0] == SCHEMA_VERSION == 4
    assert sessions.get_session(db, "old1").document == MAIN_SCHEMA_SESSION
    status = round_store.round_status(db, "old1", 2)
    assert status.entered == ("Ann",) and status.parts == {"Ann": {"tree": 2}}
    round_store.send(db, "old1", 2, {"tiles": {"Ben": {"bear": 1}}}, actor=ORGANISER_ACTOR)
    round_store.send(db, "old1", 1, {"tiles": {"Ben": {"hunter": 1}}}, actor=ORGANISER_ACTOR)
    assert [c.action for c in changes.changes(db, "old1")] == ["correct", "enter"]
    assert len(sessions.get_session(db, "old1").document["rounds"]) == 2
    db.close()


def test_the_phones_that_spoke_for_players_keep_their_seats_after_the_upgrade(tmp_path):
    # Version 2 kept "claims": the phone (its device key's hash) that sent a player's part first.
    path = tmp_path / "pnp.sqlite3"
    old = _older_database(path, 2, "old2")
    old.execute("INSERT INTO claims VALUES ('old2', 'Ann', ?, '2026-11-22T19:01:00+00:00')", (token_hash("ann-phone-key"),))
    old.commit()
    old.close()
    db = Database(path)
    assert seat_map(db, "old2") == {"Ann": token_hash("ann-phone-key")}
    db.close()


# -- odd input: numbers past any game, forms past any page, names as people count them ------------


def test_a_round_number_of_any_length_is_a_404_naming_it(world):
    client, session_id = world
    client.cookies.set("pnp_lang", "en")  # an earlier test switched to French
    for number in ("99999999999999999999", "5" * 5000, "0", "x7"):
        api = client.get(f"/api/sessions/{session_id}/rounds/{number}", headers=organiser_headers())
        assert api.status_code == 404, number
        assert api.json()["errors"][0]["code"] == "unknown_round"
        assert api.json()["errors"][0]["message"].startswith("Day " + number[:6])
        page = client.get(f"/s/{session_id}/enter", params={"round": number})
        assert page.status_code == 404 and f"Day {number[:6]}" in page.text and "this game has 4" in page.text
    for method in ("PATCH", "PUT"):
        answer = client.request(method, f"/api/sessions/{session_id}/rounds/{'9' * 5000}", json={},
                                headers={**organiser_headers(), "If-Match": "*"})
        assert answer.status_code == 404 and answer.json()["errors"][0]["code"] == "unknown_round"


def test_a_page_form_with_a_huge_round_or_too_many_fields_says_so(world):
    client, session_id = world
    client.cookies.set("pnp_lang", "en")  # an earlier test switched to French
    page = client.get(f"/s/{session_id}/enter", params={"player": "Alice"}).text
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page).group(1)
    huge = client.post(f"/s/{session_id}/enter", data={"csrf": csrf, "number": "99999999999999999999",
                                                        "player": "Alice"})
    assert huge.status_code == 404 and "Day 999999…" in huge.text and "security token" not in huge.text
    crowded = client.post(f"/s/{session_id}/enter", data={"csrf": csrf, "number": "2",
                                                           **{f"p.x{i}": "1" for i in range(300)}})
    assert crowded.status_code == 413 and "more than 200 fields" in crowded.text
    assert "security token" not in crowded.text


def test_a_name_is_as_long_as_a_person_sees_it(world):
    client, _ = world
    client.cookies.set("pnp_lang", "en")  # an earlier test switched to French
    family = "\U0001F468\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466"  # one emoji of seven code points
    ten = client.post("/api/sessions", json={"game": "halali", "players": [family * 10, "Ben"]},
                      headers=organiser_headers())
    assert ten.status_code == 201, ten.text
    accents = "e\u0301" * 40  # 40 letters é, each typed as e and a combining accent
    assert client.post("/api/sessions", json={"game": "halali", "players": [accents, "Ben"]},
                       headers=organiser_headers()).status_code == 201
    long = client.post("/api/sessions", json={"game": "halali", "players": [family * 41, "Ben"]},
                       headers=organiser_headers())
    assert long.status_code == 422 and "has 41 characters" in long.json()["errors"][0]["message"]
