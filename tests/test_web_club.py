"""The club's figures (pnp/web/club.py): kept up to date by every write, the same as counting every session afresh.

Each step a club takes (a session imported or finished, corrected, undone, two people merged, a person
renamed or a spelling separated) must leave the figures kept exactly as a full recount makes them, and as a
plain count from the stored results (written here on its own, so that a wrong delta in the store cannot
hide behind the same code counting twice).
"""

from __future__ import annotations

import copy
import json
import random
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.sessions import card_hunter_session
from helpers import sessions_at_version_3
from pnp.web import club, records, sessions
from pnp.web.bgstats import ranks
from pnp.web.db import Database
from scoring.names import name_key
from web_helpers import beavers, halali, hunting_fever

#: A club's names: "ann" is Ann as a reader sees it; "Anne" is another spelling, a person until merged.
NAMES = ["Ann", "Ben", "Chloé", "Dévi", "Émile", "Anne", "ann", "Yves"]


def _session(rng: random.Random) -> dict:
    kind = rng.randrange(4)
    if kind == 0:
        return hunting_fever(rng.randrange(10**6), rng.sample(NAMES[:6] + ["Yves"], rng.randint(3, 5)))
    if kind == 1:
        raw = _renamed(halali(rng.randrange(10**6)), dict(zip(["Ann", "Ben"], rng.sample(NAMES, 2))))
    elif kind == 2:
        raw = beavers(rng.randrange(10**6))
        raw = _renamed(raw, dict(zip(raw["players"], rng.sample(NAMES, 4))))
    else:
        raw = card_hunter_session(rng)
        raw = _renamed(raw, dict(zip(raw["players"], rng.sample(NAMES, len(raw["players"])))))
    if rng.random() < 0.7:
        raw["date"] = f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    return raw


