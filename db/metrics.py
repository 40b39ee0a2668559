"""Metric rows of consultations, and the results tables built from them.

`save_metrics` stores `{name: (value, detail)}` (one row per name, replaced on recompute);
`compute_offline` fills in the offline metrics of finished consultations; `results_table`
aggregates by model, case source, specialty or language, with human, model and scripted
doctors in rows side by side.

Must not import: tui, textual, rich, litellm.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from sqlite_utils import Database

from core.case import Case
from core.errors import InputError, NotFoundError
from core.metrics.base import Metrics
from core.transcript import utc_now
from db.jsoncol import dumps, loads

GROUPINGS = ("model", "source", "specialty", "language")
MEAN_METRICS = ("info_completeness", "guidance_precision", "guidance_recall",
                "behaviour_standardization", "clinical_applicability", "diagnostic_logicality",
                "treatment_logicality", "pr_confidence", "pr_compliance", "pr_consult_again")


def save_metrics(db: Database, consultation_id: str, metrics: Metrics) -> int:
    """Insert or replace one row per metric; NaN/inf are stored as NULL. Returns the count."""
    now = utc_now()
    rows = []
    for name, (value, detail) in metrics.items():
        ok = value is not None and math.isfinite(float(value))
        rows.append({"consultation_id": consultation_id, "name": name,
                     "value": float(value) if ok else None, "detail": dumps(detail or {}),
                     "computed_at": now})
    with db.atomic():
        db["metrics"].upsert_all(rows, pk=("consultation_id", "name"))
    return len(rows)


def get_metrics(db: Database, consultation_id: str) -> Metrics:
    """All stored metrics of one consultation, `{name: (value, detail)}`."""
    return {r["name"]: (r["value"], loads(r["detail"], {})) for r in
            db["metrics"].rows_where("consultation_id = ?", [consultation_id], order_by="name")}


def case_finder(db: Database) -> Callable[[str], Case | None]:
    """Look cases up in the store, then in the bundled library (loaded once, on demand)."""
    bundled: dict[str, Case] = {}

    def find(case_id: str) -> Case | None:
        from db.cases import get_case

        try:
            return get_case(db, case_id)
        except NotFoundError:
            pass
        if not bundled:
            from core.caseio import load_bundled_cases

            bundled.update({c.id: c for c in load_bundled_cases()})
        return bundled.get(case_id)

    return find


def compute_offline(db: Database, *, run_id: str | None = None, recompute: bool = False,
                    find_case: Callable[[str], Case | None] | None = None) -> int:
    """Compute and store the offline metrics of finished consultations that lack them (all
    of them with `recompute`). Consultations whose case cannot be found are skipped.
    Returns how many consultations were scored."""
    from core.metrics.compute import compute_metrics
    from db.consultations import get_transcript

    find = find_case or case_finder(db)
    sql = ("SELECT id, case_id FROM consultations c WHERE status = 'finished'"
           + (" AND run_id = ?" if run_id else "")
           + ("" if recompute else " AND NOT EXISTS (SELECT 1 FROM metrics m WHERE"
              " m.consultation_id = c.id AND m.name = 'accuracy')"))
    done = 0
    for cid, case_id in db.execute(sql, [run_id] if run_id else []).fetchall():
        case = find(case_id)
        if case is None:
            continue
        save_metrics(db, cid, compute_metrics(case, get_transcript(db, cid)))
        done += 1
    return done


def _consultations(db: Database, run_id: str | None) -> list[dict[str, Any]]:
    where, params = ("WHERE c.run_id = ?", [run_id]) if run_id else ("", [])
    return list(db.query(
        "SELECT c.id, c.doctor, c.config, c.origin, c.config_key, c.status, c.diagnosis,"
        " c.correct, c.doctor_turns, c.tests_ordered, c.prompt_tokens, c.completion_tokens,"
        " c.cost_usd, k.source, k.specialty, k.language FROM consultations c"
        f" LEFT JOIN cases k ON k.id = c.case_id {where} ORDER BY c.id", params))


def doctor_kind(row: dict[str, Any]) -> str:
    """'human', 'scripted' or 'model' for a consultation row."""
    label = (row.get("doctor") or "").casefold()
    spec = (loads(row.get("config"), {}) or {}).get("doctor") if row.get("config") else None
    kind = spec.get("kind") if isinstance(spec, dict) else None
    if kind == "human" or label.startswith("human"):
        return "human"
    if kind == "scripted" or label == "scripted":
        return "scripted"
    return "model"


def _group_key(row: dict[str, Any], by: str) -> str:
    if by == "model":
        label = row.get("doctor") or "unknown"
        one_step = row.get("origin") == "one_step" or (row.get("config_key") or "").startswith(
            "one_step")
        return f"{label} [one-step]" if one_step else label
    return row.get(by) or "unknown"


def _metric_rows(db: Database, ids: list[str]) -> dict[str, dict[str, tuple[Any, Any]]]:
    out: dict[str, dict[str, tuple[Any, Any]]] = defaultdict(dict)
    for chunk in (ids[i:i + 500] for i in range(0, len(ids), 500)):
        marks = ",".join("?" * len(chunk))
        for cid, name, value, detail in db.execute(
                "SELECT consultation_id, name, value, detail FROM metrics WHERE"
                f" consultation_id IN ({marks})", chunk).fetchall():
            out[cid][name] = (value, detail)
    return out


def results_table(db: Database, *, by: str = "model",
                  run_id: str | None = None) -> list[dict[str, Any]]:
    """One row per (group, doctor kind): accuracy with Wilson CI, no-diagnosis count, turns,
    tests, tokens, cost, entity micro/macro F1, pathway means, report score with bootstrap
    CI and patient-reported means. Only finished consultations are scored; failed ones are
    counted in `failed`."""
    if by not in GROUPINGS:
        raise InputError(f"cannot group by '{by}' (choose {', '.join(GROUPINGS)})",
                         field="--by")
    rows = _consultations(db, run_id)
    metrics = _metric_rows(db, [r["id"] for r in rows if r["status"] == "finished"])
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[(_group_key(r, by), doctor_kind(r))].append(r)
    return [_summarise(by, key, members, metrics) for key, members in sorted(groups.items())]


def _summarise(by: str, key: tuple[str, str], members: list[dict[str, Any]],
               metrics: dict[str, dict[str, tuple[Any, Any]]]) -> dict[str, Any]:
    from core.metrics.accuracy import summarise_accuracy
    from core.metrics.entities import aggregate_entities
    from core.metrics.report_score import summarise_report_scores

    done = [r for r in members if r["status"] == "finished"]
    acc = summarise_accuracy(_outcome(r, metrics.get(r["id"], {})) for r in done)
    ent = aggregate_entities([c for r in done if (c := _entity_counts(metrics.get(r["id"], {})))])
    rep = summarise_report_scores(metrics.get(r["id"], {}).get("report_score", (None,))[0]
                                  for r in done)
    row: dict[str, Any] = {
        by: key[0], "doctor_kind": key[1], "consultations": len(members),
        "finished": len(done), "failed": sum(r["status"] in ("failed", "abandoned")
                                             for r in members),
        **{k: acc[k] for k in ("n", "correct", "accuracy", "ci_low", "ci_high",
                               "no_diagnosis", "undecided")},
        "mean_turns": _mean(r["doctor_turns"] for r in done),
        "mean_tests": _mean(r["tests_ordered"] for r in done),
        "tokens": sum((r["prompt_tokens"] or 0) + (r["completion_tokens"] or 0) for r in done),
        "cost_usd": sum(r["cost_usd"] or 0.0 for r in done),
        "entity_micro_f1": ent["micro_f1"], "entity_macro_f1": ent["macro_f1"],
        "entity_micro_precision": ent["micro_precision"],
        "entity_micro_recall": ent["micro_recall"],
    }
    for name in MEAN_METRICS:
        row[name] = _mean(metrics.get(r["id"], {}).get(name, (None,))[0] for r in done)
    row.update(report_score=rep["mean"], report_n=rep["n"], report_ci_low=rep["ci_low"],
               report_ci_high=rep["ci_high"])
    return row


def _outcome(r: dict[str, Any], m: dict[str, tuple[Any, Any]]) -> tuple[float | None, bool]:
    if "accuracy" in m:
        value, detail = m["accuracy"]
        return value, bool(loads(detail, {}).get("reached_diagnosis", True))
    reached = bool((r["diagnosis"] or "").strip())
    if not reached:
        return 0.0, False
    return (None if r["correct"] is None else float(r["correct"])), True


def _entity_counts(m: dict[str, tuple[Any, Any]]) -> tuple[int, int, int] | None:
    if "entity_f1" not in m:
        return None
    d = loads(m["entity_f1"][1], {})
    try:
        return int(d["tp"]), int(d["n_pred"]), int(d["n_true"])
    except (KeyError, TypeError, ValueError):
        return None


def _mean(values: Iterable[Any]) -> float | None:
    data = [float(v) for v in values if v is not None]
    return sum(data) / len(data) if data else None


async def compute_llm(db: Database, *, run_id: str | None = None, judge: Any = None,
                      judge_info: Any = None, patient: Any = None, patient_info: Any = None,
                      find_case: Callable[[str], Case | None] | None = None) -> int:
    """Compute and store report_score and pr_* for the finished consultations of a run.

    `judge` / `patient` are `core.metrics.llmcall.Complete` callables (None: that metric is
    stored as None with the reason). Returns how many consultations were scored.
    """
    from core.metrics.compute import compute_llm_metrics
    from db.consultations import get_transcript

    find = find_case or case_finder(db)
    sql = "SELECT id, case_id FROM consultations WHERE status = 'finished'" + (
        " AND run_id = ?" if run_id else "")
    done = 0
    for cid, case_id in db.execute(sql, [run_id] if run_id else []).fetchall():
        case = find(case_id)
        if case is None:
            continue
        got = await compute_llm_metrics(case, get_transcript(db, cid), judge=judge,
                                        judge_info=judge_info, patient=patient,
                                        patient_info=patient_info)
        save_metrics(db, cid, got)
        done += 1
    return done
