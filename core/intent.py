"""RJUA's intent recognition, offline: does a doctor's message state a diagnosis or a
treatment? With `ConsultationConfig.intent_end`, one that does ends the consultation even
without the `DIAGNOSIS READY:` marker (RJUA's standardized patient ends the visit once the
doctor's sentence holds a diagnosis or a treatment).

The rule, sentence by sentence (split at . ! ? 。！？ ； and line ends):
- a question is never a statement: a sentence ending with '?', '？', '吗' or '呢', or
  opening with a question word or an auxiliary ("Do you…", "Have you been diagnosed
  with…", "¿Tiene…", "Avez-vous…", "Haben Sie…");
- a diagnosis is stated by a cue that says so: "my/the (working, likely, final) diagnosis
  is X", "I think/believe/suspect (that) you have X", "you (most likely|probably|likely)
  have X", "this/it (is most likely|is probably|looks like|is consistent with|is
  suggestive of) X", "the most likely cause is X", "consistent with X", and in Chinese
  诊断(为|是|考虑)X, 考虑(为|是)X, 您(这是|得了|患了|患有)X, 初步诊断X; also "el
  diagnóstico es X", "le diagnostic est X", "die Diagnose ist X". X is what follows, up
  to the end of the sentence, a comma or "because/so/which"; it is the stated diagnosis;
- a treatment is stated by a treatment verb or noun with the doctor as actor: "I'll
  prescribe / start you on / give you / refer you / admit you", "we will start / treat /
  operate / admit", "the treatment (plan) is", "you need (surgery|an operation|antibiotics|
  treatment|medication|…)", 建议(手术|治疗|服用|口服|住院), 治疗方案, 给您开, 需要(手术|住院|治疗),
  "le voy a recetar", "je vais vous prescrire", "ich verschreibe Ihnen".
Plain mentions ("You have a fever, so…", "This is going to hurt") are not cues: a "you
have" or "this is" needs its hedge ("probably", "I think", "looks like"). Test requests are
never read here (they are `REQUEST TEST:` messages, parsed first).

Must not import: anything but the standard library.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

VERSION = "intent-end/1"
_SENTENCES = re.compile(r"(?<=[.!?。！？；;])\s*|\n+")
_QUESTION_END = re.compile(r"[?？]\s*$|[吗呢][。.]?\s*$")
_QUESTION_START = re.compile(
    r"^\W*(?:do|does|did|have|has|had|is|are|was|were|can|could|would|will|should|may|"
    r"shall|what|when|where|why|how|who|which|any|tell me|¿|avez|est-ce|haben|hatten|sind|"
    r"können|ist|gibt)\b", re.IGNORECASE)
_HEDGE = r"(?:most likely|more likely|likely|probably|possibly|almost certainly|definitely)"
_DIAGNOSIS_CUES = [re.compile(p, re.IGNORECASE) for p in (
    r"\b(?:my|the|our|your)\s+(?:\w+\s+){0,2}?diagnosis\s+(?:is|would be|will be)\s+(?P<dx>.+)",
    r"\bi\s+(?:think|believe|suspect|am fairly sure|am confident)\s+(?:that\s+)?"
    r"(?:you(?:'ve| have)(?: got)?|this is|it's|it is|you are suffering from)\s+(?P<dx>.+)",
    rf"\byou\s+{_HEDGE}\s+have(?: got)?\s+(?P<dx>.+)",
    rf"\b(?:this|it|that|these symptoms|your symptoms)\s+(?:is|are)\s+{_HEDGE}\s+(?P<dx>.+)",
    r"\b(?:this|it|that|everything|the picture)\s+(?:looks|sounds|seems)\s+(?:like|to be)\s+"
    r"(?P<dx>.+)",
    r"\b(?:is|are)\s+(?:consistent|compatible)\s+with\s+(?P<dx>.+)",
    r"\b(?:is|are)\s+suggestive\s+of\s+(?P<dx>.+)",
    r"\bthe\s+(?:most\s+)?likely\s+(?:cause|diagnosis|explanation)\s+is\s+(?P<dx>.+)",
    r"\bel\s+diagn[oó]stico\s+es\s+(?P<dx>.+)",
    r"\ble\s+diagnostic\s+est\s+(?P<dx>.+)",
    r"\bdie\s+diagnose\s+(?:ist|lautet)\s+(?P<dx>.+)",
    r"(?:诊断|初步诊断)(?:为|是|考虑|：|:)\s*(?P<dx>.+)",
    r"考虑(?:为|是)\s*(?P<dx>.+)",
    r"(?:您|你)(?:这是|得了|患了|患有)\s*(?P<dx>.+)",
)]
_TREATMENT_CUES = [re.compile(p, re.IGNORECASE) for p in (
    r"\bi(?:'ll| will| am going to|'m going to| would like to| want to)\s+"
    r"(?:prescribe|start you on|give you|put you on|refer you|admit you|treat you|"
    r"book you (?:in )?for (?:surgery|an operation))\b",
    r"\bwe(?:'ll| will| are going to|'re going to| need to| should)\s+"
    r"(?:start|treat|operate|admit|prescribe|give you)\b",
    r"\b(?:the|my|your)\s+treatment(?:\s+plan)?\s+(?:is|will be)\b",
    r"\byou\s+(?:will\s+)?(?:need|require|should have|must have)\s+(?:an?\s+|some\s+)?"
    r"(?:surgery|operation|antibiotics?|treatment|medication|medicine|tablets|"
    r"chemotherapy|radiotherapy|dialysis|insulin|steroids|admission)\b",
    r"\ble\s+voy\s+a\s+recetar\b", r"\bje\s+vais\s+vous\s+prescrire\b",
    r"\bich\s+verschreibe\s+ihnen\b",
    r"建议(?:您|你)?(?:手术|治疗|服用|口服|住院)", r"治疗方案", r"给(?:您|你)开",
    r"需要(?:手术|住院|治疗)",
)]
_DX_END = re.compile(r"[,，;；:]|\s+(?:because|so|which|and i|and we|as|since)\b",
                     re.IGNORECASE)
_ARTICLE = re.compile(r"^(?:a|an|the|some)\s+", re.IGNORECASE)


@dataclass(frozen=True)
class Intent:
    """What a doctor's message states: a diagnosis (with the name stated) or a
    treatment."""

    kind: Literal["diagnosis", "treatment"]
    diagnosis: str | None = None
    sentence: str = ""


def sentences(text: str) -> list[str]:
    """The sentences of a message, stripped, in order."""
    return [s.strip() for s in _SENTENCES.split(text or "") if s and s.strip()]


def is_question(sentence: str) -> bool:
    """Whether a sentence asks rather than states."""
    return bool(_QUESTION_END.search(sentence) or _QUESTION_START.search(sentence))


def _diagnosis(text: str) -> str | None:
    name = _DX_END.split(text, maxsplit=1)[0].strip(" .。!！\"'*")
    name = _ARTICLE.sub("", name).strip()
    return name or None


def stated_intent(text: str) -> Intent | None:
    """The first diagnosis or treatment a doctor's message states, or None (questions and
    plain mentions state nothing)."""
    for sentence in sentences(text):
        if is_question(sentence):
            continue
        for cue in _DIAGNOSIS_CUES:
            m = cue.search(sentence)
            if m and (name := _diagnosis(m.group("dx"))):
                return Intent("diagnosis", name, sentence)
        if any(cue.search(sentence) for cue in _TREATMENT_CUES):
            return Intent("treatment", None, sentence)
    return None


def tables() -> dict[str, object]:
    """What decides the recognition, for the reproducibility hash."""
    return {"version": VERSION, "question_start": _QUESTION_START.pattern,
            "diagnosis": [c.pattern for c in _DIAGNOSIS_CUES],
            "treatment": [c.pattern for c in _TREATMENT_CUES]}
