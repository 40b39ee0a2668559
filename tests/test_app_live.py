"""Live runs: in-app batches (event sink), attaching to a run in the database, cancelling."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable, Input

import tui.screens.engine_bridge as bridge
from tests.app_support import fake_model_config, fake_model_engine, seed
from tui.app import BedsideApp
from tui.screens.forms_batch import BatchRequest, StartBatchScreen, parse_batch
from tui.screens.home import HomeScreen
from tui.screens.live import LiveScreen
from tui.widgets.transcript_view import TranscriptView


@pytest.fixture(autouse=True)
def _fake_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bridge, "load_engine", fake_model_engine)
    monkeypatch.setattr(bridge, "model_config", fake_model_config)


async def _wait(pilot, predicate, tries: int = 80) -> None:
    for _ in range(tries):
        if predicate():
            return
        await pilot.pause(0.05)
    raise AssertionError("condition not reached")


def _statuses(app: BedsideApp) -> dict[str, str]:
    return {r["id"]: r["status"] for r in app.db["consultations"].rows_where("run_id IS NOT NULL")}


async def test_batch_started_from_the_form_runs_and_is_recorded(tmp_path: Path) -> None:
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await _wait(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.press("w")
        await _wait(pilot, lambda: isinstance(app.screen, LiveScreen))
        await pilot.press("s")
        await _wait(pilot, lambda: isinstance(app.screen, StartBatchScreen))
        app.screen.query_one("#batch-models", Input).value = "fast"
        await pilot.click("#batch-start")
        await _wait(pilot, lambda: _statuses(app) and set(_statuses(app).values()) == {"finished"})
        live = app.screen
        assert isinstance(live, LiveScreen)
        await _wait(pilot, lambda: live.query_one(DataTable).row_count == len(_statuses(app)))
        run = list(app.db["runs"].rows)[0]
        await _wait(pilot, lambda: app.db["runs"].get(run["id"])["status"] == "finished")
        turns = app.db["turns"].count_where("consultation_id IN (SELECT id FROM consultations)")
        assert turns == 2 * len(_statuses(app))


async def test_cancel_all_marks_consultations_cancelled_and_runs_survive_screens(
        tmp_path: Path) -> None:
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(200, 60)) as pilot:
        await _wait(pilot, lambda: isinstance(app.screen, HomeScreen))
        app.start_batch(BatchRequest(cases="", models=["slow", "slow2"], concurrency=1))
        await _wait(pilot, lambda: "running" in _statuses(app).values())
        await pilot.press("w")  # the batch keeps going while screens change
        await _wait(pilot, lambda: isinstance(app.screen, LiveScreen))
        live = app.screen
        view = live.query_one(TranscriptView)
        # Tokens arrive one by one; markup in them is streamed literally.
        await _wait(pilot, lambda: view._stream_text.startswith("Any [red]"))
        await pilot.press("escape")
        await _wait(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.press("w")
        await _wait(pilot, lambda: isinstance(app.screen, LiveScreen))
        await pilot.press("x")
        await _wait(pilot, lambda: _statuses(app) and all(
            s == "cancelled" for s in _statuses(app).values()))
        assert len(_statuses(app)) == len(app.live.items)
        rows = list(app.db["consultations"].rows)
        assert all(r["end_reason"] == "cancelled" for r in rows)
        run = list(app.db["runs"].rows)[0]
        await _wait(pilot, lambda: app.db["runs"].get(run["id"])["status"] == "cancelled")


async def test_attached_run_is_read_from_the_database(tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    from db.connection import open_db
    from db.runs import create_run

    other = open_db(tmp_path / "b.db")  # stands in for `bedside run` in another terminal
    run_id = create_run(other, config={}, provenance={})
    other["consultations"].update("imp-seeded", {"run_id": run_id, "status": "running"})
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(120, 40)) as pilot:
        await _wait(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.cases)
        await pilot.press("3")
        app.screen.query_one("#runs-table", DataTable).focus()
        await pilot.press("enter")
        await _wait(pilot, lambda: isinstance(app.screen, LiveScreen))
        live = app.screen
        await _wait(pilot, lambda: live.query_one(DataTable).row_count == 1)
        view = live.query_one(TranscriptView)
        await _wait(pilot, lambda: view.turn_count == 4)
        other["turns"].insert({"consultation_id": "imp-seeded", "idx": 4, "role": "patient",
                               "content": "new [b]turn[/b]", "kind": "answer", "tests": "[]"})
        await _wait(pilot, lambda: view.turn_count == 5)  # polled, re-rendered on change
        await pilot.press("c")  # not ours: refuses politely, changes nothing
        assert other["consultations"].get("imp-seeded")["status"] == "running"


def test_parse_batch_validates_each_field() -> None:
    assert isinstance(parse_batch("", "", "2", ""), str)
    assert isinstance(parse_batch("", "offline", "0", ""), str)
    assert isinstance(parse_batch("", "offline", "2", "x"), str)
    req = parse_batch("cardiology", "offline, openai/gpt-4o-mini", "3", "5")
    assert req == BatchRequest("cardiology", ["offline", "openai/gpt-4o-mini"], 3, 5)
