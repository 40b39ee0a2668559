"""The store protocol of simulator fidelity: the rules' findings per consultation and the
LLM grader's verdicts per answer, so reports (the CLI's and the app's) read them without
recomputing. `db.store.SqliteStore` implements it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from core.fidelity.models import AnswerFinding
from core.ports.runs import RunsStore
from core.records.fidelity import GraderRecord, StoredGrade


class FidelityStore(Protocol):
    """Fidelity findings and grader verdicts of consultations."""

    def save_fidelity(self, consultation_id: str, findings: list[AnswerFinding], *,
                      case_hash: str | None, rules_hash: str) -> None:
        """Store (replacing) the rules' findings of one consultation, committed at once."""
        ...

    def fidelity_hashes(self, consultation_ids: Iterable[str]
                        ) -> dict[str, tuple[str | None, str]]:
        """consultation → (case hash, rules hash) of its stored findings, for those stored."""
        ...

    def fidelity_findings(self, consultation_ids: Iterable[str]
                          ) -> dict[str, list[AnswerFinding]]:
        """consultation → its stored findings, for those stored."""
        ...

    def save_grade(self, grade: StoredGrade) -> None:
        """Store (replacing) one grader verdict, committed at once."""
        ...

    def fidelity_grades(self, consultation_ids: Iterable[str], grader_key: str
                        ) -> dict[tuple[str, int], StoredGrade]:
        """(consultation, turn index) → the verdict of one grader, for those stored."""
        ...

    def fidelity_graders(self, consultation_ids: Iterable[str]) -> list[GraderRecord]:
        """The graders with verdicts on these consultations, latest first."""
        ...

    def fidelity_counts(self) -> dict[str, int]:
        """run → how many of its consultations have stored findings."""
        ...


class FidelityRunsStore(RunsStore, FidelityStore, Protocol):
    """What the fidelity use cases need: runs, consultations, cases and fidelity."""
