"""The SQLite file a table's or a club's sessions live in: schema, migrations, transactions.

The file is the only source of truth (as in Datasette): the server keeps no
session in memory between requests, so a server killed at any moment and
started again on the same folder has every committed entry.  Each write is one
``BEGIN IMMEDIATE`` transaction; the journal is a write-ahead log (readers never
wait for the writer).  ``synchronous=FULL``: a commit returns only once the log
holds it on the disk (SQLite syncs the log at every commit; with
``fullfsync``, macOS flushes the drive's own cache too), so an entry answered
as saved survives a power cut, which is how a laptop at a games table dies.
bench/serve_load.py measures what that costs (bench/RESULTS.md).

The schema is created and brought up to date when the database is opened: the
``schema_version`` table holds how many of :data:`MIGRATIONS` have run.
"""

from __future__ import annotations

import datetime
import os
import secrets
import sqlite3
import stat
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Mapping

from pnp.core.errors import PnpError
from pnp.core.files import os_reason
from pnp.core.i18n import common_catalog

DATABASE_NAME = "pnp.sqlite3"
#: Written in the file's header so that another program's SQLite file is never taken for ours.
APPLICATION_ID = 0x706E7031  # "pnp1"

#: Each entry upgrades the schema by one version; never edit one that has shipped, add another.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        # Values the server keeps between runs (the secret its CSRF and read keys are made from).
        """CREATE TABLE settings (
            name TEXT PRIMARY KEY,
            value TEXT NOT NULL
        )""",
        # One row per session: `document` is the session file itself, as JSON (what
        # `pnp score check` reads); `result` is its scored result (check --json), kept so
        # the history does not score every session again.
        """CREATE TABLE sessions (
            id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            document TEXT NOT NULL CHECK (json_valid(document)),
            result TEXT NOT NULL CHECK (json_valid(result)),
            complete INTEGER NOT NULL CHECK (complete IN (0, 1)),
            token_hash TEXT,
            origin TEXT NOT NULL CHECK (origin IN ('table', 'import')),
            source TEXT,
            fingerprint TEXT NOT NULL,
            played_on TEXT,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            completed_at TEXT
        )""",
        "CREATE INDEX sessions_by_date ON sessions (played_on, created_at)",
        # A session file is imported once, however often `pnp score import` is run on it.
        "CREATE UNIQUE INDEX sessions_imported_once ON sessions (fingerprint) WHERE origin = 'import'",
        # What players have sent of a day that is not complete yet: one row per player
        # (the key of their part in the day), so parts sent at once from several phones
        # are all kept.  The day moves into the document when it is complete and passes.
        """CREATE TABLE parts (
            session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            number INTEGER NOT NULL CHECK (number >= 1),
            key TEXT NOT NULL,
            body TEXT NOT NULL CHECK (json_valid(body)),
            updated_at TEXT NOT NULL,
            PRIMARY KEY (session_id, number, key)
        )""",
    ),
    (
        # The phone that speaks for each player: the one that sent their part first. Only
        # it (or the organiser) changes that player's parts afterwards.
        """CREATE TABLE claims (
            session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            player TEXT NOT NULL,
            device_hash TEXT NOT NULL,
            claimed_at TEXT NOT NULL,
            PRIMARY KEY (session_id, player)
        )""",
        # Every change of a session: who made it (the organiser, a script, a phone and the
        # players it speaks for), when, which day, each part before and after (by player,
        # the round's own answers under ""), and what undoing it puts back (`restore`: the
        # document if the change altered it, and every waiting row as it was).
        """CREATE TABLE changes (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            at TEXT NOT NULL,
            actor TEXT NOT NULL CHECK (actor IN ('organiser', 'api', 'phone')),
            actor_names TEXT NOT NULL CHECK (json_valid(actor_names)),
            device_hash TEXT,
            number INTEGER NOT NULL CHECK (number >= 1),
            action TEXT NOT NULL CHECK (action IN ('enter', 'correct', 'replace', 'undo')),
            before TEXT NOT NULL CHECK (json_valid(before)),
            after TEXT NOT NULL CHECK (json_valid(after)),
            outcome TEXT NOT NULL CHECK (outcome IN ('waiting', 'committed', 'staged', 'applied', 'undone')),
            restore TEXT NOT NULL CHECK (json_valid(restore)),
            undoes INTEGER REFERENCES changes (id),
            undone_by INTEGER REFERENCES changes (id)
        )""",
        "CREATE INDEX changes_by_session ON changes (session_id, id)",
    ),
    (
        # A player's seat is taken by one phone, which alone (with the organiser) writes that
        # player's parts: a claim becomes a seat, the phone's device key the seat's key.
        "ALTER TABLE claims RENAME TO seats",
        "ALTER TABLE seats RENAME COLUMN device_hash TO holder_hash",
        "ALTER TABLE seats RENAME COLUMN claimed_at TO taken_at",
        # A link the organiser made to move a seat to another phone: whoever opens it takes
        # the seat, once.
        """CREATE TABLE handovers (
            session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            player TEXT NOT NULL,
            token_hash TEXT NOT NULL,
            made_at TEXT NOT NULL,
            PRIMARY KEY (session_id, player)
        )""",
        # The versions (state hashes) the session was in before and after each change: a write
        # that names an earlier version is refused only if what it changes was changed since.
        "ALTER TABLE changes ADD COLUMN state_before TEXT",
        "ALTER TABLE changes ADD COLUMN state_after TEXT",
    ),
    (
        # The club: people across sessions and the figures of every finished session, kept up to
        # date in the transaction that writes a session (pnp/web/club.py says how).
        # A person; one merged into another keeps its row, so that its address leads to the other.
        """CREATE TABLE people (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL,
            merged_into INTEGER REFERENCES people (id),
            created_at TEXT NOT NULL
        )""",
        # Every spelling a session wrote a person with, by what a reader sees of it (name_key).
        """CREATE TABLE aliases (
            key TEXT PRIMARY KEY,
            spelling TEXT NOT NULL,
            person_id INTEGER NOT NULL REFERENCES people (id)
        )""",
        "CREATE INDEX aliases_by_person ON aliases (person_id)",
        # A finished session as the figures count it, and each of its seats (a play).
        """CREATE TABLE club_sessions (
            session_id TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
            game TEXT NOT NULL,
            played_on TEXT NOT NULL,
            sequence INTEGER NOT NULL,
            players INTEGER NOT NULL,
            tie_break TEXT NOT NULL,
            side_kind TEXT,
            margin INTEGER
        )""",
        "CREATE INDEX club_sessions_by_game ON club_sessions (game, played_on, sequence)",
        "CREATE INDEX club_sessions_by_margin ON club_sessions (game, margin)",
        """CREATE TABLE plays (
            session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            person_id INTEGER NOT NULL REFERENCES people (id),
            game TEXT NOT NULL,
            played_on TEXT NOT NULL,
            sequence INTEGER NOT NULL,
            players INTEGER NOT NULL,
            total INTEGER,
            won INTEGER NOT NULL,
            rank INTEGER NOT NULL,
            best_round INTEGER,
            best_round_number INTEGER,
            side TEXT,
            PRIMARY KEY (session_id, seat)
        )""",
        "CREATE INDEX plays_by_person ON plays (person_id, played_on, sequence)",
        "CREATE INDEX plays_by_person_game ON plays (person_id, game, played_on, sequence)",
        "CREATE INDEX plays_by_person_total ON plays (person_id, game, total)",
        "CREATE INDEX plays_by_person_round ON plays (person_id, game, best_round)",
        "CREATE INDEX plays_by_game_total ON plays (game, total)",
        "CREATE INDEX plays_by_game_round ON plays (game, best_round)",
        # The figures: sums and counts, each changed by what a session adds or takes back.
        """CREATE TABLE person_games (
            person_id INTEGER NOT NULL REFERENCES people (id),
            game TEXT NOT NULL,
            plays INTEGER NOT NULL,
            wins INTEGER NOT NULL,
            scored INTEGER NOT NULL,
            total_sum INTEGER NOT NULL,
            PRIMARY KEY (person_id, game)
        ) WITHOUT ROWID""",
        "CREATE INDEX person_games_by_game ON person_games (game, wins, plays)",
        """CREATE TABLE rivals (
            person_id INTEGER NOT NULL REFERENCES people (id),
            rival_id INTEGER NOT NULL REFERENCES people (id),
            game TEXT NOT NULL,
            together INTEGER NOT NULL,
            ahead INTEGER NOT NULL,
            behind INTEGER NOT NULL,
            PRIMARY KEY (person_id, rival_id, game)
        ) WITHOUT ROWID""",
        """CREATE TABLE game_figures (
            game TEXT PRIMARY KEY,
            sessions INTEGER NOT NULL,
            plays INTEGER NOT NULL,
            scored INTEGER NOT NULL,
            total_sum INTEGER NOT NULL,
            winners_scored INTEGER NOT NULL,
            winning_sum INTEGER NOT NULL
        ) WITHOUT ROWID""",
        """CREATE TABLE game_decisions (
            game TEXT NOT NULL,
            tie_break TEXT NOT NULL,
            sessions INTEGER NOT NULL,
            PRIMARY KEY (game, tie_break)
        ) WITHOUT ROWID""",
        """CREATE TABLE game_sides (
            game TEXT NOT NULL,
            kind TEXT NOT NULL,
            side TEXT NOT NULL,
            players INTEGER NOT NULL,
            plays INTEGER NOT NULL,
            wins INTEGER NOT NULL,
            PRIMARY KEY (game, kind, side, players)
        ) WITHOUT ROWID""",
        # The history's list of sessions, most recently played first, read a page at a time.
        "CREATE INDEX sessions_listed ON sessions (coalesce(played_on, substr(created_at, 1, 10)) DESC, "
        "created_at DESC)",
        # The club's own id: the BG Stats file's ids are made from it, the same at every export.
        "name_the_club",
        # An existing history is counted once, by the code that counts each session as it is written.
        "count_the_club",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)


