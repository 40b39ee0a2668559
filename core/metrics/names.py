"""Names of the metrics and of the results tables' fields, with no heavy imports, so the
command line can build its parser (and a CSV header) without loading the metric code.

Imports no other metric module: this one must stay light.
"""

from __future__ import annotations

from typing import Any

GROUPINGS = ("model", "source", "specialty", "language")
PATHWAY_NAMES = ("info_completeness", "guidance_precision", "guidance_recall",
                 "behaviour_standardization", "inquiry_coverage", "clinical_applicability",
                 "diagnostic_logicality", "treatment_logicality")
# A collaboration's revision rounds and whether it reached consensus (core.metrics.
# collaboration); undefined for any other consultation.
COLLABORATION_NAMES = ("rounds", "consensus")
OFFLINE_NAMES = ("accuracy", "entity_precision", "entity_recall", "entity_f1",
                 *PATHWAY_NAMES, *COLLABORATION_NAMES)
PATIENT_NAMES = ("pr_confidence", "pr_compliance", "pr_consult_again")
LLM_NAMES = ("report_score", *PATIENT_NAMES)
ALL_METRICS = (*OFFLINE_NAMES, *LLM_NAMES)
MEAN_METRICS = (*PATHWAY_NAMES[:6], "diagnostic_logicality", "treatment_logicality",
                *PATIENT_NAMES)
NO_CASE = "case record not available"  # the reason of every metric of a placeholder case
NO_REPORT = "no final report"
ONE_STEP = "one_step"  # origin / mode / config-key prefix of upper-bound consultations
ONE_STEP_TAG = " [one-step]"
COLLABORATION = "collaborate"  # mode of a collaboration's joint consultation
JOINT_NO_PATIENT = ("a collaboration's joint result: no consultation of its own for a patient "
                    "to rate (its doctors' own consultations are rated)")

# Every field of a results row after the group column, in order (the CSV header, also for
# an empty table).
RESULT_FIELDS = (
    "doctor", "settings", "doctor_kind", "mode", "consultations", "finished", "failed",
    "no_case_record", "n", "cases", "correct", "accuracy", "ci_low", "ci_high",
    "no_diagnosis", "undecided",
    "mean_turns", "mean_tests", "tokens", "cost_usd", "entity_micro_precision",
    "entity_micro_recall", "entity_micro_f1", "entity_macro_f1", *MEAN_METRICS,
    "report_score", "report_n", "report_ci_low", "report_ci_high", "no_report",
    *COLLABORATION_NAMES, "rounds_to_consensus", "report_judge", "rating_patient")
CONSULTATION_FIELDS = (
    "consultation_id", "run_id", "case_id", "source", "specialty", "language", "doctor",
    "settings", "doctor_kind", "mode", "status", "end_reason", "diagnosis", "reached_diagnosis",
    "correct", "case_record", "doctor_turns", "tests_ordered", "tokens", "cost_usd",
    *ALL_METRICS, "reasons", "report_judge", "rating_patient")


def group_keys(by: str | tuple[str, ...]) -> tuple[str, ...]:
    """The grouping keys of `by`: 'model', 'doctor_bias,max_turns' or a tuple of keys."""
    keys = by.split(",") if isinstance(by, str) else by
    return tuple(dict.fromkeys(k.strip() for k in keys if k.strip())) or ("model",)


def result_fields(by: str | tuple[str, ...]) -> tuple[str, ...]:
    """The fields of a results row grouped by `by` (the group columns first)."""
    return tuple(dict.fromkeys((*group_keys(by), *RESULT_FIELDS)))


