"""The examples in the scoring docstrings are run, so they stay true (pnp's run with --doctest-modules)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["scoring." + name for name in ("result", "hunting_fever", "halali", "session", "messages", "toml_writer",
                                            "names", "terms", "forms", "rules", "session_csv")]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    outcome = doctest.testmod(importlib.import_module(name))
    assert outcome.attempted > 0 and outcome.failed == 0