def _count_the_club(connection) -> None:
    # The figures of a database made before they were kept: counted once, by the same code that
    # counts each session as it is written (which imports nothing of this module).
    from pnp.web.club import recount

    recount(connection, datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"))


def _name_the_club(connection) -> None:
    # 16 random bytes, as hex, made by Python's secrets (which tests/web_transcript.py draws from
    # a seeded generator, so that two runs' BG Stats files can be compared), not SQLite's.
    connection.execute("INSERT OR IGNORE INTO settings (name, value) VALUES ('club', ?)", (secrets.token_hex(16),))


#: The steps of :data:`MIGRATIONS` that are not SQL: what fills new tables from what is stored.
DATA_STEPS = {"count_the_club": _count_the_club, "name_the_club": _name_the_club}


class DatabaseError(PnpError):
    """The database cannot be opened, read, written or migrated; the message says which file and why."""


def _say(key: str, **values: object) -> str:
    return common_catalog("en").get(f"cli.database.{key}", **values)


def default_data_dir(platform: str = sys.platform, environ: Mapping[str, str] = os.environ,
                     home: Path | None = None) -> Path:
    """Where ``pnp serve`` keeps its database unless told otherwise, by platform convention.

    >>> default_data_dir("linux", {"XDG_DATA_HOME": "/data"}, Path("/home/ann")).as_posix()
    '/data/pnp'
    >>> default_data_dir("linux", {"XDG_DATA_HOME": "relative"}, Path("/home/ann")).as_posix()
    '/home/ann/.local/share/pnp'
    >>> default_data_dir("darwin", {}, Path("/Users/ann")).as_posix()
    '/Users/ann/Library/Application Support/pnp'
    """
    home = Path.home() if home is None else home
    if platform.startswith("win"):
        appdata = environ.get("APPDATA")
        return (Path(appdata) if appdata else home / "AppData" / "Roaming") / "pnp"
    if platform == "darwin":
        return home / "Library" / "Application Support" / "pnp"
    xdg = environ.get("XDG_DATA_HOME", "")
    # The XDG spec says a relative path there is invalid and must be ignored.
    base = Path(xdg) if xdg and os.path.isabs(xdg) else home / ".local" / "share"
    return base / "pnp"


class Database:
    """The database of one data folder, shared by every thread of the server.

    Each thread gets its own connection.  Writers of this process queue on a
    lock before ``BEGIN IMMEDIATE`` (which is what keeps other processes, such
    as ``pnp score import``, out while a write runs): a lock wakes the next
    writer at once, where SQLite's busy handler would sleep and poll.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._guard = threading.Lock()
        self._writer = threading.Lock()
        self.refuse_foreign()
        self.migrate()

    def refuse_foreign(self) -> None:
        """DatabaseError unless the file is ours, new or absent, found by reading its header
        only: another program's SQLite file must be refused before anything writes to it
        (opening it as ours would switch it to a write-ahead log, with files beside it)."""
        try:
            fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        except FileNotFoundError:
            return
        except OSError as error:
            raise DatabaseError(_say("cannot_open", path=self.path, reason=os_reason(error, self.path))) from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise DatabaseError(_say("not_a_file", path=self.path))
            header = os.read(fd, 100)
        finally:
            os.close(fd)
        if not header:
            return    # made empty by a first run stopped before it wrote anything
        if len(header) < 100 or not header.startswith(b"SQLite format 3\x00"):
            raise DatabaseError(_say("foreign", path=self.path))
        # SQLite's header (sqlite.org/fileformat.html): pages at 28, user_version at 60,
        # application_id at 68, each 4 bytes, big-endian.
        pages, user_version, application = (int.from_bytes(header[at:at + 4], "big") for at in (28, 60, 68))
        if application == APPLICATION_ID:
            return
        if application != 0 or user_version != 0 or pages > 1:
            # Another program's id or version, or tables of its own (a table takes a page of its own).
            raise DatabaseError(_say("foreign", path=self.path))

    @classmethod
    def in_folder(cls, folder: Path) -> "Database":
        """Open (creating the folder and the file if needed) ``folder/pnp.sqlite3``."""
        folder = Path(folder).expanduser()
        if folder.exists() and not folder.is_dir():
            raise DatabaseError(_say("folder_is_file", path=folder))
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise DatabaseError(_say("folder_uncreatable", path=folder, reason=error.strerror)) from None
        return cls(folder / DATABASE_NAME)

    # -- connections ---------------------------------------------------------

    def connection(self) -> sqlite3.Connection:
        """This thread's connection, opened on first use."""
        connection = getattr(self._local, "connection", None)
        if connection is None:
            connection = self._connect()
            self._local.connection = connection
            with self._guard:
                self._connections.append(connection)
        return connection

    def _connect(self) -> sqlite3.Connection:
        try:
            # isolation_level=None: transactions are begun and ended here, explicitly.
            connection = sqlite3.connect(self.path, isolation_level=None, timeout=30, check_same_thread=False)
            connection.execute("PRAGMA foreign_keys = ON")
            connection.execute("PRAGMA journal_mode = WAL")
            # Set after the journal mode: every commit is on the disk before it returns.
            connection.execute("PRAGMA synchronous = FULL")
            connection.execute("PRAGMA fullfsync = ON")
        except sqlite3.Error as error:
            raise self._error("open", error) from None
        return connection

    def close(self) -> None:
        """Close every thread's connection (the server is stopping)."""
        with self._guard:
            connections, self._connections = self._connections, []
        for connection in connections:
            connection.close()
        self._local = threading.local()

    def _error(self, doing: str, error: sqlite3.Error) -> DatabaseError:
        """``doing`` is ``open``, ``read`` or ``write``: what could not be done with the file."""
        return DatabaseError(_say(f"cannot_{doing}", path=self.path, reason=error))

    # -- transactions --------------------------------------------------------

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: everything inside is committed together, or nothing is."""
        connection = self.connection()
        with self._writer:
            try:
                connection.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:
                raise self._error("write", error) from None
            try:
                yield connection
                connection.execute("COMMIT")
            except BaseException as error:
                if connection.in_transaction:
                    connection.execute("ROLLBACK")
                if isinstance(error, sqlite3.Error):
                    raise self._error("write", error) from None
                raise

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """One read transaction: every query inside sees the same committed state."""
        connection = self.connection()
        try:
            connection.execute("BEGIN")
            try:
                yield connection
            finally:
                connection.execute("COMMIT")
        except sqlite3.Error as error:
            raise self._error("read", error) from None

    # -- schema --------------------------------------------------------------

    def migrate(self) -> int:
        """Create the schema or bring it up to :data:`SCHEMA_VERSION`; return the version found."""
        with self.write() as connection:
            application = connection.execute("PRAGMA application_id").fetchone()[0]
            tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if application not in (0, APPLICATION_ID) or (application == 0 and tables):
                raise DatabaseError(_say("foreign", path=self.path))
            if not tables:
                connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                connection.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
                connection.execute("INSERT INTO schema_version VALUES (0)")
            found = connection.execute("SELECT version FROM schema_version").fetchone()[0]
            if found > SCHEMA_VERSION:
                raise DatabaseError(_say("newer", path=self.path, found=found, known=SCHEMA_VERSION))
            for statements in MIGRATIONS[found:]:
                for statement in statements:
                    if statement in DATA_STEPS:
                        DATA_STEPS[statement](connection)
                    else:
                        connection.execute(statement)
            connection.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION,))
        return found


def server_secret(db: Database) -> bytes:
    """The key CSRF tokens, session tokens and read-only links are signed with, made once per data folder."""
    with db.write() as connection:
        row = connection.execute("SELECT value FROM settings WHERE name = 'secret'").fetchone()
        if row is None:
            value = secrets.token_hex(32)
            connection.execute("INSERT INTO settings (name, value) VALUES ('secret', ?)", (value,))
        else:
            value = row[0]
    return bytes.fromhex(value)
