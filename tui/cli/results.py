"""`bedside results`: the results table (accuracy with 95 % CI, no-diagnosis count, turns,
tests, tokens, cost, entity F1, pathway means, report score, patient ratings), grouped by
model, case source, specialty or language, one row per doctor within each group, humans and
models side by side, one-step (upper-bound) rows apart; then the rows of the other tasks
(Agent Hospital: one per task, doctor and settings), never pooled with the consultation's.
`--per-consultation` prints one row per consultation instead; `--plot` draws accuracy with
its interval per row as a terminal chart (`tui.text.accuracy_chart`). Headless.

Missing or stale offline metrics of finished consultations (e.g. after the real case of an
imported transcript was imported) are computed and stored first — they are deterministic
and cheap; `--recompute` redoes them all, `--no-compute` shows only what is stored.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import textwrap
from collections.abc import Callable
from typing import Any

from core.errors import InputError
from core.factors import grouping_keys, parse_by
from core.metrics.names import CONSULTATION_FIELDS, public_fields, public_row, result_fields
from tui.text.accuracy_chart import chart
from tui.text.results_table import format_consultations, format_table
from tui.text.safe import sanitize


def register(sub: argparse._SubParsersAction,
             add_db: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add `bedside results` to the command line."""
    p = sub.add_parser("results", help="results table: accuracy with 95%% CI and all metrics")
    p.add_argument("--by", default=None, metavar="KEY[,KEY...]",
                   help="group rows by one or more of: " + ", ".join(grouping_keys()) +
                   " (the doctor model, a case label, or any experimental factor of "
                   "`bedside run`); one row per doctor within each group (default model)")
    p.add_argument("--plot", nargs="?", const="", default=None, metavar="KEY[,KEY...]",
                   help="draw accuracy with its Wilson 95%% interval per row of the table "
                   "as a terminal chart instead (KEY as --by: `--plot max_turns`; alone, "
                   "by --by); as wide as the terminal")
    shape = p.add_mutually_exclusive_group()
    shape.add_argument("--per-consultation", action="store_true",
                       help="one row per consultation with every metric instead of the table")
    shape.add_argument("--regress", action="store_true",
                       help="information vs outcome: per doctor, accuracy, diagnosis F1 and "
                       "report score fitted against information gathered and turns used "
                       "(slope, its 95%% interval, R²), with scatter plots")
    shape.add_argument("--evolution", nargs="?", const="", default=None, metavar="EVOLUTION",
                       help="an Agent Hospital evolution's learning curves instead (the newest "
                       "by default; as `bedside evolve show`, --json and --csv too)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print JSON (every field)")
    out.add_argument("--csv", action="store_true", help="print CSV (every field)")
    p.add_argument("--run", metavar="ID", default=None, help="only this run")
    p.add_argument("--judge", metavar="NAME", action="append", default=[],
                   help="whose LLM-judged values to show: a report judge (judge:MODEL#H) or "
                   "rating patient (patient:MODEL#H), by its whole name, KIND:MODEL or its "
                   "model; once per kind (default: the only one, else the one that graded "
                   "the most consultations; the output says which)")
    p.add_argument("--task", metavar="TASK", default=None,
                   help="only the rows of this task: interactive (the consultation's table) "
                   "or agenthospital (one row per task: examination, diagnosis, treatment "
                   "level); by default the text shows both and --json lists both")
    compute = p.add_mutually_exclusive_group()
    compute.add_argument("--no-compute", action="store_true",
                         help="do not compute missing offline metrics first")
    compute.add_argument("--recompute", action="store_true",
                         help="recompute every offline metric (stale ones are recomputed "
                         "anyway when a case changed)")
    add_db(p)
    p.set_defaults(func=results)


