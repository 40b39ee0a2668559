"""Start-up benchmark: `bedside --db X` as a user runs it, in a real pseudo-terminal.

Each run starts a fresh interpreter on the real entry point (`tui.cli.main`, what the
`bedside` script calls) in an 80x24 pseudo-terminal, reads what the app draws, and notes
when the home screen first appears (its tab labels are drawn) and when the case library
has been loaded (the first case id is in the table). Times run from just before the spawn,
so interpreter start-up and every import are included. Then it sends Ctrl+Q and checks the
app exits with status 0.

    python -m benchmarks.bench_startup [--runs 7]

A bare Textual app drawing the same tab labels, started the same way and interleaved with
the runs, is the baseline (what Textual and Python themselves cost).

Target: the first screen in < 1 s (median).
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import re
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENTRY = "import sys; from tui.cli import main; sys.exit(main())"
ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")
PAINTED = "Consultations"  # a tab label of the home screen
# The floor: the smallest Textual app that draws the same tab label, started the same way.
BASELINE = ("from textual.app import App\n"
            "from textual.widgets import Footer, Label, TabbedContent, TabPane\n"
            "class Bare(App):\n"
            "    BINDINGS = [('ctrl+q', 'quit', 'Quit')]\n"
            "    def compose(self):\n"
            "        with TabbedContent():\n"
            "            with TabPane('Cases'):\n"
            "                yield Label('cases')\n"
            "            with TabPane('Consultations'):\n"
            "                yield Label('consultations')\n"
            "        yield Footer()\n"
            "Bare().run()\n")


def _read(fd: int, until: float) -> bytes:
    ready, _, _ = select.select([fd], [], [], max(0.0, until - time.monotonic()))
    if not ready:
        return b""
    try:
        return os.read(fd, 65536)
    except OSError:  # the child closed the terminal
        return b""


def once(db: Path, first_case: str, timeout: float = 60.0,
         code: str = ENTRY) -> tuple[float, float]:
    """Seconds from spawn to the first screen, and to the case library shown (for the
    baseline app, which has no library, both are its first screen)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"}
    start = time.monotonic()
    child = subprocess.Popen([sys.executable, "-c", code, "--db", str(db)], cwd=ROOT,
                             stdin=slave, stdout=slave, stderr=slave, env=env,
                             start_new_session=True)
    os.close(slave)
    seen, painted, loaded = "", None, None
    deadline = start + timeout
    try:
        while loaded is None and time.monotonic() < deadline:
            chunk = _read(master, deadline)
            now = time.monotonic()
            seen += ANSI.sub("", chunk.decode("utf-8", "replace"))
            if painted is None and PAINTED in seen:
                painted = now - start
            if painted is not None and first_case in seen:
                loaded = now - start
        os.write(master, b"\x11")  # Ctrl+Q
        code = child.wait(timeout=20)
    finally:
        if child.poll() is None:
            child.kill()
        os.close(master)
    if painted is None or loaded is None or code != 0:
        raise RuntimeError(f"the app did not start properly (exit status {code})")
    return painted, loaded


def main() -> int:
    """Print each run, the medians, and whether the 1 s target is met."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from core.caseio import load_bundled_cases

    first_case = min(c.id for c in load_bundled_cases())
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        once(db, first_case)  # warm-up: creates the database, fills the OS file cache
        results, floor = [], []
        once(db, PAINTED, code=BASELINE)
        for _ in range(args.runs):  # interleaved, so both see the same machine
            results.append(once(db, first_case))
            floor.append(once(db, PAINTED, code=BASELINE)[0])
    for i, (painted, loaded) in enumerate(results, 1):
        print(f"run {i}: first screen {painted * 1000:.0f} ms, cases shown {loaded * 1000:.0f} ms")
    first = statistics.median(p for p, _ in results)
    cases = statistics.median(c for _, c in results)
    print(f"median: first screen {first * 1000:.0f} ms (max "
          f"{max(p for p, _ in results) * 1000:.0f}), cases shown {cases * 1000:.0f} ms")
    base = statistics.median(floor)
    print(f"baseline (a bare Textual app with the same tabs): first screen {base * 1000:.0f} ms;"
          f" bedside ÷ baseline = {first / base:.2f}")
    print("target first screen < 1000 ms:", "met" if first < 1.0 else "NOT met")
    return 0 if first < 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
