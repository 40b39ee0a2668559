"""`bedside evolve`, headless: an evolution experiment stored as it runs.

`EvolveSettings` are the experiment's options, checked (a bad value is one InputError
naming its option). `run_evolution` records the evolution, then for each arm builds the
learner (the nearest-record doctor or a model; BM25 or an embedding model for retrieval;
optionally starting from a frozen library), streams the generated training patients
through it and tests it on the generated test set at each checkpoint
(`core.agenthospital.evolve`), storing each checkpoint's points and new memory items in
one transaction the moment they exist. The patients are not stored: they are regenerated
from the seed and the knowledge base's digest, both recorded with the evolution
(`bedside agenthospital generate` stores the same cases). The evolution always ends with a
status: finished, interrupted (cancelled: Ctrl+C, SIGTERM) or failed (with the error), and
everything stored before stays.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field, ValidationError, field_validator

from core.agenthospital.doctors import ModelDoctor, NearestDoctor, TaskDoctor
from core.agenthospital.kb import KnowledgeBase, bundled_kb, load_kb
from core.agenthospital.learner import Learner
from core.agenthospital.memory import ARMS, DEFAULT_K, Arm, Memory, item_data, item_from
from core.agenthospital.retrieval import Bm25, Embedded, Index
from core.config import AgentSpec, invalid_value, parse_agent
from core.errors import InputError
from core.llm import LLMClient
from core.ports.agenthospital import EvolutionStore
from core.records.agenthospital import Evolution, Library, Point

NEAREST = "nearest"
Progress = Callable[[str, list[Point]], None]
_OPTIONS = {"train": "--train", "test": "--test", "test_every": "--test-every",
            "arms": "--arms", "k": "--k", "explore": "--explore", "doctor": "--doctor",
            "concurrency": "--concurrency", "seed": "--seed"}


class EvolveSettings(BaseModel):
    """The options of one evolution experiment."""

    train: int = Field(1000, ge=0, le=1_000_000, description="Training patients.")
    test: int = Field(200, ge=0, le=100_000, description="Test patients (0: no test set).")
    test_every: int = Field(100, ge=1, description="Test after every K training patients.")
    arms: list[Arm] = Field(default_factory=lambda: list(ARMS), min_length=1,
                            description="Arms of the ablation, in order.")
    seed: int = Field(0, description="The generator's seed.")
    doctor: str = Field(NEAREST, description="'nearest' (offline) or a model string.")
    k: int = Field(DEFAULT_K, ge=1, le=20, description="Records and principles recalled.")
    explore: float | None = Field(None, ge=0, le=1, description="Share of training answers "
                                  "given without memory (default 0.2 for nearest, 0 for a "
                                  "model).")
    embedding: str | None = Field(None, description="Embedding model for retrieval (default: "
                                  "BM25, offline).")
    library: str | None = Field(None, description="Start every arm from this frozen library.")
    freeze: str | None = Field(None, description="Freeze the final memory under this name.")
    name: str | None = Field(None, description="The evolution's name.")
    kb: str | None = Field(None, description="A knowledge base folder (default: bundled).")
    concurrency: int = Field(4, ge=1, le=64, description="Test patients answered at once by "
                             "a model.")
    model: dict[str, Any] = Field(default_factory=dict, description="Model parameters "
                                  "(api_base, temperature, …) for the doctor and embedding.")

    @field_validator("arms")
    @classmethod
    def _distinct(cls, value: list[Arm]) -> list[Arm]:
        return list(dict.fromkeys(value))

    def exploration(self) -> float:
        """The exploration share used."""
        if self.explore is not None:
            return self.explore
        return 0.2 if self.doctor == NEAREST else 0.0

    def described(self, kb: KnowledgeBase) -> dict[str, Any]:
        """What is stored with the evolution (model parameters without any key)."""
        data = self.model_dump(exclude={"freeze", "name", "concurrency"})
        data.update(explore=self.exploration(), knowledge_base=kb.digest,
                    retrieval=f"embedding:{self.embedding}" if self.embedding else "bm25")
        return data


def settings(**given: Any) -> EvolveSettings:
    """Checked settings from options (None: the default); InputError naming the option."""
    data = {k: v for k, v in given.items() if v is not None}
    try:
        out = EvolveSettings.model_validate(data)
    except ValidationError as err:
        raise invalid_value(err, EvolveSettings, _OPTIONS) from None
    doctor_spec(out)  # a bad doctor string fails here, before anything is stored
    return out


def doctor_spec(s: EvolveSettings) -> AgentSpec | None:
    """The doctor's model spec (None for the nearest-record doctor)."""
    if s.doctor == NEAREST:
        return None
    if s.doctor in ("scripted", "human"):
        raise InputError(f"'{s.doctor}' does not learn: use 'nearest' (offline) or a model",
                         field="--doctor")
    return parse_agent(s.doctor, "doctor", **s.model)


