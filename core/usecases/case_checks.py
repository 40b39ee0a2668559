"""`bedside cases validate`: every problem of a case file, at once.

Beyond the schema, duplicate keys and inquiry steps (`core.caseio.validate_case_errors`):
ICD-10 codes that are not WHO ICD-10 codes (`Z99.99X`, `banana`), and accepted names of the
diagnosis that would accept an entry of the case's own differential (a synonym
'pericarditis' makes 'acute pericarditis' correct), judged by the exact moderator's rule;
image files that are missing beside the case file or are not images (`image_problems`).
These run on the file's data as written, so a schema problem elsewhere hides none of them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from core.caseio import case_document, node_line, validate_case_errors
from core.errors import InputError


def check_case_text(text: str, path: str) -> list[InputError]:
    """Every problem of one case file's text, in line order."""
    problems = validate_case_errors(text, path)
    try:
        node, data = case_document(text)
    except yaml.YAMLError:
        return problems  # already said: not valid YAML/JSON
    truth = data.get("truth") if isinstance(data, dict) else None
    found: list[InputError] = []
    if isinstance(truth, dict):
        found += [*icd_problems(truth, node), *differential_problems(truth, node)]
    if isinstance(data, dict):
        found += image_problems(data.get("images"), Path(path).parent, node)
    problems += [InputError(p.reason, path=path, line=p.line, field=p.field) for p in found]
    return sorted(problems, key=lambda p: (p.line or 0, p.field or ""))


def image_problems(images: Any, folder: Path, node: yaml.Node | None) -> list[InputError]:
    """Image paths that name no image file inside the case file's folder (a path that
    leaves the folder is a schema problem, reported as such)."""
    from core.images import media_type

    out = []
    root = folder.resolve()
    for i, image in enumerate(_list(images)):
        rel = image.get("path") if isinstance(image, dict) else None
        if not isinstance(rel, str) or ".." in Path(rel).parts or Path(rel).is_absolute():
            continue
        target = (root / rel).resolve()
        try:
            with target.open("rb") as f:
                head = f.read(16)
            why = None if media_type(head) else "is not a PNG, JPEG, GIF or WebP image"
            if not target.is_relative_to(root):
                why = "leads outside the case file's folder"
        except OSError:
            why = f"names no file in {root}"
        if why:
            loc = ("images", i, "path")
            out.append(InputError(f"'{rel}' {why}", line=node_line(node, loc),
                                  field=".".join(map(str, loc))))
    return out


def _codes(truth: dict[str, Any]) -> list[tuple[tuple[Any, ...], Any]]:
    """(location, code) of every ICD-10 code of the primary and secondary diagnoses."""
    out: list[tuple[tuple[Any, ...], Any]] = [
        (("truth", "icd10", i), c) for i, c in enumerate(_list(truth.get("icd10")))]
    for j, other in enumerate(_list(truth.get("other_diagnoses"))):
        if isinstance(other, dict):
            out += [(("truth", "other_diagnoses", j, "icd10", i), c)
                    for i, c in enumerate(_list(other.get("icd10")))]
    return out


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def icd_problems(truth: dict[str, Any], node: yaml.Node | None) -> list[InputError]:
    """Codes that are not WHO ICD-10 categories or subcategories."""
    from core.clinical_text.icd import code_problem

    out = []
    for loc, code in _codes(truth):
        why = code_problem(str(code)) if isinstance(code, str) else "is not text"
        if why:
            out.append(InputError(f"'{code}' {why}", line=node_line(node, loc),
                                  field=".".join(map(str, loc))))
    return out


def differential_problems(truth: dict[str, Any], node: yaml.Node | None) -> list[InputError]:
    """Differential entries an accepted name would accept as the diagnosis."""
    from core.agents.moderator import matches

    diagnosis = truth.get("diagnosis")
    if not isinstance(diagnosis, str) or not diagnosis.strip():
        return []
    accepted = [diagnosis, *(s for s in _list(truth.get("synonyms")) if isinstance(s, str))]
    out = []
    for i, entry in enumerate(_list(truth.get("differential"))):
        if not isinstance(entry, str) or not matches(entry, accepted):
            continue
        by = [name for name in accepted if matches(entry, [name])] or [diagnosis]
        out.append(InputError(
            f"the differential '{entry}' would be accepted as the diagnosis (through the "
            f"accepted name '{by[0]}'): an accepted name must not accept the differential",
            line=node_line(node, ("truth", "differential", i)),
            field=f"truth.differential.{i}"))
    return out
