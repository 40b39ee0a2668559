"""The LLM judge: rates a study's transcripts with the raters' instructions and rubric.

One structured call per transcript, given exactly the blinded item a human rater sees. The
answer must be a JSON object; it is parsed and validated against the rubric, retried when
unusable, and recorded as failed in `judge_calls` after the last attempt.

A judge's identity is its settings: the rater is `judge:MODEL#H`, where H hashes the model,
the sampling parameters and the prompt hash, and the rater row keeps all three. Running the
same model at another temperature, or after the rubric or instructions changed, makes a new
rater, so ratings are never relabelled with settings they were not made with; running with
the same settings resumes where the last run stopped. Models are reached only through the
`Complete` callable the caller injects (the CLI wires `core/llm.py`); this module never
imports a model library. `run_judge` is the use case behind `bedside judge`; it reads and
writes through the `ReaderStudyStore` port, each call and each answer committed at once.

A key the provider refuses (`core.errors.CredentialError`) stops the run at once: every
further call would fail the same way. A new judge's first call is made before anything is
written, so a bad key leaves the study as it was (no judge rater, no assignments, no
failed calls); a key refused later keeps what was rated before it.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from annotation.assignment import load_definition
from annotation.blinding import BlindItem, blind_consultation, blind_item, rating_units
from annotation.rubric import Rubric
from annotation.study import StudyDefinition
from core.errors import BedsideError, CredentialError
from core.metrics.identity import rater_name
from core.ports.studies import ReaderStudyStore, StudyStore
from core.records.studies import PENDING, JudgeCall, RaterRecord, Unit

Complete = Callable[..., Awaitable[str]]
"""`async def complete(messages: list[dict], **params) -> str` — one chat completion."""

FORMAT = (
    "Answer with one JSON object and nothing else, shaped like\n"
    '{"transcript": {"<item id>": <answer>, ...}, '
    '"turns": {"<turn number>": {"<item id>": <answer>, ...}, ...}}\n'
    "Scales take an integer, choices one of the listed options, text items a string. "
    "Rate per-turn items for every turn marked with them."
)


def judge_name(model: str, params: dict[str, Any], phash: str) -> str:
    """`judge:MODEL#H`: H is a short hash of the model, its parameters and the prompt hash
    (the identity `bedside score`'s report judge has too: `core.metrics.identity`)."""
    return rater_name("judge", model, params, phash)


class JudgeAnswer(BaseModel):
    """The shape of the judge's JSON answer."""

    transcript: dict[str, Any] = Field(default_factory=dict, description="Per-transcript items.")
    turns: dict[int, dict[str, Any]] = Field(default_factory=dict, description="Per-turn items.")


def _describe(rubric: Rubric) -> str:
    lines = []
    for item in rubric.items:
        if item.kind == "scale":
            anchors = "; ".join(f"{k} = {v}" for k, v in sorted(item.anchors.items()))
            answer = f"integer {item.min}-{item.max}" + (f" ({anchors})" if anchors else "")
        elif item.kind == "choice":
            answer = "one of " + ", ".join(f'"{o}"' for o in item.options)
        else:
            answer = "free text" + ("" if item.required else " (may be empty)")
        where = (f"per {'/'.join(item.roles)} turn" if item.unit == "turn" else "per transcript")
        lines.append(f"- {item.id} [{where}; {answer}]: {item.label}"
                     + (f" {item.help}" if item.help else ""))
    return "\n".join(lines)


def system_prompt(definition: StudyDefinition) -> str:
    """The judge's instructions: the raters' instructions, the rubric, the answer format."""
    return ("You are rating a transcript of a simulated clinical consultation.\n\n"
            f"Instructions given to every rater:\n{definition.instructions.strip()}\n\n"
            f"Rubric:\n{_describe(definition.effective_rubric())}\n\n{FORMAT}")


def prompt_hash(definition: StudyDefinition) -> str:
    """A short hash of the fixed part of the prompt (what makes two judge runs comparable)."""
    return hashlib.sha256(system_prompt(definition).encode()).hexdigest()[:16]


def user_prompt(item: BlindItem, rubric: Rubric) -> str:
    """The blinded transcript (turn numbers, roles, text) and the case record."""
    parts = []
    if item.reference is None:
        parts.append("CASE RECORD: not available for this transcript; rate honesty and "
                     "examiner accuracy from the transcript alone, or answer n/a where offered.")
    else:
        parts.append(f"CASE RECORD (patient):\n{item.reference.patient}\n\n"
                     f"CASE RECORD (stored findings and results):\n{item.reference.findings}")
        if item.reference.truth:
            parts.append(f"CORRECT DIAGNOSIS: {item.reference.truth}")
        if item.reference.treatment:
            parts.append(f"RECORD'S TREATMENT: {item.reference.treatment}")
    lines = []
    for t in item.turns:
        marks = [i.id for i in rubric.items if i.applies_to(t.role, t.kind)]
        tag = f" (rate: {', '.join(marks)})" if marks else ""
        lines.append(f"[turn {t.index}] {t.who.upper()}{tag}:\n{t.content}")
    parts.append("TRANSCRIPT:\n" + "\n\n".join(lines))
    return "\n\n".join(parts)


def _json_text(raw: str) -> str:
    fenced = re.search(r"```(?:json)?\s*(.*?)```", raw, re.DOTALL)
    if fenced:
        return fenced.group(1)
    start, end = raw.find("{"), raw.rfind("}")
    return raw[start:end + 1] if start >= 0 and end > start else raw


def _shape(data: Any, rubric: Rubric) -> Any:
    """Tolerate common near-misses: per-transcript items at the top level, and turn keys
    written 'turn 4', 'turn:4' or '#4'."""
    if not isinstance(data, dict):
        return data
    if not {"transcript", "turns"} & data.keys() and data.keys() & {i.id for i in rubric.items}:
        data = {"transcript": data}
    turns = data.get("turns")
    if isinstance(turns, dict):
        data = {**data, "turns": {re.sub(r"^\s*(?:turn\s*[:#]?|#)\s*", "", str(k), flags=re.I): v
                                  for k, v in turns.items()}}
    return data


def parse_answer(raw: str, rubric: Rubric, item: BlindItem) -> dict[Unit, str]:
    """Validate an answer against the rubric; ValueError says what is wrong."""
    try:
        answer = JudgeAnswer.model_validate(_shape(json.loads(_json_text(raw)), rubric))
    except (json.JSONDecodeError, ValidationError) as err:
        raise ValueError(f"not the expected JSON object ({str(err).splitlines()[0]})") from None
    given = {(k, -1): v for k, v in answer.transcript.items()}
    given.update({(k, idx): v for idx, d in answer.turns.items() for k, v in d.items()})
    units = {(i.id, idx): i for i, idx in rating_units(rubric, item.turns)}
    out: dict[Unit, str] = {}
    for unit, value in given.items():
        if unit not in units:
            raise ValueError(f"'{unit[0]}' is not an item for "
                             f"{'the transcript' if unit[1] < 0 else f'turn {unit[1]}'}")
        if value is None or value == "":
            continue
        norm = units[unit].accepts(value)
        if norm is None:
            raise ValueError(f"{value!r} is not a valid answer to '{unit[0]}'")
        out[unit] = norm
    missing = [u for u, i in units.items() if i.required and u not in out]
    if missing:
        raise ValueError(f"missing answers: {', '.join(f'{a}@{b}' for a, b in missing[:5])}")
    return out


@dataclass
class JudgeSummary:
    """What a judge run did."""

    rater: str
    rated: int = 0
    failed: int = 0
    already: int = 0


@dataclass
class JudgeStep:
    """One transcript done, for progress lines: position, outcome and why it failed."""

    done: int
    total: int
    consultation_id: str
    status: str
    attempts: int
    error: str | None = None


async def _rate_one(complete: Complete, messages: list[dict[str, str]], params: dict[str, Any],
                    rubric: Rubric, item: BlindItem,
                    attempts: int) -> tuple[dict[Unit, str] | None, int, str, str]:
    """(values or None, attempts used, last raw answer, last error)."""
    raw, error = "", ""
    for attempt in range(1, attempts + 1):
        try:
            raw = await complete(list(messages), **params)
        except CredentialError:
            raise  # every call would fail alike: the run stops (run_judge)
        except BedsideError as err:
            return None, attempt, raw, str(err)  # the model layer already retried
        try:
            return parse_answer(raw, rubric, item), attempt, raw, ""
        except ValueError as err:
            error = str(err)
            messages = [*messages, {"role": "assistant", "content": raw},
                        {"role": "user", "content": f"That answer was not usable: {error}. "
                                                    "Reply again with the JSON object only."}]
    return None, attempts, raw, error


def _judge_rater(store: StudyStore, study_id: str, definition: StudyDefinition, model: str,
                 params: dict[str, Any]) -> tuple[RaterRecord, str]:
    """(rater, prompt hash) of the judge with these settings, assigned to every transcript
    of the study."""
    phash = prompt_hash(definition)
    rater = store.ensure_rater(judge_name(model, params, phash), "judge", model=model,
                               params=params, prompt_hash=phash)
    store.add_assignments(study_id, rater.id,
                          [(c, False) for c in store.study_consultations(study_id)])
    return rater, phash


async def run_judge(store: ReaderStudyStore, study: str, model: str, complete: Complete, *,
                    params: dict[str, Any] | None = None, attempts: int = 3,
                    on_step: Callable[[JudgeStep], None] | None = None) -> JudgeSummary:
    """Rate every transcript of a study not yet rated by this judge; resumable.

    `on_step` is called after each transcript (the CLI prints a progress line). Raises
    CredentialError when the provider refuses the key (see the module docstring).
    """
    record = store.get_study(study)
    definition = load_definition(record)
    rubric, params = definition.effective_rubric(), params or {}
    system = {"role": "system", "content": system_prompt(definition)}

    async def rate(item: BlindItem) -> tuple[dict[Unit, str] | None, int, str, str]:
        messages = [system, {"role": "user", "content": user_prompt(item, rubric)}]
        return await _rate_one(complete, messages, params, rubric, item, attempts)

    # A judge new to this study: its first call before anything is written (a refused key
    # changes nothing).
    first: dict[str, tuple[dict[Unit, str] | None, int, str, str]] = {}
    known = store.find_rater(judge_name(model, params, prompt_hash(definition)))
    if known is None or not store.assignments(record.id, known.id):
        cids = store.study_consultations(record.id)
        if cids:
            try:
                first[cids[0]] = await rate(blind_consultation(store, cids[0],
                                                               definition.show_truth))
            except CredentialError as err:
                raise CredentialError(f"{err}; stopped at once, nothing was written to "
                                      f"study '{record.name}'") from None
    rater, phash = _judge_rater(store, record.id, definition, model, params)
    summary = JudgeSummary(rater.name)
    todo = store.assignments(record.id, rater.id)
    for n, a in enumerate(todo, 1):
        if a.status != PENDING:
            summary.already += 1
            continue
        try:
            got = first.pop(a.consultation_id) if a.consultation_id in first else None
            values, used, raw, error = got or await rate(
                blind_item(store, a, definition.show_truth))
        except CredentialError as err:
            raise CredentialError(f"{err}; stopped at once: {summary.rated} transcripts rated "
                                  f"before it are kept, {len(todo) - n + 1} left for the "
                                  "next run") from None
        status: Literal["ok", "failed"] = "ok" if values is not None else "failed"
        store.record_judge_call(JudgeCall(
            study_id=record.id, rater_id=rater.id, consultation_id=a.consultation_id,
            status=status, attempts=used, raw_response=raw, error=error or None,
            prompt_hash=phash, params={"model": model, **params}))
        if values is None:
            summary.failed += 1
        else:
            store.save_ratings(a.id, {u: (v, None) for u, v in values.items()})
            summary.rated += 1
        if on_step is not None:
            on_step(JudgeStep(n, len(todo), a.consultation_id, status, used, error or None))
    return summary
