"""The new-study form: a modal that validates a `StudyDefinition`, creates the study (select
transcripts, plan k-overlap assignments) and returns what it created with `dismiss`.

Validation errors are one line naming the field, shown inside the form so the user can fix
them; nothing is written until the definition is valid and the selection matches. Creating is
the same use case as `bedside study create` (`annotation.assignment.create_study`), through
the study store.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Checkbox, Input, Label, Static, TextArea

from core.errors import BedsideError, InputError
from tui.app.screens.base import BedsideModal
from tui.app.widgets.literal import literal

if TYPE_CHECKING:
    from sqlite_utils import Database

    from annotation.study import Rubric, StudyDefinition

#: Text inputs of the form: (widget id suffix, label, placeholder, default value).
TEXT_FIELDS: list[tuple[str, str, str, str]] = [
    ("name", "Name", "pilot-2025 (letters, digits, _ . : -)", ""),
    ("raters", "Raters", "alice, bob, carol", ""),
    ("overlap", "Overlap k", "2", "2"),
    ("calibration", "Calibration", "0", "0"),
    ("seed", "Seed", "0", "0"),
    ("sources", "Sources", "any, e.g. bedside", ""),
    ("models", "Models", "any; * wildcards", ""),
    ("cases", "Cases", "any; * wildcards", ""),
    ("end_reasons", "End reasons", "any, e.g. diagnosis", ""),
    ("sample", "Sample n", "all", ""),
    ("rubric", "Rubric", "default; aihospital-report, or a file", ""),
]
ROWS = [("name",), ("raters",), ("overlap", "calibration", "seed"), ("sources", "models"),
        ("cases", "end_reasons"), ("sample", "rubric")]


@dataclass(frozen=True)
class CreatedStudy:
    """What the form created."""

    id: str
    name: str
    transcripts: int


def _list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _int(text: str, field: str, *, optional: bool = False) -> int | None:
    text = text.strip()
    if not text and optional:
        return None
    try:
        return int(text)
    except ValueError:
        raise InputError(f"'{text}' is not a whole number", field=field) from None


def load_rubric(path: str) -> Rubric:
    """A rubric from a YAML/TOML/JSON file holding `items` (a study file's rubric works too)."""
    import tomllib

    import yaml
    from pydantic import ValidationError

    from annotation.study import Rubric, load_yaml

    p = Path(path).expanduser()
    try:
        text = p.read_text(encoding="utf-8-sig")
        # YAML 1.2 booleans: `options: [yes, no]` stays text (see annotation.study).
        data = tomllib.loads(text) if p.suffix == ".toml" else load_yaml(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, yaml.YAMLError) as err:
        raise InputError(f"cannot read a rubric ({type(err).__name__})", path=str(p),
                         field="rubric") from None
    if isinstance(data, dict) and isinstance(data.get("rubric"), dict):
        data = data["rubric"]
    try:
        return Rubric.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        loc = ".".join(str(x) for x in first["loc"])
        raise InputError(first["msg"].removeprefix("Value error, "), path=str(p),
                         field=f"rubric.{loc}" if loc else "rubric") from None


def build_definition(values: dict[str, Any]) -> StudyDefinition:
    """Validate the form's raw values into a StudyDefinition; InputError names the field."""
    from pydantic import ValidationError

    from annotation.rubric_default import is_builtin
    from annotation.study import StudyDefinition

    data: dict[str, Any] = {
        "name": str(values.get("name", "")).strip(),
        "raters": _list(values.get("raters", "")),
        "overlap": _int(values.get("overlap", "2"), "overlap"),
        "calibration": _int(values.get("calibration", "0"), "calibration"),
        "seed": _int(values.get("seed", "0"), "seed"),
        "instructions": str(values.get("instructions", "")).strip(),
        "show_truth": bool(values.get("show_truth", False)),
        "select": {k: _list(values.get(k, "")) for k in ("sources", "models", "cases",
                                                          "end_reasons")},
    }
    data["select"]["sample"] = _int(values.get("sample", ""), "sample", optional=True)
    if len(set(data["raters"])) != len(data["raters"]):
        raise InputError("rater names must be unique", field="raters")
    rubric = str(values.get("rubric", "")).strip()
    if rubric:  # a built-in rubric by name, else a rubric file
        data["rubric"] = rubric if is_builtin(rubric) else load_rubric(rubric)
    try:
        return StudyDefinition.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        field = ".".join(str(x) for x in first["loc"]) or None
        more = f" (and {err.error_count() - 1} more)" if err.error_count() > 1 else ""
        raise InputError(first["msg"].removeprefix("Value error, ") + more,
                         field=field) from None


def create_from_form(db: Database, values: dict[str, Any]) -> CreatedStudy:
    """Validate, then select, assign and store the study (InputError when it cannot be)."""
    from annotation.assignment import create_study
    from db.studies import StudyRepository

    study = create_study(StudyRepository(db), build_definition(values))
    return CreatedStudy(study.id, study.name, study.transcripts)


class StudyFormScreen(BedsideModal):
    """Form for a new reader study; dismisses with the created study, or None."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"),
                Binding("ctrl+s", "submit", "Create study")]

    def compose(self) -> ComposeResult:
        """Fields in rows, instructions, show-truth, error line and buttons."""
        by_id = {f[0]: f for f in TEXT_FIELDS}
        with VerticalScroll(classes="form", id="study-form"):
            yield Static(Text.assemble(("New reader study", "bold"),
                                     "   ctrl+s creates · Esc cancels"))
            for row in ROWS:
                with Horizontal(classes="row"):
                    for key in row:
                        _, label, placeholder, default = by_id[key]
                        yield Label(Text(label + " "))
                        yield Input(value=default, placeholder=placeholder, id=f"study-{key}",
                                    type="integer" if key in ("overlap", "calibration",
                                                              "seed", "sample") else "text")
            yield Label(Text("Instructions shown to raters"))
            yield TextArea(id="study-instructions", soft_wrap=True)
            yield Checkbox("Show raters the correct diagnosis", id="study-show_truth")
            yield Static("", id="study-error", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="study-cancel")
                yield Button("Create (ctrl+s)", id="study-create", variant="primary")

    def on_mount(self) -> None:
        """Focus the name."""
        self.query_one("#study-name", Input).focus()

    def values(self) -> dict[str, Any]:
        """The raw form values, by field name."""
        out: dict[str, Any] = {key: self.query_one(f"#study-{key}", Input).value
                               for key, *_ in TEXT_FIELDS}
        out["instructions"] = self.query_one("#study-instructions", TextArea).text
        out["show_truth"] = self.query_one("#study-show_truth", Checkbox).value
        return out

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Create or cancel."""
        if event.button.id == "study-create":
            self.action_submit()
        else:
            self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in any field creates."""
        self.action_submit()

    def action_submit(self) -> None:
        """Validate and create; a problem stays in the form as one line."""
        try:
            created = create_from_form(self.bedside.db, self.values())
        except BedsideError as err:
            self.query_one("#study-error", Static).update(literal(str(err)))
            return
        self.dismiss(created)

    def action_cancel(self) -> None:
        """Close without creating."""
        self.dismiss(None)
