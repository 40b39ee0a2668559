"""Clinical pathway metrics on a hand-built case and hand-built consultations."""

from __future__ import annotations

import pytest

from core.case import Case
from core.metrics.pathway import pathway_metrics
from core.metrics.trace import build_trace
from core.transcript import FinalReport, Role, Transcript, Turn


def make_case(**over: object) -> Case:
    """A small case: 3 symptoms (weights 3, 1, 1), 1 exam (2), 3 tests (2, 1, 1)."""
    data = {
        "id": "t-001", "title": "Test", "specialty": "gastroenterology", "objective": "Pain.",
        "patient": {
            "primary_symptoms": [{"name": "abdominal pain", "synonyms": ["tummy pain"],
                                  "weight": 3}],
            "secondary_symptoms": [{"name": "vomiting", "synonyms": ["being sick"]},
                                   {"name": "fever"}],
            "history": [{"kind": "menstrual_obstetric", "text": "LMP 3 weeks ago."}],
        },
        "physical_exam": [{"name": "Abdominal examination", "synonyms": ["abdomen exam"],
                           "value": "RIF tenderness", "weight": 2}],
        "tests": [
            {"name": "Complete blood count", "synonyms": ["CBC", "FBC"], "weight": 2,
             "relevant": True, "children": [{"name": "White cell count", "value": "15"}]},
            {"name": "Pregnancy test", "synonyms": ["hCG"], "relevant": True,
             "value": "negative"},
            {"name": "CT abdomen", "relevant": False, "value": "not done"},
        ],
        "expected_inquiry_order": ["symptom:abdominal pain", "symptom:vomiting",
                                   "history:menstrual_obstetric", "exam:Abdominal examination",
                                   "test:Complete blood count", "diagnosis"],
        "expected_rounds": 6,
        "truth": {"diagnosis": "Acute appendicitis", "synonyms": ["appendicitis"],
                  "treatment": "IV antibiotics and laparoscopic appendicectomy"},
    }
    data.update(over)
    return Case.model_validate(data)


def doc(i: int, dt: int, kind: str, text: str, tests: list[str] | None = None) -> Turn:
    """A doctor turn."""
    return Turn(index=i, role=Role.DOCTOR, doctor_turn=dt, kind=kind, content=text,
                tests=tests or [])


def full_transcript() -> Transcript:
    """Asks pain, vomiting, periods; orders abdomen exam, FBC + CT + MRI; diagnoses."""
    turns = [
        doc(0, 1, "question", "Tell me about the tummy pain."),
        Turn(index=1, role=Role.PATIENT, kind="answer", content="It hurts. I have a fever."),
        doc(2, 2, "question", "Have you been being sick?"),
        doc(3, 3, "question", "When was your last period?"),
        doc(4, 4, "test_request", "REQUEST TEST: abdomen exam", ["abdomen exam"]),
        doc(5, 5, "test_request", "REQUEST TEST: white cell count, CT abdomen, MRI brain",
            ["white cell count", "CT abdomen", "MRI brain"]),
        doc(6, 6, "diagnosis", "DIAGNOSIS READY: acute appendicitis"),
    ]
    return Transcript(case_id="t-001", turns=turns, diagnosis="acute appendicitis",
                      report=FinalReport(treatment_plan="IV antibiotics; appendicectomy"))


def test_full_consultation_hand_derived_values() -> None:
    m = pathway_metrics(make_case(), full_transcript())
    # Obtained: pain (3) + vomiting (1) + exam (2) + CBC via its child (2) + CT (1) = 9;
    # total = 3 + 1 + 1 + 2 + 2 + 1 + 1 = 11. Fever was only said by the patient: not counted.
    assert m["info_completeness"][0] == pytest.approx(9 / 11)
    assert "symptom:fever" in m["info_completeness"][1]["missing"]
    # Test orders: CBC (relevant), CT (not relevant), MRI (unknown: not relevant); the exam
    # is not a test and is not counted → 1/3. Of the 2 relevant tests (CBC, pregnancy
    # test) 1 was ordered → 1/2.
    assert m["guidance_precision"][0] == pytest.approx(1 / 3)
    assert m["guidance_precision"][1]["not_counted"] == ["exam:Abdominal examination"]
    assert m["guidance_recall"][0] == pytest.approx(0.5)
    # All 6 expected steps reached at turns 1..6 in order → tau = 1, coverage 6/6.
    assert m["behaviour_standardization"][0] == pytest.approx(1.0)
    assert m["inquiry_coverage"][0] == 1.0
    assert m["clinical_applicability"][0] == pytest.approx(1.0)  # 6 used, 6 expected
    assert m["diagnostic_logicality"][0] == 1.0
    # Truth requirements: {antibiotic} and {appendectomy}; the plan names both.
    assert m["treatment_logicality"][0] == pytest.approx(1.0)
    assert m["treatment_logicality"][1]["method"] == "concepts"


