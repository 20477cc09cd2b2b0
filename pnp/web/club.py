"""A club's figures, kept up to date in the transaction that writes each session.

Every finished session adds its plays (:mod:`pnp.web.plays`) to tables of
figures: each person's plays, wins and points per game, every pair of people's
sessions together and who finished ahead, each game's sessions, points, how
each was decided, and wins by seat and by side.  A write, a correction or an
undo takes back what the session added before and adds what it adds now, by
the rows kept of it (``plays`` and ``club_sessions``), so no page ever counts
sessions again; a merge, a separation or a rename changes the figures of the
sessions of the people concerned only.  :func:`rebuild` counts every session
afresh (an upgraded database, once), and the tests check the figures kept step
by step against it.

People: a name in a session is a person; two names that a reader cannot tell
apart (:func:`scoring.names.name_key`: ``Ann`` and ``ANN``) are one.  Every
spelling a person was written with is kept (``aliases``), so a session
written later under an old spelling still counts for them.  The organiser
renames a person (the name the pages show; their old spellings stay theirs),
merges two into one, and separates a spelling back out into a person of its
own.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Iterable, Iterator

from scoring.names import name_key

from pnp.core.records import NamedTuple
from pnp.web.plays import Play, SessionPlays, session_plays, sides_of_document

#: The tables of figures, emptied and counted again by :func:`rebuild`.
FIGURES = ("person_games", "rivals", "game_figures", "game_decisions", "game_sides")


class ClubRefused(ValueError):
    """What the organiser asked of the club's people cannot be done: ``reason`` is its code, ``params`` its values."""

    def __init__(self, reason: str, **params: object) -> None:
        self.reason = reason
        self.params = params
        super().__init__(reason)


# -- people ----------------------------------------------------------------------------------------


def person_of(connection, name: str, now: str) -> int:
    """The person a name in a session is: the one that name (or one a reader cannot tell from it) is
    already, else a new person of that name."""
    key = name_key(name)
    row = connection.execute("SELECT person_id FROM aliases WHERE key = ?", (key,)).fetchone()
    if row is not None:
        return row[0]
    person = connection.execute("INSERT INTO people (name, created_at) VALUES (?, ?)", (name, now)).lastrowid
    connection.execute("INSERT INTO aliases (key, spelling, person_id) VALUES (?, ?, ?)", (key, name, person))
    return person


def live_person(connection, person_id: int) -> int | None:
    """The person ``person_id`` is now: itself, or the one it was merged into; None if there is none."""
    for _ in range(64):  # merges chain at most once (:func:`merge` points every merged one at the kept one)
        row = connection.execute("SELECT merged_into FROM people WHERE id = ?", (person_id,)).fetchone()
        if row is None:
            return None
        if row[0] is None:
            return person_id
        person_id = row[0]
    return None


def rename(connection, person_id: int, name: str) -> None:
    """Show ``person_id`` as ``name`` from now on; the names they were written with stay theirs.

    ClubRefused ``name_taken`` when the name is another person's (merge them instead).
    """
    key = name_key(name)
    row = connection.execute("SELECT person_id FROM aliases WHERE key = ?", (key,)).fetchone()
    if row is not None and row[0] != person_id:
        other = connection.execute("SELECT name FROM people WHERE id = ?", (row[0],)).fetchone()[0]
        raise ClubRefused("name_taken", name=name, other=other)
    connection.execute("UPDATE people SET name = ? WHERE id = ?", (name, person_id))
    if row is None:
        connection.execute("INSERT INTO aliases (key, spelling, person_id) VALUES (?, ?, ?)", (key, name, person_id))


def _sessions_of(connection, person_id: int) -> list[str]:
    return [row[0] for row in connection.execute(
        "SELECT DISTINCT session_id FROM plays WHERE person_id = ?", (person_id,))]


def merge(connection, kept: int, other: int) -> list[str]:
    """``other`` is the same person as ``kept``: their spellings and plays become ``kept``'s.

    ClubRefused ``merge_self``, or ``played_together`` (with the session's id and date) when the
    two sat at one table: then they are two people.  Returns the sessions whose figures changed.
    """
    if kept == other:
        raise ClubRefused("merge_self")
    together = connection.execute(
        "SELECT a.session_id, a.played_on FROM plays a JOIN plays b ON a.session_id = b.session_id "
        "WHERE a.person_id = ? AND b.person_id = ? ORDER BY a.played_on DESC LIMIT 1", (kept, other)).fetchone()
    if together is not None:
        raise ClubRefused("played_together", session=together[0], date=together[1])
    touched = _sessions_of(connection, other)
    with _refreshing(connection, touched):
        connection.execute("UPDATE aliases SET person_id = ? WHERE person_id = ?", (kept, other))
        connection.execute("UPDATE people SET merged_into = ? WHERE id = ? OR merged_into = ?", (kept, other, other))
    return touched


