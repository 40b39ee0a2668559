"""What a run is, in words: its doctors, the settings that differ from the defaults, its
cases, and how many of its consultations ended each way — per run and per configuration.

Shared by `bedside runs` (list, show, `--json`) and the app's Runs tab, so a run reads the
same everywhere instead of as an opaque id. A configuration's settings are the parts of its
stored description that differ from a default configuration (a fully offline one), named
generically, so settings added later (biases, tools, …) show up without a change here.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from core.config import AgentSpec, ConsultationConfig
from core.consultation_state import agent_label
from core.doctortools import settings_words
from core.ports.runs import RunsStore
from core.records.runs import ConsultationSummary, RunCounts, RunRecord
from core.usecases.runs import planned_size

#: Parts of a stored description that are not settings (identity, hashes, the agents; the
#: solver and its options are said in words of their own).
_NOT_SETTINGS = {"doctor", "patient", "examiner", "moderators", "config_key", "prompts",
                 "case_hash", "case_images", "solver", "solver_options", "mode"}
#: Agent fields that identify the agent rather than set it (or must never be shown); a
#: replay doctor's file and its hash are in its label ('replay:FILE@HASH').
_NOT_PARAMS = {"kind", "model", "label", "api_key_env", "script", "script_hash"}
_DEFAULTS: dict[str, Any] = ConsultationConfig().describe()
_MISSING = object()


class ConfigurationCounts(BaseModel):
    """One configuration of a run and how its consultations ended."""

    config_key: str = Field(description="The configuration's key (`DOCTOR#hash`).")
    doctor: str = Field(description="Who plays the doctor (label, model or kind).")
    settings: list[str] = Field(default_factory=list, description="What differs from the "
                                "default configuration, in words ('max turns 3').")
    consultations: int = Field(0, description="Its consultations (not superseded).")
    finished: int = Field(0, description="Those that ran to their end.")
    failed: int = Field(0, description="Those that stopped on an error.")
    cancelled: int = Field(0, description="Those cancelled by the user.")
    correct: int = Field(0, description="Finished with a correct diagnosis.")
    wrong: int = Field(0, description="Finished with a wrong diagnosis or none.")
    no_diagnosis: int = Field(0, description="Finished without a diagnosis (counted wrong).")


class RunSummary(BaseModel):
    """A run as `bedside runs` and the Runs tab describe it."""

    id: str = Field(description="The run id.")
    name: str | None = Field(None, description="Its --name, else None.")
    created_at: str | None = Field(None, description="ISO UTC creation time.")
    status: str | None = Field(None, description="running, finished, cancelled, "
                               "interrupted or failed.")
    origin: str | None = Field(None, description="'cli' or 'app'.")
    cases: int = Field(0, description="Cases in its plan.")
    planned: int | None = Field(None, description="Consultations planned (cases × "
                                "configurations), None when the plan is not readable.")
    doctors: list[str] = Field(default_factory=list, description="Its doctors, in order.")
    settings: list[str] = Field(default_factory=list, description="Settings every "
                                "configuration shares that differ from the defaults.")
    counts: RunCounts = Field(default_factory=RunCounts, description="Its consultations by "
                              "status.")
    configurations: list[ConfigurationCounts] = Field(
        default_factory=list, description="Each configuration with its counts (filled by "
        "`show`; the listing leaves it empty).")


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_value(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_value(v) for v in value)
    return str(value)


def _agent_params(role: str, spec: Any) -> list[str]:
    """The parameters of one agent that differ from that kind's defaults."""
    if not isinstance(spec, dict) or not spec.get("kind"):
        return []
    try:
        default = AgentSpec(kind=spec["kind"]).model_dump(mode="json", exclude_none=True)
    except ValueError:
        return []
    # A scripted doctor's seed is in its label ('scripted:seed=2').
    hidden = _NOT_PARAMS | ({"seed"} if spec["kind"] == "scripted" else set())
    return [f"{role} {k.replace('_', ' ')} {_value(v)}" for k, v in spec.items()
            if k not in hidden and default.get(k, _MISSING) != v and v is not None]


def _solver_words(described: dict[str, Any]) -> list[str]:
    """A solver other than the interactive one, with its options in words: an agent by its
    label, the list of agents that is a team left out (it is the doctor shown)."""
    solver = described.get("solver")
    if not solver or solver == "interactive":
        return []
    words = []
    for key, value in (described.get("solver_options") or {}).items():
        if isinstance(value, list) and value and all(isinstance(v, dict) and "kind" in v
                                                     for v in value):
            continue
        shown = agent_label(value) if isinstance(value, dict) else _value(value)
        words.append(f"{key.replace('_', ' ')} {shown}")
    return [f"{solver}" + (f" ({', '.join(words)})" if words else "")]


