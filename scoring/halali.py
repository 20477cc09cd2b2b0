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
from enum import Enum
from typing import Mapping

from pnp.core.sheet_model import Box, Cell, Column, Row, Scoresheet, catalog_text
from scoring.fields import At, FieldReader
from scoring.forms import Choice, EntryForm, Given, Kind, PartForm, Question
from scoring.problems import Common, Problem, ProblemCode
from scoring.result import PlayerRound, Result, RoundResult, ScoreLine, decided_result
from scoring.rules import GameRules
from scoring.rules import Row as ReportRow
from scoring.sheet import box_row, name_row, outcome_notes, seats, winner_row
from scoring.terms import Label, Term, label

ID = "halali"
TILES = ("bear", "fox", "lumberjack", "hunter", "duck", "pheasant", "tree")
#: Tiles in the box.
BOX = {"bear": 2, "fox": 6, "lumberjack": 2, "hunter": 8, "duck": 7, "pheasant": 8, "tree": 15}
POINTS = {"bear": 10, "fox": 5, "lumberjack": 5, "hunter": 5, "pheasant": 3, "duck": 2, "tree": 2}
ROLES = ("blue", "brown")
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
#: Which side each tile belongs to: the blue and brown players' own, the rest neutral (green).
TEAMS = {tile: next((role for role, own in OWN.items() if tile in own), "green") for tile in TILES}
#: What the kit prints of the game (``{facts.points.bear}`` in its template and catalogs).
FACTS = {
    "players": PLAYERS,
    "rounds": ROUNDS,
    "tiles": sum(BOX.values()),
    "box": BOX,
    "points": POINTS,
    "teams": TEAMS,
    "exit_turns": EXIT_TURNS,
}
#: The kit's pictogram of each tile (templates/icons), for the scoresheet.
TILE_ICONS = {"bear": "halali_bear", "fox": "halali_fox", "lumberjack": "halali_lumberjack",
              "hunter": "halali_hunter", "duck": "halali_duck", "pheasant": "halali_pheasant",
              "tree": "halali_tree_deciduous"}


class HalaliProblem(ProblemCode):
    """What a Halali! session can break (messages in the game's catalog)."""

    ROLES_NOT_SWAPPED = "roles_not_swapped", "name"
    TILE_NOT_ALLOWED = "tile_not_allowed", "count", "role"
    OWN_TILES_EXCEED_EXITS = "own_tiles_exceed_exits", "count", "limit", "role"
    TILES_EXCEED_BOX = "tiles_exceed_box", "count", "limit"


Code = HalaliProblem


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
    game: str = ID


def _problem(code: Code, number: int, player: str | None = None, tile: str | None = None, **params: object) -> Problem:
    return Problem(code=code, round=number, player=player, item=Term("tile", tile) if tile else None, params=params)


def check_player_round(number: int, player: str, role: str, tiles: Mapping[str, int]) -> list[Problem]:
    """What one player's tiles can break on their own: kinds they cannot hold, too many exits."""
    problems = []
    for tile in TILES:
        if tiles[tile] and tile not in HOLDABLE[role]:
            problems.append(
                _problem(Code.TILE_NOT_ALLOWED, number, player, tile, count=tiles[tile], role=Term("role", role))
            )
    own = sum(tiles[tile] for tile in OWN[role])
    if own > EXIT_TURNS:
        problems.append(
            _problem(Code.OWN_TILES_EXCEED_EXITS, number, player, None, count=own, limit=EXIT_TURNS,
                     role=Term("role", role))
        )
    return problems


def check_round(
    number: int, players: tuple[str, ...], played: HalaliRound, previous_blue: str | None = None
) -> list[Problem]:
    """Every rule check of one round; ``previous_blue`` is round 1's blue player for round 2."""
    problems = []
    if previous_blue is not None and played.blue == previous_blue:
        problems.append(
            Problem(Code.ROLES_NOT_SWAPPED, round=number, player=played.blue, key="blue", params={"name": played.blue})
        )
    for player in players:
        problems += check_player_round(number, player, played.role(player), played.tiles[player])
    for tile in TILES:
        together = sum(played.tiles[p][tile] for p in players)
        if together > BOX[tile]:
            problems.append(_problem(Code.TILES_EXCEED_BOX, number, None, tile, count=together, limit=BOX[tile]))
    return problems


