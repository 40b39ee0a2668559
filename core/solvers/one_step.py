"""Upper bound (AI Hospital's one-step diagnosis): the doctor receives the whole case at
once — presenting problem, history, examination findings and test results, never the
ground truth — and answers in one call with `DIAGNOSIS READY:` and a five-part report.

The result is an ordinary `Transcript` (one doctor turn, the deterministic verdict) marked
`meta["mode"] = "one_step"`, so it is stored and scored like any consultation and shown
beside the interactive runs; its pathway metrics are None ('one-step mode has no pathway').

Must not import: textual, rich, litellm (only through core.llm), or any other bedside
package.
"""

from __future__ import annotations

import time

from core.case import Case
from core.metrics.llmcall import Complete, JudgeInfo, call_text
from core.prompts import ONE_STEP_DOCTOR
from core.protocol import parse_doctor_message
from core.transcript import EndReason, Role, Transcript, Turn, Usage, Verdict, utc_now

ONE_STEP = "one_step"


def full_record(case: Case) -> str:
    """Everything a doctor could learn in a consultation, as text (no ground truth)."""
    from core.prompts.render import render_profile
    from core.views import patient_view

    lines = [f"Presenting problem: {case.objective}", render_profile(patient_view(case))]
    lines.extend(f"Examination: {i.render()}" for i in case.physical_exam)
    lines.extend(f"Test: {i.render()}" for i in case.tests)
    if case.truth.options:
        lines.append("Possible diagnoses to choose from: " + "; ".join(case.truth.options))
    return "\n".join(lines)


def one_step_messages(case: Case) -> list[dict[str, str]]:
    """The single message of a one-step consultation."""
    from core.prompts import language_name

    text = ONE_STEP_DOCTOR.format(record=full_record(case),
                                  language_name=language_name(case.language))
    return [{"role": "user", "content": text}]


async def run_one_step(case: Case, complete: Complete, *, doctor: str,
                       info: JudgeInfo | None = None) -> Transcript:
    """Ask the doctor once with the whole case; return the scored-ready transcript.

    `doctor` is the label stored as the transcript's doctor (e.g. the model string). A
    reply without `DIAGNOSIS READY:` has no diagnosis (counted wrong, like a budget end).
    """
    from core.agents.llm_agents import parse_report
    from core.agents.moderator import ExactModerator
    from core.views import moderator_view

    messages = one_step_messages(case)
    started, t0 = utc_now(), time.perf_counter()
    text, reply = await call_text(complete, messages)
    action = parse_doctor_message(text)
    diagnosis = action.diagnosis if action.kind == "diagnosis" else None
    turn = Turn(index=0, role=Role.DOCTOR, content=text, doctor_turn=1,
                kind="diagnosis" if diagnosis else "message", started_at=started,
                ended_at=utc_now(), latency_ms=round((time.perf_counter() - t0) * 1000, 3),
                usage=getattr(reply, "usage", None) or Usage(),
                model=getattr(reply, "model", None) or (info.model if info else None),
                raw_request=getattr(reply, "raw_request", None),
                raw_response=getattr(reply, "raw_response", None),
                meta={"prompt_id": ONE_STEP_DOCTOR.id, "prompt_hash": ONE_STEP_DOCTOR.sha256})
    verdicts: list[Verdict] = []
    if diagnosis:
        verdict, _ = await ExactModerator(moderator_view(case)).judge(diagnosis)
        verdicts.append(verdict)
    report = parse_report(text.split("\n", 1)[1]) if "\n" in text else None
    return Transcript(
        case_id=case.id, turns=[turn], diagnosis=diagnosis, doctor=doctor,
        end_reason=EndReason.DIAGNOSIS if diagnosis else EndReason.BUDGET, verdicts=verdicts,
        report=report, meta={"mode": ONE_STEP, "doctor_params": (info.params if info else {})})
