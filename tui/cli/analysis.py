"""`bedside analyze --study S`, `bedside agreement FILE.csv` and `bedside analyze-judges`:
agreement reports. Headless.

Both build the same report (`annotation.analysis.report`): inter-rater agreement per item,
judge-versus-human validation per item and over all items pooled, when a judge is named (or,
for a study, when one LLM judge has rated it). `--bootstrap` and `--epsilon` are checked by
argparse with the validation the app uses too (`annotation.analysis.options`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from annotation.analysis.options import (DEFAULT_BOOTSTRAP, DEFAULT_EPSILON, MAX_BOOTSTRAP,
                                         parse_bootstrap, parse_epsilon)
from core.errors import InputError

LEVELS = ("nominal", "ordinal", "interval", "ratio")


def _argtype(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """An argparse type from one of the shared parsers (its message becomes the error)."""
    def convert(text: str) -> Any:
        try:
            return parse(text)
        except InputError as err:
            raise argparse.ArgumentTypeError(err.reason) from None
    convert.__name__ = parse.__name__.removeprefix("parse_")  # argparse names it in errors
    return convert


def _outputs(p: argparse.ArgumentParser) -> None:
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the report as JSON")
    out.add_argument("--markdown", action="store_true", help="print the report as Markdown")
    p.add_argument("--epsilon", type=_argtype(parse_epsilon), default=DEFAULT_EPSILON,
                   metavar="E", help="alternative annotator test margin, 0 <= E < 1, or a "
                   "preset: expert (0.2, default), skilled (0.15), crowd (0.1)")
    p.add_argument("--bootstrap", type=_argtype(parse_bootstrap), default=DEFAULT_BOOTSTRAP,
                   metavar="N", help=f"bootstrap resamples for the 95%% intervals, 0 to "
                   f"{MAX_BOOTSTRAP} (default {DEFAULT_BOOTSTRAP}; 0: no intervals)")
    p.add_argument("--seed", type=int, default=0, help="seed of the bootstrap (default 0)")


def register(sub: argparse._SubParsersAction, add_db: Callable[..., None]) -> None:
    """Add `bedside agreement` and `bedside analyze`."""
    p = sub.add_parser("agreement", help="agreement report for any long-format ratings CSV",
                       description="CSV columns: unit, rater, value; optional item and "
                       "system (the doctor model, for system-level correlations).")
    p.add_argument("file", help="long-format CSV")
    p.add_argument("--judge", metavar="NAME", help="the rater to validate against the others")
    p.add_argument("--level", choices=LEVELS, default=None,
                   help="measurement level of the values (default: ordinal when every value "
                   "is a number, else nominal)")
    p.add_argument("--scale", metavar="LO-HI", default=None,
                   help="the rating scale (whole numbers, such as 1-5): a value outside it is "
                   "an error; default: the scale of each item in the rubric of the study the "
                   "file's 'study' column names, else the values seen")
    # Every command takes --db; the ratings come from FILE, and the database is read only
    # for the rubric of the study a 'study' column names (never created).
    p.add_argument("--db", metavar="PATH", default=argparse.SUPPRESS,
                   help="where to find the study a 'study' column names (for its scales)")
    _outputs(p)
    p.set_defaults(func=agreement)
    p = sub.add_parser("analyze", help="agreement and judge-vs-human report for a study")
    p.add_argument("--study", required=True, metavar="S", help="study name or id")
    p.add_argument("--judge", metavar="NAME",
                   help="judge rater name (default: the study's LLM judge, if it has one)")
    _outputs(p)
    add_db(p)
    p.set_defaults(func=analyze)
    p = sub.add_parser("analyze-judges", help="agreement between the report judges of "
                       "bedside score, part by part",
                       description="How far the LLM judges that graded the same final "
                       "reports (bedside score --judge, once per judge) agree: per report "
                       "part, percent agreement, Krippendorff's alpha, Cohen's kappa per "
                       "pair (unweighted, linear, quadratic), with each judge's mean score.")
    p.add_argument("--run", metavar="RUN", default=None,
                   help="only this run's consultations (id or name; default: every run)")
    p.add_argument("--judge", metavar="NAME", action="append", default=[],
                   help="compare only these judges (two or more; whole name, or model); "
                   "default: every report judge")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the report as JSON")
    out.add_argument("--markdown", action="store_true", help="print the report as Markdown")
    p.add_argument("--bootstrap", type=_argtype(parse_bootstrap), default=DEFAULT_BOOTSTRAP,
                   metavar="N", help=f"bootstrap resamples for alpha's 95%% interval, 0 to "
                   f"{MAX_BOOTSTRAP} (default {DEFAULT_BOOTSTRAP})")
    p.add_argument("--seed", type=int, default=0, help="seed of the bootstrap (default 0)")
    p.add_argument("--full", action="store_true", help="also every statistic of every part "
                   "(Fleiss' kappa, alpha at each level, ICC), as bedside analyze prints them")
    add_db(p)
    p.set_defaults(func=analyze_judges)


def _print(report: dict[str, Any], args: argparse.Namespace) -> None:
    """Print a report (a study's as `StudyReport.model_dump()`) as JSON, Markdown or text."""
    from annotation.analysis.report import render_markdown, render_text

    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return
    render = render_markdown if args.markdown else render_text
    # A study report holds one report per level (scale items, choice items).
    parts = report.get("reports", [report])
    if not parts:
        print(f"Study '{report['study']}': no scale or choice item has ratings.")
    print("\n\n".join(render(r) for r in parts))


def agreement(args: argparse.Namespace) -> int:
    """Report on a long-format CSV."""
    from annotation.analysis.report import agreement_report, load_long_csv

    from annotation.analysis.data import check_scale, guess_level, missing_lines

    path = Path(args.file)
    if not path.is_file():
        raise InputError("no such file", path=str(path))
    given = None if args.scale is None else _given_scale(args.scale)
    rows = load_long_csv(path, level=args.level)
    scales = {"": given} if given else _study_scales(rows, getattr(args, "db", None))
    check_scale(rows, scales, str(path))
    level = args.level
    if level is None:  # not asked for: the values say (and the report names it)
        level = guess_level(rows)
    # The full scales (every value a rater could give), for the statistics that use them.
    full = {item: list(range(lo, hi + 1)) for item, (lo, hi, _) in scales.items() if item}
    whole = list(range(given[0], given[1] + 1)) if given else None
    report = agreement_report(rows, judge=args.judge, level=level, n_boot=args.bootstrap,
                              seed=args.seed, epsilon=args.epsilon, path=str(path),
                              scale=whole, scales=full)
    if args.level is None:
        print(f"level: {level} (" + ("every value is a number" if level == "ordinal" else
                                     "the values are not all numbers")
              + "; --level sets it)", file=sys.stderr)
    _notes(rows, scales, level, missing_lines(rows))
    _print(report, args)
    return 0


def _given_scale(text: str) -> tuple[int, int, str]:
    from annotation.analysis.data import parse_scale

    lo, hi = parse_scale(text)
    return lo, hi, ""


def _study_scales(rows: list[Any], db: str | None) -> dict[str, tuple[int, int, str]]:
    """Each scale item's (min, max) from the rubric of the study the rows name, when the
    database has it; {} otherwise (the database is never created to look)."""
    from db.files import default_db_path

    names = {r.study for r in rows if r.study}
    path = Path(db) if db else default_db_path()
    if len(names) != 1 or not path.exists():
        return {}
    from annotation.assignment import load_definition
    from core.errors import NotFoundError
    from db.study_store import open_study_store

    (name,) = names
    try:
        study = open_study_store(path).get_study(name)
    except NotFoundError:
        return {}
    rubric = load_definition(study).effective_rubric()
    return {i.id: (i.min, i.max, f" of '{i.id}' (study '{name}')") for i in rubric.items
            if i.kind == "scale"}


def _notes(rows: list[Any], scales: dict[str, Any], level: str, missing: list[int]) -> None:
    """On stderr: what was left out, and the scale when no one gave it."""
    if missing:
        lines = ", ".join(str(n) for n in missing[:20]) + (" …" if len(missing) > 20 else "")
        print(f"left out {len(missing)} missing values (blank, NA or NaN): lines {lines}",
              file=sys.stderr)
    if not scales and level != "nominal":
        from annotation.analysis.data import is_missing

        values = [float(r.value) for r in rows if not is_missing(r.value)]
        if values:
            print(f"scale: {min(values):g} to {max(values):g}, from the values (--scale "
                  "sets it)", file=sys.stderr)


def analyze(args: argparse.Namespace) -> int:
    """Report on a study's ratings, item by item, at each item's own level and scale."""
    from annotation.analysis_study import study_report
    from db.study_store import open_study_store

    report = study_report(open_study_store(args.db), args.study, judge=args.judge,
                          n_boot=args.bootstrap, seed=args.seed, epsilon=args.epsilon)
    _print(report.model_dump(), args)
    return 0


def analyze_judges(args: argparse.Namespace) -> int:
    """The report judges' agreement on the report grades (exit 2 with fewer than two)."""
    from annotation.judges import judges_report, render_judges
    from db.store import open_store

    store = open_store(getattr(args, "db", None))
    run_id = store.get_run(args.run).id if args.run else None
    report = judges_report(store, run_id=run_id, judges=args.judge, n_boot=args.bootstrap,
                           seed=args.seed)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        from tui.text.safe import sanitize

        print(sanitize(render_judges(report, markdown=args.markdown, full=args.full)), end="")
    return 0
