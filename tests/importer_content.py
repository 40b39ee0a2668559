"""What each importer must make of a file in its format, field by field, written once and run
on two sets of files: our fixtures (tests/test_importers.py, the default run) and the peers'
own samples (tests/peers/test_real_importers.py). Each check takes a `Samples` set and that
set's facts (names, values, where an item sits in a tree); it returns what it imported so
that a caller can check more.
"""

from __future__ import annotations

import json

from core.agents.retrieval_examiner import RetrievalExaminer
from core.importers import ImportResult, import_file
from core.transcript import EndReason, Role
from core.views import doctor_view, examiner_view, patient_view
from tests.importer_support import Samples, find, roundtrip, tree_text


def check_medqa(samples: Samples, *, first_id: str, diagnosis: str, age: str, sex: str,
                primary: str, heart_rate: str, imaging: tuple[str, ...], imaging_starts: str,
                infant_age: str, infant_test: tuple[str, ...],
                infant_ends: str) -> ImportResult:
    """Five OSCE cases; the first and the third (an infant) field by field."""
    result = import_file("agentclinic", samples.path(samples.medqa))
    assert len(result.cases) == 5 and result.warnings == []
    roundtrip(result)
    first = result.cases[0]
    assert first.id == first_id
    assert (first.source, first.licence, first.specialty) == ("agentclinic", "MIT", "general")
    assert first.truth.diagnosis == diagnosis
    assert first.patient.demographics.age == age and first.patient.demographics.sex == sex
    assert first.patient.primary_symptoms[0].name == primary
    assert len(first.patient.secondary_symptoms) == 3
    kinds = {h.kind for h in first.patient.history}
    assert kinds == {"past_medical", "social", "review_of_systems"}
    assert find(first.physical_exam, "Vital Signs", "Heart Rate").value == heart_rate
    assert find(first.tests, *imaging).value.startswith(imaging_starts)
    assert diagnosis.split()[0].lower() not in first.title.lower()
    infant = result.cases[2]
    assert infant.patient.demographics.age == infant_age
    assert find(infant.tests, *infant_test).value.endswith(infant_ends)
    return result


def check_nejm(samples: Samples, *, diagnosis: str, distractor: str, url_prefix: str,
               opening: str, hpi_word: str, age: str, third_diagnosis: str,
               third_word: str) -> ImportResult:
    """Three image challenges: answers, image up front, the objective, the specialty."""
    result = import_file("agentclinic-nejm", samples.path(samples.nejm))
    assert len(result.cases) == 3
    roundtrip(result)
    case = result.cases[0]
    assert case.truth.diagnosis == case.truth.correct_option == diagnosis
    assert len(case.truth.options) == 5 and distractor in case.truth.options
    assert case.images[0].url.startswith(url_prefix) and case.images[0].given_upfront
    assert doctor_view(case).images[0].url == case.images[0].url  # the image is given up front
    assert case.objective.startswith(opening)
    assert case.objective.endswith("What is the most likely diagnosis?")
    assert hpi_word in case.patient.history_of_present_illness
    assert case.specialty == "dermatology" and case.patient.demographics.age == age
    assert result.cases[2].truth.diagnosis == third_diagnosis
    assert all(third_word not in c.title.lower() for c in result.cases)
    assert result.cases[2].objective.endswith("Which of the following is the most likely "
                                              "diagnosis?")
    return result


def check_nejm_examiner(samples: Samples, *, biopsy: str, dermoscopy: str, exam: str) -> None:
    """The first case's examiner reports the biopsy, the dermoscopy and the exam sentence."""
    case = import_file("agentclinic-nejm", samples.path(samples.nejm)).cases[0]
    examiner = RetrievalExaminer(examiner_view(case))
    text, reported = examiner.report(["skin biopsy"])
    assert biopsy in text and "normal" not in text.lower()
    assert reported == ["Skin biopsy"]
    text, _ = examiner.report(["dermoscopy"])
    assert dermoscopy in text
    text, _ = examiner.report(["physical examination"])
    assert exam in text  # the question's exam sentence, for the examiner


def check_nejm_segments(samples: Samples, *, labs: str, negative_test: str, ct_starts: str,
                        biopsy_sentence: str, third_biopsy: str, third_starts: str,
                        third_request: str, third_text: str) -> None:
    """Labelled segments under headings ('Laboratory testing results: - ... Imaging results:
    - CT scan of the neck: ...'); a test only the question names becomes its own item."""
    cases = import_file("agentclinic-nejm", samples.path(samples.nejm)).cases
    second = cases[1]
    assert find(second.tests, "Laboratory testing").value == labs
    assert find(second.tests, "Laboratory testing", negative_test).value == "Negative"
    assert find(second.tests, "Imaging", "CT scan of the neck").value.startswith(ct_starts)
    assert find(second.tests, "Lymph node biopsy").value == biopsy_sentence
    third = cases[2]
    assert find(third.tests, third_biopsy).value.startswith(third_starts)
    examiner = RetrievalExaminer(examiner_view(third))
    assert third_text in examiner.report([third_request])[0]


