"""Batch runs end to end, headless: create or resume a run, execute it, summarise it.

One orchestration shared by `bedside run` and the app's in-app batches, so both store the
same run configuration (`bedside run --resume` works on either), resume the same way and
always leave the run with a final status: `execute` sets it in a `finally` — finished,
cancelled (a consultation or the batch was cancelled), interrupted (the task was
cancelled: Ctrl+C, SIGTERM, the app quitting) or failed (a bug). Only a process killed
outright (SIGKILL, power loss) leaves a run 'running'; resuming it then marks the
consultations it left 'running' as abandoned, redoes them and supersedes their rows.

A run's stored config: {"cases": [ids], "case_hashes": {id: content hash},
"configurations": [ConsultationConfig.describe()], "concurrency": n,
"model_limits": {model: n}, "one_step": bool}.

Must not import: tui, textual, rich, litellm.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlite_utils import Database

from core.batch import INTERACTIVE, Job, JobOutcome, Plan, Progress, run_batch
from core.case import Case
from core.config import ConsultationConfig
from core.caseio import case_hash
from core.engine import ONE_STEP
from core.errors import InputError
from core.events import Event, EventSink
from core.llm import LLMClient
from core.provenance import run_provenance
from db.cases import list_cases, save_cases
from db.consultations import Recorder, abandon_interrupted, done_keys
from db.runs import create_run, get_run, set_run_status


@dataclass
class RunSpec:
    """A run ready to execute: its id and everything needed to rebuild its jobs."""

    run_id: str
    cases: list[Case]
    configs: list[ConsultationConfig]
    concurrency: int = 8
    model_limits: dict[str, int] = field(default_factory=dict)
    one_step: bool = False
    changed_cases: list[str] = field(default_factory=list)  # content differs since creation
    abandoned: int = 0  # consultations a killed process left running, to be redone

    def jobs(self) -> list[Job]:
        """Every (case, configuration) consultation, then the one-step upper bounds of the
        model doctors when asked for."""
        out = [Job(case, cfg, INTERACTIVE) for cfg in self.configs for case in self.cases]
        if self.one_step:
            out += [Job(case, cfg, ONE_STEP) for cfg in self.configs
                    if cfg.doctor.kind == "llm" for case in self.cases]
        return out


def _save_new_cases(db: Database, cases: list[Case]) -> None:
    """Store the run's cases (foreign keys) unless the store already has them unchanged."""
    stored = dict(db.execute("SELECT id, content_hash FROM cases").fetchall())
    save_cases(db, [c for c in cases if stored.get(c.id) != case_hash(c)])


def create(db: Database, cases: list[Case], configs: list[ConsultationConfig], *,
           concurrency: int, model_limits: dict[str, int] | None = None,
           one_step: bool = False, name: str | None = None, origin: str = "cli") -> RunSpec:
    """Record a new run (status 'running') and its cases; return it ready to execute."""
    if not cases:
        raise InputError("no case to run", field="--cases")
    if one_step and not any(c.doctor.kind == "llm" for c in configs):
        raise InputError("one-step mode needs a model doctor", field="--one-step")
    _save_new_cases(db, cases)
    limits = dict(model_limits or {})
    provenance = {**run_provenance(configs), "origin": origin}
    run_id = create_run(db, name=name, provenance=provenance, config={
        "cases": [c.id for c in cases], "case_hashes": {c.id: case_hash(c) for c in cases},
        "configurations": [c.describe() for c in configs], "concurrency": concurrency,
        "model_limits": limits, "one_step": one_step})
    return RunSpec(run_id, cases, configs, concurrency, limits, one_step)


def _config_from(described: dict[str, Any]) -> ConsultationConfig:
    data = {k: v for k, v in described.items() if k != "config_key"}
    return ConsultationConfig.model_validate(data)


