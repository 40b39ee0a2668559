"""A rater process killed with SIGKILL mid-study loses no committed rating and, on restart,
resumes at the next unrated transcript."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from db import studies
from db.connection import open_db
from tests.test_rating_screen import _open, _rate_current
from tests.test_study_support import make_study, seed_db
from tui.rating import RatingApp
from tui.rating_widgets import UnitField

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import asyncio, sys
from tests.test_rating_screen import _open, _rate_current
from tui.rating import RatingApp
from tui.rating_widgets import UnitField

async def main(path):
    app = RatingApp(path, "pilot", "alice")
    async with app.run_test(size=(140, 50)) as pilot:
        screen = await _open(pilot, app)
        for n in (1, 2):
            aid = await _rate_current(pilot, screen, ["6", "6", "6", "6"])
            print("SAVED", aid, flush=True)
        # half-way through the third transcript: answers typed, not saved
        [f for f in screen.query(UnitField) if f.turn_idx == -1][0].focus()
        await pilot.press("3")
        print("TYPING", screen.item.assignment_id, flush=True)
        await asyncio.sleep(3600)

asyncio.run(main(sys.argv[1]))
"""


def test_sigkill_mid_study_loses_nothing_and_resumes(tmp_path: Path) -> None:
    db = seed_db(tmp_path / "s.db")
    sid = make_study(db, tmp_path)
    db.close()
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path / "s.db")], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    saved, typing = [], None
    try:
        for line in child.stdout:  # blocks until the child reports; no timing assumed
            word, aid = line.split()
            if word == "SAVED":
                saved.append(aid)
            else:
                typing = aid
                break
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    assert child.returncode == -signal.SIGKILL, child.stderr.read()
    assert len(saved) == 2 and typing is not None

    after = open_db(tmp_path / "s.db")
    alice = studies.get_rater(after, "alice")["id"]
    for aid in saved:
        assert studies.get_assignment(after, aid)["status"] == "done"
        assert {v for v, _ in studies.assignment_ratings(after, aid).values()} == {"6"}
        assert len(studies.assignment_ratings(after, aid)) == 4
    assert studies.assignment_ratings(after, typing) == {}
    assert studies.next_assignment(after, sid, alice)["id"] == typing
    assert after.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


async def test_restart_after_kill_opens_the_next_unrated(tmp_path: Path) -> None:
    # Same state as after the kill, reached in-process: the screen resumes where it left off.
    db = seed_db(tmp_path / "s.db")
    sid = make_study(db, tmp_path)
    alice = studies.get_rater(db, "alice")["id"]
    order = [a["id"] for a in studies.assignments(db, sid, alice)]
    app = RatingApp(tmp_path / "s.db", "pilot", "alice")
    async with app.run_test(size=(140, 50)) as pilot:
        screen = await _open(pilot, app)
        await _rate_current(pilot, screen, ["5", "5", "5", "5"])
        [f for f in screen.query(UnitField) if f.turn_idx == -1][0].focus()
        await pilot.press("9")  # typed, never saved
    app = RatingApp(tmp_path / "s.db", "pilot", "alice")
    async with app.run_test(size=(140, 50)) as pilot:
        screen = await _open(pilot, app)
        assert screen.item.assignment_id == order[1]
        assert all(f.value is None for f in screen.query(UnitField))
