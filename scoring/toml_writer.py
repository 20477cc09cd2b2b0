"""A small TOML writer: the standard library reads TOML (``tomllib``) but cannot write it.

It writes what sessions are made of (tables, arrays, text, whole numbers,
booleans, and floats for completeness) so that ``tomllib.loads(dumps(x)) == x``.
Tables of plain values nested below the top level are written inline
(``prey = { hunter = 0, wolf = 1 }``), as in the session examples; other
tables get ``[headers]`` and lists of tables ``[[headers]]``.
"""

from __future__ import annotations

import math
import re
from typing import Mapping

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r", '"': '\\"', "\\": "\\\\"}


def quote(text: str) -> str:
    """A TOML basic string.

    >>> print(quote('Chloé "la chasseuse"'))
    "Chloé \\"la chasseuse\\""
    """
    out = []
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04X}")
        elif 0xD800 <= ord(char) <= 0xDFFF:
            raise ValueError("a lone surrogate cannot be written as TOML text")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def key(name: str) -> str:
    """A key, bare when TOML allows it, quoted otherwise.

    >>> key("wolf"), key("Chloé"), key("")
    ('wolf', '"Chloé"', '""')
    """
    if not isinstance(name, str):
        raise TypeError(f"TOML keys are text, not {type(name).__name__}")
    return name if _BARE_KEY.fullmatch(name) else quote(name)


def _is_table_array(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(item, dict) for item in value)


def _is_plain(value: object) -> bool:
    return not isinstance(value, (dict, list))


def value(item: object) -> str:
    """One value written inline (arrays and tables included)."""
    if isinstance(item, bool):
        return "true" if item else "false"
    if isinstance(item, int):
        return str(item)
    if isinstance(item, float):
        if math.isnan(item):
            return "nan"
        if math.isinf(item):
            return "inf" if item > 0 else "-inf"
        return repr(item)
    if isinstance(item, str):
        return quote(item)
    if isinstance(item, list):
        return "[" + ", ".join(value(element) for element in item) + "]"
    if isinstance(item, dict):
        if not item:
            return "{}"
        return "{ " + ", ".join(f"{key(k)} = {value(v)}" for k, v in item.items()) + " }"
    raise TypeError(f"cannot write {type(item).__name__} as TOML")


def _table_body(table: Mapping[str, object], path: list[str], lines: list[str]) -> None:
    nested = bool(path)
    later_tables = []
    later_arrays = []
    for name, item in table.items():
        if isinstance(item, dict) and not (nested and all(_is_plain(v) for v in item.values())):
            later_tables.append((name, item))
        elif _is_table_array(item):
            later_arrays.append((name, item))
        else:
            lines.append(f"{key(name)} = {value(item)}")
    for name, item in later_tables:
        header = ".".join(key(part) for part in path + [name])
        lines.append("")
        lines.append(f"[{header}]")
        _table_body(item, path + [name], lines)
    for name, items in later_arrays:
        header = ".".join(key(part) for part in path + [name])
        for element in items:
            lines.append("")
            lines.append(f"[[{header}]]")
            _table_body(element, path + [name], lines)


def dumps(document: Mapping[str, object]) -> str:
    """The TOML text of ``document`` (a dict with text keys).

    >>> print(dumps({"game": "halali", "rounds": [{"blue": "Ann", "tiles": {"Ann": {"duck": 1}}}]}))
    game = "halali"
    <BLANKLINE>
    [[rounds]]
    blue = "Ann"
    <BLANKLINE>
    [rounds.tiles]
    Ann = { duck = 1 }
    <BLANKLINE>
    """
    if not isinstance(document, dict):
        raise TypeError("a TOML document is a table")
    lines: list[str] = []
    _table_body(document, [], lines)
    while lines and lines[0] == "":
        lines.pop(0)
    return "\n".join(lines) + "\n"
