"""Batch runs end to end, headless: create or resume a run, execute it, cancel, report.

One orchestration shared by `bedside run` and the app's in-app batches, so both store the
same run configuration (`bedside run --resume` works on either), resume the same way and
always leave the run with a final status: `execute` sets it in a `finally` — finished,
cancelled (a consultation or the batch was cancelled), interrupted (the task was
cancelled: Ctrl+C, SIGTERM, the app quitting; or the database could not be written) or
failed (a bug). Only a process killed outright (SIGKILL, power loss) leaves a run
'running'; resuming it then marks the consultations it left 'running' as abandoned, redoes
them and supersedes their rows.

A run has one owner at a time (`core.usecases.leases`): `create` and `resume` take the
run's lease before anything of the run is written (a resume refuses, naming the owner,
while another live process runs it), `execute` renews it and lets it go with the final
status, and every event the run records is fenced by it.

A run's stored config: {"cases": [ids], "case_hashes": {id: content hash},
"configurations": [ConsultationConfig.describe()], "concurrency": n,
"model_limits": {model: n}, "one_step": bool, "run_file": {path, text, sha256} when the
run was made from a run file (`core.runfile`), "router_file": {path, text, sha256} when its
models go through a litellm Router (`core.router`; a resume uses it again)}.

The engine, the batch runner and the model client are imported when a run is created or
executed, not with this module: the app's home screen reads runs (`planned_size`) without
loading them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from core.case import Case
from core.config import ConsultationConfig
from core.errors import InputError
from core.events import ConsultationFailed, Event, EventSink
from core.ports.runs import CaseStore, ConsultationStore, RunsStore, RunStore
from core.records.leases import LeaseRecord
from core.records.runs import RunRecord
from core.transcript import EndReason

if TYPE_CHECKING:
    from core.batch import Job, JobOutcome, Plan, Progress
    from core.llm import LLMClient


class RunSpec(BaseModel):
    """A run ready to execute: its id and everything needed to rebuild its jobs."""

    model_config = ConfigDict(validate_assignment=True)

    run_id: str = Field(description="The stored run.")
    cases: list[Case] = Field(description="The cases, in the run's order.")
    configs: list[ConsultationConfig] = Field(description="The agent configurations.")
    concurrency: int = Field(8, description="Consultations at once.")
    model_limits: dict[str, int] = Field(default_factory=dict, description="At most N "
                                         "consultations at once using each model.")
    one_step: bool = Field(False, description="Also the one-step upper bound of each model "
                           "doctor.")
    changed_cases: list[str] = Field(default_factory=list, description="Cases whose content "
                                     "differs from when the run was created.")
    abandoned: int = Field(0, description="Consultations a killed process left running, to "
                           "be redone.")
    lease: LeaseRecord | None = Field(None, description="This process's lease on the run "
                                      "(taken by create and resume).")
    router_file: dict[str, Any] | None = Field(None, description="The router file the run's "
                                               "models go through (path, text, sha256).")

    def jobs(self) -> list[Job]:
        """Every (case, configuration) consultation, then the one-step upper bounds of the
        model doctors when asked for."""
        from core.batch import INTERACTIVE, Job
        from core.engine import ONE_STEP

        out = [Job(case, cfg, INTERACTIVE) for cfg in self.configs for case in self.cases]
        if self.one_step:
            out += [Job(case, cfg, ONE_STEP) for cfg in self.configs
                    if cfg.doctor.kind == "llm" for case in self.cases]
        return out


def _save_new_cases(store: CaseStore, cases: list[Case]) -> None:
    """Store the run's cases (foreign keys) unless the store already has them unchanged."""
    from core.caseio import case_hash

    stored = store.case_hashes()
    store.save_cases([c for c in cases if stored.get(c.id) != case_hash(c)])


def create(store: RunsStore, cases: list[Case], configs: list[ConsultationConfig], *,
           concurrency: int, model_limits: dict[str, int] | None = None,
           one_step: bool = False, name: str | None = None, origin: str = "cli",
           run_file: dict[str, Any] | None = None,
           router_file: dict[str, Any] | None = None) -> RunSpec:
    """Record a new run (status 'running') and its cases; return it ready to execute.
    `run_file` (name, text, sha256 of the run file it was made from) and `router_file`
    (the same of its router file) are stored with it. A
    replay doctor's file must have a line for every case; its budget is fitted to it."""
    if not cases:
        raise InputError("no case to run", field="--cases")
    if one_step and not any(c.doctor.kind == "llm" for c in configs):
        raise InputError("one-step mode needs a model doctor", field="--one-step")
    from core.agents import replay_doctor
    from core.caseio import case_hash
    from core.provenance import run_provenance

    from core.usecases.doctor_tools import check_sources

    configs = [replay_doctor.fit(c, [case.id for case in cases]) for c in configs]
    check_sources(store, configs)
    _save_new_cases(store, cases)
    limits = dict(model_limits or {})
    provenance = {**run_provenance(configs), "origin": origin}
    config: dict[str, Any] = {
        "cases": [c.id for c in cases], "case_hashes": {c.id: case_hash(c) for c in cases},
        "configurations": [c.describe() for c in configs], "concurrency": concurrency,
        "model_limits": limits, "one_step": one_step}
    if run_file is not None:
        config["run_file"] = run_file
    if router_file is not None:
        config["router_file"] = router_file
    from core.ids import new_id
    from core.usecases import leases

    lease = leases.acquire(store, new_id("run-"))  # a new id: nobody else holds it
    run_id = store.create_run(name=name, provenance=provenance, config=config,
                              run_id=lease.run_id)
    return RunSpec(run_id=run_id, cases=cases, configs=configs, concurrency=concurrency,
                   model_limits=limits, one_step=one_step, lease=lease,
                   router_file=router_file)


