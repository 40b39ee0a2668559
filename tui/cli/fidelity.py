"""`bedside fidelity`: how faithfully the patient and examiner agents of runs answered.

Checks every finished consultation of the runs with the fidelity rules (stored, so the app
and the next report read them without recomputing; recomputed when the case or the rules
change), optionally asks an LLM grader about every answer (stored per answer with its
model, parameters and prompt hash; answers already graded by the same grader are skipped),
then prints the figures per run and agent side by side, ranked within each role. Replaying
one file in each run (`bedside run --doctor replay:FILE`) makes the agents answer the same
questions. Headless; exit 1 when a grader call failed or there was nothing to check.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Callable

from core.errors import InputError


def register(sub: argparse._SubParsersAction, add_db: Callable[..., None]) -> None:
    """Add `bedside fidelity`."""
    p = sub.add_parser("fidelity", help="simulator fidelity of runs' patient and examiner agents",
                       description="Leaks, record-consistent answers, answers that address "
                       "the question, language kept and examiner accuracy, per patient and "
                       "examiner agent of each run, side by side; results are stored and "
                       "shown in the app (Fidelity, f at home).")
    p.add_argument("--run", action="append", required=True, metavar="RUN",
                   help="a run (id or name); repeat to compare runs side by side")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--grader", metavar="MODEL",
                   help="an LLM grader (litellm model string) that decides what the rules "
                   "cannot and grades honesty and relevance; one call per answer")
    p.add_argument("--api-base", metavar="URL", help="OpenAI-compatible server for the grader")
    p.add_argument("--api-key-env", metavar="VAR",
                   help="environment variable holding the API key (the key is never stored)")
    p.add_argument("--temperature", type=float, default=0.0, help="grader temperature")
    p.add_argument("--max-tokens", type=int, default=300, help="grader reply limit")
    p.add_argument("--seed", type=int, default=None, help="grader sampling seed, if any")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per grader call")
    p.add_argument("--retries", type=int, default=3, help="retries on rate limits and errors")
    p.add_argument("--concurrency", type=int, default=4, help="grader calls at once")
    p.add_argument("--failures", type=int, default=0, metavar="N",
                   help="also list up to N failed answers per agent")
    p.add_argument("--recompute", action="store_true",
                   help="check (and grade) again what is already stored")
    add_db(p)
    p.set_defaults(func=fidelity)


def _check(args: argparse.Namespace) -> None:
    if args.concurrency < 1:
        raise InputError(f"must be at least 1 (got {args.concurrency})", field="--concurrency")
    if args.failures < 0:
        raise InputError(f"must be 0 or more (got {args.failures})", field="--failures")
    if args.api_key_env and not os.environ.get(args.api_key_env):
        raise InputError(f"environment variable {args.api_key_env} is not set",
                         field="--api-key-env")


def _progress(done: int, total: int) -> None:
    if done == total or done % max(1, total // 10) == 0:
        print(f"graded {done}/{total}", file=sys.stderr, flush=True)


def _grade(store: object, run_ids: list[str], args: argparse.Namespace) -> tuple[str, int]:
    """Run the grader; (its key, how many calls failed)."""
    from core.agents.llm_agents import complete_from_spec
    from core.fidelity.grader import grader_key
    from core.llm import LLMClient
    from core.metrics.llmcall import spec_info
    from core.usecases.fidelity import grade_runs
    from tui.cli.score import _spec

    spec = _spec(args.grader, "--grader", args)
    info = spec_info(spec)
    summary = asyncio.run(grade_runs(
        store, run_ids, complete_from_spec(spec, LLMClient()), info,  # type: ignore[arg-type]
        concurrency=args.concurrency, recompute=args.recompute, progress=_progress))
    print(f"grader {args.grader}: {summary.graded} answers graded, {summary.cached} already "
          f"graded (skipped), {len(summary.failures)} failed", file=sys.stderr)
    for cid, index, reason in summary.failures[:20]:
        print(f"bedside: {cid} turn {index}: {reason}", file=sys.stderr)
    return grader_key(info), len(summary.failures)


def fidelity(args: argparse.Namespace) -> int:
    """Check (and grade) the runs, then print the report."""
    _check(args)
    from core.usecases.fidelity import check_runs, report, resolve
    from db.store import open_store
    from tui.text.fidelity_table import as_json, format_report

    store = open_store(getattr(args, "db", None))
    run_ids = [r.id for r in resolve(store, args.run)]
    check_runs(store, run_ids, recompute=args.recompute)
    key, failed = _grade(store, run_ids, args) if args.grader else (None, 0)
    table = report(store, run_ids, grader_key=key, examples_per_agent=args.failures)
    if args.json:
        print(json.dumps(as_json(table), ensure_ascii=False, indent=2))
    else:
        print(format_report(table))
    if not table.rows:
        print("bedside: nothing to check: the runs have no finished consultation with a "
              "case record", file=sys.stderr)
        return 1
    if failed:
        print("run the same command again to retry the failed grader calls", file=sys.stderr)
    return 1 if failed else 0