def _renamed(value, names: dict):
    """``value`` (a session file or part of one) with its players' names swapped as ``names`` says."""
    if isinstance(value, dict):
        return {names.get(k, k): _renamed(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    return names.get(value, value) if isinstance(value, str) else value


def _distinct(raw: dict) -> bool:
    """A session file whose names a reader can tell apart ("Ann" and "ann" are one player: refused)."""
    return len({name_key(n) for n in raw["players"]}) == len(raw["players"])


# -- figures three ways ------------------------------------------------------------------------------------


def kept_figures(connection) -> dict:
    return {table: sorted(connection.execute(f"SELECT * FROM {table}").fetchall(), key=repr)
            for table in (*club.FIGURES, "plays", "club_sessions")}


def counted_afresh(db: Database) -> dict:
    """The figures as :func:`club.recount` makes them from every stored session, in a transaction rolled back."""
    found = {}

    class RolledBack(Exception):
        pass

    with pytest.raises(RolledBack):
        with db.write() as connection:
            club.recount(connection, "2026-12-01T00:00:00+00:00")
            found.update(kept_figures(connection))
            raise RolledBack
    return found


def plainly_counted(db: Database) -> dict:
    """Plays, wins and points per person and game, head to head, and tie-breaks per game, counted from the
    stored results with the people the club says each name is."""
    with db.read() as connection:
        person = dict(connection.execute("SELECT key, person_id FROM aliases"))
        stored = [(game, json.loads(result)) for game, result in connection.execute(
            "SELECT game, result FROM sessions WHERE complete = 1")]
    people, rivals, decided = Counter(), Counter(), Counter()
    for game, result in stored:
        decided[(game, result["tie_break"] or "")] += 1
        placed = ranks(result["players"], result["totals"], result["winners"])
        for name in result["players"]:
            me = person[name_key(name)]
            total = result["totals"].get(name)
            people[(me, game, "plays")] += 1
            people[(me, game, "wins")] += name in result["winners"]
            people[(me, game, "points")] += total or 0
            for other in result["players"]:
                them = person[name_key(other)]
                if them != me:
                    rivals[(me, them, game)] += 1
                    rivals[(me, them, game, "ahead")] += placed[name] < placed[other]
    return {"people": +people, "rivals": +rivals, "decided": +decided}


def figures_of_tables(db: Database) -> dict:
    with db.read() as connection:
        people, rivals, decided = Counter(), Counter(), Counter()
        for me, game, plays, wins, _, total_sum in connection.execute("SELECT * FROM person_games"):
            people.update({(me, game, "plays"): plays, (me, game, "wins"): wins, (me, game, "points"): total_sum})
        for me, them, game, together, ahead, _ in connection.execute("SELECT * FROM rivals"):
            rivals.update({(me, them, game): together, (me, them, game, "ahead"): ahead})
        for game, tie_break, count in connection.execute("SELECT * FROM game_decisions"):
            decided[(game, tie_break)] = count
    return {"people": +people, "rivals": +rivals, "decided": +decided}


def assert_figures_hold(db: Database) -> None:
    with db.read() as connection:
        kept = kept_figures(connection)
    assert kept == counted_afresh(db)
    assert figures_of_tables(db) == plainly_counted(db)


# -- what a club does ------------------------------------------------------------------------------------


def _correct(db: Database, rng: random.Random) -> None:
    """A finished session corrected after the fact: two players' entries swapped (still a valid session), or
    its last day taken back (an undo: unfinished again) and put back."""
    with db.read() as connection:
        ids = [row[0] for row in connection.execute("SELECT id FROM sessions WHERE complete = 1 ORDER BY id")]
    if not ids:
        return
    stored = sessions.get_session(db, rng.choice(ids))
    document = copy.deepcopy(stored.document)
    try:
        _corrected(db, rng, stored, document)
    except sessions.Refused:
        pass  # a swap the rules refuse (an own card in another's hand): refused whole, nothing changed


def _corrected(db: Database, rng: random.Random, stored, document: dict) -> None:
    with db.write() as connection:
        if rng.random() < 0.5 and len(document["players"]) > 1:
            a, b = rng.sample(document["players"], 2)
            fixed = document["players"]
            swapped = _renamed(document, {a: b, b: a})
            swapped["players"] = fixed
            sessions.save(connection, stored, swapped)
        else:
            key = next((k for k in ("days", "rounds") if k in document), None)
            shorter = copy.deepcopy(document)
            if key is None:
                shorter.pop("result", None)
                shorter.pop("knockouts_left", None)
            else:
                shorter[key] = shorter[key][:-1]
            undone = sessions.save(connection, stored, shorter)
            if rng.random() < 0.7:
                sessions.save(connection, undone, document)


def _person_ids(db: Database) -> list[int]:
    with db.read() as connection:
        return [row[0] for row in connection.execute("SELECT id FROM people WHERE merged_into IS NULL ORDER BY id")]


def _merge(db: Database, rng: random.Random) -> None:
    people = _person_ids(db)
    if len(people) < 2:
        return
    kept, other = rng.sample(people, 2)
    try:
        with db.write() as connection:
            club.merge(connection, kept, other)
    except club.ClubRefused as refused:
        assert refused.reason == "played_together"


def _rename(db: Database, rng: random.Random) -> None:
    people = _person_ids(db)
    if not people:
        return
    try:
        with db.write() as connection:
            club.rename(connection, rng.choice(people), rng.choice(NAMES + ["Zoë", "ZOË", "Anna"]))
    except club.ClubRefused as refused:
        assert refused.reason == "name_taken"


def _separate(db: Database, rng: random.Random) -> None:
    with db.read() as connection:
        rows = connection.execute("SELECT a.person_id, a.spelling FROM aliases a JOIN people p ON p.id = a.person_id "
                                  "WHERE p.merged_into IS NULL ORDER BY a.key").fetchall()
    if not rows:
        return
    person, spelling = rng.choice(rows)
    try:
        with db.write() as connection:
            club.separate(connection, person, spelling, "2026-12-01T00:00:00+00:00")
    except club.ClubRefused as refused:
        assert refused.reason == "only_spelling"


def _import(db: Database, rng: random.Random) -> None:
    raw = _session(rng)
    if _distinct(raw):
        sessions.import_documents(db, [("s.json", raw)])


STEPS = {"import": _import, "correct": _correct, "merge": _merge, "rename": _rename, "separate": _separate}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), steps=st.lists(st.sampled_from(sorted(STEPS)), min_size=1, max_size=10))
def test_every_step_of_a_club_leaves_the_figures_as_a_full_count_makes_them(seed, steps):
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        db = Database.in_folder(Path(folder))
        try:
            for _ in range(8):
                _import(db, rng)
            assert_figures_hold(db)
            for step in steps:
                STEPS[step](db, rng)
                assert_figures_hold(db)
        finally:
            db.close()


