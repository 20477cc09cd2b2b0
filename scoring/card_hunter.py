"""Card Hunter: a cooperative game; the team wins or loses together.

The team starts with 3 knockout tokens; losing the last one loses the game, so
a won game ends with 1 to 3 tokens left and a lost one with none.  The base
game is for 1 to 3 players and the variant rulebook adds a 4-player mode; the
session file does not say which rulebook was used, so 1 to 4 players are
accepted (reading of the rules).
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.errors import Problem, Span
from scoring.fields import At, FieldReader
from scoring.result import CardHunterOutcome, Game, Result

GAME = Game.CARD_HUNTER
DIFFICULTIES = ("easy", "normal", "hard")
RESULTS = ("won", "lost")
KNOCKOUT_TOKENS = 3
MIN_PLAYERS, MAX_PLAYERS = 1, 4
TOP_KEYS = ("game", "players", "lang", "date", "difficulty", "result", "knockouts_left")


@dataclass(frozen=True)
class CardHunterSession:
    players: tuple[str, ...]
    difficulty: str | None = None
    result: str | None = None
    knockouts_left: int = 0
    lang: str | None = None
    game: Game = GAME


def check_outcome(result: str | None, knockouts_left: int) -> list[Problem]:
    """A won game keeps 1 to 3 knockout tokens, a lost game none."""
    at = {"key": "knockouts_left"}
    if knockouts_left > KNOCKOUT_TOKENS:
        return [Problem("knockouts_out_of_range", params={"count": knockouts_left, "expected": Span(0, KNOCKOUT_TOKENS)}, **at)]
    if result == "won" and knockouts_left == 0:
        return [Problem("won_without_knockouts", params={"expected": Span(1, KNOCKOUT_TOKENS)}, **at)]
    if result == "lost" and knockouts_left > 0:
        return [Problem("lost_with_knockouts", params={"count": knockouts_left}, **at)]
    return []


def read_session(reader: FieldReader, raw: dict, lang: str | None) -> CardHunterSession | None:
    reader.known_keys(raw, TOP_KEYS, At())
    players = reader.players(raw, MIN_PLAYERS, MAX_PLAYERS, GAME.value)
    mark = reader.mark()
    difficulty = reader.choice(raw["difficulty"], DIFFICULTIES, At(key="difficulty")) if "difficulty" in raw else None
    result = reader.choice(raw["result"], RESULTS, At(key="result")) if "result" in raw else None
    knockouts = reader.count(raw.get("knockouts_left", 0), At(key="knockouts_left"))
    if reader.since(mark) or players is None or knockouts is None:
        return None
    reader.extend(check_outcome(result, knockouts))
    return CardHunterSession(players, difficulty, result, knockouts, lang)


def score(session: CardHunterSession) -> Result:
    complete = session.result is not None
    won = session.result == "won"
    return Result(
        game=GAME,
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
        card_hunter=CardHunterOutcome(session.difficulty, session.result, session.knockouts_left),
    )
