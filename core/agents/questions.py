"""What kind of question a doctor asked, and which of its words carry content.

`kind()` tells a yes/no question ("Do you feel dizzy?", "¿Tiene náuseas?", "Haben Sie
Fieber?", "有腹痛吗？") from a wh-question ("What did you eat?", "¿Qué comió?", "吃了什么？")
so that an unanswerable yes/no question gets a denial and an unanswerable wh-question a
"nothing unusual, as far as I know". `content_words()` drops question words, pronouns and
generic symptom words ("pain", "feel"), leaving what the question is about ("shoulder",
"breathe", "腹痛"): the patient searches its own story for those before denying.

Must not import: anything but the standard library and core.agents (matching, templates,
vocab_symptoms).
"""

from __future__ import annotations

from typing import Literal

from core.caseindex.matching import contains, is_cjk, normalise
from core.agents.templates import lang_key
from core.agents.vocab_symptoms import WORD_EQUIVALENTS

Kind = Literal["yesno", "wh", "other"]

_WH = {
    "en": {"what", "when", "where", "why", "how", "which", "who", "whose", "whom"},
    "es": {"que", "cuando", "como", "donde", "cuanto", "cuanta", "cuantos", "cuantas", "por",
           "cual", "cuales", "quien", "quienes", "desde"},
    "fr": {"que", "qu", "quoi", "quand", "comment", "ou", "combien", "pourquoi", "quel",
           "quelle", "quels", "quelles", "qui", "depuis"},
    "de": {"was", "wann", "wie", "wo", "warum", "wieso", "weshalb", "welche", "welcher",
           "welches", "welchen", "wer", "wem", "wen", "woher", "wohin", "womit", "seit"},
}
_EMBEDDED_WH = {"what", "which", "how", "where", "who", "why"}  # "can you tell me what …"
_AUX = {"do", "does", "did", "have", "has", "had", "are", "is", "was", "were", "can", "could",
        "will", "would", "any", "anything", "ever", "should", "may", "might", "shall"}
_ZH_YESNO = ("吗", "有没有", "是不是", "是否", "会不会", "能不能", "有无", "疼不疼", "痛不痛")
_ZH_WH = ("什么", "哪", "怎么", "怎样", "多久", "多长", "多少", "几", "为什么", "谁", "何时",
          "如何")

STOPWORDS = frozenset("""
a an the and or but if of to in on at by for with from about into over under up down out off
i you your yours yourself me my we our he she it its they them their this that these those
there here do does did done have has had having be is are was were been being am can could
will would shall should may might must any anything some something ever never not no yes
what when where why how which who whom whose much many more most very really quite just
also too so than then now today lately recently currently still again please tell let know
feel feeling felt notice noticed experience experienced get got getting go going gone
pain pains painful hurt hurts hurting ache aches aching sore problem problems trouble
issue issues symptom symptoms sign signs kind sort type bit little lot bad worse better
right left side like way time times day days week weeks thing things doctor okay ok well
describe anywhere somewhere else other another been had can could would please
one two three four five six seven eight nine ten zero hundred scale
try tried trying ask asking talk talking discuss question questions change changed changes
exactly precisely specifically roughly approximately usually normally generally
normal usual ordinary ve ll re home house
kann muss soll will darf hat hatte war wird wurde ist sind koennen
make makes made bother bothers bothering bothered point above below
able manage managing keep keeping enough without own properly
que de la el los las un una unos unas y o en con por para su sus usted le lo me mi mis se
al del esto eso esta este
tiene ha has he hay algo alguna alguno algun ningun nada mas muy tambien cuando como donde
dolor duele molestia molestias sintoma sintomas nota siente sentido puede podria ha
le la les des du un une et ou en avec pour par sur dans vous votre vos je mon ma mes il
elle est avez etes a ai quelque chose pas plus tres aussi mal douleur douleurs ressentez
sentez remarque pouvez pourriez au aux ce cet cette ceci voyez voir vois ressentez
der die das den dem des ein eine einen einem und oder in mit fur auf bei von zu sie ihr
ihre ihnen ich mein meine es ist sind haben hatten hat etwas kein keine nicht auch sehr
noch schmerz schmerzen tut weh gefuhl beschwerden bemerkt konnen konnten mochten wurden
mussen bitte mal genau einmal uns zu zum zur vom im am beim dies diese dieser
""".split())
_ZH_STOP = ("您好", "请问", "您", "你", "我", "有没有", "是不是", "没有", "有", "吗", "呢", "吧",
            "的", "了", "是", "不", "会", "过", "还", "最近", "现在", "觉得", "感觉", "这个",
            "那个", "这种", "一下", "一点", "什么", "怎么", "时候", "哪里", "医生", "好", "呀",
            "疼", "痛", "在", "吃了", "吗", "都")


