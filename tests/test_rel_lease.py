"""One owner per run (issue 18, item 1): a second process that tries to run a run owned by a
live process is refused with one line naming the owner; a lease whose owner died is taken
over atomically, by exactly one of two processes resuming at once; an owner whose run was
taken over records nothing more.

The process tests use real `bedside run` processes on a real file and the local model
server; the server holds its replies (`FakeOpenAIServer.hold`) so that a run is surely in
the middle while the second process tries, however slow the machine. The lease rules
(another host, a silent heartbeat, fencing) are checked in-process on a real file.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.caseio import load_bundled_cases
from core.config import ConsultationConfig
from core.errors import LeaseLostError, RunBusyError
from core.events import ConsultationStarted
from core.usecases import leases
from core.usecases import runs as batch_runs
from db.store import open_store
from tests.fake_openai_server import FakeOpenAIServer
from tests.rel_support import model_run_args, one_call_server, until
from tests.test_resume_kill import _bedside, _finish, _outcomes, _query

CASES = 20


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAIServer]:
    with one_call_server() as srv:
        yield srv


def _args(server: FakeOpenAIServer) -> list[str]:
    return model_run_args(server, CASES)


DECIDE = 60  # seconds a second process may take to decide (it takes a few)


def _counts(db: Path) -> dict[str, int]:
    return dict(_query(db, "SELECT status, count(*) FROM consultations GROUP BY 1"))


def _n(out: str) -> int:
    return sum(r["n"] for r in json.loads(out)["results"])


def _mid_run(server: FakeOpenAIServer, tmp_path: Path, ended: int) -> subprocess.Popen[str]:
    """`bedside run --name kt` stopped in the middle: `ended` consultations finished, the
    next ones running, their replies held until `server.release()`."""
    db = tmp_path / "k.db"
    server.hold(after=ended)
    proc = _bedside(tmp_path, "--db", str(db), *_args(server), "--name", "kt")
    until(lambda: _counts(db).get("finished", 0) == ended and _counts(db).get("running"),
           "the middle of the run")
    return proc


def test_resume_while_the_owner_runs_is_refused(server: FakeOpenAIServer,
                                                tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    try:
        owner = _mid_run(server, tmp_path, 3)
        second = _bedside(tmp_path, "--db", str(db), "--resume", "kt", "--json")
        # Without a lease the second process would abandon and redo the owner's work:
        # stop waiting as soon as it has either exited or begun to.
        until(lambda: second.poll() is not None or "abandoned" in _counts(db)
               or "superseded" in _counts(db), "the second process to decide", DECIDE,
               must=False)
    finally:
        server.release()
    code2, _, err2 = _finish(second)
    code, out, err = _finish(owner)
    assert code == 0, err
    lines = err2.strip().splitlines()
    assert code2 == 2 and len(lines) == 1 and "Traceback" not in err2, err2
    assert f"process {owner.pid} on {os.uname().nodename}" in lines[0]
    assert "since" in lines[0] and "last heartbeat" in lines[0] and "'kt'" in lines[0]
    assert _counts(db) == {"finished": CASES}  # nothing abandoned, redone or superseded
    assert _n(out) == CASES
    assert _query(db, "SELECT status FROM runs") == [("finished",)]
    assert _query(db, "SELECT count(*) FROM run_leases") == [(0,)]  # let go at the end


def test_two_resumes_after_a_kill_exactly_one_wins(server: FakeOpenAIServer,
                                                   tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    try:
        first = _mid_run(server, tmp_path, 5)
        first.send_signal(signal.SIGKILL)
        _finish(first)
        assert _query(db, "SELECT count(*) FROM run_leases") == [(1,)]  # the dead owner's
        # held: whoever wins stays mid-run while the other decides
        both = [_bedside(tmp_path, "--db", str(db), "--resume", "kt", "--json")
                for _ in range(2)]
        until(lambda: any(p.poll() is not None for p in both), "one resumer to decide",
               DECIDE, must=False)
    finally:
        server.release()
    done = [_finish(p) for p in both]
    codes = sorted(code for code, _, _ in done)
    assert codes == [0, 2], [err for _, _, err in done]
    (_, out, _), = [d for d in done if d[0] == 0]
    (_, _, refused), = [d for d in done if d[0] == 2]
    winner = next(p.pid for p, d in zip(both, done, strict=True) if d[0] == 0)
    assert f"process {winner} " in refused and len(refused.strip().splitlines()) == 1
    assert _n(out) == CASES
    live = _outcomes(db)  # one row per (case, config) that is not superseded
    assert len(live) == CASES and {v[0] for v in live.values()} == {"finished"}


# -- the rules, in-process on a real file --------------------------------------------------

def _created(tmp_path: Path) -> tuple[object, batch_runs.RunSpec]:
    store = open_store(tmp_path / "l.db")
    spec = batch_runs.create(store, load_bundled_cases()[:2], [ConsultationConfig()],
                             concurrency=1)
    return store, spec


def test_a_lease_from_another_host_is_kept_while_it_beats_and_taken_when_silent(
        tmp_path: Path) -> None:
    store, spec = _created(tmp_path)
    store.release_lease(spec.run_id, spec.lease.token, None)
    other = leases.new_lease(spec.run_id).model_copy(update={"host": "elsewhere", "pid": 7})
    assert store.take_lease(other, leases.may_take) is None
    with pytest.raises(RunBusyError, match=r"process 7 on elsewhere since .* \(last heartbeat"):
        batch_runs.resume(store, spec.run_id)
    silent = other.model_copy(update={"heartbeat_at": time.time() - leases.STALE_AFTER_S - 1})
    store.take_lease(silent, lambda held: True)
    assert batch_runs.resume(store, spec.run_id).lease.host != "elsewhere"


def test_a_live_owner_on_this_host_is_never_taken_over(tmp_path: Path) -> None:
    store, spec = _created(tmp_path)  # held by this (live) process
    old = spec.lease.model_copy(update={"heartbeat_at": 0.0})  # however long silent
    store.take_lease(old, lambda held: True)
    with pytest.raises(RunBusyError):
        batch_runs.resume(store, spec.run_id)
    dead = old.model_copy(update={"pid": _a_dead_pid(), "token": "ls-dead"})
    store.take_lease(dead, lambda held: True)
    assert batch_runs.resume(store, spec.run_id).lease.pid == os.getpid()


def _a_dead_pid() -> int:
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return pid


def test_a_taken_over_owner_records_nothing_more(tmp_path: Path) -> None:
    store, spec = _created(tmp_path)
    recorder = store.recorder((spec.run_id, spec.lease.token))
    thief = leases.new_lease(spec.run_id)
    store.take_lease(thief, lambda held: True)
    with pytest.raises(LeaseLostError):
        recorder.emit(ConsultationStarted(consultation_id="c1", case_id=spec.cases[0].id,
                                          run_id=spec.run_id, config={"config_key": "k"}))
    assert store.list_consultations(run_id=spec.run_id) == []
    with pytest.raises(RunBusyError):  # and it cannot start the run again meanwhile
        asyncio.run(batch_runs.execute(store, spec))


def test_a_run_taken_over_while_it_plays_stops_and_leaves_the_status_alone(
        tmp_path: Path) -> None:
    store, spec = _created(tmp_path)
    thief = leases.new_lease(spec.run_id)

    def steal_after_the_first(done: int, total: int, outcome: object) -> None:
        if done == 1:  # the first consultation ended; the second starts after this
            store.take_lease(thief, lambda held: True)

    with pytest.raises(LeaseLostError):
        asyncio.run(batch_runs.execute(store, spec, progress=steal_after_the_first))
    assert [c.status for c in store.list_consultations(run_id=spec.run_id)] == ["finished"]
    assert store.get_run(spec.run_id).status == "running"  # the new owner's to set
    assert store.get_lease(spec.run_id).token == thief.token


def test_the_heartbeat_renews_and_notices_a_loss(tmp_path: Path) -> None:
    store, spec = _created(tmp_path)
    lease, lost = spec.lease, asyncio.Event()

    async def beat_then_lose() -> None:
        task = asyncio.create_task(leases.heartbeat(store, lease, lost, every=0.01))
        before = store.get_lease(spec.run_id).heartbeat_at
        await asyncio.sleep(0.1)
        assert store.get_lease(spec.run_id).heartbeat_at > before and not lost.is_set()
        store.take_lease(leases.new_lease(spec.run_id), lambda held: True)
        await asyncio.wait_for(task, 5)

    asyncio.run(beat_then_lose())
    assert lost.is_set()
