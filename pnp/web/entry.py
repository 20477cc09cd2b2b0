"""Entering a day or round from several phones, driven by the game's entry form.

The rules describe the next day or round as an :class:`~scoring.forms.EntryForm`:
questions about the whole round (who plays blue), facts the rules decide, and
each player's part.  Here a partial day in session-file form (what a PATCH
sends, what a page's answers become) is split into the round's own answers and
the players' parts, each checked as far as it can be on its own, and put back
together once everyone is in.  Nothing here names a game.
"""

from __future__ import annotations

import copy
import functools
import json
from typing import Mapping

from scoring import (
    Common,
    EntryForm,
    Kind,
    NothingToEnter,
    PartForm,
    Problem,
    ProblemCode,
    Question,
    Term,
    Value,
    check_session,
    find_rules,
)

from pnp.core.records import NamedTuple

#: The row key a day's own answers are kept under, beside one row per player (no name is empty).
ROUND_KEY = ""
_MISSING = object()


class WebProblem(ProblemCode):
    """Problems only a change sent to the server can have (messages under ``web.problem.``)."""

    FIXED_KEY = "fixed_key"
    NAME_TOO_LONG = "name_too_long", "position", "count", "limit"


class Refused(Exception):
    """The change breaks the rules or cannot be read; nothing was stored.  ``problems`` says why."""

    def __init__(self, problems) -> None:
        self.problems = tuple(problems)
        super().__init__(", ".join(str(p.code) for p in self.problems))


class Split(NamedTuple):
    """A partial day sent at once: the round's own answers (session-file form) and players' parts."""

    round: dict
    parts: dict[str, object]


def form_for(document: dict) -> EntryForm | None:
    """The entry form of the session's next day or round; None when nothing is left to enter.

    Every request about a day needs it, and every phone at a table asks about
    the same few documents: a form is made once per document (and rules).
    """
    rules = find_rules(document.get("game"))
    return _form_for(json.dumps(document, sort_keys=True, ensure_ascii=False), id(rules))


@functools.lru_cache(maxsize=256)
def _form_for(text: str, rules: int) -> EntryForm | None:
    checked = check_session(json.loads(text))
    if checked.session is None:
        return None
    try:
        return checked.rules.entry_form(checked.session)
    except NothingToEnter:
        return None


def _get(part: object, path: tuple[str, ...]) -> object:
    for key in path:
        if not isinstance(part, dict) or key not in part:
            return _MISSING
        part = part[key]
    return part


def answers_of(form: PartForm, part: object) -> dict[str, object]:
    """The answers a part in session-file form gives to ``form``'s questions (those it holds)."""
    answers: dict[str, object] = {}
    for question in form.questions:
        writers = [choice for choice in question.choices if choice.writes]
        if writers:
            for choice in writers:
                if all(_get(part, path) == value for path, value in choice.writes):
                    answers[question.id] = choice.value
                    break
            continue
        found = _get(part, question.path or ())
        if found is not _MISSING:
            answers[question.id] = found
    return answers


def unanswered(form: PartForm, answers: Mapping[str, object]) -> list[Question]:
    """The questions still to answer (those asked, given the answers so far)."""
    return [question for question in form.asked(answers) if question.id not in answers]


def _round_keys(form: EntryForm) -> set[str]:
    keys = {question.path[0] for question in form.round.questions if question.path}
    keys |= {fact.path[0] for fact in form.given if fact.path}
    return keys


def split(form: EntryForm, body: object, number: int) -> Split:
    """Where each piece of a partial day goes; Refused names what cannot.

    Under the form's ``parts_at`` (the top level when it is empty) a key naming
    a player holds that player's part; everything else is the round's own.
    """
    if not isinstance(body, dict) or not body:
        raise Refused([Problem(Common.WRONG_TYPE, round=number,
                               params={"expected": _type_term("table"), "found": Value(body)})])
    round_part = copy.deepcopy(body)
    if form.parts_at:
        holder = _get(round_part, form.parts_at)
        if holder is _MISSING:
            return Split(round_part, {})
        if not isinstance(holder, dict):
            raise Refused([Problem(Common.WRONG_TYPE, round=number, key=".".join(form.parts_at),
                                   params={"expected": _type_term("table"), "found": Value(holder)})])
        parts = {key: holder[key] for key in holder if key in form.players}
        strangers = [key for key in holder if key not in form.players]
        parent = _get(round_part, form.parts_at[:-1])
        del parent[form.parts_at[-1]]
    else:
        parts = {key: round_part.pop(key) for key in list(round_part) if key in form.players}
        strangers = [key for key in round_part if key not in _round_keys(form)]
    if strangers:
        listed = ", ".join(form.players) or "-"
        raise Refused([Problem(Common.UNKNOWN_PLAYER, round=number, params={"found": Value(key), "players": listed})
                       for key in strangers])
    return Split(round_part, parts)


def check_round_part(form: EntryForm, round_part: dict, number: int) -> list[Problem]:
    """What the round's own answers break on their own: an unknown key, an answer out of bounds."""
    problems = []
    answers = answers_of(form.round, round_part)
    known = _round_keys(form)
    for key in round_part:
        if key not in known:
            expected = ", ".join(sorted(known)) or "-"
            problems.append(Problem(Common.UNKNOWN_KEY, round=number, params={"found": Value(key), "expected": expected}))
    for question in form.round.asked(answers):
        if question.id in answers:
            refused = question.refusal(answers[question.id], _number(form, number))
            if refused is not None:
                problems.append(refused)
    return problems


