"""Case repository: store and load `core.case.Case` objects."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from sqlite_utils import Database

from core.case import Case
from core.caseio import case_to_json, json_hash
from core.errors import NotFoundError
from core.records.runs import CaseImportReport, CaseLabel
from core.transcript import utc_now
from db.jsoncol import loads

#: The name this report had before it moved to core.records (kept for callers).
SaveReport = CaseImportReport


def _row(case: Case) -> dict[str, Any]:
    data = case_to_json(case)
    return {
        "id": case.id, "title": case.title, "specialty": case.specialty,
        "language": case.language, "source": case.source, "licence": case.licence,
        "data": data, "content_hash": json_hash(data),
        "added_at": utc_now(),
    }


def save_cases(db: Database, cases: list[Case]) -> int:
    """Insert or replace cases in one transaction; return how many were written."""
    rows = [_row(case) for case in cases]
    with db.atomic():
        db.table("cases").upsert_all(rows, pk="id")
    return len(rows)


def import_cases(db: Database, cases: list[Case]) -> CaseImportReport:
    """Store imported cases in one transaction: new ids are added, changed ones replaced,
    identical ones left as they are (keeping their first `added_at`)."""
    report = CaseImportReport()
    rows = {case.id: _row(case) for case in cases}  # a repeated id: the last one wins
    ids = list(rows)
    old = {r["id"]: r["content_hash"] for chunk in _chunks(ids)
           for r in db.table("cases").rows_where(f"id in ({', '.join('?' * len(chunk))})",
                                                 chunk, select="id, content_hash")}
    for cid, row in rows.items():
        status = "new" if cid not in old else \
            "unchanged" if old[cid] == row["content_hash"] else "updated"
        getattr(report, status).append(cid)
    with db.atomic():
        db.table("cases").upsert_all([rows[c] for c in report.new + report.updated], pk="id")
    for chunk in _chunks(report.updated):
        report.updated_with_runs += db.execute(
            "select count(distinct case_id) from consultations where case_id in "
            f"({', '.join('?' * len(chunk))}) and coalesce(origin, '') not like 'import:%'",
            chunk).fetchone()[0]
    return report


def _chunks(ids: list[str], size: int = 500) -> list[list[str]]:
    """Id lists short enough for one SQL `in (...)` (SQLite caps bound parameters)."""
    return [ids[i:i + size] for i in range(0, len(ids), size)]


def get_case(db: Database, case_id: str) -> Case:
    """One case by id."""
    rows = list(db.table("cases").rows_where("id = ?", [case_id]))
    if not rows:
        raise NotFoundError(f"no case with id '{case_id}' in the database")
    return Case.model_validate(loads(rows[0]["data"]))


def list_cases(db: Database, *, sources: Collection[str] | None = None,
               exclude: Collection[str] = ()) -> list[Case]:
    """Stored cases, by id: of `sources` only when given, never of `exclude` (filtered in
    SQL, so the left-out cases cost nothing to parse)."""
    where, args = [], []
    if sources is not None:
        where.append(f"source in ({', '.join('?' * len(sources))})" if sources else "0")
        args += list(sources)
    if exclude:
        where.append(f"source not in ({', '.join('?' * len(exclude))})")
        args += list(exclude)
    return [Case.model_validate(loads(r["data"])) for r in db.table("cases").rows_where(
        " and ".join(where) or None, args or None, order_by="id")]


def has_case(db: Database, case_id: str) -> bool:
    """Whether a case with this id is stored."""
    return db.execute("SELECT 1 FROM cases WHERE id = ?", [case_id]).fetchone() is not None


def case_hashes(db: Database) -> dict[str, str]:
    """The content hash of every stored case, by id."""
    return {cid: digest for cid, digest in
            db.execute("SELECT id, content_hash FROM cases").fetchall()}


def case_labels(db: Database) -> dict[str, CaseLabel]:
    """What listings and results need of every stored case, without parsing its record."""
    rows = db.query("SELECT id, title, source, specialty, language,"
                    " coalesce(json_extract(data, '$.placeholder'), 0) AS placeholder"
                    " FROM cases")
    return {r["id"]: CaseLabel.model_validate(r) for r in rows}
