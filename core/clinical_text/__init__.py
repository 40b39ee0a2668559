"""One clinical-text vocabulary for every judgement of a diagnosis: the exact moderator's
verdict (`core.agents.moderator`) and the diagnosis-entity metrics (`core.metrics.entities`:
ENT-F1, diagnostic logicality, and accuracy when no moderator decided).

Modules: `normal` (case, accents, punctuation, British/American spelling, abbreviations,
hedges), `negation`, `qualifiers`, `split` (the alternatives and entities of a diagnosis
line), `icd` (ICD-10 codes of names) and `link` (the rule below). `tests/test_clinical_text.py`
is the one table of cases that both consumers are checked against.

The rule. An entity of an answer names a diagnosis when, both normalised, it
1. is one of the diagnosis' accepted names (the label or a synonym, also without its
   parenthesised asides) — 'name';
2. equals an accepted name once the qualifiers that never change the disease are left out
   of both: side, vessel segment, 'acute', newness — 'core' ('DVT' for 'Left popliteal DVT',
   'appendicitis' for 'Acute appendicitis', 'Vorhofflimmern' for 'neu diagnostiziertes
   Vorhofflimmern');
3. holds every word of an accepted name as one run (qualifiers it adds skipped): a more
   specific answer — 'contains' ('perforated appendicitis' for 'appendicitis', 'inferior
   wall STEMI' for 'inferior STEMI', 'NSTEMI' for 'myocardial infarction');
4. is a close spelling of an accepted name, word by word — 'fuzzy';
5. has a specific ICD-10 code equal to a true code or refining a general one — 'icd10'.
Never (but for 'name'), when the entity
- contradicts a qualifier of the diagnosis' label or of the name it matched: side, acuity,
  severity, organ site, type or stage ('anterior STEMI' for inferior, 'right testicular
  torsion' for left, 'chronic appendicitis', 'severe croup' for mild croup);
- inverts the name or adds a negation to it ('NSTEMI' for STEMI: 'non' inverts 'ST';
  '非ST段抬高型…' for 'ST段抬高型…');
- has its own exact ICD-10 code in another category than every true code ('alcoholic
  ketoacidosis' against a synonym 'ketoacidosis'; 'traumatic subarachnoid haemorrhage');
- differs from a name by a prefix of opposite meaning ('hyperthyroidism', 'bipolar').
A less specific answer is credited only through rule 2: 'STEMI' and 'myocardial infarction'
do not name an inferior STEMI (the wall is part of that name) unless the case accepts them.
The case's accepted names are the floor of specificity; a name shortened by rule 2 is not a
stem for more specific answers ('tension pneumothorax' does not name 'left pneumothorax').
A fragment that states an absence ('no MI', 'MI ruled out', 'kein Infarkt', '排除…') is not
a prediction at all.

Where the two consumers differ, on purpose:
- The moderator judges the one diagnosis the doctor committed to: the first alternative of
  the line that is not negated ('Gout vs septic arthritis' is gout; 'Septic arthritis or
  gout' is septic arthritis), correct when one of its entities names the primary
  diagnosis (`first_link`).
- The entity metrics link every entity of every alternative, one-to-one, to every true
  diagnosis, primary and secondary: ENT-F1 counts the extra guesses against precision
  ('Septic arthritis or gout' for gout: P 1/2, R 1, F1 2/3), and diagnostic logicality is 1
  when the primary diagnosis is linked at all.
So the verdict and diagnostic logicality differ only for a line that names alternatives, or
when the one entity naming the primary diagnosis names a secondary one more strongly and is
linked there.
"""

from __future__ import annotations

from core.clinical_text import icd, negation, normal, qualifiers, split
from core.clinical_text.icd import IcdIndex, icd_index
from core.clinical_text.link import CLOSE, CLOSE_SPACE, CLOSE_WORD, OPPOSED, RANK, TruthEntity
from core.clinical_text.link import link_how, refused, relate, truth_entity
from core.clinical_text.negation import cut_negated_tail, is_negated
from core.clinical_text.normal import fold, is_cjk, normalise, strip_parentheticals, tokens
from core.clinical_text.split import split_entities, split_items

VERSION = "clinical-text/1"

__all__ = ["RANK", "VERSION", "IcdIndex", "TruthEntity", "cut_negated_tail", "first_link",
           "fold", "icd_index", "is_cjk", "is_negated", "link_how", "normalise", "refused",
           "relate", "split_entities", "split_items", "strip_parentheticals", "tables",
           "tokens", "truth_entity"]


def first_link(answer: str | None, truth: TruthEntity,
               icd: IcdIndex | None = None) -> tuple[str, str] | None:
    """(entity, how) for the first entity of the answer's first alternative that names the
    diagnosis, or None: the verdict of the exact moderator."""
    items = split_items(answer, truth.written)
    for entity in items[0] if items else []:
        how = link_how(entity, truth, icd)
        if how:
            return entity, how
    return None


def tables() -> dict[str, object]:
    """Everything that decides a verdict or a link, for the reproducibility hash."""
    return {"version": VERSION, "normal": normal.tables(), "negation": negation.tables(),
            "qualifiers": qualifiers.tables(), "split": split.tables(), "icd": icd.tables(),
            "link": {"close": CLOSE, "close_word": CLOSE_WORD, "close_space": CLOSE_SPACE,
                     "opposed": OPPOSED, "rank": RANK}}
