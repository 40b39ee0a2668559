"""What an answer does, read from its words: deny, affirm, not know, consent, refuse, normal.

Works on any agent's answer, a model's as well as the offline agents': the offline agents'
own stock phrases (every language of `core.agents.templates`) are recognised exactly, and
common wordings in English, Spanish, French, German and Chinese by pattern. Also guesses the
language an answer is written in, from its script, its letters and its function words;
`None` when a short answer gives too little to tell.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from core.caseindex.matching import is_cjk, normalise
from core.agents.templates import PHRASES
from core.language import detect_language
from core.scripts import light, script_of

Stance = Literal["deny", "affirm", "unknown", "consent", "statement"]

_DENY = re.compile(
    r"^(?:no|nope|not|never|none|nothing|neither|nor|nobody|"
    r"i (?:have not|haven t|havent|don t|dont|do not|didn t|did not|am not|m not|ve not|"
    r"ve never|have never|never)|"
    r"(?:it|he|she|they|that|there) (?:isn t|is not|doesn t|does not|hasn t|has not|wasn t|"
    r"didn t|did not|s not|aren t|are not|haven t)|"
    r"sin|ningun|ninguna|ninguno|nunca|nada|nadie|tampoco|"
    r"non|pas|aucun|aucune|rien|jamais|je n|je ne|il n|elle n|ca ne|ce n|"
    r"nein|kein|keine|keinen|nicht|nie|niemals|nichts|ich habe kein|ich hatte kein)\b")
_DENY_ZH = re.compile(r"^(?:没有|没|不|无|未|从来没|从没|从未|并没有)")
_YES = re.compile(r"^(?:yes|yeah|yep|yup|si|oui|ja|jawohl|genau|claro|absolutely|indeed)\b")
_YES_ZH = re.compile(r"^(?:是的|是|有的|有|对|嗯)")
_UNKNOWN = re.compile(
    r"\b(?:i don t know|i do not know|i dont know|not sure|no idea|i can t say|i cannot say|"
    r"haven t been told(?! to)|nobody told me(?! to)|no one told me(?! to)|i m not certain|"
    r"no lo se|yo no se|no sabria|ni idea|"
    r"je ne sais|je sais pas|aucune idee|"
    r"weiss nicht|weis nicht|keine ahnung|kann ich nicht sagen|kann ich nicht genau sagen)\b")
_UNKNOWN_ZH = ("不知道", "不清楚", "说不上来", "不太明白", "不确定", "没有人告诉")
_CONSENT = re.compile(
    r"\b(?:go ahead|of course|sure|that s fine|that s ok|please do|you may|you can|"
    r"adelante|por supuesto|claro que si|puede|desde luego|"
    r"allez y|bien sur|je vous en prie|d accord|allez-y|"
    r"gern|gerne|naturlich|nur zu|in ordnung|selbstverstandlich)\b")
_CONSENT_ZH = ("好的", "可以", "检查吧", "没问题", "行")
_NORMAL = re.compile(
    r"\b(?:normal|normal readings|no abnormality|no abnormalities|unremarkable|within normal "
    r"limits|negative|nothing abnormal|normales|normale|sin alteraciones|"
    r"sans particularite|unauffallig|normalbefund|o b|ohne befund)\b")
_NORMAL_ZH = ("正常", "未见异常", "无异常", "阴性")
# Hindi, Persian and Korean, on the light form (`core.scripts.light`).
_DENY_SOFT = re.compile(r"^(?:नहीं|नही|ना|न|जी नहीं|कोई नहीं|कभी नहीं|बिल्कुल नहीं|نه|نخیر|خیر|"
                        r"هیچ|اصلا|اصلاً|아니|아뇨|없|전혀|안 )")
# Hindi, Persian and Korean put the verb last: a first clause that ends in a negated verb
# ("दौरा नहीं पड़ा", "دوبینی ندارم", "설사는 안 해요") or says it is the first time denies.
_DENY_END_SOFT = re.compile(r"(?:नहीं|नहीं है|नहीं हैं|नहीं था|नहीं थी|नहीं हुआ|नहीं हुई|नहीं पड़ा|"
                            r"नहीं दिखी|नहीं दिखा|पहली बार हुआ है|"
                            r"\s(?:نمی|ندار|نکرد|نشد|نخورد|نبود|ندید|نکش|نگرفت|نرفت)\S*|نیست|نیستم|"
                            r"اولین بار است|없어요|없었어요|않아요|않았어요|안 해요|아니에요|"
                            r"못 했어요|처음이에요|처음입니다)$")
_YES_SOFT = re.compile(r"^(?:हां|जी हां|जी|हाँ|بله|آره|بلی|چرا|네|예|맞아|그럼요)")
_UNKNOWN_SOFT = re.compile(r"पता नहीं|मालूम नहीं|नहीं पता|नहीं मालूम|समझ नहीं|कोई नतीजा नहीं|"
                           r"نمی دانم|نمیدانم|نمی‌دانم|نمیدونم|خبر ندارم|نگفته اند|متوجه نشدم|"
                           r"모르겠|몰라|못 들었|모릅니다")
_CONSENT_SOFT = re.compile(r"जरूर|ज़रूर|बिल्कुल|जांच कर लीजिए|देख लीजिए|حتما|حتماً|بفرمایید|"
                           r"اشکالی ندارد|그럼요|진찰하세요|진찰해 주세요|괜찮아요|네")
_NORMAL_SOFT = re.compile(r"सामान्य|नॉर्मल|नार्मल|नेगेटिव|طبیعی|نرمال|منفی|정상|음성|이상 없")


@lru_cache(maxsize=1)
def _stock() -> dict[str, str]:
    """The offline agents' stock phrases, normalised, to what they mean."""
    meaning = {"absent_generic": "deny", "no_more": "deny", "wh_unknown": "unknown",
               "dont_know": "unknown", "no_diagnosis": "unknown", "no_results": "unknown",
               "not_before": "deny", "consent": "consent", "refusal": "refusal",
               "unknown_test": "unknown_test"}
    out: dict[str, str] = {}
    for table in PHRASES.values():
        for key, value in table.items():
            base = key.split("@")[0]
            if base in meaning and "{" not in value:
                out[normalise(value)] = meaning[base]
    return out


