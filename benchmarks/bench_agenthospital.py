"""Agent Hospital benchmark: generating patients, storing them, and the offline evolution
at full size.

(a) Generation: the training and test cases of a seed (default 10,000 and 500) built as
    bedside cases, median of several runs, as a ratio against a baseline measured in the
    same run: validating the same cases from their JSON (what reading them back costs).
    Also the fast path the evolution uses (encounters and keys, no case objects).
(b) Storing them in a fresh project database (`bedside agenthospital generate` does this).
(c) The offline evolution (`bedside evolve`, nearest-record learner, BM25): every arm
    over the training stream, tested every K patients; the time per arm and the points
    before and after training, which are the figures the README quotes.

    .venv/bin/python -m benchmarks.bench_agenthospital [--train 10000] [--test 500]
        [--every 1000] [--runs 3] [--seed 7]

Target: 10,000 cases generated in seconds (under 10 s on a loaded 2-core machine).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from core.agenthospital.evolve import evolve_arm
from core.agenthospital.generator import generate, stream
from core.agenthospital.kb import bundled_kb
from core.agenthospital.learner import Learner
from core.agenthospital.doctors import NearestDoctor
from core.agenthospital.memory import ARMS
from core.case import Case
from core.caseio import case_to_json
from db.store import open_store


def _timed(work: object) -> float:
    started = time.perf_counter()
    work()  # type: ignore[operator]
    return time.perf_counter() - started


def generation(train: int, test: int, seed: int, runs: int) -> list[Case]:
    """Time building the cases, against validating them from JSON."""
    kb = bundled_kb()
    cases: list[Case] = []

    def build() -> None:
        cases[:] = [*generate(kb, seed, "train", train), *generate(kb, seed, "test", test)]

    made = [_timed(build) for _ in range(runs)]
    texts = [case_to_json(c) for c in cases]
    parsed = [_timed(lambda: [Case.model_validate_json(t) for t in texts]) for _ in range(runs)]
    fast = [_timed(lambda: (list(stream(kb, seed, "train", train)),
                            list(stream(kb, seed, "test", test)))) for _ in range(runs)]
    g, p, f = statistics.median(made), statistics.median(parsed), statistics.median(fast)
    print(f"(a) {len(cases)} cases generated in {g:.2f} s (median of {runs}); validating "
          f"them from JSON {p:.2f} s: ratio {g / p:.2f}; encounters only (the evolution's "
          f"fast path) {f:.2f} s; {sum(map(len, texts)) / len(texts) / 1024:.1f} KiB of JSON "
          "per case")
    return cases


def storing(cases: list[Case]) -> None:
    """Time storing the cases in a fresh database."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        store = open_store(path)
        took = _timed(lambda: store.import_cases(cases))
        again = _timed(lambda: store.import_cases(cases))
        store.close()
        size = path.stat().st_size / 2**20
    print(f"(b) stored in {took:.2f} s ({size:.0f} MiB); stored again, all unchanged, "
          f"in {again:.2f} s")


async def evolution(train: int, test: int, every: int, seed: int) -> None:
    """The offline evolution, every arm; times and the figures before and after."""
    kb = bundled_kb()
    tests = list(stream(kb, seed, "test", test))
    print(f"(c) offline evolution: {train} training patients, {test} test patients every "
          f"{every}, nearest-record doctor, BM25, k 3, exploration 0.2")
    for arm in ARMS:
        learner = Learner(kb, NearestDoctor(), arm=arm, k=3, explore=0.2)
        started = time.perf_counter()
        points = await evolve_arm(arm, learner, stream(kb, seed, "train", train), tests,
                                  train_n=train, test_every=every)
        took = time.perf_counter() - started
        first = {p.task: p for p in points if p.seen == 0}
        last = {p.task: p for p in points if p.seen == train}
        cells = "  ".join(f"{t} {100 * (first[t].test_accuracy or 0):.0f}→"
                          f"{100 * (last[t].test_accuracy or 0):.0f}%"
                          for t in ("examination", "diagnosis", "treatment"))
        principles = sum(p.principles for p in last.values())
        records = sum(p.records for p in last.values())
        print(f"    {arm:<10} {took:6.1f} s  test accuracy {cells}  ({records} records, "
              f"{principles} principles)")


def main() -> None:
    """Run the three parts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=int, default=10_000)
    parser.add_argument("--test", type=int, default=500)
    parser.add_argument("--every", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    cases = generation(args.train, args.test, args.seed, args.runs)
    storing(cases)
    asyncio.run(evolution(args.train, args.test, args.every, args.seed))


if __name__ == "__main__":
    main()
