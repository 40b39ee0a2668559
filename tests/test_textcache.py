"""Text normalisers cache short texts only (issue 18, the soak): a long run's memory stays
flat when its doctors' whole transcripts are normalised again and again."""

from __future__ import annotations

import pytest

from core.caseindex import matching
from core.clinical_text import normal
from core.textcache import LONGEST, ShortTextCache, short_text_cache


@pytest.mark.parametrize("fn", [matching.normalise, normal.normalise, normal.fold,
                                normal.expand])
def test_long_unique_texts_are_computed_not_kept(fn: ShortTextCache[str]) -> None:
    before = fn.cache_info().currsize
    longs = [f"Patient {i}: " + "chest pain radiating to the left arm, " * 8 for i in range(50)]
    assert all(len(t) > LONGEST for t in longs)
    assert [fn(t) for t in longs] == [fn.__wrapped__(t) for t in longs]
    assert fn.cache_info().currsize == before
    fn(f"a short text nobody normalised before {id(longs)}")
    assert fn.cache_info().currsize == before + 1


def test_the_cache_answers_as_the_function() -> None:
    calls: list[str] = []

    @short_text_cache(4, longest=5)
    def upper(text: str) -> str:
        calls.append(text)
        return text.upper()

    assert [upper("ab"), upper("ab"), upper("abcdefg"), upper("abcdefg")] == \
        ["AB", "AB", "ABCDEFG", "ABCDEFG"]
    assert calls == ["ab", "abcdefg", "abcdefg"]  # the short one once, the long one each time
    assert upper.__doc__ is None and upper.__name__ == "upper"
