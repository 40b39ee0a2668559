"""Earlier episodes: what the patient's record says about having had this before.

Asked "Have you had chest pain like this before?", a patient answers from what they know of
their past, never from the present episode. `evidence` looks, best first, in:
1. history items (family history excepted: that is someone else) that mention the topic;
2. symptoms and history items whose name says they are earlier episodes ("previous similar
   attacks", "episodio previo", "右上腹绞痛史") and mention the topic;
3. sentences of the story and symptom descriptions that speak of the past ("Over the past
   year I've had the odd brief flutter") and mention the topic;
4. for a question about the problem in general ("Has this happened before?"), any symptom
   or history item named as an earlier episode.
The topic is the symptoms the question names, else the main symptoms; or, when the question
names something that is no symptom ("Have you ever had a stroke?"), its content words.
Nothing found means the record knows of no earlier episode.

Also: placeholders that say nothing was recorded, and story sentences that tell a kind of
history the record has no item for (imported records often name medicines only there).

Must not import: anything but the standard library and core (agents.intents,
agents.matching, agents.questions, case).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.agents import intents
from core.caseindex.matching import contains, cue_hit, is_cjk, normalise
from core.agents.questions import STOPWORDS, content_words, found_in
from core.case import PatientProfile
from core.scripts import is_hangul

# Words of a question about earlier episodes that say nothing about what the episode was.
PAST_FILLER = frozenset("""
similar happened happen happens occurred same episode episodes before
previously previous ever again first time like such once prior earlier past
pasado pasa paso pasaba ocurrido parecido parecida similar igual asi antes vez veces
episodio episodios primera anterior anteriormente previamente habia
deja arrive arrivee pareil pareille semblable similaire comme ca avant fois premiere
episode episodes auparavant precedemment
schon einmal mal fruher vorher ahnliches ahnlich passiert gehabt erste erstes ersten zuvor
jemals primer primero premier
पहले कभी भी ऐसा ऐसी ऐसे बार पहली हुआ हुई हुए इससे तरह पिछली
قبلا قبلاً هم اینطور این‌طور اینجوری بار اولین دفعه شده بود پیش چنین مشابه
""".split())
PAST_FILLER = frozenset(normalise(w) for w in PAST_FILLER)
# Korean stems (after `questions.korean_stem`) of past-question filler.
_PAST_FILLER_KO = frozenset("전 전에 전에도 예전 예전에 이전 이전에 과거 과거에 이런 그런 비슷 "
                            "비슷한 처음 "
                            "지난번 또 번 적 있 있으".split())
_PAST_FILLER_ZH = ("以前", "之前", "过去", "这样", "这种", "类似", "情况", "第一次", "有过", "曾经",
                   "发作", "样的")
_PAST_KINDS = ("past_medical", "surgical")
_EPISODE_NAME = re.compile(
    r"\b(?:previous|prior|similar|recurrent|earlier|history|episodes|attacks|"
    r"previo|previa|previos|anterior|anteriores|antes|precedent|precedents|anterieur|"
    r"anterieurs|fruher|fruhere|vorherige)\b|पिछल|पुरान|قبلی|سابقه|이전|과거|예전")
_EPISODE_NAME_ZH = ("史", "以前", "既往", "之前")


@dataclass(frozen=True)
class Topic:
    """What an earlier-episode question is about."""

    terms: tuple[str, ...]  # normalised symptom names and synonyms
    names: tuple[str, ...]  # normalised symptom names alone (their words count too)
    content: tuple[str, ...]  # the question's own content words, filler removed
    general: bool  # about "this", the problem in general


def question_content(question: str) -> list[str]:
    """Content words of a question, past-question filler removed."""
    out = []
    for w in content_words(question):
        if is_hangul(w):
            if w not in _PAST_FILLER_KO:
                out.append(w)
        elif is_cjk(w):
            for filler in _PAST_FILLER_ZH:
                w = w.replace(filler, "")
            if len(w) >= 2:
                out.append(w)
        elif w not in PAST_FILLER:
            out.append(w)
    return out


def is_episode_name(names: list[str]) -> bool:
    """True if an entry's name says it is about earlier episodes."""
    return any(_EPISODE_NAME.search(normalise(n)) or any(z in n for z in _EPISODE_NAME_ZH)
               for n in names if n)


def score(text: str, topic: Topic) -> int:
    """How plainly stored text is about the topic: 2 names it (or all the question's
    content words), 1 shares a word with a symptom's name, 0 not at all."""
    norm = normalise(text)
    if any(t and (contains(norm, t) or is_cjk(t) and len(t) >= 2 and found_in(t, norm))
           for t in topic.terms):
        return 2
    if topic.content:
        hits = sum(found_in(w, norm) for w in topic.content)
        n = len(topic.content)
        if hits == n or n > 2 and 3 * hits >= 2 * n:
            return 2
        if not topic.names:
            return 0
    words = {w for t in topic.names for w in t.split()
             if not is_cjk(w) and len(w) >= 3 and w not in STOPWORDS}
    return 1 if any(found_in(w, norm) for w in words) else 0


# A sentence ends at . ! ? followed by a space (not the point of "5.4 kg"), or at a Chinese
# full stop; optionally at a semicolon too.
_ENDS = re.compile(r"(?<=[.!?؟])\s+|(?<=[。！？।])\s*")
_ENDS_SEMI = re.compile(r"(?<=[.!?;؟؛])\s+|(?<=[。！？；।])\s*")


