"""The work behind ``pnp score ...``: check, start, fill in and print score sessions.

``pnp.cli.score`` declares the commands and their options and loads this
module only when a score command runs, so drawing commands start faster.
One code path serves every game: the session's rules (found by its game id)
give the entry form of the next day or round, the example of a new session
and the rows of the report. File-level errors become one line ``Error: ...``
and exit 1; rule problems are listed one per line, also with exit 1. With
``--json`` stdout holds exactly one JSON object. Every sentence comes from the
catalogs, in the language asked for (``--lang``, else the session's, else
English).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Mapping, NoReturn

import typer

from pnp.core.errors import ERROR_PREFIX, one_line
from pnp.core.records import NamedTuple
from scoring import (
    Checked,
    EntryForm,
    FileError,
    Kind,
    Messages,
    NothingToEnter,
    PartForm,
    Problem,
    Question,
    SessionFile,
    SessionFileError,
    check_session,
    find_rules,
    messages,
    new_session,
    read_session_file,
    score_session,
    session_date,
    session_lang,
    session_rules,
)
from scoring.names import escaped, name_key, named_like_a_number
from scoring.report import (
    file_error_json,
    file_error_text,
    format_result,
    problem_json,
    problem_lines,
    problems_json,
    result_json,
)
from scoring.session_file import (
    composed,
    create_session,
    dumps,
    extended_text,
    save_session,
    session_format,
    session_target,
    write_text_atomic,
)
from scoring.toml_writer import dumps as toml_dumps



def _fail(message: str) -> NoReturn:
    typer.echo(f"{ERROR_PREFIX}{one_line(message)}", err=True)
    raise typer.Exit(1)


def _fail_problems(words: Messages, file: Path, problems: tuple[Problem, ...] | list[Problem],
                   extra: str | None = None) -> NoReturn:
    typer.echo(ERROR_PREFIX + words.plural("cli.problems", len(problems), file=str(file)), err=True)
    for line in problem_lines(problems, words):
        typer.echo(line, err=True)
    if extra:
        typer.echo(extra, err=True)
    raise typer.Exit(1)


def _words(lang: str | None, raw: object = None) -> Messages:
    """The messages in ``lang`` (else the session's own, else English), with the session's game words."""
    return messages(lang or session_lang(raw) or "en", session_rules(raw))


# -- a designer's game, scored as its template declares ------------------------


def _join_declared(file: Path, raw: object, lang: str | None) -> None:
    """A session of a designer's game names its template (``template = "fish-market.toml"``,
    from the session's folder): the rules its ``[score]`` declares join the games for this command."""
    if not isinstance(raw, dict) or "template" not in raw:
        return
    template = raw["template"]
    if not isinstance(template, str) or not template.strip():
        _fail(_words(lang).text("cli.template_key", file=escaped(str(file))))
    join_declared(Path(file).parent / template, lang, raw.get("game"))


def join_declared(path: Path, lang: str | None, game: object = None):
    """The rules the template at ``path`` declares (its ``[score]``), joined to the known games
    (again, if it was: the template may have changed); the command ends on a template that does
    not load, declares no scoring, or belongs to another game than the session's. pnp score's
    commands join the template a session names; pnp serve those of its --template options."""
    from pnp.core.errors import PnpError
    from pnp.template.loader import load_game
    from scoring import register, unregister
    from scoring.rules import rules_of
    from pnp.core import games

    words = _words(lang)
    try:
        loaded = load_game(path)
    except FileNotFoundError:
        _fail(words.text("cli.no_template", path=escaped(str(path))))
    except PnpError as error:
        _fail(str(error))
    rules = loaded.score_rules
    if rules is None:
        _fail(words.text("cli.template_no_score", path=escaped(str(path))))
    if game is not None and game != rules.id:
        _fail(words.text("cli.template_other_game", path=escaped(str(path)), game=rules.id,
                         found=escaped(str(game))))
    if rules.id in games.SHIPPED:
        _fail(words.text("cli.template_shipped_id", path=escaped(str(path)), game=rules.id))
    if rules_of(rules.id) is not None:
        unregister(rules.id)
    try:
        register(rules, path)
    except ValueError as error:
        _fail(str(error))
    return rules


# -- check -------------------------------------------------------------------


class _CheckedFile(NamedTuple):
    """A session file as read, its check, and the messages to tell its problems in."""

    loaded: SessionFile
    checked: Checked
    words: Messages


def _read_checked(file: Path, lang: str | None, as_json: bool = False) -> _CheckedFile:
    """Read and check a session file; a file-level error ends the command (exit 1),
    told as one line or, with ``as_json``, as JSON on stdout."""
    raw = None
    try:
        loaded = read_session_file(file)
        raw = loaded.raw
        _join_declared(file, raw, lang)
        checked = check_session(raw)
    except SessionFileError as error:
        error.path = error.path or str(file)
        words = _words(lang, raw)
        if as_json:
            typer.echo(json.dumps(file_error_json(error, words), ensure_ascii=False))
            raise typer.Exit(1)
        _fail(file_error_text(error, words))
    return _CheckedFile(loaded, checked, _words(lang, raw))


def check(file: Path, as_json: bool, lang: str | None, prove: bool = False) -> None:
    """Check a session against the rules; show day or round scores, totals and winners.

    With ``prove``, each day or round is also decided exactly by the game's prover.
    """
    _, checked, words = _read_checked(file, lang, as_json)
    if prove and checked.rules.prover is None:
        _fail_as(words.text("cli.nothing_to_prove", game=words.text("game.name")), "nothing_to_prove", as_json)
    if prove and not checked.problems:
        _check_proved(file, checked, words, as_json)
        return
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


def _fail_as(message: str, code: str, as_json: bool) -> NoReturn:
    """A one-line refusal, or with ``as_json`` the same as the one error of a JSON object."""
    if as_json:
        typer.echo(json.dumps({"errors": [{"code": code, "message": message, "round": None, "player": None}]},
                              ensure_ascii=False))
        raise typer.Exit(1)
    _fail(message)


def _check_proved(file: Path, checked: Checked, words: Messages, as_json: bool) -> None:
    """The result and what the game's prover adds, or the days or rounds that cannot happen (exit 1)."""
    proofs = checked.rules.proofs(checked.session)
    if proofs.problems:
        if as_json:
            errors = [problem_json(problem, words) | detail for problem, detail in zip(proofs.problems, proofs.details)]
            typer.echo(json.dumps({"errors": errors}, ensure_ascii=False))
            raise typer.Exit(1)
        _fail_problems(words, file, proofs.problems)
    result = score_session(checked.session)
    if as_json:
        typer.echo(json.dumps(result_json(result) | proofs.data, ensure_ascii=False))
        return
    typer.echo(format_result(result, words), nl=False)
    if proofs.lines:
        typer.echo("")
    for line in proofs.lines:
        typer.echo(words.label(line))


# -- sheet -------------------------------------------------------------------


def sheet(file: Path, *, lang: str | None, paper: str, out: Path | None, ink_saver: bool) -> None:
    """Print a session on its game's scoresheet: every number entered, the totals and the winners."""
    from pnp.core.errors import PnpError
    from pnp.template.model import PrintOptions
    from pnp.kit.scoresheet import write_filled_sheet
    from pnp.core.units import PAPERS

    loaded, checked, words = _read_checked(file, lang)
    if paper.lower() not in PAPERS:
        _fail(words.text("cli.unknown_paper", found=repr(paper), expected=", ".join(PAPERS)))
    raw = loaded.raw
    if checked.problems:
        # An impossible session is not printed: the check's problems, and no file.
        _fail_problems(words, file, checked.problems)
    target = out if out is not None else file.with_suffix(".pdf")
    try:
        _check_sheet_target(target, file)
    except SessionFileError as error:
        _fail(file_error_text(error, words))
    result = score_session(checked.session)
    try:
        written = write_filled_sheet(result, PrintOptions(lang=words.lang, paper=paper.lower(), ink_saver=ink_saver),
                                     target, date=session_date(raw), inputs=(file,))
    except PnpError as error:
        _fail(str(error))
    typer.echo(words.text("cli.sheet_written", file=str(written), lang=words.lang, paper=paper.lower()))


def _check_sheet_target(target: Path, session: Path) -> None:
    """A sheet goes to a .pdf name in a folder that exists, and neither it nor its
    manifest is the session it prints (or a link to it)."""
    from pnp.kit.build import manifest_path
    from pnp.core.files import same_file

    if target.suffix.lower() != ".pdf":
        raise SessionFileError(FileError.OUTPUT_NOT_PDF, path=str(target))
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise SessionFileError(FileError.NO_FOLDER, folder=str(folder), path=str(target))
    for written in (target, manifest_path(target)):
        if same_file(written, session):
            raise SessionFileError(FileError.OUTPUT_IS_INPUT, input=str(session), path=str(written))


# -- new ---------------------------------------------------------------------


def _template_text(raw: dict, fmt: str, example: dict, words: Messages, *, file: Path) -> str:
    if fmt != "toml":  # only TOML has comments to show an example in
        return dumps(raw, fmt)
    # Control characters (a line break in the file name) would end the comment early.
    shown = "".join(c if c.isprintable() else "?" for c in escaped(str(file)))
    lines = ["# " + words.text("where.at", where=words.text("game.name"), what=f"pnp score add {shown}")]
    lines.append("#")
    lines += [f"# {line}".rstrip() for line in toml_dumps(example).splitlines()]
    return "\n".join(lines) + "\n\n" + toml_dumps(raw)


def new(game: str, players: str, *, out: Path | None, force: bool, lang: str | None) -> None:
    """Write a new session file with the players and no day or round yet; ``game`` is a game's
    id or a designer's template that declares its scoring (the session then names it)."""
    from pnp.template.loader import names_a_file

    template = Path(game) if names_a_file(game) else None
    try:
        rules = find_rules(game) if template is None else join_declared(template, lang)
    except SessionFileError as error:
        _fail(file_error_text(error, _words(lang)))
    words = messages(lang or "en", rules)
    names = [name.strip() for name in composed(players).split(",")]
    raw = new_session(rules, names, lang)
    target = out if out is not None else Path(f"{rules.id}-session.toml")
    if template is not None:
        # Found from the session's folder, wherever the commands that read it run.
        where = os.path.relpath(template.resolve(), (target.parent if str(target.parent) else Path(".")).resolve())
        raw = {"game": raw.pop("game"), "template": Path(where).as_posix(), **raw}
    problems = check_session(raw).problems
    if problems:
        _fail_problems(words, Path("--players"), problems)
    try:
        fmt = session_format(target)
        create_session(target, _template_text(raw, fmt, rules.example(names), words, file=target),
                       replaceable=_is_session if force else None)
    except SessionFileError as error:
        error.path = error.path or str(target)
        _fail(file_error_text(error, words))
    typer.echo(words.text("cli.created", file=str(target)))


def _is_session(raw: object) -> bool:
    """True for what a session file holds (a table naming a known game), broken or not."""
    return isinstance(raw, dict) and session_rules(raw) is not None


# -- add ---------------------------------------------------------------------


# ASCII digits only: str.isdigit() also accepts "²", which int() refuses.
_WHOLE = re.compile(r"[+-]?[0-9]{1,7}")


class _Asker:
    """Asks a form's questions at the prompt, in the session's language, until each answer makes sense."""

    def __init__(self, words: Messages) -> None:
        self.words = words

    def _prompt(self, label: str, default: str | None) -> str:
        if default is None:
            return str(typer.prompt(label)).strip()
        return str(typer.prompt(label, default=default)).strip()

    def count(self, label: str, low: int, high: int, default: int) -> int:
        while True:
            answer = self._prompt(label, str(default))
            if _WHOLE.fullmatch(answer) and low <= int(answer) <= high:
                return int(answer)
            typer.echo(self.words.text("cli.number_range", low=low, high=high), err=True)

    def signed(self, label: str, default: int) -> int:
        while True:
            answer = self._prompt(label, str(default))
            if _WHOLE.fullmatch(answer):
                return int(answer)
            typer.echo(self.words.text("cli.signed_number"), err=True)

    def yes_no(self, label: str, default: bool = False) -> bool:
        yes = {w.strip() for w in self.words.text("cli.yes_words").split(",")} | {"y", "yes"}
        no = {w.strip() for w in self.words.text("cli.no_words").split(",")} | {"n", "no"}
        while True:
            answer = self._prompt(label, "y" if default else "n").lower()
            if answer in yes:
                return True
            if answer in no:
                return False
            typer.echo(self.words.text("cli.yes_no"), err=True)

    def choice(self, label: str, options: Mapping[str, str], shown: str) -> str:
        """``options`` maps each accepted word, as :func:`~scoring.names.name_key` folds it, to the value returned."""
        while True:
            answer = name_key(self._prompt(label, None))
            if answer in options:
                return options[answer]
            typer.echo(self.words.text("cli.choose", choices=shown), err=True)

    def question(self, question: Question) -> object:
        words = self.words
        said = words.label(question.label)
        if question.kind is Kind.COUNT:
            return self.count(said, question.low, question.high, question.suggested())
        if question.kind is Kind.SIGNED:
            return self.signed(said, question.suggested() or 0)
        if question.kind is Kind.FLAG:
            return self.yes_no(words.text("cli.ask_flag", question=said), bool(question.suggested()))
        values = [choice.value for choice in question.choices]
        if question.kind is Kind.PLAYER:
            # A player is named, or numbered in seating order; but when a player is named
            # like a number ("2"), a number always means that name, never a seat.
            options = {name_key(v): v for v in values}
            if not any(named_like_a_number(v) for v in values):
                options = {str(i): v for i, v in enumerate(values, start=1)} | options
            shown = ", ".join(escaped(v) for v in values)
        else:
            names = [words.show(choice.label) for choice in question.choices]
            options = {name_key(v): v for v in values} | {name_key(name): v for name, v in zip(names, values)}
            shown = ", ".join(dict.fromkeys(names))
        return self.choice(words.text("cli.ask_choice", question=said, choices=shown), options, shown)

    def part(self, form: PartForm) -> dict[str, object]:
        """The answers to one part's questions (a question whose ``when`` fails is skipped)."""
        answers: dict[str, object] = {}
        for question in form.asked(answers):
            answers[question.id] = self.question(question)
        return answers


def _show(words: Messages, problems: list[Problem] | tuple[Problem, ...]) -> None:
    for line in problem_lines(problems, words):
        typer.echo(line, err=True)


class _Entered(NamedTuple):
    """A day or round entered at the prompt: as a session file holds it, the whole session
    with it, and that session's check."""

    round_raw: dict
    session: dict
    checked: Checked


def _enter(ask: _Asker, form: EntryForm, raw: Mapping) -> _Entered | None:
    """Ask for the next day or round: each player's part again until it passes its own checks,
    the whole day or round again while it breaks a rule, unless the user stops (None)."""
    words = ask.words
    while True:
        for fact in form.given:
            typer.echo(words.label(fact.label))
        answers = ask.part(form.round)
        start = form.round_start(answers)
        parts = {}
        for player in form.players:
            player_form = form.player_form(player, start)
            while True:
                typer.echo(words.label(form.heading(player)))
                part = player_form.to_raw(ask.part(player_form))
                problems = form.check_part(player, part, start)
                if not problems:
                    break
                _show(words, problems)
            parts[player] = part
        round_raw = form.round_raw(answers, parts)
        updated = form.updated(raw, round_raw)
        checked = check_session(updated)
        if not checked.problems:
            return _Entered(round_raw, updated, checked)
        _show(words, checked.problems)
        if not ask.yes_no(words.label(form.again())):
            return None


def add(file: Path, lang: str | None) -> None:
    """Enter the next day or round at the prompt; save it only if it passes every check."""
    loaded, checked, words = _read_checked(file, lang)
    if checked.problems:
        _fail_problems(words, file, checked.problems, extra=words.text("cli.fix_first"))
    try:
        form = checked.rules.entry_form(checked.session)
    except NothingToEnter as stop:
        _fail(words.text("where.at", where=escaped(str(file)), what=words.label(stop.reason)))
    entered = _enter(_Asker(words), form, loaded.raw)
    if entered is None:
        _fail(words.text("cli.nothing_saved"))
    round_raw, updated, rechecked = entered
    try:
        backup = save_session(loaded, extended_text(loaded, form.addition(round_raw), updated))
    except SessionFileError as error:
        if error.code is not FileError.CHANGED_SINCE_READ:
            _fail(file_error_text(error, words))
        _save_after_another(file, loaded, form, round_raw, typed=updated, words=words)
        return
    typer.echo(format_result(score_session(rechecked.session), words), nl=False)
    typer.echo(words.text("cli.saved", file=str(file), backup=str(backup)))


def _appended_days(before: object, after: object, rules_key: str | None) -> list | None:
    """The days or rounds ``after`` adds at the end of ``before``, when that is all that differs; else None."""
    if rules_key is None or not isinstance(before, dict) or not isinstance(after, dict):
        return None
    old, new = before.get(rules_key, []), after.get(rules_key, [])
    if not isinstance(old, list) or not isinstance(new, list) or len(new) <= len(old) or new[:len(old)] != old:
        return None
    if {k: v for k, v in before.items() if k != rules_key} != {k: v for k, v in after.items() if k != rules_key}:
        return None
    return new[len(old):]


def _save_after_another(file: Path, loaded: SessionFile, form: EntryForm, round_raw: dict, *, typed: dict,
                        words: Messages) -> None:
    """The session changed while a day was typed: the typed day is never lost.

    When another writer only appended days or rounds, and this one differs from
    them, it is appended after them if the whole session still passes its checks
    (it is then the next day: a day's counts do not depend on its number). In
    any other case the session is left as it is and the typed day is saved
    beside it, with the session as it was read, in a new file named in the
    message (exit 1).
    """
    rounds_key = form.rounds_key
    where = words.text(f"{form.round_word}.where", number=form.number) if form.number is not None else \
        words.text("cli.outcome_word")
    for _ in range(3):  # another writer may save again between reading and saving
        try:
            now = read_session_file(file)
        except SessionFileError:
            break
        added = _appended_days(loaded.raw, now.raw, rounds_key)
        if added is None:
            break
        if round_raw in added:
            typer.echo(words.text("cli.same_saved", file=str(file), round=where))
            return
        updated = form.updated(now.raw, round_raw)
        checked = check_session(updated)
        if checked.problems:
            break
        number = len(updated[rounds_key])
        try:
            backup = save_session(now, extended_text(now, form.addition(round_raw), updated))
        except SessionFileError as error:
            if error.code is FileError.CHANGED_SINCE_READ:
                continue
            _fail(file_error_text(error, words))
        others = ", ".join(words.text(f"{form.round_word}.where", number=n)
                           for n in range(len(updated[rounds_key]) - len(added), number))
        typer.echo(format_result(score_session(checked.session), words), nl=False)
        typer.echo(words.text("cli.saved_after", file=str(file), others=others, backup=str(backup),
                              round=words.text(f"{form.round_word}.where", number=number)))
        return
    kept = _keep_beside(file, loaded, form, round_raw, typed=typed, words=words)
    _fail(words.text("cli.kept_beside", file=str(file), kept=str(kept), round=where))


def _keep_beside(file: Path, loaded: SessionFile, form: EntryForm, round_raw: dict, *, typed: dict,
                 words: Messages) -> Path:
    """Write the session as it was read, with the typed day, to a new file beside it; return its name."""
    target = session_target(file)
    label = f"{form.round_word}-{form.number}" if form.number is not None else "result"
    for attempt in range(1, 1000):
        suffix = "" if attempt == 1 else f"-{attempt}"
        kept = target.with_name(f"{target.stem}.unsaved-{label}{suffix}{target.suffix}")
        if not kept.exists() and not kept.is_symlink():
            break
    try:
        write_text_atomic(kept, extended_text(loaded, form.addition(round_raw), typed), backup=False)
    except SessionFileError as error:
        _fail(file_error_text(error, words))
    return kept




# -- history -----------------------------------------------------------------


def _database(data: Path | None):
    from pnp.web.db import Database, DatabaseError, default_data_dir

    try:
        return Database.in_folder(data if data is not None else default_data_dir())
    except DatabaseError as error:
        _fail(str(error))


def import_files(files: list[Path], data: Path | None, lang: str | None) -> None:
    """Put session files into the history; nothing is imported unless every file passes its check."""
    from pnp.web.db import DatabaseError
    from pnp.web.sessions import import_documents

    documents = []
    broken = False
    for file in files:
        raw = None
        try:
            raw = read_session_file(file).raw
            _join_declared(file, raw, lang)
            checked = check_session(raw)
        except SessionFileError as error:
            error.path = error.path or str(file)
            typer.echo(ERROR_PREFIX + file_error_text(error, _words(lang, raw)), err=True)
            broken = True
            continue
        if checked.problems:
            words = _words(lang, raw)
            typer.echo(ERROR_PREFIX + words.plural("cli.problems", len(checked.problems), file=str(file)), err=True)
            for line in problem_lines(checked.problems, words):
                typer.echo(line, err=True)
            broken = True
            continue
        documents.append((str(file), raw))
    words = _words(lang)
    if broken:
        typer.echo(words.text("cli.nothing_imported"), err=True)
        raise typer.Exit(1)
    db = _database(data)
    try:
        done = import_documents(db, documents)
    except DatabaseError as error:
        _fail(str(error))
    finally:
        db.close()
    for item in done:
        key = "cli.imported" if item.new else "cli.already_imported"
        typer.echo(words.text(key, file=item.source, id=item.session_id))


def _table(headings: list[str], cells: list[list[str]]) -> list[str]:
    """Lines of a table: the first column left-aligned, the others right-aligned, two spaces apart."""
    widths = [max(len(line[i]) for line in [headings] + cells) for i in range(len(headings))]
    return ["  " + "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                             for i, (cell, w) in enumerate(zip(line, widths))).rstrip()
            for line in [headings] + cells]


def history(data: Path | None, *, game: str | None, player: str | None, as_json: bool, export: str | None,
            out: Path | None, me: str | None, lang: str | None) -> None:
    """Print the history: the club's overview, a game's page (``--game``), a player's (``--player``), or every
    play at once (``--export csv|bgstats``), as text or JSON."""
    from pnp.web.db import DatabaseError

    words = _words(lang)
    if (me is not None and export != "bgstats") or (out is not None and export is None):
        _fail(words.text("cli.history_export_only", option="--me" if me is not None and export != "bgstats"
                         else "--out"))
    if game is not None:
        try:
            game = find_rules(game).id
        except SessionFileError as error:
            _fail(file_error_text(error, words))
    db = _database(data)
    try:
        if export is not None:
            _history_export(db, export, out, me, words=words)
        elif player is not None:
            _history_player(db, player, game, as_json, words=words)
        else:
            _history_club(db, game, as_json, words)
    except DatabaseError as error:
        _fail(str(error))
    finally:
        db.close()


def _person_or_fail(db, name: str, words: Messages) -> int:
    from pnp.web.records import person_called

    found = person_called(db, name)
    if found is None:
        _fail(words.text("cli.history_nobody", name=escaped(name)))
    return found


def _history_export(db, export: str, out: Path | None, me: str | None, *, words: Messages) -> None:
    import json as json_module

    from pnp.core.files import write_file
    from pnp.web import bgstats, records
    from pnp.web.words import game_name

    me_id = _person_or_fail(db, me, words) if me is not None else None
    rows = records.every_play(db)
    if export == "csv":
        text = records.plays_csv(rows)
    else:
        names = {row.game: game_name(row.game, "en") for row in rows}
        text = json_module.dumps(bgstats.club_file(rows, club=records.club_id(db), game_names=names, me=me_id),
                                 ensure_ascii=False) + "\n"
    if out is None:
        typer.echo(text, nl=False)
        return
    try:
        write_file(out, text)
    except OSError as error:
        _fail(str(error))
    typer.echo(words.text("cli.history_exported", file=str(out), plays=len(rows)), err=True)


def _history_club(db, game: str | None, as_json: bool, words: Messages) -> None:
    from pnp.web import records
    from pnp.web.words import game_name, long_date, number

    found = records.history_json(db, game)
    if as_json:
        if game is not None:
            found["game"] = records.game(db, game, size=ALL)
        typer.echo(json.dumps(found, ensure_ascii=False))
        return
    if not found["sessions"]:
        typer.echo(words.text("cli.history_empty"))
        return
    code = words.lang
    if game is not None:
        page = records.game(db, game, size=ALL)
        if page is not None:
            _print_game(page, words)
    else:
        headings = [words.text(f"cli.history_{name}") for name in ("player", "played", "won", "average", "best")]
        for game_id, rows in found["players"].items():
            typer.echo(game_name(game_id, code))
            cells = [[escaped(r["name"]), str(r["played"]), str(r["won"]), number(r["average"], code),
                      "–" if r["best"] is None else str(r["best"])] for r in rows]
            for line in _table(headings, cells):
                typer.echo(line)
            typer.echo("")
    typer.echo(words.text("cli.history_sessions"))
    for item in found["sessions"]:
        people = []
        for name in item["players"]:
            shown = escaped(name)
            if name in item["totals"]:
                shown += f" {item['totals'][name]}"
            if name in item["winners"]:
                shown += " ★"
            people.append(shown)
        notes = [] if item["complete"] else [words.text("cli.history_unfinished")]
        if item["source"]:
            notes.append(escaped(item["source"]))
        date = long_date(item["date"], code) or "–"
        tail = f"  ({'; '.join(notes)})" if notes else ""
        typer.echo(f"  {date}  {game_name(item['game'], code)} — {' · '.join(people)}{tail}")


def _print_game(page: dict, words: Messages) -> None:
    """A game's page as text: its figures, records, how its sessions were decided, wins by side and seat,
    and every player."""
    from pnp.web.words import decision_name, game_name, long_date, number, percent, side_name

    code, game = words.lang, page["game"]
    say = words.text
    typer.echo(game_name(game, code))
    typer.echo("  " + _fields(words, ("web.game.sessions", page["sessions"]), ("web.game.plays", page["plays"])))
    if page["points"]:
        typer.echo("  " + _fields(words, ("web.game.average", number(page["average"], code)),
                                  ("web.game.winning_average", number(page["winning_average"], code))))
        for key, label in (("highest", "web.game.highest"), ("lowest", "web.game.lowest"),
                           ("best_round", "web.game.best_round")):
            record = page["records"][key]
            if record is not None:
                where = ", ".join(part for part in (_round_of(game, record["round"], code),
                                                    long_date(record["date"], code)) if part)
                typer.echo("  " + _fields(words, (label, f"{record['value']} · {escaped(record['name'])} · {where}")))
        typer.echo("  " + say("cli.history_heading", label=say("web.game.decided")))
        for row in page["decisions"]:
            typer.echo(f"    {row['sessions']:>5}  {decision_name(game, row['tie_break'], code)}")
    for kind, rows in page["sides"].items():
        if kind == "seat" and not page["points"]:
            continue
        typer.echo("  " + say("cli.history_heading", label=say("web.game.seats" if kind == "seat"
                                                            else f"web.game.sides_{kind}")))
        cells = [[side_name(game, kind, row["side"], code), words.plural("web.game.players_count", row["players"]),
                  percent(row["rate"], code), say("web.history.won_of", won=row["wins"], played=row["plays"])]
                 for row in rows]
        for line in _table(["", "", "", ""], cells)[1:]:
            typer.echo("  " + line)
    headings = [say(key) for key in ("web.history.player", "web.history.plays", "web.history.wins",
                                     "web.history.win_rate", "web.history.average", "web.history.best")]
    cells = [[escaped(row["name"]), str(row["plays"]), str(row["wins"]), percent(row["rate"], code),
              number(row["average"], code), "–" if row["best"] is None else str(row["best"])]
             for row in page["leaders"]]
    for line in _table(headings, cells):
        typer.echo(line)
    typer.echo("")


def _fields(words: Messages, *pairs: tuple[str, object]) -> str:
    """"Plays: 81 · Wins: 28", each label a catalog key, written as the language writes a label and its value."""
    return " · ".join(words.text("cli.history_field", label=words.text(key), value=str(value)) for key, value in pairs)


def _round_of(game: str, number_: int | None, lang: str) -> str:
    from pnp.web.words import known_game, round_name

    return round_name(game, lang, number_) if number_ and known_game(game) else ""


def _history_player(db, name: str, game: str | None, as_json: bool, *, words: Messages) -> None:
    from pnp.web import records
    from pnp.web.words import game_name, long_date, number, percent

    found = records.person(db, _person_or_fail(db, name, words), game=game, size=ALL)
    if isinstance(found, records.Moved):
        found = records.person(db, found.person_id, game=game, size=ALL)
    if as_json:
        typer.echo(json.dumps(found, ensure_ascii=False))
        return
    code, say = words.lang, words.text
    typer.echo(escaped(found["name"]))
    others = [escaped(n) for n in found["spellings"] if n != found["name"]]
    if others:
        typer.echo("  " + say("web.person.also_written", names=", ".join(others)))
    typer.echo("  " + _fields(words, ("web.history.plays", found["plays"]), ("web.history.wins", found["wins"]),
                              ("web.history.win_rate", percent(found["rate"], code))))
    headings = [say(key) for key in ("web.history.game", "web.history.plays", "web.history.wins",
                                     "web.history.win_rate", "web.history.average", "web.history.best",
                                     "web.history.best_round")]
    cells = []
    for row in found["games"]:
        best, best_round = row["best"], row["best_round"]
        cells.append([game_name(row["game"], code), str(row["plays"]), str(row["wins"]), percent(row["rate"], code),
                      number(row["average"], code), "–" if best is None else str(best["value"]),
                      "–" if best_round is None else
                      f"{best_round['value']} ({_round_of(row['game'], best_round['round'], code)})"])
    for line in _table(headings, cells):
        typer.echo(line)
    typer.echo("")
    typer.echo(say("web.person.rivals"))
    headings = [say(key) for key in ("web.person.rival", "web.person.together", "web.person.ahead",
                                     "web.person.behind", "web.person.level")]
    cells = [[escaped(r["name"]), str(r["together"]), str(r["ahead"]), str(r["behind"]), str(r["level"])]
             for r in found["rivals"]]
    for line in _table(headings, cells):
        typer.echo(line)
    typer.echo("")
    typer.echo(say("web.person.plays_of", game=game_name(game, code)) if game else say("web.person.plays_title"))
    for play in found["recent"]:
        score = "" if play["total"] is None else f"{play['total']} · "
        won = " ★" if play["won"] else ""
        rank = say("web.history.rank_of", rank=play["rank"], players=play["players"])
        typer.echo(f"  {long_date(play['date'], code)}  {game_name(play['game'], code)} — {score}{rank}{won}")


#: Every row of a list at once, for the command line (a page holds :data:`pnp.web.records.PAGE`).
ALL = 1_000_000_000


__all__ = ["add", "check", "new", "sheet", "import_files", "history"]
