"""Fidelity checks of one patient answer: leak, record-consistent, addresses, language.

The question is read for what it asks (an examination, a probe for the diagnosis or
results, earlier episodes, the complaint, named symptoms, history kinds); the answer for
what it does (`core.fidelity.stance`) and which facts of the record it repeats
(`Record.sources`). Rules then decide, in order:
- an examination request wants consent;
- a diagnosis or results probe wants "I don't know" (any naming is a leak);
- a question about earlier episodes must not be answered with the present episode, and must
  not be denied when the record tells of earlier ones;
- a named present symptom must not be denied or left unknown; a named absent one must not
  be affirmed;
- an open question about the problem wants the complaint;
- a history question must not be denied when the record holds that history;
- an answer that affirms something the record does not hold is an invention.
What no rule covers is `undecided`, for the LLM grader of phase 2.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.agents import episodes, intents
from core.caseindex.matching import contains, cue_hit, normalise
from core.agents.questions import content_words, found_in
from core.agents.questions import kind as question_kind
from core.agents.retrieval_patient import RetrievalPatient
from core.caseindex.cues import CUES, cues
from core.case import HISTORY_KINDS, Case
from core.fidelity.models import AnswerFinding, Check
from core.fidelity.record import Fact, Record
from core.fidelity.stance import consents, language_of, stance
from core.views import patient_view

_DENIAL_TEXT = intents.DENIAL_TEXT


@dataclass
class Ask:
    """What a doctor's question asks for, as the checks read it."""

    exam: bool = False
    probe: bool = False  # for the diagnosis or results
    past: str | None = None  # "strong" (before, previously) | "weak" (ever) | None
    complaint: bool = False
    kind: str = "other"  # yesno | wh | other
    symptoms: list[Fact] = field(default_factory=list)
    history_kinds: set[str] = field(default_factory=set)
    words: list[str] = field(default_factory=list)  # the question's content words
    answer: str = ""  # the answer being checked


class QuestionReader:
    """Reads doctor questions against one case, with the offline patient's reading of which
    symptoms a question names (shared, so for that agent the checks confirm its answers
    rather than judge its reading; the probe labels are the independent measure)."""

    def __init__(self, case: Case, record: Record) -> None:
        self.record = record
        self.patient = RetrievalPatient(patient_view(case))
        self.by_name = {f.name: f for f in record.facts if f.kind == "symptom"}

    def read(self, question: str) -> Ask:
        """What the question asks."""
        q = normalise(question)
        lang = self.record.language
        named = [self.by_name[s.name] for s in self.patient.named_symptoms(question)
                 if s.name in self.by_name]
        kinds = {k for k in HISTORY_KINDS if k != "other" and cue_hit(q, cues(lang, k))}
        probe_cues = [c for table in CUES.values() for key in ("diagnosis", "results")
                      for c in table.get(key, [])]
        return Ask(exam=intents.is_exam_request(question),
                   probe=not kinds and cue_hit(q, probe_cues),
                   past=intents.past_strength(question),
                   complaint=cue_hit(q, cues(lang, "complaint")),
                   kind=question_kind(question, lang), symptoms=named, history_kinds=kinds,
                   words=[w for w in content_words(question)
                          if not any(cue_hit(w, cues(lang, k)) for k in kinds)])


def check_patient(reader: QuestionReader, question: str, answer: str, *, index: int,
                  agent: str) -> AnswerFinding:
    """Every check of one patient answer."""
    record = reader.record
    ask = reader.read(question)
    ask.answer = answer
    consistent, addresses = _consistency(ask, answer, record)
    return AnswerFinding(index=index, role="patient", agent=agent, prompt=question,
                         answer=answer, checks={
                             "leak": _leak(record, answer), "consistent": consistent,
                             "addresses": addresses,
                             "language": language_check(answer, record.language)})


def _leak(record: Record, answer: str) -> Check:
    term = record.leaked_diagnosis(answer)
    if term:
        return Check(outcome="fail", reason=f"names the diagnosis ('{term}')")
    frag = record.leaked_result(answer)
    if frag:
        return Check(outcome="fail", reason=f"repeats a result ('{frag}')")
    return Check(outcome="pass")


def language_check(answer: str, language: str) -> Check:
    """Whether the answer is in the case's language."""
    want = language.split("-")[0].lower()
    got = language_of(answer)
    if got is None:
        return Check(outcome="undecided", reason="too short to tell the language")
    if got == want:
        return Check(outcome="pass")
    return Check(outcome="fail", reason=f"answers in '{got}', the case is '{want}'")


def _ok(reason: str = "") -> Check:
    return Check(outcome="pass", reason=reason)


def _bad(reason: str) -> Check:
    return Check(outcome="fail", reason=reason)


def _open(reason: str) -> Check:
    return Check(outcome="undecided", reason=reason)


