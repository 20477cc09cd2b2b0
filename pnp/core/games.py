"""The one registry of games: each game's id, its rules and its kit.

A shipped game is one line of :data:`SHIPPED`: its id and the name of the
module of its rules (``scoring/<game>.py``, which holds its ``RULES`` and every
fact of the game); its kit is ``templates/<id>.toml``. Everything that needs
to know the games asks here: the kit commands find the kits (``pnp build``,
``pnp games``), the web pages find which games have a kit, and the score
companion finds a game's rules module (``scoring.find_rules``, which loads it;
through it the template loader finds the facts a kit prints and a kit's
scoresheet its blank sheet). A game kept elsewhere (a plugin, a test's toy game)
joins at run time with :func:`join`, through ``scoring.register``, which checks
its rules first.

Data and the standard library only: this part sits below both pnp's other parts
and scoring, and loads no game's module (the score companion does).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from pnp.core.records import NamedTuple
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


def joined_rules(game_id: str) -> Any:
    """The rules a game joined at run time with (:func:`join`); None for any other game."""
    joined = _joined.get(game_id)
    return joined.rules if joined is not None else None


def join(game_rules: Any, template: Path | None = None) -> None:
    """Add a game kept elsewhere: its rules (checked by ``scoring.register``) and its kit, if any."""
    if game_rules.id in SHIPPED or game_rules.id in _joined:
        raise ValueError(f"a game with the id {game_rules.id!r} is already registered")
    _joined[game_rules.id] = _Joined(game_rules, None if template is None else Path(template))


def leave(game_id: str) -> None:
    """Remove a game added with :func:`join` (the shipped games stay)."""
    _joined.pop(game_id, None)


__all__ = ["SHIPPED", "game_ids", "join", "joined_rules", "kit_files", "leave", "template_file"]
