"""The label-free fidelity checks (core.fidelity): each rule on answers written to pass or to
fail it — including the answers the offline agents gave before issue 19 — the undecided
cases, and the figures per agent."""

from __future__ import annotations

from core.agents.templates import phrase
from core.caseio import load_bundled_cases
from core.fidelity.models import FidelityReport
from core.fidelity.report import check_many, check_transcript
from core.transcript import Role, Transcript, Turn

CASES = {c.id: c for c in load_bundled_cases()}


def dialogue(case_id: str, *pairs: tuple[str, str], agent: str = "retrieval") -> Transcript:
    """A transcript of (doctor message, answer) pairs; REQUEST TEST lines go to the examiner."""
    from core.protocol import parse_doctor_message
    turns: list[Turn] = []
    for said, answer in pairs:
        action = parse_doctor_message(said)
        test = action.kind == "test_request"
        turns.append(Turn(index=len(turns), role=Role.DOCTOR, content=said, tests=action.tests,
                          kind="test_request" if test else "question"))
        turns.append(Turn(index=len(turns), role=Role.EXAMINER if test else Role.PATIENT,
                          content=answer, tests=action.tests, model=agent,
                          kind="result" if test else "answer"))
    return Transcript(case_id=case_id, turns=turns)


def outcomes(case_id: str, *pairs: tuple[str, str]) -> list[dict[str, str]]:
    report = check_transcript(CASES[case_id], dialogue(case_id, *pairs))
    return [{k: c.outcome for k, c in f.checks.items()} for f in report.findings]


def test_a_patient_that_names_the_diagnosis_or_a_result_leaks() -> None:
    named, result, clean = outcomes(
        "derm-001", ("What is wrong?", "I think it's cellulitis, doctor."),
        ("Any fever?", "The nurse said my CRP was 124 mg/L."),
        ("Any fever?", "I felt hot and shivery last night."))
    assert named["leak"] == result["leak"] == "fail" and clean["leak"] == "pass"


def test_the_answers_the_issue_found_wrong_fail_and_the_right_ones_pass() -> None:
    before, exam, leg = outcomes(
        "card-001",
        ("Have you had any chest pain like this before?",
         "Yes, heavy, like a weight pressing on my chest, 8 out of 10; it goes into my jaw and "
         "down my left arm, and resting hasn't eased it."),
        ("Can I examine your chest?", phrase("en", "absent_generic")),
        ("What's wrong with your leg?", phrase("en", "no_diagnosis")))
    assert before["consistent"] == "fail" and exam["consistent"] == "fail"
    assert exam["addresses"] == "fail"
    right = outcomes("card-001",
                     ("Have you had any chest pain like this before?", phrase("en", "not_before")),
                     ("Can I examine your chest?", phrase("en", "consent")),
                     ("What brings you in?", CASES["card-001"].patient.chief_complaint))
    assert all(r["consistent"] == "pass" for r in right), right
    complaint = outcomes("derm-001", ("What's wrong with your leg?", phrase("en", "no_diagnosis")))
    assert complaint[0]["consistent"] == "fail"


def test_denying_a_present_symptom_or_affirming_an_absent_one_is_inconsistent() -> None:
    denied, affirmed, ok_yes, ok_no = outcomes(
        "card-001", ("Are you sweaty?", "No, not at all."),
        ("Is your heart racing?", "Yes, it is pounding away."),
        ("Are you sweaty?", "Yes, I'm drenched in sweat."),
        ("Is your heart racing?", "My heart isn't racing or fluttering."))
    assert denied["consistent"] == affirmed["consistent"] == "fail"
    assert ok_yes["consistent"] == ok_no["consistent"] == "pass"


def test_denying_earlier_episodes_the_record_holds_is_inconsistent() -> None:
    denied, told = outcomes(
        "gi-002", ("Have you had attacks like this before?", phrase("en", "not_before")),
        ("Have you had attacks like this before?", "Four or five shorter attacks after fatty "
                                                   "meals over the past year."))
    assert denied["consistent"] == "fail" and told["consistent"] == "pass"


def test_what_the_rules_cannot_tell_is_undecided() -> None:
    free, = outcomes("card-001", ("How are things at home?",
                                  "Things are calm, my wife keeps me in line."))
    assert free["consistent"] == "undecided"


def test_an_answer_in_another_language_fails_the_language_check() -> None:
    zh, en = outcomes("uro-002", ("有没有发烧？", "No, I have not had any fever at all."),
                      ("有没有发烧？", "没发烧，也不怕冷。"))
    assert zh["language"] == "fail" and en["language"] == "pass"


def test_examiner_accuracy_and_leaks() -> None:
    troponin = "Cardiac troponin: High-sensitivity troponin I 94 ng/L on arrival; 1,840 ng/L " \
               "at 3 hours (reference < 34 ng/L)"
    refusal = phrase("en", "refusal")
    right = outcomes("card-001", ("REQUEST TEST: troponin", troponin),
                     ("REQUEST TEST: troponon", troponin),
                     ("REQUEST TEST: serum lipase", "serum lipase: normal"),
                     ("REQUEST TEST: Please provide the most recent medical examination details",
                      refusal))
    assert [r["accuracy"] for r in right] == ["pass"] * 4 and all(
        r["leak"] == "pass" for r in right)
    wrong = outcomes("card-001", ("REQUEST TEST: troponon", "troponon: normal"),
                     ("REQUEST TEST: troponin", refusal),
                     ("REQUEST TEST: please do something useful",
                      "please do something useful: normal"),
                     ("REQUEST TEST: ECG", "ECG: normal. Troponin 94 ng/L on arrival."))
    assert [w["accuracy"] for w in wrong] == ["fail"] * 4
    assert wrong[3]["leak"] == "fail"


def test_figures_per_agent_count_decided_answers_only() -> None:
    first = dialogue("card-001", ("Are you sweaty?", "Yes, I'm drenched in sweat."),
                     ("Are you sweaty?", "No."), agent="retrieval")
    second = dialogue("card-001", ("How are things at home?", "Calm enough."),
                      ("REQUEST TEST: ECG", "ECG: normal"), agent="openai/model")
    report = check_many([(CASES["card-001"], first), (CASES["card-001"], second)])
    figures = {(f.role, f.agent): f for f in report.figures}
    retrieval = figures[("patient", "retrieval")]
    assert retrieval.answers == 2 and retrieval.rate("consistent") == 0.5
    model = figures[("patient", "openai/model")]
    assert model.shares["consistent"].undecided == 1 and model.rate("consistent") is None
    assert figures[("examiner", "openai/model")].rate("accuracy") == 0.0
    again = FidelityReport.model_validate_json(report.model_dump_json())
    assert again == report
