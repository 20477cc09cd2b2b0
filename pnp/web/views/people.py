"""Who is whom in the club: the organiser renames a person, merges two, separates a spelling; pages and JSON.

Each is one write transaction (:mod:`pnp.web.club`) that changes every figure it
touches; only the organiser may (:mod:`pnp.web.permissions`), and the pages'
forms carry their CSRF token.
"""

from __future__ import annotations


from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from scoring.names import unprintable
from scoring.session_file import composed

from pnp.core.records import NamedTuple
from pnp.web import club, records, sessions
from pnp.web.base import ORGANISER_COOKIE, Site, Stop, parse_number
from pnp.web.words import long_date, web


def name_problem(name: str) -> tuple[str, dict] | None:
    """What is wrong with a new name for a person (its code under ``web.club`` and values), or None."""
    if not name:
        return "name_empty", {}
    if sessions.seen_length(name) > sessions.MAX_NAME:
        return "name_too_long", {"limit": sessions.MAX_NAME, "count": sessions.seen_length(name)}
    if unprintable(name):
        return "name_unprintable", {}
    return None


def _write(site: Site, change):
    """Run ``change(connection)``, a change of the club's people, in one write transaction; what it returns.

    ClubRefused when it cannot be done: then nothing is changed.
    """
    with site.db.write() as connection:
        return change(connection)


def _live(site: Site, person_id: int | None) -> dict | None:
    if person_id is None:
        return None
    found = records.person(site.db, person_id)
    return found if isinstance(found, dict) else None


# -- pages ------------------------------------------------------------------------------------------


class _Asked(NamedTuple):
    """A page about one person, asked by the organiser: their credential, the page's language, the person."""

    organiser: str
    lang: str
    found: dict


async def _organiser_person(site: Site, request: Request) -> _Asked:
    lang = site.lang(request)
    organiser = request.cookies.get(ORGANISER_COOKIE)
    if not site.is_organiser(organiser):
        raise Stop(site.message(request, 401, "welcome", lang))
    found = await run_in_threadpool(_live, site, parse_number(request.path_params["person"]))
    if found is None:
        raise Stop(site.message(request, 404, "unknown_person", lang))
    return _Asked(organiser, lang, found)


def _back(site: Site, request: Request, person: int, **query: object) -> Response:
    return site.redirect(request, f"/history/players/{person}", query)


async def rename_page(site: Site, request: Request) -> Response:
    """``GET /history/players/N/rename``: the new name to give."""
    organiser, lang, found = await _organiser_person(site, request)
    return site.page(request, "history_rename.html", lang, person=found, csrf=site.keys.csrf(organiser),
                     value=found["name"], error=None)


async def rename_post(site: Site, request: Request) -> Response:
    organiser, lang, found = await _organiser_person(site, request)
    fields = await site.form(request, organiser)
    name = (fields.get("name") or "").strip()
    problem = name_problem(name)
    if problem is None:
        try:
            await run_in_threadpool(_write, site, lambda c: club.rename(c, found["person"], name))
        except club.ClubRefused as refused:
            problem = refused.reason, refused.params
    if problem is not None:
        error = web(lang).get(f"web.club.{problem[0]}", **problem[1])
        return site.page(request, "history_rename.html", lang, 422, person=found, csrf=site.keys.csrf(organiser),
                         value=name, error=error)
    return _back(site, request, found["person"], done="renamed")


async def merge_page(site: Site, request: Request) -> Response:
    """``GET /history/players/N/merge``: which other player is the same person."""
    organiser, lang, found = await _organiser_person(site, request)
    return await _merge_form(site, request, found, organiser, error=None)


async def _merge_form(site: Site, request: Request, found: dict, organiser: str, *, error: str | None) -> Response:
    everyone = await run_in_threadpool(records.roster, site.db)
    others = [row for row in everyone["people"] if row["person"] != found["person"]]
    return site.page(request, "history_merge.html", site.lang(request), 422 if error else 200, person=found,
                     others=others, csrf=site.keys.csrf(organiser), error=error)


