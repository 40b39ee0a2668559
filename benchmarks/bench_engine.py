"""Engine benchmark: bedside's overhead over bare litellm calls, and offline per-turn cost.

Starts the fake OpenAI server (tests/fake_openai_server.py) in a child process with 200 ms
latency per reply, then at concurrency 8 and 32:
  (a) bedside: 64 consultations of bundled cases, all four roles played by models on that
      server, the way `bedside run` runs them: `core.usecases.runs.execute` (core.batch.run_batch
      with the SQLite Recorder committing every event) on a temporary file database in WAL
      mode, created before the clock starts;
  (b) bare: the very same chat calls (same messages, so the same message growth), made
      with `litellm.acompletion` in a plain loop per consultation, same concurrency.
Both ways bedside calls models are measured: whole replies, as `bedside run` makes them
(nobody watches token deltas there), and streamed, as the app makes them.
Prints the median of several runs, bedside/bare and bedside/ideal, where
ideal = consultations / concurrency × calls per consultation × latency. Also reports the
litellm import time (fresh interpreter) and the offline engine's cost per turn with the
retrieval agents and the scripted doctor, both with an in-memory sink and with the SQLite
Recorder on a temporary file database (what a real offline run pays).

    cd /work/main && .venv/bin/python -m benchmarks.bench_engine [--runs 3]

Targets: bedside ≤ 1.10× bare and ≤ 1.20× ideal at c=8; offline < 2 ms per turn.

End to end (`--e2e`, benchmarks/engine_e2e.py): the `bedside run` command, start-up to exit,
against a bare litellm program making the same calls (its start-up included), alternated,
median of `--runs`, for each (concurrency, latency, consultations) of the grid: c 8/32/128
at 0.2 s and 2 s latency with several waves, and one wave of 128 at 2 s (a short run, where
fixed per-run costs weigh most). One figure is one command:

    .venv/bin/python -m benchmarks.bench_engine --e2e --concurrency 128 --latency 2 \
        --consultations 128 --runs 5

`--before DIR` also runs the `bedside run` of another checkout (say
`git archive OLD | tar -x -C DIR`) in the same alternation: before and after, one machine
load, one table. Target: every row ≤ 1.10× bare.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.caseio import load_bundled_cases
from core.config import AgentSpec, ConsultationConfig
from core.engine import run_consultation
from core.events import EventSink, ListSink
from core.llm import LLMClient, load_litellm
from core.usecases import runs
from db.store import SqliteStore, open_store

ROOT = Path(__file__).resolve().parents[1]
KEY = "sk-bench-not-real"
LATENCY = 0.2
CONSULTATIONS = 64


def start_server(latency: float) -> tuple[subprocess.Popen[str], str]:
    """The fake server in a child process (so it does not share our GIL); its base URL."""
    proc = subprocess.Popen([sys.executable, "-m", "tests.fake_openai_server", "--port", "0",
                             "--latency", str(latency)], cwd=ROOT, stdout=subprocess.PIPE,
                            text=True)
    line = proc.stdout.readline() if proc.stdout else ""
    if "listening on" not in line:
        proc.kill()
        raise RuntimeError(f"server did not start: {line!r}")
    return proc, line.split("listening on", 1)[1].strip()


def llm_config(base: str) -> ConsultationConfig:
    """All four roles by model, no exact moderator, no final report."""
    def spec(role: str) -> AgentSpec:
        return AgentSpec(kind="llm", model=f"openai/fake-{role}", api_base=base, timeout=30,
                         retries=0)
    return ConsultationConfig(doctor=spec("doctor"), patient=spec("patient"),
                              examiner=spec("examiner"), moderators=[spec("moderator")])


class RecordingClient(LLMClient):
    """Records every call's (spec, messages), grouped by consultation, for the bare loop."""

    def __init__(self) -> None:
        super().__init__(api_key=KEY)
        self.calls: list[tuple[AgentSpec, list[dict[str, str]]]] = []

    async def complete(self, spec: AgentSpec, messages: Any, on_delta: Any = None) -> Any:
        self.calls.append((spec, [dict(m) for m in messages]))
        if on_delta is None:
            return await super().complete(spec, messages)
        return await super().complete(spec, messages, on_delta)


CASES_USED, SEEDS = 16, 4  # 16 cases × 4 seeds = 64 distinct (case, config) pairs


def run_spec(store: SqliteStore, base: str, concurrency: int) -> runs.RunSpec:
    """A stored run of 64 consultations: 16 bundled cases × 4 seeds of the all-model config
    (distinct seeds: a run plays each (case, config) pair once)."""
    configs = [llm_config(base).model_copy(update={"seed": s}) for s in range(SEEDS)]
    return runs.create(store, load_bundled_cases()[:CASES_USED], configs,
                       concurrency=concurrency)


