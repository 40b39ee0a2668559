"""One reducer for a consultation's state: the recorder's row, the in-memory store and the
app's live registry all say what `apply` says, for real engine runs (offline and through
the local OpenAI-compatible server)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from functools import reduce
from pathlib import Path

import pytest

from core.batch import MemoryBatchStore
from core.caseio import load_bundled_cases
from core.config import AgentSpec, ConsultationConfig
from core.consultation_state import (ConsultationState, apply, is_done, supersede_key,
                                     supersedes)
from core.engine import run_consultation
from core.events import (ConsultationFailed, ConsultationStarted, Event, FanOut, ListSink,
                         TokenDelta)
from core.llm import LLMClient
from core.transcript import EndReason
from db.cases import save_cases
from db.connection import open_db
from db.consultations import Recorder
from tests.fake_openai_server import FakeOpenAIServer
from tui.app.live_registry import LiveItem, LiveRegistry

CASES = load_bundled_cases()
COLUMNS = ("status", "end_reason", "diagnosis", "doctor_turns", "tests_ordered",
           "prompt_tokens", "completion_tokens", "cost_usd", "config_key", "origin", "doctor")


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as srv:
        yield srv


def fold(events: list[Event]) -> ConsultationState | None:
    return reduce(apply, events, None)


def play(tmp_path: Path, config: ConsultationConfig, cid: str, *, run_id: str = "r",
         llm: LLMClient | None = None, cancel: bool = False):
    """One consultation through the engine into the recorder, the memory store, the live
    registry and a list, all at once."""
    db = open_db(tmp_path / "s.db")
    save_cases(db, CASES[:2])
    db.table("runs").insert({"id": run_id, "status": "running", "created_at": "t"})
    memory, registry, listed = MemoryBatchStore(), LiveRegistry(), ListSink()
    item = registry.register(LiveItem(cid, CASES[0].id, "shown", run_id=run_id))
    event = asyncio.Event()
    if cancel:
        event.set()
    asyncio.run(run_consultation(CASES[0], config, FanOut(Recorder(db), memory, registry,
                                                           listed),
                                 consultation_id=cid, run_id=run_id, llm=llm,
                                 cancel_event=event))
    return db, memory, item, listed


def check_agree(db, memory: MemoryBatchStore, item: LiveItem, listed: ListSink,
                cid: str) -> ConsultationState:
    state = fold(listed.events)
    assert state is not None
    row = db["consultations"].get(cid)
    assert {c: row[c] for c in COLUMNS} == {c: getattr(state, c) for c in COLUMNS}
    assert row["correct"] == (None if state.correct is None else int(state.correct))
    assert memory.states[cid] == state and memory.status(cid) == state.status
    assert item.state.status == state.status and item.doctor_turn == state.doctor_turns
    assert item.tokens == state.tokens and item.cost == state.cost_usd
    assert len(item.turns) == state.turns == db["turns"].count_where(
        "consultation_id = ?", [cid])
    return state


def test_offline_run_row_memory_and_live_view_agree(tmp_path: Path) -> None:
    db, memory, item, listed = play(tmp_path, ConsultationConfig(), "c-off")
    state = check_agree(db, memory, item, listed, "c-off")
    assert state.status == "finished" and state.tests_ordered > 0 and state.correct is not None


def test_model_run_totals_agree(tmp_path: Path, server: FakeOpenAIServer) -> None:
    spec = AgentSpec(kind="llm", model="openai/fake-a", api_base=server.base_url, retries=0)
    config = ConsultationConfig(doctor=spec, patient=spec, final_report=True)
    db, memory, item, listed = play(tmp_path, config, "c-llm",
                                    llm=LLMClient("sk-test-not-real", backoff_scale=0.01))
    state = check_agree(db, memory, item, listed, "c-llm")
    assert state.prompt_tokens > 0 and state.completion_tokens > 0 and state.doctor == spec.model


def test_cancelled_run_agrees(tmp_path: Path) -> None:
    db, memory, item, listed = play(tmp_path, ConsultationConfig(), "c-can", cancel=True)
    state = check_agree(db, memory, item, listed, "c-can")
    assert state.status == "cancelled" and state.error == "cancelled"


def started(cid: str, run: str | None = "r", key: str = "k") -> ConsultationStarted:
    return ConsultationStarted(consultation_id=cid, case_id="case", run_id=run,
                               config={"config_key": key, "doctor": {"kind": "scripted"}})


def test_status_from_events_and_ephemeral_events_change_nothing() -> None:
    s = apply(None, started("a"))
    assert s is not None and s.status == "running" and s.doctor == "scripted"
    assert apply(s, TokenDelta(consultation_id="a", index=0, role="doctor", text="x")) is s
    for end, status in ((EndReason.CANCELLED, "cancelled"), (EndReason.ERROR, "failed")):
        after = apply(s, ConsultationFailed(consultation_id="a", end_reason=end, reason="r",
                                            doctor_turns=2))
        assert after is not None and (after.status, after.doctor_turns) == (status, 2)
    # An event for a consultation nobody saw start leaves it unknown.
    assert apply(None, ConsultationFailed(consultation_id="z", end_reason=EndReason.ERROR,
                                          reason="r")) is None


def test_supersede_rule_and_what_a_resume_leaves_alone() -> None:
    first = apply(None, started("a"))
    assert first is not None
    assert supersede_key(started("b")) == ("r", "case", "k")
    assert supersedes(started("b"), first)
    assert not supersedes(started("a"), first)  # not itself
    assert not supersedes(started("b", key="other"), first)
    assert not supersedes(started("b", run=None), first)  # outside a run: never
    assert not supersedes(started("b"), first.model_copy(update={"status": "superseded"}))
    assert is_done("finished") and is_done("failed")
    assert not is_done("failed", retry_failed=True)
    assert not any(is_done(s) for s in ("running", "cancelled", "abandoned", "superseded"))


def test_memory_store_supersedes_like_the_sqlite_store(tmp_path: Path) -> None:
    memory = MemoryBatchStore()
    db = open_db(tmp_path / "m.db")
    save_cases(db, CASES[:1])
    recorder = Recorder(db)
    for cid in ("a", "b"):
        event = ConsultationStarted(consultation_id=cid, case_id=CASES[0].id, run_id=None,
                                    config={"config_key": "k"})
        memory.emit(event)
        recorder.emit(event)
    assert [memory.status(c) for c in "ab"] == ["running", "running"]  # no run: no redo
    db.table("runs").insert({"id": "r", "status": "running", "created_at": "t"})
    for cid in ("c", "d"):
        event = ConsultationStarted(consultation_id=cid, case_id=CASES[0].id, run_id="r",
                                    config={"config_key": "k"})
        memory.emit(event)
        recorder.emit(event)
    stored = {r["id"]: r["status"] for r in db["consultations"].rows}
    assert stored == {c: memory.status(c) for c in "abcd"}
    assert stored["c"] == "superseded" and stored["d"] == "running"
