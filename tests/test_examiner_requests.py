"""The retrieval examiner reads a request the way AI Hospital's examiner does: a request that
names no test is refused in every supported language, a misspelt test is still found, an
arbitrary word is never turned into a test, and a human player is told plainly when a name
is not a test the examiner knows."""

from __future__ import annotations

import asyncio

import pytest

from core.agents.retrieval_examiner import RetrievalExaminer, is_vague
from core.agents.templates import phrase
from core.agents.test_names import names_no_test
from core.caseio import load_bundled_cases
from core.protocol import split_tests
from core.views import examiner_view
from tui.app.widgets.test_vocabulary import TEST_NAMES

CASES = {c.id: c for c in load_bundled_cases()}


def ask(case_id: str, request: str, strict: bool = False) -> tuple[str, dict]:
    examiner = RetrievalExaminer(examiner_view(CASES[case_id]), strict_unknown=strict)
    reply = asyncio.run(examiner.examine(split_tests(request), request, lambda _: None))
    return reply.text, reply.meta


def test_the_issue_examples_answer_right() -> None:
    text, meta = ask("card-001", "troponon")
    assert text.startswith("Cardiac troponin: High-sensitivity troponin I 94 ng/L")
    assert meta["corrected"] == {"troponon": "troponin"}
    for request in ("please do something useful",
                    "Please provide the most recent medical examination details"):
        text, meta = ask("card-001", request)
        assert text == phrase("en", "refusal") and meta == {"refused": True}, request


@pytest.mark.parametrize("case_id, said", [
    ("card-001", "all results"), ("card-001", "everything you have"),
    ("card-001", "Provide me with the latest examination details"),
    ("card-001", "Tell me the findings of the recent medical examination"),
    ("card-001", "Show me the patient's examination record"),
    ("card-001", "Just do the standard workup"), ("card-001", "Do your job"),
    ("card-001", "Can you tell me the diagnosis?"), ("card-001", "Medical history"),
    ("rheum-001", "Deme los detalles del último examen médico"),
    ("rheum-001", "Proporcióneme la información más reciente"),
    ("rheum-001", "Haga lo que considere oportuno"),
    ("id-002", "Donnez-moi les détails du dernier examen médical"),
    ("id-002", "Montrez-moi le dossier médical"), ("id-002", "Faites ce qui est utile"),
    ("neuro-003", "Bitte geben Sie mir die Details der letzten ärztlichen Untersuchung"),
    ("neuro-003", "Zeigen Sie mir bitte die Patientenakte"),
    ("neuro-003", "Machen Sie etwas Sinnvolles"),
    ("uro-002", "请提供最近的医学检查详情"), ("uro-002", "请给我看病人的病历"),
    ("uro-002", "做点有用的事"), ("uro-002", "把最新的资料发给我"),
])
def test_a_request_that_names_no_test_is_refused_in_every_language(
        case_id: str, said: str) -> None:
    text, meta = ask(case_id, said)
    assert meta == {"refused": True}, text
    assert text == phrase(CASES[case_id].language, "refusal")
    assert all(is_vague(t) for t in split_tests(said))  # the model examiner refuses too


@pytest.mark.parametrize("case_id, said, stored", [
    ("card-001", "tropnin", "Cardiac troponin"),
    ("card-001", "electrocardiagram", "Electrocardiogram"),
    ("card-001", "hemoglobim", "Haemoglobin"),
    ("derm-001", "dopler ultrasound of the leg", "Venous Doppler ultrasound of the right leg"),
    ("pulm-002", "d dimmer", "D-dimer"),
    ("renal-001", "creatinin", "Creatinine"),
    ("rheum-001", "Hemogrma", "Hemograma"),
    ("neuro-003", "Blutbilt", "Blutbild"),
    ("card-001", "could you check the troponin please", "Cardiac troponin"),
])
def test_a_misspelt_or_wordy_request_still_finds_the_stored_test(
        case_id: str, said: str, stored: str) -> None:
    text, meta = ask(case_id, said)
    assert text.lstrip().startswith(stored), text
    assert stored in meta["matched"]


@pytest.mark.parametrize("word", ["podium", "banana", "stood", "lover", "useless"])
def test_an_arbitrary_word_is_never_turned_into_a_test(word: str) -> None:
    # card-001 stores sodium and a stool-free panel; "podium" is one letter from "sodium".
    text, meta = ask("card-001", word)
    assert "mmol/L" not in text and "corrected" not in meta
    strict, meta = ask("card-001", word, strict=True)
    assert strict == phrase("en", "unknown_test", word) or meta == {"refused": True}, strict
    assert "normal" not in strict


def test_model_runs_keep_normal_and_a_player_is_told_plainly() -> None:
    assert ask("card-001", "Tensilon test")[0] == "Tensilon test: normal"
    assert ask("card-001", "banana")[0] == "banana: normal"  # AgentClinic's "normal readings"
    assert ask("card-001", "banana", strict=True)[0] == phrase("en", "unknown_test", "banana")
    text, meta = ask("card-001", "ferritin, banana", strict=True)
    assert text.splitlines() == ["ferritin: normal", phrase("en", "unknown_test", "banana")]
    assert meta["unknown"] == ["banana"]
    for case_id in ("rheum-001", "id-002", "neuro-003", "uro-002"):
        lang = CASES[case_id].language
        assert ask(case_id, "quxbaz", strict=True)[0] == phrase(lang, "unknown_test", "quxbaz")


@pytest.mark.parametrize("case_id", ["card-001", "gi-004", "neuro-003", "peds-003"])
def test_every_name_the_play_screen_completes_is_a_test_the_strict_examiner_knows(
        case_id: str) -> None:
    examiner = RetrievalExaminer(examiner_view(CASES[case_id]), strict_unknown=True)
    unknown = [n for n in TEST_NAMES if examiner.read([n])[0][1].kind in ("unknown", "vague")]
    assert unknown == []


def test_an_imaging_request_never_returns_the_examination_of_that_region() -> None:
    # obgyn-001 stores no CT; "abdomen" is a synonym of its abdominal examination.
    text, _ = ask("obgyn-001", "CT abdomen")
    assert text == "CT abdomen: normal"


def test_test_names_in_a_sentence_are_not_mistaken_for_no_test() -> None:
    for name in ("please check the ceruloplasmin level", "Romberg test", "anti-GBM antibodies",
                 "HLA-B27", "full blood count please", "kernig sign", "查一下尿酸"):
        assert not names_no_test(name), name
    for name in ("please do something useful", "the most recent medical examination details",
                 "请提供最近的医学检查详情"):
        assert names_no_test(name), name
