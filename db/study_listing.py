"""The Studies tab's listing of reader studies (newest first, with progress).

A stop-gap until the typed study repository (`db.studies`, reworked on another branch)
offers the same listing; then `SqliteStore.study_rows` calls that and this module goes.
"""

from __future__ import annotations

from sqlite_utils import Database

from core.records.runs import StudyListRow


def study_rows(db: Database) -> list[StudyListRow]:
    """All reader studies, newest first, with their assignments and how many are done."""
    rows = db.query(
        "SELECT s.id, s.name, s.created_at, count(a.id) AS assignments,"
        " coalesce(sum(a.status = 'done'), 0) AS done FROM studies s LEFT JOIN assignments a"
        " ON a.study_id = s.id GROUP BY s.id ORDER BY s.created_at DESC")
    return [StudyListRow.model_validate(r) for r in rows]
