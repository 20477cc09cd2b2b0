"""The JSON API of sessions and their days or rounds: start, show, read, write whole, send in parts.

A day or round carries its version as an HTTP ``ETag`` (the stored state and
the language its messages are in).  Every write names the version it was made
against in ``If-Match``: without it, 428 (RFC 6585); if what it changes was
changed since, 412 and the state as it is now (RFC 9110), so a phone never
overwrites what another one changed meanwhile.  Another player's part sent
meanwhile does not make a write stale.
"""

from __future__ import annotations


from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from scoring import FileError, SessionFileError, Value, game_ids

from pnp.core.records import NamedTuple
from pnp.web import entry, round_store, rounds, sessions
from pnp.web.base import ApiVisit, Site, Stop
from pnp.web.permissions import Forbidden
from pnp.web.words import choose, field_labels, file_error_json, notice_json, problem_json, round_name


async def healthz(site: Site, request: Request) -> Response:
    return JSONResponse({"ok": True})


async def api_create(site: Site, request: Request) -> Response:
    """``POST /api/sessions``: a new session from the organiser, its id, token and join link."""
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
        document = sessions.start_document(body["game"], body.get("players"), body.get("lang"), extra)
        stored = await run_in_threadpool(sessions.create_session, site.db, document, site.session_token_hash)
    except SessionFileError as error:
        return JSONResponse({"errors": [file_error_json(error, lang)]}, status_code=422)
    except entry.Refused as refusal:
        return site.refused(refusal.problems, lang, body["game"] if isinstance(body["game"], str) else None)
    token = site.keys.session_token(stored.id)
    return JSONResponse({"id": stored.id, "token": token, "url": site.join_link(request, stored.id, token)},
                        status_code=201, headers={"Location": f"/api/sessions/{stored.id}"})


async def api_show(site: Site, request: Request) -> Response:
    stored = await site.api_session(request)
    # Scored again from the document: exactly what `pnp score check --json` says of it.
    result = sessions.scored(stored.document).result
    return JSONResponse(result, headers={"Cache-Control": "no-store"})


# -- one day or round --------------------------------------------------------------


async def api_round(site: Site, request: Request) -> Response:
    stored = await site.api_session(request)
    lang = site.lang(request, stored.lang)
    view = await _round_view(site, request, stored, lang)
    etag = _round_etag(view, lang)
    if etag in [tag.strip() for tag in request.headers.get("if-none-match", "").split(",")]:
        return Response(status_code=304, headers={"ETag": etag})
    return JSONResponse(_status_json(view, lang), headers={"ETag": etag, "Cache-Control": "no-store"})


async def api_put_round(site: Site, request: Request) -> Response:
    """``PUT``: the day or round whole, a new one or a correction; the session is checked again with it."""
    write = await _write(site, request)
    stored, lang, view = write.visit.stored, write.visit.lang, write.view
    try:
        saved = await run_in_threadpool(round_store.put_round, site.db, stored.id, view.state.number, write.body,
                                        actor=write.visit.actor, version=round_store.Version(if_match=write.if_match))
    except entry.Refused as refusal:
        return site.refused(refusal.problems, lang, stored.game, field_labels(view.state.form))
    except round_store.OutOfTurn as error:
        return site.out_of_turn(request, error, stored, lang)
    except Forbidden as refusal:
        return site.forbidden(request, refusal.reason, lang)
    except round_store.Stale:
        return await _answer(site, request, stored, lang, status=412, errors=[notice_json("stale", lang)])
    return JSONResponse(saved.stored.result, headers={"ETag": _round_etag(saved, lang)})


async def api_patch_round(site: Site, request: Request) -> Response:
    """``PATCH``: some players' parts or the round's own answers, kept until the day is whole."""
    write = await _write(site, request)
    stored, lang, view = write.visit.stored, write.visit.lang, write.view
    try:
        done = await run_in_threadpool(round_store.send, site.db, stored.id, view.state.number, write.body,
                                       actor=write.visit.actor, version=round_store.Version(if_match=write.if_match))
    except entry.Refused as refusal:
        labels = field_labels(view.state.form, view.state.start())
        return site.refused(refusal.problems, lang, stored.game, labels)
    except round_store.OutOfTurn as error:
        return site.out_of_turn(request, error, stored, lang)
    except round_store.Closed as error:
        return site.closed(request, error, stored, lang)
    except Forbidden as refusal:
        return site.forbidden(request, refusal.reason, lang)
    except round_store.Stale:
        return await _answer(site, request, stored, lang, status=412, errors=[notice_json("stale", lang)])
    # The day as this change left it: another phone's part a moment later is its own answer's.
    return JSONResponse(_status_json(done, lang), headers={"ETag": _round_etag(done, lang)})


class _Write(NamedTuple):
    """What a write to a day or round starts from: who asks about which session, the round as stored, the
    versions ``If-Match`` names, and the body."""

    visit: ApiVisit
    view: round_store.RoundView
    if_match: frozenset[str]
    body: object


async def _write(site: Site, request: Request) -> _Write:
    """A write's starting point; 428 (RFC 6585) without ``If-Match``: a write is refused, not guessed."""
    visit = await site.api_visit(request)
    view = await _round_view(site, request, visit.stored, visit.lang)
    if_match = _if_match(request, visit.lang)
    if if_match is None:
        raise Stop(await _answer(site, request, visit.stored, visit.lang, status=428,
                                 errors=[notice_json("version_required", visit.lang)]))
    return _Write(visit, view, if_match, await site.json_body(request, visit.lang))


def _round_etag(view: round_store.RoundView, lang: str) -> str:
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


async def _round_view(site: Site, request: Request, stored: sessions.StoredSession, lang: str) -> round_store.RoundView:
    """The day or round the address names; 404 naming it for a number the game does not have (however long)."""
    text = request.path_params["number"]
    number = int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None
    try:
        if number is None:
            raise rounds.UnknownRound(0, rounds.rounds_in_game(stored.game))
        return await run_in_threadpool(round_store.round_view, site.db, stored.id, number)
    except rounds.UnknownRound as unknown:
        where = round_name(stored.game, lang, text if number is None else number)
        raise Stop(site.api_error(request, 404, "unknown_round", lang, where=where, highest=unknown.highest)) from None


async def _answer(site: Site, request: Request, stored: sessions.StoredSession, lang: str, *, status: int = 200,
                  errors: list | None = None) -> JSONResponse:
    """The round's state as it is now, with its ETag (and the errors of a refused change)."""
    view = await _round_view(site, request, stored, lang)
    content = _status_json(view, lang)
    if errors is not None:
        content = {"errors": errors, "current": content}
    return JSONResponse(content, status_code=status,
                        headers={"ETag": _round_etag(view, lang), "Cache-Control": "no-store"})


def _status_json(view: round_store.RoundView, lang: str) -> dict:
    status, stored = view.status, view.stored
    labels = field_labels(view.state.form, view.state.start())
    return {"number": status.number, "committed": status.committed, "entered": list(status.entered),
            "missing": list(status.missing), "round": status.round, "unanswered": list(status.unanswered),
            "parts": status.parts, "corrections": status.corrections,
            "problems": [problem_json(p, lang, stored.game, labels) for p in status.problems],
            "session": stored.result}
