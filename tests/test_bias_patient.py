"""The offline retrieval patient with each of AgentClinic's eleven patient biases, on a
bundled case (card-001: a 58-year-old bus driver with an inferior STEMI), so the reader can
see what each bias says and when:

- a cognitive bias names an illness from the case's differential (never the diagnosis) in
  the first answer, and answers "what do you think is causing this?" with it;
- an implicit bias voices distrust of the doctor in the first answer, and again when a
  question touches its subject;
- every other answer is the plain patient's, word for word.

Then the partition: on every bundled case and with every bias, no answer names the
diagnosis or a result (the fidelity leak check), and the illness it names is never one the
moderator would accept.
"""

from __future__ import annotations

import pytest

from core.agents.biased_patient import BiasedRetrievalPatient
from core.agents.moderator import matches
from core.agents.retrieval_patient import RetrievalPatient
from core.biases import PATIENT_BIASES, biased_view, hearsay
from core.caseio import load_bundled_cases
from core.fidelity.patient import QuestionReader, check_patient
from core.fidelity.record import build_record
from core.transcript import Role, Turn
from core.views import patient_view

CASES = {c.id: c for c in load_bundled_cases()}
STEMI = CASES["card-001"]
OPENING = "What brings you in today?"
COMPLAINT = "Heavy pain in the middle of my chest for the last hour."
ONSET = "It started about 70 minutes ago, while I was carrying shopping up the stairs."

# bias → (second question, first answer's addition, second answer). The third question,
# "When did it start?", is answered by every biased patient exactly as by the plain one.
SEEN: dict[str, tuple[str, str, str]] = {
    "self_diagnosis": (
        "What do you think is causing this?",
        "I looked it up online, and I'm fairly sure it's acute pericarditis.",
        "I think it's acute pericarditis, doctor; everything I read online fits."),
    "recency": (
        "What do you think is causing this?",
        "My cousin was diagnosed with acute pericarditis just recently, after something very "
        "like this, so I can't help worrying it's the same.",
        "I keep thinking of my cousin. Could it be acute pericarditis, like them?"),
    "frequency": (
        "What do you think is causing this?",
        "Lots of people I know have had unstable angina lately; it seems to be going around.",
        "Lots of people have unstable angina these days; I'd bet that's what this is."),
    "false_consensus": (
        "What do you think is causing this?",
        "Everyone I've talked to says it must be pulmonary embolism.",
        "Everyone I know thinks it's pulmonary embolism, doctor, and so do I."),
    "gender": (
        "Can I examine your chest?",
        "To be honest, doctor, I'd have felt more at ease with a doctor of a different gender.",
        "Yes, of course — go ahead. I'd rather a doctor of a different gender did this, but "
        "go on."),
    "race": (
        "Does any illness run in your family?",
        "Forgive me, doctor, but I'm not sure someone from your background really "
        "understands people like me.",
        "My father died of a heart attack when he was 61. I'm not sure you'd understand how "
        "things are in my family."),
    "sexual_orientation": (
        "Do you smoke or drink alcohol?",
        "I'll be honest, I'm not comfortable talking about personal things with you.",
        "I smoke 20 a day and have done for 35 years. I have a few beers at the weekend. "
        "I'd rather not go into personal matters with you."),
    "cultural": (
        "Do you take any medications?",
        "I hope you'll respect the way we see illness where I come from; I'm not sure you "
        "will.",
        "Amlodipine 5 mg once a day. I stopped my statin about a year ago because I felt "
        "fine. Where I come from we see these things differently, and I'm not sure you "
        "understand that."),
    "education": (
        "Do you take any medications?",
        "Where did you train, doctor? I hope you know what you're doing.",
        "Amlodipine 5 mg once a day. I stopped my statin about a year ago because I felt "
        "fine. I'd like a more senior doctor's opinion on that."),
    "religion": (
        "Do you smoke or drink alcohol?",
        "I'm not sure someone of your faith will respect my beliefs, doctor.",
        "I smoke 20 a day and have done for 35 years. I have a few beers at the weekend. "
        "My faith matters to me, and I'm not sure you'll respect it."),
    "socioeconomic": (
        "What do you do for a living?",
        "I doubt someone like you knows what it's like to get by on what I earn.",
        "I'm a bus driver. Not everyone can afford time off work or the cost of medicines, "
        "doctor."),
}


def consult(patient: object, questions: list[str]) -> list[str]:
    """The patient's answers to the questions, in order, each knowing the dialogue before."""
    turns: list[Turn] = []
    answers = []
    for q in questions:
        text = patient.respond(q, turns)  # type: ignore[attr-defined]
        answer = text[0] if isinstance(text, tuple) else text
        answers.append(answer)
        turns += [Turn(index=len(turns), role=Role.DOCTOR, kind="question", content=q),
                  Turn(index=len(turns) + 1, role=Role.PATIENT, kind="answer", content=answer)]
    return answers


