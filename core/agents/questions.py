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

from functools import lru_cache
from typing import Literal

from core.caseindex.matching import KO_PARTICLES, contains, is_cjk, normalise
from core.agents.templates import lang_key
from core.agents.vocab_symptoms import WORD_EQUIVALENTS
from core.scripts import is_arabic_script, is_devanagari, is_hangul

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
# Hindi, Persian and Korean (in the matching form): a wh word anywhere makes a wh-question;
# Hindi "क्या" first and Persian "آیا" first ask yes or no ("क्या आपको बुखार है?").
_WH_WORDS = {
    "hi": "कब कहाँ कहां क्यों कैसे कैसा कैसी कितना कितने कितनी कौन कौनसा कौनसी किस किसने "
          "किसको किसके किसकी",
    "fa": "چه چی چرا کی کجا کجای چطور چطوری چگونه چند چقدر کدام کدوم",
}
_YESNO_FIRST = {"hi": "क्या", "fa": "آیا"}
_KO_WH = ("언제", "어디", "왜", "어떻게", "어떤", "어떠", "얼마", "몇", "무엇", "뭐", "무슨",
          "누구", "누가", "어느")
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
normal usual ordinary ve ll re home house since until till while during all
kann muss soll will darf hat hatte war wird wurde ist sind koennen sich ihn ihm euch
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
हाँ जी आप आपको आपका आपकी आपके आपने आपसे मैं मुझे मेरा मेरी मेरे तुम यह ये वह वो इस उस इसे
उसे इन उन इन्हें उन्हें इनके उनके इनको उनको इनका उनका का की के को में से पर तक ने और या भी
ही तो है हैं था थी थे हो हुआ हुई हुए होता होती होते होना रहा रही रहे रहता रहती कर करते
करती किया कुछ कोई क्या कब कहाँ कहां क्यों कैसे कैसा कैसी कितना कितने कितनी कौन किस अभी
आज कल दर्द तकलीफ़ तकलीफ परेशानी दिक्कत समस्या लगता लगती लगा लगी महसूस बहुत ज़्यादा ज्यादा
थोड़ा डॉक्टर साहब बताइए बताइये बताएं बताओ कृपया ठीक सा सी वाला वाली वाले पहले कभी नहीं न
अपने अपना अपनी जब तब हम हमें लिए साथ बाद बारे कोई किसी सकते सकती सकता पाते पाती
آیا شما من او ایشان این آن ها های هایی را از به با در که و یا هم تا برای چه چی کی کجا
چرا چطور چطوری چقدر چند کدام است هست هستید دارید داری دارد دارم داشتید داشته بود بودید شد
شده شدید می نمی کرد کنید کردید کرده تان تون ات اش ام اید ی ای یک یه خیلی کمی زیاد درد مشکل
ناراحتی احساس حس دکتر لطفا لطفاً بگویید بفرمایید چیزی کسی هیچ الان امروز اخیرا اخیراً قبلا
قبلاً حال حالتان وقت تر ترین هیچ‌وقت وجود کند کنه کنم کنی کنیم کنند شود شه شوید کرده کردن دهد
دهید زند آید آمد رود میره کشد کشید گیرد گیرید بیمار مریض جایی جا
उन्होंने उनको इन्होंने इनको वे मरीज़ मरीज सब ये यह सारा सारी रही रहे रहा ज़रा जरा कहीं आते आता
आती आना आया आई आए लगते लग थीं
موقع وقتی داشت داشتی داشتید دارد
""".split())
# Every list is compared with words in the matching form (`normalise`): Hindi words lose
# their virama there ("दर्द" → "दरद"), so the lists are put in that form once.
STOPWORDS = frozenset(normalise(w) for w in STOPWORDS)
# Korean stems (after `korean_stem`) that carry no content.
KO_STOP = frozenset("""
혹시 지금 요즘 최근 좀 많이 조금 아주 너무 그냥 어떤 어떻게 언제 어디 왜 무슨 뭐 얼마나 얼마 몇
있 있으 있으세 있었 없 없으 하 하시 드 드시 계 선생님 환자분 환자 그런 이런 저런 것 거 게 때
적 아프 아파 아픈 통증 불편 불편하 느끼 느껴 느낌 증상 같 같은 혹 네 예 자주 항상 전혀 다시
나 났 나세 나시 생기 생겼 생긴 생기셨 되 됐 되셨 받 받으 받으셨 보 봤 보셨 해 했 하셨 가 갔 오
왔 들 주 주세 알 아시 모르 있다 없다 다 또 더 정도 쪽 부분 번 한번 평소 보통 원래 드신 드셨 드시
그랬 그렇 그래 설명 주시 주시겠 다른 데 데로 기도 하기 인지 있었 오래 중 분 계 계세 앓 앓는 몸 잘 많
본 볼 봐 봤어
""".split())
_ZH_STOP = ("您好", "请问", "您", "你", "我", "有没有", "是不是", "没有", "有", "吗", "呢", "吧",
            "的", "了", "是", "不", "会", "过", "还", "最近", "现在", "觉得", "感觉", "这个",
            "那个", "这种", "一下", "一点", "什么", "怎么", "时候", "哪里", "医生", "好", "呀",
            "疼", "痛", "在", "吃了", "吗", "都")


# Every language's question words, in the matching form ("wie", "cuanto", "कब", "چطور").
QUESTION_WORDS = frozenset(normalise(w) for w in [
    *(w for words in _WH.values() for w in words), *_KO_WH,
    *(w for words in _WH_WORDS.values() for w in words.split())])


def kind(question: str, lang: str) -> Kind:
    """Whether a question expects yes/no, a piece of information (wh), or neither."""
    key = lang_key(lang)
    text = question.strip()
    if is_hangul(text):
        words = normalise(text).split()
        if any(w.startswith(_KO_WH) for w in words):
            return "wh"
        return "yesno" if text.endswith(("?", "？")) or text.rstrip(".").endswith(
            ("나요", "까요", "니까", "세요", "어요", "아요", "죠", "가요")) else "other"
    if key in _WH or not is_cjk(text) and _script_wh(text) is not None:
        found = _script_wh(text)
        if found is not None:
            return found
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


@lru_cache(maxsize=1)
def _wh_tables() -> tuple[dict[str, frozenset[str]], dict[str, str]]:
    return ({k: frozenset(normalise(w) for w in v.split()) for k, v in _WH_WORDS.items()},
            {k: normalise(v) for k, v in _YESNO_FIRST.items()})


def _script_wh(text: str) -> Kind | None:
    """The kind of a Hindi or Persian question, None for other scripts."""
    lang = "hi" if any("\u0900" <= c <= "\u097f" for c in text) else \
        "fa" if any("\u0600" <= c <= "\u06ff" for c in text) else None
    if lang is None:
        return None
    wh, first = _wh_tables()
    words = normalise(text).split()
    if not words:
        return "other"
    if set(words) & wh[lang]:
        return "wh"
    if words[0] == first[lang]:
        return "yesno"
    if lang == "hi" and first["hi"] in words[:-1]:
        return "wh"  # "आपको क्या हुआ?": what happened ("… है क्या?" last asks yes or no)
    return "yesno" if text.rstrip().endswith(("?", "؟", "？")) else "other"


def content_words(question: str) -> list[str]:
    """The words (or, for Chinese, two-character chunks) a question is about."""
    text = normalise(question)
    out: list[str] = []
    for word in text.split():
        if is_hangul(word):
            stem = korean_stem(word)
            if stem and stem not in KO_STOP and word not in KO_STOP:
                out.append(stem)
        elif is_cjk(word):
            out.extend(_cjk_chunks(word))
        elif word not in STOPWORDS and not word.isdigit() and len(word) > 1:
            stem = persian_stem(word) if is_arabic_script(word) else word
            if stem not in STOPWORDS:
                out.append(stem)
    return list(dict.fromkeys(out))


# "X or Y" in every language written with spaces: either alternative answers.
_OR = frozenset(normalise(w) for w in "or o u ou oder या یا".split())


def slots(question: str, content: list[str]) -> list[tuple[str, ...]]:
    """A question's content words as slots an answer must fill: one word each, or the two
    alternatives of "X or Y" together ("Does it go to your shoulder or back?" is answered
    by the shoulder alone; "blood in your urine or stool?" still needs the blood)."""
    words = normalise(question).split()
    pairs = {}
    for i in range(1, len(words) - 1):
        if words[i] not in _OR:
            continue
        # The content words next to "or", past a filler or two ("your back or your
        # shoulder").
        before = next((w for w in reversed(words[max(0, i - 3):i]) if w in content), None)
        after = next((w for w in words[i + 1:i + 4] if w in content), None)
        if before and after and before != after:
            pairs[before], pairs[after] = after, before
    out: list[tuple[str, ...]] = []
    for w in content:
        if w in pairs:
            if pairs[w] in {x for slot in out for x in slot}:
                continue
            out.append((w, pairs[w]))
        else:
            out.append((w,))
    return out


# Persian suffixes written onto a word (plural, possessive pronouns, the indefinite and
# ezafe -ی): "کمرتان" (your back) is about "کمر".
_FA_SUFFIXES = ("هایتان", "هایشان", "هایمان", "هایم", "هایت", "هایش", "هایی", "های", "ها",
                "یتان", "یشان", "تان", "شان", "مان", "ترین", "تر", "ی", "م", "ت", "ش")


# Hindi endings in the matching form (virama dropped), longest first: plural and oblique
# nouns, verb forms ("मांसपेशियाँ" and "मांसपेशियों" are one word, "फड़क रही" finds "फड़कना").
_HI_ENDINGS = tuple(sorted({"ियों", "ियां", "िया", "ियो", "ाओं", "ाएं", "ाएंगे", "ों", "ें",
                            "ना", "ने", "नी", "ता", "ती", "ते", "ा", "ि", "ी", "ु", "ू",
                            "े", "ै", "ो", "ौ", "ं"}, key=len, reverse=True))


def hindi_stem(word: str) -> str:
    """A Hindi word less one inflectional ending, at least two letters left ("घटा" →
    "घट", which finds "घटना")."""
    for end in _HI_ENDINGS:
        if word.endswith(end) and len(word) - len(end) >= 2:
            return word[: -len(end)]
    return word


def persian_stem(word: str) -> str:
    """A Persian word less one suffix (plural, possessive, -ی), at least three letters left."""
    for end in _FA_SUFFIXES:
        if word.endswith(end) and len(word) - len(end) >= 3:
            return word[: -len(end)]
    return word


# Korean endings, longest first: particles after nouns, and the polite endings of verbs
# and adjectives ("토하셨어요" → "토하", "가슴이" → "가슴").
_KO_ENDINGS = tuple(sorted({
    *KO_PARTICLES, "에서는", "에서도", "으로는", "이라고", "에게", "한테", "처럼", "보다",
    "께서", "으세요", "으셨어요", "으셨나요", "셨어요", "셨나요", "셨습니까", "으신가요",
    "신가요", "세요", "시나요", "나요", "까요", "습니까", "니까", "어요", "아요", "해요",
    "했어요", "었어요", "았어요", "였어요", "는지", "은지", "ㄴ지", "지요", "죠", "고요",
    "거나", "시고", "하고", "하세요", "하셨어요", "하시나요", "하신", "하는", "한", "할",
    "되세요", "되나요", "됐어요", "되었어요", "인지", "적", "게", "지", "고", "면", "서"} - {""},
    key=len, reverse=True))


def korean_stem(word: str) -> str:
    """A Korean word less one ending (particle or polite verb ending), at least one
    syllable left."""
    for end in _KO_ENDINGS:  # (longest first)
        if word.endswith(end) and len(word) > len(end):
            return word[: -len(end)]
    return word


def _cjk_chunks(word: str) -> list[str]:
    for stop in sorted(_ZH_STOP, key=len, reverse=True):
        word = word.replace(stop, " ")
    return word.split()


def found_in(word: str, text: str) -> bool:
    """True if a content word occurs in normalised text (inflections allowed, and the
    everyday equivalents of `WORD_EQUIVALENTS`: "lost" finds "loss", "ate" finds "eat")."""
    if is_hangul(word):
        if len(word) >= 2:
            # "노래졌" (turned yellow) finds "노래짐": a verb's last syllable inflects.
            return word in text or len(word) >= 3 and word[:-1] in text or any(
                e in text for e in WORD_EQUIVALENTS.get(word, ()))
        return any(w.startswith(word) for w in text.split())
    if is_devanagari(word):
        stem = hindi_stem(word)
        return any(w.startswith(stem) for w in text.split())
    if is_cjk(word):
        if len(word) == 1:
            return word in text
        return any(word[i:i + 2] in text for i in range(len(word) - 1))
    # The equivalents of the word as written and of its stem ("lumps" as "lump").
    equivalents = WORD_EQUIVALENTS.get(word) or WORD_EQUIVALENTS.get(_stem(word), ())
    return _inflected_in(word, text) or any(
        contains(text, e) or _inflected_in(e, text) for e in equivalents)


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
    if word.endswith(("ier", "iest")) and len(word) >= 6:  # "fussier" → "fuss"
        return word[: -3 if word.endswith("ier") else -4]
    for suffix in ("ically", "ical", "ing", "ed", "as", "os", "es", "ic", "s", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= (5 if suffix in (
                "as", "os") else 3):
            return word[: -len(suffix)]
    if word.endswith(("a", "o")) and len(word) >= 7:  # "hinchada", "hinchado"
        return word[:-1]
    return word
