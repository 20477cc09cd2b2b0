"""The one place a length is parsed or converted.

Everything in the model and the layout is in millimetres; points appear in
``pnp.render``, which converts with :func:`pt`, and in text fitting, since type
is measured in points.
"""

from __future__ import annotations

import re

from pnp.core.errors import UnknownNameError

MM_PER_INCH = 25.4
POINTS_PER_MM = 72.0 / MM_PER_INCH

#: Paper sizes, portrait, in mm.
PAPERS: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
}

#: Named piece sizes (width, height) in mm.
CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "bridge": (57.15, 88.9),
    "mini": (44.45, 63.5),
    # 2.75 x 4.75 in: the tarot card print services make (The Game Crafter, MakePlayingCards),
    # which the usual 70 x 120 mm tarot sleeve holds.
    "tarot": (69.85, 120.65),
    "lodge": (88.9, 127.0),
    "square-25": (25.0, 25.0),
    "square-50": (50.0, 50.0),
    "square-70": (70.0, 70.0),
}

#: Compiled by ``re`` on first use: most templates give their lengths as numbers or named sizes.
_LENGTH = r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|cm|in|pt)?\s*$"
_FACTORS = {"mm": 1.0, "cm": 10.0, "in": MM_PER_INCH, "pt": 1.0 / POINTS_PER_MM, None: 1.0}


def parse_length(text: str | float | int) -> float:
    """Parse a length into millimetres; a bare number is already in mm.

    >>> parse_length("2.5in")
    63.5
    >>> parse_length(12)
    12.0
    """
    if isinstance(text, bool):
        raise ValueError(f"not a length: {text!r}")
    if isinstance(text, (int, float)):
        return float(text)
    match = re.match(_LENGTH, text)
    if not match:
        raise ValueError(f"not a length: {text!r} (expected a number with mm, cm, in or pt)")
    return round(float(match.group(1)) * _FACTORS[match.group(2)], 6)


def pt(mm: float) -> float:
    """Millimetres to PDF points."""
    return mm * POINTS_PER_MM


def paper_size(name: str) -> tuple[float, float]:
    """The portrait size of a paper by name (``a4`` or ``letter``)."""
    try:
        return PAPERS[name.lower()]
    except KeyError:
        raise UnknownNameError(
            f"unknown paper {name!r}; expected one of: {', '.join(PAPERS)}"
        ) from None


def piece_size(spec: str | list | tuple) -> tuple[float, float]:
    """A named card size, ``"WxH"`` in mm, or a ``[w, h]`` pair of lengths.

    >>> piece_size("poker")
    (63.5, 88.9)
    >>> piece_size("30x40")
    (30.0, 40.0)
    """
    if isinstance(spec, str):
        if spec in CARD_SIZES:
            return CARD_SIZES[spec]
        parts = spec.lower().split("x")
        if len(parts) == 2:
            try:
                return parse_length(parts[0]), parse_length(parts[1])
            except ValueError:
                pass
        raise UnknownNameError(
            f"unknown size {spec!r}; expected one of {', '.join(CARD_SIZES)} or WxH in mm"
        )
    if isinstance(spec, (list, tuple)) and len(spec) == 2:
        return parse_length(spec[0]), parse_length(spec[1])
    raise UnknownNameError(f"unknown size {spec!r}; expected a name, 'WxH' or [w, h]")
