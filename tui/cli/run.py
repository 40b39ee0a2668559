"""`bedside run`: run cases × configurations as a resumable batch and print a summary.

Exits 0 only when every consultation of the run finished; a failed one (this time, or
left failed by an earlier attempt and not retried) makes it 1, with how many and why.

Headless: a plain progress line on stderr, the summary table (or JSON) on stdout. One
option per experimental factor (`core.factors`), each repeatable; the configurations are
their grid, built with a run file's keys (`--config`) by `core.usecases.plans`. The run
itself (create or resume, execute, final status, results) is `core.usecases.runs`, shared
with the app; this module collects the options and prints.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from core.errors import InputError, LeaseLostError, RunHalted
from core.usecases.plans import MAX_CONCURRENCY


def register(sub: argparse._SubParsersAction, add_db: Callable[..., None]) -> None:
    """Add `bedside run`."""
    p = sub.add_parser("run", help="run consultations as a batch (offline by default)",
                       description="Run cases x configurations. With no options, every "
                       "bundled case offline: scripted doctor, retrieval patient and "
                       "examiner, exact-match moderator. Every experimental factor "
                       "(" + ", ".join(_factor_names()) + ") takes several values, "
                       "repeated or comma-separated: the run is the grid of them all.")
    p.add_argument("--config", metavar="FILE.toml",
                   help="a run file: the same keys as these options, with underscores "
                   "(options given here override it); stored with the run")
    _case_options(p)
    _factor_options(p)
    _model_options(p)
    _run_options(p)
    add_db(p)
    p.set_defaults(func=run)


def _factor_names() -> list[str]:
    from core.factors import FACTORS

    return list(FACTORS)


def _case_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cases", metavar="SPEC",
                   help="comma-separated case ids (wildcards ok), sources, specialties or "
                   "languages; terms of one kind are alternatives (OR), different kinds "
                   "must all match (AND): 'cardiology,neurology' is either specialty, "
                   "'pediatrics,es' the Spanish pediatrics cases, 'card-*' ids by wildcard")
    p.add_argument("--limit", type=int, metavar="N", help="run at most N cases")


def _factor_options(p: argparse.ArgumentParser) -> None:
    """One option per experimental factor (`core.factors`), repeatable."""
    from core.factors import FACTORS

    for factor in FACTORS.values():
        extra = " (a human doctor plays in the app)" if factor.name == "doctor" else ""
        several = ("repeat the option" if "," in factor.combine
                   else "repeat or comma-separate")
        bare = {o: v for o, v, _ in factor.flags}
        # A flag of the option's own name: given bare, it means that value.
        own = {"nargs": "?", "const": bare[factor.option]} if factor.option in bare else {}
        p.add_argument(factor.option, action="append", metavar=factor.metavar,
                       dest=factor.name,
                       help=f"{factor.help}{extra}; several values: {several}", **own)
        for option, value, text in factor.flags:
            if option != factor.option:
                p.add_argument(option, action="append_const", const=value,
                               dest=factor.name, help=text)


def _model_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--api-base", metavar="URL", help="OpenAI-compatible server for models")
    p.add_argument("--api-key-env", metavar="VAR",
                   help="environment variable holding the API key (the key is never stored)")
    p.add_argument("--temperature", type=float, help="0 to 2 (default 0)")
    p.add_argument("--max-tokens", type=int, help="reply limit (default 512); a longer reply "
                   "is cut at 8 characters a token")
    p.add_argument("--timeout", type=float, help="seconds per model call (default 60)")
    p.add_argument("--retries", type=int, help="0 to 10 (default 3)")
    p.add_argument("--seed", type=int, help="seed of the agents and models (default 0)")


def _run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--final-report", action="store_true",
                   help="ask the doctor for a structured final report")
    p.add_argument("--one-step", action="store_true",
                   help="also give each model doctor every case whole, answered in one turn "
                   "(the upper bound), stored in the same run")
    p.add_argument("--concurrency", type=int, default=None,
                   help=f"consultations at once, 1 to {MAX_CONCURRENCY} (default 8; on "
                   "--resume, the run's own)")
    p.add_argument("--model-limit", action="append", metavar="MODEL=N", default=[],
                   help="at most N concurrent consultations using MODEL (repeatable)")
    p.add_argument("--resume", metavar="RUN", help="resume an interrupted run by id or name")
    p.add_argument("--retry-failed", action="store_true",
                   help="with --resume: also redo the run's failed consultations")
    p.add_argument("--router", metavar="FILE",
                   help="a litellm Router configuration (YAML or JSON: model_list with "
                   "several deployments of a model name, rpm/tpm limits, fallbacks, "
                   "num_retries, routing_strategy); every model agent of the run must be one "
                   "of its model names; keys as os.environ/VAR only; stored with the run, "
                   "and resumes use it")
    p.add_argument("--name", help="a name for the run")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    from tui.cli import run_workers

    run_workers.add_options(p)


def _model_limits(items: list[str]) -> dict[str, int]:
    out = {}
    for item in items:
        model, _, n = item.rpartition("=")
        if not model or not n.isdigit() or int(n) < 1:
            raise InputError(f"expected MODEL=N with N at least 1, got '{item}'",
                             field="--model-limit")
        out[model] = int(n)
    return out


def check_options(args: argparse.Namespace) -> None:
    """Reject contradictory options with one line naming the option (values are checked
    with the run file's, when the plan is built)."""
    from core.factors import FACTORS

    if args.concurrency is not None and not 1 <= args.concurrency <= MAX_CONCURRENCY:
        raise InputError(f"must be from 1 to {MAX_CONCURRENCY} (got {args.concurrency})",
                         field="--concurrency")
    if args.retry_failed and not args.resume:
        raise InputError("only applies to a resumed run: add --resume RUN",
                         field="--retry-failed")
    changed = [f.option for f in FACTORS.values() if getattr(args, f.name)]
    changed += [o for o, v in (("--one-step", args.one_step), ("--config", args.config),
                               ("--router", args.router)) if v]
    if args.resume and changed:
        raise InputError("a resumed run keeps its own configuration; start a new run to "
                         f"change it (remove {', '.join(changed)})", field="--resume")


def _given(args: argparse.Namespace) -> dict[str, Any]:
    """What the command line gave, by key, for `core.usecases.plans.build_plan`."""
    from core.factors import FACTORS
    from core.usecases.plans import DEFAULTS

    given: dict[str, Any] = {k: getattr(args, k, None) for k in DEFAULTS if k != "model_limit"}
    given["model_limit"] = _model_limits(args.model_limit)
    given.update({name: getattr(args, name) for name in FACTORS})
    return given


class _Progress:
    """A one-line progress bar on stderr (a line per consultation when not a terminal)."""

    def __init__(self, total: int) -> None:
        self.total, self.done, self.failed = total, 0, 0
        self.tty = sys.stderr.isatty()
        self.start = time.monotonic()

    def __call__(self, done: int, total: int, outcome: Any = None) -> None:
        self.done, self.total = done, total
        if outcome is not None and outcome.status in ("failed", "cancelled"):
            self.failed += 1
        width = 30
        filled = int(width * done / total) if total else width
        line = (f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total}  failed "
                f"{self.failed}  {time.monotonic() - self.start:5.1f}s")
        if self.tty:
            from tui.text.safe import write_trusted

            write_trusted(sys.stderr, "\r")  # our own: rewinds the line, is not text
            print(line, end="", file=sys.stderr, flush=True)
        elif done == total or done % max(1, total // 10) == 0:
            print(line, file=sys.stderr, flush=True)

    def close(self) -> None:
        """End the progress line."""
        if self.tty:
            print(file=sys.stderr)


def _plan(args: argparse.Namespace) -> Any:
    """The new run's plan: the options over the run file (checked before anything is
    written)."""
    from core import runfile
    from core.usecases.plans import build_plan

    return build_plan(_given(args), runfile.load(args.config) if args.config else None)


def _router_file(args: argparse.Namespace, plan: Any) -> dict[str, Any] | None:
    """The checked router file of a new run (every model agent routed by it), to store."""
    if not args.router:
        return None
    from core import router
    from core.llm import load_litellm

    found = router.load(args.router)
    if any(s.api_base for c in plan.configs
           for s in (c.doctor, c.patient, c.examiner, *c.moderators)):
        raise InputError("the router file gives each deployment's server: remove it",
                         field="--api-base")
    found.check_models(router.models_of(plan.configs))
    router.build_router(load_litellm(), found)  # its settings, checked by litellm now
    return found.stored()


def _new_spec(store: Any, plan: Any, router_file: dict[str, Any] | None = None) -> Any:
    from core.caseio import load_bundled_cases
    from core.usecases import runs
    from core.usecases.agenthospital import run_cases

    cases = run_cases(store, load_bundled_cases(), plan.configs, plan.cases, plan.limit,
                      one_step=plan.one_step)
    return runs.create(store, cases, plan.configs, concurrency=plan.concurrency,
                       model_limits=plan.model_limits, one_step=plan.one_step,
                       name=plan.name, origin="cli", run_file=plan.run_file,
                       router_file=router_file)


def _resumed_spec(store: Any, args: argparse.Namespace) -> Any:
    from core.caseio import load_bundled_cases
    from core.usecases import runs

    spec = runs.resume(store, args.resume, library=load_bundled_cases())
    if spec.abandoned:
        print(f"resuming {spec.run_id}: {spec.abandoned} interrupted consultation(s) will be "
              "redone", file=sys.stderr)
    if spec.changed_cases:
        print(f"bedside: warning: {len(spec.changed_cases)} case(s) changed since the run "
              f"began ({', '.join(spec.changed_cases[:5])}); each consultation records the "
              "content hash it was played on", file=sys.stderr)
    return spec


async def _execute(store: Any, spec: Any, args: argparse.Namespace,
                   progress: _Progress) -> None:
    """The batch; Ctrl+C and SIGTERM cancel it (the run is marked interrupted)."""
    from core.llm import LLMClient
    from core.router import of_run
    from core.usecases import runs

    from tui.cli.signals import cancel_on_signals

    # No stray traceback however many times Ctrl+C is pressed (tui.cli.signals).
    cancel_on_signals()

    if args.workers > 1:
        from tui.cli import run_workers

        await run_workers.supervise(store, spec, args, progress)
        return
    # Nobody watches token deltas here (an app attached from another terminal reads
    # completed turns): whole replies cost litellm about half the CPU of streamed ones.
    from core.usecases.scoring import scoring_as_they_end

    # Each consultation scored as it ends: not all of them after the last reply. The
    # summary is read from the database, so no outcome is kept (flat memory however long).
    await runs.execute(store, spec, retry_failed=args.retry_failed,
                       progress=scoring_as_they_end(store, progress),
                       llm=LLMClient(stream=False, router=of_run(spec.router_file)), keep=False)


def run(args: argparse.Namespace) -> int:
    """Run (or resume) a batch and print its summary."""
    from core.usecases.results import summarise
    from db.store import open_store

    from tui.cli import run_workers

    if args.worker_of:  # a worker process of `--workers N` (started by its owner)
        return run_workers.work(args)
    check_options(args)
    limits = _model_limits(args.model_limit)  # checked before anything is written
    plan = None if args.resume else _plan(args)
    if plan is not None:
        _preload_litellm(plan.configs)
        run_workers.check(args.workers, plan.concurrency, plan.configs)
    router_file = None if plan is None else _router_file(args, plan)
    store = open_store(args.db)
    spec = _resumed_spec(store, args) if args.resume else _new_spec(store, plan, router_file)
    if args.resume:  # limits may change on resume (another machine, a rate limit)
        _preload_litellm(spec.configs)
        spec.model_limits = limits or spec.model_limits
        spec.concurrency = args.concurrency or spec.concurrency
        run_workers.check(args.workers, spec.concurrency, spec.configs)
    _warn_images(spec)
    progress = _Progress(len(spec.jobs()))
    try:
        asyncio.run(_execute(store, spec, args, progress))
    except (KeyboardInterrupt, asyncio.CancelledError):
        progress.close()
        print(f"bedside: interrupted; everything completed is saved. Resume with "
              f"`bedside run --resume {spec.run_id}`", file=sys.stderr)
        return 130
    except RunHalted as err:
        progress.close()
        print(halted_message(err, spec.run_id), file=sys.stderr)
        return 1
    progress.close()
    from core.usecases.results import task_results

    rows = summarise(store, spec.run_id)
    _print_summary(spec.run_id, rows, task_results(store, run_id=spec.run_id), args.json)
    return _exit_status(store, spec.run_id)


def _preload_litellm(configs: list[Any]) -> None:
    """Start importing litellm (seconds) in a thread when the run calls models, so the
    import overlaps opening the database and loading the cases."""
    from core.router import models_of

    if models_of(configs):
        from core.llm import preload

        preload()


def _exit_status(store: Any, run_id: str) -> int:
    """0 when every consultation of the run finished; else 1, saying how many did not and
    the first reasons on stderr (after the summary, so they are the last thing seen)."""
    from core.usecases.runs import unfinished_report

    lines = unfinished_report(store, run_id)
    if not lines:
        return 0
    print(f"bedside: {lines[0]}:", file=sys.stderr)
    for line in lines[1:]:
        print(line, file=sys.stderr)
    return 1


def _warn_images(spec: Any) -> None:
    """One line on stderr per image problem a model doctor of the run will meet."""
    from core.image_cache import default_cache
    from core.usecases.image_check import image_warnings

    def vision(model: str) -> bool | None:
        from core.llm import load_litellm, vision_support

        return vision_support(load_litellm(), model)

    for warning in image_warnings(spec.cases, spec.configs, default_cache(), vision):
        print(f"bedside: warning: {warning}", file=sys.stderr)


def halted_message(err: RunHalted, run_id: str) -> str:
    """The one line for a run that had to stop (a database that cannot be written, a run
    taken over by another process)."""
    if isinstance(err, LeaseLostError):
        return f"bedside: {err}"
    return (f"bedside: the run stopped: {err}. Everything committed is kept; once that is "
            f"fixed, resume with `bedside run --resume {run_id}`")


def _print_summary(run_id: str, rows: list[dict[str, Any]], tasks: list[dict[str, Any]],
                   as_json: bool) -> None:
    from tui.text.results_table import format_table
    from tui.text.task_table import format_task_table

    if as_json:
        from core.metrics.names import public_row

        out: dict[str, Any] = {"run_id": run_id, "results": [public_row(r) for r in rows]}
        if tasks:
            out["tasks"] = tasks
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        print(f"run {run_id}  (resume or re-run: bedside run --resume {run_id})")
        if rows or not tasks:
            print(format_table(rows, "model"))
        if tasks:
            print(format_task_table(tasks))
