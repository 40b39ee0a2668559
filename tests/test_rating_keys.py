"""The rating screen's keyboard and layout at 80×24 and 120×40: after Enter both panes are
back at the top with the first question focused, Tab goes from question to question, PgUp
and PgDn scroll the transcript wherever the focus is, the footer keeps `q Quit`, unsaved
answers are not dropped without asking, and an imported dialogue without a case record says
so. The footer is the app's KeyFooter, Help first, in `bedside rate` and inside the bedside
app."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Collapsible, Input, Static
from textual.widgets._footer import FooterKey  # not re-exported by textual.widgets

from db.study_store import SqliteStudyStore
from tests.app_support import wait_until
from tests.footer_support import settled_key_bar
from tests.test_rating_screen import _open, _rate_current
from tests.test_study_support import make_study, seed_db
from tui.app.rating.screen import RatingApp
from tui.app.rating.widgets import AskText, InstructionsScreen, TextField, UnitField
from tui.app.widgets.confirm import ConfirmScreen as Confirm

SIZES = [(80, 24), (120, 40)]


def _visible_in(widget, pane) -> bool:
    return pane.region.contains_region(widget.region)


@pytest.mark.parametrize("size", SIZES)
async def test_next_transcript_opens_at_the_top_with_the_first_question(tmp_path, size) -> None:
    seed_db(tmp_path / "s.db")
    make_study(seed_db(tmp_path / "s.db", n=0), tmp_path)
    app = RatingApp(tmp_path / "s.db", "pilot", "alice")
    async with app.run_test(size=size) as pilot:
        screen = await _open(pilot, app)
        left, form = screen.query_one("#transcript"), screen.query_one("#form")
        for f in [f for f in screen.query(UnitField) if f.turn_idx == -1][:4]:
            f.set_value("6")
        # the rater works down to the bottom of both panes, then saves from the comment box
        list(left.query(UnitField))[-1].focus()
        await pilot.pause()
        box = screen.query_one(TextField).query_one(Input)
        box.focus()
        await pilot.pause()
        if size == (80, 24):
            # really scrolled away (the transcript, compact now, may fit as it is)
            assert form.scroll_y > 0 and (left.scroll_y > 0 or left.max_scroll_y == 0)
        first = screen.item.assignment_id
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.item and screen.item.assignment_id != first)
        await pilot.pause()
        assert (left.scroll_y, form.scroll_y) == (0, 0)
        focused = screen.focused
        assert isinstance(focused, UnitField) and focused.unit == ("realism_doctor", -1)
        assert _visible_in(focused, form)
        # so a digit lands where the rater can see it
        await pilot.press("4")
        assert focused.value == "4"


@pytest.mark.parametrize("size", SIZES)
async def test_tab_goes_from_question_to_question(tmp_path, size) -> None:
    db = seed_db(tmp_path / "s.db")
    make_study(db, tmp_path)
    app = RatingApp(tmp_path / "s.db", "pilot", "alice")
    async with app.run_test(size=size) as pilot:
        screen = await _open(pilot, app)
        chain = screen.focus_chain
        assert chain and all(isinstance(w, (UnitField, Input)) for w in chain)
        seen = []
        for _ in range(len(chain)):
            seen.append(screen.focused)
            await pilot.press("tab")
        assert set(seen) == set(chain)  # every question once, nothing else in between


# How to answer (digits, 0 = 10, Tab) is on the bar; Undo and Record are in the help (i).
RATING_BAR = [("i", "Help"), ("q", "Quit"), ("⏎", "Save"), ("0-9", "Score, 0=10"),
              ("Tab", "Next"), ("s", "Skip"), ("c", "Comment")]


@pytest.mark.parametrize("size", SIZES)
async def test_footer_keeps_every_key_and_quit_on_screen(tmp_path, size) -> None:
    db = seed_db(tmp_path / "s.db")
    make_study(db, tmp_path)
    app = RatingApp(tmp_path / "s.db", "pilot", "alice")
    async with app.run_test(size=size) as pilot:
        screen = await _open(pilot, app)
        await pilot.pause()
        # The app's one footer: Help first, then Quit, then the screen's keys; all on screen.
        assert await settled_key_bar(pilot, screen, size[0]) == RATING_BAR
        quit_key = next(k for k in screen.query(FooterKey) if k.description == "Quit")
        assert quit_key.key == "q" and quit_key.region.y == size[1] - 1  # the bottom line
        assert "Quit" in app.export_screenshot()
        # i, the Help of the bar, opens the study's instructions (which list the keys)
        await pilot.press("i")
        await wait_until(pilot, lambda: isinstance(app.screen, InstructionsScreen))


async def test_footer_in_the_bedside_app_fits_80_columns_with_help_first(tmp_path) -> None:
    from tui.app.application import BedsideApp
    from tui.app.screens.help import HelpScreen

    db = seed_db(tmp_path / "s.db")
    sid = make_study(db, tmp_path)
    app = BedsideApp(tmp_path / "s.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_study(sid)
        await wait_until(pilot, lambda: isinstance(app.screen, AskText) and app.screen.query(Input))
        app.screen.query_one(Input).value = "alice"
        await pilot.press("enter")
        screen = await _open(pilot, app)
        await pilot.pause()
        # The app's F1 and the screen's i share the Help slot (one key per action), so the
        # bar has one Help, first, and the app's Ctrl+Q still fits at the end.
        assert await settled_key_bar(pilot, screen, 80) == [*RATING_BAR, ("^q", "Quit")]
        await pilot.press("f1")  # F1 still opens the key list of this screen
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        listed = {d: k for k, d in app.screen.bindings_shown}
        assert set(listed["Help"].split(", ")) == {"i", "F1", "?"}
        assert {"Save", "Undo", "Skip", "Comment", "Record", "Quit"} <= set(listed)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        await pilot.press("i")
        await wait_until(pilot, lambda: isinstance(app.screen, InstructionsScreen))


async def test_page_keys_scroll_the_transcript_from_a_question_of_the_form(tmp_path) -> None:
    db = seed_db(tmp_path / "s.db")
    make_study(db, tmp_path)
    app = RatingApp(tmp_path / "s.db", "pilot", "alice")
    # (Short enough that the seeded transcript, compact at 80x24, needs scrolling.)
    async with app.run_test(size=(80, 16)) as pilot:
        screen = await _open(pilot, app)
        left, form = screen.query_one("#transcript"), screen.query_one("#form")
        focused = screen.focused
        assert focused in form.query(UnitField) and left.max_scroll_y > 0
        await pilot.press("pagedown")
        await wait_until(pilot, lambda: left.scroll_y > 0)
        assert form.scroll_y == 0 and screen.focused is focused
        await pilot.press("pageup")
        await wait_until(pilot, lambda: left.scroll_y == 0)
        assert screen.focused is focused


async def test_unsaved_answers_are_not_dropped_without_asking(tmp_path: Path) -> None:
    db = seed_db(tmp_path / "s.db")
    store = SqliteStudyStore(db)
    sid = make_study(db, tmp_path)
    alice = store.get_rater("alice").id
    app = RatingApp(tmp_path / "s.db", "pilot", "alice")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _open(pilot, app)
        saved = await _rate_current(pilot, screen, ["5", "5", "5", "5"])
        await pilot.press("7")  # an answer on the next transcript, not saved
        assert screen.unsaved()
        # u asks; n keeps the answer and undoes nothing
        await pilot.press("u")
        await wait_until(pilot, lambda: isinstance(app.screen, Confirm))
        assert "will be lost" in str(app.screen.query_one("#confirm-question", Static).content)
        await pilot.press("n")
        await wait_until(pilot, lambda: app.screen is screen)
        assert store.get_assignment(saved).status == "done" and screen.unsaved()
        # q asks too; n stays
        await pilot.press("q")
        await wait_until(pilot, lambda: isinstance(app.screen, Confirm))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        assert app.is_running and screen.unsaved()
        # y on u: the typed answer is dropped and the last save undone
        await pilot.press("u")
        await wait_until(pilot, lambda: isinstance(app.screen, Confirm))
        await pilot.press("y")
        await wait_until(pilot, lambda: screen.item and screen.item.assignment_id == saved)
        assert store.get_assignment(saved).status == "pending"
        assert not screen.unsaved()  # the undone answers are shown as they were saved
        # nothing typed: q quits at once
        await pilot.press("q")
        await wait_until(pilot, lambda: not app.is_running)
    assert store.next_assignment(sid, alice).id == saved


async def test_imported_dialogue_says_the_case_record_is_not_available(tmp_path: Path) -> None:
    from core.case import Case
    from db.cases import save_cases
    from db.consultations import save_transcript
    from tests.test_study_support import transcript

    db = seed_db(tmp_path / "s.db", n=0)
    stand_in = Case(id="aihospital-p7", title="Imported transcript", specialty="unknown",
                    source="imported", objective="(case record not available)", patient={},
                    truth={"diagnosis": "unknown"}, placeholder=True)
    save_cases(db, [stand_in])
    save_transcript(db, transcript(stand_in.id, 1), consultation_id="imp-7",
                    origin="import:aihospital-dialog")
    make_study(db, tmp_path, 'name = "imp"\nraters = ["alice"]\noverlap = 1\n'
                             '[select]\nsources = ["aihospital"]\n')
    app = RatingApp(tmp_path / "s.db", "imp", "alice")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot, app)
        note = screen.query_one("#no-reference", Static)
        assert "not available" in note.content.plain
        assert not screen.query(Collapsible)  # no empty "Case record" section
        await pilot.press("r")
        await pilot.pause()
        assert not screen.query(Collapsible)


async def test_r_shows_and_hides_the_case_record(tmp_path: Path) -> None:
    db = seed_db(tmp_path / "s.db")
    make_study(db, tmp_path)
    app = RatingApp(tmp_path / "s.db", "pilot", "alice")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot, app)
        record = screen.query_one("#reference", Collapsible)
        assert record.collapsed
        await pilot.press("r")
        await wait_until(pilot, lambda: not record.collapsed)
        await pilot.press("r")
        await wait_until(pilot, lambda: record.collapsed)


async def test_a_burst_of_keys_lands_where_the_rater_meant_it(tmp_path: Path) -> None:
    from textual import events

    db = seed_db(tmp_path / "s.db")

    store = SqliteStudyStore(db)
    sid = make_study(db, tmp_path)
    app = RatingApp(tmp_path / "s.db", "pilot", "alice")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot, app)
        first = screen.item.assignment_id
        # all keys queued before any is handled, as when they arrive in one read
        for key in ("7", "tab", "0", "tab", "5", "tab", "3", "enter"):
            event = events.Key(key, None if len(key) > 1 else key)
            event.set_sender(app)
            app._driver.send_message(event)
        progress = screen.query_one("#progress", Static)
        await wait_until(pilot, lambda: "· 1 / " in str(progress.content))  # saved, next shown
    got = store.assignment_ratings(first)
    assert {k: v for (k, _), (v, _) in got.items()} == {
        "realism_doctor": "7", "realism_patient": "10", "realism_examiner": "5",
        "empathy_doctor": "3"}
    assert store.get_assignment(first).status == "done" and sid


async def test_ctrl_q_in_the_bedside_app_asks_before_dropping_unsaved_answers(tmp_path) -> None:
    from tui.app.application import BedsideApp

    db = seed_db(tmp_path / "s.db")
    sid = make_study(db, tmp_path)
    app = BedsideApp(tmp_path / "s.db")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.open_study(sid)
        await wait_until(pilot, lambda: isinstance(app.screen, AskText) and app.screen.query(Input))
        app.screen.query_one(Input).value = "alice"
        await pilot.press("enter")
        screen = await _open(pilot, app)
        await pilot.press("7")
        assert screen.unsaved()
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: isinstance(app.screen, Confirm))
        await pilot.press("n")
        await wait_until(pilot, lambda: app.screen is screen)
        assert app.is_running and screen.unsaved()
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: isinstance(app.screen, Confirm))
        await pilot.press("y")
        await wait_until(pilot, lambda: not app.is_running)
