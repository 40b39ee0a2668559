"""Importers from the peer benchmarks' formats, one format at a time: our fixture files in
each format (tests/fixtures/peers, see tests/importer_support.py) and small synthetic records
with odd shapes, checked field by field and against the information partition.

The same content checks on the peers' own samples are in tests/peers/ (the extra run);
reading, encoding and line-number errors are in test_importers_reading.py; seeded fuzzing of
every importer is in test_importers_fuzz.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.agents.retrieval_examiner import RetrievalExaminer
from core.errors import InputError
from core.importers import import_file
from core.transcript import EndReason, Role
from core.views import doctor_view, examiner_view, patient_view
from tests import importer_checks as checks
from tests.importer_support import FIXTURES as S
from tests.importer_support import find, rjua_sheet, roundtrip, string_leaves, tree_text


# ---------------------------------------------------------------- AgentClinic MedQA


def test_agentclinic_fixture() -> None:
    result = import_file("agentclinic", S.path(S.medqa))
    assert len(result.cases) == 5 and result.warnings == []
    roundtrip(result)
    first = result.cases[0]
    assert first.id == "agentclinic-medqa_fixture-1"
    assert (first.source, first.licence, first.specialty) == ("agentclinic", "MIT", "general")
    assert first.truth.diagnosis == "Graves disease"
    assert first.patient.demographics.age == "41" and first.patient.demographics.sex == "female"
    assert first.patient.primary_symptoms[0].name == "Palpitations"
    assert len(first.patient.secondary_symptoms) == 3
    kinds = {h.kind for h in first.patient.history}
    assert kinds == {"past_medical", "social", "review_of_systems"}
    assert find(first.physical_exam, "Vital Signs", "Heart Rate").value == "112 bpm"
    assert find(first.tests, "Imaging", "Thyroid Ultrasound", "Findings").value.startswith(
        "Normal echotexture")
    assert "graves" not in first.title.lower()
    infant = result.cases[2]
    assert infant.patient.demographics.age == "6 weeks"
    assert find(infant.tests, "Abdominal Ultrasound", "Findings").value.endswith(
        "hypertrophic pyloric stenosis")
    # a key with a typographic apostrophe (as the full files have) is kept as written
    assert find(result.cases[4].physical_exam, "Eye Examination", "Amsler’s Grid").value == \
        "No distortion"


def test_agentclinic_fixture_loses_no_leaf_text() -> None:
    checks.check_medqa_loses_no_leaf_text(S)


def _odd_osce() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """An OSCE record with odd key spellings, lists, numbers and deep nesting."""
    exam = {
        "vital signs": {"Temp": 38.2, "BP": "90/60", "SpO2": [94, "on room air"]},
        "VitalSigns": {"HR": 120},
        "Skin_Findings": ["petechiae on legs", "no rash elsewhere"],
        "Chest": {"Auscultation": {"Left": {"Upper_Zone": {"Breath_Sounds": "bronchial"}}}},
        "Abdomen": "Soft",
        "Reflexes": True,
        "Notes": None,
    }
    tests = {
        "Blood_Cultures": [{"Bottle": 1, "Result": "Gram-negative rods"},
                           {"Bottle": 2, "Result": "pending"}],
        "Lactate": 4.1,
        "Imaging": [{"CXR": "left lower lobe consolidation"}, "CT deferred"],
    }
    osce = {"OSCE_Examination": {
        "Objective_for_Doctor": "Assess the febrile patient.",
        "Patient_Actor": {
            "Demographics": "70-year-old man",
            "History": "Fever for two days.",
            "Symptoms": {"Primary_Symptom": ["Fever", "Rigors"], "Secondary_Symptoms": "Cough",
                         "Duration": "2 days"},
            "Family_History": "Mother had diabetes.",
            "Medications": ["Metformin", "Ramipril"],
            "Allergies": "Penicillin",
            "Past_Surgical_History": "Appendicectomy",
            "Menstrual_History": "Not applicable",
            "Travel": {"Recent": "Spain"},
        },
        "Physical_Examination_Findings": exam,
        "Test_Results": tests,
        "Lab_Results": {"Troponin": "0.01 ng/mL"},
        "Teaching_Points": {"Key": "CURB-65"},
        "Correct_Diagnosis": "Pneumococcal pneumonia with sepsis",
    }}
    return exam, tests, osce


def test_agentclinic_free_form_nesting(tmp_path: Path) -> None:
    exam, tests, osce = _odd_osce()
    good = json.dumps(osce)
    path = tmp_path / "extended.jsonl"
    path.write_text(f"\n{good}\n\n{good}", encoding="utf-8")  # blank lines; no final newline
    result = import_file("agentclinic", path)
    roundtrip(result)
    assert [c.id for c in result.cases] == ["agentclinic-extended-2", "agentclinic-extended-4"]
    case = result.cases[1]
    names = [i.name for i in case.physical_exam]
    assert names == ["vital signs", "Vital Signs", "Skin Findings", "Chest", "Abdomen",
                     "Reflexes", "Notes"]
    assert find(case.physical_exam, "vital signs", "Temp").value == "38.2"
    assert find(case.physical_exam, "vital signs", "SpO2").value == "94; on room air"
    assert find(case.physical_exam, "Chest", "Auscultation", "Left", "Upper Zone",
                 "Breath Sounds").value == "bronchial"
    assert find(case.physical_exam, "Reflexes").value == "true"
    assert find(case.tests, "Blood Cultures", "Blood Cultures 2", "Result").value == "pending"
    assert find(case.tests, "Lactate").value == "4.1"
    assert find(case.tests, "Troponin").value == "0.01 ng/mL"  # a second test section
    assert case.truth.extra["Teaching_Points"] == "Key: CURB-65"  # unknown key kept
    assert any("Teaching_Points" in w and "extended.jsonl:4" in w for w in result.warnings)
    text = tree_text(case.physical_exam) + tree_text(case.tests)
    for leaf in string_leaves(exam) + string_leaves(tests):
        assert leaf in text, leaf
    kinds = {(h.kind, h.name) for h in case.patient.history}
    assert {("family", None), ("medication", None), ("allergy", None), ("surgical", None),
            ("menstrual_obstetric", None), ("other", "Travel")} <= kinds
    assert [s.name for s in case.patient.primary_symptoms] == ["Fever", "Rigors"]
    assert case.patient.secondary_symptoms[0].name == "Cough"
    assert any(h.name == "Symptoms: Duration" for h in case.patient.history)
    assert case.patient.demographics.sex == "male"


def test_agentclinic_fixture_patient_sees_no_finding() -> None:
    checks.check_medqa_patient_sees_no_finding(S)


def test_agentclinic_key_spellings_route_to_the_examiner(tmp_path: Path) -> None:
    """Exam/test sections under any spelling reach the examiner, never truth.extra; an
    empty Correct_Diagnosis falls back to a filled Diagnosis; sections misplaced inside
    Patient_Actor leave the patient."""
    osce = {"OSCE_Examination": {
        "Objective_for_Doctor": "Assess the patient with chest pain.",
        "Patient_Actor": {"Demographics": "60-year-old man", "History": "Chest pain for 1 h.",
                          "Symptoms": {"Primary_Symptom": "Chest pain"},
                          "Vital_Signs": {"BP": "150/90"},
                          "Test_Results": {"Troponin": "raised"},
                          "Past_Diagnoses": "Hypertension"},
        "Exam_Findings": {"Heart": "S4 gallop"},
        "Imaging": {"Chest_X-Ray": "normal mediastinum"},
        "Lab_Results": ["CK-MB 40", "K 4.1"],
        "ECG": "ST elevation in II, III, aVF",
        "Differential_Diagnosis": ["Aortic dissection", "Pericarditis"],
        "Management": "Primary PCI",
        "Correct_Diagnosis": "",
        "Diagnosis": "Inferior STEMI",
    }}
    path = tmp_path / "odd.jsonl"
    path.write_text(json.dumps(osce), encoding="utf-8")
    result = import_file("agentclinic", path)
    case = result.cases[0]
    assert case.truth.diagnosis == "Inferior STEMI"
    assert any("'Correct_Diagnosis' is empty" in w for w in result.warnings)
    assert find(case.physical_exam, "Heart").value == "S4 gallop"
    assert find(case.physical_exam, "BP").value == "150/90"  # lifted out of Patient_Actor
    assert find(case.tests, "Chest X-Ray").value == "normal mediastinum"
    assert find(case.tests, "Troponin").value == "raised"
    assert find(case.tests, "Lab Results").value == "CK-MB 40; K 4.1"
    assert find(case.tests, "ECG").value == "ST elevation in II, III, aVF"
    assert case.truth.extra == {}  # nothing left unrouted
    assert case.truth.differential == ["Aortic dissection", "Pericarditis"]
    assert case.truth.treatment == "Primary PCI"
    seen = patient_view(case).model_dump_json()
    assert "150/90" not in seen and "raised" not in seen and "S4" not in seen
    assert "Hypertension" in seen  # the patient's own past diagnoses stay with the patient
    moved = [w for w in result.warnings if "moved to the examiner" in w]
    assert len(moved) == 2 and all("odd.jsonl:1" in w for w in moved)


def test_agentclinic_bare_osce_line_and_list_diagnosis(tmp_path: Path) -> None:
    record = {"Objective_for_Doctor": "Assess.", "Patient_Actor": {"History": "Cough."},
              "Test_Results": {"CXR": "consolidation"},
              "Final_Diagnosis": ["Pneumonia", "Sepsis"]}
    path = tmp_path / "bare.jsonl"
    path.write_text(json.dumps(record) + "\r\n", encoding="utf-8")
    result = import_file("agentclinic", path)
    case = result.cases[0]
    assert case.truth.diagnosis == "Pneumonia" and case.truth.other_names() == ["Sepsis"]
    assert any("no OSCE_Examination key" in w for w in result.warnings)
    odd = {"OSCE_Examination": {"Patient_Actor": "A 30-year-old man with a cough.",
                                "History": "Since childhood.",
                                "Correct_Diagnosis": {"Primary": "Asthma", "Other": "Eczema"}}}
    path.write_text(json.dumps(odd), encoding="utf-8")
    case = import_file("agentclinic", path).cases[0]
    assert case.patient.history_of_present_illness == ("A 30-year-old man with a cough.\n"
                                                       "Since childhood.")
    assert case.truth.diagnosis == "Asthma" and case.truth.other_names() == ["Eczema"]


# ---------------------------------------------------------------- AgentClinic NEJM


def test_nejm_fixture() -> None:
    result = import_file("agentclinic-nejm", S.path(S.nejm))
    assert len(result.cases) == 3
    roundtrip(result)
    case = result.cases[0]
    assert case.truth.diagnosis == case.truth.correct_option == "Lichen planus"
    assert len(case.truth.options) == 5 and "Secondary syphilis" in case.truth.options
    assert case.images[0].url.startswith("https://images.example.org/")
    assert case.images[0].given_upfront
    assert doctor_view(case).images[0].url == case.images[0].url  # the image is given up front
    assert case.objective.startswith("A 47-year-old man presented to the dermatology clinic")
    assert case.objective.endswith("What is the most likely diagnosis?")
    assert "scratching makes new bumps" in case.patient.history_of_present_illness
    assert case.specialty == "dermatology" and case.patient.demographics.age == "47"
    assert result.cases[2].truth.diagnosis == "Cardiac amyloidosis"
    assert all("amyloidosis" not in c.title.lower() for c in result.cases)
    assert result.cases[2].objective.endswith("Which of the following is the most likely "
                                              "diagnosis?")
    assert "Non-Hodgkin\u2019s lymphoma" in result.cases[1].truth.options  # JSON-escaped in the file


def test_nejm_findings_reach_only_the_examiner() -> None:
    """No sentence of the exam text, nor of the question's findings, reaches the doctor."""
    checks.check_nejm_findings_leave_the_doctor(S)
    case = import_file("agentclinic-nejm", S.path(S.nejm)).cases[0]
    examiner = RetrievalExaminer(examiner_view(case))
    text, reported = examiner.report(["skin biopsy"])
    assert "band-like lymphocytic infiltrate" in text and "normal" not in text.lower()
    assert reported == ["Skin biopsy"]
    text, _ = examiner.report(["dermoscopy"])
    assert "Whitish reticular streaks" in text
    text, _ = examiner.report(["physical examination"])
    assert "violaceous papules" in text  # the question's exam sentence, for the examiner


