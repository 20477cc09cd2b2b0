"""Where a reader has to count values: calls and definitions with more than four values by position,
results that are anonymous tuples of more than two. Shared by the shape tests of pnp/web
(tests/test_web_shape.py) and of the rest (tests/test_code_shape.py).

A function annotated to give back ``tuple[T, ...]`` gives a collection of like values (a
polygon's points, a page's primitives), not a record, and may build it as a tuple.
"""

from __future__ import annotations

import ast
from pathlib import Path


def _gives_a_collection(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    returns = function.returns
    return (isinstance(returns, ast.Subscript) and ast.unparse(returns.value) == "tuple"
            and isinstance(returns.slice, ast.Tuple) and len(returns.slice.elts) == 2
            and isinstance(returns.slice.elts[1], ast.Constant) and returns.slice.elts[1].value is Ellipsis)


def _own_returns(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.Return]:
    """The returns of ``function`` itself, not of the functions defined inside it."""
    found, stack = [], list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            found.append(node)
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))
    return found


def counted(text: str) -> list[str]:
    """Each place in ``text`` (Python) where a reader has to count values, with its line."""
    found = []
    tree = ast.parse(text)
    collections = {id(node) for function in ast.walk(tree)
                   if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) and _gives_a_collection(function)
                   for node in _own_returns(function)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            args = node.args
            if ast.unparse(node.func).endswith("run_in_threadpool"):
                args = args[1:]  # the function it runs, then that function's own arguments
            if len(args) > 4 and not any(isinstance(arg, ast.Starred) for arg in args):
                found.append(f"{node.lineno}: {ast.unparse(node.func)}() is given {len(args)} values by position")
        elif isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and len(node.value.elts) > 2 \
                and id(node) not in collections:
            found.append(f"{node.lineno}: returns a tuple of {len(node.value.elts)}")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            positional = [a for a in node.args.posonlyargs + node.args.args if a.arg not in ("self", "cls")]
            if len(positional) > 4:
                found.append(f"{node.lineno}: {node.name}() takes {len(positional)} values by position")
    return sorted(found, key=lambda line: int(line.split(":")[0]))


def counted_in(sources: list[Path], root: Path) -> list[str]:
    """Each place in the ``sources`` (files) where a reader has to count values, with its file
    (from ``root``) and line."""
    return [f"{source.relative_to(root)}:{line}" for source in sources
            for line in counted(source.read_text(encoding="utf-8"))]
