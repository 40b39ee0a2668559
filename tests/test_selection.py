"""Case selection for runs."""

from __future__ import annotations

import pytest

from core.case import Case
from core.errors import InputError
from core.selection import select_cases


def _case(cid: str, specialty: str, language: str = "en", source: str = "bedside") -> Case:
    return Case(id=cid, title="t", specialty=specialty, language=language, source=source,
                objective="o", patient={}, truth={"diagnosis": "d"})


CASES = [_case("card-1", "cardiology"), _case("card-2", "cardiology", "es"),
         _case("neuro-1", "neurology", "es"), _case("x-1", "neurology", source="rjua")]


def test_terms_of_one_kind_are_alternatives_and_kinds_combine() -> None:
    got = select_cases(CASES, "cardiology,neurology,es")
    assert [c.id for c in got] == ["card-2", "neuro-1"]


def test_ids_with_wildcards_and_sources() -> None:
    assert [c.id for c in select_cases(CASES, "card-*")] == ["card-1", "card-2"]
    assert [c.id for c in select_cases(CASES, "rjua")] == ["x-1"]


def test_limit_keeps_order() -> None:
    assert [c.id for c in select_cases(CASES, None, 2)] == ["card-1", "card-2"]


def test_unknown_term_and_empty_result_are_errors() -> None:
    with pytest.raises(InputError, match="'oncology' matches no case"):
        select_cases(CASES, "oncology")
    with pytest.raises(InputError, match="no case matches"):
        select_cases(CASES, "card-1,es")
    with pytest.raises(InputError, match="--limit"):
        select_cases(CASES, None, 0)


def _placeholder(cid: str) -> Case:
    return Case(id=cid, title=f"Imported transcript {cid}", specialty="unknown",
                source="imported", objective="(imported)", patient={},
                truth={"diagnosis": "unknown"}, placeholder=True)


WITH_PLACEHOLDERS = [*CASES, _placeholder("aihospital-1812"), _placeholder("card-9")]


def test_placeholders_are_never_selected() -> None:
    assert [c.id for c in select_cases(WITH_PLACEHOLDERS)] == [c.id for c in CASES]
    assert [c.id for c in select_cases(WITH_PLACEHOLDERS, "card-*")] == ["card-1", "card-2"]
    assert [c.id for c in select_cases(WITH_PLACEHOLDERS, "en", 5)] == ["card-1", "x-1"]


@pytest.mark.parametrize("spec", ["imported", "aihospital-*", "unknown", "aihospital-1812"])
def test_a_spec_matching_only_placeholders_says_so(spec: str) -> None:
    with pytest.raises(InputError) as err:
        select_cases(WITH_PLACEHOLDERS, spec)
    message = str(err.value)
    assert f"'{spec}' matches only placeholder cases" in message and "never run" in message
    assert message.startswith("field '--cases'") and "\n" not in message


def test_a_library_of_only_placeholders_is_an_error() -> None:
    with pytest.raises(InputError, match="all 2 cases are placeholder cases"):
        select_cases([_placeholder("a"), _placeholder("b")])
    assert select_cases([]) == []  # an empty library is the caller's business
