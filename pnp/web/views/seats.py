"""Seats: a phone takes a player's seat (and says once that it is theirs), gives it back; the organiser frees or moves one.

As pages and as JSON.  A seat taken through the API returns its own token,
the seat's key: with it a script reads the session and writes that player's
parts, and nothing else.  Who may do which is :mod:`pnp.web.permissions`.
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from pnp.web import qr, seats, sessions
from pnp.web.auth import bearer, new_token
from pnp.web.base import Site, Stop, Visit, device_token, join_cookie, with_device
from pnp.web.permissions import Forbidden
from pnp.web.summary import summary
from pnp.web.words import notice_json, web

# -- the API -------------------------------------------------------------------------


def _seats_json(found: list[seats.Seat], holder: str | None) -> dict:
    return {"seats": [{"player": seat.player, "taken": seat.holder is not None, "taken_at": seat.taken_at,
                       "yours": holder is not None and seat.holder == holder} for seat in found]}


def _seats_etag(found: list[seats.Seat]) -> str:
    return f'"{seats.seats_version(found)}"'


async def api_seats(site: Site, request: Request) -> Response:
    """``GET /api/sessions/ID/seats``: every player's seat, taken or free, and which are the asker's."""
    visit = await site.api_visit(request, action=None)  # the join link may see which seats are free
    found = await run_in_threadpool(seats.seats_of, site.db, visit.stored.id)
    return JSONResponse(_seats_json(found, visit.actor.holder),
                        headers={"ETag": _seats_etag(found), "Cache-Control": "no-store"})


async def api_take_seat(site: Site, request: Request) -> Response:
    """``POST /api/sessions/ID/seats`` ``{"player"}``: take a free seat (join link or a seat's key), or the seat a
    handover token names; 201 and the seat's key, ``{"player", "token"}``."""
    token = bearer(request.headers.get("authorization"))
    session_id = request.path_params["id"]
    handed = await run_in_threadpool(seats.handover_for, site.db, session_id, token) if token else None
    if handed is not None:
        key = new_token()
        player = await run_in_threadpool(seats.take_handed, site.db, session_id, token, key=key)
        return JSONResponse({"player": player, "token": key}, status_code=201)
    visit = await site.api_visit(request, action=None)
    body = await site.json_body(request, visit.lang)
    player = body.get("player") if isinstance(body, dict) else None
    key = token if visit.actor.holder is not None else new_token()
    try:
        player = await run_in_threadpool(seats.take, site.db, visit.stored.id, player, actor=visit.actor, key=key)
    except seats.NoSuchSeat:
        return site.api_error(request, 404, "no_such_seat", visit.lang, players=", ".join(visit.stored.players))
    except Forbidden as refusal:
        return site.forbidden(request, refusal.reason, visit.lang)
    return JSONResponse({"player": player, "token": key}, status_code=201)


async def api_give_back(site: Site, request: Request) -> Response:
    """``DELETE /api/sessions/ID/seats/NAME``: the seat is free again (its holder, or the organiser); needs If-Match."""
    visit = await site.api_visit(request, action=None)
    found = await run_in_threadpool(seats.seats_of, site.db, visit.stored.id)
    given = request.headers.get("if-match")
    if given is None:
        return JSONResponse({"errors": [notice_json("version_required", visit.lang)],
                             **_seats_json(found, visit.actor.holder)},
                            status_code=428, headers={"ETag": _seats_etag(found)})
    if _seats_etag(found) not in [tag.strip() for tag in given.split(",")] and given.strip() != "*":
        return JSONResponse({"errors": [notice_json("stale_seats", visit.lang)], **_seats_json(found, visit.actor.holder)},
                            status_code=412, headers={"ETag": _seats_etag(found)})
    try:
        await run_in_threadpool(seats.give_back, site.db, visit.stored.id, request.path_params["player"],
                                actor=visit.actor)
    except seats.NoSuchSeat:
        return site.api_error(request, 404, "no_such_seat", visit.lang, players=", ".join(visit.stored.players))
    except Forbidden as refusal:
        return site.forbidden(request, refusal.reason, visit.lang)
    found = await run_in_threadpool(seats.seats_of, site.db, visit.stored.id)
    return JSONResponse(_seats_json(found, visit.actor.holder), headers={"ETag": _seats_etag(found)})


async def api_handover(site: Site, request: Request) -> Response:
    """``POST /api/sessions/ID/seats/NAME/handover`` (organiser): a link that moves the seat to whoever opens it."""
    visit = await site.api_visit(request, action=None)
    player = request.path_params["player"]
    try:
        token = await run_in_threadpool(seats.make_handover, site.db, visit.stored.id, player, actor=visit.actor)
    except seats.NoSuchSeat:
        return site.api_error(request, 404, "no_such_seat", visit.lang, players=", ".join(visit.stored.players))
    except Forbidden as refusal:
        return site.forbidden(request, refusal.reason, visit.lang)
    return JSONResponse({"player": player, "token": token, "url": site.handover_link(request, visit.stored.id, token)},
                        status_code=201)


# -- the pages --------------------------------------------------------------------------


def picker(visit: Visit) -> Response:
    """The seats of a session for a phone that joined and holds none: which are free, which are taken."""
    words = web(visit.lang)
    found = [{"player": name, "taken": name in visit.seats,
              "href": f"/s/{visit.stored.id}/seat?{visit.site.query(visit.request, player=name)}"}
             for name in visit.stored.players]
    freed = visit.request.query_params.get("freed")
    flash = words.get("web.seats.freed", player=freed) if freed in visit.stored.players else None
    return visit.site.page(visit.request, "seats.html", visit.lang, view=summary(visit.stored, visit.lang),
                           seats=found, title=words.get("web.seats.pick_title"), flash=flash)


async def seats_page(site: Site, request: Request) -> Response:
    """``GET /s/ID/seats``: the seats to take, for a phone that joined (one passed between players takes more)."""
    visit = await site.visit(request, read=False)
    if not (visit.actor.joined or visit.held):
        return site.message(request, 401, "join_first", visit.lang)
    return picker(visit)


async def take_page(site: Site, request: Request) -> Response:
    """``GET /s/ID/seat?player=NAME``: whose seat it is, and one button to confirm taking it."""
    visit = await site.visit(request, read=False)
    player = request.query_params.get("player")
    if player not in visit.stored.players:
        return site.message(request, 404, "no_such_seat", visit.lang)
    taken = player in visit.seats and player not in visit.held
    status = 409 if taken else 200
    return site.page(request, "seat_take.html", visit.lang, status, view=summary(visit.stored, visit.lang),
                     player=player, taken=taken, held=visit.held, csrf=site.keys.csrf(visit.credential),
                     organiser=visit.actor.organiser)


async def take_post(site: Site, request: Request) -> Response:
    """The seat confirmed: this phone's key holds it from now on."""
    visit = site.keep_device(await site.visit(request, read=False))
    fields = await site.form(request, visit.credential)
    try:
        player = await run_in_threadpool(seats.take, site.db, visit.stored.id, fields.get("player"),
                                         actor=visit.actor, key=visit.device)
    except seats.NoSuchSeat:
        return site.message(request, 404, "no_such_seat", visit.lang)
    except Forbidden as refusal:
        return site.message(request, 403, f"refusal_{refusal.reason}", visit.lang, player=refusal.player or "")
    response = site.redirect(request, f"/s/{visit.stored.id}", {"seated": player})
    return with_device(response, visit.stored.id, visit.device, visit.fresh)


async def give_back_post(site: Site, request: Request) -> Response:
    """A phone gives its seat back, or the organiser frees one: it is free for another phone to take."""
    visit = await site.visit(request, read=False)
    fields = await site.form(request, visit.credential)
    try:
        player = await run_in_threadpool(seats.give_back, site.db, visit.stored.id, fields.get("player"),
                                         actor=visit.actor)
    except seats.NoSuchSeat:
        return site.message(request, 404, "no_such_seat", visit.lang)
    except Forbidden as refusal:
        return site.message(request, 403, f"refusal_{refusal.reason}", visit.lang, player=fields.get("player", ""))
    return site.redirect(request, f"/s/{visit.stored.id}", {"freed": player})


async def move_page(site: Site, request: Request) -> Response:
    """The organiser moves a seat: a QR code and a link that give it to whichever phone opens them, once."""
    visit = await site.visit(request)
    player = request.query_params.get("player")
    if player not in visit.stored.players:
        return site.message(request, 404, "no_such_seat", visit.lang)
    try:
        token = await run_in_threadpool(seats.make_handover, site.db, visit.stored.id, player, actor=visit.actor)
    except Forbidden as refusal:
        return site.message(request, 403, f"refusal_{refusal.reason}", visit.lang, player=player)
    link = site.handover_link(request, visit.stored.id, token)
    words = web(visit.lang)
    return site.page(request, "seat_move.html", visit.lang, view=summary(visit.stored, visit.lang), player=player,
                     link=link, link_qr=qr.svg(link, words.get("web.seats.move_qr", player=player)))


async def handover_page(site: Site, request: Request) -> Response:
    """``GET /s/ID/handover?h=TOKEN``: the seat a handover link moves, and one button to take it on this phone."""
    stored = await _session(site, request)
    lang = site.lang(request, stored.lang)
    token = request.query_params.get("h")
    player = await run_in_threadpool(seats.handover_for, site.db, stored.id, token)
    if player is None:
        return site.message(request, 403, "refusal_handover_used", lang, player="")
    return site.page(request, "seat_take.html", lang, view=summary(stored, lang), player=player, taken=False,
                     held=[], csrf=site.keys.csrf(token), organiser=False, handover=token)


async def handover_post(site: Site, request: Request) -> Response:
    """The handover confirmed: the seat moves to this phone, which also joins the table."""
    stored = await _session(site, request)
    lang = site.lang(request, stored.lang)
    data = await site.form_fields(request)
    token = data.get("h")
    if not site.keys.csrf_ok(token, data.get("csrf")):
        return site.message(request, 403, "bad_form", lang)
    device, fresh = device_token(request)
    try:
        player = await run_in_threadpool(seats.take_handed, site.db, stored.id, token, key=device)
    except Forbidden:
        return site.message(request, 403, "refusal_handover_used", lang, player="")
    response = site.redirect(request, f"/s/{stored.id}", {"seated": player})
    join_cookie(response, stored.id, site.keys.session_token(stored.id))
    return with_device(response, stored.id, device, fresh)


async def _session(site: Site, request: Request) -> sessions.StoredSession:
    try:
        return await run_in_threadpool(sessions.get_session, site.db, request.path_params["id"])
    except sessions.UnknownSession:
        raise Stop(site.message(request, 404, "unknown_session")) from None

