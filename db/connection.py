"""Opening the store: the one place where migrations are applied, pragmas are set and write
transactions begin.

Every write transaction takes the write lock up front (`BEGIN IMMEDIATE`, see `write`). A
deferred transaction (`BEGIN`) that reads first and then writes cannot wait for another
writer: SQLite answers "database is locked" at once, whatever the busy timeout, because
waiting could deadlock. `open_db` returns a `StoreDatabase`, whose `atomic()` (what
sqlite-utils itself uses for every multi-statement write) goes through `write`, so the
repositories and sqlite-utils' own table methods all wait their turn.

SQLite errors that mean the file cannot be used (full disk, read-only file, I/O error, a
lock held past the busy timeout) become `core.errors.StorageError`, one line naming the
file; other errors (a constraint, a bug) stay as they are.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from core.errors import InputError, StorageError
from db.files import bedside_home, default_db_path, usable_folder
from db.migrations import migrations

__all__ = ["StoreDatabase", "bedside_home", "default_db_path", "open_db", "storage_error",
           "write"]

BUSY_TIMEOUT_MS = 30000
# Primary result codes (the low byte of an extended code) that say the file cannot be
# written or read, as opposed to a constraint or a bug.
_STORAGE = {sqlite3.SQLITE_FULL: "the disk or the database is full",
            sqlite3.SQLITE_IOERR: "a disk I/O error (a full disk or a failing device)",
            sqlite3.SQLITE_READONLY: "the database file is read-only",
            sqlite3.SQLITE_CANTOPEN: "the database file cannot be opened",
            sqlite3.SQLITE_PERM: "permission denied",
            sqlite3.SQLITE_BUSY: "another process kept the database locked for more than "
                                 f"{BUSY_TIMEOUT_MS // 1000} s",
            sqlite3.SQLITE_LOCKED: "the database is locked",
            sqlite3.SQLITE_CORRUPT: "the database file is damaged",
            sqlite3.SQLITE_NOTADB: "not a database file"}


def storage_error(err: BaseException, path: str | None) -> StorageError | None:
    """The one-line StorageError for an SQLite error that means the file cannot be used
    (None for any other error)."""
    code = getattr(err, "sqlite_errorcode", None)
    if not isinstance(err, sqlite3.DatabaseError) or code is None:
        return None
    what = _STORAGE.get(code & 0xFF)
    if what is None:
        return None
    where = f"{path}: " if path else ""
    return StorageError(f"{where}cannot use the database: {what} (SQLite: {err})")


def _path_of(db: Database) -> str | None:
    return getattr(db, "path", None)


@contextmanager
def write(db: Database, *, durable: bool = False) -> Iterator[Database]:
    """One write transaction that takes the write lock up front (`BEGIN IMMEDIATE`, which
    waits on the busy timeout); nested, a savepoint of the outer one.

    `durable`: commit with `synchronous=FULL` (the WAL is synced to disk at this commit, so
    a power cut cannot lose it); the connection's default, NORMAL, syncs at checkpoints
    only (a crash of the process loses nothing committed, a power cut may lose the last
    commits). Ratings a rater saw saved are written durably.
    """
    conn = db.conn
    if conn.in_transaction:
        if durable:  # read at commit time: the outer transaction's commit is synced
            conn.execute("PRAGMA synchronous=FULL")
        with Database.atomic(db):  # a savepoint
            yield db
        return
    try:
        if durable:
            conn.execute("PRAGMA synchronous=FULL")
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.DatabaseError as err:
        _restore_sync(conn, durable)
        raise storage_error(err, _path_of(db)) or err from None
    try:
        yield db
        conn.execute("COMMIT")
    except BaseException as err:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        _restore_sync(conn, durable)
        if isinstance(err, sqlite3.DatabaseError):
            raise storage_error(err, _path_of(db)) or err from None
        raise
    _restore_sync(conn, durable)


def _restore_sync(conn: sqlite3.Connection, durable: bool) -> None:
    if durable:
        try:
            conn.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.DatabaseError:  # the file is failing; the next write will say so
            pass


class StoreDatabase(Database):
    """A sqlite-utils Database whose transactions take the write lock up front and whose
    storage failures are one-line `StorageError`s naming the file."""

    #: The database file (for error messages).
    path: str | None = None

    @contextmanager
    def atomic(self) -> Iterator[Database]:
        """A write transaction (`write`): BEGIN IMMEDIATE, or a savepoint when nested."""
        with write(self) as db:
            yield db

    def execute(self, sql: str,
                parameters: Sequence[Any] | dict[str, Any] | None = None) -> sqlite3.Cursor:
        """Run one statement; a storage failure is a StorageError."""
        try:
            return super().execute(sql, parameters)
        except sqlite3.DatabaseError as err:
            raise storage_error(err, self.path) or err from None


def _connect(target: Path) -> sqlite3.Connection:
    try:
        if str(target) != ":memory:":
            usable_folder(target)
        conn = sqlite3.connect(str(target), timeout=BUSY_TIMEOUT_MS / 1000,
                               isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
    except OSError as err:  # no permission, a full disk
        raise InputError(f"cannot open the database ({err.strerror or err})",
                         path=str(target)) from None
    except sqlite3.OperationalError as err:  # e.g. "unable to open database file"
        raise InputError(f"cannot open the database ({err})", path=str(target)) from None
    except sqlite3.DatabaseError as err:
        raise InputError(f"not a bedside database ({err})", path=str(target)) from None
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA synchronous=NORMAL")  # with WAL: durable commits, no fsync each
    conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    return conn


def open_db(path: Path | str | None = None, *, migrate: bool = True) -> StoreDatabase:
    """Open (creating if needed) a project database: WAL, foreign keys, busy timeout.

    A new file is created only in a folder that exists (or the default home, which is made
    when missing): a mistyped `--db` path is an error, not a tree of new folders.
    A `sqlite3` connection belongs to the thread that made it: open one per thread.
    """
    target = Path(path) if path is not None else default_db_path()
    db = StoreDatabase(_connect(target))
    db.path = str(target)
    if migrate:
        try:
            if migrations.pending(db):  # a read: opening a current file takes no lock
                with write(db):  # one process migrates; the others wait, then find none
                    migrations.apply(db)
        except StorageError:
            raise
        except sqlite3.DatabaseError as err:
            raise InputError(f"cannot migrate database ({err})", path=str(target)) from None
    return db
