"""The retrieval patient: answers from the stored case text, with no model (the RJUA way).

A doctor's sentence is mapped to categories and then to items of the PatientView; the answer
is the stored text in a patient-voice template of the case's language (`templates`, `voice`),
at most three parts. It is deterministic and has no diagnosis or results to reveal: its view
holds neither. The order of reading a question:
1. a request to examine ("Can I examine your chest?") → consent: the findings are the
   examiner's to report (`core.agents.intents`);
2. probes for the diagnosis or test results → "I don't know" / "nobody told me";
3. questions about earlier episodes ("… like this before?") → the history and the entries
   named as earlier episodes, never the present episode; "No, this is the first time" when
   the record knows of none (`core.agents.patient_record`, `core.agents.episodes`);
4. the complaint ("what brings you in", "哪里不舒服", and open questions about the problem:
   "What's wrong with your leg?"), demographics, symptoms it names (by
   name, synonym, a multilingual symptom vocabulary, or the words that fit one symptom
   best), history (family questions go to family history only; a longer item narrowed to
   the sentences that answer; placeholders such as "Information not provided" never read
   out), other symptoms;
5. facets (onset, duration, character) of the symptom under discussion — only when the
   question names nothing else ("When did it start?" yes, "Do you feel dizzy?" no);
6. the patient's own story (symptom details, history of present illness, history) searched
   for the question's content words ("Any pain in your shoulder?" → radiation to the
   shoulder blade) before anything is denied;
7. otherwise a yes/no question is denied, a wh-question gets "nothing unusual that I know
   of", anything else "could you ask another way?".
"""

from __future__ import annotations

from collections.abc import Sequence

from core.agents import episodes, intents, proxy, questions, voice
from core.agents.base import DeltaFn, Reply
from core.caseindex.matching import (cue_hit, is_cjk, make_entries, mentioned,
                                   normalise)
from core.agents.patient_record import FACETS, MAX_PARTS, TIME, RecordAnswers, symptom_terms
from core.agents.patient_words import MIN_TYPO, needed, record_text, without_illness_names
from core.agents.templates import ONSET_FITS, PHRASES, grammatical_sex, lang_key, phrase
from core.caseindex.cues import CUES, cues
from core.agents.vocab_clinical import CLINICAL_WORDS, NOT_SYMPTOMS
from core.agents.vocab_symptoms import SYMPTOMS, WORD_EQUIVALENTS
from core.case import HISTORY_KINDS, Symptom
from core.transcript import Role, Turn
from core.scripts import is_han
from core.views import PatientView

VERSION = "retrieval-patient/5"
_GENERAL = ("complaint", "other", "age", "occupation", "diagnosis", "results", "tests")
_PAIN_WORDS = frozenset(normalise(w) for w in (
    "pain pains painful hurt hurts hurting ache aches aching sore dolor duele douleur douleurs "
    "mal schmerz schmerzen weh दर्द पीड़ा दुखता दुखती درد دردناک").split())
_PAIN_CJK = ("痛", "疼", "아프", "아파", "아픈", "통증")
_DENIAL = intents.DENIAL_TEXT
_FOCUSED = ("family", "medication", "allergy", "surgical")


