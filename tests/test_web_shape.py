"""The shape of ``pnp/web``'s code: named records and keyword arguments where values would otherwise be counted.

A call that passes more than four values by position, or a function that gives back an anonymous tuple of
more than two, makes its reader count; each of those is a named record or keyword arguments instead.
"""

from __future__ import annotations

import ast
from pathlib import Path

WEB = Path(__file__).resolve().parent.parent / "pnp" / "web"


def counted(text: str) -> list[str]:
    """Each place in ``text`` (Python) where a reader has to count values, with its line."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Call):
            args = node.args
            if ast.unparse(node.func).endswith("run_in_threadpool"):
                args = args[1:]  # the function it runs, then that function's own arguments
            if len(args) > 4 and not any(isinstance(arg, ast.Starred) for arg in args):
                found.append(f"{node.lineno}: {ast.unparse(node.func)}() is given {len(args)} values by position")
        elif isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and len(node.value.elts) > 2:
            found.append(f"{node.lineno}: returns a tuple of {len(node.value.elts)}")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            positional = [a for a in node.args.posonlyargs + node.args.args if a.arg not in ("self", "cls")]
            if len(positional) > 4:
                found.append(f"{node.lineno}: {node.name}() takes {len(positional)} values by position")
    return sorted(found, key=lambda line: int(line.split(":")[0]))


def test_no_code_in_pnp_web_counts_more_than_four_values_by_position():
    sources = sorted(WEB.rglob("*.py"))
    assert len(sources) > 20
    found = [f"{source.relative_to(WEB)}:{line}" for source in sources
             for line in counted(source.read_text(encoding="utf-8"))]
    assert found == []


def test_the_check_finds_what_it_refuses():
    text = ("def f(a, b, c, d, e):\n    return a, b, c\n\n\nf(1, 2, 3, 4, 5)\n"
            "run_in_threadpool(f, 1, 2, 3, 4)\nf(1, 2, 3, 4, e=5)\n")
    assert counted(text) == ["1: f() takes 5 values by position", "2: returns a tuple of 3",
                             "5: f() is given 5 values by position"]
