"""`bedside study create|list|sheet`, `bedside rate`, `bedside judge`, `bedside ratings
export|import`.

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


def register(sub: argparse._SubParsersAction,
             add_db: Callable[[argparse.ArgumentParser], None]) -> None:
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
    p = ssub.add_parser("sheet", help="a rater's assignment sheet, to rate elsewhere",
                        description="Writes, per rater, STUDY-RATER.csv (the questions to "
                        "answer: fill in the value column, then `bedside ratings import` "
                        "it) and STUDY-RATER.md (the blinded transcripts and the "
                        "instructions). Only transcripts still to rate are in it.")
    p.add_argument("--study", required=True, help="study name")
    p.add_argument("--rater", action="append", metavar="NAME",
                   help="a rater of the study (any case); repeat for several (default: all)")
    p.add_argument("-o", "--output", metavar="DIR", default=".",
                   help="folder to write the sheets to (default: the current one)")
    add_db(p)
    p.set_defaults(func=sheet)

    p = sub.add_parser("rate", help="rate a study's transcripts (opens the rating screen)")
    p.add_argument("--study", required=True, help="study name")
    p.add_argument("--rater", required=True, help="your rater name, as in the study file")
    add_db(p)
    p.set_defaults(func=rate)

    _register_judge(sub, add_db)

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
    p.add_argument("--replace", action="store_true",
                   help="overwrite stored answers even when they are newer than the file's")
    p.add_argument("--add-raters", action="store_true",
                   help="add raters the study does not have (without it they are an error)")
    add_db(p)
    p.set_defaults(func=import_ratings)


def _register_judge(sub: argparse._SubParsersAction,
                    add_db: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add `bedside judge`."""
    p = sub.add_parser("judge", help="rate a study with an LLM judge",
                       description="The judge is the rater judge:MODEL#H, H a hash of the "
                       "model, parameters and prompt: other settings make another rater; the "
                       "same settings resume where the last run stopped.")
    p.add_argument("--study", required=True, help="study name")
    p.add_argument("--model", required=True, help="model string, e.g. openai/gpt-4o-mini")
    p.add_argument("--api-base", default=None, help="OpenAI-compatible server URL")
    p.add_argument("--api-key-env", metavar="VAR", default=None,
                   help="environment variable holding the API key (the key is never stored)")
    p.add_argument("--temperature", type=float, default=0.0, help="sampling temperature")
    p.add_argument("--max-tokens", type=int, default=2000, help="answer length limit")
    p.add_argument("--seed", type=int, default=None, help="sampling seed, if supported")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per model call")
    p.add_argument("--retries", type=int, default=3,
                   help="retries of a failed call (rate limits, server errors)")
    p.add_argument("--attempts", type=int, default=3,
                   help="answers asked for per transcript before it is recorded as failed")
    add_db(p)
    p.set_defaults(func=judge)


def _store(args: argparse.Namespace) -> Any:
    """The study store on the project database named by `--db`."""
    from db.study_store import open_study_store

    return open_study_store(getattr(args, "db", None))


def create(args: argparse.Namespace) -> int:
    """Create a study and print its assignment counts."""
    from annotation.assignment import create_study
    from annotation.study import field_line, load_study_file

    definition = load_study_file(Path(args.file))
    store = _store(args)
    try:
        study = create_study(store, definition)
    except InputError as err:
        if err.path is not None:
            raise
        # e.g. a selection matching nothing: point at the study file's line.
        raise InputError(err.reason, path=args.file, line=field_line(args.file, err.field),
                         field=err.field) from None
    print(f"study '{definition.name}' created: {study.transcripts} transcripts, "
          f"{len(definition.raters)} raters, overlap {definition.overlap}, "
          f"{definition.calibration} calibration")
    return 0


def sheet(args: argparse.Namespace) -> int:
    """Write each rater's assignment sheet (CSV to fill in, Markdown to read)."""
    from annotation.assignment import load_definition
    from annotation.exchange import COLUMNS
    from annotation.sheet import SHEET_COLUMNS, assignment_sheet
    from tui.text.exports import rows_csv, sheet_markdown

    store = _store(args)
    record = store.get_study(args.study)
    raters = args.rater or load_definition(record).raters
    folder = Path(args.output)
    sheets = [assignment_sheet(store, args.study, r) for r in raters]  # all checked first
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for s in sheets:
            stem = _file_stem(f"{record.name}-{s.rater}")
            rows = [r.model_dump() for r in s.rows]
            (folder / f"{stem}.csv").write_text(rows_csv(rows, [*COLUMNS, *SHEET_COLUMNS]),
                                                encoding="utf-8")
            (folder / f"{stem}.md").write_text(sheet_markdown(s, f"{stem}.csv"),
                                               encoding="utf-8")
            print(f"{s.rater}: {len(s.transcripts)} transcripts, {len(s.rows)} questions → "
                  f"{folder / stem}.csv and .md")
    except OSError as err:
        raise InputError(f"cannot write ({err.__class__.__name__}: {err.strerror})",
                         path=str(err.filename or folder)) from None
    print("fill in the value column, then: bedside ratings import FILE.csv", file=sys.stderr)
    return 0


def _file_stem(text: str) -> str:
    """A file name from a study and rater name (anything else becomes '_')."""
    import re

    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("._") or "sheet"


