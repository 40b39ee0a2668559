"""Runs a researcher can tell apart (issue 16): `bedside runs` (list, show, --json) with
each run's doctors, settings and counts; the app's Runs tab says the same; a batch started
in the app is attached at once, names its offline doctor and shows each verdict."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import DataTable, Input

from tests.app_support import screen_lines, wait_until
from tui.app.application import BedsideApp
from tui.app.screens.forms_batch import StartBatchScreen
from tui.app.screens.home import RUN_COLUMNS, HomeScreen
from tui.app.screens.live import LiveScreen
from tui.cli import main


def _two_runs(db: str, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    assert main(["run", "--db", db, "--cases", "card-00*", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)["run_id"]
    assert main(["run", "--db", db, "--cases", "card-001,card-002", "--max-turns", "3",
                 "--json"]) == 0
    second = json.loads(capsys.readouterr().out)["run_id"]
    return first, second


def test_runs_list_and_show_say_what_each_run_is(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "b.db")
    first, second = _two_runs(db, capsys)
    assert main(["runs", "list", "--db", db, "--json"]) == 0
    listed = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    assert list(listed) == [second, first]  # newest first
    assert listed[first]["doctors"] == ["scripted"] and listed[first]["settings"] == []
    assert listed[second]["settings"] == ["max turns 3"]
    assert (listed[first]["cases"], listed[first]["planned"]) == (3, 3)
    assert listed[second]["counts"]["finished"] == 2
    assert main(["runs", "list", "--db", db]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["RUN", "CREATED", "STATUS", "DOCTORS", "CASES", "DONE",
                                "FAILED", "SETTINGS"]
    assert second in lines[1] and "max turns 3" in lines[1] and "2/2" in lines[1]
    assert first in lines[2] and lines[2].rstrip().endswith("-")
    assert max(len(line) for line in lines) <= 120

    assert main(["runs", "show", second, "--db", db, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    [conf] = shown["configurations"]
    assert conf["doctor"] == "scripted" and conf["settings"] == ["max turns 3"]
    assert conf["consultations"] == 2 and conf["correct"] + conf["wrong"] == 2
    assert main(["runs", "show", second, "--db", db]) == 0
    text = capsys.readouterr().out
    assert "settings: max turns 3" in text and "2 finished" in text


def test_runs_show_of_an_unknown_run_is_one_line(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "b.db")
    assert main(["runs", "list", "--db", db]) == 0
    assert "no runs yet" in capsys.readouterr().out
    assert main(["runs", "show", "run-nope", "--db", db]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "run-nope" in err


@pytest.fixture
def two_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str, str]:
    db = str(tmp_path / "b.db")
    return (db, *_two_runs(db, capsys))


async def test_the_runs_tab_says_what_each_run_is(two_runs: tuple[str, str, str]) -> None:
    db, first, second = two_runs
    app = BedsideApp(db)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen)
                         and app.screen.loaded)
        await pilot.press("3")
        table = app.screen.query_one("#runs-table", DataTable)
        assert [str(c.label) for c in table.columns.values()] == list(RUN_COLUMNS)
        rows = {str(table.get_row(second)[7]): [str(c) for c in table.get_row(second)]}
        assert rows[second][1:4] == ["scripted", "2", "max turns 3"]
        assert [str(c) for c in table.get_row(first)][3] == "defaults"
        await pilot.pause(0.1)
        assert any("max turns 3" in line for line in screen_lines(app))


async def test_a_batch_started_in_the_app_is_attached_with_doctor_and_verdicts(
        tmp_path: Path) -> None:
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, LiveScreen))
        live = app.screen
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, StartBatchScreen))
        app.screen.query_one("#batch-cases", Input).value = "card-00*"
        app.screen.query_one("#batch-models", Input).value = "offline"
        await pilot.click("#batch-start")
        await wait_until(pilot, lambda: app.db["runs"].count == 1)
        run_id = list(app.db["runs"].rows)[0]["id"]
        await wait_until(pilot, lambda: live.run_id == run_id)  # attached, not "started here"
        await wait_until(pilot, lambda: app.db["runs"].get(run_id)["status"] == "finished")
        table = live.query_one(DataTable)
        await wait_until(pilot, lambda: table.row_count == 3 and all(
            str(table.get_row_at(i)[4]) != "—" for i in range(3)))
        columns = [str(c.label) for c in table.columns.values()]
        doctor, verdict = columns.index("Doctor"), columns.index("Verdict")
        stored = {r["id"][-8:]: r for r in app.db["consultations"].rows}
        for i in range(3):
            row = [str(c) for c in table.get_row_at(i)]
            assert row[doctor] == "scripted"
            expected = "correct" if stored[row[0]]["correct"] else "wrong"
            assert row[verdict] == expected
        assert run_id in str(live.query_one("#live-status").render())
