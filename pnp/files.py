"""The one way the project writes a file: a temporary file beside it, flushed to
disk, then renamed over it, so a reader never sees half a file.

A temporary file is created with ``O_CREAT | O_EXCL | O_NOFOLLOW`` under a fresh
random name, so nothing already in the folder (a symlink, a squatting file) is
ever opened or truncated. Several files that belong together (a PDF and its
manifest) are written as a group: every temporary file is complete and on disk
before the first rename.

No dependency beyond the standard library: the scoring package uses it too.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Mapping, Union

#: What a file is written from: its bytes, or its parts in order.
Contents = Union[bytes, list[bytes]]


class WriteError(OSError):
    """A file could not be written; ``path`` names it, ``reason`` says why."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(reason)
        self.path = Path(path)
        self.reason = reason

    def __str__(self) -> str:
        return f"cannot write {self.path}: {self.reason}"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _mode_for(path: Path) -> int:
    """Keep the permissions of the file being replaced; new files get the usual ones."""
    try:
        return os.stat(path).st_mode & 0o777
    except OSError:
        return 0o666 & ~_umask()


def _reason(error: OSError) -> str:
    return error.strerror or type(error).__name__


def temporary_beside(path: Path, mode: int | None = None) -> tuple[int, Path]:
    """Create and open a new temporary file in ``path``'s folder: (descriptor, its path).

    Also the way to check that a folder can be written: nothing existing is touched.
    """
    folder = path.parent if str(path.parent) else Path(".")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    for _ in range(16):
        # os.urandom, as the secrets module does, without importing it (and hashlib) on every run.
        candidate = folder / f".{path.name[:80]}.{os.urandom(6).hex()}.tmp"
        try:
            fd = os.open(candidate, flags, 0o600)
        except FileExistsError:
            continue
        try:
            os.chmod(candidate, _mode_for(path) if mode is None else mode)
        except OSError:
            os.close(fd)
            os.unlink(candidate)
            raise
        return fd, candidate
    raise FileExistsError(f"no free temporary name in {folder}")


def same_file(path: Path, other: Path) -> bool:
    """True if ``path`` is ``other``: the same name, or a symbolic or hard link to it.

    Either may not exist yet (an output about to be written): then their
    resolved names are compared.
    """
    try:
        return os.path.samefile(path, other)
    except OSError:
        return os.path.realpath(path) == os.path.realpath(other)


def check_writable(folder: Path) -> None:
    """Raise WriteError unless a file can be created in ``folder`` (which must exist)."""
    probe = Path(folder) / "probe"
    try:
        fd, temporary = temporary_beside(probe)
    except OSError as error:
        raise WriteError(Path(folder), _reason(error)) from None
    os.close(fd)
    os.unlink(temporary)


def _fsync_folder(folder: Path) -> None:
    # Makes the renames themselves durable; not every platform can open a folder.
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_files(files: Mapping[Path, Contents] | Iterable[tuple[Path, Contents]], *,
                backup: bool = False, modes: Mapping[Path, int] | None = None) -> dict[Path, Path]:
    """Write several files as one step; return the backups made (``FILE.bak``).

    Every temporary file is written and flushed to disk before any is renamed
    into place, so a failure while writing leaves every target as it was. The
    renames follow one another in the order given (a PDF before its manifest).
    With ``backup``, a file being replaced is first copied to ``FILE.bak``,
    with the same permissions. A file keeps the permissions of the one it
    replaces unless ``modes`` gives its own. A file's contents are bytes, or a
    list of byte strings written one after the other (a large file made in
    parts need not be joined into one copy first).
    """
    items = [(Path(p), d if isinstance(d, list) else bytes(d))
             for p, d in (files.items() if isinstance(files, Mapping) else files)]
    backups: dict[Path, Path] = {}
    with FileGroup() as group:
        for path, data in items:
            group.add(path, data, (modes or {}).get(path))
        if backup:
            for path, _ in items:
                if path.is_file():
                    copy = path.with_name(path.name + ".bak")
                    # A copy of a private file stays private.
                    write_files({copy: path.read_bytes()}, modes={copy: _mode_for(path)})
                    backups[path] = copy
        group.commit()
    return backups


def write_file(path: Path, data: bytes | str, *, backup: bool = False) -> Path | None:
    """Write one file atomically (text is written as UTF-8); return its backup, if one was made."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return write_files({Path(path): data}, backup=backup).get(Path(path))


class FileGroup:
    """Files that belong together, staged one by one as they are made, renamed together.

    ``add`` writes a temporary file beside its target and flushes it to disk at
    once, so a long export writes while it is still drawing; nothing is renamed
    into place before ``commit``. Used as a context manager, a group that is left
    by an exception removes its temporary files and leaves every target as it was.
    """

    def __init__(self) -> None:
        self._staged: list[tuple[Path, Path]] = []

    def add(self, path: Path, data: Contents, mode: int | None = None) -> None:
        """Write ``data`` (bytes, or a list of byte strings in order) to a temporary
        file beside ``path``, on disk before this returns.

        The file will have ``mode``, else the permissions of the file it replaces."""
        path = Path(path)
        if path.is_dir():
            raise WriteError(path, "a folder has that name")
        try:
            fd, temporary = temporary_beside(path, mode)
        except OSError as error:
            raise WriteError(path, _reason(error)) from None
        self._staged.append((temporary, path))
        try:
            with os.fdopen(fd, "wb") as stream:
                if isinstance(data, list):
                    stream.writelines(data)
                else:
                    stream.write(data)
                stream.flush()
                os.fsync(stream.fileno())
        except OSError as error:
            raise WriteError(path, _reason(error)) from None

    def commit(self) -> None:
        """Rename every staged file into place, in the order added."""
        staged, self._staged = self._staged, []
        folders = {path.parent for _, path in staged}
        try:
            while staged:
                temporary, path = staged[0]
                try:
                    os.replace(temporary, path)
                except OSError as error:
                    raise WriteError(path, _reason(error)) from None
                staged.pop(0)
        finally:
            self._staged = staged
        for folder in folders:
            _fsync_folder(folder if str(folder) else Path("."))

    def discard(self) -> None:
        for temporary, _ in self._staged:
            try:
                os.unlink(temporary)
            except OSError:
                pass
        self._staged = []

    def __enter__(self) -> "FileGroup":
        return self

    def __exit__(self, kind, error, trace) -> None:
        self.discard()
