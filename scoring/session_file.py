"""Reading and writing session files (TOML, JSON or CSV, chosen by the file name's extension).

Reading turns every way a file can fail (missing, unreadable, not UTF-8, not
TOML/JSON/CSV) into a :class:`~scoring.errors.SessionFileError`; writing goes
through the project's one writer, :mod:`pnp.core.files` (a temporary file beside
the session, flushed to disk, renamed over it), keeping the previous version
as ``FILE.bak``.

No update is lost. ``pnp score add`` reads a session, asks its questions for
as long as the players take, then saves: :func:`save_session` takes the
session's lock, reads the file again and replaces it only if it is still
exactly what was read; otherwise the save is refused (another ``score add``,
or an editor, saved a round meanwhile, and the round just entered was
numbered and checked against the old file, so it cannot be appended as it is).
The lock is an OS lock (``fcntl.flock``) on a lock file beside the session,
``.NAME.lock``, which exists only while a save holds it (a writer that finds
it removed once it holds it starts again, so two writers never hold two
different files; a crash leaves the file, and the next save removes it). On a
platform without ``fcntl`` (Windows) there is no lock; the re-read still
refuses a session changed since it was read, and only two saves within the
same few milliseconds could then race.

A session reached through a symbolic link is read, locked and written at the
link's target, so the link stays a link.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None

from pnp.core.errors import KeyClash, composed
from pnp.core.files import ReadError, WriteError, read_regular, write_file
from pnp.core.limits import MAX_SESSION_BYTES, size_shown
import scoring.session_csv as session_csv
import scoring.toml_writer as toml_writer
from scoring.errors import SessionFileError
from scoring.problems import FileError
from scoring.terms import Position, Term

FORMATS = {".toml": "toml", ".json": "json", ".csv": "csv"}


#: How long a save waits for another pnp command to finish saving the same session.
LOCK_WAIT = 10.0


@dataclass(frozen=True)
class SessionFile:
    """A session file as read: where it is, its format, its text, the parsed value and
    the exact bytes read (None for a session that was not read from disk)."""

    path: Path
    format: str
    text: str
    raw: object
    data: bytes | None = None


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
    """The value a session text holds, every text in composed form (:func:`pnp.core.errors.composed`:
    a name typed "é" or "e" and an accent is one name); SessionFileError if it is not valid
    TOML/JSON/CSV."""
    document = _parsed(text, fmt)
    try:
        return composed(document, text)
    except KeyClash as clash:
        raise SessionFileError(FileError.KEY_ENCODED_TWICE, name=clash.key) from None


def _parsed(text: str, fmt: str) -> object:
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
            data = read_regular(path, MAX_SESSION_BYTES)
        except ReadError as error:
            if error.kind == "missing":
                raise SessionFileError(FileError.FILE_NOT_FOUND) from None
            if error.kind == "too_large":
                raise SessionFileError(FileError.FILE_TOO_LARGE, limit=size_shown(MAX_SESSION_BYTES)) from None
            if error.kind in ("folder", "special"):
                kind = "folder" if error.kind == "folder" else error.what
                raise SessionFileError(FileError.NOT_A_FILE, kind=Term("file_kind", kind)) from None
            raise SessionFileError(FileError.FILE_UNREADABLE, reason=error.reason) from None
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise SessionFileError(FileError.NOT_UTF8, offset=error.start) from None
        return SessionFile(path, fmt, text, parse_session_text(text, fmt), data=data)
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


def session_target(path: str | os.PathLike) -> Path:
    """The file a session path stands for: a symbolic link's target, else the path itself."""
    path = Path(path)
    return Path(os.path.realpath(path)) if path.is_symlink() else path


@contextlib.contextmanager
def session_lock(path: str | os.PathLike, wait: float | None = None) -> Iterator[Path]:
    """Hold the session's lock (waiting up to ``wait`` seconds, :data:`LOCK_WAIT` by default);
    yields the file to read and write (:func:`session_target`).

    SessionFileError ``SESSION_BUSY`` if another process holds it longer,
    ``FILE_UNWRITABLE`` if the lock file cannot be made.
    """
    target = session_target(path)
    wait = LOCK_WAIT if wait is None else wait
    if fcntl is None:  # pragma: no cover - Windows: see the module's docstring
        yield target
        return
    lock_path = target.with_name(f".{target.name}.lock")
    deadline = time.monotonic() + wait
    fd = _lock(lock_path, deadline, path, wait)
    try:
        yield target
    finally:
        # Removed while still held: a process waiting on this file finds it gone and starts again.
        with contextlib.suppress(OSError):
            os.unlink(lock_path)
        os.close(fd)  # closing the descriptor releases the lock


def _lock(lock_path: Path, deadline: float, path: object, wait: float) -> int:
    """An open descriptor holding the lock on ``lock_path``, the file that is there now."""
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    while True:
        try:
            fd = os.open(lock_path, flags, 0o600)
        except OSError as error:
            raise SessionFileError(FileError.FILE_UNWRITABLE, reason=error.strerror or type(error).__name__,
                                   path=str(path)) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            if time.monotonic() >= deadline:
                raise SessionFileError(FileError.SESSION_BUSY, seconds=f"{wait:g}", path=str(path)) from None
            time.sleep(0.05)
            continue
        try:
            if os.fstat(fd).st_ino == os.stat(lock_path, follow_symlinks=False).st_ino:
                return fd
        except OSError:
            pass
        os.close(fd)  # the holder before us removed it: lock the new one


def save_session(previous: SessionFile, text: str) -> Path | None:
    """Replace the session ``previous`` was read from with ``text``; return the backup made.

    Under the session's lock, the file is read again: if it is not exactly
    what ``previous`` holds (changed, replaced or removed since), nothing is
    written and SessionFileError ``CHANGED_SINCE_READ`` says so.
    """
    with session_lock(previous.path) as target:
        try:
            current = read_regular(target, MAX_SESSION_BYTES)
        except OSError:   # gone, grown past a session, or no longer a file: not what was read
            current = None
        if previous.data is None or current != previous.data:
            raise SessionFileError(FileError.CHANGED_SINCE_READ, path=str(previous.path))
        return write_text_atomic(target, text)


def create_session(path: str | os.PathLike, text: str, *,
                   replaceable: Callable[[object], bool] | None = None) -> Path | None:
    """Write a new session at ``path``; return the backup made of the file it replaces.

    An existing file is replaced (``--force``) only when ``replaceable`` is
    given and says yes to what the file holds: a session. ``--force`` must not
    turn a typo in ``--out`` into a lost file of another kind.
    """
    with session_lock(path) as target:
        if target.exists():
            if replaceable is None:
                raise SessionFileError(FileError.FILE_EXISTS, path=str(path))
            try:
                existing = read_session_file(target).raw
            except SessionFileError:
                existing = None
            if not replaceable(existing):
                raise SessionFileError(FileError.NOT_A_SESSION, path=str(path))
        return write_text_atomic(target, text, backup=replaceable is not None)


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
