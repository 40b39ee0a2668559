"""What phase 2 of issue 19 fixed in the offline agents and the fidelity grading, each a
general reading rather than a case (probes that failed in phase 1 or in the held-out set
written for phase 2, `tests/probes/bundled_heldout_v3.jsonl`):
- examination requests worded "Mind if I …", "May I test your coordination?";
- diagnosis probes worded "What do you reckon is going on?";
- a "yes" left out where it would mislead (an ability or amount question, a limited answer);
- "Did you hurt your chest?" asks about an injury, not pain;
- "bother", "at some point", "above" name nothing; travel asked as a journey; weapons;
- a duration that is a pattern ("there all the time") answered with when it began;
- the examiner: "white blood count" is the white cell count, not the whole blood count;
  AChR antibodies and urine eosinophils (Hansel's stain) are known concepts;
- grading: "nobody told me to stop" is not "I don't know"; an answer that is one fact's
  text may tell others too."""

from __future__ import annotations

import pytest

from core.agents.intents import asks_injury, denies_injury, is_exam_request, yes_misleads
from core.agents.retrieval_examiner import RetrievalExaminer
from core.agents.retrieval_patient import RetrievalPatient
from core.agents.templates import phrase
from core.caseindex import concepts
from core.caseio import load_bundled_cases
from core.fidelity.record import build_record
from core.fidelity.stance import stance
from core.views import examiner_view, patient_view

CASES = {c.id: c for c in load_bundled_cases()}


def ask(case_id: str, question: str) -> str:
    return RetrievalPatient(patient_view(CASES[case_id])).respond(question)


@pytest.mark.parametrize("question", ["Mind if I feel your ankles?",
                                      "May I test your coordination?",
                                      "Would you mind if I check your pulse?",
                                      "Okay if I have a listen to your heart?",
                                      "Would it be OK for me to feel your neck?"])
def test_examination_requests_get_consent(question: str) -> None:
    assert is_exam_request(question)
    assert ask("card-003", question) == phrase("en", "consent")


@pytest.mark.parametrize("question", ["Can I check your medications?", "Any swelling?"])
def test_other_questions_are_no_examination_request(question: str) -> None:
    assert not is_exam_request(question)


def test_a_diagnosis_probe_in_everyday_words_is_not_answered_from_the_story() -> None:
    answer = ask("endo-001", "So what do you reckon is going on?")
    assert answer == phrase("en", "no_diagnosis") and stance(answer) == "unknown"


@pytest.mark.parametrize("case_id, question, told", [
    ("card-003", "Can you lie flat in bed at night?", "sitting up in a chair"),
    ("renal-001", "Are you passing much water?", "hardly anything"),
    ("neuro-003", "Kann sie noch sprechen?", "einzelne Silben"),
])
def test_no_yes_before_an_answer_it_would_contradict(case_id: str, question: str,
                                                     told: str) -> None:
    answer = ask(case_id, question)
    assert told in answer and not answer.lower().startswith(("yes", "ja"))


def test_a_plain_symptom_question_still_gets_its_yes() -> None:
    assert ask("card-001", "Are you short of breath?").startswith("Yes, ")
    assert not yes_misleads("Are you short of breath?", "I'm a little short of breath.")
    assert yes_misleads("Do you sleep well?", "I wake at 4.")
    assert yes_misleads("Any pain?", "It doesn't hurt much.")


@pytest.mark.parametrize("case_id, question, told", [
    ("id-001", "Does bright light bother your eyes?", "light hurts my eyes"),
    ("pulm-002", "Have you been on a long journey recently?", "long-haul"),
    ("psych-001", "Are there any weapons at home?", "no guns"),
    ("pulm-003", "Did you hurt your chest?", "No fall, fight or injury"),
    ("gi-001", "How long has it been hurting?", "18 hours ago"),
    ("card-001", "How long have you had the pain?", "70 minutes ago"),
    ("uro-001", "Did you hurt your back?", "no recent injury"),
    ("gi-003", "Can you manage the stairs without getting puffed?", "stairs"),
])
def test_everyday_wordings_find_the_record(case_id: str, question: str, told: str) -> None:
    assert told in ask(case_id, question)


def test_an_injury_question_is_told_from_pain() -> None:
    assert asks_injury("Did you hurt your chest?") and asks_injury("Have you banged your head?")
    assert not asks_injury("Does it hurt when you breathe in?")
    # The present chest pain is not an answer to "did you hurt your chest?".
    assert "sharp" not in ask("pulm-003", "Did you hurt your chest?")
    assert denies_injury(ask("neuro-001", "Did you injure your neck at the gym?"))


@pytest.mark.parametrize("text, denies", [
    ("No recent neck injury or chiropractic manipulation.", True),
    ("I haven't hurt it.", True), ("No me he dado ningún golpe ni tengo heridas.", True),
    ("肚子也没受过伤", True), ("I fell last week.", False),
    # A negation elsewhere in the sentence is not a denied injury.
    ("Like being hit over the head with a bat; painkillers haven't touched it.", False),
])
def test_a_denied_injury_is_read_from_stored_text(text: str, denies: bool) -> None:
    assert denies_injury(text) is denies


def test_white_blood_count_is_the_white_cells_only() -> None:
    text, _ = RetrievalExaminer(examiner_view(CASES["gi-001"])).report(["white blood count"])
    assert "White cell count" in text and "Haemoglobin" not in text


@pytest.mark.parametrize("name, concept", [
    ("anti-AChR antibodies", "lab:achr"), ("acetylcholine receptor antibodies", "lab:achr"),
    ("urine eosinophils", "lab:urine_eos"),
    ("Cytospin Stained With Hansel's Solution", "lab:urine_eos"),
    ("white blood count", "lab:wbc"), ("blood count", "lab:cbc"),
])
def test_test_concepts(name: str, concept: str) -> None:
    assert concepts.tag(name, "en").specific == {concept}


def test_being_told_to_do_something_is_not_not_knowing() -> None:
    assert stance("Ibuprofen every day; nobody told me to stop any.") != "unknown"
    assert stance("Well, nobody told me the results.") == "unknown"
    assert stance("Sorry, I haven't been told any results.") == "unknown"


def test_an_answer_that_is_one_fact_may_tell_another() -> None:
    record = build_record(CASES["peds-003"])
    answer = ("Le han salido manchas rojas que no le pican por el tronco y la zona del pañal "
              "desde hace dos días.")
    names = [f.name for f in record.sources(answer)]
    assert names[0] == "erupción" and "picor" in names
