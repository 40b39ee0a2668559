"""The fidelity report of finished transcripts: every patient and examiner answer checked.

`check_transcript(case, transcript)` pairs each patient answer with the doctor question it
replies to and each examiner answer with the test request, runs the checks of
`core.fidelity.patient` and `core.fidelity.examiner`, and returns the findings and the
figures per agent. `check_many` does the same for several transcripts (a run, or several
runs side by side: agents are told apart by their labels). Nothing is printed or stored.
`rules_hash()` fingerprints the rules, so stored findings of older rules are recomputed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from core.case import Case
from core.fidelity.examiner import ExaminerReader, check_examiner
from core.fidelity.models import AnswerFinding, FidelityReport, aggregate
from core.fidelity.patient import QuestionReader, check_patient
from core.fidelity.record import Record, build_record
from core.transcript import Role, Transcript


class CaseChecker:
    """What the checks need of one case, built once and reused for its transcripts."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self.record: Record = build_record(case)
        self.reader = ExaminerReader(case)
        self.questions = QuestionReader(case, self.record)

    def findings(self, transcript: Transcript, *, patient_agent: str | None = None,
                 examiner_agent: str | None = None) -> list[AnswerFinding]:
        """One finding per patient or examiner answer of the transcript."""
        out: list[AnswerFinding] = []
        asked = None
        for turn in transcript.turns:
            if turn.role == Role.DOCTOR:
                asked = turn
            elif turn.role == Role.PATIENT and asked is not None and asked.kind == "question":
                out.append(check_patient(
                    self.questions, asked.content, turn.content, index=turn.index,
                    agent=patient_agent or turn.model or "patient"))
            elif turn.role == Role.EXAMINER and asked is not None:
                tests = asked.tests or turn.tests
                out.append(check_examiner(
                    self.record, self.reader, tests, asked.content, turn.content,
                    index=turn.index, agent=examiner_agent or turn.model or "examiner"))
        return out


def check_transcript(case: Case, transcript: Transcript, *, patient_agent: str | None = None,
                     examiner_agent: str | None = None) -> FidelityReport:
    """The fidelity of one transcript's patient and examiner answers."""
    findings = CaseChecker(case).findings(transcript, patient_agent=patient_agent,
                                          examiner_agent=examiner_agent)
    return FidelityReport(findings=findings, figures=aggregate(findings))


def check_many(pairs: Iterable[tuple[Case, Transcript]]) -> FidelityReport:
    """The fidelity of many transcripts, figures per agent over all of them."""
    checkers: dict[str, CaseChecker] = {}
    findings: list[AnswerFinding] = []
    for case, transcript in pairs:
        checker = checkers.get(case.id)
        if checker is None:
            checker = checkers[case.id] = CaseChecker(case)
        findings.extend(checker.findings(transcript))
    return FidelityReport(findings=findings, figures=aggregate(findings))


#: The packages whose code decides a finding: the checks, and the offline agents and case
#: index whose readings of questions and test names the checks share.
_RULE_PACKAGES = ("fidelity", "agents", "caseindex", "clinical_text")


@lru_cache(maxsize=1)
def rules_hash() -> str:
    """sha256 of the fidelity rules: the source of the check, agent and case-index modules
    (a change to any makes stored findings stale; recomputing costs no model call)."""
    core = Path(__file__).parent.parent
    digest = hashlib.sha256()
    for package in _RULE_PACKAGES:
        for path in sorted((core / package).glob("*.py")):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()
