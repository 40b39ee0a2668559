"""`bedside corpus`: the local documents the doctor's retrieval tool searches (`add` a
folder of text, Markdown and HTML files, `list`, `remove`, and `search` them as the doctor
would). Headless; document text is printed through `tui.text.safe`."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from tui.text.safe import sanitize


def register(sub: argparse._SubParsersAction,
             add_db: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add `bedside corpus add|list|remove|search`."""
    corpus = sub.add_parser("corpus", help="documents the doctor's retrieval tool searches")
    csub = corpus.add_subparsers(dest="corpus_command", required=True, metavar="ACTION")
    p = csub.add_parser("add", help="add the text, Markdown and HTML files of a folder",
                        description="Read every .txt, .md and .html file under each folder "
                        "(HTML made into text; nothing in it is run), cut it into passages "
                        "and index them (SQLite FTS5) in the project database. A file added "
                        "again is updated if it changed. A file that cannot be used is "
                        "named and skipped (exit 1); the others are kept.")
    p.add_argument("paths", nargs="+", metavar="DIR", help="a folder (or one file)")
    add_db(p)
    p.set_defaults(func=add)
    p = csub.add_parser("list", help="the documents in the corpus")
    p.add_argument("--json", action="store_true", help="print JSON (every field)")
    add_db(p)
    p.set_defaults(func=list_documents)
    p = csub.add_parser("remove", help="remove documents by id, path or folder")
    p.add_argument("refs", nargs="+", metavar="ID|PATH", help="a document id, its path, or "
                   "a folder (every document under it)")
    add_db(p)
    p.set_defaults(func=remove)
    p = csub.add_parser("search", help="search the corpus as the doctor's SEARCH: does")
    p.add_argument("query", help="what to look up")
    p.add_argument("--limit", type=int, default=3, metavar="N", help="passages (default 3)")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_db(p)
    p.set_defaults(func=search)


def _store(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from db.store import open_store

    return open_store(getattr(args, "db", None))


def add(args: argparse.Namespace) -> int:
    """Add the folders' documents; exit 1 when a file was skipped."""
    from core.usecases import corpus

    store = _store(args)
    skipped = 0
    for path in args.paths:
        report = corpus.add(store, Path(path))
        for line in report.skipped:
            print(f"bedside: skipped {sanitize(line)}", file=sys.stderr)
        skipped += len(report.skipped)
        passages = sum(d.passages for d in [*report.added, *report.updated])
        print(f"{sanitize(path)}: {len(report.added)} added, {len(report.updated)} updated, "
              f"{len(report.unchanged)} unchanged, {len(report.skipped)} skipped "
              f"({passages} passages indexed)")
    return 1 if skipped else 0


def list_documents(args: argparse.Namespace) -> int:
    """Print the corpus, one document a line."""
    from core.usecases import corpus

    docs = corpus.documents(_store(args))
    if args.json:
        print(json.dumps([d.model_dump(mode="json") for d in docs], ensure_ascii=False,
                         indent=2))
        return 0
    for d in docs:
        print(f"{d.id}  {d.kind:<8}  {d.passages:>4} passages  {sanitize(d.title)[:50]}  "
              f"{sanitize(d.path)}")
    print(f"{len(docs)} documents, {sum(d.passages for d in docs)} passages")
    return 0


def remove(args: argparse.Namespace) -> int:
    """Remove documents; say which."""
    from core.usecases import corpus

    removed = corpus.remove(_store(args), args.refs)
    for d in removed:
        print(f"removed {d.id}  {sanitize(d.path)}")
    return 0


def search(args: argparse.Namespace) -> int:
    """Print the passages a doctor's search would get."""
    from core.usecases import corpus

    found = corpus.search(_store(args), args.query, args.limit)
    if args.json:
        print(json.dumps([p.model_dump(mode="json", exclude_none=True) for p in found],
                         ensure_ascii=False, indent=2))
        return 0
    for i, p in enumerate(found, start=1):
        print(f"[{i}] {sanitize(p.title)} — {sanitize(p.source)}\n{sanitize(p.text)}\n")
    print(f"{len(found)} passages")
    return 0
