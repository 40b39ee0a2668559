"""Play as doctor through the real engine (retrieval patient and examiner, exact moderator):
no stand-in, so what a physician sees and what the store keeps are the engine's own."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from core.caseio import load_bundled_cases
from tests.app_support import seed, wait_until
from tests.test_app_play import _start, _type
from tui.app.application import BedsideApp
from tui.app.screens.forms import DiagnosisScreen


async def test_real_engine_session_is_stored_turn_by_turn(tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        play = await _start(pilot, app, "p", name="dr-real")
        case = next(c for c in load_bundled_cases() if c.id == play.case.id)
        await _type(pilot, "ask", "What brings you in today?")
        await wait_until(pilot, lambda: play.turns_used == 1 and play.waiting)
        rows = list(app.db["turns"].rows_where("consultation_id = ?", [play.consultation_id],
                                                order_by="idx"))
        assert [r["role"] for r in rows] == ["doctor", "patient"]
        assert rows[1]["content"].strip()  # the retrieval patient answered
        assert case.truth.diagnosis.lower() not in rows[1]["content"].lower()
        test_name = case.tests[0].name
        await _type(pilot, "order", test_name)
        await wait_until(pilot, lambda: play.turns_used == 2 and play.waiting)
        result = list(app.db["turns"].rows_where(
            "consultation_id = ? AND role = 'examiner'", [play.consultation_id]))
        assert len(result) == 1
        stored = case.tests[0].value or case.tests[0].children[0].value
        assert stored in result[0]["content"]  # results are returned verbatim
        await pilot.press("ctrl+d")
        await wait_until(pilot, lambda: isinstance(app.screen, DiagnosisScreen))
        app.screen.query_one("#dx-diagnosis", Input).value = case.truth.diagnosis
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: play.finished)
        row = app.db["consultations"].get(play.consultation_id)
        assert (row["doctor"], row["status"], row["end_reason"], row["correct"]) == \
            ("human:dr-real", "finished", "diagnosis", 1)
        assert row["tests_ordered"] == 1 and row["doctor_turns"] == 3
