"""The human patient: a standardized-patient actor answers at the keyboard (AgentClinic's
human patient mode).

Each answer comes from the user interface through an awaitable, given only what a patient
agent is given: the doctor's question. The actor's screen shows the patient's view of the
case (and its bias paragraphs) and the questions as they come, never the examiner's results
or the diagnosis (`tui.app.screens.patient_play`).
"""

from __future__ import annotations

from core.agents.base import DeltaFn, Reply
from core.agents.human_doctor import HumanInput
from core.errors import BedsideError
from core.transcript import Turn


class HumanPatient:
    """A person playing the patient; `label` is `human:NAME`."""

    def __init__(self, next_answer: HumanInput, label: str = "human") -> None:
        self.next_answer = next_answer
        self.label = label

    async def answer(self, question: str, turns: list[Turn], on_delta: DeltaFn) -> Reply:
        """Wait for the actor's answer to the doctor's question."""
        text = await self.next_answer(question)
        if not isinstance(text, str) or not text.strip():
            raise BedsideError("the user interface returned no answer for the patient")
        return Reply(text=text.strip(), model=self.label)
