"""What ``pnp score check`` shows: the JSON objects and the text table (pure functions)."""

from __future__ import annotations

from typing import Iterable

from scoring.errors import Problem, SessionFileError
from scoring.messages import Catalog, printable
from scoring.result import Game, Result, TieBreak


def result_json(result: Result) -> dict:
    """The ``--json`` object of a valid session.

    ``rounds`` has one object per day or round entered; Beavers entered as one
    ``[final]`` table and Card Hunter (a cooperative game without points) have
    ``rounds == []``, and Card Hunter has ``totals == {}``.
    """
    return {
        "game": result.game.value,
        "players": list(result.players),
        "rounds": [played.scores for played in result.rounds],
        "totals": dict(result.totals),
        "complete": result.complete,
        "winners": list(result.winners),
        "tie_break": result.tie_break.value if result.tie_break else None,
    }


def problem_json(problem: Problem, catalog: Catalog) -> dict:
    return {"code": problem.code, "message": catalog.problem(problem), "round": problem.round, "player": problem.player}


def problems_json(problems: Iterable[Problem], catalog: Catalog) -> dict:
    """The ``--json`` object of an invalid session: every problem."""
    return {"errors": [problem_json(problem, catalog) for problem in problems]}


def file_error_json(error: SessionFileError, catalog: Catalog) -> dict:
    """The ``--json`` object of a file that is not a session at all."""
    return {"errors": [{"code": error.code, "message": file_error_text(error, catalog), "round": None, "player": None}]}


def file_error_text(error: SessionFileError, catalog: Catalog) -> str:
    message = catalog.file_error(error)
    return f"{printable(error.path)}: {message}" if error.path else message


def problem_lines(problems: Iterable[Problem], catalog: Catalog) -> list[str]:
    return [f"  - {catalog.problem(problem)}" for problem in problems]


def _grid(rows: list[tuple[str, list[str]]], players: tuple[str, ...]) -> list[str]:
    names = [printable(p) for p in players]
    label_width = max([len(label) for label, _ in rows] + [0])
    widths = [max([len(name)] + [len(cells[i]) for _, cells in rows]) for i, name in enumerate(names)]
    lines = [" " * label_width + "".join("  " + name.rjust(w) for name, w in zip(names, widths))]
    for label, cells in rows:
        lines.append(label.ljust(label_width) + "".join("  " + cell.rjust(w) for cell, w in zip(cells, widths)))
    return [line.rstrip() for line in lines]


def _names(players: Iterable[str]) -> str:
    return ", ".join(printable(p) for p in players)


def _values(values: dict[str, int]) -> str:
    return ", ".join(f"{printable(p)} {v}" for p, v in values.items())


def format_result(result: Result, catalog: Catalog) -> str:
    """The human-readable table: days or rounds by players, totals, winners, tie-break."""
    lines = [catalog.text("table.title", game=catalog.text(f"game.{result.game.value}"), players=_names(result.players))]
    if result.game is Game.CARD_HUNTER:
        lines += _card_hunter_lines(result, catalog)
        return "\n".join(lines) + "\n"
    label = "day" if result.game is Game.HUNTING_FEVER else "round"
    rows: list[tuple[str, list[str]]] = []
    for played in result.rounds:
        row_label = catalog.text(f"where.{label}", number=played.number)
        if result.game is Game.HALALI:
            blue = next(p.player for p in played.players if p.role == "blue")
            row_label = catalog.text("table.halali_round", round=row_label, blue=printable(blue))
        rows.append((row_label, [str(played.of(p).score) for p in result.players]))
    rows.append((catalog.text("table.total"), [str(result.totals[p]) for p in result.players]))
    if result.game is Game.HALALI:
        tiles = {p: sum(r.of(p).tile_count or 0 for r in result.rounds) for p in result.players}
        rows.append((catalog.text("table.tiles"), [str(tiles[p]) for p in result.players]))
    lines.append("")
    lines += _grid(rows, result.players)
    lines.append("")
    lines += _outcome_lines(result, catalog, label)
    return "\n".join(lines) + "\n"


def _outcome_lines(result: Result, catalog: Catalog, label: str) -> list[str]:
    if not result.complete:
        done = len(result.rounds)
        return [catalog.plural(f"table.in_progress_{label}", done, total=result.rounds_expected)]
    lines = [catalog.plural("table.winners", len(result.winners), names=_names(result.winners))]
    if result.tie_break is None:
        return lines
    points = result.totals[result.winners[0]]
    tied = _names(result.tied or result.winners)
    if result.tie_break is TieBreak.BEST_DAY:
        lines.append(catalog.text("table.tie_best_day", points=points, tied=tied, values=_values(dict(result.tie_break_values))))
    elif result.tie_break is TieBreak.TILES:
        lines.append(catalog.text("table.tie_tiles", points=points, tied=tied, values=_values(dict(result.tie_break_values))))
    elif result.tie_break_values:
        key = "table.tie_shared_best_day" if result.game is Game.HUNTING_FEVER else "table.tie_shared_tiles"
        values = _values(dict(result.tie_break_values))
        lines.append(catalog.text(key, points=points, tied=tied, values=values, winners=_names(result.winners)))
    else:
        lines.append(catalog.text("table.tie_shared", points=points, tied=tied))
    return lines


def _card_hunter_lines(result: Result, catalog: Catalog) -> list[str]:
    outcome = result.card_hunter
    lines = []
    if outcome.difficulty is not None:
        lines.append(catalog.text("table.difficulty", difficulty=catalog.text(f"difficulty.{outcome.difficulty}")))
    if outcome.result is None:
        lines.append(catalog.text("table.not_played"))
    elif outcome.result == "won":
        lines.append(catalog.plural("table.team_won", outcome.knockouts_left))
    else:
        lines.append(catalog.text("table.team_lost"))
    return lines
