"""What a fidelity check says about one answer, and the figures per agent.

Every patient and examiner answer of a transcript gets an `AnswerFinding`: one `Check` per
property (leak, record-consistent, addresses the question, language kept, examiner
accuracy), each `pass`, `fail`, `undecided` (the rules cannot tell; a later LLM grader
decides) or `na` (the property does not apply). `AgentFigures` counts them per agent; a
share is taken over the decided answers only, and the undecided are counted beside it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Outcome = Literal["pass", "fail", "undecided", "na"]
CheckName = Literal["leak", "consistent", "addresses", "language", "accuracy"]
CHECKS: tuple[CheckName, ...] = ("leak", "consistent", "addresses", "language", "accuracy")


class Check(BaseModel):
    """One property of one answer."""

    outcome: Outcome = Field(description="pass, fail, undecided (rules cannot tell) or na.")
    reason: str = Field("", description="Why, in one sentence a reader can verify.")


class AnswerFinding(BaseModel):
    """The fidelity of one patient or examiner answer."""

    index: int = Field(description="Position of the answer turn in the transcript.")
    role: Literal["patient", "examiner"] = Field(description="Who answered.")
    agent: str = Field(description="The agent that answered (its label or model string).")
    prompt: str = Field(description="The doctor message the answer replies to.")
    answer: str = Field(description="The answer, verbatim.")
    tests: list[str] = Field(default_factory=list,
                             description="Test names the doctor requested (examiner only).")
    checks: dict[str, Check] = Field(default_factory=dict,
                                     description="One check per property name (see CHECKS).")

    def outcome(self, name: str) -> Outcome:
        """The outcome of one check ('na' when the check was not made)."""
        check = self.checks.get(name)
        return check.outcome if check else "na"


class Share(BaseModel):
    """Counts of one check over many answers."""

    passed: int = Field(0, description="Answers that passed.")
    failed: int = Field(0, description="Answers that failed.")
    undecided: int = Field(0, description="Answers the rules could not decide.")

    @property
    def decided(self) -> int:
        """Answers the rules decided."""
        return self.passed + self.failed

    @property
    def rate(self) -> float | None:
        """Share passed among the decided answers (None when none was decided)."""
        return self.passed / self.decided if self.decided else None


class AgentFigures(BaseModel):
    """The fidelity figures of one agent in one role."""

    role: Literal["patient", "examiner"] = Field(description="The role it played.")
    agent: str = Field(description="The agent's label or model string.")
    answers: int = Field(0, description="Answers checked.")
    leaks: int = Field(0, description="Answers that leaked the diagnosis or a result.")
    shares: dict[str, Share] = Field(default_factory=dict,
                                     description="Counts per check name (leak excluded).")

    def rate(self, name: str) -> float | None:
        """The pass rate of one check among decided answers."""
        share = self.shares.get(name)
        return share.rate if share else None


class GraderVerdict(BaseModel):
    """What the LLM grader said about one answer (`core.fidelity.grader`)."""

    checks: dict[str, Check] = Field(default_factory=dict,
                                     description="One check per property it grades.")
    raw: str = Field("", description="The model's reply, truncated.")
    failed: bool = Field(False, description="The call failed or the reply had no verdict.")
    error: str | None = Field(None, description="Why it failed.")


class FidelityReport(BaseModel):
    """Every checked answer of one or more transcripts, and the figures per agent."""

    findings: list[AnswerFinding] = Field(default_factory=list,
                                          description="One finding per answer, in order.")
    figures: list[AgentFigures] = Field(default_factory=list,
                                        description="Aggregates per (role, agent).")


def aggregate(findings: list[AnswerFinding]) -> list[AgentFigures]:
    """Figures per (role, agent), in order of first appearance."""
    out: dict[tuple[str, str], AgentFigures] = {}
    for f in findings:
        fig = out.setdefault((f.role, f.agent), AgentFigures(role=f.role, agent=f.agent))
        fig.answers += 1
        if f.outcome("leak") == "fail":
            fig.leaks += 1
        for name in CHECKS:
            outcome = f.outcome(name)
            if name == "leak" or outcome == "na":
                continue
            share = fig.shares.setdefault(name, Share())
            if outcome == "pass":
                share.passed += 1
            elif outcome == "fail":
                share.failed += 1
            else:
                share.undecided += 1
    return list(out.values())
