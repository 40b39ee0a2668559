"""`bedside run --workers N`: the run spread over N worker processes on one database.

The `bedside run` process owns the run (its lease) and starts N copies of itself as workers
(`bedside run --worker-of RUN …`, options hidden from the help), each with its share of the
concurrency (`core.usecases.workers`). A worker rebuilds the run, says it is ready, waits
until every worker is (so they start together), then plays the units it claims and writes
one line of JSON per consultation it played on stdout; its stderr is the owner's. The owner
reads those lines for the progress bar, and prints the results as for one process.

Stopping: Ctrl+C reaches every process of the terminal; SIGTERM to the owner is passed on
to the workers; a worker whose owner is gone (its stdin closes) stops too. Each records the
cancellations of what it was playing, so the run resumes as after any interruption.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
import threading
from typing import Any

from core.errors import BedsideError, InputError, RunHalted

MAX_WORKERS = 32


def add_options(p: argparse.ArgumentParser) -> None:
    """`--workers`, and the hidden options a worker is started with."""
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="spread the run over N processes on this database, for a machine "
                   f"with many cores (1 to {MAX_WORKERS}, at most --concurrency; default 1); "
                   "the concurrency and model limits are shared among them")
    p.add_argument("--worker-of", help=argparse.SUPPRESS)
    p.add_argument("--worker-lease", help=argparse.SUPPRESS)
    p.add_argument("--worker-index", type=int, default=0, help=argparse.SUPPRESS)


def check(workers: int, concurrency: int, configs: Any = ()) -> None:
    """One line naming --workers when it cannot be honoured."""
    from core.usecases.doctor_tools import shares_notebook

    if not 1 <= workers <= MAX_WORKERS:
        raise InputError(f"must be from 1 to {MAX_WORKERS} (got {workers})", field="--workers")
    if workers > concurrency:
        raise InputError(f"{workers} workers need a concurrency of at least {workers} (it is "
                         f"{concurrency}): raise --concurrency or use fewer workers",
                         field="--workers")
    if workers > 1 and shares_notebook(list(configs)):
        raise InputError("a doctor of this run keeps the notebook, which its consultations "
                         "share as they go in one process: run it without --workers",
                         field="--workers")


# -- the owner ---------------------------------------------------------------------------------

async def supervise(store: Any, spec: Any, args: argparse.Namespace, progress: Any) -> None:
    """Own the run and play it through `args.workers` worker processes."""
    from core.usecases import workers

    done = store.done_keys(spec.run_id, retry_failed=args.retry_failed)
    jobs = spec.jobs()
    done_before = sum(1 for job in jobs if (job.case.id, job.key()) in done)
    total = len(jobs)

    async def spawn(fence: tuple[str, str], cancel: asyncio.Event) -> list[Any]:
        pool = _Pool(args, fence, done_before, total, progress)
        return await pool.play(cancel)

    await workers.supervise(store, spec, spawn)


class _Pool:
    """The worker processes of one run, as the owner sees them."""

    def __init__(self, args: argparse.Namespace, fence: tuple[str, str], done: int,
                 total: int, progress: Any) -> None:
        self.args, self.fence, self.done, self.total = args, fence, done, total
        self.progress = progress
        self.procs: list[asyncio.subprocess.Process] = []
        self.outcomes: list[Any] = []
        self.halted: list[dict[str, Any]] = []

    def _argv(self, index: int) -> list[str]:
        from db.files import default_db_path

        argv = [sys.executable, "-m", "tui.cli", "run", "--db",
                str(self.args.db or default_db_path()), "--worker-of", self.fence[0],
                "--worker-lease", self.fence[1], "--worker-index", str(index),
                "--workers", str(self.args.workers)]
        return argv + (["--retry-failed"] if self.args.retry_failed else [])

    async def play(self, cancel: asyncio.Event) -> list[Any]:
        """Start the workers, let them go together, collect their outcomes."""
        try:
            for i in range(self.args.workers):
                self.procs.append(await asyncio.create_subprocess_exec(
                    *self._argv(i), stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE))
            for proc in self.procs:  # every worker ready before any claims
                await self._read(proc, until_ready=True)
            for proc in self.procs:
                assert proc.stdin is not None
                proc.stdin.write(b"go\n")
                await proc.stdin.drain()
            stop = asyncio.create_task(self._stop_on(cancel))
            try:
                await asyncio.gather(*(self._read(p) for p in self.procs))
                codes = [await p.wait() for p in self.procs]
            finally:
                stop.cancel()
        except asyncio.CancelledError:
            await asyncio.shield(self._terminate())
            raise
        return self._result(codes, cancel)

    async def _read(self, proc: asyncio.subprocess.Process, until_ready: bool = False) -> None:
        from core.usecases.workers import outcome_from

        assert proc.stdout is not None
        async for raw in proc.stdout:
            data = json.loads(raw)
            if data.get("ready"):
                if until_ready:
                    return
            elif "halted" in data:
                self.halted.append(data)
            else:
                outcome = outcome_from(data)
                self.outcomes.append(outcome)
                self.done += 1
                self.progress(self.done, self.total, outcome)
        if until_ready:  # ended before it was ready: its error is on stderr
            raise BedsideError(f"a worker process could not start (exit status "
                               f"{await proc.wait()}); see the lines above")

    async def _stop_on(self, cancel: asyncio.Event) -> None:
        await cancel.wait()  # the owner lost its lease: the workers stop
        await self._terminate()

    async def _terminate(self) -> None:
        for proc in self.procs:
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            await proc.wait()

    def _result(self, codes: list[int], cancel: asyncio.Event) -> list[Any]:
        from core.usecases.workers import halted_from

        if self.halted:
            raise halted_from(self.halted[0])
        failed = [f"{i} ({code})" for i, code in enumerate(codes) if code not in (0, 130)]
        if failed and not cancel.is_set():
            raise BedsideError(f"worker process {', '.join(failed)} failed (exit status in "
                               "brackets); see the lines above. What they finished is "
                               f"kept: `bedside run --resume {self.fence[0]}` finishes it")
        return self.outcomes


# -- a worker ----------------------------------------------------------------------------------

def _say(data: dict[str, Any]) -> None:
    print(json.dumps(data), flush=True)


def work(args: argparse.Namespace) -> int:
    """A worker process: rebuild the run, wait for the go, play what it claims."""
    from core.caseio import load_bundled_cases
    from core.usecases import workers
    from db.store import open_store

    store = open_store(args.db)
    # The library too, not only the cases the run saved: a library case read from its file
    # knows the folder of its image files.
    spec = workers.attach(store, args.worker_of, args.worker_lease, index=args.worker_index,
                          workers=args.workers, library=load_bundled_cases())
    _say({"ready": True})
    if sys.stdin.readline().strip() != "go":
        return 130  # the owner is gone
    try:
        asyncio.run(_work(store, spec, args))
    except (KeyboardInterrupt, asyncio.CancelledError):
        return 130
    except RunHalted as err:
        _say(workers.halted_line(err))
        return 1
    return 0


async def _work(store: Any, spec: Any, args: argparse.Namespace) -> None:
    from core.llm import LLMClient
    from core.router import of_run
    from core.usecases import workers

    task = asyncio.current_task()
    assert task is not None
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, task.cancel)

    def owner_gone() -> None:  # the owner's end of our stdin closes when it dies
        sys.stdin.read()
        loop.call_soon_threadsafe(task.cancel)

    threading.Thread(target=owner_gone, daemon=True).start()

    def report(_done: int, _total: int, outcome: Any) -> None:
        if outcome.status not in ("skipped", "elsewhere"):
            _say(workers.outcome_line(outcome))

    await workers.work(store, spec, index=args.worker_index, retry_failed=args.retry_failed,
                       progress=report,
                       llm=LLMClient(stream=False, router=of_run(spec.router_file)))
