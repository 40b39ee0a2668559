"""Shared helpers for the peer-format importers: the result model, case validation with
file:line errors, the check that the patient's information does not name the diagnosis,
and small text utilities (key names, languages, demographics, bullet lists → Item trees).
File reading lives in `core.importers.reading` and is re-exported here.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from core.case import Case, Demographics, Item
from core.errors import InputError
from core.importers.reading import iter_jsonl, load_records, read_text, record_digest
from core.transcript import Transcript

__all__ = [  # the reading helpers are re-exported for the format modules
    "ImportResult", "build_case", "iter_jsonl", "load_records", "read_text", "record_digest",
    "where",
]


class ImportResult(BaseModel):
    """What one imported file yields."""

    cases: list[Case] = Field(default_factory=list, description="Cases built from the file.")
    transcripts: list[Transcript] = Field(
        default_factory=list, description="Transcripts built from the file (dialogue formats)."
    )
    warnings: list[str] = Field(
        default_factory=list, description="Non-fatal oddities, each naming file and line."
    )


def build_case(data: dict[str, Any], path: Path, line: int | None) -> Case:
    """Validate a case dict; a validation failure becomes a one-line InputError."""
    try:
        return Case.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "(case)"
        raise InputError(first["msg"], path=str(path), line=line, field=field) from None


def transcripts_once(path: Path, build: Callable[[dict[str, Any], Path, int], Transcript],
                     what: str) -> ImportResult:
    """One transcript per record of a JSONL file (`build(record, path, line)`, its
    `meta["import"]["sha256"]` set); the same record twice is imported once, with a
    warning; a file with none is an InputError. `what` names one record ('dialogue')."""
    result = ImportResult()
    seen: dict[str, int] = {}
    for line, record in load_records(path):
        if not isinstance(record, dict):
            raise InputError("expected an object", path=str(path), line=line)
        transcript = build(record, path, line)
        digest = transcript.meta["import"]["sha256"]
        if digest in seen:
            result.warnings.append(f"{path}:{line}: same {what} as line {seen[digest]}; "
                                   "imported once")
            continue
        seen[digest] = line
        result.transcripts.append(transcript)
    if not result.transcripts:
        raise InputError(f"no {what}s in the file (is it empty?)", path=str(path))
    return result


def where(path: Path, line: int | None) -> str:
    """A 'file:line' (or just 'file') prefix for warnings."""
    return f"{path}:{line}" if line is not None else str(path)


def truth_in_patient_view(case: Case) -> list[str]:
    """Names of the primary diagnosis (or its synonyms) that occur in the patient's profile.

    Secondary diagnoses are not checked: known comorbidities (hypertension, diabetes)
    rightly belong to the patient's history.
    """
    text = _plain(" \n ".join(_strings(case.patient.model_dump(mode="json"))))
    found = []
    for name in dict.fromkeys([case.truth.diagnosis, *case.truth.synonyms]):
        needle = _plain(name)
        if len(needle) < (2 if has_cjk(needle) else 3) or needle == "unknown":
            continue
        hit = needle in text if has_cjk(needle) else \
            re.search(rf"(?<![a-z0-9]){re.escape(needle)}(?![a-z0-9])", text)
        if hit:
            found.append(name)
    return found


def _strings(value: Any) -> list[str]:
    """Every string in a JSON-like value."""
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []


def _plain(text: str) -> str:
    """Lower case with runs of spaces collapsed, for containment checks."""
    return re.sub(r"\s+", " ", text.lower())


def leak_warning(case: Case, path: Path, line: int | None) -> str | None:
    """A warning if the patient's profile names the diagnosis (the patient could say it)."""
    names = truth_in_patient_view(case)
    if not names:
        return None
    shown = ", ".join(f"'{n}'" for n in names)
    return (f"{where(path, line)}: case {case.id}: the patient's information names the "
            f"diagnosis ({shown}); the patient agent may reveal it")


