"""Consultation configuration: which agent plays each role, with which model and parameters.

A CLI string such as `retrieval`, `scripted`, `exact`, `human` or `openai/gpt-4o-mini`
becomes an `AgentSpec` through `parse_agent`. A `ConsultationConfig` has a stable
`config_key()` so a batch can tell finished (case, config) pairs apart when it resumes.

No API key is ever part of a spec: keys come from the environment (the provider's usual
variable, or the variable named in `api_key_env`).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from pydantic import (BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler,
                      ValidationError, model_serializer)

from core.errors import InputError

AgentKind = Literal["retrieval", "scripted", "human", "exact", "llm", "replay", "team"]

# Which kinds may play which role (the model-free ones are role-specific). A 'team' (the
# doctor of a collaboration, `core.solvers.collaborate`) is made by `--collaborate`, never
# parsed from an agent string; a scripted host is the deterministic one.
ROLE_KINDS: dict[str, set[str]] = {
    "doctor": {"scripted", "human", "llm", "replay"},
    "patient": {"retrieval", "llm", "human"},  # human: an actor in the app
    "examiner": {"retrieval", "llm"},
    "moderator": {"exact", "llm"},
    "host": {"scripted", "llm"},
}
#: The consultation protocols: AgentClinic's (the default) and AI Hospital's (the patient
#: opens with its complaint and relays test requests to the examiner; the doctor ends with
#: its five-part report).
PROTOCOLS = ("agentclinic", "aihospital")


class AgentSpec(BaseModel):
    """How one role is played: an agent kind and, for `llm`, the model and its parameters."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: AgentKind = Field(description="retrieval | scripted | human | exact | llm | replay "
                            "| team (the doctors of a collaboration).")
    model: str | None = Field(None, description="litellm model string, for kind 'llm'.")
    api_base: str | None = Field(None, description="Base URL of an OpenAI-compatible server.")
    api_key_env: str | None = Field(
        None, description="Name of the environment variable holding the key (never the key)."
    )
    temperature: float | None = Field(0.0, ge=0, le=2, description="Sampling temperature.")
    max_tokens: int | None = Field(512, ge=1, description="Reply length limit in tokens.")
    seed: int | None = Field(None, description="Sampling seed passed to the model, if any.")
    timeout: float = Field(60.0, gt=0, description="Seconds before one model call is abandoned.")
    retries: int = Field(3, ge=0, le=10, description="Retries on rate limits and server errors.")
    backoff: float = Field(
        1.0, ge=0, description="First retry delay in seconds; doubles each time.")
    stream: bool = Field(True, description="Stream tokens (emitted as TokenDelta events).")
    response_format: Literal["text", "json"] = Field(
        "text", description="'json' asks the model for one JSON object (the OpenAI "
        "`response_format` json_object mode; litellm drops it for providers without it, so "
        "the reply must still be parsed tolerantly). Recorded in the stored raw request.")
    label: str | None = Field(None, description="Display label, e.g. 'human:alice'.")
    script: str | None = Field(None, description="Replay doctor: absolute path of its replay "
                               "file (core.replay).")
    script_hash: str | None = Field(None, description="Replay doctor: sha256 of the replay "
                                    "file's content, so a changed file is a new "
                                    "configuration.")
    bias: str | None = Field(None, description="The agent's biases (`core.biases`): names "
                             "joined with '+' in the registry's order, e.g. "
                             "'self_diagnosis+gender'; None for none.")

    def display(self) -> str:
        """Short label: the explicit label, the model string, or the kind."""
        return self.label or self.model or self.kind

    def params(self) -> dict[str, Any]:
        """The sampling parameters recorded with what this model produced (never a key)."""
        return {k: getattr(self, k) for k in ("temperature", "max_tokens", "seed", "api_base")
                if getattr(self, k) is not None}

    @model_serializer(mode="wrap")
    def _omit_later_defaults(self, handler: SerializerFunctionWrapHandler) -> Any:
        """Leave fields added after configurations were first stored out of the dump while
        they hold the value that means "as before", so `ConsultationConfig.config_key` and
        the stored descriptions of earlier runs stay the same (they still resume); any other
        value is dumped, and so makes a new key."""
        return _omit_as_before(handler(self), _AS_BEFORE)


#: Fields added to AgentSpec after keys were stored, with their "as before" value.
_AS_BEFORE: dict[str, Any] = {"response_format": "text", "script": None, "script_hash": None,
                              "bias": None}
#: The same for ConsultationConfig.
_CONFIG_AS_BEFORE: dict[str, Any] = {"solver": "interactive", "solver_options": {},
                                     "images": "upfront", "protocol": "agentclinic",
                                     "intent_end": False, "department": None}


def _omit_as_before(data: Any, as_before: dict[str, Any]) -> Any:
    if isinstance(data, dict):
        for name, before in as_before.items():
            if name in data and data[name] == before:
                del data[name]
    return data


def _default(kind: AgentKind) -> Any:
    return Field(default_factory=lambda: AgentSpec(kind=kind))


