"""Records of the Agent Hospital evolution experiments, as the store returns them: an
`Evolution` (one `bedside evolve` run: its settings and status), the `Point`s of its
learning curves, and a `Library` (a frozen medical-record library and experience base: an
evolution's arm at a training step, reusable by name). Memory items cross as plain data
(`core.agenthospital.memory.item_data`)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class Point(BaseModel):
    """One point of a learning curve."""

    arm: str = Field(description="none, records, experience or both.")
    task: str = Field(description="examination, diagnosis or treatment.")
    seen: int = Field(description="Training patients treated so far.")
    train_accuracy: float | None = Field(description="Share of the training answers so far "
                                         "that were right (None before training).")
    test_accuracy: float | None = Field(description="Share of the test set answered right "
                                        "at this point (None without a test set).")
    principles: int = Field(description="Principles the experience base keeps (this task).")
    records: int = Field(0, description="Records the library keeps (this task).")
    wrong: int = Field(description="Wrong training answers so far (this task).")
    test_n: int = Field(0, description="Test patients answered at this point.")

    def public(self) -> dict[str, object]:
        """The seven keys of `bedside evolve --json`."""
        return {k: getattr(self, k) for k in PUBLIC_KEYS}


PUBLIC_KEYS = ("arm", "task", "seen", "train_accuracy", "test_accuracy", "principles", "wrong")


class Evolution(BaseModel):
    """One evolution experiment."""

    id: str = Field(description="Its id (`evo-…`).")
    name: str = Field(description="Its name (the id when none was given).")
    created_at: str = Field(description="ISO UTC creation time.")
    finished_at: str | None = Field(None, description="ISO UTC time it stopped.")
    status: str = Field(description="running, finished, interrupted or failed.")
    config: dict[str, Any] = Field(default_factory=dict, description="Its settings: train, "
                                   "test, test_every, arms, seed, doctor, k, explore, "
                                   "retrieval, knowledge_base, library.")


class Library(BaseModel):
    """A frozen library: an evolution's memory of one arm at one training step."""

    name: str = Field(description="The name it is reused by (`--library NAME`).")
    evolution_id: str = Field(description="The evolution it comes from.")
    arm: str = Field(description="The arm whose memory it is.")
    step: int = Field(description="The training step it was frozen at.")
    created_at: str = Field(description="ISO UTC time it was frozen.")
    records: int = Field(0, description="Records it holds.")
    principles: int = Field(0, description="Principles it holds.")
