"""`bedside score`: the LLM-based metrics of a run — the report score (an LLM judge grades
each final report against the case record, AI Hospital style) and the patient-reported
measures (the consultation's patient, biases included, rates the doctor 1–10, AgentClinic
style: its own model with `--rating-patient own`, or a model named in its place). Headless.

Each value is stored with its consultation the moment it exists, with the judge's model,
parameters and prompt hash; consultations already scored with the same model, parameters,
prompt and case are skipped unless `--recompute` (model calls cost money). A consultation
without a final report gets 'no final report' (undefined, not 0). A failed call is reported
per consultation and the others go on; it is tried again on the next run. The API key is
read from the environment (`--api-key-env`) and never stored or printed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable
from typing import Any

from core.errors import InputError


def register(sub: argparse._SubParsersAction, add_db: Callable[..., None]) -> None:
    """Add `bedside score`."""
    p = sub.add_parser("score", help="LLM-judged report score and patient ratings of a run",
                       description="Grade the final reports of a run with an LLM judge and "
                       "ask an LLM patient for its 1-10 ratings; results are stored with "
                       "each consultation and shown by `bedside results`.")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--run", metavar="RUN", help="the run to score (id or name)")
    which.add_argument("--all", action="store_true",
                       help="every finished consultation, imported ones included")
    p.add_argument("--judge", metavar="MODEL",
                   help="litellm model string of the report judge, e.g. openai/gpt-4o")
    p.add_argument("--rating-patient", metavar="MODEL|own",
                   help="who rates the doctor, as the consultation's patient (its biases "
                   "included): a litellm model string, or 'own' for each consultation's own "
                   "model patient (the offline and human patients give no ratings)")
    p.add_argument("--api-base", metavar="URL", help="OpenAI-compatible server for the models")
    p.add_argument("--api-key-env", metavar="VAR",
                   help="environment variable holding the API key (the key is never stored)")
    p.add_argument("--temperature", type=float, default=0.0, help="sampling temperature")
    p.add_argument("--max-tokens", type=int, default=800, help="reply length limit")
    p.add_argument("--seed", type=int, default=None, help="sampling seed, if the model takes one")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per model call")
    p.add_argument("--retries", type=int, default=3, help="retries on rate limits and errors")
    p.add_argument("--concurrency", type=int, default=4, help="consultations scored at once")
    p.add_argument("--recompute", action="store_true",
                   help="score again even where the same judge already scored")
    add_db(p)
    p.set_defaults(func=score)


def _spec(model: str, field: str, args: argparse.Namespace) -> Any:
    from core.config import AgentSpec

    if "/" not in model or any(c.isspace() for c in model):
        raise InputError(f"'{model}' is not a provider/model string (e.g. openai/gpt-4o)",
                         field=field)
    try:
        return AgentSpec(kind="llm", model=model, api_base=args.api_base,
                         api_key_env=args.api_key_env, temperature=args.temperature,
                         max_tokens=args.max_tokens, seed=args.seed, timeout=args.timeout,
                         retries=args.retries, stream=False)
    except ValueError as err:
        raise InputError(str(err).splitlines()[0], field=field) from None


def _check(args: argparse.Namespace) -> None:
    if not args.judge and not args.rating_patient:
        raise InputError("give --judge MODEL, --rating-patient MODEL or both", field="--judge")
    if args.concurrency < 1:
        raise InputError("must be at least 1", field="--concurrency")
    if args.api_key_env and not os.environ.get(args.api_key_env):
        raise InputError(f"environment variable {args.api_key_env} is not set",
                         field="--api-key-env")


def _progress(done: int, total: int, cid: str, what: str) -> None:
    print(f"[{done}/{total}] {cid}: {what}", file=sys.stderr, flush=True)


def _names(roles: dict[str, Any]) -> list[tuple[str, str]]:
    """(what, the judge's name its values are stored under) of each role asked for."""
    from core.metrics.identity import rating_patient, report_judge

    out = []
    if "judge_info" in roles:
        info = roles["judge_info"]
        out.append(("report grades", report_judge(info.model, info.params)))
    if "rating_patient_name" in roles:
        out.append(("patient ratings", roles["rating_patient_name"]))
    elif "patient_info" in roles:
        info = roles["patient_info"]
        out.append(("patient ratings", rating_patient(info.model, info.params)))
    return out


def score(args: argparse.Namespace) -> int:
    """Score the run; exit 0, or 1 when some consultation failed (the rest are stored)."""
    _check(args)
    from core.llm import LLMClient
    from core.agents.llm_agents import complete_from_spec
    from core.metrics.identity import own_patient
    from core.metrics.llmcall import spec_info
    from core.usecases.rating_patient import OWN, own
    from core.usecases.scoring import compute_llm
    from db.store import open_store

    store = open_store(getattr(args, "db", None))
    run_id = None if args.all else store.get_run(args.run).id
    client = LLMClient()
    roles: dict[str, Any] = {}
    for name, model, field in (("judge", args.judge, "--judge"),
                               ("patient", args.rating_patient, "--rating-patient")):
        if model == OWN and name == "patient":
            roles["rating_patient"] = own(lambda spec: complete_from_spec(spec, client))
            roles["rating_patient_name"] = own_patient()
        elif model:
            spec = _spec(model, field, args)
            roles[name], roles[f"{name}_info"] = complete_from_spec(spec, client), spec_info(spec)
    summary = asyncio.run(compute_llm(store, run_id=run_id, recompute=args.recompute,
                                      concurrency=args.concurrency, progress=_progress,
                                      **roles))
    for what, name in _names(roles):
        print(f"{what} stored as {name}")
    for cid, reason in summary.failures:
        print(f"bedside: {cid}: {reason}", file=sys.stderr)
    print(f"{summary.total} consultations: {summary.scored} scored, {summary.skipped} "
          f"already scored with the same models (skipped), {summary.no_report} without a "
          f"final report, {summary.no_case} without a case record, "
          f"{summary.no_rater} whose patient gives no ratings, "
          f"{len(summary.failures)} failed")
    if summary.failures:
        print("run the same command again to retry the failed ones", file=sys.stderr)
    return 1 if summary.failures else 0
