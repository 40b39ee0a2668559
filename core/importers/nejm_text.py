"""Splitting NEJM image-challenge text: the question into presentation and findings, and
the `physical_exams` text into labelled result items.

An NEJM question reads: who presented with what (and some history), then examination,
laboratory, imaging and biopsy findings, then "What is the most likely diagnosis?". Only
the presentation may reach the doctor up front; the findings belong to the examiner.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.case import Item

_ABBREVIATIONS = ("e.g.", "i.e.", "vs.", "dr.", "mr.", "mrs.", "ms.", "st.", "approx.",
                  "fig.", "no.", "ca.", "et al.", "cf.")
_SENTENCE_END = re.compile(r"(?<=[.?!])[\"”')]*\s+(?=[A-Z0-9(\"“])")
# A sentence that reports a finding: examination, measurement, test or image.
_TEST = re.compile(
    r"\b(laborator\w*|labs?|tests?|testing|tested|levels?|biops\w*|stain\w*|imaging|"
    r"radiograph\w*|x-rays?|ct|computed tomograph\w*|mri|magnetic resonance|"
    r"ultraso\w*|sonograph\w*|echocardiogra\w*|electrocardiogra\w*|ecg|ekg|eeg|"
    r"endoscop\w*|colonoscop\w*|bronchoscop\w*|catheteri[sz]ation|angiogra\w*|cultures?|"
    r"serolog\w*|smears?|aspirat\w*|electrophoresis|immunofixation|immunohistochem\w*|"
    r"histolog\w*|histopatholog\w*|patholog\w*|dermoscop\w*|dermatoscop\w*|specimens?|"
    r"scans?|lavage|assays?|pcr|antibod\w*|titers?|titres?|panels?|"
    r"microscop\w*|spirometr\w*|fundoscop\w*|funduscop\w*|ophthalmoscop\w*|slit[- ]lamp)\b",
    re.IGNORECASE)
_EXAM = re.compile(
    r"\b(physical examination|examination|exam|examined|auscultation|palpat\w*|"
    r"inspection|percussion|observed|was noted|were noted|there (was|were)|"
    r"(left|right|middle|arrows?|arrowheads?)\))", re.IGNORECASE)
_PREAMBLE = re.compile(r"\b(information|includes?|following|extracted|relevant|summary|"
                       r"as follows)\b", re.IGNORECASE)
_NO_FINDINGS = re.compile(
    r"\b(does not (include|contain|mention|provide)|do not (include|contain)|"
    r"no (specific )?(instrument readings|numerical|test results)|"
    r"cannot (generate|provide|extract)|unable to (generate|provide|extract))\b",
    re.IGNORECASE)
_NAME_SUFFIX = re.compile(r"\s+(results?|findings?|readings?|report)$", re.IGNORECASE)
_SUBJECT_VERB = re.compile(
    r"\s(showed|shows|revealed|reveals|demonstrated|identified|disclosed|confirmed|"
    r"was|were|is|are|had|found)\b", re.IGNORECASE)
_STOP = {"with", "that", "this", "were", "from", "showed", "revealed", "notable", "which",
         "there", "also", "after", "before", "both", "shown", "results", "result",
         "findings", "finding", "subsequent", "performed", "than", "into", "other"}
_NAME_MAX = 90  # a label before ':' longer than this is prose, not a label
COVERED = 0.6  # share of a sentence's words found in physical_exams to call it covered


def sentences(text: str) -> list[str]:
    """Split prose into sentences, keeping abbreviations such as 'e.g.' inside."""
    out: list[str] = []
    for piece in _SENTENCE_END.split(text.strip()):
        piece = piece.strip()
        if not piece:
            continue
        if out and out[-1].lower().endswith(_ABBREVIATIONS):
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    return out


@dataclass
class Question:
    """An NEJM question split for the roles."""

    presentation: list[str] = field(default_factory=list)  # → the doctor's objective
    exam: list[str] = field(default_factory=list)  # physical-examination sentences
    tests: list[str] = field(default_factory=list)  # laboratory/imaging/pathology sentences
    ask: list[str] = field(default_factory=list)  # the closing question sentence(s)


def is_finding(sentence: str) -> bool:
    """True if the sentence reports an examination or test finding."""
    return bool(_TEST.search(sentence) or _EXAM.search(sentence))


def split_question(text: str) -> Question:
    """Presentation = the sentences before the first finding (at least the first one)."""
    parts = sentences(text)
    out = Question()
    while parts and parts[-1].endswith("?"):
        out.ask.insert(0, parts.pop())
    kind = "exam"
    for i, sentence in enumerate(parts):
        if i == 0 or (not out.exam and not out.tests and not is_finding(sentence)):
            out.presentation.append(sentence)
            continue
        # A sentence with neither kind of keyword continues the previous finding
        # ("Also visible were ..." after a CT sentence).
        if _TEST.search(sentence) and not re.match(r"(on )?physical exam", sentence, re.I):
            kind = "test"
        elif _EXAM.search(sentence):
            kind = "exam"
        (out.tests if kind == "test" else out.exam).append(sentence)
    return out


def is_no_findings_note(text: str) -> bool:
    """True for the source's extraction note that there are no readings to report."""
    return bool(_NO_FINDINGS.search(text)) and ":" not in text


