"""`bedside run` killed (SIGKILL) or interrupted (SIGINT, SIGTERM) mid-run, then resumed, ends with the
same consultations as a clean run: one row per (case, config) that is not superseded, the
same outcomes, nothing finished redone, the interrupted attempts kept as superseded.

The interrupted run is a real process (the signal is the point); the clean run and the
resume are the same command line run in the test's own process. A real SQLite file and
litellm talking HTTP to the local fake server.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fake_openai_server import FakeOpenAIServer
from tui.cli import main

ROOT = Path(__file__).resolve().parents[1]
WAIT = 300  # seconds allowed for a state to be reached: a hang guard, not a timing (a loaded 2-core machine took 120 s for the clean run)
CASES = 8


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAIServer]:
    # Slow replies, so a consultation takes a few seconds and can be caught mid-way.
    with FakeOpenAIServer(latency=0.25) as srv:
        yield srv


def _args(server: FakeOpenAIServer) -> list[str]:
    return ["--limit", f"{CASES}", "--concurrency", "3", "--doctor", "openai/fake-doctor",
            "--patient", "openai/fake-patient", "--examiner", "openai/fake-examiner",
            "--moderator", "exact,openai/fake-moderator", "--api-base", server.base_url,
            "--timeout", "30", "--json"]


def _bedside(tmp: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "BEDSIDE_HOME": str(tmp), "PYTHONUNBUFFERED": "1"}
    # Ctrl+C as in a terminal: SIGINT at its default in the child, even when this test runs
    # where it is ignored (a background job of a non-interactive shell ignores SIGINT, and
    # a child inherits that; Python then never turns SIGINT into KeyboardInterrupt).
    return subprocess.Popen([sys.executable, "-m", "tui.cli", "run", *args], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=_default_sigint)


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _finish(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=WAIT)
    return proc.returncode, out, err


def _query(db: Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if not db.exists():
        return []
    conn = sqlite3.connect(db, timeout=30)
    try:
        return conn.execute(sql, params).fetchall()
    except sqlite3.OperationalError:  # tables not created yet
        return []
    finally:
        conn.close()


def _outcomes(db: Path) -> dict[tuple[str, str], tuple[Any, ...]]:
    """(case, config_key) → (status, correct, doctor_turns, diagnosis, turns) of the one
    row that is not superseded; fails if a pair has more than one."""
    rows = _query(db, "SELECT c.case_id, c.config_key, c.status, c.correct, c.doctor_turns,"
                      " c.diagnosis, (SELECT count(*) FROM turns t WHERE t.consultation_id"
                      " = c.id) FROM consultations c WHERE c.status != 'superseded'")
    out: dict[tuple[str, str], tuple[Any, ...]] = {}
    for case_id, key, *rest in rows:
        assert (case_id, key) not in out, f"two live rows for {(case_id, key)}"
        out[(case_id, key)] = tuple(rest)
    return out


def _wait_mid_run(proc: subprocess.Popen[str], db: Path) -> None:
    """Until at least one consultation finished, another is running and at least two have
    not started yet: the signal then surely lands mid-run, however slow the machine."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        counts = dict(_query(db, "SELECT status, count(*) FROM consultations GROUP BY 1"))
        started = sum(counts.values())
        if counts.get("finished", 0) >= 1 and counts.get("running", 0) >= 1 \
                and started <= CASES - 2:
            return
        time.sleep(0.05)
    raise AssertionError("the run never reached the middle")


def in_process(*argv: str) -> dict[str, Any]:
    """`bedside run …` in this process, its JSON output: the same command line with no
    interpreter and no litellm import to pay for, where a process of its own is not what
    is tested (the clean run to compare with, a resume after the killed process ended)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["run", *argv]) == 0
    return json.loads(out.getvalue())


@pytest.fixture(scope="module")
def clean(server: FakeOpenAIServer, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    db = tmp_path_factory.mktemp("clean") / "c.db"
    results = in_process("--db", str(db), *_args(server))["results"]
    return {"outcomes": _outcomes(db), "results": results}


def _interrupt_then_resume(server: FakeOpenAIServer, tmp: Path, sig: int) -> dict[str, Any]:
    db = tmp / "k.db"
    proc = _bedside(tmp, "--db", str(db), *_args(server))
    _wait_mid_run(proc, db)
    before = {cid: (status, n) for cid, status, n in _query(
        db, "SELECT id, status, (SELECT count(*) FROM turns t WHERE t.consultation_id = c.id)"
            " FROM consultations c")}
    proc.send_signal(sig)
    code, _, err = _finish(proc)
    (run_id, run_status), = _query(db, "SELECT id, status FROM runs")
    interrupted = dict(_query(db, "SELECT id, status FROM consultations WHERE status NOT IN"
                                  " ('finished', 'failed')"))
    resumed = in_process("--db", str(db), "--resume", run_id, "--json")
    return {"code": code, "err": err, "run_status": run_status, "before": before,
            "interrupted": interrupted, "db": db, "run_id": run_id,
            "results": resumed["results"]}


def _assert_same_as_clean(got: dict[str, Any], clean: dict[str, Any]) -> None:
    db = got["db"]
    assert _outcomes(db) == clean["outcomes"]
    assert all(v[0] == "finished" for v in clean["outcomes"].values())
    # Nothing finished before the interruption was redone or touched.
    finished_before = {cid: n for cid, (s, n) in got["before"].items() if s == "finished"}
    assert finished_before
    now = {cid: (s, n) for cid, s, n in _query(
        db, "SELECT id, status, (SELECT count(*) FROM turns t WHERE t.consultation_id = c.id)"
            " FROM consultations c")}
    for cid, n in finished_before.items():
        assert now[cid] == ("finished", n)
    # The interrupted attempts are kept, as superseded, and only they are.
    superseded = {cid for cid, (s, _) in now.items() if s == "superseded"}
    assert superseded == set(got["interrupted"]) and superseded
    assert _query(db, "SELECT status FROM runs") == [("finished",)]
    fields = ("finished", "failed", "n", "correct", "no_diagnosis")
    assert [{k: r[k] for k in fields} for r in got["results"]] == \
        [{k: r[k] for k in fields} for r in clean["results"]]


def test_sigkill_then_resume_gives_the_clean_counts(server: FakeOpenAIServer, clean: dict,
                                                     tmp_path: Path) -> None:
    got = _interrupt_then_resume(server, tmp_path, signal.SIGKILL)
    assert got["code"] == -signal.SIGKILL
    assert got["run_status"] == "running"  # nothing could run after SIGKILL
    assert set(got["interrupted"].values()) == {"running"}
    _assert_same_as_clean(got, clean)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_sigint_or_sigterm_then_resume_gives_the_clean_counts(
        server: FakeOpenAIServer, clean: dict, tmp_path: Path, sig: int) -> None:
    got = _interrupt_then_resume(server, tmp_path, sig)
    assert got["code"] == 130 and "--resume " + got["run_id"] in got["err"]
    assert "Traceback" not in got["err"], got["err"]
    assert got["run_status"] == "interrupted"  # set in a finally, not left 'running'
    assert set(got["interrupted"].values()) == {"cancelled"}
    _assert_same_as_clean(got, clean)