async def record_calls(base: str) -> list[list[tuple[AgentSpec, list[dict[str, str]]]]]:
    """One consultation per case used, recording its calls (also warms litellm up); then
    the calls of each of the 64 consultations, in the run's job order."""
    per_case = []
    for case in load_bundled_cases()[:CASES_USED]:
        client = RecordingClient()
        await run_consultation(case, llm_config(base), ListSink(), consultation_id="rec",
                               llm=client)
        per_case.append(client.calls)
    return [per_case[i % CASES_USED] for i in range(CONSULTATIONS)]


async def bedside_run(base: str, concurrency: int, folder: Path, stream: bool) -> float:
    """Wall time of 64 consultations recorded in SQLite, as `bedside run` (whole replies)
    or the app (streamed) does them; the database, run and cases exist before the clock."""
    store = open_store(folder / f"bench-{time.time_ns()}.db")
    spec = run_spec(store, base, concurrency)
    t0 = time.perf_counter()
    out = await runs.execute(store, spec, llm=LLMClient(api_key=KEY, stream=stream))
    elapsed = time.perf_counter() - t0
    store.close()
    bad = [o for o in out if o.status != "finished"]
    if len(out) != CONSULTATIONS or bad:
        raise RuntimeError(f"{len(bad)} of {len(out)} consultations did not finish: "
                           f"{bad[0].reason if bad else ''}")
    return elapsed


async def bare_run(lib: Any, calls: list[list[tuple[AgentSpec, list[dict[str, str]]]]],
                   concurrency: int, stream: bool) -> float:
    """Wall time of the same calls made directly with litellm (streamed and drained, or
    whole, as bedside makes them in that mode)."""
    sem = asyncio.Semaphore(concurrency)

    async def consultation(seq: list[tuple[AgentSpec, list[dict[str, str]]]]) -> None:
        async with sem:
            for spec, messages in seq:
                extra = {"stream_options": {"include_usage": True}} if stream else {}
                resp = await lib.acompletion(
                    model=spec.model, messages=messages, api_base=spec.api_base, api_key=KEY,
                    stream=stream, max_retries=0, temperature=spec.temperature,
                    max_tokens=spec.max_tokens, timeout=30, **extra)
                if stream:
                    async for _ in resp:
                        pass

    t0 = time.perf_counter()
    await asyncio.gather(*(consultation(seq) for seq in calls))
    return time.perf_counter() - t0


