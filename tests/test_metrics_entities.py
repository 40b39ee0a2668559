"""Diagnosis entity metrics: P/R/F1 of a line's entities against every true diagnosis,
one-to-one, micro/macro. How one entity links to one diagnosis (names, qualifiers, negation,
ICD-10) is checked row by row, beside the moderator's verdict, in tests/test_clinical_text.py."""

from __future__ import annotations

import pytest

from core.case import GroundTruth
from core.clinical_text import IcdIndex
from core.metrics.entities import aggregate_entities, entity_metrics, match_entities

TRUTH = GroundTruth(diagnosis="Iron deficiency anaemia", synonyms=["IDA"],
                    other_diagnoses=[{"name": "Coeliac disease", "icd10": ["K90.0"]}],
                    icd10=["D50.9"])
DKA = GroundTruth(diagnosis="Diabetic ketoacidosis", synonyms=["DKA", "ketoacidosis"],
                  icd10=["E10.1"],
                  other_diagnoses=["Type 1 diabetes mellitus (new diagnosis)",
                                   "Acute kidney injury (pre-renal)"])


def hows(text: str, truth: GroundTruth, icd: IcdIndex | None = None) -> list[str]:
    """The link kinds found for a diagnosis line."""
    return [h for _, _, h in match_entities(text, truth, icd=icd).links]


def test_a_negated_answer_predicts_nothing() -> None:
    truth = GroundTruth(diagnosis="Pulmonary embolism", synonyms=["PE"])
    m = entity_metrics("ruled out PE", truth)
    assert m["entity_precision"][0] is None and m["entity_recall"][0] == 0.0


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


def test_secondary_diagnoses_link_through_names_without_qualifiers_or_asides() -> None:
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
