"""Real browsers on phone-sized screens (390 x 844) play and correct sessions through ``pnp serve``.

Chromium from Debian's packages (``chromium``, ``chromium-driver``), headless.  A
whole Hunting Fever session in French: the organiser's browser starts it and keeps
the table page open (it must follow the scores by itself), a phone joins through
the table's join link and enters each player's part with the steppers and
buttons.  Ten rounds of Hunting Hunting Beavers with 40-character names: the
totals stay on screen, and a phone corrects a round already in the scores.  Two
phones answer who plays blue at once: the stale one is refused, keeps its answer
and sends it again; numbers typed and not sent survive a reload.  Without
Chromium the tests are skipped, except in CI (``CI`` set), where they fail:
``.ci/run`` installs it.

Screenshots go to ``$PNP_SCREENSHOTS`` if set, else to the test's own folder.
"""

from __future__ import annotations

import json
import urllib.request

from browser_helpers import (  # noqa: F401 - chromium and shots are fixtures
    _by,
    api,
    arrived,
    chromium,
    choose,
    css,
    enter_part,
    fill_part,
    go,
    in_view,
    leaving,
    send,
    set_count,
    shots,
    take_seat,
    tap,
    wait_for,
)
from scoring import check_session, score_session
from scoring.report import result_json
from web_helpers import ORGANISER, ServerProcess, hunting_fever

