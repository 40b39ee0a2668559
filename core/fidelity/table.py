"""The fidelity report of runs: per run and per patient or examiner agent, each check's
counts with a Wilson 95 % interval, the LLM grader's verdicts beside the rules, and a rank
within each role.

Built from stored findings and verdicts (`core.usecases.fidelity` reads them); nothing is
recomputed here. For each check:
- the rules' counts (passed, failed, undecided) and the pass share among decided answers;
- with a grader: the answers the rules left undecided that it decided, and the share over
  rules-decided plus grader-decided answers (`combined`);
- the 2 × 2 table of rules against grader on the answers both decide (rows: rules pass,
  fail; columns: grader pass, fail), from which the report's reader computes percent
  agreement and Cohen's kappa (`annotation.analysis.kappa`), and the grader's own pass share
  over every answer it decided (honesty for `consistent`, relevance for `addresses`).
Agents are ranked within their role by the pass share of their main check (patient:
record-consistent; examiner: accuracy), fewer leaks first on ties.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, Field

from core.fidelity.models import CHECKS, AnswerFinding
from core.metrics.stats import wilson_interval
from core.records.fidelity import StoredGrade

#: The check an agent of each role is ranked by.
MAIN_CHECK = {"patient": "consistent", "examiner": "accuracy"}
#: What each check is called in reports.
CHECK_NAMES = {"leak": "leaks", "consistent": "record-consistent (honesty)",
               "addresses": "addresses the question (relevance)",
               "language": "language kept", "accuracy": "examiner accuracy"}


class CheckFigures(BaseModel):
    """One check over an agent's answers."""

    passed: int = Field(0, description="Answers the rules passed.")
    failed: int = Field(0, description="Answers the rules failed.")
    undecided: int = Field(0, description="Answers the rules could not decide.")
    rate: float | None = Field(None, description="passed / (passed + failed).")
    ci_low: float | None = Field(None, description="Wilson 95 % lower bound of `rate`.")
    ci_high: float | None = Field(None, description="Wilson 95 % upper bound of `rate`.")
    grader_passed: int = Field(0, description="Rules-undecided answers the grader passed.")
    grader_failed: int = Field(0, description="Rules-undecided answers the grader failed.")
    combined_rate: float | None = Field(None, description="Pass share over rules-decided "
                                        "and grader-decided (rules-undecided) answers.")
    combined_ci_low: float | None = Field(None, description="Its Wilson lower bound.")
    combined_ci_high: float | None = Field(None, description="Its Wilson upper bound.")
    grader_rate: float | None = Field(None, description="The grader's pass share over every "
                                      "answer it decided.")
    grader_decided: int = Field(0, description="Answers the grader decided (pass or fail).")
    agreement: list[list[int]] | None = Field(
        None, description="Rules × grader on answers both decide: [[pass/pass, pass/fail], "
        "[fail/pass, fail/fail]] (rows rules, columns grader); None without a grader.")


class AgentRow(BaseModel):
    """The fidelity of one agent in one role of one run."""

    run_id: str = Field(description="The run.")
    run_name: str | None = Field(None, description="Its name.")
    role: Literal["patient", "examiner"] = Field(description="The role the agent played.")
    agent: str = Field(description="The agent's label or model string.")
    rank: int = Field(0, description="1 = most faithful agent of its role in the report.")
    consultations: int = Field(0, description="Consultations its answers come from.")
    answers: int = Field(0, description="Answers checked.")
    leaks: int = Field(0, description="Answers that leaked the diagnosis or a result.")
    leak_ci_low: float | None = Field(None, description="Wilson 95 % lower bound of the "
                                      "leak share.")
    leak_ci_high: float | None = Field(None, description="Its upper bound.")
    checks: dict[str, CheckFigures] = Field(default_factory=dict,
                                            description="Per check name (leak apart).")
    graded: int = Field(0, description="Answers with a stored grader verdict.")
    grader_failures: int = Field(0, description="Grader calls that failed (retried on the "
                                 "next run).")


class Example(BaseModel):
    """One failed answer, for a reader to verify."""

    run_id: str = Field(description="The run.")
    consultation_id: str = Field(description="The consultation.")
    role: str = Field(description="patient or examiner.")
    agent: str = Field(description="The agent.")
    check: str = Field(description="The check it failed.")
    prompt: str = Field(description="What the doctor said.")
    answer: str = Field(description="What the agent answered.")
    reason: str = Field(description="Why it failed.")


class Member(BaseModel):
    """One checked consultation: where its findings come from."""

    run_id: str = Field(description="The run.")
    run_name: str | None = Field(None, description="The run's name.")
    consultation_id: str = Field(description="The consultation.")
    findings: list[AnswerFinding] = Field(description="Its stored findings.")


