"""A session's result: its page (also opened with the read-only key of a printed scoresheet) and its filled scoresheet."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from scoring import check_session, score_session

from pnp.core.errors import PnpError
from pnp.web import bgstats, qr, sessions
from pnp.web.base import Site
from pnp.web.summary import summary
from pnp.web.views.exports import bgstats_play, download_name
from pnp.web.views.history import links_from_table
from pnp.web.words import web


async def result_page(site: Site, request: Request) -> Response:
    stored = await site.readable(request)
    lang = site.lang(request, stored.lang)
    context: dict = {"view": summary(stored, lang), "read_key": site.keys.read_key(stored.id), "bgstats": None,
                     "scoresheet": _has_scoresheet(stored.game)}
    if stored.complete:
        data = bgstats_play(stored)
        web_link = bgstats.link(data, bgstats.WEB_LINK)
        context["bgstats"] = {"app": bgstats.link(data),
                              "qr": qr.svg(web_link, web(lang).get("web.result.bgstats_qr"), dense=True)}
    context["club"] = await links_from_table(site, request, stored)
    return site.page(request, "result.html", lang, **context)


async def sheet(site: Site, request: Request) -> Response:
    """``/s/ID/sheet/PAPER.pdf``: the session printed on its game's scoresheet, its QR code to the result page."""
    stored = await site.readable(request)
    paper = request.path_params["paper"]
    if paper not in ("a4", "letter"):
        return site.message(request, 404, "not_found")
    lang = site.lang(request, stored.lang)
    if not _has_scoresheet(stored.game):
        return site.message(request, 404, "not_found", lang)
    link = site.result_link(request, stored.id)
    try:
        pdf = await run_in_threadpool(_filled_sheet, stored, lang, paper, link)
    except PnpError as error:  # a name too long for its box, a QR code too dense...
        return site.message(request, 422, "sheet_failed", lang, detail=str(error))
    return Response(pdf, media_type="application/pdf", headers={
        "Content-Disposition": f'inline; filename="{download_name(stored, "pdf")}"',
        "Cache-Control": "no-store"})


def _has_scoresheet(game: str) -> bool:
    """Whether the game ships a kit to print a filled scoresheet on (a game joined at run time may not)."""
    from pnp.core import games
    return games.template_file(game) is not None


def _filled_sheet(stored: sessions.StoredSession, lang: str, paper: str, link: str) -> bytes:
    """The session printed on its game's scoresheet, its QR code pointing to the result page."""
    from pnp.template.model import PrintOptions
    from pnp.kit.scoresheet import render_filled_sheet

    checked = check_session(stored.document)
    pdf, _ = render_filled_sheet(score_session(checked.session), PrintOptions(lang=lang, paper=paper),
                                 stored.played_on, qr_text=link)
    return pdf
