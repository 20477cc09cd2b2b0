"""The words of every page state in English and in French: filled, typeset, and said as a native speaker would.

The same checks as the kits' French (tests/test_french.py's typesetting rules), on
every page a table meets (tests/web_tour.py), plus what only a page can get wrong:
a placeholder left unfilled, a catalog key shown, "de" before a name that needs
"d’", a page in the wrong language.
"""

from __future__ import annotations

import re

import pytest

from pnp.web.app import create_app
from pnp.web.db import Database
from french_typesetting import typesetting_faults
from web_helpers import ORGANISER
from web_tour import tour


def shown_text(html: str) -> str:
    """The words a page shows (and says: its labels), without its markup."""
    text = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.S)
    labels = " ".join(re.findall(r'aria-label="([^"]*)"', text))
    return re.sub(r"<[^>]+>", " ", text) + " " + labels


@pytest.fixture(scope="module", params=["en", "fr"])
def pages(request, tmp_path_factory):
    db = Database.in_folder(tmp_path_factory.mktemp(f"tour-{request.param}"))
    app = create_app(db, ORGANISER, "http://192.168.1.20:8765")
    found = [(name, answer) for name, answer in tour(app, request.param)]
    yield request.param, found
    db.close()


def test_the_tour_sees_every_kind_of_page(pages):
    lang, found = pages
    assert len(found) >= 28
    assert all(answer.headers["content-type"].startswith("text/html") for _, answer in found)


def test_every_page_is_in_its_language_with_every_placeholder_filled(pages):
    lang, found = pages
    for name, answer in found:
        assert f'<html lang="{lang}">' in answer.text, name
        words = shown_text(answer.text)
        assert not re.search(r"\{[a-z_]+\}", words), (name, re.findall(r"\{[a-z_]+\}", words))
        assert not re.search(r"\bweb\.[a-z_]+\.", words), name
        assert not re.search(r"\w'\w", words), (name, re.findall(r"\w'\w", words))  # typographic apostrophes


def test_every_page_is_typeset_for_its_language(pages):
    """French: the French rules, and "d’" before a vowel sound. English: no space before : ; ! ? and no
    French marks (a French text would betray a key missing from the English catalog)."""
    lang, found = pages
    for name, answer in found:
        words = shown_text(answer.text)
        if lang == "en":
            assert not re.search(r"[\s\u00a0\u202f][:;!?](?!\w)", words), (name, re.findall(r".{20}\s[:;!?]", words))
            assert "«" not in words and "d’" not in words, name
            continue
        assert typesetting_faults(words) == [], (name, typesetting_faults(words))
        # "de" before a vowel sound is "d’" (d’Émilie, d’Yves); a name filled in must not escape it.
        assert not re.search(r"\b[Dd]e (?:[AEIOUÉÈÊaeiouéèê]|Y[^aeiou])", words), \
            (name, re.findall(r"\b[Dd]e (?:[AEIOUÉÈÊaeiouéèê]\w*|Y[^aeiou]\w*)", words))
        assert "a-t-elle gagné" not in words


def test_a_french_session_is_french_on_an_english_browser_until_the_phone_switches(tmp_path):
    from starlette.testclient import TestClient

    db = Database.in_folder(tmp_path)
    try:
        owner = TestClient(create_app(db, ORGANISER), follow_redirects=False, headers={"Accept-Language": "en"})
        owner.get("/", params={"token": ORGANISER})
        home = owner.get("/")
        assert "Start a session" in home.text  # no session yet: the browser's language
        csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', home.text).group(1)
        started = owner.post("/sessions", data={"csrf": csrf, "game": "halali", "lang": "fr", "player1": "Ann",
                                                "player2": "Ben"})
        table = started.headers["location"]
        assert '<html lang="fr">' in owner.get(table).text  # the session's language
        switched = owner.get(table, params={"lang": "en"})
        assert '<html lang="en">' in switched.text  # this phone's choice
        assert '<html lang="en">' in owner.get(table).text  # kept
    finally:
        db.close()


def test_the_language_chosen_in_an_address_is_kept_through_every_redirect(tmp_path):
    from starlette.testclient import TestClient

    db = Database.in_folder(tmp_path)
    try:
        app = create_app(db, ORGANISER, "http://192.168.1.20:8765")
        owner = TestClient(app, follow_redirects=False)
        assert owner.get("/", params={"token": ORGANISER, "lang": "fr"}).headers["location"] == "/?lang=fr"
        home = owner.get("/", params={"lang": "fr"})
        csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', home.text).group(1)
        started = owner.post("/sessions", params={"lang": "fr"}, data={
            "csrf": csrf, "game": "halali", "lang": "en", "player1": "Ann", "player2": "Ben"})
        assert started.headers["location"].endswith("?lang=fr")
        session_id = started.headers["location"].split("?")[0].rsplit("/", 1)[1]
        join = re.search(r'id="join-link" type="text" readonly value="([^"]+)"',
                         owner.get(f"/s/{session_id}").text).group(1).replace("http://192.168.1.20:8765", "")
        phone = TestClient(app, follow_redirects=False)
        joined = phone.get(join + "&lang=fr")
        assert joined.headers["location"] == f"/s/{session_id}?lang=fr"
        assert '<html lang="fr">' in phone.get(joined.headers["location"]).text
        # The language stays the phone's: its cookie, and every form keeps the address's choice.
        assert '<html lang="fr">' in phone.get(f"/s/{session_id}").text
        seat = phone.get(f"/s/{session_id}/seat", params={"player": "Ann", "lang": "fr"})
        assert 'action="/s/' in seat.text and '?lang=fr"' in seat.text
        taken = phone.post(f"/s/{session_id}/seat", params={"lang": "fr"}, data={
            "csrf": re.search(r'name="csrf" value="([0-9a-f]+)"', seat.text).group(1), "player": "Ann"})
        assert taken.headers["location"] == f"/s/{session_id}?seated=Ann&lang=fr"
    finally:
        db.close()