def _config_from(described: dict[str, Any]) -> ConsultationConfig:
    data = {k: v for k, v in described.items() if k != "config_key"}
    return ConsultationConfig.model_validate(data)


def _stored_configs(run: RunRecord) -> list[ConsultationConfig]:
    saved = run.config
    if isinstance(saved.get("hospital"), dict):
        raise InputError(f"run '{run.id}' is a hospital simulation, which cannot be resumed: "
                         "run `bedside hospital` again with the same seed", field="--resume")
    if "configurations" not in saved or "cases" not in saved:
        raise InputError(f"run '{run.id}' did not record its configurations (made by an "
                         "older version); start a new run instead", field="--resume")
    try:
        return [_config_from(c) for c in saved["configurations"]]
    except ValueError as err:
        raise InputError(f"run '{run.id}' has a configuration this version cannot read "
                         f"({str(err).splitlines()[0]})", field="--resume") from None


def rebuild(store: RunsStore, run_ref: str, *, library: Iterable[Case] = ()) -> RunSpec:
    """The stored run `run_ref` (id or name) as a RunSpec, without its lease: each case
    from the store (the version the run saved), else from `library` (e.g. the bundled
    cases; the library's copy of an unchanged case is used, since it knows the folder of
    its image files); cases whose content changed since the run was created in
    `changed_cases`."""
    from core.caseio import case_hash

    run = store.get_run(run_ref)
    configs = _stored_configs(run)
    saved = run.config
    from_files = {c.id: c for c in library}
    known = dict(from_files)
    for stored in store.list_cases():
        # The library's copy when it is the same case: read from its file, it knows the
        # folder its image files are in.
        same = from_files.get(stored.id)
        if same is None or case_hash(same) != case_hash(stored):
            known[stored.id] = stored
    missing = [cid for cid in saved["cases"] if cid not in known]
    if missing:
        raise InputError(f"{len(missing)} case(s) of this run are no longer available: "
                         f"{', '.join(missing[:5])}", field="--resume")
    cases = [known[cid] for cid in saved["cases"]]
    hashes = saved.get("case_hashes") or {}
    changed = [c.id for c in cases if c.id in hashes and hashes[c.id] != case_hash(c)]
    return RunSpec(run_id=run.id, cases=cases, configs=configs,
                   concurrency=int(saved.get("concurrency") or 8),
                   model_limits=dict(saved.get("model_limits") or {}),
                   one_step=bool(saved.get("one_step")), changed_cases=changed,
                   router_file=saved.get("router_file"))


def resume(store: RunsStore, run_ref: str, *, library: Iterable[Case] = ()) -> RunSpec:
    """The stored run `run_ref` (id or name), rebuilt for `execute` (`rebuild`), with its
    lease: taken first (RunBusyError, naming the owner, while another live process runs
    it); then consultations left 'running' by a process that died are marked abandoned
    (and counted in `abandoned`): they will be redone.
    """
    from core.usecases import leases

    spec = rebuild(store, run_ref, library=library)
    spec.lease = leases.acquire(store, spec.run_id, run_ref)
    spec.abandoned = store.abandon_interrupted(spec.run_id)
    return spec


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


class StoreBatchStore:
    """`core.batch.BatchStore` on any consultation store."""

    def __init__(self, store: ConsultationStore, *, retry_failed: bool = False,
                 extra_sink: EventSink | None = None,
                 fence: tuple[str, str] | None = None) -> None:
        self.store, self.retry_failed = store, retry_failed
        recorder = store.recorder(fence)
        self._sink: EventSink = recorder if extra_sink is None else _Tee(recorder, extra_sink)

    def done_keys(self, run_id: str) -> set[tuple[str, str]]:
        """Finished pairs, and failed ones unless retrying them."""
        return self.store.done_keys(run_id, retry_failed=self.retry_failed)

    def sink(self) -> EventSink:
        """The recorder (teed to the extra sink, if any)."""
        return self._sink