def test_nejm_labelled_segments_and_headings() -> None:
    cases = import_file("agentclinic-nejm", S.path(S.nejm)).cases
    girl = cases[1]  # "Laboratory testing results: - ... Imaging results: - CT scan of the neck: ..."
    labs = find(girl.tests, "Laboratory testing")
    assert labs.value == "Mild anemia present"
    assert find(girl.tests, "Laboratory testing", "Tests for toxoplasmosis").value == "Negative"
    assert find(girl.tests, "Imaging", "CT scan of the neck").value.startswith("Enlarged cervical")
    # A test the question names but physical_exams does not carry becomes its own item.
    assert find(girl.tests, "Lymph node biopsy").value == "The lymph node biopsy findings are shown."
    man = cases[2]
    assert find(man.tests, "Transvenous endomyocardial biopsy").value.startswith(
        "Showed amorphous")
    examiner = RetrievalExaminer(examiner_view(man))
    assert "apple-green birefringence" in examiner.report(["endomyocardial biopsy"])[0]


def test_nejm_no_findings_note_and_odd_shapes(tmp_path: Path) -> None:
    """The source's 'no instrument readings' note is no finding; findings may be a dict."""
    base = {"question": "A 40-year-old man presented with a rash on his back. On physical "
            "examination, crusted papules were seen. A skin biopsy showed transepidermal "
            "elimination of collagen. What is the most likely diagnosis?",
            "answers": [{"text": "Reactive perforating collagenosis", "correct": "true"},
                        {"text": "Folliculitis", "correct": False}]}
    note = dict(base, physical_exams="The information provided does not include specific "
                "instrument readings or numerical test results.")
    nested = dict(base, physical_exams={"Skin_Biopsy": {"Histology": "collagen extrusion"}},
                  type="dermatology", patient_info=["I have an itchy rash.", "It is on my back."])
    path = tmp_path / "nejm.jsonl"
    path.write_text(json.dumps(note) + "\n" + json.dumps(nested), encoding="utf-8")
    result = import_file("agentclinic-nejm", path)
    first, second = result.cases
    assert any("nejm.jsonl:1" in w and "no findings" in w for w in result.warnings)
    assert [i.name for i in first.tests] == ["Skin biopsy"]  # from the question, not the note
    assert "transepidermal" in first.tests[0].value
    assert "instrument readings" not in examiner_view(first).model_dump_json()
    assert find(second.tests, "Skin Biopsy", "Histology").value == "collagen extrusion"
    assert second.objective == ("A 40-year-old man presented with a rash on his back. "
                                "What is the most likely diagnosis?")
    assert second.patient.history_of_present_illness == "I have an itchy rash.; It is on my back."
    assert second.specialty == "dermatology"


