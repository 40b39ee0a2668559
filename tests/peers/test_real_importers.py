"""The importer content tests on the peers' own samples (../shared/peers, or $BEDSIDE_PEERS),
read in place: every assertion the default run makes on our fixtures, made here on the real
files with their real values. Collected only when asked for (see tests/conftest.py).
"""

from __future__ import annotations

import json

from core.agents.retrieval_examiner import RetrievalExaminer
from core.importers import import_file
from core.transcript import EndReason, Role
from core.views import doctor_view, examiner_view, patient_view
from tests import importer_checks as checks
from tests.importer_support import find, real_samples, roundtrip, tree_text

REAL = real_samples()


def test_agentclinic_sample() -> None:
    result = import_file("agentclinic", REAL.path(REAL.medqa))
    assert len(result.cases) == 5 and result.warnings == []
    roundtrip(result)
    first = result.cases[0]
    assert first.id == "agentclinic-agentclinic_medqa_sample-1"
    assert (first.source, first.licence, first.specialty) == ("agentclinic", "MIT", "general")
    assert first.truth.diagnosis == "Myasthenia gravis"
    assert first.patient.demographics.age == "35" and first.patient.demographics.sex == "female"
    assert first.patient.primary_symptoms[0].name == "Double vision"
    assert len(first.patient.secondary_symptoms) == 3
    kinds = {h.kind for h in first.patient.history}
    assert kinds == {"past_medical", "social", "review_of_systems"}
    assert find(first.physical_exam, "Vital Signs", "Heart Rate").value == "72 bpm"
    assert find(first.tests, "Imaging", "Chest CT", "Findings").value.startswith("Normal, no")
    assert "myasthenia" not in first.title.lower()
    infant = result.cases[2]
    assert infant.patient.demographics.age == "8 months"
    assert find(infant.tests, "Barium Enema", "Findings").value.endswith("Hirschsprung disease")


def test_agentclinic_sample_loses_no_leaf_text() -> None:
    checks.check_medqa_loses_no_leaf_text(REAL)


def test_agentclinic_sample_patient_sees_no_finding() -> None:
    checks.check_medqa_patient_sees_no_finding(REAL)


def test_nejm_sample() -> None:
    result = import_file("agentclinic-nejm", REAL.path(REAL.nejm))
    assert len(result.cases) == 3
    roundtrip(result)
    case = result.cases[0]
    assert case.truth.diagnosis == case.truth.correct_option == "Exogenous ochronosis"
    assert len(case.truth.options) == 5 and "Contact dermatitis" in case.truth.options
    assert case.images[0].url.startswith("https://csvc.nejm.org/") and case.images[0].given_upfront
    assert doctor_view(case).images[0].url == case.images[0].url  # the image is given up front
    assert case.objective.startswith("A 55-year-old woman presented to the dermatology clinic")
    assert case.objective.endswith("What is the most likely diagnosis?")
    assert "hydroquinone" in case.patient.history_of_present_illness
    assert case.specialty == "dermatology" and case.patient.demographics.age == "55"
    assert result.cases[2].truth.diagnosis == "Pulmonary Sarcoidosis"
    assert all("sarcoidosis" not in c.title.lower() for c in result.cases)
    assert result.cases[2].objective.endswith("Which of the following is the most likely "
                                              "diagnosis?")


def test_nejm_findings_reach_only_the_examiner() -> None:
    """No sentence of the exam text, nor of the question's findings, reaches the doctor."""
    checks.check_nejm_findings_leave_the_doctor(REAL)
    case = import_file("agentclinic-nejm", REAL.path(REAL.nejm)).cases[0]
    examiner = RetrievalExaminer(examiner_view(case))
    text, reported = examiner.report(["skin biopsy"])
    assert "banana-shaped bodies in the dermis" in text and "normal" not in text.lower()
    assert reported == ["Skin biopsy"]
    text, _ = examiner.report(["dermoscopy"])
    assert "Hyperchromic, pinpoint macules" in text
    text, _ = examiner.report(["physical examination"])
    assert "bluish-brown patches" in text  # the question's exam sentence, for the examiner


def test_nejm_labelled_segments_and_headings() -> None:
    cases = import_file("agentclinic-nejm", REAL.path(REAL.nejm)).cases
    boy = cases[1]  # "Laboratory testing results: - ... Imaging results: - CT scan of the neck: ..."
    labs = find(boy.tests, "Laboratory testing")
    assert labs.value == "Peripheral eosinophilia present"
    assert find(boy.tests, "Laboratory testing", "Tests for histoplasmosis").value == "Negative"
    assert find(boy.tests, "Imaging", "CT scan of the neck").value.startswith("Hyperattenuating")
    # A test the question names but physical_exams does not carry becomes its own item.
    assert find(boy.tests, "Lymph node biopsy").value == "Lymph node biopsy results are shown."
    woman = cases[2]
    assert find(woman.tests, "Transbronchial lung biopsy").value.startswith("Showed multiple")
    examiner = RetrievalExaminer(examiner_view(woman))
    assert "noncaseating granulomas" in examiner.report(["lung biopsy"])[0]


