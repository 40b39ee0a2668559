"""All metrics of one consultation: the offline ones (accuracy, entity and pathway; no model
calls) and the LLM-based ones (report score, patient ratings), plus the keys that say when a
stored value is still valid.

`compute_metrics(case, transcript)` returns `{name: (value, detail)}` with stable snake_case
names, ready for `db.metrics.save_metrics`. The LLM-based metrics (report_score, pr_*) are
separate (`compute_llm_metrics`) because they cost money and need a model.

A consultation whose case is a placeholder (the stand-in case of an imported transcript,
`Case.placeholder`) has no ground truth and no patient profile: every metric is None with
the reason 'case record not available', and results count it apart from accuracy. Each
stored value carries the case's content hash (`case_hash`), so importing the real case
later makes the values stale and they are recomputed.
"""

from __future__ import annotations

import hashlib
import json

from core.case import Case
from core.caseio import case_hash
from core.metrics.accuracy import accuracy
from core.metrics.base import Metrics, undefined
from core.metrics.entities import entity_metrics
from core.clinical_text import icd_index
from core.metrics.llmcall import Complete, JudgeInfo
from core.metrics.collaboration import collaboration_metrics
from core.metrics.names import (COLLABORATION, LLM_NAMES, NO_CASE, OFFLINE_NAMES, ONE_STEP,
                                PATIENT_NAMES)
from core.metrics.pathway import final_diagnosis_text, pathway_metrics
from core.metrics.patient_reported import PATIENT_RATING, rate_consultation
from core.metrics.report_score import prompt_hash, score_report
from core.transcript import Transcript

__all__ = ["LLM_NAMES", "NO_CASE", "OFFLINE_NAMES", "PATIENT_NAMES", "case_hash",
           "compute_llm_metrics", "compute_metrics", "judge_report", "llm_key",
           "rate_by_patient"]
# Pathway metrics that still mean something for a one-step answer.
_ONE_STEP_KEEP = ("diagnostic_logicality", "treatment_logicality")


def no_case_record(names: tuple[str, ...]) -> Metrics:
    """Every named metric undefined because the case is a placeholder."""
    return {n: undefined(NO_CASE, placeholder=True) for n in names}


def compute_metrics(case: Case, transcript: Transcript, *, use_icd: bool = True,
                    one_step: bool | None = None) -> Metrics:
    """Every offline metric of one consultation; never raises on degenerate transcripts.

    One-step (upper-bound) transcripts — `one_step`, or `meta["mode"] == "one_step"` —
    have no pathway to judge: their pathway metrics but diagnostic and treatment
    logicality are None with a reason; so have a collaboration's joint consultations
    (`meta["mode"] == "collaborate"`: the pathway is in each doctor's own). The rounds
    and consensus of a collaboration (`core.metrics.collaboration`) are None for the rest.
    """
    if case.placeholder:
        return no_case_record(OFFLINE_NAMES)
    icd = icd_index() if use_icd else None
    out: Metrics = {"accuracy": accuracy(case, transcript, icd=icd)}
    out.update(entity_metrics(final_diagnosis_text(transcript), case.truth, icd=icd))
    pathway = pathway_metrics(case, transcript, icd=icd)
    mode = transcript.meta.get("mode")
    if one_step or (one_step is None and mode == ONE_STEP):
        pathway = {k: (v if k in _ONE_STEP_KEEP else undefined("one-step mode has no pathway"))
                   for k, v in pathway.items()}
    elif mode == COLLABORATION:
        pathway = {k: (v if k in _ONE_STEP_KEEP else undefined(
            "a collaboration's pathway is its doctors' own consultations")) for k, v in
            pathway.items()}
    out.update(pathway)
    out.update(collaboration_metrics(transcript))
    return out


def llm_key(kind: str, info: JudgeInfo, case: Case) -> str:
    """The cache key of an LLM-based metric: what it depends on — metric kind, model,
    sampling parameters, prompt hash and the case's content — hashed."""
    prompt = prompt_hash() if kind == "judge" else PATIENT_RATING.sha256
    body = json.dumps({"kind": kind, "model": info.model, "params": info.params,
                       "prompt": prompt, "case": case_hash(case)}, sort_keys=True,
                      default=str)
    return hashlib.sha256(body.encode()).hexdigest()[:16]


async def judge_report(case: Case, transcript: Transcript, judge: Complete,
                       info: JudgeInfo) -> Metrics:
    """{'report_score': …} of one consultation (placeholder cases: undefined, no call)."""
    if case.placeholder:
        return no_case_record(("report_score",))
    return {"report_score": await score_report(case, transcript, judge, info=info)}


async def rate_by_patient(case: Case, transcript: Transcript, patient: Complete,
                          info: JudgeInfo) -> Metrics:
    """The pr_* ratings of one consultation (placeholder cases: undefined, no call)."""
    if case.placeholder:
        return no_case_record(PATIENT_NAMES)
    return await rate_consultation(case, transcript, patient, info=info)


async def compute_llm_metrics(case: Case, transcript: Transcript, *,
                              judge: Complete | None = None, judge_info: JudgeInfo | None = None,
                              patient: Complete | None = None,
                              patient_info: JudgeInfo | None = None) -> Metrics:
    """report_score (with a judge) and the pr_* ratings (with an LLM patient).

    A role without a model gives its metrics as None with the reason 'no judge model' /
    'no patient model'.
    """
    out: Metrics = {}
    if judge is not None:
        out.update(await judge_report(case, transcript, judge, judge_info or JudgeInfo()))
    else:
        out["report_score"] = undefined("no judge model")
    if patient is not None:
        out.update(await rate_by_patient(case, transcript, patient,
                                         patient_info or JudgeInfo()))
    else:
        out.update({n: undefined("no patient model") for n in PATIENT_NAMES})
    return out
