"""`bedside hospital` end to end on a real SQLite file: every event stored, every
consultation an ordinary consultation of the run (results per task and department, a
reader study over them), the same seed giving the same events, the recorded
consultations answering exactly as part 1's task doctors do, one-line errors, and a
stopped simulation still closed and accounted for."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from core.agenthospital.kb import bundled_kb
from core.hospital.departments import DEPARTMENTS
from core.hospital.direct import DirectConsultant
from core.hospital.metrics import metrics
from core.hospital.simulation import Hospital, Plan
from core.hospital.state import replay
from core.hospital.triage import RulesNurse
from core.usecases.hospital import run_hospital, stored
from core.usecases.hospital_settings import settings
from db.store import open_store
from tui.cli import main

SMALL = ["--residents", "24", "--days", "5", "--seed", "4", "--onset", "0.3"]


def _run(db: str, capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    assert main(["hospital", "--db", db, *SMALL, *extra, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_hospital_is_recorded_event_by_event_and_consultation_by_consultation(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "h.db")
    got = _run(db, capsys, "--doctor", "emergency=nearest", "--capacity", "all=3")
    for key in ("triage_accuracy", "examination_accuracy", "diagnosis_accuracy",
                "treatment_accuracy", "revisits", "mean_days_to_recovery"):
        assert key in got
    assert got["balanced"] and got["status"] == "finished" and got["patients"] > 5
    store = open_store(db)
    events = store.hospital_events(got["run"])
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert metrics(replay(events)) == {k: v for k, v in got.items()
                                       if k not in ("run", "name", "ledger")}
    rows = store.list_consultations(run_id=got["run"])
    assert len(rows) == got["consultations"] and all(r.status == "finished" for r in rows)
    seen = {e.consultation_id: e.department for e in events if e.what == "seen"}
    assert {r.id: r.config["department"] for r in rows} == seen
    learner = [r for r in rows if r.config["department"] == "emergency"]
    assert learner and all(r.config["solver"] == "medagent_zero" for r in learner)
    # The results table: one row per task and department, as `--by department` asks.
    assert main(["results", "--db", db, "--task", "agenthospital", "--by", "department",
                 "--json"]) == 0
    tasks = json.loads(capsys.readouterr().out)  # --task agenthospital: the task rows
    per = {(r["department"], r["task"]): r for r in tasks}
    for dept, d in got["departments"].items():
        if d["consultations"]:
            assert per[(dept, "diagnosis")]["n"] == d["consultations"]
            assert per[(dept, "diagnosis")]["accuracy"] == pytest.approx(
                d["diagnosis_accuracy"])
    # A reader study over the run's transcripts.
    study = tmp_path / "s.toml"
    study.write_text(f'name = "hosp"\nraters = ["a", "b"]\noverlap = 1\n'
                     f'[select]\nruns = ["{got["run"]}"]\n', encoding="utf-8")
    assert main(["study", "create", str(study), "--db", db]) == 0
    assert f"{got['consultations']} transcripts" in capsys.readouterr().out
    # `bedside hospital show` reports the stored run the same way.
    assert main(["hospital", "show", "--db", db, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == got


def test_the_same_seed_gives_the_same_events_and_the_engine_answers_as_the_doctors(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "h.db")
    first, again = _run(db, capsys), _run(db, capsys)
    other = _run(db, capsys, "--seed", "5")
    store = open_store(db)

    def same(run: str) -> list[dict[str, Any]]:
        return [e.same() for e in store.hospital_events(run)]

    assert same(first["run"]) == same(again["run"])
    drop = ("run", "name")
    assert {k: v for k, v in first.items() if k not in drop} == \
        {k: v for k, v in again.items() if k not in drop}
    assert same(first["run"]) != same(other["run"])
    # Played directly by part 1's scripted doctor (no engine, no store), the same hospital
    # gives the very same events: the recorded consultations lose and add nothing.
    kb = bundled_kb()
    plan = Plan(residents=24, days=5, seed=4, onset=0.3, followup_days=2,
                capacities={d.id: d.capacity for d in DEPARTMENTS})

    class Sink(list):  # type: ignore[type-arg]
        def emit(self, e: Any) -> None:
            self.append(e)

    direct = Sink()
    opened = store.hospital_events(first["run"])[0].detail
    asyncio.run(Hospital(kb, plan, RulesNurse(), DirectConsultant(kb, {}), direct,
                         opened).run())
    assert [e.same() for e in direct] == same(first["run"])


@pytest.mark.parametrize("args, words", [
    (["--doctor", "surgery=scripted"], ["--doctor", "no department 'surgery'", "respiratory"]),
    (["--doctor", "respiratory"], ["--doctor", "DEPARTMENT=VALUE"]),
    (["--doctor", "respiratory=gpt"], ["--doctor", "respiratory", "zero:MODEL"]),
    (["--doctor", "all=human:ana"], ["in the app", "press o"]),
    (["--capacity", "oncology=0"], ["--capacity", "1 to 10000"]),
    (["--onset", "0"], ["--onset", "above 0"]),
    (["--triage", "nurse"], ["--triage", "neither 'rules' nor a model"]),
    (["--memory", "all"], ["--memory", "records, experience or both"]),
])
def test_bad_options_fail_in_one_line_before_anything_is_stored(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
        words: list[str]) -> None:
    db = tmp_path / "e.db"
    assert main(["hospital", "--db", str(db), *SMALL, *args]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and all(w in err for w in words), err
    if db.exists():
        assert open_store(db).list_runs() == []


def test_a_stopped_hospital_is_closed_and_still_accounted_for(tmp_path: Path) -> None:
    store = open_store(tmp_path / "h.db")
    s = settings(residents=30, days=6, seed=2, onset=0.4)
    cancel = asyncio.Event()

    class StopAfterTwo:
        def emit(self, e: Any) -> None:
            if e.what == "seen" and e.day == 2:
                cancel.set()  # the consultation in progress is the last one

    result = asyncio.run(run_hospital(store, s, sink=StopAfterTwo(), cancel_event=cancel))
    assert result.status == "cancelled" and store.get_run(result.run_id).status == "cancelled"
    run, state = stored(store, result.run_id)
    events = store.hospital_events(run.id)
    assert events[-1].what == "closed" and events[-1].detail["status"] == "cancelled"
    assert max(e.day for e in events) == 2 and metrics(state)["balanced"]
    assert store.list_consultations(run_id=run.id, status="cancelled")

    async def interrupted() -> str:
        task = asyncio.create_task(run_hospital(store, s))
        while not any(r.status == "finished" for r in store.list_consultations()
                      if r.run_id not in (run.id,)):
            await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return next(r.id for r in store.list_runs() if r.id != run.id)

    other = asyncio.run(interrupted())
    assert store.get_run(other).status == "interrupted"
    assert store.hospital_events(other)[-1].detail == {"status": "interrupted"}
    with pytest.raises(Exception, match="cannot be resumed"):
        from core.usecases.runs import resume
        resume(store, other)


def test_the_text_report_fits_120_columns(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Under tmux at 120 columns the departments' legend (134 columns) broke as "depa|rtment"
    and the header as "triage ru|les"."""
    db = str(tmp_path / "h.db")
    assert main(["hospital", "--db", db, *SMALL]) == 0
    out = capsys.readouterr().out
    assert "belong: triaged patients whose right department it is" in out
    too_long = [line for line in out.splitlines() if len(line) > 120]
    assert not too_long, too_long
