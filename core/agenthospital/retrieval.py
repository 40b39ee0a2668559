"""Similarity search over a growing collection of texts: BM25 (offline, ours, numpy) or
embeddings (a model through litellm).

`Bm25` keeps an inverted index whose postings are stdlib `array`s (appended in O(1), seen
by numpy without a copy), so adding a document never rebuilds anything and a query costs
the postings of its own terms; terms found in more than half of the documents are skipped
(their idf is close to 0 and their postings are the longest). Each posting holds the
term's BM25 weight for its document,
tf·(k1+1)/(tf + k1·(1 − b + b·len/avglen)), with the average length as it was when the
document was added; the idf, which changes as documents arrive, is applied at query time.

`Embedded` keeps one unit vector per document (a growing float32 matrix) and ranks by
cosine similarity; the vectors come from an `Embed` callable (`core.llm.LLMClient.embed`
with the embedding model's spec), so retrieval with a model is only a different index.

Both answer `search(text, k)` with (document number, score) pairs, best first; ties are
broken by the earlier document, so results are deterministic. A BM25 score is divided by
the query's score against itself, so 1 means "as close as the query is to itself" and
scores compare across queries, like a cosine.
"""

from __future__ import annotations

import math
import re
from array import array
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

import numpy as np

_TOKEN = re.compile(r"[a-z0-9]+(?:[.'][a-z0-9]+)*")
STOPWORDS = frozenset("""a about after all also am an and any are as at be been but by can
did do does for from had has have he her him his i if in into is it its just me my no not
of on or our she so than that the their them then there they this to up was we were what
when which who will with you your i've i'm it's don't can't there's""".split())
Embed = Callable[[list[str]], Awaitable[list[list[float]]]]


def tokens(text: str) -> list[str]:
    """Lower-case word and number tokens without stop words."""
    return [t for t in _TOKEN.findall(text.casefold()) if t not in STOPWORDS]


def _top(scores: np.ndarray, k: int) -> list[tuple[int, float]]:
    """The k best (index, score) pairs with a positive score, best first, earlier first on
    ties."""
    positive = np.flatnonzero(scores > 0)
    if positive.size == 0 or k <= 0:
        return []
    if positive.size > k:
        # Stable order: sort by (-score, index) among the candidates.
        part = positive[np.argpartition(-scores[positive], k - 1)[:k]]
        cut = scores[part].min()
        positive = positive[scores[positive] >= cut]
    order = np.lexsort((positive, -scores[positive]))[:k]
    return [(int(positive[i]), float(scores[positive[i]])) for i in order]


class Index(Protocol):
    """A growing collection of texts searched by similarity."""

    def __len__(self) -> int:
        """How many documents it holds."""
        ...

    async def add(self, text: str) -> int:
        """Add a document; its number."""
        ...

    async def search(self, text: str, k: int) -> list[tuple[int, float]]:
        """The k most similar documents (number, score), best first."""
        ...


class Bm25:
    """Okapi BM25 over an inverted index (see the module docstring)."""

    def __init__(self, k1: float = 1.2, b: float = 0.75, common: float = 0.5) -> None:
        self.k1, self.b, self.common = k1, b, common
        self._docs: array[int] = array("i")  # n by document: its length
        self._total = 0
        self._postings: dict[str, tuple[array[int], array[float]]] = {}

    def __len__(self) -> int:
        return len(self._docs)

    def add_now(self, text: str) -> int:
        """Add a document (synchronously); its number."""
        words = tokens(text)
        n = len(self._docs)
        self._docs.append(len(words))
        self._total += len(words)
        avg = self._total / (n + 1)
        counts: dict[str, int] = {}
        for w in words:
            counts[w] = counts.get(w, 0) + 1
        norm = self.k1 * (1 - self.b + self.b * len(words) / avg) if avg else self.k1
        for w, tf in counts.items():
            docs, weights = self._postings.setdefault(w, (array("i"), array("f")))
            docs.append(n)
            weights.append(tf * (self.k1 + 1) / (tf + norm))
        return n

    def search_now(self, text: str, k: int) -> list[tuple[int, float]]:
        """The k best documents (synchronously)."""
        n = len(self._docs)
        if n == 0:
            return []
        scores = np.zeros(n, dtype=np.float64)
        words = tokens(text)
        counts: dict[str, int] = {}
        for w in words:
            counts[w] = counts.get(w, 0) + 1
        avg = self._total / n if n else 1.0
        norm = self.k1 * (1 - self.b + self.b * len(words) / avg) if avg else self.k1
        best = 0.0  # the query's score against itself: what 1.0 means
        for w in counts:
            posting = self._postings.get(w)
            if posting is None:
                continue
            docs, weights = posting
            df = len(docs)
            if df > self.common * n and n >= 20:
                continue  # in most documents: its idf is near 0 and its postings are long
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            scores[np.frombuffer(docs, dtype=np.int32)] += \
                idf * np.frombuffer(weights, dtype=np.float32)
            tf = counts[w]
            best += idf * tf * (self.k1 + 1) / (tf + norm)
        return _top(scores / best if best > 0 else scores, k)

    async def add(self, text: str) -> int:
        """Add a document; its number."""
        return self.add_now(text)

    async def search(self, text: str, k: int) -> list[tuple[int, float]]:
        """The k best documents."""
        return self.search_now(text, k)


class Embedded:
    """Cosine similarity of model embeddings (see the module docstring)."""

    def __init__(self, embed: Embed) -> None:
        self.embed = embed
        self._rows = np.zeros((0, 0), dtype=np.float32)
        self._n = 0

    def __len__(self) -> int:
        return self._n

    @staticmethod
    def _unit(vectors: Sequence[Sequence[float]]) -> np.ndarray:
        m = np.asarray(vectors, dtype=np.float32)
        norms = np.linalg.norm(m, axis=1, keepdims=True)
        return m / np.where(norms == 0, 1, norms)

    async def add(self, text: str) -> int:
        """Embed and add a document; its number."""
        vec = self._unit(await self.embed([text]))[0]
        if self._n == len(self._rows):  # grow by doubling
            grown = np.zeros((max(16, 2 * self._n), vec.size), dtype=np.float32)
            if self._n:
                grown[: self._n] = self._rows[: self._n]
            self._rows = grown
        self._rows[self._n] = vec
        self._n += 1
        return self._n - 1

    async def search(self, text: str, k: int) -> list[tuple[int, float]]:
        """The k documents whose embedding is closest to the text's."""
        if self._n == 0:
            return []
        query = self._unit(await self.embed([text]))[0]
        return _top(self._rows[: self._n] @ query, k)
