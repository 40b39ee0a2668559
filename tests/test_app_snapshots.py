"""Snapshot tests of the main screens (pytest-textual-snapshot).

Data is seeded with fixed timestamps, the clock is frozen and the cursor does not blink, so
the pictures only change when the screens do. Update with `pytest --snapshot-update` after
checking the new SVGs by eye.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable, Input

import tui.screens.engine_bridge as bridge
from tests.app_support import fake_config, fake_engine, seed
from tui.app import BedsideApp
from tui.screens.home import HomeScreen
from tui.screens.play import PlayScreen


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
    monkeypatch.setattr(bridge, "load_engine", fake_engine)
    monkeypatch.setattr(bridge, "human_config", fake_config)

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