# -- a database of the version before, counted once when it is opened ---------------------------------------


def test_a_history_stored_before_the_figures_is_counted_once_on_upgrade(tmp_path):
    rng = random.Random(5)
    raws = [raw for raw in (_session(rng) for _ in range(30)) if _distinct(raw)]
    fresh = Database.in_folder(tmp_path / "fresh")
    sessions.import_documents(fresh, [(f"{i}.json", raw) for i, raw in enumerate(raws)])
    # The same sessions in a file of schema version 3, as the version before this one wrote it.
    old_path = tmp_path / "old" / "pnp.sqlite3"
    old_path.parent.mkdir()
    with fresh.read() as connection:
        sessions_at_version_3(connection, old_path)
    upgraded = Database(old_path)
    with upgraded.read() as a, fresh.read() as b:
        # People are numbered in the order they are met (by date on upgrade, by file when imported): the
        # same people have the same figures, whatever their numbers.
        assert _by_person(a) == _by_person(b)
        for table in ("game_figures", "game_decisions", "game_sides", "club_sessions"):
            assert kept_figures(a)[table] == kept_figures(b)[table]
        assert a.execute("SELECT count(*) FROM club_sessions").fetchone()[0] > 10
    assert_figures_hold(upgraded)
    upgraded.close()
    fresh.close()


def _by_person(connection) -> dict:
    """Each person's figures per game and head to head, keyed by the names they were written with."""
    names = defaultdict(set)
    for key, person in connection.execute("SELECT key, person_id FROM aliases"):
        names[person].add(key)
    known = {person: tuple(sorted(keys)) for person, keys in names.items()}
    games = {(known[p], g): rest for p, g, *rest in connection.execute("SELECT * FROM person_games")}
    rivals = {(known[p], known[r], g): rest for p, r, g, *rest in connection.execute("SELECT * FROM rivals")}
    return {"games": games, "rivals": rivals}


# -- a correction, a merge and a rename change every figure they touch ----------------------------------------


def _beavers(players: list[str], rounds: list[list[int]], date: str) -> dict:
    return {"game": "hunting-hunting-beavers", "players": players, "date": date,
            "rounds": [dict(zip(players, changes)) for changes in rounds] + [dict.fromkeys(players, 0)] * (10 - len(rounds))}


