"""A day or round as stored: committed in the session, being entered, or being corrected.

The session document (a session file) holds every committed day or round and
always passes ``pnp score check``.  Beside it, rows of the ``parts`` table hold
what players have sent and is not in the document yet, one row per player (the
round's own answers under ``""``):

* for the day or round being entered (number ``entered + 1``), the parts sent
  so far; it is committed once every part is in and the whole day passes;
* for a day or round already committed, corrections: each row replaces that
  player's part (or the round's answers).  Every correction of the session is
  applied at once, when the whole session with all of them passes its checks;
  until then the scores stay as they were and the corrections wait, with the
  problems that keep them out, for the players to correct the rest.

A correction answers the day's own entry form again: the form the rules give
for the session as it stood before that day (:meth:`scoring.GameRules.before`),
so facts the rules decide from earlier rounds (Halali's round 2 blue player) are
decided again from the corrected ones.

Nothing here touches the database or names a game.
"""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Mapping

from scoring import Common, EntryForm, Problem, Term, Value, check_session, find_rules
from pnp.core.records import NamedTuple
from pnp.web import entry
from pnp.web.entry import Refused, WebProblem

#: Rows of the parts table of one session: {number: {key: body}}.
Rows = Mapping[int, Mapping[str, object]]


class UnknownRound(LookupError):
    """A day or round number outside the game's (``highest``: the last there is)."""

    def __init__(self, number: int, highest: int) -> None:
        self.number = number
        self.highest = highest
        super().__init__(f"no round {number}")


# -- where a game keeps its rounds ---------------------------------------------


def rounds_key(game: str) -> str | None:
    """The document key that lists the days or rounds (None: the game records one outcome)."""
    return find_rules(game).rounds_key


def rounds_in_game(game: str) -> int:
    """How many days or rounds a whole session has (1 for a game with a single outcome)."""
    return find_rules(game).rounds or 1


def rounds_entered(document: dict, complete: bool) -> int:
    """Days or rounds committed so far (a single-outcome game: 1 once its outcome is in)."""
    key = rounds_key(document["game"])
    if key is None:
        return 1 if complete else 0
    listed = document.get(key, [])
    return len(listed) if isinstance(listed, list) else 0


def committed_round(document: dict, number: int) -> dict:
    """Day or round ``number`` as the document holds it (a single-outcome game: its outcome keys)."""
    rules = find_rules(document["game"])
    if rules.rounds_key is None:
        return {key: copy.deepcopy(document[key]) for key in rules.outcome_keys if key in document}
    return copy.deepcopy(document[rules.rounds_key][number - 1])


def with_round(document: dict, number: int, body: object, fixed: tuple[str, ...] = ("game", "players")) -> dict:
    """A copy of ``document`` whose ``number``-th day or round is ``body`` (as in a session file).

    For a game with a single outcome, ``body`` replaces the outcome keys (and
    may not name ``fixed`` ones: who plays and what is played stay).
    """
    rules = find_rules(document["game"])
    if rules.rounds_key is None:
        if not isinstance(body, dict):
            raise Refused([Problem(Common.WRONG_TYPE, round=number, params={
                "expected": Term("type", "table"), "found": Value(body)})])
        named = [name for name in body if name in fixed]
        if named:
            raise Refused([Problem(WebProblem.FIXED_KEY, round=number, key=name) for name in named])
        return rules.before(document, number) | copy.deepcopy(body)
    updated = copy.deepcopy(document)
    listed = list(updated.get(rules.rounds_key, []))
    if number <= len(listed):
        listed[number - 1] = copy.deepcopy(body)
    else:
        listed.append(copy.deepcopy(body))
    updated[rules.rounds_key] = listed
    return updated


# -- one day or round ------------------------------------------------------------


def form_before(document: dict, number: int) -> EntryForm | None:
    """The entry form of day or round ``number`` of ``document`` (None if the days before it do not pass)."""
    return entry.form_for(find_rules(document["game"]).before(document, number))


class RoundState(NamedTuple):
    """Everything stored about one day or round.

    ``saved_round``/``saved_parts`` are what the document holds (empty for a
    day not committed); ``rows`` what waits beside it (the parts sent of the
    day being entered, or corrections of a committed one).
    """

    number: int
    committed: bool
    form: EntryForm | None
    saved_round: dict
    saved_parts: dict
    rows: dict

    @property
    def round_part(self) -> dict:
        """The round's own answers as they stand, a correction over what is committed."""
        return entry.merged_round(self.saved_round, self.rows.get(entry.ROUND_KEY, {}))

    @property
    def parts(self) -> dict:
        """Each player's part as it stands (a correction replaces the committed part)."""
        return {**self.saved_parts, **{key: body for key, body in self.rows.items() if key != entry.ROUND_KEY}}

    @property
    def correcting(self) -> bool:
        return self.committed and bool(self.rows)

    def start(self) -> dict | None:
        """The round in session-file form before any part, once its own questions are answered."""
        return entry.round_start(self.form, self.round_part) if self.form is not None else None


