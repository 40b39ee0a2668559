"""`bedside hospital`: the whole simulated hospital, from disease onset to follow-up,
recorded in the project database; `bedside hospital show` reports a stored one.

Running prints a line per day on stderr, then the report (the departments, the day-by-day
accounting and the metrics) or `--json`. Exit 0 when it finished with every consultation
played and every count adding up; 1 when a consultation or a triage call failed, or the
counts did not add up (said on stderr); 130 when interrupted (Ctrl+C keeps everything
recorded so far; the run is marked interrupted).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Callable
from typing import Any

from tui.text.safe import sanitize

AGENTS = ("scripted (default), nearest (the offline MedAgent-Zero learner), a model string, "
          "zero:MODEL (a model as MedAgent-Zero) or human[:NAME] (in the app)")


def register(sub: argparse._SubParsersAction, add_db: Callable[..., None]) -> None:
    """Add `bedside hospital` and `bedside hospital show`."""
    p = sub.add_parser(
        "hospital", help="the whole simulated hospital: onset, triage, queues, consultations, "
        "follow-up (Agent Hospital)",
        description="Residents fall ill; a triage nurse sends each to a department; the "
        "department's doctor takes the examination, diagnosis and treatment tasks; the "
        "patient recovers at the follow-up when the treatment fitted, else comes back worse. "
        "Every event and consultation is stored. With no action: run one.")
    p.add_argument("--residents", type=int, metavar="N", help="residents (default 50)")
    p.add_argument("--days", type=int, metavar="D", help="days simulated (default 7)")
    p.add_argument("--seed", type=int, metavar="S", help="the onset seed (default 0)")
    p.add_argument("--onset", type=float, metavar="P", help="a well resident's chance of "
                   "falling ill each day, above 0 to 1 (default 0.15)")
    p.add_argument("--followup-days", type=int, metavar="K", help="days from the dispensary "
                   "to the follow-up (default 2)")
    p.add_argument("--capacity", action="append", metavar="DEPT=N", help="patients a "
                   "department sees a day (defaults: respiratory 10, infectious 8, emergency "
                   "12, oncology 4; DEPT 'all' for every one); repeat for several")
    p.add_argument("--triage", metavar="rules|MODEL", help="the triage nurse: rules "
                   "(default, offline) or a model string")
    p.add_argument("--doctor", action="append", metavar="DEPT=AGENT",
                   help=f"a department's doctor: {AGENTS}; DEPT a department (respiratory, "
                   "infectious, emergency, oncology) or 'all'; repeat for several")
    p.add_argument("--memory", metavar="ARM", help="what a learning doctor keeps: records, "
                   "experience or both (default)")
    p.add_argument("--pace", type=float, metavar="SECONDS", help="wait this long before "
                   "each consultation, to watch the hospital live in the app (o at home) "
                   "from another terminal (default 0)")
    p.add_argument("--name", help="a name for the run")
    p.add_argument("--json", action="store_true", help="print the metrics as JSON "
                   "(triage_accuracy, examination_accuracy, diagnosis_accuracy, "
                   "treatment_accuracy, revisits, mean_days_to_recovery, …)")
    for option, kind, words in (
            ("--api-base", str, "OpenAI-compatible server for models"),
            ("--api-key-env", str, "environment variable holding the key"),
            ("--temperature", float, "0 to 2 (default 0)"),
            ("--max-tokens", int, "reply limit (default 512)"),
            ("--timeout", float, "seconds per model call (default 60)"),
            ("--retries", int, "0 to 10 (default 3)")):
        p.add_argument(option, type=kind, help=words)
    add_db(p)
    p.set_defaults(func=run)
    hsub = p.add_subparsers(dest="hospital_command", metavar="ACTION")
    s = hsub.add_parser("show", help="a stored hospital run's report (the newest by default)")
    s.add_argument("run", nargs="?", metavar="RUN", help="run id or name")
    s.add_argument("--json", action="store_true", help="print the metrics as JSON")
    add_db(s)
    s.set_defaults(func=show)


def _settings(args: argparse.Namespace) -> Any:
    from core.usecases.hospital_settings import MODEL_PARAMS, settings

    model = {k: getattr(args, k) for k in MODEL_PARAMS if getattr(args, k) is not None}
    return settings(residents=args.residents, days=args.days, seed=args.seed,
                    onset=args.onset, followup_days=args.followup_days,
                    capacity=args.capacity, triage=args.triage, doctor=args.doctor,
                    memory=args.memory, name=args.name, model=model)


class _Progress:
    """A line per day on stderr, from the events (its own reducer)."""

    def __init__(self) -> None:
        from core.hospital.state import HospitalState

        self.state = HospitalState()

    def emit(self, event: Any) -> None:
        """Reduce; at a day's end, say how it went."""
        ended = event.station == "hospital" and event.what in ("day", "closed") and \
            self.state.day in self.state.flows
        day = self.state.day
        self.state.apply(event)
        if ended and day > 0:
            f = self.state.flows[day]
            print(f"day {day}: {f.ill} fell ill, {f.revisits} came back, {f.seen} seen, "
                  f"{f.recovered} recovered, {f.waiting} still queued", file=sys.stderr,
                  flush=True)


async def _execute(store: Any, s: Any, pace: float) -> Any:
    from core.llm import LLMClient
    from core.usecases.hospital import run_hospital

    from tui.cli.signals import cancel_on_signals

    cancel_on_signals()
    return await run_hospital(store, s, sink=_Progress(), llm=LLMClient(stream=False),
                              pace=pace)


def run(args: argparse.Namespace) -> int:
    """Simulate one hospital and report it."""
    from db.store import open_store

    s = _settings(args)  # checked before anything is written
    pace = args.pace or 0.0
    if not 0 <= pace <= 60:
        from core.errors import InputError

        raise InputError(f"must be from 0 to 60 seconds (got {pace:g})", field="--pace")
    store = open_store(getattr(args, "db", None))
    try:
        result = asyncio.run(_execute(store, s, pace))
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("bedside: interrupted; every event and consultation so far is stored "
              "(`bedside hospital show` reports it)", file=sys.stderr)
        return 130
    run_record = store.get_run(result.run_id)
    return _report(run_record, result.state, args.json)


def show(args: argparse.Namespace) -> int:
    """Report a stored hospital run."""
    from core.usecases.hospital import stored
    from db.store import open_store

    store = open_store(getattr(args, "db", None))
    run_record, state = stored(store, args.run)
    return _report(run_record, state, args.json)


def _report(run_record: Any, state: Any, as_json: bool) -> int:
    from core.hospital.metrics import ledger, metrics
    from tui.text.hospital import broken_checks, report

    m, days = metrics(state), ledger(state)
    name = run_record.name if run_record.name != run_record.id else run_record.id
    if as_json:
        print(json.dumps({**m, "run": run_record.id, "name": run_record.name,
                          "ledger": days}, indent=2, ensure_ascii=False))
    else:
        print(report(m, days, state.opened, name))
    problems = broken_checks(days)
    if m["failed_consultations"]:
        problems.append(f"{m['failed_consultations']} consultation(s) failed (their "
                        "transcripts say why: `bedside runs show "
                        f"{sanitize(run_record.id)}`)")
    if m["triage_fallbacks"]:
        problems.append(f"{m['triage_fallbacks']} triage call(s) failed or named no "
                        "department (sent to respiratory medicine)")
    if m["status"] not in ("finished", "running"):
        problems.append(f"the simulation ended {m['status']}")
    for line in problems:
        print(f"bedside: {line}", file=sys.stderr)
    return 1 if problems else 0
