"""The `bedside` command line: parses arguments and dispatches to command modules.

Errors a user can cause (`core.errors.BedsideError`) become one line on stderr and exit
status 2, as do SQLite errors that mean the database file cannot be used (full disk,
read-only file); nothing else is caught here, so bugs keep their traceback. Heavy imports
(textual, litellm) happen only inside the commands that need them.

`bedside` and `bedside --db PATH` (the app) skip building the full parser: registering the
subcommands imports their modules (case loading, the metrics store with numpy), which
would delay the app's first screen by a few hundred milliseconds.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Callable, Sequence

from core.errors import BedsideError

Command = Callable[[argparse.Namespace], int]


def _add_db(p: argparse.ArgumentParser, *, top: bool = False) -> None:
    # Subcommands suppress their default so `bedside --db X cases list` keeps X.
    p.add_argument("--db", metavar="PATH", default=None if top else argparse.SUPPRESS,
                   help="project database (default: $BEDSIDE_HOME/bedside.db, ~/.bedside)")


def _cases_parser(sub: argparse._SubParsersAction) -> None:
    from tui.cli import cases as cmd_cases

    cases = sub.add_parser("cases", help="list, validate and import cases")
    csub = cases.add_subparsers(dest="cases_command", required=True, metavar="ACTION")
    p = csub.add_parser("list", help="list the bundled library and imported cases")
    p.add_argument("--json", action="store_true", help="print JSON")
    _add_db(p)
    p.set_defaults(func=cmd_cases.list_cases)
    p = csub.add_parser("validate", help="check case files; report every problem")
    p.add_argument("path", help="a case file or a folder of them")
    p.set_defaults(func=cmd_cases.validate)
    p = csub.add_parser("import", help="import cases/transcripts from a peer benchmark")
    p.add_argument("format", help="agentclinic, agentclinic-nejm, aihospital, "
                   "aihospital-dialog, rjua")
    p.add_argument("path", help="the file to import")
    _add_db(p)
    p.set_defaults(func=cmd_cases.import_cases)
    p = csub.add_parser("show", help="print one case as YAML (includes the ground truth)")
    p.add_argument("case_id")
    _add_db(p)
    p.set_defaults(func=cmd_cases.show)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser (also used by the docs test)."""
    parser = argparse.ArgumentParser(
        prog="bedside",
        description="A terminal workbench for interactive clinical-consultation benchmarks. "
        "With no command, opens the app.",
    )
    _add_db(parser, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _cases_parser(sub)
    for register in _extra_registrars():
        register(sub, _add_db)
    return parser


def _extra_registrars() -> list[Callable[..., None]]:
    """Parsers of the other command groups (each module registers its own)."""
    import importlib

    names = ("tui.cli.run", "tui.cli.results", "tui.cli.score", "tui.cli.study",
             "tui.cli.analysis", "tui.cli.fidelity", "tui.cli.interactive", "tui.cli.runs",
             "tui.cli.transcripts")
    return [importlib.import_module(name).register for name in names]


def app_only_args(argv: Sequence[str]) -> argparse.Namespace | None:
    """The namespace of `bedside [--db PATH]` (no subcommand, no help), else None.

    Decided from argv alone, so the app starts without importing any command module;
    anything else (a subcommand, --help, a typo) goes through the full parser.
    """
    args = list(argv)
    if not args:
        return argparse.Namespace(db=None)
    if len(args) == 1 and args[0].startswith("--db=") and len(args[0]) > 5:
        return argparse.Namespace(db=args[0][5:])
    if len(args) == 2 and args[0] == "--db" and not args[1].startswith("-"):
        return argparse.Namespace(db=args[1])
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `bedside` command."""
    argv = sys.argv[1:] if argv is None else argv
    args = app_only_args(argv)
    if args is None:
        args = build_parser().parse_args(argv)
    func: Command | None = getattr(args, "func", None)
    if func is None:
        from tui.cli import interactive as cmd_app

        func = cmd_app.open_app
    try:
        return func(args)
    except BedsideError as err:
        print(f"bedside: {err}", file=sys.stderr)
        return 2
    except sqlite3.DatabaseError as err:  # one reached the file outside the store's wrapper
        from db.connection import storage_error

        known = storage_error(err, getattr(args, "db", None))
        if known is None:
            raise
        print(f"bedside: {known}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("bedside: interrupted; everything completed so far is saved", file=sys.stderr)
        return 130