def _index_maker(s: EvolveSettings, llm: LLMClient) -> Callable[[], Index]:
    if not s.embedding:
        return Bm25
    spec = parse_agent(s.embedding, "doctor", **s.model)

    async def embed(texts: list[str]) -> list[list[float]]:
        return await llm.embed(spec, texts)

    return lambda: Embedded(embed)


def make_doctor(s: EvolveSettings, llm: LLMClient) -> TaskDoctor:
    """The learning doctor of the settings."""
    spec = doctor_spec(s)
    return NearestDoctor() if spec is None else ModelDoctor(spec, llm)


async def _learner(store: EvolutionStore, s: EvolveSettings, kb: KnowledgeBase, arm: Arm,
                   llm: LLMClient, evolution_id: str, library: Library | None) -> Learner:
    memory = Memory(_index_maker(s, llm))
    if library is not None:
        data = store.memory_items(library.evolution_id, library.arm, library.step)
        await memory.load([item_from(d) for d in data])
        # The evolution holds its whole memory: what it started from is stored at step 0.
        store.save_checkpoint(evolution_id, arm, [], [{**d, "step": 0} for d in data])
    return Learner(kb, make_doctor(s, llm), memory, arm=arm, k=s.k, explore=s.exploration())


async def run_evolution(store: EvolutionStore, s: EvolveSettings, *,
                        llm: LLMClient | None = None,
                        progress: Progress | None = None) -> Evolution:
    """Run and store one evolution experiment (see the module docstring)."""
    from core.agenthospital.evolve import evolve_arm
    from core.agenthospital.generator import stream

    kb = load_kb(s.kb) if s.kb else bundled_kb()
    library = store.get_library(s.library) if s.library else None
    client = llm or LLMClient()
    eid = store.create_evolution(name=s.name, config=s.described(kb))
    status = "failed"
    try:
        test = list(stream(kb, s.seed, "test", s.test))
        for arm in s.arms:
            learner = await _learner(store, s, kb, arm, client, eid, library)

            def save(points: list[Point], items: list[Any], arm: str = arm) -> None:
                store.save_checkpoint(eid, arm, points, [item_data(i) for i in items])
                if progress is not None:
                    progress(arm, points)

            await evolve_arm(arm, learner, stream(kb, s.seed, "train", s.train), test,
                             train_n=s.train, test_every=s.test_every, on_checkpoint=save,
                             concurrency=s.concurrency if s.doctor != NEAREST else 1)
        status = "finished"
    except (asyncio.CancelledError, KeyboardInterrupt):
        status = "interrupted"
        raise
    finally:
        store.set_evolution_status(eid, status)
    if s.freeze:
        freeze(store, eid, s.freeze)
    return store.get_evolution(eid)


def freeze(store: EvolutionStore, ref: str, name: str, arm: str | None = None,
           step: int | None = None) -> Library:
    """Freeze an evolution's memory (the 'both' arm if it ran, else its last arm; at its
    last step) under `name`."""
    evo = store.get_evolution(ref)
    arms = [str(a) for a in evo.config.get("arms", [])]
    chosen = arm or ("both" if "both" in arms else arms[-1] if arms else None)
    if chosen is None or chosen not in arms:
        raise InputError(f"evolution '{evo.name}' has no arm '{chosen}' (arms: "
                         f"{', '.join(arms)})", field="--arm")
    last = step if step is not None else int(evo.config.get("train", 0))
    return store.freeze_library(name, evo.id, chosen, last)


def curves(store: EvolutionStore, ref: str) -> tuple[Evolution, list[Point]]:
    """An evolution and its points."""
    evo = store.get_evolution(ref)
    return evo, store.evolution_points(evo.id)


def latest(store: EvolutionStore) -> Evolution:
    """The newest evolution; InputError when there is none."""
    found = store.list_evolutions()
    if not found:
        raise InputError("no evolution yet: run `bedside evolve` first", field="EVOLUTION")
    return found[0]

