"""Functional tests of the home/browse and transcript screens (run_test + Pilot)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text
from textual.widgets import DataTable, Select, TabbedContent

from tests.app_support import home_loaded, painted_text, screen_lines as _screen_lines, seed, wait_until
from tui.app.application import BedsideApp
from tui.app.screens.help import HelpScreen
from tui.app.screens.home import HomeScreen
from tui.app.screens.transcript import TranscriptScreen
from tui.app.widgets.literal import literal, sanitize
from tui.app.widgets.transcript_view import TurnBlock, result_rows

SIZES = [(80, 24), (200, 60)]




@pytest.mark.parametrize("size", SIZES)
async def test_home_lists_cases_and_consultations(tmp_path: Path, size) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=size) as pilot:
        home = await home_loaded(pilot)
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
        home = await home_loaded(pilot)
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
        home = await home_loaded(pilot)
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
        shown = painted_text(app)
        assert "[bold red]this[/]" in shown
        assert "\x1b" not in shown and "␛[31mRED" in shown
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)




async def test_help_screen_lists_keys_and_closes(tmp_path: Path) -> None:
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await home_loaded(pilot)
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        shown = app.screen.bindings_shown
        assert shown[0] == ("F1, ?", "Help")  # help first, keys as people write them
        assert ("p", "Play case") in shown and ("Ctrl+Q", "Quit") in shown
        # The screen's own keys come before the generic ones (Tab between fields).
        described = [d for _, d in shown]
        assert described.index("Baseline") < described.index("Quit")
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("f1")
        await pilot.press("f1")  # F1 again closes it
        assert isinstance(app.screen, HomeScreen)


async def test_footer_shows_help_first_and_fits_80_columns(tmp_path: Path) -> None:
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await home_loaded(pilot)
        bottom = await _painted_footer(pilot, "Quit")
        assert bottom.strip().startswith("f1 Help")
        assert "palette" not in bottom
        await pilot.press("w")
        bottom = await _painted_footer(pilot, "Attach")
        for key in ("f1 Help", "esc Back", "x Cancel all", "a Attach", "^q Quit"):
            assert key in bottom, key


async def _painted_footer(pilot, word: str) -> str:
    """The bottom line once the footer has painted `word` (a loaded machine paints late)."""
    for _ in range(200):
        bottom = _screen_lines(pilot.app)[-1]
        if word in bottom:
            return bottom
        await pilot.pause(0.05)
    raise AssertionError(f"the footer never showed {word!r}; bottom line: {bottom!r}")


async def test_filters_are_labelled_and_a_tab_focuses_its_table(tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        home = await home_loaded(pilot)
        shown = " ".join(_screen_lines(app)[3:6])
        for label in ("Any specialty", "Any language", "Any source"):
            assert label in shown, label  # each box says what it filters, at 80 columns
        from textual.widgets import Tabs

        home.query_one(Tabs).focus()
        await pilot.press("right")  # the tab bar: Cases → Consultations
        await pilot.pause()
        assert home.query_one(TabbedContent).active == "consultations"
        assert app.focused is home.query_one("#consultations-table", DataTable)
        await pilot.press("enter")  # straight to the transcript: no Tab needed
        await pilot.pause()
        assert isinstance(app.screen, TranscriptScreen)


async def test_a_database_that_cannot_be_opened_is_one_message_not_a_crash(
        tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_text("not a database", encoding="utf-8")
    app = BedsideApp(bad)  # past the command line's check, e.g. replaced while running
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        for _ in range(200):
            await pilot.pause(0.05)
            if app._notifications:
                break
        messages = [str(n.message) for n in app._notifications]
        assert len(messages) == 1 and "not a bedside database" in messages[0]
        assert isinstance(app.screen, HomeScreen) and not app.screen.loaded
        await pilot.press("f5")  # trying again says it again, still no crash
        await pilot.pause(0.3)
        assert isinstance(app.screen, HomeScreen)
    assert app.return_code in (None, 0)  # None: closed without an error
    assert bad.read_text(encoding="utf-8") == "not a database"  # untouched


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


def test_baseline_counts_what_the_results_table_counts(tmp_path: Path) -> None:
    # One interactive consultation of model-x (correct) counts; its one-step upper bound
    # and a transcript on a placeholder case (no truth to be wrong against) do not.
    from core.case import Case
    from core.caseio import load_bundled_cases
    from core.transcript import EndReason, Transcript, Verdict
    from db.cases import save_cases
    from db.connection import open_db
    from core.usecases.results import baseline
    from db.consultations import save_transcript
    from db.store import SqliteStore

    seed(tmp_path / "b.db")
    db = open_db(tmp_path / "b.db")
    stand_in = Case(id="imp-x", title="Imported", specialty="unknown", source="imported",
                    objective="(none)", patient={}, truth={"diagnosis": "unknown"},
                    placeholder=True)
    save_cases(db, [stand_in])
    wrong = Transcript(case_id="imp-x", diagnosis="Gout", end_reason=EndReason.DIAGNOSIS,
                       doctor="model-x", verdicts=[Verdict(moderator="exact", correct=False)])
    save_transcript(db, wrong, consultation_id="imp-placeholder", origin="import:x")
    upper = wrong.model_copy(update={"case_id": load_bundled_cases()[0].id})
    save_transcript(db, upper, consultation_id="one-step-x", origin="one_step")
    rows = {r.doctor: r for r in baseline(SqliteStore(db), humans_only=False)}
    assert (rows["model-x"].n, rows["model-x"].correct) == (1, 1)


async def test_baseline_tab_shows_the_results_table_numbers(tmp_path: Path) -> None:
    # A physician with one right and one undecided consultation beside the seeded model
    # one: the tab shows what `bedside results` counts (the undecided one is not in N).
    from core.caseio import load_bundled_cases
    from core.transcript import EndReason, Transcript, Verdict
    from core.usecases.results import results_table
    from db.store import open_store

    seed(tmp_path / "b.db")
    store = open_store(tmp_path / "b.db")
    case = load_bundled_cases()[0]
    for cid, verdicts in (("h1", [Verdict(moderator="exact", correct=True)]), ("h2", [])):
        store.save_transcript(Transcript(case_id=case.id, doctor="human:ana", diagnosis="x",
                                         end_reason=EndReason.DIAGNOSIS, verdicts=verdicts),
                              consultation_id=cid, origin="engine")
    expected = {r["doctor"]: r for r in results_table(store)}
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(120, 30)) as pilot:
        home = await home_loaded(pilot)
        await pilot.press("5")
        table = home.query_one("#baseline-table", DataTable)
        await wait_until(pilot, lambda: table.row_count == 2)
        shown = {str(table.get_row_at(i)[0]): [str(c) for c in table.get_row_at(i)]
                 for i in range(table.row_count)}
    assert list(shown) == ["human:ana", "model-x"]  # physicians first
    for doctor, cells in shown.items():
        row = expected[doctor]
        assert cells[1:4] == [str(row["n"]), str(row["correct"]), f"{row['accuracy']:.0%}"]
    assert shown["human:ana"][1:4] == ["1", "1", "100%"]
