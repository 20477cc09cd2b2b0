"""What every view of ``pnp serve`` shares: who is asking, in which language, and how a page or refusal is made.

Who is asking is read here from what a request carries, once:

* the organiser's token (``--token``, or printed at start): ``Authorization:
  Bearer`` on the API, or the organiser link once, which leaves it in a cookie;
* a session's join link (its token, returned when it is started, carried by
  its QR code, then kept in a cookie for that session's pages only);
* a seat's key: the phone's device cookie for that session, or on the API the
  token returned when a seat is taken;
* a read-only key, printed on the filled scoresheet's QR code.

What each may do is decided in one place, :mod:`pnp.web.permissions`.
Cookies are ``HttpOnly`` and ``SameSite=Lax`` (never sent with a form posted
from another site); every form also carries a CSRF token.  A missing token is
401, a refusal 403 with its reason, and neither changes anything.

A view is ``async def view(site, request) -> Response``; it may raise
:class:`Stop` with a refusal made by :class:`Site`, and :func:`endpoint` turns
it (or a database that cannot be used) into the answer.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Awaitable, Callable
from urllib.parse import parse_qsl, urlencode

import jinja2
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from scoring import SessionFileError, find_rules
from scoring.session_file import composed, parse_session_text

from pnp.core.records import NamedTuple
from pnp.web import round_store, seats, sessions
from pnp.web.auth import Keys, bearer, matches, new_token, token_hash
from pnp.web.permissions import ORGANISER, Action, Actor, held_by, refusal
from pnp.web.db import Database, DatabaseError, server_secret
from pnp.web.words import (
    LANGUAGES,
    accepted,
    choose,
    file_error_json,
    game_words,
    notice_json,
    number,
    problem_json,
    round_name,
    web,
)

HERE = Path(__file__).resolve().parent
MAX_BODY = 256 * 1024
#: A page's form has at most this many fields (a Hunting Fever part has about 20).
MAX_FIELDS = 200
ORGANISER_COOKIE = "pnp_organiser"
SESSION_COOKIE = "pnp_session"
DEVICE_COOKIE = "pnp_device"
LANG_COOKIE = "pnp_lang"
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


class Visit(NamedTuple):
    """A visit to one session's pages: the session, who is asking (their credential, who they are), the language."""

    site: "Site"
    request: Request
    stored: sessions.StoredSession
    credential: str | None
    actor: Actor
    lang: str
    seats: dict  # player -> the hash of the key that holds their seat, for the seats taken
    device: str | None = None  # this browser's device key for the session: its seat key
    fresh: bool = False  # the device key was made now, to be left in a cookie (:func:`with_device`)

    @property
    def held(self) -> list[str]:
        """The players whose seats this browser holds, in seating order."""
        mine = set(held_by(self.seats, self.actor))
        return [name for name in self.stored.players if name in mine]

    def may(self, action: Action, **what) -> bool:
        """Whether this visitor may do ``action`` (:func:`pnp.web.permissions.refusal`)."""
        return refusal(self.actor, action, self.seats, **what) is None


class ApiVisit(NamedTuple):
    """An API request about one session: the session, who asks (their bearer token), the language of the answer."""

    stored: sessions.StoredSession
    actor: Actor
    lang: str
    token: str


