"""The replay doctor: says a replay file's messages for its case, in order, then
`DIAGNOSIS READY:` with the line's diagnosis, or ends with none.

It holds the doctor fixed, so that patient and examiner agents answer identical questions
(`bedside fidelity` compares them), and replays a physician's recorded questions against a
model patient. It hears nothing: what the others answer does not change what it says.

The file is read again when a consultation starts and must still have the content hash its
spec recorded; a file changed since the run began stops the consultation with a message
saying so (the run's other questions would not be the ones it was created with).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from core.agents.base import ENDS, DeltaFn, DoctorState, Reply
from core.config import AgentSpec, ConsultationConfig
from core.errors import BedsideError, InputError
from core.replay import ReplayLine, ReplayScript, file_digest, parse_replay, read_bytes
from core.transcript import FinalReport


@lru_cache(maxsize=8)
def _parsed(data: bytes, path: str) -> ReplayScript:
    return parse_replay(data, path)


def script_of(spec: AgentSpec) -> ReplayScript:
    """The replay file of a replay doctor's spec, as it was when the spec was made."""
    if not spec.script or not spec.script_hash:
        raise BedsideError("a replay doctor needs its file: replay:FILE")
    data = read_bytes(Path(spec.script))
    if file_digest(data) != spec.script_hash:
        raise BedsideError(f"the replay file {spec.script} changed since this run began "
                           "(its content hash differs); start a new run to replay it")
    return _parsed(data, spec.script)


class ReplayDoctor:
    """Says one replay line's messages, then its diagnosis."""

    def __init__(self, line: ReplayLine | None, label: str) -> None:
        self.say = list(line.say) if line else []
        self.diagnosis = (line.diagnosis or "").strip() if line else ""
        self.label = label

    async def act(self, state: DoctorState, on_delta: DeltaFn) -> Reply:
        """The next message; after the last one, the diagnosis (or an end without one)."""
        step = state.doctor_turn - 1
        if step < len(self.say):
            return Reply(text=self.say[step], model=self.label)
        if self.diagnosis:
            return Reply(text=f"DIAGNOSIS READY: {self.diagnosis}", model=self.label)
        return Reply(text="DIAGNOSIS READY:", model=self.label, meta={ENDS: True})

    async def report(self, state: DoctorState, on_delta: DeltaFn) -> Reply:
        """A report holding only the diagnosis (the file gives nothing else)."""
        report = FinalReport(diagnostic_results=self.diagnosis or None)
        return Reply(text=report.model_dump_json(), model=self.label, report=report)


def build(spec: AgentSpec, case_id: str) -> ReplayDoctor:
    """The replay doctor of one case (the line that applies to it; none: it only ends)."""
    return ReplayDoctor(script_of(spec).for_case(case_id), spec.display())


def fit(config: ConsultationConfig, case_ids: list[str]) -> ConsultationConfig:
    """A configuration whose replay doctor can say every message on these cases: each case
    must have a line, and the turn budget becomes the longest line's messages plus the
    diagnosis (`--max-turns` does not apply to a replay). Other doctors: unchanged."""
    spec = config.doctor
    if spec.kind != "replay":
        return config
    script = script_of(spec)
    missing = script.uncovered(case_ids)
    if missing:
        shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5
                                           else "")
        raise InputError(f"the replay file {script.path} has no line for {len(missing)} "
                         f"case(s): {shown}; add a '*' line or choose cases with --cases",
                         field="--doctor")
    return config.model_copy(update={"max_turns": script.longest(case_ids) + 1})
