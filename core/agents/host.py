"""The host of collaborating doctors (AI Hospital's dispute resolution): it reads every
doctor's current report, says whether they agree and, with dispute resolution, sums up and
lists at most three disputed points; at the end it writes the joint report.

Two hosts, one protocol (`Host`):
- `RuleHost` ('scripted', no model): the doctors agree when every diagnosis entity one of
  them names is named by all of them, entities compared by the rule the moderator and the
  entity metrics use (`core.clinical_text.relate`, either way round: a name, its core, a
  more specific form or a close spelling); each entity named by some doctors and not by
  the others is a disputed point, and so is a doctor with no diagnosis (first three, in
  the doctors' order). Its joint diagnosis is the one held by the most doctors (ties: the
  earliest doctor's), with that doctor's report.
- `LLMHost`: a model with our prompts (`core.prompts.collab_texts`): 'CONSENSUS: yes/no',
  a summary and the points '(a) … (c)' (at most three kept); then the five-part joint
  report.
Doctors are named 'Doctor A', 'Doctor B', … to the host and in everything it writes, never
by their model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from core import prompts
from core.agents.base import DeltaFn, Reply
from core.clinical_text import relate, split_entities
from core.config import AgentSpec
from core.errors import BedsideError
from core.transcript import FinalReport

if TYPE_CHECKING:
    from core.llm import LLMClient

VERSION = "host-rules/1"
MAX_POINTS = 3  # AI Hospital's host lists at most three disputed points per round
_CONSENSUS = re.compile(r"consensus\W*(yes|no)\b", re.IGNORECASE)
_POINT = re.compile(r"^\s*\(?([a-c])[).]\s*(.+)$", re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class TeamReport:
    """One doctor's current report in a case conference."""

    label: str  # 'A', 'B', …
    diagnosis: str | None
    report: FinalReport | None = None

    @property
    def name(self) -> str:
        """'Doctor A'."""
        return f"Doctor {self.label}"

    def opinion(self) -> str:
        """Diagnosis, rationale and treatment plan: what the conference argues about (the
        three parts AI Hospital's doctors revise)."""
        r = self.report or FinalReport()
        parts = [("Diagnosis", self.diagnosis or "none given"), ("Rationale", r.rationale),
                 ("Treatment plan", r.treatment_plan)]
        return "\n".join(f"{k}: {v.strip()}" for k, v in parts if v and v.strip())

    def full(self) -> str:
        """The five parts: symptoms and examinations, then the opinion."""
        r = self.report or FinalReport()
        head = [f"{k}: {v.strip()}" for k, v in (("Symptoms", r.symptoms),
                                                 ("Examinations", r.examinations))
                if v and v.strip()]
        return "\n".join([*head, self.opinion()])


def first_diagnosis(report: FinalReport | None) -> str | None:
    """The first line of a report's diagnostic results (numbering and bullets left out)."""
    text = report.diagnostic_results if report else None
    for line in (text or "").splitlines():
        line = re.sub(r"^\s*(?:\(?\d+[).、]|[-*•])\s*", "", line).strip()
        if line:
            return line
    return None


class Host(Protocol):
    """Reads the doctors' reports, round by round, then writes the joint one."""

    label: str

    async def assess(self, reports: list[TeamReport], critique: bool,
                     on_delta: DeltaFn) -> Reply:
        """Whether the doctors agree (meta 'consensus'); with `critique`, a summary
        (meta 'summary') and at most three disputed points (meta 'points')."""
        ...

    async def conclude(self, reports: list[TeamReport], on_delta: DeltaFn) -> Reply:
        """The joint report (Reply.report; its first diagnostic result is the joint
        diagnosis)."""
        ...


def _names(labels: list[str]) -> str:
    names = [f"Doctor {x}" for x in labels]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _same(a: str, b: str) -> bool:
    return a == b or relate(a, b) is not None or relate(b, a) is not None


@dataclass
class _Group:
    entity: str
    written: str
    holders: list[str]


def _groups(reports: list[TeamReport]) -> list[_Group]:
    """The diagnosis entities named, each with the doctors naming it, in order."""
    groups: list[_Group] = []
    for r in reports:
        entities = split_entities(r.diagnosis)
        for e in entities:
            found = next((g for g in groups if _same(g.entity, e)), None)
            if found is None:
                written = (r.diagnosis or e).strip() if len(entities) == 1 else e
                groups.append(_Group(e, written, [r.label]))
            elif r.label not in found.holders:
                found.holders.append(r.label)
    return groups


def disputed_points(reports: list[TeamReport]) -> list[str]:
    """Every point the doctors differ on (a doctor without a diagnosis; an entity some
    name and others do not), in the doctors' order."""
    labels = [r.label for r in reports]
    points = [f"{r.name} gives no diagnosis." for r in reports if not split_entities(r.diagnosis)]
    for g in _groups(reports):
        if len(g.holders) < len(labels):
            others = [x for x in labels if x not in g.holders]
            points.append(f"{g.written}: held by {_names(g.holders)}, not by {_names(others)}.")
    return points


