"""A physician sees a case's images in the play screen, through the real engine: up front
under the presentation; on request only after Ctrl+G and a yes (one turn, stored as the
engine's images turn); a full-size viewer; a text fallback naming the file, its caption and
why, when the image cannot be had."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from core.caseio import bundled_cases_dir, load_case_file
from tests.app_support import seed, wait_until
from tui.app.application import BedsideApp
from tui.app.screens.forms import PlaySetup
from tui.app.screens.images import ImagesScreen
from tui.app.screens.play import PlayScreen
from tui.app.widgets.case_image import CaseImageView
from tui.app.widgets.confirm import ConfirmScreen


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BEDSIDE_HOME", str(tmp_path / "home"))


def card():
    return load_case_file(next(bundled_cases_dir().rglob("card-101-*.yaml")))


async def _play(pilot, app: BedsideApp, case, images: str) -> PlayScreen:
    play = PlayScreen(case, PlaySetup("ana", case.id, images=images), hidden=False)
    await app.push_screen(play)
    await wait_until(pilot, lambda: play.waiting)
    return play


def _status(play: PlayScreen) -> str:
    return str(play.query_one("#play-status").render())


def _pictures(play: PlayScreen) -> list[str]:
    """The class name of what each image view draws (the image widget or the fallback)."""
    return [type(v.children[1]).__name__ for v in play.query(CaseImageView)]


async def test_upfront_the_image_is_under_the_presentation(tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(100, 34)) as pilot:
        play = await _play(pilot, app, card(), "upfront")
        await wait_until(pilot, lambda: len(play.query(CaseImageView)) == 1)
        assert play.query_one("#play-images").display
        assert _pictures(play) not in (["Static"], [])  # textual-image's widget, not text
        caption = str(play.query_one(".case-image-caption", Static).render())
        assert caption == ("Image 1 · card-101-rhythm-strip.png — Rhythm strip, lead II, "
                           "25 mm/s, 10 mm/mV, recorded at triage")
        assert "on request" not in _status(play)
        await pilot.press("ctrl+g")  # shown already: the full-size viewer, no turn used
        await wait_until(pilot, lambda: isinstance(app.screen, ImagesScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is play)
        assert play.turns_used == 0


async def test_on_request_the_physician_asks_and_it_costs_a_turn(tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        play = await _play(pilot, app, card(), "on-request")
        assert not play.query_one("#play-images").display
        assert "1 image on request (Ctrl+G, one turn)" in _status(play)
        await pilot.press("ctrl+g")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: play.turns_used == 1 and play.waiting
                         and len(play.query(CaseImageView)) == 1)
        assert "on request" not in _status(play)
        rows = list(app.db["turns"].rows_where("consultation_id = ?", [play.consultation_id],
                                                order_by="idx"))
        assert [(r["role"], r["kind"]) for r in rows] == [("doctor", "image_request"),
                                                          ("system", "images")]
        assert rows[0]["content"] == "REQUEST IMAGES"
        assert "card-101-rhythm-strip.png" in rows[1]["content"]


async def test_an_image_that_cannot_be_had_is_named_with_its_caption_and_why(
        tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    case = card()
    gone = case.model_copy(update={"images": [case.images[0].model_copy(
        update={"path": None, "url": "https://images.example.org/strip.png"})]})
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(120, 40)) as pilot:
        play = await _play(pilot, app, gone, "upfront")
        await wait_until(pilot, lambda: len(play.query(CaseImageView)) == 1)
        assert _pictures(play) == ["Static"]
        text = str(play.query_one(".case-image-fallback", Static).render())
        assert text.startswith("[image 1: strip.png] Rhythm strip, lead II")
        assert "not shown: image 1 of case card-101 (https://images.example.org/strip.png): " \
            "not in the local image cache" in text.replace("\n", " ")