def test_aihospital_chinese_sample() -> None:
    result = import_file("aihospital", REAL.path(REAL.aih_zh))
    assert len(result.cases) == 2
    roundtrip(result)
    case = result.cases[0]
    assert case.id == "aihospital-1003" and case.language == "zh-Hans"
    assert (case.source, case.licence, case.specialty) == ("aihospital", "MIT", "gastroenterology")
    assert case.patient.demographics.age == "54" and case.patient.demographics.sex == "男"
    assert case.patient.chief_complaint == "胸闷伴恶心2天，加重1.5小时"
    assert find(case.tests, "血常规", "血红蛋白").value == "63g/L"
    assert find(case.tests, "大便常规", "隐血").value == "阳性"
    assert case.physical_exam[0].name == "查体" and "Murphy征阴性" in case.physical_exam[0].value
    assert case.truth.diagnosis == "上消化道出血：消化性溃疡出血"
    assert "中度贫血" in case.truth.other_names()
    assert case.truth.differential == ["胃癌出血", "食管胃底静脉曲张破裂出血"]
    assert "艾司奥美拉唑" in case.truth.treatment
    assert "分析总结" in case.truth.extra and "初步诊断" in case.truth.extra
    assert case.truth.extra["record.url"].startswith("https://")
    assert "<说法方式>" in case.patient.persona
    second = result.cases[1]
    assert find(second.tests, "影像学检查", "头颅CT").value == "右侧脑外伤术后改变"
    assert second.truth.diagnosis == "继发性癫痫" and second.specialty == "neurology"
    # The diagnosis stays out of what the patient and the doctor see up front.
    assert second.truth.diagnosis not in second.title + second.objective


def test_aihospital_english_sample() -> None:
    result = import_file("aihospital", REAL.path(REAL.aih_en))
    roundtrip(result)
    case = result.cases[0]
    assert case.id == "aihospital-10001" and case.language == "en"
    assert case.patient.demographics.occupation == "Retired Teacher"
    assert find(case.physical_exam, "Blood pressure").value == "182/115 mmHg"
    assert find(case.tests, "Blood tests", "Lipid profile").value == "elevated LDL cholesterol"
    assert "Left ventricular hypertrophy" in find(case.tests, "ECG").value
    assert case.truth.diagnosis == "Grade 2 hypertension, high risk"
    assert case.truth.differential[1] == "Migraine"
    # Every bullet line of the source survives in the findings.
    record = json.loads(REAL.path(REAL.aih_en).read_text(encoding="utf-8"))[0]["medical_record"]
    text = tree_text(case.physical_exam) + tree_text(case.tests)
    for key in ("physical_examination", "auxiliary_examinations"):
        for line in record[key].splitlines():
            body = line.strip().lstrip("- ").strip()
            name, _, value = body.partition(": ")
            assert (name in text and value in text) if value else body.rstrip(":") in text


def test_dialog_sample() -> None:
    result = import_file("aihospital-dialog", REAL.path(REAL.dialog))
    assert len(result.transcripts) == 5 and result.cases == []
    first = result.transcripts[0]
    assert first.case_id == "aihospital-1812" and first.doctor == "gpt-4"
    assert first.end_reason is EndReason.IMPORTED
    assert first.meta["patient_engine_name"] == "gpt-3.5-turbo"
    roles = [t.role for t in first.turns]
    assert roles[:2] == [Role.DOCTOR, Role.PATIENT] and Role.EXAMINER in roles
    assert [t.index for t in first.turns] == list(range(len(first.turns)))
    for turn in first.turns:
        assert "<对医生讲>" not in turn.content and "<结束>" not in turn.content
    to_examiner = next(t for t in first.turns if t.addressee is Role.EXAMINER)
    assert to_examiner.role is Role.PATIENT and to_examiner.content.startswith("您好，医生建议")
    assert first.turns[1].addressee is Role.DOCTOR
    report = next(t for t in first.turns if t.role is Role.EXAMINER)
    assert report.tests == ["X光检查"] and report.kind == "result"
    ended = [t for t in first.turns if t.meta.get("end")]
    assert len(ended) == 1 and ended[0].content.startswith("谢谢医生")
    assert first.report is not None and first.diagnosis.startswith("左股骨粗隆间骨折")
    assert result.transcripts[3].doctor == "qwen-max-1201"
    # A trailing <结束> tag is stripped too.
    last_patient = [t for t in result.transcripts[3].turns if t.role is Role.PATIENT][-1]
    assert last_patient.meta["end"] and not last_patient.content.endswith(">")