def _number(form: EntryForm, number: int) -> int | None:
    """The number problems name: none for a game whose outcome is not numbered (a team's result)."""
    return number if form.number is not None else None


def _type_term(name: str) -> Term:
    return Term("type", name)


def round_start(form: EntryForm, round_part: dict) -> dict | None:
    """The round in session-file form before any part, once all its own questions are answered."""
    answers = answers_of(form.round, round_part)
    if unanswered(form.round, answers):
        return None
    return form.round_start(answers)


def missing_round_answer(form: EntryForm, round_part: dict, number: int) -> list[Problem]:
    """A problem per round question still unanswered (a player's part needs them first)."""
    answers = answers_of(form.round, round_part)
    return [question.unanswered(_number(form, number)) for question in unanswered(form.round, answers)]


def unreadable(form: PartForm, texts: Mapping[str, str], number: int | None, player: str | None) -> list[Problem]:
    """A problem per answer a page sent that is not even of its question's kind (a count that is no number)."""
    return [question.refusal(texts[question.id], number, player) for question in form.questions if question.id in texts]


def put_in(part: dict, path: tuple[str, ...], value: object) -> dict:
    """``part`` with ``value`` at ``path``, tables made on the way."""
    table = part
    for key in path[:-1]:
        table = table.setdefault(key, {})
    table[path[-1]] = value
    return part


def whole_round(form: EntryForm, round_part: dict, parts: Mapping[str, object]) -> dict | None:
    """The whole day or round in session-file form, or None while an answer or a part is missing."""
    answers = answers_of(form.round, round_part)
    if unanswered(form.round, answers) or any(player not in parts for player in form.players):
        return None
    return form.round_raw(answers, parts)


def merged_round(stored: dict, sent: dict) -> dict:
    """The round's own answers kept so far with those just sent (a later answer replaces an earlier one)."""
    merged = copy.deepcopy(stored)
    for key, value in sent.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merged_round(merged[key], value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def part_from_fields(form: PartForm, fields: Mapping[str, str], prefix: str) -> tuple[dict, dict[str, str]]:
    """A page's posted answers (text) typed for ``form``'s questions, and the fields that could not be read.

    A count or change is a whole number, a flag ``true``/``false``, a choice one
    of its values; questions the page did not show (their ``when`` does not
    hold) are not asked.
    """
    answers: dict[str, object] = {}
    unreadable: dict[str, str] = {}
    for question in form.questions:
        text = fields.get(prefix + question.id)
        if text is None:
            continue
        text = text.strip()
        if question.kind in (Kind.COUNT, Kind.SIGNED):
            try:
                answers[question.id] = int(text, 10)
            except ValueError:
                unreadable[question.id] = text
        elif question.kind is Kind.FLAG:
            if text in ("true", "false"):
                answers[question.id] = text == "true"
            else:
                unreadable[question.id] = text
        else:
            answers[question.id] = text
    asked = {question.id for question in form.asked(answers)}
    return {key: value for key, value in answers.items() if key in asked}, unreadable


def refused_answers(form: PartForm, answers: Mapping[str, object], number: int | None,
                    player: str | None) -> list[Problem]:
    """A problem per answer out of its question's bounds or choices (said in words, never a key)."""
    return [problem for problem in form.check(answers, number, player) if problem.code is not Common.NO_ANSWER]


def missing_answers(form: PartForm, answers: Mapping[str, object], number: int | None,
                    player: str | None = None) -> list[Problem]:
    """A problem per question asked and left without an answer (and without one to suggest)."""
    return [question.unanswered(number, player) for question in unanswered(form, answers)
            if question.suggested() is None]


def fill_defaults(form: PartForm, answers: Mapping[str, object]) -> dict[str, object]:
    """``answers`` with each asked question left blank given its suggested answer."""
    filled = dict(answers)
    for question in form.asked(filled):
        if question.id not in filled and question.suggested() is not None:
            filled[question.id] = question.suggested()
    return filled


def where_problems_go(form: PartForm, problems: list[Problem]) -> tuple[dict[str, list[Problem]], list[Problem]]:
    """Each problem beside the question it is about, else with the part as a whole.

    A problem names its question (a refused answer), its card or tile
    (``item``), the place it was counted in (``place``) or a key; that is
    enough to find the question whose answer goes there: the one named, else
    the one at ``place.item``, else the one ending in ``item`` (or named after
    it), else the one at ``key``.
    """
    by_question: dict[str, list[Problem]] = {}
    general: list[Problem] = []
    for problem in problems:
        found = _question_for(form, problem)
        if found is None:
            general.append(problem)
        else:
            by_question.setdefault(found.id, []).append(problem)
    return by_question, general


def _question_for(form: PartForm, problem: Problem) -> Question | None:
    item = problem.item.key if problem.item else None
    place = problem.place.key if problem.place else None
    tests = []
    # A problem with an answer names its question: by its label, as the message does.
    asked = problem.field if problem.field is not None else problem.params.get("question")
    if asked is not None:
        tests.append(lambda q: q.label == asked)
    if item and place:
        tests.append(lambda q: q.path == (place, item))
    if item:
        tests.append(lambda q: q.id == item)
        tests.append(lambda q: bool(q.path) and q.path[-1] == item)
    if problem.key:
        tests.append(lambda q: bool(q.path) and ".".join(q.path) == problem.key)
    if len(form.questions) == 1 and problem.player is not None:
        tests.append(lambda q: True)  # a part of one answer: whatever is wrong with it is about that answer
    for test in tests:
        for question in form.questions:
            if test(question):
                return question
    return None
