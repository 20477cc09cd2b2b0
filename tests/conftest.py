"""Shared fixtures: kits rendered once per test session, in memory (helpers.py has what they use)."""

from __future__ import annotations

import pytest

from helpers import rendered


@pytest.fixture(scope="session")
def hunting_fever_en_a4():
    return rendered("hunting-fever", "en", "a4")


@pytest.fixture(scope="session")
def hunting_fever_fr_letter():
    return rendered("hunting-fever", "fr", "letter")
