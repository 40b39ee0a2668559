"""The task results as plain text (`bedside results`, `bedside run`'s summary, the app):
one line per task, group, doctor and settings — accuracy with its Wilson 95 % interval,
how many did not reach the task, and the mean seconds a task took (a physician's form)."""

from __future__ import annotations

from typing import Any

from core.metrics.names import group_keys
from tui.text.safe import sanitize

LEGEND = ("task: examination (right when suitable for the patient), diagnosis (one of "
          "eight), treatment (the level, right only with the right diagnosis); n: finished "
          "consultations; not_reached: the doctor gave no answer to the task (counted "
          "wrong); seconds: mean time on the task where recorded")


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


def task_header(keys: tuple[str, ...]) -> list[str]:
    """The column headers."""
    return [*(k for k in keys if k not in ("model", "doctor")), "task", "doctor", "settings",
            "n", "accuracy", "accuracy_ci", "not_reached", "failed", "seconds"]


def format_task_table(rows: list[dict[str, Any]], by: str | tuple[str, ...] = "model") -> str:
    """The rows as an aligned table with its legend ('' when there are none)."""
    if not rows:
        return ""
    keys = group_keys(by)
    table = [task_header(keys), *(task_cells(r, keys) for r in rows)]
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
             for r in table]
    return "\n".join(["-- Agent Hospital tasks --", *lines, "", LEGEND])