def test_reversed_inquiry_order_gives_negative_tau() -> None:
    turns = [doc(0, 1, "test_request", "x", ["FBC"]), doc(1, 2, "question", "Any periods?"),
             doc(2, 3, "question", "Any vomiting?"),
             doc(3, 4, "question", "Where is the tummy pain?")]
    m = pathway_metrics(make_case(), Transcript(case_id="t-001", turns=turns))
    # Reached (expected pos, turn): (0,4) (1,3) (2,2) (4,1): perfectly reversed → −1; 4 of
    # the 6 expected steps were reached (the exam and the diagnosis were not).
    assert m["behaviour_standardization"][0] == pytest.approx(-1.0)
    assert m["inquiry_coverage"][0] == pytest.approx(4 / 6)
    assert m["clinical_applicability"][0] == pytest.approx(4 / 6)
    assert m["diagnostic_logicality"][0] == 0.0


def test_fewer_than_two_steps_reached_is_undefined() -> None:
    t = Transcript(case_id="t-001", turns=[doc(0, 1, "question", "Where is the tummy pain?")])
    m = pathway_metrics(make_case(), t)
    value, detail = m["behaviour_standardization"]
    assert value is None and "fewer than 2" in detail["reason"]
    assert m["inquiry_coverage"][0] == pytest.approx(1 / 6)  # skipping is visible here


def test_steps_reached_in_one_turn_carry_no_order() -> None:
    t = Transcript(case_id="t-001",
                   turns=[doc(0, 1, "question", "Tummy pain or being sick?")])
    value, detail = pathway_metrics(make_case(), t)["behaviour_standardization"]
    assert value is None and "same turn" in detail["reason"]


def test_empty_transcript_is_undefined_not_nan() -> None:
    m = pathway_metrics(make_case(), Transcript(case_id="t-001"))
    for name in ("info_completeness", "guidance_precision", "guidance_recall",
                 "behaviour_standardization", "inquiry_coverage", "clinical_applicability"):
        assert m[name][0] is None and m[name][1]["reason"] == "no doctor turns"
    assert m["diagnostic_logicality"] == (0.0, {"reached_diagnosis": False,
                                                "note": "no diagnosis counts as wrong"})
    assert m["treatment_logicality"][0] is None


def test_case_without_pathway_data_is_undefined() -> None:
    case = make_case(physical_exam=[], tests=[], expected_inquiry_order=[],
                     expected_rounds=None,
                     patient={"chief_complaint": "pain"},
                     truth={"diagnosis": "Acute appendicitis"})
    t = Transcript(case_id="t-001", turns=[doc(0, 1, "question", "Hello?")])
    m = pathway_metrics(case, t)
    assert m["info_completeness"][0] is None
    assert m["guidance_precision"][1]["reason"] == "no tests ordered"
    assert m["guidance_recall"][1]["reason"] == "case marks no test as relevant"
    assert m["behaviour_standardization"][1]["reason"] == "case has no expected inquiry order"
    assert m["clinical_applicability"][1]["reason"] == "case has no expected rounds"
    assert m["treatment_logicality"][1]["reason"] == "case has no treatment"


def test_whole_examination_request_obtains_every_exam() -> None:
    t = Transcript(case_id="t-001",
                   turns=[doc(0, 1, "test_request", "x", ["physical examination"])])
    trace = build_trace(make_case(), t)
    assert trace.first == {"exam:Abdominal examination": 1}


