"""A soak (issue 18, Scale): one `bedside run` of many offline consultations, its memory,
the same grid in parts, and how long `bedside results` takes on the result.

The run is what a user would type: every bundled case, retrieval patient and examiner, a
grid of scripted doctors (`--doctor scripted:seed=1,…`) and turn budgets (`--max-turns
8,…,17`), as many configurations as make `--consultations` (default 20,000; the library's
cases times the configurations, so a little more). It is one fresh `bedside run` process
on a fresh database; while it runs, its resident memory (VmRSS of /proc/PID/status) is read
every 0.2 s beside the number of consultations the database says ended, and the RSS is
reported at the start (the first sample once the run is stored: imports and the library
read), at every 1,000 consultations and at the last sample before it exits.

Then the same grid is run in parts, split by case selection (`--cases` with the first half
of the library, then the rest; each part a fresh process and database), and the totals per
configuration (n, correct, no diagnosis, failed, turns and tests summed) of the parts are
checked to equal the whole's: a run of 20,000 consultations is the sum of its parts.

Last, `bedside results` on the whole's database: the wall time of the command as a user
waits for it (a fresh process; interpreter start-up included), the first call and the
median of `--repeats` more, against the same command on a database of one run of the
library (the fixed cost of a `bedside results`, measured in the same run).

    .venv/bin/python -m benchmarks.bench_soak [--consultations 20000] [--concurrency 16]
        [--repeats 3] [--keep DIR] [--parts-beside]

Not a test: it takes a quarter of an hour on a small machine (tests/test_soak.py checks the
parts on a few hundred consultations).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUDGETS = tuple(range(8, 18))  # ten turn budgets; the seeds make up the rest of the grid
Totals = dict[tuple[str, str], dict[str, float]]


def grid(consultations: int, cases: int) -> list[str]:
    """The `--doctor` and `--max-turns` options of a grid of at least `consultations`
    consultations over `cases` cases."""
    configs = max(1, math.ceil(consultations / cases))
    budgets = BUDGETS[:min(len(BUDGETS), configs)]
    seeds = math.ceil(configs / len(budgets))
    doctors = ",".join(f"scripted:seed={s}" for s in range(1, seeds + 1))
    return ["--doctor", doctors, "--max-turns", ",".join(map(str, budgets))]


def totals(rows: Iterable[dict]) -> Totals:
    """Per (doctor, settings): the counts, and turns and tests summed over consultations
    (rounded: sums of means over parts differ in the last bits)."""
    out: Totals = {}
    for r in rows:
        key = (r.get("doctor") or r["model"], r["settings"])
        t = out.setdefault(key, {"n": 0, "correct": 0, "no_diagnosis": 0, "failed": 0,
                                 "finished": 0, "turns": 0.0, "tests": 0.0})
        for field in ("n", "correct", "no_diagnosis", "failed", "finished"):
            t[field] += r[field] or 0
        for field in ("turns", "tests"):
            t[field] += (r[field] or 0.0) * r["n"]
    return {k: {f: round(v, 6) for f, v in t.items()} for k, t in out.items()}


def add(parts: Iterable[Totals]) -> Totals:
    """The parts' totals, summed per configuration."""
    out: Totals = {}
    for part in parts:
        for key, t in part.items():
            mine = out.setdefault(key, dict.fromkeys(t, 0.0))
            for field, value in t.items():
                mine[field] = round(mine[field] + value, 6)
    return out


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "BEDSIDE_HOME": str(home)}


