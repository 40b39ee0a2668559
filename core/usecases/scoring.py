"""Scoring finished consultations: the offline metrics and the LLM-based ones.

`compute_offline` fills in the offline metrics of finished consultations that lack them or
whose case changed since (e.g. the real case of an imported transcript was imported later).
`compute_llm` grades reports and asks the rating patient, storing each value the moment it
exists and skipping values already computed with the same model, parameters, prompt and
case. Both read and write through a store (`core.ports.runs`); superseded consultations
(redone on resume) are never scored.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field

from core.case import Case
from core.metrics.base import Metrics, undefined
from core.metrics.names import JOINT_NO_PATIENT
from core.ports.runs import RunsStore
from core.records.runs import ConsultationSummary
from core.usecases.case_lookup import Finder, case_finder
from core.usecases.rating_patient import Resolver, fixed

log = logging.getLogger("bedside.metrics")
Progress = Callable[[int, int, str, str], None]
ONE_STEP_NO_PATIENT = "one-step mode: no consultation for a patient to rate"
_ROLE_NAMES = {"judge": ("report_score",),
               "patient": ("pr_confidence", "pr_compliance", "pr_consult_again")}


def _cached(find: Finder) -> Callable[[str], tuple[Case, str] | None]:
    """(case, content hash) by id, each looked up and hashed once."""
    from core.caseio import case_hash

    seen: dict[str, tuple[Case, str] | None] = {}

    def get(case_id: str) -> tuple[Case, str] | None:
        if case_id not in seen:
            case = find(case_id)
            seen[case_id] = (case, case_hash(case)) if case is not None else None
        return seen[case_id]

    return get


def _one_step(c: ConsultationSummary) -> bool:
    from core.metrics.table import is_one_step

    return is_one_step({"origin": c.origin, "config_key": c.config_key})


def _no_patient(c: ConsultationSummary) -> str | None:
    """Why nobody can rate this consultation as its patient, or None."""
    from core.collaboration import is_joint

    if _one_step(c):
        return ONE_STEP_NO_PATIENT
    return JOINT_NO_PATIENT if is_joint(c.origin, c.config) else None


def compute_offline(store: RunsStore, *, run_id: str | None = None, recompute: bool = False,
                    find_case: Finder | None = None) -> int:
    """Compute and store the offline metrics of finished consultations that lack them, or
    whose case's content changed since they were computed (all of them with `recompute`),
    and the per-task verdicts of the consultations of other tasks (Agent Hospital's).
    Consultations whose case cannot be found are skipped. Returns how many were scored."""
    from core.metrics.compute import compute_metrics
    from core.metrics.names import OFFLINE_NAMES

    get = _cached(find_case or case_finder(store))
    done = 0
    # Which consultations lack a metric or have one computed on another version of their
    # case, read in one query: on 20,000 consultations reading every record and metric
    # hash to find none missing was most of `bedside results`' time.
    states = store.metric_states(OFFLINE_NAMES, run_id=run_id)
    for state in states:
        found = get(state.case_id)
        if found is None:
            continue
        case, digest = found
        if not recompute and state.computed_on == digest:
            continue  # complete and computed on this version of the case
        c = store.get_consultation(state.consultation_id)
        metrics = compute_metrics(case, store.get_transcript(c.id),
                                  one_step=_one_step(c) or None)
        store.save_metrics(c.id, metrics, case_hash=digest)
        done += 1
    from core.usecases.task_results import compute_task_metrics

    from core.solvers.registry import task_of

    return done + compute_task_metrics(store, run_id=run_id, recompute=recompute,
                                       tasks={task_of(s.solver) for s in states})


def offline_scorer(store: RunsStore, find_case: Finder | None = None) -> Callable[[str], bool]:
    """A function that computes and stores the offline metrics of one finished
    consultation, by id, on the current version of its case (False when the case cannot be
    found). A worker of `bedside run --workers` scores each consultation as it ends, so
    the results at the end of the run find them computed (`compute_offline` skips them)."""
    from core.metrics.compute import compute_metrics

    get = _cached(find_case or case_finder(store))

    def score(consultation_id: str) -> bool:
        c = store.get_consultation(consultation_id)
        found = get(c.case_id)
        if found is None:
            return False
        case, digest = found
        metrics = compute_metrics(case, store.get_transcript(c.id),
                                  one_step=_one_step(c) or None)
        store.save_metrics(c.id, metrics, case_hash=digest)
        return True

    return score


def scoring_as_they_end(store: RunsStore, progress: Any = None) -> Callable[..., None]:
    """A batch progress callback that also scores each consultation as it finishes (then
    calls `progress`), so the results at the end of the run find its metrics computed
    rather than computing them all after the last reply. The ICD vocabulary the metrics
    need (a second or two to build) is built in a thread meanwhile, while the run waits on
    its models; consultations that end before it is ready are left to `compute_offline`."""
    import threading

    from core.clinical_text import icd_index
    from core.errors import RunHalted

    warm = threading.Thread(target=icd_index, name="icd-index", daemon=True)
    warm.start()
    score = offline_scorer(store)

    def ended(done: int, total: int, outcome: Any = None) -> None:
        if outcome is not None and outcome.status == "finished" \
                and outcome.consultation_id and not warm.is_alive():
            try:
                score(outcome.consultation_id)
            except RunHalted:
                raise
            except Exception:  # left to the results, which compute what is missing
                log.exception("could not score %s", outcome.consultation_id)
        if progress is not None:
            progress(done, total, outcome)

    return ended


class ScoreSummary(BaseModel):
    """What `compute_llm` did."""

    total: int = Field(0, description="Consultations considered.")
    scored: int = Field(0, description="Consultations with a new value from the models and "
                        "no failed call.")
    skipped: int = Field(0, description="Consultations whose every value was already "
                         "stored with the same key.")
    no_report: int = Field(0, description="Judged 'no final report' (undefined, no call).")
    no_case: int = Field(0, description="Placeholder case: nothing to judge against.")
    no_rater: int = Field(0, description="Consultations whose own patient gives no ratings "
                          "(offline or human; `--rating-patient own`): undefined, no call.")
    failures: list[tuple[str, str]] = Field(default_factory=list, description="(consultation, "
                                            "reason) of each failed consultation.")


async def compute_llm(store: RunsStore, *, run_id: str | None = None, judge: Any = None,
                      judge_info: Any = None, patient: Any = None, patient_info: Any = None,
                      rating_patient: Resolver | None = None,
                      rating_patient_name: str | None = None, recompute: bool = False,
                      find_case: Finder | None = None, concurrency: int = 4,
                      progress: Progress | None = None) -> ScoreSummary:
    """Grade the reports (`judge`) and collect the patient ratings of the finished
    consultations of a run (all runs when `run_id` is None).

    `judge` / `patient` are `core.metrics.llmcall.Complete` callables; None skips that
    metric. The patient rates as the consultation's patient, biases included; instead of a
    fixed `patient`, `rating_patient` says per consultation who rates, or why nobody does
    (`core.usecases.rating_patient`; `rating_patient_name` is the name its values are stored
    under). Each value is stored the moment it exists, under its judge's name
    (`core.metrics.identity`: another judge's values are never replaced) and with the
    cache key of (metric, model, parameters, prompt hash, case); a consultation whose stored
    key matches is skipped unless `recompute`, and failed calls are tried again next time. A
    failure is recorded per consultation and the others go on. `progress(done, total,
    consultation, what)` is called after each consultation.
    """
    from core.metrics.identity import rating_patient as patient_name
    from core.metrics.llmcall import JudgeInfo

    get = _cached(find_case or case_finder(store))
    jobs = [(c, found) for c in store.list_consultations(run_id=run_id, status="finished")
            if (found := get(c.case_id)) is not None]
    summary = ScoreSummary(total=len(jobs))
    keys = _stored_keys(store, [c.id for c, _ in jobs])
    gate = asyncio.Semaphore(max(1, concurrency))
    rater = rating_patient or (fixed(patient, patient_info or JudgeInfo())
                               if patient is not None else None)
    judging = [("judge", judge, judge_info or JudgeInfo())] if judge is not None else []
    if rating_patient_name is None and patient is not None:
        info = patient_info or JudgeInfo()
        rating_patient_name = patient_name(info.model, info.params)
    done = 0

    async def one(c: ConsultationSummary, case: Case, digest: str) -> None:
        nonlocal done
        async with gate:
            try:
                mine = [*judging, *_rater(store, c, (rater, rating_patient_name), digest,
                                          summary)]
                what = await _score_one(store, c.id, case, digest, mine, keys.get(c.id, {}),
                                        recompute, summary)
            except Exception as err:  # isolate: this consultation fails, the others go on
                log.exception("scoring %s failed", c.id)
                what = f"failed ({type(err).__name__})"
                summary.failures.append((c.id, f"{type(err).__name__}: {err}"[:300]))
        done += 1
        if progress is not None:
            progress(done, summary.total, c.id, what)

    await asyncio.gather(*(one(c, case, digest) for c, (case, digest) in jobs))
    return summary


def _rater(store: RunsStore, c: ConsultationSummary,
           rating: tuple[Resolver | None, str | None], digest: str,
           summary: ScoreSummary) -> list[tuple[str, Any, Any]]:
    """The patient role for one consultation, or none: nobody asked for ratings; no
    patient in the consultation, or a patient that gives none (its three values stored
    as undefined, with the reason, under the rating patient's name). A one-step
    consultation, or a collaboration's joint result, has no patient in it: nobody to rate
    the doctor."""
    rater, name = rating
    if rater is None:
        return []
    why = _no_patient(c)
    got = rater(c) if why is None else why
    if isinstance(got, str):
        store.save_judged(c.id, name or "patient:unknown",
                          {n: undefined(got) for n in _ROLE_NAMES["patient"]},
                          case_hash=digest)
        summary.no_rater += why is None
        return []
    return [("patient", *got)]


def _stored_keys(store: RunsStore, ids: list[str]
                 ) -> dict[str, dict[str, dict[str, tuple[str | None, bool]]]]:
    """consultation → judge → metric → (cache key, failed) of the stored judged values."""
    wanted = set(ids)
    stored = store.judged_keys([n for role in _ROLE_NAMES.values() for n in role])
    return {cid: keys for cid, keys in stored.items() if cid in wanted}


def judge_of(role: str, info: Any) -> str:
    """The name a role's values are stored under (`core.metrics.identity`)."""
    from core.metrics.identity import rating_patient, report_judge

    if info.rater:
        return str(info.rater)
    make = report_judge if role == "judge" else rating_patient
    return make(info.model, info.params)


async def _score_one(store: RunsStore, cid: str, case: Case, digest: str,
                     roles: list[tuple[str, Any, Any]],
                     stored: dict[str, dict[str, tuple[str | None, bool]]],
                     recompute: bool, summary: ScoreSummary) -> str:
    """Run the roles still needed for one consultation; save each result at once, under
    its judge's name."""
    from core.metrics.compute import judge_report, llm_key, rate_by_patient

    transcript = store.get_transcript(cid)
    outcomes: list[str] = []

    async def run(role: str, complete: Any, info: Any) -> None:
        key, who = llm_key(role, info, case), judge_of(role, info)
        names, mine = _ROLE_NAMES[role], stored.get(who, {})
        if not recompute and all(mine.get(n, ("", True)) == (key, False) for n in names):
            outcomes.append("cached")
            return
        call = judge_report if role == "judge" else rate_by_patient
        got = await call(case, transcript, complete, info)
        store.save_judged(cid, who, got, case_hash=digest, cache_key=key)  # stored at once
        outcomes.append(_outcome_of(cid, got, summary))

    await asyncio.gather(*(run(*r) for r in roles))
    if outcomes and all(o == "cached" for o in outcomes):
        summary.skipped += 1
    elif "ok" in outcomes and "failed" not in outcomes:
        summary.scored += 1  # a failed one is counted in `failures`, never as scored
    return ", ".join(outcomes)


def _outcome_of(cid: str, got: Metrics, summary: ScoreSummary) -> str:
    from core.metrics.names import NO_CASE, NO_REPORT

    details = [d for _, d in got.values()]
    failed = next((d["reason"] for d in details if d.get("failed")), None)
    if failed:
        summary.failures.append((cid, failed))
        return "failed"
    if any(d.get("reason") == NO_CASE for d in details):
        summary.no_case += "report_score" in got
        return "no case record"
    if any(d.get("reason") == NO_REPORT for d in details):
        summary.no_report += 1
        return "no report"
    return "ok"
