"""The Agent Hospital knowledge base: reading a folder of it and checking it
(`check_kb`: every problem, `load_kb`: the first), the bundled one (`bundled_kb`), and its
models, re-exported from `core.agenthospital.kb_models` (the file layout is described
there).

The pydantic models validate each file, then references (examination and shared-symptom
ids), finding placeholders, levels and counts are checked across files. Every problem is
an `InputError` with file, line and field.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from core.agenthospital.kb_models import (LEVELS, N_DISEASES, N_EXAMINATIONS, PLACEHOLDERS,
                                          Disease, Examination, HistorySpec, KnowledgeBase,
                                          Level, SeverityLevel, SharedSymptom, SymptomSpec,
                                          Vitals, bundled_kb_dir, placeholders)
from core.caseio import case_document, node_line
from core.errors import InputError

__all__ = ["LEVELS", "N_DISEASES", "N_EXAMINATIONS", "PLACEHOLDERS", "Disease", "Examination",
           "HistorySpec", "KnowledgeBase", "Level", "SeverityLevel", "SharedSymptom",
           "SymptomSpec", "Vitals", "bundled_kb", "bundled_kb_dir", "check_kb", "kb_json",
           "load_kb", "placeholders"]


class _File:
    """One parsed file: its path, node tree (for lines) and data."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise InputError(f"cannot read ({type(err).__name__})", path=str(path)) from None
        try:
            self.node, self.data = case_document(text)
        except yaml.MarkedYAMLError as err:
            mark = err.problem_mark
            raise InputError(f"not valid YAML ({err.problem})", path=str(path),
                             line=mark.line + 1 if mark else None) from None
        except yaml.YAMLError as err:
            raise InputError(f"not valid YAML ({err})", path=str(path)) from None
        self.text = text

    def error(self, loc: tuple[Any, ...], message: str) -> InputError:
        """A problem at `loc` of this file, with its line."""
        return InputError(message, path=str(self.path), line=node_line(self.node, loc),
                          field=".".join(str(p) for p in loc) or None)

    def problems(self, err: ValidationError, prefix: tuple[Any, ...] = ()) -> list[InputError]:
        """Pydantic errors as problems with line and field."""
        return [self.error((*prefix, *(p for p in e["loc"] if not str(p).startswith(
            "function-"))), e["msg"]) for e in err.errors()]


def _read_exams(file: _File) -> tuple[list[Examination], list[InputError]]:
    items = file.data.get("examinations") if isinstance(file.data, dict) else None
    if not isinstance(items, list):
        return [], [file.error((), "expected a mapping with an 'examinations' list")]
    exams, problems = [], []
    for i, item in enumerate(items):
        try:
            exams.append(Examination.model_validate(item))
        except ValidationError as err:
            problems.extend(file.problems(err, ("examinations", i)))
            continue
        problems.extend(_check_template(file, ("examinations", i, "normal"), exams[-1].normal))
    return exams, problems


def _check_template(file: _File, loc: tuple[Any, ...], text: str) -> list[InputError]:
    try:
        names = placeholders(text)
    except ValueError as err:
        return [file.error(loc, f"bad placeholder ({err})")]
    bad = sorted(set(names) - PLACEHOLDERS)
    if bad:
        return [file.error(loc, f"unknown placeholder {{{bad[0]}}} (known: "
                           f"{', '.join(sorted(PLACEHOLDERS))})")]
    return []


def _check_disease(file: _File, disease: Disease, exam_ids: set[str]) -> list[InputError]:
    """References to examinations, finding placeholders and levels of one disease."""
    out: list[InputError] = []

    def ref(loc: tuple[Any, ...], exam_id: str) -> None:
        if exam_id not in exam_ids:
            out.append(file.error(loc, f"'{exam_id}' is not an examination id (known: "
                                  f"{', '.join(sorted(exam_ids))})"))

    for i, exam_id in enumerate(disease.suitable):
        ref(("suitable", i), exam_id)
    for exam_id, text in disease.findings.items():
        ref(("findings", exam_id), exam_id)
        out.extend(_check_template(file, ("findings", exam_id), text))
    missing = [lv for lv in LEVELS if lv not in disease.severities]
    if missing:
        out.append(file.error(("severities",), f"missing level(s): {', '.join(missing)}"))
    for lv, level in disease.severities.items():
        for i, exam_id in enumerate(level.also_suitable):
            ref(("severities", lv, "also_suitable", i), exam_id)
        for exam_id, text in level.findings.items():
            ref(("severities", lv, "findings", exam_id), exam_id)
            out.extend(_check_template(file, ("severities", lv, "findings", exam_id), text))
        if not any(s.share(lv) > 0 for s in disease.symptoms):
            out.append(file.error(("symptoms",), f"no symptom ever occurs at level '{lv}'"))
    return out


def _read_shared(file: _File) -> tuple[dict[str, SharedSymptom], list[InputError]]:
    items = file.data.get("symptoms") if isinstance(file.data, dict) else None
    if not isinstance(items, list):
        return {}, [file.error((), "expected a mapping with a 'symptoms' list")]
    shared: dict[str, SharedSymptom] = {}
    problems = []
    for i, item in enumerate(items):
        try:
            symptom = SharedSymptom.model_validate(item)
        except ValidationError as err:
            problems.extend(file.problems(err, ("symptoms", i)))
            continue
        if symptom.id in shared:
            problems.append(file.error(("symptoms", i, "id"), f"'{symptom.id}' is listed "
                                       "twice"))
        shared[symptom.id] = symptom
    return shared, problems


