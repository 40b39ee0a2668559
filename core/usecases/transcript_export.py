"""Transcripts as records for `bedside transcripts export` (JSON Lines, Markdown): one per
consultation, with how it was played and how it ended, the case's correct diagnosis (an
export is for researchers, who are not blinded; a rater's sheet is `annotation.sheet`),
the doctor's report and every turn. Raw model requests and replies stay in the database
(they are large and hold the prompts verbatim); no API key is ever stored, so none can be
exported.
"""

from __future__ import annotations

from typing import Any

from core.errors import NotFoundError
from core.ports.runs import RunsStore
from core.collaboration import speaker
from core.records.runs import ConsultationSummary

#: Turn fields an export keeps (usage flattened).
TURN_FIELDS = ("index", "role", "addressee", "kind", "doctor_turn", "tests", "content",
               "started_at", "ended_at", "latency_ms", "model")


def verdict_word(row: ConsultationSummary) -> str | None:
    """'correct', 'wrong', 'no diagnosis' (counted wrong), 'undecided', or None when the
    consultation did not finish (not scored) — the words of the tables and the app."""
    if row.status != "finished":
        return None
    if row.correct is not None:
        return "correct" if row.correct else "wrong"
    return "no diagnosis" if not (row.diagnosis or "").strip() else "undecided"


def _turn(t: Any) -> dict[str, Any]:
    data = t.model_dump(mode="json", include=set(TURN_FIELDS))
    data.update(prompt_tokens=t.usage.prompt_tokens, completion_tokens=t.usage.completion_tokens,
                cost_usd=t.usage.cost_usd, speaker=speaker(str(t.role), t.meta))
    if str(t.role) == "tool":  # a doctor tool's step: what it recorded (a search's passages
        data["tool"] = t.meta  # and their sources, a notebook's version, ...)
    if isinstance(t.meta.get("round"), int):  # a collaboration's turn
        data["round"] = t.meta["round"]
    return data


def export_records(store: RunsStore, *, run_id: str | None = None,
                   consultation_ids: list[str] | None = None) -> list[dict[str, Any]]:
    """One record per consultation (superseded attempts left out): of one run, of the ids
    given (NotFoundError for an unknown one), or all, oldest first."""
    if consultation_ids:
        rows = [store.get_consultation(cid) for cid in consultation_ids]
    else:
        rows = sorted(store.list_consultations(run_id=run_id),
                      key=lambda r: (r.started_at or "", r.id))
    out = []
    for row in rows:
        try:
            case = store.get_case(row.case_id)
            title, truth = case.title, (None if case.placeholder else case.truth.diagnosis)
        except NotFoundError:
            title, truth = None, None
        transcript = store.get_transcript(row.id)
        out.append({
            "consultation_id": row.id, "run_id": row.run_id, "case_id": row.case_id,
            "case_title": title, "doctor": row.doctor, "patient": row.patient,
            "examiner": row.examiner, "config_key": row.config_key, "origin": row.origin,
            "status": row.status, "end_reason": row.end_reason, "diagnosis": row.diagnosis,
            "truth": truth, "correct": row.correct, "verdict": verdict_word(row),
            "doctor_turns": row.doctor_turns, "tests_ordered": row.tests_ordered,
            "prompt_tokens": row.prompt_tokens, "completion_tokens": row.completion_tokens,
            "cost_usd": row.cost_usd, "started_at": row.started_at, "ended_at": row.ended_at,
            "error": row.error,
            "report": row.report.model_dump(mode="json") if row.report else None,
            "turns": [_turn(t) for t in transcript.turns],
            **({"collaboration": row.meta["collaboration"]}
               if isinstance(row.meta.get("collaboration"), dict) else {})})
    return out