class RetrievalPatient(RecordAnswers):
    """Deterministic patient built from a PatientView."""

    label = "retrieval"

    def __init__(self, view: PatientView) -> None:
        self.lang = view.language
        self.profile = view.profile
        # Someone answering for the patient speaks of them as he/she, and the stored text is
        # already in that person's voice: no third-to-first person conversion.
        self.about = grammatical_sex(view.profile.demographics.sex) \
            if view.profile.proxy else None
        self.patient_words = proxy.patient_words(view.profile.proxy)
        self.symptoms = make_entries([(symptom_terms(s), s) for s in view.symptoms])
        self.words = {id(e.payload): {w for t in e.terms for w in t.split()}
                      for e in self.symptoms}
        self.history_items = make_entries(
            [([h.name, *h.synonyms] if h.name else list(h.synonyms), h) for h in view.history])
        # "other" history has no cue words of its own (the word "other" asks for symptoms).
        self.kind_cues = {k: cues(self.lang, k) for k in HISTORY_KINDS if k != "other"}
        self.cue = {f: cues(self.lang, f) for f in (*FACETS, *_GENERAL)}
        self.cue_lists = self.cue
        # Probes for the diagnosis or results are recognised in every language.
        for probe in ("diagnosis", "results", "tests"):
            self.cue[probe] = [c for table in CUES.values() for c in table.get(probe, [])]
        self.story = self._story()
        self.record = record_text(view.profile)
        self.cue_words = _cue_words([c for f in (*FACETS, "complaint", "other")
                                     for c in self.cue[f]])
        self._fired_cache: dict[str, frozenset[str]] = {}

    async def answer(self, question: str, turns: list[Turn], on_delta: DeltaFn) -> Reply:
        """Answer one question from the stored text (no streaming: it is instantaneous)."""
        return Reply(text=self.respond(question, turns), model="retrieval")

    def respond(self, question: str, turns: Sequence[Turn] = ()) -> str:
        """The synchronous core of `answer`; `turns` is the dialogue before the question."""
        question = self.corrected(proxy.without_patient_words(question, self.patient_words))
        q = normalise(question)
        if not q:
            return self._complaint()
        if intents.is_exam_request(question):
            # The patient consents; what the examination finds is the examiner's to report.
            return phrase(self.lang, "consent", about=self.about)
        # Probes for the diagnosis or results, unless the question is plainly about history
        # ("家里人有什么病吗" asks about the family, not the diagnosis).
        if not any(cue_hit(q, c) for c in self.kind_cues.values()):
            if cue_hit(q, self.cue["diagnosis"]):
                return phrase(self.lang, "no_diagnosis")
            if cue_hit(q, self.cue["results"]):
                return phrase(self.lang, "no_results")
        past = intents.past_strength(question)
        # "Did your dad have fits as a child?" is no question about the patient's own past.
        family = cue_hit(q, self.kind_cues["family"])
        parts = self._earlier(question, q, past) if past and not family else []
        if not parts and intents.asks_injury(question):
            parts = self._injury(question)
        if not parts:
            parts = self._direct(question, q)
        if not parts and not family:
            # (A question about the family is never answered from the patient's own story.)
            parts = self._about_topic(question, q, turns) or self._search(question)
        if not parts and cue_hit(q, self.cue["tests"]):
            parts = [phrase(self.lang, "no_results")]  # "Have you had an ECG?": not told
        if not parts:
            key = {"yesno": "absent_generic", "wh": "wh_unknown"}.get(
                questions.kind(question, self.lang), "dont_know")
            parts = [phrase(self.lang, key)]
        return phrase(self.lang, "join").join(dict.fromkeys(parts[:MAX_PARTS]))

    # -- what the question names ----------------------------------------------------------
    def _direct(self, question: str, q: str) -> list[str]:
        parts: list[str] = []
        complaint = cue_hit(q, self.cue["complaint"])
        if complaint:
            parts.append(self._complaint())
        parts.extend(self._demographics(q))
        # "Does anyone in the family have seizures?" is not about the patient's own, and
        # "What have you taken for the fever?" asks for the medicines, not the fever.
        named = [] if any(cue_hit(q, self.kind_cues[k]) for k in _FOCUSED) else \
            self.named_symptoms(question)
        for s in named:
            parts.extend(self._symptom(s, q))
        parts.extend(self._history(question, q, bool(named)))
        if cue_hit(q, self.cue["other"]):
            parts.append(self._other_symptoms(named))
        if complaint and not named and self.primary is not None:
            # "哪里不舒服" is the complaint question, not "where" about the symptom.
            rest = q
            for c in self.cue["complaint"]:
                rest = rest.replace(normalise(c.strip("^$")), " ")
            parts.extend(self._facets(self.primary, rest))
        return parts

    def named_symptoms(self, question: str, ignore: frozenset[str] = frozenset()
                       ) -> list[Symptom]:
        """Symptoms a question names: by term, or by its words when they fit one symptom
        better than any other ("Does it hurt when you breathe in?" → pain on breathing;
        "Any weakness in your face?" → facial weakness, not leg weakness)."""
        question = without_illness_names(question)
        found = [e.payload for e in mentioned(question, self.symptoms, limit=2)]
        q = normalise(question)
        # Facet words ("where", "start") ask about a symptom, they do not name one.
        content = [w for w in questions.content_words(question)
                   if w not in ignore and not self._cue_word(w, q)]
        if intents.asks_injury(question):  # "Did you hurt your chest?": an injury
            content.append(intents.INJURY_WORD.get(lang_key(self.lang)[:2], "injury"))
        if not found and not content and not ignore and _is_pain(question) and \
                questions.kind(question, self.lang) == "yesno" and \
                not any(cue_hit(q, self.cue[f]) for f in FACETS):
            # "Do you have any pain?": the pain the patient has, if any.
            return [s for s in self.profile.symptoms() if s.present and _is_pain(s.name)][:1]
        slots = questions.slots(question, content)
        ranked = self._ranked(question, content, slots)
        if found:
            # A named term loses to a symptom whose names and story fit every word better
            # ("Any weakness in your face?": facial weakness, not leg weakness).
            held = max((x[:2] for x in ranked if x[3] in found), default=(0, 0))
            top = ranked[0] if ranked else None
            if top and top[3] not in found and top[0] >= len(content) and top[:2] > held:
                return [top[3]]
            return found
        # Every word of a short question, two thirds of a long one (words the record does
        # not hold and that name nothing clinical left aside); the best fit, or the two that
        # fit equally well.
        need = needed(self.informative_slots(slots))
        ranked = [x for x in ranked if x[0] >= need > 0]
        if not ranked:
            return []
        tied = [x[3] for x in ranked if x[:3] == ranked[0][:3]]
        return tied if len(tied) <= 2 else []

    def _coverage(self, question: str, content: list[str]) -> list[tuple[int, bool, Symptom]]:
        """(content words found, present, symptom), best fit first (see `_ranked`)."""
        return [(hits, present, s) for hits, _, present, s in self._ranked(question, content)]

    def _ranked(self, question: str, content: list[str],
                slots: list[tuple[str, ...]] | None = None
                ) -> list[tuple[int, int, bool, Symptom]]:
        """(slots found, rank, present, symptom), best first: a word counts when found in
        the symptom's names or in its description ("I've never had spells of feeling high,
        overactive…"; "bringing up thick rust-coloured phlegm"); rank counts a word in the
        names twice, and one more for a pain question about a pain. A slot is a word, or
        the alternatives of "X or Y" (`questions.slots`), found when one of them is."""
        slots = slots if slots is not None else [(w,) for w in content]
        full = len(self.informative_slots(slots))  # an absent symptom's description must
        pain = bool(set(normalise(question).split()) & _PAIN_WORDS) or any(
            p in question for p in _PAIN_CJK)
        out = []
        for e in self.symptoms:
            names = " ".join(e.terms)
            said = normalise(e.payload.description or "")
            # (Both alternatives of a slot found count twice: "high or overactive".)
            in_names = [sum(questions.found_in(w, names) for w in slot) for slot in slots]
            hits = sum(in_names)
            # The description counts along with the names, or alone for an absent symptom
            # whose description lists what is denied; a present symptom's story alone
            # ("I feel I've failed my children") does not name it.
            if hits or not e.payload.present:
                told = sum(max(n, sum(questions.found_in(w, said) for w in slot))
                           for slot, n in zip(slots, in_names, strict=True))
                hits = told if hits or told >= max(full, 1) else 0  # …hold all of them
            has_pain = bool(self.words[id(e.payload)] & _PAIN_WORDS) or any(
                p in names for p in _PAIN_CJK)
            if hits:
                out.append((hits, 2 * sum(in_names) + (1 if pain and has_pain else 0),
                            e.payload.present, e.payload))
        return sorted(out, key=lambda x: (-x[0], -x[1], not x[2]))

    @property
    def primary(self) -> Symptom | None:
        """The main symptom: the first present primary symptom, else the first symptom."""
        symptoms = self.profile.symptoms()
        present = [s for s in self.profile.primary_symptoms if s.present]
        found = present or symptoms
        return found[0] if found else None

    def _symptom(self, s: Symptom, q: str) -> list[str]:
        if not s.present:
            desc = self._voice(s.description or "", self.lang)
            if not desc:
                return [phrase(self.lang, "absent_generic")]
            return [desc if _DENIAL.match(normalise(desc) or desc) else
                    phrase(self.lang, "no", desc)]
        facets = self._facets(s, q)
        if facets:
            return facets
        told = self._voice(s.description, self.lang) if s.description else \
            voice.sentence(self._voice(s.character, self.lang), self.lang) if s.character \
            else ""
        if intents.yes_misleads(q, told or s.name):
            # "Can you lie flat?" → the symptom's own words, without a "yes" before them.
            return [told or voice.sentence(s.name, self.lang)]
        if told:
            return [voice.attach(self.lang, "yes", told)]
        return [phrase(self.lang, "yes_name", voice.lower_first(s.name, self.lang),
                       self.about)]

    def _voice(self, text: str, lang: str) -> str:
        """Stored text in the speaker's voice (the patient's, unless a proxy speaks)."""
        return text if self.about else voice.first_person(text, lang)

    def _facets(self, s: Symptom, q: str) -> list[str]:
        wanted = [f for f in FACETS if cue_hit(q, self.cue[f])]
        asked = [f for f in wanted if getattr(s, f)]
        if "duration" in wanted and "onset" not in asked and s.onset and \
                not TIME.search(normalise(s.duration or "")) and TIME.search(normalise(s.onset)):
            # "How long has it been hurting?" when the duration is a pattern ("there all the
            # time") or not stored: when it began says how long.
            asked.insert(0, "onset")
        told = [self._facet(f, getattr(s, f)) for f in FACETS if f in asked]
        if not told and s.present and {"onset", "duration"} & set(wanted):
            # When or how long, with no timing stored (imported records): the story's
            # sentence that names the symptom and says when.
            told = self._told_about(s, timed=True)
        return told

    def _facet(self, facet: str, value: str) -> str:
        value = self._voice(value, self.lang)
        return voice.onset(value, self.lang) if facet == "onset" else \
            voice.sentence(value, self.lang)

    def _other_symptoms(self, named: list[Symptom]) -> str:
        names = [s.name for s in self.profile.secondary_symptoms if s.present and s not in named]
        if not names:
            return phrase(self.lang, "no_more")
        return phrase(self.lang, "more_symptoms", voice.listing(names, self.lang),
                      self.about)

    def _demographics(self, q: str) -> list[str]:
        demo = self.profile.demographics
        out = []
        if demo.age and cue_hit(q, self.cue["age"]):
            age = demo.age.strip()
            out.append(phrase(self.lang, "age" if age.isdigit() else "age_text", age,
                              self.about))
        if cue_hit(q, self.cue["occupation"]):
            if demo.occupation:
                out.append(phrase(self.lang, "occupation", self._occupation(demo.occupation),
                                  self.about))
            else:  # imported records tell the job in the social history ("Works as a …")
                out.extend(self._voice(t, self.lang) for t in episodes.job_sentences(
                    self.profile))
        return out

    def _occupation(self, job: str) -> str:
        if lang_key(self.lang) != "en":
            return job.strip().rstrip(".")
        job = job.strip().rstrip(".")
        job = job if job.split()[0].isupper() and len(job.split()[0]) > 1 else job.lower()
        if job.split()[0] in ("a", "an", "the"):
            return job
        return ("an " if job[0] in "aeiou" else "a ") + job

    def _complaint(self) -> str:
        p = self.profile
        text = p.opening or p.chief_complaint
        if not text and p.history_of_present_illness:
            sentences = episodes.sentences(p.history_of_present_illness.strip(), False)
            text = " ".join(sentences[:2])
        return self._voice(text, self.lang) if text else phrase(self.lang, "dont_know")

    def _injury(self, question: str) -> list[str]:
        """"Did you hurt your back?": a symptom named as an injury, else what the story says
        about an injury (a denial first: "no recent injury", "I haven't hurt it")."""
        word = intents.INJURY_WORD.get(lang_key(self.lang)[:2], "injury")
        named = [s for s in self.named_symptoms(question)
                 if any(questions.found_in(word, t) for t in symptom_terms(s))]
        if named:
            return self._symptom(named[0], normalise(question))
        told = [sentence for _, answer in self.story for sentence in episodes.sentences(answer)
                if intents.INJURY_TEXT.search(normalise(sentence))
                or intents.INJURY_TEXT.search(sentence)]
        denied = [t for t in told if intents.denies_injury(t)]
        return (denied or told)[:1]

    # -- the symptom under discussion ------------------------------------------------------
    def _about_topic(self, question: str, q: str, turns: Sequence[Turn]) -> list[str]:
        if not any(cue_hit(q, self.cue[f]) for f in FACETS):
            return []
        topic = self.topic(turns)
        if _is_pain(question) and topic is not None and not _is_pain(topic.name):
            # "How bad is the pain?" about a red leg means the leg pain.
            topic = next((s for s in self.profile.symptoms() if s.present and _is_pain(s.name)),
                         topic)
        # Words that name something else keep the question off the topic ("When did the
        # rash start?"); words the record cannot answer ("doing") or that the topic's own
        # story holds ("moved") do not.
        own = normalise(" ".join(x for x in (topic.description, topic.onset, topic.duration,
                                             topic.character) if x)) if topic else ""
        content = [w for w in questions.content_words(question) if not self._cue_word(w, q)
                   and not (is_han(w) and len(w) < 2)]
        unmatched = [slot for slot in self.informative_slots(questions.slots(question, content))
                     if topic is None or not any(w in self.words.get(id(topic), set())
                                                 or questions.found_in(w, own) for w in slot)]
        if unmatched or (topic is not None and not topic.present):
            return []
        if topic is None:  # no symptoms stored (AI Hospital records): the complaint says it
            p = self.profile
            return [self._complaint()] if p.chief_complaint or p.opening else []
        told = self._facets(topic, q) or self._told_about(topic)
        if not told and topic is self.primary and any(
                cue_hit(q, self.cue[f]) for f in ("onset", "duration")):
            # "How long has this been going on?" with no timing stored for the main symptom
            # (imported records): the story's opening tells it.
            told = [self._complaint()]
        return told

    def _cue_word(self, word: str, q: str) -> bool:
        """True if a word asks how, when or where rather than naming something: a word of a
        facet, complaint or "other" cue that the question `q` (normalised) uses ("long" in
        "how long"), or a question or short function word of any such cue ("wie", "del").
        "help" in "Did anything help?" is content: the complaint cue "how can I help" is
        not in that question."""
        if is_cjk(word):
            return any(normalise(c.strip("^$")) in word for f in FACETS for c in self.cue[f])
        if word in self._fired(q):
            return True
        return word in self.cue_words and (len(word) <= 3 or word in questions.QUESTION_WORDS)

    def _fired(self, q: str) -> frozenset[str]:
        """The words of the facet, complaint and "other" cues a question uses."""
        if q not in self._fired_cache:
            self._fired_cache[q] = _cue_words([c for f in (*FACETS, "complaint", "other")
                                               for c in self.cue[f] if cue_hit(q, [c])])
        return self._fired_cache[q]

    def topic(self, turns: Sequence[Turn]) -> Symptom | None:
        """The symptom the conversation is about: the last one a doctor question named,
        else the main symptom."""
        asked = [t.content for t in turns if t.role == Role.DOCTOR and t.kind == "question"]
        for text in reversed(asked[-6:]):
            named = [s for s in self.named_symptoms(text) if s.present]
            if named:
                return named[0]
        return self.primary

