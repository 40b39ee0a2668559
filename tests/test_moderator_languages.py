"""The exact moderator in Hindi, Persian and Korean (issue 12): letter variants of each
script are one name (Persian ي/ی, ك/ک and the zero-width non-joiner; Hindi nukta,
chandrabindu and nasal spellings; Korean spacing), and the rule's qualifiers and negations
read those languages too (급성 may be left out, 만성 contradicts it; a side contradicts the
other side; "… नहीं", "… رد شد", "… 배제" state an absence, not a diagnosis)."""

from __future__ import annotations

import pytest

from core.agents.moderator import matches

GRAVES = ["بیماری گریوز", "گریوز", "گواتر توکسیک منتشر"]
BRUCELLA = ["بروسلوز همراه با ساکروایلئیت راست", "تب مالت", "ساکروایلئیت راست"]
DENGUE = ["चेतावनी संकेतों वाला डेंगू", "डेंगू बुखार", "डेंगू"]
OP = ["ऑर्गनोफ़ॉस्फ़ेट विषाक्तता", "ऑर्गनोफ़ॉस्फ़ेट पॉइज़निंग"]
HEP_A = ["급성 A형 간염", "A형 간염"]


@pytest.mark.parametrize("answer, accepted, expected", [
    ("بیماري گريوز", GRAVES, True),             # Arabic yeh for Persian yeh
    ("گواتر\u200cتوکسیک منتشر", GRAVES, True),   # a ZWNJ where a space was written
    ("بيماري گريوز", GRAVES, True),
    ("تب مالت", BRUCELLA, True),
    ("بروسلوز رد شد", ["بروسلوز"], False),      # ruled out: no diagnosis
    ("ساکروایلئیت چپ", BRUCELLA, False),         # the other side
    ("डेंगू बुख़ार", DENGUE, True),               # nukta
    ("डेंगू नहीं", DENGUE, False),                 # negated
    ("ऑर्गनोफॉस्फेट पॉइजनिंग", OP, True),         # without nukta
    ("A형간염", HEP_A, True),                      # no space
    ("A형 간염", ["급성 A형 간염"], True),            # 급성 (acute) may be left out
    ("만성 A형 간염", ["급성 A형 간염"], False),       # chronic contradicts acute
    ("급성 B형 간염", HEP_A, False),               # another letter is another disease
    ("급성 A형 간염 배제", HEP_A, False),           # ruled out
    ("급성 A형 간염 또는 E형 간염", HEP_A, True),     # the first alternative is judged
    ("E형 간염 또는 급성 A형 간염", HEP_A, False),
])
def test_names_in_hindi_persian_and_korean(answer: str, accepted: list[str],
                                          expected: bool) -> None:
    assert matches(answer, accepted) is expected