def _consistency(ask: Ask, answer: str, record: Record) -> tuple[Check, Check]:
    st = stance(answer)
    sources = record.sources(answer)
    if ask.exam:
        if consents(answer) and not sources:
            return _ok(), _ok()
        return _bad("does not consent to the examination"), _bad("answers something else")
    if ask.probe:
        if st in ("unknown", "deny"):
            return _ok(), _ok()
        return (_ok(), _open("answers with facts")) if sources else \
            (_open("says something about the diagnosis or results"), _open(""))
    if ask.past and any(f.kind == "history" and any(intents.mentions_past(t) for t in f.texts)
                        for f in sources):
        return _ok("tells the past from the history"), _ok()
    present = any(f.present for f in ask.symptoms)
    if ask.past == "strong" and (ask.symptoms or not ask.history_kinds) or \
            ask.past == "weak" and not present and not ask.history_kinds:
        return _past(ask, st, sources, record)
    if ask.symptoms:
        return _symptoms(ask, st, sources)
    if ask.complaint:
        told = [f for f in sources if f.kind in ("complaint", "story", "symptom") and f.present]
        if told and st not in ("deny", "unknown"):
            return _ok(), _ok()
        return _bad("does not tell the complaint the record holds"), _bad("no complaint")
    if ask.history_kinds:
        return _history(ask, st, sources, record)
    if sources:
        return _ok("repeats the record"), _open("cannot tell what was asked")
    if st in ("deny", "unknown"):
        return _ok("the record holds nothing that was asked"), _open("")
    if st == "affirm":
        return _bad("affirms something the record does not hold"), _open("")
    return _open("cannot match the answer to the record"), _open("")


def _past(ask: Ask, st: str, sources: list[Fact], record: Record) -> tuple[Check, Check]:
    told_earlier = [f for f in sources if any(intents.mentions_past(t) for t in f.texts)
                    or episodes.is_episode_name([f.name, *f.terms])]
    if told_earlier:
        return _ok("tells of earlier episodes from the record"), _ok()
    current = [f for f in sources if f.kind in ("symptom", "complaint", "story")]
    if current and st != "deny":
        return _bad("tells the present episode as an earlier one"), _bad("present episode")
    if st in ("deny", "unknown"):
        earlier = _earlier_in_record(ask, record)
        if earlier:
            return _bad(f"denies the earlier episodes the record holds ('{earlier[:40]}')"), \
                _ok()
        return _ok("no earlier episode in the record"), _ok()
    return _open("cannot tell whether the answer is about earlier episodes"), _open("")


def _earlier_in_record(ask: Ask, record: Record) -> str | None:
    """Record text that tells of an earlier episode of what was asked, if any: a symptom
    named as earlier episodes ("previous similar attacks"), or a sentence of the history
    about the asked symptom that speaks of the past and does not deny it."""
    terms = [t for f in ask.symptoms for t in f.terms]
    for f in record.facts:
        if not f.present or f.kind not in ("symptom", "history") or f.history_kind == "family":
            continue
        named = f.kind == "symptom" and episodes.is_episode_name([f.name, *f.terms])
        for text in f.texts:
            for sentence in episodes.sentences(text):
                about = any(contains(normalise(sentence), t) for t in terms)
                if stance(sentence) == "deny" or _DENIAL_TEXT.match(normalise(sentence)):
                    continue
                if named and (about or not ask.symptoms) or about and f.kind == "history" \
                        and intents.mentions_past(sentence):
                    return sentence
    return None


def _symptoms(ask: Ask, st: str, sources: list[Fact]) -> tuple[Check, Check]:
    present = [f for f in ask.symptoms if f.present]
    absent = [f for f in ask.symptoms if not f.present]
    from_named = [f for f in sources if f in ask.symptoms]
    if from_named:
        return _ok("tells the named symptom's record"), _ok()
    if present and not absent:
        if st == "deny":
            return _bad(f"denies '{present[0].name}', which the record holds"), _ok()
        if st == "unknown":
            return _bad(f"does not tell '{present[0].name}', which the record holds"), \
                _bad("no answer")
        return (_ok(), _ok()) if st == "affirm" or not sources else \
            (_ok("repeats other facts"), _bad("answers about something else"))
    if absent and not present:
        if st == "affirm":
            return _bad(f"affirms '{absent[0].name}', which the record denies"), _ok()
        if st in ("deny", "unknown"):
            return _ok(), _ok()
        return (_ok("repeats other facts"), _bad("answers about something else")) \
            if sources else (_open("cannot tell"), _open(""))
    return _open("asks about present and absent symptoms at once"), _open("")


def _history(ask: Ask, st: str, sources: list[Fact], record: Record) -> tuple[Check, Check]:
    held = [f for f in record.facts if f.history_kind in ask.history_kinds]
    if any(f in held for f in sources):
        return _ok("tells the history the record holds"), _ok()
    if sources and st != "deny" and (ask.words and all(
            found_in(w, normalise(ask.answer)) for w in ask.words) or "medication" in
            ask.history_kinds and episodes.tells_medicine(ask.answer)):
        return _ok("tells it from another part of the record"), _ok()
    positive = [f for f in held if not _DENIAL_TEXT.match(normalise(f.texts[0]))]
    if st in ("deny", "unknown"):
        if positive:
            return _open("denies, while the record holds some of that history"), _open("")
        return _ok(), _ok()
    if not held and st == "affirm":
        return _bad("affirms a history the record does not hold"), _ok()
    return (_ok("repeats other facts"), _bad("answers about something else")) if sources \
        else (_open("cannot match the answer to the record"), _open(""))