def covered(sentence: str, reference: str) -> bool:
    """True if most of the sentence's content words occur in `reference`."""
    words = [w for w in re.findall(r"[a-z0-9]{4,}", sentence.lower()) if w not in _STOP]
    if not words:
        return True
    ref = set(re.findall(r"[a-z0-9]{4,}", reference.lower()))
    return sum(w in ref for w in words) / len(words) >= COVERED


def clean_name(raw: str) -> tuple[str, list[str]]:
    """'Skin biopsy results' → ('Skin biopsy', ['Skin biopsy results'])."""
    raw = raw.strip().rstrip(":").strip()
    name = re.sub(r"^(the|a|an)\s+", "", _NAME_SUFFIX.sub("", raw), flags=re.I).strip()
    name = name[:1].upper() + name[1:] if name else raw
    return (name, [raw]) if name and name != raw else (raw, [])


def subject_name(sentence: str) -> str:
    """A test name from a finding sentence: its subject ('CT scan of the neck showed …')."""
    m = _SUBJECT_VERB.search(sentence)
    subject = sentence[:m.start()] if m else ""
    subject = re.sub(r"^(a|an|the|subsequent|subsequently|also)\s+", "", subject.strip(),
                     flags=re.I).strip(" ,")
    if not subject or len(subject.split()) > 10:
        return "Other test findings"
    return clean_name(subject)[0]


def _segments(text: str) -> list[str]:
    """Inline list pieces: '1. A 2. B' and ' - A - B' separated, in order."""
    marks = [m for m in re.finditer(r"(?:^|(?<=\s))(\d{1,2})[.)]\s+(?=\S)", text)]
    numbered, expect = [], 1
    for m in marks:  # only a run 1, 2, 3, … counts as a list (not "2. 5 mg")
        if int(m.group(1)) == expect:
            numbered.append(m)
            expect += 1
    cuts = [m.start() for m in numbered] if len(numbered) >= 2 else []
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=False)]
    pieces = [re.sub(r"^\d{1,2}[.)]\s+", "", p) if cuts else p for p in pieces]
    out: list[str] = []
    for piece in pieces:
        out.extend(p.strip() for p in re.split(r"(?:^|\s)[-•–]\s+", piece) if p.strip())
    return out


def _peel_heading(segment: str) -> tuple[str, str | None]:
    """'… 250). Biopsy findings:' → ('… 250).', 'Biopsy findings')."""
    if not segment.endswith(":"):
        return segment, None
    if m := re.match(r"^(.*[.;)])\s+([^.;:]{1,60}):$", segment):
        return m.group(1).strip(), m.group(2).strip()
    if m := re.match(r"^(.*)\s([A-Z][^:]{0,60}):$", segment):
        return m.group(1).strip(), m.group(2).strip()
    return "", segment[:-1].strip()


def _name_value(segment: str) -> tuple[str | None, str]:
    name, sep, value = segment.partition(":")
    if not sep or not name.strip() or len(name) > _NAME_MAX or re.search(r"[.;]\s", name):
        return None, segment
    return name.strip(), value.strip()


def findings_items(text: str) -> list[Item]:
    """The `physical_exams` text as Items: labelled segments, grouped under headings."""
    text = text.strip()
    first, sep, rest = text.partition(":")
    if sep and len(first) > 40 and _PREAMBLE.search(first) and rest.strip():
        text = rest.strip()  # "The information extracted … includes:" is no finding
    roots: list[Item] = []
    loose: list[str] = []
    heading: Item | None = None
    for segment in _segments(text):
        body, next_heading = _peel_heading(segment)
        if body:
            name, value = _name_value(body)
            if name is None and heading is not None:
                heading.value = f"{heading.value} {value}" if heading.value else value
            elif name is None:
                loose.append(value)
            else:
                label, synonyms = clean_name(name)
                item = Item(name=label, synonyms=synonyms, value=value or None)
                (heading.children if heading is not None else roots).append(item)
        if next_heading is not None:
            label, synonyms = clean_name(next_heading)
            heading = Item(name=label, synonyms=synonyms)
            roots.append(heading)
    if loose:
        roots.insert(0, Item(name="Other findings", value=" ".join(loose)))
    return roots
