"""LLM agents through litellm, for real, against the local fake OpenAI server."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import ValidationError

from core.caseio import load_bundled_cases
from core.config import AgentSpec, ConsultationConfig, parse_config
from core.engine import run_consultation
from core.errors import ModelError
from core.events import ConsultationFailed, ConsultationFinished, ListSink, TokenDelta
from core.llm import LLMClient
from core.prompts import PROMPTS
from core.transcript import EndReason, Role
from tests.fake_openai_server import FakeOpenAIServer, detect_role

KEY = "sk-test-not-real"


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(hang_seconds=3) as srv:
        # litellm's first call imports a lot lazily; do it once so short timeouts measure
        # the server, not the import.
        warm = AgentSpec(kind="llm", model="openai/fake-warm", api_base=srv.base_url, timeout=60)
        asyncio.run(LLMClient(api_key=KEY).complete(warm, [{"role": "user", "content": "hi"}]))
        yield srv


@pytest.fixture
def fresh(server: FakeOpenAIServer) -> FakeOpenAIServer:
    server.faults.clear()
    server.fault_rule = None
    return server


def spec(server: FakeOpenAIServer, role: str, **kw: Any) -> AgentSpec:
    params = {"timeout": 1.0, "retries": 2, "backoff": 0.01, **kw}
    return AgentSpec(kind="llm", model=f"openai/fake-{role}", api_base=server.base_url, **params)


def all_llm(server: FakeOpenAIServer, **kw: Any) -> ConsultationConfig:
    return ConsultationConfig(
        doctor=spec(server, "doctor", **kw), patient=spec(server, "patient", **kw),
        examiner=spec(server, "examiner", **kw),
        moderators=[AgentSpec(kind="exact"), spec(server, "moderator", **kw)], final_report=True)


def consult(config: ConsultationConfig) -> tuple[Any, ListSink]:
    sink = ListSink()
    case = load_bundled_cases()[0]
    t = asyncio.run(run_consultation(case, config, sink, consultation_id="c-llm",
                                     llm=LLMClient(api_key=KEY)))
    return t, sink


def test_all_roles_by_model_stream_and_record_everything(fresh: FakeOpenAIServer) -> None:
    transcript, sink = consult(all_llm(fresh))
    assert transcript.end_reason == EndReason.DIAGNOSIS
    kinds = [(t.role.value, t.kind) for t in transcript.turns]
    assert kinds[:6] == [("doctor", "question"), ("patient", "answer"), ("doctor", "question"),
                         ("patient", "answer"), ("doctor", "test_request"),
                         ("examiner", "result")]
    assert ("doctor", "report") in kinds and ("moderator", "verdict") in kinds
    assert [v.moderator for v in transcript.verdicts] == ["exact", "openai/fake-moderator"]
    assert all(v.correct is True for v in transcript.verdicts)
    assert transcript.report is not None and transcript.report.treatment_plan == "primary PCI"
    deltas = [e for e in sink.events if isinstance(e, TokenDelta)]
    assert len(deltas) > len(transcript.turns)
    model_turns = [t for t in transcript.turns if t.model and t.model.startswith("openai/")]
    assert all(t.usage.prompt_tokens > 0 and t.raw_request for t in model_turns)
    dumped = json.dumps([t.model_dump(mode="json") for t in transcript.turns])
    assert KEY not in dumped and "api_key" not in dumped
    assert KEY not in json.dumps([e.model_dump(mode="json") for e in sink.events])
    hashes = transcript.meta["config"]["prompts"]
    patient_id = next(k for k in hashes if k.startswith("patient/"))  # whatever version
    assert hashes[patient_id] == PROMPTS[patient_id].sha256 and len(hashes) >= 6


def test_patient_prompt_never_contains_the_diagnosis(fresh: FakeOpenAIServer) -> None:
    consult(all_llm(fresh))
    case = load_bundled_cases()[0]
    patient_bodies = [b for b in fresh.requests if detect_role(b) == "patient"]
    assert patient_bodies
    for body in patient_bodies:
        text = json.dumps(body).lower()
        assert case.truth.diagnosis.lower() not in text and "stemi" not in text


@pytest.mark.parametrize("fault", ["429", "500", "malformed", "empty", "hang"])
def test_transient_faults_are_retried(fresh: FakeOpenAIServer, fault: str) -> None:
    fresh.faults.extend([fault, fault])
    transcript, sink = consult(all_llm(fresh))
    assert transcript.end_reason == EndReason.DIAGNOSIS
    first = transcript.turns[0]
    assert first.meta["attempts"] == 3 and len(first.meta["errors"]) == 2


@pytest.mark.parametrize("fault, word", [("429", "RateLimit"), ("500", "InternalServer"),
                                         ("empty", "empty"), ("hang", "no reply within")])
def test_persistent_faults_fail_the_consultation_with_the_reason(
        fresh: FakeOpenAIServer, fault: str, word: str) -> None:
    fresh.fault_rule = lambda body, n: fault
    transcript, sink = consult(all_llm(fresh, retries=1, timeout=0.5))
    last = sink.events[-1]
    assert isinstance(last, ConsultationFailed) and last.end_reason == EndReason.ERROR
    assert word in last.reason and "\n" not in last.reason
    assert transcript.end_reason == EndReason.ERROR


def test_a_failing_llm_moderator_leaves_the_exact_verdict(fresh: FakeOpenAIServer) -> None:
    fresh.fault_rule = lambda body, n: "500" if detect_role(body) == "moderator" else None
    transcript, sink = consult(all_llm(fresh, retries=0))
    assert isinstance(sink.events[-1], ConsultationFinished)
    exact, llm = transcript.verdicts
    assert exact.correct is True and llm.correct is None and llm.raw.startswith("error:")


def test_non_streaming_calls_and_direct_client(fresh: FakeOpenAIServer) -> None:
    client = LLMClient(api_key=KEY)
    s = spec(fresh, "patient", stream=False)
    msgs = [{"role": "system", "content": "x bedside/patient/v1"}, {"role": "user", "content": "hi"}]
    reply = asyncio.run(client.complete(s, msgs))
    assert reply.text.startswith("It started") and reply.usage.completion_tokens > 0
    assert fresh.headers[-1]["authorization"] == f"Bearer {KEY}"
    fresh.faults.extend(["malformed"] * 3)
    with pytest.raises(ModelError):
        asyncio.run(client.complete(s, msgs))
    with pytest.raises(ModelError):
        asyncio.run(client.complete(AgentSpec(kind="exact"), msgs))


def test_a_headless_client_never_streams_and_keeps_the_config_key(fresh: FakeOpenAIServer) -> None:
    # `bedside run` makes whole-reply calls (nobody watches deltas); the same config in the
    # app streams. The transcript and the run's keys are the same either way.
    config = all_llm(fresh)
    sink, before = ListSink(), len(fresh.requests)
    transcript = asyncio.run(run_consultation(
        load_bundled_cases()[0], config, sink, consultation_id="h",
        llm=LLMClient(api_key=KEY, stream=False)))
    assert transcript.end_reason == EndReason.DIAGNOSIS
    sent = fresh.requests[before:]
    assert sent and not any(b.get("stream") for b in sent)
    assert not [e for e in sink.events if isinstance(e, TokenDelta)]
    assert all("stream" not in (t.raw_request or {}) for t in transcript.turns)
    streamed, _ = consult(config)
    assert [t.content for t in streamed.turns] == [t.content for t in transcript.turns]
    assert streamed.meta["config"]["config_key"] == transcript.meta["config"]["config_key"]


@pytest.mark.parametrize("stream", [True, False])
def test_json_mode_is_sent_and_recorded_only_when_asked(fresh: FakeOpenAIServer,
                                                        stream: bool) -> None:
    client = LLMClient(api_key=KEY)
    msgs = [{"role": "system", "content": "x bedside/patient/v1"}, {"role": "user", "content": "hi"}]
    plain = asyncio.run(client.complete(spec(fresh, "patient", stream=stream), msgs))
    assert "response_format" not in fresh.requests[-1]
    assert "response_format" not in plain.raw_request
    asked = asyncio.run(client.complete(spec(fresh, "patient", stream=stream,
                                             response_format="json"), msgs))
    body = fresh.requests[-1]
    assert body["response_format"] == {"type": "json_object"}
    assert bool(body.get("stream")) is stream and body["messages"] == msgs
    assert asked.raw_request["response_format"] == {"type": "json_object"}
    assert KEY not in json.dumps(asked.raw_request)


def test_json_mode_reaches_the_stored_turn_of_a_consultation(fresh: FakeOpenAIServer) -> None:
    config = ConsultationConfig(moderators=[spec(fresh, "moderator", response_format="json")])
    transcript, _ = consult(config)
    (verdict,) = [t for t in transcript.turns if t.role == Role.MODERATOR]
    assert verdict.raw_request["response_format"] == {"type": "json_object"}
    assert fresh.requests[-1]["response_format"] == {"type": "json_object"}
    assert "response_format" in transcript.meta["config"]["moderators"][0]


def test_json_mode_is_validated_and_keeps_earlier_configuration_keys() -> None:
    with pytest.raises(ValidationError):
        AgentSpec(kind="llm", model="openai/x", response_format="xml")  # type: ignore[arg-type]
    # Keys stored before the option existed (computed by the previous version) still come
    # out the same, so those runs resume; asking for JSON mode makes another configuration.
    assert ConsultationConfig().config_key() == "scripted#7ef36358014b"
    model = parse_config("openai/gpt-4o-mini", moderators="exact,openai/gpt-4o-mini",
                         params={"api_base": "http://127.0.0.1:9/v1", "temperature": 0.3})
    assert model.config_key() == "openai/gpt-4o-mini#deaf3999ecdb"
    assert "response_format" not in json.dumps(model.describe())
    json_doctor = model.model_copy(update={
        "doctor": model.doctor.model_copy(update={"response_format": "json"})})
    assert json_doctor.config_key() != model.config_key()
    stored = {k: v for k, v in json_doctor.describe().items() if k != "config_key"}
    assert ConsultationConfig.model_validate(stored) == json_doctor


def test_examiner_model_is_not_called_for_a_catch_all(fresh: FakeOpenAIServer) -> None:
    def doctor(body: dict[str, Any], n: int) -> str:
        said = sum(1 for m in body["messages"] if m["role"] == "assistant")
        return ["REQUEST TEST: all results", "DIAGNOSIS READY: STEMI"][min(said, 1)]

    fresh.replies["doctor"] = doctor
    try:
        transcript, _ = consult(all_llm(fresh))
    finally:
        from tests.fake_openai_server import DEFAULT_REPLIES
        fresh.replies["doctor"] = DEFAULT_REPLIES["doctor"]
    assert transcript.turns[1].kind == "refusal" and transcript.turns[1].role == Role.EXAMINER
    assert not any(detect_role(b) == "examiner" for b in fresh.requests[-3:])


def test_litellm_is_imported_off_the_event_loop_once() -> None:
    # A fresh interpreter (litellm not yet imported): a ticker task must keep running while
    # litellm loads, the import must happen in another thread, and happen once however many
    # callers wait for it.
    import subprocess
    import sys
    from pathlib import Path

    code = """
