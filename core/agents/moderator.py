"""Moderators: the deterministic matcher (offline default) and tolerant yes/no parsing.

The matcher judges the one diagnosis the doctor committed to — the first alternative of
the line that is not negated ('Pulmonary embolism, ruled out myocardial infarction' is a
PE; 'Septic arthritis or gout' is septic arthritis) — against the case's diagnosis, its
accepted names and its ICD-10 codes, by `core.clinical_text`'s rule: the same that links
diagnosis entities for ENT-F1 and diagnostic logicality (that package's docstring states
the rule and the one place where the two differ on purpose). A negated answer ("no MI",
"MI ruled out", "排除心肌梗死") names nothing; "NSTEMI" is not a STEMI; a contradicted
side, wall, acuity or severity is another diagnosis; a less specific name is wrong unless
the case accepts it.
`parse_yes_no` reads an LLM judge's free answer ("Yes.", "Same disease: no", "是的") and
returns None when it cannot tell ("not sure").
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence

from core import clinical_text
from core.agents.base import Reply
from core.clinical_text import first_link, icd_index, is_cjk, split_items, truth_entity
from core.transcript import Verdict
from core.views import ModeratorView

VERSION = "exact-moderator/4"


def named_diagnosis(diagnosis: str) -> str:
    """The one diagnosis a doctor committed to, normalised: the entities of the first
    alternative that is not negated ('' if none)."""
    items = split_items(diagnosis)
    return ", ".join(items[0]) if items else ""


def matches(diagnosis: str, accepted: Sequence[str], icd10: Sequence[str] = (), *,
            use_icd: bool = True) -> bool:
    """True if the diagnosis names the first accepted name (the case's diagnosis) through it
    or one of the others (its synonyms), or through the ICD-10 codes `icd10`."""
    if not accepted:
        return False
    icd = icd_index() if use_icd else None
    truth = truth_entity(accepted[0], list(accepted[1:]), list(icd10), True, icd)
    return first_link(diagnosis, truth, icd) is not None


class ExactModerator:
    """The deterministic matcher, built from a ModeratorView."""

    label = "exact"

    def __init__(self, view: ModeratorView) -> None:
        self.accepted = [view.diagnosis, *view.synonyms]
        self.icd10 = list(view.icd10)

    async def judge(self, diagnosis: str) -> tuple[Verdict, Reply | None]:
        """Match the diagnosis against the accepted names and codes."""
        if not icd_index.cache_info().currsize:  # build the ICD vocabulary (about a second)
            await asyncio.to_thread(icd_index)  # once, off the event loop
        correct = matches(diagnosis, self.accepted, self.icd10)
        return Verdict(moderator="exact", correct=correct), None


_YES_WORDS = ("yes", "y", "yeah", "yep", "sí", "si", "oui", "ja", "correct", "true", "same",
              "match", "matches", "identical", "equivalent", "是", "对", "正确", "相同", "一致")
_NO_WORDS = ("no", "n", "nope", "non", "nein", "incorrect", "false", "different", "wrong",
             "not", "不是", "否", "不", "错误", "不同", "不一致")
_UNSURE = re.compile(r"\b(not sure|unsure|uncertain|cannot tell|can't tell|can not tell|"
                     r"cannot say|can't say|unclear|maybe|perhaps|possibly|don't know|"
                     r"no sé|je ne sais pas|weiß nicht|unklar)\b|不确定|不知道|无法判断|说不准",
                     re.IGNORECASE)
_LABELLED = re.compile(r"[:：=]\s*[*_`\"']*\s*(yes|no|sí|si|oui|non|ja|nein|是|否|不是)\b",
                       re.IGNORECASE)
_YES = re.compile(r"\b(yes|correct|same|match(?:es)?|sí|si|oui|ja)\b|是|对|正确|相同",
                  re.IGNORECASE)
_NO = re.compile(r"\b(no|not|incorrect|different|wrong|non|nein)\b|不是|否|不同|错误",
                 re.IGNORECASE)


def _first_token(cleaned: str) -> str:
    first = re.split(r"[\s.,;:!?—\-，。！？：]+", cleaned.lower(), maxsplit=1)[0]
    if is_cjk(first) and first != "不":  # "是的，…" / "不是同一种病": the leading word decides
        for word in sorted((*_NO_WORDS, *_YES_WORDS), key=len, reverse=True):
            if is_cjk(word) and word != "不" and first.startswith(word):
                return word
    return first


def parse_yes_no(text: str) -> bool | None:
    """Tolerant reading of a yes/no answer; None when it cannot tell."""
    cleaned = re.sub(r"[*_`#>\"']", " ", text or "").strip()
    if not cleaned:
        return None
    first = _first_token(cleaned)
    if first in _NO_WORDS and first != "not":
        return False
    if first in _YES_WORDS and first not in ("same", "match", "matches"):
        return True
    labelled = _LABELLED.search(cleaned)  # "Same disease: no", "Answer = yes"
    if labelled:
        return labelled.group(1).lower() in ("yes", "sí", "si", "oui", "ja", "是")
    if _UNSURE.search(cleaned):
        return None
    yes, no = _YES.search(cleaned), _NO.search(cleaned)
    if yes and (not no or yes.start() < no.start()):
        return True
    if no:
        return False
    return None


def tables() -> dict[str, object]:
    """What decides the matcher's verdicts, for the reproducibility hash."""
    return {"version": VERSION, "clinical_text": clinical_text.tables()}
