"""The record as the fidelity checks read it: what the patient may say, what is hidden.

The checks see the whole case (they grade, they do not play). From it they need:
- the patient's own text (everything in the patient's view), to tell a fact the patient
  knows from one it could only have got from the results or the diagnosis;
- the diagnosis terms the patient and examiner must not name (primary and secondary
  diagnoses and their synonyms, less any the patient's own record uses: a patient may say
  "my diabetes");
- result fragments: numbers with units and longer phrases of every examination and test
  value, less any the patient's own text contains;
- the patient's facts as entries (symptoms present or absent, history items), and which of
  them an answer repeats (`sources`): token overlap, so a retrieval answer in the first
  person still matches third-person stored text, and a model's paraphrase often does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from core.agents.episodes import sentences
from core.caseindex.matching import contains, is_cjk, normalise
from core.agents.questions import content_words
from core.agents.retrieval_patient import symptom_terms
from core.case import Case, Item

# A number with a unit or a decimal point: the shape of a measured result.
_MEASURE = re.compile(r"\d+(?:[.,]\d+)?\s*(?:x ?10\S*|[%°µμ]\S*|[a-zA-Z/]+(?:/[a-zA-Z0-9.²]+)*)|"
                      r"\d+[.,]\d+")
_UNITLESS = frozenset("years year yrs y days day weeks week months month hours hour minutes "
                      "min times a an am pm out kg st lb lbs pints pint glasses glass cigarettes "
                      "pack packs units".split())
PHRASE_WORDS = 5  # a run of this many result words in an answer counts as a result phrase


@dataclass
class Fact:
    """One thing the patient knows: a symptom (present or absent) or a history item."""

    kind: str  # "symptom" | "history" | "complaint" | "story"
    name: str
    terms: tuple[str, ...]  # normalised names that point to it
    texts: tuple[str, ...]  # what the record says about it
    present: bool = True
    history_kind: str | None = None


@dataclass
class Record:
    """The facts of one case that the checks compare answers with."""

    language: str
    patient_text: str  # normalised: everything the patient may know
    diagnosis_terms: list[str]
    result_fragments: list[str]
    facts: list[Fact] = field(default_factory=list)
    values: list[tuple[str, Item]] = field(default_factory=list)  # (path, item) with a value

    def leaked_diagnosis(self, answer: str, allowed: str = "") -> str | None:
        """A diagnosis term the answer names (not inside the `allowed` text), if any."""
        text, ok = normalise(answer), normalise(allowed)
        for term in self.diagnosis_terms:
            if contains(text, term) and not contains(ok, term):
                return term
        return None

    def leaked_result(self, answer: str, allowed: str = "") -> str | None:
        """A result fragment the answer repeats (not inside `allowed`), if any."""
        text, ok = normalise(answer), normalise(allowed)
        for frag in self.result_fragments:
            if frag in text and frag not in ok:
                return frag
        return None

    def sources(self, answer: str) -> list[Fact]:
        """The facts whose stored text the answer repeats, best first."""
        words = set(_tokens(answer))
        said = normalise(answer)
        same = [f for f in self.facts if said and any(normalise(t) == said for t in f.texts)]
        if not words or same and len(words) < 3:
            return same  # a short answer ("None that I know of."): the same text only
        scored: list[tuple[float, int, Fact]] = []
        for order, fact in enumerate(self.facts):
            best = 0.0
            for text in fact.texts:
                toks = _tokens(text)
                if len(toks) < 2:
                    continue
                share = sum(t in words for t in toks) / len(toks)
                # An answer may tell one sentence of a longer text: most of its words are
                # that text's.
                inside = sum(w in toks for w in words) / len(words) if len(words) >= 3 else 0
                best = max(best, share, inside - 0.2)
            if best >= 0.6:
                scored.append((-best, order, fact))
        # The fact whose text the answer is comes first; others it also tells follow.
        ranked = [f for _, _, f in sorted(scored, key=lambda s: (s[0], s[1]))]
        return [*same, *(f for f in ranked if f not in same)]


@lru_cache(maxsize=16384)  # a record's fact texts are read again for every answer checked
def _tokens(text: str) -> tuple[str, ...]:
    """Content tokens: content words (Latin) or characters (CJK)."""
    if is_cjk(text):
        return tuple(c for c in normalise(text) if is_cjk(c))
    return tuple(w for w in content_words(text) if len(w) > 2)


def build_record(case: Case) -> Record:
    """Read a case into the facts the checks need."""
    p = case.patient
    own = [p.chief_complaint, p.opening, p.history_of_present_illness, p.persona,
           p.demographics.text, p.demographics.age, p.demographics.occupation]
    for s in p.symptoms():
        own += [s.name, *s.synonyms, s.description, s.onset, s.duration, s.character]
    for h in p.history:
        own += [h.text, h.name, *h.synonyms]
    patient_text = normalise(" ".join(x for x in own if x))
    values = [(" > ".join(path), item) for _, path, item in case.findings() if item.value]
    return Record(language=case.language, patient_text=patient_text,
                  diagnosis_terms=_diagnosis_terms(case, patient_text),
                  result_fragments=_fragments([i.value or "" for _, i in values], patient_text),
                  facts=_facts(case), values=values)


def _diagnosis_terms(case: Case, patient_text: str) -> list[str]:
    t = case.truth
    names = [t.diagnosis, *t.synonyms]
    for d in t.other_diagnoses:
        names += [d.name, *d.synonyms]
    out = []
    for n in dict.fromkeys(normalise(x) for x in names):
        # Too short to be safe as a word ("af", "mi"), or the patient's own words.
        if len(n) < 3 or contains(patient_text, n):
            continue
        out.append(n)
    return sorted(out, key=len, reverse=True)


def _fragments(values: list[str], patient_text: str) -> list[str]:
    out: list[str] = []
    for value in values:
        for m in _MEASURE.finditer(value):
            frag = normalise(m.group(0))
            unit = frag.split()[-1] if " " in frag else ""
            if unit in _UNITLESS or frag in patient_text or len(frag) < 3:
                continue
            out.append(frag)
        words = normalise(value).split()
        for i in range(0, max(0, len(words) - PHRASE_WORDS + 1)):
            phrase = " ".join(words[i:i + PHRASE_WORDS])
            if phrase not in patient_text and any(len(w) > 3 for w in words[i:i + PHRASE_WORDS]):
                out.append(phrase)
        if is_cjk(value) and len(value) >= 6:
            chunk = normalise(value)[:8]
            if chunk not in patient_text:
                out.append(chunk)
    return list(dict.fromkeys(out))


def _facts(case: Case) -> list[Fact]:
    p = case.patient
    out: list[Fact] = []
    complaint = [x for x in (p.chief_complaint, p.opening) if x]
    hpi = sentences(p.history_of_present_illness or "")
    out.append(Fact("complaint", "complaint", (), tuple(complaint or hpi[:2])))
    for s in p.symptoms():
        texts = tuple(x for x in (s.description, s.onset, s.duration, s.character, s.name) if x)
        out.append(Fact("symptom", s.name, tuple(normalise(t) for t in symptom_terms(s)),
                        texts, present=s.present))
    for h in p.history:
        terms = tuple(normalise(t) for t in [h.name or "", *h.synonyms] if t)
        out.append(Fact("history", h.name or h.kind, terms, (h.text,), history_kind=h.kind))
    out.extend(Fact("story", "story", (), (s,)) for s in hpi)
    return out