def check_aihospital_zh(samples: Samples, *, first_id: str, specialty: str, age: str, sex: str,
                        complaint: str, tests: list[tuple[tuple[str, ...], str]], exam: str,
                        diagnosis: str, other: str, differential: list[str], drug: str,
                        second_ct: str, second_diagnosis: str) -> ImportResult:
    """Two Chinese records: the 12 sections routed to patient, examiner and truth."""
    result = import_file("aihospital", samples.path(samples.aih_zh))
    assert len(result.cases) == 2
    roundtrip(result)
    case = result.cases[0]
    assert case.id == first_id and case.language == "zh-Hans"
    assert (case.source, case.licence, case.specialty) == ("aihospital", "MIT", specialty)
    assert case.patient.demographics.age == age and case.patient.demographics.sex == sex
    assert case.patient.chief_complaint == complaint
    for path, value in tests:
        assert find(case.tests, *path).value == value
    assert case.physical_exam[0].name == "查体" and exam in case.physical_exam[0].value
    assert case.truth.diagnosis == diagnosis
    assert other in case.truth.other_names()
    assert case.truth.differential == differential
    assert drug in case.truth.treatment
    assert "分析总结" in case.truth.extra and "初步诊断" in case.truth.extra
    assert case.truth.extra["record.url"].startswith("https://")
    assert "<说法方式>" in case.patient.persona
    second = result.cases[1]
    assert find(second.tests, "影像学检查", "头颅CT").value == second_ct
    assert second.truth.diagnosis == second_diagnosis and second.specialty == "neurology"
    # The diagnosis stays out of what the patient and the doctor see up front.
    assert second.truth.diagnosis not in second.title + second.objective
    return result


def check_aihospital_en(samples: Samples, *, first_id: str, occupation: str,
                        blood_pressure: str, blood_test: tuple[str, str], test_text: tuple[str, str],
                        diagnosis: str, second_differential: str) -> ImportResult:
    """Two English records; every bullet line of the first survives in the findings."""
    result = import_file("aihospital", samples.path(samples.aih_en))
    roundtrip(result)
    case = result.cases[0]
    assert case.id == first_id and case.language == "en"
    assert case.patient.demographics.occupation == occupation
    assert find(case.physical_exam, "Blood pressure").value == blood_pressure
    assert find(case.tests, "Blood tests", blood_test[0]).value == blood_test[1]
    assert test_text[1] in find(case.tests, test_text[0]).value
    assert case.truth.diagnosis == diagnosis
    assert case.truth.differential[1] == second_differential
    record = json.loads(samples.path(samples.aih_en).read_text(encoding="utf-8"))[0]
    text = tree_text(case.physical_exam) + tree_text(case.tests)
    for key in ("physical_examination", "auxiliary_examinations"):
        for line in record["medical_record"][key].splitlines():
            body = line.strip().lstrip("- ").strip()
            name, _, value = body.partition(": ")
            assert (name in text and value in text) if value else body.rstrip(":") in text
    return result


def check_dialog(samples: Samples, *, first_id: str, to_examiner: str, tests: list[str],
                 end: str, diagnosis: str) -> None:
    """Five dialogues: roles, routing tags stripped, the Reporter's tests, the end, the report."""
    result = import_file("aihospital-dialog", samples.path(samples.dialog))
    assert len(result.transcripts) == 5 and result.cases == []
    first = result.transcripts[0]
    assert first.case_id == first_id and first.doctor == "gpt-4"
    assert first.end_reason is EndReason.IMPORTED
    assert first.meta["patient_engine_name"] == "gpt-3.5-turbo"
    roles = [t.role for t in first.turns]
    assert roles[:2] == [Role.DOCTOR, Role.PATIENT] and Role.EXAMINER in roles
    assert [t.index for t in first.turns] == list(range(len(first.turns)))
    for turn in first.turns:
        assert "<对医生讲>" not in turn.content and "<结束>" not in turn.content
    asked = next(t for t in first.turns if t.addressee is Role.EXAMINER)
    assert asked.role is Role.PATIENT and asked.content.startswith(to_examiner)
    assert first.turns[1].addressee is Role.DOCTOR
    report = next(t for t in first.turns if t.role is Role.EXAMINER)
    assert report.tests == tests and report.kind == "result"
    ended = [t for t in first.turns if t.meta.get("end")]
    assert len(ended) == 1 and ended[0].content.startswith(end)
    assert first.report is not None and first.diagnosis.startswith(diagnosis)
    assert result.transcripts[3].doctor == "qwen-max-1201"
    # A trailing <结束> tag is stripped too.
    last_patient = [t for t in result.transcripts[3].turns if t.role is Role.PATIENT][-1]
    assert last_patient.meta["end"] and not last_patient.content.endswith(">")


