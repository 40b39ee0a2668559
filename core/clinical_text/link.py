"""The shared rule: does an answer's entity name a true diagnosis, and how?

`link_how(pred, truth)` answers for one normalised entity and one diagnosis (its label,
accepted names and ICD-10 codes); the package docstring states the rule in words. Links,
strongest first: 'name', 'core', 'contains', 'fuzzy', 'icd10'.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

from core.clinical_text.icd import IcdIndex, code_links, is_general, same_category
from core.clinical_text.negation import INVERTING_PREFIXES, NEGATING, inverted_before
from core.clinical_text.normal import is_cjk, normalise, strip_parentheticals
from core.clinical_text.qualifiers import (OMITTABLE, QUALIFYING, contradicts,
                                           qualifier_values, without_omittable_cjk)

CLOSE = 92  # similarity of two whole names counted as one name misspelt
CLOSE_WORD = 80  # ... and of each pair of their words
CLOSE_SPACE = 96  # similarity of two names that differ by a space ('guillainbarre')
RANK = {"name": 0, "core": 1, "contains": 2, "fuzzy": 3, "icd10": 4}
# Prefixes of opposite meaning: words that differ by one of these pairs are not the same
# word misspelt ('hyperthyroidism' is not 'hypothyroidism', 'bipolar' not 'unipolar').
OPPOSED = (("hyper", "hypo"), ("tachy", "brady"), ("macro", "micro"), ("intra", "extra"),
           ("inter", "intra"), ("pre", "post"), ("ante", "post"), ("supra", "infra"),
           ("endo", "exo"), ("uni", "bi"), ("mono", "poly"), ("hyper", "normo"),
           ("hypo", "normo"))


@dataclass(frozen=True)
class TruthEntity:
    """One true diagnosis: label, accepted names (normalised), ICD-10 codes, qualifiers."""

    label: str
    names: frozenset[str]
    codes: tuple[str, ...] = ()
    primary: bool = False
    qualifiers: tuple[tuple[str, frozenset[str]], ...] = ()
    written: tuple[str, ...] = ()  # the label and synonyms as written, kept whole in a line

    @property
    def icd10(self) -> str | None:
        """The first ICD-10 code, if any."""
        return self.codes[0] if self.codes else None


def truth_entity(label: str, synonyms: Sequence[str] = (), codes: Sequence[str] = (),
                 primary: bool = False, icd: IcdIndex | None = None) -> TruthEntity:
    """A diagnosis to link to: its names with and without parenthesised asides; without
    codes, the exact codes of its names (when an ICD index is given)."""
    raw = [label, *synonyms]
    names = frozenset(filter(None, (normalise(v) for n in raw
                                    for v in (n, strip_parentheticals(n)))))
    if not codes and icd is not None:
        codes = sorted({c for n in names if (c := icd.exact(n))})
    quals = qualifier_values(normalise(label))
    return TruthEntity(label, names, tuple(codes), primary, tuple(sorted(quals.items())),
                       tuple(raw))


def words(norm: str) -> tuple[str, ...]:
    """A normalised name's words, an inverting prefix joined to the word it inverts
    ('non st elevation' → 'non-st', 'elevation')."""
    out: list[str] = []
    for w in norm.split():
        if out and out[-1] in INVERTING_PREFIXES:
            out[-1] = f"{out[-1]}-{w}"
        else:
            out.append(w)
    return tuple(out)


def _inverts(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Whether one side inverts a word the other states ('non-st' against 'st')."""
    def inverted_in(x: Iterable[str], y: set[str]) -> bool:
        return any("-" in w and w.split("-", 1)[1] in y for w in x)
    return inverted_in(a, set(b)) or inverted_in(b, set(a))


def _run(pred: tuple[str, ...], name: tuple[str, ...]) -> bool:
    """The name's words as one run in the answer, qualifiers the answer adds skipped
    ('inferior wall STEMI' holds 'inferior STEMI'; 'torsion of the appendix testis' does
    not hold 'torsion of the testis')."""
    kept = [w for w in pred if w in name or w not in QUALIFYING]
    n = len(name)
    return any(tuple(kept[i:i + n]) == name for i in range(len(kept) - n + 1))


