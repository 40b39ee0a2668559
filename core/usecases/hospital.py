"""`bedside hospital`, headless: the whole hospital recorded in the project database.

`run_hospital` records a run (its settings and each department's configuration, origin
'cli' or 'app'), then simulates (`core.hospital.simulation`): every hospital event is
stored the moment it is emitted (and handed to an extra sink, e.g. the app's live
screen), and every consultation is an ordinary consultation of that run, played through
the engine with the department's configuration (task `agenthospital`, or MedAgent-Zero
learning over the hospital's patients), recorded turn by turn, with its task verdicts
stored at once — so `bedside results` shows it per task and `--by department`, a reader
study can select the run's transcripts, and a transcript opens like any other.

Each visit is a generated case (`hosp<seed>-r0012-v2-<hash>`, source 'agenthospital',
tagged 'hospital'), stored before its consultation. The run ends with a status however the
simulation ends: finished, cancelled (the cancel event), interrupted (Ctrl+C, SIGTERM, the
app quitting) or failed. A hospital run cannot be resumed: run it again with the same seed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from core.agenthospital.generator import case_of
from core.agenthospital.kb import KnowledgeBase, bundled_kb
from core.agenthospital.tasks import TASKS, Answers
from core.config import ConsultationConfig
from core.errors import InputError
from core.hospital.departments import BY_ID, IDS, check_routes
from core.hospital.simulation import Consulted, Hospital, HospitalSink, Plan, Stopped, Visit
from core.hospital.state import HospitalState, replay
from core.hospital.triage import ModelNurse, Nurse, RulesNurse
from core.llm import LLMClient
from core.ports.hospital import HospitalStore
from core.records.hospital import HospitalEvent
from core.records.runs import RunRecord
from core.usecases.hospital_settings import (HospitalSettings, configs, doctor_label,
                                             nurse_spec)

HumanInput = Callable[..., Awaitable[Any]]
TAG = "hospital"  # every visit's case is tagged so


@dataclass
class HospitalRun:
    """A finished (or stopped) simulation: its run, closing status and state."""

    run_id: str
    status: str
    state: HospitalState


class _Recorder:
    """Hospital events to the store (committed one by one), the reducer and an extra
    sink; the extra sink never stops the simulation."""

    def __init__(self, store: HospitalStore, run_id: str, extra: HospitalSink | None) -> None:
        self.store, self.run_id, self.extra = store, run_id, extra
        self.state = HospitalState()

    def emit(self, event: HospitalEvent) -> None:
        """Store, reduce, pass on."""
        self.store.add_hospital_event(self.run_id, event)
        self.state.apply(event)
        if self.extra is not None:
            self.extra.emit(event)


class EngineConsultant:
    """Each consultation through the engine, recorded as a consultation of the run."""

    def __init__(self, store: HospitalStore, kb: KnowledgeBase, run_id: str,
                 configs: dict[str, ConsultationConfig], llm: LLMClient, *,
                 human_input: HumanInput | None = None,
                 cancel_event: asyncio.Event | None = None) -> None:
        from core.engine import job_solver
        from core.solvers.solution import RunState

        self.store, self.kb, self.run_id, self.configs, self.llm = store, kb, run_id, configs, llm
        self.human_input, self.cancel_event = human_input, cancel_event
        self.solvers = {dept: job_solver(c) for dept, c in configs.items()}
        self.run_state = RunState()  # the learners' memories, one per department's config
        self.recorder = store.recorder()

    def doctor(self, department: str) -> str:
        """The department's doctor."""
        return doctor_label(self.configs[department])

    async def consult(self, visit: Visit, consultation_id: str) -> Consulted:
        """Store the visit's case, play it, store its task verdicts; the answers."""
        from core.caseio import case_hash
        from core.engine import run_solver
        from core.scorers.base import Finished
        from core.scorers.tasks import AgentHospitalTasks
        from core.transcript import EndReason

        case = case_of(self.kb, visit.person, visit.case_id, tags=[TAG, f"{TAG}:{self.run_id}"],
                       notes=f"The whole hospital: run {self.run_id}, {visit.patient} visit "
                       f"{visit.visit}, day {visit.day}, {BY_ID[visit.department].name}.")
        if not self.store.has_case(case.id):
            self.store.save_cases([case])
        config = self.configs[visit.department]
        human = self.human_input if config.doctor.kind == "human" else None
        transcript = await run_solver(
            self.solvers[visit.department], case, config, self.recorder,
            consultation_id=consultation_id, run_id=self.run_id,
            cancel_event=self.cancel_event, human_input=human, llm=self.llm,
            run_state=self.run_state)
        if self.cancel_event is not None and self.cancel_event.is_set():
            raise Stopped
        values = AgentHospitalTasks().compute(case, Finished(transcript, config.solver,
                                                             consultation_id))
        self.store.save_metrics(consultation_id, values, case_hash=case_hash(case))
        given = {t: values[f"task_{t}"][1].get("answer") for t in TASKS
                 if values[f"task_{t}"][0] is not None}
        failed = None
        if transcript.end_reason in (EndReason.ERROR, EndReason.CANCELLED):
            failed = str(transcript.meta.get("error") or transcript.end_reason)
        return Consulted(answers=Answers(**given), failed=failed)


