"""A name typed "é" on one keyboard and "e" + a combining accent on another is one name,
made one string (Unicode's composed form, NFC) wherever it enters: a session file,
``pnp score new``, the web pages and API, a template or a catalog."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from pnp.cli import app
from pnp.web.app import create_app
from pnp.web.db import Database
from helpers import pdf_reader, score_host_app

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_helpers import ORGANISER, organiser_headers  # noqa: E402

DECOMPOSED = "He\u0301le\u0300ne"
COMPOSED = "H\u00e9l\u00e8ne"
runner = CliRunner()


def test_a_session_name_in_decomposed_form_is_printed_on_its_scoresheet(tmp_path):
    session = tmp_path / "s.toml"
    session.write_text(f'game = "halali"\nplayers = ["{DECOMPOSED}", "Bob"]\n', encoding="utf-8")
    result = runner.invoke(score_host_app(), ["score", "sheet", str(session), "--out", str(tmp_path / "s.pdf")])
    assert result.exit_code == 0, result.stderr
    assert COMPOSED in pdf_reader((tmp_path / "s.pdf").read_bytes()).pages[0].extract_text()


def test_the_name_is_one_key_in_every_round_whichever_way_each_was_typed(tmp_path):
    session = tmp_path / "s.json"
    rounds = [{"blue": DECOMPOSED, "tiles": {COMPOSED: {}, "Bob": {}}},
              {"blue": "Bob", "tiles": {DECOMPOSED: {}, "Bob": {}}}]
    session.write_text(json.dumps({"game": "halali", "players": [COMPOSED, "Bob"], "rounds": rounds},
                                  ensure_ascii=True))
    result = runner.invoke(score_host_app(), ["score", "check", str(session), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["players"] == [COMPOSED, "Bob"]


def test_two_keys_that_are_one_name_in_one_table_are_an_error(tmp_path):
    session = tmp_path / "s.json"
    session.write_text(json.dumps({"game": "halali", "players": [COMPOSED, "Bob"],
                                   "rounds": [{"blue": "Bob", "tiles": {COMPOSED: {}, DECOMPOSED: {}}}]}))
    result = runner.invoke(score_host_app(), ["score", "check", str(session)])
    assert result.exit_code == 1 and "encoded two ways" in result.stderr


def test_score_new_saves_the_composed_name(tmp_path):
    target = tmp_path / "s.toml"
    result = runner.invoke(score_host_app(), ["score", "new", "halali", "--players", f"{DECOMPOSED},Bob",
                                              "--out", str(target)])
    assert result.exit_code == 0, result.output
    assert f'"{COMPOSED}"' in target.read_text(encoding="utf-8") and DECOMPOSED not in target.read_text(encoding="utf-8")


@pytest.fixture()
def web(tmp_path):
    db = Database.in_folder(tmp_path / "data")
    yield db, create_app(db, ORGANISER)
    db.close()


def test_the_api_stores_the_composed_name(web):
    db, application = web
    client = TestClient(application)
    answer = client.post("/api/sessions", json={"game": "halali", "players": [DECOMPOSED, "Bob"]},
                         headers=organiser_headers())
    assert answer.status_code == 201, answer.text
    shown = client.get(f"/api/sessions/{answer.json()['id']}", headers=organiser_headers()).json()
    assert shown["players"] == [COMPOSED, "Bob"]


def test_the_start_form_stores_the_composed_name(web):
    db, application = web
    client = TestClient(application, follow_redirects=False)
    client.get("/", params={"token": ORGANISER})
    token = re.search(r'name="csrf" value="([0-9a-f]+)"', client.get("/").text).group(1)
    answer = client.post("/sessions", data={"csrf": token, "game": "halali", "lang": "en",
                                            "player1": DECOMPOSED, "player2": "Bob"})
    assert answer.status_code == 303, answer.text
    session_id = answer.headers["location"].rsplit("/", 1)[1]
    shown = client.get(f"/api/sessions/{session_id}", headers=organiser_headers()).json()
    assert shown["players"] == [COMPOSED, "Bob"]


def test_a_template_text_in_decomposed_form_is_printed_composed(tmp_path):
    (tmp_path / "k.toml").write_text(
        '[game]\nid = "k"\nplayers = [1, 2]\nrules_url = "https://example.org/k"\ndesigners = ["t"]\n\n'
        '[[components]]\nid = "cards"\nsize = "poker"\n[[components.front]]\ntype = "text"\nx = 4\ny = 4\n'
        f'w = "w - 8"\nh = 12\ntext = "{DECOMPOSED}"\nsize = 12\n[[components.pieces]]\nid = "c"\ncount = 1\n',
        encoding="utf-8")
    for lang in ("en", "fr"):
        (tmp_path / f"k.{lang}.toml").write_text(
            f'[game]\nname = "K"\ncredits = "{DECOMPOSED}"\n\n[component.cards]\nname = "Cards"\ncut = "Cut."\n',
            encoding="utf-8")
    result = runner.invoke(app, ["render", "--template", str(tmp_path / "k.toml"), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.stderr
    text = "".join(page.extract_text() for page in pdf_reader(next((tmp_path / "out").glob("*.pdf")).read_bytes()).pages)
    assert text.count(COMPOSED) == 2     # the card and the credits on the cover
