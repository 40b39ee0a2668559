"""Text normalisation and item matching (synonyms, abbreviations, fuzzy) with rapidfuzz.

Two questions are answered here:
- which of a set of named entries a free sentence mentions (the patient's query parser);
- which entry a requested test name refers to (the examiner's test parser).
Matching is deterministic: ties are broken by the order entries were given in.

Cue lists (see `core.agents.templates`) use a tiny syntax understood by `cue_hit`: a plain
cue matches a word or phrase, and a cue of four letters or more also matches as a word
prefix ("allerg" → "allergic"); `^cue` matches only at the start of the sentence ("^when"
asks when, "does it hurt when" does not); `cue$` matches only whole words ("que
enfermedad$" is not "que enfermedades").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rapidfuzz import fuzz

from core.scripts import WORD_MARKS, compose, fold_scripts, is_arabic_script, is_hangul
from core.textcache import short_text_cache

# Punctuation: anything but word characters, Devanagari signs (not `\w` in Python) and + %.
_PUNCT = re.compile(f"[^\\w+%{WORD_MARKS}]+", re.UNICODE)
_CJK_CLASS = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"
_CJK = re.compile(f"[{_CJK_CLASS}]")
# A boundary between a CJK character and a Latin letter or digit counts as a space, so that
# "胸部CT" and "CT尿路造影" both contain the word "ct".
_CJK_EDGE = re.compile(f"(?<=[{_CJK_CLASS}])(?=[^\\s{_CJK_CLASS}])|"
                       f"(?<=[^\\s{_CJK_CLASS}])(?=[{_CJK_CLASS}])")
FUZZY_SENTENCE = 90  # partial match of a term inside a sentence (typos: "diaphoretic")
FUZZY_NAME = 88  # whole-name similarity for requested tests (typos: "electrocardiagram")


@short_text_cache(65536)  # cue lists and vocabulary names are normalised over and over
def normalise(text: str) -> str:
    """Lower case, accents removed (not for CJK), letter variants of Devanagari and Persian
    folded (`core.scripts`), punctuation to spaces, spaces collapsed."""
    text = fold_scripts(unicodedata.normalize("NFKC", text).casefold())
    if not _CJK.search(text):
        decomposed = unicodedata.normalize("NFKD", text)
        text = compose("".join(c for c in decomposed if not unicodedata.combining(c)))
    else:
        text = _CJK_EDGE.sub(" ", text)
    return " ".join(_PUNCT.sub(" ", text).split())


def is_cjk(text: str) -> bool:
    """True if the text contains Chinese, Japanese or Korean characters."""
    return bool(_CJK.search(text))


def contains(haystack: str, needle: str) -> bool:
    """Whole-word containment of normalised `needle` in normalised `haystack`.

    CJK text has no spaces between words, so there plain substring search is used (Korean
    spaces its words but attaches particles, so a substring finds "가슴" in "가슴이"; one
    syllable must start a word); a needle of four letters or more also matches as a word
    prefix (`allerg` → "allergic").
    """
    if not needle:
        return False
    if len(needle) == 1 and is_hangul(needle):
        # One Korean syllable is a word only at a word's start ("술" is not in "수술").
        return any(w.startswith(needle) for w in haystack.split())
    if _CJK.search(needle):
        return needle in haystack
    if is_arabic_script(needle) and " " not in needle and len(needle) >= 3:
        return any(w.startswith(needle) and w[len(needle):] in FA_SUFFIXES
                   for w in haystack.split()) or (
            len(needle) >= 4 and f" {needle}" in f" {haystack}")
    return f" {needle}" in f" {haystack}" and (
        f" {needle} " in f" {haystack} " or len(needle) >= 4
    )


@lru_cache(maxsize=8192)
def _cue(cue: str) -> tuple[str, bool, bool]:
    return normalise(cue.strip("^$")), cue.startswith("^"), cue.endswith("$")


# Korean particles and the copula: a word followed by one of these is still that word
# ("약을", "술은", "약이에요"), for cues that must match a whole word ("약$" is not "약간").
KO_PARTICLES = ("", "을", "를", "은", "는", "이", "가", "도", "만", "에", "의", "로", "으로",
                "과", "와", "랑", "이랑", "하고", "이나", "나", "요", "은요", "는요", "이요",
                "이에요", "예요", "에서", "까지", "부터", "에는", "이라도", "이라", "라")


# Persian suffixes written onto a word (possessive, plural, -ی): "شغلتان" is "شغل" + "تان".
FA_SUFFIXES = ("", "م", "ت", "ش", "مان", "تان", "شان", "ها", "های", "هایم", "هایت", "هایش",
               "هایتان", "هایشان", "ی", "یم", "یت", "یش", "یتان", "یشان", "ام", "ات", "اش", "ای")


def _hangul_word(haystack: str, needle: str) -> bool:
    """A Hangul word in normalised text, with any particle after it."""
    return any(w.startswith(needle) and w[len(needle):] in KO_PARTICLES
               for w in haystack.split())


def _cue_match(haystack: str, cue: str) -> bool:
    needle, start, whole = _cue(cue)
    if not needle:
        return False
    if start:
        if _CJK.search(needle):
            return haystack.startswith(needle)
        return f"{haystack} ".startswith(f"{needle} ") or (
            not whole and len(needle) >= 4 and haystack.startswith(needle))
    if whole:
        if is_hangul(needle) and " " not in needle:
            return _hangul_word(haystack, needle)
        return needle in haystack if _CJK.search(needle) else f" {needle} " in f" {haystack} "
    return contains(haystack, needle)


def cue_hit(haystack: str, cue_list: list[str]) -> bool:
    """True if any cue (a word, a phrase or a word stem) occurs in the normalised text."""
    return any(_cue_match(haystack, c) for c in cue_list)


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
            elif len(term) >= 6 and not _CJK.search(term):
                best = max(best, _typo_score(term, text))
        if best:
            scored.append((-best, entry.order, entry))
    scored.sort(key=lambda s: (s[0], s[1]))
    return [e for _, _, e in scored[:limit]]


def _typo_score(term: str, text: str) -> float:
    """How closely a passage of the text spells the term, 0 when not close: the passage
    starts a word, with the term's first letter ("diaphoretic" ~ "diaphoresis"; neither
    "Krampfanfall" nor "Anfall" is in "Schlaganfall")."""
    found = fuzz.partial_ratio_alignment(term, text, score_cutoff=FUZZY_SENTENCE)
    start = found.dest_start if found else 0
    if found is None or text[start:start + 1] != term[0] or start and text[start - 1] != " ":
        return 0.0
    return found.score


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
