"""Clinical pathway metrics (RJUA style) from what the doctor actually asked and ordered.

- info_completeness: weighted share of the case's symptom, examination and test items the
  doctor obtained (weights default to 1; history is not part of it, as in RJUA's S/T/E).
- guidance_precision: share of the doctor's distinct *test* orders that hit a test the case
  marks `relevant: true`. Examinations are not counted (the issue defines it on tests; no
  bundled examination carries the flag), nor are tests whose `relevant` is unset (listed in
  the detail as `unflagged`); an order the case does not know counts as not relevant,
  unless its name says it is an examination.
- guidance_recall: share of the case's relevant tests that were ordered.
- behaviour_standardization: Kendall tau-b between the expected position of each expected
  step the doctor reached and the doctor turn at which it was first reached. −1..1; None
  when fewer than 2 steps were reached or all were reached in the same turn. It says
  nothing about steps never reached, hence:
- inquiry_coverage: share of the expected steps the doctor reached at all (0 when none).
  The two are reported side by side and not combined: a high tau with a low coverage is
  an orderly but incomplete inquiry.
- clinical_applicability: min(used, expected) / max(used, expected) of doctor turns against
  the case's expected rounds: 1 when equal, lower for too few or too many.
- diagnostic_logicality: 1 when the primary true diagnosis is among the doctor's diagnosis
  entities (see `entities`), else 0; no diagnosis counts 0.
- treatment_logicality: share of the case's treatment requirements the doctor's plan
  (final report or report turn) covers, by treatment concept with negation handled
  (`core.metrics.treatment`); None when either is missing.
"""

from __future__ import annotations

import re

from core.case import Case
from core.clinical_text import IcdIndex, normalise
from core.metrics.base import Metrics, MetricValue, defined, undefined
from core.metrics.entities import match_entities
from core.metrics.names import PATHWAY_NAMES
from core.metrics.stats import kendall_tau_b
from core.metrics.trace import Trace, build_trace, step_key
from core.metrics.treatment import treatment_coverage
from core.transcript import Role, Transcript

# Words that make an order the case does not know an examination rather than a test.
_EXAM_WORDS = re.compile(r"\b(exam\w*|auscultat\w*|palpat\w*|inspect\w*|percuss\w*|"
                         r"fundoscop\w*|otoscop\w*|vital signs?|observations)\b", re.I)


def pathway_metrics(case: Case, transcript: Transcript, *,
                    icd: IcdIndex | None = None) -> Metrics:
    """All eight pathway metrics of one consultation."""
    out: Metrics = {"diagnostic_logicality": diagnostic_logicality(case, transcript, icd),
                    "treatment_logicality": treatment_logicality(case, transcript)}
    if not any(t.role == Role.DOCTOR for t in transcript.turns):
        for name in PATHWAY_NAMES[:6]:
            out[name] = undefined("no doctor turns")
        return {name: out[name] for name in PATHWAY_NAMES}
    trace = build_trace(case, transcript)
    out["info_completeness"] = info_completeness(trace)
    out["guidance_precision"], out["guidance_recall"] = guidance(trace)
    out["behaviour_standardization"], out["inquiry_coverage"] = inquiry_order(case, trace)
    out["clinical_applicability"] = clinical_applicability(case, trace)
    return {name: out[name] for name in PATHWAY_NAMES}


def info_completeness(trace: Trace) -> MetricValue:
    """Weighted share of symptom, examination and test items obtained."""
    pool = [i for i in trace.items.values() if i.category in ("symptom", "exam", "test")]
    total = sum(i.weight for i in pool)
    if total <= 0:
        return undefined("case has no weighted symptom, examination or test items")
    got = [i for i in pool if i.key in trace.first]
    by_cat = {c: {"obtained": sum(1 for i in got if i.category == c),
                  "total": sum(1 for i in pool if i.category == c)}
              for c in ("symptom", "exam", "test")}
    return defined(sum(i.weight for i in got) / total, by_category=by_cat,
                   missing=[i.key for i in pool if i.key not in trace.first])


