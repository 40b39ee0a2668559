"""The whole hospital's events, as the simulation emits them and the store keeps them: one
row per event — the day, the patient, the station and what happened there
(`core.hospital` runs the simulation; `db.hospital` stores the rows).

Stations, in the order a patient meets them: `onset` (falls ill at home), `triage` (the
nurse sends them to a department), `registration` (the department's queue; `waits` when a
day ends with them still in it), `consultation` (seen by the department's doctor), the
three tasks `examination`, `diagnosis` and `treatment`, `dispensary` (the prescription),
`convalescence` (home until the follow-up), `follow-up` (improved or worsened) and
`discharge` (recovered). `hospital` events open and close the simulation and start each
day.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

STATIONS = ("onset", "triage", "registration", "consultation", "examination", "diagnosis",
            "treatment", "dispensary", "convalescence", "follow-up", "discharge")
HOSPITAL = "hospital"  # the station of the opening, day and closing events


class HospitalEvent(BaseModel):
    """One thing that happened in the simulated hospital."""

    model_config = ConfigDict(frozen=True)

    seq: int = Field(description="Order within the simulation, from 1 (deterministic: the "
                     "same seed gives the same sequence).")
    day: int = Field(description="Simulation day, from 1 (0: the opening).")
    patient: str | None = Field(None, description="The resident, e.g. 'r0012' (None for a "
                                "hospital event).")
    visit: int = Field(0, description="The patient's visit: 1 the first, 2 the first "
                       "revisit, … (0 for a hospital event).")
    station: str = Field(description="Where it happened (`STATIONS`, or 'hospital').")
    what: str = Field(description="What happened, one word: ill, sent, queued, waits, seen, "
                      "answered, prescribed, home, improved, worsened, recovered, open, day, "
                      "closed.")
    department: str | None = Field(None, description="The department concerned, if any.")
    consultation_id: str | None = Field(None, description="The stored consultation of a "
                                        "`consultation` event (ids differ between runs; "
                                        "everything else is reproducible).")
    detail: dict[str, Any] = Field(default_factory=dict, description="What else is known: "
                                   "the disease and level at onset, the right department and "
                                   "whether triage chose it, a task's answer and whether it "
                                   "was right, the prescription, the follow-up's levels, the "
                                   "days to recovery.")

    def same(self) -> dict[str, Any]:
        """Everything but the consultation id: what the same seed reproduces exactly."""
        return self.model_dump(exclude={"consultation_id"})