def round_state(document: dict, complete: bool, rows: Rows, number: int) -> RoundState:
    """Day or round ``number`` of a stored session; UnknownRound outside the game's."""
    highest = rounds_in_game(document["game"])
    if not 1 <= number <= highest:
        raise UnknownRound(number, highest)
    entered = rounds_entered(document, complete)
    own = dict(rows.get(number, {}))
    if number > entered:
        form = entry.form_for(document) if number == entered + 1 else None
        return RoundState(number=number, committed=False, form=form, saved_round={}, saved_parts={}, rows=own)
    corrected = corrected_document(document, complete, rows)
    form = form_before(corrected, number) or form_before(document, number)
    saved_round, saved_parts = {}, {}
    if form is not None:
        try:
            saved_round, saved_parts = entry.split(form, committed_round(document, number), number)
        except Refused:
            form = None
    return RoundState(number=number, committed=True, form=form, saved_round=saved_round, saved_parts=saved_parts,
                      rows=own)


def rebuilt(form: EntryForm, round_part: dict, parts: Mapping[str, object]) -> dict | None:
    """The whole day or round from its answers and parts (a part left out is the blank one); None if incomplete.

    The facts the rules decide (Halali's round 2 blue player) come from the form, decided again.
    """
    answers = entry.answers_of(form.round, round_part)
    if entry.unanswered(form.round, answers):
        return None
    start = form.round_start(answers)
    whole = {}
    for player in form.players:
        if player in parts:
            whole[player] = parts[player]
            continue
        part_form = form.player_form(player, start)
        try:
            whole[player] = part_form.to_raw(entry.fill_defaults(part_form, {}))
        except ValueError:
            return None
    return form.round_raw(answers, whole)


def corrected_document(document: dict, complete: bool, rows: Rows) -> dict:
    """The session with every waiting correction applied (it may not pass: that is what is checked)."""
    entered = rounds_entered(document, complete)
    staged = sorted(number for number, own in rows.items() if own and 1 <= number <= entered)
    if not staged:
        return document
    corrected = copy.deepcopy(document)
    # Every day from the first corrected one is built again: a fact the rules decide
    # from an earlier day (who plays blue in round 2) follows that day's correction.
    for number in range(staged[0], entered + 1):
        form = form_before(corrected, number) or form_before(document, number)
        if form is None:
            continue
        try:
            saved = entry.split(form, committed_round(document, number), number)
        except Refused:
            continue
        own = rows.get(number, {})
        round_part = entry.merged_round(saved.round, own.get(entry.ROUND_KEY, {}))
        parts = {**saved.parts, **{key: body for key, body in own.items() if key != entry.ROUND_KEY}}
        whole = rebuilt(form, round_part, parts)
        if whole is not None:
            corrected = with_round(corrected, number, whole)
    return corrected


def correction_problems(document: dict, complete: bool, rows: Rows) -> tuple[Problem, ...]:
    """What keeps the waiting corrections out of the scores: the problems of the first day that has any.

    A later day's form follows the earlier ones (who plays blue in round 2), so
    while an earlier day does not pass, what a later one seems to break says
    nothing yet: it is told once the earlier day is mended.
    """
    problems = check_session(corrected_document(document, complete, rows)).problems
    numbered = [problem.round for problem in problems if problem.round is not None]
    if not numbered:
        return problems
    first = min(numbered)
    return tuple(problem for problem in problems if problem.round in (None, first))


# -- versions --------------------------------------------------------------------


def _digest(value: object) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def state_hash(document: dict, rows: Rows) -> str:
    """What a round's HTTP ETag is made from: the session and everything waiting beside it.

    The same for the same stored state, and for no other (a content hash, so a
    change undone gives the old version back, as the state is the old one).
    """
    return _digest([document, {str(number): own for number, own in sorted(rows.items())}])


def form_version(state: RoundState, player: str | None) -> str:
    """The version a page's form carries: what that form shows and changes.

    The round's own answers, and the player's part for a player's form.
    Another player's part sent meanwhile leaves it as it is: each phone
    changes only its own part, and is refused only when what it showed has
    changed.
    """
    shown = [state.number, state.committed, state.round_part]
    if player is not None:
        shown.append(state.parts.get(player))
    return _digest(shown)


__all__ = ["RoundState", "Rows", "UnknownRound", "committed_round", "corrected_document", "correction_problems",
           "form_before",
           "form_version", "rebuilt", "round_state", "rounds_entered", "rounds_in_game", "rounds_key",
           "state_hash", "with_round"]