async def execute(store: RunsStore, spec: RunSpec, *, retry_failed: bool = False,
                  progress: Progress | None = None, cancel_event: asyncio.Event | None = None,
                  plan: Plan | None = None, extra_sink: EventSink | None = None,
                  llm: LLMClient | None = None, keep: bool = True) -> list[JobOutcome]:
    """Run (or resume) `spec` under its lease (`leases.owned`): skip what is done, run the
    rest, and set the run's final status however this ends (unless another process has
    taken the run over). Returns the job outcomes (none with `keep=False`: see
    `core.batch.run_batch`); raises RunHalted when the run had to
    stop (the database cannot be written, the lease was lost): it is then resumable."""
    from core.batch import run_batch
    from core.usecases import leases
    from core.usecases.doctor_tools import run_state

    shared = run_state(store, spec.run_id, spec.configs, [c.id for c in spec.cases])
    if llm is None and spec.router_file:  # a routed run always goes through its router
        from core.llm import LLMClient
        from core.router import of_run

        llm = LLMClient(router=of_run(spec.router_file))

    async def batch(fence: tuple[str, str], cancel: asyncio.Event) -> list[JobOutcome]:
        return await run_batch(
            spec.jobs(), StoreBatchStore(store, retry_failed=retry_failed,
                                         extra_sink=extra_sink, fence=fence),
            spec.run_id, concurrency=spec.concurrency, model_limits=spec.model_limits,
            progress=progress, cancel_event=cancel, llm=llm, plan=plan, run_state=shared,
            keep=keep)

    spec.lease = leases.acquire(store, spec.run_id, lease=spec.lease)  # again: held till now
    return await leases.owned(store, spec.lease, batch, cancel_event)


def cancel_consultation(store: ConsultationStore, consultation_id: str, sink: EventSink,
                        reason: str = "cancelled by the user") -> None:
    """Emit a cancellation for a consultation still 'running' in the store (nothing when it
    has ended or never started), so a stopped consultation is never left running."""
    found = store.find_consultation(consultation_id)
    if found is None or found.status != "running":
        return
    sink.emit(ConsultationFailed(consultation_id=consultation_id,
                                 end_reason=EndReason.CANCELLED, reason=reason,
                                 doctor_turns=found.doctor_turns))


Severity = Literal["information", "warning", "error"]


def outcome_message(store: RunStore, run_id: str) -> tuple[str, Severity]:
    """A one-line summary of a finished run for a notification, and its severity.

    Says how many consultations failed (a batch whose every consultation failed is not
    "done"), with the first failure's reason so a wrong model name or server shows at once.
    """
    counts = store.run_status_counts(run_id)
    total = sum(counts.values())
    failed = counts.get("failed", 0)
    order = ["finished", "failed", "cancelled"]
    order += sorted(set(counts) - set(order))
    parts = [f"{counts[s]} {s}" for s in order if counts.get(s)]
    message = f"Batch {run_id}: {', '.join(parts) or 'no consultations'}."
    if not failed:
        return message, "information"
    reason = store.first_failure(run_id)
    if reason:
        message += f" First failure: {reason[:160]}"
    return message, "error" if failed == total else "warning"


def unfinished_report(store: RunStore, run_id: str, *, reasons: int = 3) -> list[str]:
    """Lines saying how many of the run's consultations did not finish and why (the first
    `reasons` distinct reasons, most frequent first, one line each, with how many
    consultations each ended); [] when every consultation finished."""
    counts = store.run_status_counts(run_id)
    total = sum(counts.values())
    unfinished = {s: n for s, n in counts.items() if s != "finished" and n}
    if not unfinished:
        return []
    said = ", ".join(f"{n} of {total} consultations {s}" for s, n in sorted(unfinished.items()))
    hint = f"bedside run --resume {run_id}" + (" --retry-failed" if "failed" in unfinished
                                               else "")
    lines = [f"{said} (redo them: {hint})"]
    for reason, n in store.failure_reasons(run_id, reasons):
        one = " ".join(reason.split())
        lines.append(f"  {n}× {one[:200] + '…' if len(one) > 200 else one}")
    return lines


def planned_size(run: RunRecord | None) -> int | None:
    """How many consultations a run plans (cases × configurations, a collaboration counting
    its doctors' own consultations too), from its stored config.

    Understands the `bedside run` format (cases, configurations) and the older in-app one
    (cases, models); None when the config says neither (or there is no run).
    """
    from core.collaboration import team_size

    config = run.config if run is not None else {}
    if not isinstance(config.get("cases"), list):
        return None
    per_case = config.get("configurations") or config.get("models")
    if not isinstance(per_case, list):
        return None
    # A collaboration also plays each of its doctors' own consultations.
    each = sum(1 + (team_size(c) if isinstance(c, dict) else 0) for c in per_case)
    return len(config["cases"]) * each


def model_config(doctor: str, api_base: str | None, patient: str = "retrieval",
                 examiner: str = "retrieval") -> ConsultationConfig:
    """The consultation config of an in-app batch entry: the doctor is `offline` (the
    scripted doctor) or a model string; patient and examiner are agent strings (default
    retrieval). Models are reached through `api_base` when given. Raises InputError."""
    from core.config import agents_config

    config: ConsultationConfig = agents_config("scripted" if doctor == "offline" else doctor,
                                               patient, examiner, api_base)
    return config
