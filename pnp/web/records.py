"""What the club's history pages show, read from the figures kept (:mod:`pnp.web.club`), a page at a time.

Every function here reads in one transaction a bounded number of rows: the
figures of a person or a game, the bests found through an index, one page of a
list.  Nothing counts sessions again on a request, so a page answers as fast
with 5,000 sessions stored as with 50 (bench/history.py measures it).  The
records are plain values (numbers, names, ids, dates), the same for a page, the
JSON API and ``pnp score history``; the words are the views'.
"""

from __future__ import annotations

import csv
import datetime
import io

from scoring.names import name_key

from pnp.core.records import NamedTuple
from pnp.web import bgstats
from pnp.web.club import live_person
from pnp.web.db import Database
from pnp.web.sessions import LISTED, StoredSession, from_row

#: Rows of a list on one page.
PAGE = 20
#: Plays a chart of totals shows, the latest.
SERIES = 30


class Page(NamedTuple):
    """Which page of a list is shown, of how many (``size`` rows a page)."""

    number: int
    pages: int
    total: int
    size: int = PAGE

    @property
    def offset(self) -> int:
        return (self.number - 1) * self.size

    def json(self) -> dict:
        return {"page": self.number, "pages": self.pages, "total": self.total, "size": self.size}


def page_of(total: int, asked: int | None, size: int = PAGE) -> Page:
    """The page ``asked`` (1 for none, the last for one past it) of a list of ``total`` rows.

    >>> page_of(45, 3), page_of(45, 9).number, page_of(0, None).pages
    (Page(number=3, pages=3, total=45, size=20), 3, 1)
    """
    pages = max(1, -(-total // size))
    return Page(min(max(asked or 1, 1), pages), pages, total, size)


def rate(wins: int, plays: int) -> float | None:
    return wins / plays if plays else None


def average(total: int, count: int) -> float | None:
    return total / count if count else None


class Moved(NamedTuple):
    """A person merged into another: their pages are the other's."""

    person_id: int


# -- the club ---------------------------------------------------------------------------------------


def _game_rows(connection) -> list[dict]:
    games = []
    for game, sessions, plays, scored, total_sum in connection.execute(
            "SELECT game, sessions, plays, scored, total_sum FROM game_figures ORDER BY sessions DESC, game"):
        leaders = [{"person": person, "name": name, "plays": p, "wins": w}
                   for person, name, p, w in connection.execute(
                       "SELECT g.person_id, p.name, g.plays, g.wins FROM person_games g JOIN people p "
                       "ON p.id = g.person_id WHERE g.game = ? ORDER BY g.wins DESC, g.plays, p.name LIMIT 5",
                       (game,))]
        people = connection.execute("SELECT count(*) FROM person_games WHERE game = ?", (game,)).fetchone()[0]
        games.append({"game": game, "sessions": sessions, "plays": plays, "people": people,
                      "average": average(total_sum, scored), "leaders": leaders})
    return games


def _session_json(stored: StoredSession, names: dict[str, tuple[int, str]]) -> dict:
    result = stored.result
    return {"id": stored.id, "game": stored.game, "date": stored.played_on or stored.created_at[:10],
            "dated": stored.played_on is not None, "origin": stored.origin, "source": stored.source,
            "complete": stored.complete,
            "players": [{"name": name, "person": names.get(name, (None, None))[0], "total": result["totals"].get(name),
                         "won": name in result["winners"]} for name in stored.players],
            "tie_break": result["tie_break"]}


def _people_of_names(connection, sessions: list[StoredSession]) -> dict[str, tuple[int, str]]:
    """Each name of these sessions -> (the person, as the pages name them), for those counted in the club."""
    found = {}
    for stored in sessions:
        for name in stored.players:
            if name not in found:
                row = connection.execute("SELECT p.id, p.name FROM aliases a JOIN people p ON p.id = a.person_id "
                                         "WHERE a.key = ?", (name_key(name),)).fetchone()
                if row is not None:
                    found[name] = tuple(row)
    return found


def club(db: Database, *, page: int | None = None) -> dict:
    """The history's first page: every game's figures and leaders, how many people, a page of the sessions."""
    with db.read() as connection:
        count = connection.execute("SELECT count(*) FROM sessions").fetchone()[0]
        shown = page_of(count, page)
        kept = [from_row(row) for row in connection.execute(LISTED.format(where="") + " LIMIT ? OFFSET ?",
                                                            (PAGE, shown.offset))]
        names = _people_of_names(connection, kept)
        people = connection.execute("SELECT count(*) FROM people WHERE merged_into IS NULL").fetchone()[0]
        return {"games": _game_rows(connection), "people": people,
                "sessions": [_session_json(s, names) for s in kept], "page": shown.json()}


def recent_sessions(db: Database, origin: str, limit: int) -> list[StoredSession]:
    """The last ``limit`` sessions of one origin (``table`` or ``import``), most recently played first."""
    with db.read() as connection:
        return [from_row(row) for row in connection.execute(
            LISTED.format(where=" WHERE origin = ?") + " LIMIT ?", (origin, limit))]


def people(db: Database, *, page: int | None = None, search: str | None = None, size: int = PAGE) -> dict:
    """Everyone who finished a session, most plays first (a page), with their plays and wins over every game."""
    where, params = "WHERE p.merged_into IS NULL", []
    if search:
        where += " AND p.id IN (SELECT person_id FROM aliases WHERE spelling LIKE ? ESCAPE '\\')"
        params.append("%" + search.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%")
    with db.read() as connection:
        total = connection.execute(f"SELECT count(*) FROM people p {where}", params).fetchone()[0]
        shown = page_of(total, page, size)
        rows = connection.execute(
            f"SELECT p.id, p.name, coalesce(sum(g.plays), 0), coalesce(sum(g.wins), 0), count(g.game) "
            f"FROM people p LEFT JOIN person_games g ON g.person_id = p.id {where} "
            f"GROUP BY p.id ORDER BY 3 DESC, p.name LIMIT ? OFFSET ?", [*params, size, shown.offset]).fetchall()
    return {"people": [{"person": person, "name": name, "plays": plays, "wins": wins, "rate": rate(wins, plays),
                        "games": games} for person, name, plays, wins, games in rows],
            "page": shown.json(), "search": search or ""}


def person_called(db: Database, name: str) -> int | None:
    """The person a name is (any of their spellings, as a reader tells names apart); None for nobody."""
    with db.read() as connection:
        row = connection.execute("SELECT person_id FROM aliases WHERE key = ?", (name_key(name),)).fetchone()
    return row[0] if row else None


def person_name(db: Database, person_id: int) -> str | None:
    """How the club names a person (one merged into another keeps the name it had)."""
    with db.read() as connection:
        row = connection.execute("SELECT name FROM people WHERE id = ?", (person_id,)).fetchone()
    return row[0] if row else None


def roster(db: Database) -> dict:
    """Everyone by name, and how many finished sessions and plays the club counts (the export page)."""
    with db.read() as connection:
        people = [{"person": person, "name": name} for person, name in connection.execute(
            "SELECT id, name FROM people WHERE merged_into IS NULL ORDER BY name")]
        finished, plays = connection.execute(
            "SELECT coalesce(sum(sessions), 0), coalesce(sum(plays), 0) FROM game_figures").fetchone()
    return {"people": people, "finished": finished, "plays": plays}


def people_at(db: Database, names: list[str]) -> dict[str, int]:
    """The person each of these names is, for those the club counts (a session's players)."""
    with db.read() as connection:
        found = {}
        for name in names:
            row = connection.execute("SELECT person_id FROM aliases WHERE key = ?", (name_key(name),)).fetchone()
            if row is not None:
                found[name] = row[0]
        return found


# -- a person ---------------------------------------------------------------------------------------


def _best(connection, column: str, where: str, params: tuple) -> dict | None:
    """The highest ``column`` of the plays ``where`` says, found through its index, with when and who."""
    row = connection.execute(
        f"SELECT pl.{column}, pl.best_round_number, pl.session_id, pl.played_on, pl.person_id, p.name "
        f"FROM plays pl JOIN people p ON p.id = pl.person_id WHERE {where} AND pl.{column} IS NOT NULL "
        f"ORDER BY pl.{column} DESC, pl.played_on, pl.sequence LIMIT 1", params).fetchone()
    if row is None:
        return None
    value, number, session, date, person, name = row
    return {"value": value, "round": number if column == "best_round" else None, "session": session,
            "date": date, "person": person, "name": name}


def _lowest_total(connection, game: str) -> dict | None:
    row = connection.execute(
        "SELECT pl.total, pl.session_id, pl.played_on, pl.person_id, p.name FROM plays pl JOIN people p "
        "ON p.id = pl.person_id WHERE pl.game = ? AND pl.total IS NOT NULL ORDER BY pl.total, pl.played_on LIMIT 1",
        (game,)).fetchone()
    if row is None:
        return None
    value, session, date, person, name = row
    return {"value": value, "round": None, "session": session, "date": date, "person": person, "name": name}


def _person_games(connection, person_id: int) -> list[dict]:
    games = []
    for game, plays, wins, scored, total_sum in connection.execute(
            "SELECT game, plays, wins, scored, total_sum FROM person_games WHERE person_id = ? "
            "ORDER BY plays DESC, game", (person_id,)):
        where = "pl.person_id = ? AND pl.game = ?"
        games.append({"game": game, "plays": plays, "wins": wins, "rate": rate(wins, plays),
                      "average": average(total_sum, scored),
                      "best": _best(connection, "total", where, (person_id, game)),
                      "best_round": _best(connection, "best_round", where, (person_id, game))})
    return games


def _rivals(connection, person_id: int, asked: int | None, size: int) -> tuple[list[dict], Page]:
    total = connection.execute("SELECT count(DISTINCT rival_id) FROM rivals WHERE person_id = ?",
                               (person_id,)).fetchone()[0]
    shown = page_of(total, asked, size)
    rows = connection.execute(
        "SELECT r.rival_id, p.name, sum(r.together), sum(r.ahead), sum(r.behind) FROM rivals r "
        "JOIN people p ON p.id = r.rival_id WHERE r.person_id = ? GROUP BY r.rival_id "
        "ORDER BY 3 DESC, p.name LIMIT ? OFFSET ?", (person_id, size, shown.offset)).fetchall()
    return [{"person": rival, "name": name, "together": together, "ahead": ahead, "behind": behind,
             "level": together - ahead - behind} for rival, name, together, ahead, behind in rows], shown


_PLAY_ROW = "session_id, game, played_on, seat, players, total, won, rank, best_round, side"


def _play_json(row: tuple) -> dict:
    session, game, date, seat, players, total, won, rank, best_round, side = row
    return {"session": session, "game": game, "date": date, "seat": seat, "players": players, "total": total,
            "won": bool(won), "rank": rank, "best_round": best_round, "side": side}


def _plays(connection, person_id: int, game: str | None, asked: int | None, *, size: int) -> tuple[list[dict], Page]:
    where, params = "person_id = ?", [person_id]
    if game is not None:
        where += " AND game = ?"
        params.append(game)
    total = connection.execute(f"SELECT count(*) FROM plays WHERE {where}", params).fetchone()[0]
    shown = page_of(total, asked, size)
    rows = connection.execute(f"SELECT {_PLAY_ROW} FROM plays WHERE {where} ORDER BY played_on DESC, sequence DESC "
                              "LIMIT ? OFFSET ?", [*params, size, shown.offset]).fetchall()
    return [_play_json(row) for row in rows], shown


def _series(connection, person_id: int, game: str) -> list[dict]:
    """The person's totals at ``game``, their last :data:`SERIES` finished sessions, oldest first."""
    rows = connection.execute(
        "SELECT total, won, played_on FROM plays WHERE person_id = ? AND game = ? AND total IS NOT NULL "
        "ORDER BY played_on DESC, sequence DESC LIMIT ?", (person_id, game, SERIES)).fetchall()
    return [{"total": total, "won": bool(won), "date": date} for total, won, date in reversed(rows)]


def person(db: Database, person_id: int, *, page: int | None = None, rivals: int | None = None,
           game: str | None = None, size: int = PAGE) -> dict | Moved | None:
    """A person's page: their names, plays and wins, per game their averages and bests, their rivals head to
    head and their plays (one page of each); :class:`Moved` for one merged into another, None for nobody."""
    with db.read() as connection:
        row = connection.execute("SELECT name, merged_into FROM people WHERE id = ?", (person_id,)).fetchone()
        if row is None:
            return None
        if row[1] is not None:
            live = live_person(connection, person_id)
            return Moved(live) if live is not None else None
        games = _person_games(connection, person_id)
        if game is not None and game not in {g["game"] for g in games}:
            game = None
        spellings = [spelling for (spelling,) in connection.execute(
            "SELECT spelling FROM aliases WHERE person_id = ? ORDER BY spelling", (person_id,))]
        rival_rows, rival_page = _rivals(connection, person_id, rivals, size)
        play_rows, play_page = _plays(connection, person_id, game, page, size=size)
        charted = game or next((g["game"] for g in games if g["average"] is not None), None)
        plays = sum(g["plays"] for g in games)
        wins = sum(g["wins"] for g in games)
        return {"person": person_id, "name": row[0], "spellings": spellings, "plays": plays, "wins": wins,
                "rate": rate(wins, plays), "games": games, "game": game,
                "rivals": rival_rows, "rivals_page": rival_page.json(),
                "recent": play_rows, "page": play_page.json(),
                "series": {"game": charted, "points": _series(connection, person_id, charted) if charted else []}}


# -- a game -----------------------------------------------------------------------------------------


def _leaders(connection, game: str, asked: int | None, size: int) -> tuple[list[dict], Page]:
    total = connection.execute("SELECT count(*) FROM person_games WHERE game = ?", (game,)).fetchone()[0]
    shown = page_of(total, asked, size)
    rows = connection.execute(
        "SELECT g.person_id, p.name, g.plays, g.wins, g.scored, g.total_sum FROM person_games g "
        "JOIN people p ON p.id = g.person_id WHERE g.game = ? ORDER BY g.wins DESC, g.plays, p.name "
        "LIMIT ? OFFSET ?", (game, size, shown.offset)).fetchall()
    leaders = []
    for person_id, name, plays, wins, scored, total_sum in rows:
        best = connection.execute("SELECT max(total) FROM plays WHERE person_id = ? AND game = ?",
                                  (person_id, game)).fetchone()[0]
        leaders.append({"person": person_id, "name": name, "plays": plays, "wins": wins, "rate": rate(wins, plays),
                        "average": average(total_sum, scored), "best": best})
    return leaders, shown


def _game_sessions(connection, game: str, asked: int | None, size: int) -> tuple[list[dict], Page]:
    total = connection.execute("SELECT count(*) FROM club_sessions WHERE game = ?", (game,)).fetchone()[0]
    shown = page_of(total, asked, size)
    found = []
    for session, date, tie_break, margin in connection.execute(
            "SELECT session_id, played_on, tie_break, margin FROM club_sessions WHERE game = ? "
            "ORDER BY played_on DESC, sequence DESC LIMIT ? OFFSET ?", (game, size, shown.offset)).fetchall():
        seats = [{"name": name, "person": person, "total": total, "won": bool(won)}
                 for name, person, total, won in connection.execute(
                     "SELECT name, person_id, total, won FROM plays WHERE session_id = ? ORDER BY seat", (session,))]
        found.append({"id": session, "date": date, "tie_break": tie_break or None, "margin": margin,
                      "players": seats})
    return found, shown


def _biggest_margin(connection, game: str) -> dict | None:
    row = connection.execute("SELECT session_id, played_on, margin FROM club_sessions WHERE game = ? "
                             "AND margin IS NOT NULL ORDER BY margin DESC, played_on LIMIT 1", (game,)).fetchone()
    if row is None:
        return None
    session, date, margin = row
    winners = [{"person": person, "name": name} for person, name in connection.execute(
        "SELECT pl.person_id, p.name FROM plays pl JOIN people p ON p.id = pl.person_id "
        "WHERE pl.session_id = ? AND pl.won ORDER BY pl.seat", (session,))]
    return {"value": margin, "session": session, "date": date, "winners": winners}


def game(db: Database, game_id: str, *, page: int | None = None, leaders: int | None = None,
         size: int = PAGE) -> dict | None:
    """A game's page: its sessions and points, records, how each session was decided, wins by seat and by
    side, its players (a page) and its sessions (a page); None when no session of it is finished."""
    with db.read() as connection:
        row = connection.execute("SELECT sessions, plays, scored, total_sum, winners_scored, winning_sum "
                                 "FROM game_figures WHERE game = ?", (game_id,)).fetchone()
        if row is None:
            return None
        sessions, plays, scored, total_sum, winners_scored, winning_sum = row
        decisions = [{"tie_break": tie_break or None, "sessions": count} for tie_break, count in connection.execute(
            "SELECT tie_break, sessions FROM game_decisions WHERE game = ? ORDER BY tie_break != '', sessions DESC, "
            "tie_break", (game_id,))]
        sides: dict[str, list[dict]] = {}
        for kind, side, players, side_plays, wins in connection.execute(
                "SELECT kind, side, players, plays, wins FROM game_sides WHERE game = ? "
                "ORDER BY kind, players, CAST(side AS INTEGER), side", (game_id,)):
            sides.setdefault(kind, []).append({"side": side, "players": players, "plays": side_plays, "wins": wins,
                                               "rate": rate(wins, side_plays)})
        leader_rows, leader_page = _leaders(connection, game_id, leaders, size)
        session_rows, session_page = _game_sessions(connection, game_id, page, size)
        where = "pl.game = ?"
        return {"game": game_id, "sessions": sessions, "plays": plays, "points": scored > 0,
                "average": average(total_sum, scored), "winning_average": average(winning_sum, winners_scored),
                "records": {"highest": _best(connection, "total", where, (game_id,)),
                            "lowest": _lowest_total(connection, game_id),
                            "best_round": _best(connection, "best_round", where, (game_id,)),
                            "margin": _biggest_margin(connection, game_id)},
                "decisions": decisions, "sides": sides,
                "leaders": leader_rows, "leaders_page": leader_page.json(),
                "recent": session_rows, "page": session_page.json()}


# -- every play at once -----------------------------------------------------------------------------


class PlayRow(NamedTuple):
    """One seat of one finished session, as the exports write it."""

    session: str
    date: str
    played_at: datetime.datetime  # when it ended at a table; an imported session's date at midnight
    minutes: int | None  # how long it took, for a session played at a table
    game: str
    players: int
    seat: int
    name: str  # as the session writes it
    person: int
    person_name: str  # as the club's pages name the person
    total: int | None
    won: bool
    rank: int
    side: str | None
    tie_break: str | None
    origin: str
    source: str | None


def every_play(db: Database) -> list[PlayRow]:
    """Every seat of every finished session, oldest session first, in seating order."""
    with db.read() as connection:
        rows = connection.execute(
            "SELECT pl.session_id, pl.played_on, s.created_at, s.completed_at, pl.game, pl.players, pl.seat, "
            "pl.name, pl.person_id, p.name, pl.total, pl.won, pl.rank, pl.side, c.tie_break, s.origin, s.source, "
            "s.played_on FROM plays pl JOIN people p ON p.id = pl.person_id "
            "JOIN club_sessions c ON c.session_id = pl.session_id JOIN sessions s ON s.id = pl.session_id "
            "ORDER BY pl.played_on, pl.sequence, pl.seat").fetchall()
    found = []
    for (session, date, created_at, completed_at, game_id, players, seat, name, person_id, person_name, total, won,
         rank, side, tie_break, origin, source, dated) in rows:
        found.append(PlayRow(
            session=session, date=date, played_at=bgstats.played_at(origin, completed_at, dated or date),
            minutes=bgstats.minutes_played(origin, created_at, completed_at), game=game_id, players=players,
            seat=seat, name=name, person=person_id, person_name=person_name, total=total, won=bool(won), rank=rank,
            side=side, tie_break=tie_break or None, origin=origin, source=source))
    return found


#: The columns of the CSV export, in order.
CSV_COLUMNS = ("session", "date", "game", "players", "seat", "name", "person", "score", "winner", "rank", "side",
               "tie_break", "minutes", "origin", "source")


def plays_csv(rows: list[PlayRow]) -> str:
    """Every play as CSV (RFC 4180, a header row, UTF-8): one row per seat of every finished session.

    >>> at = datetime.datetime(2026, 12, 1, 22, 5)
    >>> print(plays_csv([PlayRow("s1", "2026-12-01", at, 35, "halali", 2, 1, "Ann", 1, "Anne", 12, True, 1, "blue",
    ...                          None, "table", None)]), end="")
    session,date,game,players,seat,name,person,score,winner,rank,side,tie_break,minutes,origin,source
    s1,2026-12-01,halali,2,1,Ann,Anne,12,yes,1,blue,,35,table,
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        writer.writerow([row.session, row.date, row.game, row.players, row.seat, row.name, row.person_name,
                         "" if row.total is None else row.total, "yes" if row.won else "no", row.rank, row.side or "",
                         row.tie_break or "", "" if row.minutes is None else row.minutes, row.origin,
                         row.source or ""])
    return out.getvalue()


def club_id(db: Database) -> str:
    """The club's own id (made once per data folder): what the BG Stats file's ids are made from."""
    with db.read() as connection:
        return connection.execute("SELECT value FROM settings WHERE name = 'club'").fetchone()[0]


# -- the history as ``pnp score history --json`` prints it ---------------------------------------------


def history_json(db: Database, game_id: str | None = None) -> dict:
    """Every session (of ``game_id``), most recently played first, then per game each person's record."""
    with db.read() as connection:
        where, params = ("", ()) if game_id is None else (" WHERE game = ?", (game_id,))
        kept = [from_row(row) for row in connection.execute(
            LISTED.format(where=where), params)]
        players: dict[str, list[dict]] = {}
        for game_key, person_id, name, plays, wins, scored, total_sum, best in connection.execute(
                "SELECT g.game, g.person_id, p.name, g.plays, g.wins, g.scored, g.total_sum, "
                "(SELECT max(total) FROM plays WHERE person_id = g.person_id AND game = g.game) "
                f"FROM person_games g JOIN people p ON p.id = g.person_id{where.replace('game', 'g.game')} "
                "ORDER BY g.game, g.wins DESC, g.plays, p.name", params):
            mean = average(total_sum, scored)
            players.setdefault(game_key, []).append(
                {"name": name, "person": person_id, "played": plays, "won": wins,
                 "average": None if mean is None else round(mean, 2), "best": best})
    return {
        "sessions": [
            {"id": s.id, "game": s.game, "date": s.played_on, "origin": s.origin, "source": s.source,
             "complete": s.complete, "players": s.players, "totals": s.result["totals"],
             "winners": s.result["winners"], "tie_break": s.result["tie_break"]}
            for s in kept
        ],
        "players": players,
    }
