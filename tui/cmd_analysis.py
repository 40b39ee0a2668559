"""`bedside analyze --study S` and `bedside agreement FILE.csv`: agreement reports. Headless.

Both build the same report (`annotation.analysis.report`): inter-rater agreement per item,
and judge-versus-human validation when a judge is named (or, for a study, when an LLM judge
has rated it).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.errors import InputError

LEVELS = ("nominal", "ordinal", "interval", "ratio")


def _outputs(p: argparse.ArgumentParser) -> None:
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the report as JSON")
    out.add_argument("--markdown", action="store_true", help="print the report as Markdown")
    p.add_argument("--epsilon", type=float, default=0.2,
                   help="alternative annotator test margin: 0.2 expert raters (default), "
                   "0.15 skilled, 0.1 crowd")
    p.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples")
    p.add_argument("--seed", type=int, default=0)


def register(sub: argparse._SubParsersAction, add_db: Callable[..., None]) -> None:
    """Add `bedside agreement` and `bedside analyze`."""
    p = sub.add_parser("agreement", help="agreement report for any long-format ratings CSV",
                       description="CSV columns: unit, rater, value; optional item and "
                       "system (the doctor model, for system-level correlations).")
    p.add_argument("file", help="long-format CSV")
    p.add_argument("--judge", metavar="NAME", help="the rater to validate against the others")
    p.add_argument("--level", choices=LEVELS, default="ordinal",
                   help="measurement level of the values (default ordinal)")
    _outputs(p)
    p.set_defaults(func=agreement)
    p = sub.add_parser("analyze", help="agreement and judge-vs-human report for a study")
    p.add_argument("--study", required=True, metavar="S", help="study name or id")
    p.add_argument("--judge", metavar="NAME",
                   help="judge rater name (default: the study's LLM judge, if any)")
    _outputs(p)
    add_db(p)
    p.set_defaults(func=analyze)


def _print(report: dict[str, Any], args: argparse.Namespace) -> None:
    from annotation.analysis.report import render_markdown, render_text

    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return
    render = render_markdown if args.markdown else render_text
    # A study report holds one report per rubric item (each at the item's own level).
    print("\n\n".join(render(r) for r in report.get("reports", [report])))


def agreement(args: argparse.Namespace) -> int:
    """Report on a long-format CSV."""
    from annotation.analysis.report import agreement_report, load_long_csv

    path = Path(args.file)
    if not path.is_file():
        raise InputError("no such file", path=str(path))
    rows = load_long_csv(path, level=args.level)
    report = agreement_report(rows, judge=args.judge, level=args.level, n_boot=args.bootstrap,
                              seed=args.seed, epsilon=args.epsilon)
    _print(report, args)
    return 0


def analyze(args: argparse.Namespace) -> int:
    """Report on a study's ratings, item by item, at each item's own level and scale."""
    from annotation.analysis_study import study_report
    from db.connection import open_db

    report = study_report(open_db(args.db), args.study, judge=args.judge,
                          n_boot=args.bootstrap, seed=args.seed, epsilon=args.epsilon)
    _print(report, args)
    return 0