def make_nurse(s: HospitalSettings, llm: LLMClient) -> Nurse:
    """The settings' triage nurse."""
    spec = nurse_spec(s)
    return RulesNurse() if spec is None else ModelNurse(spec, llm)


def _opened(s: HospitalSettings, kb: KnowledgeBase, nurse: Nurse,
            cfgs: dict[str, ConsultationConfig]) -> dict[str, Any]:
    """The opening event's detail: the settings and each department as the screen shows
    it."""
    caps = s.capacities()
    return {"residents": s.residents, "days": s.days, "seed": s.seed, "onset": s.onset,
            "followup_days": s.followup_days, "triage": nurse.label,
            "knowledge_base": kb.digest[:16],
            "departments": [{"id": d, "name": BY_ID[d].name, "capacity": caps[d],
                             "doctor": doctor_label(cfgs[d])} for d in IDS]}


def create_run(store: HospitalStore, s: HospitalSettings, kb: KnowledgeBase,
               cfgs: dict[str, ConsultationConfig], origin: str) -> str:
    """Record the run: the hospital's settings and each department's configuration."""
    from core.provenance import run_provenance

    provenance = {**run_provenance(list(cfgs.values())), "origin": origin}
    config = {"hospital": s.described(kb.digest),
              "configurations": [c.describe() for c in cfgs.values()]}
    return store.create_run(name=s.name, provenance=provenance, config=config)


async def run_hospital(store: HospitalStore, s: HospitalSettings, *, origin: str = "cli",
                       sink: HospitalSink | None = None, llm: LLMClient | None = None,
                       human_input: HumanInput | None = None,
                       cancel_event: asyncio.Event | None = None,
                       on_run: Callable[[str], None] | None = None,
                       pace: float = 0.0) -> HospitalRun:
    """Simulate and record one hospital (see the module docstring); `on_run` hears the run
    id as soon as it exists; `pace` seconds are waited before each consultation (to watch
    it live)."""
    kb = bundled_kb()
    check_routes(kb)
    cfgs = configs(s)
    if human_input is None and any(c.doctor.kind == "human" for c in cfgs.values()):
        raise InputError("a physician takes a department in the app: run `bedside` and "
                         "press o", field="--doctor")
    client = llm or LLMClient()
    nurse = make_nurse(s, client)
    run_id = create_run(store, s, kb, cfgs, origin)
    if on_run is not None:
        on_run(run_id)
    recorder = _Recorder(store, run_id, sink)
    plan = Plan(residents=s.residents, days=s.days, seed=s.seed, onset=s.onset,
                followup_days=s.followup_days, capacities=s.capacities())
    consultant = EngineConsultant(store, kb, run_id, cfgs, client, human_input=human_input,
                                  cancel_event=cancel_event)
    status = "failed"
    try:
        status = await Hospital(kb, plan, nurse, consultant, recorder,
                                _opened(s, kb, nurse, cfgs), pace=pace).run()
    except asyncio.CancelledError:
        status = "interrupted"
        raise
    finally:
        store.set_run_status(run_id, status)
    return HospitalRun(run_id, status, recorder.state)


def is_hospital(run: RunRecord) -> bool:
    """Whether a run is a hospital simulation."""
    return isinstance(run.config.get("hospital"), dict)


def hospital_runs(store: HospitalStore) -> list[RunRecord]:
    """Every hospital run, newest first."""
    return [r for r in store.list_runs() if is_hospital(r)]


def stored(store: HospitalStore, run_ref: str | None = None) -> tuple[RunRecord, HospitalState]:
    """A hospital run (id or name; the newest when None) and the state its stored events
    give; InputError when there is none."""
    if run_ref is None:
        found = hospital_runs(store)
        if not found:
            raise InputError("no hospital run yet: run `bedside hospital` first", field="RUN")
        run = found[0]
    else:
        run = store.get_run(run_ref)
        if not is_hospital(run):
            raise InputError(f"run '{run_ref}' is not a hospital run", field="RUN")
    return run, replay(store.hospital_events(run.id))
