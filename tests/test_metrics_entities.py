"""Diagnosis entity metrics: normalisation, splitting, linking, P/R/F1, micro/macro — with the
negative cases that must not link (NSTEMI for STEMI, negated or contradicted answers)."""

from __future__ import annotations

import pytest

from core.case import GroundTruth
from core.metrics.entities import (aggregate_entities, entity_metrics, match_entities,
                                   split_entities)
from core.metrics.icd import IcdIndex, icd_index
from core.metrics.textnorm import normalise

TRUTH = GroundTruth(diagnosis="Iron deficiency anaemia", synonyms=["IDA"],
                    other_diagnoses=[{"name": "Coeliac disease", "icd10": ["K90.0"]}],
                    icd10=["D50.9"])
STEMI = GroundTruth(diagnosis="Inferior ST-elevation myocardial infarction",
                    synonyms=["inferior STEMI", "STEMI"], icd10=["I21.1"])
DKA = GroundTruth(diagnosis="Diabetic ketoacidosis", synonyms=["DKA", "ketoacidosis"],
                  icd10=["E10.1"],
                  other_diagnoses=["Type 1 diabetes mellitus (new diagnosis)",
                                   "Acute kidney injury (pre-renal)"])


def hows(text: str, truth: GroundTruth, icd: IcdIndex | None = None) -> list[str]:
    """The link kinds found for a diagnosis line."""
    return [h for _, _, h in match_entities(text, truth, icd=icd).links]


def test_normalise_unifies_case_spelling_punctuation_and_abbreviations() -> None:
    assert normalise("Subarachnoid Haemorrhage (SAH)") == "subarachnoid hemorrhage"
    assert normalise("Probable STEMI") == "st elevation myocardial infarction"
    assert normalise("Coeliac disease") == normalise("celiac  disease.")
    assert normalise("Guillain-Barré syndrome") == "guillain barre syndrome"
    assert normalise("Typ-2-Diabetes mellitus") == "type 2 diabetes"
    assert normalise("pre-eclampsia") == "preeclampsia"  # not 'eclampsia' plus a word
    assert normalise("") == ""


def test_split_on_separators_drops_negations_and_bare_modifiers() -> None:
    assert split_entities("Iron-deficiency anemia secondary to celiac disease") == [
        "iron deficiency anemia", "celiac disease"]
    assert split_entities("1. Appendicitis 2. no perforation; acute") == ["appendicitis"]
    assert split_entities("Ischämischer Schlaganfall bei Vorhofflimmern") == [
        "ischamischer schlaganfall", "vorhofflimmern"]
    assert split_entities(None) == []
    assert split_entities("  ;; ") == []


def test_negated_entities_are_not_predicted_at_all() -> None:
    assert split_entities("no pneumonia") == []
    assert split_entities("ruled out PE") == []
    assert split_entities("PE ruled out; pneumonia") == ["pneumonia"]
    assert split_entities("probably not STEMI, likely pericarditis") == ["pericarditis"]
    assert split_entities("Lungenembolie ausgeschlossen") == []
    assert split_entities("pneumonia without effusion") == ["pneumonia"]
    truth = GroundTruth(diagnosis="Pulmonary embolism", synonyms=["PE"])
    m = entity_metrics("ruled out PE", truth)
    assert m["entity_precision"][0] is None and m["entity_recall"][0] == 0.0


def test_protected_names_are_not_split_at_and_or_commas() -> None:
    assert split_entities("Hand, foot and mouth disease",
                          ["hand, foot and mouth disease"]) == ["hand foot and mouth disease"]
    assert split_entities("Hand, foot and mouth disease") == ["hand", "foot", "mouth disease"]


def test_both_entities_found_gives_perfect_scores() -> None:
    m = entity_metrics("IDA due to coeliac", TRUTH)
    # "coeliac" alone is not "coeliac disease" and not spelled alike → 1 of 2 linked.
    assert m["entity_precision"][0] == 0.5 and m["entity_recall"][0] == 0.5
    m = entity_metrics("Iron deficiency anemia; celiac disease", TRUTH)
    assert [m[k][0] for k in ("entity_precision", "entity_recall", "entity_f1")] == [1, 1, 1]
    assert {link["how"] for link in m["entity_f1"][1]["links"]} == {"name"}


def test_partial_answer_hand_derived_scores() -> None:
    # predicted {iron deficiency anemia, gastritis, hypothyroidism}: 1 link; truth has 2.
    # P = 1/3, R = 1/2, F1 = 2·1 / (3 + 2) = 0.4 (= 2PR / (P + R)).
    m = entity_metrics("Iron deficiency anaemia, gastritis, hypothyroidism", TRUTH)
    assert m["entity_precision"][0] == pytest.approx(1 / 3)
    assert m["entity_recall"][0] == pytest.approx(0.5)
    assert m["entity_f1"][0] == pytest.approx(0.4)


def test_no_diagnosis_precision_undefined_recall_and_f1_zero() -> None:
    m = entity_metrics(None, TRUTH)
    assert m["entity_precision"][0] is None
    assert "0/0" in m["entity_precision"][1]["reason"]
    assert m["entity_recall"][0] == 0.0 and m["entity_f1"][0] == 0.0
    wrong = entity_metrics("Migraine", TRUTH)
    assert wrong["entity_precision"][0] == 0.0 and wrong["entity_f1"][0] == 0.0


