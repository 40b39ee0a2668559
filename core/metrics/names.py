"""Names of the metrics and of the results tables' fields, with no heavy imports, so the
command line can build its parser (and a CSV header) without loading the metric code.

Imports no other metric module: this one must stay light.
"""

from __future__ import annotations

GROUPINGS = ("model", "source", "specialty", "language")
PATHWAY_NAMES = ("info_completeness", "guidance_precision", "guidance_recall",
                 "behaviour_standardization", "inquiry_coverage", "clinical_applicability",
                 "diagnostic_logicality", "treatment_logicality")
OFFLINE_NAMES = ("accuracy", "entity_precision", "entity_recall", "entity_f1",
                 *PATHWAY_NAMES)
PATIENT_NAMES = ("pr_confidence", "pr_compliance", "pr_consult_again")
LLM_NAMES = ("report_score", *PATIENT_NAMES)
ALL_METRICS = (*OFFLINE_NAMES, *LLM_NAMES)
MEAN_METRICS = (*PATHWAY_NAMES[:6], "diagnostic_logicality", "treatment_logicality",
                *PATIENT_NAMES)
NO_CASE = "case record not available"  # the reason of every metric of a placeholder case
NO_REPORT = "no final report"
ONE_STEP = "one_step"  # origin / mode / config-key prefix of upper-bound consultations
ONE_STEP_TAG = " [one-step]"

# Every field of a results row after the group column, in order (the CSV header, also for
# an empty table).
RESULT_FIELDS = (
    "doctor", "doctor_kind", "mode", "consultations", "finished", "failed", "no_case_record",
    "n", "correct", "accuracy", "ci_low", "ci_high", "no_diagnosis", "undecided",
    "mean_turns", "mean_tests", "tokens", "cost_usd", "entity_micro_precision",
    "entity_micro_recall", "entity_micro_f1", "entity_macro_f1", *MEAN_METRICS,
    "report_score", "report_n", "report_ci_low", "report_ci_high", "no_report")
CONSULTATION_FIELDS = (
    "consultation_id", "run_id", "case_id", "source", "specialty", "language", "doctor",
    "doctor_kind", "mode", "status", "end_reason", "diagnosis", "reached_diagnosis",
    "correct", "case_record", "doctor_turns", "tests_ordered", "tokens", "cost_usd",
    *ALL_METRICS, "reasons")


def group_keys(by: str | tuple[str, ...]) -> tuple[str, ...]:
    """The grouping keys of `by`: 'model', 'doctor_bias,max_turns' or a tuple of keys."""
    keys = by.split(",") if isinstance(by, str) else by
    return tuple(dict.fromkeys(k.strip() for k in keys if k.strip())) or ("model",)


def result_fields(by: str | tuple[str, ...]) -> tuple[str, ...]:
    """The fields of a results row grouped by `by` (the group columns first)."""
    return tuple(dict.fromkeys((*group_keys(by), *RESULT_FIELDS)))