def test_a_whole_hunting_fever_session_from_a_phone_in_french(tmp_path, chromium, shots):
    raw = hunting_fever(31)
    players = raw["players"]
    server = ServerProcess(tmp_path / "data")
    try:
        table = chromium()
        table.get(f"{server.url}/?token={ORGANISER}")
        assert table.find_element(_by("TAG_NAME"), "h1").text == "Commencer une partie"
        choose(table, "game", "hunting-fever")
        for seat, name in enumerate(players, start=1):
            table.find_element(_by("NAME"), f"player{seat}").send_keys(name)
        choose(table, "lang", "fr")
        shots(table, "1-commencer")
        leaving(table)
        tap(table, css("form button[type=submit]"))
        arrived(table)
        assert "/s/" in table.current_url
        assert "Jour 1 sur 4" in table.page_source
        join = table.find_element(_by("ID"), "join-link").get_attribute("value")
        assert table.find_element(_by("CSS_SELECTOR"), "svg.qr").is_displayed()
        shots(table, "2-table")

        phone = chromium()
        go(phone, join)
        session_id = join.split("/s/")[1].split("/")[0]
        assert phone.current_url.rstrip("/").endswith(session_id)
        assert "Chasse en folie" in phone.page_source and "Prenez votre place" in phone.page_source
        # One phone passed round the table: it takes every player's seat.
        for player in players:
            take_seat(phone, server, session_id, player)
        go(phone, f"{server.url}/s/{session_id}")
        for number, day in enumerate(raw["days"], start=1):
            for player in players:
                leaving(phone)
                # The live table may be replacing this list while it is read: found again if so.
                tap(phone, lambda d: next(
                    li for li in d.find_elements(_by("CSS_SELECTOR"), "[data-live] .entries li")
                    if li.find_element(_by("CLASS_NAME"), "who").text == player
                ).find_element(_by("CSS_SELECTOR"), "a.small-button"))
                arrived(phone)
                assert f"Jour {number} — {player}" in phone.find_element(_by("TAG_NAME"), "h1").text
                if number == 1 and player == players[0]:
                    # A flipped lodge with the Closed Season card still in hand cannot happen.
                    part = day[player]
                    enter_part(phone, {**part, "hand": {**part["hand"], "closed_season": 1}}, lodge_flipped=True,
                               steppers=True)
                    shots(phone, "3-saisie")
                    send(phone)
                    problem = phone.find_element(_by("CSS_SELECTOR"), ".question.wrong")
                    assert "Saison de chasse fermée" in problem.text or "pavillon" in problem.text.lower()
                    shots(phone, "4-erreur")
                if number == 1:
                    enter_part(phone, day[player])
                else:
                    fill_part(phone, day[player])
                send(phone)
                assert phone.find_elements(_by("CLASS_NAME"), "flash"), phone.current_url
            assert phone.find_element(_by("CLASS_NAME"), "flash").text == f"Jour {number} : c’est validé."
            # The table's own page follows without being reloaded.
            expected = "Terminée" if number == 4 else f"Jour {number + 1} sur 4"
            wait_for(table, lambda d: expected in d.find_element(_by("CSS_SELECTOR"), "[data-live]").text, 15)
        shots(table, "5-table-finie")
        leaving(phone)
        tap(phone, lambda d: d.find_element(_by("LINK_TEXT"), "Voir le résultat"))
        arrived(phone)
        assert "/result" in phone.current_url
        result = result_json(score_session(check_session(raw).session))
        headline = phone.find_element(_by("CSS_SELECTOR"), "h1.headline").text
        assert headline.startswith("Vainqueur") and all(name in headline for name in result["winners"])
        assert phone.find_element(_by("LINK_TEXT"), "Ajouter à BG Stats").get_attribute("href").startswith(
            "bgstats://app.bgstatsapp.com/createPlay.html?data=")
        shots(phone, "6-resultat")
        go(table, f"{server.url}/history")
        assert "Chasse en folie" in table.find_element(_by("TAG_NAME"), "main").text
        shots(table, "7-historique")
        request = urllib.request.Request(f"{server.url}/api/sessions/{session_id}",
                                         headers={"Authorization": f"Bearer {ORGANISER}"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert json.loads(answer.read()) == result  # every part went in, each exactly once
    finally:
        server.stop()


FORTY = ["Anne-Sophie de La Tour-Mauvoisin Lefèvre", "Bartholomew Fitzwilliam-Montgomery Jones",
         "Charlotte Élisabeth Marchand-Vasseur Loy", "Dominique-Alexandre Vanderberghe Petitot"]


def test_ten_rounds_keep_the_totals_on_screen_and_a_phone_corrects_a_round(tmp_path, chromium, shots):
    from bench.sessions import beavers_session
    import random

    assert all(len(name) == 40 for name in FORTY)
    raw = {**beavers_session(random.Random(7)), "players": FORTY}
    raw["rounds"] = [{name: round_[old] for name, old in zip(FORTY, beavers_players())}
                     for round_ in raw["rounds"]]
    server = ServerProcess(tmp_path / "data")
    try:
        made = api(server, "POST", "/api/sessions", {"game": raw["game"], "players": FORTY, "lang": "en"})
        for number, body in enumerate(raw["rounds"], start=1):
            api(server, "PUT", f"/api/sessions/{made['id']}/rounds/{number}", body)
        phone = chromium("en")
        go(phone, made["url"])
        take_seat(phone, server, made["id"], FORTY[0])
        go(phone, f"{server.url}/s/{made['id']}")
        # Ten rounds, long names: the player column and the Total column both stay in view.
        assert in_view(phone, ".scores .total") and in_view(phone, ".scores th.name")
        assert not in_view(phone, ".scores tbody td:nth-child(11)")  # the rounds scroll, the totals stay
        shots(phone, "en-1-table-ten-rounds")
        go(phone, f"{server.url}/s/{made['id']}/result")
        assert in_view(phone, ".scores .total")
        # Round 3 was wrong for the first player: corrected from their phone.
        go(phone, f"{server.url}/s/{made['id']}")
        leaving(phone)
        tap(phone, css(f'a[href="/s/{made["id"]}/enter?round=3"]'))
        arrived(phone)
        leaving(phone)
        tap(phone, lambda d: next(a for a in d.find_elements(_by("CSS_SELECTOR"), "a.pick")
                                  if FORTY[0] in a.text))
        arrived(phone)
        field = phone.find_element(_by("NAME"), "p.change")
        old = int(field.get_attribute("value"))
        assert old == raw["rounds"][2][FORTY[0]]
        new = old - 1 if old > 0 else old + 1
        set_count(phone, "p.change", new)
        shots(phone, "en-4-correct-part")
        send(phone)
        assert "Round 3 is corrected" in phone.find_element(_by("CLASS_NAME"), "flash").text
        rows = phone.find_elements(_by("CSS_SELECTOR"), ".scores tbody tr")
        total = int(rows[0].find_element(_by("CSS_SELECTOR"), "td.total").text)
        expected = sum(r[FORTY[0]] for r in raw["rounds"]) - old + new
        assert total == expected
        shots(phone, "en-5-corrected")
        go(phone, f"{server.url}/s/{made['id']}/history")
        assert f"{old} → {new}" in phone.find_element(_by("TAG_NAME"), "main").text
        shots(phone, "en-6-history")
        state = api(server, "GET", f"/api/sessions/{made['id']}")
        assert state["totals"][FORTY[0]] == expected
    finally:
        server.stop()


def beavers_players() -> list[str]:
    from bench.sessions import NAMES

    return NAMES[:4]


def test_a_stale_phone_is_refused_keeps_its_answer_and_typed_numbers_survive_a_reload(tmp_path, chromium, shots):
    server = ServerProcess(tmp_path / "data")
    try:
        made = api(server, "POST", "/api/sessions", {"game": "halali", "players": ["Ann", "Ben"], "lang": "fr"})
        phone_a, phone_b = chromium(), chromium()
        for phone, player in ((phone_a, "Ann"), (phone_b, "Ben")):
            go(phone, made["url"])
            take_seat(phone, server, made["id"], player)
            go(phone, f"{server.url}/s/{made['id']}/enter")
            assert phone.find_element(_by("NAME"), "r.blue")
        # Phone A answers "Ann plays blue" while phone B still shows the question.
        choose(phone_a, "r.blue", "Ann")
        send(phone_a)
        choose(phone_b, "r.blue", "Ben")
        send(phone_b)
        alert = phone_b.find_element(_by("CSS_SELECTOR"), ".problems.stale").text
        assert "Ceci a changé pendant que vous saisissiez" in alert
        assert phone_b.find_element(_by("CSS_SELECTOR"), 'input[name="r.blue"][value="Ben"]').is_selected()
        saved_now = phone_b.find_element(_by("CLASS_NAME"), "saved-now").get_attribute("textContent")
        assert saved_now == "Enregistré maintenant\u00a0: Ann"  # a "?" or ":" never starts a line
        assert api(server, "GET", f"/api/sessions/{made['id']}/rounds/1")["round"] == \
            {"blue": "Ann"}
        shots(phone_b, "fr-1-stale")
        send(phone_b)  # sent again, knowingly
        assert api(server, "GET", f"/api/sessions/{made['id']}/rounds/1")["round"] == \
            {"blue": "Ben"}
        # Ann counts her tiles on phone A, then the page is reloaded before she sends.
        go(phone_a, f"{server.url}/s/{made['id']}/enter?player=Ann")
        set_count(phone_a, "p.tree", 3)
        set_count(phone_a, "p.duck", 2)
        leaving(phone_a)
        phone_a.refresh()
        arrived(phone_a)
        assert phone_a.find_element(_by("NAME"), "p.tree").get_attribute("value") == "3"
        assert phone_a.find_element(_by("NAME"), "p.duck").get_attribute("value") == "2"
        assert phone_a.find_element(_by("CLASS_NAME"), "draft-note").is_displayed()
        shots(phone_a, "fr-2-draft-restored")
        send(phone_a)
        assert api(server, "GET", f"/api/sessions/{made['id']}/rounds/1")["parts"] == \
            {"Ann": {"tree": 3, "duck": 2}}
        assert phone_a.execute_script("return Object.keys(localStorage).filter(k => k.startsWith('pnp-draft:'))") == []
        go(phone_a, f"{server.url}/s/{made['id']}/enter?player=Ann")
        assert not phone_a.find_elements(_by("CLASS_NAME"), "draft-note")
    finally:
        server.stop()
