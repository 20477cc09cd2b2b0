"""What ``pnp score check`` shows: the JSON objects and the text report (pure functions).

The text report is the same code for every game: a title, the grid of the
game's report rows, then its sentences (:meth:`scoring.rules.GameRules.report`).
"""

from __future__ import annotations

from typing import Iterable

from pnp.core.files import shown_path
from scoring.errors import SessionFileError
from scoring.forms import PartForm
from scoring.messages import Messages
from scoring.names import escaped
from scoring.problems import Problem
from scoring.result import Result
from scoring.rules import find_rules
from scoring.terms import Term


def result_json(result: Result) -> dict:
    """The ``--json`` object of a valid session.

    ``rounds`` has one object per day or round entered; Beavers entered as one
    ``[final]`` table and Card Hunter (a cooperative game without points) have
    ``rounds == []``, and Card Hunter has ``totals == {}``.
    """
    return {
        "game": result.game,
        "players": list(result.players),
        "rounds": [played.scores for played in result.rounds],
        "totals": dict(result.totals),
        "complete": result.complete,
        "winners": list(result.winners),
        "tie_break": result.tie_break.value if result.tie_break else None,
    }


def problem_json(problem: Problem, words: Messages) -> dict:
    return {"code": str(problem.code), "message": words.problem(problem), "round": problem.round,
            "player": problem.player}


def problems_json(problems: Iterable[Problem], words: Messages) -> dict:
    """The ``--json`` object of an invalid session: every problem."""
    return {"errors": [problem_json(problem, words) for problem in problems]}


def file_error_json(error: SessionFileError, words: Messages) -> dict:
    """The ``--json`` object of a file that is not a session at all."""
    return {"errors": [{"code": str(error.code), "message": file_error_text(error, words), "round": None,
                        "player": None}]}


def file_error_text(error: SessionFileError, words: Messages) -> str:
    message = words.file_error(error)
    return words.text("where.at", where=escaped(shown_path(error.path)), what=message) if error.path else message


def problem_lines(problems: Iterable[Problem], words: Messages) -> list[str]:
    return [f"  - {words.problem(problem)}" for problem in problems]


def part_json(form: PartForm, words: Messages) -> list[dict]:
    """The questions of one part as plain values, labels in ``words``' language (for a web page or a script).

    A question whose ``when`` is ``[id, value]`` is shown only once the
    question ``id`` has that answer; until then its ``default`` stands.
    """
    return [
        {
            "id": question.id,
            "kind": str(question.kind),
            "label": words.label(question.label),
            "low": question.low,
            "high": question.high,
            "choices": [{"value": choice.value, "label": words.show(choice.label)} for choice in question.choices],
            "default": question.default,
            "suggested": question.suggested(),
            "when": list(question.when) if question.when else None,
        }
        for question in form.questions
    ]


def _grid(rows: list[tuple[str, list[str]]], players: tuple[str, ...]) -> list[str]:
    names = [escaped(p) for p in players]
    label_width = max([len(label) for label, _ in rows] + [0])
    widths = [max([len(name)] + [len(cells[i]) for _, cells in rows]) for i, name in enumerate(names)]
    lines = [" " * label_width + "".join("  " + name.rjust(w) for name, w in zip(names, widths))]
    for label, cells in rows:
        lines.append(label.ljust(label_width) + "".join("  " + cell.rjust(w) for cell, w in zip(cells, widths)))
    return [line.rstrip() for line in lines]


def format_result(result: Result, words: Messages) -> str:
    """The human-readable report: title, the game's rows by players, then its sentences."""
    report = find_rules(result.game).report(result)
    lines = [words.text("report.title", game=Term("game", "name"), players=result.players)]
    if report.rows:
        rows = [(words.label(row.label), [str(cell) for cell in row.cells]) for row in report.rows]
        lines += ["", *_grid(rows, result.players), ""]
    lines += [words.label(line) for line in report.lines]
    return "\n".join(lines) + "\n"


__all__ = ["part_json", "file_error_json", "file_error_text", "format_result", "problem_lines", "problems_json",
           "result_json"]
