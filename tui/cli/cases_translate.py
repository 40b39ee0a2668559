"""`bedside cases translate ID --to LANG --model M`: a machine-translated copy of a case,
saved in the project database beside imported cases (`core.usecases.translate`). Headless.

The copy is a new case (id `ID-LANG` unless `--id`), linked to its original and flagged for
review; `-o FILE` also writes it as YAML, to correct and add to a library. A model error or
a reply that does not translate every text exits 1 and saves nothing. The API key is read
from the environment (`--api-key-env`) and never stored or printed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable
from pathlib import Path

from core.case import BCP47
from core.errors import InputError, NotFoundError


def register(csub: argparse._SubParsersAction, add_db: Callable[..., None]) -> None:
    """Add `bedside cases translate`."""
    p = csub.add_parser("translate", help="machine-translate a case into another language "
                        "(a new case, flagged for review)")
    p.add_argument("case_id", metavar="ID", help="the case to translate")
    p.add_argument("--to", required=True, metavar="LANG",
                   help="target language tag: en, es, fr, de, zh-Hans, hi, fa, ko, …")
    p.add_argument("--model", required=True, metavar="MODEL",
                   help="litellm model string of the translator, e.g. openai/gpt-4o")
    p.add_argument("--api-base", metavar="URL", help="OpenAI-compatible server for the model")
    p.add_argument("--api-key-env", metavar="VAR",
                   help="environment variable holding the API key (the key is never stored)")
    p.add_argument("--temperature", type=float, default=0.0, help="sampling temperature")
    p.add_argument("--max-tokens", type=int, default=8000, help="reply length limit")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds for the model call")
    p.add_argument("--retries", type=int, default=3, help="retries on rate limits and errors")
    p.add_argument("--id", dest="new_id", metavar="NEW_ID",
                   help="id of the copy (default: ID-LANG)")
    p.add_argument("-o", "--output", metavar="FILE", help="also write the copy as YAML")
    add_db(p)
    p.set_defaults(func=translate)


def translate(args: argparse.Namespace) -> int:
    """Translate, save in the database (and FILE); exit 1 when the model failed."""
    from core.agents.llm_agents import complete_from_spec
    from core.caseio import dump_case
    from core.config import AgentSpec
    from core.errors import ModelError
    from core.usecases.translate import translate as run
    from db.store import open_store
    from tui.cli.cases import _library

    if not BCP47.match(args.to):
        raise InputError(f"'{args.to}' is not a language tag (e.g. hi, fa, ko, zh-Hans)",
                         field="--to")
    if "/" not in args.model or any(c.isspace() for c in args.model):
        raise InputError(f"'{args.model}' is not a provider/model string (e.g. openai/gpt-4o)",
                         field="--model")
    if args.api_key_env and not os.environ.get(args.api_key_env):
        raise InputError(f"environment variable {args.api_key_env} is not set",
                         field="--api-key-env")
    case = next((c for c in _library(args.db) if c.id == args.case_id), None)
    if case is None:
        raise NotFoundError(f"no case with id '{args.case_id}' (see `bedside cases list`)")
    spec = AgentSpec(kind="llm", model=args.model, api_base=args.api_base,
                     api_key_env=args.api_key_env, temperature=args.temperature,
                     max_tokens=args.max_tokens, timeout=args.timeout, retries=args.retries,
                     stream=False, response_format="json")
    try:
        copy = asyncio.run(run(case, args.to, complete_from_spec(spec), args.model,
                               args.new_id))
    except ModelError as err:
        print(f"bedside: the translation failed, nothing saved: {err}", file=sys.stderr)
        return 1
    open_store(args.db).import_cases([copy])
    if args.output:
        Path(args.output).write_text(dump_case(copy), encoding="utf-8")
    print(f"translated {case.id} ({case.language}) → {copy.id} ({copy.language}): "
          "machine-translated, flagged for review" +
          (f"; written to {args.output}" if args.output else ""))
    return 0
