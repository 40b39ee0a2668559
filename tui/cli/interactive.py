"""`bedside` with no command (the app) and `bedside serve` (the app in a web browser).

Textual is imported only inside these functions, so other commands never load it. The
database is checked here, before the terminal is taken over, so a bad `--db` is one line
on stderr and exit status 2 instead of a traceback inside the app.

Must not import at module level: textual, sqlite_utils, db (the app's start-up path).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path

from core.errors import InputError


def register(sub: argparse._SubParsersAction,
             add_db: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add `bedside serve` to the command line."""
    p = sub.add_parser("serve", help="serve the app to a web browser on a local port")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    add_db(p)
    p.set_defaults(func=serve)


def default_db_path() -> Path:
    """$BEDSIDE_HOME/bedside.db, else ~/.bedside/bedside.db.

    The same rule as `db.connection.default_db_path` (a test keeps them equal), repeated
    here because importing db.connection loads sqlite_utils and numpy before the app paints.
    """
    return Path(os.environ.get("BEDSIDE_HOME") or Path.home() / ".bedside") / "bedside.db"


def check_database(path: str | Path | None) -> Path:
    """The database path, checked with the standard library only; raise InputError if unusable.

    Creates the folder if needed (as opening would). An existing file must be an SQLite
    database we may write; it is opened read-only here, so the check changes nothing. The
    full open (migrations) happens in the app, right after its first screen.
    """
    target = Path(path) if path else default_db_path()
    where = str(target)
    if target.is_dir():
        raise InputError("is a folder, not a database file", path=where)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InputError(f"cannot create its folder ({err.strerror or err})", path=where) from None
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


def open_app(args: argparse.Namespace) -> int:
    """Run the terminal app on the database given by --db (or the default one).

    Returns the app's exit status (0 when the user quits, 1 after an internal error).
    """
    path = check_database(getattr(args, "db", None))
    from tui.app.application import BedsideApp

    app = BedsideApp(path)
    app.run()
    return app.return_code or 0


def serve_command(db: str | None) -> str:
    """The shell command textual-serve runs for each browser session."""
    parts = [sys.executable, "-m", "tui.cli"]
    if db:
        parts += ["--db", str(Path(db).resolve())]
    return shlex.join(parts)


def serve(args: argparse.Namespace) -> int:
    """Serve the app with textual-serve until interrupted."""
    if not 0 < args.port < 65536:
        raise InputError("must be between 1 and 65535", field="--port")
    check_database(args.db)
    from textual_serve.server import Server

    root = Path(__file__).resolve().parents[1]
    server = Server(serve_command(args.db), host=args.host, port=args.port,
                    title="bedside")
    # textual-serve runs the command from the current directory; run it from the project.
    server.command = f"cd {shlex.quote(str(root))} && {server.command}"
    print(f"bedside: serving on http://{args.host}:{args.port} (Ctrl+C to stop)")
    server.serve()
    return 0