# ---------------------------------------------------------------- AI Hospital records


def test_aihospital_chinese_fixture() -> None:
    result = import_file("aihospital", S.path(S.aih_zh))
    assert len(result.cases) == 2
    roundtrip(result)
    case = result.cases[0]
    assert case.id == "aihospital-2107" and case.language == "zh-Hans"
    assert (case.source, case.licence, case.specialty) == ("aihospital", "MIT",
                                                           "respiratory medicine")
    assert case.patient.demographics.age == "67" and case.patient.demographics.sex == "女"
    assert case.patient.chief_complaint == "发热伴咳嗽、咳黄痰3天"
    assert find(case.tests, "血常规", "白细胞计数").value == "15.6x10^9/L"
    assert find(case.tests, "炎症指标", "降钙素原").value == "1.8ng/ml"
    assert case.physical_exam[0].name == "查体" and "湿性啰音" in case.physical_exam[0].value
    assert case.truth.diagnosis == "社区获得性肺炎（右下肺）"
    assert "2型糖尿病" in case.truth.other_names()
    assert case.truth.differential == ["肺结核", "肺栓塞"]
    assert "头孢曲松" in case.truth.treatment
    assert "分析总结" in case.truth.extra and "初步诊断" in case.truth.extra
    assert case.truth.extra["record.url"].startswith("https://")
    assert "<说法方式>" in case.patient.persona
    second = result.cases[1]
    assert find(second.tests, "影像学检查", "头颅CT").value == "左侧基底节区高密度影，出血量约15ml"
    assert second.truth.diagnosis == "高血压性脑出血" and second.specialty == "neurology"
    assert second.truth.extra["disease_info.disease"] == "脑出血"  # a nested free-form key
    # The diagnosis stays out of what the patient and the doctor see up front.
    assert second.truth.diagnosis not in second.title + second.objective


