"""Player names as people read them, and text from a file made safe for a terminal.

Two names are one player when a reader cannot tell them apart: they differ
only in capitals (``Ann``/``ANN``), in how a letter is encoded (``é`` as one
code point or as ``e`` and a combining accent), in compatibility forms
(fullwidth ``Ａ``, the ligature ``ﬁ``) or in invisible format characters.
:func:`name_key` folds all of these away: it is Unicode's NFKC_Casefold
(normalise, case-fold, normalise again, drop format characters), spaces at the
ends trimmed, as an answer typed at a prompt is.

A name may not hold what a terminal obeys instead of showing it: control
characters (escape sequences, bell, line breaks), Unicode line and paragraph
separators, and the marks that change the direction of text (which can make
"Bob" print as "boB" and reorder a whole line around it). Text read from a
session file is shown with :func:`pnp.core.errors.escaped`, which writes such
characters as ``\\u202e``.
"""

from __future__ import annotations

import re
import unicodedata

from pnp.core.errors import escaped, obeyed_by_terminals

#: A name a reader would take for a seat number ("2", " 12", "٣", "２").
_NUMBER = re.compile(r"[+-]?\d+")


def unprintable(name: str) -> bool:
    """True if ``name`` holds a character a terminal would obey.

    >>> unprintable("Chloé"), unprintable("Bo\\u202eb"), unprintable("A\\x1b[31m")
    (False, True, True)
    """
    return any(obeyed_by_terminals(char) for char in name)


def name_key(name: str) -> str:
    """What ``name`` is to a reader: equal keys, one player.

    >>> name_key("ANN") == name_key("Ann"), name_key("Chlo\\u00e9") == name_key("Chloe\\u0301")
    (True, True)
    >>> name_key("Chloé") == name_key("Chloe")
    False
    """
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return "".join(char for char in folded if unicodedata.category(char) != "Cf").strip()


def named_like_a_number(name: str) -> bool:
    """True if ``name`` reads as a whole number, so a seat number could be taken for it.

    >>> named_like_a_number("2"), named_like_a_number("２"), named_like_a_number("R2D2")
    (True, True, False)
    """
    return _NUMBER.fullmatch(name_key(name)) is not None


__all__ = ["escaped", "name_key", "named_like_a_number", "unprintable"]
