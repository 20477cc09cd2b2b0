"""The pages that change scores: a day's entry form, its corrections, the session's history and undo.

Every form about a day or round carries the version of what it shows
(:func:`pnp.web.rounds.form_version`): a form sent after what it showed has
changed (another phone answered the same question, the day was committed
meanwhile) is refused with a message, the fresh state shown beside each
answer and everything typed kept in the form, to send again.  A refused
answer (out of bounds, missing) comes back the same way, its message next to
its question.  The pages work without JavaScript; ``static/app.js`` adds a
draft of each form kept on the phone until the server has it.

Who may change what: :func:`pnp.web.tables.send` (a phone speaks for the
players whose parts it sent first; the organiser for everyone).
"""

from __future__ import annotations

import datetime
from typing import NamedTuple
from urllib.parse import urlencode

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from scoring import Kind, PartForm, Problem, Question, Value
from pnp.web import entry, tables
from pnp.web.auth import new_token, token_hash
from pnp.web.rounds import UnknownRound, form_before, round_state
from pnp.web.words import field_labels, game_words, long_date, part_json, problem_text, web

DEVICE_COOKIE = "pnp_device"
ORGANISER_COOKIE = "pnp_organiser"


# -- who is asking ---------------------------------------------------------------


def device_token(request: Request) -> tuple[str, bool]:
    """This browser's device key for the session (a cookie), and whether it is new (to be set)."""
    given = request.cookies.get(DEVICE_COOKIE)
    if given and 16 <= len(given) <= 100:
        return given, False
    return new_token(), True


def set_device(response: Response, session_id: str, token: str) -> None:
    response.set_cookie(DEVICE_COOKIE, token, path=f"/s/{session_id}", httponly=True, samesite="lax",
                        max_age=30 * 86400)


def actor_for(site, request: Request, device: str | None) -> tables.Actor:
    """The organiser (their cookie), else a phone known by its device key."""
    if site.is_organiser(request.cookies.get(ORGANISER_COOKIE)):
        return tables.ORGANISER
    return tables.Actor("phone", token_hash(device) if device else None)


# -- reading a posted form ---------------------------------------------------------


class Typed(NamedTuple):
    """A posted entry form: what it sends (session-file form), what is wrong with it, and the values as typed."""

    body: dict
    problems: list[Problem]
    typed: dict
    part: bool  # a player's part is in ``body``


def read_fields(state, fields: dict[str, str], player: str | None) -> Typed:
    """The round's answers (fields ``r.``) and ``player``'s part (fields ``p.``) of a posted form.

    Each answer is checked against its question (bounds, choices, one given to
    every question asked); the values as typed are kept whatever happens.
    """
    form = state.form
    number = state.number if form.number is not None else None
    body: dict = {}
    problems: list[Problem] = []
    typed: dict = {"r.": {}, "p.": {}}
    round_part = state.round_part
    if any(key.startswith("r.") for key in fields):
        answers, unreadable = entry.part_from_fields(form.round, fields, "r.")
        typed["r."] = {**answers, **unreadable}
        problems += entry.refused_answers(form.round, answers, number, None)
        problems += entry.unreadable(form.round, unreadable, number, None)
        problems += entry.missing_answers(form.round, typed["r."], number)
        if not problems:
            sent_round = form.round.to_raw(answers)
            body.update(sent_round)
            round_part = entry.merged_round(round_part, sent_round)
    part = False
    if player is not None and any(key.startswith("p.") for key in fields):
        start = entry.round_start(form, round_part)
        if start is not None:
            part_form = form.player_form(player, start)
            answers, unreadable = entry.part_from_fields(part_form, fields, "p.")
            typed["p."] = {**answers, **unreadable}
            problems += entry.refused_answers(part_form, answers, number, player)
            problems += entry.unreadable(part_form, unreadable, number, player)
            problems += entry.missing_answers(part_form, typed["p."], number, player)
            if not problems:
                entry.put_in(body, (*form.parts_at, player), part_form.to_raw(entry.fill_defaults(part_form, answers)))
                part = True
    return Typed(body, problems, typed, part)


def answer_text(question: Question, value: object, words, lang: str) -> str:
    """An answer as the page shows it: a number, yes or no, a choice's words; a dash for none."""
    if value is None:
        return "–"
    if question.kind is Kind.FLAG and isinstance(value, bool):
        return web(lang).get("web.enter.yes" if value else "web.enter.no")
    chosen = next((choice for choice in question.choices if choice.value == value), None)
    if chosen is not None:
        return words.show(chosen.label)
    return words.show(value if isinstance(value, (int, str)) and not isinstance(value, bool) else Value(value))