class ConsultationConfig(BaseModel):
    """Who plays each role and the rules of one consultation. The default is fully offline."""

    model_config = ConfigDict(extra="forbid")

    doctor: AgentSpec = _default("scripted")
    patient: AgentSpec = _default("retrieval")
    examiner: AgentSpec = _default("retrieval")
    moderators: list[AgentSpec] = Field(
        default_factory=lambda: [AgentSpec(kind="exact")],
        description="Judges of the diagnosis; every verdict is stored.",
    )
    max_turns: int = Field(20, ge=1, le=200, description="Doctor turns (questions and tests).")
    seed: int = Field(0, description="Seed of the deterministic agents (scripted doctor).")
    final_report: bool = Field(False, description="Ask the doctor for a structured report.")
    solver: str = Field("interactive", description="The doctor strategy, a name in "
                        "core.solvers.registry (interactive: AgentClinic's consultation).")
    solver_options: dict[str, Any] = Field(
        default_factory=dict, description="The strategy's options (checked by the solver).")
    images: Literal["upfront", "on-request"] = Field(
        "upfront", description="When the doctor sees the case's images (core.images): "
        "'upfront' with the presentation, 'on-request' only after REQUEST IMAGES (one turn). "
        "Ignored by cases without images.")
    protocol: Literal["agentclinic", "aihospital"] = Field(
        "agentclinic", description="How the consultation goes: AgentClinic's (the doctor "
        "asks and orders tests; the examiner answers it) or AI Hospital's (the patient opens "
        "with its complaint, relays test requests to the examiner, and the doctor ends with "
        "its five-part report).")
    intent_end: bool = Field(False, description="RJUA's intent recognition: a doctor message "
                             "that states a diagnosis or a treatment ends the consultation "
                             "without the DIAGNOSIS READY marker (`core.intent`).")
    department: str | None = Field(None, description="The department of the simulated "
                                   "hospital whose doctor played it (`bedside hospital`, "
                                   "`core.hospital.departments`); None outside the hospital.")

    @model_serializer(mode="wrap")
    def _omit_later_defaults(self, handler: SerializerFunctionWrapHandler) -> Any:
        """As `AgentSpec`'s: fields added later are left out while "as before", so keys and
        stored descriptions of earlier runs do not change."""
        return _omit_as_before(handler(self), _CONFIG_AS_BEFORE)

    def describe(self) -> dict[str, Any]:
        """JSON-ready description, as stored with the consultation (no keys in it)."""
        data = self.model_dump(mode="json", exclude_none=True)
        data["config_key"] = self.config_key()
        return data

    def config_key(self) -> str:
        """A stable short key: the same configuration always gives the same key."""
        body = json.dumps(self.model_dump(mode="json", exclude={"doctor": {"label"}}),
                          sort_keys=True, separators=(",", ":"))
        label = self.doctor.display().replace(" ", "_")[:40]
        return f"{label}#{hashlib.sha256(body.encode()).hexdigest()[:12]}"

    def models(self) -> list[str]:
        """Every distinct model string used by an LLM role, sorted (agents a solver's
        options name, such as a team's doctors and host, included)."""
        specs = [self.doctor, self.patient, self.examiner, *self.moderators]
        found = {s.model for s in specs if s.kind == "llm" and s.model}
        return sorted(found | option_models(self.solver_options))


def option_models(options: dict[str, Any]) -> set[str]:
    """The model strings of the agents a solver's options name (an agent spec, or a list
    of them, as a dict)."""
    out: set[str] = set()
    for value in options.values():
        for spec in value if isinstance(value, list) else [value]:
            if isinstance(spec, dict) and spec.get("kind") == "llm" and spec.get("model"):
                out.add(str(spec["model"]))
    return out


def allowed_range(model: type[BaseModel], name: str) -> str | None:
    """The allowed values of a numeric field in words ('from 0 to 2', 'above 0'), from its
    pydantic constraints; None when it has none."""
    low = high = None
    for item in model.model_fields[name].metadata:
        if getattr(item, "ge", None) is not None:
            low = f"{item.ge:g}"
        if getattr(item, "gt", None) is not None:
            low = f"above {item.gt:g}"
        if getattr(item, "le", None) is not None:
            high = f"{item.le:g}"
        if getattr(item, "lt", None) is not None:
            high = f"below {item.lt:g}"
    if low is not None and high is not None:
        return f"from {low} to {high}" if not low.startswith("above") else f"{low} and {high}"
    if low is not None:
        return low if low.startswith("above") else f"at least {low}"
    if high is not None:
        return high if high.startswith("below") else f"at most {high}"
    return None


def invalid_value(err: ValidationError, model: type[BaseModel],
                  names: dict[str, str] | None = None) -> InputError:
    """A pydantic error as one line naming the field (or its CLI option, via `names`) and
    the allowed range, e.g. "field '--temperature': must be from 0 to 2 (got 5)"."""
    first = err.errors()[0]
    name = str(first["loc"][0]) if first.get("loc") else "value"
    shown = (names or {}).get(name, name)
    allowed = allowed_range(model, name) if name in model.model_fields else None
    got = first.get("input")
    if allowed:
        return InputError(f"must be {allowed} (got {got!r})", field=shown)
    return InputError(f"{first.get('msg', 'invalid value')} (got {got!r})", field=shown)