def separate(connection, person_id: int, spelling: str, now: str) -> int:
    """A spelling of ``person_id`` is someone else: a new person of that name, with the plays written so.

    ClubRefused ``unknown_spelling`` when it is not theirs, ``only_spelling`` when it is all they have.
    Returns the new person's id.
    """
    key = name_key(spelling)
    spellings = dict(connection.execute("SELECT key, spelling FROM aliases WHERE person_id = ?", (person_id,)))
    if key not in spellings:
        raise ClubRefused("unknown_spelling", name=spelling)
    if len(spellings) == 1:
        raise ClubRefused("only_spelling", name=spelling)
    touched = [session for session, name in connection.execute(
        "SELECT session_id, name FROM plays WHERE person_id = ?", (person_id,)) if name_key(name) == key]
    with _refreshing(connection, touched):
        new = connection.execute("INSERT INTO people (name, created_at) VALUES (?, ?)",
                                 (spellings[key], now)).lastrowid
        connection.execute("UPDATE aliases SET person_id = ? WHERE key = ?", (new, key))
        shown = connection.execute("SELECT name FROM people WHERE id = ?", (person_id,)).fetchone()[0]
        if name_key(shown) == key:
            # The person was shown under the spelling that left: show them under one they keep.
            rest = sorted(spelling for k, spelling in spellings.items() if k != key)
            connection.execute("UPDATE people SET name = ? WHERE id = ?", (rest[0], person_id))
    return new


# -- sessions ---------------------------------------------------------------------------------------


class _Kept(NamedTuple):
    """A finished session's plays as the club keeps them: with each seat's person."""

    plays: SessionPlays
    people: tuple[int, ...]  # by seat


def session_written(connection, session_id: str, plays: SessionPlays | None, now: str) -> None:
    """The session was stored (started, entered, corrected, undone, imported): its figures follow.

    What it added before is taken back and what it adds now is added, in the caller's transaction.
    """
    before = _kept(connection, session_id)
    if before is None and plays is None:
        return
    if before is not None and plays == before.plays:
        return
    if before is not None:
        _count(connection, before, -1)
    if plays is not None:
        _count(connection, _Kept(plays, tuple(person_of(connection, p.name, now) for p in plays.plays)), +1)


@contextmanager
def _refreshing(connection, session_ids: Iterable[str]) -> Iterator[None]:
    """Around a change of who is whom: the sessions' figures taken back before, added again after with
    each name's person as it is then."""
    kept = [found for found in (_kept(connection, session) for session in session_ids) if found is not None]
    for found in kept:
        _count(connection, found, -1)
    yield
    for found in kept:
        people = tuple(connection.execute("SELECT person_id FROM aliases WHERE key = ?",
                                          (name_key(play.name),)).fetchone()[0] for play in found.plays.plays)
        _count(connection, found._replace(people=people), +1)


_PLAY_COLUMNS = "seat, name, total, won, rank, best_round, best_round_number, side, person_id"


def _kept(connection, session_id: str) -> _Kept | None:
    """The plays the club counts of a session now, read back from its rows; None if it counts none."""
    row = connection.execute("SELECT game, played_on, sequence, tie_break, side_kind, margin FROM club_sessions "
                             "WHERE session_id = ?", (session_id,)).fetchone()
    if row is None:
        return None
    game, played_on, sequence, tie_break, side_kind, margin = row
    plays, people = [], []
    for seat, name, total, won, rank, best, number, side, person in connection.execute(
            f"SELECT {_PLAY_COLUMNS} FROM plays WHERE session_id = ? ORDER BY seat", (session_id,)):
        plays.append(Play(seat=seat, name=name, total=total, won=bool(won), rank=rank, best_round=best,
                          best_round_number=number, side=side))
        people.append(person)
    return _Kept(SessionPlays(session_id=session_id, game=game, played_on=played_on, sequence=sequence,
                              tie_break=tie_break, side_kind=side_kind, margin=margin, plays=tuple(plays)),
                 tuple(people))


def _count(connection, kept: _Kept, sign: int) -> None:
    """Add (``sign`` 1) or take back (-1) a session's plays and every figure they make."""
    session = kept.plays
    if sign > 0:
        _store_rows(connection, kept)
    else:
        connection.execute("DELETE FROM plays WHERE session_id = ?", (session.session_id,))
        connection.execute("DELETE FROM club_sessions WHERE session_id = ?", (session.session_id,))
    _count_people(connection, kept, sign)
    _count_game(connection, session, sign)


