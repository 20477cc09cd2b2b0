"""A real browser plays a whole Hunting Fever session through the pages of ``pnp serve``, in French.

Chromium from Debian's packages (``chromium``, ``chromium-driver``), headless, on a
phone-sized screen (390 x 844).  Two browsers: the organiser's, which starts the
session and keeps the table page open (it must follow the scores by itself),
and a phone, which joins through the table's join link and enters each
player's part with the steppers and buttons.  Without Chromium the test is
skipped, except in CI (``CI`` set), where it fails: ``.ci/run`` installs it.

Screenshots go to ``$PNP_SCREENSHOTS`` if set, else to the test's own folder.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from scoring import check_session, score_session
from scoring.report import result_json
from web_helpers import ORGANISER, ServerProcess, hunting_fever

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
# The network is closed where the tests run: nothing in the background may try to reach it.
FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--lang=fr-FR"]


@pytest.fixture(scope="module")
def chromium():
    if not (os.access(CHROMIUM, os.X_OK) and os.access(DRIVER, os.X_OK)):
        if os.environ.get("CI"):
            pytest.fail(f"the browser test needs {CHROMIUM} and {DRIVER} (apt-get install chromium chromium-driver)")
        pytest.skip("Chromium and chromedriver are not installed (apt-get install chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    started = []

    def open_browser():
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='pnp-chromium-')}")
        options.add_experimental_option("prefs", {"intl.accept_languages": "fr-FR,fr"})
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2},
            "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                         "Chrome/150.0 Mobile Safari/537.36"})
        # The driver is given: Selenium Manager must not look for (or download) one.
        driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
        driver.set_page_load_timeout(30)
        started.append(driver)
        return driver

    yield open_browser
    for driver in started:
        driver.quit()


@pytest.fixture()
def shots(tmp_path):
    folder = Path(os.environ.get("PNP_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)

    def take(driver, name: str) -> Path:
        path = folder / f"{name}.png"
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 390, "height": max(844, height), "deviceScaleFactor": 2, "mobile": True})
        time.sleep(0.2)
        driver.save_screenshot(str(path))
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
        return path

    return take


def _by(kind: str):
    from selenium.webdriver.common.by import By

    return getattr(By, kind)


def click(driver, element) -> None:
    """Tap an element once it is in the middle of the screen (clear of the sticky send button)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def wait_for(driver, condition, timeout: float = 10.0):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.2).until(condition)


def set_count(driver, name: str, value: int) -> None:
    """Reach ``value`` with the stepper's − and + buttons, as a thumb would."""
    field = driver.find_element(_by("NAME"), name)
    stepper = field.find_element(_by("XPATH"), "..")
    current = int(field.get_attribute("value") or 0)
    while current != value:
        step = "1" if value > current else "-1"
        click(driver, stepper.find_element(_by("CSS_SELECTOR"), f'[data-step="{step}"]'))
        current += int(step)
    assert field.get_attribute("value") == str(value)


def choose(driver, name: str, value: str) -> None:
    radio = driver.find_element(_by("CSS_SELECTOR"), f'input[name="{name}"][value="{value}"]')
    click(driver, radio.find_element(_by("XPATH"), ".."))
    assert radio.is_selected()


def enter_part(driver, part: dict, lodge_flipped: bool | None = None) -> None:
    """Fill a Hunting Fever player's page from their part of the day (session-file form)."""
    hunter = "hand" if part["hand"]["hunter"] else "prey" if part["prey"]["hunter"] else "lodge"
    choose(driver, "p.hunter", hunter)
    flipped = part["lodge_flipped"] if lodge_flipped is None else lodge_flipped
    choose(driver, "p.lodge_flipped", "true" if flipped else "false")
    for place in ("hand", "prey"):
        for card, count in part[place].items():
            if card != "hunter":
                set_count(driver, f"p.{place}.{card}", count)