def settings_of(described: dict[str, Any]) -> list[str]:
    """What a stored configuration sets differently from the default one, in words:
    'patient openai/x', 'max turns 3', 'doctor temperature 0.7', 'final report yes'."""
    out = _agent_params("doctor", described.get("doctor"))
    for role in ("patient", "examiner"):
        spec = described.get(role)
        if agent_label(spec) not in (None, "retrieval"):
            out.append(f"{role} {agent_label(spec)}")
        out += _agent_params(role, spec)
    moderators = [agent_label(m) for m in described.get("moderators") or []]
    if moderators and moderators != ["exact"]:
        out.append("moderator " + ", ".join(str(m) for m in moderators))
    # The solver in the words of the factors that chose it (doctor tools, a task), else
    # as it is named, with its options in words.
    out += (settings_words(described) + _task_settings(described)
            or _solver_words(described))
    for key, value in described.items():
        if key in _NOT_SETTINGS or value in (None, {}, []):
            continue
        if _DEFAULTS.get(key, _MISSING) != value:
            out.append(f"{key.replace('_', ' ')} {_value(value)}")
    return out


def _task_settings(described: dict[str, Any]) -> list[str]:
    """A task's solver in the words of the factors that chose it ('task agenthospital',
    'memory both'); [] for the default or a solver no task factor explains."""
    from core.factors import FACTORS
    from core.solvers.registry import INTERACTIVE, task_of

    if task_of(described.get("solver")) == INTERACTIVE:
        return []
    if set(described.get("solver_options") or {}) - {"arm"}:
        return []  # options the factors do not set: say them as they are
    return [f"{name} {FACTORS[name].read(described)}" for name in ("task", "memory")
            if FACTORS[name].read(described) != FACTORS[name].default]


def _configurations(run: RunRecord) -> list[dict[str, Any]]:
    configs = run.config.get("configurations")
    return [c for c in configs if isinstance(c, dict)] if isinstance(configs, list) else []


def _sweep(per_config: list[list[str]], shared: list[str]) -> list[str]:
    """'a sweep of N configurations' when the configurations' settings differ (a grid
    over max turns or biases), so a listing never reads as the defaults; `runs show`
    names each one."""
    differ = any(set(s) != set(shared) for s in per_config)
    return [f"a sweep of {len(per_config)} configurations"] if differ else []


def summarize(run: RunRecord) -> RunSummary:
    """The listing's view of a run (its counts as the store listed them)."""
    configs = _configurations(run)
    cases = run.config.get("cases")
    n_cases = len(cases) if isinstance(cases, list) else 0
    per_config = [settings_of(c) for c in configs]
    shared = [s for s in per_config[0] if all(s in other for other in per_config)] \
        if per_config else []
    one_step = bool(run.config.get("one_step"))
    hospital = run.config.get("hospital")
    if isinstance(hospital, dict):
        # The whole hospital (`bedside hospital`): a case per visit, played once each.
        n_cases = (run.counts or RunCounts()).consultations
        shared = [f"hospital {hospital.get('residents')} residents, {hospital.get('days')} "
                  f"days, seed {hospital.get('seed')}, triage {hospital.get('triage')}",
                  *[s for s in shared if not s.startswith("department ")]]
    return RunSummary(
        id=run.id, name=run.name if run.name != run.id else None, created_at=run.created_at,
        status=run.status, origin=run.provenance.get("origin"), cases=n_cases,
        planned=planned_size(run),
        doctors=list(dict.fromkeys(str(agent_label(c.get("doctor"))) for c in configs)),
        settings=shared + _sweep(per_config, shared)
        + (["one-step upper bound too"] if one_step else []),
        counts=run.counts or RunCounts())


def list_runs(store: RunsStore) -> list[RunSummary]:
    """Every run, newest first, described."""
    return [summarize(r) for r in store.list_runs()]


def _count(key: str, doctor: str, settings: list[str],
           rows: list[ConsultationSummary]) -> ConfigurationCounts:
    finished = [r for r in rows if r.status == "finished"]
    no_dx = sum(1 for r in finished if not (r.diagnosis or "").strip())
    return ConfigurationCounts(
        config_key=key, doctor=doctor, settings=settings, consultations=len(rows),
        finished=len(finished), failed=sum(r.status == "failed" for r in rows),
        cancelled=sum(r.status == "cancelled" for r in rows),
        correct=sum(r.correct is True for r in finished),
        wrong=sum(r.correct is False for r in finished) + no_dx, no_diagnosis=no_dx)


def show_run(store: RunsStore, run_ref: str) -> RunSummary:
    """One run (id or name) with each configuration's counts; NotFoundError otherwise."""
    run = store.get_run(run_ref)
    listed = next((r for r in store.list_runs() if r.id == run.id), run)
    summary = summarize(listed)
    rows = store.list_consultations(run_id=run.id)
    by_key: dict[str, list[ConsultationSummary]] = {}
    for row in rows:
        by_key.setdefault(row.config_key or "?", []).append(row)
    keys = [str(c.get("config_key")) for c in _configurations(run)]
    described = {str(c.get("config_key")): c for c in _configurations(run)}
    # One-step keys and a collaboration's doctors' own ('<key>~A') come after, described
    # by how their consultations were stored.
    for key in [*keys, *sorted(set(by_key) - set(keys))]:
        config = described.get(key) or (by_key[key][0].config if by_key.get(key) else {})
        doctor = agent_label(config.get("doctor")) if config.get("doctor") else \
            (by_key[key][0].doctor or "?")
        summary.configurations.append(
            _count(key, str(doctor), settings_of(config) if config else [],
                   by_key.get(key, [])))
    return summary
