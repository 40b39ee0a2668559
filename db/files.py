"""Where the project database lives, and whether a file can be one, with the standard
library only: the app's entry point checks `--db` before the terminal is taken over, and
must not load sqlite_utils (or numpy) before the first screen paints.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from core.errors import InputError
from core.home import bedside_home

__all__ = ["bedside_home", "check_database", "default_db_path"]


def default_db_path() -> Path:
    """Default project database: <home>/bedside.db."""
    return bedside_home() / "bedside.db"


def usable_folder(target: Path) -> None:
    """Make sure the folder of the database file `target` exists: the bedside home (where
    the default database lives) is made when missing; any other folder must exist already,
    so a mistyped `--db` path is an error rather than a new tree of folders. Raises
    InputError naming the file."""
    folder = target.parent
    if folder.is_dir():
        return
    if folder.absolute() != bedside_home().absolute():
        raise InputError(f"the folder {folder} does not exist (make it first, or give "
                         "another --db)", path=str(target))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InputError(f"cannot create its folder ({err.strerror or err})",
                         path=str(target)) from None


def check_database(path: str | Path | None) -> Path:
    """The database path, checked; raise InputError (one line) if it cannot be used.

    Makes the folder when it is the bedside home (`usable_folder`), as opening would. An
    existing file must be an SQLite database we may write; it is opened read-only here, so
    the check changes nothing. The full open (migrations) is `db.connection.open_db`.
    """
    target = Path(path) if path else default_db_path()
    where = str(target)
    if target.is_dir():
        raise InputError("is a folder, not a database file", path=where)
    usable_folder(target)
    # An existing file is opened read-only (the check changes nothing); a new one is
    # created, as the app would create it anyway.
    exists = target.exists()
    if exists and not os.access(target, os.R_OK | os.W_OK):
        raise InputError("the database file is not readable and writable", path=where)
    uri = target.resolve().as_uri() + ("?mode=ro" if exists else "?mode=rwc")
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=5)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            conn.close()
    except sqlite3.DatabaseError as err:
        problem = "not a bedside database" if exists else "cannot create the database"
        raise InputError(f"{problem} ({err})", path=where) from None
    return target
