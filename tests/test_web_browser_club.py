"""Real Chromium at 390 x 844: the club's player, game and export pages, in English and in French, checked by
axe-core (WCAG 2.1 A and AA) as every other page of the scorer; their charts named and drawn without script;
nothing wider than the phone; a table's phone reaching its players' pages from the result; a rename from the
organiser's laptop.  Screenshots go to ``$PNP_SCREENSHOTS`` if set.
"""

from __future__ import annotations

import pytest

from browser_helpers import (  # noqa: F401 - chromium and shots are fixtures
    _by,
    arrived,
    axe_source,
    axe_violations,
    chromium,
    css,
    go,
    leaving,
    shots,
    tap,
    take_seat,
)
from pnp.web import records, sessions
from pnp.web.db import Database
from web_helpers import ORGANISER, ServerProcess, beavers, halali, hunting_fever

COLOURS = {"Alice": "red", "Bob": "green", "Chloé": "blue", "Dévi": "white"}


@pytest.fixture()
def served(tmp_path):
    """A club of 60 sessions of every game (a long name among them), then a real ``pnp serve`` on it."""
    db = Database.in_folder(tmp_path / "data")
    raws = []
    for seed in range(15):
        raws.append({**hunting_fever(seed, ["Alice", "Bob", "Chloé", "Dévi", "Maximilienne-Éléonore"][:3 + seed % 3]),
                     "date": f"2026-{1 + seed % 9:02d}-{10 + seed:02d}"})
        raws.append({**beavers(seed), "colors": COLOURS, "date": f"2026-{1 + seed % 9:02d}-{11 + seed:02d}"})
        raws.append({**halali(seed), "date": f"2026-{1 + seed % 9:02d}-{12 + seed:02d}"})
        raws.append({"game": "card-hunter", "players": ["Alice", "Bob"], "difficulty": "normal",
                     "result": "won" if seed % 2 else "lost", "knockouts_left": 1 if seed % 2 else 0,
                     "date": f"2026-{1 + seed % 9:02d}-{13 + seed:02d}"})
    sessions.import_documents(db, [(f"{i}.json", raw) for i, raw in enumerate(raws)])
    people = {name: records.person_called(db, name) for name in ("Alice", "Ann")}
    db.close()
    server = ServerProcess(tmp_path / "data")
    server.people = people
    yield server
    server.stop()


def _fits(driver) -> bool:
    """Nothing on the page is wider than the phone: no sideways scrolling of the page itself."""
    return driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 0.5")


def _charts(driver) -> list[str]:
    """The accessible name of every chart shown (each an SVG of role img), and that each is drawn."""
    return driver.execute_script("""
        return [...document.querySelectorAll('svg.chart')].map(svg => {
            const box = svg.getBoundingClientRect();
            return svg.getAttribute('role') === 'img' && box.width > 100 && box.height > 20
                ? (svg.getAttribute('aria-label') || '') : 'NOT DRAWN';
        });""")


def _club_pages(server, chromium, lang: str):
    """The club's pages in ``lang``, reached as the organiser and a table's phone reach them."""
    laptop, phone = chromium(lang), chromium(lang)
    go(laptop, f"{server.url}/?token={ORGANISER}")
    alice = server.people["Alice"]
    go(laptop, f"{server.url}/history?lang={lang}")
    yield "club history", laptop
    go(laptop, f"{server.url}/history/players/{alice}")
    yield "a player's page", laptop
    go(laptop, f"{server.url}/history/players/{alice}?game=hunting-hunting-beavers&page=2")
    yield "a player's plays of one game, page 2", laptop
    for game in ("hunting-fever", "hunting-hunting-beavers", "halali", "card-hunter"):
        go(laptop, f"{server.url}/history/games/{game}")
        yield f"the page of {game}", laptop
    go(laptop, f"{server.url}/history/players")
    yield "every player", laptop
    go(laptop, f"{server.url}/history/export")
    yield "export every play", laptop
    go(laptop, f"{server.url}/history/players/{alice}/rename")
    field = laptop.find_element(_by("ID"), "name")
    field.clear()
    field.send_keys("Bob")
    leaving(laptop)
    tap(laptop, css("form button[type=submit]"))
    arrived(laptop)
    yield "a rename refused beside its field", laptop
    field = laptop.find_element(_by("ID"), "name")
    field.clear()
    field.send_keys("Alice B.")
    leaving(laptop)
    tap(laptop, css("form button[type=submit]"))
    arrived(laptop)
    assert "Alice B." in laptop.find_element(_by("CLASS_NAME"), "flash").text
    yield "a player renamed", laptop
    go(laptop, f"{server.url}/history/players/{alice}/merge")
    yield "merge two players", laptop
    # A table plays Halali to its end; Ann's phone follows the result to the club pages of its table.
    from browser_helpers import api

    made = api(server, "POST", "/api/sessions", {"game": "halali", "players": ["Ann", "Ben"], "lang": lang})
    for number, body in enumerate(halali(99)["rounds"], start=1):
        api(server, "PUT", f"/api/sessions/{made['id']}/rounds/{number}", body)
    go(phone, f"{made['url']}&lang={lang}")
    take_seat(phone, server, made["id"], "Ann")
    go(phone, f"{server.url}/s/{made['id']}/result")
    leaving(phone)
    tap(phone, lambda d: d.find_element(_by("CSS_SELECTOR"), ".club-table a"))
    arrived(phone)
    assert "/players/" in phone.current_url
    yield "a player's page from the table", phone
    go(phone, f"{server.url}/s/{made['id']}/game")
    yield "the table's game from the table", phone


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_club_pages_pass_axe_core_at_a_phones_width(served, chromium, shots, lang):
    source = axe_source()
    found, seen = {}, []
    for name, driver in _club_pages(served, chromium, lang):
        seen.append(name)
        problems = axe_violations(driver, source)
        if not _fits(driver):
            problems.append("wider than the phone")
        if any(not label or label == "NOT DRAWN" for label in _charts(driver)):
            problems.append(f"a chart without a name or not drawn: {_charts(driver)}")
        if problems:
            found[name] = problems
        shots(driver, f"club-{lang}-{len(seen):02d}")
    assert found == {}
    assert len(seen) == 14


def test_the_charts_are_there_without_javascript(served, chromium):
    """Server-drawn: with script off, a player's and a game's charts are drawn and named all the same."""
    from selenium.webdriver.chrome.options import Options  # noqa: F401 - the options come from the fixture

    laptop = chromium("en")
    laptop.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    go(laptop, f"{served.url}/?token={ORGANISER}")
    go(laptop, f"{served.url}/history/players/{served.people['Alice']}")
    names = _charts(laptop)
    assert len(names) == 2 and all(name and name != "NOT DRAWN" for name in names), names
    assert any("win rate per game" in name for name in names)
    go(laptop, f"{served.url}/history/games/hunting-hunting-beavers")
    names = _charts(laptop)
    assert any("win rate by colour" in name for name in names), names
