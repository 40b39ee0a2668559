"""All offline metrics of one consultation (no model calls): accuracy, entity and pathway.

`compute_metrics(case, transcript)` returns `{name: (value, detail)}` with stable snake_case
names, ready for `db.metrics.save_metrics`. The LLM-based metrics (report_score,
pr_*) are separate (`compute_llm_metrics`) because they cost money and need a model.

Must not import: textual, rich, litellm (only through core.llm), or any other bedside
package.
"""

from __future__ import annotations

from core.case import Case
from core.metrics.accuracy import accuracy
from core.metrics.base import Metrics, undefined
from core.metrics.entities import entity_metrics, icd_vocabulary
from core.metrics.pathway import PATHWAY_NAMES, final_diagnosis_text, pathway_metrics
from core.metrics.report_score import Complete, JudgeInfo, score_report
from core.metrics.patient_reported import rate_consultation
from core.transcript import Transcript

OFFLINE_NAMES = ("accuracy", "entity_precision", "entity_recall", "entity_f1",
                 *PATHWAY_NAMES)
LLM_NAMES = ("report_score", "pr_confidence", "pr_compliance", "pr_consult_again")


def compute_metrics(case: Case, transcript: Transcript, *, use_icd: bool = True) -> Metrics:
    """Every offline metric of one consultation; never raises on degenerate transcripts.

    One-step (upper-bound) transcripts have no pathway to judge: their pathway metrics
    are None with a reason.
    """
    vocab = icd_vocabulary() if use_icd else None
    out: Metrics = {"accuracy": accuracy(case, transcript, vocab=vocab)}
    out.update(entity_metrics(final_diagnosis_text(transcript), case.truth, vocab=vocab))
    pathway = pathway_metrics(case, transcript, vocab=vocab)
    if transcript.meta.get("mode") == "one_step":
        pathway = {k: (v if k in ("diagnostic_logicality", "treatment_logicality")
                       else undefined("one-step mode has no pathway")) for k, v in pathway.items()}
    out.update(pathway)
    return out


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
        out["report_score"] = await score_report(case, transcript, judge, info=judge_info)
    else:
        out["report_score"] = undefined("no judge model")
    if patient is not None:
        out.update(await rate_consultation(case, transcript, patient, info=patient_info))
    else:
        out.update({n: undefined("no patient model") for n in LLM_NAMES[1:]})
    return out
