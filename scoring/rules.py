"""One protocol for every game's rules, and the registry that finds them by game id.

Shaped like python-chess's variants: each game is one class over a shared core
(``scoring/<game>.py``), listed once in the registry of games
(:data:`pnp.core.games.SHIPPED`, which the kits use too) and found by id with
:func:`find_rules`. A game kept elsewhere (a plugin, a test's toy game) joins
at run time with :func:`register`; nothing else names the games.

A game's rules module holds every fact of the game that code needs (card or
tile kinds, set sizes, points, limits, colours, rounds, player range), the
facts its kit prints (:attr:`GameRules.facts`), and its
:class:`GameRules` reads a session, scores it, describes the entry form of the
next day or round, gives an example, and gives the rows of the text report.
"""

from __future__ import annotations

import copy
import importlib
from abc import ABC, abstractmethod
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping, NamedTuple

from pnp.core import games
from pnp.core.errors import TemplateError
from pnp.core.i18n import LANGUAGES, catalog_folder, common_catalog, compare_catalogs, load_catalog, placeholders
from pnp.core.sheet_model import Box, Cell, Column, Scoresheet, catalog_text
from pnp.core.sheet_model import Row as SheetRow
from scoring.errors import CatalogError, NothingToEnter, SessionFileError
from scoring.fields import FieldReader
from scoring.forms import EntryForm, Question
from scoring.problems import Common, FileError, Problem, ProblemCode
from scoring.result import Result, TieBreak
from scoring.sheet import box_row, name_row, outcome_notes, points, seats, winner_row
from scoring.terms import Label, Value, label


class Row(NamedTuple):
    """One row of the text report: its label and one cell per player, in seating order."""

    label: Label
    cells: tuple[object, ...]


class Report(NamedTuple):
    """The text report of a result: a grid of numbers (maybe none), then sentences."""

    rows: tuple[Row, ...]
    lines: tuple[Label, ...]


class Proofs(NamedTuple):
    """What ``pnp score check --prove`` adds for a session that passes every check.

    ``problems`` are the days or rounds that no play produces (the command
    fails with them; ``details[i]`` is merged into the JSON of
    ``problems[i]``); otherwise ``data`` is merged into the ``--json``
    object and ``lines`` are printed after the report.
    """

    problems: tuple[Problem, ...]
    details: tuple[dict, ...]
    data: dict
    lines: tuple[Label, ...]


