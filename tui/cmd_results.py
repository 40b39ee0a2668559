"""`bedside results`: the results table (accuracy with 95 % CI, no-diagnosis count, turns,
tests, tokens, cost, entity F1, pathway means, report score, patient ratings), grouped by
model, case source, specialty or language, humans and models side by side. Headless.

Missing offline metrics of finished consultations are computed and stored first (they are
deterministic and cheap); `--no-compute` shows only what is stored.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Callable
from typing import Any

from db.metrics import GROUPINGS

# (column, header, format) of the text table; the JSON and CSV outputs have every field.
_TEXT_COLUMNS: list[tuple[str, str, str]] = [
    ("doctor_kind", "KIND", "s"), ("finished", "N", "d"), ("accuracy", "ACC", "pct"),
    ("ci", "95% CI", "s"), ("no_diagnosis", "NO-DX", "d"), ("failed", "FAIL", "d"),
    ("mean_turns", "TURNS", ".1f"), ("mean_tests", "TESTS", ".1f"), ("tokens", "TOKENS", "d"),
    ("cost_usd", "COST$", ".4f"), ("entity_micro_f1", "ENT-F1", ".2f"),
    ("info_completeness", "INFO", ".2f"), ("guidance_precision", "GUID-P", ".2f"),
    ("guidance_recall", "GUID-R", ".2f"), ("behaviour_standardization", "ORDER", ".2f"),
    ("clinical_applicability", "ROUNDS", ".2f"), ("treatment_logicality", "TX", ".2f"),
    ("report", "REPORT", "s"), ("pr", "PATIENT c/f/a", "s"),
]


def register(sub: argparse._SubParsersAction,
             add_db: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add `bedside results` to the command line."""
    p = sub.add_parser("results", help="results table: accuracy with 95%% CI and all metrics")
    p.add_argument("--by", choices=GROUPINGS, default="model",
                   help="group rows by doctor model, case source, specialty or language")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print JSON (every field)")
    out.add_argument("--csv", action="store_true", help="print CSV (every field)")
    p.add_argument("--run", metavar="ID", default=None, help="only this run")
    p.add_argument("--no-compute", action="store_true",
                   help="do not compute missing offline metrics first")
    add_db(p)
    p.set_defaults(func=results)


def results(args: argparse.Namespace) -> int:
    """Print the results table; exit 0 (an empty store prints an empty table)."""
    from db.connection import open_db
    from db.metrics import compute_offline, results_table

    db = open_db(getattr(args, "db", None))
    if args.run:
        from db.runs import get_run

        get_run(db, args.run)  # NotFoundError → one line on stderr
    if not args.no_compute:
        compute_offline(db, run_id=args.run)
    rows = results_table(db, by=args.by, run_id=args.run)
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
    elif args.csv:
        _csv(rows)
    else:
        print(format_table(rows, args.by))
    return 0


def _csv(rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)


def _cell(value: Any, fmt: str) -> str:
    if value is None:
        return "-"
    if fmt == "pct":
        return f"{value * 100:.1f}%"
    if fmt == "s":
        return str(value)
    return format(value, fmt)


def _derived(row: dict[str, Any]) -> dict[str, Any]:
    out = dict(row)
    if row.get("ci_low") is not None:
        out["ci"] = f"{row['ci_low'] * 100:.0f}-{row['ci_high'] * 100:.0f}%"
    if row.get("report_score") is not None:
        ci = (f" ({row['report_ci_low']:.0f}-{row['report_ci_high']:.0f})"
              if row.get("report_ci_low") is not None else "")
        out["report"] = f"{row['report_score']:.0f}{ci}"
    prs = [row.get(k) for k in ("pr_confidence", "pr_compliance", "pr_consult_again")]
    if any(v is not None for v in prs):
        out["pr"] = "/".join("-" if v is None else f"{v:.1f}" for v in prs)
    return out


def format_table(rows: list[dict[str, Any]], by: str) -> str:
    """Plain-text table, one line per (group, doctor kind)."""
    if not rows:
        return "no finished consultations yet (run `bedside run` first)"
    cols = [(by, by.upper(), "s"), *_TEXT_COLUMNS]
    cells = [[_cell(_derived(r).get(c), f) for c, _, f in cols] for r in rows]
    widths = [max(len(h), *(len(row[i]) for row in cells)) for i, (_, h, _) in enumerate(cols)]
    lines = ["  ".join(h.ljust(w) for (_, h, _), w in zip(cols, widths, strict=True))]
    lines.extend("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in cells)
    lines.append("\nACC counts no-diagnosis consultations as wrong; 95% CI is Wilson's. "
                 "REPORT is 0-100 with a bootstrap 95% interval.")
    return "\n".join(lines)
