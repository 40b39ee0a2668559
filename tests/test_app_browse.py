"""Functional tests of the home/browse and transcript screens (run_test + Pilot)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text
from textual.widgets import DataTable, Select, TabbedContent

from tests.app_support import HOSTILE, seed
from tui.app import BedsideApp
from tui.screens.help import HelpScreen
from tui.screens.home import HomeScreen
from tui.screens.transcript import TranscriptScreen
from tui.widgets.literal import literal, sanitize
from tui.widgets.transcript_view import TurnBlock, result_rows

SIZES = [(80, 24), (200, 60)]


async def _home(pilot) -> HomeScreen:
    for _ in range(200):  # up to 10 s on a loaded machine
        await pilot.pause(0.05)
        screen = pilot.app.screen
        if isinstance(screen, HomeScreen) and screen.cases:
            return screen
    raise AssertionError("home screen did not load the library")


@pytest.mark.parametrize("size", SIZES)
async def test_home_lists_cases_and_consultations(tmp_path: Path, size) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=size) as pilot:
        home = await _home(pilot)
        cases = home.query_one("#cases-table", DataTable)
        assert cases.row_count == len(home.cases) >= 1
        consults = home.query_one("#consultations-table", DataTable)
        assert consults.row_count == 1
        await pilot.press("2")
        assert home.query_one(TabbedContent).active == "consultations"


async def test_case_filters_narrow_the_table(tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(120, 40)) as pilot:
        home = await _home(pilot)
        table = home.query_one("#cases-table", DataTable)
        total = table.row_count
        home.query_one("#filter-specialty", Select).value = home.cases[0].specialty
        await pilot.pause()
        assert 1 <= table.row_count <= total
        assert all(c.specialty == home.cases[0].specialty for c in home.shown_cases)
        await pilot.click("#filter-text")
        await pilot.press(*"zzz-no-such-case")
        await pilot.pause()
        assert table.row_count == 0


async def test_enter_opens_transcript_with_literal_text_and_outcome(tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        home = await _home(pilot)
        await pilot.press("2")
        home.query_one("#consultations-table", DataTable).focus()
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TranscriptScreen)
        blocks = list(screen.query(TurnBlock))
        assert [str(b.turn.role) for b in blocks] == ["doctor", "patient", "doctor", "examiner"]
        assert "role-patient" in blocks[1].classes and "role-examiner" in blocks[3].classes
        assert screen.outcome is not None and screen.outcome.correct is True
        assert screen.outcome.end_reason == "diagnosis"
        # The hostile reply is on screen exactly as typed (markup not parsed, ESC visible).
        await pilot.pause()
        shown = _screen_text(app)
        assert "[bold red]this[/]" in shown
        assert "\x1b" not in shown and "␛[31mRED" in shown
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)


def _screen_text(app: BedsideApp) -> str:
    """All text currently painted, from the screenshot SVG (markup-free by construction)."""
    import html
    import re

    svg = app.export_screenshot()
    return html.unescape(" ".join(re.findall(r">([^<]*)</text>", svg))).replace("\xa0", " ")


async def test_help_screen_lists_keys_and_closes(tmp_path: Path) -> None:
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await _home(pilot)
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        described = [d for _, d in app.screen.bindings_shown]
        assert "Play case" in described and "Quit" in described
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)


def test_literal_shows_markup_and_control_codes_as_typed() -> None:
    assert literal("[bold]x[/]").plain == "[bold]x[/]"
    assert literal("[bold]x[/]").spans == []
    assert sanitize("a\x1b[0mb\x07") == "a␛[0mb␇"
    assert sanitize("line\nnext\ttab") == "line\nnext\ttab"
    assert isinstance(literal(None), Text) and literal(None).plain == ""


def test_result_rows_split_reports_and_refuse_prose() -> None:
    rows = result_rows("Complete blood count:\n  Haemoglobin: 148 g/L\n  Platelets: 254")
    assert rows == [("Complete blood count", ""), ("  Haemoglobin", "148 g/L"),
                    ("  Platelets", "254")]
    assert result_rows("The patient looks well and there is nothing to report") == []
