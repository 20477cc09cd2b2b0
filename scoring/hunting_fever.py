"""Hunting Fever: the end-of-day state each player enters, the checks, the day scores.

Each player owns one set of ten cards.  At the end of a hunting day every card
of every set is in exactly one place: a hand (own cards only), a prey pile
(anyone's cards) or, for a hunter that found no wolf, under its owner's lodge.

Readings of the rules (the text leaves these open):

* "Hunter" counts in a prey pile are only ever the pile owner's own hunter: a
  hunter enters a prey pile only as a poacher caught in closed season, and it
  is the poacher who puts it in their own pile.  Nothing captures hunters.
* A poacher's own lodge may be flipped too (they played closed season in an
  earlier round of the day), so check 8 asks for a flipped lodge of *another*
  player, and a flipped lodge needs a hunter in *another* player's pile: a
  player plays one card a round, never the hunter and closed season together.
* Tie-break: among the players tied on the total, the best single day wins; if
  several share that best day they all win ("shared"), even when other tied
  players were eliminated by the best-day comparison.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Mapping

from pnp.core.sheet_model import Box, Cell, Column, DetailLine, Key, KeyColumn, Row, Scoresheet, catalog_text, signed
from scoring.fields import At, FieldReader
from scoring.forms import Choice, EntryForm, Kind, PartForm, Question
from scoring.hunting_fever_counting import counting_rules, part_rules
from scoring.problems import Problem, ProblemCode
from scoring.result import PlayerRound, Result, RoundResult, ScoreLine, decided_result
from scoring.rules import GameRules
from scoring.sheet import box_row, name_row, outcome_notes, points, seats, winner_row
from scoring.terms import Term, label

ID = "hunting-fever"
CARDS = ("hunter", "wolf", "rabbit", "carrot", "closed_season")
#: One player's set: 1 hunter, 2 wolves, 3 rabbits, 3 carrots, 1 closed season.
SET = {"hunter": 1, "wolf": 2, "rabbit": 3, "carrot": 3, "closed_season": 1}
PREY_POINTS = {"hunter": -4, "wolf": 4, "rabbit": 2, "carrot": 1, "closed_season": 1}
HAND_POINTS = {"hunter": -4, "wolf": -4, "rabbit": -2, "carrot": -1, "closed_season": -1}
FLIPPED_LODGE_POINTS = 4
HUNTER_UNDER_LODGE_POINTS = 0
DAYS = 4
#: The player colours of the kit's five sets of cards (and lodges), one set per player: so
#: five players at most (each colour has its symbol, templates/colors.toml).
COLORS = ("yellow", "green", "red", "blue", "black")
MIN_PLAYERS, MAX_PLAYERS = 3, len(COLORS)
#: Where a player's own Hunter can end a day, and what that sets in their entry.
HUNTER_PLACES = {
    "hand": (("hand", "hunter"), 1),
    "prey": (("prey", "hunter"), 1),
    "lodge": (("hunter_under_lodge",), True),
}
ENTRY_KEYS = ("prey", "hand", "hunter_under_lodge", "lodge_flipped")
#: The kit's pictogram of each card (templates/icons), for the scoresheet.
CARD_ICONS = {"hunter": "hunter", "wolf": "wolf", "rabbit": "rabbit", "carrot": "carrot",
              "closed_season": "no_hunting"}
TOP_KEYS = ("game", "players", "lang", "date", "days")
#: What the kit prints of the game (``{facts.prey.wolf:+d}`` in its template and catalogs).
FACTS = {
    "players": {"min": MIN_PLAYERS, "max": MAX_PLAYERS},
    "colors": COLORS,
    "days": DAYS,
    "set": SET,
    "set_size": sum(SET.values()),
    "cards": sum(SET.values()) * MAX_PLAYERS,
    "prey": PREY_POINTS,
    "hand": HAND_POINTS,
    "lodge_bonus": FLIPPED_LODGE_POINTS,
    "under_lodge": HUNTER_UNDER_LODGE_POINTS,
}


class FeverTieBreak(str, Enum):
    """Hunting Fever's tie-break: the best single day among the tied players (the value is what
    ``--json`` prints)."""

    BEST_DAY = "best_day"


class HuntingFeverProblem(ProblemCode):
    """What a Hunting Fever session can break (messages in the game's catalog)."""

    MISSING_PLAYER_ENTRY = "missing_player_entry"
    TOO_MANY_DAYS = "too_many_days", "count", "limit"
    HAND_EXCEEDS_SET = "hand_exceeds_set", "count", "limit"
    HUNTER_NOT_IN_ONE_PLACE = "hunter_not_in_one_place", "prey", "hand", "lodge"
    CARDS_NOT_CONSERVED = "cards_not_conserved", "found", "expected", "players"
    NO_EMPTY_HAND = "no_empty_hand"
    FLIPPED_LODGE_CLOSED_SEASON_IN_HAND = "flipped_lodge_closed_season_in_hand"
    POACHER_WITHOUT_FLIPPED_LODGE = "poacher_without_flipped_lodge"
    FLIPPED_LODGE_WITHOUT_POACHER = "flipped_lodge_without_poacher"
    # the counting rules (scoring/hunting_fever_counting.py)
    RABBITS_BEYOND_CATCHES = "rabbits_beyond_catches", "count", "limit", "own", "wolves"
    CARROTS_BEYOND_MEALS = "carrots_beyond_meals", "count", "limit", "own", "rabbits"
    CLOSED_SEASON_BEYOND_MEALS = "closed_season_beyond_meals", "count", "limit", "own", "rabbits"
    MEALS_BEYOND_RABBITS = "meals_beyond_rabbits", "count", "limit", "own", "rabbits"
    RABBITS_WITHOUT_MEALS = "rabbits_without_meals", "count", "wolves", "meals", "rounds", "other", "spare"
    WOLVES_BEYOND_CATCHES = "wolves_beyond_catches", "count", "limit", "others", "catches"
    # one player's part, before the others are in
    CARDS_BEYOND_GAME = "cards_beyond_game", "count", "hand", "players", "limit", "room"
    WOLVES_BEYOND_OTHERS = "wolves_beyond_others", "count", "limit", "others", "catches"
    # pnp score check --prove (scoring/hunting_fever_proof.py)
    DAY_CANNOT_HAPPEN = "day_cannot_happen", "facts"


Code = HuntingFeverProblem


@dataclass(frozen=True)
class DayEntry:
    """One player's end of day: prey pile and hand counts by card, lodge state."""

    prey: Mapping[str, int]
    hand: Mapping[str, int]
    hunter_under_lodge: bool = False
    lodge_flipped: bool = False

    @property
    def hand_is_empty(self) -> bool:
        return not any(self.hand[card] for card in CARDS)


def entry(
    prey: Mapping[str, int] | None = None,
    hand: Mapping[str, int] | None = None,
    hunter_under_lodge: bool = False,
    lodge_flipped: bool = False,
) -> DayEntry:
    """A :class:`DayEntry` with every card kind filled in (missing kinds are 0)."""
    prey = prey or {}
    hand = hand or {}
    return DayEntry(
        prey={card: prey.get(card, 0) for card in CARDS},
        hand={card: hand.get(card, 0) for card in CARDS},
        hunter_under_lodge=hunter_under_lodge,
        lodge_flipped=lodge_flipped,
    )


@dataclass(frozen=True)
class HuntingFeverSession:
    players: tuple[str, ...]
    days: tuple[Mapping[str, DayEntry], ...]
    lang: str | None = None
    game: str = ID


# -- checks ------------------------------------------------------------------


def _problem(code: Code, day: int, player: str | None = None, card: str | None = None, **params: object) -> Problem:
    return Problem(code=code, round=day, player=player, item=Term("card", card) if card else None, params=params)


def check_player_day(day: int, player: str, state: DayEntry) -> list[Problem]:
    """Checks 3, 4 and 7: what one player's own entry can break on its own."""
    problems = []
    for card in CARDS:
        if state.hand[card] > SET[card]:
            problems.append(
                _problem(Code.HAND_EXCEEDS_SET, day, player, card, count=state.hand[card], limit=SET[card])
            )
    hunters = state.prey["hunter"] + state.hand["hunter"] + int(state.hunter_under_lodge)
    if hunters != 1:
        problems.append(
            _problem(
                Code.HUNTER_NOT_IN_ONE_PLACE,
                day,
                player,
                "hunter",
                prey=state.prey["hunter"],
                hand=state.hand["hunter"],
                lodge=int(state.hunter_under_lodge),
            )
        )
    if state.lodge_flipped and state.hand["closed_season"] > 0:
        problems.append(_problem(Code.FLIPPED_LODGE_CLOSED_SEASON_IN_HAND, day, player, "closed_season"))
    return problems


def check_part_alone(day: int, player: str, state: DayEntry, players: int) -> list[Problem]:
    """Everything one player's part can break before the other players have entered theirs.

    Checks 3, 4 and 7; then no kind of card more in the hand and the pile
    together than the game has for ``players`` players (the hand holds only
    the player's own cards, the pile anyone's); then the counting rules that
    involve only this player's cards (:func:`~scoring.hunting_fever_counting.part_rules`).
    Problems about the pile point at the pile's counts.
    """
    problems = check_player_day(day, player, state)
    if problems:
        return problems
    pile = Term("place", "prey")
    for card in CARDS:
        limit = players * SET[card]
        if state.prey[card] + state.hand[card] > limit:
            problems.append(Problem(Code.CARDS_BEYOND_GAME, round=day, player=player, place=pile,
                                    item=Term("card", card), params={
                                        "count": state.prey[card], "hand": state.hand[card], "players": players,
                                        "limit": limit, "room": limit - state.hand[card]}))
    if problems:
        return problems
    out = {card: SET[card] - state.hand[card] for card in CARDS}
    return [Problem(Code(finding.rule), round=day, player=player, place=pile,
                    item=Term("card", finding.card) if finding.card else None, params=finding.params)
            for finding in part_rules(players, SET, player, out, prey=state.prey)]


def check_day(day: int, players: tuple[str, ...], entries: Mapping[str, DayEntry]) -> list[Problem]:
    """Checks 3 to 8 on one complete day (every player has an entry), then the counting rules."""
    problems: list[Problem] = []
    for player in players:
        problems += check_player_day(day, player, entries[player])
    for card in CARDS:
        found = sum(entries[p].prey[card] + entries[p].hand[card] for p in players)
        if card == "hunter":
            found += sum(entries[p].hunter_under_lodge for p in players)
        expected = len(players) * SET[card]
        if found != expected:
            problems.append(
                _problem(Code.CARDS_NOT_CONSERVED, day, None, card, found=found, expected=expected,
                         players=len(players))
            )
    if players and not any(entries[p].hand_is_empty for p in players):
        problems.append(_problem(Code.NO_EMPTY_HAND, day))
    for player in players:
        others = [p for p in players if p != player]
        if entries[player].prey["hunter"] > 0 and not any(entries[p].lodge_flipped for p in others):
            problems.append(_problem(Code.POACHER_WITHOUT_FLIPPED_LODGE, day, player, "hunter"))
        if entries[player].lodge_flipped and not any(entries[p].prey["hunter"] > 0 for p in others):
            problems.append(_problem(Code.FLIPPED_LODGE_WITHOUT_POACHER, day, player, "closed_season"))
    if not problems:
        # Once the counts add up, "cards that left the hand" means something: the counting rules.
        out = {p: {card: SET[card] - entries[p].hand[card] for card in CARDS} for p in players}
        for finding in counting_rules(players, out, {p: entries[p].prey for p in players}):
            problems.append(_problem(Code(finding.rule), day, finding.player, finding.card, **finding.params))
    return problems


# -- reading a session -------------------------------------------------------


def read_entry(reader: FieldReader, raw: object, at: At) -> DayEntry | None:
    table = reader.table(raw, at)
    if table is None:
        return None
    mark = reader.mark()
    reader.known_keys(table, ENTRY_KEYS, at)
    prey = reader.counts(table.get("prey", {}), CARDS, at.to(place=Term("place", "prey")), "card")
    hand = reader.counts(table.get("hand", {}), CARDS, at.to(place=Term("place", "hand")), "card")
    under = reader.flag(table.get("hunter_under_lodge", False), at.to(key="hunter_under_lodge"))
    flipped = reader.flag(table.get("lodge_flipped", False), at.to(key="lodge_flipped"))
    if reader.since(mark) or prey is None or hand is None or under is None or flipped is None:
        return None
    return DayEntry(prey=prey, hand=hand, hunter_under_lodge=under, lodge_flipped=flipped)


# -- scoring -----------------------------------------------------------------


def score_lines(state: DayEntry) -> tuple[ScoreLine, ...]:
    """Every count of one player's day with its points, in scoresheet order."""
    lines = [ScoreLine("prey", card, state.prey[card], state.prey[card] * PREY_POINTS[card]) for card in CARDS]
    lines += [ScoreLine("hand", card, state.hand[card], state.hand[card] * HAND_POINTS[card]) for card in CARDS]
    under = int(state.hunter_under_lodge)
    flipped = int(state.lodge_flipped)
    lines.append(ScoreLine("lodge", "hunter_under_lodge", under, under * HUNTER_UNDER_LODGE_POINTS))
    lines.append(ScoreLine("lodge", "lodge_flipped", flipped, flipped * FLIPPED_LODGE_POINTS))
    return tuple(lines)


def day_score(state: DayEntry) -> int:
    """Points for one player's day.

    >>> day_score(entry(prey={"wolf": 1, "carrot": 2}, hand={"rabbit": 1}, lodge_flipped=True))
    8
    """
    return sum(line.points for line in score_lines(state))


def entry_to_raw(state: DayEntry) -> dict:
    """The session-file form of one player's day."""
    return {
        "prey": {card: state.prey[card] for card in CARDS},
        "hand": {card: state.hand[card] for card in CARDS},
        "hunter_under_lodge": state.hunter_under_lodge,
        "lodge_flipped": state.lodge_flipped,
    }


# -- the rules ---------------------------------------------------------------


def _count(place: str, card: str, high: int) -> Question:
    return Question(f"{place}.{card}", Kind.COUNT, label(f"ask.{place}_count", card=Term("card", card)),
                    (place, card), low=0, high=high, default=0, place=Term("place", place), item=Term("card", card))


class HuntingFeverRules(GameRules):
    """Hunting Fever: four hunting days, each player entering their prey pile, hand and lodge."""

    id = ID
    player_range = (MIN_PLAYERS, MAX_PLAYERS)
    rounds = DAYS
    round_word = "day"
    rounds_key = "days"
    codes = HuntingFeverProblem
    facts = FACTS
    prover = "scoring.hunting_fever_proof"

    def read_session(self, reader: FieldReader, raw: dict, lang: str | None) -> HuntingFeverSession | None:
        """Check 1 and 2 while reading; checks 3-8 on every day that reads cleanly."""
        reader.known_keys(raw, TOP_KEYS, At())
        players = reader.players(raw, MIN_PLAYERS, MAX_PLAYERS)
        raw_days = reader.rounds(raw, "days", DAYS, Code.TOO_MANY_DAYS)
        if players is None or raw_days is None:
            return None
        days = []
        for number, raw_day in enumerate(raw_days, start=1):
            at = At(round=number)
            table = reader.table(raw_day, at)
            if table is None:
                continue
            mark = reader.mark()
            for key in table:
                reader.known_player(key, players, at)
            entries = {}
            for player in players:
                if player not in table:
                    reader.add(Code.MISSING_PLAYER_ENTRY, at.to(player=player))
                    continue
                state = read_entry(reader, table[player], at.to(player=player))
                if state is not None:
                    entries[player] = state
            if not reader.since(mark):
                reader.extend(check_day(number, players, entries))
                days.append(entries)
        return HuntingFeverSession(players=players, days=tuple(days), lang=lang)

    def score(self, session: HuntingFeverSession) -> Result:
        running = {p: 0 for p in session.players}
        best_day = {p: None for p in session.players}
        rounds = []
        for number, entries in enumerate(session.days, start=1):
            row = []
            for player in session.players:
                lines = score_lines(entries[player])
                points = sum(line.points for line in lines)
                running[player] += points
                best = best_day[player]
                best_day[player] = points if best is None else max(best, points)
                row.append(PlayerRound(player, lines, points, running[player]))
            rounds.append(RoundResult(number, tuple(row)))
        complete = len(session.days) == DAYS
        best = {p: (v if v is not None else 0) for p, v in best_day.items()}
        return decided_result(ID, session.players, rounds, DAYS, totals=running, complete=complete, second=best,
                              second_kind=FeverTieBreak.BEST_DAY)

    def entry_form(self, session: HuntingFeverSession) -> EntryForm:
        """Each player in turn: where their Hunter is, the lodge, then hand and prey-pile counts."""
        number = self.next_number(len(session.days))
        players = session.players
        others = [card for card in CARDS if card != "hunter"]
        hunter = Question(
            "hunter", Kind.CHOICE, label("ask.hunter_place"), None,
            choices=tuple(Choice(place, Term("hunter_place", place), (written,))
                          for place, written in HUNTER_PLACES.items()),
        )
        part = PartForm(
            (
                hunter,
                Question("lodge_flipped", Kind.FLAG, label("ask.lodge_flipped"), ("lodge_flipped",), default=False),
                # A hand holds only its owner's cards; a prey pile may hold anyone's.
                *(_count("hand", card, SET[card]) for card in others),
                *(_count("prey", card, len(players) * SET[card]) for card in others),
            ),
            blank=entry_to_raw(entry()),
        )

        def check_part(player: str, raw_part: object, round_raw: Mapping) -> list[Problem]:
            reader = FieldReader()
            state = read_entry(reader, raw_part, At(round=number, player=player))
            return reader.problems if state is None else check_part_alone(number, player, state, len(players))

        return EntryForm(
            game=ID, number=number, round_word=self.round_word, round=PartForm((), {}), given=(),
            players=players, parts_at=(), rounds_key="days",
            player_form=lambda player, round_raw: part, check_part=check_part,
        )

    def example(self, players: list[str]) -> dict:
        state = entry(hand={"hunter": 1, "rabbit": 1}, prey={"wolf": 1, "carrot": 2})
        return {"days": [{players[0]: entry_to_raw(state)}]}

    def scoresheet(self, result: Result | None, date: str | None = None) -> Scoresheet:
        """One name row, a column per player, a row per day, totals at the foot.

        A day is a player's cell of boxes on two lines, read as one sum: the
        prey pile's points plus the hand's (written as the cards print them,
        "In hand −4", so a player adds what the cards say), then, plus the 4 of
        a lodge on its 4 side (ticked), equals the day. Two lines keep every
        box for a signed two-digit number 10 mm wide with five players. A
        filled sheet also prints, under them, the cards each number was made of.
        """
        names = seats(result, MAX_PLAYERS)
        rows = [name_row(names)]
        for day in range(1, DAYS + 1):
            played = result.rounds[day - 1] if result is not None and day <= len(result.rounds) else None
            cells = []
            for name in names:
                entry_ = played.of(name) if played is not None and name is not None else None
                cells.append(_day_cell(entry_))
            rows.append(Row(catalog_text("sheet.hf.day", n=day), tuple(cells), shade=day % 2 == 0))
        complete = result is not None and result.complete
        foot = (
            box_row(catalog_text("sheet.hf.after_four"), names,
                    lambda name: points(result.totals[name]) if complete else None),
            box_row(catalog_text("sheet.hf.best_day"), names,
                    lambda name: points(max((r.of(name).score for r in result.rounds), default=None))),
            winner_row(result, names),
        )
        key = Key(catalog_text("sheet.hf.values"), (catalog_text("sheet.hf.prey_pile"),
                                                    catalog_text("sheet.hf.in_hand")),
                  tuple(KeyColumn(CARD_ICONS[card], (signed(PREY_POINTS[card]), signed(HAND_POINTS[card])))
                        for card in CARDS),
                  (catalog_text("sheet.hf.lodge_note", points=signed(FLIPPED_LODGE_POINTS)),
                   catalog_text("sheet.hf.under_lodge_note", points=signed(HUNTER_UNDER_LODGE_POINTS))))
        return Scoresheet(catalog_text("sheet.title"), catalog_text("sheet.hf.hint"),
                          tuple(Column() for _ in names),
                          tuple(rows), foot=foot, key=key, notes=outcome_notes(result), filled=result is not None)


def _day_cell(played: PlayerRound | None) -> Cell:
    """A player's day: prey pile + hand, + lodge = day; filled, with the cards counted."""
    if played is None:
        values: tuple[str | None, ...] = (None, None, None)
        flipped = None
        detail: tuple[DetailLine, ...] = ()
    else:
        prey = sum(line.points for line in played.lines if line.place == "prey")
        # The hand as the cards print it: negative (or 0).
        hand = sum(line.points for line in played.lines if line.place == "hand")
        lodge = played.line("lodge", "lodge_flipped").points
        values = (signed(prey), signed(hand), signed(played.score))
        flipped = 0 if lodge else None
        lines = []
        # Signed like the captions: "+" the prey pile's cards, "−" the hand's.
        for place, sign in (("prey", "+"), ("hand", "\u2212")):
            counted = tuple((CARD_ICONS[card], str(played.line(place, card).count)) for card in CARDS
                            if played.line(place, card).count)
            if counted:
                lines.append(DetailLine(sign, counted))
        if played.line("lodge", "hunter_under_lodge").count:
            # The lodge's pictogram, then the hunter under it.
            lines.append(DetailLine(None, (("lodge", ""), (CARD_ICONS["hunter"], "1"))))
        detail = tuple(lines)
    prey, hand, day = values
    return Cell((
        # sign "": the gap is kept, so both lines' boxes start at the same place.
        Box("pen", value=prey, text=catalog_text("sheet.hf.prey"), sign=""),
        Box("pen", value=hand, text=catalog_text("sheet.hf.hand"), sign="+"),
        # A lodge scores its 4 or nothing: tick the 4 rather than write it.
        Box("choice", options=(signed(FLIPPED_LODGE_POINTS),), chosen=flipped, icon="lodge", sign="+",
            breaks=True, weight=1.3),
        Box("total", value=day, text=catalog_text("sheet.hf.day_total"), sign="="),
    ), detail)


RULES = HuntingFeverRules()


__all__ = [
    "CARDS",
    "CARD_ICONS",
    "COLORS",
    "DAYS",
    "FACTS",
    "FLIPPED_LODGE_POINTS",
    "HAND_POINTS",
    "HUNTER_PLACES",
    "HUNTER_UNDER_LODGE_POINTS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PREY_POINTS",
    "RULES",
    "SET",
    "DayEntry",
    "FeverTieBreak",
    "HuntingFeverProblem",
    "HuntingFeverRules",
    "HuntingFeverSession",
    "check_day",
    "check_part_alone",
    "check_player_day",
    "day_score",
    "entry",
    "entry_to_raw",
]
