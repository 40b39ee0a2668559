"""`bedside rate`: keys typed after Enter, while the save commits and the next transcript
loads, are never applied to the wrong question (issue 18, item 9).

Textual hands a key to the widget focused when it arrives, and a question handles the keys
of a burst before the screen has even started the save its Enter asked for: a digit typed
right after Enter changed the answer being saved, and `s` opened the skip dialog of a
transcript the rater had not seen. The keys are sent as a terminal delivers a fast burst:
all at once, without waiting for the app in between (`Pilot.press` waits after each key).
"""

from __future__ import annotations

from pathlib import Path

from textual import events
from textual.app import App

from db.study_store import SqliteStudyStore
from tests.app_support import wait_until
from tests.test_rating_screen import _open
from tests.test_study_support import make_study, seed_db
from tui.app.rating.screen import RatingApp, RatingScreen
from tui.app.rating.widgets import TextField, UnitField

FOUR = ["realism_doctor", "realism_patient", "realism_examiner", "empathy_doctor"]


def _burst(app: App, *keys: str) -> None:
    """Keys delivered back to back, as a terminal does when they are typed quickly."""
    for key in keys:
        event = events.Key(key, key if len(key) == 1 else None)
        event.set_sender(app)
        app._driver.send_message(event)  # type: ignore[union-attr]


def _study(tmp_path: Path) -> tuple[SqliteStudyStore, RatingApp]:
    db = seed_db(tmp_path / "s.db")
    make_study(db, tmp_path)
    return SqliteStudyStore(db), RatingApp(tmp_path / "s.db", "pilot", "alice")


async def _answered(tmp_path: Path, pilot, app: RatingApp) -> tuple[RatingScreen, str]:
    screen = await _open(pilot, app)
    fields = [f for f in screen.query(UnitField) if f.turn_idx == -1]
    for f in fields[:4]:
        f.set_value("6")
    fields[0].focus()
    await pilot.pause()
    return screen, screen.item.assignment_id


async def _next_loaded(pilot, screen: RatingScreen, first: str) -> None:
    await wait_until(pilot, lambda: screen.item is not None
                     and screen.item.assignment_id != first)
    for _ in range(3):
        await pilot.pause()


async def test_digits_typed_during_the_load_change_neither_transcript(tmp_path: Path) -> None:
    store, app = _study(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen, first = await _answered(tmp_path, pilot, app)
        _burst(app, "enter", "3", "tab", "2")
        await _next_loaded(pilot, screen, first)
        # saved as it was on screen when Enter was pressed
        assert store.assignment_ratings(first) == {(i, -1): ("6", None) for i in FOUR}
        # the next transcript got nothing it was not shown for
        assert all(v == (None, None) for v in screen.answers().values())
        assert isinstance(screen.focused, UnitField)
        assert screen.focused.unit == ("realism_doctor", -1)
        # keys typed once it is loaded answer it, as usual
        await pilot.press("4")
        assert screen.focused.value == "4"


async def test_a_skip_typed_during_the_load_does_not_skip_the_unseen_transcript(
        tmp_path: Path) -> None:
    _, app = _study(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen, first = await _answered(tmp_path, pilot, app)
        _burst(app, "enter", "s")
        await _next_loaded(pilot, screen, first)
        assert app.screen is screen  # no skip dialog over a transcript not yet seen


async def test_text_typed_after_enter_in_the_comment_box_is_not_saved(tmp_path: Path) -> None:
    store, app = _study(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen, first = await _answered(tmp_path, pilot, app)
        text = screen.query_one(TextField)
        text.set_value("clear")
        text.query_one("Input").focus()
        await pilot.pause()
        _burst(app, "enter", "x", "y")
        await _next_loaded(pilot, screen, first)
        saved = store.assignment_ratings(first)
        assert saved[(text.item.id, -1)] == ("clear", None)
