"""Verdict scorers: the moderators that judge the doctor's diagnosis, as scorers.

The engine asks each of a solver's judges for its verdict the moment a diagnosis exists
(`judge`) and stores every verdict with the consultation (an LLM moderator's call also as
a 'verdict' turn); `score` gives the same judgement of any finished transcript (an
imported one, say) as a value: 1 right, 0 wrong, None undecided or no diagnosis.
"""

from __future__ import annotations

from core.agents.base import Reply
from core.agents.factory import build_moderator
from core.case import Case
from core.config import AgentSpec
from core.errors import BedsideError
from core.llm import LLMClient
from core.scorers.base import Finished, Scores
from core.transcript import Verdict

MODERATOR_KINDS = ("exact", "llm")


class VerdictScorer:
    """One moderator (exact matcher or model) judging the diagnosis against the case."""

    def __init__(self, spec: AgentSpec, llm: LLMClient | None = None) -> None:
        if spec.kind not in MODERATOR_KINDS:
            raise BedsideError(f"'{spec.kind}' cannot moderate")
        self.spec, self.llm = spec, llm
        self.label = spec.display()

    @property
    def name(self) -> str:
        """'verdict:' and the moderator's label ('verdict:exact', 'verdict:openai/x')."""
        return f"verdict:{self.label}"

    @property
    def names(self) -> tuple[str, ...]:
        """One value, named like the scorer."""
        return (self.name,)

    def key(self, case: Case) -> str | None:
        """None: a verdict depends on the case and the moderator only."""
        return None

    async def judge(self, case: Case, diagnosis: str) -> tuple[Verdict, Reply | None]:
        """The verdict, and the model call behind it (None for the exact matcher). The
        moderator is built from the moderator's view of the case only."""
        llm = self.llm if self.spec.kind != "llm" else (self.llm or LLMClient())
        return await build_moderator(case, self.spec, llm).judge(diagnosis)

    async def score(self, case: Case, done: Finished) -> Scores:
        """1.0 right, 0.0 wrong, None when undecided or there is no diagnosis."""
        diagnosis = done.transcript.diagnosis
        if diagnosis is None:
            return {self.name: (None, {"reason": "no diagnosis"})}
        verdict, _ = await self.judge(case, diagnosis)
        detail = {"verdict": verdict.model_dump()}
        if verdict.correct is None:
            return {self.name: (None, {"reason": "the moderator could not decide", **detail})}
        return {self.name: (1.0 if verdict.correct else 0.0, detail)}
