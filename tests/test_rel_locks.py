"""Several writers on one database file wait their turn instead of failing with "database is
locked" (issue 18, item 2).

A deferred transaction (`BEGIN`) that reads before it writes cannot wait for another
writer: SQLite refuses at once, whatever the busy timeout. Every write transaction of the
store therefore begins IMMEDIATE (`db.connection.write`, which `StoreDatabase.atomic` and so
sqlite-utils' own table methods go through). Checked three ways: the statements a write
sends (`BEGIN IMMEDIATE`, never a bare `BEGIN`); every write path of `db/` run while another
connection holds the write lock (it must wait, then succeed); and eight real processes
writing one real file at once (runs, recomputed results, a case import, a rater).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from core.caseio import load_bundled_cases
from core.events import ConsultationFinished, ConsultationStarted, TurnCompleted
from core.fidelity.models import AnswerFinding
from core.fidelity.models import GraderVerdict
from core.records.fidelity import StoredGrade
from core.transcript import EndReason, Role, Turn
from db import cases as case_repo
from db import consultations as consultation_repo
from db import fidelity as fidelity_repo
from db import metrics as metric_repo
from db import runs as run_repo
from db.connection import open_db
from db.study_store import SqliteStudyStore
from tests.test_study_support import make_study, seed_db, transcript

ROOT = Path(__file__).resolve().parents[1]
HOLD = 0.3  # seconds the other writer keeps the lock


def _statements(db: Any) -> list[str]:
    seen: list[str] = []
    db.conn.set_trace_callback(seen.append)
    return seen


def test_a_write_takes_the_lock_up_front(tmp_path: Path) -> None:
    db = seed_db(tmp_path / "s.db", n=1)
    seen = _statements(db)
    metric_repo.save_metrics(db, "c00", {"accuracy": (1.0, {})})
    with db.atomic():  # what sqlite-utils' table methods use
        db.table("runs").insert({"id": "r1", "name": "r1", "status": "running"})
    begins = [s.strip().upper() for s in seen if s.strip().upper().startswith("BEGIN")]
    assert begins == ["BEGIN IMMEDIATE", "BEGIN IMMEDIATE"], seen


def _finding() -> AnswerFinding:
    return AnswerFinding(index=2, role="patient", agent="retrieval", prompt="Why?", answer="Pain")


def _grade() -> StoredGrade:
    return StoredGrade(consultation_id="c00", turn_index=2, grader_key="g", role="patient",
                       prompt_hash="p", verdict=GraderVerdict(failed=False))


def _recorder_events(db: Any) -> None:
    rec = consultation_repo.Recorder(db)
    case_id = load_bundled_cases()[0].id
    rec.emit(ConsultationStarted(consultation_id="new", case_id=case_id, run_id="r0",
                                 config={"config_key": "k"}, origin="batch"))
    rec.emit(TurnCompleted(consultation_id="new", turn=Turn(index=0, role=Role.DOCTOR,
                                                            content="Hi", doctor_turn=1)))
    rec.emit(ConsultationFinished(consultation_id="new", end_reason=EndReason.DIAGNOSIS,
                                  diagnosis="x", verdicts=[], doctor_turns=1))


def _study_writes(db: Any, tmp_path: Path) -> None:
    store = SqliteStudyStore(db)
    sid = make_study(db, tmp_path)
    rid = store.get_rater("alice").id
    first, second = store.assignments(sid, rid)[:2]
    store.save_ratings(first.id, {("realism_doctor", -1): ("4", None)})
    store.skip(second.id, "unreadable")
    store.undo_last(sid, rid)


WRITES: dict[str, Callable[[Any, Path], Any]] = {
    "save_cases": lambda db, _: case_repo.save_cases(db, load_bundled_cases()[:2]),
    "import_cases": lambda db, _: case_repo.import_cases(db, load_bundled_cases()[:3]),
    "create_run": lambda db, _: run_repo.create_run(db, config={}, provenance={}, name="x"),
    "set_run_status": lambda db, _: run_repo.set_run_status(db, "r0", "finished"),
    "recorder": lambda db, _: _recorder_events(db),
    "save_transcript": lambda db, _: consultation_repo.save_transcript(
        db, transcript(load_bundled_cases()[0].id, 9), consultation_id="t9"),
    "abandon_interrupted": lambda db, _: consultation_repo.abandon_interrupted(db, "r0"),
    "save_metrics": lambda db, _: metric_repo.save_metrics(db, "c00", {"accuracy": (1.0, {})}),
    "save_fidelity": lambda db, _: fidelity_repo.save_fidelity(
        db, "c00", [_finding()], case_hash="h", rules_hash="r"),
    "save_grade": lambda db, _: fidelity_repo.save_grade(db, _grade()),
    "study_and_ratings": _study_writes,
}


def _hold_the_lock(path: Path, taken: threading.Event, seconds: float) -> None:
    """Another writer: BEGIN IMMEDIATE, a write, held for `seconds`, then COMMIT."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("UPDATE runs SET name = name")
    taken.set()
    threading.Event().wait(seconds)
    conn.execute("COMMIT")
    conn.close()