# ---------------------------------------------------------------------------------------
# Text helpers

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_CAMEL_WORDS = re.compile(r"^(?:[A-Z][a-z]+){2,}$")
_ID_BAD = re.compile(r"[^A-Za-z0-9_.:-]+")


def has_cjk(text: str) -> bool:
    """True if the text contains Chinese characters."""
    return bool(_CJK.search(text))


def humanize(key: str) -> str:
    """A display name from a source key: underscores → spaces, CamelWords split."""
    name = key.replace("_", " ").strip()
    if _CAMEL_WORDS.match(name):  # "VitalSigns" → "Vital Signs"; "HbA1c" is left alone
        name = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name)
    return re.sub(r"\s+", " ", name) or "(unnamed)"


def norm_key(key: str) -> str:
    """Lower-case key with everything but letters and digits removed, for matching."""
    return re.sub(r"[\W_]+", "", key.lower())


def safe_id(*parts: object) -> str:
    """Join parts into an id that matches the Case id pattern.

    If characters had to be dropped (e.g. a Chinese file name), a short hash of the original
    is appended so that different names still give different, stable ids.
    """
    raw = "-".join(str(p) for p in parts if str(p) != "")
    cleaned = _ID_BAD.sub("-", raw).strip("-._:")
    if cleaned != raw:
        cleaned = f"{cleaned}-{hashlib.sha1(raw.encode()).hexdigest()[:8]}".strip("-")
    return cleaned


