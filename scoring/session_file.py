"""Reading and writing session files (TOML or JSON, chosen by the file name's extension).

Reading turns every way a file can fail (missing, unreadable, not UTF-8, not
TOML/JSON) into a :class:`~scoring.errors.SessionFileError`; writing is
atomic (a temporary file in the same folder, then ``os.replace``) and keeps
the previous version as ``FILE.bak``.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

from scoring import toml_writer
from scoring.errors import Position, SessionFileError

FORMATS = {".toml": "toml", ".json": "json"}


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
        raise SessionFileError("unknown_extension", found=suffix or "-", path=str(path))
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
    """The value a session text holds; SessionFileError if it is not valid TOML/JSON."""
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
            raise SessionFileError("invalid_toml", position=position) from None
    try:
        document = json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_reject_constant)
    except _DuplicateKey as error:
        raise SessionFileError("duplicate_json_key", name=str(error)) from None
    except json.JSONDecodeError as error:
        raise SessionFileError("invalid_json", position=Position(error.lineno, error.colno)) from None
    except (ValueError, RecursionError):
        raise SessionFileError("invalid_json", position=Position()) from None
    if _has_lone_surrogate(document):
        raise SessionFileError("invalid_json", position=Position())
    return document


def read_session_file(path: str | os.PathLike) -> SessionFile:
    """Read and parse a session file; every failure is a SessionFileError naming the file."""
    path = Path(path)
    try:
        fmt = session_format(path)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise SessionFileError("file_not_found") from None
        except OSError as error:
            raise SessionFileError("file_unreadable", reason=error.strerror or type(error).__name__) from None
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise SessionFileError("not_utf8", offset=error.start) from None
        return SessionFile(path, fmt, text, parse_session_text(text, fmt))
    except SessionFileError as error:
        error.path = str(path)
        raise


def dumps(raw: dict, fmt: str) -> str:
    """The text of a session in ``toml`` or ``json``."""
    if fmt == "json":
        return json.dumps(raw, ensure_ascii=False, indent=2) + "\n"
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


def _mode_for(path: Path) -> int:
    try:
        return os.stat(path).st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_text_atomic(path: str | os.PathLike, text: str, *, backup: bool = True) -> Path | None:
    """Replace ``path`` with ``text`` in one step; return the backup written, if any.

    The previous version, when there is one and ``backup`` is set, is first
    saved as ``FILE.bak``; readers never see a half-written session.
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    mode = _mode_for(path)
    backup_path = None
    temporary = None
    try:
        if backup and path.exists():
            backup_path = path.with_name(path.name + ".bak")
            _replace_with(backup_path, path.read_bytes(), folder, mode)
        temporary = _temporary_with(text.encode("utf-8"), folder, path.name, mode)
        os.replace(temporary, path)
        temporary = None
    except OSError as error:
        raise SessionFileError("file_unwritable", reason=error.strerror or type(error).__name__, path=str(path)) from None
    finally:
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass
    return backup_path


def _temporary_with(data: bytes, folder: Path, name: str, mode: int) -> str:
    handle, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, mode)
    except OSError:
        os.unlink(temporary)
        raise
    return temporary


def _replace_with(target: Path, data: bytes, folder: Path, mode: int) -> None:
    temporary = _temporary_with(data, folder, target.name, mode)
    try:
        os.replace(temporary, target)
    except OSError:
        os.unlink(temporary)
        raise
