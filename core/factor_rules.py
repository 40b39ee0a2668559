"""The value rules of the experimental factors of AI Hospital's and RJUA's arms: the
protocol, intent recognition and collaborating doctors (`core.factors` declares them).

Each factor has a parse (text → value, an InputError naming the option), an apply (a new
`ConsultationConfig`) and a read (the value's text in a stored description). A
collaboration's options are stored only where they differ from their defaults, so the
stored options (and `bedside runs`) say what differs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.collaboration import COLLABORATE, LABELS, team_label
from core.config import PROTOCOLS, AgentSpec, ConsultationConfig, parse_agent
from core.consultation_state import agent_label
from core.errors import InputError

Params = dict[str, Any]
Described = dict[str, Any]
UNKNOWN = "unknown"


def yes_no(option: str) -> Callable[[str, Params], bool]:
    """The parse of a yes/no factor (yes, true, on, 1 / no, false, off, 0)."""
    def parse(text: str, params: Params) -> bool:
        word = text.strip().lower()
        if word in ("yes", "true", "on", "1"):
            return True
        if word in ("no", "false", "off", "0"):
            return False
        raise InputError(f"must be yes or no (got {text!r})", field=option)
    return parse


def read_flag(name: str, default: bool) -> Callable[[Described], str]:
    """The read of a yes/no configuration field: 'yes' or 'no'."""
    def read(described: Described) -> str:
        return "yes" if described.get(name, default) else "no"
    return read


AIHOSPITAL_TURNS = 10  # AI Hospital's consultations have at most 10 doctor turns


def parse_protocol(text: str, params: Params) -> str:
    """`--protocol`: agentclinic or aihospital."""
    name = text.strip().lower()
    if name not in PROTOCOLS:
        raise InputError(f"unknown protocol {text!r} (choose {' or '.join(PROTOCOLS)})",
                         field="--protocol")
    return name


def set_protocol(config: ConsultationConfig, value: str) -> ConsultationConfig:
    """The protocol, and AI Hospital's 10 turns unless --max-turns set a budget."""
    update: dict[str, Any] = {"protocol": value}
    # AI Hospital's budget, unless --max-turns set one (a field set is "given").
    if value == "aihospital" and "max_turns" not in config.model_fields_set:
        update["max_turns"] = AIHOSPITAL_TURNS
    return config.model_copy(update=update)


def parse_team(text: str, params: Params) -> list[AgentSpec] | None:
    """`--collaborate`: None for 'none', else 2 to 6 scripted or model doctors."""
    if text.strip().lower() in ("", "none"):
        return None
    parts = [p.strip() for p in text.replace("+", ",").split(",") if p.strip()]
    try:
        team = [parse_agent(p, "doctor", **params) for p in parts]
    except InputError as err:
        raise InputError(err.reason, field="--collaborate") from None
    bad = [d.display() for d in team if d.kind not in ("scripted", "llm")]
    if bad:
        raise InputError(f"a collaborating doctor is scripted or a model (not {bad[0]})",
                         field="--collaborate")
    if not 2 <= len(team) <= len(LABELS):
        raise InputError(f"needs 2 to {len(LABELS)} doctors (got {len(team)})",
                         field="--collaborate")
    return team


def set_team(config: ConsultationConfig, team: list[AgentSpec] | None) -> ConsultationConfig:
    """A team plays as the collaborate solver; its doctor is the team (its label)."""
    if team is None:
        return config
    if config.solver != "interactive":  # a task chose another strategy
        raise InputError(f"a collaboration plays the interactive consultation, not the "
                         f"'{config.solver}' task", field="--collaborate")
    options = {"doctors": [d.model_dump(mode="json", exclude_defaults=True) for d in team]}
    return config.model_copy(update={
        "doctor": AgentSpec(kind="team", label=team_label(team)), "solver": COLLABORATE,
        "solver_options": options})


def read_team(described: Described) -> str:
    """The team as its label ('none' for a configuration of one doctor)."""
    if described.get("solver") != COLLABORATE:
        return "none"
    return agent_label(described.get("doctor")) or UNKNOWN


def set_option(key: str, default: Any) -> Callable[[ConsultationConfig, Any], ConsultationConfig]:
    """Set one option of a collaboration (nothing for a configuration without one); an
    option at its default is left out, so the stored options say what differs."""
    def apply(config: ConsultationConfig, value: Any) -> ConsultationConfig:
        if config.solver != COLLABORATE:
            return config
        if isinstance(value, AgentSpec):
            value = value.model_dump(mode="json", exclude_defaults=True)
        options = {k: v for k, v in config.solver_options.items() if k != key}
        if value != default:
            options[key] = value
        return config.model_copy(update={"solver_options": options})
    return apply


def read_option(key: str, default: Any) -> Callable[[Described], str]:
    """The read of a collaboration's option ('none' for a configuration of one doctor)."""
    def read(described: Described) -> str:
        if described.get("solver") != COLLABORATE:
            return "none"
        value = (described.get("solver_options") or {}).get(key, default)
        if isinstance(value, bool):
            return "yes" if value else "no"
        return (agent_label(value) or UNKNOWN) if isinstance(value, dict) else str(value)
    return read


def parse_rounds(text: str, params: Params) -> int:
    """`--rounds`: 1 to 10."""
    try:
        value = int(text)
    except ValueError:
        raise InputError(f"must be a whole number (got {text!r})", field="--rounds") from None
    if not 1 <= value <= 10:
        raise InputError(f"must be from 1 to 10 (got {value})", field="--rounds")
    return value


def parse_host(text: str, params: Params) -> AgentSpec:
    """`--host`: scripted (the rule host) or a model string."""
    try:
        return parse_agent(text, "host", **params)
    except InputError as err:
        raise InputError(err.reason, field="--host") from None
