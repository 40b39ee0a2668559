"""`bedside cases ...`: list, validate, import and show cases. Headless (no textual)."""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from pathlib import Path
from typing import Any

from core.caseio import bundled_cases_dir, dump_case, iter_case_files, load_bundled_cases
from core.case import BCP47, Case
from core.errors import InputError, NotFoundError

TITLE_COLUMNS = 60  # widest title column of `cases list` (longer titles are cut with '…')
REVIEW_MARK = "[MT review]"  # before the title of a machine translation not yet reviewed


def _library(db_path: str | None) -> list[Case]:
    """Bundled cases, then cases stored in the database (imported), by id; a database that
    does not exist yet is not created just to be listed."""
    from core.usecases.library import library
    from db.files import default_db_path

    path = Path(db_path) if db_path else None
    if not (path or default_db_path()).exists():
        return library(None, load_bundled_cases())
    from db.store import open_store

    return library(open_store(path), load_bundled_cases())


def display_width(text: str) -> int:
    """Terminal columns `text` takes: East Asian wide/full-width characters take two,
    combining marks none."""
    return sum(0 if unicodedata.combining(ch) else
               2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def fit(text: str, width: int) -> str:
    """`text` cut (with '…') and padded with spaces to exactly `width` columns."""
    if display_width(text) > width:
        out, used = "", 0
        for ch in text:
            w = display_width(ch)
            if used + w > width - 1:
                break
            out, used = out + ch, used + w
        text = out + "…"
    return text + " " * (width - display_width(text))


def _table(rows: list[dict[str, Any]]) -> list[str]:
    """Aligned lines (header first); titles are cut to keep a line readable."""
    keys = ["id", "title", "specialty", "language", "source"]
    # Imported titles may hold line breaks or tabs: one line per case, whatever the source.
    cells = [{k: " ".join(str(r[k]).split()) for k in keys} for r in rows]
    widths = {k: max(display_width(k), *(display_width(c[k]) for c in cells)) for k in keys}
    widths["title"] = min(widths["title"], TITLE_COLUMNS)
    lines = ["  ".join(fit(k.upper(), widths[k]) for k in keys)]
    lines += ["  ".join(fit(c[k], widths[k]) for k in keys) for c in cells]
    return [line.rstrip() for line in lines]


def list_cases(args: argparse.Namespace) -> int:
    """Print the library as a table or JSON.

    Placeholder cases (stand-ins for imported transcripts whose record was not imported)
    are listed after the real ones, marked, and left out of the counts: they are never run.
    """
    cases = _library(args.db)
    rows = [{"id": c.id, "title": c.title, "specialty": c.specialty, "language": c.language,
             "source": c.source, "placeholder": c.placeholder,
             "translated_from": c.translated_from, "machine_translated": c.machine_translated,
             "needs_review": c.needs_review} for c in cases]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    for r in rows:  # a machine translation nobody has corrected yet says so in its title
        if r["needs_review"]:
            r["title"] = f"{REVIEW_MARK} {r['title']}"
    real = [r for r in rows if not r["placeholder"]]
    stand_ins = [r for r in rows if r["placeholder"]]
    if real:
        print("\n".join(_table(real)))
    print(f"\n{len(real)} cases, {len({r['specialty'] for r in real})} specialties, "
          f"{len({r['language'] for r in real})} languages")
    review = [r["id"] for r in real if r["needs_review"]]
    if review:
        print(f"{REVIEW_MARK} machine-translated, needs review by a native-speaking clinician: "
              f"{', '.join(review)}")
    if stand_ins:
        print(f"\n{len(stand_ins)} placeholder cases (stand-ins for imported transcripts whose "
              "case record was not imported; never run, not scored):")
        print("\n".join(_table(stand_ins)))
    return 0


def validate(args: argparse.Namespace) -> int:
    """Report every problem in every case file under a path; exit 1 if any."""
    import yaml

    from core.usecases.case_checks import check_case_text

    root = Path(args.path)
    if not root.exists():
        raise InputError("no such file or folder", path=str(root))
    problems: list[InputError] = []
    files, seen = 0, dict[str, Path]()
    for path in iter_case_files(root):
        files += 1
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            problems.append(InputError(f"cannot read ({err})", path=str(path)))
            continue
        problems.extend(check_case_text(text, str(path)))
        # Duplicate ids are checked even when the file has other problems.
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError:
            data = None  # already reported as not valid YAML
        case_id = data.get("id") if isinstance(data, dict) else None
        if isinstance(case_id, str) and case_id in seen:
            problems.append(InputError(f"duplicate case id '{case_id}' (also in "
                                       f"{seen[case_id]})", path=str(path), field="id"))
        if isinstance(case_id, str):
            seen.setdefault(case_id, path)
    for p in problems:
        print(p)
    print(f"{files} files checked, {len(problems)} problems")
    return 1 if problems else 0


def import_cases(args: argparse.Namespace) -> int:
    """Import a peer benchmark file into the database (`core.usecases.importing`).

    Re-importing is safe: a case with a known id is updated (or left alone if identical),
    and a transcript whose source record was imported before is skipped — its id is a hash
    of the record, so the same dialogue never appears twice.
    """
    from core.usecases.importing import read_peer_file, store_import
    from db.store import open_store

    path = Path(args.path)
    language = getattr(args, "language", None)
    if language is not None and not BCP47.match(language):
        raise InputError(f"'{language}' is not a language tag (e.g. hi, fa, ko, zh-Hans)",
                         field="--language")
    result = read_peer_file(args.format, path, language)  # bad file: nothing written
    done = store_import(open_store(args.db), result, args.format)
    for w in done.warnings:
        print(f"warning: {w}", file=sys.stderr)
    if done.saved.updated_with_runs:
        print(f"warning: {done.saved.updated_with_runs} updated cases already have "
              "consultations; their results were obtained on the previous version",
              file=sys.stderr)
    parts = []
    if done.cases or not done.transcripts:
        parts.append(f"{done.cases} cases ({len(done.saved.new)} new, "
                     f"{len(done.saved.updated)} updated, {len(done.saved.unchanged)} "
                     "unchanged)")
    if done.transcripts:
        notes = [f"{done.skipped} already imported, skipped" if done.skipped else "",
                 f"{done.relinked} imported before, linked anew" if done.relinked else ""]
        notes = [n for n in notes if n]
        parts.append(f"{done.added} transcripts" + (f" ({'; '.join(notes)})" if notes else ""))
    print(f"imported {' and '.join(parts)} from {path}")
    if getattr(args, "fetch_images", False):
        return _fetch(result.cases, timeout=20.0, again=False)
    return 0


def fetch_images(args: argparse.Namespace) -> int:
    """Fetch image URLs into the local cache: one line per image that failed (which case,
    which URL, why), a summary, exit 1 when any failed."""
    from core.selection import select_cases

    if not args.timeout > 0:
        raise InputError(f"must be above 0 (got {args.timeout:g})", field="--timeout")
    cases = select_cases(_library(args.db), args.cases) if args.cases else _library(args.db)
    return _fetch(cases, timeout=args.timeout, again=args.again)


def _fetch(cases: list[Case], *, timeout: float, again: bool) -> int:
    from core.image_cache import default_cache, fetch_images, wanted

    cache = default_cache()
    if not wanted(cases):
        print("no case has an image URL to fetch")
        return 0

    def failed(case_id: str, url: str, why: str | None) -> None:
        if why is not None:
            print(f"bedside: cannot fetch the image of case {case_id}: {url}: {why}",
                  file=sys.stderr)

    report = fetch_images(cases, cache, timeout=timeout, again=again, progress=failed)
    print(f"{len(report.fetched)} images fetched, {report.cached} already cached, "
          f"{len(report.failed)} failed (cache: {cache.root})")
    return 1 if report.failed else 0


def show(args: argparse.Namespace) -> int:
    """Print one case as YAML (a generated case, not in the library listing, too)."""
    for case in _library(args.db):
        if case.id == args.case_id:
            print(dump_case(case), end="")
            return 0
    from db.files import default_db_path

    if (Path(args.db) if args.db else default_db_path()).exists():
        from db.store import open_store

        try:
            print(dump_case(open_store(args.db).get_case(args.case_id)), end="")
            return 0
        except NotFoundError:
            pass
    raise NotFoundError(f"no case with id '{args.case_id}' (see `bedside cases list`)")


__all__ = ["list_cases", "validate", "import_cases", "show", "fetch_images",
           "bundled_cases_dir"]
