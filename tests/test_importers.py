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

from core.errors import InputError
from core.importers import import_file
from core.transcript import Role
from core.views import examiner_view, patient_view
from tests import importer_checks as checks
from tests import importer_content as content
from tests.importer_support import FIXTURES as S
from tests.importer_support import find, rjua_sheet, roundtrip, string_leaves, tree_text


# ---------------------------------------------------------------- AgentClinic MedQA


def test_agentclinic_fixture() -> None:
    result = content.check_medqa(
        S, first_id="agentclinic-medqa_fixture-1", diagnosis="Graves disease", age="41",
        sex="female", primary="Palpitations", heart_rate="112 bpm",
        imaging=("Imaging", "Thyroid Ultrasound", "Findings"), imaging_starts="Normal echotexture",
        infant_age="6 weeks", infant_test=("Abdominal Ultrasound", "Findings"),
        infant_ends="hypertrophic pyloric stenosis")
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
    result = content.check_nejm(
        S, diagnosis="Lichen planus", distractor="Secondary syphilis",
        url_prefix="https://images.example.org/",
        opening="A 47-year-old man presented to the dermatology clinic",
        hpi_word="scratching makes new bumps", age="47", third_diagnosis="Cardiac amyloidosis",
        third_word="amyloidosis")
    assert "Non-Hodgkin\u2019s lymphoma" in result.cases[1].truth.options  # escaped in the file


def test_nejm_findings_reach_only_the_examiner() -> None:
    """No sentence of the exam text, nor of the question's findings, reaches the doctor."""
    checks.check_nejm_findings_leave_the_doctor(S)
    content.check_nejm_examiner(S, biopsy="band-like lymphocytic infiltrate",
                                dermoscopy="Whitish reticular streaks", exam="violaceous papules")


def test_nejm_labelled_segments_and_headings() -> None:
    content.check_nejm_segments(
        S, labs="Mild anemia present", negative_test="Tests for toxoplasmosis",
        ct_starts="Enlarged cervical", biopsy_sentence="The lymph node biopsy findings are shown.",
        third_biopsy="Transvenous endomyocardial biopsy", third_starts="Showed amorphous",
        third_request="endomyocardial biopsy", third_text="apple-green birefringence")


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
    result = content.check_aihospital_zh(
        S, first_id="aihospital-2107", specialty="respiratory medicine", age="67", sex="女",
        complaint="发热伴咳嗽、咳黄痰3天",
        tests=[(("血常规", "白细胞计数"), "15.6x10^9/L"), (("炎症指标", "降钙素原"), "1.8ng/ml")],
        exam="湿性啰音", diagnosis="社区获得性肺炎（右下肺）", other="2型糖尿病",
        differential=["肺结核", "肺栓塞"], drug="头孢曲松",
        second_ct="左侧基底节区高密度影，出血量约15ml", second_diagnosis="高血压性脑出血")
    assert result.cases[1].truth.extra["disease_info.disease"] == "脑出血"  # nested, free-form


def test_aihospital_english_fixture() -> None:
    result = content.check_aihospital_en(
        S, first_id="aihospital-20031", occupation="Long-distance Lorry Driver",
        blood_pressure="146/92 mmHg", blood_test=("HbA1c", "9.1%"),
        test_text=("Fundoscopy", "Scattered dot haemorrhages"),
        diagnosis="Type 2 diabetes mellitus with early retinopathy",
        second_differential="Diabetes insipidus")
    # A nested personal_history object is kept, flattened, as the patient's social history.
    social = [h.text for h in result.cases[1].patient.history if h.kind == "social"]
    assert social == ["smoking: never; alcohol: occasional; family: Mother takes thyroid tablets"]


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
    content.check_dialog(S, first_id="aihospital-3105", to_examiner="你好，医生让我做",
                         tests=["心电图"], end="好的医生", diagnosis="心房颤动")


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
    content.check_rjua(
        S, rounds=8, age="68", sex="女", diagnosis="右肾恶性肿瘤", synonyms=["右肾癌", "肾癌", "RCC"],
        treatments=["腹腔镜右肾部分切除术", "术后定期复查"], urine=("尿潜血 2+↑", "1个月前"),
        scans=("泌尿系统B超", "肾脏增强CT"), coagulation="30.2秒",
        symptoms=("腰痛", "肉眼血尿", "发热"), duration="1个月", operation="肾动脉栓塞术",
        medication="氨氯地平")


def test_rjua_fixture_partition() -> None:
    content.check_rjua_partition(
        S, operations={"经皮肾穿刺活检术": "灰白色组织条", "肾动脉栓塞术": "明胶海绵颗粒"},
        timing="3周前", leaked=["右肾癌", "肾癌"], diagnosis="右肾恶性肿瘤",
        case_id="rjua-sp_fixture")


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