# -- the names users read ------------------------------------------------------------------
# One name per field in every output (text tables, JSON keys, CSV header, the app), in words
# a clinician reads. The metric code keeps its own (RJUA's, AI Hospital's) names: those are
# what the metrics table stores and the papers use; they are renamed only on the way out,
# here, once. A field not listed keeps its name (accuracy, n, doctor, …).
PUBLIC_NAMES: dict[str, str] = {
    "mean_turns": "turns", "mean_tests": "tests",
    "entity_precision": "diagnosis_precision", "entity_recall": "diagnosis_recall",
    "entity_f1": "diagnosis_f1", "entity_micro_precision": "diagnosis_precision",
    "entity_micro_recall": "diagnosis_recall", "entity_micro_f1": "diagnosis_f1",
    "entity_macro_f1": "diagnosis_f1_per_case",
    "info_completeness": "information_gathered", "guidance_precision": "tests_relevant",
    "guidance_recall": "relevant_tests_ordered", "behaviour_standardization": "inquiry_order",
    "inquiry_coverage": "inquiry_steps", "clinical_applicability": "turns_vs_expected",
    "diagnostic_logicality": "diagnosis_named", "treatment_logicality": "treatment_covered",
    "pr_confidence": "patient_confidence", "pr_compliance": "patient_compliance",
    "pr_consult_again": "patient_would_return",
}
#: What each name means, for the legend under the text tables (`public_name` keys).
LEGEND: dict[str, str] = {
    "settings": "what the configuration sets differently from the defaults (as bedside runs "
                "says); rows never pool different settings",
    "n": "finished consultations scored (imported ones without their case record apart)",
    "cases": "distinct cases among them (fewer than n: a case played more than once, under "
             "the same settings, counts once per consultation)",
    "accuracy": "share correct; no diagnosis counts as wrong",
    "accuracy_ci": "Wilson 95 % interval of the accuracy (ci_low, ci_high in JSON/CSV)",
    "no_diagnosis": "finished without a diagnosis (counted wrong)",
    "undecided": "a diagnosis no moderator could judge (left out of accuracy)",
    "failed": "stopped on an error (not scored)",
    "no_case_record": "imported without their case record (left out of every metric)",
    "turns": "mean doctor turns (questions, test orders and image requests)",
    "tests": "mean tests ordered", "cost_usd": "model cost in US dollars",
    "diagnosis_f1": "diagnosis terms given vs the case's, F1 (0-1, ICD-10 linked)",
    "information_gathered": "share of the case's symptoms, examinations and tests obtained",
    "tests_relevant": "share of the tests ordered that the case marks relevant",
    "relevant_tests_ordered": "share of the case's relevant tests that were ordered",
    "inquiry_order": "Kendall's tau of the order of the expected steps reached (-1 to 1)",
    "inquiry_steps": "share of the case's expected inquiry steps reached",
    "turns_vs_expected": "turns used against the case's expected rounds (1: as expected)",
    "diagnosis_named": "1 when the primary diagnosis is among the terms given",
    "treatment_covered": "share of the case's treatment requirements the plan covers",
    "report_score": "judge's grade of the final report, 0-100 with its 95 % interval "
                    "(bedside score)",
    "patient_confidence": "LLM patient's confidence in the doctor, 1-10 (bedside score)",
    "patient_compliance": "LLM patient's willingness to follow the plan, 1-10",
    "patient_would_return": "LLM patient's wish to consult this doctor again, 1-10",
    "report_judge": "the judge whose report grades are shown (judge:MODEL#H; bedside "
                    "results --judge NAME picks another)",
    "rating_patient": "who gave the patient ratings shown (patient:MODEL#H)",
    "diagnosis": "the diagnosis the doctor gave, verbatim",
    "correct": "the moderators' verdict", "end_reason": "why the consultation ended",
    "rounds": "a collaboration's revision rounds, mean (M when the doctors never agreed)",
    "consensus": "share of collaborations whose host found no dispute in the end",
    "rounds_to_consensus": "collaborations by rounds needed to agree (0: at once; none: "
                           "not after M rounds; ?: not said), AI Hospital's Figure 2",
}


def public_name(name: str) -> str:
    """The name users read for a field or metric."""
    return PUBLIC_NAMES.get(name, name)


def public_row(row: dict[str, Any]) -> dict[str, Any]:
    """A results or consultation row with the names users read (the `reasons` text too)."""
    import re

    out = {public_name(k): v for k, v in row.items()}
    if isinstance(out.get("reasons"), str):
        names = "|".join(sorted(map(re.escape, ALL_METRICS), key=len, reverse=True))
        out["reasons"] = re.sub(rf"(^|; )({names}): ",
                                lambda m: f"{m.group(1)}{public_name(m.group(2))}: ",
                                out["reasons"])
    return out


def public_fields(fields: tuple[str, ...]) -> tuple[str, ...]:
    """Field names as users read them, in order (a CSV header)."""
    return tuple(public_name(f) for f in fields)
