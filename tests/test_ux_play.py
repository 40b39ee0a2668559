"""What a physician meets when playing doctor (issue 16), through the real engine and the
real app: result tables keep panel headings apart, the last turn is announced and the
diagnosis form offered, the languages a physician reads steer "Next unseen", what was
written in the diagnosis form is shown again, the transcript scrolls from the keyboard
while typing, and the words used agree with the tables."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from textual.widgets import Input, Select, TextArea

from core.caseio import load_bundled_cases
from core.errors import InputError
from core.usecases.play import parse_languages, pick_unseen, reads
from tests.app_support import home_loaded, screen_lines, seed, wait_until
from tests.test_app_play import _start, _type
from tui.app.application import BedsideApp
from tui.app.screens.forms import DiagnosisScreen, PlaySetupScreen
from tui.app.screens.home import MINE, HomeScreen
from tui.app.screens.play import PlayScreen
from tui.app.screens.transcript import TranscriptScreen
from tui.app.widgets.transcript_view import Outcome, TranscriptView, render_outcome, result_rows

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


# -- the last turn ------------------------------------------------------------------------

async def test_the_last_turn_opens_the_diagnosis_form_and_a_diagnosis_counts(
        tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        play = await _start(pilot, app, "p", name="ana", budget="2")
        assert not isinstance(app.screen, DiagnosisScreen)  # turn 1 of 2: not yet
        await _type(pilot, "ask", "Where is the pain?")
        # Turn 2 of 2: announced, and the form is there without asking for it.
        await wait_until(pilot, lambda: isinstance(app.screen, DiagnosisScreen))
        assert "Last turn" in str(app.screen.query_one("#dx-last-turn").render())
        assert app.screen.query_one("#dx-commit").region.bottom <= 24  # all of it fits
        assert "last turn" in str(play.query_one("#play-status").render())
        app.screen.query_one("#dx-diagnosis", Input).value = play.case.truth.diagnosis
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: play.finished)
        row = app.db["consultations"].get(play.consultation_id)
        assert (row["end_reason"], row["doctor_turns"], row["correct"]) == ("diagnosis", 2, 1)


def test_a_turn_not_taken_is_not_counted() -> None:
    # Cancelled while the physician was still deciding the first turn: 0 turns, not 1.
    import asyncio

    from core.engine import run_consultation
    from core.events import ConsultationFailed
    from core.usecases.play import human_config

    case = next(c for c in load_bundled_cases() if c.id == "card-001")
    events: list[object] = []
    cancel = asyncio.Event()

    class Sink:
        def emit(self, event: object) -> None:
            events.append(event)

    async def never(*_: object) -> str:
        cancel.set()
        await asyncio.sleep(3600)
        return ""

    async def play() -> None:
        await run_consultation(case, human_config("ana"), Sink(), consultation_id="c-0",
                               cancel_event=cancel, human_input=never)

    asyncio.run(play())
    failed = [e for e in events if isinstance(e, ConsultationFailed)]
    assert len(failed) == 1 and failed[0].doctor_turns == 0


# -- what the physician wrote, shown again --------------------------------------------------

async def test_the_diagnosis_form_is_shown_again_in_the_reveal_and_the_transcript(
        tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        play = await _start(pilot, app, "p", name="ana")
        await pilot.press("ctrl+d")
        await wait_until(pilot, lambda: isinstance(app.screen, DiagnosisScreen))
        form = app.screen
        rationale = form.query_one("#dx-rationale", TextArea)
        assert rationale.size.height >= 4  # several lines, at 80x24
        assert form.query_one("#dx-commit").region.bottom <= 24  # and the buttons fit
        form.query_one("#dx-diagnosis", Input).value = "Myocardial infarction [inferior]"
        form.query_one("#dx-differential", Input).value = "aortic dissection; pericarditis"
        rationale.text = "ST elevation in II, III, aVF\nreciprocal changes"
        form.query_one("#dx-treatment", TextArea).text = "Aspirin, primary PCI"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: play.finished)
        row = app.db["consultations"].get(play.consultation_id)
        assert row["diagnosis"] == "Myocardial infarction [inferior]"  # the "]" is kept
        reveal = str(play.query_one("#play-reveal").render())
        for shown in ("Myocardial infarction [inferior]", "aortic dissection; pericarditis",
                      "reciprocal changes", "Aspirin, primary PCI"):
            assert shown in reveal, shown
        cid = play.consultation_id
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, type(play)))
        await app.push_screen(TranscriptScreen(cid))
        await pilot.pause(0.2)
        outcome = str(app.screen.query_one("#outcome").render())
        assert "aortic dissection; pericarditis" in outcome
        assert "Aspirin, primary PCI" in outcome and "reciprocal changes" in outcome


async def test_page_keys_scroll_the_transcript_while_typing(tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        play = await _start(pilot, app, "p", name="ana")
        for n in range(1, 5):
            await _type(pilot, "order", "ECG, full blood count, basic metabolic panel")
            await wait_until(pilot, lambda n=n: play.turns_used == n and play.waiting)
        view = play.query_one(TranscriptView)
        await pilot.pause(0.2)
        assert view.max_scroll_y > 0 and view.scroll_y == view.max_scroll_y
        play.query_one("#ask", Input).focus()
        await pilot.press("pageup")
        await wait_until(pilot, lambda: view.scroll_y < view.max_scroll_y)
        assert app.focused is play.query_one("#ask", Input)  # still typing there
        await pilot.press("pagedown", "pagedown", "pagedown", "pagedown")
        await wait_until(pilot, lambda: view.scroll_y == view.max_scroll_y)


# -- words --------------------------------------------------------------------------------

def test_the_reveal_says_wrong_as_the_tables_do_and_the_end_reason_in_words() -> None:
    shown = render_outcome(Outcome(end_reason="diagnosis", diagnosis="Gout", correct=False,
                                   status="finished")).plain
    assert "Verdict: wrong" in shown and "incorrect" not in shown
    shown = render_outcome(Outcome(end_reason="budget", status="finished")).plain
    assert "the turn budget ran out before a diagnosis (budget)" in shown


async def test_case_titles_have_room_at_80_columns(tmp_path: Path) -> None:
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        home = await home_loaded(pilot)
        await pilot.pause(0.2)
        lines = screen_lines(app)
        longest = max(home.shown_cases[:8], key=lambda c: len(c.title))  # rows on screen
        assert len(longest.title) > 55
        title = next(line for line in lines if longest.id + " " in line)
        assert longest.title[:55] in title
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(140, 40)) as pilot:  # wide: every column
        home = await home_loaded(pilot)
        assert [str(c.label) for c in home.query_one("#cases-table").columns.values()] == \
            ["ID", "Specialty", "Lang", "Source", "Title"]


# -- the languages a physician reads ------------------------------------------------------

def test_languages_are_bcp47_tags_and_primary_subtags_match() -> None:
    assert parse_languages("en, fr de") == ["en", "fr", "de"]
    assert parse_languages("") == []
    with pytest.raises(InputError, match="english"):
        parse_languages("english")
    assert reads(["en"], "en-GB") and reads(["zh"], "zh-Hans") and not reads(["en"], "de")
    assert reads([], "de")  # none stated: every language
    cases = load_bundled_cases()
    # bo's own order starts with a French case; reading English only, bo never gets one.
    assert pick_unseen(cases, set(), {}, "bo").language == "fr"
    seen: set[str] = set()
    while (case := pick_unseen(cases, seen, {}, "bo", ["en"])) is not None:
        assert case.language == "en"
        seen.add(case.id)
    assert seen == {c.id for c in cases if c.language == "en"}


async def test_next_unseen_and_the_case_list_follow_the_languages_read(
        tmp_path: Path) -> None:
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(120, 40)) as pilot:
        home = await home_loaded(pilot)
        assert len({c.language for c in home.shown_cases}) > 1  # nothing stated: all
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, PlaySetupScreen))
        app.screen.query_one("#setup-name", Input).value = "fin"
        app.screen.query_one("#setup-languages", Input).value = "english"
        await pilot.click("#setup-start")
        assert "english" in str(app.screen.query_one("#setup-error").render())
        app.screen.query_one("#setup-languages", Input).value = "en"
        app.screen.query_one("#setup-languages", Input).focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, PlayScreen)
                         and app.screen.waiting)
        play = app.screen
        assert play.case.language == "en"  # fin's first case is German
        play.leave_now()
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen))
        # Remembered like the name, and the case list now shows what fin reads.
        saved = json.loads((Path(os.environ["BEDSIDE_HOME"]) / "settings.json")
                           .read_text(encoding="utf-8"))
        assert saved["doctor_languages"] == ["en"]
        await wait_until(pilot, lambda: {c.language for c in home.shown_cases} == {"en"})
        assert home.query_one("#filter-language", Select).value == MINE
        # The language box's top line shows every language again.
        home.query_one("#filter-language", Select).clear()
        await pilot.pause()
        assert len({c.language for c in home.shown_cases}) > 1
    app = BedsideApp(tmp_path / "b.db")  # a new session remembers
    async with app.run_test(size=(120, 40)) as pilot:
        home = await home_loaded(pilot)
        await wait_until(pilot, lambda: {c.language for c in home.shown_cases} == {"en"})
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, PlaySetupScreen))
        assert app.screen.query_one("#setup-languages", Input).value == "en"


def test_a_diagnosis_keeps_its_balanced_brackets() -> None:
    from core.protocol import parse_doctor_message

    said = {"DIAGNOSIS READY: Pneumonia [right lower lobe]": "Pneumonia [right lower lobe]",
            "DIAGNOSIS READY: AKI (stage 2).": "AKI (stage 2)",
            "DIAGNOSIS READY: [Gout]": "Gout",  # a wrapping pair goes
            "DIAGNOSIS READY: **Gout**]": "Gout",  # so does an unmatched one
            "DIAGNOSIS READY: (a) or (b)": "(a) or (b)"}
    assert {k: parse_doctor_message(k).diagnosis for k in said} == said
