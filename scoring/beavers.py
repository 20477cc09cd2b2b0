"""Hunting Hunting Beavers: currency per round (or at the end), the checks, the winner.

Readings of the rules:

* Raids move currency from one player to another and hunts bring new currency
  from beaver cards.  So a player's currency never goes below 0, and the four
  players together never hold more than the 50 beavers of the deck: this is
  checked after every round (an unfinished session must also be possible so
  far) and reported once, at the first round that breaks it.
* Raids being transfers, a round's changes should not add up to less than 0;
  this is deliberately *not* an error, because players often write down only
  the loser's side of a raid and the issue lists no such check.
* A player left out of a round changed by 0; left out of ``[final]``, holds 0.
* ``colors``, when given, names every player's colour.
* Setup puts one Beaver card face down on each of the three hunting grounds and
  every round adds one more to each: 3 + 3 x 10 = 33 cards from a deck of 30.
  The kit reads the setup cards as round 1's (rounds 2 to 10 add one to each
  ground), which keeps the ten rounds the rules promise and empties the pile
  exactly (``HUNTING_GROUNDS * ROUNDS`` is the deck's 30 cards); the round aid
  and the board print it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from pnp.core.sheet_model import Box, Cell, Column, Row, Scoresheet, catalog_text
from scoring.errors import NothingToEnter
from scoring.fields import At, FieldReader
from scoring.forms import EntryForm, Kind, PartForm, Question
from scoring.problems import Problem, ProblemCode
from scoring.result import PlayerRound, Result, RoundResult, ScoreLine, decided_result
from scoring.rules import GameRules
from scoring.sheet import box_row, name_row, outcome_notes, winner_row
from scoring.terms import Term, label

ID = "hunting-hunting-beavers"
COLORS = ("red", "green", "blue", "white")
ROUNDS = 10
PLAYERS = 4
#: Beaver cards by the beavers each shows: 15 singles, 10 doubles and 5 triples.
BEAVER_CARDS = {1: 15, 2: 10, 3: 5}
BEAVERS_IN_DECK = sum(beavers * cards for beavers, cards in BEAVER_CARDS.items())
#: One Beaver card goes face down on each of the three hunting grounds every round.
HUNTING_GROUNDS = 3
#: Unit cards dealt to each player at setup, and the most a hand holds; a round draws up to 2.
HAND = 6
DRAW = 2
#: Unit cards: how many of each (the rules text leaves out the warriors' count: 36 is what
#: remains of its 144 cards), and their attack and defense.
UNITS = {"hunter": 72, "warrior": 36, "defender": 24, "war_chief": 12}
ATTACK = {"hunter": 2, "warrior": 3, "defender": 1, "war_chief": 10}
DEFENSE = {"hunter": 2, "warrior": 1, "defender": 5, "war_chief": 1}
#: Currency a raid takes per unit sent: up to 2 when nobody defends, up to 1 when its attack
#: beats the defense.
LOOT = {"undefended": 2, "defended": 1}
#: The kit's currency tokens: 35 worth 1 and 7 worth 5, 70 in all, more than the deck's 50
#: beavers, so the bank never runs dry.
TOKENS = {"small": {"value": 1, "count": 35}, "large": {"value": 5, "count": 7}}
TOP_KEYS = ("game", "players", "lang", "date", "colors", "rounds", "final")
#: What the kit prints of the game (``{facts.attack.hunter}`` in its template and catalogs).
FACTS = {
    "players": PLAYERS,
    "colors": COLORS,
    "rounds": ROUNDS,
    "units": UNITS,
    "attack": ATTACK,
    "defense": DEFENSE,
    "unit_cards": sum(UNITS.values()),
    "beaver_cards": BEAVER_CARDS,
    "beaver_deck": sum(BEAVER_CARDS.values()),
    # What the text deals as written: one card a ground at setup and one more every round (33),
    # which the kit's reading brings back to the deck's 30 (the module's docstring says why).
    "dealt_as_written": HUNTING_GROUNDS * (ROUNDS + 1),
    "beavers": BEAVERS_IN_DECK,
    "hunting_grounds": HUNTING_GROUNDS,
    "hand": HAND,
    "draw": DRAW,
    "loot": LOOT,
    "tokens": TOKENS,
}


class BeaversProblem(ProblemCode):
    """What a Hunting Hunting Beavers session can break (messages in the game's catalog)."""

    DUPLICATE_COLOR = "duplicate_color", "other"
    MISSING_COLOR = "missing_color", "expected"
    ROUNDS_AND_FINAL = "rounds_and_final"
    CURRENCY_BELOW_ZERO = "currency_below_zero", "total"
    CURRENCY_EXCEEDS_BEAVERS = "currency_exceeds_beavers", "total", "limit"


Code = BeaversProblem


@dataclass(frozen=True)
class BeaversSession:
    players: tuple[str, ...]
    rounds: tuple[Mapping[str, int], ...] = ()
    final: Mapping[str, int] | None = None
    colors: Mapping[str, str] = field(default_factory=dict)
    lang: str | None = None
    game: str = ID


@dataclass(frozen=True)
class Seating:
    """What a scored session holds of its own (the result's own slot): the colour each
    player sat at, when the session names them, and whether only the final holdings
    were entered (one ``[final]`` table, no rounds)."""

    colors: Mapping[str, str]
    final_only: bool = False


def check_rounds(players: tuple[str, ...], rounds: tuple[Mapping[str, int], ...]) -> list[Problem]:
    """Running totals never below 0 and never more than the deck holds."""
    problems = []
    totals = {p: 0 for p in players}
    below = set()
    over_reported = False
    for number, changes in enumerate(rounds, start=1):
        for player in players:
            totals[player] += changes.get(player, 0)
            if totals[player] < 0 and player not in below:
                below.add(player)
                problems.append(
                    Problem(
                        Code.CURRENCY_BELOW_ZERO,
                        round=number,
                        player=player,
                        params={"total": totals[player]},
                    )
                )
        held = sum(totals.values())
        if held > BEAVERS_IN_DECK and not over_reported:
            over_reported = True
            problems.append(
                Problem(Code.CURRENCY_EXCEEDS_BEAVERS, round=number, params={"total": held, "limit": BEAVERS_IN_DECK})
            )
    return problems


def check_final(players: tuple[str, ...], final: Mapping[str, int]) -> list[Problem]:
    problems = []
    for player in players:
        if final.get(player, 0) < 0:
            problems.append(
                Problem(Code.CURRENCY_BELOW_ZERO, player=player, key="final",
                        params={"total": final[player]})
            )
    held = sum(final.get(p, 0) for p in players)
    if held > BEAVERS_IN_DECK:
        problems.append(
            Problem(Code.CURRENCY_EXCEEDS_BEAVERS, key="final", params={"total": held, "limit": BEAVERS_IN_DECK})
        )
    return problems


def _currency_table(reader: FieldReader, raw: object, players: tuple[str, ...], at: At) -> dict[str, int] | None:
    table = reader.table(raw, at)
    if table is None:
        return None
    mark = reader.mark()
    for key in table:
        reader.known_player(key, players, at)
    result = {}
    for player in players:
        number = reader.count(table.get(player, 0), at.to(player=player), signed=True)
        result[player] = 0 if number is None else number
    return None if reader.since(mark) else result


def _read_colors(reader: FieldReader, raw: object, players: tuple[str, ...]) -> dict[str, str]:
    at = At(key="colors")
    table = reader.table(raw, at)
    if table is None:
        return {}
    colors: dict[str, str] = {}
    for key, value in table.items():
        if not reader.known_player(key, players, at):
            continue
        color = reader.choice(value, COLORS, at.to(player=key))
        if color is None:
            continue
        taken_by = next((p for p, c in colors.items() if c == color), None)
        if taken_by is not None:
            reader.add(Code.DUPLICATE_COLOR, at.to(player=key, item=Term("player_color", color)), other=taken_by)
        colors[key] = color
    for player in players:
        if player not in table:
            reader.add(Code.MISSING_COLOR, at.to(player=player), expected=", ".join(COLORS))
    return colors


class BeaversRules(GameRules):
    """Hunting Hunting Beavers: ten rounds of currency changes, or the currency at the end."""

    id = ID
    player_range = (PLAYERS, PLAYERS)
    rounds = ROUNDS
    codes = BeaversProblem
    facts = FACTS

    def read_session(self, reader: FieldReader, raw: dict, lang: str | None) -> BeaversSession | None:
        reader.known_keys(raw, TOP_KEYS, At())
        players = reader.players(raw, PLAYERS, PLAYERS)
        if players is None:
            return None
        colors = _read_colors(reader, raw["colors"], players) if "colors" in raw else {}
        if "rounds" in raw and "final" in raw:
            reader.add(Code.ROUNDS_AND_FINAL, At(key="final"))
        rounds: list[dict[str, int]] = []
        final = None
        if "rounds" in raw:
            raw_rounds = reader.rounds(raw, "rounds", ROUNDS)
            if raw_rounds is not None:
                clean = True
                for number, raw_round in enumerate(raw_rounds, start=1):
                    changes = _currency_table(reader, raw_round, players, At(round=number))
                    if changes is None:
                        clean = False
                    else:
                        rounds.append(changes)
                # A round that could not be read would shift every running total after it.
                if clean:
                    reader.extend(check_rounds(players, tuple(rounds)))
        if "final" in raw:
            final = _currency_table(reader, raw["final"], players, At(key="final"))
            if final is not None:
                reader.extend(check_final(players, final))
        return BeaversSession(players=players, rounds=tuple(rounds), final=final, colors=colors, lang=lang)

    def score(self, session: BeaversSession) -> Result:
        running = {p: 0 for p in session.players}
        rounds = []
        if session.final is not None:
            totals = {p: session.final.get(p, 0) for p in session.players}
            complete = True
        else:
            for number, changes in enumerate(session.rounds, start=1):
                row = []
                for player in session.players:
                    change = changes.get(player, 0)
                    running[player] += change
                    row.append(PlayerRound(player, (ScoreLine("currency", "change", change, change),), change,
                                           running[player]))
                rounds.append(RoundResult(number, tuple(row)))
            totals = running
            complete = len(session.rounds) == ROUNDS
        return decided_result(ID, session.players, rounds, ROUNDS, totals=totals, complete=complete,
                              own=Seating(dict(session.colors), session.final is not None))

    def entry_form(self, session: BeaversSession) -> EntryForm:
        """Each player's change of currency this round (a loss is negative)."""
        if session.final is not None:
            raise NothingToEnter(label("closed.final"))
        number = self.next_number(len(session.rounds))
        part = PartForm((Question("change", Kind.SIGNED, label("ask.currency_change"), (), default=0),), blank=0)

        def check_part(player: str, raw_part: object, round_raw: Mapping) -> list[Problem]:
            reader = FieldReader()
            change = reader.count(raw_part, At(round=number, player=player), signed=True)
            if change is None:
                return reader.problems
            after = check_rounds(session.players, session.rounds + ({player: change},))
            return [p for p in after if p.player == player and p.round == number]

        return EntryForm(
            game=ID, number=number, round_word=self.round_word, round=PartForm((), {}), given=(),
            players=session.players, parts_at=(), rounds_key="rounds",
            player_form=lambda player, round_raw: part, check_part=check_part,
        )

    def example(self, players: list[str]) -> dict:
        return {"rounds": [{players[0]: 3}]}

    def scoresheet(self, result: Result | None, date: str | None = None) -> Scoresheet:
        """A column per player colour; a row per round: currency won, lost, and the total so far."""
        by_color = seated_colors(result)
        names = tuple(by_color.get(color) for color in COLORS)
        columns = tuple(Column(catalog_text(f"color.{color}"), color) for color in COLORS)
        captions = Row(None, tuple(Cell(tuple(Box("caption", text=catalog_text(f"sheet.hhb.{part}"))
                                              for part in ("won", "lost", "after")))
                                   for _ in COLORS), kind="captions")
        rows = [name_row(names), captions]
        for number in range(1, ROUNDS + 1):
            played = result.rounds[number - 1] if result is not None and number <= len(result.rounds) else None
            cells = []
            for name in names:
                entry = played.of(name) if played is not None and name else None
                change = entry.score if entry is not None else 0
                cells.append(Cell((
                    Box("pen", value=str(change) if change > 0 else None),
                    Box("pen", value=str(-change) if change < 0 else None),
                    Box("total", value=str(entry.running_total) if entry is not None else None),
                )))
            rows.append(Row(str(number), tuple(cells), shade=number % 2 == 0))
        complete = result is not None and result.complete
        foot = (box_row(catalog_text("sheet.hhb.final"), names,
                        lambda name: str(result.totals[name]) if complete else None),
                winner_row(result, names))
        return Scoresheet(catalog_text("sheet.title"), catalog_text("sheet.hhb.hint"), columns, tuple(rows),
                          foot=foot, corner=catalog_text("sheet.hhb.round"), notes=outcome_notes(result),
                          filled=result is not None)


def seated_colors(result: Result | None) -> dict[str, str]:
    """Colour -> player: the session's colours, else the players in the rules' colour order."""
    if result is None:
        return {}
    colors = result.own.colors if isinstance(result.own, Seating) else {}
    if colors:
        return {color: player for player, color in colors.items()}
    return dict(zip(COLORS, result.players))


RULES = BeaversRules()

__all__ = [
    "ATTACK",
    "BEAVERS_IN_DECK",
    "BEAVER_CARDS",
    "COLORS",
    "DEFENSE",
    "DRAW",
    "FACTS",
    "HAND",
    "HUNTING_GROUNDS",
    "LOOT",
    "PLAYERS",
    "ROUNDS",
    "RULES",
    "TOKENS",
    "UNITS",
    "BeaversProblem",
    "BeaversRules",
    "BeaversSession",
    "Seating",
    "check_final",
    "check_rounds",
    "seated_colors",
]
