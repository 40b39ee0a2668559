"""How the retrieval patient weighs a question's words (issue 19, phase 3).

- `informative`: the words of a question that the record holds or that may name something
  clinical (`clinical_lexicon`); the others ("mugs", "doing") can be found nowhere, so they
  do not count towards how many words an answer must hold (`needed`). A word one edit away
  from a known word may be its misspelling and counts too.
- `corrected`: misspelt words put right to the record's own words ("vomitting", "chst"),
  never to another real word ("sports" is no "spots", "puedo" no "puede").
- `without_illness_names`: illness names that hold a symptom's name ("hay fever") left out
  of symptom matching.

A mixin of `RetrievalPatient`, with the module functions it uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from rapidfuzz.distance import OSA

from core.agents import questions
from core.agents.vocab_clinical import CLINICAL_WORDS, NOT_SYMPTOMS
from core.agents.vocab_symptoms import SYMPTOMS, WORD_EQUIVALENTS
from core.case import PatientProfile
from core.caseindex.matching import is_cjk, normalise
from core.caseindex.vocab_imaging import REGIONS


@lru_cache(maxsize=16)
def clinical_lexicon(lang: str = "") -> frozenset[str]:
    """Words that may name something clinical, in the matching form: every word of the
    symptom vocabulary, of the everyday equivalents, of the imaging vocabulary's body
    regions and of `vocab_clinical` — in English and `lang` (a base tag: "fr"), or in
    every language when `lang` is empty."""
    def wanted(name_lang: str) -> bool:
        return not lang or name_lang in ("en", lang)

    names = [n for concept in SYMPTOMS.values() for name_lang, text in concept.items()
             if wanted(name_lang) for n in text.split("|")]
    names += [w for k, v in WORD_EQUIVALENTS.items() for w in (k, *v)]
    names += [n.lstrip("!") for region in REGIONS.values() for name_lang, text in region.items()
              if wanted(name_lang) for n in text.split("|")]
    names += list(CLINICAL_WORDS)
    return frozenset(w for n in names for w in normalise(n).split())


def record_text(profile: PatientProfile) -> str:
    """Everything the patient knows, in the matching form (to tell a question's words that
    the record holds from those it cannot answer)."""
    p = profile
    parts = [p.chief_complaint, p.opening, p.history_of_present_illness, p.persona,
             p.demographics.text, p.demographics.occupation]
    for s in p.symptoms():
        parts += [s.name, *s.synonyms, s.description, s.onset, s.duration, s.character]
    for h in p.history:
        parts += [h.text, h.name, *h.synonyms]
    return normalise(" ".join(x for x in parts if x))


@lru_cache(maxsize=1)
def _lexicon_text() -> str:
    """The clinical words as one text, to find inflected forms ("scratches")."""
    return " ".join(sorted(clinical_lexicon()))


_EDGE = "¿¡?!.,;:()\"'"
MIN_TYPO = 5  # shorter words are too easily another word ("chst" ~ "chat", "test")


def _closest(word: str, known: frozenset[str], targets: frozenset[str]) -> str | None:
    """The one target word a misspelt Latin word stands for, if any (a word `known`, in
    the record or clinical, is no misspelling)."""
    if len(word) < MIN_TYPO - 1 or word in known or not word.isascii() or \
            not word.isalpha() or word in questions.STOPWORDS:
        return None
    close = {k for k in _candidates(word, targets)
             if not k.startswith(word[:-1]) and not word.startswith(k[:-1])}
    return next(iter(close)) if len(close) == 1 else None


def _candidates(word: str, targets: frozenset[str]) -> set[str]:
    limit = 1 if len(word) < 8 else 2
    # A four-letter word may only have lost a letter ("chst"): "cups" is no "cuts".
    sizes = {len(word) + 1} if len(word) < MIN_TYPO else \
        set(range(len(word) - limit, len(word) + limit + 1))
    return {k for k in targets if k[:1] == word[:1] and len(k) in sizes
            and len(k) >= MIN_TYPO and OSA.distance(word, k, score_cutoff=limit) <= limit}


def _near(word: str, known: frozenset[str]) -> bool:
    """True if a word of four letters or more is one edit from a known word."""
    return len(word) >= MIN_TYPO - 1 and word.isalpha() and bool(_candidates(word, known))


def needed(words: Sequence[object]) -> int:
    """How many of a question's informative words (or slots) an answer must hold: every
    one of a short question, two thirds of a long one."""
    return len(words) if len(words) <= 2 else -(-2 * len(words) // 3)


class WordReading:
    """Word-level reading of questions (mixed into RetrievalPatient)."""

    lang: str
    record: str  # `record_text` of the profile
    kind_cues: dict[str, list[str]]

    def informative(self, words: list[str]) -> list[str]:
        """The words that the record holds or that may name something clinical; the
        others ("cups", "doing") can be found nowhere and do not count towards
        `needed`."""
        return [w for w in words if self._informative_word(w)]

    def _informative_word(self, word: str) -> bool:
        # The same words come back in question after question of a consultation, and the
        # record does not change: each word is read once per patient (a near-word search
        # over the whole lexicon is the costly part).
        seen: dict[str, bool] = self.__dict__.setdefault("_informative_seen", {})
        if word not in seen:
            lexicon = clinical_lexicon()
            # A word one letter away from a known one may be its misspelling: it counts too.
            seen[word] = bool(
                word in lexicon or questions.found_in(word, self.record)
                or not is_cjk(word) and (questions.found_in(word, _lexicon_text())
                                         or _near(word, self._known_words())))
        return seen[word]

    def _known_words(self) -> frozenset[str]:
        if not hasattr(self, "_known_set"):
            self._known_set = self._record_words() | clinical_lexicon()
        return self._known_set

    def informative_slots(self, slots: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
        """The slots of a question (`questions.slots`) with an informative word."""
        return [slot for slot in slots if self.informative(list(slot))]

    def corrected(self, question: str) -> str:
        """The question with misspelt words put right: a word that neither the record,
        the clinical words nor the history cues hold becomes the one word of the record
        within one edit (two for long words) that starts with the same letter and is no
        inflection of it ("vomitting" → "vomiting", "diarhea" → "diarrhea"; a four-letter
        word only by a missing letter: "chst" → "chest"). Only the record's words are
        corrected to, so a word the record cannot answer stays as it is ("sports" is no
        misspelt "spots"); "puedo" stays a verb ("puede" is an inflection)."""
        words = self._words()
        out = []
        for raw in question.split():
            word = normalise(raw)
            fix = _closest(word, words, self._record_words()) \
                if word and " " not in word else None
            out.append(raw.replace(raw.strip(_EDGE), fix) if fix else raw)
        return " ".join(out)

    def _words(self) -> frozenset[str]:
        if not hasattr(self, "_word_set"):
            self._word_set = frozenset(self.record.split()) | clinical_lexicon() | \
                frozenset(w for table in self.kind_cues.values() for c in table
                          for w in normalise(c.strip("^$")).split())
        return self._word_set

    def _record_words(self) -> frozenset[str]:
        if not hasattr(self, "_record_set"):
            self._record_set = frozenset(w for w in self.record.split() if w.isalpha())
        return self._record_set


def without_illness_names(question: str) -> str:
    """The question less illness names that hold a symptom's name ("hay fever")."""
    q = normalise(question)
    found = [n for n in NOT_SYMPTOMS if normalise(n) in q]
    return " ".join(w for w in q.split() if not any(w in normalise(n).split() for n in found)) \
        if found else question
