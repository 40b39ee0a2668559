"""The notebook survives a real kill: `bedside run --doctor-tool notebook` killed (SIGKILL)
mid-run, then resumed, keeps one chain of versions in case order — each consultation read
what the one before it in case order wrote, the killed attempt (superseded) read what its
redo read, and every version is stored with the consultation that wrote it.

The killed run is a real process, the resume runs in the test's own process; a real SQLite
file, litellm over HTTP to the local fake server (the helpers of tests/test_resume_kill.py)."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path
from typing import Any

from tests.fake_openai_server import FakeOpenAIServer
from tests.test_resume_kill import WAIT, _bedside, _finish, _query, in_process

CASES = 4


def _notebook(body: dict[str, Any], n: int) -> str:
    """The old notebook plus the opening words of this case's objective: a chain that
    shows which case wrote which version, in which order."""
    system = body["messages"][0]["content"]
    old = system.split("It says:\n", 1)[1].split("\n")[0]
    task = " ".join(system.split("Your task:\n", 1)[1].split()[:4])
    return task if old.startswith("(empty") else f"{old} | {task}"


def _wait_mid_run(proc: Any, db: Path) -> None:
    """Until a consultation finished, the next is running (it has read the notebook and
    taken a turn) and one is still to come."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        counts = dict(_query(db, "SELECT status, count(*) FROM consultations GROUP BY 1"))
        running = _query(db, "SELECT count(*) FROM turns t JOIN consultations c ON c.id ="
                             " t.consultation_id WHERE c.status = 'running'")
        if 1 <= counts.get("finished", 0) <= CASES - 2 and counts.get("running", 0) == 1 \
                and running and running[0][0] >= 2:
            return
        time.sleep(0.05)
    raise AssertionError("the run never reached the middle")


def _tool_turn(db: Path, cid: str, kind: str) -> str | None:
    rows = _query(db, "SELECT content FROM turns WHERE consultation_id = ? AND kind = ?",
                  (cid, kind))
    return rows[0][0] if rows else None


def test_the_notebook_keeps_case_order_across_a_kill_and_resume(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    with FakeOpenAIServer(latency=0.15, replies={"notebook": _notebook}) as server:
        args = ["--limit", str(CASES), "--doctor", "openai/fake-doctor", "--doctor-tool",
                "notebook", "--api-base", server.base_url, "--timeout", "30", "--json"]
        proc = _bedside(tmp_path, "--db", str(db), *args)
        _wait_mid_run(proc, db)
        proc.send_signal(signal.SIGKILL)
        _finish(proc)
        (run_id, config), = _query(db, "SELECT id, config FROM runs")
        in_process("--db", str(db), "--resume", run_id, "--json")  # the resume: no kill
    order = json.loads(config)["cases"]
    rows = _query(db, "SELECT id, case_id, status FROM consultations ORDER BY started_at")
    live = {case: cid for cid, case, status in rows if status != "superseded"}
    killed = [(cid, case) for cid, case, status in rows if status == "superseded"]
    assert sorted(live) == sorted(order) and len(killed) == 1
    assert {s for _, _, s in rows if s != "superseded"} == {"finished"}
    written: list[str] = []
    for case in order:
        read = _tool_turn(db, live[case], "notebook_read")
        assert read == (written[-1] if written else "")  # what the case before it wrote
        written.append(_tool_turn(db, live[case], "notebook_write") or "")
    # One chain: each version extends the one before it, one case at a time, in order.
    assert [w.count(" | ") for w in written] == list(range(CASES))
    assert all(later.startswith(earlier)
               for earlier, later in zip(written, written[1:], strict=False))
    versions = [json.loads(m)["version"] for (m,) in (
        _query(db, "SELECT meta FROM turns WHERE consultation_id = ? AND kind = "
                   "'notebook_write'", (live[case],))[0] for case in order)]
    assert versions == [1, 2, 3, 4]
    # The attempt the kill cut short read what its redo read; if it wrote, that version
    # does not count (the redo's read is the version before it).
    cid, case = killed[0]
    assert _tool_turn(db, cid, "notebook_read") == _tool_turn(db, live[case], "notebook_read")
