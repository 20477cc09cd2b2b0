"""A session taken elsewhere: its file (TOML, JSON, CSV) from a page or the API, and its play for BG Stats."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from scoring import check_session, score_session
from scoring.session_file import dumps as session_text

from pnp.web import bgstats, sessions
from pnp.web.base import Site
from pnp.web.words import game_words

EXPORTS = {"toml": "application/toml", "json": "application/json", "csv": "text/csv"}


async def page_export(site: Site, request: Request) -> Response:
    """``/s/ID/export/FMT``: the session's file, for whoever may see its result."""
    stored = await site.readable(request)
    fmt = request.path_params["fmt"]
    if fmt not in EXPORTS:
        return site.message(request, 404, "not_found")
    return _export(stored, fmt)


async def api_export(site: Site, request: Request) -> Response:
    stored = await site.api_session(request)
    fmt = request.query_params.get("format", "toml")
    if fmt not in EXPORTS:
        return site.api_error(request, 400, "unknown_format", site.lang(request, stored.lang),
                              found=fmt, expected=", ".join(EXPORTS))
    return _export(stored, fmt)


async def api_bgstats(site: Site, request: Request) -> Response:
    stored = await site.api_session(request)
    if not stored.complete:
        return site.api_error(request, 409, "not_finished", site.lang(request, stored.lang))
    return JSONResponse({"url": bgstats.link(bgstats_play(stored))})


def download_name(stored: sessions.StoredSession, fmt: str) -> str:
    """The file name a session is saved under: its game, date and id."""
    return f"{stored.game}-{stored.played_on or stored.created_at[:10]}-{stored.id}.{fmt}"


def bgstats_play(stored: sessions.StoredSession) -> dict:
    """The session as a BG Stats play: players, scores, winners, length, and how a tie was settled."""
    lang = stored.lang or "en"
    minutes = bgstats.minutes_played(stored.origin, stored.created_at, stored.completed_at)
    comments = ""
    if stored.result["tie_break"] is not None:
        # Who won is in the players' entries; how a tie was settled is said nowhere else.
        checked = check_session(stored.document)
        words = game_words(lang, stored.game)
        lines = checked.rules.report(score_session(checked.session)).lines
        comments = " ".join(words.label(line) for line in lines[1:])
    # The English name: BG Stats matches it against its own list (BoardGameGeek's names).
    name = game_words("en", stored.game).text("game.name")
    return bgstats.play(stored.result, session_id=stored.id, game_id=stored.game, game_name=name,
                        played_at=bgstats.played_at(stored.origin, stored.completed_at, stored.played_on),
                        minutes=minutes, comments=comments)


def _export(stored: sessions.StoredSession, fmt: str) -> Response:
    text = session_text(stored.document, fmt)
    return Response(text, media_type=EXPORTS[fmt], headers={
        "Content-Disposition": f'attachment; filename="{download_name(stored, fmt)}"',
        "Cache-Control": "no-store"})
