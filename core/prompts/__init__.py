"""Every prompt in one place: the versioned prompts of the LLM agents and of the LLM-based
metrics (`metric_texts`: report judge, rating patient, one-step doctor) and of the fidelity
grader (`fidelity_texts`), how a view is rendered into a prompt (`render`), and the
fingerprints of the model-free agents.

Every consultation stores `hashes_for(roles)`: the sha256 of each prompt a model-played role
uses, and for a role played without a model (retrieval patient or examiner, scripted doctor,
exact moderator) the sha256 of the tables that decide its behaviour — templates, cue lists,
vocabulary, thresholds and version — so that a change to any of them shows in the record.
Old prompt versions stay registered, so stored hashes of earlier runs still resolve.

core.agents is imported lazily (by name), only to fingerprint the model-free agents.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from core.prompts import (agenthospital_texts, bias_texts, collab_texts, fidelity_texts,
                          image_texts, metric_texts, rjua_texts, texts, tool_texts)


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
        Prompt("doctor-images-on-request/v1", image_texts.DOCTOR_IMAGES_ON_REQUEST),
        Prompt("doctor-images-upfront/v1", image_texts.DOCTOR_IMAGES_UPFRONT),
        Prompt("doctor-images-given/v1", image_texts.DOCTOR_IMAGES_GIVEN),
        Prompt("patient/v1", texts.PATIENT),
        Prompt("patient/v2", texts.PATIENT_V2),
        Prompt("examiner/v1", texts.EXAMINER),
        Prompt("examiner/v2", texts.EXAMINER_V2),
        Prompt("examiner-request/v1", texts.EXAMINER_REQUEST),
        Prompt("moderator/v1", texts.MODERATOR),
        Prompt("moderator-question/v1", texts.MODERATOR_QUESTION),
        Prompt("report/v1", texts.REPORT),
        Prompt("metric-report-judge/v1", metric_texts.REPORT_JUDGE),
        Prompt("metric-patient-rating/v1", metric_texts.PATIENT_RATING),
        Prompt("metric-one-step-doctor/v1", metric_texts.ONE_STEP_DOCTOR),
        Prompt("fidelity-grader-patient/v1", fidelity_texts.GRADER_PATIENT),
        Prompt("fidelity-grader-examiner/v1", fidelity_texts.GRADER_EXAMINER),
        Prompt("language/v1", texts.LANGUAGE),
        Prompt("language-moderator/v1", texts.LANGUAGE_MODERATOR),
        Prompt("language-lines/v1", texts.LANGUAGE_LINES),
        Prompt("translator/v1", texts.TRANSLATOR),
        Prompt("tool-cot-zero/v1", tool_texts.COT_ZERO),
        Prompt("tool-cot-one/v1", tool_texts.COT_ONE_SHOT),
        Prompt("tool-search/v1", tool_texts.SEARCH),
        Prompt("tool-notebook/v1", tool_texts.NOTEBOOK),
        Prompt("notebook/v1", tool_texts.NOTEBOOK_WRITE),
        Prompt("critique/v1", tool_texts.CRITIQUE),
        Prompt("reflect/v1", tool_texts.REFLECT),
        *(Prompt(f"ah-{task}/v1", text) for task, text in agenthospital_texts.TASKS.items()),
        Prompt("ah-memory-records/v1", agenthospital_texts.MEMORY_RECORDS),
        Prompt("ah-memory-principles/v1", agenthospital_texts.MEMORY_PRINCIPLES),
        Prompt("ah-reflect/v1", agenthospital_texts.REFLECT),
        Prompt("ah-rewrite/v1", agenthospital_texts.REWRITE),
        Prompt("ah-triage/v1", agenthospital_texts.TRIAGE),
        Prompt("doctor-aihospital/v1", collab_texts.DOCTOR_AIHOSPITAL),
        Prompt("host-assess/v1", collab_texts.HOST_ASSESS),
        Prompt("host-agree/v1", collab_texts.HOST_AGREE),
        Prompt("host-final/v1", collab_texts.HOST_FINAL),
        Prompt("revision/v1", collab_texts.REVISION),
        Prompt("revision-plain/v1", collab_texts.REVISION_PLAIN),
        Prompt("rjua-reasoning/v1", rjua_texts.REASONING),
        Prompt("rjua-qa/v1", rjua_texts.QA),
    )
}
# The bias paragraphs (`bias_texts`, added to a model agent's instructions by
# `core.prompts.bias`), by role and bias name, and the illness a patient names when the
# case's differential has none to offer.
PROMPTS.update({f"bias/{role}/{name}/v1": Prompt(f"bias/{role}/{name}/v1", text)
                for role, table in (("patient", bias_texts.PATIENT),
                                    ("doctor", bias_texts.DOCTOR))
                for name, text in table.items()})
UNKNOWN_ILLNESS = Prompt("bias/patient/unknown-illness/v1", bias_texts.UNKNOWN_ILLNESS)
PROMPTS[UNKNOWN_ILLNESS.id] = UNKNOWN_ILLNESS
# The Agent Hospital prompts: one per task, the memory sections, the reflection that
# writes a principle, the generator's patient-voice rewrite.
AH_TASKS = {t: PROMPTS[f"ah-{t}/v1"] for t in agenthospital_texts.TASKS}
AH_MEMORY = (PROMPTS["ah-memory-records/v1"], PROMPTS["ah-memory-principles/v1"])
AH_REFLECT = PROMPTS["ah-reflect/v1"]
AH_REWRITE = PROMPTS["ah-rewrite/v1"]
AH_TRIAGE = PROMPTS["ah-triage/v1"]  # the whole hospital's triage nurse
# The metric prompts (and the one-step doctor's), by name; the judge's rubric is part of
# what its grades depend on, so its hash covers template and rubric (report_score).
REPORT_JUDGE = PROMPTS["metric-report-judge/v1"]
PATIENT_RATING = PROMPTS["metric-patient-rating/v1"]
ONE_STEP_DOCTOR = PROMPTS["metric-one-step-doctor/v1"]
# RJUA's single-answer tasks (`core.solvers.rjua`).
RJUA_REASONING = PROMPTS["rjua-reasoning/v1"]
RJUA_QA = PROMPTS["rjua-qa/v1"]
# The fidelity grader's prompts, by the role whose answers they check.
FIDELITY_GRADER = {"patient": PROMPTS["fidelity-grader-patient/v1"],
                   "examiner": PROMPTS["fidelity-grader-examiner/v1"]}
REPORT_RUBRIC = metric_texts.REPORT_RUBRIC
# The prompts each doctor tool adds (`core.doctortools`): a paragraph of the doctor's
# system prompt, or a request the doctor answers as a tool step.
TOOL_PROMPTS: dict[str, tuple[str, ...]] = {
    "zero_shot_cot": ("tool-cot-zero/v1",),
    "one_shot_cot": ("tool-cot-one/v1",),
    "reflection": ("critique/v1", "reflect/v1"),
    "notebook": ("tool-notebook/v1", "notebook/v1"),
    "retrieval": ("tool-search/v1",),
    "web_search": ("tool-search/v1",),
}

# Which prompts each role uses when played by a model (the current versions).
ROLE_PROMPTS: dict[str, tuple[str, ...]] = {
    "doctor": ("doctor/v1", "doctor-last-turn/v1", "report/v1", "doctor-images-on-request/v1",
               "doctor-images-upfront/v1", "doctor-images-given/v1", "language/v1",
               "language-lines/v1"),
    "patient": ("patient/v2", "language/v1", "language-lines/v1"),
    "examiner": ("examiner/v2", "examiner-request/v1", "language/v1", "language-lines/v1"),
    "moderator": ("moderator/v1", "moderator-question/v1", "language-moderator/v1",
                  "language-lines/v1"),
    "host": ("host-assess/v1", "host-agree/v1", "host-final/v1"),
    "collaborator": ("revision/v1", "revision-plain/v1"),
}
#: The doctor's prompts under AI Hospital's protocol (`ConsultationConfig.protocol`).
PROTOCOL_DOCTOR_PROMPTS: dict[str, tuple[str, ...]] = {
    # its own instructions instead of doctor/v1; the rest as under AgentClinic's
    "aihospital": ("doctor-aihospital/v1", *ROLE_PROMPTS["doctor"][1:]),
}
# The prompts an Agent Hospital model doctor uses (MedAgent-Zero adds the reflection).
AH_DOCTOR_PROMPTS = (*(f"ah-{t}/v1" for t in agenthospital_texts.TASKS),
                     "ah-memory-records/v1", "ah-memory-principles/v1", "ah-reflect/v1")

# (role, agent kind) → the module whose `tables()` decides a model-free agent's behaviour.
OFFLINE_AGENTS: dict[tuple[str, str], str] = {
    ("patient", "retrieval"): "core.agents.retrieval_patient",
    ("examiner", "retrieval"): "core.agents.retrieval_examiner",
    ("doctor", "scripted"): "core.agents.scripted_doctor",
    ("moderator", "exact"): "core.agents.moderator",
    # The rules by which the retrieval patient shows its biases (hashed only when it has one).
    ("patient-bias", "retrieval"): "core.agents.biased_patient",
    ("host", "scripted"): "core.agents.host",
    ("collaborator", "scripted"): "core.agents.scripted_doctor",
    ("intent", "rules"): "core.intent",
    ("protocol", "aihospital"): "core.solvers.protocols",
}

# tag → (English name, own name, instruction in the language), from `texts.LANGUAGE_LINES`.
LANGUAGES: dict[str, tuple[str, str, str]] = {
    line.split("|")[0]: tuple(line.split("|")[1:4])  # type: ignore[misc]
    for line in texts.LANGUAGE_LINES.splitlines()}
LANGUAGE_NAMES = {"zh": "Chinese (Simplified)", "it": "Italian", "pt": "Portuguese",
                  "ja": "Japanese", **{tag: names[0] for tag, names in LANGUAGES.items()}}


def get(prompt_id: str) -> Prompt:
    """The prompt with this id (KeyError if unknown)."""
    return PROMPTS[prompt_id]


def language_name(tag: str) -> str:
    """English name of a BCP-47 tag, for prompts; the tag itself when unknown."""
    return LANGUAGE_NAMES.get(tag) or LANGUAGE_NAMES.get(tag.split("-")[0]) or tag


def language_names(tag: str) -> tuple[str, str]:
    """(English name, own name) of a language tag."""
    name, endonym, _ = _language(tag)
    return name, endonym


def _language(tag: str) -> tuple[str, str, str]:
    found = LANGUAGES.get(tag) or LANGUAGES.get(tag.split("-")[0]) or (
        LANGUAGES["zh-Hans"] if tag.split("-")[0] == "zh" else None)
    name = language_name(tag)
    return found or (name, name, f"Answer in {name}.")


def with_language(system: str, tag: str, moderator: bool = False) -> str:
    """A role's system prompt with the case's language line (`language/v1`, or
    `language-moderator/v1`) put before its closing prompt id line."""
    name, endonym, instruction = _language(tag)
    line = PROMPTS["language-moderator/v1" if moderator else "language/v1"].format(
        language_name=name, endonym=endonym, instruction=instruction)
    head, sep, tail = system.rpartition("\nPrompt id:")
    return f"{head}\n{line}{sep}{tail}" if sep else f"{system}\n{line}"


def _jsonable(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    return str(value)


@lru_cache(maxsize=16)
def offline_fingerprint(role: str, kind: str) -> tuple[str, str] | None:
    """(version id, sha256 of its tables) for a model-free agent, or None if not one.

    The tables are module constants, so the hash is computed once per process (it takes
    tens of milliseconds); `offline_fingerprint.cache_clear()` recomputes it.
    """
    module = OFFLINE_AGENTS.get((role, kind))
    if module is None:
        return None
    tables = importlib.import_module(module).tables()
    blob = json.dumps(tables, sort_keys=True, ensure_ascii=False, default=_jsonable)
    return str(tables["version"]), hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _kinds(value: str | list[str] | tuple[str, ...]) -> list[str]:
    if isinstance(value, str):
        return [k.strip() for k in value.split(",") if k.strip()]
    return list(value)


def hashes_for(roles: dict[str, Any]) -> dict[str, str]:
    """Prompt or table id → sha256 for every agent of a consultation.

    `roles` maps a role to the kind of agent playing it ("llm", "retrieval", "scripted",
    "exact", "human"); several kinds may be given as a list or "exact,llm" (two moderators).
    Model-played roles give their prompts' hashes; model-free ones their tables' hash, under
    their version id (e.g. "retrieval-patient/2"); a human doctor gives nothing.
    """
    out: dict[str, str] = {}
    for role, value in roles.items():
        for kind in _kinds(value):
            if kind == "llm":
                out.update({pid: PROMPTS[pid].sha256 for pid in ROLE_PROMPTS.get(role, ())})
                continue
            found = offline_fingerprint(role, kind)
            if found:
                out[found[0]] = found[1]
    return out
