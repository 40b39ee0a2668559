"""Study definitions: which transcripts, the instructions, the rubric, overlap and blinding.

A study is data: a TOML or YAML file (or the app's form) validated into `StudyDefinition`.
Errors name the file, the line (exact for YAML; for TOML the key's line, found by searching
the text, with rubric items found by their `[[rubric.items]]` header or their id) and the
field. YAML is read with YAML 1.2 booleans (only true/false), so `options: [yes, no]` stays
text instead of becoming two booleans. The rubric models are in `annotation.rubric` (and
re-exported here).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import yaml
from pydantic import Field, ValidationError, ValidationInfo, field_validator

from annotation.rubric import Rubric, RubricItem, StrictModel
from annotation.rubric_default import builtin_rubric, default_rubric
from core import yamlsafe
from core.errors import InputError
from core.yamlsafe import BoundedComposer

__all__ = ["Rubric", "RubricItem", "Selection", "StudyDefinition", "field_line",
           "load_study_file", "load_yaml", "parse_study"]


class Selection(StrictModel):
    """Which stored transcripts the study covers; empty lists mean 'any'."""

    sources: list[str] = Field(default_factory=list, description="Case sources, e.g. 'bedside'.")
    models: list[str] = Field(default_factory=list, description="Doctor labels (model strings).")
    cases: list[str] = Field(default_factory=list, description="Case ids (wildcards allowed).")
    end_reasons: list[str] = Field(default_factory=list, description="e.g. 'diagnosis'.")
    runs: list[str] = Field(default_factory=list, description="Run ids.")
    consultations: list[str] = Field(default_factory=list, description="Explicit ids.")
    sample: int | None = Field(None, ge=1, description="Keep a seeded random sample of n.")


class StudyDefinition(StrictModel):
    """A reader study as written in a study file."""

    name: str = Field(min_length=1, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:-]*$",
                      description="Unique study name, used on the command line.")
    instructions: str = Field("", description="Shown to raters before the first item.")
    raters: list[str] = Field(min_length=1, description="Names of the human raters.")
    overlap: int = Field(2, ge=1, description="How many raters rate each transcript (k).")
    calibration: int = Field(0, ge=0, description="Transcripts every rater rates first.")
    seed: int = Field(0, description="Seed for sampling, assignment and order.")
    show_truth: bool = Field(False, description="Show raters the correct diagnosis.")
    select: Selection = Field(default_factory=Selection, description="Transcript selection.")
    rubric: Rubric | None = Field(None, description="The rubric: its items, or the name of "
                                  "a built-in one ('default', 'default/v1', "
                                  "'aihospital-report'); the default one if omitted.")

    # Field validators, not a model validator: an error then names its field, so the file's
    # line can be found (`raters` is validated before `overlap`).
    @field_validator("rubric", mode="before")
    @classmethod
    def _builtin(cls, rubric: Any) -> Any:
        """`rubric = "aihospital-report"`: a built-in rubric by name."""
        if isinstance(rubric, str):
            return builtin_rubric(rubric)
        return rubric

    @field_validator("raters")
    @classmethod
    def _unique_raters(cls, raters: list[str]) -> list[str]:
        folded = [r.strip().casefold() for r in raters]
        if len(set(folded)) != len(folded):
            raise ValueError("rater names must be unique (upper and lower case count as one "
                             "name: raters type their name in any case)")
        return raters

    @field_validator("overlap")
    @classmethod
    def _enough_raters(cls, overlap: int, info: ValidationInfo) -> int:
        raters = info.data.get("raters")
        if raters is not None and overlap > len(raters):
            raise ValueError(f"overlap {overlap} needs at least {overlap} raters")
        return overlap

    def effective_rubric(self) -> Rubric:
        """The study's rubric, or the default one."""
        if self.rubric is not None:
            return self.rubric
        return default_rubric()


# -- loading ---------------------------------------------------------------------------

class StudyYamlLoader(BoundedComposer, yaml.SafeLoader):
    """Safe YAML with YAML 1.2 booleans: `true`/`false` only; yes/no/on/off stay strings.

    PyYAML follows YAML 1.1, where `options: [yes, no]` reads as two booleans. Nesting and
    aliases are bounded (`core.yamlsafe`).
    """


StudyYamlLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
StudyYamlLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
    list("tTfF"))


def load_yaml(text: str) -> Any:
    """Parse YAML with `StudyYamlLoader` (also used for rubric files); alias bombs and
    absurd nesting raise `core.yamlsafe.YamlLimitError` (a yaml.YAMLError)."""
    return yamlsafe.load(text, StudyYamlLoader)[1]


