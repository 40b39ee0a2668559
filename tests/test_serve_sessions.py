"""Readers rating at once over the browser (issue 18, Scale; `benchmarks/bench_serve_sessions`
runs it with 10 sessions): three `bedside serve` sessions, each its own app process on the
same SQLite file, driven through the websocket protocol the served page speaks, press Enter
for each save at the same moment. Every rating typed is read back from the database file,
and neither a session's screen nor the server's log (which holds each session's stderr)
says "locked", "Traceback" or "Error".

Real processes (the server and one app per session), a real file; no browser needed (the
protocol is the page's), so this never skips.
"""

from __future__ import annotations

from pathlib import Path

import pyte

from benchmarks.bench_serve_sessions import ITEMS, Session, study_sessions


def test_three_sessions_rating_at_once_lose_nothing_and_raise_no_lock_error(
        tmp_path: Path) -> None:
    out = study_sessions(tmp_path, sessions=3, each=2)
    assert out.missing == [] and out.alarms == []
    for s in out.sessions:
        assert s.total >= 1 and len(s.saves) == s.total, (s.rater, s.total, s.saves)
        assert len(s.typed) == s.total * len(ITEMS)
    apps = [pid for pid in out.peak if pid]
    assert len(apps) == 3 and all(out.peak[pid] > 0 for pid in apps)  # one app per session


def test_a_lock_error_on_a_session_screen_is_seen() -> None:
    # The alarm check itself: what the app would show were a save to fail on the lock.
    session = Session("reader1")
    session.screen = pyte.Screen(80, 5)
    session.stream = pyte.ByteStream(session.screen)
    session.feed(b"\x1b[2;1Hreader1 \xc2\xb7 1 / 2")
    assert session.seen == ""
    session.feed(b"\x1b[3;1Hsqlite3.OperationalError: database is locked")
    assert "database is locked" in session.seen
