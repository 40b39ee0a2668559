"""The normal form of clinical text: case, accents, punctuation, British/American spelling,
common clinical abbreviations and hedging words, the same for every name compared.

Both sides of every comparison go through `normalise`, so the rules only need to agree with
themselves. The abbreviation and spelling lists are ours and deliberately short: they cover
the abbreviations doctors (and models) write most often in a diagnosis line, and leave out
ambiguous ones ('MS' is multiple sclerosis or mitral stenosis, so it is not expanded).
Chinese, Japanese and Korean text keeps its characters; a switch between them and Latin
letters counts as a space ('急性STEMI' → '急性 stemi').
"""

from __future__ import annotations

import re
import unicodedata

from core.scripts import WORD_MARKS, compose, fold_scripts
from core.textcache import short_text_cache

# Whole-word abbreviations (after folding) → expansion, already in the unified spelling.
ABBREVIATIONS: dict[str, str] = {
    "mi": "myocardial infarction", "ami": "acute myocardial infarction",
    "stemi": "st elevation myocardial infarction",
    "nstemi": "non st elevation myocardial infarction",
    "acs": "acute coronary syndrome", "af": "atrial fibrillation", "afib": "atrial fibrillation",
    "rvr": "rapid ventricular response", "hf": "heart failure", "chf": "congestive heart failure",
    "adhf": "acute decompensated heart failure", "pe": "pulmonary embolism",
    "dvt": "deep vein thrombosis", "vte": "venous thromboembolism", "ptx": "pneumothorax",
    "copd": "chronic obstructive pulmonary disease", "cap": "community acquired pneumonia",
    "ards": "acute respiratory distress syndrome", "tb": "tuberculosis",
    "uti": "urinary tract infection", "pid": "pelvic inflammatory disease",
    "sah": "subarachnoid hemorrhage", "tia": "transient ischemic attack", "cva": "stroke",
    "dka": "diabetic ketoacidosis", "t1dm": "type 1 diabetes", "t2dm": "type 2 diabetes",
    "t1d": "type 1 diabetes", "t2d": "type 2 diabetes", "typ": "type",
    "aki": "acute kidney injury", "ckd": "chronic kidney disease",
    "gord": "gastroesophageal reflux disease", "gerd": "gastroesophageal reflux disease",
    "ibd": "inflammatory bowel disease", "ibs": "irritable bowel syndrome",
    "ida": "iron deficiency anemia", "sle": "systemic lupus erythematosus",
    "ra": "rheumatoid arthritis", "gbs": "guillain barre syndrome", "htn": "hypertension",
    "kd": "kawasaki disease", "ltb": "laryngotracheobronchitis",
    "urti": "upper respiratory tract infection", "nafld": "non alcoholic fatty liver disease",
}
# Words dropped from every name: "diabetes mellitus" and "diabetes" name the same disease.
DROPPED = frozenset({"mellitus"})
# Spelling variants (British → American, then other languages' endings), applied in order
# to the whole folded text.
SPELLING: tuple[tuple[str, str], ...] = (
    (r"aem", "em"),            # haemorrhage, anaemia, ischaemia, leukaemia
    (r"\boe(?=[a-z])", "e"),   # oedema, oesophagus
    (r"oeliac", "eliac"),      # coeliac
    (r"rrhoea", "rrhea"),      # diarrhoea, gonorrhoea
    (r"pnoea", "pnea"),        # dyspnoea, apnoea
    (r"paed", "ped"),          # paediatric, orthopaedic
    (r"aesthe", "esthe"),      # anaesthesia
    (r"aecolog", "ecolog"),    # gynaecology
    (r"\bfoet", "fet"),        # foetal
    (r"(tum|hum|col)our", r"\1or"),  # tumour
    (r"isation", "ization"),
    (r"appendicectomy", "appendectomy"),
    # French and German endings of Greek and Latin disease names (both sides go through
    # them, so an English word that happens to end so is only renamed consistently).
    (r"(?<=[a-z]{4})ose\b", "osis"),  # borréliose, Thrombose, sarcoïdose
    (r"(?<=[a-z]{4})ie\b", "ia"),     # pneumonie, Anämie, Lungenembolie
)
_SPELLING = tuple((re.compile(p), r) for p, r in SPELLING)
# Words that carry no diagnostic content (articles, hedges, labels). 'clinical' is one only
# before 'picture', 'impression' or 'diagnosis': 'clinical depression' keeps it.
STOPWORDS = frozenset(
    "a an the of in on at to for is are was probable probably likely possible possibly "
    "suspected suspect presumed presumptive provisional working final diagnosis dx most "
    "consistent picture impression my i think".split()
)
_CLINICAL_LABEL = re.compile(r"\bclinical (?=(?:picture|impression|diagnosis|dx)\b)")
# Words that qualify a disease but are not one; a fragment made only of these is dropped.
MODIFIERS = frozenset(
    "acute chronic subacute severe mild moderate uncomplicated complicated left right "
    "bilateral unspecified primary secondary early late new onset recurrent".split()
)
_CJK_CLASS = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"
_CJK = re.compile(f"[{_CJK_CLASS}]")
_CJK_EDGE = re.compile(f"(?<=[{_CJK_CLASS}])(?=[^\\s{_CJK_CLASS}])|"
                       f"(?<=[^\\s{_CJK_CLASS}])(?=[{_CJK_CLASS}])")
