"""The docs show every command and option a user can type, and everything they show exists.

sqlite-utils' ``tests/test_docs.py`` for a Typer app: the documentation is README.md and
docs/*.md. Every command of ``pnp`` (sub-commands included) is shown, and each option of a
command is named in a section of the docs that shows that command. The other way round, every
``pnp ...`` line or span the docs show names commands and options that exist, and every option
a doc names belongs to a command that doc shows, so a renamed option cannot leave stale docs.
The README stays a page for users: at most 15 KB, its links resolve, and its quick start is the
two commands CI runs.
"""

from __future__ import annotations

import re
import shlex
import unicodedata
from pathlib import Path
from typing import NamedTuple

import click
import pytest
import typer

from pnp.cli import app

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = [README, *sorted((ROOT / "docs").glob("*.md"))]
README_MAX_BYTES = 15_000
INSTALL_AND_BUILD = "pip install . && pnp build"
INSTALL_AND_TEST = 'pip install ".[test]" && python -m pytest'


def _commands(command: click.Command, path: str = "pnp") -> dict[str, click.Command]:
    found = {path: command}
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            found.update(_commands(sub, f"{path} {name}"))
    return found


#: Every command by its path, "pnp" itself (its global options) included.
COMMANDS = _commands(typer.main.get_command(app))


def options_of(command: click.Command) -> set[str]:
    return {name for param in command.params if isinstance(param, click.Option)
            for name in (*param.opts, *param.secondary_opts)} | {"--help"}


class Section(NamedTuple):
    doc: Path
    heading: str
    shown: tuple[tuple[str, ...], ...]   # each `pnp ...` shown, as its words
    spans: tuple[str, ...]               # every inline code span
    text: str                            # prose and code, fences included


def _sections(doc: Path) -> list[Section]:
    sections, heading, lines, shown, spans = [], doc.name, [], [], []
    fenced = False

    def close():
        sections.append(Section(doc, heading, tuple(shown), tuple(spans), text="\n".join(lines)))

    for line in doc.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif fenced:
            command = re.sub(r"^\$ ", "", line.strip())
            command = re.sub(r"\s+#.*$", "", command)  # a shell comment
            if command.startswith("pnp "):
                shown.append(_words(command))
        elif line.startswith("#"):
            close()
            heading, lines, shown, spans = line.lstrip("#").strip(), [], [], []
        else:
            for span in re.findall(r"`([^`]+)`", line):
                span = span.replace("\\|", "|")
                spans.append(span)
                if span.startswith("pnp ") or span == "pnp":
                    shown.append(_words(span))
        lines.append(line)
    close()
    return sections


def _words(command: str) -> tuple[str, ...]:
    # Optional parts are shown in brackets: `pnp serve [--host 127.0.0.1]`.
    return tuple(shlex.split(command.replace("[", " ").replace("]", " ")))


SECTIONS = [section for doc in DOCS for section in _sections(doc)]


def walk(words: tuple[str, ...]) -> tuple[str, list[str], str | None]:
    """The command a shown ``pnp ...`` runs, the options it gives, and what does not exist (or
    None). An option belongs to the command it follows (``pnp --debug build``: ``pnp``'s own). A
    placeholder in capitals (``pnp --debug COMMAND``) ends the walk."""
    path, command, given = "pnp", COMMANDS["pnp"], []
    for word in words[1:]:
        if word.startswith("--"):
            option = word.split("=", 1)[0]
            if option not in options_of(command):
                return path, given, f"the docs show `{' '.join(words)}`, but `{path}` has no option {option}"
            given.append(option)
        elif isinstance(command, click.Group):
            if re.fullmatch(r"[A-Z_.]+", word):
                break
            if f"{path} {word}" not in COMMANDS:
                return path, given, f"the docs show `{' '.join(words)}`, but `{path} {word}` is no command"
            path = f"{path} {word}"
            command = COMMANDS[path]
    return path, given, None


def command_shown(words: tuple[str, ...]) -> tuple[str, list[str]]:
    path, given, wrong = walk(words)
    assert wrong is None, wrong
    return path, given


def _shown_paths(section: Section) -> set[str]:
    return {walk(words)[0] for words in section.shown}


def _mentions(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


# -- every command and option is documented ------------------------------------------------------

def test_the_cli_has_commands_to_document():
    assert {"pnp render", "pnp build", "pnp games", "pnp score check", "pnp serve"} <= set(COMMANDS)


@pytest.mark.parametrize("path", [path for path in COMMANDS if path != "pnp"])
def test_every_command_is_shown_in_the_docs(path):
    assert any(path in _shown_paths(section) for section in SECTIONS), f"no doc shows `{path}`"


@pytest.mark.parametrize("path, option", [
    (path, option) for path, command in COMMANDS.items() for option in sorted(options_of(command))
    if option != "--help"
], ids=lambda value: value)
def test_every_option_is_named_where_its_command_is_shown(path, option):
    where = [section for section in SECTIONS if path in _shown_paths(section) and _mentions(section.text, option)]
    assert where, f"{option} of `{path}` is named in no section of the docs that shows `{path}`"


@pytest.mark.parametrize("path, command", COMMANDS.items(), ids=list(COMMANDS))
def test_every_command_has_help_text(path, command):
    assert (command.help or "").strip(), f"`{path}` has no help text"


# -- everything the docs show exists ------------------------------------------------------------

@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: doc.name)
def test_every_command_the_docs_show_exists(doc):
    for section in SECTIONS:
        if section.doc == doc:
            for words in section.shown:
                command_shown(words)


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: doc.name)
def test_every_option_a_doc_names_belongs_to_a_command_it_shows(doc):
    sections = [section for section in SECTIONS if section.doc == doc]
    shown = {COMMANDS[path] for section in sections for path in _shown_paths(section)} | {COMMANDS["pnp"]}
    known = set().union(*(options_of(command) for command in shown))
    for section in sections:
        for span in section.spans:
            if span.startswith("--"):
                for option in re.findall(r"(?<![\w-])--[a-z][\w-]*", span):
                    assert option in known, f"{doc.name}, {section.heading!r}: `{span}` names {option}, " \
                                            "an option of no command this doc shows"


