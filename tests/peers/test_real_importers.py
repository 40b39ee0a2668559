"""The importer content tests on the peers' own samples (../shared/peers, or $BEDSIDE_PEERS),
read in place: the checks the default run makes on our fixtures (tests/importer_content.py,
tests/importer_checks.py), made on the real files with their real values. Collected only
when asked for (see tests/conftest.py).
"""

from __future__ import annotations

from tests import importer_checks as checks
from tests import importer_content as content
from tests.importer_support import real_samples

REAL = real_samples()


def test_agentclinic_sample() -> None:
    content.check_medqa(
        REAL, first_id="agentclinic-agentclinic_medqa_sample-1", diagnosis="Myasthenia gravis",
        age="35", sex="female", primary="Double vision", heart_rate="72 bpm",
        imaging=("Imaging", "Chest CT", "Findings"), imaging_starts="Normal, no",
        infant_age="8 months", infant_test=("Barium Enema", "Findings"),
        infant_ends="Hirschsprung disease")


def test_agentclinic_sample_loses_no_leaf_text() -> None:
    checks.check_medqa_loses_no_leaf_text(REAL)


def test_agentclinic_sample_patient_sees_no_finding() -> None:
    checks.check_medqa_patient_sees_no_finding(REAL)


def test_nejm_sample() -> None:
    content.check_nejm(
        REAL, diagnosis="Exogenous ochronosis", distractor="Contact dermatitis",
        url_prefix="https://csvc.nejm.org/",
        opening="A 55-year-old woman presented to the dermatology clinic",
        hpi_word="hydroquinone", age="55", third_diagnosis="Pulmonary Sarcoidosis",
        third_word="sarcoidosis")


def test_nejm_findings_reach_only_the_examiner() -> None:
    """No sentence of the exam text, nor of the question's findings, reaches the doctor."""
    checks.check_nejm_findings_leave_the_doctor(REAL)
    content.check_nejm_examiner(REAL, biopsy="banana-shaped bodies in the dermis",
                                dermoscopy="Hyperchromic, pinpoint macules",
                                exam="bluish-brown patches")


def test_nejm_labelled_segments_and_headings() -> None:
    content.check_nejm_segments(
        REAL, labs="Peripheral eosinophilia present", negative_test="Tests for histoplasmosis",
        ct_starts="Hyperattenuating", biopsy_sentence="Lymph node biopsy results are shown.",
        third_biopsy="Transbronchial lung biopsy", third_starts="Showed multiple",
        third_request="lung biopsy", third_text="noncaseating granulomas")


def test_aihospital_chinese_sample() -> None:
    content.check_aihospital_zh(
        REAL, first_id="aihospital-1003", specialty="gastroenterology", age="54", sex="男",
        complaint="胸闷伴恶心2天，加重1.5小时",
        tests=[(("血常规", "血红蛋白"), "63g/L"), (("大便常规", "隐血"), "阳性")],
        exam="Murphy征阴性", diagnosis="上消化道出血：消化性溃疡出血", other="中度贫血",
        differential=["胃癌出血", "食管胃底静脉曲张破裂出血"], drug="艾司奥美拉唑",
        second_ct="右侧脑外伤术后改变", second_diagnosis="继发性癫痫")


def test_aihospital_english_sample() -> None:
    content.check_aihospital_en(
        REAL, first_id="aihospital-10001", occupation="Retired Teacher",
        blood_pressure="182/115 mmHg", blood_test=("Lipid profile", "elevated LDL cholesterol"),
        test_text=("ECG", "Left ventricular hypertrophy"),
        diagnosis="Grade 2 hypertension, high risk", second_differential="Migraine")


def test_dialog_sample() -> None:
    content.check_dialog(REAL, first_id="aihospital-1812", to_examiner="您好，医生建议",
                         tests=["X光检查"], end="谢谢医生", diagnosis="左股骨粗隆间骨折")


def test_dialog_sample_addressees() -> None:
    checks.check_dialog_addressees(REAL, reporters=4)


def test_rjua_sample() -> None:
    content.check_rjua(
        REAL, rounds=10, age="73", sex="男", diagnosis="膀胱恶性肿瘤",
        synonyms=["膀胱癌", "膀胱肿瘤", "CAB"], treatments=["膀胱根治性切除术", "输尿管皮肤造口"],
        urine=("尿潜血 3+↑", "4个月前"), scans=("泌尿系统CT平扫", "CTU"), coagulation="15.6秒",
        symptoms=("排尿困难", "肉眼血尿", "尿痛"), duration="4个月", operation="DSA",
        medication="厄贝沙坦")


def test_rjua_sample_partition() -> None:
    content.check_rjua_partition(
        REAL, operations={"经尿道膀胱肿瘤电切术": "广基实性新生物", "DSA": "栓塞左侧骼内动脉"},
        timing="1个半月前", leaked=["膀胱癌", "膀胱肿瘤"], diagnosis="膀胱恶性肿瘤",
        case_id="rjua-sp_test_case")
