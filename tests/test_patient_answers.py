"""The retrieval patient answers as a patient would (issue 19): it consents to an examination,
tells earlier episodes from its history and never the present one as an earlier one, takes an
open question about the problem as its complaint, and reads imported records honestly."""

from __future__ import annotations

from typing import Any

import pytest

from core.agents.retrieval_patient import RetrievalPatient
from core.agents.templates import phrase
from core.case import Case
from core.caseio import load_bundled_cases
from core.views import patient_view

CASES = {c.id: c for c in load_bundled_cases()}


def ask(case: str | Case, question: str) -> str:
    record = CASES[case] if isinstance(case, str) else case
    return RetrievalPatient(patient_view(record)).respond(question, [])


def test_the_issue_examples_answer_right() -> None:
    before = ask("card-001", "Have you had any chest pain like this before?")
    assert before == phrase("en", "not_before")  # no earlier episode is invented
    assert ask("derm-001", "Can I examine your chest?") == phrase("en", "consent")
    assert ask("derm-001", "What's wrong with your leg?") == \
        CASES["derm-001"].patient.chief_complaint
    assert ask("derm-001", "What's wrong with you, do you think?") == \
        phrase("en", "no_diagnosis")  # still a diagnosis probe


@pytest.mark.parametrize("case_id, question", [
    ("card-001", "Can I listen to your chest?"), ("card-001", "Let me have a look."),
    ("card-001", "Would you mind if I took your pulse?"),
    ("card-001", "I'm just going to feel your pulse, okay?"),
    ("rheum-002", "May I feel the artery at your temple?"),
    ("rheum-001", "¿Puedo explorarle el pie?"), ("rheum-001", "¿Me deja ver el pie?"),
    ("id-002", "Je vais vous examiner, d'accord ?"), ("id-002", "Puis-je regarder votre visage ?"),
    ("neuro-003", "Darf ich Ihre Frau untersuchen?"), ("uro-002", "我给您检查一下肚子，可以吗？"),
    ("uro-002", "让我听听您的肺。"),
])
def test_an_examination_request_gets_consent_in_every_language(case_id: str,
                                                                question: str) -> None:
    case = CASES[case_id]
    about = {"Ehemann": "f"}.get(case.patient.proxy or "")
    assert ask(case_id, question) == phrase(case.language, "consent", about=about)


@pytest.mark.parametrize("question", [
    "Can I check what medications you take?", "Can I ask a few questions?",
    "Can I have a look at your medication?", "Let me know if the pain changes.",
    "您做过什么检查吗？"])
def test_questions_that_are_not_examinations_get_no_consent(question: str) -> None:
    assert ask("card-001", question) != phrase("en", "consent")


def test_someone_answering_for_the_patient_consents_for_them() -> None:
    assert ask("peds-001", "Can I examine him?") == phrase("en", "consent", about="m")
    assert ask("peds-002", "Can I listen to her chest?") == phrase("en", "consent", about="f")


@pytest.mark.parametrize("case_id, question, told", [
    ("gi-002", "Have you had attacks like this before?", "past year"),
    ("card-002", "Have you had this fluttering before?", "past year"),
    ("card-002", "Is this the first time your heart has done this?", "past year"),
    ("card-003", "Have you had a heart attack before?", "nine years ago"),
    ("rheum-001", "¿Le había pasado antes algo parecido?", "Hace dos años"),
    ("id-002", "Avez-vous déjà eu une paralysie du visage ?", "jamais eu de paralysie"),
    ("gi-004", "以前有过这样的肚子疼吗？", "以前喝多了"),
    ("psych-001", "Have you felt like this before?", "low spell"),
    ("rheum-002", "Have you had headaches like this before?", "never had headaches"),
])
def test_earlier_episodes_come_from_the_history(case_id: str, question: str,
                                                told: str) -> None:
    assert told in ask(case_id, question)


