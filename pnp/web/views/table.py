"""The table's page: scores so far, the day being entered, the seats, and its live part that phones poll.

A phone that joined and holds no seat sees the seats instead (take yours); the
organiser sees who holds each seat, frees or moves one, and the join code.
"""

from __future__ import annotations

import hashlib
import json

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from pnp.web import changes, entry, qr, round_store, rounds, seats
from pnp.web.base import Site, Visit, parse_number, with_device
from pnp.web.permissions import Action
from pnp.web.summary import summary
from pnp.web.views.changes import describe, offered
from pnp.web.views.seats import picker
from pnp.web.words import clock, field_labels, problem_text, round_name, web


async def table(site: Site, request: Request) -> Response:
    visit = site.keep_device(await site.visit(request, read=False))
    stored, lang = visit.stored, visit.lang
    if not visit.may(Action.READ):
        if not visit.actor.joined:
            return site.message(request, 401, "join_first", lang)
        return with_device(picker(visit), stored.id, visit.device, visit.fresh)
    context = await _table_context(visit)
    join_link = None
    if stored.token_hash is not None and visit.may(Action.SHOW_JOIN):  # an imported session is never joined
        join_link = site.join_link(request, stored.id, site.keys.session_token(stored.id))
    response = site.page(request, "table.html", lang, join_link=join_link, flash=_flash(visit),
                         join_qr=qr.svg(join_link, web(lang).get("web.table.join_qr")) if join_link else None,
                         **context)
    return with_device(response, stored.id, visit.device, visit.fresh)


async def live(site: Site, request: Request) -> Response:
    """The scores part of the table page, polled by phones; 304 while its ETag is unchanged."""
    visit = await site.visit(request, read=False)
    if not visit.may(Action.READ):
        return Response(status_code=403)
    context = await _table_context(visit, unless=request.headers.get("if-none-match"))
    if request.headers.get("if-none-match") == context["etag"]:
        return Response(status_code=304, headers={"ETag": context["etag"]})
    response = site.page(request, "_scores.html", visit.lang, **context)
    response.headers["ETag"] = context["etag"]
    return response


def _flash(visit: Visit) -> str | None:
    """What the table page says after a part was sent (``sent``), a day corrected (``fixed``), a seat taken or freed."""
    request, stored, lang = visit.request, visit.stored, visit.lang
    words = web(lang)
    for kind in ("seated", "freed"):
        player = request.query_params.get(kind)
        if player in stored.players:
            return words.get(f"web.seats.{kind}", player=player)
    entered = rounds.rounds_entered(stored.document, stored.complete)
    for kind in ("sent", "fixed"):
        number = parse_number(request.query_params.get(kind))
        if number is None or number > rounds.rounds_in_game(stored.game):
            continue
        name = (words.get("web.enter.team") if rounds.rounds_key(stored.game) is None
                else round_name(stored.game, lang, number))
        if kind == "sent":
            return words.get("web.enter.committed" if number <= entered else "web.enter.sent", round=name)
        waiting = round_store.round_status(visit.site.db, stored.id, number).corrections if number <= entered else {}
        return words.get("web.correct.waiting" if waiting else "web.correct.applied", round=name)
    return None


