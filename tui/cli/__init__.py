"""The `bedside` command line: parses arguments and dispatches to command modules.

Errors a user can cause (`core.errors.BedsideError`) become one line on stderr and exit
status 2, as do SQLite errors that mean the database file cannot be used (full disk,
read-only file); nothing else is caught here, so bugs keep their traceback. Heavy imports
(textual, litellm) happen only inside the commands that need them.

`bedside` and `bedside --db PATH` (the app) skip building the full parser: registering the
subcommands imports their modules (case loading, the metrics store with numpy), which
would delay the app's first screen by a few hundred milliseconds.

Every command but those that hand the terminal to the app writes through
`tui.text.safe.SafeStream` (stdout and stderr, logs included): whatever a printer prints —
case titles, model names, rater names, model output, error messages quoting a file — no
control character acts on the terminal and no API key is shown.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from core.errors import BedsideError

Command = Callable[[argparse.Namespace], int]


def _add_db(p: argparse.ArgumentParser, *, top: bool = False) -> None:
    # Subcommands suppress their default so `bedside --db X cases list` keeps X.
    p.add_argument("--db", metavar="PATH", default=None if top else argparse.SUPPRESS,
                   help="project database (default: $BEDSIDE_HOME/bedside.db, ~/.bedside)")


def _cases_parser(sub: argparse._SubParsersAction) -> None:
    from tui.cli import cases as cmd_cases

    cases = sub.add_parser("cases", help="list, validate, import, show and translate cases")
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
                   "aihospital-dialog, aihospital-collaboration (after the doctors' "
                   "aihospital-dialog files, to link them), rjua")
    p.add_argument("path", help="the file to import")
    p.add_argument("--fetch-images", action="store_true",
                   help="then fetch the imported cases' image URLs into the local image "
                   "cache (as `cases fetch-images`)")
    p.add_argument("--language", metavar="LANG", default=None,
                   help="the cases' language (agentclinic files; default: read from each "
                   "case's text)")
    p.add_argument("--update", action="store_true",
                   help="apply changes to the ground truth (diagnosis, findings, results) of "
                   "cases already stored; without it such an import writes nothing")
    _add_db(p)
    p.set_defaults(func=cmd_cases.import_cases)
    p = csub.add_parser("fetch-images", help="fetch case images given by URL (NEJM imports) "
                        "into the local image cache, $BEDSIDE_HOME/images")
    p.add_argument("--cases", metavar="SPEC", help="only these cases (as `bedside run "
                   "--cases`); default: every case with an image URL")
    p.add_argument("--again", action="store_true",
                   help="fetch images already cached again")
    p.add_argument("--timeout", type=float, default=20.0, metavar="S",
                   help="seconds to wait for each image (default 20)")
    _add_db(p)
    p.set_defaults(func=cmd_cases.fetch_images)
    p = csub.add_parser("show", help="print one case as YAML (includes the ground truth)")
    p.add_argument("case_id")
    _add_db(p)
    p.set_defaults(func=cmd_cases.show)
    from tui.cli import cases_translate

    cases_translate.register(csub, _add_db)


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
             "tui.cli.transcripts", "tui.cli.corpus", "tui.cli.evolve", "tui.cli.agenthospital",
             "tui.cli.hospital")
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


# Commands that give the terminal to the Textual app (which draws with escape codes of its
# own and shows untrusted text through `tui.app.widgets.literal`).
_OWN_THE_TERMINAL = {"tui.cli.interactive.open_app", "tui.cli.interactive.serve",
                     "tui.cli.study.rate"}


@contextmanager
def _safe_output(func: Command, args: argparse.Namespace) -> Iterator[None]:
    """stdout and stderr through `SafeStream` while a headless command runs."""
    if f"{func.__module__}.{func.__name__}" in _OWN_THE_TERMINAL:
        yield
        return
    from tui.text.safe import SafeStream

    names = [n for n in (getattr(args, "api_key_env", None),) if n]
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = SafeStream(saved[0], names), SafeStream(saved[1], names)
    try:
        yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        sys.stdout, sys.stderr = saved


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
    with _safe_output(func, args):
        try:
            return func(args)
        except BedsideError as err:
            from tui.text.safe import sanitize  # also for the commands that are not wrapped

            print(f"bedside: {sanitize(str(err))}", file=sys.stderr)
            return 2
        except sqlite3.DatabaseError as err:  # one reached the file outside the store's wrapper
            from db.connection import storage_error

            known = storage_error(err, getattr(args, "db", None))
            if known is None:
                raise
            print(f"bedside: {known}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print("bedside: interrupted; everything completed so far is saved",
                  file=sys.stderr)
            return 130
        except BrokenPipeError:
            # The reader stopped reading (`bedside results | head`): not an error of ours,
            # and no traceback. Python would complain again when it flushes stdout at exit.
            import os

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 141  # 128 + SIGPIPE, as a shell reports it

