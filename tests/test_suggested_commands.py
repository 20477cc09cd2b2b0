"""Every command a message suggests works as it is written: for a designer's template, a command
that names it by its file (``--template``), never by a game id that only the shipped kits have."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = "examples/harbour-lights/harbour-lights.toml"
SUGGESTED = re.compile(r"(pnp render [^)`]*?--component [a-z0-9_-]+)")


def suggested(output: str) -> list[str]:
    return list(dict.fromkeys(SUGGESTED.findall(output)))


@pytest.mark.parametrize("how", [["--format", "cricut"], ["--service", "tgc"]])
def test_the_commands_an_export_suggests_for_what_it_skips_run(tmp_path, monkeypatch, how):
    monkeypatch.chdir(ROOT)
    runner = CliRunner()
    components = ["scoresheet", "board"] if "cricut" in how else ["scoresheet"]
    # Asked for whole, each is skipped with its reason; asked for alone, refused with it.
    args = ["export", "--template", EXAMPLE, *how, "--out", str(tmp_path / "export")]
    for component in components:
        args += ["--component", component]
    result = runner.invoke(app, args)
    assert result.exit_code == 1 and result.output.startswith("Error: ")
    commands = suggested(result.output)
    # The scoresheet (a page read as printed) and, for Print Then Cut, the board (too large).
    assert {c.rsplit(" ", 1)[1] for c in commands} == set(components), result.output
    for command in commands:
        assert command.startswith(f"pnp render --template {EXAMPLE} ")
        ran = runner.invoke(app, [*shlex.split(command)[1:], "--out", str(tmp_path / "render")])
        assert ran.exit_code == 0, (command, ran.output)