class Site:
    """Everything the views share: the database, the keys, the organiser's token, the templates."""

    def __init__(self, db: Database, organiser_token: str, public_url: str | None = None) -> None:
        self.db = db
        self.organiser_hash = token_hash(organiser_token)
        self.keys = Keys(server_secret(db))
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
        """The language a page or answer is in: the one this visitor chose (the query's ``lang``, else their
        switch), else the session's, else the browser's, else English.

        A session is in the language its table chose; each phone may switch its own pages.
        """
        return choose(request.query_params.get("lang"), request.cookies.get(LANG_COOKIE), session_lang,
                      accepted(request.headers.get("accept-language")))

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

    def out_of_turn(self, request: Request, error: round_store.OutOfTurn, stored: sessions.StoredSession,
                    lang: str) -> JSONResponse:
        return self.api_error(request, 409, "out_of_turn", lang, where=round_name(stored.game, lang, error.number),
                              expected=round_name(stored.game, lang, error.expected))

    def closed(self, request: Request, error: round_store.Closed, stored: sessions.StoredSession, lang: str) -> JSONResponse:
        return self.api_error(request, 409, "closed", lang, reason=game_words(lang, stored.game).label(error.reason))

    def forbidden(self, request: Request, reason: str, lang: str | None = None) -> JSONResponse:
        """A refusal of the API: 403 with its reason (:mod:`pnp.web.permissions`)."""
        return self.api_error(request, 403, reason, lang)

    def _api_actor(self, stored: sessions.StoredSession, token: str) -> Actor | None:
        """Who a bearer token is for this session: the organiser, its join link, a seat's key; None: nobody."""
        if self.is_organiser(token):
            return ORGANISER._replace(via="api")
        if matches(token, stored.token_hash):
            return Actor(joined=True, via="api")
        holder = seats.holder_of(self.db, stored.id, token)
        return Actor(holder=holder, via="api") if holder is not None else None

    async def api_visit(self, request: Request, action: Action | None = Action.READ) -> ApiVisit:
        """The session the API request names and who asks, once they may do ``action`` (None: checked later)."""
        token = bearer(request.headers.get("authorization"))
        if token is None:
            raise Stop(self.api_error(request, 401, "token_missing"))
        try:
            stored = await run_in_threadpool(sessions.get_session, self.db, request.path_params["id"])
        except sessions.UnknownSession:
            raise Stop(self.api_error(request, 404, "unknown_session")) from None
        lang = self.lang(request, stored.lang)
        actor = await run_in_threadpool(self._api_actor, stored, token)
        if actor is None:
            raise Stop(self.api_error(request, 403, "token_wrong", lang))
        try:
            find_rules(stored.game)
        except SessionFileError as error:
            raise Stop(JSONResponse({"errors": [file_error_json(error, lang)]}, status_code=409)) from None
        if action is not None:
            seats_now = await run_in_threadpool(seats.seat_map, self.db, stored.id)
            reason = refusal(actor, action, seats_now)
            if reason is not None:
                raise Stop(self.forbidden(request, reason, lang))
        return ApiVisit(stored, actor, lang, token)

    async def api_session(self, request: Request) -> sessions.StoredSession:
        """The session the API request names, once its asker may read it."""
        return (await self.api_visit(request)).stored

    def api_organiser(self, request: Request) -> None:
        token = bearer(request.headers.get("authorization"))
        if token is None:
            raise Stop(self.api_error(request, 401, "token_missing"))
        if not self.is_organiser(token):
            raise Stop(self.forbidden(request, "organiser_only"))

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
        chosen = request.query_params.get("lang")
        html = self.templates.get_template(name).render(
            lang=lang, t=t, tn=tn, languages=LANGUAGES, switch=switch,
            lang_query=urlencode({"lang": chosen}) if chosen in LANGUAGES else "",
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

    def credential(self, request: Request, stored: sessions.StoredSession) -> str | None:
        """The cookie that opens ``stored`` to this visitor (the organiser's, the join link's, a seat's key); the
        one its forms' CSRF tokens are made from."""
        organiser = request.cookies.get(ORGANISER_COOKIE)
        if self.is_organiser(organiser):
            return organiser
        own = request.cookies.get(SESSION_COOKIE)
        if matches(own, stored.token_hash):
            return own
        device = request.cookies.get(DEVICE_COOKIE)
        if seats.holder_of(self.db, stored.id, device) is not None:
            return device
        return None

    async def page_session(self, request: Request, read_only: bool = False) -> tuple[sessions.StoredSession, str | None]:
        """The session a page is about and the visitor's credential (None: read-only key)."""
        try:
            stored = await run_in_threadpool(sessions.get_session, self.db, request.path_params["id"])
        except sessions.UnknownSession:
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

    async def visit(self, request: Request, *, read: bool = True) -> Visit:
        """A visit to the session a page is about, by this browser (its cookies).

        ``read``: the page shows the session, so the visitor must be allowed to
        read it; a phone that joined and holds no seat yet is sent to the table
        page, which then offers the seats.
        """
        stored, credential = await self.page_session(request)
        device = request.cookies.get(DEVICE_COOKIE)
        seats_now = await run_in_threadpool(seats.seat_map, self.db, stored.id)
        visit = Visit(site=self, request=request, stored=stored, credential=credential,
                      actor=self.actor(request, stored, device), lang=self.lang(request, stored.lang),
                      seats=seats_now, device=device)
        if read and not visit.may(Action.READ):
            raise Stop(self.redirect(request, f"/s/{stored.id}"))
        return visit

    async def readable(self, request: Request) -> sessions.StoredSession:
        """The session a result page or file is about, for a visitor who may read it or holds its read-only key."""
        stored, credential = await self.page_session(request, read_only=True)
        if credential is None or self.keys.read_key_ok(stored.id, request.query_params.get("k")):
            return stored
        return (await self.visit(request)).stored

    def keep_device(self, visit: Visit) -> Visit:
        """``visit`` by a browser that has a device key for the session: its own, or a new one."""
        device, fresh = device_token(visit.request)
        return visit._replace(device=device, fresh=fresh, actor=self.actor(visit.request, visit.stored, device))

    async def form_fields(self, request: Request) -> dict[str, str]:
        """A posted form's fields, once it is known to come from this server's pages (its CSRF token is the
        caller's to check: :meth:`form`)."""
        data = await self.body(request)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise Stop(self.message(request, 400, "form_unreadable")) from None
        try:
            pairs = parse_qsl(text, keep_blank_values=True, max_num_fields=MAX_FIELDS, strict_parsing=False)
        except ValueError:
            raise Stop(self.message(request, 413, "form_too_many", limit=MAX_FIELDS)) from None
        try:
            # Names in composed form (NFC), as every session file is read: one name, one string.
            fields = composed(dict(pairs))
        except SessionFileError:
            raise Stop(self.message(request, 400, "form_unreadable")) from None
        origin = request.headers.get("origin")
        if origin and origin != "null" and origin.rstrip("/") not in self.origins(request):
            raise Stop(self.message(request, 403, "bad_form"))
        return fields

    async def form(self, request: Request, credential: str | None) -> dict[str, str]:
        """A posted form's fields, once its CSRF token matches the visitor's credential."""
        fields = await self.form_fields(request)
        if not self.keys.csrf_ok(credential, fields.get("csrf")):
            raise Stop(self.message(request, 403, "bad_form"))
        return fields

    def origins(self, request: Request) -> set[str]:
        found = {str(request.base_url).rstrip("/")}
        if self.public_url:
            found.add(self.public_url)
        return found

    def actor(self, request: Request, stored: sessions.StoredSession, device: str | None) -> Actor:
        """Who a page's visitor is: the organiser (their cookie), else a phone with its seat key and join link."""
        if self.is_organiser(request.cookies.get(ORGANISER_COOKIE)):
            return ORGANISER
        return Actor(holder=token_hash(device) if device else None,
                     joined=matches(request.cookies.get(SESSION_COOKIE), stored.token_hash))

    def redirect(self, request: Request, path: str, query: dict | None = None) -> RedirectResponse:
        """A 303 to ``path`` on this server that keeps the language the visitor chose in the address (``lang``)."""
        query = dict(query or {})
        chosen = request.query_params.get("lang")
        if chosen in LANGUAGES and "lang" not in query:
            query["lang"] = chosen
        response = RedirectResponse(f"{path}?{urlencode(query)}" if query else path, status_code=303)
        if chosen in LANGUAGES:
            response.set_cookie(LANG_COOKIE, chosen, max_age=365 * 86400, samesite="lax")
        return response

    async def not_found(self, request: Request, exc: Exception) -> Response:
        """An address nothing answers: JSON under ``/api/``, a page elsewhere."""
        if request.url.path.startswith("/api/"):
            return self.api_error(request, 404, "not_found")
        return self.message(request, 404, "not_found")

    async def method_not_allowed(self, request: Request, exc: Exception) -> Response:
        if request.url.path.startswith("/api/"):
            return self.api_error(request, 405, "method_not_allowed")
        return self.message(request, 405, "not_found")

    # -- links ---------------------------------------------------------------

    def join_link(self, request: Request, session_id: str, token: str) -> str:
        return f"{self.base(request)}/s/{session_id}/join?{urlencode({'t': token})}"

    def handover_link(self, request: Request, session_id: str, token: str) -> str:
        """The link that moves a seat to the phone that opens it (made by the organiser, used once)."""
        return f"{self.base(request)}/s/{session_id}/handover?{urlencode({'h': token})}"

    def query(self, request: Request, **params: object) -> str:
        """A query string of ``params`` that keeps the language chosen in this page's address."""
        chosen = request.query_params.get("lang")
        if chosen in LANGUAGES:
            params.setdefault("lang", chosen)
        return urlencode({key: value for key, value in params.items() if value is not None})

    def result_link(self, request: Request, session_id: str) -> str:
        return f"{self.base(request)}/s/{session_id}/result?{urlencode({'k': self.keys.read_key(session_id)})}"


View = Callable[[Site, Request], Awaitable[Response]]


def endpoint(site: Site, view: View) -> Callable[[Request], Awaitable[Response]]:
    """``view`` as a Starlette endpoint: a :class:`Stop` is its refusal; a database that fails is 503."""

    async def answer(request: Request) -> Response:
        try:
            return await view(site, request)
        except Stop as stop:
            return stop.response
        except DatabaseError as error:
            if request.url.path.startswith("/api/"):
                return JSONResponse({"errors": [{"code": "database", "message": str(error)}]}, status_code=503)
            return site.message(request, 503, "database", detail=str(error))

    answer.__name__ = view.__name__
    return answer


# -- who is asking, from a phone ------------------------------------------------


def device_token(request: Request) -> tuple[str, bool]:
    """This browser's device key for the session (a cookie), and whether it is new (to be set)."""
    given = request.cookies.get(DEVICE_COOKIE)
    if given and 16 <= len(given) <= 100:
        return given, False
    return new_token(), True


def join_cookie(response: Response, session_id: str, token: str) -> None:
    """Leave the session's join token in a cookie for that session's pages only."""
    response.set_cookie(SESSION_COOKIE, token, path=f"/s/{session_id}", httponly=True, samesite="lax",
                        max_age=7 * 86400)


def with_device(response: Response, session_id: str, device: str | None, fresh: bool) -> Response:
    """``response``, leaving a new device key (``fresh``, from :func:`device_token`) in this session's cookie."""
    if fresh:
        response.set_cookie(DEVICE_COOKIE, device, path=f"/s/{session_id}", httponly=True, samesite="lax",
                            max_age=30 * 86400)
    return response


def parse_number(text: str | None) -> int | None:
    """A day or round number (or a change's) from a form or a query: ASCII digits, at most nine of them."""
    if text is None or not (1 <= len(text) <= 9) or not all("0" <= c <= "9" for c in text):
        return None
    return int(text)


_BEFORE_MARK = re.compile(r"(?<=\S) ([?!:;»])")


def french_spaces(html: str) -> str:
    """French pages: the space before ? ! : ; » and after « does not break (a "?" never starts a line).

    The pages' markup has no such space of its own (their style and script are files), so the
    whole page can be treated.

    >>> french_spaces("Qui saisit ? « Jour 1 » : fini")
    'Qui saisit\xa0? «\xa0Jour 1\xa0»\xa0: fini'
    """
    return _BEFORE_MARK.sub("\u00a0\\1", html).replace("« ", "«\u00a0")
