"""``pnp score ...``: the commands and their options.

The work is in :mod:`pnp.cli.score_commands`, imported when a score command runs:
the scoring package then stays out of ``pnp render`` and ``pnp build``.
"""

from enum import Enum
from pathlib import Path
from typing import List

import typer

from pnp.core.i18n import LANGUAGES

score_app = typer.Typer(
    help="Score companion: check a session, start one, add the next day or round, keep a history.",
    no_args_is_help=True,
)


#: The languages the commands accept, from the project's one list.
Lang = Enum("Lang", {lang: lang for lang in LANGUAGES}, type=str)


def _code(lang: Lang | None) -> str | None:
    return lang.value if lang is not None else None


def _lang_option() -> object:
    return typer.Option(None, "--lang", help="Language of the messages (default: the session's lang, else en).")


@score_app.command()
def check(
    file: Path = typer.Argument(..., help="Session file (.toml, .json or .csv).", show_default=False),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of the table."),
    lang: Lang = _lang_option(),
    prove: bool = typer.Option(False, "--prove", help="Decide whether each day or round can happen (games with "
                               "a prover): one way it went, or the numbers that cannot all be right."),
) -> None:
    """Check a session against the rules; show day or round scores, totals and winners."""
    from pnp.cli import score_commands
    score_commands.check(file, as_json, _code(lang), prove)


@score_app.command()
def sheet(
    file: Path = typer.Argument(..., help="Session file (.toml, .json or .csv).", show_default=False),
    *,
    lang: Lang = _lang_option(),
    paper: str = typer.Option("a4", "--paper", help="Paper size: a4 or letter."),
    out: Path = typer.Option(None, "--out", help="PDF to write; default: the session file with .pdf."),
    ink_saver: bool = typer.Option(False, "--ink-saver", help="White backgrounds, black lines and text."),
) -> None:
    """Print a session on its game's scoresheet: every number entered, the totals and the winners."""
    from pnp.cli import score_commands
    score_commands.sheet(file, lang=_code(lang), paper=paper, out=out, ink_saver=ink_saver)


@score_app.command()
def new(
    game: str = typer.Argument(..., help="Game id (see `pnp games`), or a template that declares [score].",
                               show_default=False),
    players: str = typer.Option(..., "--players", help="Player names in seating order, separated by commas."),
    *,
    out: Path = typer.Option(None, "--out",
                             help="File to write (.toml, .json or .csv); default ./GAME-session.toml."),
    force: bool = typer.Option(False, "--force", help="Replace the file if it already exists."),
    lang: Lang = typer.Option(None, "--lang", help="Language stored in the session for its messages."),
) -> None:
    """Write a new session file with the players and no day or round yet."""
    from pnp.cli import score_commands
    score_commands.new(game, players, out=out, force=force, lang=_code(lang))


@score_app.command()
def add(
    file: Path = typer.Argument(..., help="Session file (.toml, .json or .csv) to add to.", show_default=False),
    lang: Lang = _lang_option(),
) -> None:
    """Enter the next day or round at the prompt; save it only if it passes every check."""
    from pnp.cli import score_commands
    score_commands.add(file, _code(lang))


def _data_option() -> object:
    return typer.Option(None, "--data", metavar="DIR",
                        help="Folder of the history database, as for pnp serve (default: your data folder).")


@score_app.command("import")
def import_(
    files: List[Path] = typer.Argument(..., help="Session files (.toml, .json or .csv).", show_default=False),
    data: Path = _data_option(),
    lang: Lang = _lang_option(),
) -> None:
    """Put session files into the history that pnp serve keeps; a session already there is not added again."""
    from pnp.cli import score_commands
    score_commands.import_files(files, data, _code(lang))


class Export(str, Enum):
    csv = "csv"
    bgstats = "bgstats"


@score_app.command()
def history(
    data: Path = _data_option(),
    game: str = typer.Option(None, "--game", help="Only this game, with its records, tie-breaks and win rates "
                                                  "by seat and colour (its id, see `pnp games`)."),
    player: str = typer.Option(None, "--player", metavar="NAME",
                               help="One player's page: wins, averages and bests per game, rivals, every play."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of the tables."),
    *,
    export: Export = typer.Option(None, "--export", help="Every finished session's plays at once: csv (a row per "
                                                         "player) or bgstats (a BG Stats play file)."),
    out: Path = typer.Option(None, "--out", help="File to write the export to (default: standard output)."),
    me: str = typer.Option(None, "--me", metavar="NAME", help="With --export bgstats: who uses the BG Stats app."),
    lang: Lang = typer.Option(None, "--lang", help="Language of the tables (default en)."),
) -> None:
    """List the history: each player's sessions, wins and average total per game, then every session."""
    from pnp.cli import score_commands
    score_commands.history(data, game=game, player=player, as_json=as_json,
                           export=export.value if export is not None else None, out=out, me=me, lang=_code(lang))
