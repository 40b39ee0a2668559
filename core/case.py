"""The clinical case model: everything a consultation can draw on, for every source.

A case holds four kinds of information that must stay apart during a consultation: what
the doctor is told up front, what the patient knows, what the examiner can report, and the
ground truth. `core.views` turns a case into one view per role.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath
from typing import Any, Literal

from pydantic import (BaseModel, ConfigDict, Field, PrivateAttr, field_validator,
                      model_validator)

HistoryKind = Literal[
    "past_medical",
    "medication",
    "surgical",
    "allergy",
    "social",
    "family",
    "menstrual_obstetric",
    "review_of_systems",
    "other",
]
HISTORY_KINDS: tuple[str, ...] = HistoryKind.__args__  # type: ignore[attr-defined]

InquiryCategory = Literal["symptom", "history", "exam", "test", "diagnosis", "treatment"]
# BCP-47 tag syntax, simplified: language (2-3 letters), optional script (4 letters), optional
# region (2 letters or 3 digits), optional variants. Enough to reject 'english' or 'klingon-xx'.
BCP47 = re.compile(r"^[A-Za-z]{2,3}(-[A-Za-z]{4})?(-(?:[A-Za-z]{2}|[0-9]{3}))?"
                   r"(-(?:[A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))*$")


class _Model(BaseModel):
    """Base for case models: unknown keys are errors, so typos in case files surface."""

    model_config = ConfigDict(extra="forbid")


class Item(_Model):
    """A named finding: an examination, a test, a panel or an analyte, with optional children.

    Findings form a tree (test → panel → analyte → value). A leaf carries `value`; an inner
    node carries `children` and may also carry a summary `value`.
    """

    name: str = Field(description="Display name, e.g. 'Complete blood count' or 'Haemoglobin'.")
    value: str | None = Field(None, description="The stored result or finding text, verbatim.")
    children: list[Item] = Field(default_factory=list, description="Sub-items (panel → analyte).")
    synonyms: list[str] = Field(default_factory=list, description="Other names a doctor may use.")
    timing: str | None = Field(None, description="When it was obtained, e.g. '4 months ago'.")
    weight: float | None = Field(
        None, ge=0, description="Importance for pathway metrics (higher = more important)."
    )
    relevant: bool | None = Field(
        None, description="Whether ordering it is reasonable for this case (guidance metrics)."
    )

    def walk(self, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Item]]:
        """Return (path, item) for this item and every descendant, depth first."""
        here = (*path, self.name)
        out = [(here, self)]
        for child in self.children:
            out.extend(child.walk(here))
        return out

    def render(self, indent: int = 0) -> str:
        """Plain-text rendering of the subtree, one line per item."""
        pad = "  " * indent
        line = f"{pad}{self.name}: {self.value}" if self.value else f"{pad}{self.name}"
        return "\n".join([line, *(c.render(indent + 1) for c in self.children)])


class Symptom(_Model):
    """One symptom as the patient would describe it."""

    name: str = Field(description="Short name, e.g. 'chest pain'.")
    description: str | None = Field(None, description="How the patient describes it.")
    onset: str | None = Field(None, description="When or how it began.")
    duration: str | None = Field(None, description="How long it has lasted.")
    character: str | None = Field(None, description="Quality, severity, radiation, triggers.")
    synonyms: list[str] = Field(default_factory=list, description="Other words for it.")
    weight: float | None = Field(None, ge=0, description="Importance for pathway metrics.")
    present: bool = Field(True, description="False for a pertinent negative the patient denies.")


class HistoryItem(_Model):
    """One piece of history of a given kind (past medical, social, family, ...)."""

    kind: HistoryKind = Field(description="Which kind of history this is.")
    text: str = Field(description="What the patient can tell about it.")
    name: str | None = Field(None, description="Optional finer label, e.g. 'smoking'.")
    synonyms: list[str] = Field(default_factory=list, description="Words that point to it.")
    weight: float | None = Field(None, ge=0, description="Importance for pathway metrics.")


class Demographics(_Model):
    """Who the patient is."""

    age: str | None = Field(None, description="Age as written, e.g. '54' or '3 months'.")
    sex: str | None = Field(None, description="Sex or gender as written in the source.")
    occupation: str | None = Field(None, description="Occupation, if known.")
    text: str | None = Field(None, description="Free-text demographics line from the source.")

    @field_validator("age", mode="before")
    @classmethod
    def _age_as_text(cls, value: Any) -> Any:
        # `age: 58` in YAML is a number; an age is harmless to turn into text.
        return str(value) if isinstance(value, int | float) and not isinstance(value, bool) \
            else value


class PatientProfile(_Model):
    """Everything the patient knows about themself; nothing from tests or the diagnosis."""

    demographics: Demographics = Field(default_factory=Demographics, description="Who.")
    persona: str | None = Field(None, description="Manner of speaking, worries, personality.")
    chief_complaint: str | None = Field(None, description="Main complaint in the patient's words.")
    history_of_present_illness: str | None = Field(None, description="The story so far.")
    primary_symptoms: list[Symptom] = Field(default_factory=list, description="Main symptoms.")
    secondary_symptoms: list[Symptom] = Field(default_factory=list, description="Other symptoms.")
    history: list[HistoryItem] = Field(default_factory=list, description="All history items.")
    opening: str | None = Field(None, description="The patient's first words, if scripted.")
    proxy: str | None = Field(
        None, description="Who answers for the patient when the patient cannot (a child's "
        "mother, a husband after a stroke), e.g. 'mother'. Stored text is then in that "
        "person's voice, and the offline patient speaks of the patient as he or she.")

    @field_validator("history", mode="before")
    @classmethod
    def _history_from_mapping(cls, value: Any) -> Any:
        # Authors may write `history: {social: "...", family: "..."}`.
        if isinstance(value, dict):
            return [{"kind": k, "text": v} for k, v in value.items()]
        return value

    def symptoms(self) -> list[Symptom]:
        """Primary then secondary symptoms."""
        return [*self.primary_symptoms, *self.secondary_symptoms]


class InquiryStep(_Model):
    """One step of the expected order of inquiry: a category and optionally an item name."""

    category: InquiryCategory = Field(description="What kind of information.")
    name: str | None = Field(None, description="Which item within the category, if specific.")

    @model_validator(mode="before")
    @classmethod
    def _from_string(cls, value: Any) -> Any:
        # Authors may write "symptom:chest pain" or "test".
        if isinstance(value, str):
            category, _, name = value.partition(":")
            return {"category": category.strip(), "name": name.strip() or None}
        return value


class ImageRef(_Model):
    """A clinical image attached to a case: a file beside the case file and/or a URL.

    A URL (NEJM imports) is fetched once into the local image cache (`bedside cases
    fetch-images`, `core.image_cache`); a path is read from the case's own folder. Which
    images the doctor sees at the start is the `--images` factor's choice (`core.images`).
    """

    url: str | None = Field(None, description="Where the image lives on the web (http or "
                            "https); fetched into the local cache, never at run time.")
    path: str | None = Field(None, description="The image file, relative to the case file's "
                             "folder and inside it (e.g. 'images/card-002-ecg.png'); PNG, "
                             "JPEG, GIF or WebP.")
    description: str | None = Field(
        None, description="A neutral caption shown with the image to every doctor, model or "
        "physician ('Rhythm strip, lead II'): what the image is, never what it shows.")
    given_upfront: bool = Field(
        True, description="Under `--images upfront` (the default), shown with the "
        "presentation; False: only on request (`REQUEST IMAGES`), whatever the mode.")

    @field_validator("url")
    @classmethod
    def _web_url(cls, value: str | None) -> str | None:
        if value is not None and not re.match(r"^https?://\S+$", value.strip()):
            raise ValueError(f"'{value}' is not an http or https URL")
        return value.strip() if value is not None else None

    @field_validator("path")
    @classmethod
    def _inside_folder(cls, value: str | None) -> str | None:
        # A case file is untrusted: its images are read from its own folder, never from
        # anywhere else on the machine.
        if value is None:
            return None
        parts = PurePosixPath(value.replace("\\", "/"))
        if not value.strip() or parts.is_absolute() or ".." in parts.parts \
                or re.match(r"^[A-Za-z]:", value):
            raise ValueError(f"'{value}' must be a path relative to the case file's folder, "
                             "inside it (no '..', not absolute)")
        return value

    @model_validator(mode="after")
    def _somewhere(self) -> ImageRef:
        if not self.url and not self.path:
            raise ValueError("an image needs a 'path' (a file beside the case) or a 'url'")
        return self

    @property
    def name(self) -> str:
        """The image's file name, as shown with it ('ecg.png', or the URL's last part)."""
        where = self.path or (self.url or "").split("?")[0].rstrip("/")
        return PurePosixPath(where.replace("\\", "/")).name or where


class Diagnosis(_Model):
    """A secondary diagnosis: a disease entity with its own accepted names and codes."""

    name: str = Field(min_length=1, description="The diagnosis as written, e.g. 'Hyperkalaemia'.")
    synonyms: list[str] = Field(default_factory=list, description="Other accepted names for it.")
    icd10: list[str] = Field(default_factory=list, description="Its ICD-10 code(s), if known.")

    @model_validator(mode="before")
    @classmethod
    def _from_string(cls, value: Any) -> Any:
        # Authors and importers may write a plain name.
        return {"name": value} if isinstance(value, str) else value


class GroundTruth(_Model):
    """What the consultation should reach. Only the moderator and the evaluation see it."""

    diagnosis: str = Field(min_length=1, description="The primary diagnosis.")
    synonyms: list[str] = Field(default_factory=list, description="Accepted names for it.")
    other_diagnoses: list[Diagnosis] = Field(
        default_factory=list, description="Secondary diagnoses, each with its own names/codes.")
    differential: list[str] = Field(default_factory=list, description="Reasonable alternatives.")
    rationale: str | None = Field(None, description="Why this is the diagnosis.")
    treatment: str | None = Field(None, description="The treatment plan or course.")
    icd10: list[str] = Field(
        default_factory=list,
        description="ICD-10 code(s) of the primary diagnosis only; a secondary diagnosis "
        "carries its own codes.")
    options: list[str] = Field(default_factory=list, description="Multiple-choice options.")
    correct_option: str | None = Field(None, description="The correct option, if any.")
    extra: dict[str, str] = Field(default_factory=dict, description="Other source fields.")

    def other_names(self) -> list[str]:
        """The names of the secondary diagnoses."""
        return [d.name for d in self.other_diagnoses]


class Case(_Model):
    """A complete clinical case."""

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:-]*$", description="Stable identifier.")
    title: str = Field(description="Short human title (does not reveal the diagnosis).")
    language: str = Field("en", description="BCP-47 language tag of the case text.")
    specialty: str = Field(description="Clinical specialty, lower case, e.g. 'cardiology'.")
    source: str = Field("bedside", description="Where the case comes from.")
    licence: str = Field("CC-BY-4.0", description="Licence of the case text.")
    objective: str = Field(description="All the doctor is told at the start.")
    patient: PatientProfile = Field(description="What the patient knows.")
    physical_exam: list[Item] = Field(default_factory=list, description="Examination findings.")
    tests: list[Item] = Field(default_factory=list, description="Test results.")
    expected_inquiry_order: list[InquiryStep] = Field(
        default_factory=list, description="The correct order of inquiry, if known."
    )
    expected_rounds: int | None = Field(None, ge=1, description="Expected number of rounds.")
    truth: GroundTruth = Field(description="Ground truth, hidden from patient and examiner.")
    images: list[ImageRef] = Field(default_factory=list, description="Clinical images.")
    tags: list[str] = Field(default_factory=list, description="Free tags.")
    notes: str | None = Field(None, description="Author's notes; never shown to any agent.")
    placeholder: bool = Field(
        False, description="A stand-in for a record that was not imported (e.g. the case of "
        "an imported transcript): it has no real ground truth, is never run and is left out "
        "of accuracy and metrics.")
    # The folder of the file the case was read from (not part of the case's content or
    # hash): image paths are relative to it. None for a case built in memory or read back
    # from the store.
    _folder: Path | None = PrivateAttr(None)

    @property
    def folder(self) -> Path | None:
        """The folder of the case file this case was read from, if any."""
        return self._folder

    def read_from(self, folder: Path | None) -> Case:
        """Remember the folder of the file this case was read from (returns the case)."""
        self._folder = folder
        return self

    def __eq__(self, other: object) -> bool:
        # The same case whether read from its file or from the store: where it was read
        # from is no part of it.
        if not isinstance(other, Case):
            return NotImplemented
        return type(self) is type(other) and self.__dict__ == other.__dict__
    translated_from: str | None = Field(
        None, description="Id of the case this one was translated from (`bedside cases "
        "translate`).")
    machine_translated: bool = Field(
        False, description="The text was translated by a model, not written in this language.")
    needs_review: bool = Field(
        False, description="Flagged for a native-speaking clinician to correct; `cases list` "
        "and the app mark it until the flag is removed.")

    @field_validator("language")
    @classmethod
    def _bcp47(cls, value: str) -> str:
        if not BCP47.match(value):
            raise ValueError(f"'{value}' is not a BCP-47 language tag "
                             "(e.g. en, fr, zh-Hans, pt-BR)")
        return value

    def findings(self) -> list[tuple[str, tuple[str, ...], Item]]:
        """Every examination and test item with its kind ('exam'/'test') and path."""
        out: list[tuple[str, tuple[str, ...], Item]] = []
        for kind, roots in (("exam", self.physical_exam), ("test", self.tests)):
            for root in roots:
                out.extend((kind, path, item) for path, item in root.walk())
        return out