def test_dialog_sample_addressees() -> None:
    checks.check_dialog_addressees(REAL, reporters=4)


def test_rjua_sample() -> None:
    result = import_file("rjua", REAL.path(REAL.rjua))
    roundtrip(result)
    (case,) = result.cases
    assert (case.source, case.licence, case.language) == ("rjua", "CC-BY-NC-SA-4.0", "zh-Hans")
    assert case.expected_rounds == 10
    # The sample has 年龄=男 and 性别=73岁; the importer puts them right and says so.
    assert case.patient.demographics.age == "73" and case.patient.demographics.sex == "男"
    assert any("swapped" in w for w in result.warnings)
    assert case.patient.opening.startswith("医生您好") and case.patient.chief_complaint
    assert case.truth.diagnosis == "膀胱恶性肿瘤"
    assert case.truth.synonyms == ["膀胱癌", "膀胱肿瘤", "CAB"]
    assert "膀胱根治性切除术" in case.truth.treatment and "输尿管皮肤造口" in case.truth.treatment
    urine = find(case.tests, "尿常规")
    assert "尿潜血 3+↑" in urine.value and urine.timing == "4个月前" and urine.weight == 2.0
    assert find(case.tests, "凝血功能").weight == 1.0
    assert "术前验血" in find(case.tests, "肾功能").synonyms
    assert [i.name for i in case.tests].count("CTU") == 2  # same scan, two dates
    assert [i.name for i in case.tests].count("肾功能") == 1  # verbatim repeat merged
    assert "15.6秒" in find(case.tests, "凝血功能").value  # multi-line quoted cell
    symptoms = {s.name: s for s in case.patient.primary_symptoms}
    assert symptoms["肉眼血尿"].duration == "4个月" and symptoms["尿痛"].present is False
    kinds = {h.name: h.kind for h in case.patient.history}
    assert kinds["DSA"] == "surgical" and kinds["厄贝沙坦"] == "medication"
    assert kinds["高血压"] == "past_medical" and kinds["婚育史"] == "social"
    steps = [(s.category, s.name) for s in case.expected_inquiry_order]
    assert steps[:4] == [("symptom", "排尿困难"), ("symptom", "肉眼血尿"), ("symptom", "尿痛"),
                         ("test", "尿常规")]
    assert steps.index(("test", "泌尿系统CT平扫")) < steps.index(("test", "CTU"))
    assert ("history", "surgical") in steps and steps[-2:] == [("diagnosis", None),
                                                               ("treatment", None)]
    names = {i.name for _, _, i in case.findings()}
    assert all(n in names for c, n in steps if c == "test" and n)
    assert case.truth.extra["正确顺序"].startswith("尿常规=")


def test_rjua_sample_partition() -> None:
    """Operative findings leave the patient for the examiner; the diagnosis named in the
    patient's opening (RJUA's design) is kept but reported."""
    result = import_file("rjua", REAL.path(REAL.rjua))
    case = result.cases[0]
    seen = patient_view(case).model_dump_json()
    assert "广基实性新生物" not in seen and "栓塞左侧骼内动脉" not in seen
    surgery = {h.name: h.text for h in case.patient.history if h.kind == "surgical"}
    assert surgery == {"经尿道膀胱肿瘤电切术": "经尿道膀胱肿瘤电切术（1个半月前）",
                       "DSA": "DSA（1个半月前）"}
    operation = find(case.tests, "经尿道膀胱肿瘤电切术术中所见")
    assert "广基实性新生物" in operation.value and operation.timing == "1个半月前"
    assert operation.weight == 0.0  # RJUA scores the history row, not this copy
    examiner = RetrievalExaminer(examiner_view(case))
    assert "广基实性新生物" in examiner.report(["经尿道膀胱肿瘤电切术"])[0]
    assert "栓塞左侧骼内动脉" in examiner.report(["DSA"])[0]
    leak = [w for w in result.warnings if "names the diagnosis" in w]
    assert len(leak) == 1 and "'膀胱癌'" in leak[0] and "'膀胱肿瘤'" in leak[0]
    assert "'膀胱恶性肿瘤'" not in leak[0]  # the opening does not use the full name
    assert leak[0].startswith(f"{REAL.path(REAL.rjua)}: case rjua-sp_test_case")
