"""Solvers: chosen through the configuration without changing existing keys, a new one
plugs in with one registry line, and what later strategies need (turns of their own kinds
that do not count as doctor turns, memory across a run's cases in case order, options
checked and recorded) goes through the real engine and batch."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import BaseModel, Field

from core.batch import Job, MemoryBatchStore, run_batch
from core.caseio import load_bundled_cases
from core.config import AgentSpec, ConsultationConfig
from core.engine import describe_consultation, run_consultation
from core.events import ConsultationFailed, ConsultationFinished, ListSink
from core.llm import LLMClient
from core.solvers import registry
from core.solvers.base import BaseSolver
from core.solvers.solution import Solution
from core.solvers.context import SolverContext
from core.solvers.interactive import consult
from core.transcript import Role, Turn, utc_now

CASES = load_bundled_cases()


class NoteOptions(BaseModel):
    limit: int = Field(60, ge=10, description="Characters the notebook keeps.")


class NotebookSolver(BaseSolver):
    """A test strategy: reads a notebook the run keeps (a turn of its own kind, which is
    not a doctor turn), consults as usual, then writes the case into the notebook."""

    name = "notebook-test"
    sequential = True
    options_model = NoteOptions

    async def solve(self, ctx: SolverContext) -> Solution:
        notes: list[str] = ctx.run_state.get("notes", [])
        text = " | ".join(notes)[-self.limit():]
        ctx.add_turn(Turn(index=len(ctx.turns), role=Role.DOCTOR, kind="notebook_read",
                          doctor_turn=1, content=text or "(empty)", started_at=utc_now()))
        await asyncio.sleep(0.01 * (3 - len(notes)))  # earlier cases would finish last
        solution = await consult(ctx, ctx.cast())
        ctx.run_state.put("notes", [*notes, ctx.case.id])
        return solution

    def limit(self) -> int:
        assert isinstance(self.options, NoteOptions)
        return self.options.limit


@pytest.fixture
def notebook(monkeypatch: pytest.MonkeyPatch) -> str:
    entry = registry.SolverEntry(NotebookSolver.name, "test notebook", NotebookSolver)
    monkeypatch.setitem(registry.SOLVERS, entry.name, entry)  # the one registry line
    return entry.name


def test_default_solver_leaves_keys_and_descriptions_as_before() -> None:
    # The key recorded by runs made before solvers existed (scripted doctor, defaults).
    assert ConsultationConfig().config_key() == "scripted#7ef36358014b"
    described = describe_consultation(CASES[0], ConsultationConfig())
    assert "solver" not in described and "solver_options" not in described
    other = ConsultationConfig(solver="notebook-test", solver_options={"limit": 20})
    assert other.config_key() != ConsultationConfig().config_key()
    assert other.describe()["solver"] == "notebook-test"
    assert other.describe()["solver_options"] == {"limit": 20}
    # A stored description reads back into the same configuration (a run resumes it).
    again = ConsultationConfig.model_validate(
        {k: v for k, v in other.describe().items() if k != "config_key"})
    assert again.config_key() == other.config_key()


def test_unknown_solver_or_bad_options_fail_the_consultation_with_a_reason(
        notebook: str) -> None:
    for config, reason in (
            (ConsultationConfig(solver="nope"), "field 'solver': unknown solver 'nope' "
             "(known: agenthospital, collaborate, interactive, medagent_zero, "
             "notebook-test, one_step, rjua-qa, rjua-reasoning, tools)"),
            (ConsultationConfig(solver_options={"x": 1}), "field 'solver_options': solver "
             "'interactive' takes no options (got x)"),
            (ConsultationConfig(solver=notebook, solver_options={"limit": 3}),
             "field 'solver_options': solver 'notebook-test': limit: Input should be greater "
             "than or equal to 10")):
        sink = ListSink()
        asyncio.run(run_consultation(CASES[0], config, sink, consultation_id="c-x"))
        assert [e.type for e in sink.events] == ["started", "failed"]
        assert isinstance(sink.events[-1], ConsultationFailed)
        assert sink.events[-1].reason == reason


def test_a_registered_solver_plays_in_case_order_with_run_memory(notebook: str) -> None:
    config = ConsultationConfig(solver=notebook)
    store = MemoryBatchStore()
    jobs = [Job(case, config) for case in CASES[:3]]
    out = asyncio.run(run_batch(jobs, store, "run-n", concurrency=3))
    assert [o.status for o in out] == ["finished"] * 3
    reads = []
    for o in out:
        turns = [e.turn for e in store.events[o.consultation_id] if e.type == "turn_completed"]
        reads.append(next(t.content for t in turns if t.kind == "notebook_read"))
    ids = [c.id for c in CASES[:3]]
    assert reads == ["(empty)", ids[0], f"{ids[0]} | {ids[1]}"]  # in case order
    assert {s.config_key for s in store.states.values()} == {config.config_key()}
    # The notebook turn is not a doctor turn: the budget counts what a plain consultation
    # of the same case counts.
    plain = ListSink()
    asyncio.run(run_consultation(CASES[0], ConsultationConfig(), plain, consultation_id="p"))
    finished = [e for e in store.events[out[0].consultation_id]
                if isinstance(e, ConsultationFinished)][0]
    assert finished.doctor_turns == plain.events[-1].doctor_turns
    assert store.states[out[0].consultation_id].doctor_turns == finished.doctor_turns


def test_one_step_jobs_need_a_model_doctor_and_record_why() -> None:
    sink = MemoryBatchStore()
    out = asyncio.run(run_batch([Job(CASES[0], ConsultationConfig(), "one_step")], sink,
                                "run-o"))
    assert out[0].status == "failed" and out[0].reason == "one-step mode needs a model doctor"
    assert out[0].config_key == "one_step:" + ConsultationConfig().config_key()


def test_solver_context_casts_another_doctor_for_collaborating_strategies() -> None:
    ctx = SolverContext(CASES[0], ConsultationConfig(), ListSink(), consultation_id="c",
                        cancel_event=None, llm=LLMClient("sk-test-not-real"))
    assert type(ctx.cast().doctor).__name__ == "ScriptedDoctor"
    assert ctx.doctor_view.objective == CASES[0].objective and ctx.max_turns == 20
    cast = ctx.cast(doctor=AgentSpec(kind="llm", model="openai/other"))
    assert type(cast.doctor).__name__ == "LLMDoctor" and cast.doctor.label == "openai/other"
    assert type(cast.patient).__name__ == "RetrievalPatient"
