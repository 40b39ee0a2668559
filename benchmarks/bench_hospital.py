"""The whole hospital benchmark: a 200-resident, 7-day offline hospital, recorded.

(a) Recorded: `core.usecases.hospital.run_hospital`, exactly what `bedside hospital` runs —
    every event committed to a fresh project database (a temporary file, WAL, created
    before the clock starts), every consultation played through the engine and recorded
    turn by turn, its task verdicts stored — with the offline triage rules and the given
    doctors (default: the scripted doctor everywhere; `--doctor all=nearest` for
    MedAgent-Zero's learner).
(b) Baseline, measured in the same run: the same hospital played by part 1's task doctors
    directly (`core.hospital.direct.DirectConsultant`: no engine, no store, events kept in
    a list). The ratio (a)/(b) is what recording everything costs.
Median of several runs each; also checks that every run of (a) gave the same events and
that every day's counts add up.

    .venv/bin/python -m benchmarks.bench_hospital [--residents 200] [--days 7] [--seed 7]
        [--runs 3] [--doctor DEPT=AGENT]…

Target: (a) under 60 s.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from core.agenthospital.kb import bundled_kb
from core.hospital.direct import DirectConsultant
from core.hospital.metrics import metrics
from core.hospital.simulation import Hospital, Plan
from core.hospital.state import replay
from core.hospital.triage import RulesNurse
from core.usecases.hospital import run_hospital
from core.usecases.hospital_settings import HospitalSettings, settings
from db.store import open_store


class _List(list):  # type: ignore[type-arg]
    def emit(self, event: Any) -> None:
        self.append(event)


def recorded(s: HospitalSettings) -> tuple[float, list[dict[str, Any]], dict[str, Any]]:
    """Seconds, events and metrics of one recorded hospital on a fresh database."""
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(Path(folder) / "bench.db")
        started = time.perf_counter()
        result = asyncio.run(run_hospital(store, s))
        seconds = time.perf_counter() - started
        events = [e.same() for e in store.hospital_events(result.run_id)]
        store.close()
    return seconds, events, metrics(result.state)


def direct(s: HospitalSettings) -> tuple[float, dict[str, Any]]:
    """Seconds and metrics of the same hospital played directly (the baseline)."""
    kb = bundled_kb()
    plan = Plan(residents=s.residents, days=s.days, seed=s.seed, onset=s.onset,
                followup_days=s.followup_days, capacities=s.capacities())
    kinds = {d: ("nearest" if s.doctor(d) == "nearest" else "scripted") for d in plan.capacities}
    sink = _List()
    started = time.perf_counter()
    asyncio.run(Hospital(kb, plan, RulesNurse(), DirectConsultant(kb, kinds), sink).run())
    return time.perf_counter() - started, metrics(replay(sink))


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--residents", type=int, default=200)
    parser.add_argument("--days", type=int, default=7)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--doctor", action="append", metavar="DEPT=AGENT")
    args = parser.parse_args()
    s = settings(residents=args.residents, days=args.days, seed=args.seed, doctor=args.doctor)
    bundled_kb()  # read once, before any clock
    base, rec, events, figures = [], [], [], None
    for _ in range(args.runs):
        seconds, _ = direct(s)
        base.append(seconds)
        seconds, got, figures = recorded(s)
        rec.append(seconds)
        events.append(got)
    assert figures is not None
    same = all(e == events[0] for e in events)
    b, r = statistics.median(base), statistics.median(rec)
    print(f"hospital: {s.residents} residents, {s.days} days, seed {s.seed}, doctors "
          f"{', '.join(f'{d} {s.doctor(d)}' for d in s.capacities())}; {args.runs} runs")
    print(f"  {figures['patients']} patients, {figures['consultations']} consultations, "
          f"{len(events[0])} events, {figures['revisits']} revisits, "
          f"{figures['recovered']} recovered")
    print(f"  recorded (bedside hospital): median {r:.2f} s  (runs: "
          f"{', '.join(f'{x:.2f}' for x in rec)})  target < 60 s: "
          f"{'met' if r < 60 else 'MISSED'}")
    print(f"  baseline (played directly, nothing stored): median {b:.2f} s")
    print(f"  recorded / baseline: {r / b:.1f}x; "
          f"{1000 * r / max(1, figures['consultations']):.1f} ms a consultation recorded")
    print(f"  same events every run: {'yes' if same else 'NO'}; every day adds up: "
          f"{'yes' if figures['balanced'] else 'NO'}")


if __name__ == "__main__":
    main()
