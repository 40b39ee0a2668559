"""The retrieval examiner: multilingual test vocabulary, imaging by region, routine bloods,
verbatim results, "normal" only for named unstored tests, refusal of catch-alls."""

from __future__ import annotations

from typing import Any

import pytest

from core.caseindex import concepts
from core.agents.retrieval_examiner import RetrievalExaminer, is_vague
from core.agents.scripted_doctor import _WORKUP
from core.agents.templates import phrase
from core.case import Case
from core.caseio import load_bundled_cases
from core.views import examiner_view

BUNDLED = {c.id: c for c in load_bundled_cases()}


def make_case(lang: str, exams: list[dict[str, Any]], tests: list[dict[str, Any]]) -> Case:
    """A minimal case holding only what the examiner needs."""
    return Case.model_validate({
        "id": f"t-{lang}", "title": "test", "language": lang, "specialty": "test",
        "objective": "Assess.", "patient": {}, "physical_exam": exams, "tests": tests,
        "truth": {"diagnosis": "Something"}})


EN = make_case("en", exams=[
    {"name": "Vital signs", "children": [{"name": "Temperature", "value": "38.4 °C"},
                                         {"name": "Heart rate", "value": "102 bpm"}]},
    {"name": "Abdominal examination", "value": "RUQ tenderness; Murphy's sign positive."},
    {"name": "Chest examination", "value": "Clear."},
], tests=[
    {"name": "Ultrasound abdomen", "value": "Gallstones, wall 6 mm, pericholecystic fluid."},
    {"name": "Complete blood count", "children": [{"name": "White cell count",
                                                   "value": "16.4 x10^9/L"}]},
    {"name": "Basic metabolic panel", "synonyms": ["BMP"],
     "children": [{"name": "Creatinine", "value": "74 µmol/L"}]},
    {"name": "CT urogram", "synonyms": ["CT"], "value": "Left ureteric stone 6 mm."},
    {"name": "Compression ultrasound of the legs", "value": "Left popliteal DVT."},
    {"name": "Chlamydia and gonorrhoea NAAT", "value": "Negative."},
])
ES = make_case("es", exams=[
    {"name": "Constantes vitales", "children": [{"name": "Tensión arterial",
                                                 "value": "156/94 mmHg"}]},
    {"name": "Exploración abdominal", "value": "Blando, hepatomegalia."},
], tests=[
    {"name": "Ácido úrico en sangre", "value": "8,6 mg/dL"},
    {"name": "Hemograma", "children": [{"name": "Leucocitos", "value": "11.800 /µL"}]},
    {"name": "Bioquímica", "synonyms": ["función renal"],
     "children": [{"name": "Creatinina", "value": "1,28 mg/dL"}]},
    {"name": "Proteína C reactiva", "synonyms": ["PCR"], "value": "54 mg/L"},
    {"name": "Ecografía articular", "value": "Signo del doble contorno."},
])
ZH = make_case("zh-Hans", exams=[{"name": "腹部检查", "value": "腹软，无压痛。"}], tests=[
    {"name": "泌尿系超声", "value": "膀胱左侧壁见乳头状团块。"},
    {"name": "血常规", "children": [{"name": "血红蛋白", "value": "124 g/L"}]},
    {"name": "胸部CT", "value": "双肺未见结节。"},
])
FR = make_case("fr", exams=[{"name": "Examen neurologique", "value": "Paralysie faciale droite."}],
               tests=[{"name": "Numération formule sanguine", "value": "Normale."},
                      {"name": "Échographie obstétricale", "value": "Biométrie normale."}])
DE = make_case("de", exams=[{"name": "Vitalparameter", "children": [
    {"name": "Blutdruck", "value": "185/100 mmHg"}]}], tests=[
    {"name": "Blutbild", "value": "Hb 13,6 g/dl"},
    {"name": "Kraniale Computertomographie", "value": "Hyperdenses Mediazeichen links."}])


def ask(case: Case, *names: str) -> tuple[str, list[str]]:
    return RetrievalExaminer(examiner_view(case)).report(list(names))


@pytest.mark.parametrize("request_name, stored, value", [
    ("vitals", "Vital signs", "38.4 °C"), ("obs", "Vital signs", "102 bpm"),
    ("abdominal exam", "Abdominal examination", "Murphy's sign positive"),
    ("abdo exam", "Abdominal examination", "Murphy's sign positive"),
    ("examination of the abdomen", "Abdominal examination", "Murphy's sign positive"),
    ("exploración abdominal", "Abdominal examination", "Murphy's sign positive"),
    ("腹部检查", "Abdominal examination", "Murphy's sign positive"),
    ("respiratory exam", "Chest examination", "Clear."),
    ("RUQ ultrasound", "Ultrasound abdomen", "Gallstones"),
    ("échographie abdominale", "Ultrasound abdomen", "Gallstones"),
    ("leg ultrasound", "Compression ultrasound of the legs", "popliteal DVT"),
    ("DVT scan", "Compression ultrasound of the legs", "popliteal DVT"),
    ("FBC", "Complete blood count", "16.4"), ("hemograma", "Complete blood count", "16.4"),
    ("血常规", "Complete blood count", "16.4"), ("Blutbild", "Complete blood count", "16.4"),
    ("U&E", "Basic metabolic panel", "74 µmol/L"), ("U&Es", "Basic metabolic panel", "74"),
    ("urea and electrolytes", "Basic metabolic panel", "74"),
    ("serum creatinine", "Creatinine", "74 µmol/L"),
    ("CT KUB", "CT urogram", "ureteric stone"), ("CT", "CT urogram", "ureteric stone"),
    ("chlamydia", "Chlamydia and gonorrhoea NAAT", "Negative."),  # one unambiguous word
])
def test_named_requests_find_the_stored_item_verbatim(request_name: str, stored: str,
                                                      value: str) -> None:
    text, found = ask(EN, request_name)
    assert found == [stored], (request_name, text)
    assert value in text and phrase("en", "normal") not in text


