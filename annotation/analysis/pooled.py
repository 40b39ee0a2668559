"""The judge against the humans over all items at once: the "overall" block of a report.

Definition. Every (item, unit) pair becomes one unit of a pooled matrix. At a numeric level
each item is first rescaled to 0–1 by its own scale, (x - min) / (max - min), so that a
1–10 item and a 1–5 item weigh alike and the mean absolute error reads as a share of the
scale; at the nominal level labels are pooled as they are (accuracy only compares labels
within a unit). On the pooled matrix the judge is compared with the humans exactly as for
one item (correlations, QWK, MAE, bias, Bland–Altman, system level, leave-one-out ceiling),
and the alternative annotator test runs with the units of one cluster (one transcript, or
one CSV unit across items) averaged together, since the items of one transcript are not
independent evidence; bootstraps resample whole clusters for the same reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from annotation.analysis.annotator_test import alt_test
from annotation.analysis.data import Row, build_matrix, is_missing, to_number
from annotation.analysis.judge import judge_vs_humans

SEP = "\x1f"  # joins item and unit into one pooled unit id (cannot occur in CSV text)


def _rescaled(rows: list[Row], lo: float, hi: float, path: str | None) -> list[Row]:
    out = []
    for r in rows:
        value = None if is_missing(r.value) else (
            (to_number(r.value, path=path, line=r.line) - lo) / (hi - lo))
        out.append(Row(unit=f"{r.item}{SEP}{r.unit}", rater=r.rater, value=value, item="",
                       system=r.system, line=r.line, cluster=r.cluster or r.unit))
    return out


def pooled_rows(rows: Sequence[Row], items: Sequence[str], scales: Mapping[str, Sequence[float]],
                *, numeric: bool, path: str | None = None
                ) -> tuple[list[Row], list[str], list[dict[str, str]]]:
    """(pooled rows, items pooled, items left out with the reason)."""
    out: list[Row] = []
    used, excluded = [], []
    for item in items:
        mine = [r for r in rows if r.item == item]
        if numeric:
            scale = scales.get(item) or []
            lo, hi = (min(scale), max(scale)) if scale else (0.0, 0.0)
            if hi <= lo:
                excluded.append({"item": item, "reason": "its scale has a single value"})
                continue
            out += _rescaled(mine, lo, hi, path)
        else:
            out += [Row(unit=f"{r.item}{SEP}{r.unit}", rater=r.rater, value=r.value, item="",
                        system=r.system, line=r.line, cluster=r.cluster or r.unit)
                    for r in mine]
        used.append(item)
    return out, used, excluded


def pooled_part(rows: Sequence[Row], items: Sequence[str], scales: Mapping[str, Sequence[float]],
                *, judge: str, level: str, n_boot: int, seed: int | None, epsilon: float,
                q: float, path: str | None = None) -> dict[str, Any]:
    """The overall block: the judge against the humans over `items` pooled (see module)."""
    numeric = level != "nominal"
    pooled, used, excluded = pooled_rows(rows, items, scales, numeric=numeric, path=path)
    m = build_matrix(pooled, level="interval" if numeric else "nominal", path=path)
    note = ("each item rescaled to 0–1 by its scale, (x − min) / (max − min), before pooling"
            if numeric else "labels pooled as they are; accuracy compares labels within a unit")
    return {
        "items": used, "excluded": excluded, "rescaled": numeric, "note": note,
        "n_units": len(m.units), "n_clusters": len(set(m.clusters.values())),
        "judge": judge_vs_humans(m, judge, nominal=not numeric, n_boot=n_boot, seed=seed),
        "alt_test": alt_test(m, judge, nominal=not numeric, epsilon=epsilon, q=q),
    }