class GameRules(ABC):
    """The rules of one game, as the score companion uses them.

    Class attributes say what every game must say; methods do the work. The
    session objects a game reads are its own; they carry ``game`` (its id)
    and ``players`` (the names, in seating order).
    """

    #: The game's id in session files, manifests and catalogs ("hunting-fever").
    id: str
    #: Fewest and most players.
    player_range: tuple[int, int]
    #: Days or rounds of a complete session; 0 when only an outcome is entered.
    rounds: int
    #: The catalog table of the words for one round: "round" (common) or the game's own ("day").
    round_word: str = "round"
    #: The session file's list of days or rounds; None when the outcome sits at the top level.
    rounds_key: str | None = "rounds"
    #: The game's own problem codes (the common ones are :class:`~scoring.problems.Common`).
    codes: type[ProblemCode] = Common
    #: Where ``<id>.<lang>.toml`` live; None for the shipped templates folder.
    catalog_folder: Path | None = None
    #: Where the words of a settled tie are (``<tie_words>.settled``, ``.still_level``): each
    #: game's own catalog names its tie-break; a game declared in a template shares common words.
    tie_words: str = "tie"
    #: The catalogs' name when it is not the game's id (``<name>.<lang>.toml``: a template's file name).
    catalog_name: str | None = None
    #: The top-level keys the outcome of a game without rounds is written at (Card Hunter's result).
    outcome_keys: tuple[str, ...] = ()
    #: The facts of the game its kit prints (counts, points, values), as
    #: ``{facts.<name>}`` in its templates and catalogs: nested tables of names to
    #: numbers or words, taken from the constants the rules themselves use.
    facts: Mapping[str, Any] = MappingProxyType({})
    #: The module whose ``proofs(session)`` decides each day or round exactly
    #: (``pnp score check --prove``), loaded only then; None when the game has none.
    prover: str | None = None

    @abstractmethod
    def read_session(self, reader: FieldReader, raw: dict, lang: str | None) -> Any:
        """The typed session read from ``raw``, recording every problem in ``reader``.

        ``game``, ``lang`` and ``date`` are already read; None when nothing
        more can be checked.
        """

    @abstractmethod
    def score(self, session: Any) -> Result:
        """Day or round scores, running totals, winners and tie-break of a checked session."""

    @abstractmethod
    def entry_form(self, session: Any) -> EntryForm:
        """The form of the next day or round; :class:`NothingToEnter` if there is none."""

    @abstractmethod
    def example(self, players: list[str]) -> dict:
        """A filled-in day or round (what is added to a session file), shown in a new session."""

    def proofs(self, session: Any) -> Proofs | None:
        """Each day or round of a checked session decided exactly; None when the game has no prover."""
        if self.prover is None:
            return None
        return importlib.import_module(self.prover).proofs(session)

    def starting_fields(self) -> dict:
        """Keys a new session starts with besides game, lang and players."""
        return {}

    def start_questions(self) -> tuple[Question, ...]:
        """What is chosen when a session starts (Card Hunter's difficulty), each answer at its ``path``.

        A front end that starts sessions asks them; the answer suggested is
        the one :meth:`starting_fields` writes.
        """
        return ()

    def before(self, raw: dict, number: int) -> dict:
        """A copy of the session as it stood before day or round ``number`` was entered.

        Its entry form is that day's or round's form, the one a correction of
        it answers again.

        >>> find_rules("halali").before({"game": "halali", "rounds": [{"blue": "Ann"}, {"blue": "Ben"}]}, 2)
        {'game': 'halali', 'rounds': [{'blue': 'Ann'}]}
        """
        earlier = copy.deepcopy(raw)
        if self.rounds_key is None:
            for key in self.outcome_keys:
                earlier.pop(key, None)
        elif isinstance(earlier.get(self.rounds_key), list):
            earlier[self.rounds_key] = earlier[self.rounds_key][:max(0, number - 1)]
        return earlier

    # -- helpers for the rules modules ---------------------------------------

    def next_number(self, entered: int) -> int:
        """The number of the next day or round; NothingToEnter once all are entered."""
        if entered >= self.rounds:
            raise NothingToEnter(label(f"{self.round_word}.complete", total=self.rounds))
        return entered + 1

    # -- the scoresheet -------------------------------------------------------

    def scoresheet(self, result: Result | None, date: str | None = None) -> Scoresheet:
        """What the game's scoresheet holds: blank (``result`` None) or filled from a scored session.

        ``date`` is the session's date, for a sheet that dates its lines.

        The plain sheet, which a game with more to write down replaces: a
        column per player, a box per day or round for its score, the total
        and the winners at the foot.
        """
        names = seats(result, self.player_range[1])
        rows = [name_row(names)]
        for number in range(1, self.rounds + 1):
            played = result.rounds[number - 1] if result is not None and number <= len(result.rounds) else None
            rows.append(SheetRow(catalog_text(f"{self.round_word}.where", number=number), tuple(
                Cell((Box("pen", value=points(played.of(name).score) if played and name else None),))
                for name in names)))
        foot = (box_row(catalog_text("sheet.total"), names,
                        lambda name: points(result.totals[name]) if result.complete else None),
                winner_row(result, names))
        return Scoresheet(catalog_text("sheet.title"), catalog_text("sheet.hint"), tuple(Column() for _ in names),
                          tuple(rows), foot=foot, notes=outcome_notes(result), filled=result is not None)

    # -- the text report -----------------------------------------------------

    def report(self, result: Result) -> Report:
        """The grid (a row per day or round, then totals) and the outcome sentences."""
        return Report(tuple(self.report_rows(result)), tuple(self.outcome(result)))

    def report_rows(self, result: Result) -> list[Row]:
        rows = [Row(self.round_label(played), tuple(played.of(p).score for p in result.players))
                for played in result.rounds]
        rows.append(Row(label("report.total"), tuple(result.totals[p] for p in result.players)))
        return rows

    def round_label(self, played: Any) -> Label:
        """The label of a day or round's row: "Day 2"."""
        return label(f"{self.round_word}.where", number=played.number)

    def outcome(self, result: Result) -> list[Label]:
        """Who won, and how a tie was settled; or how far an unfinished session is."""
        if not result.complete:
            return [label(f"{self.round_word}.in_progress", count=len(result.rounds), total=result.rounds_expected)]
        lines = [label("report.winners", count=len(result.winners), names=result.winners)]
        if result.tie_break is None:
            return lines
        points = result.totals[result.winners[0]]
        tied = result.tied or result.winners
        values = tuple(f"{player} {value}" for player, value in result.tie_break_values.items())
        if result.tie_break is not TieBreak.SHARED:
            lines.append(label(f"{self.tie_words}.settled", points=points, tied=tied, values=values))
        elif values:
            # The game's own tie-break left several level: its catalog says which one.
            lines.append(label(f"{self.tie_words}.still_level", points=points, tied=tied, values=values,
                               winners=result.winners))
        else:
            lines.append(label("report.tie_shared", points=points, tied=tied))
        return lines


