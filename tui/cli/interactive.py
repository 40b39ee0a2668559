"""`bedside` with no command (the app) and `bedside serve` (the app in a web browser, from
a page of our own that asks nothing of any machine but the one serving it).

Textual is imported only inside these functions, so other commands never load it. The
database is checked here (`db.files.check_database`, standard library only), before the
terminal is taken over, so a bad `--db` is one line on stderr and exit status 2 instead of
a traceback inside the app.

Must not import at module level: textual, sqlite_utils, db.connection or db.store (the
app's start-up path).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

from core.errors import InputError
from db.files import check_database


#: The folder of the page `bedside serve` gives a browser (`app_index.html`).
TEMPLATES = Path(__file__).resolve().parent / "serve_templates"


def register(sub: argparse._SubParsersAction,
             add_db: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add `bedside serve` to the command line."""
    p = sub.add_parser("serve", help="serve the app to a web browser on a local port")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    add_db(p)
    p.set_defaults(func=serve)


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
    # Our page: no font service, no address but the page's own host (see the template).
    server = Server(serve_command(args.db), host=args.host, port=args.port,
                    title="bedside", templates_path=TEMPLATES)
    # textual-serve runs the command from the current directory; run it from the project.
    server.command = f"cd {shlex.quote(str(root))} && {server.command}"
    print(f"bedside: serving on http://{args.host}:{args.port} (Ctrl+C to stop)")
    server.serve()
    return 0
