"""Live runs: in-app batches through the real engine (offline, or litellm against the local
fake server), attaching to a run in the database, cancelling one or all, quitting mid-run."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import DataTable, Input

from tests.app_support import seed, wait_until
from tests.fake_openai_server import FakeOpenAIServer
from tui.app.application import BedsideApp
from tui.app.screens.forms_batch import BatchRequest, StartBatchScreen, parse_batch
from tui.app.screens.home import HomeScreen
from tui.app.screens.live import LiveScreen
from tui.app.widgets.transcript_view import TranscriptView

# The model doctor never decides and its replies stream slowly, with markup in them.
SLOW_DOCTOR = "Any [red]pain? Tell me more about it, please, in your own words."


@pytest.fixture(scope="module")
def slow_server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(replies={"doctor": SLOW_DOCTOR}, chunk_words=1,
                          chunk_delay=0.05) as srv:
        yield srv




def _statuses(app: BedsideApp) -> dict[str, str]:
    return {r["id"]: r["status"] for r in app.db["consultations"].rows_where("run_id IS NOT NULL")}


def _slow_batch(server: FakeOpenAIServer, n_cases: int = 2) -> BatchRequest:
    # card-00* are the first cardiology cases; two doctors (two models) each.
    return BatchRequest(cases="cardiology", models=["openai/slow", "openai/slow2"],
                        concurrency=1, limit=n_cases, api_base=server.base_url)


async def test_batch_started_from_the_form_runs_and_is_recorded(tmp_path: Path) -> None:
    from core.usecases.runs import resume

    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, LiveScreen))
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, StartBatchScreen))
        app.screen.query_one("#batch-cases", Input).value = "cardiology"
        app.screen.query_one("#batch-models", Input).value = "offline"
        await pilot.click("#batch-start")
        run = None
        await wait_until(pilot, lambda: app.db["runs"].count == 1)
        run = list(app.db["runs"].rows)[0]
        await wait_until(pilot, lambda: app.db["runs"].get(run["id"])["status"] == "finished")
        live = app.screen
        assert isinstance(live, LiveScreen)
        statuses = _statuses(app)
        assert statuses and set(statuses.values()) == {"finished"}
        await wait_until(pilot, lambda: live.query_one(DataTable).row_count == len(statuses))
        for cid in statuses:  # the real engine: every turn stored, the diagnosis judged
            row = app.db["consultations"].get(cid)
            assert row["doctor"] == "scripted" and row["doctor_turns"] > 0
            assert app.db["turns"].count_where("consultation_id = ?", [cid]) >= 2
            assert row["correct"] in (0, 1)
    # Stored like a `bedside run` run: it can be resumed, and there is nothing left to do.
    spec = resume(app.store, run["id"])
    assert len(spec.cases) == len(statuses) and spec.configs[0].doctor.kind == "scripted"


async def test_cancel_one_then_all_and_runs_survive_screens(
        tmp_path: Path, slow_server: FakeOpenAIServer) -> None:
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(200, 60)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen))
        app.start_batch(_slow_batch(slow_server))
        await wait_until(pilot, lambda: "running" in _statuses(app).values())
        await pilot.press("w")  # the batch keeps going while screens change
        await wait_until(pilot, lambda: isinstance(app.screen, LiveScreen))
        live = app.screen
        view = live.query_one(TranscriptView)
        # Tokens arrive piece by piece; markup in them is streamed literally.
        await wait_until(pilot, lambda: view._stream_text.startswith("Any [red]"))
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, LiveScreen))
        live = app.screen
        running = next(cid for cid, s in _statuses(app).items() if s == "running")
        assert app.live.cancel(running)  # one consultation: the others go on
        await wait_until(pilot, lambda: _statuses(app).get(running) == "cancelled")
        await wait_until(pilot, lambda: "running" in {s for c, s in _statuses(app).items()
                                                 if c != running})
        await pilot.press("x")
        await wait_until(pilot, lambda: len(_statuses(app)) == len(app.live.items) and all(
            s == "cancelled" for s in _statuses(app).values()))
        rows = list(app.db["consultations"].rows)
        assert len(rows) == 4 and all(r["end_reason"] == "cancelled" for r in rows)
        run = list(app.db["runs"].rows)[0]
        await wait_until(pilot, lambda: app.db["runs"].get(run["id"])["status"] == "cancelled")


async def test_quitting_mid_batch_marks_the_run_interrupted(
        tmp_path: Path, slow_server: FakeOpenAIServer) -> None:
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen))
        app.start_batch(_slow_batch(slow_server))
        await wait_until(pilot, lambda: "running" in _statuses(app).values())
        await app.action_quit()
    from db.connection import open_db

    db = open_db(tmp_path / "b.db")
    (status,), = db.execute("SELECT status FROM runs").fetchall()
    assert status == "interrupted"  # never left 'running'
    assert "running" not in {s for (s,) in db.execute("SELECT status FROM consultations")}


async def test_attached_run_is_read_from_the_database(tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    from db.connection import open_db
    from db.runs import create_run

    other = open_db(tmp_path / "b.db")  # stands in for `bedside run` in another terminal
    run_id = create_run(other, config={}, provenance={})
    other["consultations"].update("imp-seeded", {"run_id": run_id, "status": "running"})
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.cases)
        await pilot.press("3")
        app.screen.query_one("#runs-table", DataTable).focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, LiveScreen))
        live = app.screen
        await wait_until(pilot, lambda: live.query_one(DataTable).row_count == 1)
        view = live.query_one(TranscriptView)
        await wait_until(pilot, lambda: view.turn_count == 4)
        other["turns"].insert({"consultation_id": "imp-seeded", "idx": 4, "role": "patient",
                               "content": "new [b]turn[/b]", "kind": "answer", "tests": "[]"})
        await wait_until(pilot, lambda: view.turn_count == 5)  # polled, re-rendered on change
        await pilot.press("c")  # not ours: refuses politely, changes nothing
        assert other["consultations"].get("imp-seeded")["status"] == "running"


def test_parse_batch_validates_each_field() -> None:
    assert isinstance(parse_batch("", "", "2", ""), str)
    assert isinstance(parse_batch("", "offline", "0", ""), str)
    assert isinstance(parse_batch("", "offline", "2", "x"), str)
    req = parse_batch("cardiology", "offline, openai/gpt-4o-mini", "3", "5")
    assert req == BatchRequest("cardiology", ["offline", "openai/gpt-4o-mini"], 3, 5)
