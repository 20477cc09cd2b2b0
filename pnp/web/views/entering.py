"""The entry page: a day's or round's form, a player's part of it, and a correction of one already in.

Every form about a day or round carries the version of what it shows
(:func:`pnp.web.rounds.form_version`): a form sent after what it showed has
changed (another phone answered the same question, the day was committed
meanwhile) is refused with a message, the fresh state shown beside each
answer and everything typed kept in the form, to send again.  A refused
answer (out of bounds, missing) comes back the same way, its message next to
its question.  The pages work without JavaScript; ``static/app.js`` adds a
draft of each form kept on the phone until the server has it.

Who may change what: :mod:`pnp.web.permissions` (a phone writes the parts of the
seats it holds and the table's own answers; the organiser everyone's).
"""

from __future__ import annotations

from urllib.parse import urlencode

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from scoring import Kind, Messages, PartForm, Problem, Question, Value

from pnp.core.records import NamedTuple
from pnp.web import changes, entry, round_store, rounds
from pnp.web.base import Site, Visit, parse_number, with_device
from pnp.web.permissions import Action, Actor, Forbidden, held_by, refusal
from pnp.web.rounds import UnknownRound
from pnp.web.summary import summary
from pnp.web.words import field_labels, game_words, part_json, problem_text, round_name, web


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


# -- the views -----------------------------------------------------------------------


async def enter_page(site: Site, request: Request) -> Response:
    """The entry form of the day being entered, or of ``round`` (a correction); a ``player``'s part of it."""
    visit = site.keep_device(await site.visit(request))
    stored, lang = visit.stored, visit.lang
    entered = rounds.rounds_entered(stored.document, stored.complete)
    asked = request.query_params.get("round")
    number = parse_number(asked) if asked is not None else entered + 1
    if number is None:
        return unknown_round(visit, asked)
    if asked is None and number > rounds.rounds_in_game(stored.game):
        return site.message(request, 409, "closed", lang)
    response = await render(visit, number, request.query_params.get("player"))
    return with_device(response, stored.id, visit.device, visit.fresh)


async def enter_post(site: Site, request: Request) -> Response:
    """An entry form sent: kept (and the next step shown), or the form again with what is wrong or changed."""
    visit = await site.visit(request)
    fields = await site.form(request, visit.credential)
    visit = site.keep_device(visit)
    if fields.get("number") and parse_number(fields["number"]) is None:
        response = unknown_round(visit, fields["number"])
    else:
        response = await _enter(visit, parse_number(fields.get("number")), fields)
    return with_device(response, visit.stored.id, visit.device, visit.fresh)


def unknown_round(visit: Visit, asked: object) -> Response:
    """404 naming the day or round asked for (a number of any length, or what was given instead)."""
    return visit.site.message(visit.request, 404, "unknown_round", visit.lang,
                              where=round_name(visit.stored.game, visit.lang, str(asked)),
                              highest=rounds.rounds_in_game(visit.stored.game))


async def _enter(visit: Visit, number: int | None, fields: dict[str, str]) -> Response:
    site, request, stored, actor, lang = visit.site, visit.request, visit.stored, visit.actor, visit.lang
    if number is None:
        return site.message(request, 400, "bad_form", lang)
    player = fields.get("player") or None
    try:
        view = await run_in_threadpool(round_store.round_view, site.db, stored.id, number)
    except UnknownRound:
        return unknown_round(visit, number)
    form = view.state.form
    if form is None:
        return site.redirect(request, f"/s/{stored.id}")
    if player is not None and player not in form.players:
        return site.message(request, 404, "not_found", lang)
    sent = read_fields(view.state, fields, player)
    shown = fields.get("v", "")

    def again(status: int, **options) -> Response:
        return render(visit, number, player, status=status, sent=sent, **options)

    if shown != view.version(player):
        # What this form showed has changed: nothing is sent; the fresh state beside what was typed.
        return await again(409, problems=sent.problems, stale=True)
    if sent.problems:
        return await again(422, problems=sent.problems, version=shown)
    if not sent.body:
        query = {"player": player} if player else {}
        return site.redirect(request, f"/s/{stored.id}/enter", query | {"round": number})
    try:
        done = await run_in_threadpool(round_store.send, site.db, stored.id, number, sent.body, actor=actor,
                                       version=round_store.Version(form=(shown, player)))
    except round_store.Stale:
        return await again(409, stale=True)
    except entry.Refused as refusal:
        return await again(422, problems=refusal.problems, version=shown)
    except Forbidden:
        return await again(403, forbidden=True, version=shown)
    except (round_store.OutOfTurn, round_store.Closed):
        return site.redirect(request, f"/s/{stored.id}")
    return _next_step(visit, view, sent, done, player=player)


