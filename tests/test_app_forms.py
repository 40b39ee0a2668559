"""The in-app forms: batch form and play setup validate every field (agents with
`core.config.parse_agent`, as the command line does) and pass what was typed on."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from tests.app_support import wait_until
from tui.app.application import BedsideApp
from core.usecases.runs import model_config
from tui.app.screens.forms import PlaySetup, PlaySetupScreen
from tui.app.screens.forms_batch import BatchRequest, StartBatchScreen, parse_batch
from tui.app.screens.home import HomeScreen


def test_api_base_and_agents_are_passed_to_the_configs() -> None:
    req = parse_batch("cardiology", "openai/x, offline", "4", "", " http://127.0.0.1:9/v1 ",
                      "openai/pat", "")
    assert isinstance(req, BatchRequest)
    assert req.api_base == "http://127.0.0.1:9/v1" and req.models == ["openai/x", "offline"]
    assert (req.patient, req.examiner) == ("openai/pat", "retrieval")
    cfg = model_config("openai/x", req.api_base, req.patient, req.examiner)
    assert cfg.doctor.kind == "llm" and cfg.doctor.api_base == "http://127.0.0.1:9/v1"
    assert cfg.patient.kind == "llm" and cfg.patient.model == "openai/pat"
    assert cfg.examiner.kind == "retrieval"
    assert model_config("offline", req.api_base).doctor.kind == "scripted"


def test_form_problems_are_one_line() -> None:
    assert "http" in parse_batch("", "openai/x", "2", "", "localhost:8000")
    assert "Concurrency" in parse_batch("", "openai/x", "0", "")
    assert "doctor" in parse_batch("", " , ", "2", "")


@pytest.mark.parametrize("models, patient, examiner, field", [
    ("gpt 4o", "", "", "doctor"),            # the audit's example: a space, no provider
    ("offline, gpt-4o", "", "", "doctor"),   # no provider/ prefix
    ("offline", "openai/gpt 4", "", "patient"),
    ("offline", "scripted", "", "patient"),  # the scripted agent only plays doctor
    ("offline", "", "exact", "examiner"),
])
def test_invalid_agents_are_refused_before_anything_starts(models, patient, examiner,
                                                           field) -> None:
    problem = parse_batch("", models, "2", "", "", patient, examiner)
    assert isinstance(problem, str) and f"field '{field}'" in problem
    assert "\n" not in problem


def test_scripted_is_the_offline_doctor_and_humans_cannot_batch() -> None:
    req = parse_batch("", "scripted, offline", "2", "")
    assert isinstance(req, BatchRequest) and req.models == ["offline", "offline"]
    assert "human" in parse_batch("", "human:ana", "2", "")


async def test_batch_form_shows_the_problem_and_stays_open(tmp_path: Path) -> None:
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.press("w")
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, StartBatchScreen))
        form = app.screen
        form.query_one("#batch-models", Input).value = "gpt 4o"
        await pilot.click("#batch-start")  # the button is on screen at 80x24
        await pilot.pause()
        assert app.screen is form
        assert "gpt 4o" in str(form.query_one("#batch-error").render())
        assert app.db["runs"].count == 0  # nothing started


async def test_play_setup_takes_patient_and_examiner_agents(tmp_path: Path) -> None:
    app = BedsideApp(tmp_path / "b.db")
    got: list[PlaySetup | None] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen))
        form = PlaySetupScreen("card-001", "ana")
        await app.push_screen(form, got.append)
        await pilot.pause()
        form.query_one("#setup-patient", Input).value = "gpt 4o"
        await pilot.click("#setup-start")  # on screen at 80x24 (click fails otherwise)
        await pilot.pause()
        assert app.screen is form and not got
        assert "field 'patient'" in str(form.query_one("#setup-error").render())
        form.query_one("#setup-patient", Input).value = "openai/pat"
        form.query_one("#setup-api-base", Input).value = "localhost:1"
        await pilot.pause(0.3)  # a button ignores presses during its 0.2 s click effect
        await pilot.press("enter")  # the Start button has the focus now
        await pilot.pause()
        assert "http" in str(form.query_one("#setup-error").render()) and not got
        form.query_one("#setup-api-base", Input).value = "http://127.0.0.1:9/v1"
        form.query_one("#setup-budget", Input).value = "7"
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_until(pilot, lambda: got)
    setup = got[0]
    assert setup is not None
    assert (setup.name, setup.case_id, setup.budget, setup.patient, setup.examiner,
            setup.api_base) == ("ana", "card-001", 7, "openai/pat", "retrieval",
                                "http://127.0.0.1:9/v1")
