"""The rating screen for a clinician who has never used a terminal app (issue 16): at 80×24
the four required questions fit at once and `*` is explained; the per-turn questions are
one compact line under their turn, said to be optional and reached with Tab; the key bar
names digits, 0 = 10 and Tab; the rater's name is found in any case, and the app's prompt
lists the study's raters."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Static

from db.study_store import SqliteStudyStore
from tests.app_support import screen_lines, wait_until
from tests.footer_support import settled_key_bar
from tests.test_rating_screen import _open
from tests.test_study_support import make_study, seed_db
from tui.app.rating.screen import RatingApp, RatingScreen
from tui.app.rating.widgets import AskText, UnitField


async def test_at_80x24_the_required_questions_fit_and_the_keys_are_named(
        tmp_path: Path) -> None:
    db = seed_db(tmp_path / "s.db")
    make_study(db, tmp_path)
    app = RatingApp(tmp_path / "s.db", "pilot", "alice")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot, app)
        await pilot.pause(0.2)
        form = screen.query_one("#form")
        required = [f for f in form.query(UnitField) if f.item.required]
        assert len(required) == 4
        for field in required:  # every required question wholly on screen, unscrolled
            assert form.region.contains_region(field.region), field.item.id
        hint = screen.query_one("#form-hint", Static)
        assert str(hint.render()) == "* must be answered; the rest is optional."
        assert form.region.contains_region(hint.region)
        lines = screen_lines(app)
        assert any("* must be answered" in line for line in lines)
        assert any("optional questions" in line for line in lines)
        bar = await settled_key_bar(pilot, screen, 80)
        assert ("0-9", "Score, 0=10") in bar and ("Tab", "Next") in bar
        assert ("q", "Quit") in bar and ("⏎", "Save") in bar


async def test_per_turn_questions_are_one_line_under_their_turn_and_reached_with_tab(
        tmp_path: Path) -> None:
    db = seed_db(tmp_path / "s.db")
    store = SqliteStudyStore(db)
    make_study(db, tmp_path)
    app = RatingApp(tmp_path / "s.db", "pilot", "alice")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot, app)
        await pilot.pause(0.2)
        per_turn = [f for f in screen.query_one("#transcript").query(UnitField)]
        assert per_turn and all(f.compact and not f.item.required for f in per_turn)
        by_turn: dict[int, list[UnitField]] = {}
        for f in per_turn:
            by_turn.setdefault(f.turn_idx, []).append(f)
        for fields in by_turn.values():  # one line per turn, however many questions
            assert {f.region.y for f in fields} == {fields[0].region.y}
            assert all(f.region.height == 1 for f in fields)
        honest = next(f for f in per_turn if f.item.id == "patient_honesty")
        assert str(honest.render()).startswith("Honest? yes no")
        # Keyboard only: the required scores, then Tab on to the first per-turn question.
        for digit in ("7", "8", "6", "5"):
            await pilot.press(digit, "tab")
        for _ in range(20):
            if isinstance(screen.focused, UnitField) and screen.focused.compact:
                break
            await pilot.press("tab")
        target = screen.focused
        assert isinstance(target, UnitField) and target.compact
        await pilot.press("y")
        assert target.value == "yes"
        aid = screen.item.assignment_id
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.item is None or screen.item.assignment_id != aid)
        ratings = store.assignment_ratings(aid)
        assert ratings[(target.item.id, target.turn_idx)] == ("yes", None)
        assert ratings[("realism_doctor", -1)] == ("7", None)


async def test_the_rater_name_is_found_in_any_case(tmp_path: Path) -> None:
    db = seed_db(tmp_path / "s.db")
    make_study(db, tmp_path)
    app = RatingApp(tmp_path / "s.db", "pilot", " ALICE ")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot, app)
        assert screen.item is not None
        assert " · alice · " in str(screen.query_one("#progress", Static).content)


async def test_the_app_prompt_lists_the_raters_and_takes_any_case(tmp_path: Path) -> None:
    from tui.app.application import BedsideApp

    db = seed_db(tmp_path / "s.db")
    sid = make_study(db, tmp_path)
    app = BedsideApp(tmp_path / "s.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_study(sid)
        await wait_until(pilot, lambda: isinstance(app.screen, AskText)
                         and app.screen.query(Input))
        prompt = app.screen._prompt
        assert "alice, bob, carol" in prompt and "upper or lower case" in prompt
        app.screen.query_one(Input).value = "Bob"
        await pilot.press("enter")
        screen = await _open(pilot, app)
        assert isinstance(screen, RatingScreen) and screen.rater_name == "bob"
