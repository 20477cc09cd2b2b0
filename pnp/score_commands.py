"""The work behind ``pnp score ...``: check, start, fill in and print score sessions.

``pnp.score_cli`` declares the commands and their options and loads this
module only when a score command runs, so drawing commands start faster.
File-level errors become one line ``Error: ...`` and exit 1; rule problems are
listed one per line, also with exit 1.  With ``--json`` stdout holds exactly
one JSON object.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Callable, NoReturn, TypeVar

import typer

from pnp.score_cli import Lang

from scoring import beavers, card_hunter, halali, hunting_fever
from scoring.errors import Problem, SessionFileError
from scoring.messages import Catalog, catalog, printable
from scoring.report import (
    file_error_json,
    file_error_text,
    format_result,
    problem_lines,
    problems_json,
    result_json,
)
from scoring.result import Game
from scoring.session import (
    ROUNDS_IN_GAME,
    check_session,
    new_session,
    parse_game,
    round_label,
    score_session,
    session_lang,
)
from scoring.session_file import (
    SessionFile,
    dumps,
    extended_text,
    read_session_file,
    session_format,
    write_text_atomic,
)
from scoring.toml_writer import dumps as toml_dumps

def _fail(message: str) -> NoReturn:
    typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(1)


def _fail_problems(words: Catalog, file: Path, problems: tuple[Problem, ...] | list[Problem], extra: str | None = None) -> NoReturn:
    header = words.plural("cli.problems", len(problems), file=printable(str(file)))
    typer.echo(f"Error: {header}", err=True)
    for line in problem_lines(problems, words):
        typer.echo(line, err=True)
    if extra:
        typer.echo(extra, err=True)
    raise typer.Exit(1)


def _words(chosen: Lang | None, raw: object = None) -> Catalog:
    return catalog(chosen.value if chosen else (session_lang(raw) or "en"))


# -- check -------------------------------------------------------------------


def _read_checked(file: Path, lang: "Lang | None", as_json: bool = False) -> tuple[SessionFile, object, Catalog]:
    """Read and check a session file; a file-level error ends the command (exit 1),
    told as one line or, with ``as_json``, as JSON on stdout."""
    raw = None
    try:
        loaded = read_session_file(file)
        raw = loaded.raw
        checked = check_session(raw)
    except SessionFileError as error:
        error.path = error.path or str(file)
        words = _words(lang, raw)
        if as_json:
            typer.echo(json.dumps(file_error_json(error, words), ensure_ascii=False))
            raise typer.Exit(1)
        _fail(file_error_text(error, words))
    return loaded, checked, _words(lang, raw)


def check(file: Path, as_json: bool, lang: Lang | None) -> None:
    """Check a session against the rules; show day or round scores, totals and winners."""
    _, checked, words = _read_checked(file, lang, as_json)
    if checked.problems:
        if as_json:
            typer.echo(json.dumps(problems_json(checked.problems, words), ensure_ascii=False))
            raise typer.Exit(1)
        _fail_problems(words, file, checked.problems)
    result = score_session(checked.session)
    if as_json:
        typer.echo(json.dumps(result_json(result), ensure_ascii=False))
    else:
        typer.echo(format_result(result, words), nl=False)


# -- sheet -------------------------------------------------------------------


def sheet(file: Path, lang: Lang | None, paper: str, out: Path | None, ink_saver: bool) -> None:
    """Print a session on its game's scoresheet: every number entered, the totals and the winners."""
    from pnp.errors import PnpError
    from pnp.model import PrintOptions
    from pnp.scoresheet import write_filled_sheet
    from pnp.units import PAPERS
    from scoring.session import session_date

    if paper.lower() not in PAPERS:
        _fail(f"unknown paper {paper!r}; expected one of: {', '.join(PAPERS)}")
    loaded, checked, words = _read_checked(file, lang)
    raw = loaded.raw
    if checked.problems:
        # An impossible session is not printed: the check's problems, and no file.
        _fail_problems(words, file, checked.problems)
    result = score_session(checked.session)
    chosen = (lang.value if lang is not None else None) or session_lang(raw) or "en"
    target = out if out is not None else file.with_suffix(".pdf")
    try:
        written = write_filled_sheet(result, PrintOptions(lang=chosen, paper=paper.lower(), ink_saver=ink_saver),
                                     target, date=session_date(raw))
    except PnpError as error:
        _fail(str(error))
    typer.echo(f"wrote {written} ({chosen}, {paper.lower()})")