def check_rjua(samples: Samples, *, rounds: int, age: str, sex: str, diagnosis: str,
               synonyms: list[str], treatments: list[str], urine: tuple[str, str],
               scans: tuple[str, str], coagulation: str, symptoms: tuple[str, str, str],
               duration: str, operation: str, medication: str) -> ImportResult:
    """One standardized patient: demographics put right, weights, timings, merged and kept
    repeats, symptom and history kinds, the order of inquiry.

    `symptoms`: the section's three symptoms in order, the third one absent; `scans`: a test
    asked for before another that was done twice (two dates, two items).
    """
    result = import_file("rjua", samples.path(samples.rjua))
    roundtrip(result)
    (case,) = result.cases
    assert (case.source, case.licence, case.language) == ("rjua", "CC-BY-NC-SA-4.0", "zh-Hans")
    assert case.expected_rounds == rounds
    # Both files have 年龄 and 性别 swapped; the importer puts them right and says so.
    assert case.patient.demographics.age == age and case.patient.demographics.sex == sex
    assert any("swapped" in w for w in result.warnings)
    assert case.patient.opening.startswith("医生您好") and case.patient.chief_complaint
    assert case.truth.diagnosis == diagnosis
    assert case.truth.synonyms == synonyms
    assert all(t in case.truth.treatment for t in treatments)
    found = find(case.tests, "尿常规")
    assert urine[0] in found.value and found.timing == urine[1] and found.weight == 2.0
    assert find(case.tests, "凝血功能").weight == 1.0
    assert "术前验血" in find(case.tests, "肾功能").synonyms
    assert [i.name for i in case.tests].count(scans[1]) == 2  # same scan, two dates
    assert [i.name for i in case.tests].count("肾功能") == 1  # verbatim repeat merged
    assert coagulation in find(case.tests, "凝血功能").value  # multi-line quoted cell
    by_name = {s.name: s for s in case.patient.primary_symptoms}
    assert by_name[symptoms[1]].duration == duration and by_name[symptoms[2]].present is False
    kinds = {h.name: h.kind for h in case.patient.history}
    assert kinds[operation] == "surgical" and kinds[medication] == "medication"
    assert kinds["高血压"] == "past_medical" and kinds["婚育史"] == "social"
    steps = [(s.category, s.name) for s in case.expected_inquiry_order]
    assert steps[:4] == [*(("symptom", s) for s in symptoms), ("test", "尿常规")]
    assert steps.index(("test", scans[0])) < steps.index(("test", scans[1]))
    assert ("history", "surgical") in steps and steps[-2:] == [("diagnosis", None),
                                                               ("treatment", None)]
    names = {i.name for _, _, i in case.findings()}
    assert all(n in names for c, n in steps if c == "test" and n)
    assert case.truth.extra["正确顺序"].startswith("尿常规=")
    return result


def check_rjua_partition(samples: Samples, *, operations: dict[str, str], timing: str,
                         leaked: list[str], diagnosis: str, case_id: str) -> None:
    """Operative findings leave the patient for the examiner; the diagnosis named in the
    patient's opening (RJUA's design) is kept but reported.

    `operations`: each surgical-history row's name → a phrase of its operative findings.
    """
    path = samples.path(samples.rjua)
    result = import_file("rjua", path)
    case = result.cases[0]
    seen = patient_view(case).model_dump_json()
    assert not any(phrase in seen for phrase in operations.values())
    surgery = {h.name: h.text for h in case.patient.history if h.kind == "surgical"}
    assert surgery == {name: f"{name}（{timing}）" for name in operations}
    first, phrase = next(iter(operations.items()))
    operation = find(case.tests, f"{first}术中所见")
    assert phrase in operation.value and operation.timing == timing
    assert operation.weight == 0.0  # RJUA scores the history row, not this copy
    examiner = RetrievalExaminer(examiner_view(case))
    for name, phrase in operations.items():
        assert phrase in examiner.report([name])[0]
    leak = [w for w in result.warnings if "names the diagnosis" in w]
    assert len(leak) == 1 and all(f"'{name}'" in leak[0] for name in leaked)
    assert f"'{diagnosis}'" not in leak[0]  # the opening does not use the full name
    assert leak[0].startswith(f"{path}: case {case_id}")