def test_a_correction_a_merge_and_a_rename_change_every_figure_they_touch(tmp_path):
    db = Database.in_folder(tmp_path)
    four = ["Ann", "Ben", "Cat", "Dan"]
    first = _beavers(four, [[3, 1, 0, 0], [2, 0, 1, 0]], "2026-11-01")           # Ann 5, Ben 1, Cat 1, Dan 0
    second = _beavers(["Anne", "Ben", "Cat", "Dan"], [[1, 3, 0, 0]], "2026-11-08")  # Ben 3 wins; Anne 1
    done = sessions.import_documents(db, [("1.json", first), ("2.json", second)])
    ids = {name: records.person_called(db, name) for name in ("Ann", "Anne", "Ben", "Cat", "Dan")}
    ann = records.person(db, ids["Ann"])
    game = records.game(db, "hunting-hunting-beavers")
    assert (ann["plays"], ann["wins"], ann["games"][0]["best"]["value"]) == (1, 1, 5)
    assert game["records"]["highest"]["name"] == "Ann" and game["records"]["margin"]["value"] == 4

    # A correction of the first session: Ben, not Ann, won round 1's 3.
    stored = sessions.get_session(db, done[0].session_id)
    corrected = copy.deepcopy(stored.document)
    corrected["rounds"][0] = {"Ann": 1, "Ben": 3, "Cat": 0, "Dan": 0}                 # Ann 3, Ben 3, Cat 1
    with db.write() as connection:
        sessions.save(connection, stored, corrected)
    ann, ben = records.person(db, ids["Ann"]), records.person(db, ids["Ben"])
    game = records.game(db, "hunting-hunting-beavers")
    assert (ann["wins"], ann["games"][0]["best"]["value"], ann["games"][0]["average"]) == (1, 3, 3.0)
    assert (ben["wins"], ben["games"][0]["average"]) == (2, 3.0)                     # a shared win, then Ben's
    assert [d for d in game["decisions"] if d["tie_break"] == "shared"] == [{"tie_break": "shared", "sessions": 1}]
    assert game["records"]["highest"]["value"] == 3 and game["records"]["margin"]["value"] == 2
    assert {r["name"]: (r["ahead"], r["behind"], r["level"]) for r in ann["rivals"]}["Ben"] == (0, 0, 1)
    assert game["sides"]["seat"][0] == {"side": "1", "players": 4, "plays": 2, "wins": 1, "rate": 0.5}

    # A merge: "Anne" is Ann; her second session counts for Ann, under Ann's name.
    with db.write() as connection:
        club.merge(connection, ids["Ann"], ids["Anne"])
    ann = records.person(db, ids["Ann"])
    game = records.game(db, "hunting-hunting-beavers")
    assert (ann["plays"], ann["wins"], ann["games"][0]["average"]) == (2, 1, 2.0)
    assert ann["spellings"] == ["Ann", "Anne"]
    assert {r["name"]: r["together"] for r in ann["rivals"]} == {"Ben": 2, "Cat": 2, "Dan": 2}
    assert [row["name"] for row in game["leaders"]].count("Anne") == 0
    assert isinstance(records.person(db, ids["Anne"]), records.Moved)
    ben = records.person(db, ids["Ben"])
    assert [r["name"] for r in ben["rivals"]].count("Ann") == 1 and "Anne" not in [r["name"] for r in ben["rivals"]]
    # Someone who sat at Ann's table cannot be merged into her.
    with pytest.raises(club.ClubRefused) as refused, db.write() as connection:
        club.merge(connection, ids["Ann"], ids["Ben"])
    assert refused.value.reason == "played_together"

    # A rename: every page, list, record and export names her anew; her sessions keep their names.
    with db.write() as connection:
        club.rename(connection, ids["Ann"], "Annie")
    game = records.game(db, "hunting-hunting-beavers")
    assert records.person(db, ids["Ann"])["name"] == "Annie"
    assert "Annie" in [row["name"] for row in game["leaders"]]
    assert {r["name"] for r in records.person(db, ids["Ben"])["rivals"]} == {"Annie", "Cat", "Dan"}
    assert game["records"]["highest"]["name"] in ("Annie", "Ben")
    assert [row["name"] for row in records.people(db)["people"]].count("Annie") == 1
    exported = records.plays_csv(records.every_play(db))
    assert exported.count(",Annie,") == 2 and ",Ann,Annie," in exported and ",Anne,Annie," in exported
    assert sessions.get_session(db, done[1].session_id).players[0] == "Anne"
    # A session written later under an old spelling still counts for her.
    sessions.import_documents(db, [("3.json", _beavers(["ANNE", "Ben", "Cat", "Dan"], [[4]], "2026-11-15"))])
    assert records.person(db, ids["Ann"])["plays"] == 3
    # And her name is hers: another person cannot take it.
    with pytest.raises(club.ClubRefused), db.write() as connection:
        club.rename(connection, ids["Ben"], "annie")
    assert_figures_hold(db)
    db.close()


