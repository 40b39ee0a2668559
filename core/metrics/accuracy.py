"""Diagnostic accuracy: per consultation (0/1) and pooled with a Wilson 95 % interval.

A consultation that never reached a diagnosis counts as wrong, and is also counted on its
own (`no_diagnosis`) so a table can tell 'wrong' from 'gave up'. The per-consultation value
follows the moderators' verdicts (the deterministic 'exact' one first, as the store does);
with no decided verdict it falls back to the entity link of the primary diagnosis.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from core.case import Case
from core.metrics.base import MetricValue, defined
from core.metrics.entities import match_entities
from core.clinical_text import IcdIndex
from core.metrics.pathway import final_diagnosis_text
from core.metrics.stats import wilson_interval
from core.transcript import Transcript


def accuracy(case: Case, transcript: Transcript, *,
             icd: IcdIndex | None = None) -> MetricValue:
    """1.0 if the consultation's diagnosis is correct, else 0.0 (no diagnosis: 0.0)."""
    text = final_diagnosis_text(transcript)
    if not text:
        return defined(0.0, reached_diagnosis=False, decided_by=None)
    for v in sorted(transcript.verdicts, key=lambda v: v.moderator != "exact"):
        if v.correct is not None:
            return defined(float(v.correct), reached_diagnosis=True, decided_by=v.moderator)
    found = match_entities(text, case.truth, icd=icd).primary_found()
    return defined(float(found), reached_diagnosis=True, decided_by="entities")


def summarise_accuracy(outcomes: Iterable[tuple[float | None, bool]]) -> dict[str, Any]:
    """Pool (value, reached_diagnosis) pairs: n, correct, accuracy, Wilson CI, no_diagnosis.

    A value of None (undecidable) is left out of n and counted as `undecided`; n = 0 gives
    accuracy and interval None.
    """
    n = correct = no_diagnosis = undecided = 0
    for value, reached in outcomes:
        if not reached:
            no_diagnosis += 1
        if value is None:
            undecided += 1
            continue
        n += 1
        correct += value >= 0.5
    ci = wilson_interval(correct, n)
    return {"n": n, "correct": correct, "accuracy": correct / n if n else None,
            "ci_low": ci[0] if ci else None, "ci_high": ci[1] if ci else None,
            "no_diagnosis": no_diagnosis, "undecided": undecided}
