"""Moderators: the deterministic matcher (offline default) and tolerant yes/no parsing.

The matcher normalises both names, expands common abbreviations and accepts the
diagnosis if it names the truth or an accepted synonym (as whole words), or is a very
close spelling of one. It is strict about what the doctor actually committed to:
- a name carrying a negation or inversion the accepted name lacks does not match
  ("not myocardial infarction", "no evidence of pneumonia", "NSTEMI" for a STEMI, "sin
  gota", "keine Gicht", "排除心肌梗死", "非ST段抬高型…" for "ST段抬高型…");
- when the doctor names several diagnoses (separated by commas, semicolons, "or", "vs"),
  the excluded ones are dropped and only the first one left counts, so a list of guesses
  is not rewarded ("Pulmonary embolism, ruled out myocardial infarction" is a PE).
`parse_yes_no` reads an LLM judge's free answer ("Yes.", "Same disease: no", "是的") and
returns None when it cannot tell ("not sure").

Must not import: textual, rich, litellm, or any other bedside package.
"""

from __future__ import annotations

import re

from rapidfuzz import fuzz

from core.agents.base import Reply
from core.caseindex.matching import is_cjk, normalise
from core.transcript import Verdict
from core.views import ModeratorView

VERSION = "exact-moderator/3"
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
# Negation or inversion before the accepted name ("not …", "non-ST …", "sin …", "排除…").
PREFIX_NEGATIONS = frozenset("""non no not without sin pas aucun aucune kein keine keiner
keinen nicht ohne excluded exclude excluding""".split())
PREFIX_PHRASES = ("negative for", "absence of", "free of", "ruled out", "rule out", "pas de",
                  "descartado", "descartada", "descartar", "ausschluss")
# A verdict after it ("… ruled out", "… unlikely", "… descartada", "…已排除").
VERDICTS = frozenset("""excluded unlikely improbable doubtful negative absent descartado
descartada descartados excluido excluida exclu exclue ecarte ecartee ausgeschlossen
unwahrscheinlich""".split())
VERDICT_PHRASES = ("ruled out", "peu probable", "poco probable", "not likely")
NEGATIONS_CJK = ("非", "无", "排除", "除外", "不是", "不考虑", "否认", "未见", "没有")
VERDICTS_CJK = ("已排除", "排除", "除外", "可能性小", "可能性不大", "不考虑")
# Separators between several named diagnoses (the first one left counts); a comma inside
# brackets belongs to one diagnosis ("膀胱尿路上皮癌（高级别，非肌层浸润性）").
_LIST = re.compile(r"\s*(?:[;；]|,(?![^()（）]*[)）])|，(?![^()（）]*[)）])|\bor\b|\bvs\.?(?!\w)|"
                   r"\bversus\b|\bo\b|\bou\b|\boder\b|或者|或)\s*", re.IGNORECASE)


def canonical(name: str) -> str:
    """Normalised name with abbreviations expanded and spellings unified."""
    words = normalise(name).split()
    text = " ".join(ABBREVIATIONS.get(w, w) for w in words)
    for us, uk in _SPELLING:
        text = text.replace(us, uk)
    return text


def _negating_prefix(text: str) -> bool:
    words = set(text.split())
    return bool(words & PREFIX_NEGATIONS) or any(
        f" {p} " in f" {text} " for p in PREFIX_PHRASES) or _cjk_negation(text)


def _cjk_negation(before: str) -> bool:
    """A Chinese negation governing what follows: right before it ("非ST段抬高型…"), or
    opening the clause ("排除急性心肌梗死"). "非" inside a qualifier does not negate the
    disease it qualifies ("非肌层浸润性膀胱癌" is a bladder cancer)."""
    text = before.strip()
    return any(text.endswith(n) for n in NEGATIONS_CJK) or any(
        text.startswith(n) for n in NEGATIONS_CJK if n != "非")


