"""A doctor in a case conference: it revises its report given the other doctors' reports
and, with dispute resolution, the host's summary and disputed points (AI Hospital).

- The scripted doctor revises by its own keyword table over what it heard in its own
  consultation (`ScriptedDoctor.revise`): it takes up the diagnosis most other doctors
  hold once that one fits what it heard nearly as well as its own, more readily as rounds
  pass; its symptoms, examinations and plan stay its own.
- A model doctor gets one call with our prompt (`revision/v1`, or `revision-plain/v1`
  without dispute resolution): its own current report, the others' opinions (diagnosis,
  rationale, plan) and the host's text, and answers with the five-part report.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from core import prompts
from core.agents.base import DeltaFn, Reply
from core.agents.host import TeamReport, first_diagnosis
from core.agents.scripted_doctor import ScriptedDoctor, heard_text
from core.config import AgentSpec
from core.errors import BedsideError
from core.transcript import FinalReport, Turn
from core.views import DoctorView

if TYPE_CHECKING:
    from core.llm import LLMClient


@dataclass(frozen=True)
class RevisionRequest:
    """What a doctor is given to revise its report in one round."""

    own: TeamReport
    others: list[TeamReport]  # as they stand now (earlier doctors' revisions of this round)
    critique: str | None  # the host's summary and points; None without dispute resolution
    round: int  # 1-based


class Collaborator(Protocol):
    """Revises its report in a case conference."""

    label: str

    async def revise(self, request: RevisionRequest, on_delta: DeltaFn) -> Reply:
        """The revised report (Reply.report; the diagnosis is its first diagnostic
        result)."""
        ...


class ScriptedCollaborator:
    """The scripted doctor of one consultation, revising by its table."""

    def __init__(self, doctor: ScriptedDoctor, heard: str) -> None:
        self.doctor, self.heard, self.label = doctor, heard, doctor.label

    async def revise(self, request: RevisionRequest, on_delta: DeltaFn) -> Reply:
        """Keep or take up another diagnosis (`ScriptedDoctor.revise`)."""
        new, why = self.doctor.revise(request.own.diagnosis,
                                      [o.diagnosis for o in request.others], self.heard,
                                      request.round)
        base = request.own.report or FinalReport()
        report = base.model_copy(update={"diagnostic_results": new})
        revised = TeamReport(request.own.label, new, report)
        return Reply(text=f"{why}\n{revised.opinion()}", model="scripted", report=report)


class LLMCollaborator:
    """A model doctor revising its report in one call."""

    def __init__(self, spec: AgentSpec, client: LLMClient, language: str) -> None:
        self.spec, self.client, self.label = spec, client, spec.display()
        self.language = prompts.language_name(language)

    def messages(self, request: RevisionRequest) -> list[dict[str, str]]:
        """The revision prompt, filled."""
        others = "\n\n".join(f"{o.name}:\n{o.opinion()}" for o in request.others)
        values = dict(label=request.own.label, count=len(request.others) + 1,
                      own=request.own.full(), others=others, language_name=self.language)
        if request.critique is None:
            text = prompts.get("revision-plain/v1").format(**values)
        else:
            text = prompts.get("revision/v1").format(critique=request.critique, **values)
        return [{"role": "user", "content": text}]

    async def revise(self, request: RevisionRequest, on_delta: DeltaFn) -> Reply:
        """One call; the answer parsed into the five parts."""
        from core.agents.llm_agents import parse_report

        reply = await self.client.complete(self.spec, self.messages(request), on_delta)
        reply.report = parse_report(reply.text)
        return reply


def build_collaborator(spec: AgentSpec, view: DoctorView, own_turns: list[Turn], *,
                       seed: int, client: LLMClient | None) -> Collaborator:
    """The collaborator a doctor spec names, knowing what it heard in its own
    consultation (`own_turns`)."""
    if spec.kind == "scripted":
        doctor = ScriptedDoctor(view, seed if spec.seed is None else spec.seed)
        return ScriptedCollaborator(doctor, heard_text(view.objective, own_turns))
    if spec.kind == "llm" and client is not None:
        return LLMCollaborator(spec, client, view.language)
    raise BedsideError(f"'{spec.display()}' cannot take part in a case conference")


__all__ = ["Collaborator", "LLMCollaborator", "RevisionRequest", "ScriptedCollaborator",
           "build_collaborator", "first_diagnosis"]