def test_the_checks_catch_a_stale_command_and_a_stale_option():
    with pytest.raises(AssertionError, match="no command"):
        command_shown(_words("pnp draw halali"))
    with pytest.raises(AssertionError, match="no option --colour"):
        command_shown(_words("pnp render halali --colour red"))
    with pytest.raises(AssertionError, match="no option --json"):
        command_shown(_words("pnp score sheet evening.toml --json"))
    assert command_shown(_words("pnp --debug COMMAND ...")) == ("pnp", ["--debug"])
    assert command_shown(_words('pnp score new halali --players "Ann,Ben" --force')) == \
        ("pnp score new", ["--players", "--force"])


# -- the README is for users ---------------------------------------------------------------------

def test_the_readme_is_short():
    size = len(README.read_bytes())
    assert size <= README_MAX_BYTES, f"README.md is {size} bytes, more than {README_MAX_BYTES}: move detail to docs/"


def test_the_readme_quick_start_is_what_ci_runs():
    readme = README.read_text(encoding="utf-8")
    assert f"```sh\n{INSTALL_AND_BUILD}\n```" in readme
    assert f"```sh\n{INSTALL_AND_TEST}\n```" in readme
    assert INSTALL_AND_TEST in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_readme_links_every_task_doc():
    readme = README.read_text(encoding="utf-8")
    for name in ("PRINTING", "SCORING", "SERVE", "EXPORT", "TEMPLATES", "ARCHITECTURE"):
        assert f"](docs/{name}.md)" in readme, f"README.md does not link docs/{name}.md"


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it.

    >>> slug("Could this day have happened? `--prove`")
    'could-this-day-have-happened---prove'
    """
    text = unicodedata.normalize("NFC", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _links(doc: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", doc.read_text(encoding="utf-8"), flags=re.DOTALL)
    text = re.sub(r"`[^`\n]*`", "", text)
    return re.findall(r"\]\(([^)\s]+)\)", text)


@pytest.mark.parametrize("doc", [README, *sorted((ROOT / "docs").glob("*.md")), ROOT / "bench" / "RESULTS.md"],
                         ids=lambda doc: doc.name)
def test_every_link_resolves(doc):
    for link in _links(doc):
        if re.match(r"[a-z]+:", link):
            continue  # a web address
        target, _, anchor = link.partition("#")
        path = (doc.parent / target).resolve() if target else doc
        assert path.exists(), f"{doc.name} links {link}, which does not exist"
        if anchor:
            headings = [slug(section.heading) for section in _sections(path)]
            assert anchor in headings, f"{doc.name} links {link}: {path.name} has no heading '#{anchor}'"


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: doc.name)
def test_every_path_a_doc_names_exists(doc):
    """A file or folder of the project a doc names in backticks (``pnp/layout/plan.py``, with or without
    a ``: name`` after it) is there: a doc does not send a reader to a module that moved."""
    named = re.findall(r"`((?:pnp|scoring|tests|bench|templates|examples|docs|fonts)/[^`\s:<*]*)(?::[^`]*)?`",
                       doc.read_text(encoding="utf-8"))
    missing = sorted({path for path in named if not (ROOT / path).exists()})
    assert missing == [], f"{doc.name} names {missing}, which do not exist"


@pytest.mark.parametrize("doc", [README, *sorted((ROOT / "docs").glob("*.md")), ROOT / "bench" / "RESULTS.md"],
                         ids=lambda doc: doc.name)
def test_no_doc_points_outside_the_repository(doc):
    """A clone has only the repository: no doc sends its reader to a path above it, to one that is not
    there (``../shared/...``) or to an absolute one."""
    text = doc.read_text(encoding="utf-8")
    relative = re.findall(r"(?<![\w.])((?:\.\./)+[\w./-]*)", text)
    outside = [path for path in relative if not (doc.parent / path).resolve().is_relative_to(ROOT)
               or not (doc.parent / path.split("#")[0]).exists()]
    absolute = re.findall(r"(?<![\w:/.])(/(?:work|tmp|home|root|usr|opt|mnt)/[\w./-]*)", text)
    assert outside + absolute == [], f"{doc.name} names {outside + absolute}, outside the repository"


# -- measurements live in bench/RESULTS.md ---------------------------------------------------------

@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: doc.name)
def test_no_doc_keeps_timings(doc):
    text = doc.read_text(encoding="utf-8")
    timings = re.findall(r"\b\d[\d.,]*\s?(?:ms|us|µs|s)\b(?!\w)", text)
    timings += re.findall(r"within (?:a |\w+ )?(?:seconds?|minutes?)\b|in (?:a|one|two|\d+) (?:seconds?|minutes?)\b",
                          text)
    assert not timings, f"{doc.name} states timings {timings}: they belong in bench/RESULTS.md"
