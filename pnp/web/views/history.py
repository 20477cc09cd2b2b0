"""The club's history: every session and game, each person across sessions, every play at once; pages and JSON.

Two ways in.  The organiser reads everything under ``/history`` (their
cookie) or ``/api/history`` (their token).  A table's players read, from their
table (``/s/ID/...``, their seat's key), the pages of the people at that table
and of its game: a link to anyone else is plain text for them.  Who may read
which is decided in :mod:`pnp.web.permissions` (``READ_PERSON``,
``READ_GAME``); the figures come from :mod:`pnp.web.records`.
"""

from __future__ import annotations

import json

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from pnp.core.records import NamedTuple
from pnp.web import bgstats, charts, records, sessions
from pnp.web.base import DEVICE_COOKIE, ORGANISER_COOKIE, Site, Stop, parse_number
from pnp.web.permissions import ORGANISER, Action, Actor, refusal
from pnp.web.seats import seat_map
from pnp.web.words import decision_name, game_name, known_game, long_date, number, percent, round_name, side_name, web


class Club(NamedTuple):
    """Who reads the club's pages and from where: the organiser (``/history``), or a table (``/s/ID``)."""

    site: Site
    request: Request
    lang: str
    actor: Actor
    seats: dict
    table: sessions.StoredSession | None = None  # the session a table's phone reads the club from
    at_table: frozenset = frozenset()  # the people who played at that table

    def may(self, action: Action, *, at_table: bool = False) -> bool:
        return refusal(self.actor, action, self.seats, at_table=at_table) is None

    def _link(self, path: str, **params: object) -> str:
        query = self.site.query(self.request, **params)
        return f"{path}?{query}" if query else path

    def person_href(self, person: int | None) -> str | None:
        """Where a person's page is for this reader; None when it is not theirs to read."""
        if person is None:
            return None
        if self.table is None:
            return self._link(f"/history/players/{person}")
        if self.may(Action.READ_PERSON, at_table=person in self.at_table):
            return self._link(f"/s/{self.table.id}/players/{person}")
        return None

    def game_href(self, game: str) -> str | None:
        if self.table is None:
            return self._link(f"/history/games/{game}")
        if self.may(Action.READ_GAME, at_table=game == self.table.game):
            return self._link(f"/s/{self.table.id}/game")
        return None

    def session_href(self, session: str) -> str | None:
        """A session's result: every one for the organiser, a table's own for its phones."""
        if self.table is None or session == self.table.id:
            return self._link(f"/s/{session}/result")
        return None

    def nav(self) -> dict:
        """Where the top bar and the back link lead: the organiser's history, or the table."""
        words = web(self.lang)
        if self.table is None:
            return {"home": "/", "back": {"href": self._link("/history"), "text": words.get("web.history.back")}}
        table = f"/s/{self.table.id}"
        return {"home": table, "back": {"href": self._link(table), "text": words.get("web.enter.back")}}

    def page_href(self, name: str, page: int) -> str:
        """This page with another page of one of its lists (``name``: its query parameter)."""
        params = {key: value for key, value in self.request.query_params.items() if key != "lang"}
        params[name] = page
        return self._link(self.request.url.path, **params)


# -- who reads, and what they may read -----------------------------------------------------------------


def _organiser(site: Site, request: Request) -> Club:
    lang = site.lang(request)
    if not site.is_organiser(request.cookies.get(ORGANISER_COOKIE)):
        raise Stop(site.message(request, 401, "welcome", lang))
    return Club(site, request, lang, actor=ORGANISER, seats={})


async def _at_table(site: Site, request: Request) -> Club:
    visit = await site.visit(request)
    people = await run_in_threadpool(records.people_at, site.db, visit.stored.players)
    return Club(site, request, visit.lang, actor=visit.actor, seats=visit.seats, table=visit.stored,
                at_table=frozenset(people.values()))


