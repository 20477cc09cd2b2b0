"""What the browser tests of ``pnp serve`` share: a headless Chromium at a phone's size, and a thumb on it.

Chromium from Debian's packages (``chromium``, ``chromium-driver``).  Without
them the tests are skipped, except in CI (``CI`` set), where they fail:
``.ci/run`` installs them.  axe-core (the accessibility checker) is looked for
where ``.ci/run`` installs it from the npm registry, ``tests/.axe``, or at
``$PNP_AXE`` (its ``axe.min.js``).
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

from web_helpers import ORGANISER

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
# The network is closed where the tests run: nothing in the background may try to reach it.
FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage"]


@pytest.fixture(scope="module")
def chromium():
    if not (os.access(CHROMIUM, os.X_OK) and os.access(DRIVER, os.X_OK)):
        if os.environ.get("CI"):
            pytest.fail(f"the browser test needs {CHROMIUM} and {DRIVER} (apt-get install chromium chromium-driver)")
        pytest.skip("Chromium and chromedriver are not installed (apt-get install chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    started = []

    def open_browser(lang: str = "fr"):
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--lang={lang}")
        options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='pnp-chromium-')}")
        options.add_experimental_option("prefs", {"intl.accept_languages": lang})
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
        # At the phone's size in CSS pixels (a scale of 1): a tall page at 2 is slow to encode.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 390, "height": max(844, height), "deviceScaleFactor": 1, "mobile": True})
        time.sleep(0.2)
        driver.save_screenshot(str(path))
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
        return path

    return take


def _by(kind: str):
    from selenium.webdriver.common.by import By

    return getattr(By, kind)


def _gone(error: Exception) -> bool:
    """An element read while the page replaced it: the live table's refresh, or a new page.

    This Chromium reports it as a stale element, or as an inspector error naming a
    node that "does not belong to the document"; either way, find it again.
    """
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException

    return isinstance(error, StaleElementReferenceException) or (
        isinstance(error, WebDriverException) and "does not belong to the document" in str(error))


def wait_for(driver, condition, timeout: float = 10.0):
    """Wait until ``condition(driver)`` is true, trying again whenever it read a replaced element."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            found = condition(driver)
            if found:
                return found
        except Exception as error:  # noqa: BLE001 - only a replaced element is waited out
            if not _gone(error):
                raise
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s for {getattr(condition, '__name__', condition)}")
        time.sleep(0.1)


def tap(driver, find) -> None:
    """Tap what ``find(driver)`` gives once it is in the middle of the screen (clear of the sticky send
    button); found again if the page replaced it meanwhile."""
    for attempt in range(5):
        try:
            element = find(driver)
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
            element.click()
            return
        except Exception as error:  # noqa: BLE001
            if not _gone(error) or attempt == 4:
                raise
            time.sleep(0.2)


def click(driver, element) -> None:
    tap(driver, lambda d: element)


def css(selector: str):
    return lambda driver: driver.find_element(_by("CSS_SELECTOR"), selector)


def type_count(driver, name: str, value: int) -> None:
    """Type ``value`` in a count's field, as on a phone's number pad."""
    field = driver.find_element(_by("NAME"), name)
    if field.get_attribute("value") != str(value):
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
        field.clear()
        field.send_keys(str(value))
    assert field.get_attribute("value") == str(value)


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


def enter_part(driver, part: dict, lodge_flipped: bool | None = None, steppers: bool = False) -> None:
    """Fill a Hunting Fever player's page from their part of the day (session-file form), the counts
    with the steppers' buttons or typed."""
    hunter = "hand" if part["hand"]["hunter"] else "prey" if part["prey"]["hunter"] else "lodge"
    choose(driver, "p.hunter", hunter)
    flipped = part["lodge_flipped"] if lodge_flipped is None else lodge_flipped
    choose(driver, "p.lodge_flipped", "true" if flipped else "false")
    for place in ("hand", "prey"):
        for card, count in part[place].items():
            if card != "hunter":
                (set_count if steppers else type_count)(driver, f"p.{place}.{card}", count)