@pytest.mark.parametrize("name", sorted(WRITES))
def test_every_write_path_waits_for_another_writer(tmp_path: Path, name: str) -> None:
    db = seed_db(tmp_path / "s.db", n=2)
    run_repo.create_run(db, config={}, provenance={}, run_id="r0")
    db.execute("SELECT count(*) FROM consultations").fetchone()  # a read, as a session would
    taken = threading.Event()
    holder = threading.Thread(target=_hold_the_lock, args=(tmp_path / "s.db", taken, HOLD))
    holder.start()
    taken.wait()
    try:
        WRITES[name](db, tmp_path)  # before the fix: "database is locked" at once
    finally:
        holder.join()
    assert not db.conn.in_transaction


def test_a_fresh_file_opened_by_two_processes_is_migrated_once(tmp_path: Path) -> None:
    path = tmp_path / "fresh.db"
    code = "import sys; from db.connection import open_db; open_db(sys.argv[1]); print('ok')"
    procs = [subprocess.Popen([sys.executable, "-c", code, str(path)], cwd=ROOT, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(4)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, [e for _, e in outs]
    names = [r[0] for r in sqlite3.connect(path).execute("SELECT name FROM _sqlite_migrations")]
    assert len(names) == len(set(names))


RATER = """
import sys
from db.study_store import open_study_store
store = open_study_store(sys.argv[1])
sid = store.get_study("pilot").id
rid = store.get_rater("alice").id
n = 0
for _ in range(int(sys.argv[2])):
    for a in store.assignments(sid, rid):
        n += 1
        store.save_ratings(a.id, {("realism_doctor", -1): (str(n % 5 + 1), None)})
print(n)
"""


def _spawn(*argv: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen([sys.executable, *argv], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_eight_writer_processes_at_once_all_succeed(tmp_path: Path) -> None:
    path = tmp_path / "w.db"
    db = seed_db(path)
    make_study(db, tmp_path)
    seeded = db.execute("SELECT count(*) FROM consultations").fetchone()[0]
    db.close()
    runs = [_spawn("-m", "tui.cli", "run", "--db", str(path), "--limit", "12", "--name",
                   f"w{i}", "--json") for i in range(4)]
    others = [_spawn("-m", "tui.cli", "results", "--db", str(path), "--recompute")
              for _ in range(2)]
    others += [_spawn("-m", "tui.cli", "cases", "import", "agentclinic", "--db", str(path),
                      str(ROOT / "tests/fixtures/peers/agentclinic/medqa_fixture.jsonl")),
               _spawn("-c", RATER, str(path), "6")]
    results = [(p.args, *p.communicate(timeout=300), p.returncode) for p in runs + others]
    for args, _, err, code in results[:-2]:
        assert code == 0 and "Traceback" not in err, (args, err)
    rater_args, rater_out, rater_err, rater_code = results[-1]
    assert rater_code == 0, rater_err
    after = open_db(path)
    for i in range(4):
        (rid,), = after.execute("SELECT id FROM runs WHERE name = ?", [f"w{i}"]).fetchall()
        assert dict(after.execute("SELECT status, count(*) FROM consultations WHERE run_id = ?"
                                  " GROUP BY 1", [rid]).fetchall()) == {"finished": 12}
    total = after.execute("SELECT count(*) FROM consultations").fetchone()[0]
    assert total == seeded + 4 * 12
    saves = after.execute("SELECT count(*) FROM rating_saves").fetchone()[0]
    assert saves == int(rater_out) > 0