def _share(passed: int, n: int) -> tuple[float | None, float | None, float | None]:
    ci = wilson_interval(passed, n)
    return (passed / n if n else None, *(ci or (None, None)))


def _check(pairs: list[tuple[str, str | None]]) -> CheckFigures:
    """Figures of one check from (rules outcome, grader outcome or None) per answer."""
    fig = CheckFigures()
    table = [[0, 0], [0, 0]]
    graded = False
    for rule, grader in pairs:
        graded = graded or grader is not None
        if rule == "pass":
            fig.passed += 1
        elif rule == "fail":
            fig.failed += 1
        else:
            fig.undecided += 1
            fig.grader_passed += grader == "pass"
            fig.grader_failed += grader == "fail"
        if rule in ("pass", "fail") and grader in ("pass", "fail"):
            table[rule == "fail"][grader == "fail"] += 1
    fig.rate, fig.ci_low, fig.ci_high = _share(fig.passed, fig.passed + fig.failed)
    if graded:
        both = fig.passed + fig.grader_passed
        n = both + fig.failed + fig.grader_failed
        fig.combined_rate, fig.combined_ci_low, fig.combined_ci_high = _share(both, n)
        decided = [g for _, g in pairs if g in ("pass", "fail")]
        fig.grader_decided = len(decided)
        fig.grader_rate = decided.count("pass") / len(decided) if decided else None
        fig.agreement = table
    return fig


def agent_rows(members: Iterable[Member],
               grades: dict[tuple[str, int], StoredGrade] | None = None) -> list[AgentRow]:
    """Rows per (run, role, agent), in order of first appearance, ranked within role."""
    found: dict[tuple[str, str, str], tuple[AgentRow, list[AnswerFinding], list[str]]] = {}
    for m in members:
        for f in m.findings:
            key = (m.run_id, f.role, f.agent)
            if key not in found:
                found[key] = (AgentRow(run_id=m.run_id, run_name=m.run_name, role=f.role,
                                       agent=f.agent), [], [])
            found[key][1].append(f)
            found[key][2].append(m.consultation_id)
    rows = []
    for row, findings, cids in found.values():
        _fill(row, findings, cids, grades or {})
        rows.append(row)
    rank(rows)
    return rows


def _fill(row: AgentRow, findings: list[AnswerFinding], cids: list[str],
          grades: dict[tuple[str, int], StoredGrade]) -> None:
    row.consultations, row.answers = len(set(cids)), len(findings)
    row.leaks = sum(f.outcome("leak") == "fail" for f in findings)
    _, row.leak_ci_low, row.leak_ci_high = _share(row.leaks, row.answers)
    verdicts = [grades.get((cid, f.index)) for cid, f in zip(cids, findings, strict=True)]
    row.graded = sum(v is not None and not v.verdict.failed for v in verdicts)
    row.grader_failures = sum(v is not None and v.verdict.failed for v in verdicts)
    for name in CHECKS:
        if name == "leak":
            continue
        pairs: list[tuple[str, str | None]] = []
        for f, v in zip(findings, verdicts, strict=True):
            rule = f.outcome(name)
            said = v.verdict.checks.get(name) if v is not None and not v.verdict.failed \
                else None
            if rule != "na" or said is not None:
                pairs.append((rule if rule != "na" else "undecided",
                              said.outcome if said is not None else None))
        if pairs:
            row.checks[name] = _check(pairs)


def rank(rows: list[AgentRow]) -> None:
    """Number the rows within each role: best main-check share first, fewer leaks on ties."""
    for role, check in MAIN_CHECK.items():
        mine = [r for r in rows if r.role == role]

        def order(r: AgentRow, check: str = check) -> tuple[float, float, float]:
            fig = r.checks.get(check)
            rate = fig.rate if fig is not None and fig.rate is not None else -1.0
            low = fig.ci_low if fig is not None and fig.ci_low is not None else -1.0
            return (-rate, r.leaks / r.answers if r.answers else 1.0, -low)

        for i, r in enumerate(sorted(mine, key=order), start=1):
            r.rank = i


def examples(members: Iterable[Member], per_agent: int) -> list[Example]:
    """Up to `per_agent` failed answers of each (run, role, agent), in transcript order."""
    out: list[Example] = []
    counts: dict[tuple[str, str, str], int] = {}
    for m in members:
        for f in m.findings:
            failed = [(n, f.checks[n].reason) for n in CHECKS if f.outcome(n) == "fail"]
            key = (m.run_id, f.role, f.agent)
            if not failed or counts.get(key, 0) >= per_agent:
                continue
            counts[key] = counts.get(key, 0) + 1
            out.append(Example(run_id=m.run_id, consultation_id=m.consultation_id,
                               role=f.role, agent=f.agent, check=failed[0][0],
                               prompt=f.prompt, answer=f.answer, reason=failed[0][1]))
    return out
