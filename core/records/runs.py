"""Records of runs, consultations, cases and metrics, as the store returns them.

`RunRecord` is a row of `runs` (JSON columns parsed, optionally with its consultation
counts), `ConsultationSummary` a row of `consultations` (JSON columns parsed, no turns),
`CaseLabel` what a listing needs of a case without parsing its record. `LiveRow` and
`RunProgress` are what the live screen polls; `CaseImportReport` says what importing cases
did; `BaselineRow` is one doctor's line of the app's Baseline tab; `StudyListRow` one
study of the Studies tab; `MetricState` says whether a consultation's metrics are complete
and current. Metric values cross as `core.metrics.base.Metrics` pairs.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from pydantic import BaseModel, Field

from core.transcript import FinalReport, Verdict


class RunCounts(BaseModel):
    """How many consultations of a run are in each status (superseded rows, the attempts a
    resume redid, are not counted)."""

    consultations: int = Field(0, description="Every consultation of the run.")
    finished: int = Field(0, description="Consultations that ran to their end.")
    failed: int = Field(0, description="Consultations that stopped on an error.")
    cancelled: int = Field(0, description="Consultations cancelled by the user.")
    running: int = Field(0, description="Consultations still running (or left running by a "
                         "process that was killed).")
    other: int = Field(0, description="Consultations in any other status (e.g. abandoned).")


class RunRecord(BaseModel):
    """One batch run: cases × agent configurations."""

    id: str = Field(description="The run id (`run-…`).")
    name: str | None = Field(None, description="The name given with --name, else the id.")
    created_at: str | None = Field(None, description="ISO UTC time the run was created.")
    finished_at: str | None = Field(None, description="ISO UTC time the run last stopped; "
                                    "None while it runs.")
    status: str | None = Field(None, description="running, finished, cancelled, interrupted "
                               "or failed.")
    config: dict[str, Any] = Field(default_factory=dict, description="The stored plan: cases, "
                                   "case hashes, configurations, concurrency, model limits, "
                                   "one-step ({} when missing or unreadable).")
    provenance: dict[str, Any] = Field(default_factory=dict, description="Versions, host and "
                                       "origin ('cli' or 'app') of the run.")
    counts: RunCounts | None = Field(None, description="Its consultations by status, when "
                                     "the listing asked for them.")


class MetricState(NamedTuple):
    """Whether a finished consultation's metrics (of some names) are complete and current,
    read in bulk (a tuple, not a model: tens of thousands at once)."""

    consultation_id: str
    case_id: str
    solver: str | None  # the stored configuration's solver (None: the consultation)
    computed_on: str | None  # the case hash every metric was computed on; None: incomplete


class RunProgress(BaseModel):
    """A cheap fingerprint of a run's progress, polled to see whether anything changed."""

    consultations: int = Field(description="Consultations (not superseded).")
    turns: int = Field(description="Stored turns of those consultations.")
    finished: int = Field(description="Those no longer running.")


class ConsultationSummary(BaseModel):
    """One consultation as stored (its turns apart): who played, how it ended, totals."""

    id: str = Field(description="The consultation id.")
    run_id: str | None = Field(None, description="The run it belongs to (None: a played "
                               "session or an imported transcript).")
    case_id: str = Field(description="The case played.")
    config_key: str | None = Field(None, description="The job key a resume matches on "
                                   "(configuration hash, `one_step:…`, or the import origin).")
    doctor: str | None = Field(None, description="Doctor label: model string, 'scripted' or "
                               "`human:NAME`.")
    patient: str | None = Field(None, description="Patient agent label.")
    examiner: str | None = Field(None, description="Examiner agent label.")
    config: dict[str, Any] = Field(default_factory=dict, description="The described "
                                   "configuration (agents, parameters, case hash).")
    status: str = Field(description="running, finished, failed, cancelled, abandoned or "
                        "superseded.")
    end_reason: str | None = Field(None, description="diagnosis, budget, error, cancelled or "
                                   "imported; None while running.")
    diagnosis: str | None = Field(None, description="The doctor's final diagnosis, verbatim.")
    correct: bool | None = Field(None, description="The moderators' verdict (None: none "
                                 "decided).")
    verdicts: list[Verdict] = Field(default_factory=list, description="Every moderator's "
                                    "verdict.")
    report: FinalReport | None = Field(None, description="The structured final report, if "
                                       "asked for.")
    doctor_turns: int = Field(0, description="Doctor turns used.")
    tests_ordered: int = Field(0, description="Tests requested.")
    prompt_tokens: int = Field(0, description="Tokens sent to models.")
    completion_tokens: int = Field(0, description="Tokens received from models.")
    cost_usd: float = Field(0.0, description="Model cost as litellm prices it.")
    started_at: str | None = Field(None, description="ISO UTC start time.")
    ended_at: str | None = Field(None, description="ISO UTC end time.")
    error: str | None = Field(None, description="Why it failed or was cancelled.")
    origin: str | None = Field(None, description="'engine', 'one_step', or `import:FORMAT` "
                               "for imported transcripts.")
    meta: dict[str, Any] = Field(default_factory=dict, description="Provenance of imported "
                                 "transcripts and other extras.")


