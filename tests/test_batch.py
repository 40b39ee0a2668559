"""Batches: concurrency limits, failure isolation, cancellation and resume without duplicates."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest

from core.batch import JobOutcome, MemoryBatchStore, run_batch, summary
from core.caseio import load_bundled_cases
from core.config import AgentSpec, ConsultationConfig
from core.events import ConsultationFinished, ConsultationStarted, Event
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
    assert "doctor/v1" in prov["prompts"] and len(prov["prompts"]["doctor/v1"]) == 64
    assert prov["packages"]["pydantic"] and prov["python"].startswith("3.")
    assert len(prov["configs"]) == 2 and "config_key" in prov["configs"][0]
