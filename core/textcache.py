"""A cache for functions of one text that are called over and over on the same short texts
(cue lists, vocabulary names, diagnoses) and now and then on long, unique ones (a whole
transcript): only the short ones are kept, so a run of tens of thousands of consultations
does not fill the cache with texts it will never see again (issue 18, the soak: these
caches were where its memory grew, ~1.4 KB a consultation)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Generic, TypeVar

R = TypeVar("R")

#: Texts longer than this are computed each time: a name, a cue or a question is shorter.
LONGEST = 200


class ShortTextCache(Generic[R]):
    """`fn` with `functools.lru_cache(maxsize)` for texts of at most `longest` characters."""

    def __init__(self, fn: Callable[[str], R], maxsize: int, longest: int) -> None:
        self.fn, self.longest = fn, longest
        self.cached = functools.lru_cache(maxsize=maxsize)(fn)
        functools.update_wrapper(self, fn)

    def __call__(self, text: str) -> R:
        return self.cached(text) if len(text) <= self.longest else self.fn(text)

    def cache_info(self) -> Any:
        """The short texts' cache's figures (`functools.lru_cache`)."""
        return self.cached.cache_info()


def short_text_cache(maxsize: int, longest: int = LONGEST
                     ) -> Callable[[Callable[[str], R]], ShortTextCache[R]]:
    """Decorate a function of one text with a `ShortTextCache`."""
    def wrap(fn: Callable[[str], R]) -> ShortTextCache[R]:
        return ShortTextCache(fn, maxsize, longest)
    return wrap