def guidance(trace: Trace) -> tuple[MetricValue, MetricValue]:
    """(guidance_precision, guidance_recall) over the distinct test orders placed."""
    ordered = list(dict.fromkeys(
        key or (f"exam?:{normalise(name)}" if _EXAM_WORDS.search(name)
                else f"unknown:{normalise(name)}") for name, key in trace.orders))
    tests = [k for k in ordered if k.startswith(("test:", "unknown:"))]
    unflagged = [k for k in tests if k in trace.items and trace.items[k].relevant is None]
    judged = [k for k in tests if k not in unflagged]
    relevant = {k for k, i in trace.items.items() if i.category == "test" and i.relevant}
    hits = [k for k in judged if k in relevant]
    detail = {"ordered_tests": tests, "relevant": sorted(relevant), "relevant_ordered": hits,
              "unflagged": unflagged,
              "not_counted": [k for k in ordered if k not in tests],
              "note": "tests only; tests without a relevant flag are not counted"}
    precision = (defined(len(hits) / len(judged), **detail) if judged
                 else undefined("no tests with a relevant flag ordered" if tests
                                else "no tests ordered", **detail))
    recall = (defined(len(hits) / len(relevant), **detail) if relevant
              else undefined("case marks no test as relevant", **detail))
    return precision, recall


def inquiry_order(case: Case, trace: Trace) -> tuple[MetricValue, MetricValue]:
    """(behaviour_standardization, inquiry_coverage): Kendall tau-b of expected position vs
    first-reached turn over the reached steps, and the share of expected steps reached."""
    steps = case.expected_inquiry_order
    if not steps:
        none = undefined("case has no expected inquiry order")
        return none, none
    reached: list[tuple[int, int, str]] = []
    unknown: list[str] = []
    for pos, step in enumerate(steps):
        key = step_key(step, trace.items)
        if key is None:
            unknown.append(f"{step.category}:{step.name}")
            continue
        turn = _first_turn(trace, key)
        if turn is not None:
            reached.append((pos, turn, key))
    coverage = len(reached) / len(steps)
    detail = {"expected": len(steps), "reached": [{"pos": p, "turn": t, "step": k}
                                                  for p, t, k in reached],
              "unknown_steps": unknown, "coverage": coverage}
    covered = defined(coverage, **detail)
    if len(reached) < 2:
        return undefined("fewer than 2 expected steps reached", **detail), covered
    tau = kendall_tau_b([p for p, _, _ in reached], [t for _, t, _ in reached])
    if tau is None:
        return undefined("no order information (all steps reached in the same turn)",
                         **detail), covered
    return defined(tau, **detail), covered


def _first_turn(trace: Trace, key: str) -> int | None:
    if key == "diagnosis":
        return trace.diagnosis_turn
    if key == "treatment":
        return trace.treatment_turn
    if key.endswith(":*"):
        category = key[:-2]
        turns = [t for k, t in trace.first.items() if trace.items[k].category == category]
        return min(turns, default=None)
    return trace.first.get(key)


def clinical_applicability(case: Case, trace: Trace) -> MetricValue:
    """min(used, expected) / max(used, expected) of doctor turns vs expected rounds."""
    expected, used = case.expected_rounds, trace.doctor_turns
    if not expected:
        return undefined("case has no expected rounds")
    if used <= 0:
        return undefined("no doctor turns", expected_rounds=expected)
    return defined(min(used, expected) / max(used, expected), used=used,
                   expected_rounds=expected, ratio=used / expected)


def diagnostic_logicality(case: Case, transcript: Transcript,
                          icd: IcdIndex | None = None) -> MetricValue:
    """1 if the primary true diagnosis is among the doctor's entities, else 0."""
    text = final_diagnosis_text(transcript)
    if not text:
        return defined(0.0, reached_diagnosis=False, note="no diagnosis counts as wrong")
    m = match_entities(text, case.truth, icd=icd)
    return defined(1.0 if m.primary_found() else 0.0, reached_diagnosis=True,
                   links=[{"pred": p, "truth": t, "how": h} for p, t, h in m.links])


def final_diagnosis_text(transcript: Transcript) -> str | None:
    """The doctor's final diagnosis: the transcript's, else the report's diagnostic results."""
    if transcript.diagnosis and transcript.diagnosis.strip():
        return transcript.diagnosis
    report = transcript.report
    if report and report.diagnostic_results and report.diagnostic_results.strip():
        return report.diagnostic_results
    return None


def treatment_text(transcript: Transcript) -> str | None:
    """The doctor's treatment plan: the report's, else the last report turn's text."""
    if transcript.report and transcript.report.treatment_plan:
        return transcript.report.treatment_plan
    reports = [t.content for t in transcript.turns
               if t.role == Role.DOCTOR and t.kind == "report" and t.content.strip()]
    return reports[-1] if reports else None


def treatment_logicality(case: Case, transcript: Transcript) -> MetricValue:
    """Share of the case's treatment requirements that the doctor's plan covers."""
    return treatment_coverage(case.truth.treatment, treatment_text(transcript))