def parse_number(text: str | None) -> int | None:
    """A day or round number from a form or a query: ASCII digits, at most six of them."""
    if text is None or not (1 <= len(text) <= 6) or not all("0" <= c <= "9" for c in text):
        return None
    return int(text)


# -- the entry page ------------------------------------------------------------------


def _questions(form: PartForm, words, lang: str, answers: dict, typed: dict, problems: dict, prefix: str,
               saved_now: dict | None) -> list[dict]:
    """Each question as the template draws it: its value (typed, else stored, else suggested) and messages."""
    shown = []
    for question, described in zip(form.questions, part_json(form, words)):
        value = typed.get(question.id, answers.get(question.id, described["suggested"]))
        note = None
        if saved_now is not None:
            saved = saved_now.get(question.id, question.suggested())
            if saved != value:
                note = answer_text(question, saved, words, lang)
        shown.append({**described, "name": prefix + question.id, "value": value,
                      "problems": problems.get(question.id, []), "saved_now": note})
    return shown


async def render(site, request: Request, stored: tables.StoredSession, credential: str, actor: tables.Actor,
                 lang: str, number: int, player: str | None, status: int = 200, sent: Typed | None = None,
                 problems: tuple | list = (), stale: bool = False, forbidden: bool = False,
                 version: str | None = None) -> Response:
    """The entry page of day or round ``number`` (a player's part, or the round's answers and the players)."""
    from pnp.web.app import round_name

    try:
        view = await run_in_threadpool(tables.round_view, site.db, stored.id, number)
    except UnknownRound:
        return site.message(request, 404, "not_found", lang)
    state, form = view.state, view.state.form
    if form is None:
        return site.message(request, 409, "closed", lang)
    if player is not None and player not in form.players:
        return site.message(request, 404, "not_found", lang)
    words = game_words(lang, stored.game)
    typed = sent.typed if sent is not None else {"r.": {}, "p.": {}}
    round_part = state.round_part
    start = state.start()
    labels = field_labels(form, start, (player,) if player is not None and start is not None else ())

    def said(found) -> list[str]:
        return [problem_text(p, lang, stored.game, labels) for p in found]

    if sent is None and not problems:
        # What is stored breaks a rule (a complete day that does not add up, a correction
        # that does not fit yet): shown where the player can mend it.
        problems = [p for p in view.status.problems
                    if p.round in (None, number) and (player is None or p.player in (None, player))]
    mine = {name for name, device in view.claims.items() if actor.kind == "phone" and device == actor.device}
    phone = actor.kind == "phone"
    round_locked = phone and state.committed and bool(form.players) and bool(form.round.questions) and not mine
    round_answers = entry.answers_of(form.round, round_part)
    show_round = bool(form.round.questions) and not round_locked and (
        start is None or not form.players or bool(typed["r."]) or (state.committed and player is None))
    round_by, general_problems = entry.where_problems_go(form.round, [p for p in problems if p.player is None])
    round_questions = []
    if show_round:
        round_questions = _questions(form.round, words, lang, round_answers, typed["r."],
                                     {k: said(v) for k, v in round_by.items()}, "r.",
                                     round_answers if stale else None)
    facts = [words.label(fact.label) for fact in form.given]
    if not show_round:
        for question in form.round.asked(round_answers):
            if question.id in round_answers:
                facts.append(f"{words.label(question.label)} {answer_text(question, round_answers[question.id], words, lang)}")
    general = said(general_problems)
    part_questions = []
    locked = None
    if player is not None and phone and view.claims.get(player) not in (None, actor.device):
        locked = player
    stored_part = state.parts.get(player) if player is not None else None
    if player is not None and start is not None and locked is None:
        part_form = form.player_form(player, start)
        answers = entry.answers_of(part_form, stored_part) if stored_part is not None else {}
        by_question, part_general = entry.where_problems_go(part_form, [p for p in problems if p.player is not None])
        general += said(part_general)
        part_questions = _questions(part_form, words, lang, answers, typed["p."],
                                    {k: said(v) for k, v in by_question.items()}, "p.",
                                    (answers if stored_part is not None else {}) if stale else None)
    label = round_name(stored.game, lang, number) if form.number is not None else web(lang).get("web.enter.team")
    heading = words.label(form.heading(player)) if player is not None and form.number is not None else label
    pick = []
    if player is None and start is not None and form.players:
        for name in form.players:
            elsewhere = phone and view.claims.get(name) not in (None, actor.device)
            query = {"player": name} | ({"round": number} if state.committed else {})
            pick.append({"name": name, "entered": name in state.parts, "mine": name in mine,
                         "elsewhere": elsewhere, "href": f"/s/{stored.id}/enter?{urlencode(query)}"})
    has_form = bool(round_questions or part_questions)
    return site.page(
        request, "entry.html", lang, status, view=site.summary(stored, lang), csrf=site.keys.csrf(credential),
        number=number, player=player, heading=heading, facts=facts, round_questions=round_questions,
        part_questions=part_questions, pick=pick, general=general, round_label=label,
        entered_before=player is not None and stored_part is not None and not state.committed,
        correcting=state.committed, stale=stale, forbidden=forbidden,
        waiting_correction=state.committed and (player if player is not None else entry.ROUND_KEY) in state.rows,
        locked=locked, round_locked=round_locked and player is None, has_form=has_form,
        version=version or view.version(player), echo=sent is not None,
        draft_key=f"{stored.id}:{number}:{player or ''}",
        beside=sum(len(q["problems"]) for q in round_questions + part_questions))


