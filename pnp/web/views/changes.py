"""A session's history of changes (who changed what, when, before and after), and undo and redo, as pages and JSON.

An undo or a redo is asked, then confirmed on a page that says what it will
change back; after an undo, the parts it took out can be entered again from the
values undone (the entry form opens filled with them).
"""

from __future__ import annotations

import datetime

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from scoring import PartForm

from pnp.web import changes, entry, rounds, sessions
from pnp.web.base import Site, Visit, parse_number
from pnp.web.permissions import Action, Forbidden
from pnp.web.rounds import UnknownRound, form_before, round_state
from pnp.web.summary import summary
from pnp.web.views.entering import answer_text
from pnp.web.words import game_words, long_date, round_name, web


async def changes_page(site: Site, request: Request) -> Response:
    """Every change of the session, newest first, and the undo or redo this visitor may make now."""
    visit = await site.visit(request)
    stored, lang = visit.stored, visit.lang
    found = await run_in_threadpool(changes.changes, site.db, stored.id)
    undo, redo = _offered(visit, found)
    return site.page(request, "history_changes.html", lang, view=summary(stored, lang),
                     changes=[describe(change, stored, lang) for change in found],
                     undo=_described(undo, stored, lang), redo=_described(redo, stored, lang),
                     csrf=site.keys.csrf(visit.credential), flash=_flash(request, found, visit),
                     again=_enter_again(request, found, visit))


async def confirm_page(site: Site, request: Request) -> Response:
    """``GET /s/ID/undo?change=N`` (or ``/redo``): what taking it back would change back, and one button to do it."""
    visit = await site.visit(request)
    redo = request.url.path.endswith("/redo")
    found = await run_in_threadpool(changes.changes, site.db, visit.stored.id)
    target = changes.last_undo(found) if redo else changes.last_change(found)
    asked = parse_number(request.query_params.get("change"))
    if target is None or target.id != asked:
        return site.redirect(request, f"/s/{visit.stored.id}/history", {"undone": "late"})
    if not changes.may(target, visit.actor, visit.seats):
        return site.message(request, 403, "not_yours", visit.lang)
    # What it would do: the change's own lines, read the other way round.
    preview = describe(target._replace(before=target.after, after=target.before), visit.stored, visit.lang)
    return site.page(request, "undo_confirm.html", visit.lang, view=summary(visit.stored, visit.lang),
                     change=describe(target, visit.stored, visit.lang), preview=preview, redo=redo,
                     csrf=site.keys.csrf(visit.credential))


async def undo_post(site: Site, request: Request) -> Response:
    """An undo (or redo) confirmed: taken back, or a note that it no longer can be."""
    visit = await site.visit(request)
    fields = await site.form(request, visit.credential)
    redo = request.url.path.endswith("/redo")
    change = parse_number(fields.get("change"))
    query = {"undone": "redone" if redo else "done"}
    try:
        if change is None:
            raise changes.NothingToUndo()
        made = await run_in_threadpool(changes.take_back, site.db, visit.stored.id, change, actor=visit.actor,
                                       redo=redo)
        query["change"] = made.id
    except (changes.NothingToUndo, entry.Refused):
        query = {"undone": "late"}
    except Forbidden:
        return site.message(request, 403, "not_yours", visit.lang)
    return site.redirect(request, f"/s/{visit.stored.id}/history", query)


async def api_changes(site: Site, request: Request) -> Response:
    stored = await site.api_session(request)
    found = await run_in_threadpool(changes.changes, site.db, stored.id)
    return JSONResponse(history_json(found), headers={"Cache-Control": "no-store"})


async def api_undo(site: Site, request: Request) -> Response:
    """``POST /api/sessions/ID/undo`` ``{"change"}`` (or ``/redo``, the undo to take back): the session after it."""
    visit = await site.api_visit(request)
    redo = request.url.path.endswith("/redo")
    body = await site.json_body(request, visit.lang)
    change = body.get("change") if isinstance(body, dict) else None
    try:
        if isinstance(change, bool) or not isinstance(change, int):
            raise changes.NothingToUndo()
        made = await run_in_threadpool(changes.take_back, site.db, visit.stored.id, change, actor=visit.actor,
                                       redo=redo)
    except changes.NothingToUndo:
        return site.api_error(request, 409, "not_last_undo" if redo else "not_last", visit.lang)
    except entry.Refused as refusal:
        return site.refused(refusal.problems, visit.lang, visit.stored.game)
    except Forbidden as refusal:
        return site.forbidden(request, refusal.reason, visit.lang)
    stored = await run_in_threadpool(sessions.get_session, site.db, visit.stored.id)
    return JSONResponse(stored.result, headers={"X-Change": str(made.id)})


def history_json(found: list[changes.Change]) -> dict:
    """The history as the API gives it: every change, newest first."""
    return {"changes": [{"id": c.id, "at": c.at, "by": c.actor, "phone_of": list(c.names), "number": c.number,
                         "action": "redo" if c.redo else c.action, "outcome": c.outcome, "before": c.before,
                         "after": c.after, "undoes": c.undoes, "undone_by": c.undone_by} for c in found]}


def _offered(visit: Visit, found: list[changes.Change]) -> tuple[changes.Change | None, changes.Change | None]:
    """The last change and the last undo, each when this visitor may take it back now."""
    undo, redo = changes.last_change(found), changes.last_undo(found)
    allowed = [c if c is not None and changes.may(c, visit.actor, visit.seats) else None for c in (undo, redo)]
    return allowed[0], allowed[1]


