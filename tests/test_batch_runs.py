"""core.usecases.runs, the run orchestration shared by `bedside run` and the app, on a real
SQLite store: stored format, resume, supersession, final status, one-step, case hashes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.batch import run_batch
from core.caseio import load_bundled_cases
from core.config import AgentSpec, ConsultationConfig
from core.errors import InputError
from core.llm import LLMClient
from core.usecases import runs as batch_runs
from db.runs import create_run
from db.store import open_store
from tests.fake_openai_server import FakeOpenAIServer

CASES = load_bundled_cases()
KEY = "sk-test-not-real"


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as srv:
        yield srv


def model_doctor(server: FakeOpenAIServer) -> ConsultationConfig:
    return ConsultationConfig(doctor=AgentSpec(kind="llm", model="openai/fake-doc",
                                               api_base=server.base_url, retries=0))


def test_a_run_stores_its_configuration_and_resumes_to_nothing(tmp_path: Path) -> None:
    store = open_store(tmp_path / "r.db")
    db = store.db
    spec = batch_runs.create(store, CASES[:3], [ConsultationConfig(), ConsultationConfig(seed=2)],
                             concurrency=2, name="two-seeds")
    outcomes = asyncio.run(batch_runs.execute(store, spec))
    assert [o.status for o in outcomes] == ["finished"] * 6
    run = db["runs"].get(spec.run_id)
    assert run["status"] == "finished" and run["finished_at"]
    saved = json.loads(run["config"])
    assert saved["cases"] == [c.id for c in CASES[:3]] and len(saved["configurations"]) == 2
    again = batch_runs.resume(store, "two-seeds")
    assert again.configs == spec.configs and again.abandoned == 0 and not again.changed_cases
    assert {o.status for o in asyncio.run(batch_runs.execute(store, again))} == {"skipped"}
    # Every consultation records the content hash of the case it was played on.
    for row in db.query("SELECT c.config, k.content_hash FROM consultations c JOIN cases k"
                        " ON k.id = c.case_id"):
        assert json.loads(row["config"])["case_hash"] == row["content_hash"]


def test_resume_names_what_it_cannot_do(tmp_path: Path) -> None:
    store = open_store(tmp_path / "r.db")
    db = store.db
    old = create_run(db, config={"models": ["offline"], "cases": ["card-001"],
                                 "concurrency": 2}, provenance={})  # an old in-app run
    with pytest.raises(InputError, match="--resume.*did not record its configurations"):
        batch_runs.resume(store, old)
    gone = create_run(db, config={"cases": ["no-such-case"], "configurations": []},
                      provenance={})
    with pytest.raises(InputError, match="no-such-case"):
        batch_runs.resume(store, gone)


def test_a_changed_case_is_visible_on_resume(tmp_path: Path) -> None:
    store = open_store(tmp_path / "r.db")
    db = store.db
    spec = batch_runs.create(store, CASES[:2], [ConsultationConfig()], concurrency=1)
    changed = CASES[0].model_copy(update={"title": CASES[0].title + " (revised)"})
    from db.cases import save_cases

    save_cases(db, [changed])
    store.release_lease(spec.run_id, spec.lease.token, None)  # its creator has ended
    assert batch_runs.resume(store, spec.run_id).changed_cases == [CASES[0].id]


def test_interrupted_rows_are_abandoned_then_superseded_once_redone(tmp_path: Path) -> None:
    store = open_store(tmp_path / "r.db")
    db = store.db
    spec = batch_runs.create(store, CASES[:2], [ConsultationConfig()], concurrency=1)
    key = ConsultationConfig().config_key()
    # What a killed process leaves: one pair running, no final event.
    from core.events import ConsultationStarted
    from db.consultations import Recorder

    Recorder(db).emit(ConsultationStarted(consultation_id="c-killed", case_id=CASES[0].id,
                                          run_id=spec.run_id, config={"config_key": key}))
    store.release_lease(spec.run_id, spec.lease.token, None)  # ... and ended
    resumed = batch_runs.resume(store, spec.run_id)
    assert resumed.abandoned == 1 and db["consultations"].get("c-killed")["status"] == "abandoned"
    asyncio.run(batch_runs.execute(store, resumed))
    rows = list(db.query("SELECT case_id, status FROM consultations ORDER BY case_id, status"))
    assert [(r["case_id"], r["status"]) for r in rows] == [
        (CASES[0].id, "finished"), (CASES[0].id, "superseded"), (CASES[1].id, "finished")]


def test_status_is_set_however_the_run_ends(tmp_path: Path) -> None:
    store = open_store(tmp_path / "r.db")
    db = store.db
    spec = batch_runs.create(store, CASES[:4], [ConsultationConfig()], concurrency=1)

    async def cancel_the_task() -> None:
        task = asyncio.ensure_future(batch_runs.execute(store, spec))
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(cancel_the_task())
    assert db["runs"].get(spec.run_id)["status"] == "interrupted"

    def explode(*_: object) -> None:
        raise RuntimeError("progress display crashed")

    with pytest.raises(RuntimeError):
        asyncio.run(batch_runs.execute(store, batch_runs.resume(store, spec.run_id),
                                       progress=explode))
    assert db["runs"].get(spec.run_id)["status"] == "failed"
    cancel = asyncio.Event()
    cancel.set()
    asyncio.run(batch_runs.execute(store, batch_runs.resume(store, spec.run_id),
                                   cancel_event=cancel))
    assert db["runs"].get(spec.run_id)["status"] == "cancelled"
    asyncio.run(batch_runs.execute(store, batch_runs.resume(store, spec.run_id)))
    assert db["runs"].get(spec.run_id)["status"] == "finished"
    live = db.execute("SELECT case_id, count(*) FROM consultations WHERE status !="
                      " 'superseded' GROUP BY case_id").fetchall()
    assert sorted(live) == sorted((c.id, 1) for c in CASES[:4])


def test_a_missing_case_row_fails_that_consultation_and_the_batch_goes_on(
        tmp_path: Path) -> None:
    store = open_store(tmp_path / "r.db")
    db = store.db
    from db.cases import save_cases

    save_cases(db, [CASES[0], CASES[2]])  # CASES[1] is not in the store: FK error
    run_id = create_run(db, config={}, provenance={})
    out = asyncio.run(run_batch([(c, ConsultationConfig()) for c in CASES[:3]],
                                batch_runs.StoreBatchStore(store), run_id))
    assert [o.status for o in out] == ["finished", "failed", "finished"]
    assert "could not record the started event" in (out[1].reason or "")
    assert "FOREIGN KEY" in (out[1].reason or "")


def test_retry_failed_and_one_step_on_the_store(tmp_path: Path,
                                                 server: FakeOpenAIServer) -> None:
    store = open_store(tmp_path / "r.db")
    db = store.db
    config = model_doctor(server)
    bad = CASES[1].objective[:30]
    server.fault_rule = lambda body, n: "500" if bad in json.dumps(body) else None
    client = LLMClient(api_key=KEY)
    try:
        spec = batch_runs.create(store, CASES[:2], [config], concurrency=2, one_step=True)
        first = asyncio.run(batch_runs.execute(store, spec, llm=client))
    finally:
        server.fault_rule = None
    assert [o.status for o in first] == ["finished", "failed", "finished", "failed"]
    origins = dict(db.execute("SELECT origin, count(*) FROM consultations GROUP BY 1"))
    assert origins == {"engine": 2, "one_step": 2}
    again = asyncio.run(batch_runs.execute(store, batch_runs.resume(store, spec.run_id),
                                           llm=client))
    assert {o.status for o in again} == {"skipped"}
    retried = asyncio.run(batch_runs.execute(store, batch_runs.resume(store, spec.run_id),
                                             retry_failed=True, llm=client))
    assert [o.status for o in retried] == ["skipped", "finished", "skipped", "finished"]
    statuses = db.execute("SELECT status, count(*) FROM consultations GROUP BY 1").fetchall()
    assert dict(statuses) == {"finished": 4, "superseded": 2}
    one = db.execute("SELECT config_key, doctor_turns FROM consultations WHERE origin ="
                     " 'one_step' AND status = 'finished'").fetchall()
    assert {k for k, _ in one} == {"one_step:" + config.config_key()} and \
        {n for _, n in one} == {1}
    with pytest.raises(InputError, match="one-step"):
        batch_runs.create(store, CASES[:1], [ConsultationConfig()], concurrency=1,
                          one_step=True)


def test_consultations_are_scored_as_they_end_not_after_the_last(tmp_path: Path) -> None:
    """`bedside run` scores each consultation as it ends (the offline metrics were a fixed
    cost after the last reply): the results then have nothing left to compute."""
    from core.clinical_text import icd_index
    from core.usecases.scoring import compute_offline, scoring_as_they_end

    icd_index()  # warm, as a run's model calls leave it time to be
    store = open_store(tmp_path / "r.db")
    spec = batch_runs.create(store, CASES[:3], [ConsultationConfig()], concurrency=2)
    seen: list[int] = []
    asyncio.run(batch_runs.execute(store, spec, progress=scoring_as_they_end(
        store, lambda done, total, outcome: seen.append(done))))
    assert seen and seen[-1] == 3  # the progress given is still called
    assert compute_offline(store, run_id=spec.run_id) == 0
    finished = store.list_consultations(run_id=spec.run_id, status="finished")
    assert len(finished) == 3
    assert set(store.metric_hashes(["accuracy"])) >= {c.id for c in finished}
