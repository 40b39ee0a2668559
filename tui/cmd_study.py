"""`bedside study create|list`, `bedside rate`, `bedside judge`, `bedside ratings export|import`.

Textual is imported only by `rate`; model code (core/llm.py) only by `judge`.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.errors import InputError


def register(sub: argparse._SubParsersAction, add_db: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add the reader-study commands."""
    study = sub.add_parser("study", help="create and list reader studies")
    ssub = study.add_subparsers(dest="study_command", required=True, metavar="ACTION")
    p = ssub.add_parser("create", help="create a study from a TOML/YAML definition")
    p.add_argument("file", help="the study file (see annotation/examples/default_study.toml)")
    add_db(p)
    p.set_defaults(func=create)
    p = ssub.add_parser("list", help="list studies with their progress")
    add_db(p)
    p.set_defaults(func=list_studies)

    p = sub.add_parser("rate", help="rate a study's transcripts (opens the rating screen)")
    p.add_argument("--study", required=True, help="study name")
    p.add_argument("--rater", required=True, help="your rater name, as in the study file")
    add_db(p)
    p.set_defaults(func=rate)

    p = sub.add_parser("judge", help="rate a study with an LLM judge")
    p.add_argument("--study", required=True, help="study name")
    p.add_argument("--model", required=True, help="model string, e.g. openai/gpt-4o-mini")
    p.add_argument("--api-base", default=None, help="OpenAI-compatible server URL")
    p.add_argument("--temperature", type=float, default=0.0, help="sampling temperature")
    p.add_argument("--max-tokens", type=int, default=2000, help="answer length limit")
    p.add_argument("--seed", type=int, default=None, help="sampling seed, if supported")
    add_db(p)
    p.set_defaults(func=judge)

    ratings = sub.add_parser("ratings", help="export and import ratings (long format)")
    rsub = ratings.add_subparsers(dest="ratings_command", required=True, metavar="ACTION")
    p = rsub.add_parser("export", help="write a study's ratings as CSV or JSONL")
    p.add_argument("--study", required=True, help="study name")
    p.add_argument("--format", choices=("csv", "jsonl"), default="csv", help="file format")
    p.add_argument("-o", "--output", default=None, help="file to write (default: stdout)")
    add_db(p)
    p.set_defaults(func=export)
    p = rsub.add_parser("import", help="read ratings from a CSV/JSONL export")
    p.add_argument("file", help="the file to import (.csv or .jsonl)")
    add_db(p)
    p.set_defaults(func=import_ratings)


def _db(args: argparse.Namespace) -> Any:
    from db.connection import open_db

    return open_db(getattr(args, "db", None))


def create(args: argparse.Namespace) -> int:
    """Create a study and print its assignment counts."""
    from annotation.assignment import create_study
    from annotation.study import load_study_file
    from db import studies

    definition = load_study_file(Path(args.file))
    db = _db(args)
    sid = create_study(db, definition)
    n = len(studies.study_consultations(db, sid))
    print(f"study '{definition.name}' created: {n} transcripts, {len(definition.raters)} "
          f"raters, overlap {definition.overlap}, {definition.calibration} calibration")
    return 0


def list_studies(args: argparse.Namespace) -> int:
    """Print one line per study."""
    from db import studies

    rows = studies.list_studies(_db(args))
    if not rows:
        print("no studies yet (bedside study create FILE)")
    for r in rows:
        print(f"{r['name']}\t{r['raters']} raters\t{r['finished']}/{r['assignments']} rated"
              f"\t{r['created_at']}")
    return 0


def rate(args: argparse.Namespace) -> int:
    """Open the rating screen for one rater."""
    from db import studies

    db = _db(args)
    studies.get_study(db, args.study)  # a one-line error before the screen opens
    db.close()
    from tui.rating import RatingApp

    RatingApp(getattr(args, "db", None), args.study, args.rater).run()
    return 0


def _model_complete(model: str, api_base: str | None) -> Any:
    """A `Complete` for annotation.judge backed by core/llm.py (keys stay in the environment)."""
    from core.config import AgentSpec
    from core.llm import LLMClient

    if "/" not in model or any(c.isspace() for c in model):
        raise InputError(f"'{model}' is not a provider/model string", field="--model")
    client = LLMClient()

    async def call(messages: list[dict[str, str]], **params: Any) -> str:
        try:
            spec = AgentSpec(kind="llm", model=model, api_base=api_base, stream=False, **params)
        except ValueError as err:
            raise InputError(str(err).splitlines()[0], field="--model") from None
        return (await client.complete(spec, messages)).text

    return call


def judge(args: argparse.Namespace) -> int:
    """Rate every transcript of the study with the model; failures are recorded, not fatal."""
    from annotation.judge import run_judge

    params: dict[str, Any] = {"temperature": args.temperature, "max_tokens": args.max_tokens}
    if args.seed is not None:
        params["seed"] = args.seed
    complete = _model_complete(args.model, args.api_base)
    summary = asyncio.run(run_judge(_db(args), args.study, args.model, complete, params=params))
    print(f"{summary.rater}: {summary.rated} rated, {summary.failed} failed, "
          f"{summary.already} already rated")
    return 0 if summary.failed == 0 else 1


def export(args: argparse.Namespace) -> int:
    """Write the ratings to a file or stdout."""
    from annotation.exchange import export_rows, to_csv, to_jsonl

    rows = export_rows(_db(args), args.study)
    text = to_csv(rows) if args.format == "csv" else to_jsonl(rows)
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as err:
            raise InputError(f"cannot write ({err.__class__.__name__})", path=args.output) from None
        print(f"{len(rows)} ratings written to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def import_ratings(args: argparse.Namespace) -> int:
    """Validate and import an export file."""
    from annotation.exchange import import_file

    n = import_file(_db(args), Path(args.file))
    print(f"{n} ratings imported from {args.file}")
    return 0
