"""Start-up benchmark: time from process start to the first screen painted.

Runs the real app in a child process (headless driver, a fresh database), five times by
default. The child notes the time after its first screen has been refreshed and whether
litellm (or the engine) had been imported by then; the parent measures from just before
it spawned the child, so interpreter start-up and every import are included.

    python -m benchmarks.bench_startup [--runs 5]

Target: < 1 s, with litellm off the start-up path.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import json, sys, time
from tui.app import BedsideApp

def painted(app):
    heavy = sorted(m for m in ('litellm', 'core.engine', 'openai') if m in sys.modules)
    print(json.dumps({"painted": time.time(), "heavy": heavy}), flush=True)
    app.exit()

BedsideApp(sys.argv[1], first_paint_hook=painted).run(headless=True, size=(80, 24))
"""


def once(db: Path) -> tuple[float, list[str]]:
    """Seconds from spawn to first paint, and heavy modules loaded by then."""
    start = time.time()
    out = subprocess.run([sys.executable, "-c", CHILD, str(db)], cwd=ROOT, text=True,
                         capture_output=True, check=True, timeout=60)
    line = [x for x in out.stdout.splitlines() if x.startswith("{")][-1]
    data = json.loads(line)
    return data["painted"] - start, data["heavy"]


def main() -> int:
    """Print each run, the median, and whether the 1 s target is met."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        once(db)  # warm-up: creates the database, fills the OS file cache
        results = [once(db) for _ in range(args.runs)]
    times = [t for t, _ in results]
    heavy = sorted({m for _, ms in results for m in ms})
    for i, t in enumerate(times, 1):
        print(f"run {i}: {t * 1000:.0f} ms")
    median = statistics.median(times)
    print(f"median {median * 1000:.0f} ms, max {max(times) * 1000:.0f} ms; "
          f"heavy modules at first paint: {heavy or 'none'}")
    print("target < 1000 ms:", "met" if median < 1.0 and not heavy else "NOT met")
    return 0 if median < 1.0 and not heavy else 1


if __name__ == "__main__":
    sys.exit(main())