def scalar_text(value: Any) -> str | None:
    """A JSON scalar as text (numbers and booleans as JSON writes them); None stays None."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def flatten_text(value: Any) -> str:
    """Any JSON value as one line of text, keeping every string in it."""
    if isinstance(value, dict):
        return "; ".join(f"{humanize(k)}: {flatten_text(v)}" for k, v in value.items())
    if isinstance(value, list):
        return "; ".join(flatten_text(v) for v in value)
    return scalar_text(value) or ""


_AGE = re.compile(
    r"^\s*(\d+(?:\.\d+)?)\s*(岁|周岁|个月|月|天|周|y|yo|yrs?|years?(?:\s*old)?|months?|weeks?|days?)?"
    r"\s*$", re.IGNORECASE)
_SEX = {"男": "男", "女": "女", "男性": "男", "女性": "女", "male": "male", "female": "female",
        "m": "male", "f": "female", "man": "male", "woman": "female"}


def looks_like_age(text: str) -> bool:
    """True for '73岁', '54', '3 months', '65 years'."""
    return bool(_AGE.match(text))


def looks_like_sex(text: str) -> bool:
    """True for 男/女/男性/女性/male/female/M/F."""
    return text.strip().lower() in _SEX


_EN_AGE = re.compile(r"(\d+)[- ](year|month|week|day)s?[- ]old", re.IGNORECASE)
_EN_FEMALE = re.compile(r"\b(female|woman|girl|lady|mother)\b", re.IGNORECASE)
_EN_MALE = re.compile(r"\b(male|man|boy|gentleman|father)\b", re.IGNORECASE)
_ZH_AGE = re.compile(r"(\d+)\s*(岁|个月|月龄|天)")


def demographics_from_text(text: str) -> Demographics:
    """Age and sex picked out of a free demographics line; the line is kept as `text`."""
    age = sex = None
    if m := _EN_AGE.search(text):
        age = m.group(1) if m.group(2).lower() == "year" else f"{m.group(1)} {m.group(2)}s"
    elif m := _ZH_AGE.search(text):
        age = m.group(1) if m.group(2) == "岁" else m.group(0)
    if _EN_FEMALE.search(text):
        sex = "female"
    elif _EN_MALE.search(text):
        sex = "male"
    elif "女" in text:
        sex = "女"
    elif "男" in text:
        sex = "男"
    return Demographics(age=age, sex=sex, text=text.strip() or None)


_NUMBERED = re.compile(r"^\s*(?:\d+\s*[.、．)）]|[（(]\d+[)）])\s*")


def split_numbered(text: str) -> list[str]:
    """Split '1. A\\n2. B' (or '（1）A（2）B') into ['A', 'B']; other text → [stripped text]."""
    text = text.strip()
    if not text:
        return []
    if re.search(r"[（(]\d+[)）]", text) and not re.search(r"^\s*\d+\s*[.、．]", text, re.M):
        parts = re.split(r"[（(]\d+[)）]", text)
    else:
        lines = [ln for ln in text.splitlines() if ln.strip()]
        if len(lines) < 2 or not all(_NUMBERED.match(ln) for ln in lines):
            return [text]
        parts = [_NUMBERED.sub("", ln, count=1) for ln in lines]
    return [p.strip() for p in parts if p.strip()]


# ---------------------------------------------------------------------------------------
# Bullet lists → Item trees

_BULLET = re.compile(r"^(\s*)(?:[-*•·]\s+|[-*•·](?=\S)|\d+\s*[.、．)）]\s*|[（(]\d+[)）]\s*)?(.*)$")
_NAME_MAX = 30  # a 'name: value' prefix longer than this is prose, not a name


def split_name_value(text: str) -> tuple[str | None, str]:
    """'Temperature: 36.8°C' → ('Temperature', '36.8°C'); prose → (None, text)."""
    m = re.match(rf"^([^:：]{{1,{_NAME_MAX}}}?)\s*[:：]\s*(.*)$", text)
    if not m or re.search(r"[。；;]", m.group(1)) or m.group(1).count(",") > 1:
        return None, text
    return m.group(1).strip(), m.group(2).strip()


def _join(parts: list[str]) -> str | None:
    """Join findings: after a sentence end a space (or nothing in Chinese), else '; '/'；'."""
    parts = [p for p in parts if p]
    if not parts:
        return None
    out = parts[0]
    for part in parts[1:]:
        cjk = has_cjk(out[-1:]) or has_cjk(part[:1]) or out[-1] in "。；："
        if out[-1] in ".;!?。；！？":
            out += "" if cjk else " "
        else:
            out += "；" if cjk else "; "
        out += part
    return out


def bullets_to_items(text: str, label: str) -> list[Item]:
    """Turn a bullet or 'name: value' list into Items, nesting by indentation.

    Lines without a 'name:' are findings of their parent (joined into its value); at the top
    level they are gathered into one Item called `label`. Text that is not a list at all
    becomes a single Item `label` holding the text verbatim.
    """
    lines = [ln.rstrip() for ln in text.splitlines() if ln.strip()]
    listy = [ln for ln in lines if re.match(r"^\s*(?:[-*•·]|\d+\s*[.、．)）]|[（(]\d+[)）])", ln)]
    named = [ln for ln in lines if split_name_value(_BULLET.match(ln).group(2))[0]]  # type: ignore[union-attr]
    if not lines or (len(listy) < 2 and len(named) < 2):
        return [Item(name=label, value=text.strip() or None)]
    # Each node: [indent, name, values, children]
    root: list[Any] = [-1, label, [], []]
    stack = [root]
    parsed = [_BULLET.match(ln) for ln in lines]
    indents = [len(m.group(1).expandtabs(2)) if m else 0 for m in parsed]
    for i, m in enumerate(parsed):
        assert m is not None  # the pattern matches any line
        indent, body = indents[i], m.group(2).strip()
        while len(stack) > 1 and stack[-1][0] >= indent:
            stack.pop()
        name, value = split_name_value(body)
        if name is None and i + 1 < len(lines) and indents[i + 1] > indent:
            name, value = body, ""  # a heading line: the deeper lines below are its children
        if name is None:
            stack[-1][2].append(body)
            continue
        node = [indent, name, [value] if value else [], []]
        stack[-1][3].append(node)
        stack.append(node)
    items = [_to_item(n) for n in root[3]]
    if root[2]:
        items.insert(0, Item(name=label, value=_join(root[2])))
    return items


def _to_item(node: list[Any]) -> Item:
    return Item(name=node[1], value=_join(node[2]), children=[_to_item(c) for c in node[3]])
