"""Functional tests of the results screen: the `bedside results` table in the app."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable, Select

from tests.app_support import home_loaded, seed, wait_until
from tests.footer_support import settled_key_bar
from tui.app.application import BedsideApp
from tui.app.screens.home import HomeScreen
from tui.text.results_table import FOOTNOTE
from tui.app.screens.results import ResultsScreen, columns, row_cells




async def _rows(pilot, screen: ResultsScreen, by: str) -> list[dict]:
    for _ in range(200):
        await pilot.pause(0.05)
        if screen.rows is not None and screen.rows_by == by:
            return screen.rows
    raise AssertionError(f"results by {by} never arrived")


def _add_human(db_path: Path) -> None:
    """A physician's finished consultation beside the seeded model one."""
    from core.transcript import EndReason, Role, Transcript, Turn, Verdict
    from db.connection import open_db
    from db.consultations import save_transcript

    db = open_db(db_path)
    case_id = db.execute("SELECT case_id FROM consultations").fetchone()[0]
    t = Transcript(case_id=case_id, doctor="human:alice", diagnosis="pneumonia",
                   end_reason=EndReason.DIAGNOSIS,
                   turns=[Turn(index=0, role=Role.DOCTOR, content="DIAGNOSIS READY: pneumonia",
                               doctor_turn=1, kind="diagnosis")],
                   verdicts=[Verdict(moderator="exact", correct=False)])
    save_transcript(db, t, consultation_id="imp-human", origin="test")
    db.conn.close()


