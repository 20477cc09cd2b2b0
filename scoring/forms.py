"""The entry form of a day or round, as data: what to ask, within which bounds, where answers go.

A game's rules describe the next day or round of a session as an
:class:`EntryForm`: questions about the whole round (Halali: who plays blue),
facts the rules decide (round 2's blue player), and each player's part (their
prey pile and hand, their tiles, their currency change). Any front end asks
the questions its own way (``pnp score add`` at a prompt, a phone per player)
and gets back the day or round in session-file form:

* :meth:`PartForm.to_raw` turns one part's answers into its session-file form;
* :meth:`EntryForm.check_part` gives the problems of one player's part alone;
* :meth:`EntryForm.round_raw` puts the parts together, and
  :meth:`EntryForm.updated` gives the whole session with it, which the
  ordinary :func:`scoring.check_session` checks (same checks, same messages).

Answers are keyed by question id. A question's ``path`` says where its answer
goes inside its part (``("hand", "wolf")``); an empty path means the answer is
the whole part (a Beavers player's part is one number).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from enum import StrEnum
from typing import Callable, Iterator, Mapping, NamedTuple

from scoring.problems import Common, Problem
from scoring.terms import Label, Term, Value, label

#: Keys leading to a value in a session file: ("hand", "wolf").
KeyPath = tuple[str, ...]


class Kind(StrEnum):
    """What kind of answer a question takes."""

    COUNT = "count"  # a whole number from low to high
    SIGNED = "signed"  # a whole number of either sign (a change of currency)
    FLAG = "flag"  # yes or no
    CHOICE = "choice"  # one of the question's choices
    PLAYER = "player"  # one of the session's players (the choices are their names)


class Choice(NamedTuple):
    """One answer of a choice question.

    ``value`` is the word a front end sends; ``label`` what it shows (a term,
    a label, or a player's name as it is). ``writes`` puts values at paths of
    the part instead of writing ``value`` at the question's path (Hunting
    Fever's "Where is the Hunter?" sets one of three fields).
    """

    value: str
    label: Term | Label | str
    writes: tuple[tuple[KeyPath, object], ...] = ()


class Question(NamedTuple):
    """One question of a part.

    ``default`` is the answer assumed when the question is not asked (its
    ``when`` does not hold) and the one suggested when it is (moved into
    ``low`` to ``high``). ``when = (id, value)``: asked only if the answer to
    the question ``id`` of the same part is ``value``. ``place`` and ``item``
    say what a count counts (the prey pile, Wolves), so that a problem with
    its answer reads "Day 1, Ann, prey pile, Wolf"; without them the label
    names it.
    """

    id: str
    kind: Kind
    label: Label
    path: KeyPath | None
    low: int | None = None
    high: int | None = None
    choices: tuple[Choice, ...] = ()
    default: object = None
    when: tuple[str, object] | None = None
    place: Term | None = None
    item: Term | None = None

    def suggested(self) -> object:
        """The answer a prompt or a stepper starts from.

        >>> Question("left", Kind.COUNT, label("ask.knockouts"), ("left",), 1, 3, default=0).suggested()
        1
        """
        if self.kind is Kind.COUNT and isinstance(self.default, int):
            return min(max(self.default, self.low), self.high)
        return self.default

    def accepts(self, answer: object) -> bool:
        """True if ``answer`` is of this question's kind and within its bounds or choices."""
        if self.kind in (Kind.COUNT, Kind.SIGNED):
            if isinstance(answer, bool) or not isinstance(answer, int):
                return False
            return self.kind is Kind.SIGNED or self.low <= answer <= self.high
        if self.kind is Kind.FLAG:
            return isinstance(answer, bool)
        return any(answer == choice.value for choice in self.choices)

    def _problem(self, code: Common, number: int | None, player: str | None, **params: object) -> Problem:
        named = self.place is not None or self.item is not None
        return Problem(code, round=number, player=player, place=self.place, item=self.item,
                       key=".".join(self.path) if self.path else None, field=None if named else self.label,
                       params=params)

    def refusal(self, answer: object, number: int | None = None, player: str | None = None) -> Problem | None:
        """What is wrong with ``answer``, in words a player reads beside the question; None if it is accepted.

        >>> from scoring.messages import messages
        >>> q = Question("knockouts", Kind.COUNT, label("round.where", number=1), ("knockouts",), 1, 3)
        >>> messages("en").problem(q.refusal(5))
        'Round 1: at most 3, not 5.'
        """
        if self.accepts(answer):
            return None
        if self.kind in (Kind.COUNT, Kind.SIGNED):
            if isinstance(answer, bool) or not isinstance(answer, int):
                expected = Term("type", "integer" if self.kind is Kind.SIGNED else "count")
                return self._problem(Common.NOT_A_WHOLE_NUMBER, number, player, expected=expected, found=Value(answer))
            if answer > self.high:
                return self._problem(Common.ABOVE_LIMIT, number, player, found=answer, limit=self.high)
            return self._problem(Common.BELOW_LIMIT, number, player, found=answer, limit=self.low)
        if self.kind is Kind.FLAG:
            return self._problem(Common.WRONG_TYPE, number, player, expected=Term("type", "flag"), found=Value(answer))
        return Problem(Common.NOT_A_CHOICE, round=number, player=player, key=".".join(self.path) if self.path else None,
                       params={"found": Value(answer), "question": self.label,
                               "expected": tuple(choice.label for choice in self.choices)})

    def unanswered(self, number: int | None = None, player: str | None = None) -> Problem:
        """The problem of this question left without an answer."""
        return Problem(Common.NO_ANSWER, round=number, player=player, key=".".join(self.path) if self.path else None,
                       params={"question": self.label})


class Given(NamedTuple):
    """A fact of the round that the rules decide: written at ``path``, shown as ``label``."""

    path: KeyPath
    value: object
    label: Label


def put(part: object, path: KeyPath, value: object) -> object:
    """``part`` with ``value`` at ``path`` (tables made as needed); an empty path replaces it.

    >>> put({"hand": {"wolf": 0}}, ("hand", "wolf"), 2)
    {'hand': {'wolf': 2}}
    >>> put(0, (), -3)
    -3
    """
    if not path:
        return value
    table = part
    for key in path[:-1]:
        table = table.setdefault(key, {})
    table[path[-1]] = value
    return part


class PartForm(NamedTuple):
    """The questions of one part of a day or round: the whole round's, or one player's.

    ``blank`` is the part in session-file form before any answer (counts at 0,
    flags false). With ``sparse``, an answer equal to its default is left out
    of the part, as a session file may leave out counts of 0.
    """

    questions: tuple[Question, ...]
    blank: object
    sparse: bool = False

    def asked(self, answers: Mapping[str, object]) -> Iterator[Question]:
        """The questions to ask, given the answers so far (a question's ``when`` may need an earlier one)."""
        for question in self.questions:
            if question.when is None or answers.get(question.when[0]) == question.when[1]:
                yield question

    def check(self, answers: Mapping[str, object], number: int | None = None,
              player: str | None = None) -> list[Problem]:
        """A problem per answer out of its question's bounds or choices, and per asked question left unanswered."""
        problems = []
        for question in self.asked(answers):
            if question.id not in answers:
                problems.append(question.unanswered(number, player))
            else:
                refused = question.refusal(answers[question.id], number, player)
                if refused is not None:
                    problems.append(refused)
        return problems

    def to_raw(self, answers: Mapping[str, object]) -> object:
        """The part in session-file form; a ValueError names an asked question left without an answer."""
        part = copy.deepcopy(self.blank)
        asked = {question.id for question in self.asked(answers)}
        unanswered = [question_id for question_id in asked if question_id not in answers]
        if unanswered:
            raise ValueError(f"no answer to {', '.join(sorted(unanswered))}")
        for question in self.questions:
            value = answers[question.id] if question.id in asked else question.default
            chosen = next((c for c in question.choices if c.value == value), None)
            if chosen is not None and chosen.writes:
                for path, written in chosen.writes:
                    part = put(part, path, written)
                continue
            if self.sparse and value == question.default:
                continue
            part = put(part, question.path, value)
        return part


@dataclass(frozen=True)
class EntryForm:
    """Everything asked for the next day or round of a session, and how it goes into the file.

    ``player_form(player, round_raw)`` gives a player's questions once the
    round's own answers are in ``round_raw`` (a Halali player's tiles depend
    on their role); ``check_part(player, part, round_raw)`` the problems of
    that player's part alone, read from its session-file form.
    """

    game: str
    number: int | None  # the day or round number; None when the session has no rounds (Card Hunter)
    round_word: str  # catalog table of the round's words: "round", "day"
    round: PartForm  # questions about the whole day or round
    given: tuple[Given, ...]  # facts the rules decide, shown and not asked
    players: tuple[str, ...]  # who enters a part, in seating order (empty: nobody)
    parts_at: KeyPath  # where the players' parts sit in the round, each under its player's name
    rounds_key: str | None  # the session's list of days or rounds; None: the round is the top level
    player_form: Callable[[str, Mapping], PartForm]
    check_part: Callable[[str, object, Mapping], list[Problem]]

    def heading(self, player: str) -> Label:
        """What a player's part is headed with: "Day 2 — Chloé"."""
        return label(f"{self.round_word}.heading", number=self.number, player=player)

    def again(self) -> Label:
        """The question asked when a whole day or round breaks a rule."""
        return label(f"{self.round_word}.again")

    def round_start(self, answers: Mapping[str, object]) -> dict:
        """The round in session-file form from its own answers and the given facts, before any part."""
        raw = self.round.to_raw(answers)
        for fact in self.given:
            put(raw, fact.path, fact.value)
        return raw

    def round_raw(self, answers: Mapping[str, object], parts: Mapping[str, object]) -> dict:
        """The whole day or round in session-file form; ``parts`` are the players' parts by name."""
        raw = self.round_start(answers)
        for player in self.players:
            put(raw, (*self.parts_at, player), parts[player])
        return raw

    def addition(self, round_raw: Mapping) -> dict:
        """What is added to the session file: a new ``[[days]]``/``[[rounds]]`` or top-level keys."""
        if self.rounds_key is None:
            return dict(round_raw)
        return {self.rounds_key: [round_raw]}

    def updated(self, raw_session: Mapping, round_raw: Mapping) -> dict:
        """The whole session with this day or round added (``raw_session`` is left as it was)."""
        updated = copy.deepcopy(dict(raw_session))
        if self.rounds_key is None:
            return updated | copy.deepcopy(dict(round_raw))
        updated[self.rounds_key] = list(updated.get(self.rounds_key, [])) + [copy.deepcopy(round_raw)]
        return updated