def _next_step(visit: Visit, view: round_store.RoundView, sent: Typed, done: round_store.RoundView,
               *, player: str | None) -> Response:
    """Where a form that was kept leads: the table, the same player's form, or the list of players.

    ``view`` is the day as the form was sent against it, ``done`` as the send left it.
    """
    number, correction, form = view.state.number, view.state.committed, view.state.form
    saved = {"saved": f"{number}:{player or ''}"}
    table, entering = f"/s/{visit.stored.id}", f"/s/{visit.stored.id}/enter"
    if correction:
        return visit.site.redirect(visit.request, table, {"fixed": number} | saved)
    if player is not None and not sent.part:
        return visit.site.redirect(visit.request, entering, {"player": player} | saved)
    if player is None and form.players and not done.status.committed:
        # The whole round's answers are in: now each player enters their part.
        return visit.site.redirect(visit.request, entering, saved)
    return visit.site.redirect(visit.request, table, {"sent": number} | saved)


# -- the entry page ------------------------------------------------------------------


async def render(visit: Visit, number: int, player: str | None, *, status: int = 200, sent: Typed | None = None,
                 problems: tuple | list = (), stale: bool = False, forbidden: bool = False,
                 version: str | None = None) -> Response:
    """The entry page of day or round ``number`` (a player's part, or the round's answers and the players)."""
    site, request, stored, lang = visit.site, visit.request, visit.stored, visit.lang
    try:
        view = await run_in_threadpool(round_store.round_view, site.db, stored.id, number)
    except UnknownRound:
        return unknown_round(visit, number)
    state, form = view.state, view.state.form
    if form is None:
        return site.message(request, 409, "closed", lang)
    if player is not None and player not in form.players:
        return site.message(request, 404, "not_found", lang)
    if sent is None and not problems:
        # What is stored breaks a rule (a complete day that does not add up, a correction
        # that does not fit yet): shown where the player can mend it.
        problems = [p for p in view.status.problems
                    if p.round in (None, number) and (player is None or p.player in (None, player))]
    undone = None
    if sent is None:
        undone = await _undone_values(visit, view, player)
        sent = undone
    page = _drawing(view, actor=visit.actor, player=player, lang=lang, sent=sent, stale=stale)
    round_locked = _round_locked(page)
    table_section = _round_section(page, problems, round_locked)
    part_section = _part_section(page, problems)
    round_questions, facts, part_questions = table_section.questions, table_section.facts, part_section.questions
    label = round_name(stored.game, lang, number) if form.number is not None else web(lang).get("web.enter.team")
    heading = page.words.label(form.heading(player)) if player is not None and form.number is not None else label
    return site.page(
        request, "entry.html", lang, status, view=summary(stored, lang), csrf=site.keys.csrf(visit.credential),
        number=number, player=player, heading=heading, facts=facts, round_questions=round_questions,
        part_questions=part_questions, pick=_pick(page, stored.id, number),
        general=table_section.general + part_section.general,
        round_label=label,
        entered_before=player is not None and state.parts.get(player) is not None and not state.committed,
        correcting=state.committed, stale=stale, forbidden=forbidden,
        waiting_correction=state.committed and (player if player is not None else entry.ROUND_KEY) in state.rows,
        locked=part_section.locked, locked_seat=page.seat(part_section.locked) if part_section.locked else None,
        take_seat=f"/s/{stored.id}/seat?{site.query(request, player=player)}" if player is not None else None,
        round_locked=round_locked and player is None, undone=undone is not None,
        has_form=bool(round_questions or part_questions),
        version=version or view.version(player), echo=sent is not None,
        draft_key=f"{stored.id}:{number}:{player or ''}",
        beside=sum(len(q["problems"]) for q in round_questions + part_questions))


class _Drawing(NamedTuple):
    """What every part of an entry page is drawn from: the day as stored, who asks, what they typed."""

    view: round_store.RoundView
    actor: Actor
    player: str | None
    lang: str
    words: Messages
    start: dict | None  # the round before any part, once its own questions are answered (RoundState.start)
    labels: dict
    typed: dict
    stale: bool

    @property
    def mine(self) -> set[str]:
        """The players whose seats this phone holds; none for the organiser."""
        return set(held_by(self.view.seats, self.actor))

    def writes(self, key: str) -> bool:
        """Whether this visitor may write ``key`` (a player's part, "" for the table's own answers)."""
        return refusal(self.actor, Action.WRITE, self.view.seats, keys=[key]) is None

    def seat(self, name: str) -> str:
        """``mine``, ``elsewhere`` (another phone holds it) or ``free``: ``name``'s seat as this phone sees it."""
        holder = self.view.seats.get(name)
        if holder is None:
            return "free"
        return "mine" if holder == self.actor.holder else "elsewhere"

    def said(self, found) -> list[str]:
        return [problem_text(p, self.lang, self.view.stored.game, self.labels) for p in found]


