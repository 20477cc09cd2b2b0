"""The table's page: scores so far, the day being entered, the join code, and its live part that phones poll."""

from __future__ import annotations

import hashlib
import json

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from pnp.web import qr, round_store, rounds, sessions
from pnp.web.base import Site, Visit, parse_number, with_device
from pnp.web.summary import summary
from pnp.web.views.changes import describe, undoable
from pnp.web.words import field_labels, problem_text, round_name, web


async def table(site: Site, request: Request) -> Response:
    visit = site.keep_device(await site.visit(request))
    stored, lang = visit.stored, visit.lang
    context = await _table_context(visit)
    join_link = None
    if stored.token_hash is not None:  # an imported session is never joined
        join_link = site.join_link(request, stored.id, site.keys.session_token(stored.id))
    response = site.page(request, "table.html", lang, join_link=join_link, flash=_flash(site, request, stored, lang),
                         join_qr=qr.svg(join_link, web(lang).get("web.table.join_qr")) if join_link else None,
                         **context)
    return with_device(response, stored.id, visit.device, visit.fresh)


async def live(site: Site, request: Request) -> Response:
    """The scores part of the table page, polled by phones; 304 while its ETag is unchanged."""
    visit = await site.visit(request)
    context = await _table_context(visit, unless=request.headers.get("if-none-match"))
    if request.headers.get("if-none-match") == context["etag"]:
        return Response(status_code=304, headers={"ETag": context["etag"]})
    response = site.page(request, "_scores.html", visit.lang, **context)
    response.headers["ETag"] = context["etag"]
    return response


def _flash(site: Site, request: Request, stored: sessions.StoredSession, lang: str) -> str | None:
    """What the table page says after a part was sent (``sent``) or a day corrected (``fixed``)."""
    words = web(lang)
    entered = rounds.rounds_entered(stored.document, stored.complete)
    for kind in ("sent", "fixed"):
        number = parse_number(request.query_params.get(kind))
        if number is None or number > rounds.rounds_in_game(stored.game):
            continue
        name = (words.get("web.enter.team") if rounds.rounds_key(stored.game) is None
                else round_name(stored.game, lang, number))
        if kind == "sent":
            return words.get("web.enter.committed" if number <= entered else "web.enter.sent", round=name)
        waiting = round_store.round_status(site.db, stored.id, number).corrections if number <= entered else {}
        return words.get("web.correct.waiting" if waiting else "web.correct.applied", round=name)
    return None


async def _table_context(visit: Visit, *, unless: str | None = None) -> dict:
    """What the table page shows, and its ETag; only the ETag when it is ``unless`` (nothing changed).

    Phones and the table's screen ask every few seconds: the ETag comes from what is
    stored (the session's last change, what waits beside it), before anything is scored.
    """
    site, stored, lang, credential = visit.site, visit.stored, visit.lang, visit.credential
    entered = rounds.rounds_entered(stored.document, stored.complete)
    current_view = None
    if not stored.complete:
        current_view = await run_in_threadpool(round_store.round_view, site.db, stored.id, entered + 1)
    numbers, problems = await run_in_threadpool(round_store.corrections_waiting, site.db, stored.id)
    undo = await undoable(site, stored, visit.actor) if credential is not None else None
    state = [stored.updated_at, current_view and current_view.etag, numbers, undo and undo.id, lang]
    etag = '"' + hashlib.sha256(json.dumps(state).encode()).hexdigest()[:16] + '"'
    if etag == unless:
        return {"etag": etag}
    current, labels = None, {}
    if current_view is not None:
        current = current_view.status
        labels = field_labels(current_view.state.form, current_view.state.start())
    single = rounds.rounds_key(stored.game) is None
    done = [{"number": n, "label": web(lang).get("web.enter.team") if single else round_name(stored.game, lang, n),
             "correcting": n in numbers} for n in range(1, entered + 1)]
    return {"view": summary(stored, lang), "current": current,
            "current_label": round_name(stored.game, lang, entered + 1),
            "problems": [problem_text(p, lang, stored.game, labels) for p in current.problems] if current else [],
            "done": done, "correcting": [problem_text(p, lang, stored.game) for p in problems],
            "undo": describe(undo, stored, lang) if undo is not None else None,
            "csrf": site.keys.csrf(credential) if credential else "", "etag": etag}