async def offered(visit: Visit) -> tuple[changes.Change | None, changes.Change | None]:
    """What the table page offers to take back: see :func:`_offered`."""
    found = await run_in_threadpool(changes.changes, visit.site.db, visit.stored.id)
    return _offered(visit, found)


def describe(change: changes.Change, stored: sessions.StoredSession, lang: str) -> dict:
    """A change as the history page says it: when, who, which day, what it did, each answer before and after."""
    words = game_words(lang, stored.game)
    single = rounds.rounds_key(stored.game) is None
    where = web(lang).get("web.enter.team") if single else round_name(stored.game, lang, change.number)
    form = form_before(stored.document, change.number)
    parts = []
    keys = sorted(set(change.before) | set(change.after),
                  key=lambda key: (key != entry.ROUND_KEY, stored.players.index(key) if key in stored.players else 0))
    for key in keys:
        before, after = change.before.get(key), change.after.get(key)
        lines: list[str] = []
        if form is not None and key == entry.ROUND_KEY:
            lines = _diff(form.round, before, after, words=words, lang=lang)
        elif form is not None and key in form.players:
            round_part = change.after.get(entry.ROUND_KEY) or change.before.get(entry.ROUND_KEY)
            if round_part is None:
                round_part = _round_part_now(stored, change.number)
            start = entry.round_start(form, round_part)
            if start is not None:
                lines = _diff(form.player_form(key, start), before, after, words=words, lang=lang)
        name = web(lang).get("web.changes.whole") if key == "*" else (
            web(lang).get("web.enter.for_table") if key == entry.ROUND_KEY else key)
        if lines or form is None or key == "*":
            parts.append({"name": name, "lines": lines})
    return {"id": change.id, "who": _who(change, lang), "when": _when(change.at, lang), "where": where,
            "what": web(lang).get(f"web.changes.outcome.{'redo' if change.redo else change.action}_{change.outcome}"),
            "parts": parts, "undone": change.undone_by is not None, "undo": change.action == "undo"}


def _diff(question_form: PartForm, before: object, after: object, *, words, lang: str) -> list[str]:
    """What changed between two stored parts, one line per answer: "Prey pile: Wolf 2 → 1"."""
    old = entry.answers_of(question_form, before) if before is not None else None
    new = entry.answers_of(question_form, after) if after is not None else None
    lines = []
    for question in question_form.questions:
        was = old.get(question.id, question.default) if old is not None else None
        now = new.get(question.id, question.default) if new is not None else None
        if was == now or (old is None and now == question.default) or (new is None and was == question.default):
            continue
        if old is None:  # entered for the first time: what it says, not "– → 2"
            lines.append(web(lang).get("web.changes.set", question=words.label(question.label),
                                       after=answer_text(question, now, words, lang)))
            continue
        lines.append(web(lang).get("web.changes.line", question=words.label(question.label),
                                   before=answer_text(question, was, words, lang),
                                   after=answer_text(question, now, words, lang)))
    return lines


def _round_part_now(stored: sessions.StoredSession, number: int) -> dict:
    """The round's own answers as committed (who played blue), to ask a part's questions again."""
    try:
        return round_state(stored.document, stored.complete, {}, number).round_part
    except UnknownRound:
        return {}


def _who(change: changes.Change, lang: str) -> str:
    """Who made a change: the organiser, a phone (and whose seats it held), a script (and whose seat it used)."""
    words = web(lang)
    if change.actor in ("phone", "api") and change.names:
        return words.get(f"web.changes.by_{change.actor}_of", names=", ".join(change.names))
    return words.get(f"web.changes.by_{change.actor}")


def _when(at: str, lang: str) -> str:
    """When a change was made, always with its date: "4 December 2026, 21:05" (the server's clock)."""
    moment = datetime.datetime.fromisoformat(at).astimezone()
    return web(lang).get("web.changes.when", date=long_date(moment.date().isoformat(), lang),
                         time=moment.strftime("%H:%M"))


def _described(change: changes.Change | None, stored: sessions.StoredSession, lang: str) -> dict | None:
    return describe(change, stored, lang) if change is not None else None


def _flash(request: Request, found: list[changes.Change], visit: Visit) -> str | None:
    done = request.query_params.get("undone")
    if done in ("done", "redone", "late"):
        return web(visit.lang).get(f"web.changes.undo_{done}")
    return None


def _enter_again(request: Request, found: list[changes.Change], visit: Visit) -> list[dict]:
    """After an undo: a link per part it took out, to the entry form filled with the values undone."""
    made = parse_number(request.query_params.get("change"))
    undo = next((c for c in found if c.id == made and c.action == "undo" and not c.redo), None)
    if undo is None or request.query_params.get("undone") != "done":
        return []
    words = web(visit.lang)
    again = []
    for key, value in undo.before.items():
        if value is None or key == "*" or not visit.may(Action.WRITE, keys=[key]):
            continue
        query = {"round": undo.number, "from": undo.undoes} | ({"player": key} if key != entry.ROUND_KEY else {})
        label = words.get("web.enter.for_table") if key == entry.ROUND_KEY else key
        again.append({"label": words.get("web.changes.enter_again", name=label),
                      "href": f"/s/{visit.stored.id}/enter?{visit.site.query(request, **query)}"})
    return again
