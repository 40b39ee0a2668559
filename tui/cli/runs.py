"""`bedside runs`: the runs in the database, each with its doctors, the settings that differ
from the defaults, its cases and how its consultations ended (`list`), and one run with
each configuration's counts (`show`); `--json` prints every field. Headless.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

from core.usecases.run_listing import RunSummary
from tui.text.safe import sanitize


def register(sub: argparse._SubParsersAction,
             add_db: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add `bedside runs list` and `bedside runs show`."""
    runs = sub.add_parser("runs", help="list runs with their doctors, settings and counts")
    rsub = runs.add_subparsers(dest="runs_command", required=True, metavar="ACTION")
    p = rsub.add_parser("list", help="every run, newest first: doctors, settings, counts")
    p.add_argument("--json", action="store_true", help="print JSON (every field)")
    add_db(p)
    p.set_defaults(func=list_runs)
    p = rsub.add_parser("show", help="one run: its configurations and how each ended")
    p.add_argument("run", metavar="RUN", help="run id or name")
    p.add_argument("--json", action="store_true", help="print JSON (every field)")
    add_db(p)
    p.set_defaults(func=show_run)


def _open(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from db.store import open_store

    return open_store(getattr(args, "db", None))


def _name(run: RunSummary) -> str:
    return run.name or run.id


def _done(run: RunSummary) -> str:
    planned = run.planned if run.planned is not None else run.counts.consultations
    return f"{run.counts.finished}/{planned}"


def list_lines(runs: list[RunSummary]) -> list[str]:
    """The listing as aligned lines (header first); 'SETTINGS' is the last column and says
    '-' when a run used the defaults."""
    head = ("RUN", "CREATED", "STATUS", "DOCTORS", "CASES", "DONE", "FAILED", "SETTINGS")
    rows = [(_name(r), (r.created_at or "")[:16].replace("T", " "), r.status or "?",
             ", ".join(r.doctors) or "?", str(r.cases), _done(r),
             str(r.counts.failed), "; ".join(r.settings) or "-") for r in runs]
    rows = [tuple(sanitize(c) for c in row) for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(head)]
    return ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
            for row in [head, *rows]]


def list_runs(args: argparse.Namespace) -> int:
    """Print every run (or 'no runs yet')."""
    from core.usecases.run_listing import list_runs as listed

    runs = listed(_open(args))
    if args.json:
        print(json.dumps([r.model_dump() for r in runs], ensure_ascii=False, indent=2))
    elif not runs:
        print("no runs yet (bedside run makes one)")
    else:
        print("\n".join(list_lines(runs)))
    return 0


def show_lines(run: RunSummary) -> list[str]:
    """One run in words: what it is, then one block per configuration."""
    c = run.counts
    lines = [sanitize(run.id) + (f" ({sanitize(run.name)})" if run.name else ""),
             f"created {sanitize(run.created_at or '?')} from the {sanitize(run.origin or '?')}"
             f", status {sanitize(run.status or '?')}",
             f"{run.cases} cases, {run.planned if run.planned is not None else '?'} "
             f"consultations planned: {c.finished} finished, {c.failed} failed, "
             f"{c.cancelled} cancelled, {c.running} running, {c.other} other"]
    if run.settings:
        lines.append("settings shared by every configuration: "
                     + sanitize("; ".join(run.settings)))
    for conf in run.configurations:
        lines += ["", f"configuration {sanitize(conf.config_key)}",
                  f"  doctor: {sanitize(conf.doctor)}",
                  "  settings: " + (sanitize("; ".join(conf.settings)) or "the defaults"),
                  f"  consultations: {conf.consultations} ({conf.finished} finished, "
                  f"{conf.failed} failed, {conf.cancelled} cancelled)",
                  f"  verdicts: {conf.correct} correct, {conf.wrong} wrong (of which "
                  f"{conf.no_diagnosis} without a diagnosis)"]
    return lines


def show_run(args: argparse.Namespace) -> int:
    """Print one run; an unknown run is one line on stderr (exit 2)."""
    from core.usecases.run_listing import show_run as shown

    run = shown(_open(args), args.run)
    if args.json:
        print(json.dumps(run.model_dump(), ensure_ascii=False, indent=2))
    else:
        print("\n".join(show_lines(run)))
    return 0
