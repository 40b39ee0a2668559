"""Opening the store: the one place where migrations are applied and pragmas are set."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlite_utils import Database

from core.errors import InputError
from db.files import bedside_home, default_db_path
from db.migrations import migrations

__all__ = ["bedside_home", "default_db_path", "open_db"]


def open_db(path: Path | str | None = None, *, migrate: bool = True) -> Database:
    """Open (creating if needed) a project database: WAL, foreign keys, busy timeout.

    A `sqlite3` connection belongs to the thread that made it: open one per thread.
    """
    target = Path(path) if path is not None else default_db_path()
    try:
        if str(target) != ":memory:":
            target.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(target), timeout=30, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
    except OSError as err:  # a folder that cannot be made, no permission, a full disk
        raise InputError(f"cannot open the database ({err.strerror or err})",
                         path=str(target)) from None
    except sqlite3.OperationalError as err:  # e.g. "unable to open database file"
        raise InputError(f"cannot open the database ({err})", path=str(target)) from None
    except sqlite3.DatabaseError as err:
        raise InputError(f"not a bedside database ({err})", path=str(target)) from None
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA synchronous=NORMAL")  # with WAL: durable commits, no fsync each
    conn.execute("PRAGMA busy_timeout=30000")
    db = Database(conn)
    if migrate:
        try:
            migrations.apply(db)
        except sqlite3.DatabaseError as err:
            raise InputError(f"cannot migrate database ({err})", path=str(target)) from None
    return db
