"""No function of pnp/ or scoring/ is longer than 80 lines.

A longer one does several things; split by meaning, each part is named for what
it decides (``plan_kit`` -> the pieces laid out, the sheets on their papers, the
opening section, the pages and their furniture). Read from the source, nested
functions and methods included, the ``def`` line to the last line of its body.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 80


def long_functions(root: Path, limit: int = LIMIT) -> list[str]:
    found = []
    for path in sorted([*root.glob("pnp/**/*.py"), *root.glob("scoring/**/*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > limit:
                    found.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({lines} lines)")
    return found


def test_no_function_is_longer_than_80_lines():
    assert long_functions(ROOT) == []


def test_the_count_reads_nested_functions_and_methods(tmp_path):
    body = "\n".join(f"        x{i} = {i}" for i in range(LIMIT))
    (tmp_path / "pnp").mkdir()
    (tmp_path / "pnp" / "long.py").write_text(f"class A:\n    def f(self):\n{body}\n        return 0\n",
                                              encoding="utf-8")
    (tmp_path / "scoring").mkdir()
    (tmp_path / "scoring" / "short.py").write_text("def g():\n    return 1\n", encoding="utf-8")
    assert long_functions(tmp_path) == [f"pnp/long.py:2 f ({LIMIT + 2} lines)"]
