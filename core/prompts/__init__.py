"""Versioned prompts of the LLM agents, each with its sha256 (stored with every consultation).

Must not import: textual, rich, litellm, or any other bedside package.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from core.prompts import texts


@dataclass(frozen=True)
class Prompt:
    """One prompt template with a stable id and the hash of its exact text."""

    id: str
    text: str

    @property
    def sha256(self) -> str:
        """Hex sha256 of the template text (before formatting)."""
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    def format(self, **values: object) -> str:
        """Fill the template."""
        return self.text.format(**values)


PROMPTS: dict[str, Prompt] = {
    p.id: p
    for p in (
        Prompt("doctor/v1", texts.DOCTOR),
        Prompt("doctor-last-turn/v1", texts.DOCTOR_LAST_TURN),
        Prompt("patient/v1", texts.PATIENT),
        Prompt("examiner/v1", texts.EXAMINER),
        Prompt("examiner-request/v1", texts.EXAMINER_REQUEST),
        Prompt("moderator/v1", texts.MODERATOR),
        Prompt("moderator-question/v1", texts.MODERATOR_QUESTION),
        Prompt("report/v1", texts.REPORT),
    )
}

# Which prompts each role uses when played by a model.
ROLE_PROMPTS: dict[str, tuple[str, ...]] = {
    "doctor": ("doctor/v1", "doctor-last-turn/v1", "report/v1"),
    "patient": ("patient/v1",),
    "examiner": ("examiner/v1", "examiner-request/v1"),
    "moderator": ("moderator/v1", "moderator-question/v1"),
}

LANGUAGE_NAMES = {"en": "English", "es": "Spanish", "fr": "French", "de": "German",
                  "zh": "Chinese (Simplified)", "zh-Hans": "Chinese (Simplified)",
                  "it": "Italian", "pt": "Portuguese", "ja": "Japanese", "ko": "Korean"}


def get(prompt_id: str) -> Prompt:
    """The prompt with this id (KeyError if unknown)."""
    return PROMPTS[prompt_id]


def language_name(tag: str) -> str:
    """English name of a BCP-47 tag, for prompts; the tag itself when unknown."""
    return LANGUAGE_NAMES.get(tag) or LANGUAGE_NAMES.get(tag.split("-")[0]) or tag


def hashes_for(roles: dict[str, str]) -> dict[str, str]:
    """Prompt id → sha256 for the roles played by a model (`roles`: role → agent kind)."""
    out: dict[str, str] = {}
    for role, kind in roles.items():
        if kind == "llm":
            for pid in ROLE_PROMPTS.get(role, ()):
                out[pid] = PROMPTS[pid].sha256
    return out
