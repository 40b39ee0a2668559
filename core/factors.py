"""Experimental factors: every run option an experiment can vary, declared once.

A factor is
- a name: the `bedside run` option (`--patient-bias` for `patient_bias`), the key of a run
  file (`bedside run --config FILE.toml`) and a key of `bedside results --by`;
- how one value is read from text and checked (`parse`: an InputError naming the option);
- how a value is set on a `ConsultationConfig` (`apply`: a config field, an agent spec's
  option, the solver and its options);
- how the value is read back from a consultation's stored configuration description
  (`read`), so results group by it whatever run the consultation came from.

A run is the cartesian product of the values given for every factor (`grid`), applied in
the registry's order (the agents first, then the options that change them). Several values
of a factor are given by repeating its option or with commas; a factor whose one value is
made of several parts (several moderators judging together, several doctor tools used
together) joins the parts with `combine` ('+', and also ',' for moderators as before).

Adding a factor is one `Factor` entry in `FACTORS` (plus the code of the arm itself).
Values a factor adds to a configuration must leave earlier configurations' keys alone
(`core.config`'s "as before" rule).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from core.biases import BIASES, NONE, parse_biases
from core.collaboration import DEFAULT_ROUNDS
from core.config import PROTOCOLS, ConsultationConfig, check_value, parse_agent
from core.consultation_state import agent_label
from core.doctortools import TOOLS, ToolChoice, check_doctor, choose
from core.doctortools import label as tools_label
from core.errors import InputError
from core.factor_rules import (parse_host, parse_protocol, parse_rounds, parse_team, read_flag,
                               read_option, read_team, set_option, set_protocol, set_team,
                               yes_no)
from core.solvers.registry import (AGENTHOSPITAL, INTERACTIVE, MEDAGENT_ZERO, SOLVERS,
                                   task_names, task_of)

_KIND_WORDS = {"llm": "a model", "scripted": "the scripted doctor", "human": "a physician"}

Params = dict[str, Any]  # model parameters for agent strings (api_base, temperature, ...)
Described = dict[str, Any]  # a stored configuration description (ConsultationConfig.describe)
UNKNOWN = "unknown"  # the value of any factor for a consultation stored without a description


@dataclass(frozen=True)
class Factor:
    """One experimental factor (see the module docstring)."""

    name: str
    metavar: str
    help: str
    default: str  # the value's text when the factor is not given
    parse: Callable[[str, Params], Any]  # (one value's text, model parameters) → value
    apply: Callable[[ConsultationConfig, Any], ConsultationConfig]  # a new config
    read: Callable[[Described], str]  # the value's text in a stored description
    combine: str = ""  # joins the parts of ONE value ('+'); '' when a value has no parts
    # Values that name something else than a model (listed in the help; a factor taking
    # model strings lists its model-free kinds).
    choices: tuple[str, ...] = ()
    # Flags that give one value (`--no-dispute-resolution` is `--dispute-resolution no`):
    # (option, value, help).
    flags: tuple[tuple[str, str, str], ...] = ()
    # Another factor this one only means something with: given while that one keeps its
    # default everywhere, the plan is refused (`--rounds` without `--collaborate`).
    only_with: str = ""

    @property
    def option(self) -> str:
        """The command-line option, e.g. '--patient-bias'."""
        return "--" + self.name.replace("_", "-")

    def split(self, texts: Iterable[str]) -> list[str]:
        """Each value given, in order, once: repeated options and comma lists (a comma
        belongs to the value when the factor combines parts with it)."""
        out: list[str] = []
        for text in texts:
            parts = [text] if "," in self.combine else str(text).split(",")
            out.extend(p.strip() for p in parts if p.strip())
        return list(dict.fromkeys(out))


# -- the agents -----------------------------------------------------------------------------

def _agent(role: str, note: str = "") -> Callable[[str, Params], Any]:
    def parse(text: str, params: Params) -> Any:
        head = text.strip().split(":")[0]
        if role == "doctor" and head == "human":
            raise InputError("a human doctor cannot play in a batch: play as doctor in the "
                             "app (run `bedside` and press p)", field="--doctor")
        if role == "patient" and head == "human":
            raise InputError("a human patient cannot play in a batch: play the patient in "
                             "the app (run `bedside` and press h)", field="--patient")
        try:
            return parse_agent(text, role, **params)
        except InputError as err:
            if err.path is not None:  # a file the agent reads (a replay file): keep its place
                raise
            raise InputError(err.reason + note, field=f"--{role}") from None
    return parse


def _set(field: str) -> Callable[[ConsultationConfig, Any], ConsultationConfig]:
    def apply(config: ConsultationConfig, value: Any) -> ConsultationConfig:
        return config.model_copy(update={field: value})
    return apply


def _label(role: str, default: str) -> Callable[[Described], str]:
    def read(described: Described) -> str:
        return agent_label(described.get(role)) or default
    return read


def _moderators(text: str, params: Params) -> Any:
    parts = [p.strip() for p in text.replace("+", ",").split(",") if p.strip()]
    if not parts:
        raise InputError("names no moderator", field="--moderator")
    try:
        return [parse_agent(p, "moderator", **params) for p in parts]
    except InputError as err:
        raise InputError(err.reason, field="--moderator") from None


def _read_moderators(described: Described) -> str:
    specs = described.get("moderators") or [{"kind": "exact"}]
    return "+".join(agent_label(s) or UNKNOWN for s in specs)


# -- the rules ------------------------------------------------------------------------------

def _max_turns(text: str, params: Params) -> int:
    try:
        value = int(text)
    except ValueError:
        raise InputError(f"must be a whole number (got {text!r})", field="--max-turns") from None
    check_value(ConsultationConfig, "max_turns", value, "--max-turns")
    return value


def _max_turns_or_default(text: str, params: Params) -> int | None:
    # Not given: None, the protocol's own budget (20; AI Hospital's 10, set_protocol).
    return None if not text.strip() else _max_turns(text, params)


def _set_max_turns(config: ConsultationConfig, value: int | None) -> ConsultationConfig:
    return config if value is None else config.model_copy(update={"max_turns": value})


def _read_max_turns(described: Described) -> str:
    return str(described.get("max_turns", 20))


# -- the biases -----------------------------------------------------------------------------

def _bias(role: str) -> Callable[[str, Params], Any]:
    def parse(text: str, params: Params) -> Any:
        return parse_biases(text, role)
    return parse


def _set_bias(role: str) -> Callable[[ConsultationConfig, Any], ConsultationConfig]:
    """The agent of `role` with the bias. A doctor bias is an instruction to a model
    doctor: the scripted and replay doctors follow no instructions and are refused one."""
    def apply(config: ConsultationConfig, value: Any) -> ConsultationConfig:
        spec = getattr(config, role)
        if value is not None and role == "doctor" and spec.kind != "llm":
            raise InputError(f"the doctor '{spec.display()}' cannot have a bias: a doctor "
                             "bias is an instruction to a model doctor (give --doctor MODEL)",
                             field="--doctor-bias")
        return config.model_copy(update={role: spec.model_copy(update={"bias": value})})
    return apply


def _read_bias(role: str) -> Callable[[Described], str]:
    def read(described: Described) -> str:
        spec = described.get(role)
        return (spec.get("bias") if isinstance(spec, dict) else None) or NONE
    return read


def _bias_factor(role: str) -> Factor:
    known = BIASES[role]
    return Factor(f"{role}_bias", "NAME", f"{role} bias: none (default) or one of "
                  f"{', '.join(known)}; several at once joined with '+'", NONE,
                  _bias(role), _set_bias(role), _read_bias(role), combine="+",
                  choices=(NONE, *known))


def _images(text: str, params: Params) -> str:
    from core.images import IMAGE_MODES

    value = text.strip().lower()
    if value not in IMAGE_MODES:
        raise InputError(f"must be one of {', '.join(IMAGE_MODES)} (got {text!r})",
                         field="--images")
    return value


def _read_images(described: Described) -> str:
    # 'none' when the case had no image (the mode did not apply), and for consultations
    # recorded before images reached a doctor (no count stored).
    if not described.get("case_images"):
        return "none"
    return str(described.get("images", "upfront"))


def _doctor_tools(text: str, params: Params) -> Any:
    return choose(text)


def _apply_tools(config: ConsultationConfig, value: ToolChoice) -> ConsultationConfig:
    """The doctor tools make the consultation the `tools` solver's (core.doctortools says
    what composes with what; a combination that makes no sense is refused here)."""
    if not value.tools:
        return config
    check_doctor(value.tools, config.doctor.kind, config.solver)
    return config.model_copy(update={"solver": "tools", "solver_options": value.options()})


def _read_tools(described: Described) -> str:
    if described.get("solver") != "tools":
        return "none"
    return tools_label(list((described.get("solver_options") or {}).get("tools") or []))
# -- the task and MedAgent-Zero's memory ----------------------------------------------------

def _task(text: str, params: Params) -> str:
    if text not in task_names():
        raise InputError(f"unknown task '{text}' (known: {', '.join(task_names())})",
                         field="--task")
    return text


def _apply_task(config: ConsultationConfig, value: str) -> ConsultationConfig:
    # The interactive consultation is the default strategy: it leaves the configuration to
    # the factors after it (the doctor tools make it the `tools` solver).
    if value == INTERACTIVE:
        return config
    kinds = SOLVERS[value].doctors
    if kinds and config.doctor.kind not in kinds:
        takes = " or ".join(_KIND_WORDS.get(k, k) for k in kinds)
        raise InputError(f"the doctor '{config.doctor.display()}' cannot play the task "
                         f"'{value}' (it takes {takes})", field="--task")
    return config.model_copy(update={"solver": value, "solver_options": {}})


def _read_task(described: Described) -> str:
    return task_of(described.get("solver"))


MEMORY_ARMS = ("none", "records", "experience", "both")


def _memory(text: str, params: Params) -> str:
    if text not in MEMORY_ARMS:
        raise InputError(f"must be one of {', '.join(MEMORY_ARMS)} (got {text!r})",
                         field="--memory")
    return text


def _apply_memory(config: ConsultationConfig, value: str) -> ConsultationConfig:
    if value == "none":
        return config
    if config.solver != AGENTHOSPITAL:
        raise InputError("MedAgent-Zero's memory plays the Agent Hospital task: add "
                         "--task agenthospital", field="--memory")
    return config.model_copy(update={"solver": MEDAGENT_ZERO, "solver_options": {"arm": value}})


def _read_memory(described: Described) -> str:
    if described.get("solver") != MEDAGENT_ZERO:
        return "none"
    return str((described.get("solver_options") or {}).get("arm", "both"))


_MODEL = " or a model string"
FACTORS: dict[str, Factor] = {f.name: f for f in (
    Factor("doctor", "AGENT", "scripted (default), a model string, or replay:FILE (a replay "
           "file's messages for each case, then its diagnosis)", "scripted",
           _agent("doctor"), _set("doctor"), _label("doctor", "scripted"),
           choices=("scripted",)),
    Factor("patient", "AGENT", "retrieval (default) or a model string", "retrieval",
           _agent("patient"), _set("patient"), _label("patient", "retrieval"),
           choices=("retrieval",)),
    Factor("examiner", "AGENT", "retrieval (default) or a model string", "retrieval",
           _agent("examiner"), _set("examiner"), _label("examiner", "retrieval"),
           choices=("retrieval",)),
    Factor("moderator", "AGENTS", "exact (default), a model string, or several judging "
           "together joined with '+' or ','", "exact", _moderators, _set("moderators"),
           _read_moderators, combine="+,", choices=("exact",)),
    Factor("max_turns", "N", "doctor turn budget, 1 to 200 (default 20; 10 under "
           "--protocol aihospital)", "", _max_turns_or_default, _set_max_turns,
           _read_max_turns),
    Factor("protocol", "NAME", "agentclinic (default) or aihospital: the patient opens with "
           "its complaint and relays test requests to the examiner, the doctor ends with its "
           "five-part report", "agentclinic", parse_protocol, set_protocol,
           lambda d: str(d.get("protocol", "agentclinic")), choices=PROTOCOLS),
    Factor("intent_end", "yes|no", "RJUA's intent recognition: a doctor message stating a "
           "diagnosis or a treatment ends the consultation without DIAGNOSIS READY "
           "(default no)", "no", yes_no("--intent-end"), _set("intent_end"),
           read_flag("intent_end", False),
           flags=(("--intent-end", "yes", "--intent-end alone is --intent-end yes"),)),
    Factor("task", "TASK", "what the doctor is asked, a task of core.solvers.registry: "
           "interactive (default: AgentClinic's consultation), agenthospital "
           "(examination, diagnosis, treatment level, on generated Agent Hospital patients), "
           "rjua-reasoning (the tests to order from the patient's first words) or rjua-qa "
           "(the whole record: diagnosis and treatment)",
           INTERACTIVE, _task, _apply_task, _read_task, choices=tuple(task_names())),
    Factor("memory", "ARM", "MedAgent-Zero with --task agenthospital: the doctor learns over "
           "the run's cases, keeping records, experience (principles) or both (default none: "
           "no learning)", "none", _memory, _apply_memory, _read_memory,
           choices=MEMORY_ARMS),
    Factor("collaborate", "DOCTOR,DOCTOR[,...]", "2 to 6 doctors (scripted, scripted:seed=N "
           "or model strings) who each play their own consultation, then revise their "
           "reports under a host until they agree (AI Hospital's collaboration); several "
           "teams: repeat the option; 'none' (default): one doctor", "none", parse_team,
           set_team, read_team, combine="+,", choices=("none", "scripted",
                                                          "scripted:seed=N")),
    Factor("rounds", "M", f"a collaboration's revision rounds at most, 1 to 10 (default "
           f"{DEFAULT_ROUNDS}, as AI Hospital)", str(DEFAULT_ROUNDS), parse_rounds,
           set_option("rounds", DEFAULT_ROUNDS), read_option("rounds", DEFAULT_ROUNDS),
           only_with="collaborate"),
    Factor("dispute_resolution", "yes|no", "the host lists at most three disputed points each "
           "round (default yes); no: the doctors only see each other's reports",
           "yes", yes_no("--dispute-resolution"), set_option("dispute_resolution", True),
           read_option("dispute_resolution", True), only_with="collaborate",
           flags=(("--no-dispute-resolution", "no", "same as --dispute-resolution no"),)),
    Factor("host", "AGENT", "who hosts a collaboration: scripted (default: rules, the "
           "disputed points are the differing diagnosis entities) or a model string",
           "scripted", parse_host, set_option("host", {"kind": "scripted"}),
           read_option("host", {"kind": "scripted"}),
           only_with="collaborate", choices=("scripted",)),
    _bias_factor("patient"),
    _bias_factor("doctor"),
    Factor("images", "MODE", "when the doctor sees a case's images: upfront (default, with "
           "the presentation) or on-request (after REQUEST IMAGES, one turn); cases without "
           "images ignore it and group as 'none'", "upfront", _images, _set("images"),
           _read_images, choices=("upfront", "on-request")),
    Factor("doctor_tool", "TOOLS", "none (default) or doctor tools, several together "
           f"joined with '+': {', '.join(TOOLS)} (see the README's Doctor tools)", "none",
           _doctor_tools, _apply_tools, _read_tools, combine="+",
           choices=("none", *TOOLS)),
)}
# Keys `bedside results --by` takes besides the factors: the doctor as shown (one-step rows
# tagged) and the case's labels.
CASE_KEYS = ("source", "specialty", "language")
GROUP_KEYS = ("model", *CASE_KEYS)
#: Keys read from a consultation's stored configuration that are no `bedside run` option:
#: set by what played the consultation (the whole hospital's department, `bedside
#: hospital`); 'none' for a consultation played elsewhere.
CONFIG_LABELS: dict[str, Callable[[Described], str]] = {
    "department": lambda described: str(described.get("department") or "none"),
}


def grouping_keys() -> tuple[str, ...]:
    """Every key `bedside results --by` takes."""
    return (*GROUP_KEYS, *(name for name in FACTORS if name not in GROUP_KEYS),
            *CONFIG_LABELS)


def parse_by(text: str) -> tuple[str, ...]:
    """`--by KEY[,KEY...]` as a tuple of known keys; InputError naming the known ones."""
    keys = tuple(dict.fromkeys(k.strip() for k in text.split(",") if k.strip()))
    known = grouping_keys()
    bad = [k for k in keys if k not in known]
    if bad or not keys:
        raise InputError(f"cannot group by '{','.join(bad) or text}' (choose one or more of "
                         f"{', '.join(known)}, comma-separated)", field="--by")
    return keys


def read_value(name: str, described: Described | None) -> str:
    """A factor's (or a `CONFIG_LABELS` key's) value as text in a stored configuration
    description; 'unknown' for a consultation stored without one (an imported
    transcript)."""
    if not described or "config_key" not in described and "doctor" not in described:
        return UNKNOWN
    if name in CONFIG_LABELS:
        return CONFIG_LABELS[name](described)
    return FACTORS[name].read(described)


def parse_values(given: dict[str, list[str]], params: Params) -> dict[str, list[Any]]:
    """Every factor's values, parsed (a factor not given has its default). `given` maps a
    factor name to its texts as given (repeated options, comma lists). Unknown names and
    bad values are InputErrors naming the option."""
    unknown = sorted(set(given) - set(FACTORS))
    if unknown:
        raise InputError(f"no such factor (known: {', '.join(FACTORS)})",
                         field=unknown[0])
    out: dict[str, list[Any]] = {}
    for name, factor in FACTORS.items():
        texts = factor.split(given.get(name) or []) or [factor.default]
        out[name] = [factor.parse(t, params) for t in texts]
    return out


def grid(values: dict[str, list[Any]], base: ConsultationConfig) -> list[ConsultationConfig]:
    """The cartesian product of the factors' values applied to `base`, in the registry's
    order for the factors and in the given order for the values; a configuration that
    comes out twice is kept once."""
    names = [n for n in FACTORS if n in values]
    out: dict[str, ConsultationConfig] = {}
    for combo in itertools.product(*(values[n] for n in names)):
        config = base
        for name, value in zip(names, combo, strict=True):
            config = FACTORS[name].apply(config, value)
        out.setdefault(config.config_key(), config)
    return list(out.values())
