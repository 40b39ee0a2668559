"""Model-free agents: retrieval patient and examiner, matching, moderators, doctors."""

from __future__ import annotations

import asyncio

import pytest

from core.agents.base import DoctorState
from core.agents.human_doctor import HumanDoctor
from core.agents.matching import best_for_name, make_entries, normalise
from core.agents.moderator import ExactModerator, matches, parse_yes_no
from core.agents.retrieval_examiner import RetrievalExaminer, is_vague
from core.agents.retrieval_patient import RetrievalPatient
from core.agents.scripted_doctor import ScriptedDoctor, guess_diagnosis
from core.agents.templates import PHRASES, lang_key, phrase
from core.case import Case
from core.caseio import load_bundled_cases
from core.transcript import Turn
from core.views import doctor_view, examiner_view, moderator_view, patient_view


@pytest.fixture(scope="module")
def stemi() -> Case:
    return next(c for c in load_bundled_cases() if c.id == "card-001")


def test_patient_answers_from_stored_items(stemi: Case) -> None:
    p = RetrievalPatient(patient_view(stemi))
    assert p.respond("What brings you in?") == stemi.patient.chief_complaint
    assert "70 minutes ago" in p.respond("When did the chest pain start?")
    assert "jaw" in p.respond("Could you describe the pain, does it spread?")
    assert "drenched" in p.respond("Have you been diaphoretic?")  # fuzzy synonym
    assert "Amlodipine" in p.respond("Which medications do you take?")
    assert "father" in p.respond("Any heart problems in your family?")
    assert p.respond("Any palpitations?").startswith("No.")  # a pertinent negative
    assert p.respond("Do you have a rash?") == phrase("en", "absent_generic")
    assert p.respond("How old are you?") == "I'm 58."


def test_patient_answers_at_most_three_sentences(stemi: Case) -> None:
    p = RetrievalPatient(patient_view(stemi))
    answer = p.respond("Tell me about medications, allergies, smoking, family, surgery, "
                       "and past medical history")
    assert 1 <= answer.count(".") <= 6 and len(answer) < 400
    assert answer == p.respond("Tell me about medications, allergies, smoking, family, "
                               "surgery, and past medical history")  # deterministic


def test_examiner_returns_stored_results_verbatim(stemi: Case) -> None:
    e = RetrievalExaminer(examiner_view(stemi))
    text, found = e.report(["EKG", "troponin I", "Hb", "CT head"])
    ecg = next(t for t in stemi.tests if t.name == "Electrocardiogram")
    assert ecg.value in text
    assert "1,840 ng/L" in text and "Haemoglobin: 148 g/L" in text
    assert "CT head: normal" in text
    assert found == ["Electrocardiogram", "Cardiac troponin", "Haemoglobin", "CT head"]


@pytest.mark.parametrize("names", [[], ["all results"], ["everything"], ["any tests"],
                                   ["all", "the rest"], ["your full record"]])
def test_examiner_refuses_requests_that_name_no_test(stemi: Case, names: list[str]) -> None:
    text, found = RetrievalExaminer(examiner_view(stemi)).report(names)
    assert found == [] and text == phrase("en", "refusal")
    assert all(is_vague(n) for n in names)


def test_matching_prefers_exact_and_specific_terms() -> None:
    entries = make_entries([(["ECG", "12-lead ECG"], "ecg"), (["CT chest"], "ctc"),
                            (["Complete blood count", "CBC"], "cbc")])
    assert best_for_name("12 lead ECG please", entries).payload == "ecg"
    assert best_for_name("blood count", entries).payload == "cbc"
    assert best_for_name("CT head", entries) is None
    assert normalise("Crème BRÛLÉE, s'il-vous") == "creme brulee s il vous"


def test_templates_cover_the_required_languages() -> None:
    for lang in ("en", "es", "fr", "de", "zh-Hans"):
        assert {"absent_generic", "no_diagnosis", "refusal", "onset"} <= set(PHRASES[lang])
    assert lang_key("zh-CN") == "zh-Hans" and lang_key("pt-BR") == "en"
    assert phrase("de", "age", "40") == "Ich bin 40 Jahre alt."


def test_exact_moderator_normalises_synonyms_and_abbreviations(stemi: Case) -> None:
    mod = ExactModerator(moderator_view(stemi))
    for guess, ok in [("inferior STEMI", True), ("Acute inferior MI", True),
                      ("ST elevation myocardial infarction", True),
                      ("Inferior ST-elevation myocardial infraction", True),  # typo
                      ("Pulmonary embolism", False), ("", False)]:
        verdict, reply = asyncio.run(mod.judge(guess))
        assert (verdict.correct, reply) == (ok, None), guess
    assert matches("PE", ["Acute pulmonary embolism", "pulmonary embolism"])
    assert matches("ischemic stroke", ["acute ischaemic stroke", "ischaemic stroke"])


@pytest.mark.parametrize("text, value", [
    ("Yes.", True), ("yes, the same disease", True), ("**Yes** — it matches", True),
    ("No.", False), ("No, that is a different condition.", False), ("The answer is yes", True),
    ("Not the same", False), ("", None), ("Maybe?", None), ("Oui", True),
])
def test_yes_no_parsing_is_tolerant(text: str, value: bool | None) -> None:
    assert parse_yes_no(text) is value


def test_scripted_doctor_is_deterministic_and_sees_only_its_view(stemi: Case) -> None:
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
