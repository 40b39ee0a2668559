"""Suite benchmark: how long the README's test command takes, and how much CPU it uses.

Runs `python -m pytest -q -n WORKERS --dist worksteal` on this checkout `--runs` times and
reports the median wall time and the median CPU time (user + system of pytest and every
process it waited for: the xdist workers and the `bedside` processes the tests start). With
`--baseline REF` the same command also runs on that commit (`git archive` into a temporary
folder, the same interpreter and packages), interleaved with this checkout's runs so both
meet the same load, and the ratios this / baseline are printed. CPU time is the steadier
figure on a shared machine: wall time moves with whatever else runs.

    python -m benchmarks.bench_suite [--runs 3] [--workers 2] [--baseline REF] [--files 15]
                                     [--log DIR]

`--files N` also lists the N test files with the largest summed durations (setup, call and
teardown, from `--durations=0`) of the last run of each side. A run whose tests fail stops
the benchmark with exit status 1.

Target (issue 11): the suite under 6 minutes of wall time on the 2-core machine.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DURATION = re.compile(r"^([\d.]+)s (?:call|setup|teardown)\s+(tests/[^:]+)::")


@dataclass
class Side:
    """The runs of one checkout."""

    name: str
    root: Path
    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    files: collections.Counter[str] = field(default_factory=collections.Counter)
    summary: str = ""


def run_once(side: Side, workers: int, durations: bool, log: Path | None = None) -> None:
    """One run of the suite on `side`; its wall and CPU time appended (its output written
    to `log` when given)."""
    argv = [sys.executable, "-m", "pytest", "-q", "-n", str(workers), "--dist", "worksteal"]
    if durations:
        argv.append("--durations=0")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    started = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen(argv, cwd=side.root, env=env, stdout=out,
                                stderr=subprocess.STDOUT, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        side.walls.append(time.perf_counter() - started)
        side.cpus.append(usage.ru_utime + usage.ru_stime)
        out.seek(0)
        text = out.read()
    if log is not None:
        log.write_text(text, encoding="utf-8")
    lines = text.strip().splitlines()
    side.summary = lines[-1] if lines else ""
    if proc.returncode != 0:
        raise SystemExit(f"bench_suite: the suite failed on {side.name} "
                         f"(exit {proc.returncode}): {side.summary}")
    if durations:
        side.files = collections.Counter()
        for line in lines:
            if found := DURATION.match(line):
                side.files[found.group(2)] += float(found.group(1))


def checkout(ref: str, into: Path) -> Path:
    """The files of commit `ref` in a folder (no .git, no .venv: the current ones serve)."""
    archive = into / "base.tar"
    subprocess.run(["git", "archive", "--format=tar", "-o", str(archive), ref], cwd=ROOT,
                   check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into / "base", filter="data")
    return into / "base"


def report(sides: list[Side], files: int) -> None:
    """Medians, ratios against the baseline, and the slowest files."""
    for side in sides:
        print(f"{side.name}: wall median {statistics.median(side.walls):.0f} s "
              f"(runs {', '.join(f'{w:.0f}' for w in side.walls)}), CPU median "
              f"{statistics.median(side.cpus):.0f} s; {side.summary}")
    if len(sides) == 2:
        now, base = sides
        wall = statistics.median(now.walls) / statistics.median(base.walls)
        cpu = statistics.median(now.cpus) / statistics.median(base.cpus)
        print(f"this / baseline: wall {wall:.2f}, CPU {cpu:.2f}")
    for side in sides:
        if side.files:
            print(f"{side.name}: slowest files (summed test durations, s)")
            for name, total in side.files.most_common(files):
                print(f"  {total:7.1f}  {name}")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each side (median)")
    parser.add_argument("--workers", type=int, default=2, help="pytest-xdist workers (-n)")
    parser.add_argument("--baseline", help="a commit to compare with (e.g. main)")
    parser.add_argument("--files", type=int, default=0, help="list the N slowest test files")
    parser.add_argument("--log", type=Path, help="a folder to keep each run's pytest output in")
    args = parser.parse_args(argv)
    if args.log:  # made before the first run: a missing folder once lost a whole run's output
        args.log.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="bench-suite-") as tmp:
        sides = [Side("this checkout", ROOT)]
        if args.baseline:
            sides.append(Side(f"baseline {args.baseline}", checkout(args.baseline, Path(tmp))))
        for i in range(args.runs):
            for side in sides:
                log = args.log / f"{'base' if side.root != ROOT else 'this'}-{i + 1}.txt" \
                    if args.log else None
                run_once(side, args.workers, args.files > 0 and i == args.runs - 1, log)
                print(f"run {i + 1} {side.name}: {side.walls[-1]:.0f} s wall, "
                      f"{side.cpus[-1]:.0f} s CPU", flush=True)
        report(sides, args.files)
    return 0


if __name__ == "__main__":
    sys.exit(main())
