"""The retrieval patient with biases: the same deterministic answers from the case, plus
what each bias makes it say, by fixed rules (phrases in `core.agents.bias_phrases`).

When a bias shows:
- a cognitive bias (self_diagnosis, recency, frequency, false_consensus) adds its `mention`
  to the patient's first answer; asked what it thinks it has (where the plain patient says
  "I don't know what it is"), the patient answers with the bias's `insist` instead. The
  illness is the one drawn for that bias from the view's hearsay (`core.biases
  .condition_for`: the same draw a model patient's paragraph names), never the diagnosis;
  a case with no differential to draw from gives "something serious".
- an implicit bias (gender, race, sexual_orientation, cultural, education, religion,
  socioeconomic): bedside gives the doctor no persona, so the patient reacts to the doctor
  as it perceives them. Its `open` distrust is added to the first answer, and its `guarded`
  remark to any later answer whose question touches the bias's subject (`TRIGGERS`: being
  examined for gender, the family for race, the social history for religion, ...).
Nothing else changes: the facts, and so the fidelity of the answers about them, are the
plain patient's. The reply's meta names the biases that spoke (`bias_shown`).
"""

from __future__ import annotations

from collections.abc import Sequence

from core.agents import intents
from core.agents.base import DeltaFn, Reply
from core.agents.bias_phrases import REMARKS, TRIGGERS, UNKNOWN, VERSION
from core.agents.retrieval_patient import RetrievalPatient
from core.agents.templates import lang_key, phrase
from core.biases import PATIENT_BIASES, condition_for, names
from core.caseindex.cues import cues
from core.caseindex.matching import cue_hit, normalise
from core.transcript import Role, Turn
from core.views import PatientView


class BiasedRetrievalPatient:
    """The deterministic patient of a PatientView, with the biases of `bias` ('+'-joined)."""

    label = "retrieval"

    def __init__(self, view: PatientView, bias: str | None) -> None:
        self.plain = RetrievalPatient(view)
        self.language = view.language
        self.lang = lang_key(view.language)
        self.biases = [n for n in names(bias) if n in PATIENT_BIASES]
        unknown = UNKNOWN.get(self.lang, UNKNOWN["en"])
        self.illness = {n: condition_for(list(view.hearsay), view.case_id, n) or unknown
                        for n in self.biases if PATIENT_BIASES[n].talks_of_illness}

    async def answer(self, question: str, turns: list[Turn], on_delta: DeltaFn) -> Reply:
        """The plain answer with what the biases add (instantaneous, not streamed)."""
        text, shown = self.respond(question, turns)
        return Reply(text=text, model="retrieval", meta={"bias_shown": shown} if shown else {})

    def respond(self, question: str, turns: Sequence[Turn] = ()) -> tuple[str, list[str]]:
        """(answer, the biases that showed in it); `turns` is the dialogue before it."""
        plain = self.plain.respond(question, turns)
        first = not any(t.role == Role.PATIENT for t in turns)
        talkers = [n for n in self.biases if n in self.illness]
        if talkers and plain == phrase(self.language, "no_diagnosis"):
            # Asked what it thinks it has: the bias answers instead of "I don't know".
            return self._join([self._say(n, "insist") for n in talkers]), talkers
        shown = [n for n in self.biases if first or self._touched(n, question)]
        return self._join([plain, *(self._say(n, self._when(n, first)) for n in shown)]), shown

    def _when(self, name: str, first: bool) -> str:
        if name in self.illness:
            return "mention"
        return "open" if first else "guarded"

    def _touched(self, name: str, question: str) -> bool:
        """Whether a later question touches what an implicit bias is about."""
        if name in self.illness:
            return False
        q = normalise(question)
        return any(intents.is_exam_request(question) if key == "exam"
                   else cue_hit(q, cues(self.language, key)) for key in TRIGGERS[name])

    def _say(self, name: str, key: str) -> str:
        table = REMARKS.get(self.lang, REMARKS["en"])
        return table[name][key].format(condition=self.illness.get(name, ""))

    def _join(self, parts: list[str]) -> str:
        return phrase(self.language, "join").join(p for p in parts if p)


def tables() -> dict[str, object]:
    """What decides the biases' remarks, for the reproducibility hash."""
    return {"version": VERSION, "remarks": REMARKS, "unknown": UNKNOWN,
            "triggers": TRIGGERS}
