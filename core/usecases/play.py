"""A physician's session: a human plays the doctor through the engine, every event
recorded the moment it happens; and which case a physician meets next.

The case is stored before the consultation starts (the consultation row refers to it).
A session stopped by its user — the task cancelled, or the cancel event set — is stored as
'cancelled' even when the engine was interrupted in the middle of a turn. The engine is
imported when a session starts (`load_engine`), never when this module is.
"""

from __future__ import annotations

import asyncio
import importlib
import random
from collections.abc import Awaitable, Callable
from types import ModuleType
from typing import Any

from core.case import Case
from core.errors import BedsideError
from core.events import EventSink, FanOut
from core.ports.runs import RunsStore
from core.transcript import Transcript


def load_engine() -> ModuleType:
    """`core.engine`, imported on first use (tests may hand in a stand-in)."""
    try:
        return importlib.import_module("core.engine")
    except ModuleNotFoundError as err:
        if err.name not in ("core.engine", "core.config"):
            raise
        raise BedsideError("the consultation engine (core/engine.py) is not available in "
                           "this build", title="Cannot start") from None


def human_config(name: str, patient: str = "retrieval", examiner: str = "retrieval",
                 api_base: str | None = None, *, max_turns: int = 20,
                 patient_bias: str | None = None, images: str = "upfront",
                 task: str = "interactive") -> Any:
    """The consultation config of a physician session: `human:NAME` plays the doctor; the
    patient and examiner are agent strings (`retrieval`, offline, by default, or a model
    string reached through `api_base`), the patient with `patient_bias` (`core.biases`);
    `images` is the `--images` mode; `task` is the task played (a solver of
    `core.solvers.registry`: 'agenthospital' gives the physician the three Agent Hospital
    tasks). Raises InputError (one line) for a bad agent or bias."""
    from core.biases import parse_biases
    from core.config import agents_config
    from core.errors import InputError

    if patient.strip().partition(":")[0] == "human":
        raise InputError("cannot be human when a physician plays the doctor", field="patient")
    config = agents_config("human", patient, examiner, api_base, max_turns=max_turns,
                           images=images)
    doctor = config.doctor.model_copy(update={"label": f"human:{name}"})
    bias = parse_biases(patient_bias, "patient", "patient bias") if patient_bias else None
    update: dict[str, Any] = {
        "doctor": doctor, "patient": config.patient.model_copy(update={"bias": bias})}
    if task != "interactive":
        update["solver"] = task
    return config.model_copy(update=update)


async def run_human(store: RunsStore, case: Case, *, name: str, budget: int,
                    patient: str = "retrieval", examiner: str = "retrieval",
                    api_base: str | None = None, patient_bias: str | None = None,
                    consultation_id: str, sink: EventSink,
                    next_action: Callable[..., Awaitable[Any]],
                    cancel_event: asyncio.Event, images: str = "upfront",
                    task: str = "interactive") -> Transcript | None:
    """Run one physician session through the engine, recording every event as it happens
    (and passing it on to `sink`, e.g. the play screen). `next_action` is awaited for each
    of the physician's turns (for the Agent Hospital task, with each task's question)."""
    config = human_config(name, patient, examiner, api_base, max_turns=budget,
                          patient_bias=patient_bias, images=images, task=task)
    return await run_session(store, case, config, consultation_id=consultation_id,
                             sink=sink, human_input=next_action, cancel_event=cancel_event)


async def run_session(store: RunsStore, case: Case, config: Any, *, consultation_id: str,
                      sink: EventSink, human_input: Callable[..., Awaitable[Any]],
                      cancel_event: asyncio.Event) -> Transcript | None:
    """Run one consultation with a person in it (`human_input` gives their turns: the
    doctor's, or the patient's answers) through the engine, every event recorded as it
    happens and passed on to `sink`. Stopped by its user — the task cancelled, or the
    cancel event set — it is stored as cancelled."""
    from core.usecases.runs import cancel_consultation

    if not store.has_case(case.id):
        store.save_cases([case])
    fan = FanOut(store.recorder(), sink)
    engine = load_engine()
    try:
        result: Transcript | None = await engine.run_consultation(
            case, config, fan, consultation_id=consultation_id, cancel_event=cancel_event,
            human_input=human_input)
        return result
    except asyncio.CancelledError:
        cancel_consultation(store, consultation_id, fan)
        raise
    finally:
        if cancel_event.is_set():
            cancel_consultation(store, consultation_id, fan)


def play_order(case_ids: list[str], physician: str) -> list[str]:
    """The order in which `physician` meets the cases: a shuffle seeded by the name.

    Id order would give everyone the same first case (and tell a physician which case comes
    next); a per-physician seed keeps one physician's order stable across sessions while
    different physicians meet the cases in different orders. `random.Random` seeded with a
    string is reproducible across runs (it does not depend on PYTHONHASHSEED).
    """
    order = sorted(case_ids)
    random.Random(f"bedside-play:{physician}").shuffle(order)
    return order


def parse_languages(text: str) -> list[str]:
    """The languages a physician reads, from "en, fr" (commas or spaces between BCP-47
    tags); [] for none stated. Raises InputError naming the first tag that is not one."""
    from core.case import BCP47
    from core.errors import InputError

    tags: list[str] = []
    for tag in text.replace(",", " ").split():
        if not BCP47.match(tag):
            raise InputError(f"'{tag}' is not a language tag (write e.g. en, fr, de, zh-Hans)",
                             field="languages")
        if tag.lower() not in (t.lower() for t in tags):
            tags.append(tag)
    return tags


def reads(languages: list[str] | tuple[str, ...], tag: str) -> bool:
    """Whether a physician who reads `languages` reads a case written in `tag`: the primary
    language subtags are compared ("en" reads "en-GB", "zh" reads "zh-Hans"); a physician
    who stated no languages reads every case."""
    if not languages:
        return True
    primary = tag.split("-")[0].lower()
    return any(lang.split("-")[0].lower() == primary for lang in languages)


def pick_unseen(cases: list[Case], seen: set[str], filters: dict[str, str],
                physician: str, languages: list[str] | tuple[str, ...] = ()) -> Case | None:
    """The next case `physician` has not played that matches every filter and is written in
    a language they read, or None.

    The order is drawn over the whole library, then filtered, so it does not change when
    the physician changes the filters or plays a case. A language chosen in the filters
    wins over the languages stated (the physician asked for it).
    """
    by_id = {c.id: c for c in cases}
    for case_id in play_order(list(by_id), physician):
        case = by_id[case_id]
        if case_id not in seen and all(getattr(case, k) == v for k, v in filters.items()) \
                and ("language" in filters or reads(languages, case.language)):
            return case
    return None


def next_case(store: RunsStore, cases: list[Case], filters: dict[str, str],
              physician: str, languages: list[str] | tuple[str, ...] = ()) -> Case | None:
    """The next case `physician` (played as `human:NAME`) has not played, within filters
    and the languages they read."""
    return pick_unseen(cases, store.seen_case_ids(f"human:{physician}"), filters, physician,
                       languages)
