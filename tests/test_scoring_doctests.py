"""The examples in the scoring docstrings are run, so they stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["result", "hunting_fever", "halali", "session", "messages", "toml_writer"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    outcome = doctest.testmod(importlib.import_module(f"scoring.{name}"))
    assert outcome.attempted > 0 and outcome.failed == 0