async def merge_post(site: Site, request: Request) -> Response:
    organiser, lang, found = await _organiser_person(site, request)
    fields = await site.form(request, organiser)
    other = parse_number(fields.get("other"))
    try:
        if other is None or await run_in_threadpool(_live, site, other) is None:
            raise club.ClubRefused("unknown_person")
        await run_in_threadpool(_write, site, lambda c: club.merge(c, found["person"], other))
    except club.ClubRefused as refused:
        params = dict(refused.params)
        if "date" in params:
            params["date"] = long_date(params["date"], lang)
        return await _merge_form(site, request, found, organiser,
                                 error=web(lang).get(f"web.club.{refused.reason}", **params))
    return _back(site, request, found["person"], done="merged", other=other)


async def separate_post(site: Site, request: Request) -> Response:
    """``POST /history/players/N/separate``: sessions written under one of their names are someone else's."""
    organiser, lang, found = await _organiser_person(site, request)
    fields = await site.form(request, organiser)
    spelling, now = fields.get("name") or "", sessions.now_text()
    try:
        new = await run_in_threadpool(_write, site, lambda c: club.separate(c, found["person"], spelling, now))
    except club.ClubRefused:
        return _back(site, request, found["person"])  # a form of the page names one of their other names
    return _back(site, request, found["person"], done="separated", other=new)


# -- the JSON API -------------------------------------------------------------------------------------


async def _api_body(site: Site, request: Request) -> tuple[int, dict]:
    """The person the address names (404 for nobody) and the JSON object sent, for the organiser's token."""
    site.api_organiser(request)
    lang = site.lang(request)
    person = parse_number(request.path_params["person"])
    if await run_in_threadpool(_live, site, person) is None:
        raise Stop(site.api_error(request, 404, "unknown_person", lang))
    body = await site.json_body(request, lang)
    if not isinstance(body, dict):
        body = {}
    return person, composed(body)


def _refused(site: Site, request: Request, reason: str, params: dict) -> JSONResponse:
    lang = site.lang(request)
    return JSONResponse({"errors": [{"code": reason, "message": web(lang).get(f"web.club.{reason}", **params)}]},
                        status_code=404 if reason == "unknown_person" else 422)


async def api_rename(site: Site, request: Request) -> Response:
    """``POST /api/history/players/N/rename`` ``{"name"}``: 200 and the person's page."""
    person, body = await _api_body(site, request)
    name = body.get("name").strip() if isinstance(body.get("name"), str) else ""
    problem = name_problem(name)
    if problem is not None:
        return _refused(site, request, *problem)
    try:
        await run_in_threadpool(_write, site, lambda c: club.rename(c, person, name))
    except club.ClubRefused as refused:
        return _refused(site, request, refused.reason, refused.params)
    return JSONResponse(await run_in_threadpool(records.person, site.db, person))


async def api_merge(site: Site, request: Request) -> Response:
    """``POST /api/history/players/N/merge`` ``{"other": M}``: M's spellings and plays become N's."""
    person, body = await _api_body(site, request)
    other = body.get("other")
    if not isinstance(other, int) or isinstance(other, bool) or await run_in_threadpool(_live, site, other) is None:
        return _refused(site, request, "unknown_person", {})
    try:
        await run_in_threadpool(_write, site, lambda c: club.merge(c, person, other))
    except club.ClubRefused as refused:
        return _refused(site, request, refused.reason, refused.params)
    return JSONResponse(await run_in_threadpool(records.person, site.db, person))


async def api_separate(site: Site, request: Request) -> Response:
    """``POST /api/history/players/N/separate`` ``{"name"}``: 201 and the new person's page."""
    person, body = await _api_body(site, request)
    name = body.get("name") if isinstance(body.get("name"), str) else ""
    now = sessions.now_text()
    try:
        new = await run_in_threadpool(_write, site, lambda c: club.separate(c, person, name, now))
    except club.ClubRefused as refused:
        return _refused(site, request, refused.reason, refused.params)
    return JSONResponse(await run_in_threadpool(records.person, site.db, new), status_code=201)
