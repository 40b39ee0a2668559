"""The LLM fidelity grader: a model checks one patient or examiner answer against the record.

It decides what the rules leave `undecided` and grades every answer beside them, so that
its agreement with the rules can be measured where both decide. Patient answers get
`consistent` (honesty: nothing stated against or beyond the patient's facts) and
`addresses` (relevance); examiner answers get `accuracy`. The model sees the patient's facts
(its view, rendered as the model patient's prompt renders it) or the stored findings, the
doctor's message and the answer; its reply is parsed tolerantly, never evaluated.

The grader is the judge machinery of `bedside score`: a `Complete` callable on an
`AgentSpec`, `JudgeInfo` (model and parameters) and a versioned prompt whose hash is part of
the grader's key (`grader_key`), stored with every verdict.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from core import prompts
from core.case import Case
from core.fidelity.models import AnswerFinding, Check, GraderVerdict
from core.metrics.llmcall import RAW_KEEP, Complete, JudgeInfo, call_text, parse_json_object
from core.prompts.render import render_profile
from core.views import examiner_view, patient_view

#: The reply's key for each check, by role.
KEYS: dict[str, dict[str, str]] = {"patient": {"consistent": "consistent",
                                               "addresses": "addresses"},
                                   "examiner": {"accuracy": "accurate"}}
_YES = {"yes", "y", "true", "pass", "passed", "consistent", "accurate", "1"}
_NO = {"no", "n", "false", "fail", "failed", "inconsistent", "inaccurate", "0"}
_UNSURE = {"unsure", "unknown", "undecided", "cannot tell", "can't tell", "n/a", "na"}


def prompt_hash() -> str:
    """sha256 over both grader prompts (either changing makes another grader)."""
    body = "".join(prompts.FIDELITY_GRADER[r].sha256 for r in ("patient", "examiner"))
    return hashlib.sha256(body.encode()).hexdigest()


def grader_key(info: JudgeInfo) -> str:
    """The grader's key: model, parameters and prompt hash, hashed (12 hex)."""
    body = json.dumps({"model": info.model, "params": info.params, "prompt": prompt_hash()},
                      sort_keys=True, default=str)
    return hashlib.sha256(body.encode()).hexdigest()[:12]


def grader_name(info: JudgeInfo) -> str:
    """How reports name a grader: `MODEL#KEY`."""
    return f"{info.model}#{grader_key(info)}"


def messages(case: Case, finding: AnswerFinding) -> list[dict[str, str]]:
    """The grader's one user message for one answer."""
    if finding.role == "patient":
        text = prompts.FIDELITY_GRADER["patient"].format(
            profile=render_profile(patient_view(case)), question=finding.prompt,
            answer=finding.answer)
    else:
        view = examiner_view(case)
        stored = "\n".join(i.render() for i in [*view.physical_exam, *view.tests])
        text = prompts.FIDELITY_GRADER["examiner"].format(
            findings=stored or "(none)", tests=", ".join(finding.tests) or "(none)",
            request=finding.prompt, answer=finding.answer)
    return [{"role": "user", "content": text}]


def _outcome(value: Any) -> str | None:
    word = str(value).strip().strip(".").casefold()
    if isinstance(value, bool):
        return "pass" if value else "fail"
    if word in _YES:
        return "pass"
    if word in _NO:
        return "fail"
    if word in _UNSURE:
        return "undecided"
    return None


def parse_verdict(role: str, text: str) -> GraderVerdict:
    """The verdict in a reply; `failed` when a check's answer is missing or unreadable."""
    data = parse_json_object(text) or {}
    data = {str(k).strip().casefold(): v for k, v in data.items()}
    reason = str(data.get("reason") or "")[:300]
    out = GraderVerdict(raw=text[:RAW_KEEP])
    for check, key in KEYS[role].items():
        outcome = _outcome(data.get(key, ""))
        if outcome is None:
            return GraderVerdict(raw=text[:RAW_KEEP], failed=True,
                                 error=f"the reply gives no yes/no/unsure for '{key}'")
        out.checks[check] = Check(outcome=outcome, reason=reason)  # type: ignore[arg-type]
    return out


async def grade(case: Case, finding: AnswerFinding, complete: Complete) -> GraderVerdict:
    """Ask the grader about one answer; a failed call is a failed verdict, not an error."""
    try:
        text, _ = await call_text(complete, messages(case, finding))
    except Exception as err:  # the call's failure is recorded per answer; others go on
        return GraderVerdict(failed=True, error=f"{type(err).__name__}: {err}"[:300])
    return parse_verdict(finding.role, text)
