"""Where the database lives and how it is written (issue 18, items 4 and 9).

`--db` in a folder that does not exist is a one-line error, never a new tree of folders
(only the default home is made). A rating is committed with a full sync (the WAL synced at
its commit), so a power cut cannot lose a rating the screen showed as saved: a power cut
cannot be simulated from a test, so what is checked is what SQLite is told, the statements
a save sends, traced on the real connection. A disk that fills up mid-run stops the run
with one line, leaves it resumable and exits non-zero; a read-only database file is one
line for every command that writes (how both are simulated: see below).
"""

from __future__ import annotations

import os
import resource
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from db.study_store import SqliteStudyStore
from tests.test_study_support import make_study, seed_db

ROOT = Path(__file__).resolve().parents[1]


def _bedside(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tui.cli", *args], cwd=ROOT, text=True,
                          capture_output=True, timeout=120,
                          env={**os.environ, "BEDSIDE_HOME": str(home)})


@pytest.mark.parametrize("command", [["run", "--limit", "1"], ["results"], ["study", "list"],
                                     ["runs", "list"]])
def test_db_in_a_missing_folder_is_one_line_and_makes_nothing(tmp_path: Path,
                                                             command: list[str]) -> None:
    target = tmp_path / "nonexistent" / "dir" / "x.db"
    out = _bedside(*command, "--db", str(target), home=tmp_path / "home")
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
    assert str(target) in lines[0] and "does not exist" in lines[0]
    assert not (tmp_path / "nonexistent").exists()


def test_the_default_home_is_made_when_missing(tmp_path: Path) -> None:
    home = tmp_path / "new-home"
    out = _bedside("runs", "list", home=home)
    assert out.returncode == 0, out.stderr
    assert (home / "bedside.db").is_file()


def _traced(db: object) -> list[str]:
    seen: list[str] = []
    db.conn.set_trace_callback(lambda s: seen.append(" ".join(s.split()).upper()))  # type: ignore[attr-defined]
    return seen


def _sync_at_commits(seen: list[str]) -> list[str]:
    """The synchronous setting in force at each COMMIT of the trace."""
    mode, out = "NORMAL", []
    for statement in seen:
        if statement.startswith("PRAGMA SYNCHRONOUS="):
            mode = statement.split("=", 1)[1]
        elif statement == "COMMIT":
            out.append(mode)
    return out


def test_rating_saves_skips_and_undo_commit_with_a_full_sync(tmp_path: Path) -> None:
    db = seed_db(tmp_path / "s.db")
    sid = make_study(db, tmp_path)
    store = SqliteStudyStore(db)
    rid = store.get_rater("alice").id
    first, second = store.assignments(sid, rid)[:2]
    seen = _traced(db)
    store.save_ratings(first.id, {("realism_doctor", -1): ("4", None)})
    store.skip(second.id, "cannot read it")
    store.undo_last(sid, rid)
    assert _sync_at_commits(seen) == ["FULL", "FULL", "FULL"], seen
    # and the connection is back to NORMAL for everything else (a run's events)
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 1


def test_run_events_keep_the_cheaper_sync(tmp_path: Path) -> None:
    """Runs keep NORMAL (benchmarks/bench_durability.py: a full sync per event made an
    offline run about 1.5x slower; a run cut by a power loss is resumed)."""
    from db.runs import set_run_status

    db = seed_db(tmp_path / "s.db", n=1)
    db.table("runs").insert({"id": "r1", "name": "r1", "status": "running"})
    seen = _traced(db)
    with db.atomic():
        set_run_status(db, "r1", "finished")
    assert _sync_at_commits(seen) == ["NORMAL"]


# -- a full disk and a read-only file (issue 18, item 4) -----------------------------------
#
# A full disk is simulated for real with the kernel's file-size limit (RLIMIT_FSIZE, as
# `ulimit -f` sets it) on the `bedside run` child process: a write past the limit fails
# with EFBIG, which SQLite reports as an I/O error, exactly where a full disk fails with
# ENOSPC (SQLITE_FULL). It needs no root, no loop device and no hook in bedside; SIGXFSZ is
# ignored so the write fails instead of killing the process. (`PRAGMA max_page_count`
# would need a hook in the code under test, since it is set per connection.)
# A read-only file is `chmod 444`; as root, which writes through permission bits, the file
# is also made immutable (`chattr +i`) and made mutable again afterwards.

def _limit_file_size(limit: int) -> Callable[[], None]:
    def set_limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return set_limit