def test_aihospital_english_fixture() -> None:
    result = import_file("aihospital", S.path(S.aih_en))
    roundtrip(result)
    case = result.cases[0]
    assert case.id == "aihospital-20031" and case.language == "en"
    assert case.patient.demographics.occupation == "Long-distance Lorry Driver"
    assert find(case.physical_exam, "Blood pressure").value == "146/92 mmHg"
    assert find(case.tests, "Blood tests", "HbA1c").value == "9.1%"
    assert "Scattered dot haemorrhages" in find(case.tests, "Fundoscopy").value
    assert case.truth.diagnosis == "Type 2 diabetes mellitus with early retinopathy"
    assert case.truth.differential[1] == "Diabetes insipidus"
    # A nested personal_history object is kept, flattened, as the patient's social history.
    social = [h.text for h in result.cases[1].patient.history if h.kind == "social"]
    assert social == ["smoking: never; alcohol: occasional; family: Mother takes thyroid tablets"]
    # Every bullet line of the source survives in the findings.
    record = json.loads(S.path(S.aih_en).read_text(encoding="utf-8"))[0]["medical_record"]
    text = tree_text(case.physical_exam) + tree_text(case.tests)
    for key in ("physical_examination", "auxiliary_examinations"):
        for line in record[key].splitlines():
            body = line.strip().lstrip("- ").strip()
            name, _, value = body.partition(": ")
            assert (name in text and value in text) if value else body.rstrip(":") in text


