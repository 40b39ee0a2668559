"""Transcripts: the turns of a consultation and how it ended.

Shared by the engine (which produces them), the store (which records them turn by turn),
importers (dialogue histories from other systems) and annotation (which rates them).
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, Field


def utc_now() -> str:
    """ISO-8601 UTC timestamp with milliseconds, the one time format of the project."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Role(StrEnum):
    """Who speaks a turn."""

    DOCTOR = "doctor"
    PATIENT = "patient"
    EXAMINER = "examiner"
    MODERATOR = "moderator"
    SYSTEM = "system"
    # A doctor tool (reasoning, reflection, search, notebook): seen by the doctor alone,
    # never by the patient or the examiner, and never a doctor turn of the budget.
    TOOL = "tool"
    HOST = "host"  # the host of collaborating doctors (AI Hospital's dispute resolution)


class EndReason(StrEnum):
    """Why a consultation ended."""

    DIAGNOSIS = "diagnosis"
    BUDGET = "budget"
    ERROR = "error"
    CANCELLED = "cancelled"
    IMPORTED = "imported"


class Usage(BaseModel):
    """Token counts and cost of one model call (zeros for model-free agents)."""

    prompt_tokens: int = Field(0, description="Tokens sent.")
    completion_tokens: int = Field(0, description="Tokens received.")
    cost_usd: float = Field(0.0, description="Cost as litellm prices it; 0 when unknown.")


class Turn(BaseModel):
    """One completed utterance in a consultation."""

    index: int = Field(description="0-based position in the consultation.")
    role: Role = Field(description="Who spoke.")
    addressee: Role | None = Field(None, description="Whom it was addressed to, if known.")
    content: str = Field(description="What was said, verbatim (untrusted text).")
    doctor_turn: int | None = Field(
        None, description="The doctor-turn number (1-based) this utterance belongs to."
    )
    kind: str = Field(
        "message",
        description="'question', 'test_request', 'image_request', 'diagnosis', 'answer', "
        "'result', 'refusal', 'images' (the engine's answer to REQUEST IMAGES), 'verdict', "
        "'report' or 'message'; a tool turn's kind names the tool's step "
        "(core.doctortools.TOOL_KINDS); AI Hospital's protocol adds 'complaint' (the "
        "patient's opening) and 'relay' (a test request the patient passes on); a "
        "collaboration 'initial' (a doctor's own report), 'assessment' (the host's reading of "
        "the reports), 'revision' (a doctor's revised report) and 'final' (the joint one).",
    )
    tests: list[str] = Field(default_factory=list, description="Test names requested or reported.")
    started_at: str | None = Field(None, description="ISO UTC time the turn began.")
    ended_at: str | None = Field(None, description="ISO UTC time the turn completed.")
    latency_ms: float | None = Field(None, description="Wall time to produce the turn.")
    usage: Usage = Field(default_factory=Usage, description="Tokens and cost.")
    model: str | None = Field(None, description="Model or agent kind that produced it.")
    raw_request: Any = Field(None, description="Raw request JSON (no API keys), if a model call.")
    raw_response: Any = Field(None, description="Raw response JSON, if a model call.")
    meta: dict[str, Any] = Field(default_factory=dict, description="Anything else worth keeping.")


class Verdict(BaseModel):
    """A moderator's judgement of the doctor's diagnosis."""

    moderator: str = Field(description="'exact' or the model string of an LLM moderator.")
    correct: bool | None = Field(description="True/False, or None if it could not be decided.")
    raw: str | None = Field(None, description="The moderator's raw answer, if a model.")


class FinalReport(BaseModel):
    """The doctor's structured final report (AI Hospital style)."""

    symptoms: str | None = Field(None, description="Summary of the symptoms found.")
    examinations: str | None = Field(None, description="Examinations and tests done.")
    diagnostic_results: str | None = Field(None, description="The diagnosis reached.")
    rationale: str | None = Field(None, description="Why.")
    treatment_plan: str | None = Field(None, description="What to do.")
    differential: list[str] = Field(default_factory=list, description="Alternatives considered.")

    def as_text(self) -> str:
        """The report as a reader (and `parse_report`) reads it: each part under its
        heading, the parts left empty left out."""
        parts = [("Symptoms", self.symptoms), ("Examinations", self.examinations),
                 ("Diagnostic results", self.diagnostic_results),
                 ("Differential", "; ".join(self.differential)),
                 ("Diagnostic rationale", self.rationale),
                 ("Treatment plan", self.treatment_plan)]
        return "\n".join(f"{k}: {v.strip()}" for k, v in parts if v and v.strip())


class Transcript(BaseModel):
    """A whole consultation, finished or imported."""

    case_id: str = Field(description="The case it was played on.")
    turns: list[Turn] = Field(default_factory=list, description="All turns, in order.")
    diagnosis: str | None = Field(None, description="The doctor's final diagnosis, if any.")
    end_reason: EndReason | None = Field(None, description="Why it ended.")
    verdicts: list[Verdict] = Field(default_factory=list, description="Moderator verdicts.")
    report: FinalReport | None = Field(None, description="The doctor's final report, if any.")
    doctor: str | None = Field(None, description="Who played doctor: model string or human:NAME.")
    meta: dict[str, Any] = Field(default_factory=dict, description="Source-specific extras.")


def verdict_correct(verdicts: list[Verdict]) -> bool | None:
    """The one answer to "was the diagnosis right?" given every moderator's verdict.

    The deterministic matcher ('exact') is the reference when it decided; otherwise the
    first decided verdict in order; None when nobody could decide. The batch outcome and the
    store's `correct` column both use this, so they always agree.
    """
    ordered = sorted(verdicts, key=lambda v: v.moderator != "exact")  # stable: keeps order
    for v in ordered:
        if v.correct is not None:
            return v.correct
    return None
