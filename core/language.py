"""Which language a text is written in, from its script, its letters and its function words.

A small detector of our own (no model, no download): Devanagari is Hindi, Hangul Korean,
Chinese characters Chinese, Arabic script with Persian letters Persian; Latin text is scored
on function words and accented letters of English, Spanish, French and German. `None` when a
short text gives too little to tell. The fidelity checks use it on answers ("language
kept"), the importers on case files (an AgentClinic file in Korean stays Korean).
"""

from __future__ import annotations

from core.caseindex.matching import is_cjk, normalise
from core.scripts import is_hangul, script_of

_FUNCTION_WORDS = {
    "en": set("i my me the a an and is it was have has had of to in with not no yes you "
              "been this that for on at my i m i ve don t it s".split()),
    "es": set("el la los las un una y es no si de que en con mi me por para lo se del al "
              "muy tengo tiene he ha pero como mas".split()),
    "fr": set("le la les un une et est je j ai pas de du des en avec mon ma mes ne que "
              "il elle c ce qui sur pour tres depuis".split()),
    "de": set("der die das ein eine und ist ich nicht mit mein meine hat habe haben von zu "
              "es sie er auf den dem auch kein keine seit".split()),
}
_LETTERS = {"es": "ñ¿¡", "fr": "çœèêàùâîô", "de": "äöüß"}


# Letters that only Persian writes among the Arabic-script languages (پ چ ژ گ and the
# Persian yeh and kaf), against Arabic's own (ة ى ي ك).
_PERSIAN = set("پچژگیک")
_ARABIC_ONLY = set("ةىيك")


def detect_language(text: str) -> str | None:
    """The language a text is written in (en, es, fr, de, zh, hi, fa, ko), or None if
    unclear."""
    script = script_of(text)
    if script == "devanagari":
        return "hi"
    if script == "hangul" or is_hangul(text) and script == "han":
        return "ko"
    if script == "arabic":
        persian = sum(c in _PERSIAN for c in text)
        return "fa" if persian >= sum(c in _ARABIC_ONLY for c in text) else None
    if is_cjk(text):
        cjk = sum(1 for c in text if is_cjk(c))
        letters = sum(1 for c in text if c.isalpha())
        return "zh" if cjk * 2 >= letters else None
    words = normalise(text).split()
    if len(words) < 3:
        return None
    low = text.lower()
    scores = {lang: sum(w in fw for w in words) for lang, fw in _FUNCTION_WORDS.items()}
    for lang, marks in _LETTERS.items():
        scores[lang] += 2 * sum(low.count(c) for c in marks)
    best = max(scores, key=lambda k: scores[k])
    ranked = sorted(scores.values(), reverse=True)
    if ranked[0] < 2 or ranked[0] == ranked[1]:
        return None
    return best


def case_language(texts: list[str]) -> str | None:
    """The BCP-47 tag of a case written in these texts ("zh-Hans" for Chinese), or None when
    they do not tell."""
    found = detect_language(" ".join(t for t in texts if t))
    return "zh-Hans" if found == "zh" else found