def test_separating_a_spelling_takes_a_merge_back(tmp_path):
    db = Database.in_folder(tmp_path)
    sessions.import_documents(db, [("1.json", _beavers(["Ann", "Ben", "Cat", "Dan"], [[3]], "2026-11-01")),
                                   ("2.json", _beavers(["Anne", "Ben", "Cat", "Dan"], [[0, 2]], "2026-11-08"))])
    ann, anne = records.person_called(db, "Ann"), records.person_called(db, "Anne")
    before = records.person(db, ann)
    with db.write() as connection:
        club.merge(connection, ann, anne)
        new = club.separate(connection, ann, "Anne", "2026-12-01T00:00:00+00:00")
    again = records.person(db, ann)
    assert {k: again[k] for k in ("plays", "wins", "games", "rivals")} == \
        {k: before[k] for k in ("plays", "wins", "games", "rivals")}
    assert records.person(db, new)["plays"] == 1 and records.person_called(db, "anne") == new
    with pytest.raises(club.ClubRefused) as refused, db.write() as connection:
        club.separate(connection, new, "Anne", "2026-12-01T00:00:00+00:00")
    assert refused.value.reason == "only_spelling"
    assert_figures_hold(db)
    db.close()


def test_two_names_of_one_person_at_one_table_count_no_rivalry_with_oneself(tmp_path):
    # Merged first, then a session names both spellings (two players the scorer could tell apart).
    db = Database.in_folder(tmp_path)
    sessions.import_documents(db, [("1.json", _beavers(["Ann", "Ben", "Cat", "Dan"], [[3]], "2026-11-01")),
                                   ("2.json", _beavers(["Anne", "Ben", "Cat", "Dan"], [[1]], "2026-11-02"))])
    ann, anne = records.person_called(db, "Ann"), records.person_called(db, "Anne")
    with db.write() as connection:
        club.merge(connection, ann, anne)
    sessions.import_documents(db, [("3.json", _beavers(["Ann", "Anne", "Cat", "Dan"], [[2, 1]], "2026-11-03"))])
    ann = records.person(db, records.person_called(db, "Ann"))
    assert ann["plays"] == 4 and ann["person"] not in {r["person"] for r in ann["rivals"]}
    assert_figures_hold(db)
    db.close()


def test_every_play_exported_and_the_bgstats_file_keeps_its_ids(tmp_path):
    from pnp.web import bgstats

    db = Database.in_folder(tmp_path)
    rng = random.Random(11)
    raws = [raw for raw in (_session(rng) for _ in range(12)) if _distinct(raw)]
    sessions.import_documents(db, [(f"{i}.json", raw) for i, raw in enumerate(raws)])
    rows = records.every_play(db)
    assert len(rows) == sum(p["plays"] for p in records.people(db, size=10**6)["people"])
    made = bgstats.club_file(rows, club=records.club_id(db), game_names={}, me=rows[0].person)
    again = bgstats.club_file(records.every_play(db), club=records.club_id(db), game_names={}, me=None)
    assert [p["uuid"] for p in made["plays"]] == [p["uuid"] for p in again["plays"]]
    assert made["userInfo"] == {"meRefId": 1} and "userInfo" not in again
    player_ids = {p["id"] for p in made["players"]}
    assert all(s["playerRefId"] in player_ids for play in made["plays"] for s in play["playerScores"])
    assert {g["sourceGameId"]: g["cooperative"] for g in made["games"]}.get("card-hunter", True) is True
    by_play = defaultdict(list)
    for row in rows:
        by_play[row.session].append(row)
    for play in made["plays"]:
        seats = by_play[play["sourcePlayId"]]
        assert [s["score"] for s in play["playerScores"]] == ["" if r.total is None else str(r.total) for r in seats]
        assert [s["winner"] for s in play["playerScores"]] == [r.won for r in seats]
    db.close()
