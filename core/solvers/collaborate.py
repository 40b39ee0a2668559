"""Collaborating doctors with dispute resolution (AI Hospital's "2 Doctors", "3 Doctors"
and "2 Doctors w/o DR") as a solver.

1. Each doctor first plays its own whole consultation of the case (its own patient and
   examiner from the configuration, AI Hospital's protocol or AgentClinic's, ending with
   its final report): a consultation of its own in the same run, linked to this one
   (`SolverContext.play_linked`), recorded, judged and scored like any other, with origin
   'collaborator' and the key `<this config key>~<letter>`. Its report opens this
   consultation as a turn of kind 'initial'.
2. Round by round the host reads every doctor's current report (a 'host' turn of kind
   'assessment'). With dispute resolution it sums up and lists at most three disputed
   points; without, it only says whether they agree (AI Hospital's "Parallel" mode). No
   dispute: the conference ends (consensus in round r, 0 when they agreed at once).
3. Otherwise each doctor, in order, revises its report (a doctor turn of kind 'revision'
   tagged with its letter): given the others' reports as they stand — a doctor later in
   the order sees the revisions made before it in the same round, as in AI Hospital's
   code — and, with dispute resolution, the host's text of that round. At most M rounds
   (`rounds`, AI Hospital's `max_discussion_turn`, 4 by default); the host reads the
   reports after each round.
4. The host writes the joint report (kind 'final'): its first diagnostic result is this
   consultation's diagnosis, judged by the configuration's moderators. AI Hospital's host
   writes it in both modes, and so here.

The doctors are 'Doctor A', 'Doctor B', … to the host, to each other and in every turn's
`meta["collaborator"]`; their models are in the linked consultations only. This
consultation's meta says how it went: `{"mode": "collaboration", "collaboration":
{doctors: [{label, doctor, consultation_id}], rounds, consensus, consensus_round,
max_rounds, dispute_resolution, host}}` — the rounds-to-consensus figure reads it.
Host and revision turns are no doctor turns (no budget is spent).
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from core import prompts
from core.agents.collaborator import Collaborator, RevisionRequest, build_collaborator
from core.agents.host import Host, TeamReport, build_host, first_diagnosis
from core.collaboration import COLLABORATE, DEFAULT_ROUNDS, LABELS, MEMBER
from core.config import AgentSpec, ConsultationConfig
from core.errors import BedsideError
from core.solvers.base import BaseSolver
from core.solvers.context import Cancelled, SolverContext
from core.solvers.interactive import InteractiveSolver
from core.solvers.solution import Solution
from core.transcript import EndReason, Role, Transcript, Turn, utc_now



class CollaborateOptions(BaseModel):
    """The collaboration's options, stored with the configuration."""

    model_config = ConfigDict(extra="forbid")

    doctors: list[AgentSpec] = Field(min_length=2, max_length=len(LABELS),
                                     description="The doctors, in order (A, B, …).")
    rounds: int = Field(DEFAULT_ROUNDS, ge=1, le=10, description="At most this many "
                        "revision rounds (M).")
    dispute_resolution: bool = Field(True, description="The host lists the disputed "
                                     "points each round (else it only says whether the "
                                     "doctors agree).")
    host: AgentSpec = Field(default_factory=lambda: AgentSpec(kind="scripted"),
                            description="Who hosts: 'scripted' (rules) or a model.")


def member_key(config: ConsultationConfig, label: str) -> str:
    """The config key of doctor `label`'s own consultation."""
    return f"{config.config_key()}~{label}"


def member_config(config: ConsultationConfig, doctor: AgentSpec) -> ConsultationConfig:
    """A doctor's own consultation: the configuration with this doctor, played
    interactively and ending with its final report."""
    return config.model_copy(update={"doctor": doctor, "solver": "interactive",
                                     "solver_options": {}, "final_report": True})


class _Member(InteractiveSolver):
    """A doctor's own consultation, stored under its member key."""

    origin = MEMBER

    def __init__(self, key: str) -> None:
        super().__init__()
        self._key = key

    def key(self, config: ConsultationConfig) -> str:
        """The member key."""
        return self._key

    def describe(self, config: ConsultationConfig, described: dict[str, Any]) -> dict[str, Any]:
        """Its own key."""
        described["config_key"] = self._key
        return described


