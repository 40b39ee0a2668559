"""Snapshot tests of the main screens (pytest-textual-snapshot).

Data is seeded with fixed timestamps, the clock is frozen and the cursor does not blink, so
the pictures only change when the screens do. Update with `pytest --snapshot-update` after
checking the new SVGs by eye.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from textual.widgets import DataTable, Input

import core.usecases.play as play_usecase
from core.transcript import Role, Turn
from tests.app_support import fake_engine, seed
from tui.app.application import BedsideApp
from tui.app.screens.home import HomeScreen
from tui.app.live_registry import LiveItem
from tui.app.screens.play import PlayScreen


def _fake_human_config(name: str, patient: str = "retrieval", examiner: str = "retrieval",
                       api_base: str | None = None, *, max_turns: int = 20,
                       task: str = "interactive") -> Any:
    """Stand-in for core.usecases.play.human_config, for the scripted engine of app_support
    (its turn latencies are fixed, so the picture does not depend on timing)."""
    return SimpleNamespace(label=f"human:{name}", max_turns=max_turns)


def _app(tmp_path: Path) -> BedsideApp:
    db_path = tmp_path / "snap.db"
    seed(db_path)
    from db.connection import open_db

    db = open_db(db_path)
    db.execute("UPDATE consultations SET started_at = '2025-01-02T03:04:05.000Z',"
               " ended_at = '2025-01-02T03:14:05.000Z'")
    app = BedsideApp(db_path, doctor_name="dr-snap")
    app.clock = lambda: 1000.0  # frozen
    return app


async def _settle(pilot) -> None:
    app = pilot.app
    for _ in range(200):
        if isinstance(app.screen, HomeScreen) and app.screen.cases:
            break
        await pilot.pause(0.05)
    for inp in app.query(Input):
        inp.cursor_blink = False
    await pilot.pause()


def test_home_80x24(snap_compare, tmp_path: Path) -> None:
    assert snap_compare(_app(tmp_path), terminal_size=(80, 24), run_before=_settle)


def test_consultations_tab_200x60(snap_compare, tmp_path: Path) -> None:
    async def before(pilot) -> None:
        await _settle(pilot)
        await pilot.press("2")
        await pilot.pause()

    assert snap_compare(_app(tmp_path), terminal_size=(200, 60), run_before=before)


def test_transcript_80x24(snap_compare, tmp_path: Path) -> None:
    async def before(pilot) -> None:
        await _settle(pilot)
        await pilot.press("2")
        pilot.app.screen.query_one("#consultations-table", DataTable).focus()
        await pilot.press("enter")
        await pilot.pause(0.2)

    assert snap_compare(_app(tmp_path), terminal_size=(80, 24), run_before=before)


def test_play_120x40(snap_compare, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BEDSIDE_HOME", str(tmp_path))
    monkeypatch.setattr(play_usecase, "load_engine", fake_engine)
    monkeypatch.setattr(play_usecase, "human_config", _fake_human_config)

    async def before(pilot) -> None:
        await _settle(pilot)
        await pilot.press("p")
        await pilot.pause(0.1)
        await pilot.click("#setup-start")
        for _ in range(200):
            if isinstance(pilot.app.screen, PlayScreen) and pilot.app.screen.waiting:
                break
            await pilot.pause(0.05)
        play = pilot.app.screen
        play.query_one("#ask", Input).value = "Where does it hurt?"
        await pilot.press("enter")
        for _ in range(200):
            if play.turns_used == 1 and play.waiting:
                break
            await pilot.pause(0.05)
        for inp in play.query(Input):
            inp.cursor_blink = False
        await pilot.pause(0.1)

    assert snap_compare(_app(tmp_path), terminal_size=(120, 40), run_before=before)


def test_help_80x24(snap_compare, tmp_path: Path) -> None:
    async def before(pilot) -> None:
        await _settle(pilot)
        await pilot.press("f1")
        await pilot.pause()

    assert snap_compare(_app(tmp_path), terminal_size=(80, 24), run_before=before)


def _live_items(app: BedsideApp) -> None:
    """A fixed registry: what an in-app batch looks like mid-run (no engine, no clock)."""
    states = [("running", 3, 1840, 0.0123), ("running", 1, 420, 0.0031), ("queued", 0, 0, 0.0),
              ("finished", 6, 5210, 0.0402), ("failed", 2, 900, 0.0050)]
    for i, (status, turn, tokens, cost) in enumerate(states):
        item = app.live.register(LiveItem(f"c-snap-{i:04d}", f"card-00{i % 3 + 1}",
                                          "openai/model-x", run_id="run-snap"))
        item.status, item.doctor_turn, item.tokens, item.cost = status, turn, tokens, cost
    first = app.live.items["c-snap-0000"]
    first.turns = [
        Turn(index=0, role=Role.DOCTOR, content="What brings you in today?", doctor_turn=1,
             kind="question"),
        Turn(index=1, role=Role.PATIENT, content="Crushing [b]chest[/b] pain since 6 am.",
             doctor_turn=1, kind="answer")]
    first.stream_role, first.stream_text = "doctor", "Does the pain spread to your arm"


def test_live_80x24(snap_compare, tmp_path: Path) -> None:
    async def before(pilot) -> None:
        await _settle(pilot)
        _live_items(pilot.app)
        pilot.app.open_live()
        await pilot.pause(0.5)

    assert snap_compare(_app(tmp_path), terminal_size=(80, 24), run_before=before)


def test_batch_form_80x24(snap_compare, tmp_path: Path) -> None:
    async def before(pilot) -> None:
        await _settle(pilot)
        await pilot.press("w")
        await pilot.pause(0.2)
        await pilot.press("s")
        await pilot.pause(0.2)
        for inp in pilot.app.screen.query(Input):
            inp.cursor_blink = False
        await pilot.pause()

    assert snap_compare(_app(tmp_path), terminal_size=(80, 24), run_before=before)
