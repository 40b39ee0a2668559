"""Completion of test names while ordering: the last name of a comma list, on any word start.

"ECG, Trop" offers "Troponin", then names with a word starting "trop" ("Cardiac troponin",
"High-sensitivity troponin"). When the best match extends what was typed, it is shown as
the usual grey suggestion; when it matches a later word, it is shown under the field
(the grey text could only show a continuation). → (right arrow) at the end accepts it.

The vocabulary is general (`tui.app.widgets.test_vocabulary`), never the case's own tests:
completing from the case would reveal which tests have stored results.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from textual.suggester import Suggester
from textual.widgets import Input

from tui.app.widgets.test_vocabulary import TEST_NAMES

_WORD_START = re.compile(r"(?:^|(?<=[\s\-/(,]))\w")


def split_last(value: str) -> tuple[str, str]:
    """(everything before the last name of a comma list, that last name as typed)."""
    head, comma, last = value.rpartition(",")
    if not comma:
        return "", value.lstrip()
    stripped = last.lstrip()
    return head + comma + last[:len(last) - len(stripped)], stripped


def candidates(fragment: str, vocabulary: Sequence[str] = TEST_NAMES,
               limit: int = 4) -> list[str]:
    """Names completing `fragment`: prefix matches first, then word-start matches.

    Shorter names come first within each group; an exact match is not a completion. Word
    starts need two characters (one letter would match half the vocabulary).
    """
    frag = fragment.strip().casefold()
    if not frag:
        return []
    prefix, inner = [], []
    for name in vocabulary:
        low = name.casefold()
        if low == frag:
            continue
        if low.startswith(frag):
            prefix.append(name)
        elif len(frag) >= 2 and any(low.startswith(frag, m.start())
                                    for m in _WORD_START.finditer(low)):
            inner.append(name)
    ranked = sorted(prefix, key=lambda n: (len(n), n)) + sorted(inner, key=lambda n: (len(n), n))
    return ranked[:limit]


def complete(value: str, name: str) -> str:
    """`value` with its last comma-separated name replaced by `name`."""
    head, _ = split_last(value)
    return head + name


class TestNameSuggester(Suggester):
    """Grey-text suggestion when the best match continues what was typed (keeps its case)."""

    def __init__(self, vocabulary: Sequence[str] = TEST_NAMES) -> None:
        super().__init__(use_cache=True, case_sensitive=True)
        self.vocabulary = tuple(vocabulary)

    async def get_suggestion(self, value: str) -> str | None:
        """The whole value with the last name completed, or None."""
        _, last = split_last(value)
        found = candidates(last, self.vocabulary, limit=1)
        if not found or not found[0].casefold().startswith(last.casefold()):
            return None
        return value + found[0][len(last):]


class TestOrderInput(Input):
    """The test-order field: completes the last name of a comma list from a general vocabulary."""

    def __init__(self, vocabulary: Sequence[str] = TEST_NAMES, **kwargs: object) -> None:
        super().__init__(suggester=TestNameSuggester(vocabulary),
                         **kwargs)  # type: ignore[arg-type]
        self.vocabulary = tuple(vocabulary)
        #: Names offered for the last element, best first (shown under the field).
        self.completions: list[str] = []

    def watch_value(self, value: str) -> None:
        """Recompute the offered names and show them under the field."""
        _, last = split_last(value)
        self.completions = candidates(last, self.vocabulary)
        self.border_subtitle = ("→ " + " · ".join(self.completions)) if self.completions else ""

    def action_cursor_right(self, select: bool = False) -> None:
        """At the end of the text, → accepts the best name (even a word-start match)."""
        if self.cursor_at_end and not select and self.completions:
            self.value = complete(self.value, self.completions[0])
            self.cursor_position = len(self.value)
            return
        super().action_cursor_right(select)
