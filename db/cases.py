"""Case repository: store and load `core.case.Case` objects.

Must not import: tui, textual, rich, litellm.
"""

from __future__ import annotations

import hashlib

from sqlite_utils import Database

from core.case import Case
from core.caseio import case_to_json
from core.errors import NotFoundError
from core.transcript import utc_now
from db.jsoncol import loads


def save_cases(db: Database, cases: list[Case]) -> int:
    """Insert or replace cases in one transaction; return how many were written."""
    rows = []
    for case in cases:
        data = case_to_json(case)
        rows.append({
            "id": case.id, "title": case.title, "specialty": case.specialty,
            "language": case.language, "source": case.source, "licence": case.licence,
            "data": data, "content_hash": hashlib.sha256(data.encode()).hexdigest()[:16],
            "added_at": utc_now(),
        })
    with db.atomic():
        db["cases"].upsert_all(rows, pk="id")
    return len(rows)


def get_case(db: Database, case_id: str) -> Case:
    """One case by id."""
    rows = list(db["cases"].rows_where("id = ?", [case_id]))
    if not rows:
        raise NotFoundError(f"no case with id '{case_id}' in the database")
    return Case.model_validate(loads(rows[0]["data"]))


def list_cases(db: Database) -> list[Case]:
    """All stored cases, by id."""
    return [Case.model_validate(loads(r["data"])) for r in db["cases"].rows_where(order_by="id")]
