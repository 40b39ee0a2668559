"""A reader study over the browser (issue 18, Scale): several `bedside serve` sessions
rating at once lose no rating and raise no lock error.

`bedside serve` starts one app process per browser session (textual-serve), all on the
same SQLite file. Each session here is driven through the websocket protocol the served
page's script speaks (`/ws?width=&height=`: the browser sends `["stdin", keys]`, the server
sends the terminal's output as binary frames), which is what a browser does minus the
drawing: the output is fed into a terminal emulator (pyte) so each session waits for what
a reader would see before typing. Every session opens the study (`4`, Enter), gives its
rater name, closes the instructions, and rates each of its transcripts (a digit per
required question, Tab between them, Enter); the sessions press Enter for their k-th save
at the same moment (a barrier), so the saves collide in the database.

Figures: the slowest save and the median, twice: Enter to the rating committed in the
database file (polled through the store), and Enter to the next transcript on the reader's
screen (the commit, the next load and its drawing, as the reader waits for it); the
resident memory of each session's app process (the largest sampled while rating) and of
the server. Checks: every
rating typed is in the database file (read back with `bedside ratings export`), and no
session's screen nor the server's log (where textual-serve writes each session's stderr)
says "locked", "Traceback" or "Error".

    .venv/bin/python -m benchmarks.bench_serve_sessions [--sessions 10] [--each 4]

tests/test_serve_sessions.py runs the same with 3 sessions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
WIDTH, HEIGHT = 120, 40
#: The default rubric's required questions, in the form's order (as tests/test_serve_browser).
ITEMS = ("realism_doctor", "realism_patient", "realism_examiner", "empathy_doctor")
#: What a session's screen or the server's log must never say.
ALARMS = ("locked", "Traceback", "Error")


@dataclass
class Session:
    """One reader's session: the terminal it sees and what it did."""

    rater: str
    screen: Any = None
    stream: Any = None
    seen: str = ""  # every line the screen showed, for the alarms
    saves: list[float] = field(default_factory=list)  # seconds, Enter to the next item
    commits: list[float] = field(default_factory=list)  # seconds, Enter to in the file
    done: Any = None  # () -> how many of its transcripts the database has as rated
    typed: dict[tuple[int, str], str] = field(default_factory=dict)  # (save, item): value
    total: int = 0

    def feed(self, data: bytes) -> None:
        """Terminal output, as the page's xterm.js receives it."""
        self.stream.feed(data)
        self.seen += "\n".join(self.screen.display) if any(a in data.decode("utf-8", "replace")
                                                            for a in ALARMS) else ""

    def text(self) -> str:
        """The screen, line by line."""
        return "\n".join(self.screen.display)


def free_port() -> int:
    """A TCP port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _bedside(home: Path, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "tui.cli", *args], cwd=ROOT,
                          env={**os.environ, "BEDSIDE_HOME": str(home)}, capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"bedside {args[0]} exited {done.returncode}: {done.stderr[-2000:]}")
    return done.stdout


def make_study(folder: Path, sessions: int, each: int) -> Path:
    """A database with an offline run of enough bundled cases and a study over them: one
    rater per session, two raters per transcript, about `each` transcripts per rater."""
    from core.caseio import load_bundled_cases

    db = folder / "study.db"
    cases = [c.id for c in load_bundled_cases()][:max(2, math.ceil(sessions * each / 2))]
    _bedside(folder, "run", "--db", str(db), "--cases", ",".join(cases), "--json")
    raters = ", ".join(f'"reader{i}"' for i in range(1, sessions + 1))
    study = folder / "study.toml"
    study.write_text(f'name = "soak"\nraters = [{raters}]\noverlap = 2\ncalibration = 0\n'
                     'seed = 1\n', encoding="utf-8")
    _bedside(folder, "--db", str(db), "study", "create", str(study))
    return db


async def _until(session: Session, check: Any, what: str, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while not check(session.text()):
        if time.monotonic() > deadline:
            raise AssertionError(f"{session.rater}: never showed {what}\n{session.text()}")
        await asyncio.sleep(0.02)


def _progress(text: str, rater: str) -> tuple[int, int] | None:
    found = re.search(rf"{rater} · (\d+) / (\d+)", text)
    return (int(found[1]), int(found[2])) if found else None


async def _open(session: Session, ws: Any) -> None:
    """Studies tab, the study, the rater's name, the instructions: the first transcript."""
    async def keys(text: str) -> None:
        await ws.send_str(json.dumps(["stdin", text]))

    await _until(session, lambda t: "Studies" in t, "the home screen")
    await keys("4")
    await _until(session, lambda t: "soak" in t, "the study")
    await keys("\r")
    await _until(session, lambda t: "Who is rating" in t, "the rater prompt")
    await keys(session.rater.upper())  # upper or lower case alike
    await _until(session, lambda t: session.rater.upper() in t, "the typed name")
    await keys("\r")
    await _until(session, lambda t: "Instructions" in t, "the instructions")
    await keys("\r")
    await _until(session, lambda t: "How realistic is the doctor" in t
                 and _progress(t, session.rater) is not None, "the first transcript")
    session.total = _progress(session.text(), session.rater)[1]  # type: ignore[index]


