"""What a message is made of: game terms, values found in a file, ranges, labels.

Plain values with no language: :mod:`scoring.messages` turns them into words.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping, NamedTuple


@dataclass(frozen=True)
class Term:
    """A word of a game (card, tile, colour, place, role...) looked up in its catalog.

    ``Term("card", "wolf")`` reads "Wolf" in English and "Loup" in French.
    """

    section: str
    key: str


@dataclass(frozen=True)
class Value:
    """A value found in a file, shown to the reader in a short, safe form."""

    raw: object = field(hash=False)


@dataclass(frozen=True)
class Span:
    """A range of whole numbers, shown as "2" or "3 to 5"."""

    low: int
    high: int


@dataclass(frozen=True)
class Position:
    """A line and column in a file, when the parser said where it stopped."""

    line: int | None = None
    column: int | None = None


_NO_PARAMS: Mapping[str, object] = MappingProxyType({})


class Label(NamedTuple):
    """A sentence or word to say: a catalog key, the values it needs, and a count for plurals.

    With ``count`` set, the key names a table of ``one`` and ``other`` forms.
    """

    key: str
    params: Mapping[str, object] = _NO_PARAMS
    count: int | None = None


def label(key: str, /, count: int | None = None, **params: object) -> Label:
    """A :class:`Label` written like a call.

    >>> label("ask.hand_count", card=Term("card", "wolf"))
    Label(key='ask.hand_count', params={'card': Term(section='card', key='wolf')}, count=None)
    """
    return Label(key, params, count)
