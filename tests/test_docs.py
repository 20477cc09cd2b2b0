"""The README documents every command and every option a user can type (sqlite-utils' test_docs)."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
import typer

from pnp.cli import app

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def _commands(group: click.Group, prefix: str = "pnp") -> list[tuple[str, click.Command]]:
    found = []
    for name, command in sorted(group.commands.items()):
        path = f"{prefix} {name}"
        found.append((path, command))
        if isinstance(command, click.Group):
            found += _commands(command, path)
    return found


COMMANDS = _commands(typer.main.get_command(app))


def test_the_cli_has_commands_to_document():
    names = {path for path, _ in COMMANDS}
    assert {"pnp render", "pnp build", "pnp games", "pnp score check"} <= names


@pytest.mark.parametrize("path, command", COMMANDS, ids=[path for path, _ in COMMANDS])
def test_every_command_is_in_the_readme(path, command):
    assert re.search(rf"(?<![\w-]){re.escape(path)}(?![\w-])", README), f"README never shows `{path}`"


@pytest.mark.parametrize("path, option", [
    (path, option) for path, command in COMMANDS for param in command.params
    if isinstance(param, click.Option) for option in param.opts + param.secondary_opts
    if option not in ("--help",)
], ids=lambda value: value if isinstance(value, str) else None)
def test_every_option_is_in_the_readme(path, option):
    assert re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", README), \
        f"README never mentions {option} (of `{path}`)"


@pytest.mark.parametrize("path, command", COMMANDS, ids=[path for path, _ in COMMANDS])
def test_every_command_has_help_text(path, command):
    assert (command.help or "").strip(), f"`{path}` has no help text"
