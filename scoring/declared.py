"""A designer's game scored from its declaration: the rules of a scoresheet written in TOML.

A template may declare how its game is scored, without Python (``[score]`` in
docs/TEMPLATES.md): a row per round, each player's points for it, or a row per
category counted once at the end, each thing counted worth some points; the
numbers a box takes; whether the highest or the lowest total wins; and the
tie-break (the most, or the fewest, in a row; the best or the last round). The
template loader reads the declaration into a :class:`Declaration`;
:class:`DeclaredRules` is then a game's rules like any other: it reads and
checks a session, scores it, asks ``pnp score add``'s questions, writes the
text report and describes the scoresheet, blank or filled, which the one sheet
layout every game shares draws.

Its words are the game's own catalogs (``score.<row>`` names a row,
``score.hint`` may replace the sheet's hint) over the common ones
(``sheet.declared.*``, ``tally.*`` for a game scored once at the end).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Callable, Mapping, NamedTuple

from pnp.core.sheet_model import Box, CatalogText, Cell, Column, Row, Scoresheet, catalog_text
from scoring.errors import NothingToEnter
from scoring.fields import At, FieldReader
from scoring.forms import EntryForm, Kind, PartForm, Question
from scoring.problems import Common, Problem
from scoring.result import PlayerRound, Result, RoundResult, ScoreLine, decided_result
from scoring.rules import GameRules, Report
from scoring.rules import Row as ReportRow
from scoring.sheet import box_row, name_row, seats, winner_row
from scoring.terms import Term, label

#: Keys a declared game's session file holds besides its rounds or scores.
_TOP_KEYS = ("game", "template", "players", "lang", "date")


class Declaration(NamedTuple):
    """What a template's ``[score]`` table says, checked."""

    id: str
    player_range: tuple[int, int]
    #: Rounds of a whole game, each a row of the sheet; 0 when the game is scored once, by ``rows``.
    rounds: int = 0
    #: The categories counted once at the end, each a row, in order; () when scored by rounds.
    rows: tuple[str, ...] = ()
    #: What one thing counted in a row is worth (1 for a row left out).
    points: Mapping[str, int] = {}
    #: The least and the most a box takes.
    low: int = 0
    high: int = 999
    lowest_wins: bool = False
    #: A row (the most in it wins a tie on the total), "best_round" or "last_round"; None: shared.
    tie_break: str | None = None
    #: The tie-break's lowest value wins (the fewest in the row, the lowest round).
    tie_break_lowest: bool = False
    #: The game's own words: ``score.hint`` replaces the common hint.
    own_hint: bool = False
    #: Where ``<catalog_name>.<lang>.toml`` lie: beside the template.
    catalog_folder: Path | None = None
    catalog_name: str | None = None


class DeclaredTieBreak(str, Enum):
    """How a declared game's tie was settled (``--json`` prints the value)."""

    ROW = "row"
    BEST_ROUND = "best_round"
    LAST_ROUND = "last_round"


@dataclass(frozen=True)
class DeclaredSession:
    players: tuple[str, ...]
    game: str
    #: Each round's points by player (a game scored by rounds).
    rounds: tuple[Mapping[str, int], ...] = ()
    #: Each player's count in each row (a game scored once); None until entered.
    scores: Mapping[str, Mapping[str, int]] | None = None
    lang: str | None = None


@dataclass(frozen=True)
class Tally:
    """What a game scored once holds beyond its totals: each player's count in each row."""

    counts: Mapping[str, Mapping[str, int]]