def resume(db: Database, run_ref: str, *, library: Iterable[Case] = ()) -> RunSpec:
    """The stored run `run_ref` (id or name), rebuilt for `execute`.

    Each case is taken from the store (the version the run saved), else from `library`
    (e.g. the bundled cases). Cases whose content changed since the run was created are
    listed in `changed_cases`. Consultations left 'running' by a process that died are
    marked abandoned (and counted in `abandoned`): they will be redone.
    """
    row = get_run(db, run_ref)
    saved = row["config"] or {}
    if "configurations" not in saved or "cases" not in saved:
        raise InputError(f"run '{row['id']}' did not record its configurations (made by an "
                         "older version); start a new run instead", field="--resume")
    try:
        configs = [_config_from(c) for c in saved["configurations"]]
    except ValueError as err:
        raise InputError(f"run '{row['id']}' has a configuration this version cannot read "
                         f"({str(err).splitlines()[0]})", field="--resume") from None
    known = {c.id: c for c in library}
    known.update({c.id: c for c in list_cases(db)})
    missing = [cid for cid in saved["cases"] if cid not in known]
    if missing:
        raise InputError(f"{len(missing)} case(s) of this run are no longer available: "
                         f"{', '.join(missing[:5])}", field="--resume")
    cases = [known[cid] for cid in saved["cases"]]
    hashes = saved.get("case_hashes") or {}
    changed = [c.id for c in cases if c.id in hashes and hashes[c.id] != case_hash(c)]
    return RunSpec(row["id"], cases, configs, int(saved.get("concurrency") or 8),
                   dict(saved.get("model_limits") or {}), bool(saved.get("one_step")),
                   changed, abandon_interrupted(db, row["id"]))


class _Tee:
    """The recorder, then another sink (e.g. the app's live registry). The second sink
    sees every event even when the store refused it, so a live view never freezes on a
    consultation the store could not record; the store's error is still raised."""

    def __init__(self, store: EventSink, extra: EventSink) -> None:
        self.store, self.extra = store, extra

    def emit(self, event: Event) -> None:
        """Record, then pass on."""
        try:
            self.store.emit(event)
        finally:
            self.extra.emit(event)


class SqliteBatchStore:
    """core.batch.BatchStore on the SQLite store."""

    def __init__(self, db: Database, *, retry_failed: bool = False,
                 extra_sink: EventSink | None = None) -> None:
        self.db, self.retry_failed = db, retry_failed
        recorder = Recorder(db)
        self._sink: EventSink = recorder if extra_sink is None else _Tee(recorder, extra_sink)

    def done_keys(self, run_id: str) -> set[tuple[str, str]]:
        """Finished pairs, and failed ones unless retrying them."""
        return done_keys(self.db, run_id, retry_failed=self.retry_failed)

    def sink(self) -> EventSink:
        """The recorder (teed to the extra sink, if any)."""
        return self._sink


def _final_status(outcomes: list[JobOutcome], cancel_event: asyncio.Event | None) -> str:
    if (cancel_event is not None and cancel_event.is_set()) or any(
            o.status == "cancelled" for o in outcomes):
        return "cancelled"
    return "finished"


async def execute(db: Database, spec: RunSpec, *, retry_failed: bool = False,
                  progress: Progress | None = None, cancel_event: asyncio.Event | None = None,
                  plan: Plan | None = None, extra_sink: EventSink | None = None,
                  llm: LLMClient | None = None) -> list[JobOutcome]:
    """Run (or resume) `spec`: skip what is done, run the rest, and set the run's final
    status however this ends. Returns the job outcomes."""
    set_run_status(db, spec.run_id, "running")
    status = "failed"
    try:
        outcomes = await run_batch(
            spec.jobs(), SqliteBatchStore(db, retry_failed=retry_failed, extra_sink=extra_sink),
            spec.run_id, concurrency=spec.concurrency, model_limits=spec.model_limits,
            progress=progress, cancel_event=cancel_event, llm=llm, plan=plan)
        status = _final_status(outcomes, cancel_event)
        return outcomes
    except asyncio.CancelledError:
        status = "interrupted"
        raise
    finally:
        set_run_status(db, spec.run_id, status)


def summarise(db: Database, run_id: str, by: str = "model") -> list[dict[str, Any]]:
    """Store the offline metrics of the run's finished consultations; its results table."""
    from db.metrics import compute_offline, results_table

    compute_offline(db, run_id=run_id)
    return results_table(db, by=by, run_id=run_id)
