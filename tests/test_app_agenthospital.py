"""The Agent Hospital screens through the real engine: a physician takes the three tasks on
a generated patient (each answer stored with its seconds, the verdicts shown), then the
next patient; the Evolution screen shows a stored evolution's curves."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.widgets import OptionList

from core.agenthospital.tasks import key_of
from tests.app_support import painted_text, seed, wait_until
from tui.app.application import BedsideApp
from tui.app.screens.agenthospital import AgentHospitalScreen
from tui.app.screens.evolution import EvolutionScreen
from tui.cli import main


async def _choose(pilot, screen: AgentHospitalScreen, option: str) -> None:  # type: ignore[no-untyped-def]
    """Move to `option` in the task's list and press Enter."""
    await wait_until(pilot, lambda: screen.answer is not None)
    options = screen.query_one("#ah-options", OptionList)
    ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
    for _ in range(ids.index(option)):
        await pilot.press("down")
    await pilot.press("enter")


async def test_a_physician_takes_the_three_tasks_timed(tmp_path: Path) -> None:
    db = tmp_path / "b.db"
    seed(db)
    assert main(["agenthospital", "generate", "--test", "2", "--seed", "4", "--db",
                 str(db)]) == 0
    app = BedsideApp(db)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: bool(getattr(app.screen, "cases", None)))
        await pilot.press("t")
        await pilot.pause(0.2)
        await pilot.press(*"ana", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, AgentHospitalScreen))
        screen = app.screen
        assert isinstance(screen, AgentHospitalScreen)
        await wait_until(pilot, lambda: screen.case is not None)
        case = screen.case
        key = key_of(case)
        assert key is not None
        await _choose(pilot, screen, key.suitable[0])
        await wait_until(pilot, lambda: screen.question is not None and
                         screen.question.task == "diagnosis")
        # The finding of the chosen examination is in the record, and nothing else's.
        shown = screen.record.plain
        finding = next(i.value for i in [*case.physical_exam, *case.tests]
                       if i.name == key.suitable[0])
        assert finding in shown and (case.patient.opening or "") in shown
        await asyncio.sleep(1.1)  # the physician thinks for a second
        await _choose(pilot, screen, key.disease)
        await wait_until(pilot, lambda: screen.question is not None and
                         screen.question.task == "treatment")
        wrong = next(lv for lv in ("mild", "moderate", "severe") if lv != key.level)
        await _choose(pilot, screen, wrong)
        await wait_until(pilot, lambda: screen.finished and screen.question is None)
        text = painted_text(app)
        assert "diagnosis:" in text and "right" in text and "wrong" in text
        # What the physician should have answered is named as such, not as a second "right".
        assert "; suitable: " in text and f"; right answer: {key.disease}" in text
        assert "; right: " not in text
        row = app.store.get_consultation(screen.consultation_id)
        assert (row.doctor, row.status, row.diagnosis) == ("human:ana", "finished",
                                                           key.disease)
        values = app.store.get_metrics(row.id)
        assert [values[f"task_{t}"][0] for t in ("examination", "diagnosis", "treatment")] \
            == [1.0, 1.0, 0.0]
        assert values["task_diagnosis_seconds"][0] >= 1.0  # measured, stored
        first = case.id
        await pilot.press("n")
        await wait_until(pilot, lambda: screen.case is not None and screen.case.id != first
                         and screen.answer is not None)
        assert screen.played == 2


async def test_the_evolution_screen_shows_the_curves(tmp_path: Path) -> None:
    db = tmp_path / "e.db"
    # The command runs its own event loop: in a thread, beside the test's.
    assert await asyncio.to_thread(main, [
        "evolve", "--train", "20", "--test", "10", "--test-every", "10", "--arms", "none,both",
        "--name", "tiny", "--db", str(db), "--json"]) == 0
    app = BedsideApp(db)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: bool(getattr(app.screen, "cases", None)))
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, EvolutionScreen))
        screen = app.screen
        await wait_until(pilot, lambda: bool(screen.points))
        assert {p.arm for p in screen.points} == {"none", "both"}
        assert "tiny" in painted_text(app)
        await pilot.press("x")
        await wait_until(pilot, lambda: any((tmp_path / "exports").glob("evolution-*.csv")))
        csv = next((tmp_path / "exports").glob("evolution-*.csv")).read_text()
        assert csv.startswith("arm,task,seen,train_accuracy,test_accuracy,principles,wrong")
