"""The one registry of games: each game's id, its rules and its kit.

A shipped game is one line of :data:`SHIPPED`: its id and the module of its
rules (``scoring/<game>.py``, which holds its ``RULES`` and every fact of the
game); its kit is ``templates/<id>.toml``. Everything that needs to know the
games asks here: the score companion finds a game's rules
(``scoring.find_rules``), the kit commands find the kits (``pnp build``,
``pnp games``), the template loader finds the facts a kit prints, a kit's
scoresheet finds its blank sheet, the web pages find which games have a kit.
A game kept elsewhere (a plugin, a test's toy game) joins at run time with
:func:`join`, through ``scoring.register``, which checks its rules first.

Standard library only: a game's rules module loads when its rules or facts
are first asked for, never when the registry is imported.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, Mapping, NamedTuple

from pnp.core.errors import TemplateError
from pnp.core.resources import templates_dir

#: The games that ship with the project: id -> the module holding its ``RULES``.
SHIPPED: Mapping[str, str] = {
    "hunting-fever": "scoring.hunting_fever",
    "halali": "scoring.halali",
    "card-hunter": "scoring.card_hunter",
    "hunting-hunting-beavers": "scoring.beavers",
}


class _Joined(NamedTuple):
    rules: Any              # a scoring.GameRules
    template: Path | None   # its kit, if it has one


_joined: dict[str, _Joined] = {}
_loaded: dict[str, Any] = {}


def game_ids() -> tuple[str, ...]:
    """Every game known: the shipped ones, then those joined at run time."""
    return (*SHIPPED, *_joined)


def template_file(game_id: str) -> Path | None:
    """The kit template of a game; None for an unknown game or one without a kit."""
    if game_id in SHIPPED:
        return templates_dir() / f"{game_id}.toml"
    joined = _joined.get(game_id)
    return joined.template if joined is not None else None


def kit_files() -> dict[str, Path]:
    """Every game that has a kit, by id: its template file; the shipped ones in the order
    of their ids (the order ``pnp games`` lists and ``pnp build`` renders them), then the others."""
    return {game_id: path for game_id in (*sorted(SHIPPED), *_joined)
            if (path := template_file(game_id)) is not None}


def rules(game_id: object) -> Any:
    """The ``GameRules`` of a game, its module loaded on first use; None for an unknown game."""
    if not isinstance(game_id, str):
        return None
    found = _loaded.get(game_id)
    if found is not None:
        return found
    joined = _joined.get(game_id)
    if joined is not None:
        return joined.rules
    if game_id in SHIPPED:
        found = _loaded[game_id] = importlib.import_module(SHIPPED[game_id]).RULES
    return found


def facts(game_id: str) -> Mapping[str, Any] | None:
    """The facts a game's kit may print (``{facts.points.bear}``), from its rules; None without rules."""
    found = rules(game_id)
    return None if found is None else found.facts


def blank_sheet(game_id: str) -> Any:
    """The blank scoresheet of a game (a ``pnp.core.sheet_model.Scoresheet``), as its rules describe it."""
    found = rules(game_id)
    if found is None:
        raise TemplateError(f"no game rules are registered for {game_id!r}, so its scoresheet has no "
                            f"content (known: {', '.join(game_ids())})")
    return found.scoresheet(None)


def join(game_rules: Any, template: Path | None = None) -> None:
    """Add a game kept elsewhere: its rules (checked by ``scoring.register``) and its kit, if any."""
    if game_rules.id in SHIPPED or game_rules.id in _joined:
        raise ValueError(f"a game with the id {game_rules.id!r} is already registered")
    _joined[game_rules.id] = _Joined(game_rules, None if template is None else Path(template))


def leave(game_id: str) -> None:
    """Remove a game added with :func:`join` (the shipped games stay)."""
    _joined.pop(game_id, None)


__all__ = ["SHIPPED", "blank_sheet", "facts", "game_ids", "join", "kit_files", "leave", "rules",
           "template_file"]