def check_value(model: type[BaseModel], name: str, value: Any, option: str) -> None:
    """Raise a one-line InputError naming `option` if `value` is outside the range the
    field `name` of `model` allows (used to check CLI options before building specs)."""
    if value is None:
        return
    try:
        model.__pydantic_validator__.validate_assignment(
            model.model_construct(), name, value)
    except ValidationError as err:
        raise invalid_value(err, model, {name: option}) from None


def parse_agent(text: str, role: str, **params: Any) -> AgentSpec:
    """Turn a CLI string into an AgentSpec for `role`; raise InputError if it cannot play it.

    `retrieval`, `scripted[:seed=N]`, `human[:NAME]`, `exact` name model-free agents (the
    seed of a scripted doctor, when given, overrides the configuration's); `replay:FILE`
    a doctor saying the messages of a replay file (read and checked here, `core.replay`);
    anything else containing a `/` (e.g. `openai/gpt-4o-mini`, `ollama/llama3`) is a litellm
    model. Extra keyword parameters (api_base, temperature, ...) apply to model agents.
    """
    value = text.strip()
    head, _, rest = value.partition(":")
    allowed = ROLE_KINDS.get(role)
    if allowed is None:
        raise InputError(f"unknown role '{role}'", field="role")
    if head == "replay":
        return _replay_spec(rest, role)
    if head == "scripted" and rest:
        return _scripted_spec(rest, role, allowed)
    if head in ("retrieval", "scripted", "exact", "human"):
        if head not in allowed:
            raise InputError(f"'{head}' cannot play the {role}; use one of "
                             f"{', '.join(sorted(allowed - {'llm'}))} or a model string",
                             field=role)
        label = f"human:{rest}" if head == "human" and rest else None
        return AgentSpec(kind=head, label=label)  # type: ignore[arg-type]
    if "/" not in value or any(c.isspace() for c in value):
        raise InputError(f"'{value}' is neither an agent kind nor a provider/model string",
                         field=role)
    if "llm" not in allowed:
        raise InputError(f"a model cannot play the {role}", field=role)
    try:
        return AgentSpec(kind="llm", model=value, **params)
    except ValidationError as err:
        raise invalid_value(err, AgentSpec) from None


def _scripted_spec(rest: str, role: str, allowed: set[str]) -> AgentSpec:
    """`scripted:seed=N`: a scripted doctor of another style than the reference one (seed
    0), e.g. a second opinion in a collaboration (`core.agents.scripted_doctor`)."""
    if "scripted" not in allowed:
        raise InputError(f"'scripted' cannot play the {role}", field=role)
    name, _, value = rest.partition("=")
    if name.strip() != "seed" or not value.strip().lstrip("-").isdigit():
        raise InputError(f"'scripted:{rest}' is not understood; write scripted:seed=N "
                         "(N a whole number)", field=role)
    seed = int(value)
    return AgentSpec(kind="scripted", seed=seed, label=f"scripted:seed={seed}" if seed
                     else None)


def _replay_spec(path: str, role: str) -> AgentSpec:
    """The spec of a replay doctor: the file checked now, its path and content hash kept."""
    from pathlib import Path

    from core.replay import load_replay

    if role != "doctor":
        raise InputError(f"'replay' cannot play the {role}; only the doctor", field=role)
    if not path.strip():
        raise InputError("name the replay file: replay:FILE", field=role)
    script = load_replay(path.strip())
    return AgentSpec(kind="replay", script=script.path, script_hash=script.digest,
                     label=f"replay:{Path(script.path).name}@{script.digest[:8]}")


def parse_config(doctor: str = "scripted", patient: str = "retrieval",
                 examiner: str = "retrieval", moderators: str = "exact", *,
                 params: dict[str, Any] | None = None, **rules: Any) -> ConsultationConfig:
    """Build a config from CLI strings; `moderators` is comma-separated (e.g. `exact,openai/x`)."""
    extra = params or {}
    mods = [parse_agent(m, "moderator", **extra) for m in moderators.split(",") if m.strip()]
    try:
        return ConsultationConfig(
            doctor=parse_agent(doctor, "doctor", **extra),
            patient=parse_agent(patient, "patient", **extra),
            examiner=parse_agent(examiner, "examiner", **extra),
            moderators=mods, **rules,
        )
    except ValidationError as err:
        raise invalid_value(err, ConsultationConfig) from None


def agents_config(doctor: str, patient: str, examiner: str, api_base: str | None,
                  **rules: Any) -> Any:
    """A consultation config from agent strings (offline `retrieval` patient and examiner
    when empty) and the exact moderator; models reached through `api_base` when given.
    Raises InputError (one line) for a bad agent."""
    params = {"api_base": api_base} if api_base else {}
    return parse_config(doctor, patient or "retrieval", examiner or "retrieval", "exact",
                        params=params, **rules)
