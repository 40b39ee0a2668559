"""Text normalisation and item matching (synonyms, abbreviations, fuzzy) with rapidfuzz.

Two questions are answered here:
- which of a set of named entries a free sentence mentions (the patient's query parser);
- which entry a requested test name refers to (the examiner's test parser).
Matching is deterministic: ties are broken by the order entries were given in.

Must not import: textual, rich, litellm, or any other bedside package.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz

_PUNCT = re.compile(r"[^\w+%]+", re.UNICODE)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
FUZZY_SENTENCE = 90  # partial match of a term inside a sentence (typos: "diaphoretic")
FUZZY_NAME = 88  # whole-name similarity for requested tests (typos: "electrocardiagram")


def normalise(text: str) -> str:
    """Lower case, accents removed (not for CJK), punctuation to spaces, spaces collapsed."""
    text = unicodedata.normalize("NFKC", text).casefold()
    if not _CJK.search(text):
        decomposed = unicodedata.normalize("NFKD", text)
        text = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(_PUNCT.sub(" ", text).split())


def contains(haystack: str, needle: str) -> bool:
    """Whole-word containment of normalised `needle` in normalised `haystack`.

    CJK text has no spaces between words, so there plain substring search is used; a
    needle ending in a hyphen-free stem such as `allerg` is matched as a word prefix.
    """
    if not needle:
        return False
    if _CJK.search(needle):
        return needle in haystack
    return f" {needle}" in f" {haystack}" and (
        f" {needle} " in f" {haystack} " or len(needle) >= 4
    )


def cue_hit(haystack: str, cue_list: list[str]) -> bool:
    """True if any cue (a word, a phrase or a word stem) occurs in the normalised text."""
    return any(contains(haystack, normalise(c)) for c in cue_list)


@dataclass(frozen=True)
class Entry:
    """A matchable thing: its normalised terms and what it stands for."""

    terms: tuple[str, ...]
    payload: Any
    order: int


def make_entries(items: list[tuple[list[str], Any]]) -> list[Entry]:
    """Entries from (names, payload) pairs, names normalised, empty names dropped."""
    out = []
    for order, (names, payload) in enumerate(items):
        terms = tuple(dict.fromkeys(t for t in (normalise(n) for n in names) if t))
        if terms:
            out.append(Entry(terms, payload, order))
    return out


def mentioned(sentence: str, entries: list[Entry], limit: int = 3) -> list[Entry]:
    """Entries a sentence mentions: exact whole-word terms first, then close fuzzy matches."""
    text = normalise(sentence)
    scored: list[tuple[float, int, Entry]] = []
    for entry in entries:
        best = 0.0
        for term in entry.terms:
            if contains(text, term):
                best = 100.0 + len(term) / 100  # longer exact terms are more specific
                break
            if len(term) >= 6 and " " not in term and contains(text, _stem(term)):
                best = max(best, 99.0)  # "diaphoresis" ~ "diaphoretic", "sweating" ~ "sweaty"
            elif len(term) >= 6:
                score = fuzz.partial_ratio(term, text, score_cutoff=FUZZY_SENTENCE)
                best = max(best, score)
        if best:
            scored.append((-best, entry.order, entry))
    scored.sort(key=lambda s: (s[0], s[1]))
    return [e for _, _, e in scored[:limit]]


def _stem(word: str) -> str:
    """A crude language-neutral stem: the word less its last three letters, at least five."""
    return word[: max(5, len(word) - 3)]


def _name_score(name: str, term: str) -> float:
    """How well a requested test name fits one term (0 when it does not)."""
    if name == term:
        return 300.0
    if contains(name, term):
        return 200.0 + len(term) / 100  # "12 lead ecg please" → "12 lead ecg" beats "ecg"
    name_tokens, term_tokens = set(name.split()), set(term.split())
    if len(name_tokens) >= 2 and name_tokens <= term_tokens:
        return 150.0 - len(term_tokens)  # "blood count" → "complete blood count"
    return fuzz.ratio(name, term, score_cutoff=FUZZY_NAME)


def best_for_name(name: str, entries: list[Entry]) -> Entry | None:
    """The entry a requested test name refers to, or None if nothing fits well enough."""
    key = normalise(name)
    if not key:
        return None
    best: tuple[float, int, Entry] | None = None
    for entry in entries:
        score = max(_name_score(key, t) for t in entry.terms)
        if score and (best is None or (score, -entry.order) > (best[0], -best[1])):
            best = (score, entry.order, entry)
    return best[2] if best else None