async def links_from_table(site: Site, request: Request, stored: sessions.StoredSession) -> dict | None:
    """The club pages a finished session's result page leads to, for whoever opens it: each player's and
    the game's, where this visitor may read them (none for a printed scoresheet's read-only key)."""
    if not stored.complete:
        return None
    actor = site.actor(request, stored, request.cookies.get(DEVICE_COOKIE))
    seats_now = await run_in_threadpool(seat_map, site.db, stored.id)
    people = await run_in_threadpool(records.people_at, site.db, stored.players)
    club = Club(site, request, site.lang(request, stored.lang), actor=actor, seats=seats_now,
                table=None if actor.organiser else stored, at_table=frozenset(people.values()))
    players = [{"name": name, "href": club.person_href(people.get(name))} for name in stored.players]
    game = club.game_href(stored.game)
    if game is None and not any(player["href"] for player in players):
        return None
    return {"players": players, "game": game, "game_name": game_name(stored.game, club.lang)}


def _refuse_unless(club: Club, action: Action, at_table: bool) -> None:
    reason = refusal(club.actor, action, club.seats, at_table=at_table)
    if reason is not None:
        raise Stop(club.site.message(club.request, 403, f"refusal_{reason}", club.lang))


def _asked(request: Request, name: str) -> int | None:
    """A page number from the query; none (the first page) for anything that is not one."""
    return parse_number(request.query_params.get(name))


# -- the words of the figures ---------------------------------------------------------------------------


def _date(iso: str | None, lang: str) -> str:
    return long_date(iso, lang) or web(lang).get("web.history.undated")


def _round(game: str, number_: int | None, lang: str) -> str:
    return round_name(game, lang, number_) if number_ and known_game(game) else ""


def _record(club: Club, game: str, found: dict | None) -> dict | None:
    """A best or a record, with who holds it and when, and where it was set."""
    if found is None:
        return None
    return {**found, "date_text": _date(found["date"], club.lang), "round_text": _round(game, found["round"], club.lang),
            "href": club.session_href(found["session"]), "person_href": club.person_href(found["person"])}


# -- the club's first page and its people ---------------------------------------------------------------


async def history(site: Site, request: Request) -> Response:
    """``/history``: every game's figures and leaders, the people, every session (a page of them)."""
    club = _organiser(site, request)
    found = await run_in_threadpool(records.club, site.db, page=_asked(request, "page"))
    words = web(club.lang)
    games = []
    for row in found["games"]:
        name = game_name(row["game"], club.lang)
        chart = charts.bars([(leader["name"], float(leader["wins"])) for leader in row["leaders"]],
                            words.get("web.history.chart_leaders_of", game=name),
                            lambda value: number(value, club.lang, 0))
        games.append({**row, "name": name, "href": club.game_href(row["game"]), "chart": chart,
                      "average_text": number(row["average"], club.lang)})
    listed = [_session_view(club, row) for row in found["sessions"]]
    return site.page(request, "history.html", club.lang, games=games, people=found["people"], sessions=listed,
                     paging=_paging(club, "page", found["page"]))


def _session_view(club: Club, row: dict) -> dict:
    players = [{**seat, "href": club.person_href(seat["person"])} for seat in row["players"]]
    return {"origin": None, "complete": True, **row, "game_name": game_name(row["game"], club.lang), "players": players,
            "has_points": any(seat["total"] is not None for seat in row["players"]),
            "date_text": _date(row["date"], club.lang),
            "href": club.session_href(row["id"]),
            "decided": decision_name(row["game"], row["tie_break"], club.lang) if row.get("tie_break") else None}


def _paging(club: Club, name: str, page: dict) -> dict | None:
    """The links to the pages before and after, when a list has more than one."""
    if page["pages"] <= 1:
        return None
    shown = page["page"]
    return {"page": shown, "pages": page["pages"],
            "newer": club.page_href(name, shown - 1) if shown > 1 else None,
            "older": club.page_href(name, shown + 1) if shown < page["pages"] else None}


async def people_page(site: Site, request: Request) -> Response:
    """``/history/players``: everyone, most plays first, a page at a time; found by a part of a name."""
    club = _organiser(site, request)
    search = (request.query_params.get("q") or "").strip()[:80]
    found = await run_in_threadpool(records.people, site.db, page=_asked(request, "page"), search=search or None)
    rows = [{**row, "href": club.person_href(row["person"]), "rate_text": percent(row["rate"], club.lang)}
            for row in found["people"]]
    return site.page(request, "history_people.html", club.lang, people=rows, search=search,
                     paging=_paging(club, "page", found["page"]))


# -- a person -----------------------------------------------------------------------------------------


async def person_page(site: Site, request: Request) -> Response:
    """``/history/players/N``: a person's page, for the organiser."""
    return await _person(_organiser(site, request))