@pytest.mark.parametrize("case, request_name, stored, value", [
    (ES, "uric acid", "Ácido úrico en sangre", "8,6 mg/dL"),
    (ES, "complete blood count", "Hemograma", "11.800"),
    (ES, "basic metabolic panel", "Bioquímica", "1,28"),
    (ES, "U&E", "Bioquímica", "1,28"), (ES, "CRP", "Proteína C reactiva", "54 mg/L"),
    (ES, "blood pressure", "Tensión arterial", "156/94"),
    (ES, "vital signs", "Constantes vitales", "156/94"),
    (ES, "abdominal examination", "Exploración abdominal", "hepatomegalia"),
    (ES, "ultrasound", "Ecografía articular", "doble contorno"),
    (ES, "joint ultrasound", "Ecografía articular", "doble contorno"),
    (ZH, "超声", "泌尿系超声", "乳头状团块"), (ZH, "ultrasound", "泌尿系超声", "乳头状团块"),
    (ZH, "renal ultrasound", "泌尿系超声", "乳头状团块"),
    (ZH, "abdominal ultrasound", "泌尿系超声", "乳头状团块"),
    (ZH, "CBC", "血常规", "124 g/L"), (ZH, "haemoglobin", "血红蛋白", "124 g/L"),
    (ZH, "chest CT", "胸部CT", "双肺"), (ZH, "abdominal exam", "腹部检查", "腹软"),
    (FR, "CBC", "Numération formule sanguine", "Normale."),
    (FR, "neuro exam", "Examen neurologique", "Paralysie"),
    (FR, "ultrasound", "Échographie obstétricale", "Biométrie"),
    (DE, "vitals", "Vitalparameter", "185/100"), (DE, "CT head", "Kraniale Computertomographie",
                                                  "Mediazeichen"),
    (DE, "CT", "Kraniale Computertomographie", "Mediazeichen"),
    (DE, "full blood count", "Blutbild", "13,6"),
])
def test_a_request_in_any_language_finds_the_item_in_any_language(
        case: Case, request_name: str, stored: str, value: str) -> None:
    text, found = ask(case, request_name)
    assert found == [stored], (request_name, text)
    assert value in text


@pytest.mark.parametrize("case, request_name, normal", [
    (EN, "CT head", "normal"), (EN, "MRI brain", "normal"), (EN, "echocardiogram", "normal"),
    (EN, "TSH", "normal"), (ES, "urinalysis", "normal"), (ES, "CT", "normal"),
    (ZH, "CT head", "正常"), (ZH, "头颅CT", "正常"), (DE, "Urinstatus", "unauffällig"),
    (FR, "troponine", "normal"),
])
def test_a_named_unstored_test_is_normal_in_the_case_language(case: Case, request_name: str,
                                                              normal: str) -> None:
    text, found = ask(case, request_name)
    assert text == f"{request_name}: {normal}" and found == [request_name]


def test_bloods_is_the_routine_panel_with_normal_for_members_not_stored() -> None:
    text, found = ask(EN, "bloods")
    assert found == ["Complete blood count", "Basic metabolic panel", "C-reactive protein",
                     "Liver function tests"]
    assert "16.4" in text and "74 µmol/L" in text
    assert "C-reactive protein: normal" in text and "Liver function tests: normal" in text
    text_es, found_es = ask(ES, "análisis de sangre")
    assert found_es[:3] == ["Hemograma", "Bioquímica", "Proteína C reactiva"]
    assert "Perfil hepático: normal" in text_es and "8,6" not in text_es  # urate is not routine
    assert ask(EN, "routine bloods")[1] == ask(EN, "blood tests")[1] == found


def test_a_generic_modality_lists_every_stored_item_of_it() -> None:
    text, found = ask(EN, "ultrasound")
    assert found == ["Ultrasound abdomen", "Compression ultrasound of the legs"]
    assert "Gallstones" in text and "popliteal" in text


def test_imaging_of_another_region_is_not_mistaken_for_the_stored_one() -> None:
    for name in ("CT head", "CT chest", "chest X-ray"):
        text, found = ask(EN, name)
        assert found == [name] and "stone" not in text, name  # the CT urogram is not it


