"""A collaboration in the app, driven with Pilot: the transcript screen (its doctors, how
the conference ended, Doctor A/B and the host, `o` to each doctor's own consultation), the
live view (each doctor's own consultation under its letter) and the rating screen, blinded
(Doctor A/B and the host, never the doctors' models)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from core.collaboration import summary_of
from db.study_store import SqliteStudyStore
from db.connection import open_db
from db.store import open_store
from tests.app_support import painted_text, wait_until
from tests.test_rating_screen import _open
from tui.app.rating.screen import RatingApp
from tui.app.widgets.transcript_view import TurnBlock, turn_header
from tui.cli import main

STUDY = """\
name = "conference"
instructions = "Rate the case conference."
raters = ["alice"]
overlap = 1
calibration = 0
seed = 3

[select]
consultations = ["{cid}"]
"""


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any, Any]:
    """The offline collaboration on card-003 (Doctor B takes up A's diagnosis)."""
    db = tmp_path_factory.mktemp("screens") / "s.db"
    assert main(["run", "--db", str(db), "--collaborate", "scripted,scripted:seed=2",
                 "--cases", "card-003", "--json"]) == 0
    store = open_store(db)
    (joint,) = [c for c in store.list_consultations() if c.origin == "collaborate"]
    summary = summary_of(joint.meta)
    assert summary is not None and summary.consensus_round == 1
    return db, joint, summary


async def test_the_transcript_screen_names_the_doctors_and_opens_their_own(played) -> None:  # noqa: ANN001
    from tui.app.application import BedsideApp
    from tui.app.screens.transcript import TranscriptScreen

    db, joint, summary = played
    app = BedsideApp(db)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_transcript(joint.id)
        await wait_until(pilot, lambda: isinstance(app.screen, TranscriptScreen)
                         and app.screen.members)
        await pilot.pause(0.3)
        text = painted_text(app)
        assert "collaboration: A scripted, B scripted:seed=2" in text
        assert "consensus after round 1 of 4" in text and "Doctor A" in text
        heads = [turn_header(b.turn).plain.split("  ")[0:2] for b in app.screen.query(TurnBlock)]
        assert [h[0] for h in heads] == ["Doctor A", "Doctor B", "Host", "Doctor A", "Doctor B",
                                         "Host", "Host"]
        assert heads[3][1].startswith("round 1 · revision") and "assessment" in heads[2][1]
        joint_screen = app.screen
        await pilot.press("o")
        await wait_until(pilot, lambda: app.screen is not joint_screen)
        assert isinstance(app.screen, TranscriptScreen)
        assert app.screen.consultation_id == summary.doctors[0].consultation_id
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is joint_screen)
        await pilot.press("o")  # then Doctor B's
        await wait_until(pilot, lambda: app.screen is not joint_screen)
        assert app.screen.consultation_id == summary.doctors[1].consultation_id


async def test_the_live_view_lists_each_doctors_own_consultation(played) -> None:  # noqa: ANN001
    from tui.app.application import BedsideApp
    from tui.app.screens.live import LiveScreen

    db, joint, _ = played
    app = BedsideApp(db)
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(LiveScreen(joint.run_id))
        await wait_until(pilot, lambda: isinstance(app.screen, LiveScreen)
                         and len(app.screen.shown_rows) == 3)
        await pilot.pause(0.2)
        text = painted_text(app)
        assert "scripted + scripted:seed=2" in text
        assert "A: scripted" in text and "B: scripted:seed=2" in text


async def test_the_rating_screen_shows_doctor_a_b_and_the_host_never_their_models(
        played, tmp_path: Path) -> None:  # noqa: ANN001
    from annotation.assignment import create_study
    from annotation.study import load_study_file

    db_path, joint, _ = played
    db = open_db(db_path)
    f = tmp_path / "study.toml"
    f.write_text(STUDY.format(cid=joint.id), encoding="utf-8")
    create_study(SqliteStudyStore(db), load_study_file(f))
    app = RatingApp(db_path, "conference", "alice")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _open(pilot, app)
        speakers = [t.who for t in screen.item.turns]
        assert speakers[:2] == ["Doctor A", "Doctor B"] and "Host" in speakers
        assert speakers.count("Doctor B") == 2  # its report and its one revision
        await pilot.pause(0.2)
        shown = " ".join(str(w.content) for w in screen.query("#transcript Static"))
        assert "Doctor A  #0 initial" in shown and "Host  #2 assessment" in shown
        assert "Doctor B  #4 revision, round 1" in shown
        for secret in ("seed=2", "scripted:", joint.id, joint.doctor):
            assert secret not in painted_text(app) and secret not in shown
            assert all(secret not in t.content for t in screen.item.turns)