def _leaves_out(pred: tuple[str, ...], name: tuple[str, ...]) -> bool:
    """The answer is the name with some qualifiers it may leave out left out, and nothing
    added ('pneumothorax' for 'left pneumothorax'; not 'tension pneumothorax', nor 'right
    heart failure' for 'acute heart failure')."""
    if not pred or len(pred) >= len(name):
        return False
    rest = iter(pred)
    want = next(rest, None)
    for w in name:
        if w == want:
            want = next(rest, None)
        elif w not in OMITTABLE:
            return False
    return want is None


def _opposed(x: str, y: str) -> bool:
    return any((x.startswith(a) and y.startswith(b)) or (x.startswith(b) and y.startswith(a))
               for a, b in OPPOSED)


def close_spelling(pred: tuple[str, ...], name: tuple[str, ...]) -> bool:
    """A misspelling of the same name, word by word: 'myocardail infarction' is, but
    'anterior … infarction' is not 'inferior …' (one word differs in meaning, though the
    whole strings are 90 % alike), nor 'hyperthyroidism' 'hypothyroidism'."""
    a, b = " ".join(pred), " ".join(name)
    if fuzz.ratio(a, b) < CLOSE:
        return False
    if len(pred) != len(name):  # a missing or extra space
        return fuzz.ratio(a.replace(" ", ""), b.replace(" ", "")) >= CLOSE_SPACE
    return all(x == y or (fuzz.ratio(x, y) >= CLOSE_WORD and not _opposed(x, y))
               for x, y in zip(pred, name, strict=True))


def _relate_cjk(pred: str, name: str) -> str | None:
    at = pred.find(name)
    if at >= 0:
        return None if inverted_before(pred[:at]) else "contains"
    core = without_omittable_cjk(name)
    return "core" if core and without_omittable_cjk(pred) == core else None


def relate(pred: str, name: str) -> str | None:
    """How an answer's entity names one accepted name ('name', 'core', 'contains', 'fuzzy'),
    or None; both normalised. Inverting or negating the name, or contradicting one of its
    qualifiers, is no link."""
    if pred == name:
        return "name"
    if contradicts(qualifier_values(pred), qualifier_values(name)):
        return None
    if is_cjk(pred) or is_cjk(name):
        return _relate_cjk(pred, name)
    p, n = words(pred), words(name)
    if _inverts(p, n) or (set(p) - set(n)) & NEGATING:
        return None
    if _run(p, n):
        return "contains"
    return "core" if _leaves_out(p, n) else ("fuzzy" if close_spelling(p, n) else None)


def refused(pred: str, truth: TruthEntity, icd: IcdIndex | None = None) -> str | None:
    """Why any link but 'name' is refused ('side', 'acuity', 'severity', 'kind', 'site':
    the answer contradicts the diagnosis' label; 'icd10': the answer has its own exact,
    specific code in another category than every true code), or None."""
    clash = contradicts(qualifier_values(pred), dict(truth.qualifiers))
    if clash:
        return clash
    if icd is not None and truth.codes:
        # Only a specific code names another disease: 'appendicitis' (K37, unspecified) is
        # not vetoed against acute appendicitis (K35.8), 'alcoholic ketoacidosis' (E87.2) is.
        own = icd.exact(pred)
        if own and not is_general(own) and not any(same_category(own, t) for t in truth.codes):
            return "icd10"
    return None


def link_how(pred: str, truth: TruthEntity, icd: IcdIndex | None = None) -> str | None:
    """How a normalised entity names a true diagnosis ('name', 'core', 'contains', 'fuzzy',
    'icd10'), or None."""
    if pred in truth.names:
        return "name"
    if refused(pred, truth, icd):
        return None
    found = [h for n in truth.names if (h := relate(pred, n))]
    if found:
        return min(found, key=RANK.__getitem__)
    code, how = icd.code(pred) if icd is not None else (None, None)
    # Only the index, the WHO titles and their qualifier-free forms are trusted to link; a
    # near-identical or included WHO title is not ('torsion of the appendix testis' holds
    # the title 'torsion of testis').
    trusted = how in ("index", "who", "core")
    return "icd10" if code and trusted and code_links(code, truth.codes) else None
