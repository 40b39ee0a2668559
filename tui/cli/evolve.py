"""`bedside evolve`: MedAgent-Zero's evolution experiment (Agent Hospital's learning curves
and ablation), and `bedside evolve show` / `list` / `freeze` for stored ones. Headless.

Running prints a line per checkpoint on stderr and, at the end, the curves: a table and
terminal plots, or `--json` (`{"points": [...]}`) or `--csv`. Ctrl+C stops it; every
checkpoint stored so far stays, and the evolution is marked interrupted.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable
from typing import Any

from tui.text.safe import sanitize


def register(sub: argparse._SubParsersAction, add_db: Callable[..., None]) -> None:
    """Add `bedside evolve` and its actions."""
    p = sub.add_parser(
        "evolve", help="MedAgent-Zero learning curves and ablation (Agent Hospital)",
        description="Train an evolving doctor over generated Agent Hospital patients and test "
        "it every K patients, once per arm of the ablation (none, records, experience, both). "
        "With no action: run one; `show`, `list` and `freeze` read stored ones.")
    _run_options(p)
    add_db(p)
    p.set_defaults(func=run)
    esub = p.add_subparsers(dest="evolve_command", metavar="ACTION")
    s = esub.add_parser("show", help="an evolution's curves (the newest by default)")
    s.add_argument("evolution", nargs="?", metavar="EVOLUTION", help="id or name")
    _output_options(s)
    add_db(s)
    s.set_defaults(func=show)
    s = esub.add_parser("list", help="every evolution and frozen library")
    s.add_argument("--json", action="store_true", help="print JSON")
    add_db(s)
    s.set_defaults(func=list_all)
    s = esub.add_parser("freeze", help="name an evolution's memory for reuse (--library)")
    s.add_argument("evolution", metavar="EVOLUTION", help="id or name")
    s.add_argument("name", metavar="NAME", help="the library's name")
    s.add_argument("--arm", help="the arm (default: both if it ran, else the last)")
    s.add_argument("--step", type=int, help="the training step (default: the last)")
    add_db(s)
    s.set_defaults(func=freeze)


def _output_options(p: argparse.ArgumentParser) -> None:
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true",
                     help='print {"points": [{arm, task, seen, train_accuracy, test_accuracy, '
                     'principles, wrong}, ...]}')
    out.add_argument("--csv", action="store_true", help="print the points as CSV")
    p.add_argument("--width", type=int, default=72, help="plot width in columns (default 72)")


def _run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--train", type=int, metavar="N", help="training patients (default 1000)")
    p.add_argument("--test", type=int, metavar="M", help="test patients (default 200; 0: none)")
    p.add_argument("--test-every", type=int, metavar="K",
                   help="test after every K training patients (default 100)")
    p.add_argument("--arms", metavar="ARMS", help="comma-separated: none, records, experience, "
                   "both (default all four)")
    p.add_argument("--doctor", metavar="DOCTOR", help="nearest (default: the offline "
                   "nearest-record learner) or a model string")
    p.add_argument("--seed", type=int, help="the patient generator's seed (default 0)")
    p.add_argument("--k", type=int, help="records and principles recalled per question "
                   "(default 3)")
    p.add_argument("--explore", type=float, help="share of training answers given without "
                   "memory, 0 to 1 (default 0.2 for nearest, 0 for a model)")
    p.add_argument("--embedding", metavar="MODEL", help="retrieve by this embedding model "
                   "(default: BM25, offline)")
    p.add_argument("--library", metavar="NAME", help="start every arm from a frozen library")
    p.add_argument("--freeze", metavar="NAME", help="freeze the final memory under NAME")
    p.add_argument("--name", help="a name for the evolution")
    p.add_argument("--kb", metavar="DIR", help="a knowledge base folder (default: bundled)")
    p.add_argument("--concurrency", type=int, help="test patients a model answers at once "
                   "(default 4)")
    p.add_argument("--api-base", metavar="URL", help="OpenAI-compatible server for models")
    p.add_argument("--api-key-env", metavar="VAR", help="environment variable holding the key")
    p.add_argument("--temperature", type=float, help="0 to 2 (default 0)")
    p.add_argument("--max-tokens", type=int, help="reply limit (default 512)")
    p.add_argument("--timeout", type=float, help="seconds per model call (default 60)")
    p.add_argument("--retries", type=int, help="0 to 10 (default 3)")
    _output_options(p)


def _settings(args: argparse.Namespace) -> Any:
    from core.usecases.evolve import settings

    model = {k: getattr(args, k) for k in ("api_base", "api_key_env", "temperature",
                                           "max_tokens", "timeout", "retries")
             if getattr(args, k) is not None}
    arms = [a.strip() for a in args.arms.split(",") if a.strip()] if args.arms else None
    return settings(train=args.train, test=args.test, test_every=args.test_every, arms=arms,
                    doctor=args.doctor, seed=args.seed, k=args.k, explore=args.explore,
                    embedding=args.embedding, library=args.library, freeze=args.freeze,
                    name=args.name, kb=args.kb, concurrency=args.concurrency, model=model)


def _progress(arm: str, points: list[Any]) -> None:
    head = points[0] if points else None
    if head is None:
        return
    tests = "  ".join(f"{p.task} {'-' if p.test_accuracy is None else f'{p.test_accuracy:.0%}'}"
                      for p in points)
    print(f"{arm:<10} {head.seen:>6} seen  test: {tests}", file=sys.stderr, flush=True)


async def _execute(store: Any, s: Any) -> Any:
    from core.llm import LLMClient
    from core.usecases.evolve import run_evolution

    from tui.cli.signals import cancel_on_signals

    cancel_on_signals()
    return await run_evolution(store, s, llm=LLMClient(stream=False), progress=_progress)


def run(args: argparse.Namespace) -> int:
    """Run one evolution and print its curves."""
    from db.store import open_store

    s = _settings(args)  # checked before anything is written
    if s.kb:
        from core.agenthospital.kb import load_kb

        load_kb(s.kb)
    store = open_store(getattr(args, "db", None))
    if s.library:
        store.get_library(s.library)  # NotFoundError before the evolution is created
    try:
        evo = asyncio.run(_execute(store, s))
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("bedside: interrupted; the checkpoints reached are stored "
              "(`bedside evolve show` prints them)", file=sys.stderr)
        return 130
    _print(evo, store.evolution_points(evo.id), args)
    if s.freeze:
        print(f"froze the memory as library '{sanitize(s.freeze)}'", file=sys.stderr)
    return 0


def _print(evo: Any, points: list[Any], args: argparse.Namespace) -> None:
    from tui.text.curves import curve_plots, points_csv, points_json, points_table

    if args.json:
        print(points_json(points))
    elif args.csv:
        sys.stdout.write(points_csv(points))
    else:
        c = evo.config
        print(f"evolution {sanitize(evo.name)} ({evo.status}): doctor "
              f"{sanitize(str(c.get('doctor')))}, seed {c.get('seed')}, {c.get('train')} "
              f"training and {c.get('test')} test patients, retrieval "
              f"{sanitize(str(c.get('retrieval')))}, k {c.get('k')}")
        print(points_table(points))
        print()
        print(curve_plots(points, width=args.width))


def show(args: argparse.Namespace) -> int:
    """Print a stored evolution's curves."""
    from core.usecases.evolve import curves, latest
    from db.store import open_store

    store = open_store(getattr(args, "db", None))
    ref = args.evolution or latest(store).id
    evo, points = curves(store, ref)
    _print(evo, points, args)
    return 0


