"""The whole hospital's options, checked (`bedside hospital` and the app's form read the
same): sizes, the onset rate, capacities, the triage nurse and each department's doctor
(as the consultation configuration its consultations are recorded with).

A department's doctor (`--doctor DEPT=AGENT`, DEPT a department or `all`):
- `scripted`: part 1's fixed keyword baseline (the default);
- `nearest`: MedAgent-Zero's offline nearest-record learner, learning from each patient
  the department sees (with `--memory`'s arm, default both);
- a model string: a model takes the three tasks;
- `zero:MODEL`: that model as MedAgent-Zero, learning as the hospital runs;
- `human[:NAME]`: a physician at the keyboard takes every patient routed to the
  department (in the app only; the simulation waits for each answer).
Each department's consultations carry `department` in their configuration, so
`bedside results --by department` groups them, and each learning doctor keeps its own
memory (the run's state is keyed by the configuration).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, ValidationError, field_validator

from core.config import AgentSpec, ConsultationConfig, invalid_value, parse_agent
from core.errors import InputError
from core.hospital.departments import BY_ID, IDS, department
from core.solvers.registry import AGENTHOSPITAL, MEDAGENT_ZERO

_OPTIONS = {"residents": "--residents", "days": "--days", "seed": "--seed", "onset": "--onset",
            "followup_days": "--followup-days", "capacity": "--capacity", "triage": "--triage",
            "doctors": "--doctor", "memory": "--memory", "name": "--name"}
MODEL_PARAMS = ("api_base", "api_key_env", "temperature", "max_tokens", "timeout", "retries")


class HospitalSettings(BaseModel):
    """One simulation's options."""

    residents: int = Field(50, ge=1, le=100_000, description="Residents who may fall ill.")
    days: int = Field(7, ge=1, le=365, description="Days simulated.")
    seed: int = Field(0, description="The onset process's seed.")
    onset: float = Field(0.15, gt=0, le=1, description="A well resident's chance of falling "
                         "ill on a given day.")
    followup_days: int = Field(2, ge=1, le=30, description="Days from the dispensary to the "
                               "follow-up.")
    capacity: dict[str, int] = Field(default_factory=dict, description="Department → "
                                     "patients it sees a day (others: the default).")
    triage: str = Field("rules", description="'rules' (offline) or a model string.")
    doctors: dict[str, str] = Field(default_factory=dict, description="Department → its "
                                    "doctor (others: scripted).")
    memory: str = Field("both", description="What a learning doctor keeps: records, "
                        "experience or both.")
    name: str | None = Field(None, description="The run's name.")
    model: dict[str, Any] = Field(default_factory=dict, description="Model parameters "
                                  "(api_base, temperature, …) for the nurse and doctors.")

    @field_validator("memory")
    @classmethod
    def _arm(cls, value: str) -> str:
        if value not in ("records", "experience", "both"):
            raise ValueError("must be records, experience or both")
        return value

    def capacities(self) -> dict[str, int]:
        """Every department's capacity."""
        return {d: self.capacity.get(d, BY_ID[d].capacity) for d in IDS}

    def doctor(self, dept: str) -> str:
        """A department's doctor as given."""
        return self.doctors.get(dept, "scripted")

    def described(self, kb_digest: str) -> dict[str, Any]:
        """What is stored with the run (model parameters without any key)."""
        data = self.model_dump(exclude={"name"})
        data.update(capacity=self.capacities(), doctors={d: self.doctor(d) for d in IDS},
                    knowledge_base=kb_digest)
        return data


def assignments(texts: list[str] | None, option: str) -> dict[str, str]:
    """`DEPT=VALUE` texts as department → value (`all=VALUE` sets every department; a later
    text wins); InputError naming the option for a malformed one."""
    out: dict[str, str] = {}
    for text in texts or []:
        name, sep, value = text.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise InputError(f"write DEPARTMENT=VALUE (got {text!r})", field=option)
        depts = IDS if name.strip().casefold() == "all" else (department(name, option),)
        out.update({d: value.strip() for d in depts})
    return out


def settings(*, doctor: list[str] | None = None, capacity: list[str] | None = None,
             **given: Any) -> HospitalSettings:
    """Checked settings from options (None: the default); InputError naming the option.
    Each doctor and the nurse are parsed here, so a bad one fails before anything runs."""
    data = {k: v for k, v in given.items() if v is not None}
    data["doctors"] = assignments(doctor, "--doctor")
    caps: dict[str, Any] = {}
    for dept, text in assignments(capacity, "--capacity").items():
        if not text.isdigit() or not 0 < int(text) <= 10_000:
            raise InputError(f"a department sees 1 to 10000 patients a day (got {text!r})",
                             field="--capacity")
        caps[dept] = int(text)
    data["capacity"] = caps
    try:
        out = HospitalSettings.model_validate(data)
    except ValidationError as err:
        raise invalid_value(err, HospitalSettings, _OPTIONS) from None
    configs(out)
    nurse_spec(out)
    return out


def nurse_spec(s: HospitalSettings) -> AgentSpec | None:
    """The triage nurse's model (None: the rules)."""
    if s.triage == "rules":
        return None
    spec = parse_agent(s.triage, "doctor", **s.model) if "/" in s.triage else None
    if spec is None or spec.kind != "llm":
        raise InputError(f"'{s.triage}' is neither 'rules' nor a model string",
                         field="--triage")
    return spec


def department_config(dept: str, text: str, s: HospitalSettings) -> ConsultationConfig:
    """The configuration a department's consultations are played and recorded with."""
    head, _, rest = text.partition(":")
    learning = head in ("nearest", "zero")
    if head == "nearest" and not rest:
        spec = AgentSpec(kind="scripted")  # with MedAgent-Zero: the nearest-record learner
    elif head == "zero":
        spec = _model(rest, dept, s.model)
    elif head == "scripted" and not rest:
        spec = AgentSpec(kind="scripted")
    elif head == "human":
        spec = parse_agent(text, "doctor")
    else:
        spec = _model(text, dept, s.model)
    solver, options = (MEDAGENT_ZERO, {"arm": s.memory}) if learning else (AGENTHOSPITAL, {})
    return ConsultationConfig(doctor=spec, solver=solver, solver_options=options,
                              department=dept)


def _model(text: str, dept: str, params: dict[str, Any]) -> AgentSpec:
    if "/" not in text:
        raise InputError(f"{dept}: '{text}' is none of scripted, nearest, a model string, "
                         "zero:MODEL or human[:NAME]", field="--doctor")
    try:
        return parse_agent(text, "doctor", **params)
    except InputError as err:
        raise InputError(f"{dept}: {err.reason}", field="--doctor") from None


def configs(s: HospitalSettings) -> dict[str, ConsultationConfig]:
    """Every department's configuration, in department order."""
    return {dept: department_config(dept, s.doctor(dept), s) for dept in IDS}


def doctor_label(config: ConsultationConfig) -> str:
    """A department's doctor as the events and the live screen name it ('nearest' and
    'zero:MODEL' for the learners)."""
    name = config.doctor.display()
    if config.solver != MEDAGENT_ZERO:
        return name
    return "nearest" if config.doctor.kind == "scripted" else f"zero:{name}"