def _rss_kb(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


class _Ended:
    """Consultations of the database's one run that are no longer running, read from the
    file (None before the run is stored: the process is still starting)."""

    def __init__(self, db: Path) -> None:
        self.db, self.run_id = db, None

    def __call__(self) -> int | None:
        from db.store import open_store

        if not self.db.exists():
            return None
        store = open_store(self.db, migrate=False)
        try:
            if self.run_id is None:
                listed = store.list_runs()
                if not listed:
                    return None
                self.run_id = listed[0].id
            counts = store.run_status_counts(self.run_id)
            return sum(n for status, n in counts.items() if status != "running")
        except Exception:  # the file is new: its tables are not there yet
            return None
        finally:
            store.close()


def watched_run(db: Path, home: Path, args: list[str], every: int = 1000
                ) -> tuple[float, list[tuple[int, int]], list[dict]]:
    """Wall seconds of one `bedside run --json`, its RSS samples (ended consultations, kB:
    the first once the run is stored, one at each multiple of `every`, the last before it
    exits) and its results."""
    out = home / "run.out"
    start = time.perf_counter()
    with out.open("w") as stdout:
        proc = subprocess.Popen([sys.executable, "-m", "tui.cli", "run", "--db", str(db),
                                 *args, "--json"], cwd=ROOT, env=_env(home), stdout=stdout,
                                stderr=subprocess.PIPE, text=True)
        samples: list[tuple[int, int]] = []
        mark, last, ended_now = 0, None, _Ended(db)
        while proc.poll() is None:
            rss, ended = _rss_kb(proc.pid), ended_now()
            if rss is None or ended is None:  # starting (or gone)
                time.sleep(0.2)
                continue
            if not samples or ended >= mark:
                samples.append((ended, rss))
                mark = (ended // every + 1) * every
            last = (ended, rss)
            time.sleep(0.2)
        _, err = proc.communicate()
    took = time.perf_counter() - start
    if last is not None and last != samples[-1]:
        samples.append(last)
    if proc.returncode != 0:
        raise RuntimeError(f"bedside run exited {proc.returncode}: {err[-2000:]}")
    return took, samples, json.loads(out.read_text())["results"]


def plain_run(db: Path, home: Path, args: list[str]) -> list[dict]:
    """The JSON results of one `bedside run`."""
    done = subprocess.run([sys.executable, "-m", "tui.cli", "run", "--db", str(db), *args,
                           "--json"], cwd=ROOT, env=_env(home), capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        raise RuntimeError(f"bedside run exited {done.returncode}: {done.stderr[-2000:]}")
    return json.loads(done.stdout)["results"]


def time_results(db: Path, home: Path) -> float:
    """Wall seconds of `bedside results` on `db` (a fresh process, output discarded)."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "tui.cli", "results", "--db", str(db)],
                          cwd=ROOT, env=_env(home), stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"bedside results exited {done.returncode}: {done.stderr[-2000:]}")
    return time.perf_counter() - start


def library_ids() -> list[str]:
    """The bundled cases' ids, in the library's order."""
    from core.caseio import load_bundled_cases

    return [c.id for c in load_bundled_cases()]


def _report_memory(samples: list[tuple[int, int]]) -> None:
    print("  resident memory of the run (consultations ended: RSS):")
    for ended, kb in samples:
        print(f"    {ended:>7,}: {kb / 1024:7.1f} MB")
    start, end = samples[0][1], samples[-1][1]
    warm = next((kb for ended, kb in samples if ended >= 1000), start)
    print(f"  start {start / 1024:.1f} MB, at 1,000 {warm / 1024:.1f} MB, end "
          f"{end / 1024:.1f} MB (end / at 1,000: {end / warm:.2f})")


def main(argv: list[str] | None = None) -> None:
    """Run the soak, the parts and the results timings; print the figures."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--consultations", type=int, default=20_000)
    p.add_argument("--concurrency", type=int, default=16)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--keep", type=Path, help="keep the databases in this folder")
    p.add_argument("--parts-beside", action="store_true",
                   help="run the parts (one after the other) while the whole runs, on the "
                        "machine's other core: half the wall time; the whole's memory is "
                        "measured the same, its speed is not comparable")
    args = p.parse_args(argv)
    folder = args.keep or Path(tempfile.mkdtemp())
    folder.mkdir(parents=True, exist_ok=True)
    ids = library_ids()
    options = [*grid(args.consultations, len(ids)), "--concurrency", str(args.concurrency)]
    half = len(ids) // 2

    def run_parts() -> list[list[dict]]:
        return [plain_run(folder / f"part{i}.db", folder, [*options, "--cases", ",".join(chunk)])
                for i, chunk in enumerate((ids[:half], ids[half:]))]

    try:
        whole = folder / "whole.db"
        with ThreadPoolExecutor(1) as pool:
            beside = pool.submit(run_parts) if args.parts_beside else None
            took, samples, rows = watched_run(whole, folder, options)
            parts = beside.result() if beside is not None else run_parts()
        n = sum(r["n"] for r in rows)
        print(f"soak: one bedside run, {n:,} consultations ({len(ids)} cases x "
              f"{len(rows)} configurations), {took:.0f} s ({n / took:.1f} consultations/s)")
        _report_memory(samples)
        same = add(totals(part) for part in parts) == totals(rows)
        print(f"  the same grid in 2 parts by case ({half} + {len(ids) - half} cases): "
              f"totals per configuration {'equal' if same else 'DIFFER'} to the whole's")
        small = folder / "small.db"
        plain_run(small, folder, ["--concurrency", str(args.concurrency)])
        first = time_results(whole, folder)
        big = statistics.median(time_results(whole, folder) for _ in range(args.repeats))
        base = statistics.median(time_results(small, folder) for _ in range(args.repeats))
        print(f"  bedside results on it: first call {first:.2f} s, then median of "
              f"{args.repeats} {big:.2f} s; on one run of the library ({len(ids)} "
              f"consultations) {base:.2f} s; ratio {big / base:.2f}")
        if not same:
            raise SystemExit("the parts do not add up to the whole")
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
