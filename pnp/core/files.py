"""The one way the project writes a file: a temporary file beside it, flushed to
disk, then renamed over it, so a reader never sees half a file; and the one way
it reads a file a user names: a regular file only, its size checked first.

A temporary file is created with ``O_CREAT | O_EXCL | O_NOFOLLOW`` under a fresh
random name, so nothing already in the folder (a symlink, a squatting file) is
ever opened or truncated. Several files that belong together (a PDF and its
manifest) are written as a group: every temporary file is complete and on disk
before the first rename. A folder that belongs together (an export) is written
whole beside the one it replaces and swapped in (:class:`FolderReplacement`).

Ctrl-C, SIGTERM and SIGHUP are held (:func:`pnp.core.signals.held`) while a
temporary file is created and noted, and while a group is renamed into place,
so a stopped command leaves no temporary file and no half-renamed group.

An error's reason names the operating system's limit when a name or a path is
too long for it (``NAME_MAX``, ``PATH_MAX``) or goes through too many symbolic
links (``ELOOP``).

No dependency beyond the standard library: the scoring package uses it too.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
from pathlib import Path
from typing import Iterable, Iterator, Mapping, Union

from pnp.core.records import NamedTuple
from pnp.core.signals import held

#: What a file is written from: its bytes, or its parts in order (a list, or parts made
#: as they are written: a large manifest is never held whole).
Contents = Union[bytes, Iterable[bytes]]


class WriteError(OSError):
    """A file could not be written; ``path`` names it, ``reason`` says why."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(reason)
        self.path = Path(path)
        self.reason = reason

    def __str__(self) -> str:
        return f"cannot write {shown_path(self.path)}: {self.reason}"


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


class ReadError(OSError):
    """A file could not be read; ``path`` names it, ``reason`` says why, ``kind`` is
    ``missing``, ``folder``, ``special`` (a pipe, a device, a socket), ``too_large`` or ``os``."""

    def __init__(self, path: Path, reason: str, kind: str = "os", what: str = "") -> None:
        super().__init__(reason)
        self.path = Path(path)
        self.reason = reason
        self.kind = kind
        self.what = what    # for ``special``: "fifo", "device" or "socket"

    def __str__(self) -> str:
        return f"cannot read {shown_path(self.path)}: {self.reason}"


def shown_path(path: Path | str, limit: int = 120) -> str:
    """A path as an error line shows it: whole, or its start and end when very long.

    >>> shown_path("out/" + "a" * 300, 40)
    'out/aaaaaaaaaaaaaaaa…aaaaaaaaaaaaaa (304 characters)'
    """
    text = str(path)
    if len(text) <= limit:
        return text
    return f"{text[:limit // 2]}…{text[-limit // 3:]} ({len(text)} characters)"


def _limit(folder: Path, name: str, fallback: int) -> int:
    """The operating system's ``PC_NAME_MAX`` or ``PC_PATH_MAX`` for ``folder`` (the nearest existing one)."""
    folder = Path(os.path.abspath(folder))
    for candidate in (folder, *folder.parents):
        try:
            return os.pathconf(candidate, name)
        except (OSError, ValueError, AttributeError):
            continue
    return fallback


def name_limits(path: Path | str) -> str | None:
    """Why ``path`` is too long for this system, naming the limit; None when it is not.

    Each name in a path (a file or a folder) has at most ``NAME_MAX`` bytes (255 on
    most systems) and the whole path at most ``PATH_MAX`` (4,096 on Linux).
    """
    text = os.fspath(path)
    encoded = os.fsencode(text)
    folder = Path(text).parent
    name_max = _limit(folder, "PC_NAME_MAX", 255)
    longest = max(Path(text).parts or ("",), key=lambda part: len(os.fsencode(part)))
    if len(os.fsencode(longest)) > name_max:
        return (f"the name {shown_path(longest, 40)!r} is {len(os.fsencode(longest))} bytes long; this system "
                f"allows at most {name_max} bytes in one file or folder name (NAME_MAX)")
    path_max = _limit(folder, "PC_PATH_MAX", 4096)
    if len(encoded) >= path_max:
        return (f"the path is {len(encoded)} bytes long; this system allows at most {path_max - 1} "
                f"bytes in a path (PATH_MAX)")
    return None


