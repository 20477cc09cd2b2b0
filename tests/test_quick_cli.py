"""pnp.cli.quick reads a plain command line as typer would, and leaves every other one to typer.

The two readers are held to the same answers: the options each knows, and, for a few hundred
command lines (plain ones, and ones with typos, wrong values, options given twice, ``--``,
``--help``), the arguments each would pass the command. Where the quick reader answers, typer
must accept the line and pass the very same values; where typer refuses a line, the quick
reader must leave it to typer.
"""

from __future__ import annotations

import functools
import random
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from pnp.cli import commands, plain, quick

LINES_PER_COMMAND = 400


def typer_reading(function, args: list[str]) -> dict | None:
    """The arguments typer passes ``function`` for the command line, None when it refuses it."""
    seen: list[dict] = []

    @functools.wraps(function)
    def capture(**values):
        seen.append(values)

    app = typer.Typer(add_completion=False)
    app.command(args[0])(commands._typer_command(capture))

    @app.callback()
    def _group() -> None:  # a group, as pnp's app is: the command is named on the line
        pass

    result = CliRunner().invoke(app, args)
    return seen[0] if result.exit_code == 0 and seen else None


@pytest.mark.parametrize("name", sorted(plain.COMMANDS))
def test_the_quick_reader_knows_the_options_typer_builds(name):
    function = plain.COMMANDS[name]
    click_command = typer.main.get_command(commands.app).commands[name]
    declared = quick._declared(function)
    assert declared is not None, f"pnp {name} declares an option the quick reader cannot read"
    options = {}
    for param in click_command.params:
        if param.param_type_name == "argument":
            continue
        for opt in param.opts:
            options[opt] = (param.name, param.multiple, True if param.is_flag else None)
        for opt in param.secondary_opts:
            options[opt] = (param.name, param.multiple, False)
    assert {opt: (p.name, p.many, p.value if p.kind is bool else None) for opt, p in declared.options.items()} \
        == options
    arguments = [param.name for param in click_command.params if param.param_type_name == "argument"]
    assert [p.name for p in declared.arguments] == arguments


def same(values: dict, others: dict) -> bool:
    """The same values, of the same types (``nan`` is itself here)."""
    return sorted((key, repr(value), type(value)) for key, value in values.items()) == \
        sorted((key, repr(value), type(value)) for key, value in others.items())


def lines_of(function, rng: random.Random, count: int) -> list[list[str]]:
    """Command lines for ``function``: right and wrong names, values, repeats, arguments."""
    declared = quick._declared(function)
    values = {str: ["fr", "", "a b", "x=1", "-", "--lang"], float: ["2.5", "0", "1e3", "nan", "two", "-1", "1_0"],
              int: ["7", "x", "-3"], Path: ["out", "some dir/x", "", "-"]}
    names = sorted(declared.options) + ["--lnag", "--help", "--", "-x", "--debug"]
    lines = []
    for _ in range(count):
        line = []
        for _ in range(rng.randint(0, 6)):
            pick = rng.random()
            if pick < 0.15:
                line.append(rng.choice(["halali", "card-hunter", "x", "-", "--"]))
                continue
            name = rng.choice(names)
            param = declared.options.get(name)
            if param is None or param.kind is bool:
                line.append(name + ("=1" if rng.random() < 0.05 else ""))
                continue
            value = rng.choice(values[param.kind])
            line += [f"{name}={value}"] if rng.random() < 0.3 else [name, value]
        lines.append(line)
    return lines


