"""Card Hunter: a cooperative game; the team wins or loses together.

The team starts with 3 knockout tokens; losing the last one loses the game, so
a won game ends with 1 to 3 tokens left and a lost one with none.  The base
game is for 1 to 3 players and the variant rulebook adds a 4-player mode; the
session file does not say which rulebook was used, so 1 to 4 players are
accepted (reading of the rules).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from pnp.core.sheet_model import Box, Cell, Column, Row, Scoresheet, catalog_text
from scoring.errors import NothingToEnter
from scoring.fields import At, FieldReader
from scoring.forms import Choice, EntryForm, Kind, PartForm, Question
from scoring.problems import Problem, ProblemCode
from scoring.result import Result
from scoring.rules import GameRules, Report
from scoring.terms import Label, Span, Term, label

ID = "card-hunter"
DIFFICULTIES = ("easy", "normal", "hard")
RESULTS = ("won", "lost")
#: Lines of the scoresheet: one fight each.
LOG_LINES = 12
KNOCKOUT_TOKENS = 3
#: The base game's players (what the kit prints); the variant rulebook adds a 4-player mode.
MIN_PLAYERS, BASE_MAX_PLAYERS, MAX_PLAYERS = 1, 3, 4
#: The three Characters; each has a Life and a Potion tracker.
CHARACTERS = ("jack", "queen", "king")
#: Every Character starts with 4 lives, and with potions by difficulty.
LIVES = 4
POTIONS = {"easy": 4, "normal": 3, "hard": 2}
#: The monster deck: for each Part (the pile a card is dealt to at setup, by the small icon
#: at its top), how many cards of each suit by their Hit symbols, and its Rage card.
MONSTER = {
    "tail": {"tail": {1: 2, 2: 2, 3: 1}, "head": {3: 1}, "claws": {1: 1, 2: 1}, "wings": {2: 2}, "rage": 1},
    "claws": {"tail": {1: 1, 2: 1}, "head": {1: 1, 2: 1}, "claws": {1: 2, 2: 1, 3: 2}, "wings": {2: 1}, "rage": 1},
    "wings": {"tail": {1: 1, 2: 1}, "head": {1: 2}, "claws": {1: 1}, "wings": {1: 3, 2: 1, 3: 1}, "rage": 1},
    "head": {"tail": {3: 1}, "head": {1: 1, 2: 3, 3: 1}, "claws": {2: 2}, "wings": {1: 1, 3: 1}, "rage": 1},
}
MONSTER_CARDS = sum(n for suits in MONSTER.values() for v in suits.values()
                    for n in (v.values() if isinstance(v, dict) else (v,)))
RAGE_CARDS = sum(suits["rage"] for suits in MONSTER.values())
#: The Random deck: one card per Part's Position.
RANDOM_CARDS = len(MONSTER)
#: The most Characters one Position holds.
POSITION_LIMIT = 2
#: Lives lost per Hit symbol of a monster's attack, and by every Character in Rage Mode.
HIT_DAMAGE = 1
RAGE_DAMAGE = 1
TOP_KEYS = ("game", "players", "lang", "date", "difficulty", "result", "knockouts_left")
#: What the kit prints of the game (``{facts.monster.tail.tail.1}`` in its template and catalogs).
FACTS = {
    "players": {"min": MIN_PLAYERS, "max": BASE_MAX_PLAYERS},
    "monster": MONSTER,
    "monster_cards": MONSTER_CARDS,
    "rage_cards": RAGE_CARDS,
    "part_cards": MONSTER_CARDS - RAGE_CARDS,
    "random_cards": RANDOM_CARDS,
    "trackers": 2 * len(CHARACTERS),
    "lives": LIVES,
    "potions": POTIONS,
    "knockouts": KNOCKOUT_TOKENS,
    "position": {"most": POSITION_LIMIT, "too_many": POSITION_LIMIT + 1},
    "damage": {"hit": HIT_DAMAGE, "rage": RAGE_DAMAGE},
}


class CardHunterProblem(ProblemCode):
    """What a Card Hunter session can break (messages in the game's catalog)."""

    KNOCKOUTS_OUT_OF_RANGE = "knockouts_out_of_range", "count", "expected"
    WON_WITHOUT_KNOCKOUTS = "won_without_knockouts", "expected"
    LOST_WITH_KNOCKOUTS = "lost_with_knockouts", "count"


Code = CardHunterProblem


@dataclass(frozen=True)
class TeamOutcome:
    """How a game ended for the team (the result's own slot); ``result`` None while unplayed."""

    difficulty: str | None
    result: str | None
    knockouts_left: int


@dataclass(frozen=True)
class CardHunterSession:
    players: tuple[str, ...]
    difficulty: str | None = None
    result: str | None = None
    knockouts_left: int = 0
    lang: str | None = None
    game: str = ID


def check_outcome(result: str | None, knockouts_left: int) -> list[Problem]:
    """A won game keeps 1 to 3 knockout tokens, a lost game none."""
    at = {"key": "knockouts_left"}
    if knockouts_left > KNOCKOUT_TOKENS:
        return [Problem(Code.KNOCKOUTS_OUT_OF_RANGE,
                        params={"count": knockouts_left, "expected": Span(0, KNOCKOUT_TOKENS)}, **at)]
    if result == "won" and knockouts_left == 0:
        return [Problem(Code.WON_WITHOUT_KNOCKOUTS, params={"expected": Span(1, KNOCKOUT_TOKENS)}, **at)]
    if result == "lost" and knockouts_left > 0:
        return [Problem(Code.LOST_WITH_KNOCKOUTS, params={"count": knockouts_left}, **at)]
    return []


def _choices(section: str, words: tuple[str, ...]) -> tuple[Choice, ...]:
    return tuple(Choice(word, Term(section, word)) for word in words)


class CardHunterRules(GameRules):
    """Card Hunter: a cooperative game; the team's result and the knockout tokens left are entered once."""

    id = ID
    player_range = (MIN_PLAYERS, MAX_PLAYERS)
    rounds = 0
    rounds_key = None
    codes = CardHunterProblem
    facts = FACTS

    def read_session(self, reader: FieldReader, raw: dict, lang: str | None) -> CardHunterSession | None:
        reader.known_keys(raw, TOP_KEYS, At())
        players = reader.players(raw, MIN_PLAYERS, MAX_PLAYERS)
        mark = reader.mark()
        difficulty = reader.choice(raw["difficulty"], DIFFICULTIES, At(key="difficulty")) if "difficulty" in raw else None
        result = reader.choice(raw["result"], RESULTS, At(key="result")) if "result" in raw else None
        knockouts = reader.count(raw.get("knockouts_left", 0), At(key="knockouts_left"))
        if reader.since(mark) or players is None or knockouts is None:
            return None
        reader.extend(check_outcome(result, knockouts))
        return CardHunterSession(players, difficulty, result, knockouts, lang=lang)

    def score(self, session: CardHunterSession) -> Result:
        complete = session.result is not None
        won = session.result == "won"
        return Result(
            game=ID,
            players=session.players,
            rounds=(),
            rounds_expected=0,
            totals={},
            complete=complete,
            # The team wins or loses together; there is no tie to break.
            winners=session.players if (complete and won) else (),
            tie_break=None,
            tied=(),
            tie_break_values={},
            own=TeamOutcome(session.difficulty, session.result, session.knockouts_left),
        )

    outcome_keys = ("result", "knockouts_left")

    def starting_fields(self) -> dict:
        return {"difficulty": "normal"}

    def start_questions(self) -> tuple[Question, ...]:
        """The difficulty, chosen before the fight: it sets the Characters' starting Potions."""
        return (Question("difficulty", Kind.CHOICE, label("ask.difficulty"), ("difficulty",),
                         choices=_choices("difficulty", DIFFICULTIES), default=self.starting_fields()["difficulty"]),)

    def entry_form(self, session: CardHunterSession) -> EntryForm:
        """The difficulty (if not set yet), the result and, for a won game, the knockout tokens left."""
        if session.result is not None:
            raise NothingToEnter(label("closed.result"))
        questions = []
        if session.difficulty is None:
            questions.append(Question("difficulty", Kind.CHOICE, label("ask.difficulty"), ("difficulty",),
                                      choices=_choices("difficulty", DIFFICULTIES)))
        questions.append(Question("result", Kind.CHOICE, label("ask.result"), ("result",),
                                  choices=_choices("result", RESULTS)))
        # Losing the last token loses the game: a won game keeps 1 to 3, a lost one none.
        questions.append(Question("knockouts_left", Kind.COUNT, label("ask.knockouts"), ("knockouts_left",),
                                  low=1, high=KNOCKOUT_TOKENS, default=0, when=("result", "won")))
        return EntryForm(
            game=ID, number=None, round_word=self.round_word, round=PartForm(tuple(questions), {}), given=(),
            players=(), parts_at=(), rounds_key=None, player_form=_no_part, check_part=_no_problems,
        )

    def example(self, players: list[str]) -> dict:
        return {"result": "won", "knockouts_left": 2}

    def report(self, result: Result) -> Report:
        outcome: TeamOutcome = result.own
        lines: list[Label] = []
        if outcome.difficulty is not None:
            lines.append(label("report.difficulty", difficulty=Term("difficulty", outcome.difficulty)))
        if outcome.result is None:
            lines.append(label("report.not_played"))
        elif outcome.result == "won":
            lines.append(label("report.team_won", count=outcome.knockouts_left))
        else:
            lines.append(label("report.team_lost"))
        return Report((), tuple(lines))


    def scoresheet(self, result: Result | None, date: str | None = None) -> Scoresheet:
        """The scoresheet: a line per fight, its date, team, difficulty and result to tick, tokens left, notes.

        A filled sheet holds the session's fight on its first line.
        """
        outcome: TeamOutcome | None = result.own if result is not None else None
        # Difficulty and result are wide enough for their words and boxes to tick side by side,
        # so twelve fights stay one line each.
        fields = (("date", 20), ("players_characters", 34), ("difficulty", 54), ("result", 30),
                  ("knockouts", 20), ("notes", 22))
        columns = tuple(Column(catalog_text(f"sheet.ch.{name}"), weight=weight) for name, weight in fields)
        difficulties = tuple(catalog_text(f"sheet.ch.{level}") for level in DIFFICULTIES)
        results = tuple(catalog_text(f"sheet.ch.{word}") for word in RESULTS)
        rows = []
        for number in range(1, LOG_LINES + 1):
            fight = outcome if number == 1 else None
            played = fight is not None and fight.result is not None
            rows.append(Row(str(number), (
                Cell((Box("text", value=date if fight else None),)),
                Cell((Box("text", value=", ".join(result.players) if fight else None),)),
                Cell((Box("choice", options=difficulties,
                          chosen=DIFFICULTIES.index(fight.difficulty) if fight and fight.difficulty else None),)),
                Cell((Box("choice", options=results,
                          chosen=RESULTS.index(fight.result) if played else None),)),
                Cell((Box("pen", value=str(fight.knockouts_left) if played else None),)),
                Cell((Box("text",
                          value=catalog_text("sheet.team_won" if fight.result == "won" else "sheet.team_lost")
                          if played else None),)),
            )))
        verdict = None
        if outcome is not None and outcome.result is not None:
            verdict = catalog_text("sheet.team_won" if outcome.result == "won" else "sheet.team_lost")
        return Scoresheet(catalog_text("sheet.title"), catalog_text("sheet.ch.hint"), columns, tuple(rows),
                          corner=catalog_text("sheet.ch.number"), dated=False, filled=result is not None,
                          verdict=verdict)


def _no_part(player: str, round_raw: Mapping) -> PartForm:
    raise ValueError("Card Hunter is entered by the team, not player by player")


def _no_problems(player: str, raw_part: object, round_raw: Mapping) -> list[Problem]:
    raise ValueError("Card Hunter is entered by the team, not player by player")


RULES = CardHunterRules()

__all__ = [
    "CHARACTERS",
    "BASE_MAX_PLAYERS",
    "DIFFICULTIES",
    "FACTS",
    "KNOCKOUT_TOKENS",
    "LOG_LINES",
    "LIVES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MONSTER",
    "MONSTER_CARDS",
    "POSITION_LIMIT",
    "POTIONS",
    "RAGE_CARDS",
    "RANDOM_CARDS",
    "RESULTS",
    "RULES",
    "CardHunterProblem",
    "CardHunterRules",
    "CardHunterSession",
    "TeamOutcome",
    "check_outcome",
]
