"""Treatment logicality: how much of the case's treatment the doctor's plan covers, by
treatment concept (`treatment_terms.TERMS`), not by word overlap.

The true treatment is cut into *requirements*: sentences (at . ; : and line breaks), then
parts at commas and 'and / then / plus' (never inside parentheses, so '(e.g. bisoprolol or
metoprolol)' stays with its 'beta-blocker'). The concepts of one part are alternatives: a
requirement is met when the plan mentions any of them, or a drug whose class is one of them
(ticagrelor covers 'a P2Y12 inhibitor', heparin covers 'anticoagulation'). The value is
met / total over the requirements with at least one known concept; parts with none are
listed as unrecognised, not scored.

Negation, on both sides: what follows 'no / not / do not / avoid / stop / withhold / hold /
without' (and their German, French, Spanish forms) up to the end of the sentence, or to a
part starting with 'give / start / then / but …', is left out, as is a sentence saying a
treatment 'is not indicated / not needed / not effective'. So 'Do NOT give aspirin or
anticoagulation' gives nothing, and the truth's 'stop ibuprofen' is not a requirement:
the metric measures coverage of what is to be given or done, not harm. When an LLM judge is
configured, the report score's treatment-plan grade judges the plan as a whole (harm
included) and is the better measure.

When the truth has no known concept at all (e.g. a Chinese case), the value falls back to
the share of the truth's content words found in the plan (`method: 'key_terms'`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from core.metrics.base import MetricValue, defined, undefined
from core.clinical_text import fold, normalise
from core.metrics.treatment_terms import EXPANSIONS, TERMS

# Sentence ends: . before a capital letter or at the end ('e.g. bisoprolol' does not end
# one), ; and : (not between digits), line breaks and their full-width forms.
_SENTENCE = re.compile(r"\.(?=\s+[A-ZÀ-Þ]|\s*$)|(?<!\d)[;:](?!\d)|\n|。|；|：")
_PART = re.compile(r",|\b(?:and|then|plus|as well as|und|dann|danach|et|puis|y|luego)\b",
                   re.IGNORECASE)
_RESET = re.compile(r"^(then|but|instead|give|start|add|begin|use|continue|offer|administer|"
                    r"prescribe|restart|dann|danach|aber|puis|mais|luego|pero)\b")
# Cues whose scope is the rest of the sentence ('stop ibuprofen, lisinopril and furosemide')
# and cues whose scope is the rest of their part ('no PCI', 'da keine Kontraindikationen').
_VERB_CUE = re.compile(
    r"\b(do not|don t|must not|should not|never|avoid(?!\w* (alcohol|drinking|smoking))\w*|"
    r"stop(?!\w* (smoking|drinking|tobacco|alcohol))\w*|withh?old\w*|hold|discontinu\w*|"
    r"absetzen|eviter|evitar|suspender)\b")
_PART_CUE = re.compile(r"\b(no|not|without|contraindicated|nicht|kein\w*|ohne|pas de|pas|sans|"
                       r"sin)\b")
_WHOLE = re.compile(r"\b(not|no longer) (effective|indicated|needed|required|recommended|"
                    r"suitable)\b|\bunnecessary\b|\bnon indispensable\b|\bless likely\b|"
                    r"\bnicht indiziert\b|\bno (esta )?indicad\w*\b")
_PAREN = re.compile(r"\(([^()]*)\)|（([^（）]*)）")
_NON = re.compile(r"\bnon \w+")
_TERM_STOP = frozenset(
    "and or with then than for from into onto the this that these those same day plus if "
    "e.g eg i.e ie such as per via not less more likely given also should be is are"
    .split())


@dataclass
class Reading:
    """Concepts found in a treatment text, as requirements (truth) or a flat set (plan)."""

    parts: list[tuple[str, frozenset[str]]] = field(default_factory=list)  # (text, concepts)
    negated: list[str] = field(default_factory=list)  # concepts left out as negated

    def concepts(self) -> set[str]:
        """Every concept mentioned (not negated), with the classes of each."""
        out: set[str] = set()
        for _, found in self.parts:
            for c in found:
                out |= closure(c)
        return out


@lru_cache(maxsize=1)
def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    return [(name, re.compile(rf"\b(?:{pattern})\b")) for name, (pattern, _) in TERMS.items()]


def closure(concept: str) -> set[str]:
    """A concept with its parent classes, transitively."""
    out, todo = set(), [concept]
    while todo:
        c = todo.pop()
        if c not in out:
            out.add(c)
            todo.extend(TERMS.get(c, ("", ()))[1])
    return out


def find_concepts(folded: str) -> set[str]:
    """The concepts named in a folded text fragment."""
    text = _NON.sub(" ", folded)  # 'non-operative' says nothing about operating
    return {name for name, pattern in _patterns() if pattern.search(text)}


def _expand(text: str) -> str:
    folded = f" {fold(text)} "
    for short, long in EXPANSIONS.items():
        folded = folded.replace(f" {short} ", f" {long} ")
    return folded.strip()


def read_treatment(text: str) -> Reading:
    """Split a treatment text into parts with their (non-negated) concepts."""
    reading = Reading()
    seen: set[frozenset[str]] = set()
    for sentence in _split_top(text or "", _SENTENCE):
        whole = bool(_WHOLE.search(fold(sentence)))
        negating = False
        for raw in _split_top(sentence, _PART):
            folded, inner = _hide_parentheses(raw)
            if not folded:
                continue
            if _RESET.match(folded):
                negating = False
            verb = _VERB_CUE.search(folded)
            cue = min((m for m in (verb, _PART_CUE.search(folded)) if m),
                      key=lambda m: m.start(), default=None)
            cut = 0 if whole or negating else (cue.start() if cue else len(folded))
            kept, dropped = _concepts(folded[:cut], inner), _concepts(folded[cut:], inner)
            reading.negated.extend(sorted(dropped - kept))
            negating = negating or bool(verb and (cue is verb))
            if kept and kept not in seen:  # the same requirement twice counts once
                seen.add(kept)
                reading.parts.append((folded, kept))
            elif not kept and cut == len(folded):
                reading.parts.append((folded, kept))
    return reading


def _hide_parentheses(raw: str) -> tuple[str, list[str]]:
    """Folded text with each (…) aside replaced by a placeholder word, and the asides, so
    that a cue inside an aside ('(flecainide, no structural disease)') stays inside it."""
    inner: list[str] = []

    def hold(m: re.Match[str]) -> str:
        inner.append(m.group(1) or m.group(2) or "")
        return f" zzparen{len(inner) - 1}zz "

    return _expand(_PAREN.sub(hold, raw)), inner


def _concepts(folded: str, inner: list[str]) -> frozenset[str]:
    found = find_concepts(folded)
    for i in map(int, re.findall(r"zzparen(\d+)zz", folded)):
        aside = _expand(inner[i])
        cue = _PART_CUE.search(aside) or _VERB_CUE.search(aside)
        found |= find_concepts(aside[:cue.start()] if cue else aside)
    return frozenset(found)


def _split_top(text: str, separator: re.Pattern[str]) -> list[str]:
    """Split at separators outside parentheses; a separating word ('then') is kept at the
    start of the next piece, for `_RESET`."""
    depth, depth_at = 0, []
    for ch in text:
        if ch in "(（[":
            depth += 1
        elif ch in ")）]" and depth:
            depth -= 1
        depth_at.append(depth)
    out, start, lead = [], 0, ""
    for m in separator.finditer(text):
        if depth_at[m.start()]:
            continue
        out.append(lead + text[start:m.start()])
        lead = m.group() + " " if m.group()[:1].isalpha() else ""
        start = m.end()
    out.append(lead + text[start:])
    return [p.strip() for p in out if p.strip()]


def key_terms(text: str) -> set[str]:
    """Content words of a text, normalised, crudely singular, without short/common words."""
    words = normalise(text).split()
    return {re.sub(r"(?<=[a-z]{3})s$", "", w) for w in words
            if len(w) > 2 and w not in _TERM_STOP and not w.isdigit()}


def treatment_coverage(truth: str | None, plan: str | None) -> MetricValue:
    """treatment_logicality of a plan against the case's treatment (see the module doc)."""
    if not truth or not truth.strip():
        return undefined("case has no treatment")
    if not plan or not plan.strip():
        return undefined("doctor gave no treatment plan")
    want, got = read_treatment(truth), read_treatment(plan)
    requirements = [(text, found) for text, found in want.parts if found]
    have = got.concepts()
    if not requirements:
        return _key_term_recall(truth, plan)
    met = [(text, found) for text, found in requirements if found & have]
    return defined(len(met) / len(requirements), method="concepts",
                   requirements=[{"text": t, "concepts": sorted(f), "met": bool(f & have)}
                                 for t, f in requirements],
                   plan_concepts=sorted(have), plan_negated=sorted(set(got.negated)),
                   truth_negated=sorted(set(want.negated)),
                   unrecognised=[t for t, f in want.parts if not f and len(t) > 3])


def _key_term_recall(truth: str, plan: str) -> MetricValue:
    want, got = key_terms(truth), key_terms(plan)
    if not want:
        return undefined("case has no treatment")
    hit = sorted(want & got)
    return defined(len(hit) / len(want), method="key_terms", matched=hit,
                   missing=sorted(want - got))
