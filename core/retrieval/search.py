"""The doctor's search: the local corpus and, when configured, the web, asked in turn; the
passages worded for the doctor and recorded with their sources.

A provider that fails (the web endpoint down, say) is recorded as an error on the search's
result turn and the consultation goes on with what the others found.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from core.errors import BedsideError
from core.ports.tools import CorpusSearch
from core.records.tools import Passage
from core.retrieval.web import WebSearch

log = logging.getLogger("bedside.search")


@dataclass
class SearchOutcome:
    """What one search found."""

    query: str
    passages: list[Passage] = field(default_factory=list)
    providers: list[str] = field(default_factory=list)  # those asked
    errors: list[str] = field(default_factory=list)  # one line per provider that failed

    def words(self) -> str:
        """The result as the doctor reads it (and the transcript shows it)."""
        head = f'Search results for "{self.query}" (seen by you alone):'
        if not self.providers:
            return f"{head} no search source is available."
        lines = [head]
        for i, p in enumerate(self.passages, start=1):
            lines += [f"[{i}] {p.title} — {p.source}", p.text, ""]
        if not self.passages:
            lines.append("nothing found.")
        lines += [f"({e})" for e in self.errors]
        return "\n".join(lines).strip()

    def meta(self) -> dict[str, Any]:
        """What the result turn records: the query, each passage with its source, the
        providers asked and their errors."""
        return {"query": self.query, "providers": self.providers, "errors": self.errors,
                "passages": [p.model_dump(mode="json", exclude_none=True)
                             for p in self.passages]}


class Searcher:
    """The providers of one consultation's searches."""

    def __init__(self, corpus: CorpusSearch | None, web: WebSearch | None,
                 passages: int) -> None:
        self.corpus, self.web, self.limit = corpus, web, passages

    @property
    def sources(self) -> str:
        """The sources in words, for the doctor's instructions."""
        names = [n for n, p in (("a local library of documents", self.corpus),
                                ("a web search", self.web)) if p is not None]
        return " and ".join(names) or "no source (none is available)"

    async def search(self, query: str) -> SearchOutcome:
        """Ask every provider; corpus passages first."""
        out = SearchOutcome(query=query)
        if self.corpus is not None:
            out.providers.append("corpus")
            try:
                out.passages += self.corpus.corpus_search(query, self.limit)
            except Exception as err:  # never fail a consultation over a search
                log.exception("corpus search failed")
                out.errors.append(f"corpus search failed: {type(err).__name__}: {err}"[:300])
        if self.web is not None:
            out.providers.append("web")
            try:
                out.passages += await self.web.search(query, self.limit)
            except BedsideError as err:
                out.errors.append(f"web search failed: {err}")
        return out
