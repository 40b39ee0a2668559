"""What the retrieval patient tells from its record: history, earlier episodes, its story.

A mixin of `RetrievalPatient` (`core.agents.retrieval_patient`), kept apart so that each
module stays small:
- `_history`: history items a question names or whose kind it asks for; a longer item is
  narrowed to the sentences that hold the question's words ("Do you smoke?" → the smoking
  sentence); a kind the record has no item for is looked for in the other items and the
  story (imported records often name medicines only in the story);
- `_earlier`: questions about earlier episodes, answered from the history and the entries
  named as earlier episodes (`core.agents.episodes`), never from the present episode;
  "No, this is the first time" when the record knows of none;
- `_search`: the patient's own story searched for the question's content words.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from core.agents import episodes, intents, questions
from core.caseindex.matching import Entry, cue_hit, mentioned, normalise
from core.agents.templates import phrase
from core.agents.patient_words import WordReading, needed
from core.agents.vocab_symptoms import SYMPTOMS
from core.case import HistoryItem, PatientProfile, Symptom
from core.scripts import is_han

MAX_PARTS = 3  # the patient answers in 1-3 parts
FACETS = ("onset", "duration", "character")
# A time expression: a number, a unit of time, "ago" (any supported language); "since"
# alone ("there the whole time since") says no length.
TIME = re.compile(
    r"\d|\b(?:ago|minutes?|hours?|days?|weeks?|months?|years?|yesterday|last night|"
    r"hace|minutos?|horas?|dias?|semanas?|meses|mes|anos?|ayer|"
    r"il y a|heures?|jours?|semaines?|mois|ans?|hier|"
    r"vor|stunden?|tagen?|wochen?|monaten?|jahren?|gestern)\b|[天周月年]|小时|昨|"
    # Hindi (matching form: no virama), Persian, Korean
    r"घंट|दिन|हफत|महीन|साल|मिनट|पहल|कल |ساعت|روز|هفته|ماه|سال|دقیقه|پیش|دیروز|"
    r"시간|개월|년|분|주일|며칠|이틀|사흘|나흘|닷새|열흘|어제|전부터|일 전|일째")


@lru_cache(maxsize=1)
def _symptom_index() -> dict[str, tuple[str, ...]]:
    """Normalised symptom name → every name of its vocabulary concept(s)."""
    index: dict[str, list[str]] = {}
    for concept in SYMPTOMS.values():
        words = [w for text in concept.values() for w in text.split("|")]
        for w in words:
            index.setdefault(normalise(w), []).extend(words)
    return {k: tuple(dict.fromkeys(v)) for k, v in index.items()}


def symptom_terms(s: Symptom) -> list[str]:
    """A symptom's names plus every name of the vocabulary concepts it is called by, also
    by one part of a listing name ("Fatigue, flank pain, and fever" is called "fever")."""
    names = [s.name, *s.synonyms]
    index = _symptom_index()
    parts = [p for n in names for p in re.split(r",|;|\band\b|\bwith\b|、|，", n) if p.strip()]
    for key in dict.fromkeys(normalise(n) for n in [*names, *parts]):
        names.extend(index.get(key, ()))
    return list(dict.fromkeys(names))


class RecordAnswers(WordReading):
    """Answers from the record's history and story (mixed into RetrievalPatient)."""

    lang: str
    profile: PatientProfile
    about: str | None
    kind_cues: dict[str, list[str]]
    history_items: list[Entry]
    story: list[tuple[str, str]]
    symptoms: list[Entry]
    cue_lists: dict[str, list[str]]  # facet and general cues of the case's language
    # Provided by RetrievalPatient; declared here so the mixin type-checks on its own.
    if TYPE_CHECKING:
        def named_symptoms(self, question: str, ignore: frozenset[str] = frozenset()
                           ) -> list[Symptom]: ...
        def _voice(self, text: str, lang: str) -> str: ...
        def _symptom(self, s: Symptom, q: str) -> list[str]: ...
        def _facet(self, facet: str, value: str) -> str: ...
        def _cue_word(self, word: str, q: str) -> bool: ...

    # -- earlier episodes ------------------------------------------------------------------
    def _earlier(self, question: str, q: str, strength: str) -> list[str]:
        """The answer to a question about earlier episodes, or [] to answer as usual."""
        named = self.named_symptoms(question, episodes.PAST_FILLER)
        kinds = {k for k, c in self.kind_cues.items() if cue_hit(q, c)}
        if kinds - {"review_of_systems"} and not named:
            return []  # "Have you ever had an operation?" is a history question
        if not named and strength == "weak" and self._history(question, q, False):
            return []  # "Have you ever eaten raw shellfish?": an item of the history tells it
        content = [w for w in episodes.question_content(question) if not self._cue_word(w, q)]
        present = [s for s in named if s.present]
        main = named or [s for s in self.profile.primary_symptoms if s.present][:3]
        by_symptom = bool(named or not content)
        topic = episodes.Topic(
            tuple(normalise(t) for s in main for t in symptom_terms(s)) if by_symptom else (),
            tuple(normalise(s.name) for s in main) if by_symptom else (),
            tuple(content), not named and not content)
        found = episodes.evidence(self.profile, topic)
        if found:
            return [self._voice(found[0], self.lang)]
        if named and (not present or strength == "weak"):
            return []  # an absent symptom's denial answers; "ever" may include the present
        if present or not content or intents.asks_first_time(question):
            return [phrase(self.lang, "not_before", about=self.about)]
        told = self._search(question) if strength == "weak" else []
        if told:  # "Have you ever seen mice near the house?": the record tells it
            return told
        # Something that is no symptom of this episode and that no history mentions ("Have
        # you ever had a stroke?"): no, and the patient's past illnesses.
        past = [h.text for h in self.profile.history
                if h.kind == "past_medical" and not episodes.is_placeholder(h.text)]
        return [phrase(self.lang, "no", self._voice(past[0], self.lang))] if past else []

    def _history(self, question: str, q: str, symptom_named: bool) -> list[str]:
        items = [h for h in self.profile.history if not episodes.is_placeholder(h.text)]
        found: list[HistoryItem] = [e.payload for e in mentioned(question, self.history_items)
                                    if e.payload in items]
        # ("How long was the flight?": "long" asks how long, it is in no history text.)
        content = [w for w in questions.content_words(question) if not self._cue_word(w, q)]
        named = self.informative(content)
        if named:  # "Do you smoke?" names the history item called "smoking"
            found += [e.payload for e in self.history_items if e.payload in items and
                      e.payload not in found and all(
                          questions.found_in(w, " ".join(e.terms)) for w in named)]
        kinds = {k for k, c in self.kind_cues.items() if cue_hit(q, c)}
        kinds -= {h.kind for h in found}  # a named item answers for its kind
        if "family" in kinds:  # "any illnesses in the family?" is family history only
            kinds -= {"past_medical", "review_of_systems"}
        if "allergy" in kinds:  # "allergic to any medicines?" asks about allergies only
            kinds.discard("medication")
        if symptom_named:  # "any fever?" was answered by the symptom itself
            kinds.discard("review_of_systems")
        of_kind = [h for h in items if h.kind in kinds and h not in found]
        words = [w for w in content if w not in _FOCUS_STOP and w not in _KIND_NAMES]
        if words and of_kind and not kinds & _FOCUSED_KINDS and not any(
                _tells(words, h.text) for h in of_kind):
            # The question's words are in another item ("Any travel recently?" → "Denies
            # fever, cough, or recent travel."; "Have you stayed in a hotel or hospital?" →
            # the social history, not the past illnesses): that one answers, not the whole
            # kind; never someone else's history for the patient's.
            told = [h for h in items if h not in found and _tells(words, h.text)
                    and (h.kind != "family" or "family" in kinds)]
            of_kind = told or of_kind
        focused = [h for h in of_kind if h.kind in _FOCUSED_KINDS and any(
            questions.found_in(w, normalise(h.text)) for w in self._focus_words(content, h.kind))]
        if focused:
            # A question about medicines (allergies, operations) that their item answers by
            # its words ("Did you take anything to help you sleep on the flight?" → "I took
            # one zopiclone on the flight"): that item alone, not the flight's.
            found, of_kind = [], focused
        found += of_kind
        texts = [_focus(h.text, self._focus_words(content, h.kind)) for h in found]
        if kinds and not found:  # imported records often tell this in another item or the story
            # A family history told elsewhere names a relative, whichever word was asked.
            fired = {k: self.kind_cues[k] if k == "family" else
                     [c for c in self.kind_cues[k] if cue_hit(q, [c])] for k in kinds
                     if k in self.kind_cues}
            texts = episodes.told_elsewhere(self.profile, kinds, fired)
        return [phrase(self.lang, "history", self._voice(t, self.lang))
                for t in texts[:MAX_PARTS]]

    def _focus_words(self, content: list[str], kind: str) -> list[str]:
        """Words that pick the sentences of a history item that answer: not the words
        that only name its kind ("family", "smoke"), except in the review of systems, whose
        cue words are its items ("fever")."""
        cue = self.kind_cues.get(kind, []) if kind != "review_of_systems" else []
        return [w for w in content if w not in _FOCUS_STOP and not cue_hit(w, cue)]

    def _told_about(self, s: Symptom, timed: bool = False) -> list[str]:
        """What the story says about a symptom whose onset, duration or character is not
        stored: its description, else the first sentence of the story that names it. With
        `timed`, only a text that says when ("for the past 4 weeks")."""
        entry = next(e for e in self.symptoms if e.payload is s)
        hpi = self.profile.history_of_present_illness or ""
        texts = [s.description] if s.description else []
        texts += [p.strip() for p in episodes.sentences(hpi)
                  if p.strip() and any(t in normalise(p) for t in entry.terms)]
        if timed:
            texts = [t for t in texts if TIME.search(normalise(t))]
        return [self._voice(texts[0], self.lang)] if texts else []

    # -- the patient's own story ----------------------------------------------------------
    def _story(self) -> list[tuple[str, str]]:
        """(searchable text, answer) pairs, most specific first."""
        out: list[tuple[str, str]] = []
        symptoms = sorted(self.profile.symptoms(), key=lambda s: not s.present)
        for s in symptoms:
            for facet in FACETS if s.present else ():
                value = getattr(s, facet)
                if value:
                    out.append((value, self._facet(facet, value)))
            if s.description:
                answer = (self._voice(s.description, self.lang) if s.present
                          else self._symptom(s, "")[0])
                out.append((s.description, answer))
        hpi = self.profile.history_of_present_illness or ""
        for part in episodes.sentences(hpi):
            if part.strip():
                out.append((part, self._voice(part.strip(), self.lang)))
        for said in (self.profile.chief_complaint, self.profile.opening):
            if said:  # the complaint in the patient's own words ("all over the place")
                out.append((said, self._voice(said, self.lang)))
        # Family history is someone else's: only a question about the family reaches it.
        out.extend((h.text, self._voice(h.text, self.lang)) for h in self.profile.history
                   if h.kind != "family" and not episodes.is_placeholder(h.text))
        return out

    def _search(self, question: str) -> list[str]:
        q = normalise(question)
        content = [w for w in questions.content_words(question)
                   if not self._cue_word(w, q) and not (is_han(w) and len(w) < 2)]
        if not content:
            return []
        # Asked when or how long: of texts that hold as many words, one that says when
        # ("Crohn disease diagnosed 2 years ago" before "a follow-up for her Crohn disease").
        timing = any(cue_hit(q, self.cue_lists[f]) for f in ("onset", "duration"))
        slots = questions.slots(question, content)
        best: tuple[int, int, int, str] | None = None
        for order, (text, answer) in enumerate(self.story):
            norm = normalise(text)
            hits = sum(questions.found_in(w, norm) for slot in slots for w in slot)
            timed = int(timing and bool(TIME.search(norm)))
            if hits and (best is None or (hits, timed, -order) > best[:3]):
                best = (hits, timed, -order, answer)
        # Every word of a short question, two thirds of a long one: "any blood in your
        # stool?" is not answered by "high blood pressure".
        need = needed(self.informative_slots(slots))
        if best is None or need == 0 or best[0] < need:
            return []
        return [_focus(best[3], content)]


