"""Every page state of ``pnp serve`` a table meets, reached as its visitors reach it, for the tests that read them all.

:func:`tour` starts a Halali table and a Hunting Fever table in one language,
joins phones, takes seats, sends parts (right and wrong), corrects, undoes,
moves a seat, and yields each page as it is answered: its name and the response.
"""

from __future__ import annotations

import re
from typing import Iterator

from starlette.testclient import TestClient

from web_helpers import ORGANISER, beavers, hunting_fever, organiser_headers, versioned

PUBLIC = "http://192.168.1.20:8765"


def _csrf(html: str) -> str:
    return re.search(r'name="csrf" value="([0-9a-f]+)"', html).group(1)


def _version(html: str) -> str:
    return re.search(r'name="v" value="([0-9a-f]+)"', html).group(1)


def _start(owner: TestClient, lang: str, game: str, players: list[str]) -> str:
    home = owner.get("/")
    fields = {"csrf": _csrf(home.text), "game": game, "lang": lang}
    fields.update({f"player{i}": name for i, name in enumerate(players, start=1)})
    started = owner.post("/sessions", data=fields)
    return started.headers["location"].split("?")[0].rsplit("/", 1)[1]


def _phone(app, owner: TestClient, session_id: str) -> TestClient:
    join = re.search(r'id="join-link" type="text" readonly value="([^"]+)"', owner.get(f"/s/{session_id}").text)
    phone = TestClient(app, follow_redirects=False)
    phone.get(join.group(1).replace(PUBLIC, ""))
    return phone


def tour(app, lang: str) -> Iterator[tuple[str, object]]:
    """Each page state in ``lang`` (the browser's language and the sessions'), named."""
    headers = {"Accept-Language": lang}
    stranger = TestClient(app, follow_redirects=False, headers=headers)
    yield "welcome", stranger.get("/")
    owner = TestClient(app, follow_redirects=False, headers=headers)
    owner.get("/", params={"token": ORGANISER})
    yield "home", owner.get("/")
    home = owner.get("/")
    yield "home, too few players", owner.post("/sessions", data={"csrf": _csrf(home.text), "game": "hunting-fever",
                                                                 "lang": lang, "player1": "Ann"})
    names = ["Émilie", "Ben", "Yves"]
    hf = _start(owner, lang, "hunting-fever", names)
    yield "table, organiser, nobody seated", owner.get(f"/s/{hf}")
    emilie, ben = _phone(app, owner, hf), _phone(app, owner, hf)
    for phone in (emilie, ben):
        phone.headers.update(headers)
    yield "seats to take", emilie.get(f"/s/{hf}")
    yield "take a seat", emilie.get(f"/s/{hf}/seat", params={"player": "Émilie"})
    asked = emilie.get(f"/s/{hf}/seat", params={"player": "Émilie"})
    emilie.post(f"/s/{hf}/seat", data={"csrf": _csrf(asked.text), "player": "Émilie"})
    yield "a seat taken elsewhere", ben.get(f"/s/{hf}/seat", params={"player": "Émilie"})
    asked = ben.get(f"/s/{hf}/seat", params={"player": "Ben"})
    ben.post(f"/s/{hf}/seat", data={"csrf": _csrf(asked.text), "player": "Ben"})
    yield "table, a phone with its seat", emilie.get(f"/s/{hf}", params={"seated": "Émilie"})
    yield "who is entering", emilie.get(f"/s/{hf}/enter")
    page = emilie.get(f"/s/{hf}/enter", params={"player": "Émilie"})
    yield "a player's part", page
    raw = hunting_fever(5, names)
    part = raw["days"][0]["Émilie"]
    fields = {f"p.{place}.{card}": str(part[place][card]) for place in ("hand", "prey")
              for card in part[place] if card != "hunter"}
    fields |= {"p.hunter": "hand" if part["hand"]["hunter"] else "prey" if part["prey"]["hunter"] else "lodge",
               "p.lodge_flipped": "true" if part["lodge_flipped"] else "false"}
    wrong = {**fields, "p.hand.wolf": "3"}
    yield "a part refused beside its field", emilie.post(f"/s/{hf}/enter", data={
        "csrf": _csrf(page.text), "v": _version(page.text), "number": "1", "player": "Émilie", **wrong})
    yield "a part sent against a changed version", emilie.post(f"/s/{hf}/enter", data={
        "csrf": _csrf(page.text), "v": "0" * 20, "number": "1", "player": "Émilie", **fields})
    emilie.post(f"/s/{hf}/enter", data={"csrf": _csrf(page.text), "v": _version(page.text), "number": "1",
                                         "player": "Émilie", **fields})
    yield "table, a part sent", emilie.get(f"/s/{hf}", params={"sent": "1"})
    yield "another phone's seat", ben.get(f"/s/{hf}/enter", params={"player": "Émilie"})
    yield "a free seat's part", ben.get(f"/s/{hf}/enter", params={"player": "Yves"})
    history = emilie.get(f"/s/{hf}/history")
    yield "history of changes", history
    change = re.search(r'/undo\?change=(\d+)', history.text).group(1)
    confirm = emilie.get(f"/s/{hf}/undo", params={"change": change})
    yield "undo, asked", confirm
    undone = emilie.post(f"/s/{hf}/undo", data={"csrf": _csrf(confirm.text), "change": change})
    yield "history after an undo", emilie.get(undone.headers["location"])
    yield "a part filled with the values undone", emilie.get(f"/s/{hf}/enter",
                                                            params={"player": "Émilie", "round": "1", "from": change})
    redo = re.search(r'/redo\?change=(\d+)', emilie.get(f"/s/{hf}/history").text).group(1)
    yield "redo, asked", emilie.get(f"/s/{hf}/redo", params={"change": redo})
    yield "move a seat", owner.get(f"/s/{hf}/seat/move", params={"player": "Ben"})
    move = owner.get(f"/s/{hf}/seat/move", params={"player": "Ben"})
    handover = re.search(r'id="handover-link" type="text" readonly value="([^"]+)"', move.text).group(1)
    newcomer = TestClient(app, follow_redirects=False, headers=headers)
    yield "a seat handed over", newcomer.get(handover.replace(PUBLIC, ""))
    yield "table, organiser, seats taken", owner.get(f"/s/{hf}")
    # A Halali table: who plays blue is the table's own question; two rounds, then the result.
    halali = _start(owner, lang, "halali", ["Ann", "Ugo"])
    yield "the table's own question", owner.get(f"/s/{halali}/enter")
    rounds = [{"blue": "Ann", "tiles": {"Ann": {"bear": 1}, "Ugo": {"hunter": 2}}},
              {"blue": "Ugo", "tiles": {"Ann": {"tree": 2}, "Ugo": {"fox": 1}}}]
    for number, body in enumerate(rounds, start=1):
        versioned(owner, "PUT", f"/api/sessions/{halali}/rounds/{number}", json=body, headers=organiser_headers())
    yield "a correction", owner.get(f"/s/{halali}/enter", params={"round": "1", "player": "Ann"})
    yield "table, finished", owner.get(f"/s/{halali}")
    yield "result", owner.get(f"/s/{halali}/result")
    yield from _club(app, owner, lang, halali)
    yield "no such session", owner.get("/s/nothing")
    yield "no such round", owner.get(f"/s/{halali}/enter", params={"round": "9"})
    yield "not this phone's to do", ben.post(f"/s/{hf}/seat/give-back", data={
        "csrf": _csrf(ben.get(f"/s/{hf}/enter", params={"player": "Ben"}).text), "player": "Émilie"})


