"""Run a probe suite through real agents and grade it twice: by the probes' labels and by
the label-free fidelity checks (which phase 2 runs on any transcript).

`run_suite(probes, cases, make_agents)` asks each probe of a known case (after its context)
with the agents `make_agents(case, strict)` builds — from the role views, as the factory
does — and returns one `ProbeResult` per probe and `SuiteFigures`: per role the share of
answers with the expected property, leaks, the checks' figures per agent, and how often the
checks agree with the labels where they decide.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, Field

from core.agents.base import Examiner, Patient
from core.case import Case
from core.fidelity.models import AgentFigures, AnswerFinding, aggregate
from core.fidelity.probes import Probe, grade, run_probe
from core.fidelity.report import CaseChecker
from core.transcript import Transcript

MakeAgents = Callable[[Case, bool], tuple[Patient, Examiner]]


class ProbeResult(BaseModel):
    """One probe, the agent's answer and both gradings."""

    probe: Probe = Field(description="The probe asked.")
    answer: str = Field(description="The agent's answer, verbatim.")
    ok: bool = Field(description="Whether the answer has the expected property.")
    reason: str = Field("", description="Why not, when not.")
    finding: AnswerFinding = Field(description="The label-free fidelity checks of the answer.")


class RoleFigures(BaseModel):
    """Label-graded figures of one role."""

    probes: int = Field(0, description="Probes asked of this role.")
    correct: int = Field(0, description="Answers with the expected property.")
    leaks: int = Field(0, description="Answers that leaked (label-free leak check).")

    @property
    def rate(self) -> float | None:
        """Share of correct answers."""
        return self.correct / self.probes if self.probes else None


class SuiteFigures(BaseModel):
    """Everything a probe suite measured."""

    roles: dict[str, RoleFigures] = Field(default_factory=dict,
                                          description="Label-graded figures per role.")
    checks: list[AgentFigures] = Field(default_factory=list,
                                       description="Label-free check figures per agent.")
    agreement: dict[str, tuple[int, int]] = Field(
        default_factory=dict, description="Per check, (agreeing, decided): how often the "
        "checks' pass/fail matches the label where the checks decide.")


async def run_suite(probes: list[Probe], cases: dict[str, Case],
                    make_agents: MakeAgents) -> tuple[list[ProbeResult], SuiteFigures]:
    """Ask every probe and grade the answers; probes of unknown cases are an error."""
    missing = sorted({p.case for p in probes if p.case not in cases})
    if missing:
        raise KeyError(f"probes name cases that are not loaded: {', '.join(missing)}")
    checkers: dict[str, CaseChecker] = {}
    agents: dict[tuple[str, bool], tuple[Patient, Examiner]] = {}
    results: list[ProbeResult] = []
    for probe in probes:
        case = cases[probe.case]
        key = (case.id, probe.strict)
        if key not in agents:
            agents[key] = make_agents(case, probe.strict)
        checker = checkers.get(case.id) or checkers.setdefault(case.id, CaseChecker(case))
        turns = await run_probe(probe, *agents[key])
        finding = checker.findings(Transcript(case_id=case.id, turns=turns))[-1]
        ok, reason = grade(probe, turns[-1].content, case, checker.record)
        results.append(ProbeResult(probe=probe, answer=turns[-1].content, ok=ok,
                                   reason="" if ok else reason, finding=finding))
    return results, figures(results)


def figures(results: list[ProbeResult]) -> SuiteFigures:
    """The figures of graded probe results."""
    out = SuiteFigures(checks=aggregate([r.finding for r in results]))
    for r in results:
        role = out.roles.setdefault(r.probe.role, RoleFigures())
        role.probes += 1
        role.correct += r.ok
        role.leaks += r.finding.outcome("leak") == "fail"
        name = "consistent" if r.probe.role == "patient" else "accuracy"
        outcome = r.finding.outcome(name)
        if outcome in ("pass", "fail"):
            agree, decided = out.agreement.get(name, (0, 0))
            out.agreement[name] = (agree + ((outcome == "pass") == r.ok), decided + 1)
    return out
