"""The consultation protocol: what a doctor's message asks for.

`REQUEST TEST: <names>` reaches the examiner and `DIAGNOSIS READY: <diagnosis>` ends the
consultation. Both are recognised case-insensitively wherever they appear in the message
(models like to write a sentence first). Several tests may be named in one request,
separated by commas, semicolons, slashes, new lines or "and". A diagnosis wins over a test
request in the same message. Doctor messages are untrusted text: nothing here evaluates them.

Must not import: textual, rich, litellm, or any other bedside package.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

ActionKind = Literal["question", "test_request", "diagnosis"]

_DIAGNOSIS = re.compile(r"diagnosis\s+ready\s*[:：]\s*(.*)", re.IGNORECASE | re.DOTALL)
_REQUEST = re.compile(r"request\s+tests?\s*[:：]\s*(.*)", re.IGNORECASE | re.DOTALL)
# Separators between test names. "and" only as a whole word, so "D-dimer and troponin"
# splits but "Random glucose" does not.
_SPLIT = re.compile(r"\s*(?:[,;/、，；\n]|\band\b|\bplus\b|&)\s*", re.IGNORECASE)
_TRIM = " \t\r\n.!?\"'`*()[]{}<>-"
MAX_TESTS = 20  # a request naming more than this is truncated (keeps transcripts sane)


@dataclass(frozen=True)
class DoctorAction:
    """What one doctor message asks for."""

    kind: ActionKind
    tests: list[str] = field(default_factory=list)
    diagnosis: str | None = None


def _first_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line.strip(_TRIM)


def split_tests(text: str) -> list[str]:
    """Split a request body into test names: trimmed, de-duplicated, order kept."""
    body = text.strip()
    # A request ends at a blank line: text after it is commentary, not more tests.
    body = re.split(r"\n\s*\n", body, maxsplit=1)[0]
    names: list[str] = []
    seen: set[str] = set()
    for part in _SPLIT.split(body):
        name = part.strip(_TRIM)
        key = name.casefold()
        if name and key not in seen:
            seen.add(key)
            names.append(name)
    return names[:MAX_TESTS]


def parse_doctor_message(text: str) -> DoctorAction:
    """Classify a doctor message as a diagnosis, a test request or a question."""
    diag = _DIAGNOSIS.search(text)
    if diag:
        return DoctorAction("diagnosis", diagnosis=_first_line(diag.group(1)) or None)
    req = _REQUEST.search(text)
    if req:
        return DoctorAction("test_request", tests=split_tests(req.group(1)))
    return DoctorAction("question")