def os_reason(error: OSError, path: Path | str | None = None) -> str:
    """Why an operation on ``path`` failed, in words; the limit by name when one was passed."""
    if error.errno == errno.ENAMETOOLONG:
        found = name_limits(path if path is not None else error.filename or "")
        return found or ("a name or the path is longer than this system allows (NAME_MAX, PATH_MAX)")
    if error.errno == errno.ELOOP:
        return ("it goes through more symbolic links in a row than this system follows (ELOOP), "
                "or a link that leads back to itself")
    return error.strerror or type(error).__name__


def _reason(error: OSError, path: Path | str | None = None) -> str:
    return os_reason(error, path)


#: What a special file is called in error lines.
_SPECIAL = {stat.S_IFIFO: ("fifo", "a named pipe (FIFO)"), stat.S_IFCHR: ("device", "a device"),
            stat.S_IFBLK: ("device", "a device"), stat.S_IFSOCK: ("socket", "a socket")}


def _not_regular(path: Path, mode: int) -> ReadError:
    if stat.S_ISDIR(mode):
        return ReadError(path, "it is a folder, not a file", "folder")
    what, shown = _SPECIAL.get(stat.S_IFMT(mode), ("device", "a special file"))
    return ReadError(path, f"it is {shown}, not a regular file", "special", what)


class FileState(NamedTuple):
    """What a file was when read: a file changed since differs in one of these."""

    mtime_ns: int
    size: int
    inode: int

    @classmethod
    def of(cls, info: os.stat_result) -> FileState:
        return cls(info.st_mtime_ns, info.st_size, info.st_ino)


#: The lists :func:`recording` fills, innermost last; empty when nothing records.
_recordings: list[list[tuple[str, FileState | None]]] = []


@contextlib.contextmanager
def recording() -> Iterator[list[tuple[str, FileState | None]]]:
    """Every file :func:`read_regular` is asked for within the block, in order, with what it
    was when read: ``(path, FileState)``, or ``(path, None)`` for a file that was missing.
    ``pnp watch`` watches what a render read, whatever kind of file it was."""
    read: list[tuple[str, FileState | None]] = []
    _recordings.append(read)
    try:
        yield read
    finally:
        _recordings.remove(read)


def _record(path: Path, info: os.stat_result | None) -> None:
    for read in _recordings:
        read.append((os.path.abspath(path), info and FileState.of(info)))


