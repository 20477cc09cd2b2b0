"""Player colours stay apart without colour: in greyscale (lightness far apart) and for
colour-blind players (each colour has a symbol of its own, printed wherever it is)."""

from __future__ import annotations

import pytest

from pnp.layout.colors import luminance
from pnp.template.loader import game_files, load_shipped_game


def lightness(hex_color: str) -> float:
    """CIE L*, 0 (black) to 100 (white): what a greyscale print keeps of a colour."""
    y = luminance(hex_color)
    return 116 * y ** (1 / 3) - 16 if y > 0.008856 else 903.3 * y


@pytest.mark.parametrize("game_id", sorted(game_files()))
def test_the_colours_a_kit_uses_together_are_apart_in_greyscale_and_by_symbol(game_id):
    game = load_shipped_game(game_id)
    used = {name for component in game.components for name in component.sets}
    used |= {name for name in game.colors if f"player_{name}" in game.palette}
    if not used:
        pytest.skip("no player colours")
    colors = [game.colors[name] for name in sorted(used)]
    assert len({c.symbol for c in colors}) == len(colors)
    levels = sorted(lightness(c.rgb) for c in colors)
    assert all(b - a >= 10 for a, b in zip(levels, levels[1:])), levels
    # The ink that reads on each colour stands 40 or more apart from it.
    assert all(abs(lightness(c.ink) - lightness(c.rgb)) >= 40 for c in colors)