def catalog_problems(rules: GameRules) -> list[str]:
    """Everything wrong with a game's catalogs, one sentence each (empty when they are sound).

    Each language has the same keys and placeholders; every problem code of
    the game has its message there with exactly the values the code names,
    and no message is left over; the words of its rounds are all there.
    """
    folder = rules.catalog_folder or catalog_folder()
    try:
        own = {lang: load_catalog(folder / f"{rules.catalog_name or rules.id}.{lang}.toml", lang)
               for lang in LANGUAGES}
    except CatalogError as error:
        return [str(error)]
    problems = []
    for lang in LANGUAGES[1:]:
        problems += [f"{rules.id}: {difference}" for difference in compare_catalogs(own[LANGUAGES[0]], own[lang])]
    codes = {} if rules.codes is Common else {code.value: code for code in rules.codes}
    for lang, catalog in own.items():
        messages = {key.removeprefix("problem."): text for key, text in catalog.texts.items()
                    if key.startswith("problem.")}
        for name in sorted(set(messages) - set(codes)):
            problems.append(f"{rules.id} ({lang}): problem.{name} is no code of {rules.codes.__name__}")
        for name, code in codes.items():
            if name in {common.value for common in Common}:
                problems.append(f"{rules.id}: the code {name} is already a common one")
            elif name not in messages:
                problems.append(f"{rules.id} ({lang}): no message problem.{name}")
            elif placeholders(messages[name]) != {"where"} | code.params:
                problems.append(f"{rules.id} ({lang}): problem.{name} must use {{where}} and "
                                f"{', '.join(sorted(code.params)) or 'nothing else'}")
        words = common_catalog(lang).merged(catalog)
        for key, text in common_catalog(lang).texts.items():
            if key.startswith("round."):
                ours = f"{rules.round_word}.{key.removeprefix('round.')}"
                # A game's words may leave a value out (a game scored once names no round number),
                # never ask for one the commands do not give.
                if not words.has(ours) or not placeholders(words.get(ours)) <= placeholders(text):
                    problems.append(f"{rules.id} ({lang}): {ours} is missing or uses a value {key} is not given")
    return problems


# ------------------------------------------------------------------ registry
# The games are listed once, in pnp.core.games (the kits and the web ask there too);
# these are the score companion's words for it.


def register(rules: GameRules, template: Path | None = None) -> GameRules:
    """Add a game found nowhere among the shipped ones; its id must be new.

    ``template`` is its kit's definition file, if it has one. A ValueError
    names an id already taken, rules that are not a :class:`GameRules`, a
    fact every game must give that is missing, or what is wrong with its
    catalogs (see :func:`catalog_problems`).
    """
    if not isinstance(rules, GameRules):
        raise ValueError(f"only GameRules can be registered, not {type(rules).__name__}")
    missing = [name for name in ("id", "player_range", "rounds") if not hasattr(rules, name)]
    if missing:
        raise ValueError(f"{type(rules).__name__} does not say its {', '.join(missing)}")
    if rules.id in games.game_ids():
        raise ValueError(f"a game with the id {rules.id!r} is already registered")
    # A missing sentence would otherwise surface mid-command, in one language only.
    problems = catalog_problems(rules)
    if problems:
        raise ValueError(f"the catalogs of {rules.id!r} are not ready: " + "; ".join(problems))
    games.join(rules, template)
    return rules


def unregister(game_id: str) -> None:
    """Remove a game added with :func:`register` (the shipped games stay)."""
    games.leave(game_id)


def game_ids() -> tuple[str, ...]:
    """Every game the companion knows: the shipped ones, then those registered."""
    return games.game_ids()


def rules_of(game_id: object) -> GameRules | None:
    """The rules of a game, its module (named in :data:`pnp.core.games.SHIPPED`) loaded on first
    use; None for an unknown game."""
    if not isinstance(game_id, str):
        return None
    found = _loaded.get(game_id) or games.joined_rules(game_id)
    if found is None and game_id in games.SHIPPED:
        found = _loaded[game_id] = importlib.import_module(games.SHIPPED[game_id]).RULES
    return found


#: The shipped games' rules, by id, once their modules are loaded.
_loaded: dict[str, GameRules] = {}


def find_rules(game_id: object) -> GameRules:
    """The rules of the game ``game_id``; a SessionFileError naming the known games otherwise.

    >>> find_rules("halali").player_range
    (2, 2)
    """
    rules = rules_of(game_id)
    if rules is None:
        raise SessionFileError(FileError.UNKNOWN_GAME, found=Value(game_id), expected=", ".join(game_ids()))
    return rules


def game_facts(game_id: str) -> Mapping[str, Any] | None:
    """The facts a game's kit may print (``{facts.points.bear}``), from its rules; None without rules."""
    found = rules_of(game_id)
    return None if found is None else found.facts


def blank_sheet(game_id: str) -> Scoresheet:
    """The blank scoresheet of a game (a :class:`pnp.core.sheet_model.Scoresheet`), as its rules describe it;
    a TemplateError for a game without rules."""
    found = rules_of(game_id)
    if found is None:
        raise TemplateError(f"no game rules are registered for {game_id!r}, so its scoresheet has no "
                            f"content (known: {', '.join(game_ids())})")
    return found.scoresheet(None)


__all__ = [
    "GameRules",
    "Proofs",
    "Report",
    "Row",
    "blank_sheet",
    "catalog_problems",
    "find_rules",
    "game_facts",
    "game_ids",
    "register",
    "rules_of",
    "unregister",
]