async def _undone_values(visit: Visit, view: round_store.RoundView, player: str | None) -> Typed | None:
    """The answers an undo took out (``from``: the change undone), to fill the form with them again."""
    undone_id = parse_number(visit.request.query_params.get("from"))
    if undone_id is None or view.state.form is None:
        return None
    found = await run_in_threadpool(changes.changes, visit.site.db, visit.stored.id)
    change = next((c for c in found if c.id == undone_id and c.undone_by is not None), None)
    if change is None or change.number != view.state.number:
        return None
    form, typed = view.state.form, {"r.": {}, "p.": {}}
    round_part = change.after.get(entry.ROUND_KEY)
    if isinstance(round_part, dict) and player is None:
        typed["r."] = entry.answers_of(form.round, round_part)
    start = view.state.start()
    part = change.after.get(player) if player is not None else None
    if part is not None and start is not None:
        typed["p."] = entry.answers_of(form.player_form(player, start), part)
    if not (typed["r."] or typed["p."]):
        return None
    return Typed(body={}, problems=[], typed=typed, part=False)


def _drawing(view: round_store.RoundView, *, actor: Actor, player: str | None, lang: str,
             sent: Typed | None, stale: bool) -> _Drawing:
    start = view.state.start()
    labels = field_labels(view.state.form, start, (player,) if player is not None and start is not None else ())
    return _Drawing(view=view, actor=actor, player=player, lang=lang, words=game_words(lang, view.stored.game),
                    start=start, labels=labels, typed=sent.typed if sent is not None else {"r.": {}, "p.": {}},
                    stale=stale)


class _Section(NamedTuple):
    """A section of the entry page: its questions, the facts it tells, the messages that go to no question,
    and (a player's part) the player when another phone holds them."""

    questions: list[dict]
    facts: list[str]
    general: list[str]
    locked: str | None = None


def _round_locked(page: _Drawing) -> bool:
    """The table's own answers (who plays blue) are not this visitor's to give (a phone without a seat)."""
    return bool(page.view.state.form.round.questions) and not page.writes(entry.ROUND_KEY)


def _round_section(page: _Drawing, problems, round_locked: bool) -> _Section:
    """The round's own questions, asked or told as facts, and the messages that go to no question.

    They are asked while any is open (the players' questions depend on them),
    in a game without players' parts, when they were just sent (the form comes
    back), and on a committed day's own page (a correction); otherwise told.
    """
    state, form = page.view.state, page.view.state.form
    round_answers = entry.answers_of(form.round, state.round_part)
    asked = bool(form.round.questions) and not round_locked and (
        page.start is None or not form.players or bool(page.typed["r."]) or (state.committed and page.player is None))
    by_question, general = entry.where_problems_go(form.round, [p for p in problems if p.player is None])
    questions = []
    if asked:
        questions = _questions(form.round, words=page.words, lang=page.lang, answers=round_answers,
                               typed=page.typed["r."], problems={k: page.said(v) for k, v in by_question.items()},
                               prefix="r.", saved_now=round_answers if page.stale else None)
    facts = [page.words.label(fact.label) for fact in form.given]
    if not asked:
        for question in form.round.asked(round_answers):
            if question.id in round_answers:
                answer = answer_text(question, round_answers[question.id], page.words, page.lang)
                facts.append(f"{page.words.label(question.label)} {answer}")
    return _Section(questions, facts, page.said(general))


def _part_section(page: _Drawing, problems) -> _Section:
    """The player's own questions, the messages that go to none of them, and the player when this phone may not
    write their part (their seat is free, or another phone holds it)."""
    state, form, player = page.view.state, page.view.state.form, page.player
    locked = player if player is not None and not page.writes(player) else None
    if player is None or page.start is None or locked is not None:
        return _Section([], [], [], locked)
    stored_part = state.parts.get(player)
    part_form = form.player_form(player, page.start)
    answers = entry.answers_of(part_form, stored_part) if stored_part is not None else {}
    by_question, general = entry.where_problems_go(part_form, [p for p in problems if p.player is not None])
    questions = _questions(part_form, words=page.words, lang=page.lang, answers=answers, typed=page.typed["p."],
                           problems={k: page.said(v) for k, v in by_question.items()}, prefix="p.",
                           saved_now=(answers if stored_part is not None else {}) if page.stale else None)
    return _Section(questions, [], page.said(general), locked)


def _pick(page: _Drawing, session_id: str, number: int) -> list[dict]:
    """The players to choose from once the round's own answers are in: whose part is in, whose is this phone's."""
    state, form = page.view.state, page.view.state.form
    if page.player is not None or page.start is None or not form.players:
        return []
    pick = []
    for name in form.players:
        query = {"player": name} | ({"round": number} if state.committed else {})
        seat = page.seat(name) if not page.actor.organiser else "organiser"
        pick.append({"name": name, "entered": name in state.parts, "seat": seat,
                     "href": f"/s/{session_id}/enter?{urlencode(query)}" if page.writes(name) else None,
                     "take": f"/s/{session_id}/seat?{urlencode({'player': name})}" if seat == "free" else None})
    return pick


def _questions(form: PartForm, *, words, lang: str, answers: dict, typed: dict, problems: dict, prefix: str,
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
