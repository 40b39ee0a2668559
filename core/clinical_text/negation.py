"""Negation in a diagnosis line: which fragments state an absence and are therefore not
diagnoses at all, and which words inside a name invert it.

- A fragment that opens with a negation (after any hedge: 'probably not STEMI') or closes
  with an excluding verdict states an absence: 'no pneumonia', 'ruled out PE', 'PE ruled
  out', 'MI unlikely', 'kein Infarkt', 'sans pneumopathie', 'sin neumonía', 'Gicht
  ausgeschlossen', '排除心肌梗死', '心肌梗死已排除'. It is dropped, never matched.
- A negated tail is cut: 'pneumonia without effusion' → 'pneumonia'.
- 'non', 'anti' and 'pseudo' do not negate a fragment ('Non-Hodgkin lymphoma' is a
  disease); they invert the word they stand before ('non-ST elevation'), so `link` treats
  the pair as one word. '非' before a Chinese name inverts it the same way ('非ST段抬高型…');
  '非' inside a qualifier does not ('非肌层浸润性膀胱癌' is a bladder cancer).
All patterns work on folded text (`normal.fold`: lower case, no accents).
"""

from __future__ import annotations

import re

from core.clinical_text.normal import STOPWORDS, fold

LEADING = (r"no|not|without|excluding|excluded|exclude|ruled out|rule out|r o|to rule out|"
           r"negative for|unlikely|less likely|absence of|free of|kein|keine|keinen|keiner|"
           r"nicht|ohne|ausschluss|ausgeschlossen|pas de|pas|aucun|aucune|sans|absence de|sin|"
           r"descartad[oa]s?|descartar|exclu[es]*")
TRAILING = (r"ruled out|excluded|unlikely|not likely|improbable|doubtful|negative|absent|"
            r"ausgeschlossen|unwahrscheinlich|exclue?s?|elimine?e?s?|ecartee?s?|peu probable|"
            r"poco probable|descartad[oa]s?|excluid[oa]s?")
# Chinese: a negation opening the fragment ('非' is not one there: it starts names), and a
# verdict closing it.
LEADING_CJK = ("排除", "除外", "不是", "不考虑", "否认", "未见", "没有", "无")
TRAILING_CJK = ("已排除", "排除", "除外", "可能性小", "可能性不大", "不考虑", "배제", "아님",
                "아닙니다", "아니다", "제외", "가능성 낮음", "가능성 낮다", "가능성은 낮다")
# What inverts a Chinese name when it stands right before it.
INVERTING_CJK = ("非", "无", "排除", "除外", "不是", "不考虑", "否认", "未见", "没有", "비")
# Latin words that invert the single word after them (kept with it as one word).
INVERTING_PREFIXES = frozenset({"non", "anti", "pseudo"})
# Words that, found among the words an answer adds to a name, negate rather than qualify.
NEGATING = frozenset("no not without excluding excluded absence ohne kein keine nicht sans "
                     "pas sin".split())
NEGATED_TAIL = r"without|not|no|excluding|ohne|kein|keine|sans|sin"

# Hindi and Persian, in folded form and with spaces for word edges (a Devanagari word may
# end in a vowel sign, where `\b` does not fall): "निमोनिया नहीं", "न्यूमोनी रد شد", "بدون …".
LEADING_HI_FA = ("नहीं", "कोई नहीं", "बिना", "بدون", "عدم", "رد", "نه")
TRAILING_HI_FA = ("नहीं", "नहीं है", "खारिज", "खारिज किया", "की संभावना नहीं", "की संभावना कम",
                  "رد شد", "رد شده", "رد می شود", "منتفی", "منتفی است", "بعید",
                  "بعید است", "نیست")
_LEADING = re.compile(rf"^(?:{LEADING})\b")
_TRAILING = re.compile(rf"\b(?:{TRAILING})$")
_TAIL = re.compile(rf"\s+(?:{NEGATED_TAIL})\s.*$")


def is_negated(folded: str) -> bool:
    """Whether a folded fragment states an absence ('no perforation', 'ruled out PE'),
    after any leading hedge ('probably not STEMI')."""
    words = folded.split()
    while words and words[0] in STOPWORDS:
        words.pop(0)
    rest = " ".join(words)
    if not rest:
        return False
    padded = f" {rest} "
    return bool(_LEADING.match(rest) or _TRAILING.search(rest)) or rest.startswith(
        LEADING_CJK) or rest.endswith(TRAILING_CJK) or any(
        padded.startswith(f" {w} ") for w in _HI_FA_LEAD) or any(
        padded.endswith(f" {w} ") for w in _HI_FA_TRAIL)


_HI_FA_LEAD = tuple(fold(w) for w in LEADING_HI_FA)
_HI_FA_TRAIL = tuple(fold(w) for w in TRAILING_HI_FA)


def cut_negated_tail(folded: str) -> str:
    """A folded fragment without its negated tail: 'pneumonia without effusion' →
    'pneumonia'. Leading negations are `is_negated`'s business."""
    return _TAIL.sub("", folded).strip()


def inverted_before(text_before: str) -> bool:
    """Whether Chinese text right before a name inverts it ('非' + 'ST段抬高型心肌梗死')."""
    return text_before.rstrip().endswith(INVERTING_CJK)


def tables() -> dict[str, object]:
    """What decides negation, for the reproducibility hash."""
    return {"leading": LEADING, "trailing": TRAILING, "leading_cjk": LEADING_CJK,
            "trailing_cjk": TRAILING_CJK, "inverting_cjk": INVERTING_CJK,
            "inverting_prefixes": sorted(INVERTING_PREFIXES), "negating": sorted(NEGATING),
            "negated_tail": NEGATED_TAIL}
