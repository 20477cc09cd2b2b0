"""Starting and joining: the organiser's link and home page, the form that starts a session, a phone's join link."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from scoring import PartForm, SessionFileError, find_rules, game_ids

from pnp.web import entry, records, sessions
from pnp.web.auth import matches
from pnp.web.base import ORGANISER_COOKIE, Site, device_token, join_cookie, with_device
from pnp.web.summary import summary
from pnp.web.words import LANGUAGES, game_words, part_json, problem_text

#: The start form's name fields read (player1 ... player8), more than any game seats.
PLAYER_FIELDS = 8


async def home(site: Site, request: Request) -> Response:
    """The organiser's home: their link leaves the token in a cookie; then recent tables and the start form."""
    lang = site.lang(request)
    given = request.query_params.get("token")
    if given is not None:
        if not site.is_organiser(given):
            return site.message(request, 403, "wrong_organiser", lang)
        response = site.redirect(request, "/")
        response.set_cookie(ORGANISER_COOKIE, given, httponly=True, samesite="lax", max_age=30 * 86400)
        return response
    organiser = request.cookies.get(ORGANISER_COOKIE)
    if not site.is_organiser(organiser):
        return site.message(request, 401, "welcome", lang)
    return await _home_page(site, request, lang, organiser)


async def start(site: Site, request: Request) -> Response:
    """``POST /sessions``: the start form sent; the new table's page, or the form again with what is wrong."""
    lang = site.lang(request)
    organiser = request.cookies.get(ORGANISER_COOKIE)
    if not site.is_organiser(organiser):
        return site.message(request, 401, "welcome", lang)
    fields = await site.form(request, organiser)
    names = [fields.get(f"player{i}", "").strip() for i in range(1, PLAYER_FIELDS + 1)]
    names = [n for n in names if n]
    chosen_lang = fields.get("lang") if fields.get("lang") in LANGUAGES else lang
    try:
        extra, problems = _start_answers(fields.get("game"), fields)
        if problems:
            raise entry.Refused(problems)
        document = sessions.start_document(fields.get("game"), names, chosen_lang, extra)
        stored = await run_in_threadpool(sessions.create_session, site.db, document, site.session_token_hash)
    except SessionFileError as error:
        return await _home_page(site, request, lang, organiser, status=422, form=fields,
                                errors=[game_words(lang).file_error(error)])
    except entry.Refused as refusal:
        return await _home_page(site, request, lang, organiser, status=422, form=fields,
                                errors=[problem_text(p, lang, fields.get("game")) for p in refusal.problems])
    response = site.redirect(request, f"/s/{stored.id}")
    join_cookie(response, stored.id, site.keys.session_token(stored.id))
    return response


async def join(site: Site, request: Request) -> Response:
    """A phone's join link (the table's QR code): its token goes into a cookie for this session only."""
    try:
        stored = await run_in_threadpool(sessions.get_session, site.db, request.path_params["id"])
    except sessions.UnknownSession:
        return site.message(request, 404, "unknown_session")
    given = request.query_params.get("t")
    if not matches(given, stored.token_hash):
        return site.message(request, 403, "wrong_join", site.lang(request, stored.lang))
    response = site.redirect(request, f"/s/{stored.id}")
    join_cookie(response, stored.id, given)
    device, fresh = device_token(request)
    return with_device(response, stored.id, device, fresh)


async def _home_page(site: Site, request: Request, lang: str, organiser: str, *, status: int = 200,
                     form: dict | None = None, errors: list[str] | None = None) -> Response:
    kept = await run_in_threadpool(records.recent_sessions, site.db, "table", 12)
    recent = [summary(s, lang) for s in kept]
    games = [{"id": game, "name": game_words(lang, game).text("game.name"),
              "low": find_rules(game).player_range[0], "high": find_rules(game).player_range[1],
              "start": _start_questions(game, lang, form or {})} for game in game_ids()]
    most = max(game["high"] for game in games)
    return site.page(request, "home.html", lang, status, csrf=site.keys.csrf(organiser), games=games,
                     recent=recent, seats=most, form=form or {}, errors=errors or [])


def _start_questions(game: str, lang: str, form: dict) -> list[dict]:
    """What a game asks when a session starts (Card Hunter's difficulty), as the home page draws it."""
    questions = PartForm(find_rules(game).start_questions(), {})
    words = game_words(lang, game)
    prefix = f"start.{game}."
    return [{**described, "name": prefix + described["id"],
             "value": form.get(prefix + described["id"], described["suggested"]), "problems": [],
             "saved_now": None} for described in part_json(questions, words)]


def _start_answers(game: object, fields: dict[str, str]) -> tuple[dict, list]:
    """The answers to what ``game`` asks when a session starts, in session-file form, and their problems."""
    try:
        questions = PartForm(find_rules(game).start_questions(), {})
    except SessionFileError:
        return {}, []  # the unknown game is reported by the session's own check
    if not questions.questions:
        return {}, []
    answers, unreadable = entry.part_from_fields(questions, fields, f"start.{game}.")
    problems = entry.refused_answers(questions, answers, None, None) + entry.unreadable(questions, unreadable, None, None)
    if problems:
        return {}, problems
    return questions.to_raw(entry.fill_defaults(questions, answers)), []