class CollaborateSolver(BaseSolver):
    """Several doctors, a host, rounds of revision (see the module docstring)."""

    name = COLLABORATE
    origin = COLLABORATE
    options_model = CollaborateOptions

    @property
    def opts(self) -> CollaborateOptions:
        """The validated options."""
        assert isinstance(self.options, CollaborateOptions)
        return self.options

    def describe(self, config: ConsultationConfig, described: dict[str, Any]) -> dict[str, Any]:
        """The mode, and the prompts or tables of the host and the doctors' revisions."""
        roles: dict[str, Any] = {"host": self.opts.host.kind,
                                 "collaborator": sorted({d.kind for d in self.opts.doctors})}
        described["mode"] = COLLABORATE
        described.setdefault("prompts", {}).update(prompts.hashes_for(roles))
        return described

    async def solve(self, ctx: SolverContext) -> Solution:
        """Own consultations, rounds, joint report."""
        opts = self.opts
        members = await self._own_consultations(ctx)
        reports = [self._initial(ctx, label, t) for label, _, t in members]
        collaborators = [build_collaborator(spec, ctx.doctor_view, t.turns,
                                            seed=ctx.config.seed, client=ctx.llm)
                         for _, spec, t in members]
        host = build_host(opts.host, ctx.llm, ctx.case.language)
        consensus_round = await self._rounds(ctx, host, collaborators, reports)
        final = await ctx.speak(Role.HOST, "final", lambda d: host.conclude(reports, d))
        summary = {
            "doctors": [{"label": label, "doctor": spec.display(),
                         "consultation_id": str(t.meta.get("consultation_id"))}
                        for label, spec, t in members],
            "rounds": opts.rounds if consensus_round is None else consensus_round,
            "consensus": consensus_round is not None, "consensus_round": consensus_round,
            "max_rounds": opts.rounds, "dispute_resolution": opts.dispute_resolution,
            "host": opts.host.display()}
        return Solution(diagnosis=first_diagnosis(final.report), report=final.report,
                        end_reason=EndReason.DIAGNOSIS,
                        meta={"mode": COLLABORATE, "collaboration": summary})

    async def _own_consultations(self, ctx: SolverContext
                                 ) -> list[tuple[str, AgentSpec, Transcript]]:
        """Every doctor's own consultation, played side by side; a failed one fails this."""
        labelled = list(zip(LABELS, self.opts.doctors, strict=False))
        got = await asyncio.gather(*(
            ctx.play_linked(_Member(member_key(ctx.config, label)),
                            member_config(ctx.config, spec), f"{ctx.cid}-{label.lower()}")
            for label, spec in labelled))
        for (label, _), t in zip(labelled, got, strict=True):
            if t.end_reason == EndReason.CANCELLED:
                raise Cancelled
            if t.end_reason == EndReason.ERROR:
                raise BedsideError(f"Doctor {label}'s own consultation failed: "
                                   f"{t.meta.get('error') or 'no reason given'}")
        return [(label, spec, t) for (label, spec), t in zip(labelled, got, strict=True)]

    def _initial(self, ctx: SolverContext, label: str, t: Transcript) -> TeamReport:
        """A doctor's own report, recorded as its 'initial' turn here."""
        report = TeamReport(label, t.diagnosis, t.report)
        now = utc_now()
        ctx.add_turn(Turn(index=len(ctx.turns), role=Role.DOCTOR, addressee=Role.HOST,
                          content=report.full(), kind="initial", started_at=now,
                          ended_at=now, model=t.doctor,
                          meta={"collaborator": label, "round": 0,
                                "consultation_id": t.meta.get("consultation_id")}))
        return report

    async def _rounds(self, ctx: SolverContext, host: Host, collaborators: list[Collaborator],
                      reports: list[TeamReport]) -> int | None:
        """The host's readings and the revision rounds; the round of consensus, or None
        when M rounds passed without one. `reports` is revised in place."""
        opts = self.opts
        for round_ in range(opts.rounds + 1):
            ctx.check_cancelled()
            current = list(reports)
            reading = await ctx.speak(
                Role.HOST, "assessment",
                partial(host.assess, current, opts.dispute_resolution),
                meta={"round": round_})
            if reading.meta.get("consensus"):
                return round_
            if round_ == opts.rounds:
                return None
            critique = reading.text if opts.dispute_resolution else None
            host_turn = len(ctx.turns) - 1  # the reading each revision answers
            for i, collaborator in enumerate(collaborators):
                request = RevisionRequest(reports[i], [r for j, r in enumerate(reports)
                                                       if j != i], critique, round_ + 1)
                reply = await ctx.speak(
                    Role.DOCTOR, "revision",
                    partial(collaborator.revise, request),
                    addressee=Role.HOST,
                    meta={"collaborator": reports[i].label, "round": round_ + 1,
                          "host_turn": host_turn})
                report = reply.report
                reports[i] = TeamReport(reports[i].label, first_diagnosis(report), report)
        return None
