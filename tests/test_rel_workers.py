"""`bedside run --workers N`: one run spread over N processes on one database (issue 18,
scale). Each consultation is played once (the workers claim units of work in the store),
the results equal a run in one process, both workers play, and a run whose owner is killed
leaves no worker behind and resumes to the same results.

Real processes, a real file and the local model server; the server holds its replies until
both workers have claimed work, so that both surely take part however the machine is loaded.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fake_openai_server import FakeOpenAIServer
from tests.rel_support import model_run_args, one_call_server, until
from tests.test_resume_kill import _bedside, _finish, _outcomes, _query
from tests.test_resume_kill import in_process as _in_process
from tui.cli import main

CASES = 8


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAIServer]:
    with one_call_server() as srv:
        yield srv


def _args(server: FakeOpenAIServer, *extra: str) -> list[str]:
    return model_run_args(server, CASES, *extra)


def _claims(db: Path) -> dict[int, int]:
    return dict(_query(db, "SELECT worker, count(*) FROM run_claims GROUP BY worker"))


@pytest.fixture(scope="module")
def one_process(server: FakeOpenAIServer, tmp_path_factory: pytest.TempPathFactory) -> dict:
    db = tmp_path_factory.mktemp("one") / "one.db"
    results = _in_process("--db", str(db), *_args(server))["results"]
    return {"outcomes": _outcomes(db), "results": results}


def _same_results(got: list[dict], want: list[dict]) -> None:
    fields = ("n", "finished", "failed", "correct", "no_diagnosis")
    assert [{k: r[k] for k in fields} for r in got] == [{k: r[k] for k in fields} for r in want]


def test_two_workers_play_each_consultation_once_as_one_process_would(
        server: FakeOpenAIServer, one_process: dict, tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    server.hold()  # every reply waits until both workers have claimed work
    try:
        proc = _bedside(tmp_path, "--db", str(db), *_args(server, "--workers", "2"))
        until(lambda: len(_claims(db)) == 2 or proc.poll() is not None, "both workers")
    finally:
        server.release()
    code, out, err = _finish(proc)
    assert code == 0, err
    claims = _claims(db)
    assert set(claims) == {0, 1} and sum(claims.values()) == CASES  # both played, once each
    assert _query(db, "SELECT count(*) FROM consultations") == [(CASES,)]  # nothing twice
    assert _outcomes(db) == one_process["outcomes"]
    _same_results(json.loads(out)["results"], one_process["results"])
    assert _query(db, "SELECT status FROM runs") == [("finished",)]
    assert _query(db, "SELECT count(*) FROM run_leases") == [(0,)]
    # the workers scored each consultation as it ended, before the run was let go
    (scored, late), = _query(db, "SELECT count(DISTINCT m.consultation_id), sum(m.computed_at"
                                 " > r.finished_at) FROM metrics m JOIN consultations c ON"
                                 " c.id = m.consultation_id JOIN runs r ON r.id = c.run_id")
    assert (scored, late) == (CASES, 0)


def _workers_alive(run_id: str) -> list[int]:
    alive = []
    for proc in Path("/proc").iterdir():
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--worker-of" in argv and run_id.encode() in argv:
            alive.append(int(proc.name))
    return alive


def test_killing_the_owner_stops_its_workers_and_the_run_resumes(
        server: FakeOpenAIServer, one_process: dict, tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    server.hold(after=3)  # three consultations end, then the run stays in the middle
    try:
        owner = _bedside(tmp_path, "--db", str(db), *_args(server, "--workers", "2"))
        until(lambda: dict(_query(db, "SELECT status, count(*) FROM consultations GROUP BY"
                                       " 1")).get("finished") == 3, "the middle of the run")
        (run_id,), = _query(db, "SELECT id FROM runs")
        assert len(_workers_alive(run_id)) == 2
        owner.send_signal(signal.SIGKILL)
        _finish(owner)
        until(lambda: not _workers_alive(run_id), "the orphaned workers to stop")
    finally:
        server.release()
    resumed = _in_process("--db", str(db), "--resume", run_id, "--json")
    assert _outcomes(db) == one_process["outcomes"]
    _same_results(resumed["results"], one_process["results"])


def test_more_workers_than_the_concurrency_is_one_line(tmp_path: Path, capsys) -> None:
    db = tmp_path / "x.db"
    assert main(["run", "--db", str(db), "--workers", "3", "--concurrency", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--workers" in err and "concurrency" in err
    assert not db.exists()  # checked before anything is written


def test_a_notebook_run_is_not_spread_over_workers(tmp_path: Path, capsys) -> None:
    # The notebook is memory the run's consultations share in one process as they go: over
    # two processes each would keep its own, and the arm would not be what it says.
    db = tmp_path / "x.db"
    argv = ["run", "--db", str(db), "--doctor", "openai/x", "--api-base", "http://127.0.0.1:9",
            "--doctor-tool", "notebook", "--workers", "2", "--concurrency", "4"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--workers" in err and "notebook" in err
    assert not db.exists()  # checked before anything is written