def read_regular(path: Path | str, limit: int, *, noted: bool = True) -> bytes:
    """The bytes of ``path``, which must be a regular file of at most ``limit`` bytes.
    ``noted``: :func:`recording` notes the read (not for a copy kept to save work, which no
    change of the user's is in).

    A named pipe would block the reader until something writes into it, and a
    device such as /dev/zero never ends: each is refused at once (ReadError,
    ``kind`` ``special``), as is a folder. The size is checked before anything is
    read, and again while reading (a file may grow meanwhile). A symbolic link is
    followed to what it names, which must be a regular file too.
    """
    path = Path(path)
    flags = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
             | getattr(os, "O_BINARY", 0))
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        if _recordings and noted:
            _record(path, None)
        raise ReadError(path, "no such file", "missing") from None
    except OSError as error:
        try:  # a socket cannot be opened at all: say what it is
            mode = os.stat(path).st_mode
        except OSError:
            mode = stat.S_IFREG
        if not stat.S_ISREG(mode):
            raise _not_regular(path, mode) from None
        if isinstance(error, IsADirectoryError):
            raise ReadError(path, "it is a folder, not a file", "folder") from None
        raise ReadError(path, _reason(error, path)) from None
    try:
        info = os.fstat(fd)
        if _recordings and noted:
            _record(path, info)
        if not stat.S_ISREG(info.st_mode):
            raise _not_regular(path, info.st_mode)
        if info.st_size > limit:
            raise ReadError(path, f"{info.st_size} bytes, over the limit of {limit}", "too_large")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(limit + 1 - size, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise ReadError(path, f"more than {limit} bytes, the limit", "too_large")
        return b"".join(chunks)
    except ReadError:
        raise
    except OSError as error:
        raise ReadError(path, _reason(error, path)) from None
    finally:
        os.close(fd)


class OutsideFolder(ValueError):
    """A file named beside a template that is not in its folder: ``leads_out`` when the name
    is fine but a symbolic link takes it out of the folder."""

    def __init__(self, name: str, leads_out: bool = False) -> None:
        super().__init__(name)
        self.name, self.leads_out = name, leads_out


def within(folder: Path, name: str) -> Path:
    """The file ``name`` in ``folder`` or in a folder under it, as a resolved path; OutsideFolder
    for an absolute path, a ``..``, a drive or stream (``:``), a NUL, an empty name, or a
    symbolic link that leads out of the folder. What a template names beside itself (a data
    file, a picture, a font) is found here.

    >>> within(Path("/tmp"), "../etc/passwd")
    Traceback (most recent call last):
    ...
    pnp.core.files.OutsideFolder: ../etc/passwd
    """
    from pathlib import PurePosixPath

    pure = PurePosixPath(name.replace("\\", "/"))
    if not name or pure.is_absolute() or ".." in pure.parts or ":" in name or "\0" in name:
        raise OutsideFolder(name)
    root = Path(folder).resolve()
    path = (root / pure).resolve()
    if path != root and root not in path.parents:
        raise OutsideFolder(name, leads_out=True)
    return path


def temporary_beside(path: Path, mode: int | None = None) -> tuple[int, Path]:
    """Create and open a new temporary file in ``path``'s folder: (descriptor, its path).

    Also the way to check that a folder can be written: nothing existing is touched.
    A caller that must not lose the file to a signal calls it under :func:`pnp.core.signals.held`.
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
    with held():
        try:
            fd, temporary = temporary_beside(probe)
        except OSError as error:
            raise WriteError(Path(folder), _reason(error, probe)) from None
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
    replaces unless ``modes`` gives its own. A file's contents are bytes, or
    byte strings written one after the other, a list or made as they are
    written (a large file made in parts need not be joined into one copy first).
    """
    items = [(Path(p), bytes(d) if isinstance(d, (bytes, bytearray, memoryview)) else d)
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


def _write_synced(fd: int, data: Contents) -> None:
    """Write ``data`` (bytes, or byte strings in order) to the open file ``fd``, close it, and
    return once it is on disk."""
    with os.fdopen(fd, "wb") as stream:
        if isinstance(data, (bytes, bytearray, memoryview)):
            stream.write(data)
        else:
            stream.writelines(data)
        stream.flush()
        os.fsync(stream.fileno())


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
        """Write ``data`` (bytes, or byte strings in order) to a temporary
        file beside ``path``, on disk before this returns.

        The file will have ``mode``, else the permissions of the file it replaces."""
        path = Path(path)
        try:
            if path.is_dir():
                raise WriteError(path, "a folder has that name")
        except OSError as error:
            if isinstance(error, WriteError):
                raise
            raise WriteError(path, _reason(error, path)) from None
        problem = name_limits(path)
        if problem:
            raise WriteError(path, problem)
        with held():  # created and noted together, so that discard() finds it
            try:
                fd, temporary = temporary_beside(path, mode)
            except OSError as error:
                raise WriteError(path, _reason(error, path)) from None
            self._staged.append((temporary, path))
        try:
            _write_synced(fd, data)
        except OSError as error:
            raise WriteError(path, _reason(error, path)) from None

    def commit(self) -> None:
        """Rename every staged file into place, in the order added (none stopped halfway by a signal)."""
        staged, self._staged = self._staged, []
        folders = {path.parent for _, path in staged}
        with held():
            try:
                while staged:
                    temporary, path = staged[0]
                    try:
                        os.replace(temporary, path)
                    except OSError as error:
                        raise WriteError(path, _reason(error, path)) from None
                    staged.pop(0)
            finally:
                self._staged = staged
        for folder in folders:
            _fsync_folder(folder if str(folder) else Path("."))

    def discard(self) -> None:
        while self._staged:
            temporary, _ = self._staged[-1]
            try:
                os.unlink(temporary)
            except OSError:
                pass
            self._staged.pop()

    def __enter__(self) -> "FileGroup":
        return self

    def __exit__(self, kind, error, trace) -> None:
        self.discard()


class FolderReplacement:
    """A folder written whole beside its place, then swapped in for the one there.

    Files are written into a new hidden folder beside ``target`` (``.NAME.XXXX.tmp``),
    each on disk as it is added; :meth:`commit` puts that folder in ``target``'s place
    and removes the folder it replaces, so ``target`` holds exactly the files added:
    none left over from an earlier run. Left by an exception (a signal included),
    the new folder is removed and ``target`` is as it was. A ``target`` that is a
    symbolic link to a folder is replaced at the link's target; the link stays.

    ``replaceable(folder)`` says whether an existing folder may go; it returns a
    reason to keep it (say, a file of the user's inside), which becomes the WriteError.
    """

    def __init__(self, target: Path, replaceable=None) -> None:
        target = Path(target)
        if target.is_symlink() and target.is_dir():
            target = Path(os.path.realpath(target))
        self.target = target
        self._replaceable = replaceable
        self._staging: Path | None = None
        self._old: Path | None = None
        self._made: set[Path] = set()

    def check(self) -> None:
        """WriteError now if the target could not be replaced at the end: too long a name,
        a file in its place, or a folder ``replaceable`` keeps."""
        problem = name_limits(self.target)
        if problem:
            raise WriteError(self.target, problem)
        try:
            if os.path.lexists(self.target):
                if not self.target.is_dir() or self.target.is_symlink():
                    raise WriteError(self.target, "a file has that name, not a folder")
                reason = self._replaceable(self.target) if self._replaceable else None
                if reason:
                    raise WriteError(self.target, reason)
        except WriteError:
            raise
        except OSError as error:
            raise WriteError(self.target, _reason(error, self.target)) from None

    def _folder(self) -> Path:
        if self._staging is None:
            problem = name_limits(self.target)
            if problem:
                raise WriteError(self.target, problem)
            self.target.parent.mkdir(parents=True, exist_ok=True)
            with held():  # made and noted together, so that discard() finds it
                for _ in range(16):
                    candidate = self.target.with_name(f".{self.target.name[:80]}.{os.urandom(6).hex()}.tmp")
                    try:
                        os.mkdir(candidate, 0o777)
                    except FileExistsError:
                        continue
                    except OSError as error:
                        raise WriteError(self.target, _reason(error, candidate)) from None
                    self._staging = candidate
                    break
                else:
                    raise WriteError(self.target, "no free temporary name beside it")
        return self._staging

    def add(self, relative: str, data: Contents) -> Path:
        """Write ``data`` at ``relative`` (``a/b.png``) in the new folder, on disk before this
        returns; the path it will have once committed."""
        try:
            staging = self._folder()
        except OSError as error:
            if isinstance(error, WriteError):
                raise
            raise WriteError(self.target, _reason(error, self.target)) from None
        final = self.target / relative
        problem = name_limits(final)
        if problem:
            raise WriteError(final, problem)
        path = staging / relative
        try:
            if path.parent not in self._made:
                path.parent.mkdir(parents=True, exist_ok=True)
                self._made.add(path.parent)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                         | getattr(os, "O_BINARY", 0), 0o666 & ~_umask())
            _write_synced(fd, data)
        except FileExistsError:
            raise WriteError(final, "written twice in one export") from None
        except OSError as error:
            raise WriteError(final, _reason(error, final)) from None
        return final

    def commit(self) -> None:
        """Put the new folder in the target's place; the folder it replaces is removed."""
        staging = self._folder()
        for folder in sorted(self._made | {staging}, key=lambda p: -len(p.parts)):
            _fsync_folder(folder)
        old = None
        self.check()
        with held():
            try:
                if os.path.lexists(self.target):
                    old = self.target.with_name(f".{self.target.name[:80]}.{os.urandom(6).hex()}.old")
                    os.rename(self.target, old)
                    try:
                        os.rename(staging, self.target)
                    except OSError:
                        os.rename(old, self.target)
                        old = None
                        raise
                else:
                    os.rename(staging, self.target)
            except OSError as error:
                if isinstance(error, WriteError):
                    raise
                raise WriteError(self.target, _reason(error, self.target)) from None
            self._staging = None
            self._old = old
        _fsync_folder(self.target.parent)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
        self._old = None

    def discard(self) -> None:
        """Remove the new folder (nothing was swapped in), or what is left of the old one."""
        for leftover in (self._staging, self._old):
            if leftover is not None:
                shutil.rmtree(leftover, ignore_errors=True)
        self._staging = self._old = None

    def __enter__(self) -> "FolderReplacement":
        return self

    def __exit__(self, kind, error, trace) -> None:
        self.discard()
