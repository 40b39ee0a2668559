"""Agents other than the retrieval patient and examiner (see tests/test_retrieval_*.py):
matching, the exact moderator and yes/no parsing, the scripted and human doctors, the
reproducibility hashes of model-free agents, and the prompts of the model-played roles
(sent for real through litellm to the local fake OpenAI server)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest

from core import prompts
from core.agents import (moderator, retrieval_examiner, retrieval_patient, scripted_doctor,
                         templates)
from core.agents.base import DoctorState
from core.agents.human_doctor import HumanDoctor
from core.agents.llm_agents import LLMExaminer, LLMPatient
from core.caseindex.matching import best_for_name, cue_hit, make_entries, normalise
from core.agents.moderator import ExactModerator, parse_yes_no
from core.agents.scripted_doctor import ScriptedDoctor, guess_diagnosis
from core.agents.templates import PHRASES, lang_key, phrase
from core.case import Case
from core.caseio import load_bundled_cases
from core.config import AgentSpec
from core.llm import LLMClient
from core.transcript import Turn
from core.views import doctor_view, examiner_view, moderator_view, patient_view
from tests.fake_openai_server import FakeOpenAIServer

STEMI = ["Inferior ST-elevation myocardial infarction", "inferior STEMI",
         "acute inferior myocardial infarction", "inferior MI"]


def test_matching_prefers_exact_and_specific_terms() -> None:
    entries = make_entries([(["ECG", "12-lead ECG"], "ecg"), (["CT chest"], "ctc"),
                            (["Complete blood count", "CBC"], "cbc")])
    assert best_for_name("12 lead ECG please", entries).payload == "ecg"
    assert best_for_name("blood count", entries).payload == "cbc"
    assert best_for_name("CT head", entries) is None
    assert normalise("Crème BRÛLÉE, s'il-vous") == "creme brulee s il vous"
    assert normalise("胸部CT和C反应蛋白") == "胸部 ct 和 c 反应蛋白"  # Latin inside CJK is a word


def test_cue_syntax_start_and_whole_word() -> None:
    assert cue_hit("when did it start", ["^when"])
    assert not cue_hit("does it hurt when you breathe", ["^when"])
    assert cue_hit("que enfermedad tiene", ["que enfermedad$"])
    assert not cue_hit("que enfermedades tiene", ["que enfermedad$"])
    assert cue_hit("are you allergic", ["allerg"])


def test_templates_cover_the_required_languages() -> None:
    for lang in ("en", "es", "fr", "de", "zh-Hans"):
        assert {"absent_generic", "wh_unknown", "no_diagnosis", "refusal", "onset"} <= set(
            PHRASES[lang])
    assert lang_key("zh-CN") == "zh-Hans" and lang_key("pt-BR") == "en"
    assert phrase("de", "age", "40") == "Ich bin 40 Jahre alt."
    assert phrase("zh-Hans", "normal") == "正常" and phrase("de", "normal") == "unauffällig"


# The matcher's verdicts are checked row by row, beside the entity metrics, in
# tests/test_clinical_text.py (one table for both).


def test_exact_moderator_judges_from_its_view() -> None:
    case = Case.model_validate({"id": "m", "title": "t", "specialty": "s", "objective": "o",
                                "patient": {}, "truth": {"diagnosis": STEMI[0],
                                                         "synonyms": STEMI[1:]}})
    mod = ExactModerator(moderator_view(case))
    assert asyncio.run(mod.judge("inferior STEMI"))[0].correct is True
    assert asyncio.run(mod.judge("NSTEMI"))[0].correct is False


@pytest.mark.parametrize("text, value", [
    ("Yes.", True), ("yes, the same disease", True), ("**Yes** — it matches", True),
    ("No.", False), ("No, that is a different condition.", False), ("The answer is yes", True),
    ("Not the same", False), ("", None), ("Maybe?", None), ("Oui", True),
    ("Same disease: no", False), ("Same disease: yes", True), ("not sure", None),
    ("I'm not sure.", None), ("是的", True), ("不是", False), ("是的，同一种病", True),
    ("不，不是同一种病", False), ("不确定", None), ("No, they are not the same", False),
    ("Yes, essentially the same disease", True), ("Answer: No", False), ("Nein.", False),
])
def test_yes_no_parsing_is_tolerant(text: str, value: bool | None) -> None:
    assert parse_yes_no(text) is value


def test_scripted_doctor_is_deterministic_and_sees_only_its_view() -> None:
    stemi = next(c for c in load_bundled_cases() if c.id == "card-001")
    view = doctor_view(stemi)
    assert not hasattr(view, "truth") and "diagnosis" not in view.model_dump()
    a, b = ScriptedDoctor(view, seed=3), ScriptedDoctor(view, seed=3)
    state = DoctorState(turns=[], doctor_turn=1, max_turns=20)
    assert asyncio.run(a.act(state, print)).text == asyncio.run(b.act(state, print)).text
    last = DoctorState(turns=[], doctor_turn=5, max_turns=5)
    assert asyncio.run(a.act(last, print)).text.startswith("DIAGNOSIS READY:")


def test_keyword_table_guesses_from_what_was_heard() -> None:
    assert guess_diagnosis("ECG: ST elevation in II, III, aVF; troponin high") == \
        "ST-elevation myocardial infarction"
    assert guess_diagnosis("nothing useful") == "Undifferentiated presentation"


def test_human_doctor_turns_text_and_forms_into_replies() -> None:
    class Form:
        diagnosis, differential, rationale, treatment = "Gout", ["septic arthritis"], "why", ""

    queue = ["Where does it hurt?", Form()]

    async def next_action(*_: object) -> object:
        return queue.pop(0)

    doc = HumanDoctor(next_action, "human:ann")
    state = DoctorState(turns=[Turn(index=0, role="doctor", content="x")], doctor_turn=1,
                        max_turns=3)
    assert asyncio.run(doc.act(state, print)).text == "Where does it hurt?"
    reply = asyncio.run(doc.act(state, print))
    assert reply.text == "DIAGNOSIS READY: Gout"
    assert reply.report.differential == ["septic arthritis"] and reply.report.rationale == "why"


# -- reproducibility -------------------------------------------------------------------------
OFFLINE = {"doctor": "scripted", "patient": "retrieval", "examiner": "retrieval",
           "moderator": "exact"}


def test_offline_roles_record_the_hash_of_their_tables() -> None:
    hashes = prompts.hashes_for(OFFLINE)
    assert set(hashes) == {scripted_doctor.VERSION, retrieval_patient.VERSION,
                           retrieval_examiner.VERSION, moderator.VERSION}
    assert all(len(h) == 64 for h in hashes.values())
    both = prompts.hashes_for({**OFFLINE, "moderator": "exact,llm"})
    assert moderator.VERSION in both and "moderator/v1" in both
    assert prompts.hashes_for({"doctor": "human"}) == {}
    llm = prompts.hashes_for({"patient": "llm", "examiner": "llm"})
    assert llm["patient/v2"] == prompts.PROMPTS["patient/v2"].sha256 and "examiner/v2" in llm


def test_changing_a_template_or_a_cue_changes_the_hash(monkeypatch: pytest.MonkeyPatch) -> None:
    before = prompts.hashes_for(OFFLINE)
    monkeypatch.setitem(templates.PHRASES["en"], "absent_generic", "No.")
    prompts.offline_fingerprint.cache_clear()
    after = prompts.hashes_for(OFFLINE)
    patient, examiner = retrieval_patient.VERSION, retrieval_examiner.VERSION
    assert after[patient] != before[patient]
    assert after[scripted_doctor.VERSION] == before[scripted_doctor.VERSION]
    monkeypatch.setitem(templates.PHRASES["en"], "refusal", "Name them.")
    prompts.offline_fingerprint.cache_clear()
    assert prompts.hashes_for(OFFLINE)[examiner] != before[examiner]
    monkeypatch.undo()
    prompts.offline_fingerprint.cache_clear()
    assert prompts.hashes_for(OFFLINE) == before  # the hash is a function of the tables only


# -- prompts of the model-played patient and examiner ------------------------------------------
@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as srv:
        yield srv


def _spec(server: FakeOpenAIServer, role: str) -> AgentSpec:
    return AgentSpec(kind="llm", model=f"openai/fake-{role}", api_base=server.base_url,
                     timeout=30, retries=0)


def test_model_patient_prompt_keeps_persona_language_and_no_diagnosis(
        server: FakeOpenAIServer) -> None:
    case = next(c for c in load_bundled_cases() if c.id == "uro-002")
    patient = LLMPatient(patient_view(case), _spec(server, "patient"), LLMClient("sk-test"))
    asyncio.run(patient.answer("您好，哪里不舒服？", [], lambda _: None))
    system = server.requests[-1]["messages"][0]["content"]
    assert "bedside/patient/v2" in system and "Chinese (Simplified)" in system
    assert case.patient.persona[:20] in system and "1 to 3 short sentences" in system
    assert "Never name or guess the illness" in system and "Stay in character" in system
    body = json.dumps(server.requests[-1], ensure_ascii=False)
    for name in [case.truth.diagnosis, *case.truth.synonyms]:
        assert name not in body
    assert not any(i.value and i.value in body for _, _, i in case.findings())


def test_model_examiner_prompt_reports_stored_normal_and_refuses(
        server: FakeOpenAIServer) -> None:
    case = next(c for c in load_bundled_cases() if c.id == "uro-002")
    examiner = LLMExaminer(examiner_view(case), _spec(server, "examiner"), LLMClient("sk-test"))
    sent = len(server.requests)
    refused = asyncio.run(examiner.examine(["所有检查结果"], "REQUEST TEST: 所有检查结果",
                                           lambda _: None))
    assert refused.meta == {"refused": True} and len(server.requests) == sent  # no model call
    asyncio.run(examiner.examine(["超声"], "REQUEST TEST: 超声", lambda _: None))
    system = server.requests[-1]["messages"][0]["content"]
    assert "bedside/examiner/v2" in system and '"<test name>: 正常"' in system
    assert "copy that item's result exactly" in system and "refuse" in system
    assert "Never suggest a diagnosis" in system and "泌尿系超声" in system
    assert case.truth.diagnosis not in json.dumps(server.requests[-1], ensure_ascii=False)
