"""What phase 3 of issue 19 fixed in the offline agents and the fidelity grading, each a
general reading rather than a case (found by the held-out set written for it,
`tests/probes/measured/bundled_heldout_v5.jsonl`, and its MedQA companions). The questions
and test names here are worded apart from the probe files' on purpose: they test the
reading, not a probe.

Examiner and grading:
- a test asked by an abbreviation, a colloquial or a brand name (hs-TnT, 25-OH D, TPO Abs,
  pneumococcal Ag, T&S, NPA, C diff, a glucose meter) finds the stored item; a meter finds
  the bedside glucose, not the laboratory's; capitals that are one stored item's initials
  find it; a longer test name is not the shorter one inside it (haemoglobin
  electrophoresis); the diagnosis asked for in Chinese or Korean is refused;
- grading: "normal" in the case's script after an English test name, and the examiner's
  own "not a test I know" in every language, are recognised."""

from __future__ import annotations

import pytest

from core.agents.retrieval_examiner import RetrievalExaminer
from core.agents.templates import PHRASES, phrase
from core.agents.test_names import names_no_test
from core.caseio import load_bundled_cases
from core.fidelity.stance import says_normal, says_unknown_test
from core.importers import import_file
from core.views import examiner_view
from tests.importer_support import FIXTURES

CASES = {c.id: c for c in load_bundled_cases()}
MEDQA_FIXTURE = {c.id: c for c in import_file(
    "agentclinic", FIXTURES.path(FIXTURES.medqa)).cases}


def examine(case_id: str, name: str) -> tuple[str, list[str]]:
    case = CASES.get(case_id) or MEDQA_FIXTURE[case_id]
    return RetrievalExaminer(examiner_view(case)).report([name])


@pytest.mark.parametrize("case_id, name, stored", [
    ("card-003", "hs-TnT", "Cardiac troponin"),
    ("gi-003", "25-OH D", "25-hydroxyvitamin D"),
    ("endo-002", "TPO Abs", "Thyroid peroxidase antibodies"),
    ("pulm-001", "pneumococcal Ag", "Pneumococcal urinary antigen"),
    ("neuro-001", "T&S", "Group and save"),
    ("pulm-001", "NPA", "SARS-CoV-2 and influenza PCR"),
    ("neuro-002", "C diff", "Stool culture"),
    ("peds-001", "glucometer", "Blood glucose"),
    ("heme-001", "GPCA", "Gastric parietal cell antibodies"),
    ("agentclinic-medqa_fixture-5", "TAB", "Temporal Artery Biopsy"),
])
def test_abbreviated_colloquial_and_brand_names_find_the_stored_item(
        case_id: str, name: str, stored: str) -> None:
    _, found = examine(case_id, name)
    assert found == [stored]


def test_a_glucose_meter_reads_the_bedside_glucose_not_the_laboratorys() -> None:
    text, found = examine("endo-001", "OneTouch")
    assert found == ["Capillary blood glucose"] and "32.6" not in text


def test_a_longer_test_name_is_not_the_shorter_one_inside_it() -> None:
    text, found = examine("heme-001", "haemoglobin electrophoresis")
    assert found == ["haemoglobin electrophoresis"] and "78 g/L" not in text
    assert text.endswith(": normal")


@pytest.mark.parametrize("case_id, name", [("gi-004", "你认为他得了什么病"),
                                           ("gi-005", "진단명이 뭔가요")])
def test_the_diagnosis_asked_for_in_chinese_or_korean_is_refused(case_id: str,
                                                                 name: str) -> None:
    text, found = examine(case_id, name)
    assert found == [] and text == phrase(CASES[case_id].language, "refusal")


def test_a_korean_test_name_holding_the_word_diagnosis_is_still_a_test() -> None:
    _, found = examine("id-005", "쯔쯔가무시 신속진단검사")
    assert found == ["쯔쯔가무시 항체검사"]


@pytest.mark.parametrize("line, normal", [
    ("urine culture: طبیعی", True), ("basic metabolic panel: 정상", True),
    ("ESR: सामान्य", True), ("Troponin: 14 ng/L", False), ("TSH: 46.2 mU/L", False),
])
def test_normal_is_read_in_any_script_after_an_english_test_name(line: str,
                                                                 normal: bool) -> None:
    assert says_normal(line) is normal


@pytest.mark.parametrize("lang", sorted(PHRASES))
def test_the_examiners_not_a_known_test_is_read_in_every_language(lang: str) -> None:
    assert says_unknown_test(phrase(lang, "unknown_test", "blorp"))
    assert not says_unknown_test(f"blorp: {phrase(lang, 'normal')}")


def test_a_name_written_with_an_ampersand_is_an_abbreviation_not_a_sentence() -> None:
    assert not names_no_test("O&P") and not names_no_test("U & E")
    assert names_no_test("please give me the details")