# Words that name a kind of history rather than something in it ("What medicines are you
# on?" is not answered by "No allergies to medicines").
_KIND_NAMES = frozenset("""medication medications medicine medicines drug drugs pill pills tablet
tablets prescription prescriptions allergy allergies allergic family social surgery
surgeries operation operations history medical illness illnesses condition conditions disease
diseases health medicamento medicamentos medicina medicinas pastilla pastillas alergia
alergias familia operacion medicament medicaments traitement allergie allergies famille
medikament medikamente tabletten allergien familie
दवा दवाई दवाइयाँ दवाइयां गोली गोलियाँ गोलियां एलर्जी परिवार ऑपरेशन बीमारी बीमारियाँ
دارو داروها قرص حساسیت آلرژی خانواده جراحی عمل بیماری سابقه
약 약물 알레르기 가족 수술 병력 질환""".split())
_KIND_NAMES = frozenset(normalise(w) for w in _KIND_NAMES)
# Kinds of history that hold many topics: a question about one of them may be answered by
# another item ("Any travel recently?" by the review of systems); a question about a focused
# kind (allergies, medicines) is answered by that kind, whatever its words.
_MANY_TOPICS = frozenset({"social", "review_of_systems", "other"})
# Kinds that only their own items answer, whatever other items say.
_FOCUSED_KINDS = frozenset({"medication", "allergy", "surgical"})
# Verbs that do not say which part of a history answers ("Have you been taking …").


_FOCUS_STOP = frozenset(normalise(w) for w in (
    "take takes taking taken took use uses using used have has had get gets got लेते लेती "
    "लिया खाते खाती पीते पीती पीता पीना مصرف می‌کنید میخورید 드시 드세요 복용").split())


def _tells(content: list[str], text: str) -> bool:
    """True if stored text holds every content word of a question."""
    norm = normalise(text)
    return all(questions.found_in(w, norm) for w in content)


def _focus(text: str, content: list[str]) -> str:
    """The sentences of a longer history text that hold the question's words ("Do you
    smoke?" → the smoking sentence), or all of it when none does."""
    parts = episodes.sentences(text, semicolons=False)
    picked = [p for p in parts if any(questions.found_in(w, normalise(p)) for w in content)]
    return " ".join(picked) if picked and len(picked) < len(parts) else text
