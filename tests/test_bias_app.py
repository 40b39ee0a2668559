"""The bias and human-patient arms in the app, driven with Pilot through the real engine:
a physician picks a patient bias in the play setup and meets a self-diagnosing patient (the
bias stored with the consultation's configuration); a person plays the patient (`h` at
home) for the scripted doctor and for a model doctor on the local server, seeing their part
and the doctor's questions and nothing else, each answer committed at once, stored as the
patient agent `human:NAME`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Select

from core.prompts import PROMPTS
from core.prompts.bias import prompt_id
from tests.app_support import painted_text, seed, wait_until
from tests.fake_openai_server import FakeOpenAIServer
from tui.app.application import BedsideApp
from tui.app.screens.forms import PlaySetupScreen
from tui.app.screens.home import HomeScreen
from tui.app.screens.patient_play import ActorSetupScreen, PatientPlayScreen
from tui.app.screens.play import PlayScreen
from tui.app.widgets.transcript_view import TurnBlock


async def _home(pilot: Any) -> HomeScreen:
    app = pilot.app
    await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.cases)
    return app.screen


def _rows(app: BedsideApp, cid: str) -> list[dict[str, Any]]:
    return list(app.db["turns"].rows_where("consultation_id = ?", [cid], order_by="idx"))


async def test_a_physician_meets_a_self_diagnosing_patient(tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await _home(pilot)
        await pilot.press("p")  # the selected case: card-001
        await wait_until(pilot, lambda: isinstance(app.screen, PlaySetupScreen))
        app.screen.query_one("#setup-name", Input).value = "ana"
        app.screen.query_one("#setup-patient-bias", Select).value = "self_diagnosis"
        await pilot.click("#setup-start")
        await wait_until(pilot, lambda: isinstance(app.screen, PlayScreen)
                         and app.screen.waiting)
        play = app.screen
        play.query_one("#ask", Input).value = "What brings you in today?"
        await pilot.press("enter")
        await wait_until(pilot, lambda: play.turns_used == 1 and play.waiting)
        play.query_one("#ask", Input).value = "What do you think is causing this?"
        await pilot.press("enter")
        await wait_until(pilot, lambda: play.turns_used == 2 and play.waiting)
        answers = [r["content"] for r in _rows(app, play.consultation_id)
                   if r["role"] == "patient"]
        assert answers == [
            "Heavy pain in the middle of my chest for the last hour. I looked it up online, "
            "and I'm fairly sure it's acute pericarditis.",
            "I think it's acute pericarditis, doctor; everything I read online fits."]
        row = app.db["consultations"].get(play.consultation_id)
        import json

        config = json.loads(row["config"])
        assert config["patient"]["bias"] == "self_diagnosis"
        assert "retrieval-patient-bias/1" in config["prompts"]


async def _actor(pilot: Any, doctor: str = "scripted", bias: str | None = None,
                 api_base: str | None = None) -> PatientPlayScreen:
    app = pilot.app
    await _home(pilot)
    await pilot.press("h")
    await wait_until(pilot, lambda: isinstance(app.screen, ActorSetupScreen))
    form = app.screen
    form.query_one("#actor-name", Input).value = "Sam Actor"
    form.query_one("#actor-doctor", Input).value = doctor
    if bias:
        form.query_one("#actor-bias", Select).value = bias
    if api_base:
        form.query_one("#actor-api-base", Input).value = api_base
    await pilot.click("#actor-start")
    await wait_until(pilot, lambda: isinstance(app.screen, PatientPlayScreen)
                     and app.screen.question is not None)
    return app.screen


async def _answer(pilot: Any, screen: PatientPlayScreen, text: str) -> None:
    screen.query_one("#sp-answer", Input).value = text
    await pilot.press("enter")


def _shown(screen: PatientPlayScreen) -> list[tuple[str, str]]:
    return [(str(b.turn.role), b.turn.kind) for b in screen.query(TurnBlock)]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_person_plays_the_patient_for_the_scripted_doctor(tmp_path: Path,
                                                                  size: tuple[int, int]) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=size) as pilot:
        screen = await _actor(pilot, bias="gender")
        case = screen.case
        part = str(screen.query_one("#sp-part").render())
        assert "How you are today" in part and "a doctor of this gender" in part
        assert "Main complaint" in part
        await _answer(pilot, screen, "A heavy pain in my chest, for an hour.")
        # Committed at once: the answer is a stored turn before the next question comes.
        await wait_until(pilot, lambda: any(r["role"] == "patient" for r in
                                            _rows(app, screen.consultation_id)))
        n = 1
        while not screen.finished:
            await wait_until(pilot, lambda: screen.question is not None or screen.finished)
            if screen.finished:
                break
            n += 1
            await _answer(pilot, screen, f"Answer number {n}.")
            await wait_until(pilot, lambda m=n: sum(r["role"] == "patient" for r in _rows(
                app, screen.consultation_id)) == m)
        rows = _rows(app, screen.consultation_id)
        stored = app.db["consultations"].get(screen.consultation_id)
        assert stored["patient"] == "human:sam-actor" and stored["doctor"] == "scripted"
        assert stored["status"] == "finished"
        assert {r["role"] for r in rows} >= {"doctor", "patient", "examiner"}
        # Shown: the questions and the answers only, never a test order, result or diagnosis.
        questions = [r for r in rows if r["role"] == "doctor" and r["kind"] == "question"]
        assert _shown(screen) == [k for r in rows if (k := (r["role"], r["kind"])) in (
            ("doctor", "question"), ("patient", "answer"))]
        assert len(questions) == n
        # The closing line is painted a moment after the screen knows it is finished.
        await wait_until(pilot, lambda: "The consultation is over" in painted_text(app))
        painted = painted_text(app)
        for r in rows:
            if r["role"] == "examiner":
                assert r["content"].splitlines()[0] not in painted
        assert stored["diagnosis"] and stored["diagnosis"] not in painted
        assert case.truth.diagnosis not in painted
        assert "The consultation is over" in painted
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen))


async def test_a_model_doctors_test_orders_never_reach_the_actor(tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    with FakeOpenAIServer(chunk_delay=0.01) as server:
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await _actor(pilot, doctor="openai/doc", bias="self_diagnosis",
                                  api_base=server.base_url)
            await _answer(pilot, screen, "Chest pain. I'm sure it's pericarditis.")
            await wait_until(pilot, lambda: screen.question is not None
                             and screen.doctor_turns == 2)
            await _answer(pilot, screen, "An hour ago.")
            await wait_until(pilot, lambda: screen.finished)
            painted = painted_text(app)
            assert "REQUEST TEST" not in painted and "DIAGNOSIS READY" not in painted
            assert "ST elevation in II" not in painted  # the examiner's scripted reply
            assert _shown(screen) == [("doctor", "question"), ("patient", "answer")] * 2
            stored = app.db["consultations"].get(screen.consultation_id)
            assert stored["patient"] == "human:sam-actor" and stored["status"] == "finished"
            # The model doctor was told nothing of the patient's bias.
            paragraph = PROMPTS[prompt_id("patient", "self_diagnosis")].text[:40]
            assert server.requests and not any(
                paragraph in str(b["messages"]) for b in server.requests)


async def test_leaving_asks_and_stores_the_session_cancelled(tmp_path: Path) -> None:
    from tui.app.widgets.confirm import ConfirmScreen

    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _actor(pilot)
        cid = screen.consultation_id
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen))
        await wait_until(pilot, lambda: app.db["consultations"].get(cid)["status"]
                         == "cancelled")


async def test_the_home_help_and_the_readme_name_the_play_patient_key(tmp_path: Path) -> None:
    from tui.app.screens.help import HelpScreen

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert "| `h` | Play patient" in readme
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await _home(pilot)
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert ("h", "Play patient") in app.screen.bindings_shown
        assert "'Play patient' (h)" in app.screen.notes


def test_a_human_patient_only_plays_in_its_own_screen() -> None:
    from core.errors import InputError
    from core.usecases.patient_play import actor_config
    from core.usecases.play import human_config
    from tui.app.screens.forms_batch import parse_batch

    assert "press h at home" in str(parse_batch("", "offline", "4", "", patient="human:sam"))
    with pytest.raises(InputError, match="field 'patient'"):
        human_config("ana", patient="human:sam")
    with pytest.raises(InputError, match="field 'doctor'"):
        actor_config("sam", doctor="human:ana")
    config = actor_config("sam", bias="gender")
    assert (config.patient.kind, config.patient.label, config.patient.bias) == \
        ("human", "human:sam", "gender")