async def enter_page(site, request: Request) -> Response:
    stored, credential = await site.page_session(request)
    lang = site.lang(request, stored.lang)
    device, fresh = device_token(request)
    actor = actor_for(site, request, device)
    entered = tables.rounds_entered(stored.document, stored.complete)
    asked = request.query_params.get("round")
    number = parse_number(asked) if asked is not None else entered + 1
    if number is None:
        return site.message(request, 404, "not_found", lang)
    if asked is None and number > tables.rounds_in_game(stored.game):
        return site.message(request, 409, "closed", lang)
    response = await render(site, request, stored, credential, actor, lang, number,
                            request.query_params.get("player"))
    if fresh:
        set_device(response, stored.id, device)
    return response


async def enter_post(site, request: Request) -> Response:
    stored, credential = await site.page_session(request)
    lang = site.lang(request, stored.lang)
    fields = await site.form(request, credential)
    device, fresh = device_token(request)
    actor = actor_for(site, request, device)
    number = parse_number(fields.get("number"))
    response = await _enter(site, request, stored, credential, actor, lang, number, fields)
    if fresh:
        set_device(response, stored.id, device)
    return response


async def _enter(site, request: Request, stored: tables.StoredSession, credential: str, actor: tables.Actor,
                 lang: str, number: int | None, fields: dict[str, str]) -> Response:
    if number is None:
        return site.message(request, 400, "bad_form", lang)
    player = fields.get("player") or None
    try:
        view = await run_in_threadpool(tables.round_view, site.db, stored.id, number)
    except UnknownRound:
        return site.message(request, 404, "not_found", lang)
    form = view.state.form
    if form is None:
        return RedirectResponse(f"/s/{stored.id}", status_code=303)
    if player is not None and player not in form.players:
        return site.message(request, 404, "not_found", lang)
    sent = read_fields(view.state, fields, player)
    shown = fields.get("v", "")

    def again(status: int, **options) -> Response:
        return render(site, request, stored, credential, actor, lang, number, player, status, sent, **options)

    if shown != view.version(player):
        # What this form showed has changed: nothing is sent; the fresh state beside what was typed.
        return await again(409, problems=sent.problems, stale=True)
    if sent.problems:
        return await again(422, problems=sent.problems, version=shown)
    if not sent.body:
        query = {"player": player} if player else {}
        return RedirectResponse(f"/s/{stored.id}/enter?{urlencode(query | {'round': number})}", status_code=303)
    try:
        done = await run_in_threadpool(tables.send, site.db, stored.id, number, sent.body, actor, (shown, player))
    except tables.Stale:
        return await again(409, stale=True)
    except tables.Refused as refusal:
        return await again(422, problems=refusal.problems, version=shown)
    except tables.Forbidden:
        return await again(403, forbidden=True, version=shown)
    except (tables.OutOfTurn, tables.Closed):
        return RedirectResponse(f"/s/{stored.id}", status_code=303)
    saved = {"saved": f"{number}:{player or ''}"}
    if view.state.committed:
        return RedirectResponse(f"/s/{stored.id}?{urlencode({'fixed': number} | saved)}", status_code=303)
    if player is not None and not sent.part:
        return RedirectResponse(f"/s/{stored.id}/enter?{urlencode({'player': player} | saved)}", status_code=303)
    if player is None and form.players and not done.status.committed:
        # The whole round's answers are in: now each player enters their part.
        return RedirectResponse(f"/s/{stored.id}/enter?{urlencode(saved)}", status_code=303)
    return RedirectResponse(f"/s/{stored.id}?{urlencode({'sent': number} | saved)}", status_code=303)


# -- the session's history -----------------------------------------------------------