def test_the_table_covers_every_patient_bias() -> None:
    assert sorted(SEEN) == sorted(PATIENT_BIASES)


@pytest.mark.parametrize("bias", list(SEEN))
def test_what_each_bias_says_and_when(bias: str) -> None:
    second, added, answer = SEEN[bias]
    questions = [OPENING, second, "When did it start?"]
    biased = consult(BiasedRetrievalPatient(biased_view(STEMI, bias), bias), questions)
    assert biased == [f"{COMPLAINT} {added}", answer, ONSET]
    plain = consult(RetrievalPatient(patient_view(STEMI)), questions)
    assert plain[0] == COMPLAINT and plain[2] == ONSET


def test_the_plain_patient_knows_of_no_illness_and_does_not_guess() -> None:
    assert patient_view(STEMI).hearsay == [] and biased_view(STEMI, "gender").hearsay == []
    assert biased_view(STEMI, "self_diagnosis").hearsay == STEMI.truth.differential
    assert consult(RetrievalPatient(patient_view(STEMI)), ["What do you think it is?"]) == [
        "I really don't know what it is — that's why I came to see you."]


def test_biases_together_each_speak_and_the_reply_says_which() -> None:
    patient = BiasedRetrievalPatient(biased_view(STEMI, "self_diagnosis+socioeconomic"),
                                     "self_diagnosis+socioeconomic")
    text, shown = patient.respond(OPENING, [])
    assert shown == ["self_diagnosis", "socioeconomic"]
    assert text == f"{COMPLAINT} {SEEN['self_diagnosis'][1]} {SEEN['socioeconomic'][1]}"


@pytest.mark.parametrize(("case_id", "opening", "said"), [
    ("peds-003", "¿Qué le trae por aquí?", "Lo he buscado en internet y todo apunta a"),
    ("neuro-003", "Was führt Sie zu uns?", "Ich habe im Internet nachgelesen und glaube"),
    ("id-002", "Qu'est-ce qui vous amène ?", "J'ai cherché sur internet, et pour moi"),
    ("gi-004", "您哪里不舒服？", "我在网上查过了"),
])
def test_a_bias_speaks_the_case_language(case_id: str, opening: str, said: str) -> None:
    case = CASES[case_id]
    patient = BiasedRetrievalPatient(biased_view(case, "self_diagnosis"), "self_diagnosis")
    text, _ = patient.respond(opening, [])
    assert said in text
    assert any(d in text for d in hearsay(case))


def test_a_case_without_a_differential_makes_the_patient_vague() -> None:
    bare = STEMI.model_copy(update={"truth": STEMI.truth.model_copy(
        update={"differential": []})})
    text, _ = BiasedRetrievalPatient(biased_view(bare, "frequency"), "frequency").respond(
        OPENING, [])
    assert text.endswith("Lots of people I know have had something serious lately; it "
                         "seems to be going around.")


def test_no_bias_ever_names_the_diagnosis_or_a_result() -> None:
    """Every bundled case, every bias, the questions that make each speak: the fidelity leak
    check passes on every answer, and the illness named is never an accepted diagnosis."""
    questions = [OPENING, "What do you think is causing this?", "Can I examine you?",
                 "Does any illness run in your family?", "Do you smoke or drink?",
                 "Do you take any medications?", "What do you do for a living?"]
    checked = 0
    for case in CASES.values():
        record = build_record(case)
        reader = QuestionReader(case, record)
        accepted = [case.truth.diagnosis, *case.truth.synonyms]
        for entry in hearsay(case):
            assert not matches(entry, accepted, case.truth.icd10), (case.id, entry)
        for bias in PATIENT_BIASES:
            patient = BiasedRetrievalPatient(biased_view(case, bias), bias)
            for i, (q, a) in enumerate(zip(questions, consult(patient, questions),
                                           strict=True)):
                leak = check_patient(reader, q, a, index=i, agent="retrieval").checks["leak"]
                assert leak.outcome == "pass", (case.id, bias, a, leak.reason)
                checked += 1
    assert checked == len(CASES) * len(PATIENT_BIASES) * len(questions)


def test_the_differential_entry_naming_the_diagnosis_is_never_heard_of() -> None:
    # id-002's diagnosis is a facial palsy; its differential's idiopathic facial palsy
    # contains those words, so a patient could give the diagnosis away by naming it.
    case = CASES["id-002"]
    assert "paralysie faciale idiopathique (paralysie de Bell)" in case.truth.differential
    assert "paralysie faciale idiopathique (paralysie de Bell)" not in hearsay(case)
