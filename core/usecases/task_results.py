"""Results of the tasks other than the interactive consultation (Agent Hospital's
examination, diagnosis and treatment level; RJUA's diagnostic reasoning and single-turn QA):
their values computed and stored by each task's scorer, and one row per row of the task
(`TaskScorer.rows`), group, doctor and settings with a Wilson 95 % interval. A verdict row
counts consultations; a share row (RJUA's test precision and recall, the treatment covered)
pools the counts behind each value (tests ordered, relevant tests, requirements), its
`unit` saying which.

The rules are the results table's (`core.usecases.results`): only finished consultations
are scored, a consultation whose task was not reached counts as wrong (verdict rows) and in
`not_reached`,
consultations played under different settings are never pooled (the `settings` column, as
`bedside runs` names them), and the interactive consultation's rows never hold a task's
consultations (`is_task`).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from core.metrics.base import Metrics
from core.metrics.stats import wilson_interval
from core.metrics.table import doctor_label, group_of, natural
from core.ports.runs import RunsStore
from core.records.runs import ConsultationSummary
from core.scorers.base import Finished, TaskRow
from core.solvers.registry import INTERACTIVE, task_of

TASK_FIELDS = ("task", "doctor", "settings", "n", "correct", "accuracy", "ci_low", "ci_high",
               "not_reached", "failed", "mean_seconds", "unit", "suite")


def task_of_config(config: Any) -> str:
    """The task of a stored configuration description."""
    return task_of(config.get("solver")) if isinstance(config, dict) else INTERACTIVE


def is_task(row: dict[str, Any] | ConsultationSummary) -> bool:
    """Whether a consultation (row or record) played a task other than the interactive
    consultation."""
    config = row.get("config") if isinstance(row, dict) else row.config
    return task_of_config(config) != INTERACTIVE


def compute_task_metrics(store: RunsStore, *, run_id: str | None = None,
                         recompute: bool = False, tasks: set[str] | None = None) -> int:
    """Store the task verdicts of finished task consultations that lack them or whose case
    changed since; how many were scored. Cases are the store's, else the bundled library's
    (RJUA's tasks are played on both). `tasks`: the tasks of the finished consultations,
    when the caller has read them (else they are read)."""
    if tasks is None:
        tasks = {task_of(state.solver) for state in store.metric_states((), run_id=run_id)}
    if not tasks - {INTERACTIVE}:
        return 0  # nothing to score: the scorers are not even loaded
    from core.caseio import case_hash
    from core.scorers.registry import task_scorer
    from core.usecases.case_lookup import case_finder

    find = case_finder(store)
    done = 0
    for task in sorted(tasks - {INTERACTIVE}):
        scorer = task_scorer(task)
        if scorer is None:
            continue
        for state in store.metric_states(scorer.names, run_id=run_id):
            if task_of(state.solver) != task:
                continue
            case = find(state.case_id)
            if case is None:
                continue
            digest = case_hash(case)
            if not recompute and state.computed_on == digest:
                continue
            c = store.get_consultation(state.consultation_id)
            done += _score_task(store, scorer, case, c, digest)
    return done


def _score_task(store: RunsStore, scorer: Any, case: Any, c: ConsultationSummary,
                digest: str) -> int:
    """Store one task consultation's verdicts; 1."""
    done = Finished(store.get_transcript(c.id), str(c.config.get("solver", INTERACTIVE)), c.id)
    store.save_metrics(c.id, scorer.compute(case, done), case_hash=digest)
    return 1


def task_rows(rows: list[dict[str, Any]], metrics: dict[str, Metrics],
              keys: tuple[str, ...]) -> list[dict[str, Any]]:
    """One row per task row (the task scorer's `rows`), group, doctor and settings of task
    consultation rows (with the group keys' values on them) and their stored task metrics."""
    from core.scorers.registry import task_scorer

    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[(task_of_config(r.get("config")), group_of(r, keys), doctor_label(r),
                r.get("settings") or "")].append(r)
    out = []
    for (suite, values, doctor, settings), members in sorted(
            groups.items(), key=lambda kv: (kv[0][0], *(natural(v) for v in kv[0][1]),
                                            kv[0][2], kv[0][3])):
        scorer = task_scorer(suite)
        for spec in scorer.rows if scorer is not None else ():
            out.append({**_row(spec, dict(zip(keys, values, strict=True)), doctor, settings,
                               members, metrics), "suite": suite})
    return out


def _row(spec: TaskRow, group: dict[str, str], doctor: str, settings: str,
         members: list[dict[str, Any]], metrics: dict[str, Metrics]) -> dict[str, Any]:
    """A verdict row (unit 'consultations') counts consultations, one not reached counted
    wrong; a share row pools its values' `hits` over their `of` (tests, requirements), one
    not reached adding nothing to them."""
    finished = [r for r in members if r["status"] == "finished"]
    got = [metrics.get(r["id"], {}) for r in finished]
    decided = [m[spec.metric] for m in got if spec.metric in m]
    not_reached = sum(1 for value, _ in decided if value is None)
    if spec.unit == "consultations":
        n, correct = len(decided), sum(1 for value, _ in decided if value == 1.0)
    else:
        n = sum(int(d.get("of", 0)) for value, d in decided if value is not None)
        correct = sum(int(d.get("hits", 0)) for value, d in decided if value is not None)
    ci = wilson_interval(correct, n) if n else None
    seconds = [float(v) for m in got
               if (v := m.get(f"{spec.metric}_seconds", (None, {}))[0]) is not None]
    return {"task": spec.label, **group, "doctor": doctor, "settings": settings, "n": n,
            "correct": correct, "accuracy": correct / n if n else None,
            "ci_low": ci[0] if ci else None, "ci_high": ci[1] if ci else None,
            "not_reached": not_reached,
            "failed": sum(r["status"] in ("failed", "abandoned") for r in members),
            "mean_seconds": sum(seconds) / len(seconds) if seconds else None,
            "unit": spec.unit}


def score_consultation(store: RunsStore, consultation_id: str) -> Metrics:
    """One task consultation's verdicts and times, computed and stored now ({} for a
    consultation of the interactive task)."""
    from core.caseio import case_hash
    from core.scorers.registry import task_scorer

    from core.errors import NotFoundError
    from core.usecases.case_lookup import case_finder

    c = store.get_consultation(consultation_id)
    scorer = task_scorer(task_of_config(c.config))
    if scorer is None:
        return {}
    case = case_finder(store)(c.case_id)
    if case is None:
        raise NotFoundError(f"no case '{c.case_id}'")
    values = scorer.compute(case, Finished(store.get_transcript(c.id),
                                           str(c.config.get("solver", INTERACTIVE)), c.id))
    store.save_metrics(c.id, values, case_hash=case_hash(case))
    return values
