"""Prompts live in one place (core.prompts) and keep the ids and hashes stored with earlier
consultations and scores, so a stored hash still resolves to the text that produced it."""

from __future__ import annotations

from core import prompts
from core.metrics.report_score import prompt_hash

# The sha256 stored with every report grade, patient rating and one-step consultation made
# before the metric prompts moved into core.prompts (recorded from that version).
STORED = {
    "metric-report-judge/v1": "fe017b93d6c4661d8d9d759270dc6dc08ca9c2959a6e80a7899b85d180c25527",
    "metric-patient-rating/v1": "683a2b43bb753ffb9d3cdb29db868e4cca6734ed3862efe4f763c442d56cf987",
    "metric-one-step-doctor/v1": "09a8579953196a218a667f2e762b458bf685727d06cf453eb0023baeaac8dc94",
}
JUDGE_WITH_RUBRIC = "0b48468e45aa71aa4a802589810343534c688b9f857dd42a94f8ea94c5a38aa6"


def test_stored_metric_prompt_hashes_resolve_to_their_texts() -> None:
    for prompt_id, sha in STORED.items():
        assert prompts.get(prompt_id).sha256 == sha
    assert prompt_hash() == JUDGE_WITH_RUBRIC


def test_metric_prompts_are_the_registered_ones() -> None:
    assert prompts.REPORT_JUDGE is prompts.get("metric-report-judge/v1")
    assert prompts.PATIENT_RATING is prompts.get("metric-patient-rating/v1")
    assert prompts.ONE_STEP_DOCTOR is prompts.get("metric-one-step-doctor/v1")
    assert "{rubric}" in prompts.REPORT_JUDGE.text and "Grades:" in prompts.REPORT_RUBRIC
