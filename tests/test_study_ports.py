"""Reader studies behind ports: the study use cases reach the store only through
`core.ports.studies`, hold no SQL, and the annotation package has no import loop; the rating
session works headless on a real database."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from annotation.session import RatingSession
from core.errors import InputError, NotFoundError
from db.study_store import SqliteStudyStore
from tests.test_study_support import make_study, seed_db

ROOT = Path(__file__).resolve().parents[1]
#: The modules that must hold no SQL: the study use cases and the study screens and commands.
NO_SQL = [*sorted((ROOT / "annotation").rglob("*.py")), *sorted((ROOT / "tui/app/rating").glob("*.py")),
          ROOT / "tui/app/screens/analysis.py", ROOT / "tui/app/screens/study_form.py",
          ROOT / "tui/cli/study.py", ROOT / "tui/cli/analysis.py"]
SQL = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE)\b|\.execute\(|rows_where|\bdb\[")
FULL = {("realism_doctor", -1): ("7", None), ("realism_patient", -1): ("6", None),
        ("realism_examiner", -1): ("5", None), ("empathy_doctor", -1): ("4", None)}


def _imports(path: Path) -> set[str]:
    """Every module a file imports, at any depth (function-level imports included)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_annotation_reaches_the_store_only_through_the_ports() -> None:
    bad = {_module(p): sorted(n for n in _imports(p)
                              if n.split(".")[0] in ("db", "sqlite_utils", "sqlite3"))
           for p in (ROOT / "annotation").rglob("*.py")}
    assert {m: names for m, names in bad.items() if names} == {}


def test_no_sql_in_the_study_use_cases_screens_and_commands() -> None:
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}"
             for p in NO_SQL for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if SQL.search(line)]
    assert found == []


def test_annotation_modules_import_each_other_without_a_loop() -> None:
    files = {_module(p): p for p in (ROOT / "annotation").rglob("*.py")}
    graph = {m: {n for n in _imports(p) if n in files and n != m}
             for m, p in files.items()}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph[start] - seen:
            seen.add(nxt)
            if nxt == goal or reaches(nxt, goal, seen):
                return True
        return False

    assert sorted(m for m in graph if reaches(m, m, set())) == []


@pytest.fixture
def store(tmp_path: Path) -> SqliteStudyStore:
    store = SqliteStudyStore(seed_db(tmp_path / "s.db"))
    make_study(store.db, tmp_path)
    return store


def test_rating_session_opens_saves_skips_and_undoes(store: SqliteStudyStore) -> None:
    session = RatingSession(store, "pilot", "alice")
    assert repr(session) == "RatingSession('pilot')"  # no memory address to match a secret
    first = session.open()
    assert first is not None and first.item.calibration and first.answers == {}
    with pytest.raises(InputError, match="still to rate: .*How realistic is the doctor"):
        session.save(first.item, {})
    assert [i.id for i, _ in session.missing(first.item, {})] == [
        "realism_doctor", "realism_patient", "realism_examiner", "empathy_doctor"]
    session.save(first.item, FULL)
    second = session.open()
    assert second is not None and second.item.assignment_id != first.item.assignment_id
    session.skip(second.item.assignment_id, "no audio")
    progress = session.progress()
    assert (progress.finished, progress.remaining) == (2, progress.total - 2)
    undone = session.undo()
    assert undone is not None and undone.kind == "skip"
    undone = session.undo()
    assert undone is not None and undone.values == FULL
    again = session.open()
    assert again is not None and again.item.assignment_id == first.item.assignment_id
    assert again.answers == FULL  # the undone answers come back to the form


def test_rating_session_refuses_a_stranger_without_naming_the_raters(store) -> None:
    with pytest.raises(InputError) as err:
        RatingSession(store, "pilot", "mallory")
    assert err.value.reason == "rater 'mallory' is not in study 'pilot'; ask the study owner"
    with pytest.raises(NotFoundError, match="no study 'nope'"):
        RatingSession(store, "nope", "alice")


def test_study_records_carry_progress(store: SqliteStudyStore) -> None:
    session = RatingSession(store, "pilot", "alice")
    opened = session.open()
    assert opened is not None
    session.save(opened.item, FULL)
    nxt = session.open()
    assert nxt is not None
    session.skip(nxt.item.assignment_id, "garbled")
    (listed,) = store.list_studies()
    assert listed == store.get_study("pilot") == store.get_study(listed.id)
    assert (listed.transcripts, listed.raters, listed.assignments) == (6, 3, 13)
    assert (listed.done, listed.skipped, listed.finished) == (1, 1, 2)
    assert listed.definition["raters"] == ["alice", "bob", "carol"]
