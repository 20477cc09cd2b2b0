"""The shape of the code outside ``pnp/web`` (its own test is tests/test_web_shape.py): named records
and keyword arguments where values would otherwise be counted.

A call that passes more than four values by position, a definition that takes more than four,
or a function that gives back an anonymous tuple of more than two makes its reader count; each
of those is a named record or keyword arguments instead (tests/code_shape.py says how it reads).
"""

from __future__ import annotations

from pathlib import Path

from code_shape import counted, counted_in

ROOT = Path(__file__).resolve().parent.parent


def test_no_code_of_pnp_or_scoring_counts_more_than_four_values_by_position():
    sources = [path for package in ("pnp", "scoring") for path in sorted((ROOT / package).rglob("*.py"))
               if "web" not in path.relative_to(ROOT).parts[1:2]]
    assert len(sources) > 100
    assert counted_in(sources, ROOT) == []


def test_a_collection_may_be_built_as_a_tuple_but_not_a_record():
    text = ("def corners() -> tuple[float, ...]:\n    return (1.0, 2.0, 3.0)\n\n\n"
            "def record() -> tuple[int, int, int]:\n    def inner() -> tuple[int, ...]:\n        return (1, 2, 3)\n"
            "    return (1, 2, 3)\n")
    assert counted(text) == ["8: returns a tuple of 3"]
