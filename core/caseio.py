"""Reading and writing case files (YAML or JSON) with errors that name file, line and field.

Must not import: textual, rich, litellm, or any other bedside package.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from core.case import Case
from core.errors import InputError

CASE_SUFFIXES = (".yaml", ".yml", ".json")
# libyaml's C loader is ~10x faster than the pure-Python one; fall back when it is absent.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def bundled_cases_dir() -> Path:
    """The folder of the bundled case library (the `cases` package)."""
    return Path(str(resources.files("cases")))


def _node_line(node: yaml.Node | None, loc: tuple[Any, ...]) -> int | None:
    """Follow a pydantic error location through a composed YAML tree; return a 1-based line."""
    line = node.start_mark.line + 1 if node is not None else None
    for key in loc:
        if isinstance(node, yaml.MappingNode):
            match = next((v for k, v in node.value if k.value == key), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            match = node.value[key]
        else:
            match = None
        if match is None:
            break
        node = match
        line = node.start_mark.line + 1
    return line


def _field_name(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc) or "(case)"


def parse_case(text: str, path: str, *, line_offset: int = 0) -> Case:
    """Parse one case from YAML/JSON text; raise InputError naming file, line and field."""
    try:
        data = yaml.load(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark
        line = mark.line + 1 + line_offset if mark else None
        raise InputError(f"not valid YAML/JSON ({err.problem})", path=path, line=line) from None
    if not isinstance(data, dict):
        raise InputError("expected a mapping of case fields", path=path, line=1 + line_offset)
    try:
        return Case.model_validate(data)
    except ValidationError as err:
        node = yaml.compose(text, Loader=_LOADER)  # only on error: for the line number
        first = err.errors()[0]
        loc = tuple(p for p in first["loc"] if not (isinstance(p, str) and p.startswith("function-")))
        line = _node_line(node, loc)
        more = f" (and {err.error_count() - 1} more)" if err.error_count() > 1 else ""
        raise InputError(
            first["msg"] + more, path=path,
            line=None if line is None else line + line_offset, field=_field_name(loc),
        ) from None


def validate_case_errors(text: str, path: str) -> list[InputError]:
    """Every problem in one case file (not only the first), for `bedside cases validate`."""
    try:
        node = yaml.compose(text, Loader=_LOADER)
        data = yaml.load(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark
        return [InputError(f"not valid YAML/JSON ({err.problem})", path=path,
                           line=mark.line + 1 if mark else None)]
    if not isinstance(data, dict):
        return [InputError("expected a mapping of case fields", path=path, line=1)]
    try:
        Case.model_validate(data)
    except ValidationError as err:
        out = []
        for e in err.errors():
            loc = tuple(p for p in e["loc"] if not (isinstance(p, str) and p.startswith("function-")))
            out.append(InputError(e["msg"], path=path, line=_node_line(node, loc),
                                  field=_field_name(loc)))
        return out
    return []


def load_case_file(path: Path) -> Case:
    """Load one case file."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"cannot read ({err.__class__.__name__}: {err})", path=str(path)) from None
    return parse_case(text, str(path))


def iter_case_files(root: Path) -> Iterator[Path]:
    """Case files under a folder (or the file itself), sorted for a stable order."""
    if root.is_file():
        yield root
        return
    yield from sorted(p for p in root.rglob("*") if p.suffix in CASE_SUFFIXES and p.is_file())


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