def test_an_item_inside_a_reported_panel_is_reported_once() -> None:
    text, found = ask(EN, "BMP", "creatinine", "ECG", "EKG")
    assert found == ["Basic metabolic panel", "ECG"]
    assert text.count("74 µmol/L") == 1 and text.count("ECG: normal") == 1


@pytest.mark.parametrize("name", [
    "all results", "everything", "any tests", "the rest", "your full record", "all labs",
    "all tests that are abnormal", "everything you've got", "give me all your results",
    "todas las pruebas", "los resultados", "tous les examens", "tous les résultats",
    "alle Befunde", "alle Ergebnisse", "所有检查结果", "全部检查", "检查结果", "all blood tests",
    "all ultrasounds", "whatever you have",
])
def test_requests_that_name_no_test_are_refused(name: str) -> None:
    assert is_vague(name)
    for case in (EN, ES, ZH, FR, DE):
        text, found = ask(case, name)
        assert found == [] and text == phrase(case.language, "refusal")


@pytest.mark.parametrize("name", ["all vital signs", "any troponin", "bloods", "ultrasound",
                                  "U&E", "血常规", "CBC", "Blutbild", "complete blood count"])
def test_named_requests_are_not_vague(name: str) -> None:
    assert not is_vague(name)


def test_a_catch_all_next_to_a_named_test_releases_only_the_named_one() -> None:
    text, found = ask(EN, "FBC", "everything else")
    assert found == ["Complete blood count"] and "Murphy" not in text


def test_concept_tags_compose_modality_and_region_in_every_language() -> None:
    for name in ("abdominal ultrasound", "ecografía abdominal", "échographie abdominale",
                 "Abdomen-Sonographie", "腹部超声", "ultrasound of the abdomen"):
        assert "us:abdomen" in concepts.tag(name).specific, name
    assert concepts.tag("ultrasound").generic == {"us"}
    assert concepts.tag("bloods").groups == {"bloods"}
    assert concepts.tag("PCR", "es").specific == {"lab:crp"}
    assert "lab:crp" not in concepts.tag("PCR", "en").specific  # a PCR test in English
    assert concepts.relation("us:abdomen", "us:kidney") == 2
    assert concepts.relation("us:kidney", "us:abdomen") == 1
    assert concepts.relation("ct:head", "ct:urinary") == 0


# -- bundled cases (facts the case rewrite keeps) ------------------------------------------
@pytest.mark.parametrize("case_id, request_name, expected", [
    ("card-001", "vitals", "Vital signs"), ("card-001", "ECG", "Electrocardiogram"),
    ("card-001", "troponin", "Cardiac troponin"),
    ("gi-002", "vitals", "Vital signs"), ("gi-002", "abdominal exam", "Abdominal examination"),
    ("gi-002", "abdo exam", "Abdominal examination"),
    ("gi-002", "ultrasound", "Ultrasound abdomen"),
    ("pulm-002", "leg ultrasound", "Compression ultrasound of the legs"),
    ("rheum-001", "uric acid", None), ("uro-002", "超声", "泌尿系超声"),
    ("uro-002", "ultrasound", "泌尿系超声"),
])
def test_bundled_cases_answer_from_what_they_store(case_id: str, request_name: str,
                                                   expected: str | None) -> None:
    case = BUNDLED[case_id]
    text, found = ask(case, request_name)
    normal = phrase(case.language, "normal")
    assert len(found) == 1 and found != [request_name], (request_name, text)
    assert not text.endswith(f": {normal}")
    if expected:
        assert found == [expected]
    if request_name in ("abdominal exam", "abdo exam"):
        assert "Murphy" in text
    if request_name == "vitals" and case_id == "gi-002":
        assert "38.4" in text


def test_bloods_on_a_bundled_case_report_stored_panels() -> None:
    text, found = ask(BUNDLED["gi-002"], "bloods")
    assert "Complete blood count" in found and "16.4" in text
    assert "normal" not in text.split("Complete blood count")[0]


def test_the_scripted_doctor_work_up_finds_the_spanish_panels() -> None:
    case = BUNDLED["rheum-001"]
    names = [n for order in _WORKUP for n in order]
    text, found = ask(case, *names)
    for english in ("complete blood count", "basic metabolic panel", "vital signs"):
        assert english not in found, (english, text)  # found its Spanish stored item instead
    assert f"urinalysis: {phrase('es', 'normal')}" in text  # genuinely not stored


def test_an_examination_stored_as_one_text_answers_requests_for_its_parts() -> None:
    case = make_case("zh-Hans", exams=[{"name": "查体", "value": "腹部软，右上腹压痛。心率76次/分。"}],
                     tests=[{"name": "血常规", "value": "白细胞 10.9"}])
    for name in ("腹部检查", "生命体征", "abdominal exam", "vitals"):
        text, found = ask(case, name)
        assert found == ["查体"] and "右上腹压痛" in text, name
    assert ask(case, "CT head") == ("CT head: 正常", ["CT head"])
