"""`bedside run`: run cases × configurations as a resumable batch and print a summary.

Headless: a plain progress line on stderr, the summary table (or JSON) on stdout. The
batch itself is `core.batch.run_batch`; this module wires it to the SQLite store.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from core.errors import InputError


def register(sub: argparse._SubParsersAction, add_db: Callable[..., None]) -> None:
    """Add `bedside run`."""
    p = sub.add_parser("run", help="run consultations as a batch (offline by default)",
                       description="Run cases x configurations. With no options, every "
                       "bundled case offline: scripted doctor, retrieval patient and "
                       "examiner, exact-match moderator.")
    p.add_argument("--cases", metavar="SPEC",
                   help="comma-separated case ids (wildcards ok), sources, specialties or "
                   "languages, e.g. 'cardiology,es' or 'card-*'")
    p.add_argument("--limit", type=int, metavar="N", help="run at most N cases")
    p.add_argument("--doctor", action="append", metavar="AGENT",
                   help="scripted (default) or a model string; repeat for several doctors")
    p.add_argument("--patient", default="retrieval", metavar="AGENT",
                   help="retrieval (default) or a model string")
    p.add_argument("--examiner", default="retrieval", metavar="AGENT",
                   help="retrieval (default) or a model string")
    p.add_argument("--moderator", default="exact", metavar="AGENTS",
                   help="exact (default), a model string, or both comma-separated")
    p.add_argument("--api-base", metavar="URL", help="OpenAI-compatible server for models")
    p.add_argument("--api-key-env", metavar="VAR",
                   help="environment variable holding the API key (the key is never stored)")
    p.add_argument("--temperature", type=float, default=0.0)
    p.add_argument("--max-tokens", type=int, default=512)
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per model call")
    p.add_argument("--retries", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-turns", type=int, default=20, help="doctor turn budget (default 20)")
    p.add_argument("--final-report", action="store_true",
                   help="ask the doctor for a structured final report")
    p.add_argument("--concurrency", type=int, default=8, help="consultations at once")
    p.add_argument("--model-limit", action="append", metavar="MODEL=N", default=[],
                   help="at most N concurrent calls to MODEL (repeatable)")
    p.add_argument("--resume", metavar="RUN", help="resume an interrupted run by id or name")
    p.add_argument("--name", help="a name for the run")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    add_db(p)
    p.set_defaults(func=run)


def _model_limits(items: list[str]) -> dict[str, int]:
    out = {}
    for item in items:
        model, _, n = item.rpartition("=")
        if not model or not n.isdigit() or int(n) < 1:
            raise InputError(f"expected MODEL=N, got '{item}'", field="--model-limit")
        out[model] = int(n)
    return out


def _configs(args: argparse.Namespace) -> list[Any]:
    from core.config import parse_config

    params = {"api_base": args.api_base, "api_key_env": args.api_key_env,
              "temperature": args.temperature, "max_tokens": args.max_tokens,
              "timeout": args.timeout, "retries": args.retries, "seed": args.seed}
    params = {k: v for k, v in params.items() if v is not None}
    return [parse_config(doctor, args.patient, args.examiner, args.moderator, params=params,
                         max_turns=args.max_turns, seed=args.seed,
                         final_report=args.final_report)
            for doctor in (args.doctor or ["scripted"])]


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
            print("\r" + line, end="", file=sys.stderr, flush=True)
        elif done == total or done % max(1, total // 10) == 0:
            print(line, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.tty:
            print(file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    """Run (or resume) a batch and print its summary."""
    if args.concurrency < 1:
        raise InputError("must be at least 1", field="--concurrency")
    from core.batch import run_batch
    from core.caseio import load_bundled_cases
    from core.provenance import run_provenance
    from core.selection import select_cases
    from db.cases import list_cases, save_cases
    from db.connection import open_db
    from db.consultations import Recorder, abandon_interrupted
    from db.metrics import compute_offline, results_table
    from db.runs import create_run, get_run, set_run_status
    from tui.cmd_results import format_table

    db = open_db(args.db)
    limits = _model_limits(args.model_limit)
    if args.resume:
        run_row = get_run(db, args.resume)
        run_id, saved = run_row["id"], run_row["config"]
        configs = [_config_from(c) for c in saved["configurations"]]
        wanted = set(saved["cases"])
        library = {c.id: c for c in [*load_bundled_cases(), *list_cases(db)]}
        cases = [library[cid] for cid in saved["cases"] if cid in library]
        if len(cases) != len(wanted):
            raise InputError("some cases of this run are no longer available", field="--resume")
        abandoned = abandon_interrupted(db, run_id)
        if abandoned:
            print(f"resuming {run_id}: {abandoned} interrupted consultations will be redone",
                  file=sys.stderr)
    else:
        stored = {c.id: c for c in list_cases(db)}
        library = {**stored, **{c.id: c for c in load_bundled_cases()}}
        cases = select_cases(sorted(library.values(), key=lambda c: c.id), args.cases,
                             args.limit)
        configs = _configs(args)
        save_cases(db, [c for c in cases if c.id not in stored or stored[c.id] != c])
        run_id = create_run(db, name=args.name, provenance=run_provenance(configs), config={
            "cases": [c.id for c in cases], "configurations": [c.describe() for c in configs],
            "concurrency": args.concurrency, "model_limits": limits})
    jobs = [(case, cfg) for cfg in configs for case in cases]
    progress = _Progress(len(jobs))
    try:
        asyncio.run(run_batch(jobs, store=_Store(db, Recorder(db)), run_id=run_id,
                              concurrency=args.concurrency, model_limits=limits,
                              progress=progress))
    except KeyboardInterrupt:
        progress.close()
        set_run_status(db, run_id, "interrupted")
        print(f"bedside: interrupted; resume with `bedside run --resume {run_id}`",
              file=sys.stderr)
        return 130
    progress.close()
    set_run_status(db, run_id, "finished")
    compute_offline(db, run_id=run_id)  # metrics are stored with each consultation
    rows = results_table(db, by="model", run_id=run_id)
    if args.json:
        print(json.dumps({"run_id": run_id, "results": rows}, ensure_ascii=False, indent=2))
    else:
        print(f"run {run_id}  (resume or re-run: bedside run --resume {run_id})")
        print(format_table(rows, "model"))
    return 0


def _config_from(described: dict[str, Any]) -> Any:
    from core.config import ConsultationConfig

    data = {k: v for k, v in described.items() if k != "config_key"}
    return ConsultationConfig.model_validate(data)


class _Store:
    """The SQLite side of core.batch.BatchStore."""

    def __init__(self, db: Any, recorder: Any) -> None:
        self.db, self.recorder = db, recorder

    def done_keys(self, run_id: str) -> set[tuple[str, str]]:
        from db.consultations import done_keys

        return done_keys(self.db, run_id)

    def sink(self) -> Any:
        return self.recorder