async def table_person_page(site: Site, request: Request) -> Response:
    """``/s/ID/players/N``: a person's page, for a phone of a table that person played at."""
    return await _person(await _at_table(site, request))


async def _person(club: Club) -> Response:
    request = club.request
    person_id = parse_number(request.path_params["person"])
    _refuse_unless(club, Action.READ_PERSON, at_table=person_id in club.at_table)
    chosen = request.query_params.get("game")
    found = None if person_id is None else await run_in_threadpool(
        records.person, club.site.db, person_id, page=_asked(request, "page"), rivals=_asked(request, "rivals"),
        game=chosen if chosen and len(chosen) <= 100 else None)
    if isinstance(found, records.Moved) and club.table is None:
        return RedirectResponse(club.person_href(found.person_id), status_code=301)
    if not isinstance(found, dict):
        return club.site.message(request, 404, "unknown_person", club.lang)
    if request.query_params.get("done"):
        found["flash"] = await run_in_threadpool(_flash, club, found)
    return club.site.page(request, "history_person.html", club.lang, **_person_view(club, found), **club.nav())


def _person_view(club: Club, found: dict) -> dict:
    lang, words = club.lang, web(club.lang)
    games = [{**row, "name": game_name(row["game"], lang), "href": club.game_href(row["game"]),
              "rate_text": percent(row["rate"], lang), "average_text": number(row["average"], lang),
              "best": _record(club, row["game"], row["best"]),
              "best_round": _record(club, row["game"], row["best_round"])} for row in found["games"]]
    rates = charts.bars([(row["name"], row["rate"] or 0.0) for row in games],
                        words.get("web.person.chart_rates", name=found["name"]), lambda v: percent(v, lang), scale=1.0)
    recent = [{**row, "game_name": game_name(row["game"], lang), "date_text": _date(row["date"], lang),
               "href": club.session_href(row["session"])} for row in found["recent"]]
    rivals = [{**row, "href": club.person_href(row["person"])} for row in found["rivals"]]
    series = found["series"]
    chart = None
    if series["points"]:
        totals = [point["total"] for point in series["points"]]
        chart = charts.series([(float(point["total"]), point["won"]) for point in series["points"]],
                              words.get("web.person.chart_totals", name=found["name"],
                                        game=game_name(series["game"], lang), count=len(totals), low=min(totals),
                                        high=max(totals)))
    return {"person": found, "games": games, "rates_chart": rates if len(games) > 1 else None,
            "rate_text": percent(found["rate"], lang),
            "recent": recent, "rivals": rivals, "totals_chart": chart,
            "charted": game_name(series["game"], lang) if series["game"] else None,
            "chosen": found["game"], "game_choices": [(row["game"], row["name"]) for row in games],
            "others": [name for name in found["spellings"] if name != found["name"]],
            "organiser": club.may(Action.RENAME_PERSON), "csrf": _csrf(club),
            "paging": _paging(club, "page", found["page"]), "rivals_paging": _paging(club, "rivals", found["rivals_page"]),
            "flash": found.get("flash")}


def _csrf(club: Club) -> str | None:
    organiser = club.request.cookies.get(ORGANISER_COOKIE)
    return club.site.keys.csrf(organiser) if club.may(Action.RENAME_PERSON) and organiser else None


def _flash(club: Club, found: dict) -> str | None:
    """What a rename, a merge or a separation just did, said once on the page it leads to (the other person
    it concerns named by their id, read from the club, never by words from the address)."""
    done = club.request.query_params.get("done")
    words = web(club.lang)
    if done == "renamed":
        return words.get("web.people.renamed", new=found["name"])
    other = parse_number(club.request.query_params.get("other"))
    other_name = records.person_name(club.site.db, other) if other is not None else None
    if other_name is None:
        return None
    if done == "merged":
        return words.get("web.people.merged", other=other_name, name=found["name"])
    if done == "separated":
        return words.get("web.people.separated", name=other_name)
    return None


# -- a game -------------------------------------------------------------------------------------------


async def game_page(site: Site, request: Request) -> Response:
    """``/history/games/GAME``: a game's page, for the organiser."""
    club = _organiser(site, request)
    return await _game(club, request.path_params["game"])


async def table_game_page(site: Site, request: Request) -> Response:
    """``/s/ID/game``: the table's game's page, for its phones."""
    club = await _at_table(site, request)
    return await _game(club, club.table.game)