async def _rate(session: Session, ws: Any, barrier: asyncio.Barrier, rounds: int) -> None:
    """Rate every transcript; press Enter for each save with the other sessions."""
    for k in range(rounds):
        if k < session.total:
            for i, item in enumerate(ITEMS):
                value = str(5 + (k + i + int(session.rater[6:])) % 4)  # 5-8, varied
                await ws.send_str(json.dumps(["stdin", ("\t" if i else "") + value]))
                session.typed[(k, item)] = value
            await _until(session, lambda t, k=k: all(
                session.typed[(k, item)] in t for item in ITEMS), "the typed scores", 60)
        await barrier.wait()  # every session presses Enter at once
        if k >= session.total:
            continue
        start = time.perf_counter()
        await ws.send_str(json.dumps(["stdin", "\r"]))
        while session.done() <= k:  # committed: the file has it as rated
            await asyncio.sleep(0.01)
        session.commits.append(time.perf_counter() - start)
        await _until(session, lambda t, k=k: (_progress(t, session.rater) or (0, 0))[0] > k,
                     f"save {k + 1} done")
        session.saves.append(time.perf_counter() - start)


async def _session(url: str, session: Session, others: list[Session],
                   opened: asyncio.Barrier, saves: asyncio.Barrier) -> None:
    import aiohttp
    import pyte

    session.screen = pyte.Screen(WIDTH, HEIGHT)
    session.stream = pyte.ByteStream(session.screen)
    async with aiohttp.ClientSession() as http, http.ws_connect(
            f"{url}ws?width={WIDTH}&height={HEIGHT}", max_msg_size=0) as ws:
        async def read() -> None:
            async for message in ws:
                if message.type == aiohttp.WSMsgType.BINARY:
                    session.feed(message.data)
        reader = asyncio.create_task(read())
        try:
            await _open(session, ws)
            await opened.wait()  # every session open: each knows its number of transcripts
            await _rate(session, ws, saves, max(s.total for s in others))
        finally:
            reader.cancel()


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _is_app(pid: int) -> bool:
    """A session's app process (`python -m tui.cli --db …`, not the shell that starts it
    nor the server)."""
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return b"python" in cmd[0].rsplit(b"/", 1)[-1] and b"tui.cli" in cmd and b"serve" not in cmd


async def _sample(server: int, peak: dict[int, float], stop: asyncio.Event) -> None:
    """The largest RSS of every app process under the server, and of the server (key 0)."""
    while not stop.is_set():
        for pid in _descendants(server):
            if _is_app(pid):
                peak[pid] = max(peak.get(pid, 0.0), _rss_mb(pid))
        peak[0] = max(peak.get(0, 0.0), _rss_mb(server))
        await asyncio.sleep(0.5)


def _rated(db: Path, rater: str) -> Any:
    """A function saying how many of the rater's assignments the database file has done."""
    from db.study_store import open_study_store

    store = open_study_store(db)
    study, who = store.get_study("soak").id, store.get_rater(rater).id
    return lambda: sum(a.status == "done" for a in store.assignments(study, who))


