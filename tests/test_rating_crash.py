"""Real processes on one database file: a rater process killed with SIGKILL mid-study loses no
committed rating and, on restart, resumes at the next unrated transcript; a kill in the middle
of a stream of saves never leaves half a save; two raters in two OS processes rate at the same
time without errors or lost ratings.

Children run the real app (`RatingApp` under Textual's headless driver) or the real save path
on the real file, and report each commit on stdout; the parent reads those lines (blocking, so
no timing is assumed) and then kills or waits.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from db.connection import open_db
from db.study_store import SqliteStudyStore
from tests.test_rating_screen import _open
from tests.test_study_support import make_study, seed_db
from tui.app.rating.screen import RatingApp
from tui.app.rating.widgets import UnitField

ROOT = Path(__file__).resolve().parents[1]

RATER = """
import asyncio, sys
from tests.test_rating_screen import _open, _rate_current
from tui.app.rating.screen import RatingApp
from tui.app.rating.widgets import UnitField

async def main(path, rater, digit, stop_after):
    app = RatingApp(path, "pilot", rater)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _open(pilot, app)
        print("READY", rater, flush=True)
        if sys.stdin.readline().strip() != "GO":
            return
        done = 0
        while screen.item is not None and done != stop_after:
            aid = await _rate_current(pilot, screen, [digit] * 4)
            done += 1
            print("SAVED", aid, flush=True)
        if screen.item is not None:
            # half-way through the next transcript: an answer typed, not saved
            [f for f in screen.query(UnitField) if f.turn_idx == -1][0].focus()
            await pilot.press("3")
            print("TYPING", screen.item.assignment_id, flush=True)
            await asyncio.sleep(3600)
        print("DONE", done, flush=True)

asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])))
"""

HAMMER = """
import sys
from db.study_store import open_study_store

store = open_study_store(sys.argv[1])
sid = store.get_study("pilot").id
rid = store.get_rater("alice").id
items = ["realism_doctor", "realism_patient", "realism_examiner", "empathy_doctor"]
n = 0
while True:  # every save writes one value to all four units: a torn save would show
    for a in store.assignments(sid, rid):
        n += 1
        value = str(n % 10 + 1)
        store.save_ratings(a.id, {(i, -1): (value, None) for i in items})
        print("SAVED", a.id, value, flush=True)
"""


def _spawn(script: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", script, *args], cwd=ROOT, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)


def _kill(child: subprocess.Popen) -> None:
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert child.returncode == -signal.SIGKILL, child.stderr.read()


async def test_sigkill_mid_study_loses_nothing_and_resumes(tmp_path: Path) -> None:
    db = seed_db(tmp_path / "s.db")
    sid = make_study(db, tmp_path)
    db.close()
    child = _spawn(RATER, str(tmp_path / "s.db"), "alice", "6", "2")
    saved, typing = [], None
    try:
        assert child.stdout.readline().split()[0] == "READY"
        child.stdin.write("GO\n")
        child.stdin.flush()
        for line in child.stdout:  # blocks until the child reports
            word, aid = line.split()
            if word == "SAVED":
                saved.append(aid)
            else:
                typing = aid
                break
    finally:
        _kill(child)
    assert len(saved) == 2 and typing is not None

    after = open_db(tmp_path / "s.db")
    after_store = SqliteStudyStore(after)
    assert after.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    alice = after_store.get_rater("alice").id
    for aid in saved:
        assert after_store.get_assignment(aid).status == "done"
        assert after_store.assignment_ratings(aid) == {
            (i, -1): ("6", None) for i in ("realism_doctor", "realism_patient",
                                           "realism_examiner", "empathy_doctor")}
    assert after_store.assignment_ratings(typing) == {}
    assert after_store.next_assignment(sid, alice).id == typing
    # the restarted app opens exactly there, with nothing of the unsaved answer
    app = RatingApp(tmp_path / "s.db", "pilot", "alice")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _open(pilot, app)
        assert screen.item.assignment_id == typing
        assert all(f.value is None for f in screen.query(UnitField))
        assert "2 / " in str(screen.query_one("#progress").content)


def test_sigkill_during_a_stream_of_saves_never_tears_a_save(tmp_path: Path) -> None:
    db = seed_db(tmp_path / "s.db")
    make_study(db, tmp_path)
    db.close()
    child = _spawn(HAMMER, str(tmp_path / "s.db"))
    committed: dict[str, str] = {}
    try:
        for n, line in enumerate(child.stdout, 1):
            _, aid, value = line.split()
            committed[aid] = value
            if n == 40:  # more than one pass over alice's transcripts: edits included
                break  # the child is already writing its next save when it dies
    finally:
        _kill(child)
    after = open_db(tmp_path / "s.db")
    after_store = SqliteStudyStore(after)
    assert after.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    for aid in {a["id"] for a in after["assignments"].rows_where("status = 'done'")}:
        values = {v for v, _ in after_store.assignment_ratings(aid).values()}
        answers = after_store.assignment_ratings(aid)
        assert len(answers) == 4 and len(values) == 1, f"torn save on {aid}: {answers}"
    # every commit the child reported is there (the last one per assignment may be
    # followed by a later commit the child did not live to report)
    for aid, value in committed.items():
        history = {h.value for h in after_store.rating_history(aid)}
        assert value in history


def test_two_raters_in_two_processes_lose_nothing(tmp_path: Path) -> None:
    db = seed_db(tmp_path / "s.db")
    sid = make_study(db, tmp_path)
    db.close()
    digits = {"alice": "2", "bob": "9"}
    children = {name: _spawn(RATER, str(tmp_path / "s.db"), name, d, "-1")
                for name, d in digits.items()}
    reported: dict[str, list[str]] = {name: [] for name in digits}
    try:
        for child in children.values():
            assert child.stdout.readline().split()[0] == "READY"
        for child in children.values():  # both start rating together
            child.stdin.write("GO\n")
            child.stdin.flush()
        for name, child in children.items():
            for line in child.stdout:
                word, arg = line.split()
                if word == "DONE":
                    break
                reported[name].append(arg)
            assert child.wait() == 0, child.stderr.read()
    finally:
        for child in children.values():
            if child.poll() is None:
                _kill(child)
    after = open_db(tmp_path / "s.db")
    after_store = SqliteStudyStore(after)
    for name, digit in digits.items():
        rid = after_store.get_rater(name).id
        mine = after_store.assignments(sid, rid)
        assert sorted(reported[name]) == sorted(a.id for a in mine)
        assert {a.status for a in mine} == {"done"}
        for a in mine:  # each rater's own values only, all four units
            assert {v for v, _ in after_store.assignment_ratings(a.id).values()} == {digit}
            assert len(after_store.assignment_ratings(a.id)) == 4
    assert after["ratings"].count == 4 * sum(len(v) for v in reported.values())
