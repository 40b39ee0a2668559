"""Writing systems: which script a text is in, and the letter variants every matcher folds.

Shared by the agents' matching (`core.caseindex.matching`), the moderator's normal form
(`core.clinical_text.normal`), the fidelity checks and the play screen, so that all of them
read Hindi, Persian and Korean alike:
- Devanagari (Hindi): the vowel signs are combining marks that Python's `\\w` does not
  match, so a word such as "सीने" would fall apart at every sign; `WORD_MARKS` keeps them
  inside the word. Spelling variants are folded: chandrabindu as anusvara (हाँ/हां), a
  nasal consonant with virama before a stop as anusvara (हिन्दी/हिंदी), the English
  "o" sign as "aa" (डॉक्टर/डाक्टर), nukta and virama dropped by the callers' accent removal.
- Arabic script (Persian): Arabic yeh and kaf as the Persian letters (ي/ی, ك/ک), heh
  variants as heh, tatweel dropped, the zero-width non-joiner (نیم‌فاصله) as a space, so
  "می‌خواهم" and "می خواهم" are one text; the short vowels are combining marks the callers
  drop. Persian and Arabic-Indic digits become ASCII digits.
- Hangul (Korean): kept composed (NFC); NFKD would split every syllable into jamo.
Nothing here changes what is stored or shown: only the forms that are compared.

Must not import: anything but the standard library.
"""

from __future__ import annotations

import re
import unicodedata

DEVANAGARI = "\u0900-\u097f"
ARABIC = "\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff"
HANGUL = "\uac00-\ud7af\u1100-\u11ff\u3130-\u318f"
HAN_KANA = "\u3040-\u30ff\u3400-\u9fff"
# Devanagari signs that belong inside a word (vowel signs, anusvara, visarga, virama, nukta).
WORD_MARKS = "\u0900-\u0903\u093a-\u094f\u0951-\u0957\u0962\u0963"
# Right-to-left letters (Hebrew, Arabic script): lines holding them are reordered for display.
RTL = "\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff"

_DEVANAGARI = re.compile(f"[{DEVANAGARI}]")
_ARABIC = re.compile(f"[{ARABIC}]")
_HANGUL = re.compile(f"[{HANGUL}]")
_HAN = re.compile(f"[{HAN_KANA}]")
_RTL = re.compile(f"[{RTL}]")
_NASAL = re.compile("[ङञणनम]\u094d(?=[क-म])")
_PERSIAN = str.maketrans({
    "ي": "ی", "ى": "ی", "ئ": "ی", "ك": "ک", "ۀ": "ه", "ە": "ه", "ة": "ه", "ـ": None,
    "\u200c": " ", "\u200d": None, "\u200e": None, "\u200f": None,
    **{chr(0x06F0 + i): str(i) for i in range(10)},
    **{chr(0x0660 + i): str(i) for i in range(10)},
})
_HINDI = str.maketrans({"\u0901": "\u0902", "\u0949": "\u093e", "\u0911": "\u0906",
                        **{chr(0x0966 + i): str(i) for i in range(10)}})


def fold_scripts(text: str) -> str:
    """Letter variants of Devanagari and Persian folded to one form (see the docstring);
    other text unchanged. Run before accent removal."""
    if _DEVANAGARI.search(text):
        text = _NASAL.sub("\u0902", text).translate(_HINDI)
    if _ARABIC.search(text):
        text = text.translate(_PERSIAN)
    return text


_NUKTA_HARAKAT = re.compile("[\u093c\u064b-\u065f\u0670]")


def light(text: str) -> str:
    """A light normal form for patterns written in a script's own spelling: lower case,
    letter variants folded, nukta and Arabic short vowels dropped, virama and vowel signs
    kept, spaces collapsed. The intent and stance patterns of Hindi, Persian and Korean
    read this form (the full matching form drops the virama: 'दर्द' → 'दरद')."""
    text = unicodedata.normalize("NFD", fold_scripts(text.casefold()))
    text = unicodedata.normalize("NFC", _NUKTA_HARAKAT.sub("", text))
    return " ".join(text.split())


def compose(text: str) -> str:
    """Text in NFC: Hangul syllables put back together after a decomposition."""
    return unicodedata.normalize("NFC", text) if _HANGUL.search(text) else text


def is_devanagari(text: str) -> bool:
    """True if the text holds Devanagari letters (Hindi)."""
    return bool(_DEVANAGARI.search(text))


def is_arabic_script(text: str) -> bool:
    """True if the text holds Arabic-script letters (Persian)."""
    return bool(_ARABIC.search(text))


def is_hangul(text: str) -> bool:
    """True if the text holds Hangul (Korean)."""
    return bool(_HANGUL.search(text))


def is_han(text: str) -> bool:
    """True if the text holds Chinese characters or Japanese kana (no spaces between
    words), as opposed to Hangul, which spaces its words."""
    return bool(_HAN.search(text))


def has_rtl(text: str) -> bool:
    """True if the text holds right-to-left letters."""
    return bool(_RTL.search(text))


def script_of(text: str) -> str | None:
    """The main script of a text by letter count: 'latin', 'devanagari', 'arabic',
    'hangul', 'han' or None when it has no letters. Latin letters count half: a Korean or
    Hindi line often holds an English abbreviation ("뇌 MRI: 정상")."""
    counts = {"latin": 0.0, "devanagari": 0.0, "arabic": 0.0, "hangul": 0.0, "han": 0.0}
    for ch in text:
        if _DEVANAGARI.match(ch):
            counts["devanagari"] += 1
        elif _ARABIC.match(ch):
            counts["arabic"] += 1
        elif _HANGUL.match(ch):
            counts["hangul"] += 1
        elif _HAN.match(ch):
            counts["han"] += 1
        elif ch.isalpha():
            counts["latin"] += 0.5
    best = max(counts, key=lambda k: counts[k])
    return best if counts[best] else None