def _store_rows(connection, kept: _Kept) -> None:
    session = kept.plays
    connection.execute(
        "INSERT INTO club_sessions (session_id, game, played_on, sequence, players, tie_break, side_kind, margin) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (session.session_id, session.game, session.played_on, session.sequence, session.players, session.tie_break,
         session.side_kind, session.margin))
    connection.executemany(
        f"INSERT INTO plays (session_id, game, played_on, sequence, players, {_PLAY_COLUMNS}) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(session.session_id, session.game, session.played_on, session.sequence, session.players, play.seat,
          play.name, play.total, int(play.won), play.rank, play.best_round, play.best_round_number, play.side,
          person) for play, person in zip(session.plays, kept.people)])


def _count_people(connection, kept: _Kept, sign: int) -> None:
    session = kept.plays
    connection.executemany(
        "INSERT INTO person_games (person_id, game, plays, wins, scored, total_sum) VALUES (?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (person_id, game) DO UPDATE SET plays = plays + excluded.plays, wins = wins + excluded.wins, "
        "scored = scored + excluded.scored, total_sum = total_sum + excluded.total_sum",
        [(person, session.game, sign, sign * play.won, sign * (play.total is not None), sign * (play.total or 0))
         for play, person in zip(session.plays, kept.people)])
    pairs = [(person, rival, session.game, sign, sign * (play.rank < other.rank), sign * (play.rank > other.rank))
             for play, person in zip(session.plays, kept.people)
             for other, rival in zip(session.plays, kept.people) if rival != person]
    connection.executemany(
        "INSERT INTO rivals (person_id, rival_id, game, together, ahead, behind) VALUES (?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (person_id, rival_id, game) DO UPDATE SET together = together + excluded.together, "
        "ahead = ahead + excluded.ahead, behind = behind + excluded.behind", pairs)
    if sign < 0:
        connection.execute("DELETE FROM person_games WHERE plays = 0")
        connection.execute("DELETE FROM rivals WHERE together = 0")


def _count_game(connection, session: SessionPlays, sign: int) -> None:
    totals = [play.total for play in session.plays if play.total is not None]
    winning = [play.total for play in session.plays if play.won and play.total is not None]
    connection.execute(
        "INSERT INTO game_figures (game, sessions, plays, scored, total_sum, winners_scored, winning_sum) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game) DO UPDATE SET sessions = sessions + excluded.sessions, "
        "plays = plays + excluded.plays, scored = scored + excluded.scored, "
        "total_sum = total_sum + excluded.total_sum, winners_scored = winners_scored + excluded.winners_scored, "
        "winning_sum = winning_sum + excluded.winning_sum",
        (session.game, sign, sign * session.players, sign * len(totals), sign * sum(totals), sign * len(winning),
         sign * sum(winning)))
    connection.execute(
        "INSERT INTO game_decisions (game, tie_break, sessions) VALUES (?, ?, ?) ON CONFLICT (game, tie_break) "
        "DO UPDATE SET sessions = sessions + excluded.sessions", (session.game, session.tie_break, sign))
    sides = [("seat", str(play.seat), play) for play in session.plays]
    if session.side_kind is not None:
        sides += [(session.side_kind, play.side, play) for play in session.plays if play.side is not None]
    connection.executemany(
        "INSERT INTO game_sides (game, kind, side, players, plays, wins) VALUES (?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (game, kind, side, players) DO UPDATE SET plays = plays + excluded.plays, "
        "wins = wins + excluded.wins",
        [(session.game, kind, side, session.players, sign, sign * play.won) for kind, side, play in sides])
    if sign < 0:
        connection.execute("DELETE FROM game_figures WHERE sessions = 0")
        connection.execute("DELETE FROM game_decisions WHERE sessions = 0")
        connection.execute("DELETE FROM game_sides WHERE plays = 0")


def rebuild(connection, finished: Iterable[SessionPlays], now: str) -> None:
    """Count every finished session afresh, in the order given (the first spelling of a person names them).

    The people and their spellings are kept (a rename or a merge is the organiser's); the figures
    are emptied and counted again.
    """
    connection.execute("DELETE FROM plays")
    connection.execute("DELETE FROM club_sessions")
    for table in FIGURES:
        connection.execute(f"DELETE FROM {table}")
    for plays in finished:
        _count(connection, _Kept(plays, tuple(person_of(connection, p.name, now) for p in plays.plays)), +1)


def recount(connection, now: str) -> None:
    """Count every finished session stored, oldest first, from its stored result (a database made before
    the club's figures were kept, once, when it is upgraded)."""
    rows = connection.execute(
        "SELECT id, document, result, played_on, created_at, rowid FROM sessions WHERE complete = 1 "
        "ORDER BY coalesce(played_on, substr(created_at, 1, 10)), created_at, rowid").fetchall()
    finished = []
    for session_id, document, result, played_on, created_at, sequence in rows:
        found = session_plays(session_id, json.loads(result), sides=sides_of_document(json.loads(document)),
                              played_on=played_on or created_at[:10], sequence=sequence)
        if found is not None:
            finished.append(found)
    rebuild(connection, finished, now)