@pytest.mark.parametrize("name", sorted(plain.COMMANDS))
def test_where_the_quick_reader_answers_typer_passes_the_same(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    function = plain.COMMANDS[name]
    rng = random.Random(37)
    answered = 0
    for line in lines_of(function, rng, LINES_PER_COMMAND):
        args = [name, *line]
        quick_call = quick.plain_call(args)
        by_typer = typer_reading(function, args)
        if quick_call is None:
            continue
        answered += 1
        assert by_typer is not None, f"typer refuses {args}, the quick reader read it"
        assert same(quick_call.values, by_typer), args
    assert answered > LINES_PER_COMMAND // 10  # most lines here are wrong on purpose, but not all


@pytest.mark.parametrize("args", [
    ["render", "halali"],
    ["render", "--template", "deck.toml", "--out", "o", "--no-duplex", "--bleed", "0"],
    ["render", "hunting-fever", "--lang=fr", "--paper", "letter", "--component", "aid", "--component", "board"],
    ["render", "--set", "space_size=40", "beavers", "--fold", "--ink-saver", "--qr-url", "https://x.test/"],
])
def test_plain_lines_are_read_quickly(args):
    name, function, values = quick.plain_call(args)
    assert name == "render" and function is plain.render
    assert same(values, typer_reading(plain.render, args))


@pytest.mark.parametrize("args", [
    [], ["--debug", "render", "halali"], ["render", "--help"], ["render", "--lnag", "fr"],
    ["render", "--bleed", "two"], ["render", "--lang", "fr", "--lang", "en"], ["render", "a", "b"],
    ["render", "--", "halali"], ["render", "--out"], ["render", "--fold=yes"], ["games"], ["score", "check", "x"],
])
def test_other_lines_are_left_to_typer(args):
    assert quick.plain_call(args) is None


def keep_collectable(monkeypatch) -> None:
    """pnp's entry point, run in-process: the test run's objects are not frozen, now or later."""
    from pnp import __main__ as entry
    from pnp.cli import common

    monkeypatch.setattr(entry.gc, "freeze", lambda: None)
    monkeypatch.setattr(common, "freezing", False)   # put back after the test, whatever main() set


def test_a_bug_in_a_quick_render_is_one_line_naming_the_command(monkeypatch, capsys, tmp_path):
    from pnp import __main__ as entry
    from pnp.template import loader

    def broken(*args, **kwargs):
        return 1 / 0

    monkeypatch.setattr(loader, "load_shipped_game", broken)
    monkeypatch.setattr(sys, "argv", ["pnp", "render", "halali", "--out", str(tmp_path / "never")])
    keep_collectable(monkeypatch)
    with pytest.raises(SystemExit) as ended:
        entry.main()
    err = capsys.readouterr().err
    assert ended.value.code == 1 and len(err.splitlines()) == 1
    assert err.startswith("Error: ") and "pnp render" in err and "ZeroDivisionError" in err
    assert not (tmp_path / "never").exists()


def test_a_library_error_in_a_quick_render_is_its_one_line(monkeypatch, capsys, tmp_path):
    from pnp import __main__ as entry

    monkeypatch.setattr(sys, "argv", ["pnp", "render", "no-such-game", "--out", str(tmp_path / "never")])
    keep_collectable(monkeypatch)
    with pytest.raises(SystemExit) as ended:
        entry.main()
    err = capsys.readouterr().err
    assert ended.value.code == 1
    assert err.splitlines() == [line for line in err.splitlines() if line.startswith("Error: unknown game")]


def test_ctrl_c_in_a_quick_render_exits_130_with_one_line(monkeypatch, capsys, tmp_path):
    from pnp import __main__ as entry
    from pnp.template import loader

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(loader, "load_shipped_game", interrupted)
    monkeypatch.setattr(sys, "argv", ["pnp", "render", "halali", "--lang", "fr", "--out", str(tmp_path / "never")])
    keep_collectable(monkeypatch)
    with pytest.raises(SystemExit) as ended:
        entry.main()
    err = capsys.readouterr().err
    assert ended.value.code == 130 and len(err.splitlines()) == 1 and err.startswith("Error: ")
    assert "Ctrl-C" in err
    assert not (tmp_path / "never").exists()


def test_what_a_command_loads_is_frozen_only_once_pnp_froze_its_start(monkeypatch):
    import gc

    from pnp.cli import common

    frozen: list[int] = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(1))
    monkeypatch.setattr(common, "freezing", False)
    with common.loading():
        assert not gc.isenabled()
    assert frozen == []   # in-process: the caller's objects stay collectable
    common.freeze_what_loads()
    with common.loading():
        pass
    assert frozen == [1] and gc.isenabled()