class DeclaredRules(GameRules):
    """The rules a template declares (:class:`Declaration`): one object per declared game."""

    def __init__(self, declaration: Declaration) -> None:
        self.declaration = declaration
        self.id = declaration.id
        self.player_range = declaration.player_range
        self.rounds = declaration.rounds
        self.catalog_folder = declaration.catalog_folder
        self.catalog_name = declaration.catalog_name
        by_rows = bool(declaration.rows)
        self.round_word = "tally" if by_rows else "round"
        self.rounds_key = None if by_rows else "rounds"
        self.outcome_keys = ("scores",) if by_rows else ()
        self.tie_words = "sheet.declared.tie"

    # -- reading -------------------------------------------------------------

    def number(self, reader: FieldReader, value: object, at: At) -> int | None:
        """One box's number: a whole number from the declaration's least to its most."""
        low, high = self.declaration.low, self.declaration.high
        found = reader.count(value, at, signed=low < 0)
        if found is None:
            return None
        if found > high:
            reader.add(Common.ABOVE_LIMIT, at, found=found, limit=high)
            return None
        if found < low:
            reader.add(Common.BELOW_LIMIT, at, found=found, limit=low)
            return None
        return found

    def read_session(self, reader: FieldReader, raw: dict, lang: str | None) -> DeclaredSession | None:
        key = "scores" if self.declaration.rows else "rounds"
        reader.known_keys(raw, (*_TOP_KEYS, key), At())
        players = reader.players(raw, *self.player_range)
        if players is None:
            return None
        if self.declaration.rows:
            scores = self._scores(reader, raw["scores"], players) if "scores" in raw else None
            return DeclaredSession(players, self.id, scores=scores, lang=lang)
        raw_rounds = reader.rounds(raw, "rounds", self.rounds)
        rounds = []
        for number, raw_round in enumerate(raw_rounds or (), start=1):
            points = self._round(reader, raw_round, players, At(round=number))
            if points is not None:
                rounds.append(points)
        return DeclaredSession(players, self.id, rounds=tuple(rounds), lang=lang)

    def _each_player(self, reader: FieldReader, raw: object, players: tuple[str, ...], at: At, *,
                     read: Callable[[object, At], Any]) -> dict | None:
        """A table with every player's entry, each once, each read by ``read``: a round's points,
        or the counts a player has in the rows."""
        table = reader.table(raw, at)
        if table is None:
            return None
        mark = reader.mark()
        for name in table:
            reader.known_player(name, players, at)
        found = {}
        for player in players:
            if player not in table:
                reader.add(Common.MISSING_KEY, at.to(player=player), name=player)
                continue
            found[player] = read(table[player], at.to(player=player))
        return None if reader.since(mark) else found

    def _round(self, reader: FieldReader, raw: object, players: tuple[str, ...], at: At) -> dict | None:
        """A round: every player's points, each once."""
        return self._each_player(reader, raw, players, at, read=lambda value, where: self.number(reader, value, where))

    def _scores(self, reader: FieldReader, raw: object, players: tuple[str, ...]) -> dict | None:
        """Every player's count in each row (a row left out counts 0)."""
        return self._each_player(reader, raw, players, At(key="scores"),
                                 read=lambda value, where: self._part(reader, value, where))

    def _part(self, reader: FieldReader, raw: object, at: At) -> dict | None:
        table = reader.table(raw, at)
        if table is None:
            return None
        mark = reader.mark()
        rows = self.declaration.rows
        reader.known_keys(table, rows, at)
        counts = {row: self.number(reader, table.get(row, 0), at.to(item=Term("score", row))) for row in rows}
        return None if reader.since(mark) else counts

    # -- scoring -------------------------------------------------------------

    def worth(self, row: str, count: int) -> int:
        return count * self.declaration.points.get(row, 1)

    def score(self, session: DeclaredSession) -> Result:
        declared = self.declaration
        players = session.players
        if declared.rows:
            counts = session.scores or {}
            totals = {p: sum(self.worth(row, n) for row, n in counts.get(p, {}).items()) for p in players}
            second = None
            if declared.tie_break in declared.rows:
                second = {p: counts.get(p, {}).get(declared.tie_break, 0) for p in players}
            return decided_result(self.id, players, (), 0, totals=totals, complete=session.scores is not None,
                                  second=second, second_kind=DeclaredTieBreak.ROW if second is not None else None,
                                  lowest=declared.lowest_wins, second_lowest=declared.tie_break_lowest,
                                  own=Tally(counts))
        running = {p: 0 for p in players}
        rounds = []
        for number, points in enumerate(session.rounds, start=1):
            row = []
            for player in players:
                running[player] += points[player]
                row.append(PlayerRound(player, (ScoreLine("round", "points", points[player], points[player]),),
                                       points[player], running[player]))
            rounds.append(RoundResult(number, tuple(row)))
        second, kind = None, None
        if declared.tie_break == "best_round" and session.rounds:
            pick = min if declared.tie_break_lowest else max
            second = {p: pick(points[p] for points in session.rounds) for p in players}
            kind = DeclaredTieBreak.BEST_ROUND
        elif declared.tie_break == "last_round" and session.rounds:
            second = dict(session.rounds[-1])
            kind = DeclaredTieBreak.LAST_ROUND
        return decided_result(self.id, players, rounds, self.rounds, totals=running,
                              complete=len(rounds) == self.rounds, second=second, second_kind=kind,
                              lowest=declared.lowest_wins, second_lowest=declared.tie_break_lowest)

    # -- entering ------------------------------------------------------------

    def _question(self, question_id: str, words: str, path: tuple[str, ...]) -> Question:
        low, high = self.declaration.low, self.declaration.high
        return Question(question_id, Kind.COUNT, label(words), path, low=low, high=high,
                        default=min(max(0, low), high))

    def entry_form(self, session: DeclaredSession) -> EntryForm:
        """Each player's points for the next round, or each player's count in every row."""
        if self.declaration.rows:
            if session.scores is not None:
                raise NothingToEnter(label("tally.complete"))
            part = PartForm(tuple(self._question(row, f"score.{row}", (row,)) for row in self.declaration.rows),
                            blank={})
            number, parts_at, rounds_key = None, ("scores",), None

            def check_part(player: str, raw_part: object, round_raw: Mapping) -> list[Problem]:
                reader = FieldReader()
                self._part(reader, raw_part, At(player=player))
                return reader.problems
        else:
            number = self.next_number(len(session.rounds))
            part = PartForm((self._question("points", "ask.round_points", ()),), blank=0)
            parts_at, rounds_key = (), "rounds"

            def check_part(player: str, raw_part: object, round_raw: Mapping) -> list[Problem]:
                reader = FieldReader()
                self.number(reader, raw_part, At(round=number, player=player))
                return reader.problems

        return EntryForm(game=self.id, number=number, round_word=self.round_word, round=PartForm((), {}), given=(),
                         players=session.players, parts_at=parts_at, rounds_key=rounds_key,
                         player_form=lambda player, round_raw: part, check_part=check_part)

    def example(self, players: list[str]) -> dict:
        declared = self.declaration
        middle = min(max(declared.low, 3), declared.high)
        if declared.rows:
            return {"scores": {players[0]: {row: middle for row in declared.rows}}}
        return {"rounds": [{player: middle for player in players}]}

    # -- the text report -----------------------------------------------------

    def report(self, result: Result) -> Report:
        if not self.declaration.rows:
            return super().report(result)
        counts = result.own.counts if isinstance(result.own, Tally) else {}
        rows = [ReportRow(label(f"score.{row}"), tuple(self.worth(row, counts[p][row]) for p in result.players))
                for row in self.declaration.rows] if counts else []
        if counts:
            rows.append(ReportRow(label("report.total"), tuple(result.totals[p] for p in result.players)))
        return Report(tuple(rows), tuple(self.outcome(result)))

    # -- the scoresheet ------------------------------------------------------

    def rule_notes(self) -> tuple[CatalogText, ...]:
        """What the sheet says of winning: the lowest total, and how a tie is settled."""
        declared = self.declaration
        notes = [catalog_text("sheet.declared.lowest_wins")] if declared.lowest_wins else []
        way = "lowest" if declared.tie_break_lowest else "highest"
        if declared.tie_break is None:
            notes.append(catalog_text("sheet.declared.tie_shared"))
        elif not declared.rows:   # the best or the last round
            notes.append(catalog_text(f"sheet.declared.tie_{declared.tie_break}_{way}"))
        else:
            notes.append(catalog_text(f"sheet.declared.tie_row_{way}", row=catalog_text(f"score.{declared.tie_break}")))
        return tuple(notes)

    def scoresheet(self, result: Result | None, date: str | None = None) -> Scoresheet:
        """A column per player; a row per round or per category (its points beside it); the total
        and the winners at the foot; how the game is won, and a tie settled, under it."""
        declared = self.declaration
        names = seats(result, self.player_range[1])
        rows = [name_row(names)]
        if declared.rows:
            counts = result.own.counts if result is not None and isinstance(result.own, Tally) else {}
            for index, row in enumerate(declared.rows):
                worth = declared.points.get(row, 1)
                cells = tuple(Cell((Box("pen", value=_shown(counts[name][row]) if name in counts else None),))
                              for name in names)
                rows.append(Row(catalog_text(f"score.{row}"), cells,
                                points=None if worth == 1 else f"× {_shown(worth)}", shade=index % 2 == 1))
        else:
            for number in range(1, declared.rounds + 1):
                played = result.rounds[number - 1] if result is not None and number <= len(result.rounds) else None
                cells = tuple(Cell((Box("pen", value=_shown(played.of(name).score) if played and name else None),))
                              for name in names)
                rows.append(Row(catalog_text("round.where", number=number), cells, shade=number % 2 == 0))
        complete = result is not None and result.complete
        foot = (box_row(catalog_text("sheet.total"), names,
                        lambda name: _shown(result.totals[name]) if complete else None),
                winner_row(result, names))
        hint = catalog_text("score.hint") if declared.own_hint else \
            catalog_text("sheet.declared.hint_rows" if declared.rows else "sheet.hint")
        return Scoresheet(catalog_text("sheet.title"), hint, columns=tuple(Column() for _ in names), rows=tuple(rows),
                          foot=foot, notes=self._notes(result), filled=result is not None)

    def _notes(self, result: Result | None) -> tuple[CatalogText, ...]:
        """A blank sheet's rule; a filled one's: how far an unfinished game is, or the rule that
        settled a tie (and who shares a win still tied)."""
        if result is None:
            return self.rule_notes()
        if not result.complete:
            if self.declaration.rows:
                return ()
            return (catalog_text("sheet.incomplete", done=len(result.rounds), expected=result.rounds_expected),)
        if result.tie_break is None:
            return ()
        notes = list(self.rule_notes())
        if len(result.winners) > 1:
            notes.append(catalog_text("sheet.shared_win", names=", ".join(result.winners)))
        return tuple(notes)


def _shown(value: int) -> str:
    """A number as a sheet prints it, with a true minus sign."""
    return str(value).replace("-", "\u2212")


__all__ = ["Declaration", "DeclaredRules", "DeclaredSession", "DeclaredTieBreak", "Tally"]
