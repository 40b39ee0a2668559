"""What a physician meets when playing doctor (issue 16), through the real engine and the
real app: result tables keep panel headings apart, the last turn is announced and the
diagnosis form offered, the languages a physician reads steer "Next unseen", what was
written in the diagnosis form is shown again, the transcript scrolls from the keyboard
while typing, and the words used agree with the tables."""

from __future__ import annotations

from pathlib import Path

from tests.app_support import screen_lines, seed, wait_until
from tests.test_app_play import _start, _type
from tui.app.application import BedsideApp
from tui.app.screens.transcript import TranscriptScreen
from tui.app.widgets.transcript_view import result_rows

# The retrieval examiner's report for an ECG and two panels of card-001, as stored.
PANELS = ("Electrocardiogram: Sinus bradycardia 52/min. ST elevation of 3 mm in II, III and "
          "aVF.\nComplete blood count\n  Haemoglobin: 148 g/L (130-170)\n  Platelets: 254 "
          "x10^9/L (150-400)\nBasic metabolic panel\n  Sodium: 139 mmol/L (135-145)")


def test_a_panel_heading_is_a_row_of_its_own_not_the_end_of_the_row_above() -> None:
    assert result_rows(PANELS) == [
        ("Electrocardiogram", "Sinus bradycardia 52/min. ST elevation of 3 mm in II, III "
                              "and aVF."),
        ("Complete blood count", ""), ("  Haemoglobin", "148 g/L (130-170)"),
        ("  Platelets", "254 x10^9/L (150-400)"), ("Basic metabolic panel", ""),
        ("  Sodium", "139 mmol/L (135-145)")]
    # A wrapped value (no deeper line after it) still continues the row above.
    assert result_rows("Chest X-ray: patchy shadowing\nin the right lower zone") == [
        ("Chest X-ray", "patchy shadowing in the right lower zone")]


def _row_with(lines: list[str], word: str) -> str:
    return next(line for line in lines if word in line)


async def test_panels_ordered_in_play_show_their_headings_on_their_own_rows(
        tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(120, 40)) as pilot:
        play = await _start(pilot, app, "p", name="ana")
        assert play.case.id == "card-001"
        await _type(pilot, "order", "ECG, full blood count, basic metabolic panel")
        await wait_until(pilot, lambda: play.turns_used == 1 and play.waiting)
        await pilot.pause(0.2)
        lines = screen_lines(app)
        assert "Basic metabolic panel" not in _row_with(lines, "Platelets")
        assert "Complete blood count" not in _row_with(lines, "Electrocardiogram")
        heading = _row_with(lines, "Basic metabolic panel")
        assert "mmol" not in heading and "x10^9" not in heading
        cid = play.consultation_id
        await pilot.press("escape")
        await pilot.press("y")
        await wait_until(pilot, lambda: not isinstance(app.screen, type(play)))
        await app.push_screen(TranscriptScreen(cid))
        await pilot.pause(0.3)
        lines = screen_lines(app)
        assert "Basic metabolic panel" not in _row_with(lines, "Platelets")
