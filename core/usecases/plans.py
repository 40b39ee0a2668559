"""A new run's plan from what the user gave: command-line options over a run file's keys
over the defaults, every factor's values parsed and crossed into the grid of
configurations (`core.factors`), the settings checked. Headless; `bedside run` collects
what was given and hands it here.

An error names where the bad value came from: the option (`--max-turns`) when given on
the command line, the file, line and key when it came from the run file.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from core.config import AgentSpec, ConsultationConfig, check_value
from core.errors import InputError
from core.factors import FACTORS, grid
from core.runfile import RunFile

MAX_CONCURRENCY = 256
DEFAULTS: dict[str, Any] = {
    "name": None, "cases": None, "limit": None, "api_base": None, "api_key_env": None,
    "temperature": 0.0, "max_tokens": 512, "timeout": 60.0, "retries": 3, "seed": 0,
    "final_report": False, "one_step": False, "concurrency": 8, "model_limit": {},
}
_MODEL_PARAMS = ("api_base", "api_key_env", "temperature", "max_tokens", "timeout", "retries",
                 "seed")


class RunPlan(BaseModel):
    """A new run, ready for `core.usecases.runs.create` once its cases are selected."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    configs: list[ConsultationConfig] = Field(description="The grid of configurations.")
    cases: str | None = Field(None, description="The --cases filter.")
    limit: int | None = Field(None, description="At most this many cases.")
    concurrency: int = Field(8, description="Consultations at once.")
    model_limits: dict[str, int] = Field(default_factory=dict, description="Per-model limits.")
    one_step: bool = Field(False, description="Also the one-step upper bounds.")
    name: str | None = Field(None, description="The run's name.")
    run_file: dict[str, Any] | None = Field(None, description="The run file as given (name, "
                                            "text, sha256), stored with the run.")


def _option(key: str) -> str:
    return "--" + key.replace("_", "-")


class _Sources:
    """Each key's value and where it came from (command line, file or default)."""

    def __init__(self, given: dict[str, Any], run_file: RunFile | None) -> None:
        self.given, self.file = given, run_file

    def from_cli(self, key: str) -> bool:
        """Whether the command line gave `key` (an unset flag, an empty list: not given)."""
        value = self.given.get(key)
        return not (value is None or value is False or value == [] or value == {})

    def value(self, key: str) -> Any:
        """The command line's value, else the file's, else the default."""
        if self.from_cli(key):
            return self.given[key]
        if self.file is not None and key in self.file.values:
            return self.file.values[key]
        return DEFAULTS[key]

    def error(self, key: str, err: InputError) -> InputError:
        """`err` re-told for where the value came from (an error inside a file a value
        names, such as a replay file's line, already says where)."""
        if err.path is not None:
            return err
        if self.file is not None and not self.from_cli(key) and key in self.file.values:
            return self.file.error(key, err.reason)
        return InputError(err.reason, field=_option(key))


def _settings(src: _Sources) -> dict[str, Any]:
    out = {key: src.value(key) for key in DEFAULTS}
    if isinstance(out["cases"], list):
        out["cases"] = ",".join(str(c) for c in out["cases"])
    checks = [("temperature", AgentSpec), ("max_tokens", AgentSpec), ("timeout", AgentSpec),
              ("retries", AgentSpec)]
    for key, model in checks:
        try:
            check_value(model, key, out[key], _option(key))
        except InputError as err:
            raise src.error(key, err) from None
    for key, low, high in (("concurrency", 1, MAX_CONCURRENCY), ("limit", 1, None)):
        value = out[key]
        if value is not None and (value < low or high is not None and value > high):
            allowed = f"from {low} to {high}" if high else f"at least {low}"
            raise src.error(key, InputError(f"must be {allowed} (got {value})"))
    return out


def _factor_values(src: _Sources, params: dict[str, Any]) -> dict[str, list[Any]]:
    values: dict[str, list[Any]] = {}
    file_factors = src.file.factors() if src.file is not None else {}
    for name, factor in FACTORS.items():
        texts = factor.split(src.given.get(name) or file_factors.get(name) or []) \
            or [factor.default]
        try:
            values[name] = [factor.parse(text, params) for text in texts]
        except InputError as err:
            raise src.error(name, err) from None
    return values


def _check_only_with(src: _Sources, values: dict[str, list[Any]]) -> None:
    """A factor given that means nothing without another one (`--rounds` without
    `--collaborate`) is an error naming it."""
    file_factors = src.file.factors() if src.file is not None else {}
    for name, factor in FACTORS.items():
        other = FACTORS.get(factor.only_with)
        if other is None or not (src.given.get(name) or name in file_factors):
            continue
        default = other.parse(other.default, {})
        if all(v == default for v in values[other.name]):
            raise src.error(name, InputError(f"only applies with {other.option}"))


def build_plan(given: dict[str, Any], run_file: RunFile | None = None) -> RunPlan:
    """The plan of a new run. `given` holds the command line's values by key (factor names
    map to the texts given, repeated options and comma lists; settings to their values;
    None or absent when not given)."""
    src = _Sources(given, run_file)
    settings = _settings(src)
    params = {k: settings[k] for k in _MODEL_PARAMS if settings[k] is not None}
    base = ConsultationConfig(seed=settings["seed"], final_report=settings["final_report"])
    values = _factor_values(src, params)
    _check_only_with(src, values)
    try:
        configs = grid(values, base)
    except InputError as err:  # a value that does not fit another factor's (a doctor bias
        # for a scripted doctor): told where that value came from
        raise src.error((err.field or "").lstrip("-").replace("-", "_"), err) from None
    if settings["one_step"] and not any(c.doctor.kind == "llm" for c in configs):
        raise src.error("one_step", InputError(
            "needs a model doctor (e.g. --doctor openai/gpt-4o-mini); the scripted doctor "
            "has no one-step mode"))
    return RunPlan(configs=configs, cases=settings["cases"], limit=settings["limit"],
                   concurrency=settings["concurrency"],
                   model_limits=dict(settings["model_limit"]), one_step=settings["one_step"],
                   name=settings["name"],
                   run_file=run_file.stored() if run_file is not None else None)