def stock_meaning(answer: str) -> str | None:
    """What an offline agent's stock phrase means ('deny', 'refusal', ...), if it is one."""
    return _stock().get(normalise(answer))


def stance(answer: str) -> Stance:
    """What a patient answer does: deny, affirm, not know, consent, or state something."""
    stock = stock_meaning(answer)
    if stock in ("deny", "unknown", "consent"):
        return stock  # type: ignore[return-value]
    text = answer.strip()
    key = normalise(text)
    if script_of(text) in ("devanagari", "arabic", "hangul"):
        soft = light(text).lstrip("،, ")
        if _UNKNOWN_SOFT.search(soft):
            return "unknown"
        first = re.split(r"[,;।.؟?،!]", soft)[0].strip()
        if _DENY_SOFT.match(soft) or _DENY_END_SOFT.search(" " + first):
            return "deny"
        return "affirm" if _YES_SOFT.match(soft) else "statement"
    if is_cjk(text):
        core = text.lstrip("，,。 ")
        if any(u in core for u in _UNKNOWN_ZH):
            return "unknown"
        if _DENY_ZH.match(core):
            return "deny"
        return "affirm" if _YES_ZH.match(core) else "statement"
    if _DENY.match(key):
        return "deny"
    if _YES.match(key):
        return "affirm"
    if _UNKNOWN.search(key) or key.startswith(("no se ", "no sabe ")) or key == "no se":
        return "unknown"
    return "statement"


def consents(answer: str) -> bool:
    """True if the answer agrees to be examined."""
    if stock_meaning(answer) == "consent":
        return True
    if script_of(answer) in ("devanagari", "arabic", "hangul"):
        soft = light(answer)
        return bool(_CONSENT_SOFT.search(soft)) and not _DENY_SOFT.match(soft)
    if is_cjk(answer):
        return any(c in answer for c in _CONSENT_ZH) and not _DENY_ZH.match(answer.strip())
    key = normalise(answer)
    return bool(_CONSENT.search(key) or _YES.match(key)) and not _DENY.match(key)


def is_refusal(answer: str) -> bool:
    """True if an examiner answer refuses the request (asks for specific test names)."""
    if stock_meaning(answer) == "refusal":
        return True
    key = normalise(answer)
    return bool(re.search(r"\b(?:specific|which|name the|especifi|concret|precis|konkret|"
                          r"welche)\w*\b.*\b(?:test|exam|prueba|exploraci|examen|untersuch)",
                          key)) or ("具体" in answer and "检查" in answer) or bool(re.search(
        r"कौन-से|कौन से|कौनसे|کدام|구체적", light(answer)) and re.search(
        r"टेस्ट|जांच|آزمایش|معاینه|검사|진찰", light(answer)))


@lru_cache(maxsize=1)
def _unknown_test_tails() -> tuple[str, ...]:
    """The offline examiner's "not a test I know" sentences without the name they quote
    ("{text}: not a test I know — …"), normalised, in every language."""
    tails = []
    for table in PHRASES.values():
        text = table.get("unknown_test", "")
        if "{text}" in text:
            tail = normalise(text.split("{text}", 1)[1])
            if tail:
                tails.append(tail)
    return tuple(tails)


def says_unknown_test(answer: str) -> bool:
    """True if an examiner answer says a name is not a test it knows."""
    key = normalise(answer)
    if any(tail in key for tail in _unknown_test_tails()):
        return True
    return stock_meaning(answer) == "unknown_test" or bool(re.search(
        r"\b(?:not a test i know|don t know (?:a|any|the|that) test|unknown test|"
        r"no conozco|ne connais pas|kenne ich nicht|kenne keine)\b", normalise(answer))) \
        or "不认识" in answer or "没有这项检查" in answer or bool(re.search(
            r"कोई टेस्ट मुझे नहीं पता|نمی شناسم|검사는 모르겠", light(answer)))


def says_normal(text: str) -> bool:
    """True if a result line says the finding is normal (any supported language). Every
    script's words are looked for, whatever script the line is mostly in: a line that
    quotes an English test name says "normal" in the case's language ("urine culture:
    طبیعی", "basic metabolic panel: 정상")."""
    if any(n in text for n in _NORMAL_ZH) or _NORMAL_SOFT.search(light(text)):
        return True
    return bool(_NORMAL.search(normalise(text)))


# -- language: `core.language` (the importers read case files with it too) -------------------
language_of = detect_language
