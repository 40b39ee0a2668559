"""The retrieval patient: answers from the stored case text, with no model (the RJUA way).

A doctor's sentence is mapped to categories (complaint, a symptom and its facet, a history
kind or item, demographics) and then to items of the PatientView with synonyms and fuzzy
matching; the answer is the stored text in a patient-voice template of the case's language,
at most three sentences. It is deterministic. It has no diagnosis and no results to reveal:
its view holds neither.

Must not import: textual, rich, litellm, or any other bedside package.
"""

from __future__ import annotations

from core.agents.base import DeltaFn, Reply
from core.agents.matching import cue_hit, make_entries, mentioned, normalise
from core.agents.templates import cues, phrase
from core.case import HISTORY_KINDS, HistoryItem, Symptom
from core.transcript import Turn
from core.views import PatientView

MAX_PARTS = 3  # the patient answers in 1-3 sentences
_YES_NO = ("do you", "have you", "any ", "are you", "did you", "is there", "does it")


class RetrievalPatient:
    """Deterministic patient built from a PatientView."""

    label = "retrieval"

    def __init__(self, view: PatientView) -> None:
        self.lang = view.language
        self.profile = view.profile
        self.symptoms = make_entries(
            [([s.name, *s.synonyms], s) for s in view.symptoms])
        self.history_items = make_entries(
            [([h.name, *h.synonyms] if h.name else list(h.synonyms), h) for h in view.history])
        # "other" history has no cue words of its own (the word "other" asks for symptoms).
        self.kind_cues = {k: cues(self.lang, k) for k in HISTORY_KINDS if k != "other"}
        self.facet_cues = {f: cues(self.lang, f) for f in
                           ("onset", "duration", "character", "other", "complaint", "age",
                            "occupation", "diagnosis", "results")}

    async def answer(self, question: str, turns: list[Turn], on_delta: DeltaFn) -> Reply:
        """Answer one question from the stored text (no streaming: it is instantaneous)."""
        text = self.respond(question)
        return Reply(text=text, model="retrieval")

    def respond(self, question: str) -> str:
        """The synchronous core of `answer`."""
        q = normalise(question)
        parts = self._specific(question, q)
        if not parts:
            parts = self._general(q)
        joiner = phrase(self.lang, "join")
        return joiner.join(dict.fromkeys(parts[:MAX_PARTS]))  # dedupe, keep order

    # -- specific items -------------------------------------------------------------------
    def _specific(self, question: str, q: str) -> list[str]:
        parts: list[str] = []
        for entry in mentioned(question, self.symptoms, limit=2):
            parts.extend(self._symptom(entry.payload, q))
        parts.extend(self._history(question, q))
        if cue_hit(q, self.facet_cues["other"]):
            parts.append(self._other_symptoms())
        return parts

    def _symptom(self, s: Symptom, q: str) -> list[str]:
        if not s.present:
            return [phrase(self.lang, "absent", s.description or "")
                    if s.description else phrase(self.lang, "absent_generic")]
        facets = self._facets(s, q)
        if facets:
            return facets
        text = s.description or s.character or s.name
        return [phrase(self.lang, "present", text)]

    def _facets(self, s: Symptom, q: str) -> list[str]:
        out = []
        for facet in ("onset", "duration", "character"):
            value = getattr(s, facet)
            if value and cue_hit(q, self.facet_cues[facet]):
                out.append(phrase(self.lang, facet, value))
        return out

    def _history(self, question: str, q: str) -> list[str]:
        found: list[HistoryItem] = [e.payload for e in mentioned(question, self.history_items)]
        for item in self.profile.history:
            if item not in found and cue_hit(q, self.kind_cues.get(item.kind, [])):
                found.append(item)
        return [phrase(self.lang, "history", h.text) for h in found[:MAX_PARTS]]

    def _other_symptoms(self) -> str:
        names = [s.name for s in self.profile.secondary_symptoms if s.present]
        if not names:
            return phrase(self.lang, "no_more")
        return phrase(self.lang, "more_symptoms", ", ".join(names))

    # -- general questions ----------------------------------------------------------------
    def _general(self, q: str) -> list[str]:
        demo = self._demographics(q)
        if demo:
            return demo
        # Probes for the diagnosis or results come before anything else general.
        if cue_hit(q, self.facet_cues["diagnosis"]):
            return [phrase(self.lang, "no_diagnosis")]
        if cue_hit(q, self.facet_cues["results"]):
            return [phrase(self.lang, "no_results")]
        first = self.profile.primary_symptoms[0] if self.profile.primary_symptoms else None
        if first is not None:
            facets = self._facets(first, q)
            if facets:
                return facets
        if cue_hit(q, self.facet_cues["complaint"]) or not q:
            return [self._complaint()]
        if any(q.startswith(p.strip()) or f" {p}" in f" {q}" for p in _YES_NO):
            return [phrase(self.lang, "absent_generic")]
        return [phrase(self.lang, "dont_know")]

    def _demographics(self, q: str) -> list[str]:
        demo = self.profile.demographics
        out = []
        if demo.age and cue_hit(q, self.facet_cues["age"]):
            out.append(phrase(self.lang, "age", demo.age))
        if demo.occupation and cue_hit(q, self.facet_cues["occupation"]):
            out.append(phrase(self.lang, "occupation", demo.occupation))
        return out

    def _complaint(self) -> str:
        p = self.profile
        return p.opening or p.chief_complaint or p.history_of_present_illness or \
            phrase(self.lang, "dont_know")


def build(view: PatientView) -> RetrievalPatient:
    """Construct the retrieval patient from its view."""
    return RetrievalPatient(view)
