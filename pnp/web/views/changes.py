"""A session's history of changes (who changed what, before and after) and undoing the last one, as a page and JSON."""

from __future__ import annotations

import datetime
from urllib.parse import urlencode

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from scoring import PartForm

from pnp.web import changes, entry, rounds, seats, sessions
from pnp.web.base import DEVICE_COOKIE, Site, parse_number
from pnp.web.rounds import UnknownRound, form_before, round_state
from pnp.web.summary import summary
from pnp.web.views.entering import answer_text
from pnp.web.words import game_words, long_date, round_name, web


async def changes_page(site: Site, request: Request) -> Response:
    stored, credential = await site.page_session(request)
    lang = site.lang(request, stored.lang)
    actor = site.actor(request, request.cookies.get(DEVICE_COOKIE))
    found = await run_in_threadpool(changes.changes, site.db, stored.id)
    return site.page(request, "history_changes.html", lang, view=summary(stored, lang),
                     changes=[describe(change, stored, lang) for change in found],
                     undo=_described(await undoable(site, stored, actor, found), stored, lang),
                     csrf=site.keys.csrf(credential),
                     flash=_undo_flash(request, lang))


async def undo_post(site: Site, request: Request) -> Response:
    """The history page's undo button: the last change taken back, or a note that it no longer can be."""
    stored, credential = await site.page_session(request)
    lang = site.lang(request, stored.lang)
    fields = await site.form(request, credential)
    actor = site.actor(request, request.cookies.get(DEVICE_COOKIE))
    change = parse_number(fields.get("change"))
    outcome = "done"
    try:
        if change is None:
            raise changes.NothingToUndo()
        await run_in_threadpool(changes.undo, site.db, stored.id, change, actor=actor)
    except changes.NothingToUndo:
        outcome = "late"
    except seats.Forbidden:
        return site.message(request, 403, "not_yours", lang)
    except entry.Refused:
        outcome = "late"
    return RedirectResponse(f"/s/{stored.id}/history?{urlencode({'undone': outcome})}", status_code=303)


async def api_changes(site: Site, request: Request) -> Response:
    stored = await site.api_session(request)
    found = await run_in_threadpool(changes.changes, site.db, stored.id)
    return JSONResponse(history_json(found), headers={"Cache-Control": "no-store"})


async def api_undo(site: Site, request: Request) -> Response:
    stored = await site.api_session(request)
    lang = site.lang(request, stored.lang)
    body = await site.json_body(request, lang)
    change = body.get("change") if isinstance(body, dict) else None
    try:
        if isinstance(change, bool) or not isinstance(change, int):
            raise changes.NothingToUndo()
        saved = await run_in_threadpool(changes.undo, site.db, stored.id, change, actor=site.api_actor(request))
    except changes.NothingToUndo:
        return site.api_error(request, 409, "not_last", lang)
    return JSONResponse(saved.result)


def history_json(found: list[changes.Change]) -> dict:
    """The history as the API gives it: every change, newest first."""
    return {"changes": [{"id": c.id, "at": c.at, "by": c.actor, "phone_of": list(c.names), "number": c.number,
                         "action": c.action, "outcome": c.outcome, "before": c.before, "after": c.after,
                         "undoes": c.undoes, "undone_by": c.undone_by} for c in found]}


async def undoable(site: Site, stored: sessions.StoredSession, actor: seats.Actor,
                   found: list[changes.Change] | None = None) -> changes.Change | None:
    """The last change, when this visitor may undo it; else None."""
    if found is None:
        last = await run_in_threadpool(changes.latest_change, site.db, stored.id)
    else:
        last = changes.last_change(found)
    return last if last is not None and changes.may_undo(last, actor) else None


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
            "what": web(lang).get(f"web.changes.outcome.{change.action}_{change.outcome}"), "parts": parts,
            "undone": change.undone_by is not None, "undo": change.action == "undo"}


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
    words = web(lang)
    if change.actor == "phone":
        if change.names:
            return words.get("web.changes.by_phone_of", names=", ".join(change.names))
        return words.get("web.changes.by_phone")
    return words.get(f"web.changes.by_{change.actor}")


def _when(at: str, lang: str) -> str:
    moment = datetime.datetime.fromisoformat(at).astimezone()
    clock = moment.strftime("%H:%M")
    if moment.date() == datetime.datetime.now().astimezone().date():
        return clock
    return web(lang).get("web.changes.when", date=long_date(moment.date().isoformat(), lang), time=clock)


def _described(change: changes.Change | None, stored: sessions.StoredSession, lang: str) -> dict | None:
    return describe(change, stored, lang) if change is not None else None


def _undo_flash(request: Request, lang: str) -> str | None:
    done = request.query_params.get("undone")
    if done in ("done", "late"):
        return web(lang).get(f"web.changes.undo_{done}")
    return None
