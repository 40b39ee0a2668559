"""End-to-end concurrency figure: `bedside run` against a bare litellm program making the
same calls, both timed from process start to exit (what a user waits for).

`bedside run` is run as typed: all four roles played by models on the local fake server
(tests/fake_openai_server.py, in a child process, with a fixed latency per reply), a grid of
doctor model names so that the run has N consultations, `--concurrency C`, on a copy of a
database that already holds the cases (a user's project database exists; the copy is made
before the clock). Its fixed costs count: interpreter start-up and imports, case loading,
run creation, the work after the last reply (metrics, summary, exit).

The bare program (`python -m benchmarks.engine_e2e bare FILE C`) imports litellm as
core.llm does, then makes the very same chat calls (recorded once, in process, from the
same configurations bedside builds from those options, on a zero-latency server): one
chain of calls per consultation, C chains at once, whole replies. Its start-up (the
interpreter and litellm) counts too.

The two alternate, so both see the same machine load; `measure` returns the medians and
their ratio. Driven by `python -m benchmarks.bench_engine --e2e` (see there).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ROLES = ("patient", "examiner", "moderator")


def grid_for(n: int, library: int) -> tuple[int, int]:
    """(doctors, cases) with doctors × cases == n and cases ≤ the library's size."""
    for doctors in range(1, n + 1):
        if n % doctors == 0 and n // doctors <= library:
            return doctors, n // doctors
    raise ValueError(f"cannot make {n} consultations")


def run_args(n: int, concurrency: int, base: str) -> list[str]:
    """The `bedside run` options of an N-consultation all-model run."""
    from core.caseio import load_bundled_cases

    ids = [c.id for c in load_bundled_cases()]
    doctors, cases = grid_for(n, len(ids))
    args = ["--cases", ",".join(ids[:cases]),
            "--doctor", ",".join(f"openai/fake-doctor-{i}" for i in range(doctors))]
    for role in ROLES:
        args += [f"--{role}", f"openai/fake-{role}"]
    return args + ["--api-base", base, "--concurrency", str(concurrency), "--retries", "0",
                   "--json"]


def record(args: list[str]) -> list[list[dict[str, Any]]]:
    """The calls of each consultation of the run `args` describes, in job order: the
    configurations bedside builds from those options, played in process on a zero-latency
    server, every call's keyword arguments recorded."""
    from core.caseio import load_bundled_cases
    from core.engine import run_consultation
    from core.events import ListSink
    from core.llm import LLMClient, raw_request
    from tests.fake_openai_server import FakeOpenAIServer
    from tui.cli import build_parser
    from tui.cli.run import _plan

    ns = build_parser().parse_args(["run", *args])
    plan = _plan(ns)
    wanted = set(ns.cases.split(","))
    cases = [c for c in load_bundled_cases() if c.id in wanted]

    class Recording(LLMClient):
        def __init__(self) -> None:
            super().__init__(stream=False)
            self.calls: list[dict[str, Any]] = []

        async def complete(self, spec: Any, messages: Any, on_delta: Any = None) -> Any:
            self.calls.append(raw_request(spec, [dict(m) for m in messages]))
            return await super().complete(spec, messages)

    async def play(server_base: str) -> list[list[dict[str, Any]]]:
        out = []
        for config in plan.configs:
            local = _rebased(config, server_base)
            for case in cases:
                client = Recording()
                await run_consultation(case, local, ListSink(), consultation_id="rec",
                                       llm=client)
                out.append(client.calls)
        return out

    with FakeOpenAIServer(latency=0.0) as server:
        return asyncio.run(play(server.base_url))


def _rebased(config: Any, base: str) -> Any:
    """`config` with every model agent sent to `base`."""
    def spec(s: Any) -> Any:
        return s.model_copy(update={"api_base": base}) if s.kind == "llm" else s
    return config.model_copy(update={
        "doctor": spec(config.doctor), "patient": spec(config.patient),
        "examiner": spec(config.examiner), "moderators": [spec(m) for m in config.moderators]})


