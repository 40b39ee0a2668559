"""The task results as plain text (`bedside results`, `bedside run`'s summary, the app):
one table per task (Agent Hospital's, RJUA's), one line per row of the task, group, doctor
and settings — accuracy (or a pooled share) with its Wilson 95 % interval, how many did not
reach the task, and the mean seconds a task took (a physician's form)."""

from __future__ import annotations

import textwrap
from typing import Any

from core.metrics.names import group_keys
from tui.text.safe import sanitize

def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def task_cells(row: dict[str, Any], keys: tuple[str, ...]) -> list[str]:
    """One row's cells, in `task_header` order."""
    ci = "-" if row.get("ci_low") is None else \
        f"{100 * row['ci_low']:.0f}-{100 * row['ci_high']:.0f}%"
    seconds = row.get("mean_seconds")
    return [*(sanitize(str(row.get(k) or "unknown")) for k in keys if k not in
              ("model", "doctor")), row["task"], sanitize(row["doctor"]),
            sanitize(row.get("settings") or "-"), str(row["n"]), _pct(row["accuracy"]), ci,
            str(row["not_reached"]), str(row["failed"]),
            "-" if seconds is None else f"{seconds:.1f}"]


def task_header(keys: tuple[str, ...], measure: str = "accuracy") -> list[str]:
    """The column headers (`measure`: 'accuracy' for verdicts, 'share' for pooled shares)."""
    return [*(k for k in keys if k not in ("model", "doctor")), "task", "doctor", "settings",
            "n", measure, f"{measure}_ci", "not_reached", "failed", "seconds"]


def format_task_table(rows: list[dict[str, Any]], by: str | tuple[str, ...] = "model") -> str:
    """The rows as aligned tables, one per task with its title and legend (the task's
    scorer's), '' when there are none."""
    from core.scorers.registry import task_scorer

    keys = group_keys(by)
    blocks = []
    for suite in dict.fromkeys(r.get("suite", "agenthospital") for r in rows):
        mine = [r for r in rows if r.get("suite", "agenthospital") == suite]
        scorer = task_scorer(suite)
        measure = "accuracy" if all(r.get("unit", "consultations") == "consultations"
                                    for r in mine) else "share"
        table = [task_header(keys, measure), *(task_cells(r, keys) for r in mine)]
        widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
        lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
                 for r in table]
        title = scorer.title if scorer is not None else suite
        legend = textwrap.wrap(scorer.legend, 120) if scorer is not None else []
        blocks.append("\n".join([f"-- {title} --", *lines, "", *legend]))
    return "\n\n".join(blocks)
