"""Reading and writing session files (TOML, JSON or CSV, chosen by the file name's extension).

Reading turns every way a file can fail (missing, unreadable, not UTF-8, not
TOML/JSON/CSV) into a :class:`~scoring.errors.SessionFileError`; writing goes
through the project's one writer, :mod:`pnp.files` (a temporary file beside
the session, flushed to disk, renamed over it), keeping the previous version
as ``FILE.bak``.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from pnp.files import WriteError, write_file
import scoring.session_csv as session_csv
import scoring.toml_writer as toml_writer
from scoring.errors import SessionFileError
from scoring.problems import FileError
from scoring.terms import Position

FORMATS = {".toml": "toml", ".json": "json", ".csv": "csv"}


@dataclass(frozen=True)
class SessionFile:
    """A session file as read: where it is, its format, its text and the parsed value."""

    path: Path
    format: str
    text: str
    raw: object


def session_format(path: str | os.PathLike) -> str:
    """``toml`` or ``json`` from the extension; SessionFileError for anything else."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise SessionFileError(FileError.UNKNOWN_EXTENSION, found=suffix or "-", path=str(path))
    return FORMATS[suffix]


class _DuplicateKey(ValueError):
    pass


def _no_duplicate_keys(pairs: list[tuple[str, object]]) -> dict:
    table: dict = {}
    for name, item in pairs:
        if name in table:
            raise _DuplicateKey(name)
        table[name] = item
    return table


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _has_lone_surrogate(document: object) -> bool:
    # Iterative: json nests as deep as the interpreter allows, so recursion here could overflow.
    stack = [document]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if any(0xD800 <= ord(c) <= 0xDFFF for c in item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


_TOML_POSITION = re.compile(r"at line (\d+), column (\d+)")


def parse_session_text(text: str, fmt: str) -> object:
    """The value a session text holds; SessionFileError if it is not valid TOML/JSON/CSV."""
    if fmt == "csv":
        return session_csv.loads(text)
    if fmt == "toml":
        try:
            return tomllib.loads(text)
        except (ValueError, RecursionError) as error:
            found = _TOML_POSITION.search(str(error))
            if found:
                position = Position(int(found.group(1)), int(found.group(2)))
            elif "end of document" in str(error):
                lines = text.split("\n")
                position = Position(len(lines), len(lines[-1]) + 1)
            else:
                position = Position()
            raise SessionFileError(FileError.INVALID_TOML, position=position) from None
    try:
        document = json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_reject_constant)
    except _DuplicateKey as error:
        raise SessionFileError(FileError.DUPLICATE_JSON_KEY, name=str(error)) from None
    except json.JSONDecodeError as error:
        raise SessionFileError(FileError.INVALID_JSON, position=Position(error.lineno, error.colno)) from None
    except (ValueError, RecursionError):
        raise SessionFileError(FileError.INVALID_JSON, position=Position()) from None
    if _has_lone_surrogate(document):
        raise SessionFileError(FileError.INVALID_JSON, position=Position())
    return document


def read_session_file(path: str | os.PathLike) -> SessionFile:
    """Read and parse a session file; every failure is a SessionFileError naming the file."""
    path = Path(path)
    try:
        fmt = session_format(path)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise SessionFileError(FileError.FILE_NOT_FOUND) from None
        except OSError as error:
            raise SessionFileError(FileError.FILE_UNREADABLE, reason=error.strerror or type(error).__name__) from None
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise SessionFileError(FileError.NOT_UTF8, offset=error.start) from None
        return SessionFile(path, fmt, text, parse_session_text(text, fmt))
    except SessionFileError as error:
        error.path = str(path)
        raise


def dumps(raw: dict, fmt: str) -> str:
    """The text of a session in ``toml``, ``json`` or ``csv``."""
    if fmt == "json":
        return json.dumps(raw, ensure_ascii=False, indent=2) + "\n"
    if fmt == "csv":
        return session_csv.dumps(raw)
    return toml_writer.dumps(raw)


def extended_text(previous: SessionFile, addition: dict, updated: dict) -> str:
    """The new text of ``previous`` once ``addition`` is added, giving ``updated``.

    For TOML the addition is appended to the old text, which keeps the
    player's comments and layout; if the result does not read back as
    ``updated`` (say ``days = []`` was written inline) the file is rewritten.
    """
    if previous.format == "toml":
        separator = "" if previous.text.endswith("\n") or not previous.text else "\n"
        candidate = previous.text + separator + "\n" + toml_writer.dumps(addition)
        try:
            if tomllib.loads(candidate) == updated:
                return candidate
        except ValueError:
            pass
    return dumps(updated, previous.format)


def write_text_atomic(path: str | os.PathLike, text: str, *, backup: bool = True) -> Path | None:
    """Replace ``path`` with ``text`` in one step; return the backup written, if any.

    The previous version, when there is one and ``backup`` is set, is first
    saved as ``FILE.bak``; readers never see a half-written session.
    """
    try:
        return write_file(Path(path), text, backup=backup)
    except WriteError as error:
        raise SessionFileError(FileError.FILE_UNWRITABLE, reason=error.reason, path=str(path)) from None
    except OSError as error:  # the previous version could not be read for its backup
        reason = error.strerror or type(error).__name__
        raise SessionFileError(FileError.FILE_UNWRITABLE, reason=reason, path=str(path)) from None