# -- new ---------------------------------------------------------------------


def _template_text(raw: dict, fmt: str, game: Game, words: Catalog, file: Path) -> str:
    if fmt == "json":
        return dumps(raw, "json")
    example = _example(game, raw["players"])
    # Control characters (a line break in the file name) would end the comment early.
    shown = "".join(c if c.isprintable() else "?" for c in printable(str(file)))
    lines = [f"# {words.text('game.' + game.value)}: pnp score add {shown}"]
    lines.append("#")
    lines += [f"# {line}".rstrip() for line in toml_dumps(example).splitlines()]
    return "\n".join(lines) + "\n\n" + toml_dumps(raw)


def _example(game: Game, players: list[str]) -> dict:
    """A filled-in day or round shown commented out in a new TOML session."""
    if game is Game.HUNTING_FEVER:
        state = hunting_fever.entry(hand={"hunter": 1, "rabbit": 1}, prey={"wolf": 1, "carrot": 2})
        return {"days": [{players[0]: hunting_fever.entry_to_raw(state)}]}
    if game is Game.HALALI:
        return {"rounds": [{"blue": players[0], "tiles": {players[0]: {"hunter": 2, "duck": 1}}}]}
    if game is Game.BEAVERS:
        return {"rounds": [{players[0]: 3}]}
    return {"result": "won", "knockouts_left": 2}


def new(game: str, players: str, out: Path | None, force: bool, lang: Lang | None) -> None:
    """Write a new session file with the players and no day or round yet."""
    words = _words(lang)
    try:
        chosen = parse_game(game)
    except SessionFileError as error:
        _fail(file_error_text(error, words))
    names = [name.strip() for name in players.split(",")]
    raw = new_session(chosen, names, lang.value if lang else None)
    target = out if out is not None else Path(f"{chosen.value}-session.toml")
    problems = check_session(raw).problems
    if problems:
        _fail_problems(words, Path("--players"), problems)
    try:
        fmt = session_format(target)
        if target.exists() and not force:
            raise SessionFileError("file_exists", path=str(target))
        write_text_atomic(target, _template_text(raw, fmt, chosen, words, target), backup=force)
    except SessionFileError as error:
        error.path = error.path or str(target)
        _fail(file_error_text(error, words))
    typer.echo(words.text("cli.created", file=printable(str(target))))


# -- add ---------------------------------------------------------------------


# ASCII digits only: str.isdigit() also accepts "²", which int() refuses.
_WHOLE = re.compile(r"[+-]?[0-9]{1,7}")


class _Asker:
    """Prompts in the session's language; re-asks until the answer makes sense."""

    def __init__(self, words: Catalog) -> None:
        self.words = words

    def _prompt(self, label: str, default: str | None) -> str:
        if default is None:
            return str(typer.prompt(label)).strip()
        return str(typer.prompt(label, default=default)).strip()

    def count(self, label: str, low: int, high: int) -> int:
        while True:
            answer = self._prompt(label, str(low))
            if _WHOLE.fullmatch(answer) and low <= int(answer) <= high:
                return int(answer)
            typer.echo(self.words.text("cli.number_range", low=low, high=high), err=True)

    def signed(self, label: str) -> int:
        while True:
            answer = self._prompt(label, "0")
            if _WHOLE.fullmatch(answer):
                return int(answer)
            typer.echo(self.words.text("cli.signed_number"), err=True)

    def yes_no(self, label: str) -> bool:
        yes = {w.strip() for w in self.words.text("cli.yes_words").split(",")} | {"y", "yes"}
        no = {w.strip() for w in self.words.text("cli.no_words").split(",")} | {"n", "no"}
        while True:
            answer = self._prompt(label, "n").lower()
            if answer in yes:
                return True
            if answer in no:
                return False
            typer.echo(self.words.text("cli.yes_no"), err=True)

    def choice(self, label: str, options: dict[str, str]) -> str:
        """``options`` maps each accepted word (lower case) to the value returned."""
        shown = ", ".join(dict.fromkeys(options.values()))
        while True:
            answer = self._prompt(label, None).lower()
            if answer in options:
                return options[answer]
            typer.echo(self.words.text("cli.choose", choices=shown), err=True)