@pytest.mark.parametrize("diagnosis", ["，，", "；", "1.\n2.", " ", "（1）（2）", "- "])
def test_aihospital_punctuation_only_diagnosis_is_no_diagnosis(tmp_path: Path,
                                                              diagnosis: str) -> None:
    rec = {"id": 5, "medical_record": {"主诉": "头痛", "诊断结果": diagnosis}}
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps(rec, ensure_ascii=False) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        import_file("aihospital", path)
    message = str(err.value)
    assert message.startswith(f"{path}:1: field 'medical_record") and "\n" not in message
    # With a preliminary diagnosis the record still imports, with a warning.
    rec["medical_record"]["初步诊断"] = "1. 偏头痛\n2. 高血压"
    path.write_text(json.dumps(rec, ensure_ascii=False), encoding="utf-8")
    result = import_file("aihospital", path)
    assert result.cases[0].truth.diagnosis == "偏头痛"
    assert result.cases[0].truth.other_names() == ["高血压"]
    assert any("preliminary" in w for w in result.warnings)


def test_aihospital_falls_back_to_preliminary_diagnosis(tmp_path: Path) -> None:
    path = tmp_path / "one.json"
    path.write_text(json.dumps({"id": "x 1", "medical_record": {"主诉": "头痛", "初步诊断": "偏头痛"}},
                               ensure_ascii=False), encoding="utf-8")
    result = import_file("aihospital", path)
    assert result.cases[0].truth.diagnosis == "偏头痛" and result.cases[0].language == "zh-Hans"
    assert result.cases[0].id.startswith("aihospital-x-1")
    assert any("preliminary" in w for w in result.warnings)


# ---------------------------------------------------------------- AI Hospital dialogues