def _card001() -> Case:
    from core.caseio import load_bundled_cases

    return next(c for c in load_bundled_cases() if c.id == "card-001")


def test_guidance_counts_tests_not_examinations() -> None:
    # card-001 marks ECG and troponin relevant; ordering the physical examination as well
    # must not dilute precision (no examination carries a relevant flag).
    tests = doc(0, 1, "test_request", "x", ["ECG", "troponin"])
    exam = doc(1, 2, "test_request", "x", ["physical examination"])
    only = pathway_metrics(_card001(), Transcript(case_id="card-001", turns=[tests]))
    both = pathway_metrics(_card001(), Transcript(case_id="card-001", turns=[tests, exam]))
    assert only["guidance_precision"][0] == 1.0 and both["guidance_precision"][0] == 1.0
    assert both["guidance_precision"][1]["not_counted"]  # the exams, listed


def test_tests_without_a_relevant_flag_are_not_counted() -> None:
    case = make_case(tests=[{"name": "CBC", "relevant": True, "value": "ok"},
                            {"name": "Lipids", "value": "high"}])
    t = Transcript(case_id="t-001", turns=[doc(0, 1, "test_request", "x", ["CBC", "lipids"])])
    value, detail = pathway_metrics(case, t)["guidance_precision"]
    assert value == 1.0 and detail["unflagged"] == ["test:Lipids"]
    t = Transcript(case_id="t-001", turns=[doc(0, 1, "test_request", "x", ["lipids"])])
    value, detail = pathway_metrics(case, t)["guidance_precision"]
    assert value is None and detail["reason"] == "no tests with a relevant flag ordered"


def test_treatment_logicality_by_concept_with_negation() -> None:
    from core.metrics.treatment import treatment_coverage

    truth = _card001().truth.treatment
    # 8 requirements: aspirin | P2Y12 inhibitor | anticoagulation | PCI | statin |
    # beta-blocker | ACE inhibitor | smoking cessation. Ticagrelor is a P2Y12 inhibitor,
    # heparin an anticoagulant → 4 of 8.
    good = treatment_coverage(truth, "Aspirin 300 mg, ticagrelor, heparin, emergency "
                                     "primary PCI")
    assert good[0] == pytest.approx(0.5)
    bad = treatment_coverage(truth, "Do NOT give aspirin or anticoagulation; no "
                                    "percutaneous coronary intervention")
    assert bad[0] == 0.0 and set(bad[1]["plan_negated"]) == {"aspirin", "anticoagulation",
                                                             "pci"}
    full = treatment_coverage(truth, "DAPT, LMWH and primary PCI; then atorvastatin, "
                                     "bisoprolol, ramipril and smoking cessation advice")
    assert full[0] == 1.0
    # a 'stop X' in the truth is not something to give
    stop = treatment_coverage("Stop ibuprofen and lisinopril; IV fluids", "ibuprofen")
    assert stop[0] == 0.0 and len(stop[1]["requirements"]) == 1


def test_treatment_logicality_without_known_concepts_falls_back_to_key_terms() -> None:
    from core.metrics.treatment import treatment_coverage

    value, detail = treatment_coverage("Wobble the flux capacitor", "flux capacitor")
    assert detail["method"] == "key_terms" and value == pytest.approx(2 / 3)
    assert treatment_coverage("Aspirin", None)[1]["reason"] == "doctor gave no treatment plan"


def test_a_case_scored_again_reuses_its_matchers_and_a_changed_copy_does_not() -> None:
    """A run scores each case many times: its finding index is built once; a changed case
    (a new object) is matched afresh."""
    from core.metrics import trace

    case = make_case()
    first = build_trace(case, full_transcript())
    kept = trace._MATCHERS[id(case)][1]
    build_trace(case, full_transcript())
    assert trace._MATCHERS[id(case)][1] is kept
    renamed = case.model_copy(update={"tests": [t.model_copy(update={
        "name": "Serum lipase", "synonyms": [], "children": []}) for t in case.tests]})
    again = build_trace(renamed, full_transcript())
    assert again.first != first.first
