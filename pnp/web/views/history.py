"""The organiser's history: every session kept, and each player's record per game, as a page and JSON."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from pnp.web import charts, records, sessions
from pnp.web.base import ORGANISER_COOKIE, Site
from pnp.web.summary import summary
from pnp.web.words import game_words, number, web


async def history(site: Site, request: Request) -> Response:
    lang = site.lang(request)
    if not site.is_organiser(request.cookies.get(ORGANISER_COOKIE)):
        return site.message(request, 401, "welcome", lang)
    kept = await run_in_threadpool(sessions.list_sessions, site.db)
    by_game = records.player_records(kept)
    words = web(lang)
    games = []
    for game, rows in by_game.items():
        points = any(r.totals for r in rows)
        name = game_words(lang, game).text("game.name")
        # Each chart is named for its game: a screen reader lists several on the page.
        if points:
            chart = charts.bars([(r.name, r.average) for r in rows if r.average is not None],
                                words.get("web.history.chart_average_of", game=name), lambda v: number(v, lang))
        else:
            chart = charts.bars([(r.name, float(r.won)) for r in rows],
                                words.get("web.history.chart_wins_of", game=name), lambda v: number(v, lang, 0))
        games.append({"id": game, "name": name,
                      "rows": rows, "chart": chart, "points": points})
    return site.page(request, "history.html", lang, games=games,
                     sessions=[summary(s, lang) for s in kept])


async def api_history(site: Site, request: Request) -> Response:
    site.api_organiser(request)
    game = request.query_params.get("game")
    kept = await run_in_threadpool(sessions.list_sessions, site.db, game)
    return JSONResponse(records.history_json(kept), headers={"Cache-Control": "no-store"})
