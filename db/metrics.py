"""Metric rows of consultations: storing them, keeping them current, and the results tables.

`save_metrics` stores `{name: (value, detail)}` (one row per name, replaced on recompute)
with the case's content hash and, for LLM-based metrics, the cache key of what produced
them. `compute_offline` fills in the offline metrics of finished consultations that lack
them or whose case changed since (e.g. the real case of an imported transcript was
imported later). `compute_llm` grades reports and asks the rating patient, storing each
value the moment it exists and skipping values already computed with the same model,
parameters, prompt and case. `results_table` / `consultation_table` build the tables
(`core.metrics.table`) from finished consultations; superseded ones are left out.

Must not import: tui, textual, rich, litellm.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlite_utils import Database

from core.case import Case
from core.errors import InputError, NotFoundError
from core.metrics.base import Metrics, undefined
from core.metrics.names import GROUPINGS
from core.transcript import utc_now
from db.jsoncol import dumps, loads

__all__ = ["GROUPINGS", "ScoreSummary", "case_finder", "compute_llm", "compute_offline",
           "consultation_table", "get_metrics", "results_table", "save_metrics"]
log = logging.getLogger("bedside.metrics")
Finder = Callable[[str], Case | None]
Metric = tuple[Any, dict[str, Any]]  # (value, parsed detail)


def save_metrics(db: Database, consultation_id: str, metrics: Metrics, *,
                 case_hash: str | None = None, cache_key: str | None = None) -> int:
    """Insert or replace one row per metric; NaN/inf are stored as NULL. Returns the count."""
    now = utc_now()
    rows = []
    for name, (value, detail) in metrics.items():
        ok = value is not None and math.isfinite(float(value))
        rows.append({"consultation_id": consultation_id, "name": name,
                     "value": float(value) if ok else None, "detail": dumps(detail or {}),
                     "computed_at": now, "case_hash": case_hash, "cache_key": cache_key})
    with db.atomic():
        db["metrics"].upsert_all(rows, pk=("consultation_id", "name"))
    return len(rows)


def get_metrics(db: Database, consultation_id: str) -> Metrics:
    """All stored metrics of one consultation, `{name: (value, detail)}`."""
    return {r["name"]: (r["value"], loads(r["detail"], {})) for r in
            db["metrics"].rows_where("consultation_id = ?", [consultation_id], order_by="name")}


def case_finder(db: Database) -> Finder:
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


def _finished(db: Database, run_id: str | None) -> list[tuple[str, str, str | None, str | None]]:
    sql = ("SELECT id, case_id, origin, config_key FROM consultations WHERE status = 'finished'"
           + (" AND run_id = ?" if run_id else "") + " ORDER BY id")
    return db.execute(sql, [run_id] if run_id else []).fetchall()


def compute_offline(db: Database, *, run_id: str | None = None, recompute: bool = False,
                    find_case: Finder | None = None) -> int:
    """Compute and store the offline metrics of finished consultations that lack them, or
    whose case's content changed since they were computed (all of them with `recompute`).
    Consultations whose case cannot be found are skipped. Returns how many were scored."""
    from core.metrics.compute import compute_metrics
    from core.metrics.names import OFFLINE_NAMES
    from core.metrics.table import is_one_step
    from db.consultations import get_transcript

    get = _cached(find_case or case_finder(db))
    # consultation → (metric names, case hashes) of the stored offline metrics
    stored: dict[str, tuple[set[str], set[str | None]]] = defaultdict(lambda: (set(), set()))
    marks = ",".join("?" * len(OFFLINE_NAMES))
    for cid, name, digest in db.execute("SELECT consultation_id, name, case_hash FROM metrics"
                                        f" WHERE name IN ({marks})", OFFLINE_NAMES).fetchall():
        stored[cid][0].add(name)
        stored[cid][1].add(digest)
    done = 0
    for cid, case_id, origin, config_key in _finished(db, run_id):
        found = get(case_id)
        if found is None:
            continue
        case, digest = found
        names, hashes = stored.get(cid, (set(), set()))
        if not recompute and names >= set(OFFLINE_NAMES) and hashes == {digest}:
            continue  # complete and computed on this version of the case
        one_step = is_one_step({"origin": origin, "config_key": config_key})
        save_metrics(db, cid, compute_metrics(case, get_transcript(db, cid),
                                              one_step=one_step or None), case_hash=digest)
        done += 1
    return done


@dataclass
class ScoreSummary:
    """What `compute_llm` did."""

    total: int = 0  # consultations considered
    scored: int = 0  # with at least one new model call
    skipped: int = 0  # every value already stored with the same key
    no_report: int = 0  # judged 'no final report' (undefined, no call)
    no_case: int = 0  # placeholder case: nothing to judge against
    failures: list[tuple[str, str]] = field(default_factory=list)  # (consultation, reason)


async def compute_llm(db: Database, *, run_id: str | None = None, judge: Any = None,
                      judge_info: Any = None, patient: Any = None, patient_info: Any = None,
                      recompute: bool = False, find_case: Finder | None = None,
                      concurrency: int = 4,
                      progress: Callable[[int, int, str, str], None] | None = None
                      ) -> ScoreSummary:
    """Grade the reports (`judge`) and collect the patient ratings (`patient`) of the
    finished consultations of a run (all runs when `run_id` is None).

    `judge` / `patient` are `core.metrics.llmcall.Complete` callables; None skips that
    metric. Each value is stored the moment it exists, with the cache key of (metric, model,
    parameters, prompt hash, case); a consultation whose stored key matches is skipped
    unless `recompute`, and failed calls are tried again next time. A failure is recorded
    per consultation and the others go on. `progress(done, total, consultation, what)` is
    called after each consultation.
    """
    from core.metrics.llmcall import JudgeInfo

    get = _cached(find_case or case_finder(db))
    from core.metrics.table import is_one_step

    jobs = [(cid, found, is_one_step({"origin": origin, "config_key": key}))
            for cid, case_id, origin, key in _finished(db, run_id)
            if (found := get(case_id)) is not None]
    summary = ScoreSummary(total=len(jobs))
    keys = _stored_keys(db, [cid for cid, _, _ in jobs])
    gate = asyncio.Semaphore(max(1, concurrency))
    roles = [r for r in (("judge", judge, judge_info or JudgeInfo()),
                         ("patient", patient, patient_info or JudgeInfo())) if r[1] is not None]
    done = 0

    async def one(cid: str, case: Case, digest: str, one_step: bool) -> None:
        nonlocal done
        async with gate:
            try:
                # A one-step consultation has no patient in it: nobody to rate the doctor.
                mine = [r for r in roles if not (one_step and r[0] == "patient")]
                if len(mine) < len(roles):
                    save_metrics(db, cid, {n: undefined(ONE_STEP_NO_PATIENT)
                                           for n in _ROLE_NAMES["patient"]}, case_hash=digest)
                what = await _score_one(db, cid, case, digest, mine, keys.get(cid, {}),
                                        recompute, summary)
            except Exception as err:  # isolate: this consultation fails, the others go on
                log.exception("scoring %s failed", cid)
                what = f"failed ({type(err).__name__})"
                summary.failures.append((cid, f"{type(err).__name__}: {err}"[:300]))
        done += 1
        if progress is not None:
            progress(done, summary.total, cid, what)

    await asyncio.gather(*(one(cid, case, digest, one_step)
                           for cid, (case, digest), one_step in jobs))
    return summary


ONE_STEP_NO_PATIENT = "one-step mode: no consultation for a patient to rate"
_ROLE_NAMES = {"judge": ("report_score",),
               "patient": ("pr_confidence", "pr_compliance", "pr_consult_again")}


def _stored_keys(db: Database, ids: list[str]) -> dict[str, dict[str, tuple[str, bool]]]:
    """consultation → metric → (cache key, failed) of the stored LLM-based metrics."""
    out: dict[str, dict[str, tuple[str, bool]]] = defaultdict(dict)
    wanted = set(ids)
    for cid, name, key, detail in db.execute(
            "SELECT consultation_id, name, cache_key, detail FROM metrics WHERE name IN"
            " ('report_score', 'pr_confidence', 'pr_compliance', 'pr_consult_again')"
            ).fetchall():
        if cid in wanted:
            out[cid][name] = (key, bool(loads(detail, {}).get("failed")))
    return out


async def _score_one(db: Database, cid: str, case: Case, digest: str,
                     roles: list[tuple[str, Any, Any]], stored: dict[str, tuple[str, bool]],
                     recompute: bool, summary: ScoreSummary) -> str:
    """Run the roles still needed for one consultation; save each result at once."""
    from core.metrics.compute import judge_report, llm_key, rate_by_patient
    from db.consultations import get_transcript

    transcript = get_transcript(db, cid)
    outcomes: list[str] = []

    async def run(role: str, complete: Any, info: Any) -> None:
        key = llm_key(role, info, case)
        names = _ROLE_NAMES[role]
        if not recompute and all(stored.get(n, ("", True)) == (key, False) for n in names):
            outcomes.append("cached")
            return
        call = judge_report if role == "judge" else rate_by_patient
        got = await call(case, transcript, complete, info)
        save_metrics(db, cid, got, case_hash=digest, cache_key=key)  # stored at once
        outcomes.append(_outcome_of(cid, got, summary))

    await asyncio.gather(*(run(*r) for r in roles))
    if outcomes and all(o == "cached" for o in outcomes):
        summary.skipped += 1
    elif any(o in ("ok", "failed") for o in outcomes):
        summary.scored += 1
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


def _consultations(db: Database, run_id: str | None) -> list[dict[str, Any]]:
    where, params = ("AND c.run_id = ?", [run_id]) if run_id else ("", [])
    rows = list(db.query(
        "SELECT c.id, c.run_id, c.case_id, c.doctor, c.config, c.origin, c.config_key,"
        " c.status, c.end_reason, c.diagnosis, c.correct, c.doctor_turns, c.tests_ordered,"
        " c.prompt_tokens, c.completion_tokens, c.cost_usd, k.source, k.specialty,"
        " k.language, json_extract(k.data, '$.placeholder') AS placeholder"
        " FROM consultations c LEFT JOIN cases k ON k.id = c.case_id"
        f" WHERE c.status != 'superseded' {where} ORDER BY c.id", params))
    for r in rows:
        r["config"] = loads(r["config"], {}) or {}
    return rows


def _metric_rows(db: Database, ids: list[str]) -> dict[str, dict[str, Metric]]:
    out: dict[str, dict[str, Metric]] = defaultdict(dict)
    for chunk in (ids[i:i + 500] for i in range(0, len(ids), 500)):
        marks = ",".join("?" * len(chunk))
        for cid, name, value, detail in db.execute(
                "SELECT consultation_id, name, value, detail FROM metrics WHERE"
                f" consultation_id IN ({marks})", chunk).fetchall():
            out[cid][name] = (value, loads(detail, {}) or {})
    return out


def results_table(db: Database, *, by: str = "model",
                  run_id: str | None = None) -> list[dict[str, Any]]:
    """One row per (group, doctor): see `core.metrics.table.results_rows`."""
    if by not in GROUPINGS:
        raise InputError(f"cannot group by '{by}' (choose {', '.join(GROUPINGS)})",
                         field="--by")
    from core.metrics.table import results_rows

    rows = _consultations(db, run_id)
    metrics = _metric_rows(db, [r["id"] for r in rows if r["status"] == "finished"])
    return results_rows(rows, metrics, by)


def consultation_table(db: Database, *, run_id: str | None = None,
                       ids: list[str] | None = None) -> list[dict[str, Any]]:
    """One row per consultation (not superseded) with every metric; `ids` restricts it."""
    from core.metrics.table import consultation_rows

    rows = _consultations(db, run_id)
    if ids is not None:
        wanted = set(ids)
        rows = [r for r in rows if r["id"] in wanted]
    return consultation_rows(rows, _metric_rows(db, [r["id"] for r in rows]))