def _yaml_line(node: yaml.Node | None, loc: tuple[Any, ...]) -> int | None:
    """Walk a pydantic location through a composed YAML tree to a 1-based line."""
    line = node.start_mark.line + 1 if node is not None else None
    for key in loc:
        if isinstance(node, yaml.MappingNode):
            node = next((v for k, v in node.value if k.value == str(key)), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            node = node.value[key]
        else:
            node = None
        if node is None:
            break
        line = node.start_mark.line + 1
    return line


_TOML_HEADER = re.compile(r"^\s*\[\[?([^\[\]]+)\]\]?")


def _header_path(line: str) -> list[str] | None:
    """The dotted path of a TOML table header line, or None if the line is not one."""
    m = _TOML_HEADER.match(line)
    return [p.strip().strip("\"'") for p in m.group(1).split(".")] if m else None


def _toml_key(lines: list[str], start: int, path: list[str], key: str,
              bounded: bool) -> int | None:
    """The line of `key`: a header under path+key, or `key =` (before the next header
    when `bounded`, i.e. inside one array-of-tables element)."""
    assign = re.compile(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=")
    for i in range(start, len(lines)):
        header = _header_path(lines[i])
        if header is not None and header[:len(path) + 1] == [*path, key]:
            return i
        if header is not None and bounded and i > start:
            return None
        if assign.search(lines[i]):
            return i
    return None


def _toml_item(lines: list[str], path: list[str], index: int, node: Any) -> int | None:
    """The line of element `index` of an array: its `[[path]]` header, else its id."""
    headers = [i for i, line in enumerate(lines) if line.lstrip().startswith("[[")
               and _header_path(line) == path]
    if index < len(headers):
        return headers[index]
    element = node[index] if isinstance(node, list) and index < len(node) else None
    ident = element.get("id") if isinstance(element, dict) else None
    if not isinstance(ident, str):
        return None
    pattern = re.compile(rf"""\bid\s*=\s*["']{re.escape(ident)}["']""")
    return next((i for i, line in enumerate(lines) if pattern.search(line)), None)


def _toml_line(text: str, data: Any, loc: tuple[Any, ...]) -> int | None:
    """Best effort: the 1-based line of the deepest part of `loc` found in TOML text."""
    lines = text.splitlines()
    start, best, node, bounded = 0, None, data, False
    path: list[str] = []
    for key in loc:
        if isinstance(key, int):
            hit = _toml_item(lines, path, key, node)
            node = node[key] if isinstance(node, list) and key < len(node) else None
            bounded = True
        else:
            hit = _toml_key(lines, start, path, str(key), bounded)
            node = node.get(key) if isinstance(node, dict) else None
            path.append(str(key))
        if hit is None:
            break
        start, best = hit, hit + 1
    return best


def _validate(data: Any, path: str, line_of: Any) -> StudyDefinition:
    if not isinstance(data, dict):
        raise InputError("expected a table/mapping of study fields", path=path, line=1)
    try:
        return StudyDefinition.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        loc = tuple(first["loc"])
        more = f" (and {err.error_count() - 1} more)" if err.error_count() > 1 else ""
        field = ".".join(str(p) for p in loc) or None
        msg = first["msg"].removeprefix("Value error, ")
        raise InputError(msg + more, path=path, line=line_of(loc), field=field) from None


def _parse(text: str, path: str) -> tuple[Any, Any]:
    """(data, a function from a pydantic location to a line) for TOML or YAML text."""
    if path.endswith(".toml"):
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            found = re.search(r"line (\d+)", str(err))
            line = int(found.group(1)) if found else max(1, len(text.splitlines()))
            reason = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", str(err))
            raise InputError(f"not valid TOML ({reason})", path=path, line=line) from None
        return data, lambda loc: _toml_line(text, data, loc)
    try:
        node, data = yamlsafe.load(text, StudyYamlLoader)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark
        raise InputError(yamlsafe.problem_text(err, "YAML"), path=path,
                         line=mark.line + 1 if mark else None) from None
    return data, lambda loc: _yaml_line(node, loc)


def parse_study(text: str, path: str) -> StudyDefinition:
    """Parse a study definition; TOML when `path` ends in .toml, else YAML (or JSON)."""
    data, line_of = _parse(text, path)
    return _validate(data, path, line_of)


def _read(p: Path) -> str:
    try:
        return p.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"cannot read ({err.__class__.__name__})", path=str(p)) from None


def load_study_file(path: Path | str) -> StudyDefinition:
    """Read and validate a study file."""
    p = Path(path)
    return parse_study(_read(p), str(p))


def field_line(path: Path | str, field: str | None) -> int | None:
    """The line of a dotted field (e.g. 'select', 'calibration') in a study file, if found.

    Used to point errors found after validation (a selection matching nothing) at the file.
    """
    if not field:
        return None
    try:
        _, line_of = _parse(_read(Path(path)), str(path))
    except InputError:
        return None
    loc = tuple(int(p) if p.isdigit() else p for p in field.split("."))
    return line_of(loc)