def fill_part(driver, part: dict) -> None:
    """Set a Hunting Fever player's answers in one go (the days after the first, which a test has
    already seen typed and tapped): values set, and the events a phone's input sends."""
    hunter = "hand" if part["hand"]["hunter"] else "prey" if part["prey"]["hunter"] else "lodge"
    values = {"p.hunter": hunter, "p.lodge_flipped": "true" if part["lodge_flipped"] else "false"}
    values |= {f"p.{place}.{card}": str(count) for place in ("hand", "prey")
               for card, count in part[place].items() if card != "hunter"}
    driver.execute_script("""
        for (const [name, value] of Object.entries(arguments[0])) {
            for (const input of document.querySelectorAll(`input[name="${name}"]`)) {
                if (input.type === "radio") input.checked = input.value === value; else input.value = value;
                input.dispatchEvent(new Event("input", {bubbles: true}));
                input.dispatchEvent(new Event("change", {bubbles: true}));
            }
        }""", values)


def leaving(driver) -> None:
    """Mark the page shown now, so that :func:`arrived` knows when the browser has left it."""
    driver.execute_script("window.pnpLeaving = true")


def arrived(driver, timeout: float = 15) -> None:
    """Wait for the page after the one marked by :func:`leaving` to be loaded.

    A marker on the old page's ``window`` rather than an old element: asking an element of a
    page that is gone is what made this test flaky on this Chromium.
    """
    wait_for(driver, lambda d: d.execute_script(
        "return !window.pnpLeaving && document.readyState === 'complete'"), timeout)


def send(driver) -> None:
    """Send the form and wait for the page that answers it: until then the old page, and its
    message from the previous part, is still there to be found."""
    leaving(driver)
    tap(driver, css(".send-bar button"))
    arrived(driver)


def go(driver, url: str) -> None:
    leaving(driver)
    driver.get(url)
    arrived(driver)


def api(server, method: str, path: str, body: object = None, token: str = ORGANISER) -> dict:
    """A script's call; a write sends back the ETag it read first (If-Match)."""
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    if method in ("PUT", "PATCH"):
        with urllib.request.urlopen(urllib.request.Request(f"{server.url}{path}", headers=headers), timeout=10) as seen:
            headers["If-Match"] = seen.headers["ETag"]
    request = urllib.request.Request(f"{server.url}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def take_seat(driver, server, session_id: str, player: str) -> None:
    """On a phone that joined: the seats page, the player's own name, then the one confirming button."""
    go(driver, f"{server.url}/s/{session_id}/seats")
    leaving(driver)
    tap(driver, lambda d: next(li for li in d.find_elements(_by("CSS_SELECTOR"), ".entries li")
                               if li.find_element(_by("CLASS_NAME"), "who").text == player
                               ).find_element(_by("CSS_SELECTOR"), "a.small-button"))
    arrived(driver)
    assert player in driver.find_element(_by("TAG_NAME"), "h1").text
    leaving(driver)
    tap(driver, css("form button[type=submit]"))
    arrived(driver)
    assert driver.find_elements(_by("CLASS_NAME"), "flash"), driver.current_url


def in_view(driver, selector: str) -> bool:
    """True when every element ``selector`` finds is wholly inside the screen's width."""
    return driver.execute_script("""
        const found = [...document.querySelectorAll(arguments[0])];
        return found.length > 0 && found.every(e => {
            const box = e.getBoundingClientRect();
            return box.width > 0 && box.left >= 0 && box.right <= window.innerWidth + 0.5;
        });""", selector)


# -- accessibility: axe-core over a page as it is shown ---------------------------------

AXE = Path(os.environ.get("PNP_AXE") or Path(__file__).resolve().parent / ".axe/node_modules/axe-core/axe.min.js")
#: WCAG 2.1, levels A and AA: what axe checks here.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def axe_source() -> str:
    """axe-core's script; a test needing it is skipped without it, except in CI, where it fails."""
    if not AXE.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"the accessibility test needs axe-core at {AXE} (.ci/run installs it with npm)")
        pytest.skip("axe-core is not installed (npm install --prefix tests/.axe axe-core@4)")
    return AXE.read_text(encoding="utf-8")


def axe_violations(driver, source: str) -> list[str]:
    """What axe-core finds on the page shown now, against WCAG 2.1 A and AA: one line per rule broken."""
    driver.set_script_timeout(60)
    if not driver.execute_script("return typeof window.axe !== 'undefined'"):
        driver.execute_script(source)
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        axe.run(document, {runOnly: {type: "tag", values: arguments[0]}, resultTypes: ["violations"]})
          .then(found => done(found.violations.map(v => `${v.id} (${v.impact}): ${v.help} at `
                + v.nodes.map(n => n.target.join(" ")).join(", "))))
          .catch(error => done([`axe failed: ${error}`]));""", AXE_TAGS)