def results(args: argparse.Namespace) -> int:
    """Print the results table; exit 0 (an empty store prints an empty table)."""
    from core.errors import InputError
    from core.metrics.names import group_keys
    from core.solvers.registry import task_names
    from core.usecases.results import (consultation_report, consultation_rows,
                                       results_report, task_results)
    from core.usecases.scoring import compute_offline
    from core.usecases.task_results import TASK_FIELDS
    from db.store import open_store
    from tui.text.task_table import format_task_table

    if args.evolution is not None:
        from tui.cli.evolve import show

        args.evolution, args.width = args.evolution or None, plot_width()
        return show(args)
    args.by = parse_by(_grouping(args))  # checked before the store is opened
    store = open_store(getattr(args, "db", None))
    if args.run:
        args.run = store.get_run(args.run).id  # NotFoundError → one line on stderr
    if not args.no_compute:
        compute_offline(store, run_id=args.run, recompute=args.recompute)
    if args.regress:
        return regress(store, args)
    if args.task not in (None, *task_names()):
        raise InputError(f"unknown task '{args.task}' (known: {', '.join(task_names())})",
                         field="--task")
    # Read once for both tables (20,000 consultations: a quarter of a second each time).
    read = consultation_rows(store, args.run) if not args.per_consultation else None
    tasks = [r for r in task_results(store, by=args.by, run_id=args.run, rows=read)
             if args.task in (None, r["suite"])] \
        if args.task != "interactive" and not args.per_consultation else []
    if args.per_consultation:
        rows, choice = consultation_report(store, run_id=args.run, judges=args.judge)
        fields: tuple[str, ...] = CONSULTATION_FIELDS
    else:
        rows, choice = results_report(store, by=args.by, run_id=args.run, judges=args.judge,
                                      rows=read)
        rows = rows if args.task in (None, "interactive") else []
        fields = result_fields(args.by)
    if args.plot is not None:
        print(chart(rows, args.by, plot_width()))
    elif args.json:  # the names the text table heads its columns with; task rows name a task
        print(json.dumps([public_row(r) for r in rows] + tasks, ensure_ascii=False, indent=2))
    elif args.csv and args.task not in (None, "interactive"):
        write_csv(tasks, (*group_keys(args.by), *TASK_FIELDS))
    elif args.csv:
        write_csv([public_row(r) for r in rows], public_fields(fields))
    elif args.per_consultation:
        print(format_consultations(rows))
        _judge_notes(choice)
    else:
        if args.task == "interactive" or (args.task is None and (rows or not tasks)):
            print(format_table(rows, args.by))
            _judge_notes(choice)
        if tasks:
            print(("\n" if rows else "") + format_task_table(tasks, args.by))
    return 0


def _grouping(args: argparse.Namespace) -> str:
    """The grouping keys' text: `--plot KEY` is `--by KEY`; --plot draws the table only."""
    if args.plot is None:
        return args.by or "model"
    if args.per_consultation or args.regress or args.json or args.csv:
        raise InputError("draws the results table: leave out --per-consultation, "
                         "--regress, --json and --csv", field="--plot")
    if args.plot and args.by and parse_by(args.plot) != parse_by(args.by):
        raise InputError(f"groups by '{args.plot}' but --by says '{args.by}': give the "
                         "keys once", field="--plot")
    return args.plot or args.by or "model"


def plot_width() -> int:
    """The terminal's width (80 when printing to a file; COLUMNS overrides), at least 60."""
    return max(60, shutil.get_terminal_size((80, 24)).columns)


def _judge_notes(choice: Any) -> None:
    """Which judge the LLM-judged columns come from, one line per kind."""
    for line in choice.notes():
        print(sanitize(line))


def write_csv(rows: list[dict[str, Any]], fields: tuple[str, ...]) -> None:
    """CSV with a header (also for no rows), cells safe for a spreadsheet
    (`tui.text.exports.csv_cell`)."""
    from tui.text.exports import rows_csv

    sys.stdout.write(rows_csv(rows, list(fields)))


def regress(store: Any, args: argparse.Namespace) -> int:
    """`--regress`: the fits (JSON: fits and points; CSV: fits), else a table and plots."""
    from core.usecases.regress import regressions

    report = regressions(store, by=args.by, run_id=args.run, judges=args.judge)
    if args.json:
        print(json.dumps(report.model_dump(mode="json"), ensure_ascii=False, indent=2))
        return 0
    fields = (*[k for k in report.by if k not in ("model", "doctor")], "doctor", "settings",
              "outcome", "predictor", "n", "slope", "ci_low", "ci_high", "intercept", "r2",
              "method", "reason")
    if args.csv:
        write_csv(report.fits, fields)
        return 0
    from tui.text.regression import LEGEND, fit_lines

    print("\n".join(fit_lines(report.fits, report.by)))
    for predictor, label in (("information_gathered", "information gathered (share)"),
                             ("turns", "doctor turns used")):
        print()
        print(sanitize(_plot(report.fits, report.points, predictor, label)))
    print()
    print("\n".join(textwrap.wrap(LEGEND, 120)))
    for line in report.choice.notes():
        print(sanitize(line))
    return 0


def _plot(fits: list[dict[str, Any]], points: list[dict[str, Any]], predictor: str,
          label: str) -> str:
    """Diagnosis F1 against one predictor, a marker and a fitted line per doctor."""
    from tui.app.widgets.plots import group_scatter

    def who(row: dict[str, Any]) -> str:
        return row["doctor"] + (f" ({row['settings']})" if row.get("settings") else "")

    groups: dict[str, list[tuple[float, float]]] = {}
    for p in points:
        groups.setdefault(who(p), []).append((p[predictor], p["diagnosis_f1"]))
    lines = {who(f): (f["intercept"], f["slope"]) for f in fits
             if f["predictor"] == predictor and f["outcome"] == "diagnosis_f1"
             and f["slope"] is not None and f["intercept"] is not None}
    return group_scatter(groups, lines=lines, width=100, height=18,
                         title=f"diagnosis_f1 against {label}", xlabel=label,
                         ylabel="diagnosis_f1")
