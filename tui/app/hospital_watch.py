"""A hospital simulated in this app: the sink its events go to and the bridge to the
physician who takes one department.

The simulation runs as a worker on the App (`BedsideApp.start_hospital`), so it goes on
when the hospital screen is closed. Its events go to `emit` (the reducer,
`core.hospital.state`, the one the command line and the database view use too); the
screen polls `state.version` and re-renders when it changed. When the physician's
department calls its next patient, the human doctor awaits `ask`: the question waits here
until a hospital screen shows it and the physician answers (the simulation waits for
them). `stop` sets the cancel event: the consultation in progress is abandoned and the
simulation closes as cancelled.
"""

from __future__ import annotations

import asyncio
from typing import Any

from core.hospital.state import HospitalState


class HospitalWatch:
    """One in-app simulation (see the module docstring)."""

    def __init__(self, physician: str | None = None, department: str | None = None) -> None:
        self.state = HospitalState()
        self.run_id: str | None = None
        self.physician, self.department = physician, department
        self.cancel_event = asyncio.Event()
        self.question: Any = None  # the physician's pending task question, if any
        self.asked = 0  # questions asked so far (the screen shows each one once)
        self.finished = False
        self.error: str | None = None
        self._answer: asyncio.Future[str] | None = None

    def emit(self, event: Any) -> None:
        """A hospital event: into the reducer."""
        self.state.apply(event)

    def set_run(self, run_id: str) -> None:
        """The run the simulation records into (known once created)."""
        self.run_id = run_id

    @property
    def running(self) -> bool:
        """Whether the simulation is still going."""
        return not self.finished

    async def ask(self, question: Any, *_: Any, **__: Any) -> str:
        """Awaited by the physician's doctor: the option they choose."""
        self._answer = asyncio.get_running_loop().create_future()
        self.question, self.asked = question, self.asked + 1
        try:
            return await self._answer
        finally:
            self.question, self._answer = None, None

    def answer(self, choice: str) -> bool:
        """The physician's choice for the pending question; False when none is pending."""
        if self._answer is None or self._answer.done():
            return False
        self._answer.set_result(choice)
        return True

    def stop(self) -> None:
        """Ask the simulation to stop (it closes as cancelled)."""
        self.cancel_event.set()
