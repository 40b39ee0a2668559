"""Diagnosis entity metrics (AI Hospital style): split diagnoses into disease entities,
normalise them, link predicted to true entities one-to-one, then set precision, recall, F1.

Splitting: at separators (; , / + newlines, numbered lists) and connecting words (and,
with, due to, secondary to …, und/mit/bei, et/avec, y/con/por); the case's own names are
kept whole. An entity stated as absent is not predicted at all ('no pneumonia', 'ruled out
PE', 'PE ruled out', 'probably not STEMI'); a negated tail is cut ('pneumonia without
effusion' → 'pneumonia').

Linking, strongest first:
- name: the same normalised name or accepted synonym;
- core: equal once qualifiers that do not change the disease are dropped from both sides
  (side, organ site, 'acute', 'new'/'newly diagnosed', severity, and anything in
  parentheses on the true name): 'DVT' ↔ 'Left popliteal deep vein thrombosis',
  'Vorhofflimmern' ↔ 'neu diagnostiziertes Vorhofflimmern';
- contains: the answer holds every defining word of a true name and more
  ('perforated appendicitis' ↔ 'acute appendicitis');
- fuzzy: a near-identical spelling (rapidfuzz token-sort ratio ≥ 90);
- icd10: compatible ICD-10 codes (`icd.compatible`: same code, or a more specific answer
  to a general true code).
A less specific answer is credited only when it differs from an accepted name by such
qualifiers: 'myocardial infarction' for 'inferior ST-elevation MI' is not (ST elevation
defines the entity), unless the case accepts a name like 'inferior MI'.
Every link but 'name' is refused when the answer contradicts a qualifier of the true
diagnosis (left vs right, acute vs chronic, mild vs severe, anterior vs inferior wall), when
the words on one side only include an inverting one ('non st elevation …' is not a STEMI),
or when the answer has its own exact ICD-10 code in another category than every true code
('alcoholic ketoacidosis' is not diabetic ketoacidosis, even through a synonym
'ketoacidosis').

True codes: the case's (`truth.icd10` for the primary, each secondary diagnosis its own);
a secondary diagnosis without codes gets the exact code of its name, if any.

Must not import: textual, rich, litellm, or any other bedside package.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from core.case import GroundTruth
from core.metrics.base import Metrics, defined, undefined
from core.metrics.icd import IcdIndex, compatible, same_category
from core.metrics.qualifiers import contradicts, core, inverted, qualifier_values
from core.metrics.textnorm import (cut_negated_tail, fold, is_negated, normalise,
                                   only_modifiers, strip_parentheticals, tokens)

FUZZY_MIN = 90  # token-sort ratio for a spelling-level match of two names
_HARD_SPLIT = re.compile(r"[;\n,/+|•]|\s\d+[.)]\s|^\d+[.)]\s")
_SEP = "zzsepzz"  # marks a hard separator in folded text
_WORD_SPLIT = re.compile(
    r"\b(?:and|with|plus|secondary to|due to|caused by|complicated by|along with|"
    r"as well as|versus|vs|or|und|mit|bei|infolge|et|avec|secondaire a|due a|y|con|por|"
    r"secundari[oa] a|debido a)\b")
RANK = {"name": 0, "core": 1, "contains": 2, "fuzzy": 3, "icd10": 4}


@dataclass(frozen=True)
class TruthEntity:
    """One true disease entity: label, normalised names, their cores, ICD-10 codes."""

    label: str
    names: frozenset[str]
    codes: tuple[str, ...] = ()
    primary: bool = False
    cores: frozenset[frozenset[str]] = frozenset()
    qualifiers: tuple[tuple[str, frozenset[str]], ...] = ()

    @property
    def icd10(self) -> str | None:
        """The first ICD-10 code, if any."""
        return self.codes[0] if self.codes else None


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
        for part in _WORD_SPLIT.split(cut_negated_tail(piece)):
            part = part.strip()
            if not part or is_negated(part):
                continue
            norm = normalise(" ".join(held.get(w, w) for w in cut_negated_tail(part).split()))
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


def _entity(label: str, synonyms: list[str], codes: list[str], primary: bool,
            icd: IcdIndex | None) -> TruthEntity:
    raw = [label, *synonyms]
    names = frozenset(filter(None, map(normalise, raw)))
    plain = frozenset(filter(None, (normalise(strip_parentheticals(n)) for n in raw)))
    cores = frozenset(c for c in map(core, names | plain) if c and not only_modifiers(
        " ".join(c)))
    if not codes and icd is not None:  # a secondary diagnosis written without codes
        codes = sorted({c for n in names | plain if (c := icd.exact(n))})
    quals = qualifier_values(normalise(label))
    return TruthEntity(label, names | plain, tuple(codes), primary, cores,
                       tuple(sorted(quals.items())))


def truth_entities(truth: GroundTruth, icd: IcdIndex | None = None) -> list[TruthEntity]:
    """The case's true entities: the primary diagnosis (with its synonyms), then the others."""
    out = [_entity(truth.diagnosis, truth.synonyms, list(truth.icd10), True, icd)]
    out.extend(_entity(o.name, o.synonyms, list(o.icd10), False, icd)
               for o in truth.other_diagnoses)
    return out