async def _game(club: Club, game: str) -> Response:
    request = club.request
    _refuse_unless(club, Action.READ_GAME, at_table=club.table is not None and game == club.table.game)
    found = None if len(game) > 100 else await run_in_threadpool(
        records.game, club.site.db, game, page=_asked(request, "page"), leaders=_asked(request, "leaders"))
    if found is None:
        return club.site.message(request, 404, "unknown_game_history", club.lang)
    return club.site.page(request, "history_game.html", club.lang, **_game_view(club, found), **club.nav())


def _game_view(club: Club, found: dict) -> dict:
    lang, words, game = club.lang, web(club.lang), found["game"]
    name = game_name(game, lang)
    records_ = {key: _record(club, game, value) for key, value in found["records"].items() if key != "margin"}
    margin = found["records"]["margin"]
    if margin is not None:
        margin = {**margin, "date_text": _date(margin["date"], lang), "href": club.session_href(margin["session"]),
                  "names": ", ".join(w["name"] for w in margin["winners"])}
    decisions = [{**row, "name": decision_name(game, row["tie_break"], lang)} for row in found["decisions"]]
    decided = charts.bars([(row["name"], float(row["sessions"])) for row in decisions],
                          words.get("web.game.chart_decided", game=name), lambda v: number(v, lang, 0))
    sides = {kind: [{**row, "name": side_name(game, kind, row["side"], lang), "rate_text": percent(row["rate"], lang)}
                    for row in rows] for kind, rows in found["sides"].items()}
    side_titles = {kind: words.get(f"web.game.sides_{kind}") for kind in sides if kind != "seat"}
    side_charts = {kind: charts.bars([(row["name"], row["rate"] or 0.0) for row in rows],
                                     words.get(f"web.game.chart_sides_{kind}", game=name),
                                     lambda v: percent(v, lang), scale=1.0)
                   for kind, rows in sides.items() if kind != "seat"}
    leaders = [{**row, "href": club.person_href(row["person"]), "rate_text": percent(row["rate"], lang),
                "average_text": number(row["average"], lang)} for row in found["leaders"]]
    recent = [_session_view(club, {**row, "game": game, "dated": True}) for row in found["recent"]]
    return {"found": found, "game_name": name, "records": records_, "margin": margin, "decisions": decisions,
            "decided_chart": decided if found["points"] else None, "side_charts": side_charts,
            "side_titles": side_titles,
            "seats": _seat_grid(sides.get("seat", [])) if found["points"] else None,
            "sides": {kind: rows for kind, rows in sides.items() if kind != "seat"},
            "leaders": leaders, "recent": recent, "average_text": number(found["average"], lang),
            "winning_text": number(found["winning_average"], lang),
            "paging": _paging(club, "page", found["page"]), "leaders_paging": _paging(club, "leaders",
                                                                                      found["leaders_page"])}


def _seat_grid(rows: list[dict]) -> dict | None:
    """Wins by seat as a grid: a row per seat, a column per number of players."""
    if not rows:
        return None
    counts = sorted({row["players"] for row in rows})
    seats = sorted({int(row["side"]) for row in rows})
    cells = {(int(row["side"]), row["players"]): row for row in rows}
    return {"counts": counts, "rows": [{"seat": seat, "name": next(r["name"] for r in rows if int(r["side"]) == seat),
                                        "cells": [cells.get((seat, count)) for count in counts]} for seat in seats]}


# -- every play at once ------------------------------------------------------------------------------------


async def export_page(site: Site, request: Request) -> Response:
    """``/history/export``: every play as CSV or as a BG Stats file."""
    club = _organiser(site, request)
    found = await run_in_threadpool(records.roster, site.db)
    return site.page(request, "history_export.html", club.lang, **found)


EXPORTS = {"csv": ("text/csv; charset=utf-8", "pnp-plays.csv"),
           "bgstats": ("application/json", "pnp-plays.bgsplay")}


async def export_csv(site: Site, request: Request) -> Response:
    """``/history/export/plays.csv``: every finished session's plays, a row per player."""
    _organiser(site, request)
    return await _plays_file(site, "csv", None)


async def export_bgstats(site: Site, request: Request) -> Response:
    """``/history/export/plays.bgsplay``: every finished session's plays, as a BG Stats file (``?me=N``)."""
    _organiser(site, request)
    return await _plays_file(site, "bgstats", parse_number(request.query_params.get("me")))