async def test_r_opens_results_with_humans_and_models_side_by_side(tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    _add_human(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await home_loaded(pilot)
        await pilot.press("r")
        screen = app.screen
        assert isinstance(screen, ResultsScreen)
        rows = await _rows(pilot, screen, "model")
        by_doctor = {r["model"]: r for r in rows}
        assert set(by_doctor) == {"human:alice", "model-x"}
        assert by_doctor["human:alice"]["doctor_kind"] == "human"
        assert by_doctor["model-x"]["doctor_kind"] == "model"
        assert by_doctor["model-x"]["accuracy"] == 1.0
        assert by_doctor["human:alice"]["accuracy"] == 0.0
        table = screen.query_one("#results-table", DataTable)
        assert table.row_count == 2
        headers = [str(c.label) for c in table.columns.values()]
        # The names of the JSON keys and the CSV header (issue 16).
        assert headers[:6] == ["model", "settings", "kind", "n", "cases", "accuracy"]
        assert "accuracy_ci" in headers
        # Offline metrics were computed and stored by the worker, on its own connection.
        from db.connection import open_db

        stored = open_db(tmp_path / "b.db").execute(
            "SELECT count(DISTINCT consultation_id) FROM metrics").fetchone()[0]
        assert stored == 2
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)




async def test_at_80x24_the_key_bar_and_the_results_rows_are_on_screen(tmp_path: Path) -> None:
    from tui.app.screens.help import HelpScreen

    seed(tmp_path / "b.db")
    _add_human(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await home_loaded(pilot)
        await pilot.press("r")
        screen = app.screen
        assert isinstance(screen, ResultsScreen)
        await _rows(pilot, screen, "model")
        await pilot.pause()
        assert await settled_key_bar(pilot, screen, 80) == [("f1", "Help"), ("esc", "Back"), ("g", "Next grouping"),
                                       ("c", "Chart"), ("r", "Recompute"), ("^q", "Quit")]
        # The table keeps room for its header and both rows (the footnote, six lines at 80
        # columns, moves to the help on a short terminal).
        table = screen.query_one("#results-table", DataTable)
        assert table.region.height >= 3 and table.region.bottom <= 23
        assert not screen.query_one("#results-footnote").display
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert FOOTNOTE in app.screen.notes
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        await pilot.resize_terminal(200, 60)
        await wait_until(pilot, lambda: screen.query_one("#results-footnote").display)
        assert (await settled_key_bar(pilot, screen, 200))[0] == ("f1", "Help")


async def test_grouping_selector_and_key_regroup_the_table(tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(200, 60)) as pilot:
        await home_loaded(pilot)
        app.open_results()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ResultsScreen)
        await _rows(pilot, screen, "model")
        await pilot.press("g")
        rows = await _rows(pilot, screen, "source")
        assert screen.query_one("#results-by", Select).value == "source"
        assert [r["source"] for r in rows] and all("source" in r for r in rows)
        headers = [str(c.label) for c in screen.query_one(DataTable).columns.values()]
        assert headers[0] == "source"
        screen.query_one("#results-by", Select).value = "language"
        rows = await _rows(pilot, screen, "language")
        assert rows[0]["language"] == "en"


async def test_empty_store_says_what_to_do(tmp_path: Path) -> None:
    app = BedsideApp(tmp_path / "empty.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await home_loaded(pilot)
        await pilot.press("r")
        screen = app.screen
        assert isinstance(screen, ResultsScreen)
        assert await _rows(pilot, screen, "model") == []
        assert screen.query_one(DataTable).row_count == 0
        status = str(screen.query_one("#results-status").render())
        assert "No consultations yet" in status


def test_row_cells_match_the_cli_columns_and_stay_literal() -> None:
    row = {"model": "[bold]x[/]", "doctor_kind": "human", "finished": 3, "n": 3, "cases": 2,
           "accuracy": 2 / 3, "ci_low": 0.2, "ci_high": 0.94, "cost_usd": 0.0,
           "settings": "max turns 3"}
    cells = row_cells(row, "model")
    assert len(cells) == len(columns("model"))
    assert cells[0].plain == "[bold]x[/]" and cells[0].spans == []
    assert [c.plain for c in cells[1:7]] == ["max turns 3", "human", "3", "2", "66.7%",
                                             "20-94%"]
    assert cells[-1].plain == "-"  # no patient ratings: shown as the CLI shows it


async def test_a_row_lists_its_consultations_and_their_metrics(tmp_path: Path) -> None:
    from tests.app_support import HOSTILE
    from tui.app.screens.results import metric_lines

    seed(tmp_path / "b.db")
    _add_human(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(160, 50)) as pilot:
        await home_loaded(pilot)
        await pilot.press("r")
        screen = app.screen
        assert isinstance(screen, ResultsScreen)
        rows = await _rows(pilot, screen, "model")
        assert [r["model"] for r in rows] == ["human:alice", "model-x"]
        lower = screen.query_one("#results-consultations", DataTable)
        assert lower.row_count == 1 and [c["consultation_id"] for c in screen.shown] == [
            "imp-human"]
        await pilot.press("down")  # the model's row
        await pilot.pause()
        assert [c["consultation_id"] for c in screen.shown] == ["imp-seeded"]
        detail = str(screen.query_one("#results-detail").render())
        assert "imp-seeded" in detail and "tests_relevant" in detail
        # report_score was never computed (no `bedside score`): said so, not shown as 0
        assert "report_score" in detail and "not computed" in detail
        # undefined metrics carry their reason
        lines = metric_lines({**screen.shown[0], "diagnosis": HOSTILE,
                              "reasons": "behaviour_standardization: fewer than 2 steps"})
        assert "— fewer than 2 steps" in lines.plain
        assert HOSTILE.split("\x1b")[0] in lines.plain and not any(
            "red" in str(s.style) for s in lines.spans)  # literal, no markup


def test_members_follow_the_grouping() -> None:
    from tui.app.screens.results import members, split_reasons

    consultations = [{"consultation_id": "a", "doctor": "m", "source": "bedside"},
                     {"consultation_id": "b", "doctor": "m", "source": "agentclinic"},
                     {"consultation_id": "c", "doctor": "m [one-step]", "source": "bedside"}]
    row = {"source": "bedside", "doctor": "m"}
    assert [c["consultation_id"] for c in members(row, "source", consultations)] == ["a"]
    assert [c["consultation_id"] for c in members({"model": "m", "doctor": "m"}, "model",
                                                  consultations)] == ["a", "b"]
    assert split_reasons("entity_precision: no diagnosis entities (0/0); report_score: "
                         "no final report") == {
        "entity_precision": "no diagnosis entities (0/0)", "report_score": "no final report"}
