"""Colour names resolved for one piece, with or without the ink saver."""

from __future__ import annotations

from typing import Mapping

from pnp.core.records import NamedTuple
from pnp.template.model import PlayerColor

BLACK = "#000000"
WHITE = "#ffffff"


def luminance(hex_color: str) -> float:
    """Relative luminance (0 black .. 1 white), WCAG formula.

    >>> round(luminance("#ffffff"), 3)
    1.0
    """
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


_LOWERED: dict[str, str] = {}


def _lower(color: str) -> str:
    """``color`` in lower case, one string for every shape painted with it
    (a card's frame, its shapes and its text share their colour's string)."""
    lowered = _LOWERED.get(color)
    if lowered is None:
        if len(_LOWERED) >= 4096:
            _LOWERED.clear()
        lowered = color.lower()
        if lowered == color:
            lowered = color  # already lower case: the template's own string
        _LOWERED[color] = lowered
    return lowered


class Inks(NamedTuple):
    """Resolves colour names for one piece: the palette (with its defaults,
    see :func:`pnp.template.spec.with_defaults`), the piece's player colour, the ink saver."""

    palette: Mapping[str, str]
    player: PlayerColor | None
    ink_saver: bool = False

    def resolve(self, name: str | None) -> str | None:
        """``#rrggbb`` for a colour name, None for ``none`` (nothing painted).

        >>> Inks({"ink": "#2B2118"}, None).resolve("ink")
        '#2b2118'
        """
        if name is None or name == "none":
            return None
        if name[:1] == "#":
            lowered = _LOWERED.get(name)   # a card's colour, met again on its other shapes
            return lowered if lowered is not None else _lower(name)
        if name == "white":
            return WHITE
        if name == "black":
            return BLACK
        if name in ("set", "set_ink"):
            if self.player is None:
                # Pages that belong to no set (the cover, a scoresheet) use the palette.
                return _lower(self.palette["ink" if name == "set_ink" else "accent"])
            return self.player.rgb if name == "set" else self.player.ink
        return _lower(self.palette[name])

    def fill(self, name: str | None) -> str | None:
        """A surface colour: with the ink saver, every surface is white."""
        color = self.resolve(name)
        if color is None or not self.ink_saver:
            return color
        return WHITE

    def line(self, name: str | None) -> str | None:
        """Lines and text: with the ink saver, black, since every surface under them is white."""
        color = self.resolve(name)
        if color is None or not self.ink_saver:
            return color
        return BLACK
