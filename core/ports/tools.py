"""The store protocol of the doctor tools: the local search corpus (SQLite FTS5 in `db`)
and the notebook versions a run stored (so a resumed run continues its notebooks)."""

from __future__ import annotations

from typing import Protocol

from core.records.tools import CorpusDocument, NewDocument, NotebookVersion, Passage


class CorpusSearch(Protocol):
    """What a consultation needs of the corpus: a search."""

    def corpus_search(self, query: str, limit: int) -> list[Passage]:
        """The passages that best match `query` (at most `limit`), best first."""
        ...


class ToolStore(CorpusSearch, Protocol):
    """The corpus and the notebooks, as the use cases need them."""

    def corpus_documents(self) -> list[CorpusDocument]:
        """Every document of the corpus, by path."""
        ...

    def corpus_hashes(self) -> dict[str, str]:
        """path → sha256 of every document, to skip unchanged files."""
        ...

    def save_corpus_document(self, document: NewDocument) -> CorpusDocument:
        """Add a document, or replace the one read from the same path, and its passages."""
        ...

    def remove_corpus_documents(self, ids: list[str]) -> int:
        """Remove documents (and their passages) by id; return how many."""
        ...

    def notebook_versions(self, run_id: str) -> list[NotebookVersion]:
        """Every notebook version written by the run's finished or failed consultations
        (superseded, cancelled and abandoned attempts left out), oldest first."""
        ...