def _diff(question_form: PartForm, before: object, after: object, words, lang: str) -> list[str]:
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


def _round_part_now(stored: tables.StoredSession, number: int) -> dict:
    """The round's own answers as committed (who played blue), to ask a part's questions again."""
    try:
        return round_state(stored.document, stored.complete, {}, number).round_part
    except UnknownRound:
        return {}


def _who(change: tables.Change, lang: str) -> str:
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


def describe(change: tables.Change, stored: tables.StoredSession, lang: str) -> dict:
    """A change as the history page says it: when, who, which day, what it did, each answer before and after."""
    from pnp.web.app import round_name

    words = game_words(lang, stored.game)
    single = tables.rounds_key(stored.game) is None
    where = web(lang).get("web.enter.team") if single else round_name(stored.game, lang, change.number)
    form = form_before(stored.document, change.number)
    parts = []
    keys = sorted(set(change.before) | set(change.after),
                  key=lambda key: (key != entry.ROUND_KEY, stored.players.index(key) if key in stored.players else 0))
    for key in keys:
        before, after = change.before.get(key), change.after.get(key)
        lines: list[str] = []
        if form is not None and key == entry.ROUND_KEY:
            lines = _diff(form.round, before, after, words, lang)
        elif form is not None and key in form.players:
            round_part = change.after.get(entry.ROUND_KEY) or change.before.get(entry.ROUND_KEY)
            if round_part is None:
                round_part = _round_part_now(stored, change.number)
            start = entry.round_start(form, round_part)
            if start is not None:
                lines = _diff(form.player_form(key, start), before, after, words, lang)
        name = web(lang).get("web.changes.whole") if key == "*" else (
            web(lang).get("web.enter.for_table") if key == entry.ROUND_KEY else key)
        if lines or form is None or key == "*":
            parts.append({"name": name, "lines": lines})
    return {"id": change.id, "who": _who(change, lang), "when": _when(change.at, lang), "where": where,
            "what": web(lang).get(f"web.changes.outcome.{change.action}_{change.outcome}"), "parts": parts,
            "undone": change.undone_by is not None, "undo": change.action == "undo"}


def history_json(found: list[tables.Change]) -> dict:
    """The history as the API gives it: every change, newest first."""
    return {"changes": [{"id": c.id, "at": c.at, "by": c.actor, "phone_of": list(c.names), "number": c.number,
                         "action": c.action, "outcome": c.outcome, "before": c.before, "after": c.after,
                         "undoes": c.undoes, "undone_by": c.undone_by} for c in found]}


async def undoable(site, stored: tables.StoredSession, actor: tables.Actor,
                   found: list[tables.Change] | None = None) -> tables.Change | None:
    """The last change, when this visitor may undo it; else None."""
    if found is None:
        last = await run_in_threadpool(tables.latest_change, site.db, stored.id)
    else:
        last = tables.last_change(found)
    return last if last is not None and tables.may_undo(last, actor) else None


async def history_page(site, request: Request) -> Response:
    stored, credential = await site.page_session(request)
    lang = site.lang(request, stored.lang)
    actor = actor_for(site, request, request.cookies.get(DEVICE_COOKIE))
    found = await run_in_threadpool(tables.changes, site.db, stored.id)
    return site.page(request, "history_changes.html", lang, view=site.summary(stored, lang),
                     changes=[describe(change, stored, lang) for change in found],
                     undo=_described(await undoable(site, stored, actor, found), stored, lang),
                     csrf=site.keys.csrf(credential),
                     flash=_undo_flash(request, lang))


def _described(change: tables.Change | None, stored: tables.StoredSession, lang: str) -> dict | None:
    return describe(change, stored, lang) if change is not None else None


def _undo_flash(request: Request, lang: str) -> str | None:
    done = request.query_params.get("undone")
    if done in ("done", "late"):
        return web(lang).get(f"web.changes.undo_{done}")
    return None


async def undo_post(site, request: Request) -> Response:
    stored, credential = await site.page_session(request)
    lang = site.lang(request, stored.lang)
    fields = await site.form(request, credential)
    actor = actor_for(site, request, request.cookies.get(DEVICE_COOKIE))
    change = parse_number(fields.get("change"))
    outcome = "done"
    try:
        if change is None:
            raise tables.NothingToUndo()
        await run_in_threadpool(tables.undo, site.db, stored.id, change, actor)
    except tables.NothingToUndo:
        outcome = "late"
    except tables.Forbidden:
        return site.message(request, 403, "not_yours", lang)
    except tables.Refused:
        outcome = "late"
    return RedirectResponse(f"/s/{stored.id}/history?{urlencode({'undone': outcome})}", status_code=303)
