"""Play as doctor: a physician's session is stored turn by turn as `human:NAME`.

The engine is replaced by the scripted stand-in of test_app_support so these tests check
the app's wiring: inputs → human doctor, events → recorder rows, reveal, cancellation.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

import tui.screens.engine_bridge as bridge
from tests.app_support import fake_config, fake_engine, seed
from tui.app import BedsideApp
from tui.screens.forms import DiagnosisScreen, PlaySetupScreen
from tui.screens.home import HomeScreen
from tui.screens.play import PlayScreen
from tui.screens.queries import baseline, wilson


@pytest.fixture(autouse=True)
def _fake_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bridge, "load_engine", fake_engine)
    monkeypatch.setattr(bridge, "human_config", fake_config)


async def _wait(pilot, predicate, tries: int = 200) -> None:
    for _ in range(tries):
        if predicate():
            return
        await pilot.pause(0.05)
    raise AssertionError("condition not reached")


async def _start(pilot, app: BedsideApp, key: str, name: str = "Dr Who") -> PlayScreen:
    await _wait(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.cases)
    await pilot.press(key)
    await _wait(pilot, lambda: isinstance(app.screen, PlaySetupScreen))
    name_box = app.screen.query_one("#setup-name", Input)
    name_box.value = name
    await pilot.click("#setup-start")
    await _wait(pilot, lambda: isinstance(app.screen, PlayScreen) and app.screen.waiting)
    return app.screen  # type: ignore[return-value]


async def _type(pilot, widget_id: str, text: str) -> None:
    await pilot.click(f"#{widget_id}")
    app = pilot.app
    app.screen.query_one(f"#{widget_id}", Input).value = text
    await pilot.press("enter")


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_played_consultation_is_stored_turn_by_turn(tmp_path: Path, size) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=size) as pilot:
        play = await _start(pilot, app, "n")
        assert play.hidden
        status = str(play.query_one("#play-status").render())
        assert "hidden until the end" in status and play.case.title not in status
        await _type(pilot, "ask", "Where is the pain [bold]exactly[/]?")
        await _wait(pilot, lambda: play.turns_used == 1 and play.waiting)
        rows = list(app.db["turns"].rows_where("consultation_id = ?", [play.consultation_id],
                                                order_by="idx"))
        assert [r["role"] for r in rows] == ["doctor", "patient"]  # stored already
        assert rows[0]["content"] == "Where is the pain [bold]exactly[/]?"
        await _type(pilot, "order", "Electrocardiogram")
        await _wait(pilot, lambda: play.turns_used == 2 and play.waiting)
        await pilot.press("ctrl+d")
        await _wait(pilot, lambda: isinstance(app.screen, DiagnosisScreen))
        app.screen.query_one("#dx-diagnosis", Input).value = play.case.truth.diagnosis
        await pilot.click("#dx-commit")
        await _wait(pilot, lambda: play.finished)
        assert play.outcome is not None and play.outcome.correct is True
        assert play.case.id in str(play.query_one("#play-status").render())
        row = app.db["consultations"].get(play.consultation_id)
        assert row["doctor"] == "human:dr-who" and row["status"] == "finished"
        assert row["doctor_turns"] == 3 and row["tests_ordered"] == 1 and row["correct"] == 1
        turns = list(app.db["turns"].rows_where("consultation_id = ?", [play.consultation_id]))
        assert len(turns) == 5 and all(t["latency_ms"] for t in turns if t["role"] == "doctor")
        await pilot.press("escape")
        home = app.screen
        assert isinstance(home, HomeScreen)
        assert home.query_one("#consultations-table").row_count == 2
        summary = {b.doctor: b for b in baseline(app.db)}
        assert summary["human:dr-who"].n == 1 and summary["human:dr-who"].accuracy == 1.0


async def test_leaving_mid_session_stores_it_as_cancelled(tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        play = await _start(pilot, app, "p", name="ana")
        assert not play.hidden
        await _type(pilot, "ask", "Any fever?")
        await _wait(pilot, lambda: play.turns_used == 1 and play.waiting)
        await pilot.press("escape")
        await _wait(pilot, lambda: app.db["consultations"].get(play.consultation_id)["status"]
                    == "cancelled")
        row = app.db["consultations"].get(play.consultation_id)
        assert row["end_reason"] == "cancelled" and row["doctor"] == "human:ana"
        assert isinstance(app.screen, HomeScreen)


async def test_next_unseen_skips_played_cases(tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await _wait(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.cases)
        from db.cases import save_cases

        all_cases = await app.library()
        for case in all_cases:
            app.db["consultations"].insert({"id": f"x-{case.id}", "case_id": case.id,
                                            "doctor": "human:bo", "status": "finished"})
        extra = all_cases[0].model_copy(update={"id": "zz-unseen"})
        save_cases(app.db, [extra])
        play = await _start(pilot, app, "n", name="bo")
        assert play.case.id == "zz-unseen" and play.hidden


async def test_next_unseen_says_when_everything_was_played(tmp_path: Path) -> None:
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await _wait(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.cases)
        from db.cases import save_cases

        for case in await app.library():
            save_cases(app.db, [case])
            app.db["consultations"].insert({"id": f"x-{case.id}", "case_id": case.id,
                                            "doctor": "human:bo", "status": "finished"})
        await pilot.press("n")
        await _wait(pilot, lambda: isinstance(app.screen, PlaySetupScreen))
        app.screen.query_one("#setup-name", Input).value = "bo"
        await pilot.click("#setup-start")
        await _wait(pilot, lambda: any("every case" in str(n.message)
                                       for n in app._notifications))
        assert isinstance(app.screen, HomeScreen)


async def test_setup_rejects_an_empty_name(tmp_path: Path) -> None:
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await _wait(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.cases)
        await pilot.press("p")
        await _wait(pilot, lambda: isinstance(app.screen, PlaySetupScreen))
        await pilot.click("#setup-start")
        assert isinstance(app.screen, PlaySetupScreen)
        assert "name" in str(app.screen.query_one("#setup-error").render())


def test_wilson_interval_matches_hand_values() -> None:
    # k=5, n=10, z=1.96: p=.5, denom=1.38416, centre=.5, half=1.96*sqrt(.025+.009604)/1.38416
    # = 1.96*0.186022/1.38416 = 0.263414 → (0.2366, 0.7634) (the published Wilson interval).
    lo, hi = wilson(5, 10)
    assert round(lo, 4) == 0.2366 and round(hi, 4) == 0.7634
    assert wilson(0, 0) == (0.0, 0.0)
    lo, hi = wilson(10, 10)
    assert hi == 1.0 and round(lo, 4) == 0.7225
