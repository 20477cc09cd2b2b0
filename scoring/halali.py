"""Halali!: the tiles each player holds after a round, the checks, the points.

The blue player leads bears and foxes, the brown player hunters and
lumberjacks; roles swap for round 2.  A player holds tiles they captured plus
their own tiles moved out through a forest exit during the final five turns.

Readings of the rules:

* Who can hold what follows from who captures what (bears take lumberjacks and
  hunters, foxes take ducks and pheasants; lumberjacks take trees, hunters take
  bears, foxes, ducks and pheasants) plus own tiles moved out.  So the blue
  player can hold every kind but trees; the brown player any kind.
* Each player has exactly five turns after the last tile is turned over and
  moves at most one tile a turn, so at most five of their own colour leave the
  board per round.
* A player's tiles left out of a round count as 0 (as card counts do), but
  every round names its ``blue`` player, round 2 included, so that a swapped
  role is something the players confirmed rather than something guessed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from scoring.errors import Problem, Term
from scoring.fields import At, FieldReader
from scoring.result import Game, PlayerRound, Result, RoundResult, ScoreLine, TieBreak, decided_result

GAME = Game.HALALI
TILES = ("bear", "fox", "lumberjack", "hunter", "duck", "pheasant", "tree")
#: Tiles in the box.
BOX = {"bear": 2, "fox": 6, "lumberjack": 2, "hunter": 8, "duck": 7, "pheasant": 8, "tree": 15}
POINTS = {"bear": 10, "fox": 5, "lumberjack": 5, "hunter": 5, "pheasant": 3, "duck": 2, "tree": 2}
OWN = {"blue": ("bear", "fox"), "brown": ("lumberjack", "hunter")}
#: What each side can end a round holding (captures plus its own tiles moved out).
HOLDABLE = {
    "blue": ("bear", "fox", "lumberjack", "hunter", "duck", "pheasant"),
    "brown": TILES,
}
EXIT_TURNS = 5
ROUNDS = 2
PLAYERS = 2
ROUND_KEYS = ("blue", "tiles")
TOP_KEYS = ("game", "players", "lang", "date", "rounds")


@dataclass(frozen=True)
class HalaliRound:
    """One round: who played blue, and each player's tiles by kind."""

    blue: str
    tiles: Mapping[str, Mapping[str, int]]

    def role(self, player: str) -> str:
        return "blue" if player == self.blue else "brown"


@dataclass(frozen=True)
class HalaliSession:
    players: tuple[str, ...]
    rounds: tuple[HalaliRound, ...]
    lang: str | None = None
    game: Game = GAME


def _problem(code: str, number: int, player: str | None = None, tile: str | None = None, **params: object) -> Problem:
    return Problem(code=code, round=number, player=player, item=Term("tile", tile) if tile else None, params=params)


def check_player_round(number: int, player: str, role: str, tiles: Mapping[str, int]) -> list[Problem]:
    """What one player's tiles can break on their own: kinds they cannot hold, too many exits."""
    problems = []
    for tile in TILES:
        if tiles[tile] and tile not in HOLDABLE[role]:
            problems.append(
                _problem("tile_not_allowed", number, player, tile, count=tiles[tile], role=Term("role", role))
            )
    own = sum(tiles[tile] for tile in OWN[role])
    if own > EXIT_TURNS:
        problems.append(
            _problem("own_tiles_exceed_exits", number, player, None, count=own, limit=EXIT_TURNS, role=Term("role", role))
        )
    return problems


def check_round(
    number: int, players: tuple[str, ...], played: HalaliRound, previous_blue: str | None = None
) -> list[Problem]:
    """Every rule check of one round; ``previous_blue`` is round 1's blue player for round 2."""
    problems = []
    if previous_blue is not None and played.blue == previous_blue:
        problems.append(
            Problem("roles_not_swapped", round=number, player=played.blue, key="blue", params={"name": played.blue})
        )
    for player in players:
        problems += check_player_round(number, player, played.role(player), played.tiles[player])
    for tile in TILES:
        together = sum(played.tiles[p][tile] for p in players)
        if together > BOX[tile]:
            problems.append(_problem("tiles_exceed_box", number, None, tile, count=together, limit=BOX[tile]))
    return problems


def read_session(reader: FieldReader, raw: dict, lang: str | None) -> HalaliSession | None:
    reader.known_keys(raw, TOP_KEYS, At())
    players = reader.players(raw, PLAYERS, PLAYERS, GAME.value)
    raw_rounds = reader.array(raw.get("rounds", []), At(key="rounds"))
    if players is None or raw_rounds is None:
        return None
    if len(raw_rounds) > ROUNDS:
        reader.add("too_many_rounds", At(key="rounds"), count=len(raw_rounds), limit=ROUNDS)
    rounds: list[HalaliRound] = []
    previous_blue = None
    for number, raw_round in enumerate(raw_rounds, start=1):
        at = At(round=number)
        table = reader.table(raw_round, at)
        if table is None:
            previous_blue = None
            continue
        mark = reader.mark()
        reader.known_keys(table, ROUND_KEYS, at)
        blue = None
        if "blue" not in table:
            reader.add("missing_key", at.to(key="blue"), name="blue")
        else:
            blue = reader.text(table["blue"], at.to(key="blue"))
            if blue is not None:
                reader.known_player(blue, players, at.to(key="blue"))
        tiles = {}
        raw_tiles = reader.table(table.get("tiles", {}), at.to(key="tiles"))
        if raw_tiles is not None:
            for key in raw_tiles:
                reader.known_player(key, players, at.to(key="tiles"))
            for player in players:
                counts = reader.counts(raw_tiles.get(player, {}), TILES, at.to(player=player), "tile")
                if counts is not None:
                    tiles[player] = counts
        if reader.since(mark):
            previous_blue = blue if number == 1 else None
            continue
        played = HalaliRound(blue=blue, tiles=tiles)
        reader.extend(check_round(number, players, played, previous_blue if number == 2 else None))
        previous_blue = blue
        rounds.append(played)
    return HalaliSession(players=players, rounds=tuple(rounds), lang=lang)


def score_lines(tiles: Mapping[str, int]) -> tuple[ScoreLine, ...]:
    return tuple(ScoreLine("tiles", tile, tiles[tile], tiles[tile] * POINTS[tile]) for tile in TILES)


def round_points(tiles: Mapping[str, int]) -> int:
    """Points for one player's tiles.

    >>> round_points({"bear": 1, "fox": 0, "lumberjack": 0, "hunter": 2, "duck": 1, "pheasant": 0, "tree": 3})
    28
    """
    return sum(line.points for line in score_lines(tiles))


def score(session: HalaliSession) -> Result:
    running = {p: 0 for p in session.players}
    tile_totals = {p: 0 for p in session.players}
    rounds = []
    for number, played in enumerate(session.rounds, start=1):
        row = []
        for player in session.players:
            tiles = played.tiles[player]
            lines = score_lines(tiles)
            points = sum(line.points for line in lines)
            held = sum(tiles.values())
            running[player] += points
            tile_totals[player] += held
            row.append(PlayerRound(player, lines, points, running[player], role=played.role(player), tile_count=held))
        rounds.append(RoundResult(number, tuple(row)))
    complete = len(session.rounds) == ROUNDS
    return decided_result(GAME, session.players, rounds, ROUNDS, running, complete, tile_totals, TieBreak.TILES)


def round_to_raw(played: HalaliRound) -> dict:
    """The session-file form of one round (what ``pnp score add`` writes)."""
    return {
        "blue": played.blue,
        "tiles": {player: {t: n for t, n in counts.items() if n} for player, counts in played.tiles.items()},
    }
