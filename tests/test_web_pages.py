"""The pages of ``pnp serve``: the organiser's link, forms with CSRF, joining a table, results, history."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from pnp.web.app import create_app
from pnp.web.db import Database
from web_helpers import ORGANISER, halali, hunting_fever, organiser_headers, versioned


@pytest.fixture()
def app(tmp_path):
    db = Database.in_folder(tmp_path)
    yield create_app(db, ORGANISER, "http://192.168.1.20:8765")
    db.close()


def organiser(app) -> TestClient:
    client = TestClient(app, follow_redirects=False)
    client.get("/", params={"token": ORGANISER})
    return client


def csrf(html: str) -> str:
    return re.search(r'name="csrf" value="([0-9a-f]+)"', html).group(1)


def went_to(answer) -> str:
    """Where a sent form leads, without the draft it tells the phone to forget (``saved``)."""
    path, _, query = answer.headers["location"].partition("?")
    kept = "&".join(item for item in query.split("&") if item and not item.startswith("saved="))
    return f"{path}?{kept}" if kept else path


def form_keys(html: str) -> dict:
    """What an entry page's form sends besides its answers: its CSRF token and the version it shows."""
    return {"csrf": csrf(html), "v": re.search(r'name="v" value="([0-9a-f]+)"', html).group(1)}


def start(client: TestClient, game: str, players: list[str], lang: str = "en"):
    home = client.get("/")
    fields = {"csrf": csrf(home.text), "game": game, "lang": lang}
    fields.update({f"player{i}": name for i, name in enumerate(players, start=1)})
    return client.post("/sessions", data=fields)


def test_the_organiser_link_leaves_a_cookie_and_not_the_token_in_the_address(app):
    client = TestClient(app, follow_redirects=False)
    answer = client.get("/", params={"token": ORGANISER})
    assert answer.status_code == 303 and answer.headers["location"] == "/"
    cookie = answer.headers["set-cookie"]
    assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower()
    assert client.get("/").status_code == 200


def test_without_the_organiser_there_is_only_a_welcome(app):
    client = TestClient(app, follow_redirects=False)
    assert client.get("/").status_code == 401
    assert client.get("/", params={"token": "guess"}).status_code == 403
    assert client.get("/history").status_code == 401


def test_starting_a_session_from_the_form(app):
    client = organiser(app)
    answer = start(client, "hunting-fever", ["Ann", "Ben", "Cat"], "fr")
    assert answer.status_code == 303
    session_id = answer.headers["location"].rsplit("/", 1)[1]
    assert f"Path=/s/{session_id}" in answer.headers["set-cookie"]
    table = client.get(f"/s/{session_id}")
    assert table.status_code == 200 and '<html lang="fr">' in table.text
    assert "Jour 1 sur 4" in table.text
    assert 'class="qr"' in table.text
    join = re.search(r'id="join-link" type="text" readonly value="([^"]+)"', table.text).group(1)
    assert join.startswith(f"http://192.168.1.20:8765/s/{session_id}/join?t=")


def test_a_form_without_its_csrf_token_changes_nothing(app):
    client = organiser(app)
    fields = {"game": "halali", "player1": "Ann", "player2": "Ben", "lang": "en"}
    assert client.post("/sessions", data=fields).status_code == 403
    assert client.post("/sessions", data={**fields, "csrf": "0" * 32}).status_code == 403
    from_elsewhere = client.post("/sessions", data={**fields, "csrf": csrf(client.get("/").text)},
                                 headers={"Origin": "http://evil.example"})
    assert from_elsewhere.status_code == 403
    assert "sessions started here" not in client.get("/").text.lower()


def test_an_impossible_session_is_shown_on_the_form_in_its_language(app):
    client = organiser(app)
    answer = start(client, "hunting-fever", ["Ann", "Ben"], "en")
    assert answer.status_code == 422
    assert "Hunting Fever is played by 3 to 5 players, but the session lists 2." in answer.text
    assert 'value="Ann"' in answer.text  # what was typed is kept
    french = client.get("/", params={"lang": "fr"})
    assert "Commencer une partie" in french.text


