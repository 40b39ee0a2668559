"""The reader-study side of the store: `SqliteStudyStore` implements
`core.ports.studies.ReaderStudyStore` (studies and answers) on one project database.

The app and the command line hand it to the study use cases in `annotation`; a store that
composes every repository can inherit from it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from db.connection import open_db
from db.ratings import RatingRepository
from db.studies import StudyRepository

if TYPE_CHECKING:
    from core.ports.studies import ReaderStudyStore


class SqliteStudyStore(StudyRepository, RatingRepository):
    """Studies, raters, assignments, judge calls and ratings on one database connection.

    Both repositories keep only the connection (`self.db`), set by the first `__init__`.
    """


def open_study_store(path: Path | str | None = None) -> SqliteStudyStore:
    """Open (and migrate) the project database at `path` (default: the home database)."""
    return SqliteStudyStore(open_db(path))


if TYPE_CHECKING:
    def _implements_the_port(store: SqliteStudyStore) -> ReaderStudyStore:
        return store  # the type checker proves that the class satisfies the protocol
