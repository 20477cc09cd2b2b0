"""Every answer the web tests get, recorded, to show that a change to ``pnp/web`` answers exactly as before.

Record the answers on the tree before the change and on the tree after it, then compare::

    PNP_WEB_TRANSCRIPT=/tmp/before.jsonl PYTHONPATH=tests python -m pytest -p web_transcript tests/test_web_*.py
    PNP_WEB_TRANSCRIPT=/tmp/after.jsonl  PYTHONPATH=tests python -m pytest -p web_transcript tests/test_web_*.py
    python tests/web_transcript.py /tmp/before.jsonl /tmp/after.jsonl

An answer is its method, address, status, headers and body (HTML, JSON, a
session file; a PDF by its digest, its dates left out).  So that two runs
can be compared, the server's random ids and tokens come from a generator
seeded with each test's name, the stored clock reads 09:00 today plus one
second per reading, and cookies' expiry dates are blanked.  Parts sent at the
same moment from several threads are answered in the order the threads run:
of those tests only the last answer (the day as every part left it) is compared.

Imported without ``-p`` (pytest reads every module here for doctests) it changes nothing.
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import json
import os
import random
import re
import secrets
import sys

import pytest

_ENABLED = "PNP_WEB_TRANSCRIPT"
_answers: list[dict] = []
_draws = random.Random(0)
_clock = [datetime.datetime.now(datetime.timezone.utc).replace(hour=9, minute=0, second=0, microsecond=0), 0]


def _answer(response) -> dict:
    headers = []
    for name, value in response.headers.multi_items():
        if name == "set-cookie":
            value = re.sub(r"expires=[^;]*;", "expires=-;", value)
        headers.append([name, value])
    if response.headers.get("content-type", "").startswith(("text/", "application/json", "application/toml")):
        body = response.content.decode("utf-8")
    else:
        undated = re.sub(rb"/CreationDate \(.*?\)|/ModDate \(.*?\)|/ID \[.*?\]", b"", response.content)
        body = "sha256:" + hashlib.sha256(undated).hexdigest()
    return {"method": response.request.method, "url": str(response.request.url), "status": response.status_code,
            "headers": headers, "body": body}


def _now_text() -> str:
    _clock[1] += 1
    return (_clock[0] + datetime.timedelta(seconds=_clock[1])).isoformat(timespec="seconds")


def pytest_configure(config) -> None:
    if not os.environ.get(_ENABLED):
        return
    from starlette.testclient import TestClient

    import pnp.web.sessions

    original = TestClient.request

    def recorded(self, method, url, **options):
        response = original(self, method, url, **options)
        _answers.append(_answer(response))
        return response

    # Module fixtures draw before any test's own fixture runs: the patches are there from the start.
    TestClient.request = recorded
    secrets.token_urlsafe = lambda size=32: base64.urlsafe_b64encode(_draws.randbytes(size)).rstrip(b"=").decode()
    secrets.token_hex = lambda size=32: _draws.randbytes(size).hex()
    pnp.web.sessions.now_text = _now_text


@pytest.fixture(autouse=True)
def _transcript(request):
    if not os.environ.get(_ENABLED):
        yield
        return
    _draws.seed(request.node.nodeid)
    _clock[1] = 0
    _answers.clear()
    yield
    with open(os.environ[_ENABLED], "a", encoding="utf-8") as out:
        out.write(json.dumps({"test": request.node.nodeid, "answers": _answers}, ensure_ascii=False) + "\n")


def differences(before: dict[str, list], after: dict[str, list]) -> list[str]:
    """One line per test whose answers differ: the first answer that does, and what in it."""
    found = []
    for test in sorted(set(before) | set(after)):
        old, new = before.get(test), after.get(test)
        if old is None or new is None:
            found.append(f"{test}: only {'after' if old is None else 'before'}")
            continue
        if "same_moment" in test:  # threads: only the day as every part left it is the same
            old, new = old[-1:], new[-1:]
        if len(old) != len(new):
            found.append(f"{test}: {len(old)} answers before, {len(new)} after")
            continue
        for number, (was, now) in enumerate(zip(old, new)):
            if was != now:
                what = ", ".join(key for key in was if was[key] != now[key])
                found.append(f"{test}: answer {number} ({was['method']} {was['url']}) differs in {what}")
                break
    return found


def _read(path: str) -> dict[str, list]:
    with open(path, encoding="utf-8") as lines:
        return {record["test"]: record["answers"] for record in map(json.loads, lines)}


if __name__ == "__main__":
    before, after = _read(sys.argv[1]), _read(sys.argv[2])
    found = differences(before, after)
    pages = sum(1 for answers in before.values() for a in answers if a["body"].startswith("<!doctype html>"))
    print(f"{len(before)} tests, {sum(map(len, before.values()))} answers ({pages} HTML pages) before; "
          f"{len(after)} tests, {sum(map(len, after.values()))} answers after")
    print("\n".join(found) or "every answer is the same")
    sys.exit(1 if found else 0)
