"""Sessions as CSV: one row per player per day or round, readable in a spreadsheet.

The format knows no game.  Every value of a session is a cell whose column
names where it goes, with two placeholders filled from the row:

* ``{player}`` is the row's ``player`` (the name as a key of the session),
* ``{round}`` is the row's ``round`` (1-based index into a list of days or rounds).

So a Hunting Fever day gives columns such as ``days.{round}.{player}.prey.wolf``,
a Halali round ``rounds.{round}.blue`` (the same on every row of that round) and
``rounds.{round}.tiles.{player}.bear``, and the game ``game``.  A session
without any day or round yet has one row per player with ``round`` empty.

Cells hold whole numbers, ``true``/``false`` and text; text that would read as
something else (``"42"``, ``"true"``, text starting with a quote or a brace, or
with ``=``, ``+``, ``-``, ``@``, which spreadsheets run as formulas) is written
as a JSON string, quotes included.  An empty cell means "not given".
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import re

from scoring.errors import SessionFileError
from scoring.problems import FileError
from scoring.terms import Value

ROUND = "{round}"
PLAYER = "{player}"
_WHOLE = re.compile(r"-?[0-9]+")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


# -- writing -----------------------------------------------------------------


def _cell(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, str):
        plain = (
            value
            and value == value.strip()
            and not _WHOLE.fullmatch(value)
            and value not in ("true", "false")
            and not value.startswith(('"', "{", "[") + _FORMULA_START)
        )
        return value if plain else json.dumps(value, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False)


def _leaves(value: object, path: tuple[str, ...]):
    """Every (path, value) below ``value``; empty tables and lists are leaves too."""
    if isinstance(value, dict) and value:
        for key, item in value.items():
            yield from _leaves(item, path + (str(key),))
    else:
        yield path, value


def _owned(path: tuple[str, ...], start: int, players: list[str]) -> tuple[str | None, str]:
    """The player a value belongs to (the first key from ``start`` on that names one) and its column."""
    parts = list(path)
    player = None
    for index in range(start, len(parts)):
        if parts[index] in players:
            player, parts[index] = parts[index], PLAYER
            break
    for index, part in enumerate(parts):
        if part not in (ROUND, PLAYER) and ("." in part or "{" in part):
            raise ValueError(f"a session key cannot be a CSV column: {part!r}")
    return player, ".".join(parts)


def dumps(raw: dict) -> str:
    """The CSV text of a session (players in seating order, days or rounds in order).

    >>> print(dumps({"game": "hunting-hunting-beavers", "players": ["Ann", "Ben"], "rounds": [{"Ann": 3, "Ben": -1}]}), end="")
    round,player,game,rounds.{round}.{player}
    1,Ann,hunting-hunting-beavers,3
    1,Ben,hunting-hunting-beavers,-1
    """
    players = [str(p) for p in raw.get("players", [])]
    shared: dict[str, str] = {}  # column -> cell, on every row
    own: dict[str, dict[str, str]] = {p: {} for p in players}  # on the player's rows
    by_round: dict[int, dict[str, str]] = {}  # on every row of that round
    by_round_own: dict[int, dict[str, dict[str, str]]] = {}
    rounds_seen = 0
    for key, value in raw.items():
        if key == "players":
            continue
        if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
            rounds_seen = max(rounds_seen, len(value))
            for number, played in enumerate(value, start=1):
                for path, leaf in _leaves(played, (key, ROUND)):
                    if len(path) == 2:  # an empty day or round: its rows alone say it exists
                        continue
                    player, column = _owned(path, 2, players)
                    if player is None:
                        by_round.setdefault(number, {})[column] = _cell(leaf)
                    else:
                        by_round_own.setdefault(number, {}).setdefault(player, {})[column] = _cell(leaf)
            continue
        for path, leaf in _leaves(value, (key,)):
            player, column = _owned(path, 1, players)
            if player is None:
                shared[column] = _cell(leaf)
            else:
                own[player][column] = _cell(leaf)
    columns = ["round", "player"] + list(shared)
    for cells in list(own.values()) + list(by_round.values()):
        columns += [c for c in cells if c not in columns]
    for table in by_round_own.values():
        for cells in table.values():
            columns += [c for c in cells if c not in columns]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    numbers = range(1, rounds_seen + 1) if rounds_seen else [None]
    for number in numbers:
        for player in players:
            row = {"round": "" if number is None else str(number), "player": _cell(player)}
            row.update(shared)
            row.update(own[player])
            if number is not None:
                row.update(by_round.get(number, {}))
                row.update(by_round_own.get(number, {}).get(player, {}))
            writer.writerow([row.get(column, "") for column in columns])
    return out.getvalue()


# -- reading -----------------------------------------------------------------


def _value(cell: str) -> object:
    if _WHOLE.fullmatch(cell):
        try:
            return int(cell)
        except ValueError:  # more digits than int() takes: the check reports it as text
            return cell
    if cell in ("true", "false"):
        return cell == "true"
    if cell.startswith(('"', "{", "[")):
        try:
            return json.loads(cell)
        except (ValueError, RecursionError):
            return cell
    return cell


def _text(cell: str) -> str:
    """A cell that is always text (the player's name): JSON-quoted only when it had to be."""
    if cell.startswith('"'):
        try:
            decoded = json.loads(cell)
        except (ValueError, RecursionError):
            return cell
        return decoded if isinstance(decoded, str) else cell
    return cell


_MISSING = object()


def _place(document: dict, path: list[str], value: object, line: int, *, column: str) -> None:
    target: object = document
    for depth, step in enumerate(path):
        last = depth == len(path) - 1
        following = None if last else path[depth + 1]
        if isinstance(step, int):
            if not isinstance(target, list):
                raise SessionFileError(FileError.CSV_CONFLICT, line=line, column=Value(column))
            while len(target) <= step:
                target.append({})
            if last:
                _set(target, step, value, line, column=column)
            target = target[step]
            continue
        if not isinstance(target, dict):
            raise SessionFileError(FileError.CSV_CONFLICT, line=line, column=Value(column))
        if last:
            _set(target, step, value, line, column=column)
            return
        fresh: object = [] if isinstance(following, int) else {}
        current = target.setdefault(step, fresh)
        if type(current) is not type(fresh):
            raise SessionFileError(FileError.CSV_CONFLICT, line=line, column=Value(column))
        target = current


def _set(container, key, value: object, line: int, *, column: str) -> None:
    current = container[key] if isinstance(container, list) else container.get(key, _MISSING)
    if isinstance(container, list) and current == {} and not isinstance(value, dict):
        current = _MISSING  # a placeholder for a round not given yet
    if current is not _MISSING and current != value:
        raise SessionFileError(FileError.CSV_CONFLICT, line=line, column=Value(column))
    container[key] = value


def loads(text: str) -> dict:
    """The session a CSV text holds; SessionFileError (with its line) if it cannot be one.

    >>> loads("round,player,game,rounds.{round}.{player}\\n1,Ann,halali,3\\n")["rounds"]
    [{'Ann': 3}]
    """
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows = []
    try:
        for row in reader:
            rows.append(row)
    except csv.Error:
        raise SessionFileError(FileError.INVALID_CSV, line=reader.line_num) from None
    if not rows or not any(cell.strip() for cell in rows[0]):
        raise SessionFileError(FileError.CSV_NO_HEADER)
    header = [cell.strip() for cell in rows[0]]
    for name in ("round", "player"):
        if name not in header:
            raise SessionFileError(FileError.CSV_MISSING_COLUMN, column=name)
    seen: set[str] = set()
    for name in header:
        if name in seen or not name:
            raise SessionFileError(FileError.CSV_BAD_COLUMN, column=Value(name))
        seen.add(name)
        parts = name.split(".")
        if name not in ("round", "player") and (not all(parts) or parts[0] in (ROUND, PLAYER)):
            raise SessionFileError(FileError.CSV_BAD_COLUMN, column=Value(name))
    document: dict = {}
    players: list[str] = []
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) > len(header):
            raise SessionFileError(FileError.CSV_EXTRA_CELLS, line=line)
        cells = dict(zip(header, row))
        player = _text(cells.get("player", ""))
        if not player:
            raise SessionFileError(FileError.CSV_NO_PLAYER, line=line)
        if player not in players:
            players.append(player)
        number = cells.get("round", "").strip()
        if number and not (number.isascii() and number.isdigit() and 0 < int(number) <= 1000):
            raise SessionFileError(FileError.CSV_BAD_ROUND, line=line, found=Value(number))
        for column, cell in cells.items():
            if column in ("round", "player") or cell == "":
                continue
            parts: list = column.split(".")
            if ROUND in parts and not number:
                raise SessionFileError(FileError.CSV_NO_ROUND, line=line, column=Value(column))
            path = [player if p == PLAYER else int(number) - 1 if p == ROUND else p for p in parts]
            _place(document, path, _value(cell), line, column=column)
    ordered = {key: document.pop(key) for key in ("game", "lang", "date") if key in document}
    return {**ordered, "players": players, **document}