def _summary(reports: list[TeamReport]) -> str:
    return " ".join(f"{r.name}: {r.diagnosis or 'no diagnosis'}." for r in reports)


class RuleHost:
    """The deterministic host (see the module docstring)."""

    label = "scripted"

    async def assess(self, reports: list[TeamReport], critique: bool,
                     on_delta: DeltaFn) -> Reply:
        """Agreement by diagnosis entities; the points are the differing ones."""
        every = disputed_points(reports)
        consensus = not every
        summary = _summary(reports)
        if consensus:
            text = f"The doctors agree: {reports[0].diagnosis}. No dispute remains."
        elif not critique:
            text = "The doctors do not agree yet."
        else:
            points = every[:MAX_POINTS]
            listed = "\n".join(f"({chr(97 + i)}) {p}" for i, p in enumerate(points))
            text = f"Summary: {summary}\nDisputed points:\n{listed}"
        return Reply(text=text, model="scripted", meta={
            "consensus": consensus, "points": every[:MAX_POINTS] if critique else [],
            "summary": summary if critique else ""})

    async def conclude(self, reports: list[TeamReport], on_delta: DeltaFn) -> Reply:
        """The diagnosis the most doctors hold, with its first holder's report."""
        groups = _groups(reports)
        support = {r.label: max((len(g.holders) for g in groups
                                 if r.label in g.holders), default=0) for r in reports}
        chosen = max(reports, key=lambda r: support[r.label])  # first of the best
        if not support[chosen.label]:
            report = FinalReport(rationale="No doctor gave a diagnosis.")
            return Reply(text="Joint diagnosis: none (no doctor gave one).", model="scripted",
                         report=report)
        holders = [r.label for r in reports if r.diagnosis and
                   any(chosen.label in g.holders and r.label in g.holders for g in groups)]
        why = (f"Held by {_names(holders)} ({len(holders)} of {len(reports)} doctors); "
               f"{chosen.name}'s report.")
        base = chosen.report or FinalReport()
        report = base.model_copy(update={"diagnostic_results": chosen.diagnosis,
                                         "rationale": why})
        # The findings are the chosen doctor's (in its report above): the turn says so.
        text = TeamReport("joint", chosen.diagnosis, report).opinion()
        return Reply(text=f"Joint report (symptoms and examinations as in {chosen.name}'s "
                          f"report).\n{text}", model="scripted", report=report)


class LLMHost:
    """A model chairing the conference (see the module docstring)."""

    def __init__(self, spec: AgentSpec, client: LLMClient, language: str) -> None:
        self.spec, self.client, self.label = spec, client, spec.display()
        self.language = prompts.language_name(language)

    def _system(self, prompt_id: str, reports: list[TeamReport]) -> str:
        return prompts.get(prompt_id).format(count=len(reports),
                                             names=_names([r.label for r in reports]),
                                             language_name=self.language)

    async def assess(self, reports: list[TeamReport], critique: bool,
                     on_delta: DeltaFn) -> Reply:
        """One call: consensus, and with `critique` the summary and points."""
        system = self._system("host-assess/v1" if critique else "host-agree/v1", reports)
        user = "\n\n".join(f"{r.name}:\n{r.opinion()}" for r in reports)
        reply = await self.client.complete(self.spec, [{"role": "system", "content": system},
                                                       {"role": "user", "content": user}],
                                           on_delta)
        consensus, points, summary = parse_assessment(reply.text)
        reply.meta.update(consensus=consensus, points=points if critique else [],
                          summary=summary if critique else "")
        return reply

    async def conclude(self, reports: list[TeamReport], on_delta: DeltaFn) -> Reply:
        """One call: the five-part joint report."""
        from core.agents.llm_agents import parse_report

        system = self._system("host-final/v1", reports)
        user = "\n\n".join(f"{r.name}:\n{r.full()}" for r in reports)
        reply = await self.client.complete(self.spec, [{"role": "system", "content": system},
                                                       {"role": "user", "content": user}],
                                           on_delta)
        reply.report = parse_report(reply.text)
        return reply


def parse_assessment(text: str) -> tuple[bool, list[str], str]:
    """(consensus, points, summary) from a model host's answer: consensus only on an
    explicit 'CONSENSUS: yes'; at most three '(a)'-style points; the 'Summary:' line."""
    m = _CONSENSUS.search(text)
    consensus = bool(m and m.group(1).lower() == "yes")
    points = [p.group(2).strip() for p in _POINT.finditer(text)][:MAX_POINTS]
    summary = next((line.split(":", 1)[1].strip() for line in text.splitlines()
                    if line.strip().lower().startswith("summary:")), "")
    return consensus, [] if consensus else points, summary


def build_host(spec: AgentSpec, client: LLMClient | None, language: str) -> Host:
    """The host a spec names: 'scripted' (rules) or a model."""
    if spec.kind == "scripted":
        return RuleHost()
    if spec.kind == "llm" and client is not None:
        return LLMHost(spec, client, language)
    raise BedsideError(f"'{spec.display()}' cannot host a case conference")


def tables() -> dict[str, object]:
    """What decides the rule host, for the reproducibility hash."""
    return {"version": VERSION, "max_points": MAX_POINTS}
