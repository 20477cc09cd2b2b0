"""The ``pnp`` command.

:mod:`pnp.cli.commands` is the typer app, every command and its help; :mod:`pnp.cli.plain`
holds the commands that also run without typer, and :mod:`pnp.cli.quick` reads their plain
command lines (pnp/__main__.py asks it first). Importing this package loads neither typer
nor click: ``pnp.cli.app`` and ``pnp.cli.main`` load the typer app when first asked for.
"""

#: What this package lends from the typer app (never a submodule's name: ``from pnp.cli import
#: score`` must find the module, not load the app).
_FROM_THE_APP = frozenset({"app", "main"})


def __getattr__(name: str):
    if name not in _FROM_THE_APP:
        raise AttributeError(f"module 'pnp.cli' has no attribute {name!r}")
    from pnp.cli import commands

    return getattr(commands, name)
