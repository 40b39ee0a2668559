"""Where the database lives and how it is written (issue 18, item 9): `--db` in a folder that
does not exist is a one-line error, never a new tree of folders (only the default home is
made); a rating is committed with a full sync (the WAL synced at its commit), so a power cut
cannot lose a rating the screen showed as saved.

A power cut cannot be simulated from a test; what is checked is what SQLite is told: the
statements a save sends, traced on the real connection.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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
