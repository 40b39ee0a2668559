"""AI Hospital's protocol and RJUA's intent recognition, through the real engine and
litellm against the local OpenAI-compatible server (doctor, patient and examiner all
models): the patient opens, relays the doctor's test requests to the examiner, the doctor
ends with its five-part report within 10 turns; a doctor that states a diagnosis or a
treatment ends the consultation without the marker when intent recognition is on."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from core.caseio import load_bundled_cases
from core.engine import run_consultation
from core.events import ListSink
from core.intent import is_question, stated_intent
from core.llm import LLMClient
from core.transcript import EndReason, Role
from core.usecases.plans import build_plan
from tests.fake_openai_server import FakeOpenAIServer, detect_role

CASE = next(c for c in load_bundled_cases() if c.id == "card-001")
SCRIPT = ["Where exactly is the pain?", "REQUEST TEST: ECG, troponin",
          "DIAGNOSIS READY: Inferior ST-elevation myocardial infarction"]


def _doctor(body: dict[str, Any], n: int) -> str:
    said = sum(1 for m in body["messages"] if m.get("role") == "assistant")
    return SCRIPT[min(said, len(SCRIPT) - 1)]


def _text(body: dict[str, Any]) -> str:
    return "\n".join(str(m.get("content", "")) for m in body.get("messages", []))


def _play(server: FakeOpenAIServer, given: dict[str, Any]) -> Any:
    (config,) = build_plan({"doctor": ["openai/doc"], "patient": ["openai/pat"],
                            "examiner": ["openai/exam"], "api_base": server.base_url,
                            **given}).configs
    sink = ListSink()
    transcript = asyncio.run(run_consultation(CASE, config, sink, consultation_id="c-1",
                                              llm=LLMClient(stream=False)))
    return config, transcript


def test_aihospital_patient_first_relays_requests_and_ends_with_the_report() -> None:
    with FakeOpenAIServer(replies={"doctor": _doctor, "patient": "My chest hurts badly."}) \
            as server:
        config, t = _play(server, {"protocol": ["aihospital"]})
        requests = list(server.requests)
    assert config.max_turns == 10  # AI Hospital's budget unless --max-turns says otherwise
    shape = [(str(x.role), x.kind, str(x.addressee), x.doctor_turn) for x in t.turns]
    assert shape == [
        ("patient", "complaint", "doctor", None),
        ("doctor", "question", "patient", 1), ("patient", "answer", "doctor", 1),
        ("doctor", "test_request", "patient", 2), ("patient", "relay", "examiner", 2),
        ("examiner", "result", "doctor", 2),
        ("doctor", "diagnosis", "None", 3), ("doctor", "report", "None", None)]
    assert t.turns[4].tests == ["ECG", "troponin"] and "ECG, troponin" in t.turns[4].content
    assert t.report is not None and t.report.treatment_plan  # asked although final_report off
    assert t.diagnosis == "Inferior ST-elevation myocardial infarction"
    patient_calls = [b for b in requests if detect_role(b) == "patient"]
    # The opening question is the first thing the patient answers; it never sees results.
    assert patient_calls[0]["messages"][-1]["content"] == "What brings you in today?"
    assert not any("ST elevation" in _text(b) for b in patient_calls)
    doctor_calls = [b for b in requests if detect_role(b) == "doctor"]
    first = doctor_calls[0]["messages"]
    assert "bedside/doctor-aihospital/v1" in first[0]["content"]
    assert first[1]["content"] == "Patient: My chest hurts badly."  # the patient spoke first
    assert not any("asked me to have these done" in _text(b) for b in doctor_calls)


def test_agentclinic_stays_the_default_protocol() -> None:
    with FakeOpenAIServer(replies={"doctor": _doctor}) as server:
        config, t = _play(server, {})
    assert (config.protocol, config.max_turns) == ("agentclinic", 20)
    assert str(t.turns[0].role) == "doctor" and t.report is None
    assert [x.kind for x in t.turns if str(x.role) == "patient"] == ["answer"]


@pytest.mark.parametrize("said, ends, diagnosis", [
    ("I think you have an inferior STEMI.", True, "inferior STEMI"),
    ("I will prescribe aspirin and ticagrelor now.", True, None),
    ("Have you ever been diagnosed with angina?", False, None),
])
def test_intent_recognition_ends_a_consultation_without_the_marker(
        said: str, ends: bool, diagnosis: str | None) -> None:
    def doctor(body: dict[str, Any], n: int) -> str:
        turns = sum(1 for m in body["messages"] if m.get("role") == "assistant")
        return said if turns == 0 else "DIAGNOSIS READY: Unstable angina"

    with FakeOpenAIServer(replies={"doctor": doctor}) as server:
        _, on = _play(server, {"intent_end": ["yes"], "max_turns": ["2"]})
        _, off = _play(server, {"max_turns": ["2"]})
    first = on.turns[0]
    if ends:
        assert on.end_reason == EndReason.DIAGNOSIS and on.diagnosis == diagnosis
        assert first.kind == "diagnosis" and first.meta["intent"] in ("diagnosis", "treatment")
        assert not any(t.role == Role.PATIENT for t in on.turns)
    else:
        assert on.diagnosis == "Unstable angina" and "intent" not in first.meta
    # Without intent recognition the same message is a question the patient answers.
    assert off.turns[0].kind == "question" and off.turns[1].role == Role.PATIENT
    assert off.diagnosis == "Unstable angina"


@pytest.mark.parametrize("text, kind, name", [
    ("My working diagnosis is gout. Any questions?", "diagnosis", "gout"),
    ("This looks like acute appendicitis, because the pain moved.", "diagnosis",
     "acute appendicitis"),
    ("Your ECG is consistent with an inferior STEMI.", "diagnosis", "inferior STEMI"),
    ("考虑为急性阑尾炎。", "diagnosis", "急性阑尾炎"),
    ("建议手术治疗。", "treatment", None),
    ("You need surgery.", "treatment", None),
    ("You have a fever, so I will ask more.", None, None),
    ("This is going to hurt a bit.", None, None),
    ("You need to tell me more.", None, None),
    ("您以前有高血压吗？", None, None),
    ("Do you take any medication for it?", None, None),
])
def test_intent_rules(text: str, kind: str | None, name: str | None) -> None:
    got = stated_intent(text)
    assert (got.kind if got else None, got.diagnosis if got else None) == (kind, name)


def test_a_question_is_never_a_statement() -> None:
    assert is_question("Is it consistent with angina?")
    assert is_question("¿Tiene fiebre")
    assert not is_question("It is consistent with angina.")


def test_offline_aihospital_consultation_opens_with_the_complaint_and_relays() -> None:
    (config,) = build_plan({"protocol": ["aihospital"]}).configs
    t = asyncio.run(run_consultation(CASE, config, ListSink(), consultation_id="c-2"))
    assert (str(t.turns[0].role), t.turns[0].kind) == ("patient", "complaint")
    assert "chest" in t.turns[0].content.lower()  # the retrieval patient's complaint
    # The scripted doctor does not ask why the patient came: it has just been told.
    assert t.turns[1].content not in ("What brings you in today?", "How can I help you today?")
    relays = [x for x in t.turns if x.kind == "relay"]
    assert relays and all(x.addressee == Role.EXAMINER and x.tests for x in relays)
    after = [t.turns[t.turns.index(x) + 1] for x in relays]
    assert all(x.role == Role.EXAMINER and x.addressee == Role.DOCTOR for x in after)
    assert t.turns[-1].kind == "report" and max(x.doctor_turn or 0 for x in t.turns) <= 10
