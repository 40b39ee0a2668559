"""Play as doctor through the real engine (retrieval patient and examiner, exact moderator):
a physician's session is stored turn by turn as `human:NAME`; leaving asks first; "next
unseen" honours the home filters in a per-physician order; the name is remembered; test
names complete from a general vocabulary; a used-up budget is scored as the table scores it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Input, Select

from core.caseio import load_bundled_cases
from tests.app_support import seed, wait_until
from tui.app.application import BedsideApp
from tui.app.screens.forms import DiagnosisScreen, PlaySetupScreen
from tui.app.widgets.confirm import ConfirmScreen
from tui.app.screens.home import HomeScreen
from tui.app.screens.play import PlayScreen
from core.usecases.play import pick_unseen, play_order
from core.usecases.results import baseline
from tui.app.widgets.test_vocabulary import TEST_NAMES


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The settings file (last physician name) lives in BEDSIDE_HOME: keep it in tmp_path.
    monkeypatch.setenv("BEDSIDE_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("BEDSIDE_DOCTOR", raising=False)


async def _start(pilot, app: BedsideApp, key: str, name: str = "Dr Who",
                 budget: str | None = None) -> PlayScreen:
    await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.cases)
    await pilot.press(key)
    await wait_until(pilot, lambda: isinstance(app.screen, PlaySetupScreen))
    app.screen.query_one("#setup-name", Input).value = name
    if budget is not None:
        app.screen.query_one("#setup-budget", Input).value = budget
    await pilot.click("#setup-start")
    # (On a one-turn budget the diagnosis form opens at once, above the play screen.)
    def play() -> PlayScreen | None:
        return next((s for s in app.screen_stack if isinstance(s, PlayScreen)), None)

    await wait_until(pilot, lambda: play() is not None and play().waiting)
    # Textual's Header sets its title in callbacks queued at mount; a screen left before they
    # ran made them fail (NoMatches: HeaderTitle) on a loaded machine. Let them run first.
    await wait_until(pilot, lambda: str(play().query_one("HeaderTitle").content).strip())
    return play()  # type: ignore[return-value]


async def _type(pilot, widget_id: str, text: str) -> None:
    await pilot.click(f"#{widget_id}")
    app = pilot.app
    app.screen.query_one(f"#{widget_id}", Input).value = text
    await pilot.press("enter")


def _status(play: PlayScreen) -> str:
    return str(play.query_one("#play-status").render())


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_played_consultation_is_stored_turn_by_turn(tmp_path: Path, size) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=size) as pilot:
        play = await _start(pilot, app, "n")
        assert play.hidden
        assert "hidden until the end" in _status(play) and play.case.title not in _status(play)
        await _type(pilot, "ask", "Where is the pain [bold]exactly[/]?")
        await wait_until(pilot, lambda: play.turns_used == 1 and play.waiting)
        rows = list(app.db["turns"].rows_where("consultation_id = ?", [play.consultation_id],
                                                order_by="idx"))
        assert [r["role"] for r in rows] == ["doctor", "patient"]  # stored already
        assert rows[0]["content"] == "Where is the pain [bold]exactly[/]?"
        await _type(pilot, "order", "Electrocardiogram")
        await wait_until(pilot, lambda: play.turns_used == 2 and play.waiting)
        await pilot.press("ctrl+d")
        await wait_until(pilot, lambda: isinstance(app.screen, DiagnosisScreen))
        app.screen.query_one("#dx-diagnosis", Input).value = play.case.truth.diagnosis
        await pilot.click("#dx-commit")
        await wait_until(pilot, lambda: play.finished)
        assert play.outcome is not None and play.outcome.correct is True
        assert play.case.id in _status(play)
        row = app.db["consultations"].get(play.consultation_id)
        assert row["doctor"] == "human:dr-who" and row["status"] == "finished"
        assert row["doctor_turns"] == 3 and row["tests_ordered"] == 1 and row["correct"] == 1
        turns = list(app.db["turns"].rows_where("consultation_id = ?", [play.consultation_id]))
        assert len(turns) == 5 and all(t["latency_ms"] for t in turns if t["role"] == "doctor")
        await pilot.press("escape")  # over: no question asked
        home = app.screen
        assert isinstance(home, HomeScreen)
        assert home.query_one("#consultations-table").row_count == 2
        summary = {b.doctor: b for b in baseline(app.store)}
        assert summary["human:dr-who"].n == 1 and summary["human:dr-who"].accuracy == 1.0


async def test_escape_asks_before_leaving_and_leaving_stores_cancelled(tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        play = await _start(pilot, app, "p", name="ana")
        assert not play.hidden
        await _type(pilot, "ask", "Any fever?")
        await wait_until(pilot, lambda: play.turns_used == 1 and play.waiting)
        await pilot.click("#ask")
        await pilot.press("escape")  # even from the question box: a question, not an exit
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await wait_until(pilot, lambda: app.screen is play)
        assert app.db["consultations"].get(play.consultation_id)["status"] == "running"
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("escape")  # Escape on the question means "stay"
        await wait_until(pilot, lambda: app.screen is play)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: app.db["consultations"].get(play.consultation_id)["status"]
                    == "cancelled")
        row = app.db["consultations"].get(play.consultation_id)
        assert row["end_reason"] == "cancelled" and row["doctor"] == "human:ana"
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen))


async def test_next_unseen_skips_played_cases(tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.cases)
        from db.cases import save_cases

        all_cases = await app.library()
        for case in all_cases:
            app.db["consultations"].insert({"id": f"x-{case.id}", "case_id": case.id,
                                            "doctor": "human:bo", "status": "finished"})
        extra = all_cases[0].model_copy(update={"id": "zz-unseen"})
        save_cases(app.db, [extra])
        play = await _start(pilot, app, "n", name="bo")
        assert play.case.id == "zz-unseen" and play.hidden


async def test_next_unseen_follows_the_filters(tmp_path: Path) -> None:
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.cases)
        home = app.screen
        languages = {c.language for c in home.cases}
        assert "en" in languages and len(languages) > 1
        for language in sorted(languages - {"en"}):
            home.query_one("#filter-language", Select).value = language
            await pilot.pause()
            play = await _start(pilot, app, "n", name="dr-lang")
            assert play.case.language == language and play.hidden
            play.leave_now()
            await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen))


async def test_next_unseen_says_when_everything_was_played(tmp_path: Path) -> None:
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.cases)
        from db.cases import save_cases

        for case in await app.library():
            save_cases(app.db, [case])
            app.db["consultations"].insert({"id": f"x-{case.id}", "case_id": case.id,
                                            "doctor": "human:bo", "status": "finished"})
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, PlaySetupScreen))
        app.screen.query_one("#setup-name", Input).value = "bo"
        await pilot.click("#setup-start")
        await wait_until(pilot, lambda: any("every case" in str(n.message)
                                       for n in app._notifications))
        assert isinstance(app.screen, HomeScreen)


async def test_setup_rejects_an_empty_name(tmp_path: Path) -> None:
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.cases)
        await pilot.press("p")
        await wait_until(pilot, lambda: isinstance(app.screen, PlaySetupScreen))
        app.screen.query_one("#setup-name", Input).value = ""
        await pilot.click("#setup-start")
        assert isinstance(app.screen, PlaySetupScreen)
        assert "name" in str(app.screen.query_one("#setup-error").render())


def test_unseen_order_is_seeded_per_physician_not_by_id() -> None:
    cases = load_bundled_cases()
    ids = sorted(c.id for c in cases)
    orders = {name: play_order(ids, name) for name in ("ana", "bo", "cy", "dee")}
    assert all(sorted(o) == ids for o in orders.values())
    assert play_order(ids, "ana") == orders["ana"]  # the same physician: the same order
    assert len({o[0] for o in orders.values()}) > 1  # not everyone starts with one case
    assert any(o != ids for o in orders.values())
    # The first unseen in that order, within the filters; None when all were played.
    first = pick_unseen(cases, set(), {"language": "en"}, "ana")
    assert first is not None and first.language == "en"
    en_ids = [i for i in orders["ana"] if next(c for c in cases if c.id == i).language == "en"]
    assert first.id == en_ids[0]
    assert pick_unseen(cases, set(ids), {}, "ana") is None


async def test_the_last_name_is_remembered_in_the_settings_file(tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        play = await _start(pilot, app, "p", name="Dr Lee")
        play.leave_now()
    saved = json.loads((tmp_path / "home" / "settings.json").read_text(encoding="utf-8"))
    assert saved == {"doctor_name": "dr-lee", "doctor_languages": []}
    app = BedsideApp(tmp_path / "b.db")  # a new session offers the name again
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.cases)
        await pilot.press("p")
        await wait_until(pilot, lambda: isinstance(app.screen, PlaySetupScreen))
        assert app.screen.query_one("#setup-name", Input).value == "dr-lee"


async def test_test_names_complete_the_last_item_on_any_word(tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        play = await _start(pilot, app, "p", name="ana")
        box = play.query_one("#order", Input)
        assert box.vocabulary == TEST_NAMES  # general, never the case's own test list
        await pilot.click("#order")
        await pilot.press(*"ECG, Trop")
        await pilot.pause()
        assert box.completions[:2] == ["Troponin", "Cardiac troponin"]
        await pilot.press("right")
        assert box.value == "ECG, Troponin"
        await pilot.press("right")  # the next name offered: a later word matched
        assert box.value == "ECG, Cardiac troponin"
        await pilot.press("enter")
        await wait_until(pilot, lambda: play.turns_used == 1 and play.waiting)
        ordered = app.db.execute("SELECT content FROM turns WHERE consultation_id = ? AND"
                                 " role = 'doctor'", [play.consultation_id]).fetchone()[0]
        assert ordered == "REQUEST TEST: ECG, Cardiac troponin"


async def test_used_up_budget_reveals_no_diagnosis_as_wrong(tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        play = await _start(pilot, app, "p", name="ana", budget="1")
        assert "(1 left)" in _status(play) and "last turn" in _status(play)
        # The last turn opens the diagnosis form; going back and asking uses it up.
        await wait_until(pilot, lambda: isinstance(app.screen, DiagnosisScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is play)
        await _type(pilot, "ask", "Any fever?")
        await wait_until(pilot, lambda: play.finished)
        row = app.db["consultations"].get(play.consultation_id)
        assert (row["status"], row["end_reason"], row["diagnosis"]) == ("finished", "budget",
                                                                        None)
        reveal = str(play.query_one("#play-reveal").render())
        assert "no diagnosis (counts as wrong)" in reveal and "undecided" not in reveal
        assert not play.query_one("#play-inputs").display  # room for the verdict


async def test_status_keeps_turns_and_time_visible_at_80_columns(tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    app.clock = lambda: 1000.0  # frozen: 00:00
    async with app.run_test(size=(80, 24)) as pilot:
        play = await _start(pilot, app, "p", name="ana")
        await _type(pilot, "ask", "Any fever?")
        await wait_until(pilot, lambda: play.turns_used == 1 and play.waiting)
        await pilot.pause()
        status = play.query_one("#play-status")
        lines = [strip.text for strip in status.render_lines(status.region.reset_offset)]
        shown = " ".join(line.strip() for line in lines)
        assert "Turn 1/20 (19 left)" in shown and "00:00" in shown
        assert play.case.id in shown  # wrapped, not cut