class HalaliTieBreak(str, Enum):
    """Halali's tie-break: more tiles held over both rounds (the value is what ``--json`` prints)."""

    TILES = "tiles"


def tiles_held(entry: PlayerRound) -> int:
    """How many tiles a player held at the end of a round."""
    return sum(line.count for line in entry.lines)


def score_lines(tiles: Mapping[str, int]) -> tuple[ScoreLine, ...]:
    return tuple(ScoreLine("tiles", tile, tiles[tile], tiles[tile] * POINTS[tile]) for tile in TILES)


def round_points(tiles: Mapping[str, int]) -> int:
    """Points for one player's tiles.

    >>> round_points({"bear": 1, "fox": 0, "lumberjack": 0, "hunter": 2, "duck": 1, "pheasant": 0, "tree": 3})
    28
    """
    return sum(line.points for line in score_lines(tiles))


class HalaliRules(GameRules):
    """Halali!: two rounds with swapped roles; each player enters the tiles they hold."""

    id = ID
    player_range = (PLAYERS, PLAYERS)
    rounds = ROUNDS
    codes = HalaliProblem
    facts = FACTS

    def read_session(self, reader: FieldReader, raw: dict, lang: str | None) -> HalaliSession | None:
        reader.known_keys(raw, TOP_KEYS, At())
        players = reader.players(raw, PLAYERS, PLAYERS)
        raw_rounds = reader.rounds(raw, "rounds", ROUNDS)
        if players is None or raw_rounds is None:
            return None
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
                reader.add(Common.MISSING_KEY, at.to(key="blue"), name="blue")
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

    def score(self, session: HalaliSession) -> Result:
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
                row.append(PlayerRound(player, lines, points, running[player], role=played.role(player)))
            rounds.append(RoundResult(number, tuple(row)))
        complete = len(session.rounds) == ROUNDS
        return decided_result(ID, session.players, rounds, ROUNDS, totals=running, complete=complete,
                              second=tile_totals, second_kind=HalaliTieBreak.TILES)

    def entry_form(self, session: HalaliSession) -> EntryForm:
        """Who plays blue (round 2: the other player, as roles swap), then each player's tiles."""
        number = self.next_number(len(session.rounds))
        players = session.players
        if session.rounds:
            blue = next(p for p in players if p != session.rounds[-1].blue)
            round_form = PartForm((), {})
            given = (Given(("blue",), blue, label("ask.blue_swapped", name=blue)),)
        else:
            who = Question("blue", Kind.PLAYER, label("ask.blue_player"), ("blue",),
                           choices=tuple(Choice(p, p) for p in players))
            round_form = PartForm((who,), {})
            given = ()

        def player_form(player: str, round_raw: Mapping) -> PartForm:
            role = "blue" if player == round_raw["blue"] else "brown"
            # Only the kinds this role can end a round holding, each at most what the box has.
            return PartForm(
                tuple(Question(tile, Kind.COUNT, label("ask.tile_count", tile=Term("tile", tile)), (tile,),
                               low=0, high=BOX[tile], default=0, item=Term("tile",
                                                                           tile)) for tile in HOLDABLE[role]),
                blank={}, sparse=True,
            )

        def check_part(player: str, raw_part: object, round_raw: Mapping) -> list[Problem]:
            reader = FieldReader()
            tiles = reader.counts(raw_part, TILES, At(round=number, player=player), "tile")
            if tiles is None:
                return reader.problems
            role = "blue" if player == round_raw.get("blue") else "brown"
            return check_player_round(number, player, role, tiles)

        return EntryForm(
            game=ID, number=number, round_word=self.round_word, round=round_form, given=given,
            players=players, parts_at=("tiles",), rounds_key="rounds",
            player_form=player_form, check_part=check_part,
        )

    def example(self, players: list[str]) -> dict:
        return {"rounds": [{"blue": players[0], "tiles": {players[0]: {"hunter": 2, "duck": 1}}}]}

    def round_label(self, played: RoundResult) -> Label:
        blue = next(p.player for p in played.players if p.role == "blue")
        return label("report.round", number=played.number, blue=blue)

    def report_rows(self, result: Result) -> list[ReportRow]:
        tiles = tuple(sum(tiles_held(r.of(p)) for r in result.rounds) for p in result.players)
        return [*super().report_rows(result), ReportRow(label("report.tiles"), tiles)]

    def scoresheet(self, result: Result | None, date: str | None = None) -> Scoresheet:
        """A column per player; per round, the role to circle and each kind of tile, counted and scored."""
        names = seats(result, PLAYERS)
        rows = [name_row(names)]
        empty = tuple(Cell() for _ in names)
        for number in range(1, ROUNDS + 1):
            played = result.rounds[number - 1] if result is not None and number <= len(result.rounds) else None
            rows.append(Row(catalog_text("sheet.halali.round", n=number), empty, kind="heading"))
            roles = tuple(catalog_text(f"sheet.halali.{role}") for role in ROLES)
            rows.append(Row(catalog_text("sheet.halali.role"), tuple(
                Cell((Box("choice", options=roles,
                          chosen=ROLES.index(played.of(name).role) if played and name else None),))
                for name in names)))
            rows.append(Row(None, tuple(Cell((Box("caption", text=catalog_text("sheet.halali.count")),
                                              Box("caption", text=catalog_text("sheet.halali.points"), sign="")))
                                        for _ in names), kind="captions"))
            for tile in _SHEET_ORDER:
                cells = []
                for name in names:
                    line = played.of(name).line("tiles", tile) if played and name else None
                    cells.append(Cell((Box("pen", value=str(line.count) if line else None),
                                       Box("total", value=str(line.points) if line else None, sign="="))))
                rows.append(Row(catalog_text(f"sheet.halali.tile.{tile}"), tuple(cells), icon=TILE_ICONS[tile],
                                points=f"\u00d7 {POINTS[tile]}"))
            rows.append(Row(catalog_text("sheet.halali.round_total"), tuple(
                Cell((Box("total", value=str(tiles_held(played.of(name))) if played and name else None),
                      Box("total", value=str(played.of(name).score) if played and name else None, sign="")))
                for name in names)))
        tiles = {name: sum(tiles_held(r.of(name)) for r in result.rounds) for name in names if name} \
            if result is not None else {}
        foot = (
            box_row(catalog_text("sheet.halali.grand_total"), names, lambda name: str(result.totals[name])),
            box_row(catalog_text("sheet.halali.tiles_total"), names, lambda name: str(tiles[name])),
            winner_row(result, names),
        )
        return Scoresheet(catalog_text("sheet.title"), catalog_text("sheet.halali.hint"),
                          tuple(Column() for _ in names),
                          tuple(rows), foot=foot, notes=outcome_notes(result), filled=result is not None)


#: The scoresheet's rows: the most valuable tiles first, as the reference card lists them.
_SHEET_ORDER = ("bear", "fox", "lumberjack", "hunter", "pheasant", "duck", "tree")

RULES = HalaliRules()

__all__ = [
    "BOX",
    "EXIT_TURNS",
    "FACTS",
    "HOLDABLE",
    "OWN",
    "PLAYERS",
    "POINTS",
    "ROLES",
    "ROUNDS",
    "RULES",
    "TEAMS",
    "TILES",
    "TILE_ICONS",
    "HalaliProblem",
    "HalaliRound",
    "HalaliRules",
    "HalaliSession",
    "HalaliTieBreak",
    "check_player_round",
    "check_round",
    "round_points",
    "tiles_held",
]
