"""What a preview watches: the files a render read, and the folders they lie in.

A render records every file it asked for (:func:`pnp.core.files.recording`),
with what the file was when it was read: its modification time, size and
inode, or None for a file that was missing. A file has changed when it no
longer is what was read: edited, replaced by an editor's save-by-rename,
deleted, or created where a render looked for it in vain. The folders of those
files are watched too, by the names they hold, so that a file nothing asked
for yet (an icon added to ``icons/``) starts a render; names an editor keeps
for itself (``.name.swp``, ``#name#``, ``name~``) are left out.

Polling: a few ``stat`` calls every tenth of a second, in the standard library,
on every system.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

from pnp.core.files import FileState
from pnp.core.records import NamedTuple

#: What a file was when read, or None when it was missing.
Signature = FileState | None


def signature(path: Path | str) -> Signature:
    """What a file is now, as :func:`pnp.core.files.read_regular` records it.

    >>> signature("/no/such/file") is None
    True
    """
    try:
        info = os.stat(path)
    except OSError:
        return None
    return FileState.of(info)


def _editors_own(name: str) -> bool:
    """Names editors write beside a file while it is edited: swap, lock, backup and temporary files."""
    return name.startswith((".", "#", "~")) or name.endswith(("~", ".tmp", ".swp", ".swx")) or "___jb_" in name


def listing(folder: Path | str) -> frozenset[str] | None:
    """The names a folder holds, editors' own left out; None when it is no folder."""
    try:
        with os.scandir(folder) as entries:
            return frozenset(entry.name for entry in entries if not _editors_own(entry.name))
    except OSError:
        return None


class Watched(NamedTuple):
    """The files a render read (with what each was) and the folders around them (with their names)."""

    files: dict[str, Signature]
    folders: dict[str, frozenset[str] | None]

    @classmethod
    def of(cls, read: Iterable[tuple[str, Signature]], folders: Iterable[str] = ()) -> "Watched":
        """What to watch after a render that read ``read``; the folders of those files and
        ``folders`` (a kit's icon folders) are listed now."""
        files = dict(read)
        around = {str(Path(path).parent) for path in files} | set(folders)
        return cls(files, {folder: listing(folder) for folder in sorted(around)})

    def changed(self) -> list[str]:
        """What is no longer as it was read: files, and folders whose names changed."""
        found = [path for path, was in self.files.items() if signature(path) != was]
        found += [folder for folder, names in self.folders.items() if listing(folder) != names]
        return found
