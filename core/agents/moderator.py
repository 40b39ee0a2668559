"""Moderators: the deterministic matcher (offline default) and tolerant yes/no parsing.

The matcher normalises both names, expands common abbreviations and accepts the
diagnosis if it names the truth or an accepted synonym (as whole words), or is a very
close spelling of one. `parse_yes_no` reads an LLM judge's free answer ("Yes.", "yes, the
same disease", "**No** — ...") and returns None when it cannot tell.

Must not import: textual, rich, litellm, or any other bedside package.
"""

from __future__ import annotations

import re

from rapidfuzz import fuzz

from core.agents.base import Reply
from core.agents.matching import contains, normalise
from core.transcript import Verdict
from core.views import ModeratorView

# Common abbreviations → their expansion (both directions are tried). Written for bedside.
ABBREVIATIONS: dict[str, str] = {
    "mi": "myocardial infarction", "stemi": "st elevation myocardial infarction",
    "nstemi": "non st elevation myocardial infarction", "acs": "acute coronary syndrome",
    "af": "atrial fibrillation", "afib": "atrial fibrillation", "pe": "pulmonary embolism",
    "dvt": "deep vein thrombosis", "chf": "congestive heart failure", "hf": "heart failure",
    "adhf": "acute decompensated heart failure", "cap": "community acquired pneumonia",
    "copd": "chronic obstructive pulmonary disease", "uti": "urinary tract infection",
    "dka": "diabetic ketoacidosis", "tia": "transient ischaemic attack",
    "sah": "subarachnoid haemorrhage", "ptx": "pneumothorax", "aki": "acute kidney injury",
    "ckd": "chronic kidney disease", "gerd": "gastro oesophageal reflux disease",
    "gord": "gastro oesophageal reflux disease", "ibd": "inflammatory bowel disease",
    "sle": "systemic lupus erythematosus", "ms": "multiple sclerosis",
}
# American → British spellings so both match.
_SPELLING = (("ischemi", "ischaemi"), ("hemorrh", "haemorrh"), ("edema", "oedema"),
             ("esophag", "oesophag"), ("anemi", "anaemi"), ("leukemi", "leukaemi"))
CLOSE = 92  # similarity of whole names counted as the same (typos)


def canonical(name: str) -> str:
    """Normalised name with abbreviations expanded and spellings unified."""
    words = normalise(name).split()
    text = " ".join(ABBREVIATIONS.get(w, w) for w in words)
    for us, uk in _SPELLING:
        text = text.replace(us, uk)
    return text


def matches(diagnosis: str, accepted: list[str]) -> bool:
    """True if the diagnosis names one of the accepted names."""
    got = canonical(diagnosis)
    if not got:
        return False
    for name in accepted:
        want = canonical(name)
        if not want:
            continue
        if got == want or contains(got, want) or fuzz.ratio(got, want) >= CLOSE:
            return True
    return False


class ExactModerator:
    """The deterministic matcher, built from a ModeratorView."""

    label = "exact"

    def __init__(self, view: ModeratorView) -> None:
        self.accepted = [view.diagnosis, *view.synonyms]

    async def judge(self, diagnosis: str) -> tuple[Verdict, Reply | None]:
        """Match the diagnosis against the accepted names."""
        return Verdict(moderator="exact", correct=matches(diagnosis, self.accepted)), None


_YES = re.compile(r"\b(yes|correct|same|match(es)?|sí|si|oui|ja|是|对)\b", re.IGNORECASE)
_NO = re.compile(r"\b(no|not|incorrect|different|wrong|non|nein|不是|否)\b", re.IGNORECASE)


def parse_yes_no(text: str) -> bool | None:
    """Tolerant reading of a yes/no answer; the first clear word decides, else None."""
    cleaned = re.sub(r"[*_`#>\"']", " ", text or "").strip()
    if not cleaned:
        return None
    first = re.split(r"[\s.,;:!?—-]+", cleaned.lower(), maxsplit=1)[0]
    if first in ("yes", "y", "yeah", "sí", "si", "oui", "ja", "是", "对", "correct", "true"):
        return True
    if first in ("no", "n", "nope", "non", "nein", "不是", "否", "incorrect", "false"):
        return False
    yes, no = _YES.search(cleaned), _NO.search(cleaned)
    if yes and (not no or yes.start() < no.start()):
        return True
    if no:
        return False
    return None
