"""Reading and writing case files (YAML or JSON) with errors that name file, line and field.

Besides schema errors (from the pydantic case model) this module catches the authoring
mistakes YAML hides: a key written twice in one mapping (YAML keeps the last silently), a
value YAML reads as a boolean or number where text is expected (`options: [yes, no]`), and an
expected-inquiry step that names no item of the case (pathway metrics would drop it).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from core.caseindex.matching import normalise
from core.case import Case
from core.errors import InputError

CASE_SUFFIXES = (".yaml", ".yml", ".json")
# libyaml's C loader is ~10x faster than the pure-Python one; fall back when it is absent.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# YAML tags of plain scalars that are not text, and how to name them in a hint.
_NON_TEXT = {"tag:yaml.org,2002:bool": "a boolean", "tag:yaml.org,2002:int": "a number",
             "tag:yaml.org,2002:float": "a number", "tag:yaml.org,2002:null": "null"}


def bundled_cases_dir() -> Path:
    """The folder of the bundled case library (the `cases` package)."""
    return Path(str(resources.files("cases")))


def _load(text: str) -> tuple[yaml.Node | None, Any]:
    """Compose and construct in one pass: the node tree (for lines) and the data."""
    loader = _LOADER(text)
    try:
        node = loader.get_single_node()
        return node, (loader.construct_document(node) if node is not None else None)
    finally:
        loader.dispose()


def _node_at(node: yaml.Node | None, loc: tuple[Any, ...]) -> tuple[yaml.Node | None, bool]:
    """The deepest node along a pydantic error location, and whether the whole path was found."""
    for key in loc:
        if isinstance(node, yaml.MappingNode):
            match = next((v for k, v in node.value if k.value == key), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            match = node.value[key]
        else:
            match = None
        if match is None:
            return node, False
        node = match
    return node, True


def _line(node: yaml.Node | None) -> int | None:
    return node.start_mark.line + 1 if node is not None else None


def _field_name(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc) or "(case)"


def _duplicate_keys(node: yaml.Node | None, path: tuple[Any, ...] = ()) -> list[InputError]:
    """One problem per key written twice in the same mapping, at the second occurrence."""
    out: list[InputError] = []
    if isinstance(node, yaml.MappingNode):
        first: dict[Any, int] = {}
        for key, value in node.value:
            name = key.value if isinstance(key, yaml.ScalarNode) else None
            if name is not None and name in first:
                out.append(InputError(
                    f"duplicate key '{name}' (first on line {first[name]}; YAML would keep "
                    "only the last value)", line=_line(key), field=_field_name((*path, name))))
            elif name is not None:
                first[name] = _line(key) or 0
            out.extend(_duplicate_keys(value, (*path, name)))
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            out.extend(_duplicate_keys(item, (*path, i)))
    return out


def _validation_problems(err: ValidationError, node: yaml.Node | None) -> list[InputError]:
    """Pydantic errors as problems with line, field and, for unquoted scalars, a hint."""
    out = []
    for e in err.errors():
        loc = tuple(p for p in e["loc"] if not (isinstance(p, str) and p.startswith("function-")))
        at, exact = _node_at(node, loc)
        msg = e["msg"]
        if e["type"] == "string_type" and exact and isinstance(at, yaml.ScalarNode) \
                and at.tag in _NON_TEXT:
            # `options: [yes, no]` or `value: 1.0`: YAML typed the scalar; quoting keeps it text.
            msg += f": YAML read {at.value} as {_NON_TEXT[at.tag]} (quote the value)"
        out.append(InputError(msg, line=_line(at), field=_field_name(loc)))
    return out


def _step_names(case: Case) -> dict[str, set[str]]:
    """Normalised names each inquiry category can refer to (as the pathway metrics resolve
    them: symptom names, history names and kinds, top-level examination and test names)."""
    return {
        "symptom": {normalise(s.name) for s in case.patient.symptoms()},
        "history": {normalise(n) for h in case.patient.history for n in (h.name, h.kind) if n},
        "exam": {normalise(i.name) for i in case.physical_exam},
        "test": {normalise(i.name) for i in case.tests},
    }


def inquiry_problems(case: Case, node: yaml.Node | None = None) -> list[InputError]:
    """Expected-inquiry steps whose name matches no item of their category in this case."""
    names = _step_names(case)
    out = []
    for i, step in enumerate(case.expected_inquiry_order):
        known = names.get(step.category)
        if known is None or not step.name or normalise(step.name) in known:
            continue
        at, _ = _node_at(node, ("expected_inquiry_order", i))
        listed = ", ".join(sorted(known)[:8]) or "none"
        out.append(InputError(
            f"'{step.category}:{step.name}' names no {step.category} item of this case "
            f"(known: {listed})", line=_line(at), field=f"expected_inquiry_order.{i}"))
    return out


def _with_path(problems: list[InputError], path: str, line_offset: int = 0) -> list[InputError]:
    return [InputError(p.reason, path=path, field=p.field,
                       line=None if p.line is None else p.line + line_offset) for p in problems]


def _parse(text: str, path: str, line_offset: int) -> tuple[yaml.Node | None, dict[str, Any]]:
    """YAML/JSON text → (node tree, mapping); syntax errors, non-mappings and duplicate keys
    raise a one-line InputError."""
    try:
        node, data = _load(text)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark
        line = mark.line + 1 + line_offset if mark else None
        raise InputError(f"not valid YAML/JSON ({err.problem})", path=path, line=line) from None
    if not isinstance(data, dict):
        raise InputError("expected a mapping of case fields", path=path, line=1 + line_offset)
    duplicates = _duplicate_keys(node)
    if duplicates:
        raise _with_path(duplicates, path, line_offset)[0]
    return node, data


def parse_case(text: str, path: str, *, line_offset: int = 0) -> Case:
    """Parse one case from YAML/JSON text; raise InputError naming file, line and field."""
    node, data = _parse(text, path, line_offset)
    try:
        return Case.model_validate(data)
    except ValidationError as err:
        problems = _with_path(_validation_problems(err, node), path, line_offset)
        first = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise InputError(first.reason + more, path=path, line=first.line,
                         field=first.field) from None


def validate_case_errors(text: str, path: str) -> list[InputError]:
    """Every problem in one case file (not only the first), for `bedside cases validate`."""
    try:
        node, data = _load(text)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark
        return [InputError(f"not valid YAML/JSON ({err.problem})", path=path,
                           line=mark.line + 1 if mark else None)]
    if not isinstance(data, dict):
        return [InputError("expected a mapping of case fields", path=path, line=1)]
    problems = _duplicate_keys(node)
    try:
        case: Case | None = Case.model_validate(data)
    except ValidationError as err:
        problems.extend(_validation_problems(err, node))
        case = _salvage(data, err)
    if case is not None:  # the checks that need a whole case, also past schema problems
        problems.extend(inquiry_problems(case, node))
    return _with_path(problems, path)


def _salvage(data: dict[str, Any], err: ValidationError) -> Case | None:
    """The case without the optional top-level fields that failed validation, so the
    checks that need a whole case still run and every problem is reported at once; None
    when a required field failed."""
    bad = {e["loc"][0] for e in err.errors() if e["loc"]}
    if any(Case.model_fields[f].is_required() for f in bad if f in Case.model_fields):
        return None
    try:
        return Case.model_validate({k: v for k, v in data.items() if k not in bad})
    except ValidationError:
        return None


def case_document(text: str) -> tuple[yaml.Node | None, Any]:
    """(node tree, data) of a case file's text; yaml.YAMLError when it is not YAML/JSON.
    For checks beyond the schema (`core.usecases.case_checks`), with `node_line`."""
    return _load(text)


def node_line(node: yaml.Node | None, loc: tuple[Any, ...]) -> int | None:
    """The 1-based line of the deepest part of `loc` found in a case file's node tree."""
    return _line(_node_at(node, loc)[0])


