"""`bedside agenthospital`: the Agent Hospital knowledge base and its generated patients.

`generate` makes the training and test cases of a seed and stores them (optionally
rewriting each patient's account in their own voice with a model), `check` validates a
knowledge base folder (every problem, each with file, line and field), `kb` summarises the
diseases and examinations. Headless.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Callable

from tui.text.safe import sanitize


def register(sub: argparse._SubParsersAction, add_db: Callable[..., None]) -> None:
    """Add `bedside agenthospital`."""
    ah = sub.add_parser("agenthospital", help="Agent Hospital: knowledge base and generated "
                        "patients")
    asub = ah.add_subparsers(dest="ah_command", required=True, metavar="ACTION")
    p = asub.add_parser("generate", help="generate and store training and test patients")
    p.add_argument("--train", type=int, default=0, metavar="N", help="training patients")
    p.add_argument("--test", type=int, default=0, metavar="M", help="test patients")
    p.add_argument("--seed", type=int, default=0, help="the generator's seed (default 0)")
    p.add_argument("--kb", metavar="DIR", help="a knowledge base folder (default: bundled)")
    p.add_argument("--rewrite", metavar="MODEL", help="rewrite each account in the patient's "
                   "voice with this model")
    p.add_argument("--api-base", metavar="URL", help="OpenAI-compatible server for the model")
    p.add_argument("--api-key-env", metavar="VAR", help="environment variable holding the key")
    p.add_argument("--concurrency", type=int, default=4, help="rewrites at once (default 4)")
    add_db(p)
    p.set_defaults(func=generate)
    p = asub.add_parser("check", help="validate a knowledge base folder")
    p.add_argument("path", nargs="?", metavar="DIR", help="the folder (default: bundled)")
    p.set_defaults(func=check)
    p = asub.add_parser("kb", help="the diseases and examinations of the knowledge base")
    p.add_argument("--kb", metavar="DIR", help="a knowledge base folder (default: bundled)")
    p.add_argument("--json", action="store_true", help="print the whole base as JSON")
    p.set_defaults(func=show_kb)


def _kb(path: str | None):  # type: ignore[no-untyped-def]
    from core.agenthospital.kb import bundled_kb, load_kb

    return load_kb(path) if path else bundled_kb()


def generate(args: argparse.Namespace) -> int:
    """Generate, optionally rewrite, and store."""
    from core.usecases.agenthospital import check_counts, make_cases, store_cases
    from db.store import open_store

    check_counts(args.train, args.test)
    kb = _kb(args.kb)
    spec = _rewrite_spec(args) if args.rewrite else None
    started = time.perf_counter()
    cases = make_cases(kb, args.seed, args.train, args.test)
    made = time.perf_counter() - started
    failures: list[tuple[str, str]] = []
    if spec is not None:
        cases, failures = _rewrite(cases, spec, args.concurrency)
    store = open_store(getattr(args, "db", None))
    report = store_cases(store, cases)
    print(f"generated {args.train} training and {args.test} test patients (seed {args.seed}, "
          f"knowledge base {kb.digest[:12]}) in {made:.1f} s: {len(report.new)} new, "
          f"{len(report.updated)} updated, {len(report.unchanged)} unchanged; ids "
          f"ah{args.seed}-train-NNNNN and ah{args.seed}-test-NNNNN")
    for case_id, reason in failures[:10]:
        print(f"bedside: rewrite of {case_id} failed: {sanitize(reason)}", file=sys.stderr)
    if failures:
        print(f"bedside: {len(failures)} rewrite(s) failed; those cases keep the generated "
              "account (run the command again to retry)", file=sys.stderr)
        return 1
    return 0


def _rewrite_spec(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from core.config import parse_agent

    params = {k: v for k, v in (("api_base", args.api_base),
                                ("api_key_env", args.api_key_env)) if v}
    return parse_agent(args.rewrite, "patient", stream=False, **params).model_copy(
        update={"stream": False})


def _rewrite(cases, spec, concurrency):  # type: ignore[no-untyped-def]
    from core.llm import LLMClient
    from core.usecases.agenthospital import rewrite

    def progress(done: int, total: int) -> None:
        if done == total or done % max(1, total // 10) == 0:
            print(f"rewritten {done}/{total}", file=sys.stderr, flush=True)

    out = asyncio.run(rewrite(cases, spec, LLMClient(stream=False), concurrency=concurrency,
                              progress=progress))
    return out.cases, out.failures


def check(args: argparse.Namespace) -> int:
    """Print every problem of a knowledge base folder; exit 1 if any."""
    from core.agenthospital.kb import check_kb

    kb, problems = check_kb(args.path)
    for problem in problems:
        print(f"bedside: {problem}", file=sys.stderr)
    if kb is None:
        print(f"{len(problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"ok: {len(kb.examinations)} examinations, {len(kb.diseases)} diseases "
          f"(knowledge base {kb.digest[:12]})")
    return 0


def show_kb(args: argparse.Namespace) -> int:
    """Summarise the knowledge base."""
    from core.agenthospital.kb import LEVELS, kb_json

    kb = _kb(args.kb)
    if args.json:
        print(kb_json(kb))
        return 0
    print(f"Knowledge base {kb.digest[:12]} ({kb.source})")
    print("Examinations: " + "; ".join(e.name for e in kb.examinations))
    for d in kb.diseases:
        suitable = {lv: ", ".join(kb.exam(e).name for e in d.suitable_at(lv)) for lv in LEVELS}
        print(f"\n{d.name} ({', '.join(d.icd10)}): {len(d.symptoms)} symptoms, "
              f"{len(d.history)} history items")
        for lv in LEVELS:
            print(f"  {lv:<8} suitable: {suitable[lv]}")
    return 0

