"""Collaborating doctors as data: names, defaults and how a stored consultation says it is a
collaboration, with no heavy import (the command line builds its options from these).

A collaboration is stored as one *joint* consultation (solver and mode 'collaborate',
origin 'collaborate', or `import:aihospital-collaboration`) whose turns are the doctors'
initial reports, the host's readings, the doctors' revisions and the joint report, and
whose meta holds `collaboration` (`Summary`); each doctor's own consultation is a
consultation of its own (origin 'collaborator', or an imported dialogue), linked from the
joint one's meta and scored like any other. The engine's solver is
`core.solvers.collaborate`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from core.config import AgentSpec

COLLABORATE = "collaborate"  # solver name, mode and origin of a joint consultation
MEMBER = "collaborator"  # origin of a doctor's own consultation in a collaboration
IMPORTED = "import:aihospital-collaboration"  # origin of an imported joint result
DEFAULT_ROUNDS = 4  # AI Hospital's max_discussion_turn
LABELS = "ABCDEF"  # the doctors as the host, the raters and the turns name them


class Member(BaseModel):
    """One doctor of a collaboration."""

    label: str = Field(description="'A', 'B', …: how everyone but the results names it.")
    doctor: str = Field(description="Who played it (model or agent), never shown to raters.")
    consultation_id: str | None = Field(None, description="Its own consultation; None when "
                                        "not found (an imported one whose dialogue is not "
                                        "imported).")
    source: str | None = Field(None, description="Imported: the dialogue file it names.")


class Summary(BaseModel):
    """How a collaboration went (a joint consultation's `meta["collaboration"]`)."""

    doctors: list[Member] = Field(default_factory=list, description="The doctors, in order.")
    rounds: int = Field(0, description="Revision rounds held.")
    consensus: bool | None = Field(None, description="Whether the host found no dispute in "
                                   "the end; None when the source does not say.")
    consensus_round: int | None = Field(None, description="The round after which it found "
                                        "none (0: they agreed at once).")
    max_rounds: int | None = Field(None, description="M, when known.")
    dispute_resolution: bool | None = Field(None, description="Whether the host listed "
                                            "disputed points; None when unknown.")
    host: str | None = Field(None, description="Who hosted.")


def team_label(doctors: list[AgentSpec]) -> str:
    """'scripted + scripted:seed=2': the doctor of a collaboration as results show it."""
    return " + ".join(d.display() for d in doctors)


def summary_of(meta: dict[str, Any] | None) -> Summary | None:
    """The collaboration summary of a consultation's meta, or None when it is none."""
    raw = (meta or {}).get("collaboration")
    if not isinstance(raw, dict):
        return None
    try:
        return Summary.model_validate(raw)
    except ValueError:
        return None


def is_joint(origin: str | None, config: dict[str, Any] | None = None) -> bool:
    """Whether a consultation row is a collaboration's joint result."""
    return origin in (COLLABORATE, IMPORTED) or \
        (isinstance(config, dict) and config.get("solver") == COLLABORATE)


def team_size(described: dict[str, Any]) -> int:
    """How many doctors' own consultations a stored configuration plays beside its own
    (0 unless it is a collaboration)."""
    if described.get("solver") != COLLABORATE:
        return 0
    doctors = (described.get("solver_options") or {}).get("doctors")
    return len(doctors) if isinstance(doctors, list) else 0


def speaker(role: str, meta: dict[str, Any] | None) -> str:
    """Who speaks a turn as every reader sees it: 'Doctor A' for one of several
    collaborating doctors (never its model), "Doctor's tool" for a step of the doctor's
    tools, else the role ('Doctor', 'Host', …)."""
    if role == "tool":
        return "Doctor's tool"
    label = (meta or {}).get("collaborator")
    if role == "doctor" and isinstance(label, str) and label:
        return f"Doctor {label}"
    return role.title()
