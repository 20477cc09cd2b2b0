"""Lengths in templates may be small arithmetic expressions of named values.

``"w/2 - 4"`` is the piece's half width less 4 mm. Only numbers, names,
``+ - * /``, parentheses, ``min`` and ``max`` are allowed; anything else is an
error naming the expression.
"""

from __future__ import annotations

import ast
import operator
from functools import lru_cache
from typing import Callable, Mapping

_BINARY: dict[type, Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_FUNCTIONS: dict[str, Callable[..., float]] = {"min": min, "max": max}


class ExpressionError(ValueError):
    pass


_GLOBALS = {"__builtins__": {}, **_FUNCTIONS}


@lru_cache(maxsize=4096)
def _code(text: str):
    # Only numbers, names, arithmetic, min and max get past compile_expression,
    # so the compiled code can be evaluated directly: it is the hot path of drawing.
    return compile(ast.Expression(compile_expression(text)), "<expression>", "eval")


@lru_cache(maxsize=4096)
def compile_expression(text: str) -> ast.expr:
    """Parse and check an expression once; evaluation is then cheap."""
    try:
        tree = ast.parse(text, mode="eval").body
    except SyntaxError:
        raise ExpressionError(f"cannot read the expression {text!r}") from None
    for node in ast.walk(tree):
        allowed = (ast.BinOp, ast.UnaryOp, ast.Constant, ast.Name, ast.Call, ast.Load,
                   ast.USub, ast.UAdd, *_BINARY)
        if not isinstance(node, allowed):
            raise ExpressionError(f"{text!r}: {type(node).__name__} is not allowed")
        if isinstance(node, ast.Constant) and not isinstance(node.value, (int, float)):
            raise ExpressionError(f"{text!r}: only numbers are allowed")
        if isinstance(node, ast.Call) and not (
            isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS and not node.keywords
        ):
            raise ExpressionError(f"{text!r}: only min() and max() may be called")
    return tree


@lru_cache(maxsize=4096)
def names_in(text: str) -> frozenset[str]:
    """The value names an expression uses (functions excluded)."""
    tree = compile_expression(text)
    calls = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    return frozenset(n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in calls)


def evaluate(value: str | float | int, names: Mapping[str, float]) -> float:
    """A number as it is, or an expression evaluated with ``names``.

    >>> evaluate("w/2 - 4", {"w": 63.5})
    27.75
    >>> evaluate(3, {})
    3.0
    """
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    text = str(value)
    try:
        result = eval(_code(text), _GLOBALS, names)  # noqa: S307 - checked arithmetic only
    except (NameError, TypeError, ZeroDivisionError):
        # Say precisely what was wrong, the slow way.
        return float(_eval(compile_expression(text), names, text))
    if isinstance(result, bool) or not isinstance(result, (int, float)):
        return float(_eval(compile_expression(text), names, text))
    return float(result)


def _eval(node: ast.expr, names: Mapping[str, float], text: str) -> float:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        try:
            value = names[node.id]
        except KeyError:
            raise ExpressionError(
                f"{text!r}: unknown name {node.id!r} (known: {', '.join(sorted(names))})"
            ) from None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ExpressionError(f"{text!r}: {node.id!r} is not a number")
        return value
    if isinstance(node, ast.UnaryOp):
        operand = _eval(node.operand, names, text)
        return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.BinOp):
        left, right = _eval(node.left, names, text), _eval(node.right, names, text)
        try:
            return _BINARY[type(node.op)](left, right)
        except ZeroDivisionError:
            raise ExpressionError(f"{text!r}: division by zero") from None
    if isinstance(node, ast.Call):
        return _FUNCTIONS[node.func.id](*(_eval(a, names, text) for a in node.args))
    raise ExpressionError(f"cannot evaluate {text!r}")
