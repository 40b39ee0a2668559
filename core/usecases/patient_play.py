"""A standardized-patient session (AgentClinic's human patient): a person plays the patient
for a model or scripted doctor, through the engine, every completed turn recorded at once.

The actor is the consultation's patient agent, `human:NAME` (`core.agents.human_patient`),
with the patient bias chosen for the session; the examiner is the offline retrieval one and
the moderator the exact one, so the consultation is stored, scored and rated like any other.
What the actor may see is `actor_brief`: the patient's view of the case (and the bias
paragraphs), nothing of the findings, results or diagnosis. The engine is imported when a
session starts, never when this module is.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from core.case import Case
from core.events import EventSink
from core.ports.runs import RunsStore
from core.transcript import Transcript


@dataclass(frozen=True)
class ActorBrief:
    """What the actor reads before and during the session: the patient's part only."""

    language: str  # the case's language: the one to answer in
    profile: str  # the patient's view, as a model patient is told it
    bias: list[str]  # the bias paragraphs, as a model patient is told them


def actor_brief(case: Case, bias: str | None) -> ActorBrief:
    """The actor's part, cut from the patient's view only."""
    from core.prompts import language_name
    from core.prompts.bias import patient_paragraphs
    from core.prompts.render import render_profile
    from core.biases import biased_view

    view = biased_view(case, bias)
    return ActorBrief(language=language_name(view.language), profile=render_profile(view),
                      bias=patient_paragraphs(view, bias))


def actor_config(name: str, doctor: str = "scripted", api_base: str | None = None, *,
                 max_turns: int = 20, bias: str | None = None) -> Any:
    """The configuration of a session: `doctor` (an agent string: `scripted`, or a model
    reached through `api_base`) against `human:NAME` as the patient with `bias`, the
    retrieval examiner and the exact moderator. InputError (one line) for a bad value."""
    from core.biases import parse_biases
    from core.config import agents_config, parse_agent
    from core.errors import InputError

    if doctor.strip().split(":")[0] == "human":
        raise InputError("the doctor cannot be human when a person plays the patient",
                         field="doctor")
    config = agents_config(doctor, "retrieval", "retrieval", api_base, max_turns=max_turns)
    patient = parse_agent(f"human:{name}", "patient").model_copy(
        update={"bias": parse_biases(bias, "patient", "bias") if bias else None})
    return config.model_copy(update={"patient": patient})


async def run_actor(store: RunsStore, case: Case, *, name: str, doctor: str = "scripted",
                    budget: int = 20, bias: str | None = None, api_base: str | None = None,
                    consultation_id: str, sink: EventSink,
                    next_answer: Callable[..., Awaitable[Any]],
                    cancel_event: asyncio.Event) -> Transcript | None:
    """Run one session through the engine, recording every event as it happens (and
    passing it on to `sink`, the actor's screen); `next_answer(question)` is awaited for
    each answer. Stopped by its user, the consultation is stored as cancelled."""
    from core.usecases.play import run_session

    config = actor_config(name, doctor, api_base, max_turns=budget, bias=bias)
    return await run_session(store, case, config, consultation_id=consultation_id, sink=sink,
                             human_input=next_answer, cancel_event=cancel_event)