def test_more_specific_name_and_typo_link() -> None:
    truth = GroundTruth(diagnosis="Acute appendicitis")
    assert hows("perforated appendicitis", truth) == ["contains"]
    assert hows("acute apendicitis", truth) == ["fuzzy"]
    assert hows("appendix mass", truth) == []


def test_nstemi_is_not_a_stemi() -> None:
    # 'nstemi' expands to 'non st elevation myocardial infarction': it contains every word
    # of 'st elevation myocardial infarction', and spells almost alike, but 'non' inverts.
    assert hows("NSTEMI", STEMI, icd_index()) == []
    assert hows("non-ST-elevation MI", STEMI, icd_index()) == []
    assert hows("STEMI", STEMI) == ["name"]


def test_contradicting_qualifiers_refuse_a_link() -> None:
    assert hows("anterior STEMI", STEMI) == []  # another wall
    torsion = GroundTruth(diagnosis="Left testicular torsion", synonyms=["testicular torsion"])
    assert hows("right testicular torsion", torsion) == []  # the other side
    assert hows("testicular torsion", torsion) == ["name"]
    appendicitis = GroundTruth(diagnosis="Acute appendicitis", synonyms=["appendicitis"])
    assert hows("chronic appendicitis", appendicitis) == []  # acute vs chronic
    croup = GroundTruth(diagnosis="Croup, mild", synonyms=["croup"])
    assert hows("severe croup", croup) == []


def test_over_broad_synonym_does_not_link_another_disease() -> None:
    # 'alcoholic ketoacidosis' contains the synonym 'ketoacidosis', but it has its own
    # code (E87.2) in another category than the truth's E10.1.
    assert hows("Alcoholic ketoacidosis", DKA, icd_index()) == []
    assert hows("DKA", DKA, icd_index()) == ["name"]


def test_general_answers_link_through_qualifier_free_cores() -> None:
    pe = GroundTruth(diagnosis="Acute pulmonary embolism",
                     other_diagnoses=["Left popliteal deep vein thrombosis"])
    assert hows("DVT", pe) == ["core"]
    assert entity_metrics("PE with DVT", pe)["entity_recall"][0] == 1.0
    # recall 2 of 3: T1DM without '(new diagnosis)', AKI without '(pre-renal)'
    m = entity_metrics("type 1 diabetes; acute kidney injury", DKA)
    assert m["entity_recall"][0] == pytest.approx(2 / 3)
    af = GroundTruth(diagnosis="Schlaganfall",
                     other_diagnoses=["neu diagnostiziertes Vorhofflimmern"])
    assert hows("Vorhofflimmern", af) == ["core"]
    assert hows("appendicitis", GroundTruth(diagnosis="Acute appendicitis")) == ["core"]


def test_a_less_specific_answer_is_not_credited_by_itself() -> None:
    # 'myocardial infarction' lacks 'ST elevation', which defines the entity.
    assert hows("myocardial infarction", STEMI, icd_index()) == []
    # ... unless the case accepts a name that differs from it only by qualifiers.
    lenient = STEMI.model_copy(update={"synonyms": ["inferior MI"]})
    assert hows("myocardial infarction", lenient) == ["core"]


def test_secondary_diagnoses_use_their_own_synonyms_and_codes() -> None:
    truth = GroundTruth(diagnosis="Pneumonia", other_diagnoses=[
        {"name": "Hyperkalaemia", "synonyms": ["high potassium"], "icd10": ["E87.5"]}])
    assert hows("high potassium", truth) == ["name"]
    custom = IcdIndex({"raised serum potassium": "E87.5"})
    assert hows("raised serum potassium", truth, custom) == ["icd10"]


def test_each_truth_entity_links_at_most_once() -> None:
    truth = GroundTruth(diagnosis="Pneumonia")
    m = match_entities("pneumonia; lobar pneumonia", truth)
    assert m.tp == 1 and len(m.predicted) == 2


def test_icd10_link_through_a_vocabulary() -> None:
    vocab = IcdIndex({"gluten enteropathy": "K90.0", "celiac disease": "K90.0"})
    m = match_entities("Gluten enteropathy", TRUTH, icd=vocab)
    assert m.links == [("gluten enteropathy", "Coeliac disease", "icd10")]
    assert match_entities("Gluten enteropathy", TRUTH).links == []  # no vocabulary, no link


def test_aggregate_micro_and_macro_hand_derived() -> None:
    # A: tp 1, 2 predicted, 2 true (P .5, R .5, F1 .5); B: tp 2, 2, 2 (1, 1, 1);
    # C: no prediction, 1 true (P undefined, R 0, F1 0).
    agg = aggregate_entities([(1, 2, 2), (2, 2, 2), (0, 0, 1)])
    assert agg["micro_precision"] == pytest.approx(3 / 4)
    assert agg["micro_recall"] == pytest.approx(3 / 5)
    assert agg["micro_f1"] == pytest.approx(2 * 3 / (4 + 5))  # = 2PR/(P+R) = 2/3
    assert agg["macro_precision"] == pytest.approx(0.75)  # C skipped (0/0)
    assert agg["macro_recall"] == pytest.approx(0.5)
    assert agg["macro_f1"] == pytest.approx(0.5)
    assert aggregate_entities([])["micro_f1"] is None


def test_a_doctor_who_never_diagnoses_has_micro_f1_zero_not_none() -> None:
    # Two consultations, no prediction in either: 2·0 / (0 + 3) = 0, like macro.
    agg = aggregate_entities([(0, 0, 1), (0, 0, 2)])
    assert agg["micro_f1"] == 0.0 and agg["macro_f1"] == 0.0
    assert agg["micro_precision"] is None
