"""The results tables, from consultation rows and their stored metrics (no database here):
one row per (group, doctor) — `results_rows` — and one row per consultation —
`consultation_rows`. `db.metrics` queries the rows; the CLI and the app format them.

Rules:
- rows are grouped by one or more keys (model, a case label — source, specialty,
  language — or an experimental factor the caller has put on each consultation row, see
  `core.factors`), the doctor and the settings: every doctor keeps its own row within a
  group, so humans and models sit side by side, and consultations played under different
  settings (`settings`, the configuration in words, as `bedside runs` names it: 'max turns
  3') are never pooled; consultations of the same case under the same settings (several
  runs) are pooled, and `cases` says how many distinct cases the scored ones are; one-step
  (upper-bound) consultations are always a row of their own, tagged '[one-step]' and
  `mode: one_step`; a collaboration's joint results are rows of their own too (their
  doctor is the team, `mode: collaborate`), with no turns or tests (their doctors' own
  consultations, rows beside them, have those) and the rounds, consensus and rounds to
  consensus; groups are sorted with numbers in numeric order (turn budgets 5, 10, 20);
- only finished consultations are scored; failed and abandoned ones are counted in
  `failed`; superseded ones (redone on resume) must not be passed in at all;
- accuracy counts a consultation that never reached a diagnosis as wrong and also counts
  it in `no_diagnosis`; a consultation whose case is a placeholder (imported transcript
  without its record) is left out of accuracy and every metric and counted in
  `no_case_record`;
- a metric's mean skips undefined values; `no_report` counts consultations the judge could
  not grade because the doctor wrote no final report.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from core.collaboration import is_joint
from core.metrics.collaboration import NOT_COLLABORATION, distribution, rounds_needed
from core.metrics.names import (ALL_METRICS, COLLABORATION, COLLABORATION_NAMES,
                                CONSULTATION_FIELDS, GROUPINGS, MEAN_METRICS, NO_CASE,
                                NO_REPORT, ONE_STEP, ONE_STEP_TAG, RESULT_FIELDS, group_keys,
                                result_fields)

__all__ = ["CONSULTATION_FIELDS", "GROUPINGS", "RESULT_FIELDS", "consultation_rows",
           "doctor_kind", "doctor_label", "is_one_step", "result_fields", "results_rows"]
Metric = tuple[Any, dict[str, Any]]  # (value, parsed detail)


def doctor_kind(row: dict[str, Any]) -> str:
    """'human', 'scripted', 'replay', 'team' (a collaboration's joint result) or 'model'
    for a consultation row (config already parsed)."""
    label = (row.get("doctor") or "").casefold()
    spec = (row.get("config") or {}).get("doctor") if isinstance(row.get("config"), dict) else None
    kind = spec.get("kind") if isinstance(spec, dict) else None
    if kind == "team" or is_joint(row.get("origin"), row.get("config")):
        return "team"
    if kind == "human" or label.startswith("human"):
        return "human"
    if kind == "scripted" or label == "scripted":
        return "scripted"
    if kind == "replay" or label.startswith("replay:"):
        return "replay"
    return "model"


def is_one_step(row: dict[str, Any]) -> bool:
    """Whether a consultation row is a one-step (upper-bound) consultation."""
    return row.get("origin") == ONE_STEP or (row.get("config_key") or "").startswith(ONE_STEP)


def mode_of(row: dict[str, Any]) -> str:
    """'one_step', 'collaborate' (a collaboration's joint result) or 'interactive'."""
    if is_one_step(row):
        return ONE_STEP
    return COLLABORATION if is_joint(row.get("origin"), row.get("config")) else "interactive"


def doctor_label(row: dict[str, Any]) -> str:
    """The doctor as shown in a row: its label, tagged when one-step."""
    label = row.get("doctor") or "unknown"
    return label + ONE_STEP_TAG if is_one_step(row) else label


Group = tuple[tuple[str, ...], str, str]  # (the group keys' values, the doctor, settings)


def group_of(r: dict[str, Any], keys: tuple[str, ...]) -> tuple[str, ...]:
    """A consultation row's values of the grouping keys ('model' and 'doctor': the doctor
    as shown, one-step tagged)."""
    return tuple(doctor_label(r) if k in ("model", "doctor") else str(r.get(k) or "unknown")
                 for k in keys)


def natural(value: str) -> tuple[int, float, str]:
    """A sort key putting numbers in numeric order before words."""
    try:
        return (0, float(value), value)
    except ValueError:
        return (1, 0.0, value)


def _order(item: tuple[Group, Any]) -> tuple[Any, ...]:
    (values, doctor, settings), _ = item
    return (*(natural(v) for v in values), doctor, settings)


def results_rows(rows: list[dict[str, Any]], metrics: dict[str, dict[str, Metric]],
                 by: str | tuple[str, ...]) -> list[dict[str, Any]]:
    """One results row per (group, doctor), sorted; see the module doc for the rules."""
    keys = group_keys(by)
    groups: dict[Group, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[(group_of(r, keys), doctor_label(r), r.get("settings") or "")].append(r)
    return [_summarise(keys, key, members, metrics)
            for key, members in sorted(groups.items(), key=_order)]


def _summarise(keys: tuple[str, ...], key: Group, members: list[dict[str, Any]],
               metrics: dict[str, dict[str, Metric]]) -> dict[str, Any]:
    from core.metrics.accuracy import summarise_accuracy
    from core.metrics.entities import aggregate_entities
    from core.metrics.report_score import summarise_report_scores

    done = [r for r in members if r["status"] == "finished"]
    apart = [r for r in done if _no_case(r, metrics.get(r["id"], {}))]
    scored = [r for r in done if r not in apart]
    got = [metrics.get(r["id"], {}) for r in scored]
    acc = summarise_accuracy(_outcome(r, m) for r, m in zip(scored, got, strict=True))
    ent = aggregate_entities([c for m in got if (c := _entity_counts(m))])
    rep = summarise_report_scores(m.get("report_score", (None, {}))[0] for m in got)
    mode = mode_of(members[0])
    # A joint result has no turns or tests of its own: its doctors' rows have them.
    own = scored if mode != COLLABORATION else []
    row: dict[str, Any] = {
        **dict(zip(keys, key[0], strict=True)), "doctor": key[1], "settings": key[2],
        "doctor_kind": doctor_kind(members[0]), "mode": mode,
        "consultations": len(members), "finished": len(done),
        "failed": sum(r["status"] in ("failed", "abandoned") for r in members),
        "no_case_record": len(apart),
        **{k: acc[k] for k in ("n", "correct", "accuracy", "ci_low", "ci_high",
                               "no_diagnosis", "undecided")},
        "cases": len({r["case_id"] for r in scored}),
        "mean_turns": _mean(r["doctor_turns"] for r in own),
        "mean_tests": _mean(r["tests_ordered"] for r in own),
        "tokens": sum((r["prompt_tokens"] or 0) + (r["completion_tokens"] or 0) for r in done),
        "cost_usd": sum(r["cost_usd"] or 0.0 for r in done),
        "entity_micro_precision": ent["micro_precision"],
        "entity_micro_recall": ent["micro_recall"], "entity_micro_f1": ent["micro_f1"],
        "entity_macro_f1": ent["macro_f1"],
    }
    for name in (*MEAN_METRICS, *COLLABORATION_NAMES):
        row[name] = _mean(m.get(name, (None, {}))[0] for m in got)
    row["rounds_to_consensus"] = distribution(
        rounds_needed(*(m.get(n, (None, {}))[0] for n in COLLABORATION_NAMES)) for m in got)
    row.update(report_score=rep["mean"], report_n=rep["n"], report_ci_low=rep["ci_low"],
               report_ci_high=rep["ci_high"],
               no_report=sum(m.get("report_score", (None, {}))[1].get("reason") == NO_REPORT
                             for m in got))
    return {f: row.get(f) for f in result_fields(keys)}


def _no_case(r: dict[str, Any], m: dict[str, Metric]) -> bool:
    if r.get("placeholder"):
        return True
    return m.get("accuracy", (None, {}))[1].get("reason") == NO_CASE


def _outcome(r: dict[str, Any], m: dict[str, Metric]) -> tuple[float | None, bool]:
    if "accuracy" in m:
        value, detail = m["accuracy"]
        return value, bool(detail.get("reached_diagnosis", True))
    reached = bool((r["diagnosis"] or "").strip())  # metrics not computed (--no-compute)
    if not reached:
        return 0.0, False
    return (None if r["correct"] is None else float(r["correct"])), True


def _entity_counts(m: dict[str, Metric]) -> tuple[int, int, int] | None:
    if m.get("entity_f1", (None, {}))[0] is None:
        return None
    d = m["entity_f1"][1]
    try:
        return int(d["tp"]), int(d["n_pred"]), int(d["n_true"])
    except (KeyError, TypeError, ValueError):
        return None


def _mean(values: Iterable[Any]) -> float | None:
    data = [float(v) for v in values if v is not None]
    return sum(data) / len(data) if data else None


def consultation_rows(rows: list[dict[str, Any]],
                      metrics: dict[str, dict[str, Metric]]) -> list[dict[str, Any]]:
    """One row per consultation: ids, case, doctor, end, correctness and every metric (None
    when undefined; `reasons` says why, 'name: reason; …')."""
    out = []
    for r in rows:
        m = metrics.get(r["id"], {})
        acc_value, acc_detail = m.get("accuracy", (None, {}))
        reasons = "; ".join(f"{n}: {m[n][1]['reason']}" for n in ALL_METRICS
                            if n in m and m[n][0] is None and m[n][1].get("reason")
                            and m[n][1]["reason"] != NOT_COLLABORATION)
        row = {"consultation_id": r["id"], "doctor": doctor_label(r),
               "doctor_kind": doctor_kind(r),
               "mode": mode_of(r),
               "reached_diagnosis": bool((r.get("diagnosis") or "").strip()),
               "correct": acc_value, "case_record": not _no_case(r, m),
               "tokens": (r.get("prompt_tokens") or 0) + (r.get("completion_tokens") or 0),
               "reasons": reasons,
               **{k: r.get(k) for k in ("run_id", "case_id", "source", "specialty", "language",
                                        "settings", "status", "end_reason", "diagnosis",
                                        "doctor_turns", "tests_ordered", "cost_usd")},
               **{n: m.get(n, (None, {}))[0] for n in ALL_METRICS}}
        if acc_detail.get("reached_diagnosis") is False:
            row["reached_diagnosis"] = False
        out.append({f: row.get(f) for f in CONSULTATION_FIELDS})
    return out
