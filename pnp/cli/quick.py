"""A plain command line read without typer: the quick way into ``pnp render``.

Loading typer and click, and building every command from them, took about 20 ms and 3 MiB,
a fifth of a small deck's render. A command of :data:`pnp.cli.plain.COMMANDS` whose command
line is plain (known options, each value of its type, nothing asked twice) is read here,
from the options it declares (:mod:`pnp.cli.common`), and run with what typer would have
passed it. Anything else (``--help``, a typo, a value of the wrong type, an option given
twice, ``--``, ``pnp --debug ...``) is left to typer, whose messages and suggestions are
the command line's: :func:`plain_call` then answers None. tests/test_quick_cli.py holds
the two readers to the same answers.
"""

import inspect
import os
import typing
from pathlib import Path
from typing import Callable, Optional

from pnp.cli.common import Argument, Option
from pnp.core.records import NamedTuple

#: The types a plain value may have, with how each is read (as click reads them).
READERS: dict[type, Callable[[str], object]] = {str: str, int: int, float: float, Path: Path}


class _Param(NamedTuple):
    name: str
    kind: type  # bool for a switch
    many: bool  # repeatable: a list of what was given
    value: object = None  # what a switch's name sets


class PlainCall(NamedTuple):
    """A plain command line, read: the command's name, its function and what to pass it."""

    name: str
    function: Callable[..., None]
    values: dict[str, object]


class _Command(NamedTuple):
    options: dict[str, _Param]  # by every name a command line may use
    arguments: list[_Param]  # in their order
    defaults: dict[str, object]


def plain_call(args: list[str]) -> Optional[PlainCall]:
    """The command a plain command line runs, and with what; None for any other line."""
    if not args or args[0].startswith("-"):
        return None
    from pnp.cli.plain import COMMANDS

    function = COMMANDS.get(args[0])
    command = function and _declared(function)
    if command is None:
        return None
    given = _read(command, args[1:])
    if given is None:
        return None
    values = {name: list(value) if isinstance(value, list) else value for name, value in command.defaults.items()}
    values.update(given)
    return PlainCall(args[0], function, values)


def _read(command: _Command, tokens: list[str]) -> Optional[dict[str, object]]:
    """What the tokens give, by parameter name; None when typer must read them."""
    given: dict[str, object] = {}
    free = iter(command.arguments)
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if not token.startswith("-") or token == "-":
            param = next(free, None)
            raw = token
        else:
            name, equals, raw = token.partition("=")
            param = command.options.get(name)
            if param is None:
                return None
            if param.kind is bool:
                if equals or param.name in given:
                    return None
                given[param.name] = param.value
                continue
            if not equals:
                if index == len(tokens) or tokens[index].startswith("-"):
                    return None  # a missing value, or one typer may read otherwise
                raw = tokens[index]
                index += 1
        if param is None or (param.name in given and not param.many):
            return None
        value = _value(param.kind, raw)
        if value is None:
            return None
        if param.many:
            given.setdefault(param.name, []).append(value)
        else:
            given[param.name] = value
    return given


def _value(kind: type, raw: str) -> object:
    """``raw`` read as ``kind``, or None when typer must read it (and say what is wrong)."""
    if kind is Path and os.path.exists(raw) and not os.access(raw, os.R_OK):
        return None  # typer refuses a path it cannot read
    try:
        return READERS[kind](raw)
    except ValueError:
        return None


def _declared(function: Callable) -> Optional[_Command]:
    """The options and arguments a command declares, from its parameters; None when one is of a
    kind this reader does not read (typer reads it)."""
    options: dict[str, _Param] = {}
    arguments: list[_Param] = []
    defaults: dict[str, object] = {}
    for name, param in inspect.signature(function).parameters.items():   # reportlab loads inspect anyway
        spec = param.default
        read = _type(param.annotation)
        if not isinstance(spec, (Option, Argument)) or read is None:
            return None
        kind, many = read
        defaults[name] = spec.default
        if isinstance(spec, Argument):
            if many or kind is bool:
                return None
            arguments.append(_Param(name, kind, many))
            continue
        for declaration in spec.names:
            on, _, off = declaration.partition("/")
            if kind is bool:
                options[on] = _Param(name, bool, False, True)
                if off:
                    options[off] = _Param(name, bool, False, False)
            elif off:
                return None
            else:
                options[on] = _Param(name, kind, many)
    return _Command(options, arguments, defaults)


def _type(annotation: object) -> Optional[tuple[type, bool]]:
    """(type, repeatable) of an annotation: ``str``, ``Optional[float]``, ``List[Path]``..."""
    origin = typing.get_origin(annotation)
    many = origin is list
    if origin is typing.Union:
        kinds = [kind for kind in typing.get_args(annotation) if kind is not type(None)]
        annotation = kinds[0] if len(kinds) == 1 else None
    elif many:
        annotation = typing.get_args(annotation)[0]
    if annotation is bool and not many:
        return bool, False
    return (annotation, many) if annotation in READERS else None
