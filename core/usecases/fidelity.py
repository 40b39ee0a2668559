"""Simulator fidelity of runs: check, grade, report (`bedside fidelity` and the app's
Fidelity screen).

- `check_runs` runs the rules (`core.fidelity`) on every finished consultation of the runs
  that lacks stored findings, or whose case or rules changed since, and stores them;
- `grade_runs` asks an LLM grader about every answer not yet graded by that grader (same
  model, parameters and prompt) on that version of the case, storing each verdict the
  moment it exists; a failed call is stored as failed and tried again next time;
- `report` reads the stored findings and verdicts (nothing recomputed) into the figures per
  run and agent, ranked within each role (`core.fidelity.table`).

Consultations whose case is a placeholder or cannot be found are left out (counted).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from pydantic import BaseModel, Field

from core.case import Case
from core.fidelity import grader
from core.fidelity.models import AnswerFinding
from core.fidelity.report import CaseChecker, rules_hash
from core.fidelity.table import AgentRow, Example, Member, agent_rows, examples
from core.metrics.llmcall import Complete, JudgeInfo
from core.ports.fidelity import FidelityRunsStore
from core.records.fidelity import GraderRecord, StoredGrade
from core.records.runs import ConsultationSummary, RunRecord
from core.usecases.scoring import Finder, case_finder

Progress = Callable[[int, int], None]


class RunInfo(BaseModel):
    """One run of the report."""

    run_id: str = Field(description="The run id.")
    name: str | None = Field(None, description="Its name.")
    doctors: list[str] = Field(default_factory=list, description="The doctors that asked "
                               "the questions (a replay doctor's label names its file).")
    consultations: int = Field(0, description="Its finished consultations.")
    checked: int = Field(0, description="Of those, how many have stored findings.")
    no_case: int = Field(0, description="Left out: the case is a placeholder or missing.")


class FidelityTable(BaseModel):
    """The fidelity report of one or more runs, side by side."""

    runs: list[RunInfo] = Field(default_factory=list, description="The runs, as asked.")
    rows: list[AgentRow] = Field(default_factory=list, description="Per run, role and agent.")
    grader: GraderRecord | None = Field(None, description="The grader whose verdicts are "
                                        "shown (None: rules only).")
    same_questions: bool = Field(False, description="Every consultation was asked by one "
                                 "same replay doctor (same file and content).")
    examples: list[Example] = Field(default_factory=list,
                                    description="Failed answers, a few per agent.")


class GradeSummary(BaseModel):
    """What `grade_runs` did."""

    answers: int = Field(0, description="Answers considered.")
    graded: int = Field(0, description="New verdicts stored.")
    cached: int = Field(0, description="Answers already graded by this grader.")
    failures: list[tuple[str, int, str]] = Field(
        default_factory=list, description="(consultation, turn index, reason) of failed calls.")


class _Cases:
    """Cases by id with their content hash, each looked up and hashed once."""

    def __init__(self, find: Finder) -> None:
        self.find = find
        self.seen: dict[str, tuple[Case, str] | None] = {}
        self.checkers: dict[str, CaseChecker] = {}

    def get(self, case_id: str) -> tuple[Case, str] | None:
        from core.caseio import case_hash

        if case_id not in self.seen:
            case = self.find(case_id)
            ok = case is not None and not case.placeholder
            self.seen[case_id] = (case, case_hash(case)) if ok and case else None
        return self.seen[case_id]

    def checker(self, case: Case) -> CaseChecker:
        if case.id not in self.checkers:
            self.checkers[case.id] = CaseChecker(case)
        return self.checkers[case.id]


def resolve(store: FidelityRunsStore, refs: list[str]) -> list[RunRecord]:
    """The runs named (id or name), each once, in the order given; NotFoundError otherwise."""
    runs: dict[str, RunRecord] = {}
    for ref in refs:
        run = store.get_run(ref)
        runs.setdefault(run.id, run)
    return list(runs.values())


def _finished(store: FidelityRunsStore, run_id: str) -> list[ConsultationSummary]:
    return store.list_consultations(run_id=run_id, status="finished")


def check_runs(store: FidelityRunsStore, run_ids: list[str], *, recompute: bool = False,
               find_case: Finder | None = None) -> int:
    """Store the rules' findings of every finished consultation of the runs that lacks them
    or whose case or rules changed (every one with `recompute`); how many were checked."""
    cases, rules, done = _Cases(find_case or case_finder(store)), rules_hash(), 0
    for run_id in run_ids:
        consultations = _finished(store, run_id)
        stored = store.fidelity_hashes([c.id for c in consultations])
        for c in consultations:
            found = cases.get(c.case_id)
            if found is None or not recompute and stored.get(c.id) == (found[1], rules):
                continue
            findings = cases.checker(found[0]).findings(
                store.get_transcript(c.id), patient_agent=c.patient or None,
                examiner_agent=c.examiner or None)
            store.save_fidelity(c.id, findings, case_hash=found[1], rules_hash=rules)
            done += 1
    return done


def _to_grade(store: FidelityRunsStore, run_ids: list[str], key: str, recompute: bool,
              cases: _Cases) -> tuple[list[tuple[str, AnswerFinding, Case, str]], int]:
    """(consultation, finding, case, case hash) of the answers still to grade, and how many
    answers there are in all."""
    jobs, total = [], 0
    for run_id in run_ids:
        by_id = {c.id: c for c in _finished(store, run_id)}
        stored = store.fidelity_findings(list(by_id))
        done = store.fidelity_grades(list(by_id), key)
        for cid, findings in stored.items():
            found = cases.get(by_id[cid].case_id)
            if found is None:
                continue
            for f in findings:
                total += 1
                old = done.get((cid, f.index))
                if recompute or old is None or old.verdict.failed or old.case_hash != found[1]:
                    jobs.append((cid, f, *found))
    return jobs, total


async def grade_runs(store: FidelityRunsStore, run_ids: list[str], complete: Complete,
                     info: JudgeInfo, *, concurrency: int = 4, recompute: bool = False,
                     find_case: Finder | None = None,
                     progress: Progress | None = None) -> GradeSummary:
    """Grade every checked answer of the runs not yet graded by this grader (same model,
    parameters and prompt) on this version of its case; each verdict is stored at once."""
    key, prompt = grader.grader_key(info), grader.prompt_hash()
    jobs, total = _to_grade(store, run_ids, key, recompute,
                            _Cases(find_case or case_finder(store)))
    summary = GradeSummary(answers=total, cached=total - len(jobs))
    gate, done = asyncio.Semaphore(max(1, concurrency)), 0

    async def one(cid: str, finding: AnswerFinding, case: Case, digest: str) -> None:
        nonlocal done
        async with gate:
            verdict = await grader.grade(case, finding, complete)
        store.save_grade(StoredGrade(
            consultation_id=cid, turn_index=finding.index, grader_key=key, role=finding.role,
            model=info.model, params=info.params, prompt_hash=prompt, case_hash=digest,
            verdict=verdict))
        if verdict.failed:
            summary.failures.append((cid, finding.index, verdict.error or "failed"))
        else:
            summary.graded += 1
        done += 1
        if progress is not None:
            progress(done, len(jobs))

    await asyncio.gather(*(one(*job) for job in jobs))
    return summary


def report(store: FidelityRunsStore, run_ids: list[str], *, grader_key: str | None = None,
           examples_per_agent: int = 0, find_case: Finder | None = None) -> FidelityTable:
    """The stored figures of the runs, side by side (the latest grader's verdicts when no
    `grader_key` is given; none when none is stored)."""
    cases = _Cases(find_case or case_finder(store))
    runs = {r.id: r for r in (store.find_run(i) for i in run_ids) if r is not None}
    table, members = FidelityTable(), []
    for run_id in run_ids:
        consultations = _finished(store, run_id)
        stored = store.fidelity_findings([c.id for c in consultations])
        run = runs.get(run_id)
        info = RunInfo(run_id=run_id, name=run.name if run else None,
                       doctors=sorted({c.doctor or "?" for c in consultations}),
                       consultations=len(consultations), checked=len(stored),
                       no_case=sum(cases.get(c.case_id) is None for c in consultations))
        table.runs.append(info)
        members += [Member(run_id=run_id, run_name=info.name, consultation_id=c.id,
                           findings=stored[c.id]) for c in consultations if c.id in stored]
    ids = [m.consultation_id for m in members]
    graders = store.fidelity_graders(ids)
    chosen = next((g for g in graders if g.grader_key == grader_key), None) if grader_key \
        else (graders[0] if graders else None)
    grades = store.fidelity_grades(ids, chosen.grader_key) if chosen else {}
    table.grader, table.rows = chosen, agent_rows(members, grades)
    doctors = {d for r in table.runs for d in r.doctors}
    table.same_questions = len(doctors) == 1 and next(iter(doctors)).startswith("replay:")
    table.examples = examples(members, examples_per_agent) if examples_per_agent else []
    return table
