"""The web app of ``pnp serve``: the JSON API and the pages, over the session tables.

Who may do what:

* the organiser's token (``--token``, or printed at start) starts sessions and
  sees the history: ``Authorization: Bearer`` on the API, or the organiser
  link once, which leaves it in a cookie;
* each session's own token (returned when it is started, carried by its join
  link and QR code, then kept in a cookie for that session's pages only) is
  needed for everything about that session; the organiser's token works too;
* a read-only key, printed on the filled scoresheet's QR code, shows a
  session's result and nothing else.

Cookies are ``HttpOnly`` and ``SameSite=Lax`` (never sent with a form posted
from another site); every form also carries a CSRF token.  A missing token is
401, a wrong one 403, and neither changes anything.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import re
from pathlib import Path
from typing import Callable
from urllib.parse import parse_qsl, urlencode

import jinja2
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from scoring import FileError, PartForm, SessionFileError, Value, check_session, find_rules, game_ids, score_session
from scoring.session_file import composed, dumps as session_text, parse_session_text

from pnp.errors import PnpError
from pnp.web import bgstats, charts, entering, entry, qr, tables
from pnp.web.auth import Keys, bearer, matches, token_hash
from pnp.web.db import Database, DatabaseError
from pnp.web.words import (
    LANGUAGES,
    accepted,
    choose,
    field_labels,
    file_error_json,
    game_words,
    long_date,
    notice_json,
    number,
    part_json,
    problem_json,
    problem_text,
    web,
)

HERE = Path(__file__).resolve().parent
MAX_BODY = 256 * 1024
ORGANISER_COOKIE = entering.ORGANISER_COOKIE
SESSION_COOKIE = "pnp_session"
LANG_COOKIE = "pnp_lang"
EXPORTS = {"toml": "application/toml", "json": "application/json", "csv": "text/csv"}
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
     b"frame-ancestors 'none'; form-action 'self'; base-uri 'none'"),
]


class Stop(Exception):
    """Ends a request early with a ready response (a refusal)."""

    def __init__(self, response: Response) -> None:
        self.response = response


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every response (no framing, no sniffing, scripts from here only)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": list(message.get("headers", [])) + SECURITY_HEADERS}
            await send(message)

        return await self.app(scope, receive, send_with_headers)


class Site:
    """Everything the handlers share: the database, the keys, the organiser's token, the templates."""

    def __init__(self, db: Database, organiser_token: str, public_url: str | None = None) -> None:
        self.db = db
        self.organiser_hash = token_hash(organiser_token)
        self.keys = Keys(tables.server_secret(db))
        self.public_url = public_url.rstrip("/") if public_url else None
        self.templates = jinja2.Environment(
            loader=jinja2.FileSystemLoader(HERE / "templates"),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
        )

    # -- requests ------------------------------------------------------------

    def base(self, request: Request) -> str:
        """The address phones reach the server at (the LAN address, not the laptop's loopback)."""
        return self.public_url or str(request.base_url).rstrip("/")

    def lang(self, request: Request, session_lang: object = None) -> str:
        """The query's ``lang``, else the visitor's switch, else the browser's, else the session's."""
        return choose(request.query_params.get("lang"), request.cookies.get(LANG_COOKIE),
                      accepted(request.headers.get("accept-language")), session_lang)

    def session_token_hash(self, session_id: str) -> str:
        """What the database keeps of a new session's token."""
        return token_hash(self.keys.session_token(session_id))

    def is_organiser(self, token: str | None) -> bool:
        return matches(token, self.organiser_hash)

    async def body(self, request: Request) -> bytes:
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > MAX_BODY:
            raise Stop(self.api_error(request, 413, "too_large", limit=MAX_BODY // 1024))
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise Stop(self.api_error(request, 413, "too_large", limit=MAX_BODY // 1024))
            chunks.append(chunk)
        return b"".join(chunks)

    async def json_body(self, request: Request, lang: str) -> object:
        data = await self.body(request)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise Stop(self.api_error(request, 400, "not_utf8", lang=lang)) from None
        try:
            return parse_session_text(text, "json")
        except SessionFileError as error:
            raise Stop(JSONResponse({"errors": [file_error_json(error, lang)]}, status_code=400)) from None

    # -- API answers ---------------------------------------------------------

    def api_error(self, request: Request, status: int, code: str, lang: str | None = None, **params) -> JSONResponse:
        lang = lang or self.lang(request)
        headers = {"WWW-Authenticate": 'Bearer realm="pnp"'} if status == 401 else None
        return JSONResponse({"errors": [notice_json(code, lang, **params)]}, status_code=status, headers=headers)

    def refused(self, problems, lang: str, game: str | None = None, labels: dict | None = None) -> JSONResponse:
        return JSONResponse({"errors": [problem_json(p, lang, game, labels) for p in problems]}, status_code=422)

    def out_of_turn(self, request: Request, error: tables.OutOfTurn, stored: tables.StoredSession,
                    lang: str) -> JSONResponse:
        return self.api_error(request, 409, "out_of_turn", lang, where=round_name(stored.game, lang, error.number),
                              expected=round_name(stored.game, lang, error.expected))

    def closed(self, request: Request, error: tables.Closed, stored: tables.StoredSession, lang: str) -> JSONResponse:
        return self.api_error(request, 409, "closed", lang, reason=game_words(lang, stored.game).label(error.reason))

    async def api_session(self, request: Request) -> tables.StoredSession:
        """The session the API request names, once its token (or the organiser's) is checked."""
        token = bearer(request.headers.get("authorization"))
        if token is None:
            raise Stop(self.api_error(request, 401, "token_missing"))
        try:
            stored = await run_in_threadpool(tables.get_session, self.db, request.path_params["id"])
        except tables.UnknownSession:
            raise Stop(self.api_error(request, 404, "unknown_session")) from None
        if not (matches(token, stored.token_hash) or self.is_organiser(token)):
            raise Stop(self.api_error(request, 403, "token_wrong"))
        try:
            find_rules(stored.game)
        except SessionFileError as error:
            raise Stop(JSONResponse({"errors": [file_error_json(error, self.lang(request, stored.lang))]},
                                    status_code=409)) from None
        return stored

    def api_organiser(self, request: Request) -> None:
        token = bearer(request.headers.get("authorization"))
        if token is None:
            raise Stop(self.api_error(request, 401, "token_missing"))
        if not self.is_organiser(token):
            raise Stop(self.api_error(request, 403, "token_wrong"))

    # -- pages ---------------------------------------------------------------

    def page(self, request: Request, name: str, lang: str, status: int = 200, **context) -> HTMLResponse:
        words = web(lang)

        def t(key: str, **values) -> str:
            return words.get(f"web.{key}", **values)

        def tn(key: str, count: int, **values) -> str:
            return words.plural(f"web.{key}", count, **values)

        def switch(code: str) -> str:
            # A link made of the query alone stays on this page of this server, whatever
            # the address was ("//evil.example/x" must not become a link to that site).
            query = dict(request.query_params)
            query["lang"] = code
            return f"?{urlencode(query)}"

        saved = request.query_params.get("saved")
        draft = f"{request.path_params['id']}:{saved}" if saved and "id" in request.path_params else ""
        html = self.templates.get_template(name).render(
            lang=lang, t=t, tn=tn, languages=LANGUAGES, switch=switch,
            decimal=lambda value: number(value, lang), saved_draft=draft,
            **context)
        if lang == "fr":
            html = french_spaces(html)
        response = HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-store"})
        if request.query_params.get("lang") in LANGUAGES:
            response.set_cookie(LANG_COOKIE, request.query_params["lang"], max_age=365 * 86400, samesite="lax")
        return response

    def message(self, request: Request, status: int, key: str, lang: str | None = None, **values) -> HTMLResponse:
        lang = lang or self.lang(request)
        return self.page(request, "message.html", lang, status, title_key=f"page.{key}.title",
                         text_key=f"page.{key}.text", values=values)

    def credential(self, request: Request, stored: tables.StoredSession) -> str | None:
        """The cookie token that lets this visitor change ``stored`` (the session's or the organiser's)."""
        own = request.cookies.get(SESSION_COOKIE)
        if matches(own, stored.token_hash):
            return own
        organiser = request.cookies.get(ORGANISER_COOKIE)
        if self.is_organiser(organiser):
            return organiser
        return None

    async def page_session(self, request: Request, read_only: bool = False) -> tuple[tables.StoredSession, str | None]:
        """The session a page is about and the visitor's credential (None: read-only key)."""
        try:
            stored = await run_in_threadpool(tables.get_session, self.db, request.path_params["id"])
        except tables.UnknownSession:
            raise Stop(self.message(request, 404, "unknown_session")) from None
        try:
            find_rules(stored.game)
        except SessionFileError:
            raise Stop(self.message(request, 409, "unknown_game", self.lang(request, stored.lang),
                                    game=stored.game)) from None
        credential = self.credential(request, stored)
        if credential is None:
            if read_only and self.keys.read_key_ok(stored.id, request.query_params.get("k")):
                return stored, None
            if request.cookies.get(SESSION_COOKIE) or request.cookies.get(ORGANISER_COOKIE):
                raise Stop(self.message(request, 403, "wrong_session", self.lang(request, stored.lang)))
            raise Stop(self.message(request, 401, "join_first", self.lang(request, stored.lang)))
        return stored, credential

    async def form(self, request: Request, credential: str | None) -> dict[str, str]:
        """A posted form's fields, once its CSRF token matches the visitor's credential."""
        data = await self.body(request)
        try:
            # Names in composed form (NFC), as every session file is read: one name, one string.
            fields = composed(dict(parse_qsl(data.decode("utf-8"), keep_blank_values=True, max_num_fields=100,
                                             strict_parsing=False)))
        except (UnicodeDecodeError, ValueError, SessionFileError):
            raise Stop(self.message(request, 400, "bad_form")) from None
        origin = request.headers.get("origin")
        if origin and origin != "null" and origin.rstrip("/") not in self.origins(request):
            raise Stop(self.message(request, 403, "bad_form"))
        if not self.keys.csrf_ok(credential, fields.get("csrf")):
            raise Stop(self.message(request, 403, "bad_form"))
        return fields

    def origins(self, request: Request) -> set[str]:
        found = {str(request.base_url).rstrip("/")}
        if self.public_url:
            found.add(self.public_url)
        return found

    # -- what pages show -----------------------------------------------------

    def join_link(self, request: Request, session_id: str, token: str) -> str:
        return f"{self.base(request)}/s/{session_id}/join?{urlencode({'t': token})}"

    def result_link(self, request: Request, session_id: str) -> str:
        return f"{self.base(request)}/s/{session_id}/result?{urlencode({'k': self.keys.read_key(session_id)})}"

    def summary(self, stored: tables.StoredSession, lang: str) -> dict:
        """What the table, result and history pages show of one session."""
        try:
            rules = find_rules(stored.game)
        except SessionFileError:
            return _stranger(stored, lang)
        words = game_words(lang, stored.game)
        result = stored.result
        expected = tables.rounds_in_game(stored.game)
        entered = tables.rounds_entered(stored.document, stored.complete)
        checked = check_session(stored.document)
        outcome = []
        if checked.session is not None:
            outcome = [words.label(line) for line in rules.report(score_session(checked.session)).lines]
        winners = result["winners"]
        headline = (words.plural("report.winners", len(winners), names=winners) if winners
                    else web(lang).get("web.result.no_winner"))
        rounds = []
        for n, scores in enumerate(result["rounds"], start=1):
            long = round_name(stored.game, lang, n)
            # "D2", "J2", "R2": the round word's first letter, in whatever language and game.
            rounds.append({"short": f"{long[:1]}{n}", "long": long, "scores": scores})
        return {
            "id": stored.id,
            "game": stored.game,
            "game_name": words.text("game.name"),
            "players": stored.players,
            "date": long_date(stored.played_on, lang),
            "rounds": rounds,
            "totals": result["totals"],
            "has_points": bool(result["totals"]),
            "complete": stored.complete,
            "winners": winners,
            "outcome": outcome,
            "headline": headline,
            "details": [line for line in outcome if line != headline],
            "expected": expected,
            "entered": entered,
            "progress": web(lang).get("web.table.progress", current=round_name(stored.game, lang, entered + 1),
                                      total=expected),
            "single_outcome": tables.rounds_key(stored.game) is None,
            "origin": stored.origin,
        }


_BEFORE_MARK = re.compile(r"(?<=\S) ([?!:;»])")


def french_spaces(html: str) -> str:
    """French pages: the space before ? ! : ; » and after « does not break (a "?" never starts a line).

    The pages' markup has no such space of its own (their style and script are files), so the
    whole page can be treated.

    >>> french_spaces("Qui saisit ? « Jour 1 » : fini")
    'Qui saisit\xa0? «\xa0Jour 1\xa0»\xa0: fini'
    """
    return _BEFORE_MARK.sub("\u00a0\\1", html).replace("« ", "«\u00a0")


def _stranger(stored: tables.StoredSession, lang: str) -> dict:
    """A session of a game this server does not know (joined at run time, then gone): listed, not shown."""
    return {"id": stored.id, "game": stored.game, "game_name": stored.game, "players": stored.players,
            "date": long_date(stored.played_on, lang), "rounds": [], "totals": stored.result["totals"],
            "has_points": False, "complete": stored.complete, "winners": stored.result["winners"], "outcome": [],
            "headline": "", "details": [], "expected": 0, "entered": 0, "progress": "", "single_outcome": True,
            "origin": stored.origin}


def round_name(game: str, lang: str, number: int) -> str:
    """"Day 2", "Manche 2": a day or round as the game's catalog names it.

    A number from an address may hold a thousand digits: past nine, it is not said.
    """
    return game_words(lang, game).text(f"{find_rules(game).round_word}.where",
                                       number=number if number < 10 ** 9 else "…")

def _download_name(stored: tables.StoredSession, fmt: str) -> str:
    return f"{stored.game}-{stored.played_on or stored.created_at[:10]}-{stored.id}.{fmt}"


def _export(stored: tables.StoredSession, fmt: str) -> Response:
    text = session_text(stored.document, fmt)
    return Response(text, media_type=EXPORTS[fmt], headers={
        "Content-Disposition": f'attachment; filename="{_download_name(stored, fmt)}"',
        "Cache-Control": "no-store"})


def _played_at(stored: tables.StoredSession) -> datetime.datetime:
    """When the session ended, in the server's local time (the date alone for an imported session)."""
    if stored.origin == "table" and stored.completed_at:
        return datetime.datetime.fromisoformat(stored.completed_at).astimezone()
    day = datetime.date.fromisoformat(stored.played_on) if stored.played_on else datetime.date.today()
    return datetime.datetime.combine(day, datetime.time(0, 0))


def _bgstats_play(stored: tables.StoredSession) -> dict:
    lang = stored.lang or "en"
    minutes = None
    if stored.origin == "table" and stored.completed_at:
        started = datetime.datetime.fromisoformat(stored.created_at)
        ended = datetime.datetime.fromisoformat(stored.completed_at)
        minutes = max(1, round((ended - started).total_seconds() / 60))
    comments = ""
    if stored.result["tie_break"] is not None:
        # Who won is in the players' entries; how a tie was settled is said nowhere else.
        checked = check_session(stored.document)
        words = game_words(lang, stored.game)
        lines = checked.rules.report(score_session(checked.session)).lines
        comments = " ".join(words.label(line) for line in lines[1:])
    # The English name: BG Stats matches it against its own list (BoardGameGeek's names).
    name = game_words("en", stored.game).text("game.name")
    return bgstats.play(stored.id, stored.game, name, stored.result, _played_at(stored), minutes, comments)


def create_app(db: Database, organiser_token: str, public_url: str | None = None) -> Starlette:
    """The ASGI app over ``db``; ``public_url`` is the address phones use (for join links and QR codes)."""
    site = Site(db, organiser_token, public_url)

    def handler(function: Callable) -> Callable:
        async def endpoint(request: Request) -> Response:
            try:
                return await function(request)
            except Stop as stop:
                return stop.response
            except DatabaseError as error:
                if request.url.path.startswith("/api/"):
                    return JSONResponse({"errors": [{"code": "database", "message": str(error)}]}, status_code=503)
                return site.message(request, 503, "database", detail=str(error))

        endpoint.__name__ = function.__name__
        return endpoint

    # -- API -----------------------------------------------------------------

    async def healthz(request: Request) -> Response:
        return JSONResponse({"ok": True})

    async def api_create(request: Request) -> Response:
        site.api_organiser(request)
        lang = site.lang(request)
        body = await site.json_body(request, lang)
        if not isinstance(body, dict):
            return JSONResponse({"errors": [file_error_json(SessionFileError(FileError.NOT_A_TABLE, found=Value(body)), lang)]},
                                status_code=422)
        lang = choose(request.query_params.get("lang"), body.get("lang"), lang)
        if "game" not in body:
            error = SessionFileError(FileError.MISSING_GAME, expected=", ".join(game_ids()))
            return JSONResponse({"errors": [file_error_json(error, lang)]}, status_code=422)
        extra = {k: v for k, v in body.items() if k not in ("game", "players", "lang")}
        try:
            document = tables.start_document(body["game"], body.get("players"), body.get("lang"), extra)
            stored = await run_in_threadpool(tables.create_session, site.db, document, site.session_token_hash)
        except SessionFileError as error:
            return JSONResponse({"errors": [file_error_json(error, lang)]}, status_code=422)
        except tables.Refused as refusal:
            return site.refused(refusal.problems, lang, body["game"] if isinstance(body["game"], str) else None)
        token = site.keys.session_token(stored.id)
        return JSONResponse({"id": stored.id, "token": token, "url": site.join_link(request, stored.id, token)},
                            status_code=201, headers={"Location": f"/api/sessions/{stored.id}"})

    async def api_show(request: Request) -> Response:
        stored = await site.api_session(request)
        # Scored again from the document: exactly what `pnp score check --json` says of it.
        result, _ = tables.scored(stored.document)
        return JSONResponse(result, headers={"Cache-Control": "no-store"})

    def _round_etag(view: tables.RoundView, lang: str) -> str:
        """A round's HTTP ETag: the stored state, and the language its messages are in."""
        return f'"{view.etag}.{lang}"'

    def _if_match(request: Request, lang: str) -> frozenset[str] | None:
        """The state hashes an ``If-Match`` header names (strong tags of this language only), or None."""
        header = request.headers.get("if-match")
        if header is None:
            return None
        found = set()
        for item in header.split(","):
            item = item.strip()
            if item == "*":
                return frozenset({"*"})
            if len(item) > 2 and item[0] == item[-1] == '"':
                state, _, tag_lang = item[1:-1].rpartition(".")
                if state and tag_lang == lang:
                    found.add(state)
        return frozenset(found)

    async def _round_view(request: Request, stored: tables.StoredSession, lang: str) -> tables.RoundView:
        number = request.path_params["number"]
        try:
            return await run_in_threadpool(tables.round_view, site.db, stored.id, number)
        except tables.UnknownRound as unknown:
            raise Stop(site.api_error(request, 404, "unknown_round", lang, where=round_name(stored.game, lang, number),
                                      highest=unknown.highest)) from None

    async def _answer(request: Request, stored: tables.StoredSession, lang: str, status: int = 200,
                      errors: list | None = None) -> JSONResponse:
        """The round's state as it is now, with its ETag (and the errors of a refused change)."""
        view = await _round_view(request, stored, lang)
        content = _status_json(view, lang)
        if errors is not None:
            content = {"errors": errors, "current": content}
        return JSONResponse(content, status_code=status,
                            headers={"ETag": _round_etag(view, lang), "Cache-Control": "no-store"})

    async def api_put_round(request: Request) -> Response:
        stored = await site.api_session(request)
        lang = site.lang(request, stored.lang)
        view = await _round_view(request, stored, lang)
        body = await site.json_body(request, lang)
        number = request.path_params["number"]
        try:
            saved = await run_in_threadpool(tables.put_round, site.db, stored.id, number, body,
                                            _api_actor(request), _if_match(request, lang))
        except tables.Refused as refusal:
            return site.refused(refusal.problems, lang, stored.game, field_labels(view.state.form))
        except tables.OutOfTurn as error:
            return site.out_of_turn(request, error, stored, lang)
        except tables.Stale:
            return await _answer(request, stored, lang, 412, [notice_json("stale", lang)])
        return JSONResponse(saved.stored.result, headers={"ETag": _round_etag(saved, lang)})

    async def api_patch_round(request: Request) -> Response:
        stored = await site.api_session(request)
        lang = site.lang(request, stored.lang)
        view = await _round_view(request, stored, lang)
        body = await site.json_body(request, lang)
        number = request.path_params["number"]
        try:
            done = await run_in_threadpool(tables.send, site.db, stored.id, number, body, _api_actor(request), None,
                                           _if_match(request, lang))
        except tables.Refused as refusal:
            labels = field_labels(view.state.form, view.state.start())
            return site.refused(refusal.problems, lang, stored.game, labels)
        except tables.OutOfTurn as error:
            return site.out_of_turn(request, error, stored, lang)
        except tables.Closed as error:
            return site.closed(request, error, stored, lang)
        except tables.Stale:
            return await _answer(request, stored, lang, 412, [notice_json("stale", lang)])
        # The day as this change left it: another phone's part a moment later is its own answer's.
        return JSONResponse(_status_json(done, lang), headers={"ETag": _round_etag(done, lang)})

    async def api_round(request: Request) -> Response:
        stored = await site.api_session(request)
        lang = site.lang(request, stored.lang)
        view = await _round_view(request, stored, lang)
        etag = _round_etag(view, lang)
        if etag in [tag.strip() for tag in request.headers.get("if-none-match", "").split(",")]:
            return Response(status_code=304, headers={"ETag": etag})
        return JSONResponse(_status_json(view, lang), headers={"ETag": etag, "Cache-Control": "no-store"})

    def _api_actor(request: Request) -> tables.Actor:
        return tables.ORGANISER if site.is_organiser(bearer(request.headers.get("authorization"))) else tables.API

    async def api_changes(request: Request) -> Response:
        stored = await site.api_session(request)
        found = await run_in_threadpool(tables.changes, site.db, stored.id)
        return JSONResponse(entering.history_json(found), headers={"Cache-Control": "no-store"})

    async def api_undo(request: Request) -> Response:
        stored = await site.api_session(request)
        lang = site.lang(request, stored.lang)
        body = await site.json_body(request, lang)
        change = body.get("change") if isinstance(body, dict) else None
        try:
            if isinstance(change, bool) or not isinstance(change, int):
                raise tables.NothingToUndo()
            saved = await run_in_threadpool(tables.undo, site.db, stored.id, change, _api_actor(request))
        except tables.NothingToUndo:
            return site.api_error(request, 409, "not_last", lang)
        return JSONResponse(saved.result)

    async def api_export(request: Request) -> Response:
        stored = await site.api_session(request)
        fmt = request.query_params.get("format", "toml")
        if fmt not in EXPORTS:
            return site.api_error(request, 400, "unknown_format", site.lang(request, stored.lang),
                                  found=fmt, expected=", ".join(EXPORTS))
        return _export(stored, fmt)

    async def api_bgstats(request: Request) -> Response:
        stored = await site.api_session(request)
        if not stored.complete:
            return site.api_error(request, 409, "not_finished", site.lang(request, stored.lang))
        return JSONResponse({"url": bgstats.link(_bgstats_play(stored))})

    async def api_history(request: Request) -> Response:
        site.api_organiser(request)
        game = request.query_params.get("game")
        sessions = await run_in_threadpool(tables.list_sessions, site.db, game)
        return JSONResponse(tables.history_json(sessions), headers={"Cache-Control": "no-store"})

    def _status_json(view: tables.RoundView, lang: str) -> dict:
        status, stored = view.status, view.stored
        labels = field_labels(view.state.form, view.state.start())
        return {"number": status.number, "committed": status.committed, "entered": list(status.entered),
                "missing": list(status.missing), "round": status.round, "unanswered": list(status.unanswered),
                "parts": status.parts, "corrections": status.corrections,
                "problems": [problem_json(p, lang, stored.game, labels) for p in status.problems],
                "session": stored.result}

    # -- pages ---------------------------------------------------------------

    async def home(request: Request) -> Response:
        lang = site.lang(request)
        given = request.query_params.get("token")
        if given is not None:
            if not site.is_organiser(given):
                return site.message(request, 403, "wrong_organiser", lang)
            response = RedirectResponse("/", status_code=303)
            response.set_cookie(ORGANISER_COOKIE, given, httponly=True, samesite="lax", max_age=30 * 86400)
            return response
        organiser = request.cookies.get(ORGANISER_COOKIE)
        if not site.is_organiser(organiser):
            return site.message(request, 401, "welcome", lang)
        return await _home_page(request, lang, organiser)

    async def _home_page(request: Request, lang: str, organiser: str, status: int = 200,
                         form: dict | None = None, errors: list[str] | None = None) -> Response:
        sessions = await run_in_threadpool(tables.list_sessions, site.db)
        recent = [site.summary(s, lang) for s in sessions if s.origin == "table"][:12]
        games = [{"id": game, "name": game_words(lang, game).text("game.name"),
                  "low": find_rules(game).player_range[0], "high": find_rules(game).player_range[1],
                  "start": _start_questions(game, lang, form or {})} for game in game_ids()]
        most = max(game["high"] for game in games)
        return site.page(request, "home.html", lang, status, csrf=site.keys.csrf(organiser), games=games,
                         recent=recent, seats=most, form=form or {}, errors=errors or [])

    async def start(request: Request) -> Response:
        lang = site.lang(request)
        organiser = request.cookies.get(ORGANISER_COOKIE)
        if not site.is_organiser(organiser):
            return site.message(request, 401, "welcome", lang)
        fields = await site.form(request, organiser)
        names = [fields.get(f"player{i}", "").strip() for i in range(1, 9)]
        names = [n for n in names if n]
        chosen_lang = fields.get("lang") if fields.get("lang") in LANGUAGES else lang
        try:
            extra, problems = _start_answers(fields.get("game"), fields)
            if problems:
                raise tables.Refused(problems)
            document = tables.start_document(fields.get("game"), names, chosen_lang, extra)
            stored = await run_in_threadpool(tables.create_session, site.db, document, site.session_token_hash)
        except SessionFileError as error:
            return await _home_page(request, lang, organiser, 422, fields,
                                    [game_words(lang).file_error(error)])
        except tables.Refused as refusal:
            return await _home_page(request, lang, organiser, 422, fields,
                                    [problem_text(p, lang, fields.get("game")) for p in refusal.problems])
        response = RedirectResponse(f"/s/{stored.id}", status_code=303)
        _session_cookie(response, stored.id, site.keys.session_token(stored.id))
        return response

    def _start_questions(game: str, lang: str, form: dict) -> list[dict]:
        """What a game asks when a session starts (Card Hunter's difficulty), as the home page draws it."""
        questions = PartForm(find_rules(game).start_questions(), {})
        words = game_words(lang, game)
        prefix = f"start.{game}."
        return [{**described, "name": prefix + described["id"],
                 "value": form.get(prefix + described["id"], described["suggested"]), "problems": [],
                 "saved_now": None} for described in part_json(questions, words)]

    def _session_cookie(response: Response, session_id: str, token: str) -> None:
        response.set_cookie(SESSION_COOKIE, token, path=f"/s/{session_id}", httponly=True, samesite="lax",
                            max_age=7 * 86400)

    async def join(request: Request) -> Response:
        try:
            stored = await run_in_threadpool(tables.get_session, site.db, request.path_params["id"])
        except tables.UnknownSession:
            return site.message(request, 404, "unknown_session")
        given = request.query_params.get("t")
        if not matches(given, stored.token_hash):
            return site.message(request, 403, "wrong_join", site.lang(request, stored.lang))
        response = RedirectResponse(f"/s/{stored.id}", status_code=303)
        _session_cookie(response, stored.id, given)
        device, fresh = entering.device_token(request)
        if fresh:
            entering.set_device(response, stored.id, device)
        return response

    async def table(request: Request) -> Response:
        stored, credential = await site.page_session(request)
        lang = site.lang(request, stored.lang)
        device, fresh = entering.device_token(request)
        context = await _table_context(request, stored, lang, entering.actor_for(site, request, device), credential)
        join_link = None
        if stored.token_hash is not None:  # an imported session is never joined
            join_link = site.join_link(request, stored.id, site.keys.session_token(stored.id))
        response = site.page(request, "table.html", lang, join_link=join_link, flash=_flash(request, stored, lang),
                             join_qr=qr.svg(join_link, web(lang).get("web.table.join_qr")) if join_link else None,
                             **context)
        if fresh:
            entering.set_device(response, stored.id, device)
        return response

    def _flash(request: Request, stored: tables.StoredSession, lang: str) -> str | None:
        """What the table page says after a part was sent (``sent``) or a day corrected (``fixed``)."""
        words = web(lang)
        entered = tables.rounds_entered(stored.document, stored.complete)
        for kind in ("sent", "fixed"):
            number = entering.parse_number(request.query_params.get(kind))
            if number is None or number > tables.rounds_in_game(stored.game):
                continue
            name = (words.get("web.enter.team") if tables.rounds_key(stored.game) is None
                    else round_name(stored.game, lang, number))
            if kind == "sent":
                return words.get("web.enter.committed" if number <= entered else "web.enter.sent", round=name)
            waiting = tables.round_status(site.db, stored.id, number).corrections if number <= entered else {}
            return words.get("web.correct.waiting" if waiting else "web.correct.applied", round=name)
        return None

    async def _table_context(request: Request, stored: tables.StoredSession, lang: str, actor: tables.Actor,
                             credential: str | None, unless: str | None = None) -> dict:
        """What the table page shows, and its ETag; only the ETag when it is ``unless`` (nothing changed).

        Phones and the table's screen ask every few seconds: the ETag comes from what is
        stored (the session's last change, what waits beside it), before anything is scored.
        """
        entered = tables.rounds_entered(stored.document, stored.complete)
        current_view = None
        if not stored.complete:
            current_view = await run_in_threadpool(tables.round_view, site.db, stored.id, entered + 1)
        numbers, problems = await run_in_threadpool(tables.corrections_waiting, site.db, stored.id)
        undo = await entering.undoable(site, stored, actor) if credential is not None else None
        state = [stored.updated_at, current_view and current_view.etag, numbers, undo and undo.id, lang]
        etag = '"' + hashlib.sha256(json.dumps(state).encode()).hexdigest()[:16] + '"'
        if etag == unless:
            return {"etag": etag}
        view = site.summary(stored, lang)
        current, labels = None, {}
        if current_view is not None:
            current = current_view.status
            labels = field_labels(current_view.state.form, current_view.state.start())
        single = tables.rounds_key(stored.game) is None
        done = [{"number": n, "label": web(lang).get("web.enter.team") if single else round_name(stored.game, lang, n),
                 "correcting": n in numbers} for n in range(1, entered + 1)]
        return {"view": view, "current": current,
                "current_label": round_name(stored.game, lang, entered + 1),
                "problems": [problem_text(p, lang, stored.game, labels) for p in current.problems] if current else [],
                "done": done, "correcting": [problem_text(p, lang, stored.game) for p in problems],
                "undo": entering.describe(undo, stored, lang) if undo is not None else None,
                "csrf": site.keys.csrf(credential) if credential else "", "etag": etag}

    # -- entering, correcting, undoing (pnp.web.entering) --------------------------

    async def enter_page(request: Request) -> Response:
        return await entering.enter_page(site, request)

    async def enter_post(request: Request) -> Response:
        return await entering.enter_post(site, request)

    async def changes_page(request: Request) -> Response:
        return await entering.history_page(site, request)

    async def undo_post(request: Request) -> Response:
        return await entering.undo_post(site, request)

    async def live(request: Request) -> Response:
        stored, credential = await site.page_session(request)
        lang = site.lang(request, stored.lang)
        actor = entering.actor_for(site, request, request.cookies.get(entering.DEVICE_COOKIE))
        context = await _table_context(request, stored, lang, actor, credential, request.headers.get("if-none-match"))
        if request.headers.get("if-none-match") == context["etag"]:
            return Response(status_code=304, headers={"ETag": context["etag"]})
        response = site.page(request, "_scores.html", lang, **context)
        response.headers["ETag"] = context["etag"]
        return response

    async def result_page(request: Request) -> Response:
        stored, credential = await site.page_session(request, read_only=True)
        lang = site.lang(request, stored.lang)
        view = site.summary(stored, lang)
        context: dict = {"view": view, "read_key": site.keys.read_key(stored.id), "bgstats": None,
                         "scoresheet": _has_scoresheet(stored.game)}
        if stored.complete:
            data = _bgstats_play(stored)
            web_link = bgstats.link(data, bgstats.WEB_LINK)
            context["bgstats"] = {"app": bgstats.link(data),
                                  "qr": qr.svg(web_link, web(lang).get("web.result.bgstats_qr"), dense=True)}
        return site.page(request, "result.html", lang, **context)

    async def page_export(request: Request) -> Response:
        stored, _ = await site.page_session(request, read_only=True)
        fmt = request.path_params["fmt"]
        if fmt not in EXPORTS:
            return site.message(request, 404, "not_found")
        return _export(stored, fmt)

    async def sheet(request: Request) -> Response:
        stored, _ = await site.page_session(request, read_only=True)
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
            "Content-Disposition": f'inline; filename="{_download_name(stored, "pdf")}"',
            "Cache-Control": "no-store"})

    async def history(request: Request) -> Response:
        lang = site.lang(request)
        if not site.is_organiser(request.cookies.get(ORGANISER_COOKIE)):
            return site.message(request, 401, "welcome", lang)
        sessions = await run_in_threadpool(tables.list_sessions, site.db)
        records = tables.player_records(sessions)
        words = web(lang)
        games = []
        for game, rows in records.items():
            points = any(r.totals for r in rows)
            if points:
                chart = charts.bars([(r.name, r.average) for r in rows if r.average is not None],
                                    words.get("web.history.chart_average"), lambda v: number(v, lang))
            else:
                chart = charts.bars([(r.name, float(r.won)) for r in rows], words.get("web.history.chart_wins"),
                                    lambda v: number(v, lang, 0))
            games.append({"id": game, "name": game_words(lang, game).text("game.name"),
                          "rows": rows, "chart": chart, "points": points})
        return site.page(request, "history.html", lang, games=games,
                         sessions=[site.summary(s, lang) for s in sessions])

    async def not_found(request: Request, exc: Exception) -> Response:
        if request.url.path.startswith("/api/"):
            return site.api_error(request, 404, "not_found")
        return site.message(request, 404, "not_found")

    async def method_not_allowed(request: Request, exc: Exception) -> Response:
        if request.url.path.startswith("/api/"):
            return site.api_error(request, 405, "method_not_allowed")
        return site.message(request, 405, "not_found")

    routes = [
        Route("/healthz", handler(healthz)),
        Route("/api/sessions", handler(api_create), methods=["POST"]),
        Route("/api/sessions/{id}", handler(api_show)),
        Route("/api/sessions/{id}/rounds/{number:int}", handler(api_put_round), methods=["PUT"]),
        Route("/api/sessions/{id}/rounds/{number:int}", handler(api_patch_round), methods=["PATCH"]),
        Route("/api/sessions/{id}/rounds/{number:int}", handler(api_round), methods=["GET"]),
        Route("/api/sessions/{id}/export", handler(api_export)),
        Route("/api/sessions/{id}/bgstats", handler(api_bgstats)),
        Route("/api/sessions/{id}/history", handler(api_changes)),
        Route("/api/sessions/{id}/undo", handler(api_undo), methods=["POST"]),
        Route("/api/history", handler(api_history)),
        Route("/", handler(home)),
        Route("/sessions", handler(start), methods=["POST"]),
        Route("/history", handler(history)),
        Route("/s/{id}", handler(table)),
        Route("/s/{id}/join", handler(join)),
        Route("/s/{id}/live", handler(live)),
        Route("/s/{id}/enter", handler(enter_page), methods=["GET"]),
        Route("/s/{id}/enter", handler(enter_post), methods=["POST"]),
        Route("/s/{id}/history", handler(changes_page)),
        Route("/s/{id}/undo", handler(undo_post), methods=["POST"]),
        Route("/s/{id}/result", handler(result_page)),
        Route("/s/{id}/export/{fmt}", handler(page_export)),
        Route("/s/{id}/sheet/{paper}.pdf", handler(sheet)),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={404: not_found, 405: method_not_allowed})
    app.state.site = site
    app.add_middleware(SecurityHeaders)
    return app


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


def _has_scoresheet(game: str) -> bool:
    """Whether the game ships a kit to print a filled scoresheet on (a game joined at run time may not)."""
    from pnp.templates import game_files

    return game in game_files()


def _filled_sheet(stored: tables.StoredSession, lang: str, paper: str, link: str) -> bytes:
    """The session printed on its game's scoresheet, its QR code pointing to the result page."""
    from pnp.model import PrintOptions
    from pnp.scoresheet import render_filled_sheet

    checked = check_session(stored.document)
    pdf, _ = render_filled_sheet(score_session(checked.session), PrintOptions(lang=lang, paper=paper),
                                 stored.played_on, qr_text=link)
    return pdf

