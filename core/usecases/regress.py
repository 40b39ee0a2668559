"""Information versus outcome (`bedside results --regress`): per doctor, how diagnostic
quality goes with how much the doctor found out and how many turns it used.

Outcomes, per finished consultation on a case with a record: `accuracy` (right or not; a
consultation without a diagnosis is wrong), the diagnosis entity F1 and the report score (of
the judge the results table shows). Predictors: the share of the case's information the
doctor gathered (`info_completeness`) and the doctor turns used. One fit per doctor (and
settings, and `--by` group, as the results table's rows), outcome and predictor
(`core.metrics.regression`). One-step consultations have no dialogue to gather anything
in and are left out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, Field

from core.metrics.names import NO_CASE, public_name
from core.ports.runs import RunsStore
from core.usecases.judges import JudgeChoice

OUTCOMES = ("accuracy", "entity_f1", "report_score")
PREDICTORS = ("info_completeness", "doctor_turns")
BINARY = {"accuracy"}


def name(field: str) -> str:
    """The name users read (`doctor_turns` is `turns`, as in the results table)."""
    return "turns" if field == "doctor_turns" else public_name(field)


class RegressionReport(BaseModel):
    """Every fit, and the points behind them (for plots)."""

    by: list[str] = Field(description="The grouping keys (besides doctor and settings).")
    fits: list[dict[str, Any]] = Field(description="One row per group, doctor, outcome and "
                                       "predictor: n, slope, ci_low, ci_high, intercept, r2, "
                                       "method, reason (public metric names).")
    points: list[dict[str, Any]] = Field(description="One row per consultation: its group, "
                                         "doctor, settings, and every outcome and predictor.")
    choice: JudgeChoice = Field(description="The judges the report score comes from.")


def _point(row: dict[str, Any], m: dict[str, Any]) -> dict[str, Any] | None:
    """A consultation's outcomes and predictors, or None when it cannot count."""
    if row["status"] != "finished" or row.get("placeholder") or \
            m.get("accuracy", (None, {}))[1].get("reason") == NO_CASE:
        return None
    out: dict[str, Any] = {name: m.get(name, (None, {}))[0] for name in OUTCOMES}
    out["info_completeness"] = m.get("info_completeness", (None, {}))[0]
    out["doctor_turns"] = row.get("doctor_turns")
    return out


def _labels(keys: tuple[str, ...], values: tuple[str, ...]) -> dict[str, str]:
    """The group's values by key, but the doctor's (the `doctor` field names it)."""
    return {k: v for k, v in zip(keys, values, strict=True) if k not in ("model", "doctor")}


def regressions(store: RunsStore, *, by: str | tuple[str, ...] = "model",
                run_id: str | None = None, judges: Iterable[str] = ()) -> RegressionReport:
    """The fits of every doctor (see the module doc)."""
    from core.factors import parse_by
    from core.metrics.regression import fit
    from core.metrics.table import doctor_label, group_of, is_one_step
    from core.usecases.results import consultation_rows, judged_metrics, with_factors

    keys = parse_by(by if isinstance(by, str) else ",".join(by))
    rows = [r for r in with_factors(consultation_rows(store, run_id), keys)
            if not is_one_step(r)]
    metrics, choice = judged_metrics(store, [r["id"] for r in rows
                                             if r["status"] == "finished"], judges)
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = defaultdict(list)
    points = []
    for r in rows:
        point = _point(r, metrics.get(r["id"], {}))
        if point is None:
            continue
        group = (group_of(r, keys), doctor_label(r), r.get("settings") or "")
        groups[group].append(point)
        points.append({**_labels(keys, group[0]), "doctor": group[1],
                       "settings": group[2], "consultation_id": r["id"],
                       **{name(k): v for k, v in point.items()}})
    fits = []
    for (values, doctor, settings), mine in sorted(groups.items()):
        for outcome in OUTCOMES:
            for predictor in PREDICTORS:
                result = fit([p[predictor] for p in mine], [p[outcome] for p in mine],
                             binary=outcome in BINARY)
                fits.append({**_labels(keys, values), "doctor": doctor,
                             "settings": settings, "outcome": name(outcome),
                             "predictor": name(predictor), **result.as_dict()})
    return RegressionReport(by=list(keys), fits=fits, points=points, choice=choice)
