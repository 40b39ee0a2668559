"""The app's Fidelity screen (f at home): the runs, the stored figures of the marked ones
side by side (read, not recomputed), c to check runs with the rules, Space to compare."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import DataTable, TabbedContent

from tests.app_support import painted_text, wait_until
from tui.app.application import BedsideApp
from tui.app.screens.fidelity import FidelityScreen
from tui.app.screens.home import HomeScreen
from tui.cli import main

QUESTIONS = ["What brings you in today?", "Have you had any chest pain like this before?",
             "REQUEST TEST: troponon", "REQUEST TEST: please do something useful"]


@pytest.fixture()
def runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, list[str]]:
    """Two runs replaying the same questions on two cases (the older one is 'first')."""
    replay = tmp_path / "r.jsonl"
    replay.write_text(json.dumps({"case": "*", "say": QUESTIONS}) + "\n", encoding="utf-8")
    db = tmp_path / "b.db"
    ids = []
    for name in ("first", "second"):
        assert main(["run", "--db", str(db), "--doctor", f"replay:{replay}", "--cases",
                     "card-001,pulm-003", "--name", name, "--json"]) == 0
        ids.append(json.loads(capsys.readouterr().out)["run_id"])
    return db, ids


def _column_headers(screen: FidelityScreen, role: str) -> list[str]:
    table = screen.query_one(f"#fidelity-{role}", DataTable)
    return [str(c.label) for c in table.columns.values()]


async def test_check_then_compare_two_runs(runs: tuple[Path, list[str]]) -> None:
    db, (first, second) = runs
    app = BedsideApp(db)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, FidelityScreen))
        screen = app.screen
        assert isinstance(screen, FidelityScreen)
        await wait_until(pilot, lambda: "No run checked yet" in painted_text(app))
        assert app.store.fidelity_counts() == {}
        await pilot.press("c")  # the highlighted run (the newest: second)
        await wait_until(pilot, lambda: screen.table is not None and screen.table.rows != [])
        assert app.store.fidelity_counts() == {second: 2}
        assert _column_headers(screen, "patient")[1] == "#1 second · retrieval"
        text = painted_text(app)
        assert "record-consistent (honesty)" in text and "examiner accuracy" in text
        # Mark the other run too: it is checked, then both are shown side by side.
        await pilot.press("down", "space")
        await wait_until(pilot, lambda: screen.marked == [second, first])
        await pilot.press("c")
        await wait_until(pilot, lambda: screen.table is not None
                         and {r.run_id for r in screen.table.rows} == {first, second})
        assert len(_column_headers(screen, "examiner")) == 3
        assert screen.table.same_questions
        # Space again takes a run out of the comparison.
        await pilot.press("space")
        await wait_until(pilot, lambda: screen.marked == [second])


@pytest.fixture()
def checked(runs: tuple[Path, list[str]], capsys: pytest.CaptureFixture[str]
            ) -> tuple[Path, list[str]]:
    """The same, the first run checked by the CLI (its figures stored)."""
    assert main(["fidelity", "--db", str(runs[0]), "--run", runs[1][0]]) == 0
    capsys.readouterr()
    return runs


async def test_the_runs_tab_opens_the_figures_of_its_run(
        checked: tuple[Path, list[str]]) -> None:
    db, (first, _) = checked
    app = BedsideApp(db)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.press("3")
        await wait_until(pilot, lambda: app.screen.query_one(TabbedContent).active == "runs")
        table = app.screen.query_one("#runs-table", DataTable)
        await wait_until(pilot, lambda: table.row_count == 2)
        table.move_cursor(row=1)  # the older run: first
        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, FidelityScreen)
                         and app.screen.table is not None)
        screen = app.screen
        assert isinstance(screen, FidelityScreen)
        assert screen.marked == [first] and {r.run_id for r in screen.table.rows} == {first}
        assert _column_headers(screen, "patient")[1] == "#1 first · retrieval"