# A single Latin letter written onto Hangul is part of the word: 'A형 간염' (hepatitis A) is
# not 'a' (an article, dropped) + '형 간염'.
_LETTER_HANGUL = re.compile(r"(?<![\w])([a-z]) (?=[\uac00-\ud7af])")
_POSSESSIVE = re.compile(r"(?<=\w)['’]s\b")
_PUNCT = re.compile(f"[^\\w\\s{WORD_MARKS}]+")
_SPACE = re.compile(r"\s+")


def is_cjk(text: str) -> bool:
    """True if the text contains Chinese, Japanese or Korean characters."""
    return bool(_CJK.search(text))


@short_text_cache(65536)  # the ICD vocabulary and case names are folded over and over
def fold(text: str) -> str:
    """Lower case, no accents, no possessive 's, punctuation as spaces, letter variants of
    Devanagari and Persian folded, Hangul kept composed (no other rules)."""
    decomposed = unicodedata.normalize("NFKD", fold_scripts(text.casefold()))
    plain = compose("".join(ch for ch in decomposed if not unicodedata.combining(ch)))
    plain = _LETTER_HANGUL.sub(r"\1", _CJK_EDGE.sub(" ", _POSSESSIVE.sub("", plain)))
    return _SPACE.sub(" ", _PUNCT.sub(" ", plain)).strip()


@short_text_cache(65536)
def expand(folded: str) -> str:
    """Folded text with spelling unified, abbreviations expanded and 'pre-' joined, every
    other word kept (splitting a diagnosis line needs its 'and', 'with', 'due to')."""
    # A hyphenated 'pre' makes a new disease, not a qualifier: pre-eclampsia is not
    # eclampsia, so it becomes one word (pre-renal → prerenal).
    text = re.sub(r"\bpre (?=[a-z])", "pre", folded)
    for pattern, repl in _SPELLING:
        text = pattern.sub(repl, text)
    return " ".join(ABBREVIATIONS.get(w, w) for w in text.split() if w not in DROPPED)


def finish(light: str) -> str:
    """`expand` output in the final matching form: stopwords gone, each word once."""
    words = _CLINICAL_LABEL.sub("", light).split()
    # An abbreviation written beside its expansion ("haemorrhage (SAH)") would double the
    # words; keep each word once, in first-seen order.
    return " ".join(dict.fromkeys(w for w in words if w not in STOPWORDS))


@short_text_cache(65536)
def normalise(text: str) -> str:
    """The matching form of a name: folded, expanded, stopwords removed, each word once."""
    return finish(expand(fold(text)))


def tokens(text: str) -> frozenset[str]:
    """Set of words of an already normalised text."""
    return frozenset(text.split())


def strip_parentheticals(text: str) -> str:
    """Text with (…), […] and full-width （…） asides removed: 'AKI (pre-renal)' → 'AKI'."""
    return _SPACE.sub(" ", re.sub(r"\([^()]*\)|\[[^\[\]]*\]|（[^（）]*）", " ", text)).strip()


def only_modifiers(norm: str) -> bool:
    """True when a normalised fragment has no word but modifiers (or is empty)."""
    return all(w in MODIFIERS for w in norm.split())


def tables() -> dict[str, object]:
    """What decides the normal form, for the reproducibility hash."""
    return {"abbreviations": ABBREVIATIONS, "dropped": sorted(DROPPED), "spelling": SPELLING,
            "stopwords": sorted(STOPWORDS), "modifiers": sorted(MODIFIERS)}