def _cue_words(cue_list: list[str]) -> frozenset[str]:
    """The words of cues, as written and as content words (Persian "شکلی" is "شکل")."""
    return frozenset(w for c in cue_list for w in [*normalise(c.strip("^$")).split(),
                                                   *questions.content_words(c.strip("^$"))])


def _is_pain(text: str) -> bool:
    return bool(set(normalise(text).split()) & _PAIN_WORDS) or any(p in text for p in _PAIN_CJK)


def tables() -> dict[str, object]:
    """What decides this patient's answers, for the reproducibility hash."""
    return {"version": VERSION, "max_parts": MAX_PARTS, "facets": FACETS, "cues": CUES,
            "phrases": PHRASES, "onset_fits": ONSET_FITS, "time": TIME.pattern,
            "symptoms": SYMPTOMS, "stopwords": sorted(questions.STOPWORDS),
            "denial": _DENIAL.pattern, "pain_words": sorted(_PAIN_WORDS), "pain_cjk": _PAIN_CJK,
            "intents": intents.table_fingerprint(), "episodes": episodes.table_fingerprint(),
            "proxy": proxy.table_fingerprint(),
            "equivalents": WORD_EQUIVALENTS, "clinical": sorted(CLINICAL_WORDS),
            "not_symptoms": NOT_SYMPTOMS, "min_typo": MIN_TYPO}


def build(view: PatientView) -> RetrievalPatient:
    """Construct the retrieval patient from its view."""
    return RetrievalPatient(view)
