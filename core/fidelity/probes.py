"""Probe files: questions and test requests with the answer property they must have.

A probe file is JSON Lines, one probe a line:

    {"id": "card-001-p01", "case": "card-001", "role": "patient",
     "say": "Have you had any chest pain like this before?", "expect": "deny",
     "absent": ["weight pressing"], "why": "No earlier episode in the record."}

`expect` is what the answer must do. For the patient: `affirm`, `deny`, `consent` (to an
examination), `complaint` (tells the chief complaint), `unknown` (does not know: the
diagnosis, a result), `history` (tells the history item(s) named in `items`, by name or
kind), `contains` (only the `contains`/`absent` strings). For the examiner: `value` (the
stored values of the `items`, paths written "Panel > Analyte"), `normal`, `refuse`,
`unknown_test` (with `"strict": true`, the examiner that tells a human player a name is not
a test it knows). Every answer must also contain each `contains` string, none of the
`absent` ones, and leak nothing. `context` lists questions asked before the probe.

`grade` judges one answer against its probe; `run_probe` asks a real agent. `to_replay`
writes probes as the replay doctor's lines (`{"case": ..., "say": [...]}`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, ValidationError

from core.agents.base import Examiner, Patient, no_delta
from core.caseindex.matching import normalise
from core.case import Case, Item
from core.errors import InputError
from core.fidelity.record import Record
from core.fidelity.stance import consents, is_refusal, says_normal, says_unknown_test, stance
from core.protocol import parse_doctor_message
from core.transcript import Role, Turn

Expect = Literal["affirm", "deny", "consent", "complaint", "unknown", "history", "contains",
                 "value", "normal", "refuse", "unknown_test"]
PATIENT_EXPECT = ("affirm", "deny", "consent", "complaint", "unknown", "history", "contains")


class Probe(BaseModel):
    """One question or test request and the property its answer must have."""

    id: str = Field(description="Unique id of the probe.")
    case: str = Field(description="The case id it is asked on.")
    role: Literal["patient", "examiner"] = Field(description="Who answers it.")
    say: str = Field(description="The doctor's message, verbatim.")
    expect: Expect = Field(description="What the answer must do (see the module docstring).")
    why: str = Field(min_length=1, description="Why that is the right answer, from the record.")
    items: list[str] = Field(default_factory=list,
                             description="Record entries the answer is about: stored item "
                             "paths (examiner), symptom or history names or kinds (patient).")
    contains: list[str] = Field(default_factory=list, description="Text the answer must hold.")
    absent: list[str] = Field(default_factory=list, description="Text it must not hold.")
    context: list[str] = Field(default_factory=list,
                               description="Questions asked before it, in order (patient).")
    strict: bool = Field(False, description="Examiner that says plainly when a name is not "
                         "a test it knows (the human player's examiner).")


def load_probes(path: Path) -> list[Probe]:
    """Read a probe file; a bad line raises InputError naming file, line and field."""
    out: list[Probe] = []
    seen: set[str] = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            probe = Probe.model_validate(json.loads(line))
        except json.JSONDecodeError as err:
            raise InputError(f"not JSON ({err.msg})", path=str(path), line=number) from None
        except ValidationError as err:
            first = err.errors()[0]
            field = ".".join(str(x) for x in first["loc"]) or None
            raise InputError(first["msg"], path=str(path), line=number, field=field) from None
        if probe.id in seen:
            raise InputError(f"duplicate id '{probe.id}'", path=str(path), line=number,
                             field="id")
        if (probe.role == "patient") != (probe.expect in PATIENT_EXPECT):
            raise InputError(f"'{probe.expect}' is not a {probe.role} expectation",
                             path=str(path), line=number, field="expect")
        seen.add(probe.id)
        out.append(probe)
    return out


def find_item(case: Case, path: str) -> Item | None:
    """A stored finding by its name path ("Panel > Analyte"; case-insensitive)."""
    want = tuple(normalise(p) for p in path.split(">"))
    for _, names, item in case.findings():
        if tuple(normalise(n) for n in names[-len(want):]) == want:
            return item
    return None


def missing_items(probe: Probe, case: Case) -> list[str]:
    """Item names of an examiner probe that the case does not hold (a typo in the file)."""
    if probe.role != "examiner":
        return []
    return [i for i in probe.items if find_item(case, i) is None]


async def run_probe(probe: Probe, patient: Patient, examiner: Examiner) -> list[Turn]:
    """Ask a real agent the probe (after its context); the doctor and answer turns."""
    turns: list[Turn] = []
    if probe.role == "patient":
        for question in [*probe.context, probe.say]:
            asked = Turn(index=len(turns), role=Role.DOCTOR, addressee=Role.PATIENT,
                         content=question, kind="question")
            reply = await patient.answer(question, list(turns), no_delta)
            turns += [asked, Turn(index=len(turns) + 1, role=Role.PATIENT, kind="answer",
                                  content=reply.text, model=reply.model, meta=reply.meta)]
        return turns
    action = parse_doctor_message(probe.say)
    tests = action.tests if action.kind == "test_request" else []
    reply = await examiner.examine(tests, probe.say, no_delta)
    kind = "refusal" if reply.meta.get("refused") else "result"
    return [Turn(index=0, role=Role.DOCTOR, addressee=Role.EXAMINER, content=probe.say,
                 kind="test_request", tests=tests),
            Turn(index=1, role=Role.EXAMINER, kind=kind, content=reply.text, tests=tests,
                 model=reply.model, meta=reply.meta)]


def grade(probe: Probe, answer: str, case: Case, record: Record) -> tuple[bool, str]:
    """Whether an answer has the property its probe expects, and why not."""
    text = normalise(answer)
    for s in probe.contains:
        if normalise(s) not in text:
            return False, f"does not say '{s}'"
    for s in probe.absent:
        if normalise(s) in text:
            return False, f"says '{s}'"
    if probe.role == "examiner":
        return _grade_examiner(probe, answer, case, record)
    leak = record.leaked_diagnosis(answer) or record.leaked_result(answer)
    if leak:
        return False, f"leaks '{leak}'"
    return _grade_patient(probe, answer, record)


def _grade_patient(probe: Probe, answer: str, record: Record) -> tuple[bool, str]:
    st = stance(answer)
    named = {normalise(i) for i in probe.items}
    sources = record.sources(answer)
    from_items = any(normalise(f.name) in named or normalise(f.history_kind or "") in named
                     for f in sources)
    if probe.expect == "affirm":
        return st not in ("deny", "unknown", "consent"), f"stance {st}"
    if probe.expect == "deny":
        ok = st == "deny" or from_items
        return ok, f"stance {st}, not from {sorted(named)}"
    if probe.expect == "consent":
        return consents(answer), "does not consent"
    if probe.expect == "unknown":
        return st in ("unknown", "deny"), f"stance {st}"
    if probe.expect == "complaint":
        ok = any(f.kind in ("complaint", "story") for f in sources) or any(
            f.kind == "symptom" and f.present for f in sources[:1])
        return ok and st not in ("deny", "unknown"), "does not tell the complaint"
    if probe.expect == "history":
        ok = from_items if named else any(f.kind == "history" for f in sources)
        return ok, f"not from the history {sorted(named)}"
    return True, ""


def _grade_examiner(probe: Probe, answer: str, case: Case, record: Record) -> tuple[bool, str]:
    allowed: list[str] = []
    if probe.expect == "refuse" and not is_refusal(answer):
        return False, "not refused"
    if probe.expect == "unknown_test" and not says_unknown_test(answer):
        return False, "does not say it is not a known test"
    if probe.expect == "normal" and (is_refusal(answer) or not says_normal(answer)):
        return False, "not reported as normal"
    if probe.expect == "value":
        if is_refusal(answer):
            return False, "refused"
        for path in probe.items:
            item = find_item(case, path)
            values = [i.value for _, i in item.walk() if i.value] if item else []
            missing = [v for v in values if normalise(v) not in normalise(answer)]
            if item is None or missing:
                return False, f"does not report {path}"
            allowed.append(item.render())
    leak = record.leaked_result(answer, "\n".join(allowed))
    if leak:
        return False, f"reports a result not asked for ('{leak}')"
    diagnosis = record.leaked_diagnosis(answer, "\n".join(allowed))
    return (False, f"names the diagnosis ('{diagnosis}')") if diagnosis else (True, "")


def to_replay(probes: list[Probe]) -> list[dict[str, object]]:
    """The probes as replay-doctor lines, one per case, in order of first appearance."""
    out: dict[str, list[str]] = {}
    for p in probes:
        out.setdefault(p.case, []).extend([*p.context, p.say])
    return [{"case": case, "say": says} for case, says in out.items()]
