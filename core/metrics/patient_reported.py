"""Patient-reported measures (AgentClinic style): after the consultation an LLM patient,
given only its own profile and what it heard — the doctor's words and its own, never the
examiner's results or a moderator's verdict — rates 1–10 its confidence in the doctor
(pr_confidence), its willingness to follow the therapy (pr_compliance) and to consult this
doctor again (pr_consult_again). A patient that consulted with biases rates with them
(its bias paragraphs after its profile; `patient_bias` among the rater's parameters). The
reply is parsed tolerantly (JSON, fenced JSON, 'confidence: 7/10' lines); a missing or
out-of-range rating gives None with a reason.
"""

from __future__ import annotations

import re
from typing import Any

from core.biases import biased_view
from core.case import Case
from core.errors import ModelError
from core.metrics.base import Metrics, defined, undefined
from core.metrics.identity import BIAS_PARAM
from core.metrics.llmcall import (RAW_KEEP, Complete, JudgeInfo, call_text, key_values,
                                  norm_key, parse_json_object)
from core.prompts import PATIENT_RATING
from core.prompts.bias import hashes, patient_paragraphs
from core.prompts.render import render_profile
from core.transcript import Role, Transcript

MEASURES = {"confidence": "pr_confidence", "compliance": "pr_compliance",
            "consult_again": "pr_consult_again"}
_ALIASES = {"confidence_in_doctor": "confidence", "trust": "confidence",
            "willingness_to_follow_therapy": "compliance", "adherence": "compliance",
            "follow_therapy": "compliance", "consult_doctor_again": "consult_again",
            "willingness_to_consult_again": "consult_again", "return": "consult_again",
            "again": "consult_again", "consultagain": "consult_again"}
# The patient hears the doctor and itself. Examiner turns (test results) and moderator
# verdicts are left out: the patient view never holds results or the diagnosis's
# correctness. What the doctor says — including a diagnosis or plan told to the patient —
# stays in.
_SPEAKERS = {Role.DOCTOR: "Doctor", Role.PATIENT: "Patient"}


def dialogue_text(transcript: Transcript) -> str:
    """Doctor and patient turns as 'Who: text' lines (examiner and moderator left out)."""
    return "\n".join(f"{_SPEAKERS[t.role]}: {t.content}" for t in transcript.turns
                     if t.role in _SPEAKERS)


def rating_messages(case: Case, transcript: Transcript,
                    bias: str | None = None) -> list[dict[str, str]]:
    """The rating patient's single user message, built from the patient's view only; a
    biased patient's profile is followed by its bias paragraphs (those it consulted with,
    `core.prompts.bias`), so it rates as the patient it was."""
    view = biased_view(case, bias)
    profile = "\n".join([render_profile(view), *patient_paragraphs(view, bias)])
    text = PATIENT_RATING.format(profile=profile,
                                 dialogue=dialogue_text(transcript) or "(no dialogue)")
    return [{"role": "user", "content": text}]


def _rating(value: Any) -> int | float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, dict):
        value = value.get("score", value.get("rating"))
    if isinstance(value, int | float):
        number = float(value)
    else:
        m = re.match(r"\s*(\d+(?:\.\d+)?)", str(value or ""))
        if not m:
            return None
        number = float(m.group(1))
    return number if 1 <= number <= 10 else None


def parse_ratings(text: str) -> dict[str, float | None]:
    """confidence / compliance / consult_again, 1–10 each or None."""
    data: dict[str, Any] = parse_json_object(text) or dict(key_values(text))
    out: dict[str, float | None] = {k: None for k in MEASURES}
    for raw_key, value in data.items():
        key = norm_key(raw_key)
        key = _ALIASES.get(key, key)
        if key in out and out[key] is None:
            out[key] = _rating(value)
    return out


async def rate_consultation(case: Case, transcript: Transcript, complete: Complete, *,
                            info: JudgeInfo | None = None) -> Metrics:
    """The three pr_* metrics of one consultation. The rating patient's biases are one of
    its parameters (`patient_bias`, as the consultation's patient had them): recorded with
    each value, part of its cache key, and their paragraphs' hashes beside the prompt's."""
    info = info or JudgeInfo()
    bias = info.params.get(BIAS_PARAM)
    rater = {"model": info.model, "params": info.params, "prompt_id": PATIENT_RATING.id,
             "prompt_hash": PATIENT_RATING.sha256}
    if bias:
        rater["bias_prompts"] = hashes("patient", bias)
    if not any(t.role == Role.DOCTOR for t in transcript.turns):
        return {n: undefined("no doctor turns to rate", rater=rater) for n in MEASURES.values()}
    try:
        text, _ = await call_text(complete, rating_messages(case, transcript, bias))
    except ModelError as err:
        return {n: undefined(f"patient call failed: {err}", rater=rater, failed=True)
                for n in MEASURES.values()}
    ratings = parse_ratings(text)
    out: Metrics = {}
    for key, name in MEASURES.items():
        value = ratings[key]
        detail = {"rater": rater, "raw": text[:RAW_KEEP]}
        out[name] = (defined(value, **detail) if value is not None
                     else undefined(f"no 1-10 rating for '{key}' in the reply", failed=True,
                                    **detail))
    return out
