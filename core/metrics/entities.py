"""Diagnosis entity metrics (AI Hospital style): split a diagnosis line into disease
entities, link predicted to true entities one-to-one, then precision, recall and F1.

Splitting, negation, normalisation and the link rule are `core.clinical_text`'s, the same
that decide the exact moderator's verdict (its docstring states the rule and where the two
differ on purpose). The true entities are the primary diagnosis with its synonyms, then each
secondary diagnosis with its own; their ICD-10 codes are the case's (`truth.icd10` for the
primary, each secondary its own), or, for a diagnosis written without codes, the exact code
of its name, if any. Links are made greedily in order of strength ('name', 'core',
'contains', 'fuzzy', 'icd10'), each predicted and each true entity used once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.case import GroundTruth
from core.clinical_text import (RANK, IcdIndex, TruthEntity, link_how, split_entities,
                                truth_entity)
from core.metrics.base import Metrics, defined, undefined

__all__ = ["RANK", "EntityMatch", "TruthEntity", "aggregate_entities", "entity_metrics",
           "link_how", "match_entities", "split_entities", "truth_entities"]


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


def truth_entities(truth: GroundTruth, icd: IcdIndex | None = None) -> list[TruthEntity]:
    """The case's true entities: the primary diagnosis (with its synonyms), then the others."""
    out = [truth_entity(truth.diagnosis, truth.synonyms, list(truth.icd10), True, icd)]
    out.extend(truth_entity(o.name, o.synonyms, list(o.icd10), False, icd)
               for o in truth.other_diagnoses)
    return out


def match_entities(text: str | None, truth: GroundTruth, *,
                   icd: IcdIndex | None = None) -> EntityMatch:
    """Split `text` and link its entities one-to-one to the case's true entities.

    Greedy in order of link strength, so a 'name' link is never displaced by an ICD one.
    """
    truths = truth_entities(truth, icd)
    preds = split_entities(text, [n for t in truths for n in t.written])
    candidates = [(RANK[how], p, t.label, how) for p in preds for t in truths
                  if (how := link_how(p, t, icd))]
    match = EntityMatch(preds, truths)
    used_p: set[str] = set()
    used_t: set[str] = set()
    for _, p, label, how in sorted(candidates, key=lambda c: c[0]):
        if p not in used_p and label not in used_t:
            used_p.add(p)
            used_t.add(label)
            match.links.append((p, label, how))
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
