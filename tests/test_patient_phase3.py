"""What phase 3 of issue 19 fixed in the offline patient, each a general reading rather
than a case (found by the held-out set `tests/probes/measured/bundled_heldout_v5.jsonl` and
its MedQA companions; the questions here are worded apart from the probes on purpose):
- a word counts as a question word only where its cue is used ("help" is content in "Has
  anything helped?", a word of the complaint cue "how can I help" elsewhere);
- words the record cannot hold and that name nothing clinical ("mugs", "doing") do not
  count towards how many words an answer must hold; a clinical word the record lacks
  still does, and so does a misspelling of a known word;
- misspelt words are corrected to the record's own words, never to another real word;
- "X or Y": either alternative answers, the rest of the question still must;
- when and how long: the onset when no duration is stored, the story's sentence that says
  when for a symptom stored without timing, how often and how quickly, what the patient
  was doing; "when did you first notice" is the onset, not an earlier episode;
- a question about a relative (dad, 아빠, 家里有人) is the family's history, told where
  the record tells it; an item that holds every word of a question answers it whatever
  kind was asked (aspirin in pregnancy is a medicine), and a medicine item that holds the
  question's words answers alone;
- "ever" questions the record answers elsewhere ("seen mice?"), and an earlier "similar
  attack last summer" told in the story."""

from __future__ import annotations

import pytest

from core.agents.questions import found_in, slots
from core.agents.retrieval_patient import RetrievalPatient
from core.caseio import load_bundled_cases
from core.fidelity.stance import consents
from core.importers import import_file
from core.views import patient_view
from tests.importer_support import FIXTURES

CASES = {c.id: c for c in load_bundled_cases()}
CASES.update({c.id: c for c in import_file("agentclinic",
                                          FIXTURES.path(FIXTURES.medqa)).cases})


def ask(case_id: str, question: str) -> str:
    return RetrievalPatient(patient_view(CASES[case_id])).respond(question)


@pytest.mark.parametrize("case_id, question, told", [
    ("peds-002", "Has anything helped her?", "open car window"),
    ("card-002", "How many mugs of coffee do you have each day?", "two strong coffees"),
    ("heme-001", "How long has the numbness been there?", "four months ago"),
    ("agentclinic-medqa_fixture-1", "How long have you had palpitations?", "two months"),
    ("id-101", "How frequently do the fevers come?", "every other day"),
    ("neuro-001", "How fast did the headache build up?", "within seconds"),
    ("pulm-003", "What were you up to when the pain kicked in?", "sofa"),
    ("gi-001", "So when did this kick off, and where did it start?", "belly button"),
    ("uro-002", "尿红是什么时候第一次发现的？", "三周前"),
])
def test_when_how_long_how_often_and_what_were_you_doing(case_id: str, question: str,
                                                         told: str) -> None:
    assert told in ask(case_id, question)


@pytest.mark.parametrize("case_id, question, told", [
    ("uro-001", "Did your dad ever pass a kidney stone?", "My father passed a stone"),
    ("peds-004", "아빠도 어릴 때 경련한 적 있어요?", "애 아빠가"),
    ("agentclinic-medqa_fixture-4", "Any bowel trouble in your family?", "My father had"),
    ("obgyn-002", "Avez-vous pris de l'aspirine depuis le début de la grossesse ?",
     "pas pris d'aspirine"),
    ("id-005", "쥐를 본 적 있어요?", "쥐는 창고에서"),
    ("agentclinic-medqa_fixture-2", "Have you ever had one of these attacks before?",
     "last summer"),
    ("uro-003", "Do you do any sports?", "football"),
])
def test_relatives_other_kinds_and_earlier_episodes_told_where_the_record_tells_them(
        case_id: str, question: str, told: str) -> None:
    assert told in ask(case_id, question)


def test_a_medicine_item_that_holds_the_questions_words_answers_alone() -> None:
    answer = ask("pulm-002", "Did you take anything to help you sleep during the flight?")
    assert "zopiclone" in answer and "Singapore" not in answer


@pytest.mark.parametrize("case_id, question, told", [
    ("gi-002", "Have you been vommiting?", "sick three times"),
    ("endo-001", "Any stomach cramps or diarhea?", "No diarrhoea"),
    ("card-002", "Any chst pain?", "No pain or tightness in my chest"),
])
def test_misspelt_words_are_read_as_the_records_own(case_id: str, question: str,
                                                   told: str) -> None:
    assert told in ask(case_id, question)


def test_a_real_word_is_never_corrected_into_another() -> None:
    patient = RetrievalPatient(patient_view(CASES["gi-003"]))
    assert patient.corrected("Have you had anaemia in the past?") == \
        "Have you had anaemia in the past?"
    assert consents(ask("peds-003", "¿Puedo explorarlo?"))
    # "sports" is no misspelt "spots", though the clinical words hold "spots".
    assert "football" in ask("uro-003", "Do you play sports?")


def test_either_alternative_answers_and_the_rest_must_still() -> None:
    assert slots("Does it spread to your back or your shoulder?", ["spread", "back",
                                                                   "shoulder"]) == \
        [("spread",), ("back", "shoulder")]
    assert "shoulder blade" in ask("gi-002", "Does it spread to your back or your shoulder?")
    # "blood in your urine or stool": the blood is needed too, not "high blood pressure".
    assert "pressure" not in ask("renal-001", "Any blood in your urine or stool?")
    assert ask("psych-001", "Have you been feeling high or overactive?").startswith("No")


def test_words_that_name_nothing_do_not_count_but_clinical_ones_do() -> None:
    patient = RetrievalPatient(patient_view(CASES["card-002"]))
    assert patient.informative(["mugs", "coffee", "asthma", "chst"]) == \
        ["coffee", "asthma", "chst"]
    # Hay fever is an allergy, not the patient's temperature.
    assert not ask("derm-001", "Do you suffer from hay fever?").startswith("Yes")
    assert ask("derm-001", "Have you had a fever?").startswith("Yes")


def test_comparatives_and_plurals_find_their_everyday_equivalents() -> None:
    assert found_in("fussier", "he has been very fussy and off his feeds")
    assert found_in("lumps", "neck swelling for 4 days")
