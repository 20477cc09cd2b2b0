"""The French typesetting rules every French text of the project keeps (kits, catalogs, web pages)."""

from __future__ import annotations

import re

#: What is not French running text, so not typeset by its rules: addresses (a host and its
#: port too), placeholders and their formats, the games' own names, an HTTP header a message
#: quotes, a time of day, a mark printed alone as a sign (a card's "?").
_NOT_PROSE = re.compile(r"https?://\S+|\{[^{}]*\}:\{[^{}]*\}|\{[^{}]*\}|Halali!|Tally Ho!"
                        r"|Authorization: Bearer|\d:\d|^[!?]$")
NO_BREAK = "\u00a0\u202f"


def typesetting_faults(text: str) -> list[str]:
    """Where a French text breaks the French rules: each : ; ! ? and » after a no-break space
    (U+00A0 or U+202F), each « before one, typographic apostrophes; empty when it is right.

    >>> typesetting_faults("Jour 1 : fini ; « Proie facile » !")
    ['" :"', '" ;"', '"« "', '" »"', '" !"']
    >>> typesetting_faults("Jour\u00a01\u00a0: fini\u202f! «\u00a0Proie\u00a0» https://x.org/a?b=1")
    []
    """
    prose = _NOT_PROSE.sub(" ", text)
    faults = [m.group(0) for m in re.finditer(rf"(?:^|.)[:;!?»]|«(?:.|$)", prose)
              if not re.fullmatch(rf"[{NO_BREAK}][:;!?»]|«[{NO_BREAK}]", m.group(0))]
    faults += [m.group(0) for m in re.finditer(r"\w'\w", prose)]
    return [f'"{fault}"' for fault in faults]