def test_dialog_fixture() -> None:
    result = import_file("aihospital-dialog", S.path(S.dialog))
    assert len(result.transcripts) == 5 and result.cases == []
    first = result.transcripts[0]
    assert first.case_id == "aihospital-3105" and first.doctor == "gpt-4"
    assert first.end_reason is EndReason.IMPORTED
    assert first.meta["patient_engine_name"] == "gpt-3.5-turbo"
    roles = [t.role for t in first.turns]
    assert roles[:2] == [Role.DOCTOR, Role.PATIENT] and Role.EXAMINER in roles
    assert [t.index for t in first.turns] == list(range(len(first.turns)))
    for turn in first.turns:
        assert "<对医生讲>" not in turn.content and "<结束>" not in turn.content
    to_examiner = next(t for t in first.turns if t.addressee is Role.EXAMINER)
    assert to_examiner.role is Role.PATIENT and to_examiner.content.startswith("你好，医生让我做")
    assert first.turns[1].addressee is Role.DOCTOR
    report = next(t for t in first.turns if t.role is Role.EXAMINER)
    assert report.tests == ["心电图"] and report.kind == "result"
    ended = [t for t in first.turns if t.meta.get("end")]
    assert len(ended) == 1 and ended[0].content.startswith("好的医生")
    assert first.report is not None and first.diagnosis.startswith("心房颤动")
    assert result.transcripts[3].doctor == "qwen-max-1201"
    # A trailing <结束> tag is stripped too.
    last_patient = [t for t in result.transcripts[3].turns if t.role is Role.PATIENT][-1]
    assert last_patient.meta["end"] and not last_patient.content.endswith(">")


def test_dialog_fixture_addressees() -> None:
    checks.check_dialog_addressees(S, reporters=4)


def test_dialog_routes_on_the_leading_tag_only(tmp_path: Path) -> None:
    history = [
        {"turn": 0, "role": "Doctor", "content": "哪里不舒服？"},
        {"turn": 1, "role": "Patient", "content": "<对医生讲> 我头痛。医生说过<对检查员讲>要做CT。"},
        {"turn": 1, "role": "Doctor", "content": "请去做头颅CT。"},
        {"turn": 2, "role": "Patient", "content": "  <对检查员讲><对医生讲> 请告诉我头颅CT结果。"},
        {"turn": 2, "role": "Reporter", "content": "#检查项目#\n- 头颅CT: 未见异常"},
        {"turn": 2, "role": "Doctor", "content": "CT正常。"},
        {"turn": 3, "role": "Patient", "content": "<结束> <对医生讲> 谢谢医生。"},
        {"turn": 4, "role": "Patient", "content": "好的\u2028明白了 <结束>"},
    ]
    path = tmp_path / "d.jsonl"
    # ensure_ascii=False writes U+2028 raw inside the string: still one JSONL line.
    path.write_text(json.dumps({"patient_id": 9, "dialog_history": history},
                               ensure_ascii=False), encoding="utf-8")
    turns = import_file("aihospital-dialog", path).transcripts[0].turns
    assert turns[1].addressee is Role.DOCTOR and turns[1].kind == "answer"
    assert turns[1].content == "我头痛。医生说过<对检查员讲>要做CT。"  # a later tag is text
    assert turns[3].addressee is Role.EXAMINER and turns[3].kind == "test_request"
    assert turns[3].content == "请告诉我头颅CT结果。"
    assert turns[4].addressee is Role.DOCTOR and turns[4].tests == ["头颅CT"]
    assert turns[6].addressee is Role.DOCTOR and turns[6].meta["end"]
    assert turns[6].content == "谢谢医生。"
    assert turns[7].addressee is Role.DOCTOR and turns[7].meta["end"]
    assert turns[7].content == "好的\u2028明白了"


# ---------------------------------------------------------------- RJUA