CASES = "10"


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with one clean offline run, 'seed', of the first ten bundled cases."""
    folder = tmp_path_factory.mktemp("seeded")
    path = folder / "seed.db"
    out = _bedside("run", "--db", str(path), "--name", "seed", "--limit", CASES, home=folder)
    assert out.returncode == 0, out.stderr
    return path


def _copy(seeded: Path, tmp_path: Path) -> Path:
    path = tmp_path / "f.db"
    path.write_bytes(seeded.read_bytes())  # closed cleanly: no WAL beside it
    return path


def _played(db: Path, name: str) -> dict[str, tuple[Any, ...]]:
    rows = _rows(db, "SELECT c.case_id, c.status, c.correct, c.doctor_turns, c.diagnosis,"
                     " (SELECT count(*) FROM turns t WHERE t.consultation_id = c.id)"
                     " FROM consultations c JOIN runs r ON r.id = c.run_id WHERE r.name = ?"
                     " AND c.status != 'superseded'", (name,))
    out = {case: tuple(rest) for case, *rest in rows}
    assert len(out) == len(rows), "two live rows for one case"
    return out


def _rows(db: Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def _errors(stderr: str) -> list[str]:
    """stderr without the progress lines."""
    return [line for line in stderr.splitlines() if line and not line.startswith("[")]


def test_a_full_disk_stops_the_run_resumably_with_one_line(seeded: Path,
                                                           tmp_path: Path) -> None:
    db = _copy(seeded, tmp_path)  # the clean outcomes of the same run
    limit = db.stat().st_size + 400_000  # room for a few consultations' writes
    full = subprocess.run([sys.executable, "-m", "tui.cli", "run", "--db", str(db), "--name",
                           "full", "--concurrency", "2", "--limit", CASES], cwd=ROOT, text=True,
                          capture_output=True, timeout=300, preexec_fn=_limit_file_size(limit),
                          env={**os.environ, "BEDSIDE_HOME": str(tmp_path)})
    errors = _errors(full.stderr)
    assert full.returncode == 1 and "Traceback" not in full.stderr, full.stderr
    assert len(errors) == 1 and errors[0].startswith("bedside: the run stopped: " + str(db))
    assert "bedside run --resume" in errors[0]
    assert _rows(db, "SELECT status FROM runs WHERE name = 'full'") != [("finished",)]
    stopped = _played(db, "full")
    assert 0 < len(stopped) < len(_played(db, "seed"))  # it stopped in the middle
    resumed = _bedside("run", "--db", str(db), "--resume", "full", home=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert _rows(db, "SELECT status FROM runs WHERE name = 'full'") == [("finished",)]
    after = _played(db, "full")
    assert after == _played(db, "seed")  # as a clean run: nothing lost, nothing twice
    for case, row in stopped.items():  # what was finished when it stopped was finished
        if row[0] == "finished":
            assert after[case] == row


@pytest.fixture
def read_only_db(seeded: Path, tmp_path: Path) -> Iterator[Path]:
    db = _copy(seeded, tmp_path)
    db.chmod(0o444)
    immutable = os.geteuid() == 0
    if immutable:
        subprocess.run(["chattr", "+i", str(db)], check=True)
    try:
        yield db
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(db)], check=True)
        db.chmod(0o644)


STUDY = """name = "ro"
raters = ["alice"]
overlap = 1
"""


@pytest.mark.parametrize("command", [
    ["results", "--recompute"], ["run", "--limit", "2"],
    ["cases", "import", "agentclinic", str(ROOT / "tests/fixtures/peers/agentclinic/"
                                               "medqa_fixture.jsonl")],
    ["study", "create", "STUDY"]])
def test_a_read_only_database_is_one_line(read_only_db: Path, tmp_path: Path,
                                          command: list[str]) -> None:
    (tmp_path / "study.toml").write_text(STUDY, encoding="utf-8")
    command = [str(tmp_path / "study.toml") if c == "STUDY" else c for c in command]
    before = _rows(read_only_db, "SELECT count(*) FROM consultations")
    out = _bedside(*command, "--db", str(read_only_db), home=tmp_path)
    errors = _errors(out.stderr)
    assert out.returncode != 0 and "Traceback" not in out.stderr, out.stderr
    assert len(errors) == 1 and str(read_only_db) in errors[0] and "read-only" in errors[0]
    assert _rows(read_only_db, "SELECT count(*) FROM consultations") == before
