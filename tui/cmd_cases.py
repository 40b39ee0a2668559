"""`bedside cases ...`: list, validate, import and show cases. Headless (no textual)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from core.caseio import bundled_cases_dir, dump_case, iter_case_files, load_bundled_cases, \
    validate_case_errors
from core.case import Case
from core.errors import InputError, NotFoundError


def _library(db_path: str | None) -> list[Case]:
    """Bundled cases, then cases stored in the database (imported), by id."""
    cases = {c.id: c for c in load_bundled_cases()}
    path = Path(db_path) if db_path else None
    from db.connection import default_db_path

    if (path or default_db_path()).exists():
        from db.cases import list_cases as stored
        from db.connection import open_db

        for case in stored(open_db(path)):
            cases.setdefault(case.id, case)
    return sorted(cases.values(), key=lambda c: c.id)


def list_cases(args: argparse.Namespace) -> int:
    """Print the library as a table or JSON."""
    cases = _library(args.db)
    rows = [{"id": c.id, "title": c.title, "specialty": c.specialty, "language": c.language,
             "source": c.source} for c in cases]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    widths = {k: max(len(k), *(len(str(r[k])) for r in rows)) for k in rows[0]} if rows else {}
    print("  ".join(k.upper().ljust(widths[k]) for k in widths))
    for r in rows:
        print("  ".join(str(r[k]).ljust(widths[k]) for k in widths))
    print(f"\n{len(rows)} cases, {len({r['specialty'] for r in rows})} specialties, "
          f"{len({r['language'] for r in rows})} languages")
    return 0


def validate(args: argparse.Namespace) -> int:
    """Report every problem in every case file under a path; exit 1 if any."""
    root = Path(args.path)
    if not root.exists():
        raise InputError("no such file or folder", path=str(root))
    problems, files, seen = [], 0, {}
    for path in iter_case_files(root):
        files += 1
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            problems.append(InputError(f"cannot read ({err})", path=str(path)))
            continue
        errs = validate_case_errors(text, str(path))
        problems.extend(errs)
        if not errs:
            import yaml

            case_id = yaml.safe_load(text).get("id")
            if case_id in seen:
                problems.append(InputError(f"duplicate case id '{case_id}' (also in "
                                           f"{seen[case_id]})", path=str(path), field="id"))
            seen[case_id] = path
    for p in problems:
        print(p)
    print(f"{files} files checked, {len(problems)} problems")
    return 1 if problems else 0


def import_cases(args: argparse.Namespace) -> int:
    """Import a peer benchmark file into the database."""
    path = Path(args.path)
    if not path.is_file():
        raise InputError("no such file", path=str(path))
    from core.ids import new_id
    from core.importers import import_file
    from db.cases import save_cases
    from db.connection import open_db
    from db.consultations import save_transcript

    result = import_file(args.format, path)
    db = open_db(args.db)
    save_cases(db, result.cases)
    for t in result.transcripts:
        if not db["cases"].count_where("id = ?", [t.case_id]):
            save_cases(db, [_placeholder_case(t.case_id)])
        save_transcript(db, t, consultation_id=new_id("imp-"), origin=f"import:{args.format}")
    for w in result.warnings:
        print(f"warning: {w}", file=sys.stderr)
    print(f"imported {len(result.cases)} cases and {len(result.transcripts)} transcripts "
          f"from {path}")
    return 0


def _placeholder_case(case_id: str) -> Case:
    """A minimal case row for an imported transcript whose source record is not imported."""
    return Case(id=case_id, title=f"Imported transcript {case_id}", specialty="unknown",
                source="imported", objective="(imported transcript; case record not available)",
                patient={}, truth={"diagnosis": "unknown"}, placeholder=True)


def show(args: argparse.Namespace) -> int:
    """Print one case as YAML."""
    for case in _library(args.db):
        if case.id == args.case_id:
            print(dump_case(case), end="")
            return 0
    raise NotFoundError(f"no case with id '{args.case_id}' (see `bedside cases list`)")


__all__ = ["list_cases", "validate", "import_cases", "show", "bundled_cases_dir"]
