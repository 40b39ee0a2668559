"""Snapshot tests of the rating screen (pytest-textual-snapshot) at 80×24 and 120×40.

The database is seeded with fixed transcripts and a fixed study seed, nothing is saved yet (so
the time-left estimate reads "estimating") and the text cursor does not blink, so the
pictures only change when the screen does. Update with `pytest --snapshot-update` after
checking the new SVGs by eye.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from tests.test_study_support import make_study, seed_db
from tui.app.rating.screen import RatingApp, RatingScreen
from tui.app.rating.widgets import InstructionsScreen


def _app(tmp_path: Path) -> RatingApp:
    db = seed_db(tmp_path / "snap.db", n=4)
    make_study(db, tmp_path)
    db.close()
    return RatingApp(tmp_path / "snap.db", "pilot", "alice")


async def _settle(pilot) -> None:
    app = pilot.app
    for _ in range(200):
        if isinstance(app.screen, InstructionsScreen):
            break
        await pilot.pause(0.05)
    await pilot.press("enter")
    for _ in range(200):
        if isinstance(app.screen, RatingScreen) and app.screen.item is not None:
            break
        await pilot.pause(0.05)
    for inp in app.query(Input):
        inp.cursor_blink = False
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_rating_screen(snap_compare, tmp_path: Path, size) -> None:
    assert snap_compare(_app(tmp_path), terminal_size=size, run_before=_settle)


def test_instructions_80x24(snap_compare, tmp_path: Path) -> None:
    async def before(pilot) -> None:
        for _ in range(200):
            if isinstance(pilot.app.screen, InstructionsScreen):
                break
            await pilot.pause(0.05)
        await pilot.pause()

    assert snap_compare(_app(tmp_path), terminal_size=(80, 24), run_before=before)