def link_how(pred: str, truth: TruthEntity, icd: IcdIndex | None = None) -> str | None:
    """How a predicted entity links to a true one ('name', 'core', 'contains', 'fuzzy',
    'icd10'), or None."""
    if pred in truth.names:
        return "name"
    if refused(pred, truth, icd):
        return None
    ptoks, pcore = tokens(pred), core(pred)
    if pcore and pcore in truth.cores:
        return "core"
    if any(c <= ptoks and not inverted(ptoks - c) for c in truth.cores):
        return "contains"
    if any(fuzz.token_sort_ratio(pred, n) >= FUZZY_MIN and not inverted(ptoks ^ tokens(n))
           for n in truth.names):
        return "fuzzy"
    code = icd.code(pred)[0] if icd is not None else None
    if code and any(compatible(code, t) for t in truth.codes):
        return "icd10"
    return None


def refused(pred: str, truth: TruthEntity, icd: IcdIndex | None = None) -> str | None:
    """Why a non-'name' link is refused ('side', 'acuity', 'severity', 'site', 'icd10'),
    or None."""
    clash = contradicts(qualifier_values(pred), dict(truth.qualifiers))
    if clash:
        return clash
    if icd is not None and truth.codes:
        own = icd.exact(pred)
        if own and not any(same_category(own, t) for t in truth.codes):
            return "icd10"
    return None


def match_entities(text: str | None, truth: GroundTruth, *,
                   icd: IcdIndex | None = None) -> EntityMatch:
    """Split `text` and link its entities one-to-one to the case's true entities.

    Greedy in order of link strength, so a 'name' link is never displaced by an ICD one.
    """
    truths = truth_entities(truth, icd)
    protect = [truth.diagnosis, *truth.synonyms]
    for other in truth.other_diagnoses:
        protect.extend([other.name, *other.synonyms])
    preds = split_entities(text, protect)
    candidates = []
    for p in preds:
        for t in truths:
            how = link_how(p, t, icd)
            if how:
                candidates.append((RANK[how], p, t.label, how))
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
                   icd: IcdIndex | None = None) -> Metrics:
    """entity_precision, entity_recall and entity_f1 of one diagnosis against the truth.

    No predicted entity: precision is undefined (0/0, None), recall and F1 are 0 — a
    consultation without a diagnosis counts as wrong.
    """
    m = match_entities(text, truth, icd=icd)
    n_pred, n_true = len(m.predicted), len(m.truth)
    detail = {"tp": m.tp, "n_pred": n_pred, "n_true": n_true, "predicted": m.predicted,
              "truth": [t.label for t in m.truth],
              "links": [{"pred": p, "truth": t, "how": h} for p, t, h in m.links],
              "icd": None if icd is None else ("index+who" if icd.who else "index")}
    recall = m.tp / n_true
    if n_pred == 0:
        return {"entity_precision": undefined("no diagnosis entities (0/0)", **detail),
                "entity_recall": defined(0.0, **detail),
                "entity_f1": defined(0.0, note="no diagnosis counts as F1 0", **detail)}
    precision = m.tp / n_pred
    f1 = 2 * m.tp / (n_pred + n_true)  # = 2PR / (P + R), and 0 when nothing links
    return {"entity_precision": defined(precision, **detail),
            "entity_recall": defined(recall, **detail), "entity_f1": defined(f1, **detail)}


def aggregate_entities(counts: list[tuple[int, int, int]]) -> dict[str, float | None]:
    """Micro and macro precision/recall/F1 over consultations' (tp, n_pred, n_true).

    Micro pools the counts: F1 = 2·TP / (predicted + true), so a consultation without a
    diagnosis adds its true entities and lowers it (0 when nothing was ever predicted).
    Macro averages per-consultation scores, skipping a precision that is 0/0 (no
    prediction) but counting that consultation's recall and F1 as 0.
    """
    if not counts:
        return {k: None for k in ("micro_precision", "micro_recall", "micro_f1",
                                  "macro_precision", "macro_recall", "macro_f1")}
    tp, npred, ntrue = (sum(c[i] for c in counts) for i in range(3))
    ps = [c[0] / c[1] for c in counts if c[1]]
    rs = [c[0] / c[2] for c in counts if c[2]]
    fs = [2 * c[0] / (c[1] + c[2]) if c[1] and c[2] else 0.0 for c in counts]

    def mean(xs: list[float]) -> float | None:
        return sum(xs) / len(xs) if xs else None

    return {"micro_precision": tp / npred if npred else None,
            "micro_recall": tp / ntrue if ntrue else None,
            "micro_f1": 2 * tp / (npred + ntrue) if npred + ntrue else None,
            "macro_precision": mean(ps), "macro_recall": mean(rs), "macro_f1": mean(fs)}