def kind(question: str, lang: str) -> Kind:
    """Whether a question expects yes/no, a piece of information (wh), or neither."""
    key = lang_key(lang)
    text = question.strip()
    if is_cjk(text):
        core = text.rstrip("？?。！! ")
        if core.endswith("吗") or any(p in core for p in _ZH_YESNO[1:]):
            return "yesno"
        return "wh" if any(w in core for w in _ZH_WH) else "other"
    words = normalise(text).split()
    if not words:
        return "other"
    wh = _WH["en"] | _WH.get(key[:2], set())
    if words[0] in wh:
        return "wh"
    if words[0] in _AUX or "any" in words:
        return "wh" if _EMBEDDED_WH & set(words[1:]) and words[0] in ("can", "could") \
            else "yesno"
    # Spanish, French and German yes/no questions need no auxiliary: "¿Tiene fiebre?",
    # "Avez-vous mal ?", "Haben Sie Fieber?".
    return "yesno" if text.endswith(("?", "？")) else "other"


def content_words(question: str) -> list[str]:
    """The words (or, for Chinese, two-character chunks) a question is about."""
    text = normalise(question)
    out: list[str] = []
    for word in text.split():
        if is_cjk(word):
            out.extend(_cjk_chunks(word))
        elif word not in STOPWORDS and not word.isdigit() and len(word) > 1:
            out.append(word)
    return list(dict.fromkeys(out))


def _cjk_chunks(word: str) -> list[str]:
    for stop in sorted(_ZH_STOP, key=len, reverse=True):
        word = word.replace(stop, " ")
    return word.split()


def found_in(word: str, text: str) -> bool:
    """True if a content word occurs in normalised text (inflections allowed, and the
    everyday equivalents of `WORD_EQUIVALENTS`: "lost" finds "loss", "ate" finds "eat")."""
    if is_cjk(word):
        if len(word) == 1:
            return word in text
        return any(word[i:i + 2] in text for i in range(len(word) - 1))
    return _inflected_in(word, text) or any(
        contains(text, e) or _inflected_in(e, text) for e in WORD_EQUIVALENTS.get(word, ()))


def _inflected_in(word: str, text: str) -> bool:
    padded = f" {text} "
    stem = _stem(word)
    if len(stem) <= 3:  # too short to be a safe prefix: "tired" must not find "tiritona"
        # "put" finds "putting", "stop" finds "stopped" (a doubled last letter).
        ends = (*_ENDINGS, *(stem[-1] + e for e in ("ing", "ed", "er")))
        return any(f" {stem}{end} " in padded for end in ends) or f" {word} " in padded
    return f" {stem}" in padded


# Inflections a short stem may take ("wake" finds "waking", "cry" finds "crying").
_ENDINGS = ("", "e", "s", "es", "ed", "ing", "er", "y", "ies", "ied")


def _stem(word: str) -> str:
    """The word less one inflection ("breathe" → "breath", "legs" → "leg", "diabetic" →
    "diabet", Spanish "hinchadas" → "hinchad")."""
    for suffix in ("ically", "ical", "ing", "ed", "as", "os", "es", "ic", "s", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= (5 if suffix in (
                "as", "os") else 3):
            return word[: -len(suffix)]
    if word.endswith(("a", "o")) and len(word) >= 7:  # "hinchada", "hinchado"
        return word[:-1]
    return word
