"""The rating screen end to end with Pilot: scores, undo, skip, comment, resume, two raters
in one process (two processes: test_rating_crash.py), the home-screen entry.

Blinding and layout (scrolling, focus, Tab, footer, unsaved answers) are in
test_rating_blinding.py and test_rating_keys.py."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Static

from db.study_store import SqliteStudyStore
from db.connection import open_db
from tests.app_support import wait_until
from tests.test_study_support import make_study, seed_db
from tui.app.rating.screen import RatingApp, RatingScreen
from tui.app.rating.widgets import AskText, InstructionsScreen, UnitField

TRANSCRIPT_ITEMS = ["realism_doctor", "realism_patient", "realism_examiner", "empathy_doctor"]




async def _open(pilot, app: RatingApp) -> RatingScreen:
    await wait_until(pilot, lambda: isinstance(app.screen, (RatingScreen, InstructionsScreen)))
    if isinstance(app.screen, InstructionsScreen):
        await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, RatingScreen)
                and (app.screen.item is not None or app.screen.query("#finished")))
    return app.screen  # type: ignore[return-value]


async def _rate_current(pilot, screen: RatingScreen, keys: list[str]) -> str:
    """Type one digit per transcript-level scale (Tab between), Enter; return assignment id."""
    aid = screen.item.assignment_id
    fields = [f for f in screen.query(UnitField) if f.turn_idx == -1]
    fields[0].focus()
    await pilot.pause()
    for key in keys:
        await pilot.press(key, "tab")
    await pilot.press("enter")
    await wait_until(pilot, lambda: screen.item is None or screen.item.assignment_id != aid)
    return aid


async def test_rate_undo_skip_comment_and_resume(tmp_path: Path) -> None:
    db = seed_db(tmp_path / "s.db")
    store = SqliteStudyStore(db)
    sid = make_study(db, tmp_path)
    alice = store.get_rater("alice").id
    total = len(store.assignments(sid, alice))
    app = RatingApp(tmp_path / "s.db", "pilot", "alice")
    async with app.run_test(size=(140, 50)) as pilot:
        screen = await _open(pilot, app)
        assert "0 / " in str(screen.query_one("#progress", Static).content)
        first = await _rate_current(pilot, screen, ["7", "0", "5", "3"])
        rows = store.assignment_ratings(first)
        assert {k: v for (k, _), (v, _) in rows.items()} == {
            "realism_doctor": "7", "realism_patient": "10", "realism_examiner": "5",
            "empathy_doctor": "3"}
        assert f"1 / {total}" in str(screen.query_one("#progress", Static).content)

        # undo brings the transcript back with its answers filled in, not saved
        await pilot.press("u")
        await wait_until(pilot, lambda: screen.item and screen.item.assignment_id == first)
        assert store.assignment_ratings(first) == {}
        values = {f.item.id: f.value for f in screen.query(UnitField) if f.turn_idx == -1}
        assert values["realism_patient"] == "10"

        # change one score, comment on it, answer a per-turn item, save again
        field = next(f for f in screen.query(UnitField) if f.item.id == "empathy_doctor")
        field.focus()
        await pilot.press("8", "c")
        await wait_until(pilot, lambda: isinstance(app.screen, AskText) and app.screen.query(Input))
        app.screen.query_one(Input).value = "kind but brief"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, RatingScreen))
        honesty = next(f for f in screen.query(UnitField) if f.item.id == "patient_honesty")
        honesty.focus()
        await pilot.press("n", "enter")
        await wait_until(pilot, lambda: screen.item is None or screen.item.assignment_id != first)
        rows = store.assignment_ratings(first)
        assert rows[("empathy_doctor", -1)] == ("8", "kind but brief")
        assert rows[("patient_honesty", 2)] == ("no", None)

        # a missing required answer blocks the save
        second = screen.item.assignment_id
        await pilot.press("enter")
        await pilot.pause()
        assert screen.item.assignment_id == second
        assert store.assignment_ratings(second) == {}

        # skip with a reason
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, AskText) and app.screen.query(Input))
        app.screen.query_one(Input).value = "transcript truncated"
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.item and screen.item.assignment_id != second)
        assert store.get_assignment(second).status == "skipped"
        assert store.get_assignment(second).skip_reason == "transcript truncated"
        third = screen.item.assignment_id
        await pilot.press("q")
    # resume exactly where alice left off
    app = RatingApp(tmp_path / "s.db", "pilot", "alice")
    async with app.run_test(size=(140, 50)) as pilot:
        screen = await _open(pilot, app)
        assert screen.item.assignment_id == third
        assert f"2 / {total}" in str(screen.query_one("#progress", Static).content)


async def test_two_raters_share_one_database_and_see_only_their_own(tmp_path: Path) -> None:
    db = seed_db(tmp_path / "s.db")
    sid = make_study(db, tmp_path)
    apps = [RatingApp(tmp_path / "s.db", "pilot", n) for n in ("alice", "bob")]
    async with apps[0].run_test(size=(140, 50)) as p1, apps[1].run_test(size=(140, 50)) as p2:
        s1, s2 = await _open(p1, apps[0]), await _open(p2, apps[1])
        # both start with the shared calibration transcript
        c1 = db["assignments"].get(s1.item.assignment_id)["consultation_id"]
        c2 = db["assignments"].get(s2.item.assignment_id)["consultation_id"]
        assert c1 == c2
        await _rate_current(p1, s1, ["2", "2", "2", "2"])
        await _rate_current(p2, s2, ["9", "9", "9", "9"])
        await _rate_current(p1, s1, ["4", "4", "4", "4"])
    check_store = SqliteStudyStore(open_db(tmp_path / "s.db"))
    by_rater = {r.name: r.id for r in check_store.study_raters(sid)}
    assert check_store.progress(sid, by_rater["alice"]).finished == 2
    assert check_store.progress(sid, by_rater["bob"]).finished == 1
    # bob's screen on the shared transcript never held alice's answers
    shared = check_store.find_assignment(sid, by_rater["bob"], c1)
    assert {v for v, _ in check_store.assignment_ratings(shared.id).values()} == {"9"}


async def test_home_screen_entry_asks_the_rater_name(tmp_path: Path) -> None:
    from tui.app.application import BedsideApp

    db = seed_db(tmp_path / "s.db")
    sid = make_study(db, tmp_path)
    app = BedsideApp(tmp_path / "s.db")
    async with app.run_test(size=(140, 50)) as pilot:
        await pilot.pause()
        app.open_study(sid)
        await wait_until(pilot, lambda: isinstance(app.screen, AskText) and app.screen.query(Input))
        app.screen.query_one(Input).value = "bob"
        await pilot.press("enter")
        screen = await _open(pilot, app)
        assert screen.rater_name == "bob" and screen.item is not None
        await pilot.press("q")
        await wait_until(pilot, lambda: not isinstance(app.screen, RatingScreen))


async def test_home_screen_entry_with_an_unknown_name_asks_again(tmp_path: Path) -> None:
    from tui.app.application import BedsideApp

    db = seed_db(tmp_path / "s.db")
    sid = make_study(db, tmp_path)
    app = BedsideApp(tmp_path / "s.db")
    async with app.run_test(size=(140, 50)) as pilot:
        await pilot.pause()
        app.open_study(sid)
        await wait_until(pilot, lambda: isinstance(app.screen, AskText) and app.screen.query(Input))
        first = app.screen
        app.screen.query_one(Input).value = "mallory"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, AskText) and app.screen is not first
                         and app.screen.query(Input))
        assert "'mallory' is not a rater of this study" in app.screen._prompt
        assert not any(isinstance(s, RatingScreen) for s in app.screen_stack)
        await pilot.press("escape")  # Escape gives up
        await wait_until(pilot, lambda: not isinstance(app.screen, (AskText, RatingScreen)))


def test_cli_refuses_an_unknown_rater_without_naming_the_others(tmp_path: Path, capsys) -> None:
    from tui.cli import main

    db = seed_db(tmp_path / "s.db", n=2)
    make_study(db, tmp_path, 'name = "pilot"\nraters = ["alice", "zebedee"]\noverlap = 1\n')
    db.close()
    code = main(["--db", str(tmp_path / "s.db"), "rate", "--study", "pilot",
                 "--rater", "mallory"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.strip() == ("bedside: field '--rater': rater 'mallory' is not in study "
                           "'pilot'; ask the study owner")
    assert "alice" not in err and "zebedee" not in err
    assert main(["--db", str(tmp_path / "s.db"), "rate", "--study", "nope",
                 "--rater", "alice"]) == 2
    assert "no study 'nope'" in capsys.readouterr().err


async def test_undoing_twice_keeps_both_transcripts_prefilled(tmp_path: Path) -> None:
    db = seed_db(tmp_path / "s.db")
    store = SqliteStudyStore(db)
    make_study(db, tmp_path)
    app = RatingApp(tmp_path / "s.db", "pilot", "alice")
    async with app.run_test(size=(140, 50)) as pilot:
        screen = await _open(pilot, app)
        first = await _rate_current(pilot, screen, ["1", "2", "3", "4"])
        second = await _rate_current(pilot, screen, ["5", "6", "7", "8"])
        for expected in (second, first):
            await pilot.press("u")
            await wait_until(pilot, lambda e=expected: screen.item and screen.item.assignment_id == e)
        shown = {f.item.id: f.value for f in screen.query(UnitField) if f.turn_idx == -1}
        assert [shown[i] for i in TRANSCRIPT_ITEMS] == ["1", "2", "3", "4"]
        # saving the first again leads to the second, still filled in from its history
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.item and screen.item.assignment_id == second)
        shown = {f.item.id: f.value for f in screen.query(UnitField) if f.turn_idx == -1}
        assert [shown[i] for i in TRANSCRIPT_ITEMS] == ["5", "6", "7", "8"]
        # one rating row per unit, its history continuous: set, undo, set
        rid = db.execute("SELECT id FROM ratings WHERE assignment_id = ? AND item ="
                         " 'realism_doctor'", [first]).fetchone()[0]
        assert [h.action for h in store.rating_history(first)
                if h.rating_id == rid] == ["set", "undo", "set"]
