"""What a requested test name is: stored, a known test, an unknown test, or no test at all.

The examiner's first step (AI Hospital's: parse the named tests out of a request, refuse a
request that names none). `TestNames.read(name)` answers, in order:
1. `vague` — a catch-all ("all results", "所有检查结果") or a sentence that names no test
   ("Please provide the most recent medical examination details", "do something useful");
2. `stored` — the case holds it (`core.caseindex.finder`), also when misspelt: a word that is
   no known word is corrected to the one known test word within one edit (two for long
   words) that starts with the same letter ("troponon" → "troponin", "lipaze" → "lipase");
   words of sentences are never corrected, and a correction is kept only if it finds a test;
3. `known` — a test of the vocabularies (`vocab_tests`, `vocab_imaging`, `vocab_known`)
   that the case does not hold: AgentClinic's "normal";
4. `unknown` — a name that reads as a name but is no test this examiner knows ("podium"):
   "normal" in model runs, and said plainly to a human player (`strict_unknown`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from rapidfuzz.distance import OSA

from core.caseindex import concepts
from core.caseindex import vocab_imaging as vi
from core.agents import vocab_requests as vr
from core.caseindex import vocab_tests as vt
from core.caseindex.finder import FindingIndex, Line
from core.caseindex.matching import contains, is_cjk, normalise
from core.agents.vocab_known import known_names

Kind = Literal["vague", "stored", "known", "unknown"]
MIN_CORRECT = 6  # shorter words are too easily another word ("stood" ~ "stool")
# The word lists in the matching form (Hindi words lose their virama there).
SENTENCE = frozenset(normalise(w) for w in vr.SENTENCE_WORDS | vt.VAGUE_WORDS)
TEST_WORDS = frozenset(normalise(w) for w in vr.TEST_WORDS)
TEST_HEADS = frozenset(normalise(w) for w in vr.TEST_HEADS)
_ABBREVIATION = re.compile(r"^(?=.*[A-Z].*[A-Z0-9])[A-Za-z0-9]{2,8}$")
_AMPERSAND = re.compile(r"\b[A-Za-z]{1,3}\s?&\s?[A-Za-z]{1,3}\b")  # "G&S", "U & E"
# Words doctors shorten inside test names ("urinary pneumococcal Ag", "vit B12", "TPO Abs"),
# tried when the name as written finds nothing.
WORD_ABBREVIATIONS = {"ag": "antigen", "ags": "antigens", "ab": "antibody",
                      "abs": "antibodies", "vit": "vitamin", "abdo": "abdominal",
                      "bx": "biopsy", "cx": "culture", "xr": "x ray", "lvl": "level",
                      "lvls": "levels", "serol": "serology", "elec": "electrolytes"}


@dataclass
class Reading:
    """What one requested name turned out to be."""

    kind: Kind
    found: list[Line] = field(default_factory=list)  # stored items (kind "stored")
    corrected: str | None = None  # the spelling that found it, when corrected


@lru_cache(maxsize=1)
def _vocabulary() -> tuple[frozenset[str], frozenset[str]]:
    """Every known test name (normalised) and every word of them worth correcting to."""
    names: set[str] = {normalise(n) for n in known_names()}
    for table in (vt.LABS, vt.GROUPS, vi.EXPLICIT, vi.MODALITIES):
        for langs in table.values():
            names.update(normalise(n.lstrip("!")) for text in langs.values()
                         for n in text.split("|"))
    names.discard("")
    words = {w for n in names for w in n.split()
             if len(w) >= MIN_CORRECT and w not in SENTENCE and not is_cjk(w)}
    return frozenset(names), frozenset(words)


def is_known_name(key: str) -> bool:
    """True if a normalised name is, or contains, a known test name."""
    names, _ = _vocabulary()
    if key in names:
        return True
    return any(contains(key, n) for n in names if len(n) >= 4 or n.isupper())


def names_no_test(name: str) -> bool:
    """True if a request reads as a sentence that names no test (before any lookup)."""
    if is_cjk(name):
        text = normalise(name)
        return any(s in text for s in vr.SENTENCE_CJK) and not any(
            t in text for t in vr.TEST_CJK)
    raw = re.findall(r"[\w-]+", name)
    words = normalise(name).split()
    sentence = [w for w in words if w in SENTENCE]
    if not sentence:
        return False
    if any(_ABBREVIATION.match(r) and normalise(r) not in SENTENCE for r in raw) or \
            _AMPERSAND.search(name):
        return False  # written as an abbreviation: "ANA", "HLA-B27", "G&S", "U&E"
    for i, w in enumerate(words):
        if w in sentence:
            continue
        if w in TEST_WORDS or _ending(w):
            return False
        if w in TEST_HEADS and i > 0 and words[i - 1] not in sentence:
            return False
        if i + 1 < len(words) and words[i + 1] in TEST_HEADS:
            return False  # "Romberg test": a specific word before a head
    return True


def expand_abbreviations(key: str) -> str:
    """A normalised name with shortened words written out ("vit d" → "vitamin d")."""
    return " ".join(WORD_ABBREVIATIONS.get(w, w) for w in key.split())


def _ending(word: str) -> bool:
    if len(word) < vr.MIN_ENDING_WORD or word in vr.NOT_ENDINGS or word in TEST_HEADS:
        return False
    return word.endswith(vr.TEST_ENDINGS)


class TestNames:
    """Reads requested names against one examiner's stored items and the vocabularies."""

    def __init__(self, index: FindingIndex) -> None:
        self.index = index
        stored = {w for n in index.nodes for t in n.terms for w in t.split()
                  if len(w) >= MIN_CORRECT and not is_cjk(w) and w not in SENTENCE}
        _, vocab = _vocabulary()
        self.words = frozenset(stored | vocab)

    def read(self, name: str, vague: bool) -> Reading:
        """What a requested name is; `vague` is the catch-all verdict of the caller."""
        key = normalise(name)
        if vague or not key:
            return Reading("vague")
        found = self.index.lookup(name)
        if found:
            return Reading("stored", found)
        whole = expand_abbreviations(key)
        if whole != key:
            found = self.index.lookup(whole)
            if found:
                return Reading("stored", found, whole)
            key = whole
        fixed = self.correct(key)
        if fixed != key:
            found = self.index.lookup(fixed)
            if found:
                return Reading("stored", found, fixed)
        for candidate in dict.fromkeys((fixed, key)):
            if concepts.tag(candidate, self.index.lang) or is_known_name(candidate):
                return Reading("known", corrected=None if candidate == key else candidate)
        if names_no_test(name):
            return Reading("vague")
        return Reading("unknown")

    def correct(self, key: str) -> str:
        """The name with each unknown word replaced by the one close known test word."""
        out = []
        for word in key.split():
            out.append(self._closest(word) or word)
        return " ".join(out)

    def _closest(self, word: str) -> str | None:
        if (len(word) < MIN_CORRECT or word in self.words or word in SENTENCE
                or is_cjk(word) or any(c.isdigit() for c in word)):
            return None
        limit = 1 if len(word) < 9 else 2
        best: list[tuple[int, str]] = []
        for known in self.words:
            if known[0] != word[0] or abs(len(known) - len(word)) > limit:
                continue
            d = OSA.distance(word, known, score_cutoff=limit)
            if d <= limit:
                best.append((d, known))
        if not best:
            return None
        top = min(d for d, _ in best)
        choices = sorted(k for d, k in best if d == top)
        # Several equally close words are fine when they name the same thing
        # ("creatinin" → "creatinine" or Spanish "creatinina").
        tags = {concepts.tag(c, self.index.lang).specific for c in choices}
        return choices[0] if len(choices) == 1 or len(tags) == 1 and tags != {frozenset()} \
            else None
