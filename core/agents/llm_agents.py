"""Model-backed doctor, patient, examiner and moderator (through `core.llm.LLMClient`).

Each is built from its role's view, renders that view into our own versioned prompt
(`core.prompts`), and keeps the conversation as chat messages from its own side. The doctor
is sent the images it has been shown (`DoctorState.images`) as image content parts: the
up-front ones with the presentation, the others in the message answering its
`REQUEST IMAGES`. Model output is untrusted: the examiner refuses catch-all requests
before any model call, and a
moderator whose call fails gives an undecided verdict instead of failing the consultation.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from core import prompts
from core.agents.base import DeltaFn, DoctorState, Reply
from core.agents.doctor_history import dialogue
from core.agents.moderator import parse_yes_no
from core.agents.retrieval_examiner import is_vague
from core.agents.templates import phrase
from core.config import AgentSpec
from core.errors import ModelError
from core.images import CaseImage, image_parts
from core.prompts.bias import doctor_paragraphs, patient_paragraphs, with_paragraphs
from core.prompts.render import render_profile
from core.transcript import FinalReport, Role, Turn, Verdict
from core.views import DoctorView, ExaminerView, ModeratorView, PatientView

if TYPE_CHECKING:
    from core.llm import LLMClient

Messages = list[dict[str, Any]]
Complete = Callable[[Messages], Awaitable[Reply]]
PATIENT_PROMPT, EXAMINER_PROMPT = prompts.ROLE_PROMPTS["patient"][0], \
    prompts.ROLE_PROMPTS["examiner"][0]


class LLMDoctor:
    """A model playing the doctor (its biases' paragraphs in its instructions)."""

    def __init__(self, view: DoctorView, spec: AgentSpec, client: LLMClient,
                 max_turns: int, protocol: str = "agentclinic") -> None:
        options = ("Possible diagnoses to choose from: " + "; ".join(view.options)
                   if view.options else "")
        if view.images_on_request:
            note = prompts.get("doctor-images-on-request/v1").format(
                count=view.images_on_request)
            options = f"{note}\n{options}" if options else note
        prompt = prompts.PROTOCOL_DOCTOR_PROMPTS.get(protocol, ("doctor/v1",))[0]
        self.system = prompts.with_language(with_paragraphs(prompts.get(prompt).format(
            objective=view.objective, max_turns=max_turns,
            language_name=prompts.language_name(view.language), options=options),
            doctor_paragraphs(spec.bias)), view.language)
        # Under AI Hospital's protocol the patient speaks first: no cue to begin.
        self.opening = protocol == "agentclinic"
        self.spec, self.client, self.label = spec, client, spec.display()

    def messages(self, turns: list[Turn], last: bool,
                 images: tuple[CaseImage, ...] = ()) -> Messages:
        """The dialogue from the doctor's side (its tools' turns included, the requests the
        patient relays to the examiner left out: `core.agents.doctor_history`), with the
        images it has been shown (up front with the cue to begin, or the first message)."""
        upfront = [i for i in images if i.upfront]
        by_hash = {i.sha256: i for i in images}

        def shown(t: Turn) -> dict[str, Any]:
            given = [by_hash[r.get("sha256")] for r in t.meta.get("images", [])
                     if r.get("sha256") in by_hash]
            return {"role": "user", "content": _with_images(
                t.content, "doctor-images-given/v1", given)}

        msgs: Messages = [{"role": "system", "content": self.system}]
        if self.opening or upfront:
            begin = "The patient is here. Begin." if self.opening else "The patient is here."
            msgs.append({"role": "user", "content": _with_images(
                begin, "doctor-images-upfront/v1", upfront)})
        msgs.extend(dialogue(turns, images=shown))
        if last:
            msgs.append({"role": "user", "content": prompts.get("doctor-last-turn/v1").text})
        return msgs

    async def act(self, state: DoctorState, on_delta: DeltaFn) -> Reply:
        """The next doctor message."""
        msgs = self.messages(state.turns, state.is_last, state.images)
        return await self.client.complete(self.spec, msgs, on_delta)

    async def report(self, state: DoctorState, on_delta: DeltaFn) -> Reply:
        """The five-part final report, parsed from headings."""
        msgs = self.messages(state.turns, False, state.images)
        msgs.append({"role": "user", "content": prompts.get("report/v1").text})
        reply = await self.client.complete(self.spec, msgs, on_delta)
        reply.report = parse_report(reply.text)
        return reply


def _with_images(text: str, heading: str, images: list[CaseImage]) -> Any:
    """A message's content: the text alone, or text parts and image parts when images
    come with it (those that cannot be had are named in the text only)."""
    sendable = [i for i in images if i.data is not None]
    if not sendable:
        return text
    return [{"type": "text", "text": text},
            {"type": "text", "text": prompts.get(heading).text}, *image_parts(sendable)]


_HEADINGS = {"symptoms": "symptoms", "examinations": "examinations",
             "diagnostic results": "diagnostic_results", "diagnostic rationale": "rationale",
             "treatment plan": "treatment_plan"}
_HEADING_RE = re.compile(r"^\W*(symptoms|examinations|diagnostic results|diagnostic rationale|"
                         r"treatment plan)\W*:?\s*(.*)$", re.IGNORECASE)


def parse_report(text: str) -> FinalReport:
    """Split a report into its five parts by heading; unknown text goes to the rationale."""
    parts: dict[str, list[str]] = {}
    current = "rationale"
    for line in text.splitlines():
        m = _HEADING_RE.match(line)
        if m:
            current = _HEADINGS[m.group(1).lower()]
            line = m.group(2)
        if line.strip():
            parts.setdefault(current, []).append(line.strip())
    return FinalReport.model_validate({k: "\n".join(v) for k, v in parts.items()})


class LLMPatient:
    """A model playing the patient, from its PatientView only (and its biases' paragraphs,
    `core.prompts.bias`)."""

    def __init__(self, view: PatientView, spec: AgentSpec, client: LLMClient) -> None:
        self.system = prompts.with_language(with_paragraphs(prompts.get(PATIENT_PROMPT).format(
            profile=render_profile(view), language_name=prompts.language_name(view.language)),
            patient_paragraphs(view, spec.bias)), view.language)
        self.spec, self.client, self.label = spec, client, spec.display()

    async def answer(self, question: str, turns: list[Turn], on_delta: DeltaFn) -> Reply:
        """Answer from the patient's side of the dialogue (results are not shown to it)."""
        msgs: Messages = [{"role": "system", "content": self.system}]
        for t in turns:
            if t.role == Role.DOCTOR and t.kind == "question":
                msgs.append({"role": "user", "content": t.content})
            elif t.role == Role.PATIENT and t.kind == "complaint":  # AI Hospital's opening
                msgs.append({"role": "user", "content": str(t.meta.get("opening", ""))})
                msgs.append({"role": "assistant", "content": t.content})
            elif t.role == Role.PATIENT and t.kind != "relay":
                msgs.append({"role": "assistant", "content": t.content})
        msgs.append({"role": "user", "content": question})
        return await self.client.complete(self.spec, msgs, on_delta)


class LLMExaminer:
    """A model playing the examiner, from its ExaminerView only."""

    def __init__(self, view: ExaminerView, spec: AgentSpec, client: LLMClient) -> None:
        findings = "\n".join(i.render() for i in [*view.physical_exam, *view.tests])
        self.system = prompts.with_language(prompts.get(EXAMINER_PROMPT).format(
            findings=findings or "(none)", language_name=prompts.language_name(view.language),
            normal=phrase(view.language, "normal")), view.language)
        self.lang = view.language
        self.spec, self.client, self.label = spec, client, spec.display()

    async def examine(self, tests: list[str], message: str, on_delta: DeltaFn) -> Reply:
        """Results for named tests; a refusal without any model call when none is named."""
        named = [t for t in tests if not is_vague(t)]
        if not named:
            return Reply(text=phrase(self.lang, "refusal"), model=self.label,
                         meta={"refused": True})
        request = prompts.get("examiner-request/v1").format(tests=", ".join(named),
                                                            message=message)
        msgs = [{"role": "system", "content": self.system}, {"role": "user", "content": request}]
        return await self.client.complete(self.spec, msgs, on_delta)


class LLMModerator:
    """A model judging the diagnosis yes/no, from its ModeratorView only."""

    def __init__(self, view: ModeratorView, spec: AgentSpec, client: LLMClient) -> None:
        self.system = prompts.with_language(prompts.get("moderator/v1").format(
            diagnosis=view.diagnosis, synonyms="; ".join(view.synonyms) or "(none)"),
            view.language, moderator=True)
        self.spec, self.client, self.label = spec, client, spec.display()

    async def judge(self, diagnosis: str) -> tuple[Verdict, Reply | None]:
        """Ask the model; an unreadable answer or a failed call gives `correct=None`."""
        question = prompts.get("moderator-question/v1").format(diagnosis=diagnosis)
        msgs = [{"role": "system", "content": self.system}, {"role": "user", "content": question}]
        try:
            reply = await self.client.complete(self.spec, msgs)
        except ModelError as err:
            return Verdict(moderator=self.label, correct=None, raw=f"error: {err}"), None
        return Verdict(moderator=self.label, correct=parse_yes_no(reply.text),
                       raw=reply.text), reply


def complete_from_spec(spec: AgentSpec, client: LLMClient | None = None) -> Complete:
    """One model call per `await complete(messages)`, on `spec`'s model, not streamed: what
    a one-shot role (the one-step doctor, a report judge, a rating patient) is given."""
    from core.llm import LLMClient  # at call time: this module needs core.llm for types only

    llm = client or LLMClient()
    quiet = spec.model_copy(update={"stream": False})

    async def complete(messages: Messages) -> Reply:
        return await llm.complete(quiet, messages)

    return complete