def _show(words: Catalog, problems: list[Problem]) -> None:
    for line in problem_lines(problems, words):
        typer.echo(line, err=True)


T = TypeVar("T")


def _until_it_passes(words: Catalog, attempt: Callable[[], tuple[T, list[Problem]]]) -> T:
    """One player's entry, asked again until it passes its checks."""
    while True:
        entry, problems = attempt()
        if not problems:
            return entry
        _show(words, problems)


def _until_it_passes_or_stop(ask: _Asker, again_key: str,
                             attempt: Callable[[], tuple[T, list[Problem]]]) -> T | None:
    """A whole day or round: asked again while it breaks a rule, unless the user stops (None)."""
    while True:
        entry, problems = attempt()
        if not problems:
            return entry
        _show(ask.words, problems)
        if not ask.yes_no(ask.words.text(again_key)):
            return None


def _ask_hunting_fever(ask: _Asker, session: hunting_fever.HuntingFeverSession, number: int) -> dict | None:
    words = ask.words
    places = {}
    for place in ("hand", "prey", "lodge"):
        places[place] = place
        places[words.text(f"cli.hunter_places.{place}").lower()] = place
    shown = {words.text(f"cli.hunter_places.{p}"): p for p in ("hand", "prey", "lodge")}
    players = session.players
    others = [card for card in hunting_fever.CARDS if card != "hunter"]

    def player_day(player: str) -> tuple[hunting_fever.DayEntry, list[Problem]]:
        typer.echo(words.text("cli.day_heading", number=number, player=printable(player)))
        place = ask.choice(words.text("cli.hunter_place", choices=", ".join(shown)), places)
        flipped = ask.yes_no(words.text("cli.lodge_flipped"))
        hand = {"hunter": int(place == "hand")}
        prey = {"hunter": int(place == "prey")}
        for card in others:
            name = words.text(f"card.{card}")
            hand[card] = ask.count(words.text("cli.hand_count", card=name), 0, hunting_fever.SET[card])
        for card in others:
            name = words.text(f"card.{card}")
            prey[card] = ask.count(words.text("cli.prey_count", card=name), 0, len(players) * hunting_fever.SET[card])
        state = hunting_fever.entry(prey, hand, place == "lodge", flipped)
        return state, hunting_fever.check_player_day(number, player, state)

    def day() -> tuple[dict, list[Problem]]:
        entries = {player: _until_it_passes(words, lambda: player_day(player)) for player in players}
        problems = hunting_fever.check_day(number, players, entries)
        return {player: hunting_fever.entry_to_raw(entries[player]) for player in players}, problems

    return _until_it_passes_or_stop(ask, "cli.again_day", day)


def _ask_halali(ask: _Asker, session: halali.HalaliSession, number: int) -> dict | None:
    words = ask.words
    players = session.players
    previous = session.rounds[-1].blue if session.rounds else None

    def player_round(player: str, role: str) -> tuple[dict[str, int], list[Problem]]:
        typer.echo(words.text("cli.round_heading", number=number, player=printable(player)))
        counts = {tile: 0 for tile in halali.TILES}
        for tile in halali.HOLDABLE[role]:
            counts[tile] = ask.count(words.text("cli.tile_count", tile=words.text(f"tile.{tile}")), 0, halali.BOX[tile])
        return counts, halali.check_player_round(number, player, role, counts)

    def whole_round() -> tuple[dict, list[Problem]]:
        if previous is None:
            options = {p.lower(): p for p in players} | {str(i): p for i, p in enumerate(players, start=1)}
            blue = ask.choice(words.text("cli.blue_player", choices=", ".join(players)), options)
        else:
            blue = next(p for p in players if p != previous)
            typer.echo(words.text("cli.blue_swapped", name=printable(blue)))
        tiles = {player: _until_it_passes(words, lambda: player_round(player, "blue" if player == blue else "brown"))
                 for player in players}
        played = halali.HalaliRound(blue=blue, tiles=tiles)
        problems = halali.check_round(number, players, played, previous if number == 2 else None)
        return halali.round_to_raw(played), problems

    return _until_it_passes_or_stop(ask, "cli.again_round", whole_round)


