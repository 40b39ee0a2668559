"""The results tables and the app's Baseline tab, from ONE rule set.

`results_table` (one row per group and doctor), `consultation_table` (one row per
consultation) and `baseline` (one line per doctor) all read the same consultation rows —
not superseded, joined with their case's source, specialty, language and placeholder flag
— and the rules of `core.metrics.table`: only finished consultations are scored, one-step
upper bounds are rows of their own, placeholder cases are left out of accuracy, undecided
verdicts are left out of N. `summarise` is what `bedside run` prints at the end of a run.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from core.metrics.names import COLLABORATION_NAMES, MEAN_METRICS, NO_CASE, ONE_STEP
from core.ports.runs import RunsStore
from core.metrics.base import Metrics
from core.records.runs import BaselineRow
from core.usecases.judges import JudgeChoice
from core.usecases.run_listing import settings_of

#: The metrics whose details the results table reads (`core.metrics.table`: why accuracy
#: is undefined and whether a diagnosis was reached, the entity counts, why there is no
#: report score); the others' values only.
TABLE_DETAILS = ("accuracy", "entity_f1", "report_score")
#: Every metric the results table reads (`core.metrics.table.results_rows`): the others
#: (entity precision and recall, which the table derives from entity_f1's counts) stay in
#: the database.
TABLE_NAMES = (*TABLE_DETAILS, *MEAN_METRICS, *COLLABORATION_NAMES)

# What a consultation row carries besides its own columns: its case's labels.
_CASE_FIELDS = ("source", "specialty", "language")


def consultation_rows(store: RunsStore, run_id: str | None = None,
                      status: str | None = None) -> list[dict[str, Any]]:
    """Consultations (not superseded; of one run, in one status, when given) as the table
    rules read them: the stored columns, config parsed, and the case's source, specialty,
    language and placeholder flag."""
    labels = store.case_labels()
    words: dict[str | None, str] = {}  # settings in words, once per configuration
    rows = store.consultation_rows(run_id=run_id, status=status)
    for row in rows:
        label = labels.get(row["case_id"])
        for name in _CASE_FIELDS:
            row[name] = getattr(label, name) if label is not None else None
        row["placeholder"] = label.placeholder if label is not None else None
        # The configuration in words, as `bedside runs` names it: rows of the results
        # table never pool consultations played under different settings.
        key = row.pop("settings_key")
        if key not in words:
            words[key] = ", ".join(settings_of(row["config"])) \
                if isinstance(row["config"], dict) else ""
        row["settings"] = words[key]
    return rows


def metrics_by_consultation(store: RunsStore, ids: list[str],
                            names: tuple[str, ...] | None = None,
                            details: tuple[str, ...] | None = None) -> dict[str, Metrics]:
    """consultation → metric name → (value, detail) of the stored metrics (the details of
    `details` only, when given)."""
    return store.metrics_by_consultation(ids, names, details=details) if ids else {}


def with_factors(rows: list[dict[str, Any]], keys: tuple[str, ...]) -> list[dict[str, Any]]:
    """Consultation rows with the value of each experimental factor (and configuration
    label, such as the hospital's department) among `keys`, read from the row's stored
    configuration description (`core.factors.read_value`)."""
    from core.factors import CONFIG_LABELS, FACTORS, read_value

    wanted = [k for k in keys if (k in FACTORS or k in CONFIG_LABELS)
              and k not in ("doctor", "model")]
    for r in rows:
        for key in wanted:
            r[key] = read_value(key, r.get("config"))
    return rows


def judged_metrics(store: RunsStore, ids: list[str], judges: Iterable[str] = (),
                   details: tuple[str, ...] | None = None,
                   names: tuple[str, ...] | None = None
                   ) -> tuple[dict[str, Metrics], JudgeChoice]:
    """The stored metrics of these consultations (of these `names`, when given), the
    LLM-judged ones from one judge of each kind (`core.usecases.judges`: the one named in
    `judges`, else the only or the busiest), and that choice. With `details`, only those
    metrics' details are read (`RunsStore.metrics_by_consultation`)."""
    from core.usecases.judges import choose, chosen_values, with_judged

    choice = choose(store, ids, judges)
    metrics = metrics_by_consultation(store, ids, names, details=details)
    return with_judged(metrics, chosen_values(store, ids, choice)), choice


def results_report(store: RunsStore, *, by: str | tuple[str, ...] = "model",
                   run_id: str | None = None, judges: Iterable[str] = (),
                   rows: list[dict[str, Any]] | None = None
                   ) -> tuple[list[dict[str, Any]], JudgeChoice]:
    """One row per (group, doctor): see `core.metrics.table.results_rows`. `by` is one
    key or several ('doctor_bias,max_turns', or a tuple): 'model', a case label or any
    experimental factor (`core.factors.grouping_keys`). Also the judges the report score
    and the patient ratings come from (each row names them). `rows`: the run's
    `consultation_rows`, when the caller has read them (`bedside results` reads them once
    for this table and `task_results`)."""
    from core.factors import parse_by
    from core.metrics.table import results_rows
    from core.usecases.judges import label_rows
    from core.usecases.task_results import is_task

    keys = parse_by(by if isinstance(by, str) else ",".join(by))
    # The other tasks' consultations have rows of their own (`task_results`).
    read = consultation_rows(store, run_id) if rows is None else rows
    rows = [r for r in with_factors(read, keys) if not is_task(r)]
    metrics, choice = judged_metrics(store, [r["id"] for r in rows
                                             if r["status"] == "finished"], judges,
                                     details=TABLE_DETAILS, names=TABLE_NAMES)
    return label_rows(results_rows(rows, metrics, keys), choice), choice


def results_table(store: RunsStore, *, by: str | tuple[str, ...] = "model",
                  run_id: str | None = None, judges: Iterable[str] = ()
                  ) -> list[dict[str, Any]]:
    """The rows of `results_report`."""
    return results_report(store, by=by, run_id=run_id, judges=judges)[0]


def task_results(store: RunsStore, *, by: str | tuple[str, ...] = "model",
                 run_id: str | None = None, rows: list[dict[str, Any]] | None = None
                 ) -> list[dict[str, Any]]:
    """The other tasks' rows (`core.usecases.task_results`): one per task, group, doctor
    and settings, from the stored task verdicts (`rows` as `results_report` takes them)."""
    from core.factors import parse_by
    from core.usecases.task_results import is_task, task_rows

    keys = parse_by(by if isinstance(by, str) else ",".join(by))
    read = consultation_rows(store, run_id) if rows is None else rows
    rows = [r for r in with_factors(read, keys) if is_task(r)]
    if not rows:
        return []  # the task scorers are not even loaded
    from core.scorers.registry import task_metric_names

    done = [r["id"] for r in rows if r["status"] == "finished"]
    metrics = store.metrics_by_consultation(done, task_metric_names()) if done else {}
    return task_rows(rows, metrics, keys)


def consultation_report(store: RunsStore, *, run_id: str | None = None,
                        ids: list[str] | None = None, judges: Iterable[str] = (),
                        by: str | tuple[str, ...] = ()
                        ) -> tuple[list[dict[str, Any]], JudgeChoice]:
    """One row per consultation (not superseded) with every metric (the LLM-judged ones
    from the chosen judges); `ids` restricts it. The experimental factors among `by` are
    added to each row (as `results_table` reads them), so a results row's consultations
    can be found by its group."""
    from core.factors import FACTORS
    from core.metrics.names import group_keys
    from core.metrics.table import consultation_rows as table_rows
    from core.usecases.judges import label_rows

    rows = consultation_rows(store, run_id)
    if ids is not None:
        wanted = set(ids)
        rows = [r for r in rows if r["id"] in wanted]
    metrics, choice = judged_metrics(store, [r["id"] for r in rows], judges)
    out = label_rows(table_rows(rows, metrics), choice)
    keys = tuple(k for k in (group_keys(by) if by else ()) if k in FACTORS)
    if keys:
        factors = {r["id"]: r for r in with_factors(rows, keys)}
        for row in out:
            row.update({k: factors[row["consultation_id"]][k] for k in keys
                        if k in factors[row["consultation_id"]]})
    return out, choice


def consultation_table(store: RunsStore, *, run_id: str | None = None,
                       ids: list[str] | None = None, judges: Iterable[str] = (),
                       by: str | tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """The rows of `consultation_report`."""
    return consultation_report(store, run_id=run_id, ids=ids, judges=judges, by=by)[0]


def summarise(store: RunsStore, run_id: str, by: str = "model") -> list[dict[str, Any]]:
    """Store the offline metrics of the run's finished consultations; its results table."""
    from core.usecases.scoring import compute_offline

    compute_offline(store, run_id=run_id)
    return results_table(store, by=by, run_id=run_id)


def baseline(store: RunsStore, humans_only: bool = True) -> list[BaselineRow]:
    """Accuracy (Wilson 95 % CI), mean turns, tests and minutes per doctor, counted exactly
    as `results_table(by="model")` counts them (its N, correct, accuracy and interval).

    Physicians (`human:NAME`) by default; with `humans_only=False` models too. One-step
    upper bounds are left out (another measure), and so is a doctor with no scored
    consultation yet (finished on a case with a record). Only the stored accuracy metric is
    read (the other metrics do not change these columns), so this stays cheap enough for
    the home screen; metrics not yet computed fall back on the stored verdict, as the
    results table does.
    """
    from core.metrics.table import is_one_step, results_rows
    from core.usecases.task_results import is_task

    # Only finished consultations are scored, so only they can change these columns; the
    # baseline is the interactive consultation's (other tasks have their own rows).
    rows = [r for r in consultation_rows(store, status="finished")
            if not is_one_step(r) and not is_task(r) and (not humans_only or
                                       (r["doctor"] or "").startswith("human:"))]
    metrics = metrics_by_consultation(store, [r["id"] for r in rows], ("accuracy",))
    minutes = _mean_minutes(rows, metrics)
    out = []
    for res in results_rows(rows, metrics, "model"):
        if res["mode"] == ONE_STEP or res["finished"] - res["no_case_record"] <= 0:
            continue
        # A physician who played under other settings (fewer turns) has a line per setting.
        label = res["doctor"] + (f" ({res['settings']})" if res["settings"] else "")
        out.append(BaselineRow(
            doctor=label, n=res["n"], correct=res["correct"],
            accuracy=res["accuracy"], ci_low=res["ci_low"], ci_high=res["ci_high"],
            mean_turns=res["mean_turns"], mean_tests=res["mean_tests"],
            mean_minutes=minutes.get(res["doctor"])))
    return sorted(out, key=lambda b: b.doctor)


def _mean_minutes(rows: list[dict[str, Any]],
                  metrics: dict[str, Metrics]) -> dict[str, float]:
    """Mean wall-clock minutes of each doctor's scored consultations (those the results
    table counts: finished, on a case with a record), where both times are stored."""
    from core.metrics.table import doctor_label

    spans: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        detail = metrics.get(r["id"], {}).get("accuracy", (None, {}))[1]
        if r["status"] != "finished" or r.get("placeholder") or \
                detail.get("reason") == NO_CASE:
            continue
        span = _minutes(r.get("started_at"), r.get("ended_at"))
        if span is not None:
            spans[doctor_label(r)].append(span)
    return {doctor: sum(v) / len(v) for doctor, v in spans.items()}


def _minutes(start: str | None, end: str | None) -> float | None:
    """Minutes between two ISO timestamps, or None when either is missing or unreadable."""
    try:
        begin = datetime.fromisoformat(start.replace("Z", "+00:00")) if start else None
        finish = datetime.fromisoformat(end.replace("Z", "+00:00")) if end else None
    except ValueError:
        return None
    if begin is None or finish is None:
        return None
    return (finish - begin).total_seconds() / 60
