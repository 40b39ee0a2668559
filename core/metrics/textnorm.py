"""Text normalisation for matching diagnoses and items: case, accents, punctuation,
British/American spelling, common clinical abbreviations and hedging words.

Both sides of every comparison go through `normalise`, so the rules only need to agree with
themselves. The abbreviation and spelling lists are ours and deliberately short: they cover
the abbreviations doctors (and models) write most often in a diagnosis line.

Must not import: textual, rich, litellm, or any other bedside package.
"""

from __future__ import annotations

import re
import unicodedata

# Whole-word abbreviations (after lower-casing) → expansion.
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
    "dka": "diabetic ketoacidosis", "t1dm": "type 1 diabetes mellitus",
    "t2dm": "type 2 diabetes mellitus", "aki": "acute kidney injury",
    "ckd": "chronic kidney disease", "gord": "gastroesophageal reflux disease",
    "gerd": "gastroesophageal reflux disease", "ibd": "inflammatory bowel disease",
    "ibs": "irritable bowel syndrome", "ida": "iron deficiency anemia",
    "sle": "systemic lupus erythematosus", "ra": "rheumatoid arthritis",
    "gbs": "guillain barre syndrome", "htn": "hypertension", "kd": "kawasaki disease",
    "ltb": "laryngotracheobronchitis", "urti": "upper respiratory tract infection",
    "t1d": "type 1 diabetes", "t2d": "type 2 diabetes", "typ": "type",
    "nafld": "non alcoholic fatty liver disease",
}
# Words dropped from every name: "diabetes mellitus" and "diabetes" name the same disease.
_DROP = frozenset({"mellitus"})

# Spelling variants, applied in order to the lower-cased text.
_SPELLING: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p), r) for p, r in (
        (r"aem", "em"),          # haemorrhage, anaemia, ischaemia, leukaemia
        (r"\boe(?=[a-z])", "e"),  # oedema, oesophagus
        (r"oeliac", "eliac"),    # coeliac
        (r"rrhoea", "rrhea"),    # diarrhoea, gonorrhoea
        (r"\bpaed", "ped"),      # paediatric
        (r"(tum|hum|col)our", r"\1or"),  # tumour
        (r"isation", "ization"),
        (r"appendicectomy", "appendectomy"),
    )
]

# Words that carry no diagnostic content (hedges, articles, labels).
STOPWORDS = frozenset(
    "a an the of in on at to for is are was probable probably likely possible possibly "
    "suspected suspect presumed presumptive provisional working final diagnosis dx most "
    "consistent clinical picture impression my i think".split()
)
# Words that qualify a disease but are not one; a fragment made only of these is dropped.
MODIFIERS = frozenset(
    "acute chronic subacute severe mild moderate uncomplicated complicated left right "
    "bilateral unspecified primary secondary early late new onset recurrent".split()
)
# An entity that starts with one of these is not predicted at all ('no pneumonia',
# 'ruled out PE', 'kein Infarkt', 'sans pneumopathie', 'sin neumonia').
_NEGATION = re.compile(
    r"^(no|not|without|excluding|excluded|exclude|ruled out|rule out|r o|to rule out|"
    r"negative for|unlikely|less likely|absence of|free of|kein|keine|keinen|nicht|ohne|"
    r"ausschluss|ausgeschlossen|pas de|sans|absence de|sin|descartad[oa]|descartar)\b")
# ... or ends with one of these ('PE ruled out', 'Lungenembolie ausgeschlossen').
_NEGATED_END = re.compile(
    r"\b(ruled out|excluded|unlikely|not likely|ausgeschlossen|unwahrscheinlich|exclue?s?|"
    r"elimine?e?s?|peu probable|descartad[oa]s?|improbable)$")
# Inside an entity, everything from one of these on is a negated qualifier and is cut
# ('pneumonia without effusion' → 'pneumonia'). 'non' is not here: it inverts the next
# word and stays part of the name ('non-ST elevation').
_NEGATED_TAIL = re.compile(r"\s+(without|not|no|excluding|ohne|kein|keine|sans|sin)\s.*$")
_PUNCT = re.compile(r"[^\w\s]+")
_SPACE = re.compile(r"\s+")


def fold(text: str) -> str:
    """Lower-case, strip accents and turn punctuation into spaces (no other rules)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    plain = plain.replace("'s ", " ").replace("’s ", " ")
    return _SPACE.sub(" ", _PUNCT.sub(" ", plain)).strip()


def normalise(text: str) -> str:
    """The matching form of a name: folded, spelling unified, abbreviations expanded,
    stopwords removed."""
    words = []
    # A hyphenated 'pre' makes a new disease, not a qualifier: pre-eclampsia is not
    # eclampsia, so it becomes one word (pre-renal → prerenal).
    for word in re.sub(r"\bpre (?=[a-z])", "pre", fold(text)).split():
        for pattern, repl in _SPELLING:
            word = pattern.sub(repl, word)
        if word not in _DROP:
            words.append(ABBREVIATIONS.get(word, word))
    # An abbreviation written beside its expansion ("haemorrhage (SAH)") would double the
    # words; keep each word once, in first-seen order.
    kept = dict.fromkeys(w for w in " ".join(words).split() if w not in STOPWORDS)
    return " ".join(kept)


def tokens(text: str) -> frozenset[str]:
    """Set of words of an already normalised text."""
    return frozenset(text.split())


def is_negated(folded: str) -> bool:
    """Whether a folded fragment states an absence ('no perforation', 'ruled out PE'),
    after any leading hedge ('probably not STEMI')."""
    words = folded.split()
    while words and words[0] in STOPWORDS:
        words.pop(0)
    rest = " ".join(words)
    return bool(_NEGATION.match(rest)) or bool(_NEGATED_END.search(rest))


def cut_negated_tail(folded: str) -> str:
    """A folded fragment without its negated tail: 'pneumonia without effusion' →
    'pneumonia'. Leading negations are `is_negated`'s business."""
    return _NEGATED_TAIL.sub("", folded).strip()


def strip_parentheticals(text: str) -> str:
    """Text with (…), […] and full-width （…） asides removed: 'AKI (pre-renal)' → 'AKI'."""
    return _SPACE.sub(" ", re.sub(r"\([^()]*\)|\[[^\[\]]*\]|（[^（）]*）", " ", text)).strip()


def only_modifiers(norm: str) -> bool:
    """True when a normalised fragment has no word but modifiers (or is empty)."""
    return all(w in MODIFIERS for w in norm.split())