def _negating_suffix(text: str) -> bool:
    words = set(text.split())
    return bool(words & VERDICTS) or any(f" {p} " in f" {text} " for p in VERDICT_PHRASES) \
        or any(text.endswith(v) for v in VERDICTS_CJK)


def _excluded(clause: str) -> bool:
    """True for a clause that rules a diagnosis out ("no pneumonia", "MI unlikely")."""
    text = canonical(clause)
    words = text.split()
    if not words:
        return True
    head = " ".join(words[:2])
    # "non" starts names ("Non-Hodgkin lymphoma"): it negates only a name it precedes.
    return (words[0] in PREFIX_NEGATIONS - {"non"}
            or any(head.startswith(p) for p in PREFIX_PHRASES)
            or any(text.startswith(n) for n in NEGATIONS_CJK if n != "非")  # as "non"
            or words[-1] in VERDICTS or any(text.endswith(p) for p in VERDICT_PHRASES)
            or any(text.endswith(v) for v in VERDICTS_CJK))


def _find(got: str, want: str) -> int:
    """Where `want` occurs in `got` as whole words (a word prefix if 4+ letters), else -1."""
    if is_cjk(want):
        return got.find(want)
    padded = f" {got} "
    at = padded.find(f" {want} ")
    if at < 0 and len(want) >= 4:
        at = padded.find(f" {want}")
    return at


def _fits(got: str, want: str) -> bool:
    """One canonical diagnosis against one accepted name, negations respected."""
    if got == want:
        return True
    at = _find(got, want)
    if at >= 0:
        before, after = got[:at], got[at + len(want):]
        return not (_negating_prefix(before) and not _negating_prefix(want)) and not (
            _negating_suffix(after) and not _negating_suffix(want))
    if _negating_prefix(got) != _negating_prefix(want):
        return False  # "non st elevation …" is close in spelling, opposite in meaning
    return _close_spelling(got, want)


def _close_spelling(got: str, want: str) -> bool:
    """A misspelling of the same name, word by word: "myocardail infarction" is, but
    "anterior st elevation myocardial infarction" is not "inferior …" (one word differs
    in meaning, though the whole strings are 90 % alike)."""
    if fuzz.ratio(got, want) < CLOSE:
        return False
    a, b = got.split(), want.split()
    if len(a) != len(b):
        return fuzz.ratio(got, want) >= 96  # a missing or extra space
    return all(x == y or fuzz.ratio(x, y) >= 80 for x, y in zip(a, b, strict=True))


def named_diagnosis(diagnosis: str) -> str:
    """The one diagnosis a doctor committed to: the first listed that is not excluded."""
    clauses = [c for c in _LIST.split(diagnosis or "") if c and c.strip()]
    kept = [c for c in clauses if not _excluded(c)]
    return kept[0] if kept else ""


def matches(diagnosis: str, accepted: list[str]) -> bool:
    """True if the diagnosis names one of the accepted names."""
    got = canonical(named_diagnosis(diagnosis))
    if not got:
        return False
    return any(_fits(got, want) for want in (canonical(n) for n in accepted) if want)


class ExactModerator:
    """The deterministic matcher, built from a ModeratorView."""

    label = "exact"

    def __init__(self, view: ModeratorView) -> None:
        self.accepted = [view.diagnosis, *view.synonyms]

    async def judge(self, diagnosis: str) -> tuple[Verdict, Reply | None]:
        """Match the diagnosis against the accepted names."""
        return Verdict(moderator="exact", correct=matches(diagnosis, self.accepted)), None


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
    return {"version": VERSION, "abbreviations": ABBREVIATIONS, "spelling": _SPELLING,
            "close": CLOSE, "prefix": sorted(PREFIX_NEGATIONS), "prefix_phrases": PREFIX_PHRASES,
            "verdicts": sorted(VERDICTS), "verdict_phrases": VERDICT_PHRASES,
            "cjk": [NEGATIONS_CJK, VERDICTS_CJK], "list": _LIST.pattern}
