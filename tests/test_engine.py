"""The consultation engine with model-free agents: events, budget, cancellation, replay."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from core.case import Case
from core.caseio import load_bundled_cases
from core.config import AgentSpec, ConsultationConfig
from core.engine import run_consultation
from core.events import (ConsultationFailed, ConsultationFinished, ConsultationStarted,
                         ListSink, TestRequested, TurnCompleted, TurnStarted)
from core.transcript import EndReason, Role


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    return load_bundled_cases()


def run(case: Case, config: ConsultationConfig | None = None, **kw: Any) -> tuple[Any, ListSink]:
    sink = ListSink()
    transcript = asyncio.run(run_consultation(case, config or ConsultationConfig(), sink,
                                              consultation_id="c-1", **kw))
    return transcript, sink


def test_offline_consultation_emits_every_turn_in_order(cases: list[Case]) -> None:
    transcript, sink = run(cases[0])
    events = sink.events
    assert isinstance(events[0], ConsultationStarted)
    assert isinstance(events[-1], ConsultationFinished)
    completed = [e.turn for e in events if isinstance(e, TurnCompleted)]
    assert [t.index for t in completed] == list(range(len(transcript.turns)))
    assert completed == transcript.turns
    # each turn is committed before the next one starts
    order = [(type(e).__name__, e.turn.index if isinstance(e, TurnCompleted) else e.index)
             for e in events
             if isinstance(e, TurnStarted | TurnCompleted)]
    assert order == [(k, i) for i in range(len(completed)) for k in ("TurnStarted",
                                                                      "TurnCompleted")]
    assert transcript.end_reason == EndReason.DIAGNOSIS and transcript.diagnosis
    assert events[-1].verdicts == transcript.verdicts and len(transcript.verdicts) == 1
    requests = [e for e in events if isinstance(e, TestRequested)]
    assert requests and all(r.tests for r in requests)
    assert events[0].config["config_key"] == ConsultationConfig().config_key()


def test_same_seed_gives_identical_transcripts_on_every_case(cases: list[Case]) -> None:
    for case in cases:
        a, _ = run(case, ConsultationConfig(seed=7))
        b, _ = run(case, ConsultationConfig(seed=7))
        assert [(t.role, t.kind, t.content, t.tests) for t in a.turns] == \
            [(t.role, t.kind, t.content, t.tests) for t in b.turns]
        assert a.diagnosis == b.diagnosis and a.verdicts == b.verdicts


def test_budget_counts_questions_and_tests_and_the_last_turn_commits(cases: list[Case]) -> None:
    transcript, sink = run(cases[0], ConsultationConfig(max_turns=3))
    doctor = [t for t in transcript.turns if t.role == Role.DOCTOR]
    assert [t.doctor_turn for t in doctor] == [1, 2, 3]
    assert doctor[-1].meta.get("last_turn") is True and doctor[-1].kind == "diagnosis"
    assert sink.events[-1].doctor_turns == 3


def test_budget_ends_a_consultation_without_diagnosis(cases: list[Case]) -> None:
    async def never_decides(*_: Any) -> str:
        return "Anything else?"

    config = ConsultationConfig(doctor=AgentSpec(kind="human"), max_turns=4)
    transcript, sink = run(cases[0], config, human_input=never_decides)
    assert transcript.end_reason == EndReason.BUDGET and transcript.diagnosis is None
    assert sink.events[-1].end_reason == EndReason.BUDGET and sink.events[-1].verdicts == []
    assert len(transcript.turns) == 8


def test_human_doctor_with_form_and_refused_request(cases: list[Case]) -> None:
    class Form:
        diagnosis, differential, rationale, treatment = "inferior STEMI", [], "ST up", "PCI"

    actions: list[Any] = ["REQUEST TEST: all results", "REQUEST TEST: ECG", Form()]

    async def next_action(*_: Any) -> Any:
        return actions.pop(0)

    config = ConsultationConfig(doctor=AgentSpec(kind="human", label="human:ann"))
    transcript, sink = run(cases[0], config, human_input=next_action)
    kinds = [t.kind for t in transcript.turns]
    assert kinds == ["test_request", "refusal", "test_request", "result", "diagnosis"]
    assert transcript.verdicts[0].correct is True
    assert transcript.report is not None and transcript.report.treatment_plan == "PCI"
    assert transcript.doctor == "human:ann"


def test_final_report_is_a_turn_and_on_the_transcript(cases: list[Case]) -> None:
    transcript, sink = run(cases[0], ConsultationConfig(final_report=True))
    assert transcript.turns[-1].kind == "report"
    assert transcript.report is not None and transcript.report.diagnostic_results
    assert sink.events[-1].report == transcript.report


def test_cancel_event_stops_a_waiting_human_and_is_recorded(cases: list[Case]) -> None:
    async def scenario() -> tuple[Any, ListSink]:
        cancel, sink = asyncio.Event(), ListSink()

        async def slow(*_: Any) -> str:
            await asyncio.sleep(30)
            return "never"

        config = ConsultationConfig(doctor=AgentSpec(kind="human"))
        task = asyncio.create_task(run_consultation(cases[0], config, sink, consultation_id="c",
                                                    cancel_event=cancel, human_input=slow))
        await asyncio.sleep(0.05)
        cancel.set()
        return await asyncio.wait_for(task, 5), sink

    transcript, sink = asyncio.run(scenario())
    assert transcript.end_reason == EndReason.CANCELLED
    assert isinstance(sink.events[-1], ConsultationFailed)
    assert sink.events[-1].end_reason == EndReason.CANCELLED


def test_task_cancellation_is_recorded_then_propagates(cases: list[Case]) -> None:
    async def scenario() -> ListSink:
        sink = ListSink()

        async def slow(*_: Any) -> str:
            await asyncio.sleep(30)
            return "never"

        config = ConsultationConfig(doctor=AgentSpec(kind="human"))
        task = asyncio.create_task(run_consultation(cases[0], config, sink, consultation_id="c",
                                                    human_input=slow))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return sink

    sink = asyncio.run(scenario())
    assert sink.events[-1].end_reason == EndReason.CANCELLED


def test_a_failing_agent_is_recorded_as_failed_not_raised(cases: list[Case]) -> None:
    calls = 0

    async def breaks(*_: Any) -> str:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise RuntimeError("keyboard fell off\nsecond line")
        return "What brings you in?"

    config = ConsultationConfig(doctor=AgentSpec(kind="human"))
    transcript, sink = run(cases[0], config, human_input=breaks)
    last = sink.events[-1]
    assert isinstance(last, ConsultationFailed) and last.end_reason == EndReason.ERROR
    assert last.reason == "RuntimeError: keyboard fell off"
    assert len(transcript.turns) == 2  # the completed turns survive
    assert last.doctor_turns == 1  # the second turn failed: it was never taken


def test_human_doctor_without_input_fails_cleanly(cases: list[Case]) -> None:
    transcript, sink = run(cases[0], ConsultationConfig(doctor=AgentSpec(kind="human")))
    assert transcript.end_reason == EndReason.ERROR
    assert "input" in sink.events[-1].reason


class _Failing(ListSink):
    """A sink that raises on one kind of event (as a store refusing a row would)."""

    def __init__(self, kind: type) -> None:
        super().__init__()
        self.kind = kind

    def emit(self, event: Any) -> None:
        if isinstance(event, self.kind):
            raise OSError("disk I/O error")
        super().emit(event)


@pytest.mark.parametrize("kind", [ConsultationStarted, TurnStarted, TurnCompleted,
                                  TestRequested, ConsultationFinished])
def test_a_sink_failure_fails_the_consultation_with_the_reason(cases: list[Case],
                                                               kind: type) -> None:
    sink = _Failing(kind)
    transcript = asyncio.run(run_consultation(cases[0], ConsultationConfig(), sink,
                                              consultation_id="c-1"))
    assert transcript.end_reason == EndReason.ERROR
    last = sink.events[-1]
    assert isinstance(last, ConsultationFailed) and last.end_reason == EndReason.ERROR
    assert last.reason.startswith("could not record the ") and "disk I/O error" in last.reason


def test_the_case_content_hash_is_recorded_with_the_consultation(cases: list[Case]) -> None:
    import hashlib

    from core.caseio import case_to_json

    transcript, sink = run(cases[0])
    expected = hashlib.sha256(case_to_json(cases[0]).encode()).hexdigest()[:16]
    assert sink.events[0].config["case_hash"] == expected
    assert transcript.meta["config"]["case_hash"] == expected
    changed = cases[0].model_copy(update={"title": "another title"})
    _, other = run(changed)
    assert other.events[0].config["case_hash"] != expected


def test_moderator_calls_a_cancel_drops_are_never_created() -> None:
    """A consultation cancelled as it is about to be judged must leave no moderator call
    behind: the calls are made inside the guarded work, so a cancel that comes first means
    none exists (a dropped, never-awaited coroutine made Python warn under load)."""
    from core.engine import Cancelled, _judge
    from core.llm import LLMClient
    from core.solvers.context import SolverContext

    made: list[str] = []

    class Judge:
        def judge(self, case: Any, diagnosis: str) -> Any:
            made.append(diagnosis)  # a call made is a coroutine that must then be awaited

            async def never() -> Any:
                raise AssertionError("a cancelled consultation must not be judged")
            return never()

    async def scenario() -> None:
        cancel = asyncio.Event()
        cancel.set()
        ctx = SolverContext(load_bundled_cases()[0], ConsultationConfig(), ListSink(),
                            consultation_id="c-1", cancel_event=cancel,
                            llm=LLMClient(api_key="sk-test-not-real"))
        with pytest.raises(Cancelled):
            await _judge(ctx, [Judge(), Judge()], "gout")  # type: ignore[list-item]

    asyncio.run(scenario())
    assert made == []
