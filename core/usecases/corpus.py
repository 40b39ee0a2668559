"""The local search corpus, headless: add a folder of documents (text, Markdown, HTML), list
them, remove them, and search them as the doctor's `SEARCH:` does.

Adding is per file: each file is read and cut into passages (`core.retrieval.documents`)
and stored with its passages in one transaction, so a file that cannot be used (too large,
not UTF-8, no text) is reported by name and skipped, and nothing already added is lost.
A file added again is updated when its content changed and left alone when not.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from core.errors import InputError, NotFoundError
from core.ports.tools import ToolStore
from core.records.tools import CorpusDocument, Passage
from core.retrieval.documents import KINDS, find_files, read_document


@dataclass
class AddReport:
    """What `add` did, file by file."""

    added: list[CorpusDocument] = field(default_factory=list)
    updated: list[CorpusDocument] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)  # paths
    skipped: list[str] = field(default_factory=list)  # one line each: file and why


def add(store: ToolStore, root: Path) -> AddReport:
    """Add every text, Markdown and HTML file under `root` (a folder or one file)."""
    if not root.exists():
        raise InputError("no such file or folder", path=str(root))
    files = find_files(root)
    if not files:
        raise InputError(f"holds no document to add ({', '.join(KINDS)})", path=str(root))
    known = store.corpus_hashes()
    report = AddReport()
    for path in files:
        resolved = str(path.resolve())
        try:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError as err:
            report.skipped.append(str(InputError(f"cannot read ({err.strerror or err})",
                                                 path=str(path))))
            continue
        if known.get(resolved) == digest:
            report.unchanged.append(resolved)
            continue
        try:
            document = read_document(path)
        except InputError as err:
            report.skipped.append(str(err))
            continue
        saved = store.save_corpus_document(document)
        (report.updated if resolved in known else report.added).append(saved)
    return report


def documents(store: ToolStore) -> list[CorpusDocument]:
    """Every document of the corpus, by path."""
    return store.corpus_documents()


def remove(store: ToolStore, refs: list[str]) -> list[CorpusDocument]:
    """Remove documents named by id, by path, or by a folder (every document under it);
    NotFoundError naming a reference that matches nothing (then nothing is removed)."""
    docs = store.corpus_documents()
    chosen: dict[str, CorpusDocument] = {}
    for ref in refs:
        folder = str(Path(ref).expanduser().resolve())
        found = [d for d in docs if d.id == ref or d.path == folder
                 or d.path.startswith(folder.rstrip("/") + "/")]
        if not found:
            raise NotFoundError(f"no corpus document is '{ref}' (an id, a path or a folder "
                                "from `bedside corpus list`)")
        chosen.update((d.id, d) for d in found)
    store.remove_corpus_documents(list(chosen))
    return list(chosen.values())


def search(store: ToolStore, query: str, limit: int = 3) -> list[Passage]:
    """The passages a doctor's `SEARCH: <query>` would get from the corpus."""
    if not 1 <= limit <= 50:
        raise InputError(f"must be from 1 to 50 (got {limit})", field="--limit")
    return store.corpus_search(query, limit)