async def drive(url: str, server: int, sessions: int, db: Path
                ) -> tuple[list[Session], dict[int, float]]:
    """Every session rating at once; the sessions and the peak RSS by process."""
    readers = [Session(f"reader{i}") for i in range(1, sessions + 1)]
    for s in readers:
        s.done = _rated(db, s.rater)
    opened, saves = asyncio.Barrier(sessions), asyncio.Barrier(sessions)
    peak: dict[int, float] = {}
    stop = asyncio.Event()
    sampler = asyncio.create_task(_sample(server, peak, stop))
    try:
        await asyncio.gather(*(_session(url, s, readers, opened, saves)
                               for s in readers))
    finally:
        stop.set()
        await sampler
    return readers, peak


def serve(db: Path, home: Path, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """`bedside serve` on a free port (its output to `log`), once it answers."""
    port = free_port()
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "tui.cli", "serve", "--db", str(db),
                                 "--port", str(port)], cwd=ROOT, stdout=out,
                                stderr=subprocess.STDOUT,
                                env={**os.environ, "BEDSIDE_HOME": str(home)})
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 120
    while True:
        try:
            urllib.request.urlopen(url, timeout=5).read()
            return proc, url
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError(f"bedside serve never answered: {log.read_text()}") from None
            time.sleep(0.2)


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop the server (its sessions' app processes end with their websockets)."""
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def stored(db: Path, home: Path) -> dict[tuple[str, str], list[str]]:
    """Every rating in the database file: (rater, item) -> values."""
    out: dict[tuple[str, str], list[str]] = {}
    for line in _bedside(home, "--db", str(db), "ratings", "export", "--study", "soak",
                         "--format", "jsonl").splitlines():
        row = json.loads(line)
        out.setdefault((row["rater"], row["item"]), []).append(str(row["value"]))
    return out


@dataclass
class Outcome:
    """What a run of the sessions measured and found."""

    sessions: list[Session]
    peak: dict[int, float]
    missing: list[str]
    alarms: list[str]


def study_sessions(folder: Path, sessions: int, each: int) -> Outcome:
    """Make the study, serve it, rate in every session at once, stop, and check."""
    db = make_study(folder, sessions, each)
    log = folder / "serve.log"
    proc, url = serve(db, folder, log)
    try:
        readers, peak = asyncio.run(drive(url, proc.pid, sessions, db))
    finally:
        stop(proc)
    saved = stored(db, folder)
    missing = []
    for s in readers:
        for item in ITEMS:
            typed = sorted(v for (k, i), v in s.typed.items() if i == item)
            if sorted(saved.get((s.rater, item), [])) != typed:
                missing.append(f"{s.rater} {item}: typed {typed}, stored "
                               f"{sorted(saved.get((s.rater, item), []))}")
    text = log.read_text(errors="replace")
    alarms = [f"{s.rater}: {a}" for s in readers for a in ALARMS if a in s.seen]
    alarms += [f"server log: {a}" for a in ALARMS if a in text]
    return Outcome(readers, peak, missing, alarms)


def main(argv: list[str] | None = None) -> None:
    """Print the slowest save, memory per session, and what was lost (nothing)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sessions", type=int, default=10)
    p.add_argument("--each", type=int, default=4, help="transcripts per rater (about)")
    args = p.parse_args(argv)
    folder = Path(tempfile.mkdtemp())
    out = study_sessions(folder, args.sessions, args.each)
    saves = [t for s in out.sessions for t in s.saves]
    apps = [mb for pid, mb in out.peak.items() if pid]
    print(f"{args.sessions} bedside serve sessions rating at once: {len(saves)} saves, "
          f"{sum(len(s.typed) for s in out.sessions)} answers")
    commits = [t for s in out.sessions for t in s.commits]
    print(f"  save, Enter to the rating in the database file: slowest {max(commits):.2f} s, "
          f"median {statistics.median(commits):.2f} s")
    print(f"  save, Enter to the next transcript on the reader's screen: slowest "
          f"{max(saves):.2f} s, median {statistics.median(saves):.2f} s")
    print(f"  memory per session (app process, peak RSS): median {statistics.median(apps):.0f}"
          f" MB, largest {max(apps):.0f} MB, {len(apps)} processes; server "
          f"{out.peak.get(0, 0):.0f} MB")
    print(f"  ratings lost: {len(out.missing)}; lock or other errors: {len(out.alarms)}")
    for line in out.missing + out.alarms:
        print(f"    {line}")
    if out.missing or out.alarms:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