@pytest.mark.parametrize("case_id, question, present", [
    ("card-001", "Is this the first time you've had chest pain?", "weight pressing"),
    ("neuro-001", "Have you ever had a headache like this before?", "bat"),
    ("pulm-003", "Have you had this before?", "stitch"),
    ("peds-003", "¿Le había pasado algo así antes?", "39,8"),
])
def test_the_present_episode_is_never_told_as_an_earlier_one(case_id: str, question: str,
                                                             present: str) -> None:
    answer = ask(case_id, question)
    assert present not in answer and not answer.startswith(("Yes", "Sí"))


def test_first_time_is_answered_without_a_contradicting_no() -> None:
    answer = ask("endo-001", "Is this the first time you've felt this unwell?")
    assert answer == phrase("en", "not_before") and not answer.startswith("No")
    assert ask("gi-001", "Have you had pain like this before?") == \
        "I've never had pain like this before."  # the record's own denial


def test_ever_may_ask_about_the_present() -> None:
    # "Did you ever lose consciousness?" is about this episode too: not "the first time".
    assert ask("neuro-001", "Did you ever lose consciousness?").startswith("Yes")
    assert ask("card-001", "Have you ever had a heart attack?").startswith("No.")
    assert "father" not in ask("card-001", "Have you ever had a heart attack?")


@pytest.mark.parametrize("case_id, question", [
    ("card-001", "What seems to be wrong?"), ("heme-001", "What's the matter?"),
    ("neuro-002", "What's been happening?"), ("uro-003", "What's going on?"),
    ("peds-002", "What's brought her in tonight?"), ("neuro-003", "Was ist mit Ihrer Frau los?"),
    ("gi-004", "您今天来是因为什么？"),
])
def test_an_open_question_about_the_problem_is_answered_with_the_complaint(
        case_id: str, question: str) -> None:
    assert ask(case_id, question) == CASES[case_id].patient.chief_complaint


def imported(patient: dict[str, Any]) -> Case:
    return Case.model_validate({"id": "imp", "title": "t", "specialty": "general",
                                "objective": "Assess.", "patient": patient,
                                "truth": {"diagnosis": "Hidden"}})


IMPORTED = imported({
    "demographics": {"age": "55", "sex": "male"},
    "history_of_present_illness": "The patient reports fatigue and abdominal pain for 4 weeks. "
                                  "He has been on natalizumab for the past year.",
    "primary_symptoms": [{"name": "Fatigue, abdominal pain, and fever"}],
    "history": [{"kind": "social", "text": "Information not provided."},
                {"kind": "other", "text": "Smoker for 30 years. Works in a construction "
                                          "company."},
                {"kind": "review_of_systems",
                 "text": "Reports fullness in the belly. Denies cough or recent travel."}]})


def test_an_imported_record_is_read_honestly() -> None:
    assert "not provided" not in ask(IMPORTED, "Do you drink alcohol?")
    assert ask(IMPORTED, "Any cough?") == "I haven't had cough or recent travel."
    assert ask(IMPORTED, "Any recent travel?") == "I haven't had cough or recent travel."
    assert "natalizumab" in ask(IMPORTED, "What medication are you on?")
    assert ask(IMPORTED, "What do you do for a living?") == \
        "Works in a construction company."
    assert ask(IMPORTED, "Do you have a temperature?").startswith("Yes")  # "fever" in a list
    assert ask(IMPORTED, "Any illness in the family?") == phrase("en", "absent_generic")
    assert "4 weeks" in ask(IMPORTED, "How long has this been going on?")


def test_a_question_names_the_symptom_its_words_fit_best() -> None:
    assert ask("neuro-002", "Any weakness in your face?") == "No. My face feels normal."
    assert ask("pulm-001", "Are you coughing up phlegm?").startswith("Yes")
    assert ask("card-003", "Have you put on weight?").startswith("Yes")
    assert ask("gi-001", "Have you lost your appetite?").startswith("Yes")
    assert "Silben" not in ask("neuro-003", "Hatte sie früher schon einmal einen Schlaganfall?")
    assert "testicles aren't painful" in ask("uro-001", "Any pain in your testicles?")
