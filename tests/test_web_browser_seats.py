"""Real Chromium at 390 x 844: seats, undo and redo, a stranger's script refused, and every page state checked
by axe-core (WCAG 2.1 A and AA) in English and in French, with what axe does not see checked by hand.

The organiser's laptop and the players' phones are separate browsers (their own cookies), on a real
``pnp serve``.  Screenshots go to ``$PNP_SCREENSHOTS`` if set.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request

import pytest

from browser_helpers import (  # noqa: F401 - chromium and shots are fixtures
    _by,
    api,
    arrived,
    axe_source,
    axe_violations,
    chromium,
    css,
    go,
    leaving,
    send,
    set_count,
    shots,
    take_seat,
    tap,
)
from web_helpers import ORGANISER, ServerProcess

WORDS = {
    "en": {"take": "Take your seat", "undo": "Undo the last change", "redo": "Redo what was undone",
           "yes_undo": "Yes, undo it", "yes_redo": "Yes, redo it", "undone": "The change is undone",
           "free": "Free it", "move": "Move", "locked": "Another phone holds"},
    "fr": {"take": "Prenez votre place", "undo": "Annuler la dernière modification",
           "redo": "Rétablir ce qui a été annulé", "yes_undo": "Oui, l’annuler", "yes_redo": "Oui, la rétablir",
           "undone": "La modification est annulée", "free": "Libérer", "move": "Déplacer",
           "locked": "Un autre téléphone a la place"},
}


def _start(server, game: str, players: list[str], lang: str) -> dict:
    return api(server, "POST", "/api/sessions", {"game": game, "players": players, "lang": lang})


def _link(driver, text: str):
    """The link or button whose words hold ``text`` (its visible words, or what it says to a screen reader)."""
    def find(d):
        for element in d.find_elements(_by("CSS_SELECTOR"), "a, button"):
            if text in element.text or text in (element.get_attribute("textContent") or ""):
                return element
        raise AssertionError(f"no link or button saying {text!r} on {d.current_url}")
    return find


def _follow(driver, text: str) -> None:
    leaving(driver)
    tap(driver, _link(driver, text))
    arrived(driver)


def _join(driver, server, made: dict, lang: str) -> None:
    go(driver, f"{made['url']}&lang={lang}")


def _send_part(driver, server, session_id: str, player: str, change: int) -> None:
    """A Beavers player's change of currency, sent from their phone's entry page with its stepper."""
    go(driver, f"{server.url}/s/{session_id}/enter?player={player}")
    set_count(driver, "p.change", change)
    send(driver)


@pytest.fixture()
def served(tmp_path):
    server = ServerProcess(tmp_path / "data")
    yield server
    server.stop()


def test_seats_taken_given_back_moved_and_a_player_never_stranded_after_an_undo(served, chromium, shots):
    made = _start(served, "hunting-hunting-beavers", ["Ann", "Ben", "Cat", "Dan"], "en")
    session_id = made["id"]
    laptop, wrong, ann, newcomer = chromium("en"), chromium("en"), chromium("en"), chromium("en")
    go(laptop, f"{served.url}/?token={ORGANISER}")
    go(laptop, f"{served.url}/s/{session_id}")
    for phone in (wrong, ann):
        _join(phone, served, made, "en")
        assert WORDS["en"]["take"] in phone.find_element(_by("TAG_NAME"), "h1").text
    shots(wrong, "seats-1-take-your-seat")
    # The wrong phone takes Ann's seat (the page said whose it is and asked once), and sends her part.
    take_seat(wrong, served, session_id, "Ann")
    _send_part(wrong, served, session_id, "Ann", 3)
    # The organiser undoes it: asked, told what it puts back, done.
    go(laptop, f"{served.url}/s/{session_id}")
    _follow(laptop, WORDS["en"]["undo"])
    assert "Ann" in laptop.find_element(_by("TAG_NAME"), "main").text
    shots(laptop, "seats-2-undo-asked")
    _follow(laptop, WORDS["en"]["yes_undo"])
    assert WORDS["en"]["undone"] in laptop.find_element(_by("CLASS_NAME"), "flash").text
    # Ann's own phone: her seat is taken; the page says so and what to do.
    go(ann, f"{served.url}/s/{session_id}/seat?player=Ann")
    assert "organiser can move it to this phone" in ann.find_element(_by("TAG_NAME"), "main").text
    shots(ann, "seats-3-taken-elsewhere")
    # The organiser moves the seat to Ann's phone with a code made for it.
    go(laptop, f"{served.url}/s/{session_id}")
    shots(laptop, "seats-4-organiser-seats")
    go(laptop, f"{served.url}/s/{session_id}/seat/move?player=Ann")
    assert laptop.find_element(_by("CSS_SELECTOR"), "svg.qr").is_displayed()
    handover = laptop.find_element(_by("ID"), "handover-link").get_attribute("value")
    go(ann, handover)
    _follow(ann, "Take Ann’s seat")
    assert "This phone holds Ann’s seat" in ann.find_element(_by("CLASS_NAME"), "flash").text
    _send_part(ann, served, session_id, "Ann", 2)
    assert api(served, "GET", f"/api/sessions/{session_id}/rounds/1")["parts"] == {"Ann": 2}
    # The wrong phone lost the seat: back to choosing one; the used code moves nothing more.
    go(wrong, f"{served.url}/s/{session_id}")
    assert WORDS["en"]["take"] in wrong.find_element(_by("TAG_NAME"), "h1").text
    go(newcomer, handover)
    assert "used" in newcomer.find_element(_by("TAG_NAME"), "h1").text
    # A phone gives its seat back; then the organiser frees another.
    take_seat(wrong, served, session_id, "Cat")
    go(wrong, f"{served.url}/s/{session_id}")
    _follow(wrong, "Give it back")
    assert "Cat’s seat is free again" in wrong.find_element(_by("CLASS_NAME"), "flash").text
    go(laptop, f"{served.url}/s/{session_id}")
    _follow(laptop, WORDS["en"]["free"])
    assert "Ann’s seat is free again" in laptop.find_element(_by("CLASS_NAME"), "flash").text
    seats = api(served, "GET", f"/api/sessions/{session_id}/seats")["seats"]
    assert [s["taken"] for s in seats] == [False, False, False, False]


def test_undo_and_redo_from_a_phone_and_the_undone_values_back_in_the_form(served, chromium, shots):
    made = _start(served, "hunting-hunting-beavers", ["Ann", "Ben", "Cat", "Dan"], "fr")
    session_id = made["id"]
    phone = chromium("fr")
    _join(phone, served, made, "fr")
    take_seat(phone, served, session_id, "Ann")
    _send_part(phone, served, session_id, "Ann", 4)
    go(phone, f"{served.url}/s/{session_id}")
    _follow(phone, WORDS["fr"]["undo"])
    _follow(phone, WORDS["fr"]["yes_undo"])
    assert api(served, "GET", f"/api/sessions/{session_id}/rounds/1")["parts"] == {}
    history = phone.find_element(_by("TAG_NAME"), "main").text
    assert re.search(r"\d{1,2} \w+ 20\d\d, \d\d:\d\d", history)  # dated
    shots(phone, "undo-1-history")
    # The values undone come back into the form.
    _follow(phone, "Saisir à nouveau")
    assert phone.find_element(_by("NAME"), "p.change").get_attribute("value") == "4"
    # Or redo it.
    go(phone, f"{served.url}/s/{session_id}/history")
    _follow(phone, WORDS["fr"]["redo"])
    shots(phone, "undo-2-redo-asked")
    _follow(phone, WORDS["fr"]["yes_redo"])
    assert api(served, "GET", f"/api/sessions/{session_id}/rounds/1")["parts"] == {"Ann": 4}
    assert "rétabli" in phone.find_element(_by("TAG_NAME"), "main").text


def _call(server, method: str, path: str, token: str, body: object = None, headers: dict | None = None):
    request = urllib.request.Request(f"{server.url}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": f"Bearer {token}", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def test_a_strangers_script_is_refused_what_a_phone_is_refused(served, chromium):
    made = _start(served, "hunting-hunting-beavers", ["Ann", "Ben", "Cat", "Dan"], "en")
    session_id = made["id"]
    phone = chromium("en")
    _join(phone, served, made, "en")
    take_seat(phone, served, session_id, "Ann")
    _send_part(phone, served, session_id, "Ann", 1)
    # A stranger with the join link: it reads nothing, writes nothing, undoes nothing.
    path = f"/api/sessions/{session_id}"
    assert _call(served, "GET", path, made["token"])[0] == 403
    status, answer = _call(served, "PATCH", f"{path}/rounds/1", made["token"], {"Ann": 5}, {"If-Match": "*"})
    assert (status, answer["errors"][0]["code"]) == (403, "join_only")
    # With a seat of its own (Ben's), still not Ann's part nor Ann's change.
    status, seat = _call(served, "POST", f"{path}/seats", made["token"], {"player": "Ben"})
    assert status == 201
    status, answer = _call(served, "PATCH", f"{path}/rounds/1", seat["token"], {"Ann": 5}, {"If-Match": "*"})
    assert (status, answer["errors"][0]["code"]) == (403, "not_your_seat")
    change = api(served, "GET", f"{path}/history")["changes"][0]["id"]
    status, answer = _call(served, "POST", f"{path}/undo", seat["token"], {"change": change})
    assert (status, answer["errors"][0]["code"]) == (403, "not_your_change")
    status, answer = _call(served, "PATCH", f"{path}/rounds/1", seat["token"], {"Ben": 2})
    assert (status, answer["errors"][0]["code"]) == (428, "version_required")
    assert api(served, "GET", f"{path}/rounds/1")["parts"] == {"Ann": 1}
    # The phone's page shows the same: no join code, no token on it.
    go(phone, f"{served.url}/s/{session_id}")
    assert made["token"] not in phone.page_source and "join-link" not in phone.page_source


# -- every page state, in English and in French, under axe-core -------------------------------


def _page_states(server, chromium, lang: str):
    """Each page state a table meets, reached in the browsers, yielded as (name, the browser showing it)."""
    laptop, phone, other, stranger = chromium(lang), chromium(lang), chromium(lang), chromium(lang)
    go(stranger, f"{server.url}/")
    yield "welcome", stranger
    go(laptop, f"{server.url}/?token={ORGANISER}")
    yield "home", laptop
    leaving(laptop)
    tap(laptop, css("form button[type=submit]"))  # no players typed: refused, the form shown again
    arrived(laptop)
    yield "home, refused", laptop
    made = _start(server, "hunting-fever", ["Émilie", "Ben", "Yves"], lang)
    session_id = made["id"]
    table = f"{server.url}/s/{session_id}"
    go(laptop, table)
    yield "table, organiser", laptop
    _join(phone, server, made, lang)
    yield "seats to take", phone
    go(phone, f"{table}/seat?player=Émilie")
    yield "take a seat", phone
    take_seat(phone, server, session_id, "Émilie")
    yield "table, a phone with its seat", phone
    go(phone, f"{table}/enter")
    yield "who is entering", phone
    go(phone, f"{table}/enter?player=Émilie")
    yield "a player's part", phone
    phone.find_element(_by("NAME"), "p.hand.wolf").clear()
    phone.find_element(_by("NAME"), "p.hand.wolf").send_keys("9")
    send(phone)
    yield "a part refused beside its field", phone
    api(server, "PATCH", f"/api/sessions/{session_id}/rounds/1",
        {"Émilie": {"hand": {"hunter": 1, "wolf": 1}, "prey": {"rabbit": 1}, "lodge_flipped": False}})
    go(phone, f"{table}/enter?player=Émilie")
    phone.execute_script("document.querySelector('input[name=v]').value = '0'.repeat(20)")
    send(phone)
    yield "a part sent against a changed version", phone
    _join(other, server, made, lang)
    take_seat(other, server, session_id, "Ben")
    go(other, f"{table}/enter?player=Émilie")
    yield "another phone's seat", other
    go(other, f"{table}/enter?player=Yves")
    yield "a free seat's part", other
    go(phone, f"{table}/history")
    yield "history of changes", phone
    go(laptop, f"{table}/history")
    _follow(laptop, WORDS[lang]["undo"])
    yield "undo, asked", laptop
    _follow(laptop, WORDS[lang]["yes_undo"])
    yield "history after an undo", laptop
    _follow(laptop, "Émilie")  # enter again, from the values undone
    yield "a part filled with the values undone", laptop
    go(laptop, f"{table}/history")
    _follow(laptop, WORDS[lang]["redo"])
    yield "redo, asked", laptop
    go(laptop, f"{table}/seat/move?player=Ben")
    yield "move a seat", laptop
    go(stranger, laptop.find_element(_by("ID"), "handover-link").get_attribute("value"))
    yield "a seat handed over", stranger
    go(laptop, table)
    yield "table, organiser, seats taken", laptop
    halali = _start(server, "halali", ["Ann", "Ugo"], lang)["id"]
    go(laptop, f"{server.url}/s/{halali}/enter")
    yield "the table's own question", laptop
    for number, body in enumerate([{"blue": "Ann", "tiles": {"Ann": {"bear": 1}, "Ugo": {"hunter": 2}}},
                                   {"blue": "Ugo", "tiles": {"Ann": {"tree": 2}, "Ugo": {"fox": 1}}}], start=1):
        api(server, "PUT", f"/api/sessions/{halali}/rounds/{number}", body)
    go(laptop, f"{server.url}/s/{halali}/enter?round=1&player=Ann")
    yield "a correction", laptop
    go(laptop, f"{server.url}/s/{halali}")
    yield "table, finished", laptop
    go(laptop, f"{server.url}/s/{halali}/result")
    yield "result", laptop
    go(laptop, f"{server.url}/history")
    yield "club history", laptop
    go(laptop, f"{server.url}/s/nothing")
    yield "no such session", laptop
    go(laptop, f"{server.url}/s/{halali}/enter?round=99999999999999999999")
    yield "no such round", laptop
    go(other, f"{table}/seat/move?player=Ben")
    yield "not this phone's to do", other


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_page_state_passes_axe_core(served, chromium, shots, lang):
    source = axe_source()
    found, seen = {}, []
    for name, driver in _page_states(served, chromium, lang):
        seen.append(name)
        violations = axe_violations(driver, source)
        if violations:
            found[name] = violations
            shots(driver, f"axe-{lang}-{len(seen):02d}")
    assert found == {}
    assert len(seen) >= 29


def test_what_axe_does_not_see(served, chromium, shots):
    """Steppers named for their question and keeping the focus at a bound; a focused field clear of the Send
    bar; French choices inside their buttons at 200% text; the table's news said through a region that stays."""
    made = _start(served, "hunting-fever", ["Ann", "Ben", "Cat"], "fr")
    session_id = made["id"]
    phone = chromium("fr")
    _join(phone, served, made, "fr")
    take_seat(phone, served, session_id, "Ann")
    go(phone, f"{served.url}/s/{session_id}/enter?player=Ann")
    less = phone.find_element(_by("CSS_SELECTOR"), '[data-step="-1"][aria-controls="f-p-hand-wolf"]')
    assert less.get_attribute("aria-label").startswith("Un de moins") and "Loup" in less.get_attribute("aria-label")
    labels = [b.get_attribute("aria-label") for b in phone.find_elements(_by("CSS_SELECTOR"), "[data-step]")]
    assert len(labels) == len(set(labels)) > 10  # every button names its own question
    # At its bound a button says so and keeps the focus (a disabled one would drop it to the page).
    more = phone.find_element(_by("CSS_SELECTOR"), '[data-step="1"][aria-controls="f-p-hand-wolf"]')
    for _ in range(4):
        more.click()
    assert more.get_attribute("aria-disabled") == "true" and more.get_attribute("disabled") is None
    assert phone.switch_to.active_element == more
    # A field focused at the bottom of the form is not under the sticky Send bar.
    last = phone.find_elements(_by("CSS_SELECTOR"), "form.entry input[type=number]")[-1]
    phone.execute_script("window.scrollTo(0, 0); arguments[0].focus()", last)
    field, bar = (phone.execute_script("return arguments[0].getBoundingClientRect().toJSON()", e)
                  for e in (last, phone.find_element(_by("CLASS_NAME"), "send-bar")))
    assert field["bottom"] <= bar["top"] + 1, (field, bar)
    # 200% text: every French choice stays inside its box and no two overlap.
    phone.execute_script("document.documentElement.style.fontSize = '200%'; document.body.style.fontSize = '34px'")
    shots(phone, "a11y-fr-200-percent")
    boxes = phone.execute_script("""
        return [...document.querySelectorAll('.segment span')].map(s => {
            const r = s.getBoundingClientRect();
            return {text: s.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                    overflow: s.scrollWidth > s.clientWidth + 1};
        });""")
    assert boxes and not [b["text"] for b in boxes if b["overflow"] or b["right"] > 390.5 or b["left"] < -0.5]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = a["right"] <= b["left"] + 0.5 or b["right"] <= a["left"] + 0.5 or \
                a["bottom"] <= b["top"] + 0.5 or b["bottom"] <= a["top"] + 0.5
            assert apart, (a["text"], b["text"])
    # The table's live region stays while the scores around it are replaced, and says what changed.
    go(phone, f"{served.url}/s/{session_id}")
    region = phone.find_element(_by("CSS_SELECTOR"), "[data-live-status]")
    assert region.get_attribute("aria-live") == "polite"
    api(served, "PATCH", f"/api/sessions/{session_id}/rounds/1",
        {"Ben": {"hand": {"hunter": 1, "wolf": 1}, "prey": {"rabbit": 1}, "lodge_flipped": False}})
    deadline_text = ""
    for _ in range(60):
        deadline_text = phone.execute_script("return document.querySelector('[data-live-status]').textContent")
        if "Ben" in deadline_text:
            break
        phone.execute_script("return new Promise(r => setTimeout(r, 250))")
    assert "Ben" in deadline_text
    assert phone.find_element(_by("CSS_SELECTOR"), "[data-live-status]") == region  # the same element
