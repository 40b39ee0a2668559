"""`bedside run --workers N`: wall time of one offline run in 1 process vs N worker processes.

The run is what a user would type: every bundled case, scripted doctor, retrieval patient
and examiner (no model, so the work is CPU: the agents and the SQLite recorder), over a grid
of turn budgets (`--max-turns 14,15,…`) so that it has a few hundred consultations. Each
measurement is a fresh `bedside run` process on a fresh copy of a database that already
holds the cases, timed from start to exit (interpreter start-up and imports included, as a
user waits for them). The 1-worker and N-worker runs alternate, so both see the same machine
load. Prints the median wall time of each and the ratio N-worker / 1-worker (below 1:
faster), the consultations per second, the CPU time of each (all processes; its ratio is
the cost of spreading: start-up of the workers, claims, SQLite caches invalidated by the
other writers) and the load average before and after: the machine may be shared, and a
loaded machine has no free core to spread over.

    .venv/bin/python -m benchmarks.bench_workers [--runs 5] [--workers 2] [--configs 8]

Each run's results are checked to be the same whatever the number of workers.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _cpu() -> float:
    """CPU seconds (user + system) of the children waited for so far (the workers of a
    `bedside run` are its children, waited for by it: they count too)."""
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def _bedside(folder: Path, *args: str) -> tuple[float, float, dict]:
    """Wall and CPU seconds of one `bedside run`, and its JSON results."""
    env = {**os.environ, "BEDSIDE_HOME": str(folder)}
    cpu, start = _cpu(), time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "tui.cli", "run", *args], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=False)
    took = time.perf_counter() - start
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    return took, _cpu() - cpu, json.loads(out.stdout)


def _seed(folder: Path) -> Path:
    """A database holding the bundled cases (so each measured run writes only its own)."""
    path = folder / "seed.db"
    _bedside(folder, "--db", str(path), "--limit", "1", "--json")
    return path


def _summary(result: dict) -> list[tuple]:
    return sorted((r.get("doctor") or r.get("model"), r.get("settings"), r["n"], r["correct"])
                  for r in result["results"])


def main(argv: list[str] | None = None) -> None:
    """Print the medians, the ratio and the throughput."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--configs", type=int, default=8,
                   help="turn budgets in the grid (consultations = cases x configs)")
    args = p.parse_args(argv)
    budgets = ",".join(str(14 + i) for i in range(args.configs))
    folder = Path(tempfile.mkdtemp())
    load_before = os.getloadavg()[0]
    try:
        seed = _seed(folder)
        times: dict[int, list[float]] = {1: [], args.workers: []}
        cpus: dict[int, list[float]] = {1: [], args.workers: []}
        seen: dict[int, list[tuple]] = {}
        n = 0
        for i in range(args.runs):
            for workers in times:
                db = folder / f"r{i}-{workers}.db"
                shutil.copy(seed, db)
                took, cpu, result = _bedside(folder, "--db", str(db), "--max-turns", budgets,
                                             "--concurrency", "16", "--workers", str(workers),
                                             "--json")
                times[workers].append(took)
                cpus[workers].append(cpu)
                seen.setdefault(workers, _summary(result))
                n = sum(r["n"] for r in result["results"])
        assert seen[1] == seen[args.workers], "results differ with the number of workers"
        one, many = statistics.median(times[1]), statistics.median(times[args.workers])
        c1, cn = statistics.median(cpus[1]), statistics.median(cpus[args.workers])
        print(f"offline run, {n} consultations, median of {args.runs}:")
        print(f"  1 process:            {one:6.2f} s wall, {c1:6.2f} s CPU  "
              f"({n / one:5.1f} consultations/s)")
        print(f"  {args.workers} worker processes:   {many:6.2f} s wall, {cn:6.2f} s CPU  "
              f"({n / many:5.1f} consultations/s)")
        print(f"  ratio {args.workers} workers / 1: wall {many / one:.2f}, CPU {cn / c1:.2f}   "
              f"(cores: {os.cpu_count()}, load average {load_before:.1f} before, "
              f"{os.getloadavg()[0]:.1f} after)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
