"""`bedside transcripts export`: consultations as JSON Lines (one transcript per line, for
analysis) or Markdown (to read), of one run, of chosen consultations, or all. Headless.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from core.errors import InputError


def register(sub: argparse._SubParsersAction,
             add_db: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add `bedside transcripts export`."""
    transcripts = sub.add_parser("transcripts", help="export transcripts (JSONL, Markdown)")
    tsub = transcripts.add_subparsers(dest="transcripts_command", required=True,
                                      metavar="ACTION")
    p = tsub.add_parser("export", help="write transcripts as JSON Lines or Markdown",
                        description="One record per consultation: who played, how it ended "
                        "(diagnosis, the correct one, the verdict), the doctor's report and "
                        "every turn. Superseded attempts are left out; raw model requests "
                        "stay in the database.")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--run", metavar="RUN", help="only this run (id or name)")
    which.add_argument("--consultation", action="append", metavar="ID",
                       help="only this consultation; repeat for several")
    p.add_argument("--format", choices=("jsonl", "md"), default="jsonl",
                   help="jsonl (default): one JSON object per line; md: Markdown to read")
    p.add_argument("-o", "--output", metavar="FILE", default=None,
                   help="file to write (default: stdout)")
    add_db(p)
    p.set_defaults(func=export)


def export(args: argparse.Namespace) -> int:
    """Write the transcripts; say how many on stderr."""
    from core.usecases.transcript_export import export_records
    from db.store import open_store
    from tui.text.exports import transcripts_markdown
    from tui.text.safe import sanitize

    store = open_store(getattr(args, "db", None))
    run_id = store.get_run(args.run).id if args.run else None
    records = export_records(store, run_id=run_id, consultation_ids=args.consultation)
    if args.format == "md":
        text = transcripts_markdown(records)
    else:  # JSON escapes C0 controls; sanitize escapes the rest the JSON way (lossless)
        text = sanitize("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as err:
            raise InputError(f"cannot write ({err.__class__.__name__}: {err.strerror})",
                             path=args.output) from None
        print(f"{len(records)} transcripts written to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