def test_joining_through_the_qr_link(app):
    owner = organiser(app)
    session_id = start(owner, "halali", ["Ann", "Ben"]).headers["location"].rsplit("/", 1)[1]
    link = re.search(r'id="join-link" type="text" readonly value="([^"]+)"', owner.get(f"/s/{session_id}").text).group(1)
    phone = TestClient(app, follow_redirects=False)
    assert phone.get(f"/s/{session_id}").status_code == 401
    assert phone.get(f"/s/{session_id}/join", params={"t": "guess"}).status_code == 403
    joined = phone.get(link.replace("http://192.168.1.20:8765", ""))
    assert joined.status_code == 303 and joined.headers["location"] == f"/s/{session_id}"
    assert phone.get(f"/s/{session_id}").status_code == 200
    other = start(owner, "halali", ["Cat", "Dan"]).headers["location"].rsplit("/", 1)[1]
    assert phone.get(f"/s/{other}").status_code == 401  # joined one table, not every table


def test_the_live_scores_answer_304_until_something_changes(app):
    client = organiser(app)
    raw = halali(2)
    session_id = start(client, "halali", raw["players"]).headers["location"].rsplit("/", 1)[1]
    first = client.get(f"/s/{session_id}/live")
    assert first.status_code == 200 and "Round 1 of 2" in first.text
    etag = first.headers["etag"]
    assert client.get(f"/s/{session_id}/live", headers={"If-None-Match": etag}).status_code == 304
    versioned(client, "PUT", f"/api/sessions/{session_id}/rounds/1", json=raw["rounds"][0], headers=organiser_headers())
    changed = client.get(f"/s/{session_id}/live", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and "Round 2 of 2" in changed.text


def finished(client: TestClient, raw: dict) -> str:
    session_id = start(client, raw["game"], raw["players"]).headers["location"].rsplit("/", 1)[1]
    for number, body in enumerate(raw["days"], start=1):
        versioned(client, "PUT", f"/api/sessions/{session_id}/rounds/{number}", json=body, headers=organiser_headers())
    return session_id


def test_the_result_page_names_the_winner_and_offers_bgstats_and_files(app):
    client = organiser(app)
    raw = hunting_fever(3)
    session_id = finished(client, raw)
    page = client.get(f"/s/{session_id}/result")
    assert page.status_code == 200
    state = client.get(f"/api/sessions/{session_id}", headers=organiser_headers()).json()
    assert f"Winner: {state['winners'][0]}" in page.text
    assert 'href="bgstats://app.bgstatsapp.com/createPlay.html?data=' in page.text
    assert page.text.count('class="qr"') == 1
    key = re.search(r"/export/toml\?k=([0-9a-f]+)", page.text).group(1)
    stranger = TestClient(app, follow_redirects=False)
    assert stranger.get(f"/s/{session_id}/result").status_code == 401
    assert stranger.get(f"/s/{session_id}/result", params={"k": "0" * 24}).status_code == 401
    assert stranger.get(f"/s/{session_id}/result", params={"k": key}).status_code == 200
    assert stranger.get(f"/s/{session_id}/export/csv", params={"k": key}).text.startswith("round,player,game")
    assert stranger.get(f"/s/{session_id}", params={"k": key}).status_code == 401  # the key shows, never changes


def test_the_filled_scoresheet_is_a_pdf_whose_qr_code_leads_to_the_result(app):
    client = organiser(app)
    session_id = finished(client, hunting_fever(4))
    key = re.search(r"/sheet/a4\.pdf\?k=([0-9a-f]+)", client.get(f"/s/{session_id}/result").text).group(1)
    pdf = client.get(f"/s/{session_id}/sheet/a4.pdf", params={"k": key})
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")


def test_a_filled_sheet_carries_the_qr_text_it_is_given():
    from pnp.template.model import PrintOptions
    from pnp.kit.scoresheet import render_filled_sheet
    from scoring import check_session, score_session

    result = score_session(check_session(hunting_fever(5)).session)
    plain, _ = render_filled_sheet(result, PrintOptions())
    linked, _ = render_filled_sheet(result, PrintOptions(), qr_text="http://192.168.1.20:8765/s/x/result?k=1")
    assert plain != linked


def test_history_shows_each_game_with_a_chart(app):
    client = organiser(app)
    finished(client, hunting_fever(6))
    finished(client, hunting_fever(7))
    page = client.get("/history", params={"lang": "fr"})
    assert page.status_code == 200
    assert "Chasse en folie" in page.text and page.text.count('class="chart"') == 1
    assert 'aria-label="Chasse en folie\u00a0: victoires de ses cinq joueurs les plus victorieux"' in page.text


def test_the_language_follows_the_browser_then_the_switch(app):
    client = TestClient(app, follow_redirects=False)
    assert "Bienvenue" in client.get("/", headers={"Accept-Language": "fr-CA,fr;q=0.9"}).text
    switched = client.get("/", params={"lang": "en"}, headers={"Accept-Language": "fr"})
    assert "Welcome" in switched.text and "pnp_lang=en" in switched.headers["set-cookie"]
    assert "Welcome" in client.get("/", headers={"Accept-Language": "fr"}).text


def test_pages_are_escaped(app):
    client = organiser(app)
    answer = start(client, "halali", ["<script>x</script>", "Ben"])
    table = client.get(answer.headers["location"])
    assert "<script>x</script>" not in table.text and "&lt;script&gt;x&lt;/script&gt;" in table.text


def test_unknown_pages_and_sessions(app):
    client = organiser(app)
    assert client.get("/s/nothing").status_code == 404
    assert client.get("/nowhere").status_code == 404
    assert client.get("/api/nowhere").json()["errors"][0]["code"] == "not_found"


def test_a_stale_organiser_cookie_is_told_apart_from_no_cookie(app):
    client = organiser(app)
    session_id = start(client, "halali", ["Ann", "Ben"]).headers["location"].rsplit("/", 1)[1]
    stale = TestClient(app, follow_redirects=False, cookies={"pnp_organiser": "an-earlier-organiser-token"})
    answer = stale.get(f"/s/{session_id}")
    assert answer.status_code == 403 and "This key does not open this table" in answer.text


# -- entering a day from the pages ---------------------------------------------


def part_fields(part: dict, prefix: str = "p.") -> dict:
    """A Hunting Fever part (session-file form) as the entry page posts it."""
    fields = {f"{prefix}{place}.{card}": str(part[place][card])
              for place in ("hand", "prey") for card in part[place] if card != "hunter"}
    hunter = "hand" if part["hand"]["hunter"] else "prey" if part["prey"]["hunter"] else "lodge"
    fields[f"{prefix}hunter"] = hunter
    fields[f"{prefix}lodge_flipped"] = "true" if part["lodge_flipped"] else "false"
    return fields


def test_each_player_enters_their_day_on_the_entry_page(app):
    client = organiser(app)
    raw = hunting_fever(8)
    session_id = start(client, "hunting-fever", raw["players"], "fr").headers["location"].rsplit("/", 1)[1]
    picker = client.get(f"/s/{session_id}/enter")
    assert picker.status_code == 200 and "Qui saisit\u00a0?" in picker.text  # never a "?" alone on a line
    for number, day in enumerate(raw["days"], start=1):
        for player in raw["players"]:
            page = client.get(f"/s/{session_id}/enter", params={"player": player})
            assert page.status_code == 200
            assert f"Jour {number} — {player}" in page.text
            assert 'name="p.hand.wolf"' in page.text and 'min="0" max="2"' in page.text
            sent = client.post(f"/s/{session_id}/enter", data={
                **form_keys(page.text), "number": str(number), "player": player, **part_fields(day[player])})
            assert sent.status_code == 303 and went_to(sent) == f"/s/{session_id}?sent={number}"
        assert f"Jour {number}\u00a0: c’est validé." in client.get(sent.headers["location"]).text
    state = client.get(f"/api/sessions/{session_id}", headers=organiser_headers()).json()
    from scoring import check_session, score_session
    from scoring.report import result_json

    assert state == result_json(score_session(check_session(raw).session))


def test_a_wrong_count_is_shown_beside_its_field_and_nothing_is_kept(app):
    client = organiser(app)
    raw = hunting_fever(9)
    session_id = start(client, "hunting-fever", raw["players"]).headers["location"].rsplit("/", 1)[1]
    player = raw["players"][0]
    page = client.get(f"/s/{session_id}/enter", params={"player": player})
    fields = part_fields(raw["days"][0][player])
    fields["p.hand.wolf"] = "3"
    answer = client.post(f"/s/{session_id}/enter", data={**form_keys(page.text), "number": "1", "player": player,
                                                         **fields})
    assert answer.status_code == 422
    wolf = answer.text.index('name="p.hand.wolf"')
    beside = answer.text[wolf:answer.text.index('class="question', wolf)]
    assert 'class="field-problem"' in beside and "Day 1, Alice, hand, Wolf: at most 2, not 3." in beside
    assert 'value="3"' in beside  # what was typed stays on the page
    status = client.get(f"/api/sessions/{session_id}/rounds/1", headers=organiser_headers()).json()
    assert status["entered"] == []


def test_halali_asks_who_plays_blue_first_then_the_tiles(app):
    client = organiser(app)
    raw = halali(16)
    session_id = start(client, "halali", raw["players"]).headers["location"].rsplit("/", 1)[1]
    ann, ben = raw["players"]
    page = client.get(f"/s/{session_id}/enter", params={"player": ann})
    assert 'name="r.blue"' in page.text and 'name="p.' not in page.text
    answer = client.post(f"/s/{session_id}/enter", data={**form_keys(page.text), "number": "1", "player": ann,
                                                         "r.blue": ben})
    assert went_to(answer) == f"/s/{session_id}/enter?player={ann}"
    tiles = client.get(answer.headers["location"])
    assert 'name="r.blue"' not in tiles.text and 'name="p.tree"' in tiles.text  # brown may hold trees
    blue = client.get(f"/s/{session_id}/enter", params={"player": ben})
    assert 'name="p.tree"' not in blue.text and 'name="p.bear"' in blue.text
    assert f"{ben}" in tiles.text and "blue" in tiles.text  # the round's answer is shown, not asked again


def test_the_whole_rounds_question_can_be_answered_before_anyone_picks_their_name(app):
    client = organiser(app)
    session_id = start(client, "halali", ["Ann", "Ben"]).headers["location"].rsplit("/", 1)[1]
    page = client.get(f"/s/{session_id}/enter")
    assert 'name="r.blue"' in page.text and "Who is entering?" not in page.text
    answer = client.post(f"/s/{session_id}/enter", data={**form_keys(page.text), "number": "1", "r.blue": "Ann"})
    assert went_to(answer) == f"/s/{session_id}/enter"
    picker = client.get(answer.headers["location"])
    assert "Who is entering?" in picker.text and 'name="r.blue"' not in picker.text


def test_a_team_game_enters_its_result_on_one_page(app):
    client = organiser(app)
    session_id = start(client, "card-hunter", ["Ann", "Ben"]).headers["location"].rsplit("/", 1)[1]
    page = client.get(f"/s/{session_id}/enter")
    assert 'name="r.result"' in page.text and 'data-when="result" data-when-value="won"' in page.text
    answer = client.post(f"/s/{session_id}/enter", data={**form_keys(page.text), "number": "1", "r.result": "lost"})
    assert answer.status_code == 303
    state = client.get(f"/api/sessions/{session_id}", headers=organiser_headers()).json()
    assert state["complete"] is True and state["winners"] == []
    assert client.get(f"/s/{session_id}/enter").status_code == 409


def test_a_page_sent_for_a_day_committed_meanwhile_is_refused_with_the_fresh_state_and_the_typed_values(app):
    client = organiser(app)
    raw = hunting_fever(10)
    alice = raw["players"][0]
    session_id = start(client, "hunting-fever", raw["players"]).headers["location"].rsplit("/", 1)[1]
    page = client.get(f"/s/{session_id}/enter", params={"player": alice})
    versioned(client, "PUT", f"/api/sessions/{session_id}/rounds/1", json=raw["days"][0], headers=organiser_headers())
    before = client.get(f"/api/sessions/{session_id}", headers=organiser_headers()).json()
    typed = part_fields(raw["days"][1][alice])
    late = client.post(f"/s/{session_id}/enter", data={**form_keys(page.text), "number": "1", "player": alice,
                                                       **typed})
    assert late.status_code == 409 and "This changed while you were typing" in late.text
    for name, value in typed.items():
        if name != "p.hunter" and name != "p.lodge_flipped":
            assert re.search(rf'name="{re.escape(name)}" type="number" inputmode="numeric" value="{value}"', late.text)
    assert "Saved now:" in late.text and "Correct: Day 1" in late.text  # the form is now a correction
    assert client.get(f"/api/sessions/{session_id}", headers=organiser_headers()).json() == before
    assert client.get(f"/api/sessions/{session_id}/rounds/2", headers=organiser_headers()).json()["entered"] == []
    # Sent again from the refreshed form, it is the correction it now says it is.
    again = client.post(f"/s/{session_id}/enter", data={**form_keys(late.text), "number": "1", "player": alice,
                                                        **typed})
    assert again.status_code == 303 and went_to(again) == f"/s/{session_id}?fixed=1"
    assert client.get(f"/api/sessions/{session_id}/rounds/1", headers=organiser_headers()).json()["corrections"]


def test_every_page_string_the_templates_and_code_name_is_in_both_catalogs():
    from pnp.core.i18n import common_catalog

    web = Path(__file__).resolve().parent.parent / "pnp" / "web"
    named, plural = set(), set()
    for page in (web / "templates").glob("*.html"):
        text = page.read_text(encoding="utf-8")
        named |= {f"web.{key}" for key in re.findall(r"""\bt\(\s*["']([a-z_.]*[a-z_])["']""", text)}
        plural |= {f"web.{key}" for key in re.findall(r"""\btn\(\s*["']([a-z_.]+)["']""", text)}
    for source in web.glob("*.py"):
        named |= set(re.findall(r"""["'](web\.[a-z_]+\.[a-z_.]+)["']""", source.read_text(encoding="utf-8")))
    assert len(named) > 60  # the scan found them
    for lang in ("en", "fr"):
        texts = common_catalog(lang).texts
        assert [key for key in named if key not in texts] == []
        assert [key for key in plural if f"{key}.one" not in texts or f"{key}.other" not in texts] == []


def test_the_organiser_sees_the_join_code_of_a_table_started_elsewhere(app):
    client = organiser(app)
    made = client.post("/api/sessions", json={"game": "halali", "players": ["Ann", "Ben"]},
                       headers=organiser_headers()).json()
    table = client.get(f"/s/{made['id']}")
    assert 'class="qr"' in table.text
    link = re.search(r'id="join-link" type="text" readonly value="([^"]+)"', table.text).group(1)
    assert link == made["url"].replace("http://testserver", "http://192.168.1.20:8765")


def test_a_session_that_does_not_fit_its_printed_sheet_gets_a_page_saying_why(app):
    client = organiser(app)
    # One word far too long for a scoresheet's name box, even at 6 pt (words wrap; this one cannot).
    # A table takes names of at most 40 characters; an imported session file may hold longer ones.
    long_name = "Wilhelmina" * 12
    from pnp.web import sessions

    [imported] = sessions.import_documents(app.state.site.db, [("x.toml", hunting_fever(5, [long_name, "Ben", "Cat"]))])
    session_id = imported.session_id
    key = re.search(r"/sheet/a4\.pdf\?k=([0-9a-f]+)", client.get(f"/s/{session_id}/result").text).group(1)
    answer = client.get(f"/s/{session_id}/sheet/a4.pdf", params={"k": key, "lang": "fr"})
    assert answer.status_code == 422 and answer.headers["content-type"].startswith("text/html")
    assert "La feuille de score ne peut pas être imprimée" in answer.text
    assert "Wilhelmina" in answer.text
