"""The shape of ``pnp/web``'s code: named records and keyword arguments where values would otherwise be counted.

A call that passes more than four values by position, or a function that gives back an anonymous tuple of
more than two, makes its reader count; each of those is a named record or keyword arguments instead.
"""

from __future__ import annotations

from pathlib import Path

from code_shape import counted, counted_in

WEB = Path(__file__).resolve().parent.parent / "pnp" / "web"


def test_no_code_in_pnp_web_counts_more_than_four_values_by_position():
    sources = sorted(WEB.rglob("*.py"))
    assert len(sources) > 20
    assert counted_in(sources, WEB) == []


def test_the_check_finds_what_it_refuses():
    text = ("def f(a, b, c, d, e):\n    return a, b, c\n\n\nf(1, 2, 3, 4, 5)\n"
            "run_in_threadpool(f, 1, 2, 3, 4)\nf(1, 2, 3, 4, e=5)\n")
    assert counted(text) == ["1: f() takes 5 values by position", "2: returns a tuple of 3",
                             "5: f() is given 5 values by position"]