def list_all(args: argparse.Namespace) -> int:
    """Print every evolution and frozen library."""
    import json

    from db.store import open_store

    store = open_store(getattr(args, "db", None))
    evolutions, libraries = store.list_evolutions(), store.list_libraries()
    if args.json:
        print(json.dumps({"evolutions": [e.model_dump() for e in evolutions],
                          "libraries": [lib.model_dump() for lib in libraries]}, indent=2))
        return 0
    for e in evolutions:
        c = e.config
        print(f"{sanitize(e.name):<28} {e.status:<11} {e.created_at[:16].replace('T', ' ')}  "
              f"doctor {sanitize(str(c.get('doctor')))}  train {c.get('train')}  test "
              f"{c.get('test')}  arms {','.join(c.get('arms', []))}")
    for lib in libraries:
        print(f"library {sanitize(lib.name)}: {lib.records} records, {lib.principles} "
              f"principles (arm {lib.arm} at step {lib.step} of {lib.evolution_id})")
    if not evolutions and not libraries:
        print("no evolution yet: run `bedside evolve`")
    return 0


def freeze(args: argparse.Namespace) -> int:
    """Freeze an evolution's memory under a name."""
    from core.usecases.evolve import freeze as do_freeze
    from db.store import open_store

    store = open_store(getattr(args, "db", None))
    lib = do_freeze(store, args.evolution, args.name, args.arm, args.step)
    print(f"library {sanitize(lib.name)}: {lib.records} records, {lib.principles} principles "
          f"(arm {lib.arm} at step {lib.step})")
    return 0