class CaseLabel(BaseModel):
    """What listings and results need of a stored case (its record is not parsed)."""

    id: str = Field(description="The case id.")
    title: str | None = Field(None, description="The case title.")
    source: str | None = Field(None, description="Where the case comes from (bedside, "
                               "agentclinic, …).")
    specialty: str | None = Field(None, description="Clinical specialty.")
    language: str | None = Field(None, description="BCP-47 language tag.")
    placeholder: bool = Field(False, description="A stand-in for an imported transcript "
                              "whose record was not imported (no ground truth).")


class LiveRow(BaseModel):
    """One consultation as the live screen lists it."""

    id: str = Field(description="The consultation id.")
    case_id: str = Field(description="The case played.")
    doctor: str | None = Field(None, description="Doctor label.")
    status: str = Field(description="queued, running, finished, failed, cancelled, …")
    doctor_turns: int = Field(0, description="Doctor turns so far.")
    tokens: int = Field(0, description="Prompt plus completion tokens so far.")
    cost_usd: float = Field(0.0, description="Model cost so far.")
    diagnosis: str | None = Field(None, description="The doctor's diagnosis, once given.")
    correct: bool | None = Field(None, description="The verdict, once judged.")
    origin: str | None = Field(None, description="'engine', 'collaborate' (a "
                               "collaboration), 'collaborator' (one of its doctors' own), …")
    config_key: str | None = Field(None, description="Its configuration's key (a doctor's own "
                                   "consultation in a collaboration ends in '~A', '~B', …).")


class CaseImportReport(BaseModel):
    """What importing cases did with each case id."""

    new: list[str] = Field(default_factory=list, description="Ids not stored before.")
    updated: list[str] = Field(default_factory=list, description="Stored ids whose content "
                               "changed (a placeholder replaced by the real case counts here).")
    unchanged: list[str] = Field(default_factory=list, description="Stored, same content.")
    updated_with_runs: int = Field(0, description="Updated cases that already have "
                                   "consultations that were run (not imported) on the old "
                                   "version.")


class BaselineRow(BaseModel):
    """One doctor's line of the Baseline tab, counted by the results table's rules."""

    doctor: str = Field(description="Doctor label (`human:NAME` for physicians).")
    n: int = Field(description="Scored consultations (as the results table's N).")
    correct: int = Field(description="Of those, how many were right.")
    accuracy: float | None = Field(description="correct / n; None when n is 0.")
    ci_low: float | None = Field(description="Wilson 95 % lower bound; None when n is 0.")
    ci_high: float | None = Field(description="Wilson 95 % upper bound; None when n is 0.")
    mean_turns: float | None = Field(description="Mean doctor turns.")
    mean_tests: float | None = Field(description="Mean tests ordered.")
    mean_minutes: float | None = Field(description="Mean wall-clock minutes per "
                                       "consultation (None when no times are stored).")


class StudyListRow(BaseModel):
    """One reader study as the home screen's Studies tab lists it."""

    id: str = Field(description="The study id.")
    name: str = Field(description="The study's unique name.")
    created_at: str | None = Field(None, description="ISO UTC creation time.")
    assignments: int = Field(0, description="Assignments (rater × transcript) in the study.")
    done: int = Field(0, description="Assignments rated to the end (skipped ones not "
                      "counted).")
