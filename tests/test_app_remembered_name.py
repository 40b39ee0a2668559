"""The physician's name asked by the Agent Hospital tasks (`t` at home) is the one the app
remembers, as in the play form: under tmux, after a restart, `t` asked with an empty box
although settings.json held the name, so a physician retyped it (and a typo makes another
human:NAME)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from tests.app_support import seed, wait_until
from tui.app.application import BedsideApp
from tui.app.rating.widgets import AskText
from tui.app.services import save_settings


async def test_the_agent_hospital_name_prompt_offers_the_remembered_name(
        tmp_path: Path) -> None:
    db = tmp_path / "b.db"
    seed(db)
    save_settings(doctor_name="kim")
    app = BedsideApp(db)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: bool(getattr(app.screen, "cases", None)))
        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, AskText))
        assert app.screen.query_one("#ask-input", Input).value == "kim"