def sentences(text: str, semicolons: bool = True) -> list[str]:
    """The sentences of stored text (clauses after semicolons too, unless told not)."""
    return [s.strip() for s in (_ENDS_SEMI if semicolons else _ENDS).split(text) if s.strip()]


def about_topic(text: str, topic: Topic) -> str:
    """The sentences of a text that are about the topic (all of it if none alone is)."""
    picked = [s for s in sentences(text) if score(s, topic)]
    return " ".join(picked) if picked else text


def evidence(profile: PatientProfile, topic: Topic) -> list[str]:
    """Stored texts that tell of earlier episodes of the topic, best first."""
    found: list[tuple[int, int, str]] = []
    history = [h for h in profile.history if h.kind != "family" and not is_placeholder(h.text)]
    for h in history:
        text = about_topic(h.text, topic)
        names = [n for n in (h.name, *h.synonyms) if n]
        hit = max([score(h.text, topic), *(score(n, topic) for n in names)])
        episode = is_episode_name(names)
        # A past illness asked by name is the past whatever the wording ("I've got type 2
        # diabetes"), and so is past medical and surgical history; other text about a
        # present symptom must speak of the past.
        if hit and (topic.content and not topic.names or episode or h.kind in _PAST_KINDS
                    or intents.mentions_past(text)):
            found.append((hit + episode, len(found), text))
    entries = [(s.description, [s.name, *s.synonyms], s.present) for s in profile.symptoms()
               if s.description]
    for text, names, present in entries:
        if is_episode_name(names):
            # Named earlier episodes of what was asked, not of something sharing a word
            # ("elevated mood episodes" are no earlier episode of low mood); a record that
            # there were some says more than one that there were none.
            hit = max([score(text, topic), *(score(n, topic) for n in names)])
            if hit == 2 or topic.general:
                found.append((hit + int(present), len(found), text))
    story = sentences(profile.history_of_present_illness or "")
    story += [s.description for s in profile.symptoms() if s.present and s.description]
    for sentence in story:
        if intents.mentions_past(sentence, strict=True) and score(sentence, topic):
            found.append((score(sentence, topic), len(found), sentence))
    return list(dict.fromkeys(text for _, _, text in sorted(found, key=lambda f: (-f[0], f[1]))))


_PLACEHOLDER = re.compile(
    r"^(?:information |details? |data )?(?:not|none) (?:provided|available|documented|"
    r"recorded|given|reported|specified)|^no (?:additional |further |other )?(?:information|"
    r"symptoms?|details?|data) (?:provided|available|documented|recorded|given)|^(?:unknown|"
    r"n a|na|none provided|not applicable)$")


def is_placeholder(text: str) -> bool:
    """True for record text that only says nothing was recorded ("Information not
    provided."): the patient has nothing to say about it, and never reads it out."""
    return bool(_PLACEHOLDER.search(normalise(text)))


# A sentence that tells what the patient takes ("She has been on natalizumab for the past
# year", "a stable regimen of lisinopril, simvastatin and omeprazole").
_MEDICINE = re.compile(
    r"\b\w+(?:mab|nib|pril|sartan|statin|olol|prazole|azole|cillin|mycin|cycline|floxacin|"
    r"dipine|parin|xaban|gatran|gliptin|formin|azepam|oxetine|triptan|solone|thiazide|"
    r"semide|profen|phen|amol|oxacin)\b|\b(?:treated with|regimen|taking|takes|prescribed|"
    r"started on|medication|medications|medicine|tablets|pills)\b")


def told_elsewhere(profile: PatientProfile, kinds: set[str],
                   kind_cues: dict[str, list[str]]) -> list[str]:
    """Where a kind of history the record has no item for is told: the sentences of other
    history items, else of the story, that hold the cue words the question used ("no
    history of similar illness in the family" in the social history), or for medicines
    that name one ("she has been on natalizumab" in the story). `kind_cues` holds, per
    kind asked, the cues the question used."""
    def tells(sentence: str) -> bool:
        norm = normalise(sentence)
        return bool("medication" in kinds and _MEDICINE.search(norm) or any(
            cue_hit(norm, kind_cues[k]) for k in kinds if k in kind_cues))

    items = [s for h in profile.history if not is_placeholder(h.text)
             for s in sentences(h.text) if tells(s)]
    return (items or [s for s in sentences(profile.history_of_present_illness or "")
                      if tells(s)])[:2]


def tells_medicine(text: str) -> bool:
    """True if text tells what someone takes (a drug name or a treatment phrase)."""
    return bool(_MEDICINE.search(normalise(text)))


def table_fingerprint() -> list[object]:
    """Everything that decides these readings, for the reproducibility hash."""
    return [sorted(PAST_FILLER), _PAST_FILLER_ZH, _EPISODE_NAME.pattern, _EPISODE_NAME_ZH,
            _PLACEHOLDER.pattern, _MEDICINE.pattern, _JOB.pattern]


_JOB = re.compile(r"\b(?:works?|worked|working|job|employed|employment|occupation|profession|"
                  r"retired|trabaja|trabajo|jubilado|jubilada|travaille|retraite|arbeitet|beruf|"
                  r"rentner|rentnerin)\b|नौकरी|काम करत|شغل|کار می|직장|회사|일해")


def job_sentences(profile: PatientProfile) -> list[str]:
    """Sentences of the history that tell the patient's work ("Works in a construction
    company."), for records that keep no occupation of their own."""
    return [s for h in profile.history if h.kind in ("social", "other")
            for s in sentences(h.text) if _JOB.search(normalise(s))
            or any(j in s for j in ("工作", "职业", "退休"))][:1]