def _ask_beavers(ask: _Asker, session: beavers.BeaversSession, number: int) -> dict | None:
    words = ask.words
    players = session.players

    def player_change(player: str) -> tuple[int, list[Problem]]:
        typer.echo(words.text("cli.round_heading", number=number, player=printable(player)))
        change = ask.signed(words.text("cli.currency_change"))
        problems = [p for p in beavers.check_rounds(players, session.rounds + ({player: change},))
                    if p.player == player and p.round == number]
        return change, problems

    def whole_round() -> tuple[dict, list[Problem]]:
        changes = {player: _until_it_passes(words, lambda: player_change(player)) for player in players}
        problems = [p for p in beavers.check_rounds(players, session.rounds + (changes,)) if p.round == number]
        return changes, problems

    return _until_it_passes_or_stop(ask, "cli.again_round", whole_round)


def _ask_card_hunter(ask: _Asker, session: card_hunter.CardHunterSession) -> dict | None:
    words = ask.words

    def options(section: str, keys: tuple[str, ...]) -> dict[str, str]:
        return {key: key for key in keys} | {words.text(f"{section}.{key}").lower(): key for key in keys}

    added = {}
    if session.difficulty is None:
        shown = ", ".join(words.text(f"difficulty.{d}") for d in card_hunter.DIFFICULTIES)
        added["difficulty"] = ask.choice(words.text("cli.difficulty", choices=shown), options("difficulty", card_hunter.DIFFICULTIES))
    shown = ", ".join(words.text(f"result.{r}") for r in card_hunter.RESULTS)
    added["result"] = ask.choice(words.text("cli.result", choices=shown), options("result", card_hunter.RESULTS))
    if added["result"] == "won":
        added["knockouts_left"] = ask.count(words.text("cli.knockouts"), 1, card_hunter.KNOCKOUT_TOKENS)
    else:
        added["knockouts_left"] = 0
    return added


def _addition(loaded: SessionFile, checked_session: object, game: Game, ask: _Asker) -> tuple[dict, dict] | None:
    """Ask for the next day or round; return (what to add, the whole updated session)."""
    raw = copy.deepcopy(loaded.raw)
    if game is Game.CARD_HUNTER:
        added = _ask_card_hunter(ask, checked_session)
        return (added, raw | added) if added is not None else None
    listed = "days" if game is Game.HUNTING_FEVER else "rounds"
    done = len(raw.get(listed, []))
    number = done + 1
    if game is Game.HUNTING_FEVER:
        item = _ask_hunting_fever(ask, checked_session, number)
    elif game is Game.HALALI:
        item = _ask_halali(ask, checked_session, number)
    else:
        item = _ask_beavers(ask, checked_session, number)
    if item is None:
        return None
    raw[listed] = list(raw.get(listed, [])) + [item]
    return {listed: [item]}, raw


def add(file: Path, lang: Lang | None) -> None:
    """Enter the next day or round at the prompt; save it only if it passes every check."""
    loaded, checked, words = _read_checked(file, lang)
    if checked.problems:
        _fail_problems(words, file, checked.problems, extra=words.text("cli.fix_first"))
    session = checked.session
    game = checked.game
    total = ROUNDS_IN_GAME[game]
    if game is Game.CARD_HUNTER and session.result is not None:
        _fail(f"{printable(str(file))}: {words.text('cli.complete_outcome')}")
    if game is Game.BEAVERS and session.final is not None:
        _fail(f"{printable(str(file))}: {words.text('cli.uses_final')}")
    if game is not Game.CARD_HUNTER:
        done = len(session.days) if game is Game.HUNTING_FEVER else len(session.rounds)
        if done >= total:
            _fail(f"{printable(str(file))}: {words.text('cli.complete_' + round_label(game), total=total)}")
    outcome = _addition(loaded, session, game, _Asker(words))
    if outcome is None:
        typer.echo(words.text("cli.nothing_saved"), err=True)
        raise typer.Exit(1)
    addition, updated = outcome
    rechecked = check_session(updated)
    if rechecked.problems:  # the entry checks above should make this impossible
        _fail_problems(words, file, rechecked.problems, extra=words.text("cli.nothing_saved"))
    try:
        backup = write_text_atomic(file, extended_text(loaded, addition, updated))
    except SessionFileError as error:
        _fail(file_error_text(error, words))
    typer.echo(format_result(score_session(rechecked.session), words), nl=False)
    typer.echo(words.text("cli.saved", file=printable(str(file)), backup=printable(str(backup))))


__all__ = ["add", "check", "new", "sheet"]
