"""Rubrics: the questions of a reader study, each asked once per transcript or per turn.

A rubric is data (a study file's `rubric`, the default one in `annotation.rubric_default`,
or a rubric file named in the app's form), validated here. Study definitions
(`annotation.study`) hold one; blinding, the rating form and the judge read it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

ItemKind = Literal["scale", "choice", "text"]
ItemUnit = Literal["transcript", "turn"]
TURN_ROLES = ("doctor", "patient", "examiner")
# The turn kinds the engine and the importers write (see `core.transcript.Turn.kind`); a
# per-turn item restricted to a kind outside this list would silently match no turn.
TURN_KINDS = ("question", "test_request", "diagnosis", "answer", "result", "refusal",
              "report", "message", "image_request", "images")


class StrictModel(BaseModel):
    """A model of a human-written file: unknown keys are errors, so typos surface."""

    model_config = ConfigDict(extra="forbid")


class RubricItem(StrictModel):
    """One question of a rubric, asked once per transcript or once per eligible turn."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$", description="Stable id, e.g. 'empathy'.")
    label: str = Field(description="The question as the rater reads it.")
    short: str | None = Field(None, description="Per-turn items: a few words for the "
                              "one-line form under each turn ('Relevant?'); the label if "
                              "omitted.")
    kind: ItemKind = Field(description="'scale' (integers), 'choice' (options) or 'text'.")
    unit: ItemUnit = Field("transcript", description="Rated per transcript or per turn.")
    roles: list[Literal["doctor", "patient", "examiner"]] = Field(
        default_factory=list, description="Per-turn items: the roles whose turns are rated.")
    turn_kinds: list[str] = Field(
        default_factory=list,
        description="Per-turn items: only turns of these kinds (any if empty).")
    min: int = Field(1, description="Scale: lowest value.")
    max: int = Field(10, description="Scale: highest value (at most 10: one key per value).")
    anchors: dict[int, str] = Field(default_factory=dict, description="Scale: labelled values.")
    options: list[str] = Field(default_factory=list, description="Choice: the allowed answers.")
    required: bool = Field(True, description="Must be answered before the item can be saved.")
    help: str | None = Field(None, description="Longer guidance shown with the question.")

    @model_validator(mode="after")
    def _consistent(self) -> RubricItem:
        if self.kind == "scale":
            if not 1 <= self.min < self.max <= 10:
                raise ValueError("a scale needs 1 <= min < max <= 10 (one key per value)")
            bad = [a for a in self.anchors if not self.min <= a <= self.max]
            if bad:
                raise ValueError(f"anchor {bad[0]} lies outside {self.min}..{self.max}")
        if self.kind == "choice" and not 2 <= len(self.options) <= 9:
            raise ValueError("a choice needs between 2 and 9 options")
        # Keys that mean nothing for this kind or unit would be silently ignored: refuse them.
        # (Judged by value, not by presence, so that stored definitions, which spell every
        # default out, still load.)
        ignored = {"scale": ("options",), "choice": ("min", "max", "anchors"),
                   "text": ("min", "max", "anchors", "options")}[self.kind]
        if self.unit == "transcript":
            ignored += ("roles", "turn_kinds", "short")
        defaults = {"min": 1, "max": 10}
        given = [k for k in ignored
                 if (getattr(self, k) != defaults[k] if k in defaults else bool(getattr(self, k)))]
        if given:
            raise ValueError(f"'{given[0]}' does not apply to a {self.kind} item rated per "
                             f"{self.unit}")
        if self.unit == "turn" and not self.roles:
            raise ValueError("a per-turn item needs 'roles' (doctor, patient, examiner)")
        if self.unit == "turn" and self.kind == "text":
            raise ValueError("per-turn items must be 'scale' or 'choice'")
        unknown = [k for k in self.turn_kinds if k not in TURN_KINDS]
        if unknown:
            raise ValueError(f"unknown turn kind '{unknown[0]}' (one of {', '.join(TURN_KINDS)})")
        return self

    def accepts(self, value: Any) -> str | None:
        """The value normalised to its stored text, or None when it is not valid here."""
        if self.kind == "scale":
            try:
                number = int(str(value).strip())
            except ValueError:
                return None
            return str(number) if self.min <= number <= self.max else None
        if self.kind == "choice":
            text = str(value).strip()
            match = [o for o in self.options if o.lower() == text.lower()]
            return match[0] if match else None
        return str(value)

    def applies_to(self, role: str, kind: str) -> bool:
        """Whether a turn with this role and kind gets this per-turn item."""
        return (self.unit == "turn" and role in self.roles
                and (not self.turn_kinds or kind in self.turn_kinds))


class Rubric(StrictModel):
    """The questions of a study, in the order the form shows them."""

    name: str | None = Field(None, description="The built-in rubric and version this is "
                             "('default/v2', 'aihospital-report/v1'), stored with a study "
                             "made from it; None for a study's own rubric.")
    items: list[RubricItem] = Field(min_length=1, description="The rubric items.")

    @model_validator(mode="after")
    def _unique(self) -> Rubric:
        seen: set[str] = set()
        for item in self.items:
            if item.id in seen:
                raise ValueError(f"duplicate item id '{item.id}'")
            seen.add(item.id)
        return self

    def item(self, item_id: str) -> RubricItem | None:
        """The item with this id, if any."""
        return next((i for i in self.items if i.id == item_id), None)