async def _plays_file(site: Site, fmt: str, me: int | None) -> Response:
    rows = await run_in_threadpool(records.every_play, site.db)
    if fmt == "csv":
        body = records.plays_csv(rows)
    else:
        club_id = await run_in_threadpool(records.club_id, site.db)
        names = {row.game: game_name(row.game, "en") for row in rows}
        body = json.dumps(bgstats.club_file(rows, club=club_id, game_names=names, me=me), ensure_ascii=False)
    media, filename = EXPORTS[fmt]
    return Response(body, media_type=media, headers={"Content-Disposition": f'attachment; filename="{filename}"',
                                                     "Cache-Control": "no-store"})


# -- the JSON API ----------------------------------------------------------------------------------------


def _json(found: object) -> JSONResponse:
    return JSONResponse(found, headers={"Cache-Control": "no-store"})


async def api_history(site: Site, request: Request) -> Response:
    """``GET /api/history``: what ``pnp score history --json`` prints (every session, each player's record)."""
    site.api_organiser(request)
    game = request.query_params.get("game")
    return _json(await run_in_threadpool(records.history_json, site.db, game))


async def api_club(site: Site, request: Request) -> Response:
    """``GET /api/history/club``: the history's first page (games, people, a page of sessions)."""
    site.api_organiser(request)
    return _json(await run_in_threadpool(records.club, site.db, page=_asked(request, "page")))


async def api_people(site: Site, request: Request) -> Response:
    site.api_organiser(request)
    search = (request.query_params.get("q") or "").strip()[:80] or None
    return _json(await run_in_threadpool(records.people, site.db, page=_asked(request, "page"), search=search))


async def api_person(site: Site, request: Request) -> Response:
    site.api_organiser(request)
    return await _api_person(site, request)


async def api_game(site: Site, request: Request) -> Response:
    site.api_organiser(request)
    return await _api_game(site, request, request.path_params["game"])


async def api_table_person(site: Site, request: Request) -> Response:
    """``GET /api/sessions/ID/players/N``: a person's page, for a seat of a table that person played at."""
    await _api_at_table(site, request, Action.READ_PERSON, lambda stored, people: (
        parse_number(request.path_params["person"]) in people))
    return await _api_person(site, request)


async def api_table_game(site: Site, request: Request) -> Response:
    visit = await _api_at_table(site, request, Action.READ_GAME, lambda stored, people: True)
    return await _api_game(site, request, visit.stored.game)


async def _api_at_table(site: Site, request: Request, action: Action, concerns):
    visit = await site.api_visit(request)
    people = await run_in_threadpool(records.people_at, site.db, visit.stored.players)
    seats_now = await run_in_threadpool(seat_map, site.db, visit.stored.id)
    reason = refusal(visit.actor, action, seats_now, at_table=concerns(visit.stored, set(people.values())))
    if reason is not None:
        raise Stop(site.forbidden(request, reason, visit.lang))
    return visit


async def _api_person(site: Site, request: Request) -> Response:
    person_id = parse_number(request.path_params["person"])
    found = None if person_id is None else await run_in_threadpool(
        records.person, site.db, person_id, page=_asked(request, "page"), rivals=_asked(request, "rivals"),
        game=request.query_params.get("game"))
    if isinstance(found, records.Moved):
        return _json({"moved_to": found.person_id})
    if found is None:
        raise Stop(site.api_error(request, 404, "unknown_person"))
    return _json(found)


async def _api_game(site: Site, request: Request, game: str) -> Response:
    found = None if len(game) > 100 else await run_in_threadpool(
        records.game, site.db, game, page=_asked(request, "page"), leaders=_asked(request, "leaders"))
    if found is None:
        raise Stop(site.api_error(request, 404, "unknown_game_history"))
    return _json(found)


async def api_plays(site: Site, request: Request) -> Response:
    """``GET /api/history/plays?format=csv|bgstats``: every finished session's plays at once."""
    site.api_organiser(request)
    fmt = request.query_params.get("format", "csv")
    if fmt not in EXPORTS:
        return site.api_error(request, 400, "unknown_format", found=fmt, expected=", ".join(EXPORTS))
    return await _plays_file(site, fmt, parse_number(request.query_params.get("me")))
