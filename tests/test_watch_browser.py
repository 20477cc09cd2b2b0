"""`pnp watch` in a real headless Chromium: a save shows on the page by itself, a broken save
shows its errors above the last good pages, and the next good save clears them.

The template is the one `pnp new` writes; `python -m pnp watch` runs as a user starts it. Without
Chromium the test is skipped, except in CI (``CI`` set), where it fails: ``.ci/run`` installs it.
Screenshots go to ``$PNP_SCREENSHOTS`` if set.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from pnp.template.starter import write_starter

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1100,1000"]
ICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
        '<circle cx="5" cy="5" r="4" fill="#8c3b2a"/></svg>')


@pytest.fixture()
def browser():
    if not (os.access(CHROMIUM, os.X_OK) and os.access(DRIVER, os.X_OK)):
        if os.environ.get("CI"):
            pytest.fail(f"the browser test needs {CHROMIUM} and {DRIVER} (apt-get install chromium chromium-driver)")
        pytest.skip("Chromium and chromedriver are not installed (apt-get install chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS + [f"--user-data-dir={tempfile.mkdtemp(prefix='pnp-chromium-')}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


@pytest.fixture()
def watched(tmp_path):
    """A `pnp new` game under `pnp watch`: (its template, the page's address)."""
    template = write_starter(tmp_path / "tide")
    process = subprocess.Popen([sys.executable, "-m", "pnp", "watch", str(template), "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    line = process.stdout.readline()
    found = re.search(r"at (http://\S+?)/ ", line)
    if not found:
        process.kill()
        raise RuntimeError(f"pnp watch did not start: {line!r} {process.stderr.read()!r}")
    yield template, found.group(1)
    process.terminate()
    process.wait(timeout=10)
    process.stdout.close()
    process.stderr.close()


def wait_for(condition, timeout: float = 20.0):
    deadline = time.monotonic() + timeout
    while True:
        found = condition()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError("the page did not change in time")
        time.sleep(0.05)


def shown(driver, number: int) -> str | None:
    """The version of page ``number``'s picture the page shows, once loaded (scrolled into view)."""
    return driver.execute_script(
        "const img = document.querySelectorAll('#pages img')[arguments[0] - 1];"
        "if (!img) return null; img.scrollIntoView({block: 'center'});"
        "return img.complete && img.naturalWidth > 0 ? (img.dataset.loaded || null) : null;", number)


def picture(driver, number: int) -> bytes:
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, "#pages img")[number - 1].screenshot_as_png


def errors(driver) -> list[str]:
    return driver.execute_script(
        "const box = document.getElementById('errors');"
        "return box.hidden ? [] : [...box.querySelectorAll('li')].map((li) => li.textContent);")


def keep(driver, name: str) -> None:
    folder = os.environ.get("PNP_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(folder) / f"watch-{name}.png"))


def test_a_save_shows_by_itself_and_a_broken_one_keeps_the_last_good_pages(browser, watched):
    template, url = watched
    browser.get(url + "/")
    cards = 5   # the cover and its back, the alignment sheet (printed first), then the first sheet of cards
    wait_for(lambda: shown(browser, cards) == "1")
    assert browser.execute_script("return document.querySelectorAll('#pages figcaption')[4].textContent") \
        == "Page 5 · fronts · cards"
    before = picture(browser, cards)
    assert browser.execute_script("return document.querySelector('#preflight summary').textContent") \
        == "pnp preflight: nothing prints badly."
    keep(browser, "1-first")

    # A data file saved: the card's number changes on the page, with no reload.
    csv = template.with_name("cards.csv")
    csv.write_text(csv.read_text(encoding="utf-8").replace("sun-1,sun,1,", "sun-1,sun,9,"), encoding="utf-8")
    wait_for(lambda: shown(browser, cards) == "2")
    assert picture(browser, cards) != before
    assert errors(browser) == []
    keep(browser, "2-edited")

    # What pnp preflight says follows the saves too.
    template.write_text(template.read_text(encoding="utf-8").replace("stroke_width = 1.2", "stroke_width = 0.05", 1),
                        encoding="utf-8")
    wait_for(lambda: browser.execute_script("return document.querySelector('#preflight summary').textContent")
             == "pnp preflight: 1 error")
    assert browser.execute_script("return [...document.querySelectorAll('#preflight li.error')].length") == 1
    wait_for(lambda: shown(browser, cards) == "3")

    # A broken save: its errors on the page, above the last good pages, still there.
    good = template.read_text(encoding="utf-8").replace("stroke_width = 0.05", "stroke_width = 1.2", 1)
    template.write_text(good.replace('text = "@colour.{colour}"', 'text = "@colour.{colur}"', 1), encoding="utf-8")
    lines = wait_for(lambda: errors(browser))
    assert all(line.startswith("Error: ") for line in lines)
    assert any("tide.toml: components.cards.front[3]" in line and "'colur'" in line for line in lines)
    assert browser.execute_script("return document.getElementById('last-good').hidden") is False
    assert shown(browser, cards) == "3"
    keep(browser, "3-broken")

    # An icon the template names but that is not there yet: the folder is watched, so adding
    # the file is enough.
    icon = ('\n[[components.front]]\ntype = "icon"\nname = "shell"\nx = 40\ny = 70\nw = 10\nh = 10\n')
    at = good.index("\n[[components.front]]", good.index('text = "@colour.{colour}"'))
    template.write_text(good[:at] + icon + good[at:], encoding="utf-8")
    wait_for(lambda: any("no icon 'shell'" in line for line in errors(browser)))
    (template.parent / "icons").mkdir(exist_ok=True)   # pnp new made it, for its star
    (template.parent / "icons" / "shell.svg").write_text(ICON, encoding="utf-8")
    wait_for(lambda: errors(browser) == [] and shown(browser, cards) == "4")
    assert browser.execute_script("return document.getElementById('errors').hidden") is True
    keep(browser, "4-recovered")