def load_case_file(path: Path) -> Case:
    """Load one case file."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"cannot read ({err.__class__.__name__}: {err})", path=str(path)) from None
    # Image paths are relative to the case file's folder.
    return parse_case(text, str(path)).read_from(path.resolve().parent)


#: Folders of the case library that hold other data files, not cases (the Agent Hospital
#: knowledge base, `core.agenthospital.kb`): a folder walk leaves them out.
NOT_CASE_DIRS = frozenset({"agenthospital"})


def iter_case_files(root: Path) -> Iterator[Path]:
    """Case files under a folder (or the file itself), sorted for a stable order; folders
    named in `NOT_CASE_DIRS` are left out."""
    if root.is_file():
        yield root
        return
    yield from sorted(p for p in root.rglob("*") if p.suffix in CASE_SUFFIXES and p.is_file()
                      and not NOT_CASE_DIRS.intersection(p.relative_to(root).parts[:-1]))


def load_cases(root: Path) -> list[Case]:
    """Load every case under a folder; duplicate ids are an error naming both files."""
    seen: dict[str, Path] = {}
    out = []
    for path in iter_case_files(root):
        case = load_case_file(path)
        if case.id in seen:
            raise InputError(f"duplicate case id '{case.id}' (also in {seen[case.id]})",
                             path=str(path), field="id")
        seen[case.id] = path
        out.append(case)
    return out


def load_bundled_cases() -> list[Case]:
    """The bundled library."""
    return load_cases(bundled_cases_dir())


def dump_case(case: Case) -> str:
    """A case as YAML text, omitting empty and default fields."""
    data = case.model_dump(mode="json", exclude_defaults=True)
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)


def case_to_json(case: Case) -> str:
    """A case as compact JSON (for the store)."""
    return json.dumps(case.model_dump(mode="json", exclude_defaults=True), ensure_ascii=False)


def json_hash(case_json: str) -> str:
    """The content hash of a case's JSON (`case_to_json`), as the store keeps it."""
    return hashlib.sha256(case_json.encode()).hexdigest()[:16]


def case_hash(case: Case) -> str:
    """The case's content hash: the store's `cases.content_hash`, the one recorded with
    each consultation and with each metric, so a changed case is visible everywhere."""
    return json_hash(case_to_json(case))
