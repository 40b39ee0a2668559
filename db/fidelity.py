"""Fidelity rows: the rules' findings of each consultation (one row, JSON) and the LLM
grader's verdict on each answer (one row per consultation, turn and grader).

Computing them (what is missing or stale, the grader's calls) is `core.usecases.fidelity`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from sqlite_utils import Database

from core.fidelity.models import AnswerFinding, GraderVerdict
from core.records.fidelity import GraderRecord, StoredGrade
from core.transcript import utc_now
from db.jsoncol import dumps, loads

_CHUNK = 500  # ids per `IN (...)`: SQLite caps the number of bound parameters


def _chunks(ids: Iterable[str]) -> Iterator[list[str]]:
    wanted = list(dict.fromkeys(ids))
    for start in range(0, len(wanted), _CHUNK):
        yield wanted[start:start + _CHUNK]


def _marks(chunk: list[str]) -> str:
    return ",".join("?" * len(chunk))


def save_fidelity(db: Database, consultation_id: str, findings: list[AnswerFinding], *,
                  case_hash: str | None, rules_hash: str) -> None:
    """Insert or replace the findings of one consultation."""
    row = {"consultation_id": consultation_id, "case_hash": case_hash,
           "rules_hash": rules_hash, "computed_at": utc_now(),
           "findings": dumps([f.model_dump(mode="json") for f in findings])}
    with db.atomic():
        db.table("fidelity_checks").upsert(row, pk="consultation_id")


def fidelity_hashes(db: Database, consultation_ids: Iterable[str]
                    ) -> dict[str, tuple[str | None, str]]:
    """consultation → (case hash, rules hash) of its stored findings."""
    out: dict[str, tuple[str | None, str]] = {}
    for chunk in _chunks(consultation_ids):
        for cid, case_hash, rules_hash in db.execute(
                "SELECT consultation_id, case_hash, rules_hash FROM fidelity_checks WHERE "
                f"consultation_id IN ({_marks(chunk)})", chunk):
            out[cid] = (case_hash, rules_hash)
    return out


def fidelity_findings(db: Database, consultation_ids: Iterable[str]
                      ) -> dict[str, list[AnswerFinding]]:
    """consultation → its stored findings."""
    out: dict[str, list[AnswerFinding]] = {}
    for chunk in _chunks(consultation_ids):
        for cid, findings in db.execute(
                "SELECT consultation_id, findings FROM fidelity_checks WHERE consultation_id "
                f"IN ({_marks(chunk)})", chunk):
            out[cid] = [AnswerFinding.model_validate(f) for f in loads(findings, [])]
    return out


def save_grade(db: Database, grade: StoredGrade) -> None:
    """Insert or replace one grader verdict."""
    row = {"consultation_id": grade.consultation_id, "turn_index": grade.turn_index,
           "grader_key": grade.grader_key, "role": grade.role, "model": grade.model,
           "params": dumps(grade.params), "prompt_hash": grade.prompt_hash,
           "case_hash": grade.case_hash, "verdict": dumps(grade.verdict.model_dump()),
           "failed": int(grade.verdict.failed), "computed_at": utc_now()}
    with db.atomic():
        db.table("fidelity_grades").upsert(
            row, pk=("consultation_id", "turn_index", "grader_key"))


def fidelity_grades(db: Database, consultation_ids: Iterable[str], grader_key: str
                    ) -> dict[tuple[str, int], StoredGrade]:
    """(consultation, turn index) → the verdict of one grader."""
    out: dict[tuple[str, int], StoredGrade] = {}
    for chunk in _chunks(consultation_ids):
        for r in db.query(
                "SELECT * FROM fidelity_grades WHERE grader_key = ? AND consultation_id IN "
                f"({_marks(chunk)})", [grader_key, *chunk]):
            out[(r["consultation_id"], r["turn_index"])] = StoredGrade(
                consultation_id=r["consultation_id"], turn_index=r["turn_index"],
                grader_key=r["grader_key"], role=r["role"], model=r["model"],
                params=loads(r["params"], {}) or {}, prompt_hash=r["prompt_hash"],
                case_hash=r["case_hash"],
                verdict=GraderVerdict.model_validate(loads(r["verdict"], {}) or {}))
    return out


def fidelity_graders(db: Database, consultation_ids: Iterable[str]) -> list[GraderRecord]:
    """The graders with verdicts on these consultations, latest first."""
    found: dict[str, GraderRecord] = {}
    for chunk in _chunks(consultation_ids):
        for key, model, params, n, last in db.execute(
                "SELECT grader_key, model, params, COUNT(*), MAX(computed_at) FROM "
                f"fidelity_grades WHERE consultation_id IN ({_marks(chunk)}) GROUP BY "
                "grader_key", chunk):
            seen = found.get(key)
            if seen is None:
                found[key] = GraderRecord(grader_key=key, model=model,
                                          params=loads(params, {}) or {}, verdicts=n,
                                          last_at=last)
            else:
                seen.verdicts += n
                seen.last_at = max(seen.last_at or "", last or "")
    return sorted(found.values(), key=lambda g: g.last_at or "", reverse=True)


def fidelity_counts(db: Database) -> dict[str, int]:
    """run → how many of its consultations have stored findings."""
    return {run: n for run, n in db.execute(
        "SELECT c.run_id, COUNT(*) FROM fidelity_checks f JOIN consultations c ON "
        "c.id = f.consultation_id WHERE c.run_id IS NOT NULL GROUP BY c.run_id")}