import asyncio, sys, threading
importers = []
sys.addaudithook(lambda event, args: event == "import" and args[0] == "litellm"
                 and importers.append(threading.current_thread().name))
from core import llm

async def main():
    in_flight = 0  # ticks while the import had started and not finished
    async def ticker():
        nonlocal in_flight
        while True:
            f = llm._import_future
            in_flight += f is not None and not f.done()
            await asyncio.sleep(0.001)
    t = asyncio.create_task(ticker())
    await asyncio.sleep(0.01)
    llm.preload()
    libs = await asyncio.gather(*(llm.load_litellm_async() for _ in range(5)))
    t.cancel()
    return libs, in_flight

libs, during = asyncio.run(main())
assert all(lib is libs[0] for lib in libs) and libs[0].drop_params is True
print(importers, during > 0, llm.preload() is llm.preload())
"""
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['litellm-import'] True True"


def test_a_sink_failing_on_token_deltas_neither_fails_nor_retries(
        fresh: FakeOpenAIServer) -> None:
    class NoDeltas(ListSink):
        def emit(self, event: Any) -> None:
            if isinstance(event, TokenDelta):
                raise RuntimeError("display gone")
            super().emit(event)

    sink = NoDeltas()
    case = load_bundled_cases()[0]
    t = asyncio.run(run_consultation(case, all_llm(fresh), sink, consultation_id="c-nd",
                                     llm=LLMClient(api_key=KEY)))
    assert t.end_reason == EndReason.DIAGNOSIS  # deltas are ephemeral; the turns are kept
    assert all(turn.meta.get("attempts", 1) == 1 for turn in t.turns)


def test_a_caller_cancelled_while_litellm_loads_leaves_the_import_to_the_others(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The first model call of a process is cancelled while litellm is still loading (a
    # consultation stopped at once): the shared import must go on, and every later call
    # get litellm (it was cancelled with it, and every model call of the process failed).
    import threading

    from core import llm

    release, sentinel = threading.Event(), object()

    def slow_import() -> object:
        release.wait(30)
        return sentinel

    monkeypatch.setattr(llm, "load_litellm", slow_import)
    monkeypatch.setattr(llm, "_import_future", None)

    async def main() -> object:
        first = asyncio.create_task(llm.load_litellm_async())
        await asyncio.sleep(0.05)
        first.cancel()
        await asyncio.gather(first, return_exceptions=True)
        release.set()
        return await asyncio.wait_for(llm.load_litellm_async(), 30)

    assert asyncio.run(main()) is sentinel