def list_studies(args: argparse.Namespace) -> int:
    """Print one line per study."""
    studies = _store(args).list_studies()
    if not studies:
        print("no studies yet (bedside study create FILE)")
    for s in studies:
        print(f"{s.name}\t{s.raters} raters\t{s.finished}/{s.assignments} rated"
              f"\t{s.created_at}")
    return 0


def rate(args: argparse.Namespace) -> int:
    """Open the rating screen for one rater (study and rater checked first, in one line)."""
    from annotation.session import RatingSession

    store = _store(args)
    try:
        RatingSession(store, args.study, args.rater)  # the message never lists the others
    except InputError as err:
        raise InputError(err.reason, field="--rater") from None
    finally:
        store.db.close()
    from tui.app.rating.screen import RatingApp

    app = RatingApp(getattr(args, "db", None), args.study, args.rater)
    app.run()
    return app.return_code or 0  # 1 when the app stopped on an error (never a silent 0)


def _model_complete(args: argparse.Namespace, params: dict[str, Any]) -> Any:
    """A `Complete` for annotation.judge backed by core/llm.py (keys stay in the environment).

    The model settings are validated once, up front, so a bad value is a one-line error
    naming its option before any call is made.
    """
    import os

    from pydantic import ValidationError

    from core.config import AgentSpec
    from core.llm import LLMClient

    if "/" not in args.model or any(c.isspace() for c in args.model):
        raise InputError(f"'{args.model}' is not a provider/model string", field="--model")
    if args.api_key_env and not os.environ.get(args.api_key_env):
        raise InputError(f"the environment variable {args.api_key_env} is not set",
                         field="--api-key-env")
    try:
        # JSON mode: litellm drops it for providers without it, and the judge's parser
        # stays tolerant of prose around the object anyway.
        base = AgentSpec(kind="llm", model=args.model, api_base=args.api_base,
                         api_key_env=args.api_key_env, timeout=args.timeout,
                         retries=args.retries, stream=False, response_format="json", **params)
    except ValidationError as err:
        first = err.errors()[0]
        option = "--" + str(first["loc"][0] if first["loc"] else "model").replace("_", "-")
        raise InputError(first["msg"], field=option) from None

    client = LLMClient()

    async def call(messages: list[dict[str, str]], **call_params: Any) -> str:
        """One chat completion's text (ModelError after the retries)."""
        spec = base.model_copy(update=call_params)  # the same values, validated above
        return (await client.complete(spec, messages)).text

    return call


def _print_step(step: Any) -> None:
    """One progress line per transcript, on stderr (stdout keeps the summary)."""
    tail = f"ok ({step.attempts} attempt{'s' * (step.attempts > 1)})" if step.status == "ok" \
        else f"FAILED after {step.attempts} attempt(s): {step.error}"
    print(f"[{step.done}/{step.total}] {step.consultation_id}: {tail}", file=sys.stderr,
          flush=True)


def judge(args: argparse.Namespace) -> int:
    """Rate every transcript of the study with the model; failures are recorded, not fatal,
    but a refused API key stops the run at once (one line, exit 2; see run_judge)."""
    from annotation.judge import run_judge

    if args.attempts < 1:
        raise InputError("must be at least 1", field="--attempts")
    params: dict[str, Any] = {"temperature": args.temperature, "max_tokens": args.max_tokens}
    if args.seed is not None:
        params["seed"] = args.seed
    complete = _model_complete(args, params)
    store = _store(args)
    print(f"judging study '{args.study}' with {args.model}…", file=sys.stderr, flush=True)
    summary = asyncio.run(run_judge(store, args.study, args.model, complete, params=params,
                                    attempts=args.attempts, on_step=_print_step))
    print(f"{summary.rater}: {summary.rated} rated, {summary.failed} failed, "
          f"{summary.already} already rated")
    return 0 if summary.failed == 0 else 1


def export(args: argparse.Namespace) -> int:
    """Write the ratings to a file or stdout."""
    from annotation.exchange import export_rows, to_jsonl
    from tui.text.exports import ratings_csv
    from tui.text.safe import sanitize

    rows = export_rows(_store(args), args.study)
    # JSON escapes C0 controls; sanitize escapes the rest the JSON way (lossless)
    text = ratings_csv(rows) if args.format == "csv" else sanitize(to_jsonl(rows))
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
    """Check and import an export file; say what was kept, skipped and marked."""
    from annotation.exchange import import_file

    s = import_file(_store(args), Path(args.file), replace=args.replace,
                    add_raters=args.add_raters)
    print(f"{args.file}: {s.read} rows read: {s.new} new, {s.updated} updated, {s.same} "
          f"unchanged; {s.marked_done} transcripts marked done, {s.marked_skipped} skipped")
    for study in dict.fromkeys(st for st, _ in s.added_raters):
        names = ", ".join(r for st, r in s.added_raters if st == study)
        print(f"added to study '{study}': {names}", file=sys.stderr)
    if s.kept:
        lines = ", ".join(str(n) for n, _ in s.kept[:20]) + (" …" if len(s.kept) > 20 else "")
        print(f"{len(s.kept)} rows not imported: the stored answer is as new or newer "
              f"(lines {lines}; --replace overwrites)")
    if s.empty:
        lines = ", ".join(str(n) for n in s.empty[:20]) + (" …" if len(s.empty) > 20 else "")
        print(f"{len(s.empty)} rows skipped: no value and no comment (lines {lines})")
    return 0