def litellm_import_seconds() -> float:
    """Import time of litellm in a fresh interpreter (local price map, as core.llm does)."""
    code = ("import os, time; os.environ.setdefault('LITELLM_LOCAL_MODEL_COST_MAP', 'True'); "
            "t = time.perf_counter(); import litellm; print(time.perf_counter() - t)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    return float(out.stdout.strip().splitlines()[-1])


def offline_ms_per_turn(make_sink: Callable[[], EventSink], rounds: int = 5) -> float:
    """Engine cost per turn with retrieval patient/examiner, scripted doctor, exact
    moderator, every event going to `make_sink()` (median of `rounds`)."""
    cases = load_bundled_cases()
    counter = iter(range(1_000_000))

    async def once() -> int:
        turns = 0
        sink = make_sink()
        for case in cases:
            t = await run_consultation(case, ConsultationConfig(), sink,
                                       consultation_id=f"off-{next(counter)}")
            if t.end_reason not in ("diagnosis", "budget"):  # never time a failing engine
                raise RuntimeError(f"offline consultation failed: {t.meta.get('error')}")
            turns += len(t.turns)
        return turns

    asyncio.run(once())  # warm-up
    per_turn = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        turns = asyncio.run(once())
        per_turn.append((time.perf_counter() - t0) * 1000 / turns)
    return statistics.median(per_turn)


def sqlite_recorder(folder: Path) -> Callable[[], EventSink]:
    """A factory of recorders on one temporary file database (WAL) holding the cases."""
    store = open_store(folder / "offline.db")
    store.save_cases(load_bundled_cases())
    return store.recorder


async def measure(base: str, runs: int, folder: Path) -> list[dict[str, Any]]:
    """bedside and the bare loop at concurrency 8 and 32 (medians of `runs`)."""
    lib = load_litellm()
    calls = await record_calls(base)
    per = statistics.mean(len(seq) for seq in calls)
    rows = []
    for mode, stream in (("bedside run", False), ("app (streamed)", True)):
        for c in (8, 32):
            ours, bare = [], []
            for _ in range(runs):  # interleaved, so both see the same machine
                ours.append(await bedside_run(base, c, folder, stream))
                bare.append(await bare_run(lib, calls, c, stream))
            ideal = CONSULTATIONS / c * per * LATENCY
            b, r = statistics.median(ours), statistics.median(bare)
            rows.append({"mode": mode, "c": c, "calls": per, "bedside": b, "bare": r,
                         "ideal": ideal, "vs_bare": b / r, "vs_ideal": b / ideal})
    return rows


# (concurrency, latency s, consultations): several waves each, then one wave of 128.
E2E_GRID = [(8, 0.2, 64), (32, 0.2, 128), (128, 0.2, 256), (8, 2.0, 16), (32, 2.0, 64),
            (128, 2.0, 256), (128, 2.0, 128)]


def e2e(args: argparse.Namespace) -> None:
    """The end-to-end grid (or the one setting the options give), one server per latency."""
    from benchmarks import engine_e2e

    grid = E2E_GRID
    if args.concurrency or args.latency or args.consultations:
        c = args.concurrency or 8
        grid = [(c, args.latency or LATENCY, args.consultations or 2 * c)]
    print(f"bedside run vs bare litellm, start-up to exit, median of {args.runs}")
    before = Path(args.before).resolve() if args.before else None
    print(f"{'c':>4} {'latency':>7} {'n':>4} {'calls':>5} {'bedside s':>9} {'bare s':>8} "
          f"{'÷bare':>6}" + (f" {'before s':>8} {'÷bare':>6}" if before else "")
          + "  all bedside / all bare" + (" / all before" if before else ""))
    with tempfile.TemporaryDirectory(prefix="bedside-e2e-") as tmp:
        for latency in sorted({g[1] for g in grid}):
            proc, base = start_server(latency)
            try:
                for c, lat, n in grid:
                    if lat != latency:
                        continue
                    r = engine_e2e.measure(Path(tmp), base, n, c, args.runs, before)
                    _e2e_row(c, lat, n, r)
            finally:
                proc.terminate()
                proc.wait(10)


def _e2e_row(c: int, latency: float, n: int, r: dict[str, Any]) -> None:
    def each(key: str) -> str:
        return " ".join(f"{x:.2f}" for x in r.get(key, []))

    line = (f"{c:>4} {latency:>7.1f} {n:>4} {r['calls']:>5.1f} {r['bedside']:>9.2f} "
            f"{r['bare']:>8.2f} {r['vs_bare']:>6.3f}")
    if "before" in r:
        line += f" {r['before']:>8.2f} {r['before_vs_bare']:>6.3f}"
    line += f"  {each('all_bedside')} / {each('all_bare')}"
    print(line + (f" / {each('all_before')}" if "before" in r else ""), flush=True)


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per setting (median)")
    parser.add_argument("--e2e", action="store_true",
                        help="bedside run vs a bare litellm program, start-up to exit")
    parser.add_argument("--concurrency", type=int, help="with --e2e: one setting's C")
    parser.add_argument("--latency", type=float, help="with --e2e: its latency (s)")
    parser.add_argument("--consultations", type=int, help="with --e2e: its N (default 2C)")
    parser.add_argument("--before", metavar="DIR", help="with --e2e: also time the bedside "
                        "run of the checkout in DIR, in the same alternation")
    args = parser.parse_args(argv)
    if args.e2e:
        e2e(args)
        return
    print(f"litellm import: {litellm_import_seconds():.2f} s (fresh interpreter)")
    with tempfile.TemporaryDirectory(prefix="bedside-bench-") as tmp:
        folder = Path(tmp)
        memory = offline_ms_per_turn(ListSink)
        stored = offline_ms_per_turn(sqlite_recorder(folder))
        print(f"offline engine: {memory:.3f} ms per turn in memory, {stored:.3f} ms per turn "
              "recorded in SQLite (retrieval agents, scripted doctor)")
        proc, base = start_server(LATENCY)
        try:
            rows = asyncio.run(measure(base, args.runs, folder))
        finally:
            proc.terminate()
            proc.wait(10)
    print(f"{CONSULTATIONS} consultations, {rows[0]['calls']:.1f} calls each, "
          f"{LATENCY * 1000:.0f} ms latency, median of {args.runs}")
    print(f"{'mode':<15} {'c':>3} {'bedside s':>10} {'bare s':>8} {'ideal s':>8} "
          f"{'÷bare':>6} {'÷ideal':>7}")
    for r in rows:
        print(f"{r['mode']:<15} {r['c']:>3} {r['bedside']:>10.2f} {r['bare']:>8.2f} "
              f"{r['ideal']:>8.2f} {r['vs_bare']:>6.3f} {r['vs_ideal']:>7.3f}")


if __name__ == "__main__":
    main()