async def _table_context(visit: Visit, *, unless: str | None = None) -> dict:
    """What the table page shows, and its ETag; only the ETag when it is ``unless`` (nothing changed).

    Phones and the table's screen ask every few seconds: the ETag comes from what is
    stored, before anything is read further or scored. Every change of a session is a row
    of its history, so the newest row's id, with the seats and who asks, says whether
    anything shown can differ.
    """
    site, stored, lang, credential = visit.site, visit.stored, visit.lang, visit.credential
    newest = await run_in_threadpool(changes.newest_id, site.db, stored.id)
    state = [newest, stored.updated_at, lang, sorted(visit.seats.items()), visit.actor.holder,
             credential is not None]
    etag = '"' + hashlib.sha256(json.dumps(state).encode()).hexdigest()[:16] + '"'
    if etag == unless:
        return {"etag": etag}
    entered = rounds.rounds_entered(stored.document, stored.complete)
    current_view = None
    if not stored.complete:
        current_view = await run_in_threadpool(round_store.round_view, site.db, stored.id, entered + 1)
    numbers, problems = await run_in_threadpool(round_store.corrections_waiting, site.db, stored.id)
    undo, redo = await offered(visit) if credential is not None else (None, None)
    current, labels = None, {}
    if current_view is not None:
        current = current_view.status
        labels = field_labels(current_view.state.form, current_view.state.start())
    seated = await run_in_threadpool(seats.seats_of, site.db, stored.id) if visit.actor.organiser else [
        seats.Seat(name, visit.seats.get(name), None) for name in stored.players]
    view = summary(stored, lang)
    single = rounds.rounds_key(stored.game) is None
    done = [{"number": n, "label": web(lang).get("web.enter.team") if single else round_name(stored.game, lang, n),
             "correcting": n in numbers} for n in range(1, entered + 1)]
    return {"view": view, "current": current,
            "current_label": round_name(stored.game, lang, entered + 1),
            "entries": _entries(visit, current) if current is not None else [],
            "table_row": _table_row(visit, current) if current is not None else None,
            "announce": _announce(visit, view, current),
            "problems": [problem_text(p, lang, stored.game, labels) for p in current.problems] if current else [],
            "done": done, "correcting": [problem_text(p, lang, stored.game) for p in problems],
            "undo": describe(undo, stored, lang) if undo is not None else None,
            "redo": describe(redo, stored, lang) if redo is not None else None,
            "seats": _seats(visit, seated), "organiser": visit.actor.organiser, "held": visit.held,
            "csrf": site.keys.csrf(credential) if credential else "", "etag": etag}


def _entries(visit: Visit, current: round_store.RoundStatus) -> list[dict]:
    """Each player of the day being entered: whether their part is in, and a link if this visitor writes it."""
    found = []
    for player in visit.stored.players:
        if player not in current.entered and player not in current.missing:
            continue
        writes = visit.may(Action.WRITE, keys=[player])
        found.append({"name": player, "entered": player in current.entered, "mine": player in visit.held,
                      "href": f"/s/{visit.stored.id}/enter?{visit.site.query(visit.request, player=player)}"
                      if writes else None})
    return found


def _table_row(visit: Visit, current: round_store.RoundStatus) -> dict | None:
    """The day's own answers (who plays blue, a team's result), when there are any to give."""
    if not (current.unanswered or not current.entered and not current.missing):
        return None
    writes = visit.may(Action.WRITE, keys=[entry.ROUND_KEY])
    return {"open": bool(current.unanswered),
            "href": f"/s/{visit.stored.id}/enter?{visit.site.query(visit.request)}".rstrip("?") if writes else None}


def _announce(visit: Visit, view: dict, current: round_store.RoundStatus | None) -> str:
    """One sentence a screen reader says when the table changes: how far the session is, who has entered."""
    words = web(visit.lang)
    if view["complete"]:
        return words.get("web.table.finished") + ". " + view["headline"]
    said = view["progress"] if not view["single_outcome"] else words.get("web.table.outcome_waiting")
    if current is not None and current.entered:
        said += ". " + words.get("web.table.announce_entered", names=", ".join(current.entered))
    return said + "."


def _seats(visit: Visit, seated: list[seats.Seat]) -> list[dict]:
    """The seats as the organiser sees them (who holds each, since when); this phone's own for a player."""
    shown = []
    for seat in seated:
        mine = seat.holder is not None and seat.holder == visit.actor.holder
        if not (visit.actor.organiser or mine):
            continue
        shown.append({"player": seat.player, "taken": seat.holder is not None, "mine": mine,
                      "since": clock(seat.taken_at) if seat.taken_at else None,
                      "move": f"/s/{visit.stored.id}/seat/move?{visit.site.query(visit.request, player=seat.player)}"})
    return shown
