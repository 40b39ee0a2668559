"""`bedside results`: the results table (accuracy with 95 % CI, no-diagnosis count, turns,
tests, tokens, cost, entity F1, pathway means, report score, patient ratings), grouped by
model, case source, specialty or language, one row per doctor within each group, humans and
models side by side, one-step (upper-bound) rows apart. `--per-consultation` prints one row
per consultation instead. Headless.

Missing or stale offline metrics of finished consultations (e.g. after the real case of an
imported transcript was imported) are computed and stored first — they are deterministic
and cheap; `--recompute` redoes them all, `--no-compute` shows only what is stored.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Callable
from typing import Any

from core.metrics.names import CONSULTATION_FIELDS, GROUPINGS, result_fields

# (column, header, format) of the text table after the group (and doctor) column; the JSON
# and CSV outputs have every field.
TEXT_COLUMNS: list[tuple[str, str, str]] = [
    ("doctor_kind", "KIND", "s"), ("finished", "N", "d"), ("accuracy", "ACC", "pct"),
    ("ci", "95% CI", "s"), ("no_diagnosis", "NO-DX", "d"), ("no_case_record", "NO-CASE", "d"),
    ("failed", "FAIL", "d"), ("mean_turns", "TURNS", ".1f"), ("mean_tests", "TESTS", ".1f"),
    ("tokens", "TOKENS", "d"), ("cost_usd", "COST$", ".4f"),
    ("entity_micro_f1", "ENT-F1", ".2f"), ("info_completeness", "INFO", ".2f"),
    ("guidance_precision", "GUID-P", ".2f"), ("guidance_recall", "GUID-R", ".2f"),
    ("behaviour_standardization", "ORDER", ".2f"), ("inquiry_coverage", "STEPS", ".2f"),
    ("clinical_applicability", "ROUNDS", ".2f"), ("treatment_logicality", "TX", ".2f"),
    ("report", "REPORT", "s"), ("pr", "PATIENT c/f/a", "s"),
]
CONSULTATION_COLUMNS: list[tuple[str, str, str]] = [
    ("consultation_id", "CONSULTATION", "s"), ("case_id", "CASE", "s"),
    ("doctor", "DOCTOR", "s"), ("end_reason", "END", "s"), ("correct", "OK", "d01"),
    ("entity_f1", "ENT-F1", ".2f"), ("info_completeness", "INFO", ".2f"),
    ("guidance_precision", "GUID-P", ".2f"), ("behaviour_standardization", "ORDER", ".2f"),
    ("inquiry_coverage", "STEPS", ".2f"), ("treatment_logicality", "TX", ".2f"),
    ("report_score", "REPORT", ".0f"), ("pr_confidence", "CONF", ".0f"),
]
FOOTNOTE = ("ACC counts no-diagnosis consultations as wrong (NO-DX); NO-CASE consultations "
            "(imported without their case record) are left out of ACC and every metric; "
            "95% CI is Wilson's. ORDER is Kendall's tau of the inquiry order over the steps "
            "reached, STEPS the share of expected steps reached. REPORT is 0-100 with a "
            "bootstrap 95% interval (bedside score); PATIENT c/f/a: confidence / "
            "compliance / would consult again, 1-10.")


def register(sub: argparse._SubParsersAction,
             add_db: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add `bedside results` to the command line."""
    p = sub.add_parser("results", help="results table: accuracy with 95%% CI and all metrics")
    p.add_argument("--by", choices=GROUPINGS, default="model",
                   help="group rows by doctor model, case source, specialty or language "
                   "(one row per doctor within each group)")
    p.add_argument("--per-consultation", action="store_true",
                   help="one row per consultation with every metric instead of the table")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print JSON (every field)")
    out.add_argument("--csv", action="store_true", help="print CSV (every field)")
    p.add_argument("--run", metavar="ID", default=None, help="only this run")
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
    from db.connection import open_db
    from db.metrics import compute_offline, consultation_table, results_table

    db = open_db(getattr(args, "db", None))
    if args.run:
        from db.runs import get_run

        args.run = get_run(db, args.run)["id"]  # NotFoundError → one line on stderr
    if not args.no_compute:
        compute_offline(db, run_id=args.run, recompute=args.recompute)
    if args.per_consultation:
        rows = consultation_table(db, run_id=args.run)
        fields: tuple[str, ...] = CONSULTATION_FIELDS
    else:
        rows = results_table(db, by=args.by, run_id=args.run)
        fields = result_fields(args.by)
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
    elif args.csv:
        write_csv(rows, fields)
    elif args.per_consultation:
        print(format_consultations(rows))
    else:
        print(format_table(rows, args.by))
    return 0


def write_csv(rows: list[dict[str, Any]], fields: tuple[str, ...]) -> None:
    """CSV with a header (also for no rows)."""
    writer = csv.DictWriter(sys.stdout, fieldnames=list(fields), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)


def cell(value: Any, fmt: str) -> str:
    """One formatted cell; None is '-'."""
    if value is None:
        return "-"
    if fmt == "pct":
        return f"{value * 100:.1f}%"
    if fmt == "s":
        return str(value)
    if fmt == "d01":
        return "yes" if value >= 0.5 else "no"
    return format(value, fmt)


def derived(row: dict[str, Any]) -> dict[str, Any]:
    """A results row with the combined display cells (CI, report with CI, patient c/f/a)."""
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


def table_columns(by: str) -> list[tuple[str, str, str]]:
    """(field, header, format) of every text column when grouping by `by`."""
    lead = [(by, by.upper(), "s")]
    if by != "model":
        lead.append(("doctor", "DOCTOR", "s"))
    return [*lead, *TEXT_COLUMNS]


def _render(rows: list[list[str]], headers: list[str]) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True))]
    lines.extend("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows)
    return lines


def format_table(rows: list[dict[str, Any]], by: str) -> str:
    """Plain-text table, one line per (group, doctor)."""
    if not rows:
        return "no finished consultations yet (run `bedside run` first)"
    cols = table_columns(by)
    cells = [[cell(derived(r).get(c), f) for c, _, f in cols] for r in rows]
    return "\n".join([*_render(cells, [h for _, h, _ in cols]), "", FOOTNOTE])


def format_consultations(rows: list[dict[str, Any]]) -> str:
    """Plain-text list, one line per consultation (JSON/CSV have every metric)."""
    if not rows:
        return "no consultations yet (run `bedside run` first)"
    cells = [[cell(r.get(c), f) for c, _, f in CONSULTATION_COLUMNS] for r in rows]
    return "\n".join(_render(cells, [h for _, h, _ in CONSULTATION_COLUMNS])
                     + ["", "--json or --csv print every metric and why one is undefined."])
