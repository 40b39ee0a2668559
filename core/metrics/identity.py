"""Who produced an LLM-judged value: the judge's name, under which its values are stored.

A name is `KIND:MODEL#H`, H a short hash of the model, its sampling parameters and the
prompt hash — the identity the reader-study judge already uses (`annotation.judge`,
`judge:MODEL#H`). Another model, another temperature or another prompt is another judge,
whose values sit beside the first's and never replace them.

- the report judge (`bedside score --judge`): `judge:MODEL#H` over the report prompt;
- the rating patient (`--rating-patient MODEL`): `patient:MODEL#H` over the rating prompt.
  The biases it rates with are the consultation's, not the rater's: they stay in the value's
  key and detail but out of the name, so one rating model is one rater across a run's arms;
- each consultation's own patient (`--rating-patient own`): `patient:own#H`, one rater
  whatever model each consultation's patient was (the detail records that model).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from core.metrics.names import LLM_NAMES, PATIENT_NAMES

JUDGED_NAMES = LLM_NAMES  # the metrics stored per judge
REPORT_KIND, PATIENT_KIND = "judge", "patient"
BIAS_PARAM = "patient_bias"  # (core.metrics.patient_reported) the rating patient's biases
UNKNOWN = "unknown"


def rater_name(kind: str, model: str | None, params: dict[str, Any], phash: str) -> str:
    """`KIND:MODEL#H`: H is a short hash of the model, its parameters and the prompt hash."""
    body = json.dumps({"model": model, "params": params, "prompt_hash": phash},
                      sort_keys=True, separators=(",", ":"), default=str)
    return f"{kind}:{model}#{hashlib.sha256(body.encode()).hexdigest()[:8]}"


def kind_of(name: str) -> str:
    """The kind of judge a metric is judged by: 'judge' (report) or 'patient' (ratings)."""
    return PATIENT_KIND if name in PATIENT_NAMES else REPORT_KIND


def own_patient() -> str:
    """The name of `--rating-patient own` (each consultation's own patient rates)."""
    from core.prompts import PATIENT_RATING

    return rater_name(PATIENT_KIND, "own", {}, PATIENT_RATING.sha256)


def report_judge(model: str | None, params: dict[str, Any]) -> str:
    """The report judge's name."""
    from core.metrics.report_score import prompt_hash

    return rater_name(REPORT_KIND, model, params, prompt_hash())


def rating_patient(model: str | None, params: dict[str, Any]) -> str:
    """A rating model's name (its biases left out: they are each consultation's)."""
    from core.prompts import PATIENT_RATING

    plain = {k: v for k, v in params.items() if k != BIAS_PARAM}
    return rater_name(PATIENT_KIND, model, plain, PATIENT_RATING.sha256)


def stored_identity(name: str, detail: dict[str, Any]) -> str:
    """The judge of a value stored before values were kept per judge, from what its detail
    records (model, parameters, prompt hash); `KIND:unknown` when it records none."""
    kind = kind_of(name)
    who = detail.get("judge" if kind == REPORT_KIND else "rater")
    if not isinstance(who, dict) or not who.get("model"):
        return f"{kind}:{UNKNOWN}"
    params = dict(who.get("params") or {})
    if kind == PATIENT_KIND:
        params.pop(BIAS_PARAM, None)
    return rater_name(kind, who["model"], params, str(who.get("prompt_hash") or ""))


def model_of(judge: str) -> str:
    """The model part of a judge's name (`judge:openai/x#1a2b3c4d` → `openai/x`)."""
    return judge.split(":", 1)[-1].rsplit("#", 1)[0]
