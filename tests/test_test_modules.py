"""How the tests are put together: they share helpers, not one another, and patch no private function.

A test module that imports another runs that module's tests' setup and ties the two together;
what several share lives in a helper module (tests/helpers.py and its like) or in a fixture
(tests/conftest.py, which no module imports). A test that patches a private function or class
tests the code as it is written, not what it does; it patches public seams (a module's
constant, a public function, the operating system) instead.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
#: Imports waiting for a change to land before they move to a helper (none now).
WAITING: set[tuple[str, str]] = set()


def imported_test_modules(text: str) -> list[str]:
    """The test modules and conftest that ``text`` imports."""
    found = []
    for node in ast.walk(ast.parse(text)):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        for name in names:
            last = name.removeprefix("tests.")
            if last.startswith("test_") or last == "conftest":
                found.append(last)
    return found


def private_patches(text: str) -> list[str]:
    """Each ``monkeypatch.setattr``/``setitem`` (or ``mock.patch``) aimed at a private name, with its line."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        called = ast.unparse(node.func)
        if not called.endswith(("monkeypatch.setattr", "monkeypatch.setitem", "monkeypatch.delattr", "patch",
                                "patch.object")):
            continue
        target = ast.unparse(node.args[0])
        named = node.args[1].value if len(node.args) > 1 and isinstance(node.args[1], ast.Constant) else ""
        parts = [*target.strip("'\"").split("."), *(str(named).split(".") if called.endswith("setattr") else ())]
        if any(part.startswith("_") and not part.startswith("__") for part in parts):
            found.append(f"{node.lineno}: {ast.unparse(node)[:80]}")
    return found


def test_no_test_module_imports_another_or_conftest():
    found = [(path.name, name) for path in sorted(TESTS.glob("*.py"))
             for name in imported_test_modules(path.read_text(encoding="utf-8"))]
    assert sorted(set(found) - WAITING) == []


def test_no_test_patches_a_private_function():
    found = [f"{path.name}:{line}" for path in sorted(TESTS.glob("test_*.py"))
             for line in private_patches(path.read_text(encoding="utf-8"))]
    assert found == []


def test_the_checks_find_what_they_refuse():
    text = ("from conftest import rendered\nimport test_fairness\nfrom helpers import rendered\n"
            "def test(monkeypatch):\n    monkeypatch.setattr(plan, '_with_backs', None)\n"
            "    monkeypatch.setattr(run._Output, 'add', None)\n    monkeypatch.setattr(plan, 'PACKED_FROM', 3)\n"
            "    monkeypatch.setattr('pnp.layout.plan._split', None)\n")
    assert imported_test_modules(text) == ["conftest", "test_fairness"]
    assert [line.split(":")[0] for line in private_patches(text)] == ["5", "6", "8"]