def _club(app, owner: TestClient, lang: str, halali: str) -> Iterator[tuple[str, object]]:
    """The club's history: its pages for the organiser, a finished table's pages for one of its phones."""
    from pnp.web import records, sessions

    db = app.state.site.db
    coloured = {**beavers(3), "colors": {"Alice": "red", "Bob": "green", "Chloé": "blue", "Dévi": "white"}}
    sessions.import_documents(db, [("b.json", coloured), ("hf.json", hunting_fever(9, ["Émilie", "Ben", "Yves"]))])
    ann, alice = records.person_called(db, "Ann"), records.person_called(db, "Alice")
    yield "club history", owner.get("/history")
    yield "club players", owner.get("/history/players")
    yield "club players, nobody found", owner.get("/history/players", params={"q": "zzz"})
    yield "a player's page", owner.get(f"/history/players/{alice}")
    yield "a game's page, roles", owner.get("/history/games/halali")
    yield "a game's page, colours", owner.get("/history/games/hunting-hunting-beavers")
    yield "a game's page, seats", owner.get("/history/games/hunting-fever")
    yield "export every play", owner.get("/history/export")
    rename = owner.get(f"/history/players/{ann}/rename")
    yield "rename a player", rename
    yield "a rename refused", owner.post(f"/history/players/{ann}/rename", data={"csrf": _csrf(rename.text),
                                                                               "name": "Ugo"})
    yield "merge two players", owner.get(f"/history/players/{ann}/merge")
    renamed = owner.post(f"/history/players/{ann}/rename", data={"csrf": _csrf(rename.text), "name": "Annie"})
    yield "a player renamed", owner.get(renamed.headers["location"])
    phone = _phone(app, owner, halali)
    phone.headers.update({"Accept-Language": lang})
    asked = phone.get(f"/s/{halali}/seat", params={"player": "Ann"})
    phone.post(f"/s/{halali}/seat", data={"csrf": _csrf(asked.text), "player": "Ann"})
    yield "result, a phone of the table", phone.get(f"/s/{halali}/result")
    yield "a player's page from the table", phone.get(f"/s/{halali}/players/{ann}")
    yield "a game's page from the table", phone.get(f"/s/{halali}/game")
    yield "a player not of this table", phone.get(f"/s/{halali}/players/{alice}")
