"""The consultation protocol: what a doctor's message asks for.

`REQUEST TEST: <names>` reaches the examiner, `REQUEST IMAGES` asks for the case's images
(the engine answers it: `core.images`) and `DIAGNOSIS READY: <diagnosis>` ends the
consultation. Both are recognised case-insensitively wherever they appear in the message
(models like to write a sentence first), also when wrapped in markdown (`**DIAGNOSIS
READY**: Gout`, `*Request test* — ECG`) and with `:`, `：`, `-`, `–` or `—` as the
separator. A marker with nothing after it is not a diagnosis. `REQUEST IMAGES` needs no
separator: it counts in capitals anywhere, in any case at the start of a line ("request
images" inside a sentence is a question). A diagnosis wins over a request in the same
message; of a test and an image request, the first written wins.

Several tests may be named in one request. They are split on commas (`,` `，` `、`),
semicolons, new lines, " / " (a slash with spaces: "T3/T4", "PT/INR" and "sFlt-1/PlGF" stay
whole), " & " between words ("U&E" and "U & E" stay whole) and the conjunctions and, plus,
y, e, et, und, 和, 及/以及 (lower-case whole words; "Vitamin E" and "hepatitis B e antigen"
are not split). Pairs that form one test name are kept together ("urea and electrolytes",
"CT abdomen and pelvis", "group and save", "B12 and folate", "microscopy and culture").
Doctor messages are untrusted text: nothing here evaluates them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

ActionKind = Literal["question", "test_request", "image_request", "diagnosis"]

# Markdown emphasis or code marks that may wrap or split a marker.
_MD = r"[*_`~]*"
_SEP = r"\s*[:：\-–—]+"


def _marker(*words: str) -> re.Pattern[str]:
    keyword = rf"\s*{_MD}\s*".join(words)
    return re.compile(rf"{_MD}\s*{keyword}\s*{_MD}{_SEP}\s*{_MD}[ \t]*(.*)",
                      re.IGNORECASE | re.DOTALL)


_DIAGNOSIS = _marker("diagnosis", "ready")
_REQUEST = _marker("request", r"tests?")
_IMAGES = re.compile(rf"(?-i:REQUEST\s+IMAGES?)\b|(?im:^\s*{_MD}\s*request\s+images?\b)")
_SPLIT = re.compile(
    r"\s*(?:[,;、，；\n]|\s/\s|(?<!\b\w)\s&\s(?!\w\b)"
    r"|\b(?:and|plus|und)\b|(?-i:\b(?:y|et)\b)"
    r"|(?-i:(?<![Vv]itamin\s)(?<![Vv]itamina\s)(?<![Vv]itamine\s)(?<!\b[A-Z]\s)(?<=\w\s)e(?=\s\w))"
    r"|(?<!饱)(?<!中)和|以及|及(?!时))\s*",
    re.IGNORECASE)
# "<a> <conjunction> <b>" pairs that name one test, joined with a protected space first.
_PAIRS = (("urea", "electrolytes"), ("u", "e"), ("u", "es"), ("abdomen", "pelvis"),
          ("abdominal", "pelvic"), ("b12", "folate"), ("fsh", "lh"), ("ureters", "bladder"),
          ("group", "save"), ("type", "screen"), ("culture", "sensitivity"),
          ("microscopy", "culture"), ("ova", "parasites"), ("head", "neck"),
          ("kidneys", "bladder"), ("urea", "creatinine"), ("urée", "créatinine"),
          ("urea", "electrolitos"), ("abdomen", "pelvis"))
_PAIR = re.compile(
    r"\b(" + "|".join(sorted({re.escape(a) for a, _ in _PAIRS}, key=len, reverse=True)) +
    r")\s+(and|&|y|et|und)\s+(" +
    "|".join(sorted({re.escape(b) for _, b in _PAIRS}, key=len, reverse=True)) + r")\b",
    re.IGNORECASE)
_SLOT = "\ue000"  # marks a protected pair while splitting (neither a word char nor a space)
_TRIM = " \t\r\n.!?\"'`*_()[]{}<>-–—:："
MAX_TESTS = 20  # a request naming more than this is truncated (keeps transcripts sane)


@dataclass(frozen=True)
class DoctorAction:
    """What one doctor message asks for."""

    kind: ActionKind
    tests: list[str] = field(default_factory=list)
    diagnosis: str | None = None


_PAIRS_OF = {")": "(", "]": "[", "}": "{", ">": "<"}
_BARE = "".join(c for c in _TRIM if c not in "()[]{}<>")


def _trim_brackets(line: str) -> str:
    """Strip wrapping and unmatched brackets at either end, keep balanced ones: "[Gout]" →
    "Gout", "Pneumonia [right lower lobe]" and "AKI (stage 2)" stay whole."""
    while True:
        line = line.strip(_BARE)
        if len(line) >= 2 and _PAIRS_OF.get(line[-1]) == line[0] \
                and _balanced(line[1:-1], line[0], line[-1]):
            line = line[1:-1]
        elif line and line[-1] in _PAIRS_OF \
                and line.count(_PAIRS_OF[line[-1]]) < line.count(line[-1]):
            line = line[:-1]
        elif line and line[0] in _PAIRS_OF.values():
            close = next(c for c, o in _PAIRS_OF.items() if o == line[0])
            if line.count(close) >= line.count(line[0]):
                return line
            line = line[1:]
        else:
            return line


def _balanced(inner: str, opener: str, closer: str) -> bool:
    """Whether `inner` never closes more than it opened (so the outer pair wraps it all)."""
    depth = 0
    for ch in inner:
        depth += (ch == opener) - (ch == closer)
        if depth < 0:
            return False
    return depth == 0


def _first_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return _trim_brackets(line)


def _protect(body: str) -> tuple[str, list[str]]:
    """Replace each protected pair by a numbered slot, so the splitter cannot cut it."""
    kept: list[str] = []

    def slot(match: re.Match[str]) -> str:
        """The slot for a known pair, or the text unchanged."""
        if (match.group(1).lower(), match.group(3).lower()) not in _PAIRS:
            return match.group(0)
        kept.append(match.group(0))
        return f"{_SLOT}{len(kept) - 1}{_SLOT}"

    return _PAIR.sub(slot, body), kept


def _restore(part: str, kept: list[str]) -> str:
    return re.sub(f"{_SLOT}(\\d+){_SLOT}", lambda m: kept[int(m.group(1))], part)


def split_tests(text: str) -> list[str]:
    """Split a request body into test names: trimmed, de-duplicated, order kept."""
    body = text.strip()
    # A request ends at a blank line: text after it is commentary, not more tests.
    body = re.split(r"\n\s*\n", body, maxsplit=1)[0]
    # A diagnosis marker after the request is not a test name.
    body = re.split(r"(?i)diagnosis\s+ready", body, maxsplit=1)[0]
    body = _IMAGES.split(body, maxsplit=1)[0]  # nor is an image request after it
    body, kept = _protect(body)
    names: list[str] = []
    seen: set[str] = set()
    for part in _SPLIT.split(body):
        name = _restore(part or "", kept).strip(_TRIM)
        key = name.casefold()
        if name and key not in seen:
            seen.add(key)
            names.append(name)
    return names[:MAX_TESTS]


def parse_doctor_message(text: str) -> DoctorAction:
    """Classify a doctor message as a diagnosis, a test request or a question."""
    diag = _DIAGNOSIS.search(text)
    if diag:
        diagnosis = _first_line(diag.group(1))
        if diagnosis:
            return DoctorAction("diagnosis", diagnosis=diagnosis)
    req, images = _REQUEST.search(text), _IMAGES.search(text)
    if images and (req is None or images.start() < req.start()):
        return DoctorAction("image_request")
    if req:
        return DoctorAction("test_request", tests=split_tests(req.group(1)))
    return DoctorAction("question")