def _resolve_symptoms(file: _File, data: dict[str, Any],
                      shared: dict[str, SharedSymptom]) -> list[InputError]:
    """Replace `{id: …, frequency: …}` entries by the shared symptom's name and phrasings
    (in place); one problem per unknown id or entry with both an id and its own text."""
    out = []
    found = data.get("symptoms")
    entries: list[Any] = found if isinstance(found, list) else []
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or "id" not in entry:
            continue
        ref = shared.get(str(entry["id"]))
        if ref is None:
            out.append(file.error(("symptoms", i, "id"), f"'{entry['id']}' is not a shared "
                                  f"symptom (known: {', '.join(sorted(shared))})"))
        elif {"name", "says"} & set(entry):
            out.append(file.error(("symptoms", i), "give either a shared symptom's id or a "
                                  "name and its phrasings, not both"))
        else:
            entries[i] = {"name": ref.name, "says": list(ref.says),
                          **{k: v for k, v in entry.items() if k != "id"}}
    return out


def _read_diseases(folder: Path, exam_ids: set[str],
                   shared: dict[str, SharedSymptom]) -> tuple[list[Disease], list[InputError]]:
    diseases: list[Disease] = []
    problems: list[InputError] = []
    files = sorted(p for p in folder.glob("*.y*ml") if p.is_file())
    seen: dict[tuple[str, str], str] = {}
    for path in files:
        file = _File(path)
        if not isinstance(file.data, dict):
            problems.append(file.error((), "expected a mapping of disease fields"))
            continue
        unresolved = _resolve_symptoms(file, file.data, shared)
        if unresolved:
            problems.extend(unresolved)
            continue
        try:
            disease = Disease.model_validate(file.data)
        except ValidationError as err:
            problems.extend(file.problems(err))
            continue
        problems.extend(_check_disease(file, disease, exam_ids))
        for field, key in (("id", disease.id), ("name", disease.name.casefold())):
            if (field, key) in seen:
                problems.append(file.error((field,), f"'{key}' is also the {field} in "
                                           f"{seen[field, key]}"))
            seen[field, key] = path.name
        diseases.append(disease)
    return diseases, problems


def _digest(paths: list[Path]) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def check_kb(folder: str | Path | None = None) -> tuple[KnowledgeBase | None, list[InputError]]:
    """Read a knowledge base folder: (the base, or None if it cannot be built, and every
    problem found)."""
    root = Path(folder) if folder is not None else bundled_kb_dir()
    exams_path, diseases_dir = root / "examinations.yaml", root / "diseases"
    shared_path = root / "symptoms.yaml"
    if not exams_path.is_file() or not diseases_dir.is_dir() or not shared_path.is_file():
        return None, [InputError("a knowledge base folder holds examinations.yaml, "
                                 "symptoms.yaml and a diseases/ folder", path=str(root))]
    try:
        exams_file = _File(exams_path)
        exams, problems = _read_exams(exams_file)
        shared, more = _read_shared(_File(shared_path))
        problems += more
        diseases, more = _read_diseases(diseases_dir, {e.id for e in exams}, shared)
    except InputError as err:
        return None, [err]
    problems += more
    problems += _check_counts(exams_file, exams, diseases, diseases_dir)
    if problems:
        return None, problems
    paths = [exams_path, shared_path, *sorted(diseases_dir.glob("*.y*ml"))]
    return KnowledgeBase(examinations=exams, diseases=diseases, digest=_digest(paths),
                         source=str(root)), []


def _check_counts(exams_file: _File, exams: list[Examination], diseases: list[Disease],
                  diseases_dir: Path) -> list[InputError]:
    out = []
    if len(exams) != N_EXAMINATIONS:
        out.append(exams_file.error(("examinations",), f"expected {N_EXAMINATIONS} "
                                    f"examinations, found {len(exams)}"))
    names = [e.name.casefold() for e in exams]
    ids = [e.id for e in exams]
    for i, (exam_id, name) in enumerate(zip(ids, names, strict=True)):
        if ids.index(exam_id) != i or names.index(name) != i:
            out.append(exams_file.error(("examinations", i), f"'{exams[i].name}' "
                                        "(or its id) is listed twice"))
    if len(diseases) != N_DISEASES:
        out.append(InputError(f"expected {N_DISEASES} disease files, found {len(diseases)}",
                              path=str(diseases_dir)))
    return out


def load_kb(folder: str | Path | None = None) -> KnowledgeBase:
    """The knowledge base of `folder` (default: the bundled one); InputError naming the
    file, line and field of the first problem (and how many more there are)."""
    kb, problems = check_kb(folder)
    if kb is None:
        first = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise InputError(first.reason + more, path=first.path, line=first.line,
                         field=first.field)
    return kb


@lru_cache(maxsize=4)
def _cached(folder: str) -> KnowledgeBase:
    return load_kb(folder)


def bundled_kb() -> KnowledgeBase:
    """The bundled knowledge base (read once per process)."""
    return _cached(str(bundled_kb_dir()))


def kb_json(kb: KnowledgeBase) -> str:
    """The knowledge base as JSON (for `bedside agenthospital kb --json`)."""
    return json.dumps(kb.model_dump(mode="json"), ensure_ascii=False, indent=2)

