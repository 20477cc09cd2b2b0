"""A card's rules are read across the table: no rule text on a card below 8 pt (issue 33: Hunting
Fever's and Card Hunter's card texts were 7 to 7.5 pt). A rule text is a text that wraps (a
sentence, not a label or a number); the engine may shrink a text to its min_size, so that is the
size checked. The original game's licence line on Card Hunter's characters is no rule."""

from __future__ import annotations

import pytest

from pnp.core import games
from pnp.template.loader import load_shipped_game

NOT_RULES = {"@hero.licence"}


@pytest.mark.parametrize("game_id", tuple(games.SHIPPED))
def test_no_card_rule_text_below_8_pt(game_id):
    small = []
    for component in load_shipped_game(game_id).components:
        if component.kind != "card":
            continue
        for element in (*component.front, *(component.back or ())):
            props = element.props
            if element.type != "text" or not props.get("wrap") or props["text"] in NOT_RULES:
                continue
            floor = min(props["size"], props.get("min_size", 6))
            if floor < 8:
                small.append(f"{element.where}: {props['text']} may print at {floor:g} pt")
    assert not small, "\n".join(small)