def test_rjua_fixture() -> None:
    result = import_file("rjua", S.path(S.rjua))
    roundtrip(result)
    (case,) = result.cases
    assert (case.source, case.licence, case.language) == ("rjua", "CC-BY-NC-SA-4.0", "zh-Hans")
    assert case.expected_rounds == 8
    # The fixture has 年龄=女 and 性别=68岁 (as the real sample swaps them); put right, said so.
    assert case.patient.demographics.age == "68" and case.patient.demographics.sex == "女"
    assert any("swapped" in w for w in result.warnings)
    assert case.patient.opening.startswith("医生您好") and case.patient.chief_complaint
    assert case.truth.diagnosis == "右肾恶性肿瘤"
    assert case.truth.synonyms == ["右肾癌", "肾癌", "RCC"]
    assert "腹腔镜右肾部分切除术" in case.truth.treatment and "术后定期复查" in case.truth.treatment
    urine = find(case.tests, "尿常规")
    assert "尿潜血 2+↑" in urine.value and urine.timing == "1个月前" and urine.weight == 2.0
    assert find(case.tests, "凝血功能").weight == 1.0
    assert "术前验血" in find(case.tests, "肾功能").synonyms
    assert [i.name for i in case.tests].count("肾脏增强CT") == 2  # same scan, two dates
    assert [i.name for i in case.tests].count("肾功能") == 1  # verbatim repeat merged
    assert "30.2秒" in find(case.tests, "凝血功能").value  # multi-line quoted cell
    symptoms = {s.name: s for s in case.patient.primary_symptoms}
    assert symptoms["肉眼血尿"].duration == "1个月" and symptoms["发热"].present is False
    kinds = {h.name: h.kind for h in case.patient.history}
    assert kinds["肾动脉栓塞术"] == "surgical" and kinds["氨氯地平"] == "medication"
    assert kinds["高血压"] == "past_medical" and kinds["婚育史"] == "social"
    steps = [(s.category, s.name) for s in case.expected_inquiry_order]
    assert steps[:4] == [("symptom", "腰痛"), ("symptom", "肉眼血尿"), ("symptom", "发热"),
                         ("test", "尿常规")]
    assert steps.index(("test", "泌尿系统B超")) < steps.index(("test", "肾脏增强CT"))
    assert ("history", "surgical") in steps and steps[-2:] == [("diagnosis", None),
                                                               ("treatment", None)]
    names = {i.name for _, _, i in case.findings()}
    assert all(n in names for c, n in steps if c == "test" and n)
    assert case.truth.extra["正确顺序"].startswith("尿常规=")


def test_rjua_fixture_partition() -> None:
    """Operative findings leave the patient for the examiner; the diagnosis named in the
    patient's opening (RJUA's design) is kept but reported."""
    result = import_file("rjua", S.path(S.rjua))
    case = result.cases[0]
    seen = patient_view(case).model_dump_json()
    assert "灰白色组织条" not in seen and "明胶海绵颗粒" not in seen
    surgery = {h.name: h.text for h in case.patient.history if h.kind == "surgical"}
    assert surgery == {"经皮肾穿刺活检术": "经皮肾穿刺活检术（3周前）",
                       "肾动脉栓塞术": "肾动脉栓塞术（3周前）"}
    operation = find(case.tests, "经皮肾穿刺活检术术中所见")
    assert "灰白色组织条" in operation.value and operation.timing == "3周前"
    assert operation.weight == 0.0  # RJUA scores the history row, not this copy
    examiner = RetrievalExaminer(examiner_view(case))
    assert "灰白色组织条" in examiner.report(["经皮肾穿刺活检术"])[0]
    assert "明胶海绵颗粒" in examiner.report(["肾动脉栓塞术"])[0]
    leak = [w for w in result.warnings if "names the diagnosis" in w]
    assert len(leak) == 1 and "'右肾癌'" in leak[0] and "'肾癌'" in leak[0]
    assert "'右肾恶性肿瘤'" not in leak[0]  # the opening does not use the full name
    assert leak[0].startswith(f"{S.path(S.rjua)}: case rjua-sp_fixture")


def test_rjua_bom_unknown_category_and_plain_age(tmp_path: Path) -> None:
    body = ("年龄,,45岁,,,,\n性别,,女,,,,\n诊断,核心诊断,肾结石,,,肾石病，尿石症,\n"
            "宠物接触史,猫,家中养猫,3年,,,\n,狗,邻居养狗,,,,\n预计轮次,,约八轮,,,,\n")
    result = import_file("rjua", rjua_sheet(tmp_path, body, bom=True))
    case = result.cases[0]
    assert case.patient.demographics.age == "45" and case.patient.demographics.sex == "女"
    assert case.truth.synonyms == ["肾石病", "尿石症"]
    others = [h for h in case.patient.history if h.kind == "other"]
    assert [h.name for h in others] == ["宠物接触史/猫", "宠物接触史/狗"]  # blank = same category
    assert "家中养猫（3年）" in others[0].text
    assert case.expected_rounds is None and case.truth.extra["预计轮次"] == "约八轮"
    assert any("宠物接触史" in w for w in result.warnings)
