"""Batches: concurrency limits, failure isolation, cancellation and resume without duplicates."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest

from core.batch import Job, JobControl, JobOutcome, MemoryBatchStore, run_batch, summary
from core.caseio import load_bundled_cases
from core.config import AgentSpec, ConsultationConfig
from core.events import ConsultationFinished, ConsultationStarted, Event, TurnCompleted
from core.llm import LLMClient
from core.provenance import run_provenance
from tests.fake_openai_server import FakeOpenAIServer

CASES = load_bundled_cases()


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(latency=0.02) as srv:
        yield srv


def llm_config(server: FakeOpenAIServer, model: str = "openai/fake-a") -> ConsultationConfig:
    s = AgentSpec(kind="llm", model=model, api_base=server.base_url, timeout=20, retries=0)
    return ConsultationConfig(doctor=s)


def test_offline_batch_runs_every_job_then_resumes_to_nothing() -> None:
    store = MemoryBatchStore()
    jobs = [(c, cfg) for c in CASES for cfg in (ConsultationConfig(), ConsultationConfig(seed=1))]
    seen: list[tuple[int, int]] = []
    out = asyncio.run(run_batch(jobs, store, "run-1", concurrency=3,
                                progress=lambda d, t, o: seen.append((d, t))))
    assert [o.status for o in out] == ["finished"] * len(jobs)
    assert seen[-1] == (len(jobs), len(jobs)) and len(seen) == len(jobs)
    again = asyncio.run(run_batch(jobs, store, "run-1", concurrency=3))
    assert {o.status for o in again} == {"skipped"}
    assert len(store.started) == len(jobs)  # nothing was run twice
    assert summary(out)["counts"] == {"finished": len(jobs)}


def test_failures_are_isolated_and_recorded(server: FakeOpenAIServer) -> None:
    bad = CASES[1].objective[:30]
    server.fault_rule = lambda body, n: "500" if bad in json.dumps(body) else None
    try:
        store = MemoryBatchStore()
        jobs = [(c, llm_config(server)) for c in CASES[:4]]
        out = asyncio.run(run_batch(jobs, store, "run-2", concurrency=4,
                                    llm=LLMClient(api_key="sk-test-not-real")))
    finally:
        server.fault_rule = None
    assert [o.status for o in out] == ["finished", "failed", "finished", "finished"], out
    assert "InternalServer" in (out[1].reason or "")
    assert store.status(out[1].consultation_id) == "failed"
    # a failed job counts as done: resume does not retry it
    assert (CASES[1].id, jobs[1][1].config_key()) in store.done_keys("run-2")


def test_global_and_per_model_limits_hold(server: FakeOpenAIServer) -> None:
    class Counting(MemoryBatchStore):
        def __init__(self) -> None:
            super().__init__()
            self.running: dict[str, int] = {}
            self.peak: dict[str, int] = {}

        def emit(self, event: Event) -> None:
            super().emit(event)
            model = self.started[event.consultation_id].config["doctor"].get("model", "offline")
            if isinstance(event, ConsultationStarted):
                self.running[model] = self.running.get(model, 0) + 1
                self.peak[model] = max(self.peak.get(model, 0), self.running[model])
                self.peak["all"] = max(self.peak.get("all", 0), sum(self.running.values()))
            elif isinstance(event, ConsultationFinished):
                self.running[model] -= 1

    store = Counting()
    jobs = [(c, llm_config(server, m)) for c in CASES[:6] for m in ("openai/fake-a",
                                                                    "openai/fake-b")]
    out = asyncio.run(run_batch(jobs, store, "run-3", concurrency=3,
                                model_limits={"openai/fake-a": 1},
                                llm=LLMClient(api_key="sk-test-not-real")))
    assert all(o.status == "finished" for o in out)
    assert store.peak["openai/fake-a"] == 1
    assert store.peak["all"] <= 3 and store.peak["openai/fake-b"] >= 2


def test_cancel_records_cancelled_and_resume_finishes_the_rest(server: FakeOpenAIServer) -> None:
    store = MemoryBatchStore()
    jobs = [(c, llm_config(server)) for c in CASES[:8]]
    cancel = asyncio.Event()

    def progress(done: int, total: int, last: JobOutcome) -> None:
        if done == 1:
            cancel.set()

    client = LLMClient(api_key="sk-test-not-real")
    first = asyncio.run(run_batch(jobs, store, "run-4", concurrency=2, progress=progress,
                                  cancel_event=cancel, llm=client))
    statuses = [o.status for o in first]
    assert "cancelled" in statuses and statuses.count("finished") >= 1
    for o in first:
        if o.status == "cancelled" and o.consultation_id:
            assert store.status(o.consultation_id) == "cancelled"
    second = asyncio.run(run_batch(jobs, store, "run-4", concurrency=2, llm=client))
    finished_first = {o.case_id for o in first if o.status == "finished"}
    assert {o.case_id for o in second if o.status == "skipped"} == finished_first
    assert all(o.status in ("skipped", "finished") for o in second)
    finished = [cid for cid in store.started if store.status(cid) == "finished"]
    assert len(finished) == len(jobs)  # each pair finished exactly once


def test_provenance_records_models_prompts_seeds_and_versions(server: FakeOpenAIServer) -> None:
    prov: dict[str, Any] = run_provenance([llm_config(server), ConsultationConfig(seed=5)])
    assert prov["models"] == ["openai/fake-a"] and prov["seeds"] == [0, 5]
    doctor_id = next(k for k in prov["prompts"] if k.startswith("doctor/"))  # any version
    assert len(prov["prompts"][doctor_id]) == 64
    assert prov["packages"]["pydantic"] and prov["python"].startswith("3.")
    assert len(prov["configs"]) == 2 and "config_key" in prov["configs"][0]


def test_a_busy_model_does_not_starve_the_others(server: FakeOpenAIServer) -> None:
    # 8 jobs of model a (limit 1) queued before 8 of model b, 8 slots: b must not wait
    # behind a's queue. Judged by start order, not by time.
    class Order(MemoryBatchStore):
        def __init__(self) -> None:
            super().__init__()
            self.order: list[str] = []

        def emit(self, event: Event) -> None:
            super().emit(event)
            if isinstance(event, ConsultationStarted):
                self.order.append(event.config["doctor"]["model"])

    store = Order()
    jobs = [(c, llm_config(server, m)) for m in ("openai/fake-a", "openai/fake-b")
            for c in CASES[:8]]
    out = asyncio.run(run_batch(jobs, store, "run-5", concurrency=8,
                                model_limits={"openai/fake-a": 1},
                                llm=LLMClient(api_key="sk-test-not-real")))
    assert all(o.status == "finished" for o in out)
    second_a = [i for i, m in enumerate(store.order) if m == "openai/fake-a"][1]
    # While the first a runs, the 7 free slots go to b (8 if a b ends before that a). The
    # old order (global slot first) gave a's queue every slot: at most one b came first.
    assert store.order[:second_a].count("openai/fake-b") >= 7


class BrokenSink(MemoryBatchStore):
    """A store whose writes fail for one case (like a missing case row, an FK error)."""

    def __init__(self, bad_case: str, on: type) -> None:
        super().__init__()
        self.bad_case, self.on = bad_case, on
        self.case_of: dict[str, str] = {}

    def emit(self, event: Event) -> None:
        if isinstance(event, ConsultationStarted):
            self.case_of[event.consultation_id] = event.case_id
        if self.case_of.get(event.consultation_id) == self.bad_case and isinstance(event,
                                                                                   self.on):
            raise sqlite3.IntegrityError("FOREIGN KEY constraint failed")
        super().emit(event)


@pytest.mark.parametrize("on", [ConsultationStarted, TurnCompleted, ConsultationFinished])
def test_a_sink_that_raises_fails_that_consultation_only(on: type) -> None:
    store = BrokenSink(CASES[1].id, on)
    jobs = [(c, ConsultationConfig()) for c in CASES[:3]]
    out = asyncio.run(run_batch(jobs, store, "run-6", concurrency=2))
    assert [o.status for o in out] == ["finished", "failed", "finished"]
    reason = out[1].reason or ""
    assert "could not record" in reason and "FOREIGN KEY" in reason and "\n" not in reason


def test_retry_failed_redoes_failed_pairs_and_supersedes_them(server: FakeOpenAIServer) -> None:
    bad = CASES[1].objective[:30]
    server.fault_rule = lambda body, n: "500" if bad in json.dumps(body) else None
    jobs = [(c, llm_config(server)) for c in CASES[:3]]
    client = LLMClient(api_key="sk-test-not-real")
    store = MemoryBatchStore()
    try:
        first = asyncio.run(run_batch(jobs, store, "run-7", llm=client))
    finally:
        server.fault_rule = None
    assert [o.status for o in first] == ["finished", "failed", "finished"]
    assert {o.status for o in asyncio.run(run_batch(jobs, store, "run-7", llm=client))} == \
        {"skipped"}  # failed counts as done without --retry-failed
    store.retry_failed = True
    again = asyncio.run(run_batch(jobs, store, "run-7", llm=client))
    assert [o.status for o in again] == ["skipped", "finished", "skipped"]
    assert store.status(first[1].consultation_id) == "superseded"
    live = [cid for cid, s in store.started.items() if store.status(cid) != "superseded"]
    assert len(live) == 3  # one consultation per pair that is not superseded


def test_planned_jobs_cancel_one_by_one_and_unstarted_ones_are_recorded() -> None:
    store = MemoryBatchStore()
    controls: list[JobControl] = []

    def plan(job: Job) -> JobControl:
        controls.append(JobControl(f"c-{job.case.id}", asyncio.Event()))
        return controls[-1]

    controls_set = False

    def progress(done: int, total: int, last: JobOutcome) -> None:
        nonlocal controls_set
        if not controls_set:  # after the first finishes, cancel the last job before it runs
            controls[-1].cancel_event.set()
            controls_set = True

    jobs = [(c, ConsultationConfig()) for c in CASES[:4]]
    out = asyncio.run(run_batch(jobs, store, "run-8", concurrency=1, plan=plan,
                                progress=progress))
    assert [o.consultation_id for o in out] == [f"c-{c.id}" for c in CASES[:4]]
    assert [o.status for o in out] == ["finished", "finished", "finished", "cancelled"]
    assert out[3].reason == "cancelled before it started"
    assert store.status(f"c-{CASES[3].id}") == "cancelled"  # recorded, though never run


def test_one_step_jobs_are_a_turn_each_with_their_own_key(server: FakeOpenAIServer) -> None:
    store = MemoryBatchStore()
    config = llm_config(server)
    jobs = [Job(c, config, "one_step") for c in CASES[:2]] + [Job(CASES[0], config)]
    out = asyncio.run(run_batch(jobs, store, "run-9",
                                llm=LLMClient(api_key="sk-test-not-real")))
    assert [o.status for o in out] == ["finished"] * 3
    assert out[0].config_key == "one_step:" + config.config_key() != out[2].config_key
    started = store.started[out[0].consultation_id]
    assert started.origin == "one_step" and started.config["mode"] == "one_step"
    turns = [e for e in store.events[out[0].consultation_id] if isinstance(e, TurnCompleted)]
    assert len(turns) == 1 and turns[0].turn.role == "doctor"


def test_outcome_correct_prefers_the_exact_matcher() -> None:
    from core.transcript import Verdict, verdict_correct

    llm_first = [Verdict(moderator="openai/x", correct=False), Verdict(moderator="exact",
                                                                       correct=True)]
    assert verdict_correct(llm_first) is True
    assert verdict_correct([Verdict(moderator="exact", correct=None),
                            Verdict(moderator="openai/x", correct=False)]) is False
    assert verdict_correct([]) is None


def test_a_long_batch_holds_a_bounded_pool_of_tasks_and_keeps_no_outcomes() -> None:
    """Issue 18 (soak): a batch of many jobs plays them with a pool of runners, not one task
    each made up front, and `keep=False` keeps no outcome list, so memory stays flat."""
    store = MemoryBatchStore()
    configs = [ConsultationConfig(seed=s, max_turns=4) for s in range(1, 4)]
    jobs = [(c, cfg) for c in CASES for cfg in configs]
    tasks: list[int] = []
    statuses: dict[str, int] = {}

    def progress(done: int, total: int, outcome: JobOutcome) -> None:
        tasks.append(len(asyncio.all_tasks()))
        statuses[outcome.status] = statuses.get(outcome.status, 0) + 1

    out = asyncio.run(run_batch(jobs, store, "run-pool", concurrency=4, progress=progress,
                                keep=False))
    assert out == []
    assert statuses == {"finished": len(jobs)}
    # four runners and the tasks of the four consultations they play at a time (one task
    # per job made up front was more than the jobs)
    assert len(jobs) > 100 and max(tasks) <= 20, max(tasks)
