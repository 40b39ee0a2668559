"""Records of simulator fidelity, as the store keeps them.

`StoredGrade` is one verdict of the LLM grader on one answer, with who gave it (model,
parameters, prompt hash: the grader's key) and the case it was given on. `GraderRecord` is
one grader that graded some of a set of consultations. The rules' findings cross the store
as `core.fidelity.models.AnswerFinding` lists, one per consultation.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from core.fidelity.models import GraderVerdict


class StoredGrade(BaseModel):
    """The grader's verdict on one patient or examiner answer of a consultation."""

    consultation_id: str = Field(description="The consultation.")
    turn_index: int = Field(description="Position of the answer turn in the transcript.")
    grader_key: str = Field(description="Hash of the grader's model, parameters and prompt.")
    role: Literal["patient", "examiner"] = Field(description="Who gave the answer.")
    model: str | None = Field(None, description="The grader's model string.")
    params: dict[str, Any] = Field(default_factory=dict,
                                   description="Its sampling parameters (never a key).")
    prompt_hash: str = Field(description="sha256 over the grader's prompts.")
    case_hash: str | None = Field(None, description="Content hash of the case it was given.")
    verdict: GraderVerdict = Field(description="What it said.")


class GraderRecord(BaseModel):
    """A grader with verdicts stored on some consultations."""

    grader_key: str = Field(description="Hash of model, parameters and prompt.")
    model: str | None = Field(None, description="The model string.")
    params: dict[str, Any] = Field(default_factory=dict, description="Sampling parameters.")
    verdicts: int = Field(0, description="Verdicts stored (failed calls included).")
    last_at: str | None = Field(None, description="ISO UTC time of its latest verdict.")