def _timed(cmd: list[str], env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    took = time.perf_counter() - start
    if out.returncode != 0:
        raise RuntimeError(f"{cmd[2:4]} exit {out.returncode}: {out.stderr[-2000:]}")
    return took, out.stdout


def measure(folder: Path, base: str, n: int, concurrency: int, runs: int,
            before: Path | None = None) -> dict[str, Any]:
    """Medians of `runs` alternated bedside / bare runs of N consultations at C (and
    `before`'s bedside, another checkout of the code, e.g. `git archive` of an older
    commit, run the same way in the same alternation)."""
    args = run_args(n, concurrency, base)
    calls = record(args)
    from core.llm import PLACEHOLDER_KEY

    for seq in calls:
        for kw in seq:  # the server and key bedside sends (the bare program imports no bedside)
            kw.update(api_base=base, api_key=PLACEHOLDER_KEY)
    calls_file = folder / f"calls-{n}-{concurrency}.json"
    calls_file.write_text(json.dumps(calls))
    template = folder / "template.db"
    if not template.exists():
        from db.store import open_store

        store = open_store(template)
        from core.caseio import load_bundled_cases

        store.save_cases(load_bundled_cases())
        store.close()
    env = {**os.environ, "BEDSIDE_HOME": str(folder)}
    ours: list[float] = []
    bare: list[float] = []
    old: list[float] = []
    for i in range(runs):
        ours.append(_bedside(folder, template, args, n, f"{n}-{concurrency}-{i}", env, ROOT))
        if before is not None:
            old.append(_bedside(folder, template, args, n, f"{n}-{concurrency}-{i}-before",
                                env, before))
        bare.append(_timed([sys.executable, "-m", "benchmarks.engine_e2e", "bare",
                            str(calls_file), str(concurrency)], env)[0])
    per = statistics.mean(len(s) for s in calls)
    b, r = statistics.median(ours), statistics.median(bare)
    out = {"n": n, "c": concurrency, "calls": per, "bedside": b, "bare": r,
           "vs_bare": b / r, "all_bedside": ours, "all_bare": bare}
    if old:
        out.update(before=statistics.median(old), before_vs_bare=statistics.median(old) / r,
                   all_before=old)
    return out


def _bedside(folder: Path, template: Path, args: list[str], n: int, tag: str,
             env: dict[str, str], root: Path) -> float:
    """Wall time of one `bedside run` of the code at `root`, on a copy of the template."""
    db = folder / f"run-{tag}.db"
    shutil.copy(template, db)
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "tui.cli", "run", "--db", str(db), *args],
                         cwd=root, env=env, capture_output=True, text=True, check=False)
    took = time.perf_counter() - start
    if out.returncode != 0:
        raise RuntimeError(f"bedside run ({root}) exit {out.returncode}: {out.stderr[-2000:]}")
    got = sum(r.get("n", 0) for r in json.loads(out.stdout)["results"])
    if got != n:
        raise RuntimeError(f"bedside ({root}) finished {got} of {n} consultations")
    return took


async def _bare(calls: list[list[dict[str, Any]]], concurrency: int) -> None:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    litellm.suppress_debug_info = True
    litellm.drop_params = True
    sem = asyncio.Semaphore(concurrency)

    async def consultation(seq: list[dict[str, Any]]) -> None:
        async with sem:
            for kw in seq:
                resp = await litellm.acompletion(**kw, max_retries=0)
                if not resp.choices[0].message.content:
                    raise RuntimeError("empty reply")

    await asyncio.gather(*(consultation(seq) for seq in calls))


def bare_main(argv: list[str]) -> None:
    """`bare FILE C`: the recorded calls, C consultations at once."""
    calls = json.loads(Path(argv[1]).read_text())
    asyncio.run(_bare(calls, int(argv[2])))


if __name__ == "__main__":
    bare_main(sys.argv[1:])