def send(driver) -> None:
    """Send the form and wait for the page that answers it: until then the old page, and its
    message from the previous part, is still there to be found."""
    from selenium.webdriver.support import expected_conditions

    page = driver.find_element(_by("TAG_NAME"), "html")
    click(driver, driver.find_element(_by("CSS_SELECTOR"), ".send-bar button"))
    wait_for(driver, expected_conditions.staleness_of(page), 15)


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
        click(table, table.find_element(_by("CSS_SELECTOR"), "form button[type=submit]"))
        wait_for(table, lambda d: "/s/" in d.current_url)
        assert "Jour 1 sur 4" in table.page_source
        join = table.find_element(_by("ID"), "join-link").get_attribute("value")
        assert table.find_element(_by("CSS_SELECTOR"), "svg.qr").is_displayed()
        shots(table, "2-table")

        phone = chromium()
        phone.get(join)
        wait_for(phone, lambda d: d.current_url.rstrip("/").endswith(join.split("/join")[0].rsplit("/", 1)[1]))
        assert "Chasse en folie" in phone.page_source
        for number, day in enumerate(raw["days"], start=1):
            for player in players:
                buttons = phone.find_elements(_by("CSS_SELECTOR"), ".entries li")
                row = next(li for li in buttons if li.find_element(_by("CLASS_NAME"), "who").text == player)
                click(phone, row.find_element(_by("CSS_SELECTOR"), "a.small-button"))
                wait_for(phone, lambda d: d.find_elements(_by("CSS_SELECTOR"), ".send-bar"))
                assert f"Jour {number} — {player}" in phone.find_element(_by("TAG_NAME"), "h1").text
                if number == 1 and player == players[0]:
                    # A flipped lodge with the Closed Season card still in hand cannot happen.
                    part = day[player]
                    enter_part(phone, {**part, "hand": {**part["hand"], "closed_season": 1}}, lodge_flipped=True)
                    shots(phone, "3-saisie")
                    send(phone)
                    wait_for(phone, lambda d: d.find_elements(_by("CSS_SELECTOR"), ".field-problem"))
                    problem = phone.find_element(_by("CSS_SELECTOR"), ".question.wrong")
                    assert "Saison de chasse fermée" in problem.text or "pavillon" in problem.text.lower()
                    shots(phone, "4-erreur")
                enter_part(phone, day[player])
                send(phone)
                wait_for(phone, lambda d: d.find_elements(_by("CLASS_NAME"), "flash"))
            assert phone.find_element(_by("CLASS_NAME"), "flash").text == f"Jour {number} : c’est validé."
            # The table's own page follows without being reloaded.
            expected = "Terminée" if number == 4 else f"Jour {number + 1} sur 4"
            wait_for(table, lambda d: expected in d.find_element(_by("CSS_SELECTOR"), "[data-live]").text, 15)
        shots(table, "5-table-finie")
        phone.find_element(_by("LINK_TEXT"), "Voir le résultat").click()
        wait_for(phone, lambda d: "/result" in d.current_url)
        result = result_json(score_session(check_session(raw).session))
        headline = phone.find_element(_by("CSS_SELECTOR"), "h1.headline").text
        assert headline.startswith("Vainqueur") and all(name in headline for name in result["winners"])
        assert phone.find_element(_by("LINK_TEXT"), "Ajouter à BG Stats").get_attribute("href").startswith(
            "bgstats://app.bgstatsapp.com/createPlay.html?data=")
        shots(phone, "6-resultat")
        table.get(f"{server.url}/history")
        wait_for(table, lambda d: "Chasse en folie" in d.find_element(_by("TAG_NAME"), "main").text, 15)
        shots(table, "7-historique")
        session_id = join.split("/s/")[1].split("/")[0]
        request = urllib.request.Request(f"{server.url}/api/sessions/{session_id}",
                                         headers={"Authorization": f"Bearer {ORGANISER}"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert json.loads(answer.read()) == result  # every part went in, each exactly once
    finally:
        server.stop()
