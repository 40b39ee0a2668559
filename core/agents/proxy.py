"""Who the patient is to the person answering for them, in Hindi, Persian and Korean.

When a son answers for his father ("पापा खेत से लौटे…"), a mother for her child ("بچه‌ام",
"우리 아이"), the doctor names the patient by that relation: "पापा को क्या हुआ?", "بچه چه
خورده؟", "아이가 열이 났나요?". Those words are about the patient, not the family, so the
retrieval patient reads the question without them (they would otherwise call up the family
history, or count as words the record must hold). English, Spanish, French, German and
Chinese questions are read as before: their pronouns already do this.

Must not import: anything but the standard library and core.scripts.
"""

from __future__ import annotations

from core.scripts import light

# The proxy's relation (its start, as the case writes `patient.proxy`) → words for the
# patient that a doctor may use.
_CHILD_HI = "बच्चा बच्चे बच्ची बच्चों बेटा बेटे बेटी मुन्ना"
_PARENT_HI = "पापा पिता पिताजी बाबूजी मम्मी माँ मां माता माताजी"
_CHILD_FA = "بچه بچه‌تان بچه‌ات کودک کودکتان پسر پسرتان پسرت دختر دخترتان دخترت فرزند فرزندتان نوزاد"
_PARENT_FA = "پدر پدرتان پدرت مادر مادرتان مادرت بابا باباتون مامان مامانتون"
_CHILD_KO = "아이 애 아기 애기 아들 딸 자녀"
_PARENT_KO = "아버지 어머니 아버님 어머님 아빠 엄마"
PATIENT_WORDS: dict[str, str] = {
    "माँ": _CHILD_HI, "मां": _CHILD_HI, "मम्मी": _CHILD_HI, "माता": _CHILD_HI,
    "पिता": _CHILD_HI, "पापा": _CHILD_HI, "बेटा": _PARENT_HI, "बेटी": _PARENT_HI,
    "पत्नी": "पति पतिदेव", "पति": "पत्नी",
    "مادر": _CHILD_FA, "پدر": _CHILD_FA, "پسر": _PARENT_FA, "دختر": _PARENT_FA,
    "همسر": "همسر همسرتان شوهر شوهرتان خانم خانمتان", "شوهر": "همسر همسرتان خانم خانمتان",
    "엄마": _CHILD_KO, "아빠": _CHILD_KO, "어머니": _CHILD_KO, "아버지": _CHILD_KO,
    "아들": _PARENT_KO, "딸": _PARENT_KO, "남편": "아내 부인 와이프", "아내": "남편",
}


def patient_words(proxy: str | None) -> tuple[str, ...]:
    """The words a doctor uses for the patient, for the proxy named in a case."""
    key = light(proxy or "")
    for relation, words in PATIENT_WORDS.items():
        if key.startswith(light(relation)):
            return tuple(light(w) for w in words.split())
    return ()


def without_patient_words(question: str, words: tuple[str, ...]) -> str:
    """The question with the words naming the patient left out ("पापा को क्या हुआ?" →
    "को क्या हुआ?"); a Korean or Persian word keeps nothing of its particle or suffix."""
    if not words:
        return question
    kept = [t for t in question.split() if not light(t).startswith(words)]
    return " ".join(kept) if kept else question


def table_fingerprint() -> dict[str, str]:
    """What decides these readings, for the reproducibility hash."""
    return PATIENT_WORDS
